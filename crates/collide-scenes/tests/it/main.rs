//! The integration tests of the test kit, one binary: the counting
//! allocator, the shared scenes and the trace format.

// The tests work out expected values with the platform's math; only the
// scenes themselves must keep to `collide::math`.
#![allow(clippy::disallowed_methods)]

mod alloc;
mod scene;
mod trace;

/// The counting allocator under test.
#[global_allocator]
static ALLOCATOR: collide_scenes::alloc::CountingAlloc = collide_scenes::alloc::CountingAlloc;
