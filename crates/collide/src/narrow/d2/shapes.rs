//! The 2D shapes: [`Circle`], [`Capsule`], [`Cuboid`] (a box, oriented by
//! its pose; the three written once for 2D and 3D in `narrow/shapes.rs`)
//! and [`Polygon`] (convex, up to [`Polygon::MAX_VERTICES`]
//! vertices, optionally rounded). Plain `Copy` values in their own frame;
//! a [`Pose`] places them.

use super::hull;
use super::pose::Pose;
use crate::geometry::Aabb;
use crate::narrow::error::{ShapeError, finite, radius};
use crate::narrow::general;
use crate::narrow::shapes::{self, Ball};
use crate::narrow::support::Support;
use glam::Vec2;

/// A circle centred on its pose's position.
///
/// ```
/// use collide::narrow::d2::{Circle, Pose};
/// use glam::Vec2;
/// let ball = Circle::new(0.5)?;
/// let bounds = ball.aabb(&Pose::at(Vec2::new(2.0, 0.0))?);
/// // [1.5, 2.5] x [-0.5, 0.5], widened by a few f32 steps against rounding
/// assert!((bounds.min() - Vec2::new(1.5, -0.5)).length() < 1e-5);
/// assert!((bounds.max() - Vec2::new(2.5, 0.5)).length() < 1e-5);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub type Circle = Ball<Vec2>;

/// A 2D capsule (see [`shapes::Capsule`](crate::narrow::Capsule)).
///
/// ```
/// use collide::narrow::d2::{Capsule, Pose};
/// use glam::Vec2;
/// let body = Capsule::new(1.0, 0.5)?; // segment from (0, -1) to (0, 1)
/// let bounds = body.aabb(&Pose::IDENTITY);
/// assert!((bounds.min() - Vec2::new(-0.5, -1.5)).length() < 1e-5);
/// assert!((bounds.max() - Vec2::new(0.5, 1.5)).length() < 1e-5);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub type Capsule = shapes::Capsule<Vec2>;

/// A 2D box (a rectangle), turned with its pose.
///
/// ```
/// use collide::narrow::d2::{Cuboid, Pose};
/// use glam::Vec2;
/// let plank = Cuboid::new(Vec2::new(2.0, 0.5))?;
/// let turned = Pose::new(Vec2::ZERO, std::f32::consts::FRAC_PI_2)?;
/// let bounds = plank.aabb(&turned);
/// assert!((bounds.max() - Vec2::new(0.5, 2.0)).length() < 1e-5);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub type Cuboid = shapes::Cuboid<Vec2>;

impl Ball<Vec2> {
    /// Its bounding box at `pose`.
    pub fn aabb(&self, pose: &Pose) -> Aabb<Vec2> {
        general::bounds(self, pose)
    }
}

impl shapes::Capsule<Vec2> {
    /// Its bounding box at `pose`.
    pub fn aabb(&self, pose: &Pose) -> Aabb<Vec2> {
        general::bounds(self, pose)
    }
}

impl shapes::Cuboid<Vec2> {
    /// Its bounding box at `pose`.
    pub fn aabb(&self, pose: &Pose) -> Aabb<Vec2> {
        general::bounds(self, pose)
    }

    /// The same box as a [`Polygon`] (four vertices, counter-clockwise).
    ///
    /// ```
    /// use collide::narrow::d2::Cuboid;
    /// use glam::Vec2;
    /// let square = Cuboid::new(Vec2::ONE)?.to_polygon();
    /// assert_eq!(square.vertices()[0], Vec2::new(-1.0, -1.0));
    /// # Ok::<(), collide::narrow::ShapeError>(())
    /// ```
    pub fn to_polygon(&self) -> Polygon {
        let h = self.half_extents;
        Polygon::from_hull(&[
            Vec2::new(-h.x, -h.y),
            Vec2::new(h.x, -h.y),
            Vec2::new(h.x, h.y),
            Vec2::new(-h.x, h.y),
        ])
    }
}

/// A convex polygon of up to [`Polygon::MAX_VERTICES`] vertices,
/// counter-clockwise, with its outward edge normals; rounded by `radius`
/// when that is above 0.
///
/// ```
/// use collide::narrow::d2::Polygon;
/// use glam::Vec2;
/// // Any points: the polygon is their convex hull (the inner point goes).
/// let tri = Polygon::new(&[Vec2::ZERO, Vec2::new(4.0, 0.0), Vec2::new(0.0, 3.0), Vec2::ONE])?;
/// assert_eq!(tri.vertices().len(), 3);
/// assert!(Polygon::new(&[Vec2::ZERO, Vec2::X, Vec2::new(2.0, 0.0)]).is_err()); // a line
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Polygon {
    vertices: [Vec2; Polygon::MAX_VERTICES],
    normals: [Vec2; Polygon::MAX_VERTICES],
    count: u8,
    /// The rounding radius around the polygon, world units, 0 or more.
    pub(crate) radius: f32,
}

impl Polygon {
    /// The most vertices a polygon holds (as in Box2D: enough for game
    /// shapes, and the shape stays a small `Copy` value).
    pub const MAX_VERTICES: usize = 8;

    /// The convex hull of `points` (finite; 3 or more not on one line; a
    /// hull of at most [`Polygon::MAX_VERTICES`]). Points on the hull's
    /// edges are dropped.
    pub fn new(points: &[Vec2]) -> Result<Self, ShapeError> {
        for p in points {
            finite("polygon point", p.x)?;
            finite("polygon point", p.y)?;
        }
        let hull = convex_hull(points);
        if hull.len() < 3 {
            return Err(ShapeError::Degenerate {
                points: points.len(),
            });
        }
        if hull.len() > Self::MAX_VERTICES {
            return Err(ShapeError::TooManyVertices {
                vertices: hull.len(),
                max: Self::MAX_VERTICES,
            });
        }
        Ok(Self::from_hull(&hull))
    }

    /// The hull of `points`, rounded by `radius`.
    ///
    /// ```
    /// use collide::narrow::{Support, d2::Polygon};
    /// use glam::Vec2;
    /// let pebble = Polygon::rounded(&[Vec2::ZERO, Vec2::X, Vec2::Y], 0.1)?;
    /// assert_eq!(pebble.radius(), 0.1);
    /// # Ok::<(), collide::narrow::ShapeError>(())
    /// ```
    pub fn rounded(points: &[Vec2], radius: f32) -> Result<Self, ShapeError> {
        Ok(Self {
            radius: self::radius(radius)?,
            ..Self::new(points)?
        })
    }

    /// A polygon from a hull already counter-clockwise and convex (at
    /// most [`Polygon::MAX_VERTICES`] points).
    pub(crate) fn from_hull(hull: &[Vec2]) -> Self {
        let mut polygon = Self {
            vertices: [Vec2::ZERO; Self::MAX_VERTICES],
            normals: [Vec2::ZERO; Self::MAX_VERTICES],
            count: hull.len() as u8,
            radius: 0.0,
        };
        for (i, &v) in hull.iter().enumerate() {
            let next = hull[(i + 1) % hull.len()];
            polygon.vertices[i] = v;
            // Outward normal of edge i (from vertex i to i + 1): the edge
            // turned clockwise.
            let edge = next - v;
            polygon.normals[i] = Vec2::new(edge.y, -edge.x).normalize_or_zero();
        }
        polygon
    }

    /// The vertices, counter-clockwise.
    ///
    /// ```
    /// use collide::narrow::d2::Polygon;
    /// use glam::Vec2;
    /// let tri = Polygon::new(&[Vec2::new(2.0, 0.0), Vec2::ZERO, Vec2::new(0.0, 2.0)])?;
    /// assert_eq!(tri.vertices(), &[Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::new(0.0, 2.0)]);
    /// assert_eq!(tri.normals()[0], -Vec2::Y); // the bottom edge faces down
    /// # Ok::<(), collide::narrow::ShapeError>(())
    /// ```
    /// The rounding radius around the polygon, world units, 0 or more.
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// The hull's vertices, counter-clockwise.
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices[..self.count as usize]
    }

    /// The outward unit normal of each edge (edge `i` runs from vertex `i`
    /// to vertex `i + 1`).
    pub fn normals(&self) -> &[Vec2] {
        &self.normals[..self.count as usize]
    }

    /// Its bounding box at `pose`.
    pub fn aabb(&self, pose: &Pose) -> Aabb<Vec2> {
        general::bounds(self, pose)
    }

    /// Whether it has no area: a box of zero width or size made into a
    /// polygon, whose edges of no length have no normal ([`Polygon::new`]
    /// refuses such points).
    pub(crate) fn is_flat(&self) -> bool {
        self.normals().contains(&Vec2::ZERO)
    }
}

impl Support<Vec2> for Polygon {
    fn support(&self, direction: Vec2) -> Vec2 {
        // The best index kept without a branch (the winner is
        // unpredictable, so a branch would miss about once a call).
        let vertices = self.vertices();
        let (mut best, mut best_dot) = (0, f32::NEG_INFINITY);
        for (k, v) in vertices.iter().enumerate() {
            let d = v.dot(direction);
            let better = d > best_dot;
            best = if better { k } else { best };
            best_dot = if better { d } else { best_dot };
        }
        vertices[best]
    }
    fn radius(&self) -> f32 {
        self.radius
    }
}

/// The polygon hull of `points`: turns smaller than a millionth of the
/// polygon's size squared count as straight (the point lies on the edge).
fn convex_hull(points: &[Vec2]) -> Vec<Vec2> {
    // The size of the polygon (not of its coordinates: a small triangle
    // far from the origin is as good as one at it).
    let first = points.first().copied().unwrap_or(Vec2::ZERO);
    let scale = points.iter().fold(0.0f64, |m, p| {
        m.max(f64::from(p.x) - f64::from(first.x))
            .max(f64::from(first.x) - f64::from(p.x))
            .max(f64::from(p.y) - f64::from(first.y))
            .max(f64::from(first.y) - f64::from(p.y))
    });
    let straight = 1e-6 * scale * scale;
    hull::convex_hull(points, |p| [f64::from(p.x), f64::from(p.y)], straight)
}
