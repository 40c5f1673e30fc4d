//! [`Space`]: what the world needs of a dimension: its shape and pose
//! types, a shape's box and size, and the narrow phase's answers for
//! shapes held as one value. Written for `Vec2` and `Vec3` only.

use super::collider_shape::ColliderShape;
use crate::geometry::Ray;
use crate::geometry::{Aabb, Vector};
use crate::narrow::{Contact, Manifold, RayCast, ShapeCast, ShapeError, Support, d2, d3};
use glam::{Vec2, Vec3};
use std::fmt::Debug;

/// A dimension the world runs in: `Vec2` or `Vec3`.
pub trait Space: Vector + sealed::Sealed {
    /// Any shape of the dimension ([`d2::Shape`], [`d3::Shape`]).
    type Shape: Clone + Debug + PartialEq + Send + Sync + 'static + Into<ColliderShape<Self>>;
    /// A validated placement ([`d2::Pose`], [`d3::Pose`]).
    type Pose: Copy + Debug + PartialEq + Send + Sync + 'static;
    #[doc(hidden)]
    fn aabb(shape: &Self::Shape, pose: &Self::Pose) -> Aabb<Self>;
    #[doc(hidden)]
    fn contact(a: &Self::Shape, pa: &Self::Pose, b: &Self::Shape, pb: &Self::Pose)
    -> Contact<Self>;
    /// The manifold of a pair whose contact is `contact`: the points
    /// within `margin` of touching.
    #[doc(hidden)]
    fn manifold(
        a: &Self::Shape,
        pa: &Self::Pose,
        b: &Self::Shape,
        pb: &Self::Pose,
        contact: &Contact<Self>,
        margin: f32,
    ) -> Manifold<Self>;
    #[doc(hidden)]
    fn cast_ray(shape: &Self::Shape, ray: &Ray<Self>, pose: &Self::Pose) -> Option<RayCast<Self>>;
    /// `a` moving by `motion` against `b` at rest.
    #[doc(hidden)]
    fn cast_shape(
        a: &Self::Shape,
        pa: &Self::Pose,
        motion: Self,
        b: &Self::Shape,
        pb: &Self::Pose,
    ) -> Option<ShapeCast<Self>>;
    /// Half the diagonal of the shape's box in its own frame: its size,
    /// which the contact margin is relative to.
    #[doc(hidden)]
    fn reach(shape: &Self::Shape) -> f32;
    /// The largest coordinate's magnitude of a pose's position.
    #[doc(hidden)]
    fn far(pose: &Self::Pose) -> f32;
    /// The shape as the general narrow phase reads it.
    #[doc(hidden)]
    fn support(shape: &Self::Shape) -> &dyn Support<Self>;
    /// A point as a shape: a ball of radius 0.
    #[doc(hidden)]
    fn dot() -> Self::Shape;
    /// The pose that puts a shape at `point`, unturned; an error for a
    /// non-finite point.
    #[doc(hidden)]
    fn at(point: Self) -> Result<Self::Pose, ShapeError>;
    /// A mesh's element: the corner numbers of a triangle (3D) or a
    /// segment (2D).
    type Element: Copy + Debug + PartialEq + Send + Sync + 'static + AsRef<[u32]>;
    /// The shape of an element with these corners (checked not flat).
    #[doc(hidden)]
    fn simplex(corners: &[Self]) -> Self::Shape;
    /// Whether an element's corners span nothing (a triangle's corners on
    /// a line, a segment's ends together).
    #[doc(hidden)]
    fn simplex_flat(corners: &[Self]) -> bool;
    /// The pose of something placed at `local` in `outer`'s frame.
    #[doc(hidden)]
    fn compose(outer: &Self::Pose, local: &Self::Pose) -> Result<Self::Pose, ShapeError>;
    /// A local point in world coordinates.
    #[doc(hidden)]
    fn apply(pose: &Self::Pose, local: Self) -> Self;
    /// A world point in local coordinates.
    #[doc(hidden)]
    fn apply_inverse(pose: &Self::Pose, world: Self) -> Self;
    /// A world direction in local coordinates.
    #[doc(hidden)]
    fn unrotate(pose: &Self::Pose, world: Self) -> Self;
    /// A local direction in world coordinates.
    #[doc(hidden)]
    fn rotate(pose: &Self::Pose, local: Self) -> Self;
    /// Where a pose puts the shape's origin.
    #[doc(hidden)]
    fn position_of(pose: &Self::Pose) -> Self;
    /// The corners of a sharp shape at `pose` into `out`, how many (0 for
    /// a rounded one: a ball, a capsule, a rounded hull).
    #[doc(hidden)]
    fn corners(shape: &Self::Shape, pose: &Self::Pose, out: &mut [Self; 32]) -> usize;
    /// A ray in a mesh's frame, made once for its elements.
    #[doc(hidden)]
    type LocalRay: Copy;
    #[doc(hidden)]
    fn local_ray(ray: &Ray<Self>, pose: &Self::Pose) -> Self::LocalRay;
    /// A ray (`local` in the mesh's frame) against a mesh element with
    /// `corners` (in that frame), the mesh at `pose`; closed, so that rays
    /// down its seams cross the mesh.
    #[doc(hidden)]
    fn cast_ray_element(
        corners: &[Self],
        ray: &Ray<Self>,
        local: &Self::LocalRay,
        pose: &Self::Pose,
    ) -> Option<RayCast<Self>>;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for glam::Vec2 {}
    impl Sealed for glam::Vec3 {}
}

/// The same impl for each dimension's module.
macro_rules! space {
    (
        $v:ty,
        $d:ident,
        $ball:ident,
        $n:literal,
        $simplex:expr,
        $flat:expr,
        $corners:ident,
        $element_ray:expr
    ) => {
        impl Space for $v {
            type Shape = $d::Shape;
            type Pose = $d::Pose;
            fn aabb(shape: &$d::Shape, pose: &$d::Pose) -> Aabb<$v> {
                shape.aabb(pose)
            }
            fn contact(a: &$d::Shape, pa: &$d::Pose, b: &$d::Shape, pb: &$d::Pose) -> Contact<$v> {
                a.contact(pa, b, pb)
            }
            fn manifold(
                a: &$d::Shape,
                pa: &$d::Pose,
                b: &$d::Shape,
                pb: &$d::Pose,
                contact: &Contact<$v>,
                margin: f32,
            ) -> Manifold<$v> {
                $d::manifold_from_contact(a, pa, b, pb, contact, margin)
            }
            fn cast_ray(shape: &$d::Shape, ray: &Ray<$v>, pose: &$d::Pose) -> Option<RayCast<$v>> {
                shape.cast_ray(ray, pose)
            }
            fn cast_shape(
                a: &$d::Shape,
                pa: &$d::Pose,
                motion: $v,
                b: &$d::Shape,
                pb: &$d::Pose,
            ) -> Option<ShapeCast<$v>> {
                $d::cast_shape(a, pa, motion, b, pb, <$v>::ZERO)
            }
            fn reach(shape: &$d::Shape) -> f32 {
                let b = shape.aabb(&$d::Pose::IDENTITY);
                0.5 * (b.max() - b.min()).length()
            }
            fn far(pose: &$d::Pose) -> f32 {
                pose.position().abs().max_element()
            }
            fn support(shape: &$d::Shape) -> &dyn Support<$v> {
                shape
            }
            fn dot() -> $d::Shape {
                $d::$ball::new(0.0).expect("a radius of 0 is valid").into()
            }
            fn at(point: $v) -> Result<$d::Pose, ShapeError> {
                $d::Pose::at(point)
            }
            type Element = [u32; $n];
            fn simplex(corners: &[$v]) -> $d::Shape {
                $simplex(corners)
            }
            fn simplex_flat(corners: &[$v]) -> bool {
                $flat(corners)
            }
            fn compose(outer: &$d::Pose, local: &$d::Pose) -> Result<$d::Pose, ShapeError> {
                outer.compose(local)
            }
            fn apply(pose: &$d::Pose, local: $v) -> $v {
                pose.apply(local)
            }
            fn apply_inverse(pose: &$d::Pose, world: $v) -> $v {
                pose.apply_inverse(world)
            }
            fn unrotate(pose: &$d::Pose, world: $v) -> $v {
                pose.unrotate(world)
            }
            fn rotate(pose: &$d::Pose, local: $v) -> $v {
                pose.rotate(local)
            }
            fn position_of(pose: &$d::Pose) -> $v {
                pose.position()
            }
            fn corners(shape: &$d::Shape, pose: &$d::Pose, out: &mut [$v; 32]) -> usize {
                $corners(shape, pose, out)
            }
            type LocalRay = $d::LocalRay;
            fn local_ray(ray: &Ray<$v>, pose: &$d::Pose) -> $d::LocalRay {
                $d::LocalRay::new(ray, pose)
            }
            fn cast_ray_element(
                corners: &[$v],
                ray: &Ray<$v>,
                local: &$d::LocalRay,
                pose: &$d::Pose,
            ) -> Option<RayCast<$v>> {
                $element_ray(corners, ray, local, pose)
            }
        }
    };
}

space!(
    Vec2,
    d2,
    Circle,
    2,
    |c: &[Vec2]| d2::Capsule::between(c[0], c[1], 0.0)
        .expect("a mesh's corners are finite")
        .into(),
    |c: &[Vec2]| c[0] == c[1],
    corners_2d,
    |c: &[Vec2], ray, local, pose| d2::cast_ray_mesh_segment(ray, local, &[c[0], c[1]], pose)
);
space!(
    Vec3,
    d3,
    Sphere,
    3,
    |c: &[Vec3]| d3::Triangle::from_checked([c[0], c[1], c[2]]).into(),
    |c: &[Vec3]| d3::Triangle::from_checked([c[0], c[1], c[2]]).is_flat(),
    corners_3d,
    |c: &[Vec3], ray, local, pose| d3::cast_ray_mesh_triangle(
        ray,
        local,
        &[c[0], c[1], c[2]],
        pose
    )
);

/// `local` placed by `pose` into `out`; how many.
fn placed<V: Space>(local: &[V], pose: &V::Pose, out: &mut [V; 32]) -> usize {
    for (o, &p) in out.iter_mut().zip(local) {
        *o = V::apply(pose, p);
    }
    local.len()
}

/// A box's corners at `pose`, corner `i` on the + side of axis `k` where
/// bit `k` of `i` is set.
fn box_corners<V: Space>(half: V, pose: &V::Pose, out: &mut [V; 32]) -> usize {
    let n = 1 << V::DIM;
    for (i, o) in out.iter_mut().enumerate().take(n) {
        let sign = |k: usize| if i >> k & 1 == 1 { 1.0 } else { -1.0 };
        *o = V::apply(pose, V::from_axes(|k| sign(k) * half.axis(k)));
    }
    n
}

fn corners_2d(shape: &d2::Shape, pose: &d2::Pose, out: &mut [Vec2; 32]) -> usize {
    match shape {
        d2::Shape::Cuboid(b) if b.radius() == 0.0 => box_corners(b.half_extents(), pose, out),
        d2::Shape::Polygon(p) if p.radius() == 0.0 => placed(p.vertices(), pose, out),
        d2::Shape::Capsule(c) if c.radius() == 0.0 => placed(&[c.a(), c.b()], pose, out),
        _ => 0,
    }
}

fn corners_3d(shape: &d3::Shape, pose: &d3::Pose, out: &mut [Vec3; 32]) -> usize {
    match shape {
        d3::Shape::Cuboid(b) if b.radius() == 0.0 => box_corners(b.half_extents(), pose, out),
        d3::Shape::Polyhedron(p) if p.radius() == 0.0 => placed(p.points(), pose, out),
        d3::Shape::Triangle(t) => placed(&t.points(), pose, out),
        d3::Shape::Capsule(c) if c.radius() == 0.0 => placed(&[c.a(), c.b()], pose, out),
        _ => 0,
    }
}
