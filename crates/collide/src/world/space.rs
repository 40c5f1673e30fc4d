//! [`Space`]: what the world needs of a dimension: its shape and pose
//! types, a shape's box and size, and the contact of two shapes. Written
//! for `Vec2` and `Vec3` only.

use crate::geometry::Ray;
use crate::geometry::{Aabb, Vector};
use crate::narrow::{Contact, RayCast, d2, d3};
use glam::{Vec2, Vec3};
use std::fmt::Debug;

/// A dimension the world runs in: `Vec2` or `Vec3`.
pub trait Space: Vector + sealed::Sealed {
    /// Any shape of the dimension ([`d2::Shape`], [`d3::Shape`]).
    type Shape: Clone + Debug + Send + Sync + 'static;
    /// A validated placement ([`d2::Pose`], [`d3::Pose`]).
    type Pose: Copy + Debug + PartialEq + Send + Sync + 'static;
    #[doc(hidden)]
    fn aabb(shape: &Self::Shape, pose: &Self::Pose) -> Aabb<Self>;
    #[doc(hidden)]
    fn contact(a: &Self::Shape, pa: &Self::Pose, b: &Self::Shape, pb: &Self::Pose)
    -> Contact<Self>;
    #[doc(hidden)]
    fn cast_ray(shape: &Self::Shape, ray: &Ray<Self>, pose: &Self::Pose) -> Option<RayCast<Self>>;
    /// Half the diagonal of the shape's box in its own frame: its size,
    /// which the contact margin is relative to.
    #[doc(hidden)]
    fn reach(shape: &Self::Shape) -> f32;
    /// The largest coordinate's magnitude of a pose's position.
    #[doc(hidden)]
    fn far(pose: &Self::Pose) -> f32;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for glam::Vec2 {}
    impl Sealed for glam::Vec3 {}
}

impl Space for Vec2 {
    type Shape = d2::Shape;
    type Pose = d2::Pose;
    fn aabb(shape: &d2::Shape, pose: &d2::Pose) -> Aabb<Vec2> {
        shape.aabb(pose)
    }
    fn contact(a: &d2::Shape, pa: &d2::Pose, b: &d2::Shape, pb: &d2::Pose) -> Contact<Vec2> {
        a.contact(pa, b, pb)
    }
    fn cast_ray(shape: &d2::Shape, ray: &Ray<Vec2>, pose: &d2::Pose) -> Option<RayCast<Vec2>> {
        shape.cast_ray(ray, pose)
    }
    fn reach(shape: &d2::Shape) -> f32 {
        let b = shape.aabb(&d2::Pose::IDENTITY);
        0.5 * (b.max() - b.min()).length()
    }
    fn far(pose: &d2::Pose) -> f32 {
        pose.position().abs().max_element()
    }
}

impl Space for Vec3 {
    type Shape = d3::Shape;
    type Pose = d3::Pose;
    fn aabb(shape: &d3::Shape, pose: &d3::Pose) -> Aabb<Vec3> {
        shape.aabb(pose)
    }
    fn contact(a: &d3::Shape, pa: &d3::Pose, b: &d3::Shape, pb: &d3::Pose) -> Contact<Vec3> {
        a.contact(pa, b, pb)
    }
    fn cast_ray(shape: &d3::Shape, ray: &Ray<Vec3>, pose: &d3::Pose) -> Option<RayCast<Vec3>> {
        shape.cast_ray(ray, pose)
    }
    fn reach(shape: &d3::Shape) -> f32 {
        let b = shape.aabb(&d3::Pose::IDENTITY);
        0.5 * (b.max() - b.min()).length()
    }
    fn far(pose: &d3::Pose) -> f32 {
        pose.position().abs().max_element()
    }
}
