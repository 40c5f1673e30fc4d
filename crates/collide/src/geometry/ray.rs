//! Rays (and segments), and the one rule by which a ray, or a box moving
//! along a straight line, hits a box.
//!
//! **The hit rule.** A ray hits a box when some point of the ray, for
//! `t` in `[0, max_t]`, lies strictly inside the box (the overlap rule of
//! [`Aabb::overlaps`] applied to the ray's points). So a ray running
//! exactly along a face or an edge does not hit (it never enters the
//! interior), a ray starting inside a box hits it at `t = 0`, a ray that
//! only touches a corner does not hit, and nothing hits a box of zero size
//! on some axis. The hit's `t` is where the ray enters the box: the lower
//! end of the interval of `t` inside it, or 0. A zero direction component
//! is handled without dividing by zero: on that axis the ray is inside for
//! every `t` or for none. The rule is monotone: a ray that hits a box hits
//! every box containing it, which is what lets structures prune by node
//! bounds.

use super::{Aabb, Vector};

/// A ray: the points `origin + t * direction` for `t` in `[0, max_t]`.
/// With a finite `max_t` it is a segment; `direction` need not be a unit
/// vector (then `t` is in units of its length), and may be zero (a point).
///
/// ```
/// use collide::{Aabb2, geometry::Ray};
/// use glam::Vec2;
/// let ray = Ray::new(Vec2::ZERO, Vec2::X, 100.0)?;
/// let wall = Aabb2::new(Vec2::new(10.0, -1.0), Vec2::new(11.0, 1.0))?;
/// assert_eq!(ray.entry(&wall), Some(10.0));
/// // Along the wall's face: never inside, so no hit.
/// let along = Ray::new(Vec2::new(0.0, 1.0), Vec2::X, 100.0)?;
/// assert_eq!(along.entry(&wall), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray<V: Vector> {
    origin: V,
    direction: V,
    max_t: f32,
}

/// Why a ray (or a swept box) could not be made. Each message says what to
/// give instead.
///
/// ```
/// use collide::geometry::{Ray, RayError};
/// use glam::Vec2;
/// let err = Ray::new(Vec2::ZERO, Vec2::new(f32::NAN, 1.0), 1.0).unwrap_err();
/// assert!(matches!(err, RayError::NonFinite { what: "direction", axis: 0, .. }));
/// assert!(Ray::new(Vec2::ZERO, Vec2::X, -1.0).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum RayError {
    /// A coordinate was NaN or infinite.
    #[error("the {what} has coordinate {value} on axis {axis}; give finite numbers")]
    NonFinite {
        /// Which vector: `"origin"`, `"direction"` or `"displacement"`.
        what: &'static str,
        /// The axis (0 for x).
        axis: usize,
        /// The coordinate given.
        value: f32,
    },
    /// The maximum `t` was negative or NaN.
    #[error("the ray's maximum t is {0}; give 0 or more (f32::INFINITY for a ray without end)")]
    MaxT(f32),
}

/// Checks that every coordinate of `v` is finite.
pub(crate) fn check_finite<V: Vector>(v: V, what: &'static str) -> Result<(), RayError> {
    for axis in 0..V::DIM {
        let value = v.axis(axis);
        if !value.is_finite() {
            return Err(RayError::NonFinite { what, axis, value });
        }
    }
    Ok(())
}

impl<V: Vector> Ray<V> {
    /// A ray from `origin` along `direction`, for `t` in `[0, max_t]`.
    /// Coordinates must be finite; `max_t` must be 0 or more, and may be
    /// `f32::INFINITY`.
    ///
    /// ```
    /// use collide::geometry::Ray;
    /// use glam::Vec3;
    /// let endless = Ray::new(Vec3::ZERO, Vec3::Z, f32::INFINITY)?;
    /// assert_eq!(endless.max_t(), f32::INFINITY);
    /// # Ok::<(), collide::geometry::RayError>(())
    /// ```
    pub fn new(origin: V, direction: V, max_t: f32) -> Result<Self, RayError> {
        check_finite(origin, "origin")?;
        check_finite(direction, "direction")?;
        if max_t.is_nan() || max_t < 0.0 {
            return Err(RayError::MaxT(max_t));
        }
        Ok(Self {
            origin,
            direction,
            max_t,
        })
    }

    /// Where the ray starts.
    pub fn origin(&self) -> V {
        self.origin
    }

    /// Its direction (any length, possibly zero).
    pub fn direction(&self) -> V {
        self.direction
    }

    /// The largest `t` (in lengths of `direction`), possibly infinite.
    pub fn max_t(&self) -> f32 {
        self.max_t
    }

    /// The point at `t`.
    ///
    /// ```
    /// use collide::geometry::Ray;
    /// use glam::Vec2;
    /// let ray = Ray::new(Vec2::ONE, Vec2::new(2.0, 0.0), 1.0)?;
    /// assert_eq!(ray.at(0.5), Vec2::new(2.0, 1.0));
    /// # Ok::<(), collide::geometry::RayError>(())
    /// ```
    pub fn at(&self, t: f32) -> V {
        V::from_axes(|a| self.origin.axis(a) + t * self.direction.axis(a))
    }

    /// The `t` at which the ray enters `aabb` by the hit rule (see the
    /// module), or `None` when it does not hit.
    ///
    /// ```
    /// use collide::{Aabb2, geometry::Ray};
    /// use glam::Vec2;
    /// let unit = Aabb2::new(Vec2::ZERO, Vec2::ONE)?;
    /// let inside = Ray::new(Vec2::splat(0.5), Vec2::X, 1.0)?;
    /// assert_eq!(inside.entry(&unit), Some(0.0));
    /// let short = Ray::new(Vec2::new(-2.0, 0.5), Vec2::X, 2.0)?;
    /// assert_eq!(short.entry(&unit), None); // ends on the face
    /// let vertical = Ray::new(Vec2::new(0.5, 5.0), Vec2::new(0.0, -1.0), 10.0)?;
    /// assert_eq!(vertical.entry(&unit), Some(4.0)); // no division by the zero x
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn entry(&self, aabb: &Aabb<V>) -> Option<f32> {
        moving_entry(
            |a| {
                let o = self.origin.axis(a);
                (aabb.min().axis(a) - o, aabb.max().axis(a) - o)
            },
            self.direction,
            self.max_t,
        )
    }

    /// A box holding every point of the ray, or `None` when it is
    /// unbounded (an endless ray that moves along some axis, or an end
    /// point beyond the f32 range). Widened by a millionth of its
    /// coordinates, so that rounding never leaves out a box the ray hits.
    pub fn bounds(&self) -> Option<Aabb<V>> {
        if !self.max_t.is_finite() && (0..V::DIM).any(|a| self.direction.axis(a) != 0.0) {
            return None;
        }
        let t = if self.max_t.is_finite() {
            self.max_t
        } else {
            0.0
        };
        widened(self.origin, self.origin, |a| {
            f64::from(t) * f64::from(self.direction.axis(a))
        })
    }
}

/// The box holding `lo` and `hi` moved by `0..=shift(axis)` on each axis,
/// in f64, widened by a millionth of its coordinates (and a little more)
/// and rounded outwards; `None` beyond the f32 range.
pub(crate) fn widened<V: Vector>(lo: V, hi: V, shift: impl Fn(usize) -> f64) -> Option<Aabb<V>> {
    let mut min = [0.0f32; 3];
    let mut max = [0.0f32; 3];
    for a in 0..V::DIM {
        let (l, h, d) = (f64::from(lo.axis(a)), f64::from(hi.axis(a)), shift(a));
        let (l, h) = (l.min(l + d), h.max(h + d));
        let margin = 1e-6 * l.abs().max(h.abs()) + 1e-30;
        let (l, h) = (l - margin, h + margin);
        if !(l >= f64::from(f32::MIN) && h <= f64::from(f32::MAX)) {
            return None;
        }
        min[a] = l as f32;
        max[a] = h as f32;
    }
    Aabb::new(V::from_axes(|a| min[a]), V::from_axes(|a| max[a])).ok()
}

/// The entry `t` of a moving interval into a box, axis by axis, by the hit
/// rule: on axis `a`, `gaps(a)` gives `(lo, hi)` such that at time `t` the
/// mover is strictly inside on that axis iff `lo < t * velocity[a] < hi`
/// (for a ray, the box's faces minus the origin; for a moving box, the
/// target's faces minus the mover's opposite faces). The open intervals of
/// `t` are intersected with each other and with `[0, max_t]`.
pub(crate) fn moving_entry<V: Vector>(
    gaps: impl Fn(usize) -> (f32, f32),
    velocity: V,
    max_t: f32,
) -> Option<f32> {
    let (mut enter, mut exit) = (f32::NEG_INFINITY, f32::INFINITY);
    for a in 0..V::DIM {
        let (lo, hi) = gaps(a);
        let v = velocity.axis(a);
        if v == 0.0 {
            // Parallel to this axis's faces: inside for all t or none.
            if !(lo < 0.0 && 0.0 < hi) {
                return None;
            }
            continue;
        }
        let (t1, t2) = (lo / v, hi / v);
        let (from, to) = if v > 0.0 { (t1, t2) } else { (t2, t1) };
        enter = enter.max(from);
        exit = exit.min(to);
        // No NaN here: the gaps are finite or infinite, `v` finite and not 0.
        if enter >= exit {
            return None;
        }
    }
    // The open interval (enter, exit) meets [0, max_t] (`+ 0.0` makes a
    // -0.0 entry 0.0, so hits sort and compare alike):
    if enter >= 0.0 {
        (enter < max_t).then_some(enter + 0.0)
    } else {
        (exit > 0.0).then_some(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Vec2, Vec3};

    fn unit2() -> Aabb<Vec2> {
        Aabb::new(Vec2::ZERO, Vec2::ONE).unwrap()
    }

    #[test]
    fn faces_edges_and_corners_are_not_hits() {
        let b = unit2();
        for (o, d) in [
            (Vec2::new(-1.0, 0.0), Vec2::X), // along the bottom face
            (Vec2::new(-1.0, 1.0), Vec2::X), // along the top face
            (Vec2::new(0.0, -1.0), Vec2::Y), // along the left face
            (
                Vec2::new(-1.0, -1.0),
                Vec2::ONE * 0.5 + Vec2::new(0.5, -0.5),
            ), // misses
            (Vec2::new(-1.0, 1.0), Vec2::new(1.0, -1.0)), // through a corner only
        ] {
            let ray = Ray::new(o, d, 10.0).unwrap();
            assert_eq!(ray.entry(&b), None, "{o} {d}");
        }
        // Through the diagonal: enters at the corner, hits.
        let diagonal = Ray::new(Vec2::splat(-1.0), Vec2::ONE, 10.0).unwrap();
        assert_eq!(diagonal.entry(&b), Some(1.0));
    }

    #[test]
    fn zero_size_boxes_are_never_hit_and_zero_directions_do_not_divide() {
        let flat = Aabb::new(Vec2::new(0.0, 0.5), Vec2::new(1.0, 0.5)).unwrap();
        let ray = Ray::new(Vec2::new(0.5, -1.0), Vec2::Y, 10.0).unwrap();
        assert_eq!(ray.entry(&flat), None);
        let still = Ray::new(Vec3::splat(0.5), Vec3::ZERO, 3.0).unwrap();
        let cube = Aabb::new(Vec3::ZERO, Vec3::ONE).unwrap();
        assert_eq!(still.entry(&cube), Some(0.0));
        let outside = Ray::new(Vec3::splat(2.0), Vec3::ZERO, 3.0).unwrap();
        assert_eq!(outside.entry(&cube), None);
        // Entering at -0.0 (the face at the origin, direction negative):
        // reported as 0.0.
        let back = Ray::new(Vec2::new(0.0, 0.5), Vec2::new(-1.0, 0.0), 5.0).unwrap();
        let left = Aabb::new(Vec2::new(-3.0, 0.0), Vec2::new(0.0, 1.0)).unwrap();
        assert_eq!(back.entry(&left).map(f32::to_bits), Some(0.0f32.to_bits()));
    }

    #[test]
    fn segments_stop_at_max_t_and_rays_do_not() {
        let b = unit2();
        let o = Vec2::new(-5.0, 0.5);
        assert_eq!(Ray::new(o, Vec2::X, 5.0).unwrap().entry(&b), None);
        assert_eq!(Ray::new(o, Vec2::X, 5.5).unwrap().entry(&b), Some(5.0));
        let endless = Ray::new(o, Vec2::X, f32::INFINITY).unwrap();
        assert_eq!(endless.entry(&b), Some(5.0));
        assert!(endless.bounds().is_none());
        let up = Ray::new(o, Vec2::Y, f32::INFINITY).unwrap();
        assert!(up.bounds().is_none());
        let seg = Ray::new(o, Vec2::new(2.0, -1.0), 2.0).unwrap();
        let b = seg.bounds().unwrap();
        // The segment's box, widened by a millionth.
        let near = |x: Vec2, y: Vec2| (x - y).abs().max_element() < 1e-4;
        assert!(near(b.min(), Vec2::new(-5.0, -1.5)) && near(b.max(), Vec2::new(-1.0, 0.5)));
        assert!(b.min().x < -5.0 && b.max().y > 0.5);
        // A ray behind the box, pointing away.
        let away = Ray::new(Vec2::new(2.0, 0.5), Vec2::X, 9.0).unwrap();
        assert_eq!(away.entry(&unit2()), None);
    }

    #[test]
    fn bad_rays_are_errors() {
        assert!(Ray::new(Vec2::new(f32::INFINITY, 0.0), Vec2::X, 1.0).is_err());
        assert!(Ray::new(Vec2::ZERO, Vec2::X, f32::NAN).is_err());
        let msg = Ray::new(Vec2::ZERO, Vec2::X, -2.0).unwrap_err().to_string();
        assert!(msg.contains("-2") && msg.contains("0 or more"), "{msg}");
    }
}
