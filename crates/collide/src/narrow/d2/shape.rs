//! [`Shape`]: any 2D shape as one value, for whatever holds shapes of
//! several kinds (a collider, a level). Circles, boxes and capsules are
//! plain data; a polygon's points are shared, so cloning a shape never
//! copies them. Its queries take the closed form or SAT for the pair where
//! one exists and GJK/EPA otherwise, and answer as those do.

use super::{
    Capsule, Circle, Cuboid, Polygon, Pose, cast_ray_capsule, cast_ray_circle, cast_ray_cuboid,
    cast_ray_polygon, contact, contact_capsule_capsule, contact_circle_capsule,
    contact_circle_circle, contact_circle_cuboid, contact_polygon_polygon, distance,
};
use crate::geometry::{Aabb, Ray};
use crate::narrow::{Contact, RayCast, Support};
use glam::Vec2;
use std::sync::Arc;

/// Any 2D shape.
///
/// ```
/// use collide::narrow::d2::{Circle, Cuboid, Pose, Shape};
/// use glam::Vec2;
/// let ball = Shape::from(Circle::new(0.5)?);
/// let floor = Shape::from(Cuboid::new(Vec2::new(10.0, 0.5))?);
/// let c = ball.contact(&Pose::at(Vec2::new(0.0, 0.9))?, &floor, &Pose::IDENTITY);
/// assert!((c.depth - 0.1).abs() < 1e-6 && c.normal == -Vec2::Y);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A circle.
    Circle(Circle),
    /// A box.
    Cuboid(Cuboid),
    /// A capsule.
    Capsule(Capsule),
    /// A convex hull, shared.
    Polygon(Arc<Polygon>),
}

crate::narrow::any_shape::any_shape!(Vec2, Circle, Polygon);

impl Shape {
    /// The contact of this shape at `pose` with `other` at `other_pose`
    /// (normal from this shape toward the other), as [`contact`] gives
    /// it: closed forms for circles and capsules, SAT for two overlapping
    /// polygons, GJK/EPA for the rest.
    pub fn contact(&self, pose: &Pose, other: &Shape, other_pose: &Pose) -> Contact<Vec2> {
        use Shape::{Capsule as C, Circle as S, Cuboid as B, Polygon as P};
        match (self, other) {
            (S(a), S(b)) => contact_circle_circle(a, pose, b, other_pose),
            (S(a), C(b)) => contact_circle_capsule(a, pose, b, other_pose),
            (C(a), S(b)) => contact_circle_capsule(b, other_pose, a, pose).flipped(),
            (C(a), C(b)) => contact_capsule_capsule(a, pose, b, other_pose),
            (S(a), B(b)) => contact_circle_cuboid(a, pose, b, other_pose),
            (B(a), S(b)) => contact_circle_cuboid(b, other_pose, a, pose).flipped(),
            (P(a), P(b)) => contact_polygon_polygon(a, pose, b, other_pose)
                .unwrap_or_else(|| contact(&**a, pose, &**b, other_pose)),
            _ => contact(self, pose, other, other_pose),
        }
    }

    /// Where `ray` enters this shape at `pose`, as [`cast_ray`](super::cast_ray) gives it:
    /// closed forms for every kind.
    pub fn cast_ray(&self, ray: &Ray<Vec2>, pose: &Pose) -> Option<RayCast<Vec2>> {
        match self {
            Shape::Circle(s) => cast_ray_circle(ray, s, pose),
            Shape::Cuboid(s) => cast_ray_cuboid(ray, s, pose),
            Shape::Capsule(s) => cast_ray_capsule(ray, s, pose),
            Shape::Polygon(s) => cast_ray_polygon(ray, s, pose),
        }
    }
}
