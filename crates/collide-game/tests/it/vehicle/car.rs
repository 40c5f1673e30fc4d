//! The raycast car against its oracles: static spring compression, no
//! creep at rest, the handbrake on a slope, a drop, the friction limit,
//! finite wheel spin at any tick rate, oversteer and understeer.

use crate::common::Boxes;
use collide_game::glam::{Quat, Vec3};
use collide_game::time::TimeStep;
use collide_game::vehicle::{Car, CarSettings, Controls, Drive, WheelSettings};

const MASS: f32 = 1200.0;
const STIFFNESS: f32 = 35_000.0;

fn flat() -> Boxes {
    Boxes::new(&[(
        Vec3::new(-2000.0, -1.0, -2000.0),
        Vec3::new(2000.0, 0.0, 2000.0),
    )])
}

fn settings(drive: Drive) -> CarSettings {
    let wheel = WheelSettings::new(Vec3::ZERO, 0.33, 0.35)
        .unwrap()
        .with_spring(STIFFNESS, 3_000.0, 4_500.0)
        .unwrap();
    CarSettings::four_wheels(MASS, Vec3::new(0.9, 0.5, 2.2), 1.6, 2.6, -0.2, wheel)
        .unwrap()
        .with_drive(drive)
}

/// A car resting on flat ground after `seconds` of no input.
fn settled(drive: Drive, hz: f32, seconds: f32, boxes: &mut Boxes) -> Car {
    let at = Vec3::new(0.0, 0.75, 0.0);
    let mut car = Car::new(settings(drive), at, Quat::IDENTITY, &mut boxes.world, ()).unwrap();
    let dt = TimeStep::new(1.0 / hz).unwrap();
    {
        let world = &mut boxes.world;
        for _ in 0..(seconds * hz) as usize {
            car.step(dt, &Controls::NONE, world).unwrap();
        }
    }
    car
}

#[test]
fn at_rest_each_spring_holds_a_quarter_of_the_weight() {
    let car = settled(Drive::Rear, 60.0, 10.0, &mut flat());
    let expected = MASS * 9.81 / (4.0 * STIFFNESS);
    for (k, w) in car.wheels().iter().enumerate() {
        assert!(
            ((w.compression - expected) / expected).abs() < 0.01,
            "wheel {k}: {} m against {expected} m",
            w.compression
        );
    }
}

#[test]
fn a_car_left_alone_does_not_creep() {
    let mut boxes = flat();
    let mut car = settled(Drive::Rear, 60.0, 3.0, &mut boxes);
    let start = car.body().position();
    let dt = TimeStep::new(1.0 / 60.0).unwrap();
    {
        let world = &mut boxes.world;
        for _ in 0..600 {
            car.step(dt, &Controls::NONE, world).unwrap();
        }
    }
    let moved = (car.body().position() - start).with_y(0.0).length();
    assert!(moved < 0.01, "crept {moved} m in 10 s");
}

#[test]
fn the_handbrake_holds_the_car_on_a_ten_degree_slope() {
    let tilt = Quat::from_rotation_x(10f32.to_radians());
    let mut boxes = Boxes::turned(&[(
        Vec3::new(0.0, -1.0, 0.0),
        Vec3::new(200.0, 1.0, 200.0),
        tilt,
    )]);
    // Facing up the slope (-z rises): placed just above it, turned with it.
    let mut car = Car::new(
        settings(Drive::Rear),
        tilt * Vec3::new(0.0, 0.75, 0.0),
        tilt,
        &mut boxes.world,
        (),
    )
    .unwrap();
    let dt = TimeStep::new(1.0 / 60.0).unwrap();
    let hold = Controls::new(0.0, 0.0, 0.0, true).unwrap();
    let mut start = Vec3::ZERO;
    {
        let world = &mut boxes.world;
        for tick in 0..660 {
            if tick == 60 {
                start = car.body().position();
            }
            car.step(dt, &hold, world).unwrap();
        }
    }
    let moved = car.body().position().distance(start);
    assert!(moved < 0.01, "slid {moved} m in 10 s");
}

/// Drops the car from `height` metres above its resting height at `hz`:
/// the lowest any wheel's bottom reached (m, the ground is at 0), after
/// checking every tick that no spring pulled.
fn drop_from(height: f32, hz: f32) -> f32 {
    let mut boxes = flat();
    let mut car = Car::new(
        settings(Drive::Rear),
        Vec3::new(0.0, 0.75 + height, 0.0),
        Quat::IDENTITY,
        &mut boxes.world,
        (),
    )
    .unwrap();
    let dt = TimeStep::new(1.0 / hz).unwrap();
    let mut lowest = f32::INFINITY;
    {
        let world = &mut boxes.world;
        for _ in 0..(5.0 * hz) as usize {
            car.step(dt, &Controls::NONE, world).unwrap();
            for (w, s) in car.wheels().iter().zip(car.settings().wheels()) {
                assert!(w.load >= 0.0, "a spring pulled: {}", w.load);
                let centre = car.body().to_world(s.0.mount())
                    - Vec3::Y * (s.0.rest_length() - w.compression);
                lowest = lowest.min(centre.y - s.0.radius());
            }
        }
    }
    lowest
}

#[test]
fn after_a_drop_the_springs_never_pull_and_the_wheels_stay_above_ground() {
    let one = drop_from(1.0, 60.0);
    assert!(one > -0.01, "a wheel reached {one} m below the ground");
    // Three metres at 30 Hz: more than the springs can take; the bump
    // stop holds.
    let three = drop_from(3.0, 30.0);
    assert!(three > -0.02, "a wheel reached {three} m below the ground");
}

/// Hard driving: full throttle, then a slalom with the handbrake, at
/// `hz` ticks a second; calls `each` after every tick.
fn hard_driving(drive: Drive, hz: f32, mut each: impl FnMut(&Car)) {
    let mut boxes = flat();
    let mut car = settled(drive, hz, 1.0, &mut boxes);
    let dt = TimeStep::new(1.0 / hz).unwrap();
    {
        let world = &mut boxes.world;
        for tick in 0..(12.0 * hz) as usize {
            let t = tick as f32 / hz;
            let controls = if t < 4.0 {
                Controls::new(1.0, 0.0, 0.0, false).unwrap()
            } else {
                Controls::new(1.0, 0.0, (2.0 * t).sin(), (t as u32).is_multiple_of(3)).unwrap()
            };
            car.step(dt, &controls, world).unwrap();
            each(&car);
        }
    }
}

#[test]
fn no_tire_force_exceeds_the_grip_times_the_load() {
    for drive in [Drive::Rear, Drive::Front, Drive::All] {
        hard_driving(drive, 60.0, |car| {
            for w in car.wheels() {
                let force =
                    (w.force_along * w.force_along + w.force_across * w.force_across).sqrt();
                assert!(
                    force <= w.load * (1.0 + 1e-4) + 1e-3,
                    "{force} N under {} N",
                    w.load
                );
            }
        });
    }
}

#[test]
fn wheel_spin_stays_finite_at_thirty_sixty_and_a_hundred_and_twenty_hertz() {
    for hz in [30.0, 60.0, 120.0] {
        let mut fastest = 0.0f32;
        hard_driving(Drive::Rear, hz, |car| {
            for w in car.wheels() {
                assert!(w.spin.is_finite() && w.slip_ratio.is_finite());
                fastest = fastest.max(w.spin.abs());
            }
            assert!(car.body().linear_velocity().is_finite());
        });
        assert!(fastest <= 250.0 + 1.0, "{hz} Hz: {fastest} rad/s");
    }
    // In the air at full throttle the spin stops at its cap.
    let mut empty = Boxes::new(&[]);
    let mut car = Car::new(
        settings(Drive::Rear),
        Vec3::new(0.0, 50.0, 0.0),
        Quat::IDENTITY,
        &mut empty.world,
        (),
    )
    .unwrap();
    let dt = TimeStep::new(1.0 / 30.0).unwrap();
    {
        let world = &mut empty.world;
        for _ in 0..60 {
            car.step(dt, &Controls::new(1.0, 0.0, 0.0, false).unwrap(), world)
                .unwrap();
        }
    }
    for w in &car.wheels()[2..] {
        assert!(w.spin > 200.0 && w.spin <= 251.0, "{}", w.spin);
    }
}

/// The mean curvature (1/m: yaw rate over speed) of a car from 15 m/s at
/// half lock with `throttle`, over two seconds.
fn curvature_in_a_turn(drive: Drive, throttle: f32) -> f32 {
    let mut boxes = flat();
    let mut car = settled(drive, 60.0, 1.0, &mut boxes);
    let v = 15.0;
    car.set_velocity(car.forward() * v, Vec3::ZERO).unwrap();
    car.set_wheel_spin(v / 0.33).unwrap();
    let dt = TimeStep::new(1.0 / 60.0).unwrap();
    let turn = Controls::new(throttle, 0.0, 0.5, false).unwrap();
    let mut total = 0.0;
    {
        let world = &mut boxes.world;
        for tick in 0..150 {
            car.step(dt, &turn, world).unwrap();
            if tick >= 30 {
                total += car.body().angular_velocity().y / car.body().linear_velocity().length();
            }
        }
    }
    total / 120.0
}

#[test]
fn rear_drive_oversteers_and_front_drive_understeers_under_power() {
    // Neutral: the same turn coasting, where the drive does not matter.
    let neutral = curvature_in_a_turn(Drive::Rear, 0.0);
    let rear = curvature_in_a_turn(Drive::Rear, 1.0);
    let front = curvature_in_a_turn(Drive::Front, 1.0);
    assert!(
        rear > 1.2 * neutral,
        "rear drive {rear} against coasting {neutral}"
    );
    assert!(
        front < 0.9 * neutral,
        "front drive {front} against coasting {neutral}"
    );
}

#[test]
fn the_same_drive_replays_bit_for_bit() {
    let trace = || {
        let mut bits = Vec::new();
        hard_driving(Drive::Rear, 60.0, |car| {
            bits.extend(car.body().position().to_array().map(f32::to_bits));
        });
        bits
    };
    assert_eq!(trace(), trace());
}

/// A car from 20 m/s at full lock with the handbrake pulled for a second,
/// then coasting, with the assists `(anti_roll, drift_keep)`: the largest
/// roll (radians) and the speed after two seconds.
fn slide_with_assists(anti_roll: f32, drift_keep: f32) -> (f32, f32) {
    let mut boxes = flat();
    let mut car = Car::new(
        settings(Drive::Rear)
            .with_assists(anti_roll, drift_keep)
            .unwrap(),
        Vec3::new(0.0, 0.75, 0.0),
        Quat::IDENTITY,
        &mut boxes.world,
        (),
    )
    .unwrap();
    let dt = TimeStep::new(1.0 / 60.0).unwrap();
    let mut roll = 0.0f32;
    {
        let world = &mut boxes.world;
        for _ in 0..60 {
            car.step(dt, &Controls::NONE, world).unwrap();
        }
        car.set_velocity(car.forward() * 20.0, Vec3::ZERO).unwrap();
        car.set_wheel_spin(20.0 / 0.33).unwrap();
        for tick in 0..120 {
            let handbrake = tick < 60;
            let steer = if tick < 60 { 1.0 } else { 0.0 };
            car.step(
                dt,
                &Controls::new(0.0, 0.0, steer, handbrake).unwrap(),
                world,
            )
            .unwrap();
            let side = car.body().direction_to_world(Vec3::X);
            roll = roll.max(side.y.abs().asin());
        }
    }
    (roll, car.body().linear_velocity().length())
}

#[test]
fn the_assists_cut_the_roll_and_keep_the_speed_of_a_slide() {
    let (roll, speed) = slide_with_assists(0.0, 0.0);
    let (less_roll, _) = slide_with_assists(0.8, 0.0);
    let (_, kept) = slide_with_assists(0.0, 0.8);
    assert!(
        less_roll < 0.5 * roll,
        "roll {roll} rad, with the assist {less_roll} rad"
    );
    assert!(
        kept > speed + 1.0,
        "speed {speed} m/s, with the assist {kept} m/s"
    );
}

#[test]
fn a_light_brake_does_not_hold_a_car_on_a_steep_slope() {
    // A 30% grade: holding the car takes about 280 N m a wheel.
    let tilt = Quat::from_rotation_x(0.3f32.atan());
    let slid = |brake: f32| {
        let mut slope = Boxes::turned(&[(
            Vec3::new(0.0, -1.0, 0.0),
            Vec3::new(200.0, 1.0, 200.0),
            tilt,
        )]);
        let mut car = Car::new(
            settings(Drive::Rear),
            tilt * Vec3::new(0.0, 0.75, 0.0),
            tilt,
            &mut slope.world,
            (),
        )
        .unwrap();
        let dt = TimeStep::new(1.0 / 60.0).unwrap();
        let controls = Controls::new(0.0, brake, 0.0, false).unwrap();
        let mut start = Vec3::ZERO;
        {
            let world = &mut slope.world;
            for tick in 0..300 {
                if tick == 60 {
                    start = car.body().position();
                }
                car.step(dt, &controls, world).unwrap();
            }
        }
        car.body().position().distance(start)
    };
    // 25 N m a wheel cannot hold it; the full 2,500 can.
    assert!(
        slid(0.01) > 0.5,
        "a 1% brake held the car: {} m",
        slid(0.01)
    );
    assert!(
        slid(1.0) < 0.01,
        "the full brake let it slide {} m",
        slid(1.0)
    );
}

/// The car is a collider of its world: a shot hits it, its collider
/// follows it, and its wheels' rays see a character (and never its own
/// box, which holds their mounts).
#[test]
fn shots_hit_the_car_and_its_rays_see_a_character() {
    use collide_game::character::{Character, CharacterSettings};
    use collide_game::projectile::{Ballistics, Body, Flight, OnHit, Projectile};
    use collide_game::{D3, Gravity, Surroundings};
    let mut boxes = flat();
    let car = settled(Drive::Rear, 60.0, 1.0, &mut boxes);
    let world = &mut boxes.world;
    assert_eq!(
        world.pose(car.collider()).unwrap().position(),
        car.body().position()
    );
    let bullet = Body::sphere(0.008, 0.3, 0.0045).unwrap();
    let from = Vec3::new(-30.0, 0.75, 0.0);
    let mut shot =
        Projectile::<D3>::new(from, Vec3::new(400.0, 0.0, 0.0), 0.0, 1.0, None, bullet).unwrap();
    let mut ballistics = Ballistics::default();
    let dt = TimeStep::new(1.0 / 60.0).unwrap();
    for _ in 0..10 {
        let around = Surroundings::new(&*world, Gravity::earth());
        if ballistics.step(&mut shot, &around, dt, |_| OnHit::Stop) != Flight::Flying {
            break;
        }
    }
    assert_eq!(ballistics.hits()[0].handle, car.collider());
    assert!(
        (shot.position().x + 0.9).abs() < 1e-3,
        "at {}",
        shot.position()
    );
    // A character under the front left wheel, the car held above it: that
    // wheel's ray meets the head, 1.8 m up; the others reach no ground.
    let person = CharacterSettings::sized(1.8, 0.3).unwrap();
    let mount = car.settings().wheels()[0].0.mount();
    let head = Vec3::new(mount.x + 40.0, 0.9, mount.z);
    Character::<D3>::new(person, head, world, ()).unwrap();
    let mut high = Car::new(
        settings(Drive::Rear),
        Vec3::new(40.0, 2.6, 0.0),
        Quat::IDENTITY,
        world,
        (),
    )
    .unwrap();
    high.step(dt, &Controls::NONE, world).unwrap();
    let wheels = high.wheels();
    let contact = wheels[0]
        .contact
        .expect("the front left wheel meets the head");
    assert!((contact.y - 1.8).abs() < 1e-3, "met at {contact}");
    assert!(wheels[1..].iter().all(|w| w.contact.is_none()));
}
