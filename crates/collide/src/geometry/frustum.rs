//! [`Frustum`]: a convex region bounded by planes (lines in 2D), such as a
//! camera's view; the query prunes every box wholly outside one plane.

use super::polytope::{Extent, extent};
use super::{Aabb, Region, Vector};

/// A plane (a line in 2D): it keeps the points `x` with
/// `normal · x < offset`, its inside.
///
/// ```
/// use collide::geometry::Plane;
/// use glam::Vec2;
/// let left_of_ten = Plane::new(Vec2::X, 10.0);
/// assert_eq!(left_of_ten.offset(), 10.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plane<V: Vector> {
    normal: V,
    offset: f32,
}

impl<V: Vector> Plane<V> {
    /// The plane `normal · x = offset`, inside towards `-normal`.
    /// (Checked when a [`Frustum`] is made from it.)
    pub fn new(normal: V, offset: f32) -> Self {
        Self { normal, offset }
    }

    /// The plane through `point` whose inside is away from `normal`.
    ///
    /// ```
    /// use collide::geometry::Plane;
    /// use glam::Vec2;
    /// let p = Plane::through(Vec2::new(3.0, 1.0), Vec2::new(0.0, 2.0));
    /// assert_eq!(p.offset(), 2.0); // 2 * y < 2: below y = 1
    /// ```
    pub fn through(point: V, normal: V) -> Self {
        Self::new(normal, dot(normal, point))
    }

    /// The outward normal (any length).
    pub fn normal(&self) -> V {
        self.normal
    }

    /// The offset: the plane is `normal · x = offset`.
    pub fn offset(&self) -> f32 {
        self.offset
    }

    /// The smallest `normal · x` over the box (at its corner furthest
    /// inside), in f64.
    fn lowest(&self, aabb: &Aabb<V>) -> f64 {
        (0..V::DIM)
            .map(|a| {
                let n = f64::from(self.normal.axis(a));
                let x = if n >= 0.0 {
                    aabb.min().axis(a)
                } else {
                    aabb.max().axis(a)
                };
                n * f64::from(x)
            })
            .sum()
    }
}

fn dot<V: Vector>(a: V, b: V) -> f32 {
    (0..V::DIM).map(|k| a.axis(k) * b.axis(k)).sum()
}

/// Why a frustum could not be made.
///
/// ```
/// use collide::geometry::{Frustum, FrustumError, Plane};
/// use glam::Vec2;
/// let inverted = [Plane::new(Vec2::X, 0.0), Plane::new(-Vec2::X, -5.0)]; // x < 0 and x > 5
/// assert!(matches!(Frustum::new(&inverted), Err(FrustumError::Inverted { .. })));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum FrustumError {
    /// No planes were given.
    #[error("a frustum needs at least one plane")]
    NoPlanes,
    /// A plane's normal is zero or has a non-finite coordinate.
    #[error("plane {index} has a zero or non-finite normal; give a finite, non-zero normal")]
    Normal {
        /// The plane's index in the list given.
        index: usize,
    },
    /// A plane's offset is not finite.
    #[error("plane {index} has offset {offset}; give a finite offset")]
    Offset {
        /// The plane's index in the list given.
        index: usize,
        /// The offset given.
        offset: f32,
    },
    /// The planes bound an empty region (no corner is inside every plane).
    #[error("the planes bound no point: the frustum is empty (a plane facing the wrong way?)")]
    Empty,
    /// Two planes face each other with nothing between them (for example
    /// near and far swapped): the frustum is empty.
    #[error(
        "planes {first} and {second} face opposite ways with no space between them: \
         the frustum is inverted (near and far swapped?)"
    )]
    Inverted {
        /// The first plane's index.
        first: usize,
        /// The second plane's index.
        second: usize,
    },
}

/// A convex region: the points inside every plane. A query prunes every
/// box wholly outside one plane, and returns the boxes that are not: a
/// conservative answer (it never misses a box that has a point strictly
/// inside the frustum; near its corners it may keep a box that has none).
///
/// ```
/// use collide::{Aabb2, geometry::{Frustum, Plane, Region}};
/// use glam::Vec2;
/// // The 2D view of a camera at the origin looking along +x, 90 degrees
/// // wide, from 1 to 100 units.
/// let view = Frustum::new(&[
///     Plane::new(Vec2::new(-1.0, 0.0), -1.0), // x > 1
///     Plane::new(Vec2::new(1.0, 0.0), 100.0), // x < 100
///     Plane::new(Vec2::new(-1.0, 1.0), 0.0),  // y < x
///     Plane::new(Vec2::new(-1.0, -1.0), 0.0), // y > -x
/// ])?;
/// let ahead = Aabb2::new(Vec2::new(10.0, -1.0), Vec2::new(12.0, 1.0))?;
/// let behind = Aabb2::new(Vec2::new(-12.0, -1.0), Vec2::new(-10.0, 1.0))?;
/// assert!(view.hits(&ahead) && !view.hits(&behind));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Frustum<V: Vector> {
    planes: Vec<Plane<V>>,
    /// The box around the region when it is bounded.
    bounds: Option<Aabb<V>>,
}

impl<V: Vector> Frustum<V> {
    /// The region inside every plane of `planes`. Errors for no planes, a
    /// zero or non-finite normal, a non-finite offset, two planes that
    /// face opposite ways with nothing between them (an inverted frustum),
    /// and planes that bound nothing (a bounded region with no corner
    /// inside every plane).
    pub fn new(planes: &[Plane<V>]) -> Result<Self, FrustumError> {
        if planes.is_empty() {
            return Err(FrustumError::NoPlanes);
        }
        for (index, p) in planes.iter().enumerate() {
            let finite = (0..V::DIM).all(|a| p.normal.axis(a).is_finite());
            if !finite || (0..V::DIM).all(|a| p.normal.axis(a) == 0.0) {
                return Err(FrustumError::Normal { index });
            }
            if !p.offset.is_finite() {
                return Err(FrustumError::Offset {
                    index,
                    offset: p.offset,
                });
            }
        }
        for (first, p) in planes.iter().enumerate() {
            for (second, q) in planes.iter().enumerate().skip(first + 1) {
                if facing_apart(p, q) {
                    return Err(FrustumError::Inverted { first, second });
                }
            }
        }
        let bounds = match extent(planes) {
            Extent::Empty => return Err(FrustumError::Empty),
            Extent::Unbounded => None,
            Extent::Within(b) => Some(b),
        };
        Ok(Self {
            planes: planes.to_vec(),
            bounds,
        })
    }

    /// The planes.
    pub fn planes(&self) -> &[Plane<V>] {
        &self.planes
    }
}

/// Whether `p` and `q` have opposite normals (`q = -k p`, `k > 0`) and no
/// point is strictly inside both: `n·x < a` and `-k n·x < b` need
/// `-b / k < n·x < a`.
fn facing_apart<V: Vector>(p: &Plane<V>, q: &Plane<V>) -> bool {
    let (pn, qn) = (p.normal, q.normal);
    let (pp, pq) = (f64::from(dot(pn, pn)), f64::from(dot(pn, qn)));
    if pq >= 0.0 {
        return false;
    }
    let k = -pq / pp;
    let opposite = (0..V::DIM).all(|a| {
        let expected = -k * f64::from(pn.axis(a));
        (f64::from(qn.axis(a)) - expected).abs() <= 1e-6 * expected.abs().max(1e-30)
    });
    opposite && -f64::from(q.offset) / k >= f64::from(p.offset)
}

impl<V: Vector> Region<V> for Frustum<V> {
    /// Not wholly outside any plane (the box's corner furthest inside is
    /// strictly inside every plane) and, for a bounded frustum, overlapping
    /// the box around its corners.
    fn hits(&self, aabb: &Aabb<V>) -> bool {
        self.bounds.is_none_or(|b| b.overlaps(aabb))
            && self
                .planes
                .iter()
                .all(|p| p.lowest(aabb) < f64::from(p.offset))
    }

    /// The box around the corners of a bounded frustum (widened a little
    /// against rounding); `None` for an unbounded one (structures without
    /// nodes to prune by then test every object).
    fn bounds(&self) -> Option<Aabb<V>> {
        self.bounds
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Vec2, Vec3};

    #[test]
    fn boxes_wholly_outside_one_plane_are_pruned_touching_ones_too() {
        let f = Frustum::new(&[Plane::new(Vec3::X, 5.0)]).unwrap();
        let cube =
            |x: f32| Aabb::new(Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1.0, 1.0, 1.0)).unwrap();
        assert!(f.hits(&cube(0.0)));
        assert!(f.hits(&cube(4.5)));
        assert!(!f.hits(&cube(5.0))); // touches the plane from outside
        assert!(!f.hits(&cube(6.0)));
        // Monotone: a bigger box holding a hit box is hit.
        let big = Aabb::new(Vec3::splat(-10.0), Vec3::splat(10.0)).unwrap();
        assert!(f.hits(&big));
    }

    #[test]
    fn bounded_frustums_have_bounds_around_their_corners() {
        // A 2D view: x in (1, 100), |y| < x.
        let view = Frustum::new(&[
            Plane::new(Vec2::new(-1.0, 0.0), -1.0),
            Plane::new(Vec2::new(1.0, 0.0), 100.0),
            Plane::new(Vec2::new(-1.0, 1.0), 0.0),
            Plane::new(Vec2::new(-1.0, -1.0), 0.0),
        ])
        .unwrap();
        let b = view.bounds().unwrap();
        let exact = Aabb::new(Vec2::new(1.0, -100.0), Vec2::new(100.0, 100.0)).unwrap();
        assert!(b.contains(&exact), "{b:?}");
        assert!(
            Aabb::new(Vec2::new(0.99, -100.01), Vec2::new(100.01, 100.01))
                .unwrap()
                .contains(&b)
        );
        // A wedge without a far plane is unbounded; so is one plane.
        let wedge = Frustum::new(&view.planes()[..1]).unwrap();
        assert!(wedge.bounds().is_none());
        let open = Frustum::new(&[view.planes()[0], view.planes()[2], view.planes()[3]]).unwrap();
        assert!(open.bounds().is_none());
        // A 3D box of six planes.
        let cube = Frustum::new(&[
            Plane::new(Vec3::X, 2.0),
            Plane::new(-Vec3::X, 1.0),
            Plane::new(Vec3::Y, 2.0),
            Plane::new(-Vec3::Y, 1.0),
            Plane::new(Vec3::Z, 2.0),
            Plane::new(-Vec3::Z, 1.0),
        ])
        .unwrap();
        let b = cube.bounds().unwrap();
        assert!(b.contains(&Aabb::new(Vec3::splat(-1.0), Vec3::splat(2.0)).unwrap()));
        assert!(!cube.hits(&Aabb::new(Vec3::splat(3.0), Vec3::splat(4.0)).unwrap()));
        // Three half-planes that leave nothing: an error, not a region.
        let empty = [
            Plane::new(Vec2::new(-1.0, 0.0), 0.0), // x > 0
            Plane::new(Vec2::new(0.0, -1.0), 0.0), // y > 0
            Plane::new(Vec2::new(1.0, 1.0), -1.0), // x + y < -1
        ];
        assert_eq!(Frustum::new(&empty), Err(FrustumError::Empty));
    }

    #[test]
    fn bad_frustums_are_errors_that_name_the_plane() {
        let ok = Plane::new(Vec2::X, 1.0);
        assert_eq!(Frustum::<Vec2>::new(&[]), Err(FrustumError::NoPlanes));
        assert_eq!(
            Frustum::new(&[ok, Plane::new(Vec2::ZERO, 1.0)]),
            Err(FrustumError::Normal { index: 1 })
        );
        assert!(matches!(
            Frustum::new(&[Plane::new(Vec2::X, f32::INFINITY)]),
            Err(FrustumError::Offset { index: 0, .. })
        ));
        // x < 1 and 2x > 4 (x > 2): inverted; x < 1 and x > 0: fine.
        assert_eq!(
            Frustum::new(&[ok, Plane::new(Vec2::new(-2.0, 0.0), -4.0)]),
            Err(FrustumError::Inverted {
                first: 0,
                second: 1
            })
        );
        assert!(Frustum::new(&[ok, Plane::new(-Vec2::X, 0.0)]).is_ok());
        // Facing apart at one point (x < 1 and x > 1): empty, inverted.
        assert!(Frustum::new(&[ok, Plane::new(-Vec2::X, -1.0)]).is_err());
        let msg = FrustumError::Inverted {
            first: 0,
            second: 1,
        }
        .to_string();
        assert!(msg.contains("inverted"), "{msg}");
    }
}
