//! No leaks, no growth: every structure under a long churn of
//! inserts and removes (the shared scenes' `churn` motion: 1% of the
//! objects replaced every frame, the rest moving) holds no more memory
//! late in the run than it did early on.
//!
//! The test kit's counting global allocator keeps the bytes
//! and the number of allocations the process holds. Over the run's second
//! half, the peak of allocations held must stay within 16 of the first
//! half's and the peak of bytes held within 10% of it. Buffers may still
//! grow once in a while, each time a count (pairs, occupied cells, live
//! ids in the runner's map) reaches a new high: a 50,000-frame soak of
//! `hashgrid` on 3D `clustered` grew by 6% at frame 22,806, when its
//! occupied cells first reached 1,058, and the runner's id map grows
//! until about frame 8,000 as churn moves every id from its vector to its
//! hash map. Growth like that stops; a leak does not, so a longer soak
//! shows a smaller leak: one allocation a frame fails at once, a buffer
//! that keeps growing fails once it outweighs the rest.
//!
//! CI runs 2,000 frames per structure at 1,000 objects. For a longer
//! soak, set the frame count:
//!
//! ```sh
//! COLLIDE_SOAK_FRAMES=50000 cargo test --release -p collide --test it soak -- --nocapture
//! ```
//!
//! `COLLIDE_SOAK_OBJECTS` sets the object count.

use collide::{Structure, Vector};
use collide_scenes::alloc::{self, Held};
use collide_scenes::{Motion, Runner, Scene, SceneConfig, SceneKind};
use glam::{Vec2, Vec3};
use std::sync::Mutex;

/// The byte count is process-wide: one soak at a time, each in a process
/// of its own (`alloc::alone`), away from the other tests.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// A count from the environment variable `name`, else `default`.
fn setting(name: &str, default: usize) -> usize {
    match std::env::var(name) {
        Ok(text) => text
            .parse()
            .unwrap_or_else(|_| panic!("{name} is `{text}`; give a whole number")),
        Err(_) => default,
    }
}

fn frames() -> usize {
    setting("COLLIDE_SOAK_FRAMES", 2_000)
}

/// The larger of two counts, each field on its own.
fn max(a: Held, b: Held) -> Held {
    Held {
        bytes: a.bytes.max(b.bytes),
        allocations: a.allocations.max(b.allocations),
    }
}

/// Runs `structure` on a churning scene for `frames` frames; returns the
/// peaks held at the end of a frame during the first half and during the
/// second.
fn soak<V: Vector>(structure: Structure, kind: SceneKind, frames: usize) -> (Held, Held) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let config = SceneConfig {
        motion: Motion::Churn,
        ..SceneConfig::new(kind, setting("COLLIDE_SOAK_OBJECTS", 1_000))
    };
    let mut world = structure.build::<V, u64>();
    let mut scene = Scene::<V>::new(config);
    let mut runner = Runner::new();
    let (mut records, mut events) = (Vec::new(), Vec::new());
    let (mut warm, mut later) = (Held::default(), Held::default());
    let report_every = (frames / 10).max(1);
    for frame in 0..frames {
        scene.next_frame(&mut records);
        runner.apply(&mut world, &records).unwrap();
        runner.step(&mut world, &mut events);
        let held = alloc::held();
        if frame < frames / 2 {
            warm = max(warm, held);
        } else {
            later = max(later, held);
        }
        if frames > 10_000 && frame % report_every == 0 {
            eprintln!(
                "{structure} {}D {kind}: frame {frame} of {frames}, {} bytes in {} allocations held",
                V::DIM,
                held.bytes,
                held.allocations
            );
        }
    }
    (warm, later)
}

fn memory_stays_flat<V: Vector>(kind: SceneKind) {
    let frames = frames();
    assert!(frames >= 4, "a soak needs at least 4 frames");
    for name in Structure::ALL {
        let (warm, later) = soak::<V>(name, kind, frames);
        eprintln!(
            "{name} {}D {kind}: peak {} bytes in {} allocations in the first {} frames, \
             {} bytes in {} after",
            V::DIM,
            warm.bytes,
            warm.allocations,
            frames / 2,
            later.bytes,
            later.allocations
        );
        assert!(
            later.bytes as f64 <= warm.bytes as f64 * 1.10
                && later.allocations <= warm.allocations + 16,
            "{name} {}D {kind}: memory grew under churn: peak {} bytes in {} allocations held \
             in the first {} frames, {} bytes in {} in the {} after",
            V::DIM,
            warm.bytes,
            warm.allocations,
            frames / 2,
            later.bytes,
            later.allocations,
            frames - frames / 2
        );
    }
}

#[test]
fn memory_stays_flat_under_churn_2d_uniform() {
    if !alloc::alone(module_path!(), "memory_stays_flat_under_churn_2d_uniform") {
        return;
    }
    memory_stays_flat::<Vec2>(SceneKind::Uniform);
}

#[test]
fn memory_stays_flat_under_churn_3d_clustered() {
    if !alloc::alone(module_path!(), "memory_stays_flat_under_churn_3d_clustered") {
        return;
    }
    memory_stays_flat::<Vec3>(SceneKind::Clustered);
}
