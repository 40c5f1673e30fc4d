//! What taking a snapshot costs, beside a step, for every structure on a
//! shared 2D scene (uniform, slow motion).
//!
//! ```sh
//! cargo run --release --manifest-path crates/collide-bench/Cargo.toml \
//!     --example snapshot_cost -- 100000
//! ```

use collide::Query;
use collide_scenes::{Runner, Scene, SceneConfig, SceneKind};
use glam::Vec2;
use std::time::Instant;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map_or(100_000, |s| s.parse().expect("objects: a number"));
    println!("2D uniform slow, n = {n}, mean of frames 1-20");
    println!("| structure | step us | snapshot us | snapshot / step |");
    println!("|---|---:|---:|---:|");
    for name in &collide::Structure::ALL.map(collide::Structure::name) {
        if *name == "brute" && n > 20_000 {
            continue; // its step is quadratic
        }
        let mut scene = Scene::<Vec2>::new(SceneConfig::new(SceneKind::Uniform, n));
        let mut world = name
            .parse::<collide::Structure>()
            .ok()
            .map(|s| s.build::<Vec2, u64>())
            .expect("a listed structure");
        let mut runner = Runner::new();
        let (mut records, mut events) = (Vec::new(), Vec::new());
        let (mut step_us, mut snap_us) = (0.0, 0.0);
        for frame in 0..21 {
            scene.next_frame(&mut records);
            runner
                .apply(&mut world, &records)
                .expect("scene records apply");
            let start = Instant::now();
            runner.step(&mut world, &mut events);
            let stepped = start.elapsed();
            let start = Instant::now();
            let snapshot = world.snapshot();
            let snapped = start.elapsed();
            assert_eq!(snapshot.len(), world.len());
            if frame > 0 {
                step_us += stepped.as_secs_f64() * 1e6 / 20.0;
                snap_us += snapped.as_secs_f64() * 1e6 / 20.0;
            }
        }
        println!(
            "| {name} | {step_us:.0} | {snap_us:.0} | {:.3} |",
            snap_us / step_us
        );
    }
}
