//! The integration tests of `collide-game`, one binary whose modules follow
//! the crate's tree: the clock and integrators, the character controller,
//! projectiles, hitboxes, rewind, fracture, the swing, vehicles and
//! ragdolls, and allocation across them.
//!
//! Run one part by its path: `cargo test -p collide-game --test it vehicle`.

// The tests work out expected values with the platform's math; only the
// library must keep to `collide::math`.
#![allow(clippy::disallowed_methods)]

mod allocation;
mod character;
mod common;
mod error;
mod fracture;
mod hitbox;
mod invariance;
mod projectile;
mod ragdoll;
mod rewind;
mod swing;
mod time;
mod vehicle;

/// The test kit's counting allocator, for the allocation tests; the other
/// tests only pay its few atomic adds.
#[global_allocator]
static ALLOCATOR: collide_scenes::alloc::CountingAlloc = collide_scenes::alloc::CountingAlloc;
