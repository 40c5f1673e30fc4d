//! The 3D shapes: [`Sphere`], [`Capsule`], [`Cuboid`] (a box, oriented by
//! its pose; the three written once in `narrow/shapes.rs`) and [`Polyhedron`] (the convex hull of up to
//! [`Polyhedron::MAX_POINTS`] points, optionally rounded). Plain `Copy`
//! values in their own frame; a [`Pose`] places them.

use super::hull_faces::HullFaces;
use super::pose::Pose;
use crate::geometry::Aabb;
use crate::narrow::error::{ShapeError, finite, radius};
use crate::narrow::general;
use crate::narrow::shapes::{self, Ball};
use crate::narrow::support::{Columns, Support};
use glam::Vec3;

/// A sphere centred on its pose's position.
///
/// ```
/// use collide::narrow::d3::{Pose, Sphere};
/// use glam::Vec3;
/// let ball = Sphere::new(0.5)?;
/// let bounds = ball.aabb(&Pose::at(Vec3::new(2.0, 0.0, 0.0))?);
/// assert!((bounds.min() - Vec3::new(1.5, -0.5, -0.5)).length() < 1e-5);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub type Sphere = Ball<Vec3>;

/// A 3D capsule: a character controller's body.
///
/// ```
/// use collide::narrow::d3::{Capsule, Pose};
/// use glam::Vec3;
/// let body = Capsule::new(0.9, 0.3)?; // upright, 2.4 tall
/// let bounds = body.aabb(&Pose::IDENTITY);
/// assert!((bounds.max() - Vec3::new(0.3, 1.2, 0.3)).length() < 1e-5);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub type Capsule = shapes::Capsule<Vec3>;

/// A 3D box, turned with its pose.
///
/// ```
/// use collide::narrow::d3::{Cuboid, Pose};
/// use glam::Vec3;
/// let crate_box = Cuboid::new(Vec3::new(1.0, 2.0, 3.0))?;
/// let bounds = crate_box.aabb(&Pose::IDENTITY);
/// assert!((bounds.max() - Vec3::new(1.0, 2.0, 3.0)).length() < 1e-5);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub type Cuboid = shapes::Cuboid<Vec3>;

impl Ball<Vec3> {
    /// Its bounding box at `pose`.
    pub fn aabb(&self, pose: &Pose) -> Aabb<Vec3> {
        general::bounds(self, pose)
    }
}

impl shapes::Capsule<Vec3> {
    /// Its bounding box at `pose`.
    pub fn aabb(&self, pose: &Pose) -> Aabb<Vec3> {
        general::bounds(self, pose)
    }
}

impl shapes::Cuboid<Vec3> {
    /// Its bounding box at `pose`.
    pub fn aabb(&self, pose: &Pose) -> Aabb<Vec3> {
        general::bounds(self, pose)
    }
}

/// A convex polyhedron: the convex hull of up to
/// [`Polyhedron::MAX_POINTS`] points (points inside the hull are harmless
/// and kept), rounded by `radius` when that is above 0. Answers through
/// the general algorithms (GJK, EPA, casts).
///
/// ```
/// use collide::narrow::d3::{Polyhedron, Pose, contact};
/// use glam::Vec3;
/// let tetra = Polyhedron::new(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z])?;
/// let c = contact(&tetra, &Pose::IDENTITY, &tetra, &Pose::at(Vec3::new(0.0, 0.0, 1.5))?);
/// assert!((c.depth + 0.5).abs() < 1e-5); // 0.5 apart
/// assert!(Polyhedron::new(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::ONE.with_z(0.0)]).is_err()); // flat
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Polyhedron {
    points: [Vec3; Polyhedron::MAX_POINTS],
    count: u8,
    /// The rounding radius around the hull, world units, 0 or more.
    pub(crate) radius: f32,
    /// The points axis by axis, for supports.
    columns: Columns<{ Polyhedron::MAX_POINTS }, 3>,
    /// The hull's faces, for manifolds.
    faces: HullFaces,
}

impl Polyhedron {
    /// The most points a polyhedron holds (the shape stays a `Copy`
    /// value; a support query reads them all).
    pub const MAX_POINTS: usize = 32;

    /// The hull of `points`: finite, at most [`Polyhedron::MAX_POINTS`],
    /// four or more not all in one plane.
    pub fn new(points: &[Vec3]) -> Result<Self, ShapeError> {
        for p in points {
            for v in p.to_array() {
                finite("polyhedron point", v)?;
            }
        }
        if points.len() > Self::MAX_POINTS {
            return Err(ShapeError::TooManyVertices {
                vertices: points.len(),
                max: Self::MAX_POINTS,
            });
        }
        if !spans_volume(points) {
            return Err(ShapeError::Degenerate {
                points: points.len(),
            });
        }
        let mut shape = Self {
            points: [Vec3::ZERO; Self::MAX_POINTS],
            count: points.len() as u8,
            radius: 0.0,
            columns: Columns::new(&points.iter().map(|p| p.to_array()).collect::<Vec<_>>()),
            faces: HullFaces::new(points),
        };
        shape.points[..points.len()].copy_from_slice(points);
        Ok(shape)
    }

    /// The hull of `points`, rounded by `radius`.
    pub fn rounded(points: &[Vec3], radius: f32) -> Result<Self, ShapeError> {
        Ok(Self {
            radius: self::radius(radius)?,
            ..Self::new(points)?
        })
    }

    /// The points, as given.
    ///
    /// ```
    /// use collide::narrow::d3::Polyhedron;
    /// use glam::Vec3;
    /// let tetra = Polyhedron::new(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z])?;
    /// assert_eq!(tetra.points().len(), 4);
    /// # Ok::<(), collide::narrow::ShapeError>(())
    /// ```
    /// The rounding radius around the hull, world units, 0 or more.
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// The hull's points.
    pub fn points(&self) -> &[Vec3] {
        &self.points[..self.count as usize]
    }

    /// The hull's faces.
    pub(crate) fn faces(&self) -> &HullFaces {
        &self.faces
    }

    /// Its bounding box at `pose`.
    pub fn aabb(&self, pose: &Pose) -> Aabb<Vec3> {
        general::bounds(self, pose)
    }
}

impl Support<Vec3> for Polyhedron {
    fn support(&self, direction: Vec3) -> Vec3 {
        self.points[self.columns.farthest(direction.to_array())]
    }
    fn radius(&self) -> f32 {
        self.radius
    }
}

/// Whether some four of `points` span a volume (relative to their size),
/// in f64 so points near the ends of the f32 range do not overflow.
fn spans_volume(points: &[Vec3]) -> bool {
    let points: Vec<glam::DVec3> = points.iter().map(|p| p.as_dvec3()).collect();
    let Some(&p0) = points.first() else {
        return false;
    };
    let scale = points.iter().fold(0.0f64, |m, p| m.max((*p - p0).length()));
    if scale == 0.0 {
        return false;
    }
    let far = |from: &dyn Fn(glam::DVec3) -> f64| {
        points
            .iter()
            .copied()
            .max_by(|a, b| from(*a).total_cmp(&from(*b)))
            .expect("not empty")
    };
    let p1 = far(&|p| (p - p0).length_squared());
    let line = (p1 - p0).normalize_or_zero();
    let p2 = far(&|p| (p - p0).cross(line).length_squared());
    let normal = (p1 - p0).cross(p2 - p0).normalize_or_zero();
    let p3 = far(&|p| (p - p0).dot(normal).abs());
    (p3 - p0).dot(normal).abs() > 1e-6 * scale
}
