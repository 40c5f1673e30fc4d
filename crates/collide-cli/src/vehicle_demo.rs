//! The vehicles' part of the demo report: a car driven round a generated
//! track by a simple driver, with each wheel's suspension compression and
//! tire slip over the lap, and a tank pivoting on the spot.

use crate::box_world::BoxWorld;
use crate::chart::{Scale, Series, Stroke, line_chart};
use collide_game::glam::{Quat, Vec3};
use collide_game::time::TimeStep;
use collide_game::vehicle::{
    Car, CarSettings, Controls, Tank, TankSettings, TrackControls, WheelSettings,
};
use std::fmt::Write as _;

const WHEEL_COLOURS: [&str; 4] = ["#3b6fb6", "#c2453d", "#2e8b57", "#d9822b"];
const WHEEL_NAMES: [&str; 4] = ["front left", "front right", "rear left", "rear right"];
const RATE: f32 = 60.0;

/// A closed track's centre line: a wobbly loop about 60 m across, its
/// shape from `seed`.
fn track(seed: u64) -> Vec<Vec3> {
    let mut rng = collide_scenes::SceneRng::new(seed);
    let (a, b) = (rng.range(0.1, 0.22), rng.range(0.05, 0.12));
    let (p, q) = (
        rng.range(0.0, std::f32::consts::TAU),
        rng.range(0.0, std::f32::consts::TAU),
    );
    (0..720)
        .map(|k| {
            let t = k as f32 / 720.0 * std::f32::consts::TAU;
            let r = 60.0 * (1.0 + a * (2.0 * t + p).sin() + b * (3.0 * t + q).sin());
            Vec3::new(r * t.cos(), 0.0, r * t.sin())
        })
        .collect()
}

/// Flat ground with low bumps at a few points of the track.
fn ground(line: &[Vec3]) -> BoxWorld {
    let mut boxes = vec![(
        Vec3::new(-200.0, -1.0, -200.0),
        Vec3::new(200.0, 0.0, 200.0),
    )];
    for k in [60, 230, 410, 600] {
        let c = line[k];
        boxes.push((
            c + Vec3::new(-1.5, 0.0, -1.5),
            c + Vec3::new(1.5, 0.07, 1.5),
        ));
    }
    BoxWorld::new(boxes)
}

fn car_settings() -> CarSettings {
    let wheel = WheelSettings::new(Vec3::ZERO, 0.33, 0.35).expect("a valid wheel");
    CarSettings::four_wheels(1200.0, Vec3::new(0.9, 0.5, 2.2), 1.6, 2.6, -0.2, wheel)
        .expect("a valid car")
}

/// One moment of a lap: the time (s) and per wheel the compression
/// (cm), the size of the slip angle (degrees) and of the slip ratio.
struct Sample {
    time: f32,
    compression: [f32; 4],
    slip_angle: [f32; 4],
    slip_ratio: [f32; 4],
}

/// One lap's telemetry and the car's path.
struct Lap {
    samples: Vec<Sample>,
    path: Vec<Vec3>,
    seconds: f32,
}

/// Drives a lap: steer toward a point 14 m ahead on the line, speed
/// from the bend ahead.
fn drive_lap(line: &[Vec3], world: &mut BoxWorld) -> Lap {
    let valid = "the demo's car is valid";
    let start = line[0];
    let heading = (line[1] - line[0]).normalize();
    let facing = Quat::from_rotation_arc(-Vec3::Z, heading);
    let at = start + Vec3::Y * 0.75;
    let mut car = Car::new(car_settings(), at, facing, world.world_mut(), ()).expect(valid);
    let dt = TimeStep::new(1.0 / RATE).expect(valid);
    let n = line.len();
    let mut lap = Lap {
        samples: Vec::new(),
        path: Vec::new(),
        seconds: 0.0,
    };
    let mut nearest = 0usize;
    let mut travelled = 0usize;
    {
        let around = world.world_mut();
        for tick in 0..(90.0 * RATE) as usize {
            let p = car.body().position();
            // The nearest point of the line, searched a little ahead.
            let (best, _) = (0..40)
                .map(|d| (nearest + d) % n)
                .map(|k| (k, line[k].distance_squared(p.with_y(0.0))))
                .fold(
                    (nearest, f32::INFINITY),
                    |a, b| if b.1 < a.1 { b } else { a },
                );
            travelled += (best + n - nearest) % n;
            nearest = best;
            if travelled >= n {
                lap.seconds = tick as f32 / RATE;
                break;
            }
            let target = line[(nearest + 24) % n];
            let to = (target - p).with_y(0.0).normalize_or_zero();
            let forward = car.forward().with_y(0.0).normalize_or_zero();
            let angle = forward.cross(to).y.atan2(forward.dot(to));
            // The bend ahead: how far the line turns over the next 30 m.
            let a = (line[(nearest + 20) % n] - line[nearest]).normalize_or_zero();
            let b = (line[(nearest + 60) % n] - line[(nearest + 20) % n]).normalize_or_zero();
            let bend = a.dot(b).clamp(-1.0, 1.0).acos();
            let wanted = (22.0 - 40.0 * bend).max(9.0);
            let speed = car.body().linear_velocity().dot(car.forward());
            let throttle = ((wanted - speed) * 0.4).clamp(0.0, 1.0);
            let brake = ((speed - wanted - 1.0) * 0.3).clamp(0.0, 1.0);
            let controls =
                Controls::new(throttle, brake, (angle * 2.0).clamp(-1.0, 1.0), false).expect(valid);
            car.step(dt, &controls, around).expect(valid);
            if tick % 3 == 0 {
                let w = car.wheels();
                let each = |f: &dyn Fn(usize) -> f32| [f(0), f(1), f(2), f(3)];
                lap.samples.push(Sample {
                    time: tick as f32 / RATE,
                    compression: each(&|k| 100.0 * w[k].compression),
                    slip_angle: each(&|k| w[k].slip_angle.abs().to_degrees()),
                    slip_ratio: each(&|k| w[k].slip_ratio.abs()),
                });
                lap.path.push(car.body().position());
            }
        }
    }
    lap
}

/// The four wheels' series of one quantity.
fn wheel_series(lap: &Lap, pick: impl Fn(&Sample) -> [f32; 4]) -> Vec<Series> {
    (0..4)
        .map(|k| Series {
            name: WHEEL_NAMES[k].into(),
            colour: WHEEL_COLOURS[k],
            points: lap
                .samples
                .iter()
                .map(|s| (f64::from(s.time), f64::from(pick(s)[k])))
                .collect(),
            stroke: Stroke::Line,
        })
        .collect()
}

/// The track from above: its band, the bumps, the car's path.
fn track_svg(line: &[Vec3], world: &BoxWorld, path: &[Vec3]) -> String {
    let (s, half) = (3.4f32, 90.0f32);
    let size = 2.0 * half * s;
    let px = |p: Vec3| ((p.x + half) * s, (p.z + half) * s);
    let mut svg = format!(
        "<figure><svg viewBox=\"0 0 {size:.0} {size:.0}\" width=\"{size:.0}\" height=\"{size:.0}\" style=\"max-width:100%;height:auto;background:#eef0e8\" role=\"img\">\n"
    );
    let points = |ps: &mut dyn Iterator<Item = Vec3>| -> String {
        ps.map(|p| {
            let (x, y) = px(p);
            format!("{x:.1},{y:.1}")
        })
        .collect::<Vec<_>>()
        .join(" ")
    };
    let _ = writeln!(
        svg,
        "<polygon points=\"{}\" fill=\"none\" stroke=\"#bdbdb5\" stroke-width=\"{:.0}\" stroke-linejoin=\"round\"/>",
        points(&mut line.iter().copied()),
        8.0 * s
    );
    for &(lo, hi) in world.corners().iter().skip(1) {
        let ((x0, y0), (x1, y1)) = (px(lo), px(hi));
        let _ = writeln!(
            svg,
            "<rect x=\"{x0:.1}\" y=\"{y0:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#8a6d3b\"/>",
            x1 - x0,
            y1 - y0
        );
    }
    let _ = writeln!(
        svg,
        "<polyline points=\"{}\" fill=\"none\" stroke=\"#3b6fb6\" stroke-width=\"2\"/>",
        points(&mut path.iter().copied())
    );
    let (x, y) = px(line[0]);
    let _ = writeln!(
        svg,
        "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"6\" fill=\"#000\"/>"
    );
    svg.push_str("</svg></figure>\n");
    svg
}

fn tank_settings() -> TankSettings {
    let wheel = WheelSettings::new(Vec3::ZERO, 0.35, 0.4)
        .and_then(|w| w.with_spring(220_000.0, 20_000.0, 30_000.0))
        .expect("a valid road wheel");
    TankSettings::new(40_000.0, Vec3::new(1.7, 0.8, 3.5), 6, 2.8, 5.6, -0.5, wheel)
        .expect("a valid tank")
}

/// A tank pivoting with its tracks at half speed opposite ways for two
/// seconds: its pose every sixth of a second, and how far its centre
/// drifted (m/s).
fn tank_pivot() -> (Vec<(Vec3, Quat)>, f32, f32) {
    let valid = "the demo's tank is valid";
    let mut world = BoxWorld::new(vec![(
        Vec3::new(-100.0, -1.0, -100.0),
        Vec3::new(100.0, 0.0, 100.0),
    )]);
    let mut tank = Tank::new(
        tank_settings(),
        Vec3::new(0.0, 1.2, 0.0),
        Quat::IDENTITY,
        world.world_mut(),
        (),
    )
    .expect(valid);
    let dt = TimeStep::new(1.0 / RATE).expect(valid);
    let mut poses = Vec::new();
    let mut turned = 0.0;
    let around = world.world_mut();
    for _ in 0..60 {
        tank.step(dt, &TrackControls::default(), around)
            .expect(valid);
    }
    let start = tank.body().position();
    let pivot = TrackControls::new(0.5, -0.5, 0.0).expect(valid);
    for tick in 0..(2.0 * RATE) as usize {
        tank.step(dt, &pivot, around).expect(valid);
        turned += tank.body().angular_velocity().y / RATE;
        if tick % 10 == 0 {
            poses.push((tank.body().position(), tank.body().orientation()));
        }
    }
    let drift = (tank.body().position() - start).with_y(0.0).length() / 2.0;
    (poses, drift, turned)
}

/// The pivoting tank from above: its hull and tracks at each pose.
fn tank_svg(poses: &[(Vec3, Quat)]) -> String {
    let (s, half) = (26.0f32, 6.0f32);
    let size = 2.0 * half * s;
    let px = |p: Vec3| ((p.x + half) * s, (p.z + half) * s);
    let mut svg = format!(
        "<figure><svg viewBox=\"0 0 {size:.0} {size:.0}\" width=\"{size:.0}\" height=\"{size:.0}\" style=\"max-width:100%;height:auto;background:#eef0e8\" role=\"img\">\n"
    );
    let outline =
        |svg: &mut String, at: Vec3, turn: Quat, half: Vec3, offset: Vec3, style: &str| {
            let corners: Vec<String> = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                .iter()
                .map(|&(a, b)| {
                    let local = offset + Vec3::new(a * half.x, 0.0, b * half.z);
                    let (x, y) = px(at + turn * local);
                    format!("{x:.1},{y:.1}")
                })
                .collect();
            let _ = writeln!(svg, "<polygon points=\"{}\" {style}/>", corners.join(" "));
        };
    let last = poses.len().saturating_sub(1);
    for (k, &(at, turn)) in poses.iter().enumerate() {
        let opacity = if k == last { 1.0 } else { 0.25 };
        outline(
            &mut svg,
            at,
            turn,
            Vec3::new(1.7, 0.0, 3.5),
            Vec3::ZERO,
            &format!(
                "fill=\"#7d8a5a\" fill-opacity=\"{:.2}\" stroke=\"#3d4630\" stroke-opacity=\"{opacity}\"",
                0.15 * opacity
            ),
        );
        for side in [-1.0f32, 1.0] {
            outline(
                &mut svg,
                at,
                turn,
                Vec3::new(0.25, 0.0, 3.3),
                Vec3::new(side * 1.4, 0.0, 0.0),
                &format!("fill=\"#333\" fill-opacity=\"{opacity:.2}\""),
            );
        }
    }
    let (x, y) = px(poses[last].0);
    let _ = writeln!(
        svg,
        "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"4\" fill=\"#c2453d\"/>"
    );
    svg.push_str("</svg></figure>\n");
    svg
}

/// The vehicles section of the demo page.
pub fn vehicle_section() -> String {
    let line = track(7);
    let mut world = ground(&line);
    let lap = drive_lap(&line, &mut world);
    let mut html = format!(
        "<h3>Raycast car</h3>\n<p>A 1,200 kg rear-drive car on four raycast wheels, driven round a generated track by a simple driver (steer toward a point ahead, speed from the bend ahead), from above: the grey band is the track, brown squares are 7 cm bumps, blue is the car's path. The lap took {:.1} s. Below, each wheel over the lap: how far its spring is compressed (the car leans out of bends and dives under braking; the bumps kick) how far its tire slips sideways (slip angle) and how much faster or slower it turns than the ground passes under it (slip ratio: the rear wheels spin up as the car pulls out of bends).</p>\n",
        lap.seconds
    );
    html.push_str(&track_svg(&line, &world, &lap.path));
    html.push_str(&line_chart(
        "Suspension compression per wheel (cm)",
        "time (s)",
        &wheel_series(&lap, |s| s.compression),
        &[],
        Scale::Linear,
    ));
    html.push_str(&line_chart(
        "Tire slip angle per wheel (degrees, size)",
        "time (s)",
        &wheel_series(&lap, |s| s.slip_angle),
        &[],
        Scale::Linear,
    ));
    html.push_str(&line_chart(
        "Tire slip ratio per wheel (size)",
        "time (s)",
        &wheel_series(&lap, |s| s.slip_ratio),
        &[],
        Scale::Linear,
    ));
    let (poses, drift, turned) = tank_pivot();
    let _ = writeln!(
        html,
        "<h3>Tank</h3>\n<p>A 40 t tank on six raycast road wheels a side, each side's wheels locked to one track speed, its tracks driven at half speed opposite ways for two seconds: it pivots on the spot, turning {:.0} degrees while its centre drifts {:.1} mm/s. Seen from above, every sixth of a second; the tracks are drawn, not simulated.</p>",
        turned.to_degrees().abs(),
        1000.0 * drift
    );
    html.push_str(&tank_svg(&poses));
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_car_finishes_its_lap_and_the_tank_pivots_in_place() {
        let line = track(7);
        let mut world = ground(&line);
        let lap = drive_lap(&line, &mut world);
        assert!(lap.seconds > 10.0, "the lap took {} s", lap.seconds);
        // It stayed on the track: never further than 6 m from its line.
        for p in &lap.path {
            let off = line
                .iter()
                .map(|q| q.distance(p.with_y(0.0)))
                .fold(f32::INFINITY, f32::min);
            assert!(off < 6.0, "{off} m off the line");
        }
        let (_, drift, turned) = tank_pivot();
        assert!(
            drift < 0.05 && turned.abs() > 0.5,
            "drift {drift}, turned {turned}"
        );
    }
}
