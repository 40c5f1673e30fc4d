//! Wears a BVH by reinsertion and shows how it is rebuilt: 20,000 boxes
//! jitter inside their fat boxes (so none rests) while each step a share
//! of them (4% by default, under the quarter that makes the step rebuild
//! the whole tree) jump anywhere and are reinserted one by one. Once the
//! tree has worn, the step rebuilds it whole in the background (a share of
//! the leaves per step); with `whole`, the probe also rebuilds it whole by
//! median splits at step 336, for comparison.
//!
//! ```sh
//! cargo run --release --manifest-path crates/collide-bench/Cargo.toml \
//!     --example wear_probe -- 0.04            # automatic
//! cargo run --release --manifest-path crates/collide-bench/Cargo.toml \
//!     --example wear_probe -- 0.04 whole      # and a whole rebuild at step 336
//! ```
//!
//! Prints every 25th step and steps 325 to 344: whole rebuilds, the
//! surface-area cost and the step's time in microseconds.

use collide::{Aabb2, BroadPhase, Bvh, BvhBuild};
use collide_scenes::SceneRng;
use glam::Vec2;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let share: f32 = args
        .first()
        .map_or(0.04, |s| s.parse().expect("share: a number"));
    let whole = args.get(1).is_some_and(|a| a == "whole");
    let mut rng = SceneRng::new(11);
    let n = 20_000;
    let spot = |rng: &mut SceneRng| Vec2::new(rng.range(0.0, 6000.0), rng.range(0.0, 6000.0));
    let mut centres: Vec<Vec2> = (0..n).map(|_| spot(&mut rng)).collect();
    let boxed = |c: Vec2| Aabb2::from_center_half_extents(c, Vec2::splat(5.0)).expect("finite");
    let mut bvh = Bvh::<Vec2, usize>::new();
    let handles: Vec<_> = centres
        .iter()
        .enumerate()
        .map(|(i, &c)| bvh.insert(boxed(c), i).expect("valid box"))
        .collect();
    bvh.step();
    println!("step  rebuilds  sah_cost  step_us");
    for step in 0..400 {
        let wobble = if step % 2 == 0 { 0.25 } else { -0.25 };
        for (i, c) in centres.iter_mut().enumerate() {
            if rng.unit() < share {
                *c = spot(&mut rng);
            } else {
                c.x += wobble;
            }
            bvh.update(handles[i], boxed(*c)).expect("live handle");
        }
        let start = Instant::now();
        if whole && step == 336 {
            bvh.rebuild(BvhBuild::Median);
        }
        bvh.step();
        let us = start.elapsed().as_micros();
        if step % 25 == 0 || (325..345).contains(&step) {
            println!(
                "{step:4} {:9} {:9.1} {us:8}",
                bvh.rebuilds(),
                bvh.quality().sah_cost
            );
        }
    }
}
