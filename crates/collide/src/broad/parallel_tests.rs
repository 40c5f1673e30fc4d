//! Structures split across threads find what brute force finds, with the
//! same events whatever the thread count. Unit tests see a low
//! `PARALLEL_MIN` (see `broad/parallel.rs`), so these scenes of a couple of
//! thousand objects take the split paths: the grids' pair kernel, probes of
//! coarser levels, box gather and merge of re-registrations; `sap1`'s
//! repair and scan of its bands; the split sort of pair keys; and the
//! tracker's merge of pair keys.

use crate::broad::brute::Brute;
use crate::broad::contract::BroadPhase;
use crate::broad::grid::Grid;
use crate::broad::registry::structure_by_name;
use crate::geometry::Vector;
use crate::scene::{IdEvent, Motion, Runner, Scene, SceneConfig, SceneKind};
use glam::{Vec2, Vec3};

/// Every frame's events (in scene ids) of `world` on `config`, stepped
/// inside a pool of `threads` threads.
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
    let (mut runner, mut records) = (Runner::new(), Vec::new());
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

/// The structures whose steps split (by their names for
/// `structure_by_name`).
const SPLIT_STRUCTURES: [&str; 4] = ["grid", "hashgrid", "hgrid", "sap1"];

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
            for name in SPLIT_STRUCTURES {
                for threads in [1, 2, 3, 5] {
                    let world = structure_by_name::<V, u64>(name).expect("a structure");
                    let found = events_per_frame(world, config, frames, threads);
                    for (frame, (found, expected)) in found.iter().zip(&expected).enumerate() {
                        assert!(
                            found == expected,
                            "{name} on {}D {kind} {motion}, {threads} threads, frame \
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
    use crate::geometry::Aabb;
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
