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
//! optionally the dimension (`2`, the default, or `3`). Prints one
//! line per frame (apply and step times in microseconds, pairs, candidate
//! tests, maintenance operations such as escapes handled), then the mean
//! of frames 1 to 7 and of frames 12 on.

use collide::scene::{Motion, Runner, Scene, SceneConfig, SceneKind};
use collide::{Vector, structure_by_name};
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
    match arg(5, "2").as_str() {
        "2" => run::<Vec2>(&name, n, motion, kind, frames),
        "3" => run::<Vec3>(&name, n, motion, kind, frames),
        other => panic!("dimension `{other}`: 2 or 3"),
    }
}

fn run<V: Vector>(name: &str, n: usize, motion: Motion, kind: SceneKind, frames: usize) {
    let mut world =
        structure_by_name::<V, u64>(name).unwrap_or_else(|| panic!("unknown structure `{name}`"));
    let mut scene = Scene::<V>::new(SceneConfig {
        motion,
        ..SceneConfig::new(kind, n)
    });
    let mut runner = Runner::new();
    let (mut records, mut events) = (Vec::new(), Vec::new());
    let (mut early, mut late) = (Vec::new(), Vec::new());
    println!("# {name}, {}D {kind} {motion}, n = {n}", V::DIM);
    println!("frame  apply_us    step_us   total_us   pairs  tested   maint");
    for frame in 0..frames {
        scene.next_frame(&mut records);
        let start = Instant::now();
        runner
            .apply(&mut world, &records)
            .expect("scene records apply");
        let applied = start.elapsed();
        runner.step(&mut world, &mut events);
        let total = start.elapsed();
        let us = |d: std::time::Duration| d.as_secs_f64() * 1e6;
        let stats = world.stats();
        println!(
            "{frame:5} {:9.0} {:10.0} {:10.0} {:7} {:7} {:7}",
            us(applied),
            us(total - applied),
            us(total),
            stats.pairs,
            stats.candidates_tested,
            stats.maintenance_ops
        );
        match frame {
            1..=7 => early.push(us(total)),
            12.. => late.push(us(total)),
            _ => {}
        }
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    println!(
        "mean us/frame: frames 1-7 {:.0}, frames 12+ {:.0}",
        mean(&early),
        mean(&late)
    );
}
