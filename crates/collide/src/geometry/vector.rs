//! The [`Vector`] trait: what collide needs from a glam vector so that one
//! implementation serves 2D ([`glam::Vec2`]) and 3D ([`glam::Vec3`]).

use glam::{Vec2, Vec3};
use std::fmt::Debug;

/// A point or displacement in `DIM` dimensions, implemented for
/// [`glam::Vec2`] and [`glam::Vec3`].
///
/// Every dimension-free structure in collide is generic over this trait, so
/// the 2D and 3D versions are the same code.
///
/// ```
/// use collide::Vector;
/// use glam::Vec3;
/// let v = Vec3::new(1.0, 2.0, 3.0);
/// assert_eq!(<Vec3 as Vector>::DIM, 3);
/// assert_eq!(v.axis(2), 3.0);
/// assert_eq!(Vec3::from_axes(|i| i as f32), Vec3::new(0.0, 1.0, 2.0));
/// ```
pub trait Vector: Copy + Debug + PartialEq + Default + Send + Sync + 'static {
    /// Number of axes: 2 or 3.
    ///
    /// ```
    /// use collide::Vector;
    /// use glam::{Vec2, Vec3};
    /// assert_eq!((<Vec2 as Vector>::DIM, <Vec3 as Vector>::DIM), (2, 3));
    /// ```
    const DIM: usize;

    /// The coordinate on `axis` (0 = x, 1 = y, 2 = z); `axis < DIM`.
    ///
    /// ```
    /// use collide::Vector;
    /// use glam::Vec2;
    /// let v = Vec2::new(4.0, -1.5);
    /// assert_eq!((v.axis(0), v.axis(1)), (4.0, -1.5));
    /// ```
    fn axis(self, axis: usize) -> f32;

    /// Builds a vector from its coordinate on each axis.
    ///
    /// ```
    /// use collide::Vector;
    /// use glam::Vec2;
    /// let doubled = Vec2::from_axes(|i| 2.0 * Vec2::new(1.0, 3.0).axis(i));
    /// assert_eq!(doubled, Vec2::new(2.0, 6.0));
    /// ```
    fn from_axes(f: impl FnMut(usize) -> f32) -> Self;

    /// The component-wise minimum.
    ///
    /// ```
    /// use collide::Vector;
    /// use glam::Vec3;
    /// let m = Vec3::new(1.0, 5.0, -2.0).min_each(Vec3::new(3.0, 0.0, -1.0));
    /// assert_eq!(m, Vec3::new(1.0, 0.0, -2.0));
    /// ```
    fn min_each(self, other: Self) -> Self;

    /// The component-wise maximum.
    ///
    /// ```
    /// use collide::Vector;
    /// use glam::Vec3;
    /// let m = Vec3::new(1.0, 5.0, -2.0).max_each(Vec3::new(3.0, 0.0, -1.0));
    /// assert_eq!(m, Vec3::new(3.0, 5.0, -1.0));
    /// ```
    fn max_each(self, other: Self) -> Self;
}

impl Vector for Vec2 {
    const DIM: usize = 2;

    #[inline]
    fn axis(self, axis: usize) -> f32 {
        self[axis]
    }

    #[inline]
    fn from_axes(mut f: impl FnMut(usize) -> f32) -> Self {
        Vec2::new(f(0), f(1))
    }

    #[inline]
    fn min_each(self, other: Self) -> Self {
        self.min(other)
    }

    #[inline]
    fn max_each(self, other: Self) -> Self {
        self.max(other)
    }
}

impl Vector for Vec3 {
    const DIM: usize = 3;

    #[inline]
    fn axis(self, axis: usize) -> f32 {
        self[axis]
    }

    #[inline]
    fn from_axes(mut f: impl FnMut(usize) -> f32) -> Self {
        Vec3::new(f(0), f(1), f(2))
    }

    #[inline]
    fn min_each(self, other: Self) -> Self {
        self.min(other)
    }

    #[inline]
    fn max_each(self, other: Self) -> Self {
        self.max(other)
    }
}
