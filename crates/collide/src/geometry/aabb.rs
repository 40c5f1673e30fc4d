//! The axis-aligned bounding box, written once for 2D and 3D, and the single
//! overlap rule used everywhere in collide.

use super::Vector;
use glam::{Vec2, Vec3};
use std::fmt;

/// An axis-aligned bounding box that is known to be valid: every coordinate
/// is finite and `min <= max` on every axis. Zero extent is allowed.
///
/// The fields are private so that an invalid box can never be built or
/// stored: [`Aabb::new`] checks and returns a typed [`AabbError`].
///
/// **The overlap rule** ([`Aabb::overlaps`]): `a` and `b` overlap iff
/// `a.min[i] < b.max[i] && b.min[i] < a.max[i]` on every axis. Touching is not
/// overlapping; two zero-size boxes at one point do not overlap; a zero-size
/// box strictly inside another does.
///
/// ```
/// use collide::Aabb2;
/// use glam::Vec2;
/// let a = Aabb2::new(Vec2::ZERO, Vec2::splat(2.0))?;
/// let b = Aabb2::new(Vec2::splat(1.0), Vec2::splat(3.0))?;
/// let touching = Aabb2::new(Vec2::new(2.0, 0.0), Vec2::new(4.0, 2.0))?;
/// assert!(a.overlaps(&b));
/// assert!(!a.overlaps(&touching));
/// assert!(Aabb2::new(Vec2::ONE, Vec2::ZERO).is_err()); // inverted
/// # Ok::<(), collide::AabbError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Aabb<V: Vector> {
    min: V,
    max: V,
}

/// A 2D box: [`Aabb`] over [`glam::Vec2`].
pub type Aabb2 = Aabb<Vec2>;
/// A 3D box: [`Aabb`] over [`glam::Vec3`].
pub type Aabb3 = Aabb<Vec3>;

/// Which corner of a box a coordinate belongs to, for error messages.
///
/// ```
/// use collide::{Aabb2, AabbError, geometry::Corner};
/// use glam::Vec2;
/// let err = Aabb2::new(Vec2::ZERO, Vec2::new(f32::INFINITY, 1.0)).unwrap_err();
/// assert!(matches!(err, AabbError::NonFinite { corner: Corner::Max, .. }));
/// assert_eq!(Corner::Min.to_string(), "min");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corner {
    /// The minimum corner.
    Min,
    /// The maximum corner.
    Max,
}

impl fmt::Display for Corner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Corner::Min => "min",
            Corner::Max => "max",
        })
    }
}

/// Why a box was refused.
///
/// ```
/// use collide::{Aabb2, AabbError};
/// use glam::Vec2;
/// let err = Aabb2::new(Vec2::new(0.0, 5.0), Vec2::new(1.0, 4.0)).unwrap_err();
/// assert_eq!(err, AabbError::Inverted { axis: 1, min: 5.0, max: 4.0 });
/// assert!(err.to_string().starts_with("box is inverted on axis 1: min 5 > max 4"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum AabbError {
    /// A coordinate is NaN or infinite.
    #[error(
        "box {corner} coordinate on axis {axis} is {value}, not a finite number; \
         check the position that produced it (a division by zero or an unset value)"
    )]
    NonFinite {
        /// The axis, 0 = x, 1 = y, 2 = z.
        axis: usize,
        /// Which corner holds the coordinate.
        corner: Corner,
        /// The offending value.
        value: f32,
    },
    /// `min > max` on an axis.
    #[error(
        "box is inverted on axis {axis}: min {min} > max {max}; \
         pass the smaller coordinate as min (zero extent is allowed)"
    )]
    Inverted {
        /// The axis, 0 = x, 1 = y, 2 = z.
        axis: usize,
        /// The minimum coordinate given.
        min: f32,
        /// The maximum coordinate given.
        max: f32,
    },
}

const AXIS_NAMES: [&str; 3] = ["x", "y", "z"];

impl<V: Vector> Aabb<V> {
    /// Checks and builds a box from its corners.
    ///
    /// Returns [`AabbError::NonFinite`] for a NaN or infinite coordinate and
    /// [`AabbError::Inverted`] when `min > max` on an axis.
    ///
    /// ```
    /// use collide::{Aabb3, AabbError};
    /// use glam::Vec3;
    /// let err = Aabb3::new(Vec3::ZERO, Vec3::new(1.0, f32::NAN, 1.0)).unwrap_err();
    /// assert!(matches!(err, AabbError::NonFinite { axis: 1, .. }));
    /// ```
    pub fn new(min: V, max: V) -> Result<Self, AabbError> {
        for axis in 0..V::DIM {
            let (lo, hi) = (min.axis(axis), max.axis(axis));
            if !lo.is_finite() {
                return Err(AabbError::NonFinite {
                    axis,
                    corner: Corner::Min,
                    value: lo,
                });
            }
            if !hi.is_finite() {
                return Err(AabbError::NonFinite {
                    axis,
                    corner: Corner::Max,
                    value: hi,
                });
            }
            if lo > hi {
                return Err(AabbError::Inverted {
                    axis,
                    min: lo,
                    max: hi,
                });
            }
        }
        Ok(Self { min, max })
    }

    /// Builds a box from its centre and half extents (each `>= 0`).
    ///
    /// ```
    /// use collide::Aabb2;
    /// use glam::Vec2;
    /// let b = Aabb2::from_center_half_extents(Vec2::new(5.0, 5.0), Vec2::splat(1.0))?;
    /// assert_eq!(b.min(), Vec2::splat(4.0));
    /// # Ok::<(), collide::AabbError>(())
    /// ```
    pub fn from_center_half_extents(center: V, half_extents: V) -> Result<Self, AabbError> {
        let min = V::from_axes(|i| center.axis(i) - half_extents.axis(i));
        let max = V::from_axes(|i| center.axis(i) + half_extents.axis(i));
        Self::new(min, max)
    }

    /// The zero-size box at `point`. It overlaps exactly the boxes that hold
    /// `point` strictly inside, which is the point-query rule of collide.
    ///
    /// ```
    /// use collide::Aabb2;
    /// use glam::Vec2;
    /// let p = Aabb2::from_point(Vec2::new(1.0, 1.0))?;
    /// assert_eq!(p.min(), p.max());
    /// # Ok::<(), collide::AabbError>(())
    /// ```
    pub fn from_point(point: V) -> Result<Self, AabbError> {
        Self::new(point, point)
    }

    /// The minimum corner.
    ///
    /// ```
    /// use collide::Aabb2;
    /// use glam::Vec2;
    /// let b = Aabb2::new(Vec2::new(-1.0, 2.0), Vec2::new(3.0, 4.0))?;
    /// assert_eq!(b.min(), Vec2::new(-1.0, 2.0));
    /// # Ok::<(), collide::AabbError>(())
    /// ```
    #[inline]
    pub fn min(&self) -> V {
        self.min
    }

    /// The maximum corner.
    ///
    /// ```
    /// use collide::Aabb2;
    /// use glam::Vec2;
    /// let b = Aabb2::new(Vec2::new(-1.0, 2.0), Vec2::new(3.0, 4.0))?;
    /// assert_eq!(b.max(), Vec2::new(3.0, 4.0));
    /// # Ok::<(), collide::AabbError>(())
    /// ```
    #[inline]
    pub fn max(&self) -> V {
        self.max
    }

    /// The centre point (finite for every valid box, even at the limits of
    /// f32).
    ///
    /// ```
    /// use collide::Aabb3;
    /// use glam::Vec3;
    /// let b = Aabb3::new(Vec3::ZERO, Vec3::new(2.0, 4.0, 6.0))?;
    /// assert_eq!(b.center(), Vec3::new(1.0, 2.0, 3.0));
    /// let huge = Aabb3::new(Vec3::splat(f32::MAX), Vec3::splat(f32::MAX))?;
    /// assert!(huge.center().is_finite());
    /// let tiny = Aabb3::from_point(Vec3::splat(-1.0e-45))?; // subnormal
    /// assert_eq!(tiny.center(), tiny.min());
    /// # Ok::<(), collide::AabbError>(())
    /// ```
    #[inline]
    pub fn center(&self) -> V {
        // Halving first cannot overflow; clamping keeps the result inside
        // the box when halving subnormal coordinates rounds to zero.
        V::from_axes(|i| {
            let (lo, hi) = (self.min.axis(i), self.max.axis(i));
            (0.5 * lo + 0.5 * hi).clamp(lo, hi)
        })
    }

    /// The extent (`max - min`) on each axis, in world units, each `>= 0`.
    ///
    /// ```
    /// use collide::Aabb2;
    /// use glam::Vec2;
    /// let b = Aabb2::new(Vec2::new(1.0, -1.0), Vec2::new(4.0, 1.0))?;
    /// assert_eq!(b.size(), Vec2::new(3.0, 2.0));
    /// # Ok::<(), collide::AabbError>(())
    /// ```
    #[inline]
    pub fn size(&self) -> V {
        V::from_axes(|i| self.max.axis(i) - self.min.axis(i))
    }

    /// True iff the two boxes overlap under the collide overlap rule
    /// (strict on every axis; touching is not overlapping).
    ///
    /// ```
    /// use collide::Aabb2;
    /// use glam::Vec2;
    /// let big = Aabb2::new(Vec2::ZERO, Vec2::splat(4.0))?;
    /// let dot = Aabb2::from_point(Vec2::splat(2.0))?;
    /// assert!(big.overlaps(&dot) && dot.overlaps(&big));
    /// assert!(!dot.overlaps(&dot)); // two zero-size boxes at one point
    /// # Ok::<(), collide::AabbError>(())
    /// ```
    #[inline]
    pub fn overlaps(&self, other: &Self) -> bool {
        // Every comparison, without branches (`&`, not `&&`): whether two
        // boxes of a broad phase overlap is a coin toss the branch predictor
        // loses, so evaluating all of them costs less.
        (0..V::DIM).fold(true, |all, i| {
            all & (self.min.axis(i) < other.max.axis(i)) & (other.min.axis(i) < self.max.axis(i))
        })
    }

    /// True iff the projections on `axis` overlap under the strict rule.
    ///
    /// ```
    /// use collide::Aabb2;
    /// use glam::Vec2;
    /// let a = Aabb2::new(Vec2::ZERO, Vec2::splat(2.0))?;
    /// let above = Aabb2::new(Vec2::new(1.0, 5.0), Vec2::new(3.0, 6.0))?;
    /// assert!(a.overlaps_on_axis(&above, 0)); // x ranges overlap...
    /// assert!(!a.overlaps_on_axis(&above, 1)); // ...y ranges do not
    /// assert!(!a.overlaps(&above));
    /// # Ok::<(), collide::AabbError>(())
    /// ```
    #[inline]
    pub fn overlaps_on_axis(&self, other: &Self, axis: usize) -> bool {
        self.min.axis(axis) < other.max.axis(axis) && other.min.axis(axis) < self.max.axis(axis)
    }

    /// True iff `other` lies inside `self`, boundaries included.
    ///
    /// ```
    /// use collide::Aabb2;
    /// use glam::Vec2;
    /// let room = Aabb2::new(Vec2::ZERO, Vec2::splat(10.0))?;
    /// let corner = Aabb2::new(Vec2::splat(8.0), Vec2::splat(10.0))?;
    /// assert!(room.contains(&corner) && room.contains(&room));
    /// assert!(!corner.contains(&room));
    /// # Ok::<(), collide::AabbError>(())
    /// ```
    #[inline]
    pub fn contains(&self, other: &Self) -> bool {
        (0..V::DIM)
            .all(|i| self.min.axis(i) <= other.min.axis(i) && other.max.axis(i) <= self.max.axis(i))
    }

    /// The smallest box holding both. The result is valid because both are.
    ///
    /// ```
    /// use collide::Aabb2;
    /// use glam::Vec2;
    /// let a = Aabb2::new(Vec2::ZERO, Vec2::ONE)?;
    /// let b = Aabb2::new(Vec2::new(3.0, -2.0), Vec2::new(4.0, 0.5))?;
    /// let u = a.union(&b);
    /// assert_eq!((u.min(), u.max()), (Vec2::new(0.0, -2.0), Vec2::new(4.0, 1.0)));
    /// # Ok::<(), collide::AabbError>(())
    /// ```
    #[inline]
    pub fn union(&self, other: &Self) -> Self {
        Self {
            min: self.min.min_each(other.min),
            max: self.max.max_each(other.max),
        }
    }

    /// The box moved by `offset`. Fails only if a coordinate overflows to
    /// infinity or `offset` is not finite.
    ///
    /// ```
    /// use collide::Aabb2;
    /// use glam::Vec2;
    /// let b = Aabb2::new(Vec2::ZERO, Vec2::ONE)?;
    /// let moved = b.translated(Vec2::new(5.0, -1.0))?;
    /// assert_eq!((moved.min(), moved.max()), (Vec2::new(5.0, -1.0), Vec2::new(6.0, 0.0)));
    /// assert!(b.translated(Vec2::new(f32::NAN, 0.0)).is_err());
    /// # Ok::<(), collide::AabbError>(())
    /// ```
    pub fn translated(&self, offset: V) -> Result<Self, AabbError> {
        Self::new(
            V::from_axes(|i| self.min.axis(i) + offset.axis(i)),
            V::from_axes(|i| self.max.axis(i) + offset.axis(i)),
        )
    }
}

impl<V: Vector> fmt::Display for Aabb<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (axis, name) in AXIS_NAMES.iter().take(V::DIM).enumerate() {
            if axis > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{name} {}..{}", self.min.axis(axis), self.max.axis(axis))?;
        }
        f.write_str("]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b2(min: (f32, f32), max: (f32, f32)) -> Aabb2 {
        Aabb2::new(Vec2::new(min.0, min.1), Vec2::new(max.0, max.1)).unwrap()
    }

    #[test]
    fn overlap_is_strict_and_symmetric() {
        let a = b2((0.0, 0.0), (2.0, 2.0));
        let cases = [
            (b2((1.0, 1.0), (3.0, 3.0)), true),
            (b2((2.0, 0.0), (4.0, 2.0)), false),  // touching on x
            (b2((0.0, 2.0), (2.0, 4.0)), false),  // touching on y
            (b2((2.0, 2.0), (3.0, 3.0)), false),  // touching at a corner
            (b2((0.0, 0.0), (2.0, 2.0)), true),   // identical
            (b2((1.0, 1.0), (1.0, 1.0)), true),   // zero size strictly inside
            (b2((0.0, 1.0), (0.0, 1.0)), false),  // zero size on the boundary
            (b2((3.0, 0.0), (4.0, 2.0)), false),  // apart on x
            (b2((-1.0, -1.0), (3.0, 3.0)), true), // containing
        ];
        for (b, expected) in cases {
            assert_eq!(a.overlaps(&b), expected, "{a} vs {b}");
            assert_eq!(b.overlaps(&a), expected, "symmetry: {b} vs {a}");
        }
    }

    #[test]
    fn zero_size_boxes_at_one_point_do_not_overlap() {
        let p = b2((1.0, 1.0), (1.0, 1.0));
        assert!(!p.overlaps(&p));
        let p3 = Aabb3::from_point(Vec3::ONE).unwrap();
        assert!(!p3.overlaps(&p3));
    }

    #[test]
    fn overlap_rule_in_3d_needs_every_axis() {
        let a = Aabb3::new(Vec3::ZERO, Vec3::splat(2.0)).unwrap();
        let apart_on_z = Aabb3::new(Vec3::new(1.0, 1.0, 2.0), Vec3::splat(3.0)).unwrap();
        let inside = Aabb3::new(Vec3::splat(0.5), Vec3::splat(1.5)).unwrap();
        assert!(!a.overlaps(&apart_on_z));
        assert!(a.overlaps(&inside));
    }

    #[test]
    fn invalid_boxes_are_refused_with_the_axis() {
        let nan = Aabb2::new(Vec2::new(0.0, f32::NAN), Vec2::ONE).unwrap_err();
        assert_eq!(
            nan.to_string().split(';').next().unwrap(),
            "box min coordinate on axis 1 is NaN, not a finite number"
        );
        let inf = Aabb3::new(Vec3::ZERO, Vec3::new(1.0, 1.0, f32::INFINITY)).unwrap_err();
        assert!(matches!(
            inf,
            AabbError::NonFinite {
                axis: 2,
                corner: Corner::Max,
                ..
            }
        ));
        let inverted = Aabb2::new(Vec2::new(0.0, 5.0), Vec2::new(1.0, 4.0)).unwrap_err();
        assert_eq!(
            inverted,
            AabbError::Inverted {
                axis: 1,
                min: 5.0,
                max: 4.0
            }
        );
        assert!(
            Aabb2::new(Vec2::ONE, Vec2::ONE).is_ok(),
            "zero extent is allowed"
        );
    }

    #[test]
    fn translation_keeps_overlap_and_refuses_overflow() {
        let a = b2((0.0, 0.0), (2.0, 2.0));
        let b = b2((1.0, 1.0), (3.0, 3.0));
        let offset = Vec2::new(-1.0e6, 4.0e5);
        assert!(
            a.translated(offset)
                .unwrap()
                .overlaps(&b.translated(offset).unwrap())
        );
        let far = a.translated(Vec2::new(f32::MAX, 0.0)).unwrap();
        assert!(
            far.translated(Vec2::new(f32::MAX, 0.0)).is_err(),
            "MAX + MAX overflows"
        );
        assert!(a.translated(Vec2::new(f32::NAN, 0.0)).is_err());
    }

    #[test]
    fn union_contains_both() {
        let a = b2((0.0, 0.0), (1.0, 1.0));
        let b = b2((-2.0, 3.0), (-1.0, 4.0));
        let u = a.union(&b);
        assert!(u.contains(&a) && u.contains(&b));
        assert_eq!(u.center(), Vec2::new(-0.5, 2.0));
        assert_eq!(u.size(), Vec2::new(3.0, 4.0));
    }
}
