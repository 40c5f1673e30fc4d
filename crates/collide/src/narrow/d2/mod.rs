//! The 2D narrow phase: shapes, poses, contacts and casts.

mod cast;
mod contact;
pub(super) mod epa;
mod hull;
mod manifold;
mod pose;
mod shape;
mod shapes;

pub(crate) use cast::{LocalRay, cast_ray_mesh_segment};
pub use cast::{
    cast_ray, cast_ray_capsule, cast_ray_circle, cast_ray_cuboid, cast_ray_polygon, cast_shape,
    cast_turning,
};
pub use contact::{
    contact, contact_capsule_capsule, contact_circle_capsule, contact_circle_circle,
    contact_circle_cuboid, contact_polygon_polygon, distance,
};
pub use manifold::manifold;
pub(crate) use manifold::manifold_from_contact;
pub use pose::Pose;
pub use shape::Shape;
pub use shapes::{Capsule, Circle, Cuboid, Polygon};
