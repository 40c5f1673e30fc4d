//! The integration tests of `collide`, one binary whose modules follow the
//! library's tree: the broad phase and its structures, the narrow phase,
//! motion, and the checks that cross them (bad values, `mint`).
//!
//! Run one part by its path: `cargo test -p collide --test it broad::sap`.

// The tests work out expected values with the platform's math; only the
// library must keep to `collide::math`.
#![allow(clippy::disallowed_methods)]

mod bad_values;
mod broad;
mod checks;
mod common;
mod math_golden;
#[cfg(feature = "mint")]
mod mint;
mod motion;
mod narrow;
mod world;

/// The test kit's counting allocator, for the allocation and soak tests;
/// the other tests only pay its few atomic adds.
#[global_allocator]
static ALLOCATOR: collide_scenes::alloc::CountingAlloc = collide_scenes::alloc::CountingAlloc;
