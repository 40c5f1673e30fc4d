//! The collision world: colliders (a shape, a pose, a kind and the game's
//! value) kept in any broad-phase structure, and a step that reports
//! which shapes started and stopped touching, with the contact of every
//! pair touching now: the surface game systems read, instead of keeping
//! their own table of shapes beside a broad phase.
//!
//! The rule: two shapes start touching when their distance is 0 or less,
//! and stop once they are apart by more than the margin (a share of the
//! smaller shape's size, 1% by default), so a shape at rest does not
//! flicker. Static colliders never pair with each other. Every list is
//! sorted by handle pair, the lower handle first, whatever structure
//! runs underneath.
//!
//! [`World::cast_ray`] finds the first collider a ray enters, exactly.
//!
//! Costs: a step is the broad phase's step plus one contact for each
//! pair of boxes where a collider moved or changed; pairs at rest keep
//! their last answer. A ray cast is the broad phase's ray query plus one
//! shape cast for each box entered before the best hit.

mod collider;
mod events;
mod space;
#[allow(clippy::module_inception)]
mod world;

pub use collider::{Collider, Kind};
pub use events::{Touching, WorldEvents};
pub use space::Space;
pub use world::{World, WorldRayHit, WorldSettings};

/// A 2D collider.
pub type Collider2<T = ()> = Collider<glam::Vec2, T>;
/// A 3D collider.
pub type Collider3<T = ()> = Collider<glam::Vec3, T>;
/// A 2D world.
pub type World2<T = ()> = World<glam::Vec2, T>;
/// A 3D world.
pub type World3<T = ()> = World<glam::Vec3, T>;
