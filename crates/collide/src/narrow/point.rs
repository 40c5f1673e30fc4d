//! [`Point`]: the f64 points the general algorithms (GJK, EPA, casts)
//! compute with, typed by dimension (glam's `DVec2` and `DVec3`). Each f32
//! vector names its point type through [`Dim`](super::dim::Dim).
//!
//! Typed by dimension rather than one `[f64; 3]` for both, so 2D pays for
//! two coordinates, not three: a simplex vertex (three points) is 48 bytes
//! in 2D instead of 72.

use super::dim::Dim;
use glam::{DVec2, DVec3};
use std::fmt::Debug;
use std::ops::{Add, Mul, Neg, Sub};

/// A point or direction in f64, in 2 or 3 dimensions.
pub(crate) trait Point:
    Copy
    + Debug
    + Default
    + PartialEq
    + Add<Output = Self>
    + Sub<Output = Self>
    + Neg<Output = Self>
    + Mul<f64, Output = Self>
{
    /// Number of axes: 2 or 3.
    const DIM: usize;
    /// The origin.
    const ZERO: Self;
    /// The dot product.
    fn dot(self, other: Self) -> f64;
    /// The cross product in 3D; zero in 2D, where no simplex has the four
    /// points that need it (so a 2D "tetrahedron" reads as flat).
    fn cross(self, other: Self) -> Self;
    /// The coordinate on `axis` (`axis < DIM`).
    fn axis(self, axis: usize) -> f64;
    /// A point from its coordinate on each axis.
    fn from_axes(f: impl FnMut(usize) -> f64) -> Self;
}

impl Point for DVec2 {
    const DIM: usize = 2;
    const ZERO: Self = DVec2::ZERO;
    #[inline]
    fn dot(self, other: Self) -> f64 {
        DVec2::dot(self, other)
    }
    #[inline]
    fn cross(self, _other: Self) -> Self {
        DVec2::ZERO
    }
    #[inline]
    fn axis(self, axis: usize) -> f64 {
        self[axis]
    }
    #[inline]
    fn from_axes(mut f: impl FnMut(usize) -> f64) -> Self {
        DVec2::new(f(0), f(1))
    }
}

impl Point for DVec3 {
    const DIM: usize = 3;
    const ZERO: Self = DVec3::ZERO;
    #[inline]
    fn dot(self, other: Self) -> f64 {
        DVec3::dot(self, other)
    }
    #[inline]
    fn cross(self, other: Self) -> Self {
        DVec3::cross(self, other)
    }
    #[inline]
    fn axis(self, axis: usize) -> f64 {
        self[axis]
    }
    #[inline]
    fn from_axes(mut f: impl FnMut(usize) -> f64) -> Self {
        DVec3::new(f(0), f(1), f(2))
    }
}

/// Below this share of the coordinates involved, the difference of two
/// f64 points has no direction to trust: f64 rounds each to about 1e-16 of
/// them, so a direction at this gap is good to about 1e-7. The closed
/// forms, the general contact and the casts' settling take no normal from
/// a shorter gap.
pub(crate) const TRUSTED_GAP: f64 = 1e-9;

/// The f64 point type of the vector `V`.
pub(crate) type Wide<V> = <V as Dim>::P;

/// A vector as f64 coordinates.
#[inline]
pub(crate) fn to_p<V: Dim>(v: V) -> V::P {
    v.wide()
}

/// f64 coordinates as a vector (rounded to f32).
#[inline]
pub(crate) fn from_p<V: Dim>(p: V::P) -> V {
    V::narrow(p)
}

/// `v` scaled to length 1; `None` for a zero (or NaN) length.
#[inline]
pub(crate) fn normalized<P: Point>(v: P) -> Option<P> {
    let len = v.dot(v).sqrt();
    (len > 0.0).then(|| v * (1.0 / len))
}

/// The unit vector along `axis`.
#[inline]
pub(crate) fn unit<P: Point>(axis: usize) -> P {
    P::from_axes(|k| if k == axis { 1.0 } else { 0.0 })
}
