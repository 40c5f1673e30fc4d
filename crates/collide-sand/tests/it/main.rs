//! The integration tests of `collide-sand`, one binary: the world's rules
//! and updates, the boxes it gives the broad phase, and allocation.

// The tests work out expected values with the platform's math; only the
// library must keep to `collide::math`.
#![allow(clippy::disallowed_methods)]

mod allocation;
mod common;
mod dispersion;
mod error;
mod invariance;
mod solids;
mod world;

/// The test kit's counting allocator, for the allocation test; the other
/// tests only pay its few atomic adds.
#[global_allocator]
static ALLOCATOR: collide_scenes::alloc::CountingAlloc = collide_scenes::alloc::CountingAlloc;
