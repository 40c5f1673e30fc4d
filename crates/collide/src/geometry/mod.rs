//! Geometry, the lowest layer: the [`Vector`] trait over glam's vectors and
//! the validated axis-aligned box [`Aabb`] with the project's overlap rule.
//! Nothing here knows about any other layer.

mod aabb;
mod vector;

pub use aabb::{Aabb, Aabb2, Aabb3, AabbError, Corner};
pub use vector::Vector;
