//! Steps split across threads at the library's real thresholds: the same
//! events on every frame whatever the thread count (the unit tests in
//! `src/broad/parallel_tests.rs` check small scenes against brute force
//! with the thresholds lowered).

use collide::{BroadPhase, Structure, Vector};
use collide_scenes::{IdEvent, Motion, Runner, Scene, SceneConfig, SceneKind};
use glam::{Vec2, Vec3};

/// Every frame's events and pair count of structure `name` on `config`,
/// applied in batches (`update_many`, which the grids split too) and
/// stepped inside a pool of `threads` threads.
fn run<V: Vector>(
    name: Structure,
    config: SceneConfig,
    frames: usize,
    threads: usize,
) -> Vec<(Vec<IdEvent>, usize)> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    let mut world = name.build::<V, u64>();
    let mut scene = Scene::<V>::new(config);
    let (mut runner, mut records) = (Runner::batching(), Vec::new());
    (0..frames)
        .map(|_| {
            scene.next_frame(&mut records);
            let mut events = Vec::new();
            pool.install(|| {
                runner
                    .apply(world.as_mut(), &records)
                    .expect("records apply");
                runner.step(world.as_mut(), &mut events);
            });
            (events, world.pairs().len())
        })
        .collect()
}

fn same_on_every_thread_count<V: Vector>(
    name: Structure,
    kind: SceneKind,
    motion: Motion,
    n: usize,
) {
    let config = SceneConfig {
        motion,
        ..SceneConfig::new(kind, n)
    };
    let frames = 4;
    let one = run::<V>(name, config, frames, 1);
    assert!(
        one.iter().any(|(_, pairs)| *pairs > 0),
        "a scene with pairs"
    );
    for threads in [2, 3] {
        let many = run::<V>(name, config, frames, threads);
        for (frame, (a, b)) in one.iter().zip(&many).enumerate() {
            assert!(
                a == b,
                "{name}, {}D {kind} {motion}, n = {n}: frame {frame} differs between 1 and \
                 {threads} threads ({} and {} events, {} and {} pairs)",
                V::DIM,
                a.0.len(),
                b.0.len(),
                a.1,
                b.1
            );
        }
    }
}

#[test]
fn grids_give_the_same_events_on_one_two_and_three_threads() {
    same_on_every_thread_count::<Vec2>(Structure::Grid, SceneKind::Uniform, Motion::Slow, 25_000);
    same_on_every_thread_count::<Vec2>(
        Structure::HashGrid,
        SceneKind::Uniform,
        Motion::Fast,
        25_000,
    );
    same_on_every_thread_count::<Vec3>(
        Structure::HGrid,
        SceneKind::Clustered,
        Motion::Churn,
        25_000,
    );
}

#[test]
fn sap1_gives_the_same_events_on_one_two_and_three_threads() {
    same_on_every_thread_count::<Vec2>(Structure::Sap1, SceneKind::Large, Motion::Slow, 25_000);
    same_on_every_thread_count::<Vec3>(Structure::Sap1, SceneKind::Flat, Motion::Fast, 25_000);
}

#[test]
fn bvh_and_trees_give_the_same_events_on_one_two_and_three_threads() {
    // Fast motion: the BVH finds its pairs by its split traversals.
    same_on_every_thread_count::<Vec2>(Structure::Bvh, SceneKind::Uniform, Motion::Fast, 25_000);
    // Slow motion: by the split queries of its fresh objects.
    same_on_every_thread_count::<Vec3>(Structure::Bvh, SceneKind::Clustered, Motion::Slow, 25_000);
    same_on_every_thread_count::<Vec2>(Structure::Tree, SceneKind::Uniform, Motion::Churn, 25_000);
    same_on_every_thread_count::<Vec3>(
        Structure::Loose,
        SceneKind::Large,
        Motion::Teleport,
        25_000,
    );
}
