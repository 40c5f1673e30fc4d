//! [`Space`]: what the world needs of a dimension: its shape and pose
//! types, a shape's box and size, and the narrow phase's answers for
//! shapes held as one value. Written for `Vec2` and `Vec3` only.

use crate::geometry::Ray;
use crate::geometry::{Aabb, Vector};
use crate::narrow::{Contact, Manifold, RayCast, ShapeCast, ShapeError, Support, d2, d3};
use glam::{Vec2, Vec3};
use std::fmt::Debug;

/// A dimension the world runs in: `Vec2` or `Vec3`.
pub trait Space: Vector + sealed::Sealed {
    /// Any shape of the dimension ([`d2::Shape`], [`d3::Shape`]).
    type Shape: Clone + Debug + PartialEq + Send + Sync + 'static;
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
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for glam::Vec2 {}
    impl Sealed for glam::Vec3 {}
}

/// The same impl for each dimension's module.
macro_rules! space {
    ($v:ty, $d:ident, $ball:ident) => {
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
        }
    };
}

space!(Vec2, d2, Circle);
space!(Vec3, d3, Sphere);
