//! Peak heap memory per implementation: the benchmark's global allocator
//! counts the bytes allocated and freed while a contender runs (its
//! construction and its timed frames, see [`tracked`]) and keeps the
//! highest total reached. The scene, the records and the check run
//! untracked, so they are not counted.
//!
//! Everything a contender frees inside a tracked call is taken to be its
//! own: the benchmark is single-threaded and nothing else runs then. The
//! counting sits inside the timed frame: an atomic add (and a load) per
//! allocation and free, which costs the peers that rebuild every frame
//! (broccoli, parry's rebuild, rstar) a little more than ours, which
//! allocate nothing per frame.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicIsize, Ordering};

/// The system allocator, with the tracked bytes counted.
pub struct Counting;

/// Bytes held by tracked allocations now, and the most held since
/// [`reset`].
static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

thread_local! {
    static TRACKING: Cell<bool> = const { Cell::new(false) };
}

fn tracking() -> bool {
    // `try_with`: thread-locals may be gone while a thread shuts down.
    TRACKING.try_with(Cell::get).unwrap_or(false)
}

fn grew(bytes: usize) {
    let live = LIVE.fetch_add(bytes as isize, Ordering::Relaxed) + bytes as isize;
    // One thread counts at a time (the benchmark is single-threaded): a
    // load and a store, not a compare-and-swap loop.
    if live > PEAK.load(Ordering::Relaxed) {
        PEAK.store(live, Ordering::Relaxed);
    }
}

fn shrank(bytes: usize) {
    LIVE.fetch_sub(bytes as isize, Ordering::Relaxed);
}

// SAFETY: every call is forwarded unchanged to `System`; the counting
// touches atomics and a const-initialised thread-local, which do not
// allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if tracking() {
            grew(layout.size());
        }
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if tracking() {
            grew(layout.size());
        }
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if tracking() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                shrank(layout.size() - new_size);
            }
        }
        // SAFETY: forwarded with the caller's pointer, layout and size.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if tracking() {
            shrank(layout.size());
        }
        // SAFETY: forwarded with the caller's pointer and layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Starts a new count (before a contender is built).
pub fn reset() {
    LIVE.store(0, Ordering::Relaxed);
    PEAK.store(0, Ordering::Relaxed);
}

/// Runs `f` with its allocations counted.
pub fn tracked<R>(f: impl FnOnce() -> R) -> R {
    TRACKING.with(|t| t.set(true));
    let result = f();
    TRACKING.with(|t| t.set(false));
    result
}

/// The most bytes the tracked calls held at once since [`reset`].
pub fn peak_bytes() -> usize {
    PEAK.load(Ordering::Relaxed).max(0) as usize
}

/// Held by each test that counts memory (the count is one for the whole
/// process), so that tests running at once do not mix their counts.
#[cfg(test)]
pub static COUNTING_TESTS: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_what_tracked_calls_hold_at_their_peak() {
        let _alone = COUNTING_TESTS.lock().unwrap_or_else(|e| e.into_inner());
        reset();
        let kept = tracked(|| {
            let big = vec![0u8; 1 << 20];
            drop(big);
            vec![0u8; 1000]
        });
        // Untracked allocations do not count.
        let other = vec![0u8; 1 << 21];
        assert!(peak_bytes() >= 1 << 20);
        assert!(peak_bytes() < (1 << 20) + 4096);
        drop((kept, other));
    }
}
