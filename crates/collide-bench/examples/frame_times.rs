//! Per-frame times of one of collide's structures on a shared scene: a
//! timeline that shows spikes the mean hides (the `Bvh`'s resting tree
//! filling, rebuilds).
//!
//! ```sh
//! cargo run --release --manifest-path crates/collide-bench/Cargo.toml \
//!     --example frame_times -- bvh 100000 resting uniform 40
//! ```
//!
//! Arguments: structure name, objects, motion, scene, frames, and
//! optionally the dimension (`2`, the default, or `3`) and, for `grid` and
//! `hashgrid`, a cell size as a multiple of the 90th percentile of the
//! objects' largest extent at frame 0 (default: the automatic choice).
//! Prints one line per frame (apply and step times in microseconds, timed
//! as the benchmark times them: `Runner::apply`, then `step()` without
//! turning its events into scene ids; pairs, candidate tests, maintenance
//! operations such as escapes handled; for `auto`, the structure running
//! after the step and the one being built), then the mean of frames 1 to 7 and
//! of frames 12 on, and for a grid the cell size it used.
//!
//! ```sh
//! # 3D uniform, fast, cells 5 times the objects' extent:
//! cargo run --release --manifest-path crates/collide-bench/Cargo.toml \
//!     --example frame_times -- grid 100000 fast uniform 12 3 5
//! ```

use collide::{Auto, BroadPhase, Grid, GridConfig, GridKind, Vector};
use collide_scenes::{Motion, Record, Runner, Scene, SceneConfig, SceneKind, mean};
use glam::{Vec2, Vec3};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |k: usize, default: &str| args.get(k).cloned().unwrap_or(default.to_string());
    let name = arg(0, "bvh");
    let n: usize = arg(1, "100000").parse().expect("objects: a number");
    let motion: Motion = arg(2, "resting").parse().unwrap_or_else(|e| panic!("{e}"));
    let kind: SceneKind = arg(3, "uniform").parse().unwrap_or_else(|e| panic!("{e}"));
    let frames: usize = arg(4, "40").parse().expect("frames: a number");
    let cell_factor: Option<f32> = args
        .get(6)
        .map(|f| f.parse().expect("cell size factor: a number"));
    let config = SceneConfig {
        motion,
        ..SceneConfig::new(kind, n)
    };
    match arg(5, "2").as_str() {
        "2" => run::<Vec2>(&name, config, frames, cell_factor),
        "3" => run::<Vec3>(&name, config, frames, cell_factor),
        other => panic!("dimension `{other}`: 2 or 3"),
    }
}

/// The 90th percentile of the boxes' largest extent in `records`.
fn p90_extent<V: Vector>(records: &[Record<V>]) -> f32 {
    let mut extents: Vec<f32> = records
        .iter()
        .filter_map(|r| match r {
            Record::Upsert { aabb, .. } => {
                Some((0..V::DIM).map(|a| aabb.size().axis(a)).fold(0.0, f32::max))
            }
            Record::Remove { .. } => None,
        })
        .collect();
    extents.sort_by(f32::total_cmp);
    extents.get(extents.len() * 9 / 10).copied().unwrap_or(0.0)
}

fn run<V: Vector>(name: &str, config: SceneConfig, frames: usize, cell_factor: Option<f32>) {
    let p90 = p90_extent(&Scene::<V>::new(config).take_frames(1)[0]);
    let grid_kind = match name {
        "grid" => Some(GridKind::Dense),
        "hashgrid" => Some(GridKind::Hashed),
        _ => None,
    };
    if let Some(kind) = grid_kind {
        let grid_config = GridConfig {
            cell_size: cell_factor.map(|f| f * p90),
            ..GridConfig::default()
        };
        let mut grid = Grid::<V, u64>::with_config(kind, grid_config).expect("a valid cell size");
        drive(&mut grid, name, config, frames, |_| String::new());
        let size = grid.cell_size().unwrap_or(0.0);
        println!(
            "cell size {size:.1} = {:.2} times the 90th percentile extent {p90:.1}{}",
            size / p90,
            if cell_factor.is_some() {
                ""
            } else {
                " (automatic)"
            }
        );
    } else if name == "auto" {
        let mut auto = Auto::<V, u64>::new();
        drive(&mut auto, name, config, frames, |auto| {
            let status = auto.status();
            match status.switching_to {
                Some(next) => format!("{} (building {next})", status.structure),
                None => status.structure.to_string(),
            }
        });
    } else {
        let mut world = name
            .parse::<collide::Structure>()
            .ok()
            .map(|s| s.build::<V, u64>())
            .unwrap_or_else(|| panic!("unknown structure `{name}`"));
        drive(world.as_mut(), name, config, frames, |_| String::new());
    }
}

fn drive<V: Vector, W: BroadPhase<V, u64> + ?Sized>(
    world: &mut W,
    name: &str,
    config: SceneConfig,
    frames: usize,
    running: impl Fn(&W) -> String,
) {
    let (kind, motion, n) = (config.kind, config.motion, config.n);
    let mut scene = Scene::<V>::new(config);
    let mut runner = Runner::new();
    let (mut records, mut events) = (Vec::new(), Vec::new());
    let (mut early, mut late) = (Vec::new(), Vec::new());
    println!("# {name}, {}D {kind} {motion}, n = {n}", V::DIM);
    println!("frame  apply_us    step_us   total_us   pairs  tested   maint");
    for frame in 0..frames {
        scene.next_frame(&mut records);
        let start = Instant::now();
        runner.apply(world, &records).expect("scene records apply");
        let applied = start.elapsed();
        world.step();
        let total = start.elapsed();
        // Untimed (the benchmark does not do it at all): the events in the
        // scene's ids.
        runner.collect_events(&*world, &mut events);
        let us = |d: std::time::Duration| d.as_secs_f64() * 1e6;
        let stats = world.stats();
        println!(
            "{frame:5} {:9.0} {:10.0} {:10.0} {:7} {:7} {:7}   {}",
            us(applied),
            us(total - applied),
            us(total),
            stats.pairs,
            stats.candidates_tested,
            stats.maintenance_ops,
            running(world)
        );
        match frame {
            1..=7 => early.push(us(total)),
            12.. => late.push(us(total)),
            _ => {}
        }
    }
    println!(
        "mean us/frame: frames 1-7 {:.0}, frames 12+ {:.0}",
        mean(&early),
        mean(&late)
    );
}
