//! The narrow phase: exact tests between the shapes the broad phase paired
//! up, and casts that find when a moving shape first touches another, so
//! fast objects never tunnel.
//!
//! - Shapes are plain `Copy` values in their own frame (`d2`: [`d2::Circle`],
//!   [`d2::Capsule`], [`d2::Cuboid`], [`d2::Polygon`]; `d3`: [`d3::Sphere`],
//!   [`d3::Capsule`], [`d3::Cuboid`], [`d3::Polyhedron`]), placed by a pose
//!   ([`d2::Pose`], [`d3::Pose`]); each gives its bounding box for the
//!   broad phase. [`d2::Shape`] and [`d3::Shape`] hold any of them as one
//!   value (hulls shared, so a clone copies no points) and answer each
//!   query by the closed form or SAT for the pair where there is one.
//! - Free functions named by operation and shape pair:
//!   `contact_circle_circle`, `contact_polygon_polygon` and
//!   `contact_cuboid_cuboid` (SAT with the minimum translation vector),
//!   `cast_ray_capsule`, ... and the general
//!   ones for any pair, built on one small trait, [`Support`]: GJK for
//!   distance and closest points, EPA for depth, the GJK ray cast (with
//!   the radii as a margin) for casts.
//! - Every answer is a [`Contact`] (or a cast hit), in the frame the poses
//!   are given in, with the normal from the first shape toward the second.
//! - [`d2::manifold`] and [`d3::manifold`] give a [`Manifold`]: the contact
//!   as up to 2 (2D) or 4 (3D) points where faces meet, each with its
//!   depth and a [`FeatureId`] that holds while the same features touch,
//!   for a solver that keeps a box from rocking on one corner.
//!
//! Depends on geometry only.

mod any_shape;
mod cast;
mod closed;
mod contact;
pub mod d2;
pub mod d3;
mod dim;
pub(crate) mod error;
pub(crate) mod general;
pub(crate) mod gjk;
mod gjk_cast;
mod manifold;
pub(crate) mod placement;
mod point;
mod ray;
mod regions;
mod shapes;
mod support;
pub(crate) mod turning;

pub use cast::{RayCast, ShapeCast};
pub use contact::Contact;
pub use error::ShapeError;
pub use manifold::{FeatureId, Manifold, ManifoldPoint};
pub use shapes::{Ball, Capsule, Cuboid};
pub use support::Support;
