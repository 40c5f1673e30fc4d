//! The dimension the game systems are written over, once: [`D2`] (x right,
//! y up) or [`D3`] (y up). It names the vector, pose and turn types and
//! forwards to `collide`'s 2D or 3D functions where the geometry differs.

use crate::level::Level;
use collide::geometry::Vector;
use collide::math;
use collide::motion::{Response, Sweep, SweepLimits};
use collide::narrow::{Capsule, Support};
use collide::world::{ColliderShape, Space};
use collide::{Handle, glam};
use std::fmt::Debug;
use std::ops::{Add, Mul, Neg, Sub};

/// A dimension: its types and the few operations that differ.
pub trait Dim: Copy + Debug + Send + Sync + 'static {
    /// The vector: glam's `Vec2` or `Vec3`.
    type V: Space<Pose = Self::Pose>
        + Debug
        + PartialEq
        + Add<Output = Self::V>
        + Sub<Output = Self::V>
        + Mul<f32, Output = Self::V>
        + Neg<Output = Self::V>;
    /// The vector in f64 (glam's `DVec2` or `DVec3`): where positions far
    /// from the origin are summed.
    type Wide: Copy + Debug + PartialEq + Add<Output = Self::Wide> + Sub<Output = Self::Wide>;
    /// A rigid placement: `collide::narrow::d2::Pose` or `d3::Pose`.
    type Pose: Copy + Debug + PartialEq;
    /// The reusable sweeper of the dimension.
    type Sweeper: Clone + Debug;

    /// Up: +y.
    const UP: Self::V;
    /// The zero vector.
    const ZERO: Self::V;

    /// `v` in f64 (exact).
    fn widen(v: Self::V) -> Self::Wide;
    /// The f32 vector nearest `w`.
    fn narrow(w: Self::Wide) -> Self::V;
    /// A point given in a pose's coordinates, in the world's.
    fn apply(pose: &Self::Pose, local: Self::V) -> Self::V;
    /// Whether `mover`, moving and turning from `from` to `to` over the
    /// tick, touches `target` at rest at `at` at any time of it.
    fn meets_turning(
        mover: &Capsule<Self::V>,
        from: &Self::Pose,
        to: &Self::Pose,
        target: &Capsule<Self::V>,
        at: &Self::Pose,
    ) -> bool;
    /// Where `point`, fixed to a body at `from`, is when the body is at `to`.
    fn carry(from: &Self::Pose, to: &Self::Pose, point: Self::V) -> Self::V;
    /// How far a body turned about the up axis from `from` to `to`, in
    /// radians (counter-clockwise seen from above in 3D; 2D turns are all
    /// about the axis out of the plane).
    fn yaw_between(from: &Self::Pose, to: &Self::Pose) -> f32;

    /// A sweeper that stops at the first contact.
    fn stopping_sweeper() -> Self::Sweeper;
    /// Where a ray from `origin` along `direction` (up to `max_t` of it)
    /// enters `shape` at `pose`: the ray's `t` and the outward normal.
    fn ray_cast(
        shape: &dyn Support<Self::V>,
        pose: &Self::Pose,
        origin: Self::V,
        direction: Self::V,
        max_t: f32,
    ) -> Option<(f32, Self::V)>;

    /// How deep `mover`, centred at `at`, is in `shape` at `pose` (below 0:
    /// apart by that much) and the way out of it (a unit vector).
    fn overlap(
        mover: &Capsule<Self::V>,
        at: Self::V,
        shape: &dyn Support<Self::V>,
        pose: &Self::Pose,
    ) -> (f32, Self::V);

    /// Sweeps `mover` from `start` by `motion` through `level`, stopping at
    /// the first contact: where it stopped and the contact, if any.
    fn sweep(
        sweeper: &mut Self::Sweeper,
        level: &Level<'_, Self>,
        mover: &Capsule<Self::V>,
        start: Self::V,
        motion: Self::V,
    ) -> Swept<Self::V>;

    /// The point of `shape` at `pose` farthest along `direction` (its
    /// rounding included).
    fn support_at(shape: &dyn Support<Self::V>, pose: &Self::Pose, direction: Self::V) -> Self::V;

    /// A capsule as a world collider's shape.
    fn capsule_shape(capsule: &Capsule<Self::V>) -> ColliderShape<Self::V>;
}

/// The result of [`Dim::sweep`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Swept<V> {
    /// Where the mover's origin stopped.
    pub end: V,
    /// The share of the motion done.
    pub t: f32,
    /// The object touched, the surface's normal there (pointing out of it,
    /// toward the mover) and the touching point on the object.
    pub hit: Option<(Handle, V, V)>,
    /// A limit cut the sweep short: the end is safe but the motion not done.
    pub truncated: bool,
}

/// A stopping sweep's result, its end given as a position.
fn swept<V: Vector + Neg<Output = V>, P>(sweep: &Sweep<V, P>, end: V) -> Swept<V> {
    let hit = sweep
        .hits
        .first()
        .map(|h| (h.handle, -h.contact.normal, h.contact.point_b));
    let t = sweep.hits.first().map_or(1.0, |h| h.t);
    Swept {
        end,
        t,
        hit,
        truncated: sweep.truncated,
    }
}

/// The plane: x right, y up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct D2;

/// Space: y up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct D3;

/// The methods of [`Dim`] that read the same in every dimension, for the
/// `collide` module `$d` (`d2` or `d3`).
macro_rules! same_in_every_dimension {
    ($d:ident) => {
        fn apply(pose: &Self::Pose, local: Self::V) -> Self::V {
            pose.apply(local)
        }
        fn carry(from: &Self::Pose, to: &Self::Pose, point: Self::V) -> Self::V {
            to.apply(from.apply_inverse(point))
        }
        fn stopping_sweeper() -> Self::Sweeper {
            collide::motion::$d::Sweeper::new(Response::Stop, SweepLimits::default())
        }
        fn ray_cast(
            shape: &dyn Support<Self::V>,
            pose: &Self::Pose,
            origin: Self::V,
            direction: Self::V,
            max_t: f32,
        ) -> Option<(f32, Self::V)> {
            let ray = collide::geometry::Ray::new(origin, direction, max_t).ok()?;
            collide::narrow::$d::cast_ray(&ray, shape, pose).map(|hit| (hit.t, hit.normal))
        }
        fn overlap(
            mover: &Capsule<Self::V>,
            at: Self::V,
            shape: &dyn Support<Self::V>,
            pose: &Self::Pose,
        ) -> (f32, Self::V) {
            match Self::Pose::at(at) {
                Ok(here) => {
                    let c = collide::narrow::$d::contact(mover, &here, shape, pose);
                    (c.depth, -c.normal)
                }
                Err(_) => (0.0, Self::UP),
            }
        }
        fn sweep(
            sweeper: &mut Self::Sweeper,
            level: &Level<'_, Self>,
            mover: &Capsule<Self::V>,
            start: Self::V,
            motion: Self::V,
        ) -> Swept<Self::V> {
            let Ok(at) = Self::Pose::at(start) else {
                return Swept {
                    end: start,
                    t: 0.0,
                    hit: None,
                    truncated: true,
                };
            };
            let done = sweeper.sweep_in(level, mover, at, motion);
            swept(done, done.end.position())
        }
        fn support_at(
            shape: &dyn Support<Self::V>,
            pose: &Self::Pose,
            direction: Self::V,
        ) -> Self::V {
            let core = pose.apply(shape.support(pose.unrotate(direction)));
            core + direction.normalize_or_zero() * shape.radius()
        }
        fn capsule_shape(capsule: &Capsule<Self::V>) -> ColliderShape<Self::V> {
            ColliderShape::from(*capsule)
        }
    };
}

impl Dim for D2 {
    type V = glam::Vec2;
    type Wide = glam::DVec2;
    type Pose = collide::narrow::d2::Pose;
    type Sweeper = collide::motion::d2::Sweeper;
    const UP: glam::Vec2 = glam::Vec2::Y;
    const ZERO: glam::Vec2 = glam::Vec2::ZERO;

    same_in_every_dimension!(d2);

    fn widen(v: glam::Vec2) -> glam::DVec2 {
        v.as_dvec2()
    }
    fn narrow(w: glam::DVec2) -> glam::Vec2 {
        w.as_vec2()
    }

    fn meets_turning(
        mover: &Capsule<glam::Vec2>,
        from: &Self::Pose,
        to: &Self::Pose,
        target: &Capsule<glam::Vec2>,
        at: &Self::Pose,
    ) -> bool {
        let turn = Self::yaw_between(from, to);
        let motion = to.position() - from.position();
        collide::narrow::d2::cast_turning(mover, from, motion, turn, target, at)
            .is_ok_and(|hit| hit.is_some())
    }
    fn yaw_between(from: &Self::Pose, to: &Self::Pose) -> f32 {
        let (a, b) = (from.rotation(), to.rotation());
        // The angle of b relative to a.
        math::atan2(a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y)
    }
}

impl Dim for D3 {
    type V = glam::Vec3;
    type Wide = glam::DVec3;
    type Pose = collide::narrow::d3::Pose;
    type Sweeper = collide::motion::d3::Sweeper;
    const UP: glam::Vec3 = glam::Vec3::Y;
    const ZERO: glam::Vec3 = glam::Vec3::ZERO;

    same_in_every_dimension!(d3);

    fn widen(v: glam::Vec3) -> glam::DVec3 {
        v.as_dvec3()
    }
    fn narrow(w: glam::DVec3) -> glam::Vec3 {
        w.as_vec3()
    }

    fn meets_turning(
        mover: &Capsule<glam::Vec3>,
        from: &Self::Pose,
        to: &Self::Pose,
        target: &Capsule<glam::Vec3>,
        at: &Self::Pose,
    ) -> bool {
        // The shortest turn from `from` to `to`, as a rotation vector.
        let mut turn = to.rotation() * from.rotation().inverse();
        if turn.w < 0.0 {
            turn = -turn;
        }
        let motion = to.position() - from.position();
        collide::narrow::d3::cast_turning(mover, from, motion, turn.to_scaled_axis(), target, at)
            .is_ok_and(|hit| hit.is_some())
    }
    fn yaw_between(from: &Self::Pose, to: &Self::Pose) -> f32 {
        // The twist about y of the turn from `from` to `to`.
        let turn = to.rotation() * from.rotation().inverse();
        2.0 * math::atan2(turn.y, turn.w)
    }
}

/// `a · b`.
pub(crate) fn dot<V: Vector>(a: V, b: V) -> f32 {
    (0..V::DIM).map(|k| a.axis(k) * b.axis(k)).sum()
}

/// `|v|`.
pub(crate) fn length<V: Vector>(v: V) -> f32 {
    dot(v, v).sqrt()
}
