//! [`Shape`]: any 3D convex shape as one value, for whatever holds shapes of
//! several kinds (a collider, a level). Spheres, boxes and capsules are
//! plain data; a polyhedron's points are shared, so cloning a shape never
//! copies them. Its queries take the closed form or SAT for the pair where
//! one exists and GJK/EPA otherwise, and answer as those do.

use super::{
    Capsule, Cuboid, Polyhedron, Pose, Sphere, Triangle, cast_ray, cast_ray_capsule,
    cast_ray_cuboid, cast_ray_sphere, cast_ray_triangle, contact, contact_capsule_capsule,
    contact_capsule_triangle, contact_cuboid_cuboid, contact_sphere_capsule, contact_sphere_cuboid,
    contact_sphere_sphere, contact_sphere_triangle, distance,
};
use crate::geometry::{Aabb, Ray};
use crate::narrow::{Contact, RayCast, Support};
use glam::Vec3;
use std::sync::Arc;

/// Any 3D shape.
///
/// ```
/// use collide::narrow::d3::{Pose, Shape, Sphere, Cuboid};
/// use glam::Vec3;
/// let ball = Shape::from(Sphere::new(0.5)?);
/// let floor = Shape::from(Cuboid::new(Vec3::new(10.0, 0.5, 10.0))?);
/// let c = ball.contact(&Pose::at(Vec3::new(0.0, 0.9, 0.0))?, &floor, &Pose::IDENTITY);
/// assert!((c.depth - 0.1).abs() < 1e-6 && c.normal == -Vec3::Y);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A sphere.
    Sphere(Sphere),
    /// A box.
    Cuboid(Cuboid),
    /// A capsule.
    Capsule(Capsule),
    /// A convex hull, shared.
    Polyhedron(Arc<Polyhedron>),
    /// A triangle (a mesh's or a heightfield's part).
    Triangle(Triangle),
}

crate::narrow::any_shape::any_shape!(Vec3, Sphere, Polyhedron, Triangle);

impl Shape {
    /// The contact of this shape at `pose` with `other` at `other_pose`
    /// (normal from this shape toward the other), as [`contact`] gives
    /// it: closed forms for spheres and capsules (with each other, a box
    /// or a triangle), SAT for two
    /// overlapping boxes, GJK/EPA for the rest.
    pub fn contact(&self, pose: &Pose, other: &Shape, other_pose: &Pose) -> Contact<Vec3> {
        use Shape::{Capsule as C, Cuboid as B, Sphere as S, Triangle as T};
        match (self, other) {
            (S(a), S(b)) => contact_sphere_sphere(a, pose, b, other_pose),
            (S(a), C(b)) => contact_sphere_capsule(a, pose, b, other_pose),
            (C(a), S(b)) => contact_sphere_capsule(b, other_pose, a, pose).flipped(),
            (C(a), C(b)) => contact_capsule_capsule(a, pose, b, other_pose),
            (S(a), B(b)) => contact_sphere_cuboid(a, pose, b, other_pose),
            (B(a), S(b)) => contact_sphere_cuboid(b, other_pose, a, pose).flipped(),
            (B(a), B(b)) => contact_cuboid_cuboid(a, pose, b, other_pose)
                .unwrap_or_else(|| contact(a, pose, b, other_pose)),
            (S(a), T(b)) => contact_sphere_triangle(a, pose, b, other_pose),
            (T(a), S(b)) => contact_sphere_triangle(b, other_pose, a, pose).flipped(),
            (C(a), T(b)) => contact_capsule_triangle(a, pose, b, other_pose),
            (T(a), C(b)) => contact_capsule_triangle(b, other_pose, a, pose).flipped(),
            _ => contact(self, pose, other, other_pose),
        }
    }

    /// Where `ray` enters this shape at `pose`, as [`cast_ray`] gives it:
    /// closed forms for spheres, boxes and capsules.
    pub fn cast_ray(&self, ray: &Ray<Vec3>, pose: &Pose) -> Option<RayCast<Vec3>> {
        match self {
            Shape::Sphere(s) => cast_ray_sphere(ray, s, pose),
            Shape::Cuboid(s) => cast_ray_cuboid(ray, s, pose),
            Shape::Capsule(s) => cast_ray_capsule(ray, s, pose),
            Shape::Polyhedron(s) => cast_ray(ray, &**s, pose),
            Shape::Triangle(s) => cast_ray_triangle(ray, s, pose),
        }
    }
}
