//! One general narrow-phase query in a loop, for profiling (`perf record`
//! on it) and for A/B timing of a change: the `narrow` example's hexagon
//! and polyhedron pairs, 2,000 pairs 2,000 times, nanoseconds per query.
//!
//! ```sh
//! cargo run --release --manifest-path crates/collide-bench/Cargo.toml \
//!     --example gjk_loop -- d2
//! ```
//!
//! Argument: `d2` or `d3` (GJK distance), `c2` or `c3` (contact: GJK, then
//! EPA when they overlap), `s2` (a circle cast at a box: one GJK ray cast on
//! their difference), `r3` (the GJK ray cast on a polyhedron), `k2` (the
//! 2D capsule ray's closed form, for comparison). The
//! machine is noisy: compare two builds by the best of several runs each,
//! alternated.

use collide::geometry::Ray;
use collide::narrow::{d2, d3};
use collide_scenes::SceneRng;
use glam::{Quat, Vec2, Vec3};
use std::hint::black_box;
use std::time::Instant;

const PAIRS: usize = 2000;
const PASSES: usize = 2000;

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "d2".into());
    let mut rng = SceneRng::new(1);
    let hexagon: Vec<Vec2> = (0..6)
        .map(|k| Vec2::from_angle(k as f32 * 1.047) * 0.9)
        .collect();
    let hexagon = d2::Polygon::new(&hexagon).expect("a hexagon");
    let ball = d2::Circle::new(0.4).expect("a circle");
    let crate_box = d2::Cuboid::new(Vec2::new(0.8, 0.5)).expect("a box");
    let poses_2d: Vec<(d2::Pose, d2::Pose)> = (0..PAIRS)
        .map(|_| {
            let pose = |rng: &mut SceneRng| {
                let at = Vec2::new(rng.range(-1.5, 1.5), rng.range(-1.5, 1.5));
                d2::Pose::new(at, rng.range(-3.0, 3.0)).expect("finite")
            };
            (pose(&mut rng), pose(&mut rng))
        })
        .collect();
    let points: Vec<Vec3> = [
        Vec3::X,
        -Vec3::X,
        Vec3::Y * 1.3,
        -Vec3::Y * 1.3,
        Vec3::Z,
        -Vec3::Z,
        Vec3::new(0.5, 0.5, 0.5),
        Vec3::new(-0.5, 0.5, -0.5),
    ]
    .into_iter()
    .map(|p| p * 0.8)
    .collect();
    let polyhedron = d3::Polyhedron::new(&points).expect("a polyhedron");
    let poses_3d: Vec<(d3::Pose, d3::Pose)> = (0..PAIRS)
        .map(|_| {
            let pose = |rng: &mut SceneRng| {
                let mut v =
                    |r: f32| Vec3::new(rng.range(-r, r), rng.range(-r, r), rng.range(-r, r));
                let (at, axis) = (v(1.5), v(1.0).normalize_or(Vec3::X));
                let turn = Quat::from_axis_angle(axis, rng.range(-3.0, 3.0));
                d3::Pose::new(at, turn).expect("finite")
            };
            (pose(&mut rng), pose(&mut rng))
        })
        .collect();
    let rays: Vec<(Ray<Vec3>, d3::Pose)> = poses_3d
        .iter()
        .map(|(a, b)| {
            let d = (b.position() - a.position()) * 2.0 + Vec3::new(0.01, 0.0, 0.0);
            (Ray::new(a.position() - d, d, 3.0).expect("finite"), *b)
        })
        .collect();
    // The `narrow` example's 2D rays: from twice the offset back, along it.
    let capsule = d2::Capsule::new(0.6, 0.3).expect("a capsule");
    let rays_2d: Vec<(Ray<Vec2>, d2::Pose)> = poses_2d
        .iter()
        .map(|(a, b)| {
            let d = (b.position() - a.position()) * 2.0 + Vec2::new(0.01, 0.0);
            (Ray::new(a.position() - d, d, 3.0).expect("finite"), *b)
        })
        .collect();
    let start = Instant::now();
    let mut sink = 0.0f32;
    for _ in 0..PASSES {
        match which.as_str() {
            "d2" => {
                for (a, b) in &poses_2d {
                    sink += d2::distance(&hexagon, a, &hexagon, b);
                }
            }
            "c2" => {
                for (a, b) in &poses_2d {
                    sink += d2::contact(&hexagon, a, &hexagon, b).depth;
                }
            }
            "d3" => {
                for (a, b) in &poses_3d {
                    sink += d3::distance(&polyhedron, a, &polyhedron, b);
                }
            }
            "c3" => {
                for (a, b) in &poses_3d {
                    sink += d3::contact(&polyhedron, a, &polyhedron, b).depth;
                }
            }
            "s2" => {
                // The `narrow` example's circle-to-box cast: from twice the
                // offset back, along 1.5 times it.
                for (a, b) in &poses_2d {
                    let motion = (b.position() - a.position()) * 2.0;
                    let from = d2::Pose::at(a.position() - motion).expect("finite");
                    let hit = d2::cast_shape(&ball, &from, motion * 1.5, &crate_box, b, Vec2::ZERO);
                    sink += hit.map_or(0.0, |h| h.t);
                }
            }
            "r3" => {
                for (ray, pose) in &rays {
                    sink += d3::cast_ray(ray, &polyhedron, pose).map_or(0.0, |hit| hit.t);
                }
            }
            "k2" => {
                for (ray, pose) in &rays_2d {
                    sink += d2::cast_ray_capsule(ray, &capsule, pose).map_or(0.0, |hit| hit.t);
                }
            }
            other => panic!("unknown query `{other}`: d2, d3, c2, c3, s2, r3 or k2"),
        }
    }
    black_box(sink);
    let per_query = start.elapsed().as_secs_f64() * 1e9 / (PAIRS * PASSES) as f64;
    println!("{which}: {per_query:.0} ns");
}
