//! What taking a `BvhSnapshot` costs, beside a step, on a shared 2D scene.
//!
//! ```sh
//! cargo run --release --manifest-path crates/collide-bench/Cargo.toml \
//!     --example snapshot_cost -- 100000
//! ```

use collide::scene::{Runner, Scene, SceneConfig, SceneKind};
use collide::{BroadPhase, Bvh};
use glam::Vec2;
use std::time::Instant;

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map_or(100_000, |s| s.parse().expect("objects: a number"));
    let mut scene = Scene::<Vec2>::new(SceneConfig::new(SceneKind::Uniform, n));
    let mut bvh = Bvh::<Vec2, u64>::new();
    let mut runner = Runner::new();
    let (mut records, mut events) = (Vec::new(), Vec::new());
    let (mut step_us, mut snap_us) = (Vec::new(), Vec::new());
    for frame in 0..21 {
        scene.next_frame(&mut records);
        runner
            .apply(&mut bvh, &records)
            .expect("scene records apply");
        let start = Instant::now();
        runner.step(&mut bvh, &mut events);
        let stepped = start.elapsed();
        let start = Instant::now();
        let snapshot = bvh.snapshot();
        let snapped = start.elapsed();
        assert_eq!(snapshot.len(), bvh.len());
        if frame > 0 {
            step_us.push(stepped.as_secs_f64() * 1e6);
            snap_us.push(snapped.as_secs_f64() * 1e6);
        }
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    println!(
        "2D uniform slow, n = {n}: step {:.0} us, snapshot {:.0} us (mean of frames 1-20)",
        mean(&step_us),
        mean(&snap_us)
    );
}
