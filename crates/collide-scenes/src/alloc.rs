//! A counting global allocator for tests, benchmarks and the command's
//! memory columns: the system allocator, with three counts kept beside it.
//!
//! - **Held by the process** (every thread, always on): the bytes and
//!   allocations live now ([`held`]), and the most bytes held since
//!   [`reset_peak`] ([`peak_bytes`]). A soak test reads these to see that
//!   memory stays flat.
//! - **Tracked on this thread** (only inside [`track`]): the allocation
//!   calls made, the bytes held and their peak ([`tracked`]). A test that
//!   a step allocates nothing, or a benchmark's count of what one
//!   structure holds, reads these; other threads do not disturb them.
//! - **Backtraces** ([`set_backtraces`]): a debugging aid that prints where
//!   each tracked allocation came from.
//! - **Alone** ([`alone`]): runs one test in a child process, so that the
//!   process-wide counts are its own while other tests run beside it.
//!
//! Install it in a binary or a test target:
//!
//! ```
//! use collide_scenes::alloc::{self, CountingAlloc};
//!
//! #[global_allocator]
//! static ALLOCATOR: CountingAlloc = CountingAlloc;
//!
//! alloc::reset_tracked();
//! let v = alloc::track(|| vec![0u8; 100]);
//! assert_eq!(alloc::tracked().allocations, 1);
//! assert_eq!(alloc::tracked().bytes, 100);
//! # drop(v);
//! ```
//!
//! The counting costs a few atomic adds and a thread-local read per call.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::Write as _;
use std::sync::atomic::{AtomicI64, Ordering};

/// The system allocator, counting (see the module docs).
#[derive(Clone, Copy, Debug, Default)]
pub struct CountingAlloc;

/// Bytes and allocations the whole process holds now.
static HELD_BYTES: AtomicI64 = AtomicI64::new(0);
static HELD_ALLOCATIONS: AtomicI64 = AtomicI64::new(0);
/// The most bytes held since [`reset_peak`], counted from what was held
/// then (`PEAK_BASE`).
static PEAK: AtomicI64 = AtomicI64::new(0);
static PEAK_BASE: AtomicI64 = AtomicI64::new(0);

thread_local! {
    static TRACKING: Cell<bool> = const { Cell::new(false) };
    static BACKTRACES: Cell<bool> = const { Cell::new(false) };
    static TRACKED: Cell<Tracked> = const { Cell::new(Tracked::ZERO) };
}

/// What the process holds: live bytes and live allocations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Held {
    /// Bytes allocated and not yet freed.
    pub bytes: i64,
    /// Allocations not yet freed (a reallocation keeps the count).
    pub allocations: i64,
}

/// What this thread's tracked calls did since [`reset_tracked`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tracked {
    /// Calls to allocate, allocate zeroed or reallocate.
    pub allocations: u64,
    /// Bytes allocated minus bytes freed.
    pub bytes: i64,
    /// The most `bytes` reached.
    pub peak_bytes: i64,
}

impl Tracked {
    const ZERO: Self = Self {
        allocations: 0,
        bytes: 0,
        peak_bytes: 0,
    };
}

/// Counts a change of `bytes` held and `allocations` live, and, if this
/// thread tracks, one call when `call`.
fn note(bytes: i64, allocations: i64, call: bool) {
    let held = HELD_BYTES.fetch_add(bytes, Ordering::Relaxed) + bytes;
    HELD_ALLOCATIONS.fetch_add(allocations, Ordering::Relaxed);
    if bytes > 0 {
        PEAK.fetch_max(held, Ordering::Relaxed);
    }
    // `try_with`: thread-locals may be gone while a thread shuts down.
    if !TRACKING.try_with(Cell::get).unwrap_or(false) {
        return;
    }
    let _ = TRACKED.try_with(|t| {
        let mut now = t.get();
        now.allocations += u64::from(call);
        now.bytes += bytes;
        now.peak_bytes = now.peak_bytes.max(now.bytes);
        t.set(now);
    });
    if call && BACKTRACES.with(Cell::get) {
        // Tracking off while the backtrace allocates; a failed write is
        // ignored (a panic must not unwind out of the allocator).
        TRACKING.with(|c| c.set(false));
        let trace = std::backtrace::Backtrace::force_capture();
        let _ = writeln!(std::io::stderr(), "allocation of {bytes} bytes:\n{trace}");
        TRACKING.with(|c| c.set(true));
    }
}

// SAFETY: every call is forwarded unchanged to `System`; the counting
// touches atomics and const-initialised thread-locals, which do not
// allocate (the backtrace, a debugging aid, runs with tracking off).
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size() as i64, 1, true);
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size() as i64, 1, true);
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size as i64 - layout.size() as i64, 0, true);
        // SAFETY: forwarded with the caller's pointer, layout and size.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note(-(layout.size() as i64), -1, false);
        // SAFETY: forwarded with the caller's pointer and layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// What the process holds now (zero unless [`CountingAlloc`] is the
/// global allocator).
pub fn held() -> Held {
    Held {
        bytes: HELD_BYTES.load(Ordering::Relaxed),
        allocations: HELD_ALLOCATIONS.load(Ordering::Relaxed),
    }
}

/// Starts a peak: [`peak_bytes`] counts from what is held now.
pub fn reset_peak() {
    let now = HELD_BYTES.load(Ordering::Relaxed);
    PEAK_BASE.store(now, Ordering::Relaxed);
    PEAK.store(now, Ordering::Relaxed);
}

/// The most bytes every thread held at once since [`reset_peak`], above
/// what was held then.
pub fn peak_bytes() -> usize {
    let peak = PEAK.load(Ordering::Relaxed) - PEAK_BASE.load(Ordering::Relaxed);
    peak.max(0) as usize
}

/// Runs `f` with this thread's allocations tracked (added to
/// [`tracked`]); nests.
pub fn track<R>(f: impl FnOnce() -> R) -> R {
    let was = TRACKING.with(|c| c.replace(true));
    let result = f();
    TRACKING.with(|c| c.set(was));
    result
}

/// This thread's tracked counts since [`reset_tracked`].
pub fn tracked() -> Tracked {
    TRACKED.with(Cell::get)
}

/// Zeroes this thread's tracked counts.
pub fn reset_tracked() {
    TRACKED.with(|t| t.set(Tracked::ZERO));
}

/// Whether each tracked allocation on this thread prints a backtrace to
/// standard error (a debugging aid for a test that finds an allocation).
pub fn set_backtraces(on: bool) {
    BACKTRACES.with(|b| b.set(on));
}

/// The environment variable that tells a child test process which test it
/// runs alone (see [`alone`]).
const ALONE: &str = "COLLIDE_TEST_ALONE";

/// Runs one test of this test binary by itself, in a child process, so
/// that the process-wide counts ([`held`], [`peak_bytes`]) see only its
/// allocations while other tests run beside it in this one.
///
/// Call it first in the test, with `module_path!()` and the test's
/// function name. In the parent it starts the child, waits, and returns
/// `false` (the test returns at once); it panics with the child's output
/// if the child failed or ran no test. In the child it returns `true`:
/// the caller goes on with the test's body.
///
/// ```no_run
/// use collide_scenes::alloc;
///
/// #[test]
/// fn memory_stays_flat() {
///     if !alloc::alone(module_path!(), "memory_stays_flat") {
///         return;
///     }
///     // ... read `alloc::held()` while the test runs.
/// }
/// ```
#[track_caller]
pub fn alone(module_path: &str, test: &str) -> bool {
    // The test harness names a test by its path below the crate's root.
    let name = match module_path.split_once("::") {
        Some((_, rest)) => format!("{rest}::{test}"),
        None => test.to_owned(),
    };
    if std::env::var(ALONE).is_ok_and(|running| running == name) {
        return true;
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let output = std::process::Command::new(exe)
        .args([name.as_str(), "--exact", "--test-threads=1", "--nocapture"])
        .env(ALONE, &name)
        .output()
        .expect("the test binary starts again");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stdout.contains("1 passed"),
        "{name}, run alone in a child process, {}:\n{stdout}\n{stderr}",
        if output.status.success() {
            "ran no test"
        } else {
            "failed"
        }
    );
    eprint!("{stderr}");
    false
}
