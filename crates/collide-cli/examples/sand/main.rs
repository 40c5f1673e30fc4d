//! A character on a falling-sand world: the sand world's stone cells (a
//! floor, a ramp, a shelf and a bridge) are boxes in the collision world,
//! rebuilt only for the chunks whose cells changed; sand pours from a
//! spout onto the ramp and piles; the walker wades through it, pushing the
//! grains out of its capsule (none is lost), and falls when the bridge
//! crumbles to sand under it.
//!
//! `cargo run --release --example sand` prints what happened and writes
//! an SVG of the cells at the end and the walker's path.

use collide::world::World2;
use collide_game::D2;
use collide_game::character::{Character, CharacterSettings};
use collide_game::time::TimeStep;
use collide_sand::{Material, MaterialId, Materials, Motion, SandSettings, SandWorld};
use glam::Vec2;
use std::fmt::Write;

mod cells;
use cells::{StoneBoxes, fill, is_empty, push_out};

const HZ: f32 = 60.0;
/// Metres a cell.
const CELL: f32 = 0.1;
const WIDTH: i64 = 200;
const HEIGHT: i64 = 80;
const WALK: f32 = 1.5; // m/s
const GRAVITY: f32 = 9.81;
/// The bridge's cells, x from and to, y from and to.
const BRIDGE: (i64, i64, i64, i64) = (130, 170, 31, 34);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut table = Materials::new();
    let stone = table.add(Material::new("stone", 30.0, Motion::Static)?)?;
    let sand = table.add(Material::new("sand", 16.0, Motion::Powder)?)?;
    let mut cells = SandWorld::new(
        SandSettings::new(WIDTH as u32, HEIGHT as u32)?.with_seed(7),
        table,
    )?;
    for x in 0..WIDTH {
        // The floor; a ramp up from x 4 m to the shelf at 3.4 m; the
        // shelf; the bridge (held by nothing below); the far shelf.
        let top = match x {
            40..100 => 4 + (x - 40) / 2,
            100..130 | 170..190 => 34,
            _ => 4,
        };
        for y in 0..top {
            cells.set(x, y, stone)?;
        }
    }
    fill(&mut cells, BRIDGE, stone)?;
    let mut world = World2::<()>::new();
    let mut stone_boxes = StoneBoxes::new()?;
    let settings = CharacterSettings::sized(1.8, 0.3)?;
    let mut walker = Character::<D2>::new(settings, Vec2::new(1.0, 1.4), &mut world, ())?;
    let dt = TimeStep::new(1.0 / HZ)?;
    let (mut fall, mut path) = (0.0f32, Vec::new());
    let (mut poured, mut pushed, mut crumbled) = (0u64, 0u64, None);
    for tick in 0..(20.0 * HZ) as u32 {
        let t = tick as f32 / HZ;
        // Sand pours from a spout 7.5 m up, a grain every other tick.
        if t < 12.0 && tick % 2 == 0 && is_empty(cells.get(80, 75)?) {
            cells.set(80, 75, sand)?;
            poured += 1;
        }
        // Halfway across the bridge, the walker's weight crumbles it.
        let x = walker.position().x;
        if crumbled.is_none() && x > 0.5 * (BRIDGE.0 + BRIDGE.1) as f32 * CELL {
            poured += fill(&mut cells, BRIDGE, sand)?;
            crumbled = Some((t, walker.feet().y));
        }
        cells.tick();
        stone_boxes.refresh(&cells, &mut world)?;
        // The walker: right at a walk under gravity, to x = 16 m.
        let standing = walker.ground().is_standing();
        fall = if standing { 0.0 } else { fall - GRAVITY / HZ };
        let walk = if x < 16.0 { WALK } else { 0.0 };
        walker.step(dt, Vec2::new(walk, fall) / HZ, &mut world)?;
        world.step();
        pushed += push_out(&mut cells, walker.position(), sand)?;
        path.push((walker.feet(), walker.ground().is_standing()));
    }
    let grains = cells.counts()[usize::from(sand.index())];
    let (when, from) = crumbled.ok_or("the walker never reached the bridge")?;
    let landed = path
        .iter()
        .skip((when * HZ) as usize)
        .find(|p| p.1)
        .map_or(f32::NAN, |p| p.0.y);
    println!(
        "the bridge crumbled under the walker at {when:.1} s; it fell {:.2} m",
        from - landed
    );
    println!(
        "the walker walked on to x = {:.2} m, standing: {}",
        walker.position().x,
        walker.ground().is_standing()
    );
    println!(
        "sand: {poured} grains poured or crumbled, {grains} in the world, {pushed} pushed aside by the walker"
    );
    println!(
        "stone: {} boxes in the collision world, {} chunk rebuilds",
        world.len() - 1,
        stone_boxes.refreshes
    );
    let out = std::env::temp_dir().join("collide-sand.svg");
    std::fs::write(&out, svg(&cells, stone, &path)?)?;
    println!("picture: {}", out.display());
    Ok(())
}

/// The cells at the end (each row's runs of stone and sand) and the
/// walker's feet, red where it stood, blue in the air; 4 px a cell.
fn svg(
    cells: &SandWorld,
    stone: MaterialId,
    path: &[(Vec2, bool)],
) -> Result<String, Box<dyn std::error::Error>> {
    let mut out = format!(
        "<svg xmlns='http://www.w3.org/2000/svg' width='{}' height='{}'><rect width='100%' height='100%' fill='#eef'/>",
        4 * WIDTH,
        4 * HEIGHT
    );
    for y in 0..HEIGHT {
        let mut x = 0;
        while x < WIDTH {
            let m = cells.get(x, y)?;
            let run = (x..WIDTH)
                .take_while(|&k| cells.get(k, y).is_ok_and(|n| n == m))
                .count() as i64;
            if !is_empty(m) {
                let fill = if m == stone { "#666" } else { "#e0b050" };
                let _ = write!(
                    out,
                    "<rect x='{}' y='{}' width='{}' height='4' fill='{fill}'/>",
                    4 * x,
                    4 * (HEIGHT - 1 - y),
                    4 * run
                );
            }
            x += run;
        }
    }
    for pair in path.windows(2) {
        let px = |v: Vec2| format!("{:.1},{:.1}", 40.0 * v.x, 4.0 * HEIGHT as f32 - 40.0 * v.y);
        let colour = if pair[0].1 { "#d62728" } else { "#1f77b4" };
        let _ = write!(
            out,
            "<polyline points='{} {}' stroke='{colour}' stroke-width='2'/>",
            px(pair[0].0),
            px(pair[1].0)
        );
    }
    Ok(out + "</svg>")
}
