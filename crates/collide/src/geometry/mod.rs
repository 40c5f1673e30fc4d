//! Geometry, the lowest layer: the [`Vector`] trait over glam's vectors,
//! the validated axis-aligned box [`Aabb`] with the project's overlap rule,
//! and the regions queries ask about ([`Region`]: boxes, [`Ray`],
//! [`SweptAabb`], [`Frustum`]). Nothing here knows about any other layer.

mod aabb;
pub(crate) mod box_tree;
mod frustum;
mod polytope;
mod ray;
mod region;
mod vector;

pub use aabb::{Aabb, Aabb2, Aabb3, AabbError, Corner};
pub use frustum::{Frustum, FrustumError, Plane};
pub use ray::{Ray, RayError};
pub use region::{Region, SweptAabb};
pub use vector::Vector;
