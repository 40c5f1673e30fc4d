//! The tank against its oracles: a pivot on the spot, a straight line,
//! a broken track, a step, and a mirrored world.

use crate::common::Boxes;
use collide_game::glam::{Quat, Vec3};
use collide_game::time::TimeStep;
use collide_game::vehicle::{Side, Tank, TankSettings, TrackControls, WheelSettings};

fn settings() -> TankSettings {
    let wheel = WheelSettings::new(Vec3::ZERO, 0.35, 0.4)
        .unwrap()
        .with_spring(220_000.0, 20_000.0, 30_000.0)
        .unwrap();
    TankSettings::new(40_000.0, Vec3::new(1.7, 0.8, 3.5), 6, 2.8, 5.6, -0.5, wheel).unwrap()
}

fn flat() -> Boxes {
    Boxes::new(&[(
        Vec3::new(-3000.0, -1.0, -3000.0),
        Vec3::new(3000.0, 0.0, 3000.0),
    )])
}

/// A tank settled on `boxes` for a second, then driven with `controls`
/// for `seconds`; `each` sees it after every tick.
fn drive(
    boxes: &mut Boxes,
    tank: TankSettings,
    at: Vec3,
    controls: TrackControls,
    seconds: f32,
    mut each: impl FnMut(&Tank),
) -> Tank {
    let mut tank = Tank::new(tank, at, Quat::IDENTITY, &mut boxes.world, ()).unwrap();
    let dt = TimeStep::new(1.0 / 60.0).unwrap();
    {
        let world = &mut boxes.world;
        for _ in 0..60 {
            tank.step(dt, &TrackControls::default(), world).unwrap();
        }
        for _ in 0..(seconds * 60.0) as usize {
            tank.step(dt, &controls, world).unwrap();
            each(&tank);
        }
    }
    tank
}

/// The heading about y, radians.
fn heading(tank: &Tank) -> f32 {
    let f = tank.forward();
    (-f.x).atan2(-f.z)
}

#[test]
fn opposite_tracks_pivot_the_tank_on_the_spot() {
    let start = Vec3::new(0.0, 1.2, 0.0);
    let mut turned = 0.0f32;
    let mut last = 0.0f32;
    let mut first = None;
    let tank = drive(
        &mut flat(),
        settings(),
        start,
        TrackControls::new(1.0, -1.0, 0.0).unwrap(),
        10.0,
        |t| {
            let h = heading(t);
            let mut d = h - last;
            if d > std::f32::consts::PI {
                d -= std::f32::consts::TAU;
            } else if d < -std::f32::consts::PI {
                d += std::f32::consts::TAU;
            }
            turned += d;
            last = h;
            first.get_or_insert(t.body().position());
        },
    );
    let drift = (tank.body().position() - first.unwrap())
        .with_y(0.0)
        .length()
        / 10.0;
    assert!(
        turned.abs() > std::f32::consts::TAU,
        "it turned {turned} rad in 10 s"
    );
    assert!(drift < 0.05, "its centre drifted {drift} m/s");
}

#[test]
fn equal_tracks_drive_straight() {
    let start = Vec3::new(0.0, 1.2, 0.0);
    let mut begin = None;
    let tank = drive(
        &mut flat(),
        settings(),
        start,
        TrackControls::new(1.0, 1.0, 0.0).unwrap(),
        20.0,
        |t| {
            begin.get_or_insert((t.body().position(), heading(t)));
        },
    );
    let (from, h0) = begin.unwrap();
    let distance = (tank.body().position() - from).with_y(0.0).length();
    let drift = (heading(&tank) - h0).abs().to_degrees() / (distance / 100.0);
    assert!(distance > 100.0, "it covered {distance} m");
    assert!(drift < 0.5, "{drift} degrees per 100 m");
}

#[test]
fn a_broken_track_gives_its_side_no_drive() {
    let mut boxes = flat();
    let at = Vec3::new(0.0, 1.2, 0.0);
    let mut tank = Tank::new(settings(), at, Quat::IDENTITY, &mut boxes.world, ()).unwrap();
    tank.break_track(Side::Right);
    assert!(tank.is_broken(Side::Right));
    let dt = TimeStep::new(1.0 / 60.0).unwrap();
    let full = TrackControls::new(1.0, 1.0, 0.0).unwrap();
    {
        let world = &mut boxes.world;
        for tick in 0..600 {
            tank.step(dt, &full, world).unwrap();
            let wheels = tank.wheels();
            let left: f32 = wheels[..6].iter().map(|w| w.force_along).sum();
            let right: f32 = wheels[6..].iter().map(|w| w.force_along).sum();
            if tick > 60 {
                // The broken side only rolls: its track speed follows the
                // ground and its push is nothing next to the driven side.
                assert!(
                    right.abs() < 0.02 * left.abs().max(1000.0),
                    "tick {tick}: right {right} N, left {left} N"
                );
            }
        }
    }
    // Pulled round by the one driving track.
    assert!(tank.body().angular_velocity().y.abs() > 0.05);
}

#[test]
fn over_a_step_no_wheel_goes_below_the_ground() {
    // A 0.2 m step across the path, 10 m ahead (the tank drives to -z).
    let ground = (Vec3::new(-50.0, -1.0, -200.0), Vec3::new(50.0, 0.0, 50.0));
    let step = (Vec3::new(-50.0, 0.0, -200.0), Vec3::new(50.0, 0.2, -10.0));
    let mut boxes = Boxes::new(&[ground, step]);
    let height = |p: Vec3| {
        if p.z <= -10.0 && p.z >= -200.0 {
            0.2
        } else {
            0.0
        }
    };
    let mut lowest = f32::INFINITY;
    let tank = drive(
        &mut boxes,
        settings(),
        Vec3::new(0.0, 1.2, 0.0),
        TrackControls::new(0.6, 0.6, 0.0).unwrap(),
        8.0,
        |t| {
            for (w, s) in t.wheels().iter().zip(t.settings().wheels()) {
                let up = t.body().direction_to_world(Vec3::Y);
                let centre = t.body().to_world(s.mount()) - up * (s.rest_length() - w.compression);
                let bottom = centre - Vec3::Y * s.radius();
                lowest = lowest.min(bottom.y - height(bottom));
            }
        },
    );
    assert!(
        tank.body().position().z < -20.0,
        "it climbed the step: {}",
        tank.body().position()
    );
    assert!(lowest > -0.03, "a wheel went {lowest} m below the ground");
}

#[test]
fn a_mirrored_world_gives_a_mirrored_path_bit_for_bit() {
    let mirror = |v: Vec3| Vec3::new(-v.x, v.y, v.z);
    let bump = |sign: f32| {
        Boxes::new(&[
            (Vec3::new(-100.0, -1.0, -300.0), Vec3::new(100.0, 0.0, 50.0)),
            if sign > 0.0 {
                (Vec3::new(1.0, 0.0, -30.0), Vec3::new(6.0, 0.25, -20.0))
            } else {
                (Vec3::new(-6.0, 0.0, -30.0), Vec3::new(-1.0, 0.25, -20.0))
            },
        ])
    };
    let controls = TrackControls::new(0.9, 0.6, 0.0).unwrap();
    let mut path = Vec::new();
    drive(
        &mut bump(1.0),
        settings(),
        Vec3::new(0.5, 1.2, 0.0),
        controls,
        12.0,
        |t| {
            path.push((t.body().position(), t.body().orientation()));
        },
    );
    let mut mirrored = Vec::new();
    drive(
        &mut bump(-1.0),
        settings().mirrored(),
        Vec3::new(-0.5, 1.2, 0.0),
        controls,
        12.0,
        |t| {
            mirrored.push((t.body().position(), t.body().orientation()));
        },
    );
    assert!(path.last().unwrap().0.length() > 30.0);
    for (k, ((p, q), (mp, mq))) in path.iter().zip(&mirrored).enumerate() {
        assert_eq!(
            mirror(*p).to_array().map(f32::to_bits),
            mp.to_array().map(f32::to_bits),
            "tick {k}"
        );
        // A reflection across x = 0 takes (x, y, z, w) to (x, -y, -z, w).
        let reflected = Quat::from_xyzw(q.x, -q.y, -q.z, q.w);
        assert_eq!(
            reflected.to_array().map(f32::to_bits),
            mq.to_array().map(f32::to_bits),
            "tick {k}"
        );
    }
}
