//! `sap1`'s bands: the world cut into slices across the sweep axis, each
//! with its own sorted keys and its own scan (multi-box pruning, in one
//! dimension; see `one_axis.rs`).
//!
//! A one-axis sweep meets every object whose interval overlaps along the
//! axis, wherever it is on the other axes; at constant density that number
//! grows with the world's length (12 candidates per object at 1,000 objects
//! in 2D `uniform`, 125 at 100,000). Cut across the sweep axis into bands a
//! few object sizes wide, each scan only meets the objects of its band.
//! An object in several bands is scanned in each; a pair is reported only in
//! the band that holds the lower edge of the two boxes' overlap on the band
//! axis, so it comes once with no set (the grid's corner rule, on one axis).
//!
//! The band map is a saturating floor, monotone for every finite
//! coordinate, so objects beyond the measured spread land in the end bands
//! and the rule still holds.

use crate::geometry::{Aabb, Vector};

/// The most bands.
pub(crate) const MAX_BANDS: u32 = 4096;

/// The band layout of `sap1`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Bands {
    /// The axis cut into bands (not the sweep axis).
    pub(crate) axis: usize,
    origin: f64,
    inv_size: f64,
    /// The band width, in world units.
    pub(crate) size: f32,
    /// Number of bands, at least 1.
    pub(crate) count: u32,
}

impl Default for Bands {
    fn default() -> Self {
        Self::single()
    }
}

impl Bands {
    /// One band holding everything.
    pub(crate) fn single() -> Self {
        Self {
            axis: 0,
            origin: 0.0,
            inv_size: 0.0,
            size: f32::INFINITY,
            count: 1,
        }
    }

    /// Bands of width `size` along `axis` covering `[lo, hi]`; one band when
    /// the span is not worth cutting.
    pub(crate) fn new(axis: usize, lo: f32, hi: f32, size: f32) -> Self {
        let span = f64::from(hi) - f64::from(lo);
        if !(size > 0.0 && size.is_finite() && span.is_finite()) || span < 2.0 * f64::from(size) {
            return Self::single();
        }
        let size = f64::from(size).max(span / f64::from(MAX_BANDS));
        let count = ((span / size).ceil() as u32).clamp(1, MAX_BANDS);
        Self {
            axis,
            origin: f64::from(lo),
            inv_size: 1.0 / size,
            size: size as f32,
            count,
        }
    }

    /// The lower edge of the first band.
    pub(crate) fn lower(&self) -> f32 {
        self.origin as f32
    }

    /// The upper edge of the last band.
    pub(crate) fn upper(&self) -> f32 {
        (self.origin + f64::from(self.count) / self.inv_size) as f32
    }

    /// The band of coordinate `x` on the band axis: a saturating floor.
    #[inline]
    pub(crate) fn band_of(&self, x: f32) -> u32 {
        if self.count == 1 {
            return 0;
        }
        let v = (f64::from(x) - self.origin) * self.inv_size;
        // `as` saturates (and maps NaN, impossible here, to 0).
        let t = v as i64;
        let floor = if (t as f64) > v {
            t.saturating_sub(1)
        } else {
            t
        };
        floor.clamp(0, i64::from(self.count - 1)) as u32
    }

    /// The bands `aabb` covers, inclusive.
    #[inline]
    pub(crate) fn range_of<V: Vector>(&self, aabb: &Aabb<V>) -> (u32, u32) {
        (
            self.band_of(aabb.min().axis(self.axis)),
            self.band_of(aabb.max().axis(self.axis)),
        )
    }

    /// The one band that reports the pair of `a` and `b`: the band of the
    /// lower edge of their overlap on the band axis, which both cover.
    #[inline]
    pub(crate) fn home<V: Vector>(&self, a: &Aabb<V>, b: &Aabb<V>) -> u32 {
        if self.count == 1 {
            return 0;
        }
        let edge = a.min().axis(self.axis).max(b.min().axis(self.axis));
        self.band_of(edge)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    #[test]
    fn bands_are_a_monotone_saturating_floor() {
        let bands = Bands::new(1, 0.0, 100.0, 10.0);
        assert_eq!(bands.count, 10);
        assert_eq!(bands.band_of(-1e30), 0);
        assert_eq!(bands.band_of(-0.5), 0);
        assert_eq!(bands.band_of(9.99), 0);
        assert_eq!(bands.band_of(10.0), 1);
        assert_eq!(bands.band_of(99.0), 9);
        assert_eq!(bands.band_of(1e30), 9);
        let a = Aabb::new(Vec2::new(0.0, 5.0), Vec2::new(1.0, 25.0)).unwrap();
        let b = Aabb::new(Vec2::new(0.0, 12.0), Vec2::new(1.0, 14.0)).unwrap();
        assert_eq!(bands.range_of(&a), (0, 2));
        assert_eq!(bands.home(&a, &b), 1);
        assert_eq!(Bands::new(1, 0.0, 15.0, 10.0).count, 1, "too narrow to cut");
    }
}
