//! The integration tests of the test kit, one binary: the counting
//! allocator, the shared scenes and the trace format.

mod alloc;
mod scene;
mod trace;

/// The counting allocator under test.
#[global_allocator]
static ALLOCATOR: collide_scenes::alloc::CountingAlloc = collide_scenes::alloc::CountingAlloc;
