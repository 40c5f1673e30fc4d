//! The collision world: colliders (a shape, a pose, a kind, a filter, a
//! sensor flag and the game's value) kept in any broad-phase structure,
//! a step that reports which shapes started and stopped touching with the
//! contact of every pair touching now, and exact queries: the surface
//! game systems read, instead of keeping their own table of shapes beside
//! a broad phase.
//!
//! The rule: two shapes start touching when their distance is 0 or less,
//! and stop once they are apart by more than the margin (a share of the
//! smaller shape's size, 1% by default), so a shape at rest does not
//! flicker. Static colliders never pair with each other, nor colliders
//! whose [`Filter`]s do not meet; a pair hook ([`Candidate`]) may veto
//! more. Sensors report overlaps in lists of their own. Every list is
//! sorted by handle pair, the lower handle first, whatever structure runs
//! underneath and however many threads run the narrow phase.
//!
//! A collider's shape is one convex shape, a [`Compound`] of convex parts
//! with their own poses, or a [`Mesh`] of triangles (segments in 2D),
//! built from vertex and index arrays or a height grid. Parts sit in a
//! tree of their own, so only the parts near a pair or a query are
//! tested; contacts come per part pair ([`WorldEvents::parts`]), queries
//! name the part they hit, and seams between a mesh's triangles or a
//! compound's abutting boxes do not catch a sliding shape (see
//! [`PartContact`]).
//!
//! A collider marked continuous ([`Collider::as_continuous`]) is swept
//! between steps: the broad phase holds the box of its whole move, and a
//! pair the discrete test finds apart is cast from the last step's poses,
//! so a fast shape that passed through a thin one still reports started,
//! with the time of impact ([`Touching::impact`]). A compound is cast
//! part by part; meshes, being level geometry, are never swept.
//!
//! [`WorldQuery`] casts rays and shapes, finds what holds a point or
//! overlaps a shape and the nearest point, exactly, on the world or on a
//! [`WorldSnapshot`] taken for other threads.
//!
//! Costs: a step is the broad phase's step plus one contact for each
//! pair of boxes where a collider moved or changed (for parts, one for
//! each pair of part boxes that meet); pairs at rest keep their last
//! answer. A ray cast is the broad phase's ray query plus one
//! ray cast for each box entered before the best hit; the other queries
//! test each collider whose box meets the query's.

mod boxes;
mod collider;
mod collider_shape;
mod compound;
mod events;
mod filter;
mod hook;
mod mesh;
mod part_contacts;
mod parts_error;
mod query;
mod seams;
mod seen;
mod settings;
mod snapshot;
mod space;
mod step;
#[allow(clippy::module_inception)]
mod world;

pub use crate::broad::Filter;
pub use collider::{Collider, Kind};
pub use collider_shape::ColliderShape;
pub use compound::Compound;
pub use events::{Touching, WorldEvents};
pub use filter::QueryFilter;
pub use hook::Candidate;
pub use mesh::Mesh;
pub use part_contacts::PartContact;
pub use parts_error::PartsError;
pub use query::{WorldClosest, WorldQuery, WorldRayHit, WorldShapeHit};
pub use seen::Seen;
pub use settings::WorldSettings;
pub use snapshot::WorldSnapshot;
pub use space::Space;
pub use world::World;

/// A 2D collider.
pub type Collider2<T = ()> = Collider<glam::Vec2, T>;
/// A 3D collider.
pub type Collider3<T = ()> = Collider<glam::Vec3, T>;
/// A 2D world.
pub type World2<T = ()> = World<glam::Vec2, T>;
/// A 3D world.
pub type World3<T = ()> = World<glam::Vec3, T>;
/// A 2D compound.
pub type Compound2 = Compound<glam::Vec2>;
/// A 3D compound.
pub type Compound3 = Compound<glam::Vec3>;
/// A 2D mesh: segments.
pub type Mesh2 = Mesh<glam::Vec2>;
/// A 3D mesh: triangles.
pub type Mesh3 = Mesh<glam::Vec3>;
