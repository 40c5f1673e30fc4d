//! What [`d2::Shape`](super::d2::Shape) and [`d3::Shape`](super::d3::Shape)
//! share, written once: a `From` for each kind (hulls behind an `Arc`),
//! [`Support`](super::Support) and the bounding box, by kind. The pair
//! dispatch (`contact`, `cast_ray`) stays in each dimension's file: its
//! closed forms differ.

/// The shared part of a dimension's `Shape`: `$v` its vector, `$ball` and
/// `$hull` its round and hull kinds (also the variants' names), `$extra`
/// the plain-data kinds only that dimension has.
macro_rules! any_shape {
    ($v:ty, $ball:ident, $hull:ident $(, $extra:ident)*) => {
        $(
            impl From<$extra> for Shape {
                fn from(s: $extra) -> Self {
                    Shape::$extra(s)
                }
            }
        )*

        impl From<$ball> for Shape {
            fn from(s: $ball) -> Self {
                Shape::$ball(s)
            }
        }

        impl From<Cuboid> for Shape {
            fn from(s: Cuboid) -> Self {
                Shape::Cuboid(s)
            }
        }

        impl From<Capsule> for Shape {
            fn from(s: Capsule) -> Self {
                Shape::Capsule(s)
            }
        }

        impl From<$hull> for Shape {
            fn from(s: $hull) -> Self {
                Shape::$hull(std::sync::Arc::new(s))
            }
        }

        impl Support<$v> for Shape {
            fn support(&self, direction: $v) -> $v {
                match self {
                    Shape::$ball(s) => s.support(direction),
                    Shape::Cuboid(s) => s.support(direction),
                    Shape::Capsule(s) => s.support(direction),
                    Shape::$hull(s) => s.support(direction),
                    $(Shape::$extra(s) => s.support(direction),)*
                }
            }

            fn radius(&self) -> f32 {
                match self {
                    Shape::$ball(s) => s.radius(),
                    Shape::Cuboid(s) => s.radius(),
                    Shape::Capsule(s) => s.radius(),
                    Shape::$hull(s) => s.radius(),
                    $(Shape::$extra(s) => s.radius(),)*
                }
            }
        }

        impl Shape {
            /// The bounding box at `pose`.
            pub fn aabb(&self, pose: &Pose) -> Aabb<$v> {
                match self {
                    Shape::$ball(s) => s.aabb(pose),
                    Shape::Cuboid(s) => s.aabb(pose),
                    Shape::Capsule(s) => s.aabb(pose),
                    Shape::$hull(s) => s.aabb(pose),
                    $(Shape::$extra(s) => s.aabb(pose),)*
                }
            }

            /// The distance to `other` (0 when they touch or overlap), as
            /// [`distance`] gives it.
            pub fn distance(&self, pose: &Pose, other: &Shape, other_pose: &Pose) -> f32 {
                distance(self, pose, other, other_pose)
            }
        }
    };
}
pub(crate) use any_shape;
