//! A side-on platformer on the collision world: a player walks a scripted
//! course, jumps onto another character's head, up through a one-way
//! platform (the world's pair hook), onto a sliding platform it rides,
//! and onto a rocking plank, under gravity, at 60 ticks a second.
//!
//! Each tick moves the platforms, steps the characters in handle order
//! (the one standing on another sees its move), then steps the world.
//! `cargo run --release --example platformer` prints what the player
//! stood on and writes an SVG of the course and its path.

use collide::narrow::Support;
use collide::narrow::d2::{Cuboid, Pose};
use collide::world::{Collider2, World2};
use collide_game::D2;
use collide_game::character::{Character, CharacterSettings};
use collide_game::time::TimeStep;
use glam::Vec2;
use std::fmt::Write;

/// What a collider is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Thing {
    Ground,
    OneWay,
    Slider,
    Rocker,
    Player,
    Friend,
}

const HZ: f32 = 60.0;
const WALK: f32 = 3.0; // m/s
const GRAVITY: f32 = 9.81;

/// A stage of the script: walk to `from`, jump at `speed` (m/s), move
/// on to `to` in the air, and stay `stay` seconds where it lands.
struct Stage {
    from: f32,
    speed: f32,
    to: f32,
    stay: f32,
}

const fn stage(from: f32, speed: f32, to: f32, stay: f32) -> Stage {
    Stage {
        from,
        speed,
        to,
        stay,
    }
}

const STAGES: [Stage; 4] = [
    stage(4.0, 7.0, 6.0, 1.0),   // onto the friend's head
    stage(11.0, 8.0, 11.0, 0.5), // up through the one-way platform
    stage(14.5, 7.5, 21.0, 3.0), // onto the slider, riding it
    stage(28.0, 7.5, 33.0, 3.0), // onto the rocking plank
];

/// Where the script ends.
const FINISH: f32 = 40.0;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = World2::<Thing>::new();
    let boxes = [
        (Vec2::new(20.0, -0.5), Vec2::new(26.0, 0.5), Thing::Ground),
        (Vec2::new(11.0, 2.25), Vec2::new(2.0, 0.05), Thing::OneWay),
    ];
    for &(at, half, thing) in &boxes {
        world.insert(Collider2::fixed(Cuboid::new(half)?, Pose::at(at)?, thing))?;
    }
    let slab = Cuboid::new(Vec2::new(4.0, 0.1))?;
    let at = Pose::at(Vec2::new(21.0, 0.9))?;
    let slider = world.insert(Collider2::moving(slab, at, Thing::Slider))?;
    let plank = Cuboid::new(Vec2::new(2.5, 0.1))?;
    let at = Pose::at(Vec2::new(33.0, 1.1))?;
    let rocker = world.insert(Collider2::moving(plank, at, Thing::Rocker))?;
    // A one-way platform holds only what is above it: the contact's
    // normal, from the lower handle toward the higher, says which side.
    world.set_pair_hook(|pair| match (*pair.value_a, *pair.value_b) {
        (Thing::OneWay, _) => pair.contact.normal.y > 0.5,
        (_, Thing::OneWay) => pair.contact.normal.y < -0.5,
        _ => true,
    });
    let settings = CharacterSettings::sized(1.8, 0.3)?;
    let mut friend =
        Character::<D2>::new(settings, Vec2::new(6.0, 0.95), &mut world, Thing::Friend)?;
    let mut player =
        Character::<D2>::new(settings, Vec2::new(0.0, 0.95), &mut world, Thing::Player)?;
    let dt = TimeStep::new(1.0 / HZ)?;
    // The stage, whether it jumped yet, how long it stayed, its fall speed.
    let (mut stage, mut jumped, mut stayed, mut fall) = (0, false, 0.0f32, 0.0f32);
    let (mut path, mut stood) = (Vec::new(), Vec::new());
    for tick in 0..(40.0 * HZ) as u32 {
        let t = (tick + 1) as f32 / HZ;
        // The platforms first: the slider goes 1.5 m each way, the plank rocks.
        let slide = 1.5 * (std::f32::consts::TAU * t / 4.0).sin();
        world.set_pose(slider, Pose::at(Vec2::new(21.0 + slide, 0.9))?)?;
        let tilt = 0.25 * (std::f32::consts::TAU * t / 5.0).sin();
        world.set_pose(rocker, Pose::new(Vec2::new(33.0, 1.1), tilt)?)?;
        // The player's input from the script.
        let standing = player.ground().is_standing();
        let x = player.position().x;
        let toward = |target: f32| (target - x).signum() * WALK.min((target - x).abs() * HZ);
        let walk = match STAGES.get(stage) {
            None if (FINISH - x).abs() < 0.05 => break,
            None => toward(FINISH),
            Some(s) if !jumped && (s.from - x).abs() < 0.05 && standing => {
                (jumped, fall) = (true, s.speed);
                0.0
            }
            Some(s) if !jumped => toward(s.from),
            Some(s) if (s.to - x).abs() >= 0.05 && stayed == 0.0 => toward(s.to),
            Some(s) => {
                stayed += if standing { 1.0 / HZ } else { 0.0 };
                if stayed >= s.stay {
                    (stage, jumped, stayed) = (stage + 1, false, 0.0);
                }
                0.0
            }
        };
        if standing && fall <= 0.0 {
            fall = 0.0;
        }
        fall -= GRAVITY / HZ;
        // The characters in handle order: the friend first, then the player.
        let motion = Vec2::new(walk, fall) / HZ;
        friend.step(dt, Vec2::new(0.0, -GRAVITY) / (HZ * HZ), &mut world)?;
        let report = player.step(dt, motion, &mut world)?;
        world.step();
        let on = report
            .ground
            .on()
            .and_then(|h| world.value(h).ok())
            .copied();
        if report.ground.is_standing() && stood.last() != on.as_ref() {
            stood.push(on.expect("standing on something"));
        }
        path.push((player.feet(), on));
    }
    let names: Vec<String> = stood.iter().map(|t| format!("{t:?}")).collect();
    println!("stood on, in order: {}", names.join(", ").to_lowercase());
    println!(
        "stages done: {stage} of {}, player at x = {:.2} after {:.1} s",
        STAGES.len(),
        player.position().x,
        path.len() as f32 / HZ
    );
    let out = std::env::temp_dir().join("collide-platformer.svg");
    std::fs::write(&out, svg(&world, &path))?;
    println!("picture: {}", out.display());
    Ok(())
}

/// The course as it stands at the end and the path of the player's feet,
/// coloured by what it stood on, as an SVG at 20 px a metre.
fn svg(world: &World2<Thing>, path: &[(Vec2, Option<Thing>)]) -> String {
    let px = |v: Vec2| format!("{},{}", 20.0 * (v.x + 2.0), 20.0 * (6.0 - v.y));
    let mut out = String::from("<svg xmlns='http://www.w3.org/2000/svg' width='880' height='160'>");
    for h in world.handles() {
        let (Ok(shape), Ok(pose), Ok(thing)) = (world.shape(h), world.pose(h), world.value(h))
        else {
            continue;
        };
        let Some((part, local)) = shape.part(0) else {
            continue;
        };
        let Ok(pose) = pose.compose(&local) else {
            continue;
        };
        // The outline from the shape's farthest points in 32 directions.
        let outline: Vec<String> = (0..32)
            .map(|k| {
                let d = Vec2::from_angle(k as f32 * std::f32::consts::TAU / 32.0);
                px(pose.apply(part.support(pose.unrotate(d))) + d * part.radius())
            })
            .collect();
        let fill = match thing {
            Thing::Player | Thing::Friend => "#9ecae1",
            Thing::OneWay => "#bbb",
            _ => "#555",
        };
        let _ = write!(
            out,
            "<polygon points='{}' fill='{fill}'/>",
            outline.join(" ")
        );
    }
    for pair in path.windows(2) {
        let colour = match pair[0].1 {
            None => "#1f77b4",
            Some(Thing::Friend) => "#d62728",
            Some(Thing::OneWay) => "#ff7f0e",
            Some(Thing::Slider | Thing::Rocker) => "#2ca02c",
            Some(_) => "#333",
        };
        let (a, b) = (px(pair[0].0), px(pair[1].0));
        let _ = write!(
            out,
            "<polyline points='{a} {b}' stroke='{colour}' stroke-width='2'/>"
        );
    }
    out + "</svg>"
}
