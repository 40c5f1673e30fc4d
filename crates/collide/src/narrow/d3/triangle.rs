//! [`Triangle`]: a flat convex shape of three corners, the part a
//! triangle mesh or a heightfield is made of. It answers through the
//! general algorithms (GJK, EPA) like any other shape, with a closed-form
//! ray cast and its two sides as faces for manifolds.

use super::pose::Pose;
use crate::geometry::{Aabb, Ray};
use crate::narrow::RayCast;
use crate::narrow::error::{ShapeError, finite};
use crate::narrow::general;
use crate::narrow::support::Support;
use glam::{DVec3, Vec3};

/// Below this share of its longest edge squared, a triangle's doubled
/// area counts as none: its corners lie on a line within what f32 holds.
const FLAT: f32 = 1e-6;

/// A triangle, its corners counter-clockwise about [`Triangle::normal`].
///
/// ```
/// use collide::narrow::d3::{Pose, Sphere, Shape, Triangle};
/// use glam::Vec3;
/// let ground = Triangle::new(Vec3::ZERO, Vec3::new(0.0, 0.0, 1.0), Vec3::X)?;
/// assert_eq!(ground.normal(), Vec3::Y);
/// let ball = Shape::from(Sphere::new(0.5)?);
/// let c = Shape::from(ground).contact(&Pose::IDENTITY, &ball, &Pose::at(Vec3::new(0.2, 0.4, 0.2))?);
/// assert!((c.depth - 0.1).abs() < 1e-5 && (c.normal - Vec3::Y).length() < 1e-5);
/// assert!(Triangle::new(Vec3::ZERO, Vec3::X, 2.0 * Vec3::X).is_err()); // on a line
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Triangle {
    points: [Vec3; 3],
}

impl Triangle {
    /// The triangle `a`, `b`, `c`; an error for a non-finite corner or
    /// corners on one line (a doubled area below a millionth of the
    /// longest edge squared).
    pub fn new(a: Vec3, b: Vec3, c: Vec3) -> Result<Self, ShapeError> {
        for p in [a, b, c] {
            for k in 0..3 {
                finite("triangle corner", p[k])?;
            }
        }
        let t = Self { points: [a, b, c] };
        if t.is_flat() {
            return Err(ShapeError::Degenerate { points: 3 });
        }
        Ok(t)
    }

    /// A triangle from corners checked by the caller.
    pub(crate) fn from_checked(points: [Vec3; 3]) -> Self {
        Self { points }
    }

    /// Whether its corners lie on a line within f32's reach (see
    /// [`Triangle::new`]).
    pub(crate) fn is_flat(&self) -> bool {
        let [a, b, c] = self.points.map(Vec3::as_dvec3);
        let area = (b - a).cross(c - a).length();
        let longest = (b - a)
            .length_squared()
            .max((c - b).length_squared())
            .max((a - c).length_squared());
        // A NaN area (never from finite corners) counts as flat too.
        area.partial_cmp(&(f64::from(FLAT) * longest)) != Some(std::cmp::Ordering::Greater)
    }

    /// Its corners.
    pub fn points(&self) -> [Vec3; 3] {
        self.points
    }

    /// Its unit normal, about which the corners run counter-clockwise.
    pub fn normal(&self) -> Vec3 {
        let [a, b, c] = self.points.map(Vec3::as_dvec3);
        (b - a).cross(c - a).normalize().as_vec3()
    }

    /// Its bounding box at `pose`.
    pub fn aabb(&self, pose: &Pose) -> Aabb<Vec3> {
        general::bounds(self, pose)
    }
}

impl Support<Vec3> for Triangle {
    #[inline]
    fn support(&self, direction: Vec3) -> Vec3 {
        let [a, b, c] = self.points;
        let (da, db, dc) = (a.dot(direction), b.dot(direction), c.dot(direction));
        if da >= db && da >= dc {
            a
        } else if db >= dc {
            b
        } else {
            c
        }
    }
}

/// A ray against a triangle at `pose`: where it crosses the triangle's
/// plane from one side to the other strictly inside its edges, in f64 in
/// the triangle's frame (Möller and Trumbore's test). A ray in the plane
/// misses (the narrow phase's rule for flat shapes); the normal faces the
/// ray.
///
/// ```
/// use collide::geometry::Ray;
/// use collide::narrow::d3::{Pose, Triangle, cast_ray_triangle};
/// use glam::Vec3;
/// let ground = Triangle::new(Vec3::ZERO, Vec3::new(0.0, 0.0, 4.0), Vec3::new(4.0, 0.0, 0.0))?;
/// let down = Ray::new(Vec3::new(1.0, 3.0, 1.0), -Vec3::Y, 10.0).unwrap();
/// let hit = cast_ray_triangle(&down, &ground, &Pose::IDENTITY).unwrap();
/// assert_eq!((hit.t, hit.normal), (3.0, Vec3::Y));
/// let up = Ray::new(Vec3::new(1.0, -3.0, 1.0), Vec3::Y, 10.0).unwrap();
/// assert_eq!(cast_ray_triangle(&up, &ground, &Pose::IDENTITY).unwrap().normal, -Vec3::Y);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn cast_ray_triangle(
    ray: &Ray<Vec3>,
    triangle: &Triangle,
    pose: &Pose,
) -> Option<RayCast<Vec3>> {
    crossing(ray, &LocalRay::new(ray, pose), &triangle.points, pose, 0.0)
}

/// How far outside its edges (in barycentric units, so relative to the
/// triangle's size) a ray still crosses a mesh's triangle.
const SEAM: f64 = 1e-9;

/// A ray in the frame of a triangle (or a mesh) at some pose, in f64: the
/// origin's offset taken there is exact however far out both lie. Made
/// once for all the triangles of a mesh a ray is tested against.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct LocalRay {
    origin: DVec3,
    direction: DVec3,
}

impl LocalRay {
    pub(crate) fn new(ray: &Ray<Vec3>, pose: &Pose) -> Self {
        let offset = ray.origin().as_dvec3() - pose.position().as_dvec3();
        let inverse = pose.rotation().as_dquat().conjugate();
        Self {
            origin: inverse * offset,
            direction: inverse * ray.direction().as_dvec3(),
        }
    }
}

/// A ray (`local` in the mesh's frame) against one triangle of a mesh
/// whose corners are `points` in that frame, the mesh at `pose`: as
/// [`cast_ray_triangle`], but closed (and a little more), so that a ray
/// down the seam between two triangles crosses the mesh, however each
/// side's rounding falls.
pub(crate) fn cast_ray_mesh_triangle(
    ray: &Ray<Vec3>,
    local: &LocalRay,
    points: &[Vec3; 3],
    pose: &Pose,
) -> Option<RayCast<Vec3>> {
    crossing(ray, local, points, pose, SEAM)
}

/// Where `ray` (`local` in the triangle's frame) crosses the triangle
/// `points` at `pose` within `edge` (barycentric) outside its edges,
/// strictly (Möller and Trumbore's test).
#[inline]
fn crossing(
    ray: &Ray<Vec3>,
    local: &LocalRay,
    points: &[Vec3; 3],
    pose: &Pose,
    edge: f64,
) -> Option<RayCast<Vec3>> {
    let (o, d) = (local.origin, local.direction);
    let [a, b, c] = points.map(Vec3::as_dvec3);
    let (e1, e2) = (b - a, c - a);
    let p = d.cross(e2);
    let det = e1.dot(p);
    if det == 0.0 {
        return None;
    }
    let s = o - a;
    let u = s.dot(p) / det;
    if u <= -edge {
        return None;
    }
    let q = s.cross(e1);
    let v = d.dot(q) / det;
    if !(v > -edge && u + v < 1.0 + edge) {
        return None;
    }
    let t = e2.dot(q) / det;
    if !(t >= 0.0 && t <= f64::from(ray.max_t())) {
        return None;
    }
    let n: DVec3 = e1.cross(e2).normalize();
    let facing = if n.dot(d) > 0.0 { -n } else { n };
    let t = t as f32;
    Some(RayCast {
        t,
        normal: pose.rotate(facing.as_vec3()),
        point: ray.at(t),
    })
}
