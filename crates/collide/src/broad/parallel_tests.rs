//! Structures split across threads find what brute force finds, with the
//! same events whatever the thread count. Unit tests see a low
//! `PARALLEL_MIN` (see `broad/parallel.rs`), so these scenes of a couple of
//! thousand objects take the split paths: the grids' pair kernel, probes of
//! coarser levels, box gather and merge of re-registrations; `sap1`'s
//! repair and scan of its bands; the BVH's traversals and queries; the
//! trees' nodes' pairs; the split sort of pair keys; the tracker's merge
//! of pair keys; and the grids' batch updates (the scenes are applied by a
//! batching [`Runner`], so each frame's moves go to `update_many`).

use crate::broad::brute::Brute;
use crate::broad::bvh::Bvh;
use crate::broad::contract::BroadPhase;
use crate::broad::events::Pair;
use crate::broad::grid::Grid;
use crate::broad::structure::Structure;
use crate::broad::tree::Tree;
use crate::geometry::Aabb;
use crate::geometry::Vector;
use crate::scene::SceneRng;
use crate::scene::{IdEvent, Motion, Runner, Scene, SceneConfig, SceneKind};
use glam::{Vec2, Vec3};

/// Every frame's events (in scene ids) of `world` on `config`, applied in
/// batches and stepped inside a pool of `threads` threads.
fn events_per_frame<V: Vector>(
    mut world: impl BroadPhase<V, u64> + Send,
    config: SceneConfig,
    frames: usize,
    threads: usize,
) -> Vec<Vec<IdEvent>> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    let mut scene = Scene::<V>::new(config);
    let (mut runner, mut records) = (Runner::batching(), Vec::new());
    (0..frames)
        .map(|_| {
            scene.next_frame(&mut records);
            let mut events = Vec::new();
            pool.install(|| {
                runner
                    .apply(&mut world, &records)
                    .expect("scene records apply");
                runner.step(&mut world, &mut events);
            });
            events
        })
        .collect()
}

/// The structures whose steps split.
const SPLIT_STRUCTURES: [Structure; 7] = [
    Structure::Grid,
    Structure::HashGrid,
    Structure::HGrid,
    Structure::Sap1,
    Structure::Bvh,
    Structure::Tree,
    Structure::Loose,
];

fn structures_agree_with_brute_force_on_any_thread_count<V: Vector>() {
    let motions = [Motion::Slow, Motion::Fast, Motion::Teleport, Motion::Churn];
    for kind in SceneKind::ALL {
        for motion in motions {
            let config = SceneConfig {
                motion,
                ..SceneConfig::new(kind, 1_500)
            };
            let frames = 8;
            let expected = events_per_frame(Brute::<V, u64>::new(), config, frames, 1);
            for structure in SPLIT_STRUCTURES {
                for threads in [1, 2, 3, 5] {
                    let world = structure.build::<V, u64>();
                    let found = events_per_frame(world, config, frames, threads);
                    for (frame, (found, expected)) in found.iter().zip(&expected).enumerate() {
                        assert!(
                            found == expected,
                            "{structure} on {}D {kind} {motion}, {threads} threads, frame \
                             {frame}: {} events, brute force {}",
                            V::DIM,
                            found.len(),
                            expected.len()
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn structures_agree_with_brute_force_on_any_thread_count_2d() {
    structures_agree_with_brute_force_on_any_thread_count::<Vec2>();
}

#[test]
fn structures_agree_with_brute_force_on_any_thread_count_3d() {
    structures_agree_with_brute_force_on_any_thread_count::<Vec3>();
}

/// Regression: a step that finds no pairs after many, on more than one
/// thread, ended every pair without a stopped event (the tracker's split
/// merge gave its parts no old pairs when there were no keys).
#[test]
fn removing_everything_stops_every_pair_on_any_thread_count() {
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        let mut grid = Grid::<Vec2, ()>::hashed();
        let boxes = (0..100).map(|i| {
            let x = (i % 10) as f32 * 0.1;
            Aabb::new(Vec2::new(x, 0.0), Vec2::new(x + 2.0, 2.0)).expect("a valid box")
        });
        let handles: Vec<_> = boxes
            .map(|b| grid.insert(b, ()).expect("inserted"))
            .collect();
        let started = pool.install(|| grid.step().started.len());
        assert_eq!(started, 100 * 99 / 2, "{threads} threads");
        for h in handles {
            grid.remove(h).expect("removed");
        }
        let stopped = pool.install(|| grid.step().stopped.len());
        assert_eq!(stopped, 100 * 99 / 2, "{threads} threads");
        assert!(grid.pairs().is_empty());
    }
}

/// Inserts 2,000 boxes into `world` and brute force, then steps both 20
/// times on a pool of `threads` threads, moving every third object to a
/// box from `moved` at each step from step 12 on; checks the events and
/// pairs against brute force on every step.
fn script_against_brute_force(
    world: &mut (dyn BroadPhase<Vec2, ()> + Send),
    threads: usize,
    moved: fn(&mut SceneRng) -> Aabb<Vec2>,
) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    let mut brute = Brute::<Vec2, ()>::new();
    let mut rng = SceneRng::new(5);
    let handles: Vec<_> = (0..2_000)
        .map(|_| {
            let b = boxed(&mut rng, 0.0, 300.0);
            let h = world.insert(b, ()).expect("inserted");
            let g = brute.insert(b, ()).expect("inserted");
            (h, g)
        })
        .collect();
    let keys = |pairs: &[Pair]| -> Vec<(u32, u32)> {
        pairs
            .iter()
            .map(|p| (p.a().index(), p.b().index()))
            .collect()
    };
    for step in 0..20 {
        if step >= 12 {
            for &(h, g) in handles.iter().step_by(3) {
                let b = moved(&mut rng);
                world.update(h, b).expect("updated");
                brute.update(g, b).expect("updated");
            }
        }
        let counts = pool.install(|| {
            let e = world.step();
            (e.started.len(), e.stopped.len())
        });
        let e = brute.step();
        let name = world.name().to_string();
        assert_eq!(
            counts,
            (e.started.len(), e.stopped.len()),
            "{name}, {threads} threads, step {step}: started and stopped events"
        );
        assert!(
            keys(world.pairs()) == keys(brute.pairs()),
            "{name}, {threads} threads, step {step}: {} pairs, brute force {}",
            world.pairs().len(),
            brute.pairs().len()
        );
    }
}

/// A box of 1 to 9 units a side with its corner in `lo..hi` on each axis.
fn boxed(rng: &mut SceneRng, lo: f32, hi: f32) -> Aabb<Vec2> {
    let (x, y) = (rng.range(lo, hi), rng.range(lo, hi));
    let (w, h) = (rng.range(1.0, 9.0), rng.range(1.0, 9.0));
    Aabb::new(Vec2::new(x, y), Vec2::new(x + w, y + h)).expect("a valid box")
}

/// The BVH's split traversal of moving objects against resting ones: most
/// objects rest while a third teleports step after step (so every step
/// finds its pairs by traversals rather than the candidate cache).
#[test]
fn bvh_traversals_against_resting_objects_on_any_thread_count() {
    for threads in [1, 2, 3] {
        let mut bvh = Bvh::<Vec2, ()>::new();
        script_against_brute_force(&mut bvh, threads, |rng| boxed(rng, 0.0, 300.0));
        assert!(bvh.resting() > 1_000, "most objects rest");
    }
}

/// The trees' split probes of overflow objects: a third of the objects
/// move to a strip across the edge of the root's bound (fixed at the first
/// step), where many of those outside overlap those still inside.
#[test]
fn trees_probe_overflow_objects_on_any_thread_count() {
    for threads in [1, 2, 3] {
        let mut tight = Tree::<Vec2, ()>::tight();
        script_against_brute_force(&mut tight, threads, |rng| boxed(rng, 270.0, 350.0));
        assert!(tight.overflow_objects() > 100, "many objects overflow");
        // A loose root's bound reaches half its cell further.
        let mut loose = Tree::<Vec2, ()>::loose();
        script_against_brute_force(&mut loose, threads, |rng| boxed(rng, 420.0, 520.0));
        assert!(loose.overflow_objects() > 100, "many objects overflow");
    }
}
