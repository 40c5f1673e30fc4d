//! The shapes that are the same in 2D and 3D, written once: [`Ball`] (a
//! circle or a sphere), [`Capsule`] and [`Cuboid`] (a box). The `d2` and
//! `d3` modules name them for their dimension (`d2::Circle`,
//! `d3::Sphere`, ...) and place them with their own poses.

use super::error::{ShapeError, finite, radius};
use super::support::Support;
use crate::geometry::Vector;

/// A ball centred on its pose's position: a circle in 2D
/// ([`d2::Circle`](super::d2::Circle)), a sphere in 3D
/// ([`d3::Sphere`](super::d3::Sphere)).
///
/// ```
/// use collide::narrow::{Ball, d2::Circle};
/// let coin: Circle = Ball::new(0.5)?;
/// assert_eq!(coin.radius(), 0.5);
/// assert!(Circle::new(f32::NAN).is_err());
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ball<V: Vector> {
    /// The radius, world units, 0 or more.
    pub(crate) radius: f32,
    _dimension: std::marker::PhantomData<V>,
}

impl<V: Vector> Ball<V> {
    /// A ball of `radius` (finite, 0 or more).
    pub fn new(radius: f32) -> Result<Self, ShapeError> {
        Ok(Self {
            radius: self::radius(radius)?,
            _dimension: std::marker::PhantomData,
        })
    }

    /// The radius, world units, 0 or more.
    pub fn radius(&self) -> f32 {
        self.radius
    }
}

impl<V: Vector> Support<V> for Ball<V> {
    fn support(&self, _direction: V) -> V {
        V::from_axes(|_| 0.0)
    }
    fn radius(&self) -> f32 {
        self.radius
    }
}

/// A capsule: every point within `radius` of the segment from `a` to `b`
/// (in its own frame): a character's body, a sword's blade, a swept ball.
///
/// ```
/// use collide::narrow::d3::Capsule;
/// use glam::Vec3;
/// let body = Capsule::new(0.9, 0.3)?; // upright: from (0, -0.9, 0) to (0, 0.9, 0)
/// assert_eq!((body.a(), body.b()), (Vec3::new(0.0, -0.9, 0.0), Vec3::new(0.0, 0.9, 0.0)));
/// assert!(Capsule::new(-1.0, 0.3).is_err());
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule<V: Vector> {
    /// One end of the core segment, in the shape's frame.
    pub(crate) a: V,
    /// The other end.
    pub(crate) b: V,
    /// The radius around the segment, world units, 0 or more.
    pub(crate) radius: f32,
}

impl<V: Vector> Capsule<V> {
    /// An upright capsule: the segment from `-half_height` to
    /// `half_height` along y, rounded by `radius`.
    pub fn new(half_height: f32, radius: f32) -> Result<Self, ShapeError> {
        finite("capsule half height", half_height)?;
        if half_height < 0.0 {
            return Err(ShapeError::HalfExtent {
                axis: 1,
                value: half_height,
            });
        }
        let along_y = |h: f32| V::from_axes(|k| if k == 1 { h } else { 0.0 });
        Self::between(along_y(-half_height), along_y(half_height), radius)
    }

    /// The capsule around the segment from `a` to `b`.
    ///
    /// ```
    /// use collide::narrow::d2::Capsule;
    /// use glam::Vec2;
    /// let blade = Capsule::between(Vec2::ZERO, Vec2::new(1.2, 0.0), 0.05)?;
    /// assert_eq!(blade.b(), Vec2::new(1.2, 0.0));
    /// assert!(Capsule::between(Vec2::ZERO, Vec2::NAN, 0.05).is_err());
    /// # Ok::<(), collide::narrow::ShapeError>(())
    /// ```
    pub fn between(a: V, b: V, radius: f32) -> Result<Self, ShapeError> {
        for k in 0..V::DIM {
            finite("capsule end", a.axis(k))?;
            finite("capsule end", b.axis(k))?;
        }
        Ok(Self {
            a,
            b,
            radius: self::radius(radius)?,
        })
    }

    /// One end of the core segment, in the shape's frame.
    pub fn a(&self) -> V {
        self.a
    }

    /// The other end of the core segment.
    pub fn b(&self) -> V {
        self.b
    }

    /// The radius around the segment, world units, 0 or more.
    pub fn radius(&self) -> f32 {
        self.radius
    }
}

impl<V: Vector> Support<V> for Capsule<V> {
    fn support(&self, direction: V) -> V {
        let along: f32 = (0..V::DIM)
            .map(|k| direction.axis(k) * (self.b.axis(k) - self.a.axis(k)))
            .sum();
        if along > 0.0 { self.b } else { self.a }
    }
    fn radius(&self) -> f32 {
        self.radius
    }
}

/// A box centred on its pose's position, turned with it (axis-aligned when
/// the pose does not turn).
///
/// ```
/// use collide::narrow::d2::Cuboid;
/// use glam::Vec2;
/// let plank = Cuboid::new(Vec2::new(2.0, 0.5))?;
/// assert_eq!(plank.half_extents(), Vec2::new(2.0, 0.5));
/// assert!(Cuboid::new(Vec2::new(1.0, -1.0)).is_err());
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cuboid<V: Vector> {
    /// Half the box's size along each local axis, world units, 0 or more.
    pub(crate) half_extents: V,
}

impl<V: Vector> Cuboid<V> {
    /// A box with these half extents (finite, 0 or more).
    pub fn new(half_extents: V) -> Result<Self, ShapeError> {
        for axis in 0..V::DIM {
            let value = finite("half extents", half_extents.axis(axis))?;
            if value < 0.0 {
                return Err(ShapeError::HalfExtent { axis, value });
            }
        }
        Ok(Self { half_extents })
    }

    /// Half the box's size along each local axis, world units, 0 or more.
    pub fn half_extents(&self) -> V {
        self.half_extents
    }
}

impl<V: Vector> Support<V> for Cuboid<V> {
    fn support(&self, direction: V) -> V {
        V::from_axes(|k| {
            let h = self.half_extents.axis(k);
            if direction.axis(k) >= 0.0 { h } else { -h }
        })
    }
}
