//! [`Region`]: what a query asks about (a box, a point, a ray, a frustum,
//! a swept box), as the two questions every structure needs answered: which
//! boxes does it hit, and what box holds it.

use super::ray::{RayError, check_finite, moving_entry, widened};
use super::{Aabb, Ray, Vector};

/// A region of space a query looks for objects in.
///
/// Structures call [`Region::hits`] on node and cell bounds to prune and on
/// objects' boxes to decide; [`Region::bounds`] tells grids and sweeps which
/// part of space to look at. Implemented for [`Aabb`] (the overlap rule),
/// [`Ray`] (the hit rule of `ray.rs`), [`SweptAabb`] and
/// [`Frustum`](super::Frustum); a point query is the zero-size box at the
/// point.
///
/// ```
/// use collide::{Aabb2, geometry::{Ray, Region}};
/// use glam::Vec2;
/// let unit = Aabb2::new(Vec2::ZERO, Vec2::ONE)?;
/// let ray = Ray::new(Vec2::new(-1.0, 0.5), Vec2::X, 5.0)?;
/// assert!(ray.hits(&unit));
/// assert!(unit.hits(&Aabb2::new(Vec2::splat(0.5), Vec2::splat(2.0))?));
/// assert_eq!(unit.bounds(), Some(unit));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Region<V: Vector> {
    /// Whether the region hits `aabb`, by the region's rule: boxes by the
    /// overlap rule, rays and swept boxes when some point or position is
    /// strictly inside, frustums when the box is not wholly outside a
    /// plane. Monotone: a region that hits a box hits every box that
    /// contains it (so a node whose bound is not hit holds no object that
    /// is).
    fn hits(&self, aabb: &Aabb<V>) -> bool;

    /// A box holding every point of the region, or `None` when the region
    /// is unbounded (structures then look at every object).
    fn bounds(&self) -> Option<Aabb<V>>;

    /// The ray, when the region is one (grids then walk the cells along
    /// it instead of every cell of its bounds).
    fn as_ray(&self) -> Option<&Ray<V>> {
        None
    }
}

impl<V: Vector> Region<V> for Aabb<V> {
    fn hits(&self, aabb: &Aabb<V>) -> bool {
        self.overlaps(aabb)
    }

    fn bounds(&self) -> Option<Aabb<V>> {
        Some(*self)
    }
}

impl<V: Vector> Region<V> for Ray<V> {
    fn hits(&self, aabb: &Aabb<V>) -> bool {
        self.entry(aabb).is_some()
    }

    fn bounds(&self) -> Option<Aabb<V>> {
        Ray::bounds(self)
    }

    fn as_ray(&self) -> Option<&Ray<V>> {
        Some(self)
    }
}

/// A box moved along a straight line: every position of `start` translated
/// by `t * displacement` for `t` in `[0, 1]`. It hits a box when some
/// position overlaps it (the overlap rule), so it is conservative for any
/// object moving linearly over the step: what a fast projectile may touch.
///
/// ```
/// use collide::{Aabb2, geometry::{Region, SweptAabb}};
/// use glam::Vec2;
/// let bullet = Aabb2::new(Vec2::ZERO, Vec2::splat(0.2))?;
/// let swept = SweptAabb::new(bullet, Vec2::new(50.0, 0.0))?;
/// let thin_wall = Aabb2::new(Vec2::new(20.0, -5.0), Vec2::new(20.1, 5.0))?;
/// assert!(swept.hits(&thin_wall)); // the end positions miss it; the path does not
/// assert_eq!(swept.entry(&thin_wall), Some((20.0 - 0.2) / 50.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweptAabb<V: Vector> {
    start: Aabb<V>,
    displacement: V,
}

impl<V: Vector> SweptAabb<V> {
    /// `start` moved by `displacement` (finite coordinates) over the step.
    pub fn new(start: Aabb<V>, displacement: V) -> Result<Self, RayError> {
        check_finite(displacement, "displacement")?;
        Ok(Self {
            start,
            displacement,
        })
    }

    /// The box at `t = 0`.
    pub fn start(&self) -> Aabb<V> {
        self.start
    }

    /// The motion over the step.
    pub fn displacement(&self) -> V {
        self.displacement
    }

    /// The first `t` in `[0, 1]` at which the moving box overlaps `aabb`
    /// (the lower end of the open interval of such `t`, or 0), or `None`.
    pub fn entry(&self, aabb: &Aabb<V>) -> Option<f32> {
        moving_entry(
            |a| {
                (
                    aabb.min().axis(a) - self.start.max().axis(a),
                    aabb.max().axis(a) - self.start.min().axis(a),
                )
            },
            self.displacement,
            1.0,
        )
    }
}

impl<V: Vector> Region<V> for SweptAabb<V> {
    fn hits(&self, aabb: &Aabb<V>) -> bool {
        self.entry(aabb).is_some()
    }

    /// The start and end boxes' union, widened by a millionth of its
    /// coordinates so that rounding never leaves out a box it hits.
    fn bounds(&self) -> Option<Aabb<V>> {
        widened(self.start.min(), self.start.max(), |a| {
            f64::from(self.displacement.axis(a))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    fn b(x0: f32, y0: f32, x1: f32, y1: f32) -> Aabb<Vec2> {
        Aabb::new(Vec2::new(x0, y0), Vec2::new(x1, y1)).unwrap()
    }

    #[test]
    fn a_swept_box_touching_only_at_its_ends_or_along_a_face_does_not_hit() {
        let start = b(0.0, 0.0, 1.0, 1.0);
        let swept = SweptAabb::new(start, Vec2::new(4.0, 0.0)).unwrap();
        assert!(swept.hits(&b(2.0, 0.5, 3.0, 0.7)));
        assert!(!swept.hits(&b(2.0, 1.0, 3.0, 2.0))); // slides along its top face
        assert!(!swept.hits(&b(5.0, 0.0, 6.0, 1.0))); // touches at t = 1
        assert!(swept.hits(&b(4.9, 0.0, 6.0, 1.0)));
        assert_eq!(swept.entry(&b(0.5, 0.5, 0.6, 0.6)), Some(0.0)); // overlapping at once
        let still = SweptAabb::new(start, Vec2::ZERO).unwrap();
        assert!(still.hits(&b(0.5, 0.5, 2.0, 2.0)));
        assert!(!still.hits(&b(1.0, 0.0, 2.0, 1.0)));
        let bounds = swept.bounds().unwrap(); // the union of start and end, widened
        assert!(bounds.contains(&b(0.0, 0.0, 5.0, 1.0)));
        assert!(b(-0.001, -0.001, 5.001, 1.001).contains(&bounds));
        assert!(SweptAabb::new(start, Vec2::new(f32::NAN, 0.0)).is_err());
    }

    #[test]
    fn hits_are_monotone_in_the_box() {
        let swept = SweptAabb::new(b(0.0, 0.0, 1.0, 1.0), Vec2::new(3.0, 2.0)).unwrap();
        let ray = Ray::new(Vec2::new(-1.0, 0.3), Vec2::new(1.0, 0.2), 8.0).unwrap();
        let small = b(2.0, 1.0, 2.5, 1.5);
        let big = b(1.0, 0.0, 4.0, 3.0);
        for region in [&swept as &dyn Region<Vec2>, &ray] {
            if region.hits(&small) {
                assert!(region.hits(&big));
            }
        }
        assert!(swept.hits(&small) && ray.hits(&big));
    }
}
