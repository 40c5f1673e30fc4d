//! A car and a tank on a generated track, and a walker crossing it, all
//! in one collision world. The car laps the loop steering toward a point
//! ahead; the tank follows it the other way round by the speeds of its
//! two tracks; the walker paces across the road. Each is a collider of
//! the world: the vehicles' wheel rays see the walker, and the world's
//! step says when a vehicle's body meets it.
//!
//! `cargo run --release --example track` prints the laps and the
//! meetings and writes an SVG of the track and the three paths.

use collide::narrow::d3::{Cuboid, Pose};
use collide::world::{Collider3, World3};
use collide_game::D3;
use collide_game::character::{Character, CharacterSettings};
use collide_game::time::TimeStep;
use collide_game::vehicle::WheelSettings;
use collide_game::vehicle::{Car, CarSettings, Controls, Tank, TankSettings, TrackControls};
use collide_scenes::SceneRng;
use glam::{Quat, Vec3};
use std::fmt::Write;

/// What a collider is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Thing {
    Ground,
    Car,
    Tank,
    Walker,
}

const HZ: f32 = 60.0;

/// The walker's round: until each time (s, of 40), which way it walks
/// across the road (1 out, -1 back, 0 standing).
const PACES: [(f32, f32); 8] = [
    (4.0, 1.0),
    (14.0, 0.0),
    (18.0, 1.0),
    (20.0, 0.0),
    (24.0, -1.0),
    (34.0, 0.0),
    (38.0, -1.0),
    (40.0, 0.0),
];

/// A closed track's centre line: a wobbly loop about 100 m across.
fn track(rng: &mut SceneRng) -> Vec<Vec3> {
    let (a, b, p) = (
        rng.range(0.1, 0.2),
        rng.range(0.05, 0.1),
        rng.range(0.0, 6.0),
    );
    (0..720)
        .map(|k| {
            let t = k as f32 / 720.0 * std::f32::consts::TAU;
            let r = 50.0 * (1.0 + a * (2.0 * t + p).sin() + b * (3.0 * t).sin());
            Vec3::new(r * t.cos(), 0.0, r * t.sin())
        })
        .collect()
}

/// A driver's view of the line, `inset` of the way toward its centre:
/// where the vehicle is along it (kept in `at`; true on a new lap), the
/// angle (radians, left positive) from `forward` to the line 24 points
/// ahead, and how far the line turns over the next 30 m.
fn follow(line: &[Vec3], at: &mut usize, p: Vec3, forward: Vec3, inset: f32) -> (bool, f32, f32) {
    let n = line.len();
    let on = |k: usize| line[k % n] * (1.0 - inset);
    let near = (0..40).map(|d| (*at + d) % n).min_by(|&a, &b| {
        on(a)
            .distance_squared(p.with_y(0.0))
            .total_cmp(&on(b).distance_squared(p.with_y(0.0)))
    });
    let k = near.unwrap_or(*at);
    let lap = k < *at && *at - k > n / 2;
    *at = k;
    let to = (on(k + 24) - p).with_y(0.0).normalize_or_zero();
    let f = forward.with_y(0.0).normalize_or_zero();
    let bend = (on(k + 20) - on(k)).angle_between(on(k + 60) - on(k + 20));
    (lap, f.cross(to).y.atan2(f.dot(to)), bend)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut rng = SceneRng::new(11);
    let line = track(&mut rng);
    let n = line.len();
    let mut world = World3::<Thing>::new();
    let slab = Cuboid::new(Vec3::new(150.0, 0.5, 150.0))?;
    world.insert(Collider3::fixed(
        slab,
        Pose::at(Vec3::new(0.0, -0.5, 0.0))?,
        Thing::Ground,
    ))?;
    let facing = |k: usize, ahead: isize| {
        let next = line[(k as isize + ahead).rem_euclid(n as isize) as usize];
        Quat::from_rotation_arc(-Vec3::Z, (next - line[k]).normalize())
    };
    let wheel = WheelSettings::new(Vec3::ZERO, 0.33, 0.35)?;
    let car_settings =
        CarSettings::four_wheels(1200.0, Vec3::new(0.9, 0.5, 2.2), 1.6, 2.6, -0.2, wheel)?;
    let mut car = Car::new(
        car_settings,
        line[0] + Vec3::Y * 0.75,
        facing(0, 1),
        &mut world,
        Thing::Car,
    )?;
    let road =
        WheelSettings::new(Vec3::ZERO, 0.35, 0.4)?.with_spring(220_000.0, 20_000.0, 30_000.0)?;
    let tank_settings =
        TankSettings::new(40_000.0, Vec3::new(1.7, 0.8, 3.5), 6, 2.8, 5.6, -0.5, road)?;
    // The tank starts half a lap on, 6 m inside the line.
    let (start, inset) = (n / 2, 0.12);
    let at = line[start] * (1.0 - inset) + Vec3::Y * 1.2;
    let mut tank = Tank::new(tank_settings, at, facing(start, 1), &mut world, Thing::Tank)?;
    // The walker crosses the road at a quarter of the loop.
    let crossing = line[n / 4];
    let across = crossing.with_y(0.0).normalize();
    let walker_settings = CharacterSettings::sized(1.8, 0.3)?;
    let mut walker = Character::<D3>::new(
        walker_settings,
        crossing - across * 6.0 + Vec3::Y * 0.95,
        &mut world,
        Thing::Walker,
    )?;
    let dt = TimeStep::new(1.0 / HZ)?;
    let (mut car_at, mut tank_at, mut car_laps, mut tank_laps) = (0, start, 0, 0);
    let (mut paths, mut meetings, mut fall) = ([vec![], vec![], vec![]], Vec::new(), 0.0f32);
    // How far the vehicles shoved the walker along the road, at most.
    let (along, mut shoved) = (Vec3::Y.cross(across), 0.0f32);
    for tick in 0..(120.0 * HZ) as u32 {
        // The walker at 1.5 m/s: out to the car's line, standing there,
        // across, and back the same way (a 40 s round).
        let t = (tick as f32 / HZ) % 40.0;
        let way = PACES.iter().find(|p| t < p.0).map_or(0.0, |p| p.1);
        fall = if walker.ground().is_standing() {
            0.0
        } else {
            fall - 9.81 / HZ
        };
        let motion = (across * (1.5 * way) + Vec3::Y * fall) / HZ;
        walker.step(dt, motion, &mut world)?;
        shoved = shoved.max((walker.position() - crossing).dot(along).abs());
        // The car: toward a point 14 m ahead, slower into bends.
        let (lap, angle, bend) = follow(
            &line,
            &mut car_at,
            car.body().position(),
            car.forward(),
            0.0,
        );
        car_laps += usize::from(lap);
        let speed = car.body().linear_velocity().dot(car.forward());
        let wanted = (16.0 - 40.0 * bend).max(7.0);
        let throttle = ((wanted - speed) * 0.4).clamp(0.0, 1.0);
        let brake = ((speed - wanted - 1.0) * 0.3).clamp(0.0, 1.0);
        let steer = (2.0 * angle).clamp(-1.0, 1.0);
        car.step(
            dt,
            &Controls::new(throttle, brake, steer, false)?,
            &mut world,
        )?;
        // The tank: inside the car's line, steering by its tracks' speeds.
        let forward = tank.body().orientation() * -Vec3::Z;
        let (lap, angle, _) = follow(&line, &mut tank_at, tank.body().position(), forward, inset);
        tank_laps += usize::from(lap);
        let speed = tank.body().linear_velocity().length();
        let base = ((6.0 - speed) * 0.3).clamp(0.0, 0.4);
        let turn = (3.0 * angle).clamp(-0.6, 0.6);
        let tracks = TrackControls::new(base - turn, base + turn, 0.0)?;
        tank.step(dt, &tracks, &mut world)?;
        let events = world.step();
        for pair in &events.started {
            let things = (*world.value(pair.0)?, *world.value(pair.1)?);
            if things.1 == Thing::Walker && things.0 != Thing::Ground {
                meetings.push((tick as f32 / HZ, things.0));
            }
        }
        if tick % 6 == 0 {
            paths[0].push(car.body().position());
            paths[1].push(tank.body().position());
            paths[2].push(walker.position());
        }
    }
    println!("in 120 s: the car lapped {car_laps} times, the tank {tank_laps}");
    for (t, who) in &meetings {
        let who = format!("{who:?}").to_lowercase();
        println!("at {t:.1} s the {who} met the walker");
    }
    println!("the walker was pushed up to {shoved:.2} m along the road");
    let out = std::env::temp_dir().join("collide-track.svg");
    std::fs::write(&out, svg(&line, &paths))?;
    println!("picture: {}", out.display());
    Ok(())
}

/// The track and the paths (car blue, tank green, walker red) from
/// above, 3 px a metre.
fn svg(line: &[Vec3], paths: &[Vec<Vec3>; 3]) -> String {
    let px = |v: &Vec3| format!("{:.1},{:.1}", 3.0 * (v.x + 90.0), 3.0 * (v.z + 90.0));
    let points = |p: &[Vec3]| p.iter().map(px).collect::<Vec<_>>().join(" ");
    let mut out = String::from("<svg xmlns='http://www.w3.org/2000/svg' width='540' height='540'>");
    let _ = write!(
        out,
        "<polygon points='{}' fill='none' stroke='#ccc' stroke-width='30'/>",
        points(line)
    );
    for (path, colour) in paths.iter().zip(["#1f77b4", "#2ca02c", "#d62728"]) {
        let _ = write!(
            out,
            "<polyline points='{}' fill='none' stroke='{colour}'/>",
            points(path)
        );
    }
    out + "</svg>"
}
