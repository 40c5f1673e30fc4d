//! The heap this process holds, for the memory columns of `collide
//! advise`: the global allocator is the system's, wrapped by
//! `peakmem-alloc` to keep the peak since a reset.

use peakmem_alloc::{INSTRUMENTED_SYSTEM, PeakMemAlloc, PeakMemAllocTrait};
use std::alloc::System;

#[global_allocator]
static HEAP: &PeakMemAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Starts a measurement: the peak counts from what is allocated now.
pub fn reset_peak() {
    HEAP.reset_peak_memory();
}

/// The most heap allocated at once since [`reset_peak`], above what was
/// allocated then, in bytes (every thread's allocations count).
pub fn peak_bytes() -> usize {
    HEAP.get_peak_memory()
}
