//! The 3D narrow phase: shapes, poses, contacts and casts.

mod cast;
mod contact;
pub(super) mod epa;
mod hull_faces;
mod manifold;
mod pose;
mod shape;
mod shapes;
mod triangle;
mod triangle_contact;

pub use cast::{
    cast_ray, cast_ray_capsule, cast_ray_cuboid, cast_ray_sphere, cast_shape, cast_turning,
};
pub use contact::{
    contact, contact_capsule_capsule, contact_cuboid_cuboid, contact_sphere_capsule,
    contact_sphere_cuboid, contact_sphere_sphere, distance,
};
pub use manifold::manifold;
pub(crate) use manifold::manifold_from_contact;
pub use pose::Pose;
pub use shape::Shape;
pub use shapes::{Capsule, Cuboid, Polyhedron, Sphere};
pub(crate) use triangle::{LocalRay, cast_ray_mesh_triangle};
pub use triangle::{Triangle, cast_ray_triangle};
pub use triangle_contact::{contact_capsule_triangle, contact_sphere_triangle};
