//! No leaks, no growth: every structure under a long churn of
//! inserts and removes (the shared scenes' `churn` motion: 1% of the
//! objects replaced every frame, the rest moving) holds no more memory
//! late in the run than it did early on.
//!
//! A counting global allocator (this test binary's own) keeps the bytes
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
//! COLLIDE_SOAK_FRAMES=50000 cargo test --release -p collide --test soak -- --nocapture
//! ```
//!
//! `COLLIDE_SOAK_OBJECTS` sets the object count. The counting allocator is
//! the project's only `unsafe` code besides `tests/allocation.rs`'s (the
//! library and the command forbid it); Miri runs it through every path
//! (allocate, zeroed, grow, shrink, free):
//!
//! ```sh
//! cargo +nightly miri test -p collide --test soak counting_allocator
//! ```

use collide::scene::{Motion, Runner, Scene, SceneConfig, SceneKind};
use collide::{Structure, Vector};
use glam::{Vec2, Vec3};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, Ordering};

/// The system allocator, keeping the bytes and allocations held in
/// [`HELD`] and [`ALLOCATIONS`] (and this thread's share in `MINE`).
struct CountingAlloc;

static HELD: AtomicI64 = AtomicI64::new(0);
static ALLOCATIONS: AtomicI64 = AtomicI64::new(0);

thread_local! {
    /// This thread's share of the counts (for the allocator's own test,
    /// which other threads' allocations would disturb).
    static MINE: Cell<(i64, i64)> = const { Cell::new((0, 0)) };
}

impl CountingAlloc {
    fn note(bytes: i64, allocations: i64) {
        HELD.fetch_add(bytes, Ordering::Relaxed);
        ALLOCATIONS.fetch_add(allocations, Ordering::Relaxed);
        // `try_with`: thread-locals may be gone while a thread shuts down.
        let _ = MINE.try_with(|m| {
            let (b, a) = m.get();
            m.set((b + bytes, a + allocations));
        });
    }
}

// SAFETY: every call is forwarded unchanged to `System`; the counting is
// atomic adds and a const-initialised thread-local, which do not allocate.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Self::note(layout.size() as i64, 1);
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        Self::note(layout.size() as i64, 1);
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        Self::note(-(layout.size() as i64), -1);
        // SAFETY: `ptr` came from `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        Self::note(new_size as i64 - layout.size() as i64, 0);
        // SAFETY: `ptr` came from `System` with this layout.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// The byte count is process-wide: one soak at a time.
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

/// Peaks of what the process held at the ends of frames.
#[derive(Clone, Copy, Debug, Default)]
struct Held {
    bytes: i64,
    allocations: i64,
}

impl Held {
    fn now() -> Self {
        Self {
            bytes: HELD.load(Ordering::Relaxed),
            allocations: ALLOCATIONS.load(Ordering::Relaxed),
        }
    }
    fn max(self, other: Self) -> Self {
        Self {
            bytes: self.bytes.max(other.bytes),
            allocations: self.allocations.max(other.allocations),
        }
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
        let held = Held::now();
        if frame < frames / 2 {
            warm = warm.max(held);
        } else {
            later = later.max(held);
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
    memory_stays_flat::<Vec2>(SceneKind::Uniform);
}

#[test]
fn memory_stays_flat_under_churn_3d_clustered() {
    memory_stays_flat::<Vec3>(SceneKind::Clustered);
}

/// This thread's counts.
fn mine() -> Held {
    let (bytes, allocations) = MINE.with(Cell::get);
    Held { bytes, allocations }
}

#[test]
fn counting_allocator_keeps_the_bytes_and_allocations_held() {
    let before = mine();
    let mut v: Vec<u64> = Vec::with_capacity(4);
    v.extend([1, 2, 3, 4]);
    assert_eq!(mine().bytes - before.bytes, 32);
    v.push(5); // grows: a reallocation
    let grown = mine();
    assert_eq!(grown.allocations - before.allocations, 1);
    assert_eq!(grown.bytes - before.bytes, 8 * v.capacity() as i64);
    v.shrink_to_fit();
    assert_eq!(mine().bytes - before.bytes, 40);
    let zeroed = vec![0u8; 100]; // alloc_zeroed
    assert_eq!(mine().bytes - before.bytes, 140);
    assert_eq!(v.iter().sum::<u64>() + u64::from(zeroed[99]), 15);
    drop((v, zeroed));
    let after = mine();
    assert_eq!(
        (after.bytes, after.allocations),
        (before.bytes, before.allocations)
    );
}
