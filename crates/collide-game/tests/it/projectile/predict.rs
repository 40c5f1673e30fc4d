//! Trajectory prediction is the flight: the same step and tick, so every
//! predicted point equals the simulated one bit for bit, bounces and all;
//! in free flight it is the semi-implicit closed form; with another tick
//! it differs; and launch velocities reach their targets.

use crate::common::Boxes;
use collide::narrow::d3::{Cuboid, Pose};
use collide::world::{Collider3, World3};
use collide_game::D3;
use collide_game::glam::Vec3;
use collide_game::projectile::{
    Ballistics, Body, Bounce, Ending, Flight, Media, Medium, OnHit, Projectile, launch_velocity,
};
use collide_game::time::TimeStep;
use collide_game::{Gravity, Surroundings};
use collide_scenes::SceneRng;

/// Bounce off the first three things, stop at the fourth.
fn three_bounces() -> impl FnMut(&collide_game::projectile::Hit<Vec3>) -> OnHit {
    let mut hits = 0;
    move |_| {
        hits += 1;
        if hits <= 3 {
            OnHit::Bounce(Bounce::new(0.6, 0.1).unwrap())
        } else {
            OnHit::Stop
        }
    }
}

#[test]
fn a_thousand_predicted_throws_equal_their_flights_bit_for_bit() {
    let mut world = World3::new();
    let mut rng = SceneRng::new(99);
    let floor = (
        Cuboid::new(Vec3::new(40.0, 0.5, 40.0)).unwrap(),
        Pose::at(Vec3::new(0.0, -0.5, 0.0)).unwrap(),
    );
    world
        .insert(Collider3::fixed(floor.0, floor.1, ()))
        .unwrap();
    for _ in 0..30 {
        let half = Vec3::new(
            rng.range(0.2, 2.0),
            rng.range(0.5, 3.0),
            rng.range(0.2, 2.0),
        );
        let at = Pose::at(Vec3::new(
            rng.range(-15.0, 15.0),
            half.y,
            rng.range(-15.0, 15.0),
        ))
        .unwrap();
        let wall = (Cuboid::new(half).unwrap(), at);
        world.insert(Collider3::fixed(wall.0, wall.1, ())).unwrap();
    }
    world.step();
    let media = Media::<D3>::new(Medium::AIR);
    let around = Surroundings::new(&world, Gravity::earth()).with_media(&media);
    let dt = TimeStep::new(1.0 / 60.0).unwrap();
    let body = Body::sphere(0.4, 0.5, 0.05).unwrap();
    let (mut ballistics, mut predicted, mut flown) =
        (Ballistics::default(), Vec::new(), Vec::new());
    let mut bounced = 0;
    for throw in 0..1000 {
        let start = Vec3::new(
            rng.range(-10.0, 10.0),
            rng.range(0.5, 2.0),
            rng.range(-10.0, 10.0),
        );
        let velocity = Vec3::new(
            rng.range(-15.0, 15.0),
            rng.range(0.0, 12.0),
            rng.range(-15.0, 15.0),
        );
        let radius = if throw % 2 == 0 { 0.0 } else { 0.05 };
        let grenade = Projectile::<D3>::new(start, velocity, radius, 4.0, None, body).unwrap();
        let ending = ballistics.predict(
            &grenade,
            &around,
            dt,
            300,
            &mut three_bounces(),
            &mut predicted,
        );
        let mut shot = grenade;
        let mut respond = three_bounces();
        flown.clear();
        let mut hits = 0;
        for _ in 0..300 {
            let flight = ballistics.step(&mut shot, &around, dt, &mut respond);
            hits += ballistics.hits().len();
            flown.push(shot.position());
            if flight != Flight::Flying {
                break;
            }
        }
        assert_eq!(predicted, flown, "throw {throw} ({ending:?})");
        bounced += usize::from(hits >= 2);
    }
    assert!(bounced > 100, "only {bounced} throws bounced");
}

#[test]
fn free_flight_follows_the_semi_implicit_closed_form() {
    let mut world: World3 = World3::new();
    world.step();
    let media = Media::<D3>::new(Medium::VACUUM);
    let g = 9.81f64;
    let around = Surroundings::new(
        &world,
        Gravity::new(Vec3::new(0.0, -g as f32, 0.0)).unwrap(),
    )
    .with_media(&media);
    let body = Body::sphere(0.4, 0.5, 0.05).unwrap();
    let (v0x, v0y) = (3.0f64, 5.0f64);
    for rate in [30.0f64, 60.0] {
        let dt = 1.0 / rate;
        let throw = Projectile::<D3>::new(
            Vec3::ZERO,
            Vec3::new(v0x as f32, v0y as f32, 0.0),
            0.0,
            10.0,
            None,
            body,
        )
        .unwrap();
        let mut path = Vec::new();
        let ending = Ballistics::default().predict(
            &throw,
            &around,
            TimeStep::new(dt as f32).unwrap(),
            (rate as usize) / 2,
            |_| OnHit::Stop,
            &mut path,
        );
        assert_eq!(ending, Ending::Cap);
        for (n, p) in path.iter().enumerate() {
            let t = (n + 1) as f64 * dt;
            let y = v0y * t - 0.5 * g * t * t - 0.5 * g * dt * t;
            assert!(
                (f64::from(p.y) - y).abs() < 1e-6,
                "{rate} Hz, tick {n}: {} against {y}",
                p.y
            );
            assert!((f64::from(p.x) - v0x * t).abs() < 1e-6);
        }
    }
}

#[test]
fn a_prediction_with_another_tick_misses_the_flight() {
    let mut world: World3 = World3::new();
    world.step();
    let media = Media::<D3>::new(Medium::AIR);
    let around = Surroundings::new(&world, Gravity::earth()).with_media(&media);
    let body = Body::sphere(0.4, 0.5, 0.05).unwrap();
    let throw =
        Projectile::<D3>::new(Vec3::ZERO, Vec3::new(8.0, 8.0, 0.0), 0.0, 10.0, None, body).unwrap();
    let (mut fine, mut coarse) = (Vec::new(), Vec::new());
    let mut b = Ballistics::default();
    b.predict(
        &throw,
        &around,
        TimeStep::new(1.0 / 60.0).unwrap(),
        60,
        |_| OnHit::Stop,
        &mut fine,
    );
    b.predict(
        &throw,
        &around,
        TimeStep::new(1.0 / 30.0).unwrap(),
        30,
        |_| OnHit::Stop,
        &mut coarse,
    );
    // After one second by both ticks: apart by about ½·g·(1/30 − 1/60)·1 s.
    let apart = (fine[59] - coarse[29]).length();
    assert!(apart > 0.05, "only {apart} m apart");
}

#[test]
fn launch_velocities_reach_their_target_or_say_none() {
    let g = 9.81f32;
    for (target, speed) in [
        (Vec3::new(10.0, 0.0, 0.0), 12.0f32),
        (Vec3::new(6.0, 3.0, 4.0), 14.0),
        (Vec3::new(-5.0, -2.0, 1.0), 9.0),
    ] {
        let arcs = launch_velocity::<D3>(Vec3::ZERO, target, speed, g)
            .unwrap()
            .expect("reachable");
        let (low, high) = (arcs.low, arcs.high);
        for v in [low, high] {
            assert!((v.length() - speed).abs() < 1e-3);
            let level = Vec3::new(target.x, 0.0, target.z).length();
            let across = Vec3::new(v.x, 0.0, v.z).length();
            let t = level / across;
            let y = v.y * t - 0.5 * g * t * t;
            assert!((y - target.y).abs() < 1e-3, "{target}: lands at height {y}");
        }
        assert!(low.y < high.y);
    }
    for target in [Vec3::new(50.0, 0.0, 0.0), Vec3::new(1.0, 20.0, 0.0)] {
        assert_eq!(launch_velocity::<D3>(Vec3::ZERO, target, 12.0, g), Ok(None));
    }
    assert!(launch_velocity::<D3>(Vec3::ZERO, Vec3::X, 0.0, g).is_err());
    assert!(launch_velocity::<D3>(Vec3::NAN, Vec3::X, 12.0, g).is_err());
}

/// A floor 200 m square, its top at y = 0.
fn floor() -> Boxes {
    Boxes::new(&[(
        Vec3::new(-100.0, -1.0, -100.0),
        Vec3::new(100.0, 0.0, 100.0),
    )])
}

/// A grenade thrown along a floor, bouncing with restitution 0.4 and
/// friction 0.3: it never stopped (each bounce off the floor, slower than
/// gravity's pull in a tick, hopped by rounding), so a prediction of 900
/// ticks ended at its cap with 0.047 m/s left, and `Rest` was never an
/// ending. Now it comes to rest, and the prediction ends `Rest` on the
/// same tick as the flight.
#[test]
fn a_bouncing_grenade_comes_to_rest_and_its_prediction_says_so_on_the_same_tick() {
    let floor = floor();
    let media = Media::<D3>::new(Medium::AIR);
    let around = Surroundings::new(&floor.world, Gravity::earth()).with_media(&media);
    let dt = TimeStep::new(1.0 / 60.0).unwrap();
    let body = Body::sphere(0.4, 0.5, 0.05).unwrap();
    let thrown = Projectile::<D3>::new(
        Vec3::new(0.0, 1.0, 0.0),
        Vec3::new(6.0, 5.0, 2.0),
        0.05,
        60.0,
        None,
        body,
    )
    .unwrap();
    let bounce = OnHit::Bounce(Bounce::new(0.4, 0.3).unwrap());
    let mut ballistics = Ballistics::default();
    let mut shot = thrown;
    let (mut last_bounce, mut rested) = (0, None);
    for tick in 1..=900 {
        let flight = ballistics.step(&mut shot, &around, dt, |_| bounce);
        // A bounce that leaves the floor faster than gravity's pull in a
        // tick is a real one.
        if ballistics
            .hits()
            .iter()
            .any(|h| h.velocity.y.abs() > 9.81 / 60.0 * 2.0)
        {
            last_bounce = tick;
        }
        if flight == Flight::Resting {
            rested = Some(tick);
            break;
        }
        assert_eq!(flight, Flight::Flying);
    }
    let rested = rested.expect("it comes to rest within 900 ticks");
    assert!(
        rested - last_bounce <= 300,
        "rested at {rested}, last bounce at {last_bounce}"
    );
    assert_eq!(shot.velocity(), Vec3::ZERO);
    assert!(
        (shot.position().y - 0.05).abs() < 1e-3,
        "at {}",
        shot.position()
    );
    let mut path = Vec::new();
    let ending = ballistics.predict(&thrown, &around, dt, 900, |_| bounce, &mut path);
    assert_eq!((ending, path.len()), (Ending::Rest, rested));
    assert_eq!(*path.last().unwrap(), shot.position());
}

/// A shot sliding on a floor (too slow to leave it) slows by Coulomb's
/// friction, `friction` g a second, at any tick rate: from 2 m/s with
/// friction 0.2 it stops after 1.02 s and 1.02 m (v²/2μg), within a
/// tick's travel, at 30, 60, 120 and 144 Hz. (Losing a share of its
/// speed at every tick's touch, it stopped after 0.22 m and 0.3 s at
/// 30 Hz.)
#[test]
fn a_sliding_shot_stops_where_coulombs_friction_says_at_any_tick_rate() {
    let floor = floor();
    let around = Surroundings::new(&floor.world, Gravity::earth());
    let (speed, friction, g) = (2.0f32, 0.2f32, 9.81f32);
    let (want_time, want_way) = (speed / (friction * g), speed * speed / (2.0 * friction * g));
    for hz in [30u32, 60, 120, 144] {
        let dt = TimeStep::new(1.0 / hz as f32).unwrap();
        let body = Body::new(1.0, 0.0, 0.0).unwrap();
        let mut shot = Projectile::<D3>::new(
            Vec3::new(0.0, 0.05, 0.0),
            Vec3::X * speed,
            0.05,
            60.0,
            None,
            body,
        )
        .unwrap();
        let bounce = OnHit::Bounce(Bounce::new(0.0, friction).unwrap());
        let mut ballistics = Ballistics::default();
        let mut stopped = None;
        for tick in 1..=10 * hz {
            if ballistics.step(&mut shot, &around, dt, |_| bounce) == Flight::Resting {
                stopped = Some(tick as f32 / hz as f32);
                break;
            }
        }
        let time = stopped.expect("it comes to rest");
        let tick_travel = speed / hz as f32;
        assert!(
            (time - want_time).abs() <= 2.0 / hz as f32,
            "{hz} Hz: stopped after {time} s"
        );
        let way = shot.position().x;
        assert!(
            (way - want_way).abs() <= tick_travel,
            "{hz} Hz: stopped after {way} m"
        );
    }
}
