//! Casts in 2D: rays against each shape in closed form (or, for any
//! shape, by the GJK ray cast), and shapes moving against shapes.

use super::pose::Pose;
use super::shapes::{Capsule, Circle, Cuboid, Polygon};
use crate::geometry::Ray;
use crate::narrow::cast::{RayCast, ShapeCast};
use crate::narrow::general;
use crate::narrow::placement::Placement;
use crate::narrow::ray as rays;
use crate::narrow::support::Support;
use glam::{DVec2, Vec2};

/// A ray against a circle: the nearer root of the circle's quadratic.
/// A ray that only grazes the circle (one root) misses it, as a ray along
/// a box's face misses the box. See [`RayCast`] for an example.
pub fn cast_ray_circle(ray: &Ray<Vec2>, circle: &Circle, pose: &Pose) -> Option<RayCast<Vec2>> {
    circle_entry(ray, pose.position.as_dvec2(), f64::from(circle.radius))
}

/// The entry of a ray into the circle at `centre` (f64 so a far origin
/// keeps its digits): the nearer root of the quadratic; a grazing ray (one
/// root) misses, a ray starting inside enters at 0. Written per dimension
/// in glam's `DVec2`/`DVec3` (see `d3::cast`): a version generic over the
/// dimension on f64 arrays was clearly slower for 3D spheres.
fn circle_entry(ray: &Ray<Vec2>, centre: DVec2, radius: f64) -> Option<RayCast<Vec2>> {
    let (o, d) = (ray.origin().as_dvec2(), ray.direction().as_dvec2());
    let m = o - centre;
    let c = m.length_squared() - radius * radius;
    if c < 0.0 {
        return Some(rays::started_inside(ray));
    }
    let a = d.length_squared();
    if a == 0.0 {
        return None;
    }
    let b = m.dot(d);
    let disc = b * b - a * c;
    if disc <= 0.0 {
        return None;
    }
    let t = ((-b - disc.sqrt()) / a) as f32;
    if !(t >= 0.0 && t <= ray.max_t()) {
        return None;
    }
    let point = ray.at(t);
    // The offset from the centre is the radius long (to rounding): divided
    // by it rather than normalized, one square root less.
    let offset = (o + d * f64::from(t)) - centre;
    let normal = if radius > 0.0 {
        (offset / radius).as_vec2()
    } else {
        offset.as_vec2().normalize_or_zero()
    };
    Some(RayCast { t, normal, point })
}

/// A ray against a convex polygon (its core; rounding is ignored: use
/// [`cast_ray`] for rounded polygons), by clipping the ray with each
/// edge's half-plane. A ray along an edge's line misses. A polygon without
/// area (a flat box's) goes through [`cast_ray`], as its edges of no
/// length have no half-plane.
///
/// ```
/// use collide::geometry::Ray;
/// use collide::narrow::d2::{Polygon, Pose, cast_ray_polygon};
/// use glam::Vec2;
/// let ramp = Polygon::new(&[Vec2::ZERO, Vec2::new(4.0, 0.0), Vec2::new(4.0, 2.0)])?;
/// let down = Ray::new(Vec2::new(2.0, 5.0), -Vec2::Y, 10.0).unwrap();
/// let hit = cast_ray_polygon(&down, &ramp, &Pose::IDENTITY).unwrap();
/// assert!((hit.t - 4.0).abs() < 1e-6); // the slope at x = 2 is at height 1
/// assert!((hit.normal - Vec2::new(-1.0, 2.0).normalize()).length() < 1e-6);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn cast_ray_polygon(ray: &Ray<Vec2>, polygon: &Polygon, pose: &Pose) -> Option<RayCast<Vec2>> {
    if polygon.is_flat() {
        let mut core = *polygon;
        core.radius = 0.0;
        return rays::cast_ray(ray, &core, pose);
    }
    // In the polygon's frame, in f64 (a far origin keeps its digits).
    let o = pose.unrotate_wide(ray.origin().as_dvec2() - pose.position.as_dvec2());
    let d = pose.unrotate_wide(ray.direction().as_dvec2());
    let (ox, oy, dx, dy) = (o.x, o.y, d.x, d.y);
    let (mut enter, mut exit) = (f64::NEG_INFINITY, f64::INFINITY);
    let mut entry_normal = None;
    let vertices = polygon.vertices();
    for (i, (v, n)) in vertices.iter().zip(polygon.normals()).enumerate() {
        // The edge's outward normal unnormalized, from its corners in f64
        // (a line through two f32 corners is then exact: a ray along it
        // gives exactly 0 below, where the stored unit normal rounds).
        let w = vertices[(i + 1) % vertices.len()];
        let (nx, ny) = (
            f64::from(w.y) - f64::from(v.y),
            f64::from(v.x) - f64::from(w.x),
        );
        // Inside the edge's half-plane: n . (p - v) < 0.
        let num = nx * (f64::from(v.x) - ox) + ny * (f64::from(v.y) - oy);
        let den = nx * dx + ny * dy;
        if den == 0.0 {
            if num <= 0.0 {
                return None; // parallel, outside or on the edge's line
            }
            continue;
        }
        let t = num / den;
        if den < 0.0 {
            if t > enter {
                (enter, entry_normal) = (t, Some(*n));
            }
        } else if t < exit {
            exit = t;
        }
    }
    if enter >= exit || exit <= 0.0 {
        return None;
    }
    if enter < 0.0 || entry_normal.is_none() {
        return Some(rays::started_inside(ray));
    }
    let t = enter as f32;
    if t > ray.max_t() {
        return None;
    }
    let normal = pose.rotate(entry_normal.expect("checked above"));
    Some(RayCast {
        t,
        normal,
        point: ray.at(t),
    })
}

/// A ray against a box: the slabs of its two axes in its own frame. A
/// ray along a face misses; a flat box (a half extent of 0) is hit by a
/// ray crossing it (the general cast answers).
///
/// ```
/// use collide::geometry::Ray;
/// use collide::narrow::d2::{Cuboid, Pose, cast_ray_cuboid};
/// use glam::Vec2;
/// let crate_box = Cuboid::new(Vec2::ONE)?;
/// let ray = Ray::new(Vec2::new(-3.0, 0.5), Vec2::X, 10.0).unwrap();
/// let hit = cast_ray_cuboid(&ray, &crate_box, &Pose::IDENTITY).unwrap();
/// assert_eq!((hit.t, hit.normal), (2.0, -Vec2::X));
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn cast_ray_cuboid(ray: &Ray<Vec2>, cuboid: &Cuboid, pose: &Pose) -> Option<RayCast<Vec2>> {
    rays::cast_ray_box(ray, cuboid, pose)
}

/// A ray against a capsule, in closed form: the entry into the infinite
/// cylinder around its axis (every point within the radius of the axis
/// line, which holds the capsule) where that lies between the ends, else
/// the entry into the end circle beyond which it lies. In f64, so a far
/// origin keeps its digits; a grazing ray misses, a ray starting inside
/// enters at 0. A capsule of radius 0 (a segment) goes through
/// [`cast_ray`].
///
/// ```
/// use collide::geometry::Ray;
/// use collide::narrow::d2::{Capsule, Pose, cast_ray_capsule};
/// use glam::Vec2;
/// let pole = Capsule::new(2.0, 0.5)?;
/// let ray = Ray::new(Vec2::new(0.0, 10.0), -Vec2::Y, 20.0).unwrap();
/// let hit = cast_ray_capsule(&ray, &pole, &Pose::IDENTITY).unwrap();
/// assert!((hit.t - 7.5).abs() < 1e-6 && hit.normal == Vec2::Y); // the top cap
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn cast_ray_capsule(ray: &Ray<Vec2>, capsule: &Capsule, pose: &Pose) -> Option<RayCast<Vec2>> {
    if capsule.radius == 0.0 {
        return segment_ray(ray, capsule, pose);
    }
    let r = f64::from(capsule.radius);
    // Relative to the capsule's position, in f64: the origin's offset is
    // exact there, and the ends turned in f32 keep their digits (a far
    // capsule's world ends would not).
    let at = pose.position.as_dvec2();
    let (pa, pb) = (
        pose.rotate(capsule.a).as_dvec2(),
        pose.rotate(capsule.b).as_dvec2(),
    );
    let (o, d) = (ray.origin().as_dvec2() - at, ray.direction().as_dvec2());
    let (axis, from_a) = (pb - pa, o - pa);
    let axis_sq = axis.length_squared();
    let (axis_d, axis_o) = (axis.dot(d), axis.dot(from_a));
    // The cylinder: |(o + d t - pa) x axis|^2 = r^2 |axis|^2, as
    // k2 t^2 + 2 k1 t + k0 = 0; k0 < 0 when the origin is inside it.
    let k0 = axis_sq * (from_a.length_squared() - r * r) - axis_o * axis_o;
    // Inside: the origin nearer the axis segment than the radius (no
    // division: beside the segment, inside the cylinder; beyond an end,
    // inside its circle).
    let inside = if axis_o <= 0.0 {
        from_a.length_squared() < r * r
    } else if axis_o >= axis_sq {
        (o - pb).length_squared() < r * r
    } else {
        k0 < 0.0
    };
    if inside {
        return Some(rays::started_inside(ray));
    }
    let k2 = axis_sq * d.length_squared() - axis_d * axis_d;
    if axis_sq > 0.0 && k2 > 0.0 {
        let k1 = axis_sq * from_a.dot(d) - axis_o * axis_d;
        let disc = k1 * k1 - k2 * k0;
        if disc <= 0.0 {
            return None; // misses (or grazes) the cylinder, so the capsule
        }
        let t = (-k1 - disc.sqrt()) / k2;
        // Where along the axis the entry lies (0 at a, axis_sq at b).
        let along = axis_o + t * axis_d;
        if along > 0.0 && along < axis_sq {
            if !(t >= 0.0 && t as f32 <= ray.max_t()) {
                return None;
            }
            // From the axis to the entry, near the capsule (its
            // difference of far coordinates would keep few digits).
            let normal = (from_a + d * t - axis * (along / axis_sq))
                .as_vec2()
                .normalize_or_zero();
            let t = t as f32;
            return Some(RayCast {
                t,
                normal,
                point: ray.at(t),
            });
        }
        return circle_entry(ray, at + if along <= 0.0 { pa } else { pb }, r);
    }
    // Along the axis, or a capsule without length: the nearer end circle.
    let (ea, eb) = (circle_entry(ray, at + pa, r), circle_entry(ray, at + pb, r));
    match (ea, eb) {
        (Some(x), Some(y)) => Some(if y.t < x.t { y } else { x }),
        (x, y) => x.or(y),
    }
}

/// How far beyond its ends (in units of its length) a ray still crosses a
/// mesh's segment.
const SEAM: f64 = 1e-9;

/// A ray in the frame of a mesh at some pose, in f64: the origin's
/// offset taken there is exact however far out both lie. Made once for
/// all the segments of a mesh a ray is tested against.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct LocalRay {
    origin: DVec2,
    direction: DVec2,
}

impl LocalRay {
    pub(crate) fn new(ray: &Ray<Vec2>, pose: &Pose) -> Self {
        let r = pose.rotation().as_dvec2();
        let unturn = |v: DVec2| DVec2::new(r.x * v.x + r.y * v.y, r.x * v.y - r.y * v.x);
        Self {
            origin: unturn(ray.origin().as_dvec2() - pose.position().as_dvec2()),
            direction: unturn(ray.direction().as_dvec2()),
        }
    }
}

/// A ray (`local` in the mesh's frame) against one segment of a mesh, its
/// ends `points` in that frame, the mesh at `pose`: where the ray crosses
/// it from one side to the other. Closed (and a little more), so that a
/// ray through the corner two segments share crosses the mesh, however
/// each side's rounding falls; a ray along the segment misses. The normal
/// faces the ray.
pub(crate) fn cast_ray_mesh_segment(
    ray: &Ray<Vec2>,
    local: &LocalRay,
    points: &[Vec2; 2],
    pose: &Pose,
) -> Option<RayCast<Vec2>> {
    let (o, d) = (local.origin, local.direction);
    let (a, b) = (points[0].as_dvec2(), points[1].as_dvec2());
    let e = b - a;
    let denominator = d.perp_dot(e);
    if denominator == 0.0 {
        return None;
    }
    // o + t d = a + u e, crossed with e and with d.
    let s = a - o;
    let (t, u) = (s.perp_dot(e) / denominator, s.perp_dot(d) / denominator);
    if !(u > -SEAM && u < 1.0 + SEAM && t >= 0.0 && t <= f64::from(ray.max_t())) {
        return None;
    }
    let n = e.perp().normalize();
    let facing = if n.dot(d) > 0.0 { -n } else { n };
    let t = t as f32;
    Some(RayCast {
        t,
        normal: pose.rotate(facing.as_vec2()),
        point: ray.at(t),
    })
}

/// A ray against a capsule of radius 0, a segment: the cylinder of
/// [`cast_ray_capsule`] has no width, every crossing a graze of it and its
/// normal rounding, so the general cast answers.
#[cold]
fn segment_ray(ray: &Ray<Vec2>, capsule: &Capsule, pose: &Pose) -> Option<RayCast<Vec2>> {
    rays::cast_ray(ray, capsule, pose)
}

/// A ray against any convex shape: the GJK ray cast on its core, with its
/// radius as a margin, settled at the end by a distance query onto the
/// surface (the entry and its normal exact to rounding, however far the
/// ray starts); the closed forms above are faster. A ray along a face or
/// an edge, or tangent, misses, as in the closed forms (the rule:
/// [`RayCast`]); one that grazes the shape (comes within a millionth of
/// the numbers involved) either misses or hits at a point within that of
/// the surface, never beyond it.
///
/// ```
/// use collide::geometry::Ray;
/// use collide::narrow::d2::{Polygon, Pose, cast_ray};
/// use glam::Vec2;
/// let pebble = Polygon::rounded(&[Vec2::new(-1.0, -1.0), Vec2::new(1.0, -1.0), Vec2::new(0.0, 1.0)], 0.5)?;
/// let ray = Ray::new(Vec2::new(0.0, -10.0), Vec2::Y, 20.0).unwrap();
/// let hit = cast_ray(&ray, &pebble, &Pose::IDENTITY).unwrap();
/// assert!((hit.t - 8.5).abs() < 1e-4); // the bottom edge, 0.5 below the core
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn cast_ray(
    ray: &Ray<Vec2>,
    shape: &(impl Support<Vec2> + ?Sized),
    pose: &Pose,
) -> Option<RayCast<Vec2>> {
    rays::cast_ray(ray, shape, pose)
}

/// When shape `a`, moving by `motion_a`, first touches shape `b`, moving by
/// `motion_b` (both straight, without turning, over `t` in `[0, 1]`); see
/// [`ShapeCast`] for the rules at contact. One GJK ray cast on the
/// difference of the shapes' cores, the radii as its margin, settled at
/// the end by a distance query and conservative advancement on it: the
/// shapes then touch to rounding and the normal is the touch's. A gap of
/// a hundred-thousandth of the relative motion or of the smaller shape,
/// whichever is larger (never of the larger, so a large target does not
/// blur the answer), counts as touching at the start and in a graze.
pub fn cast_shape(
    a: &(impl Support<Vec2> + ?Sized),
    pose_a: &Pose,
    motion_a: Vec2,
    b: &(impl Support<Vec2> + ?Sized),
    pose_b: &Pose,
    motion_b: Vec2,
) -> Option<ShapeCast<Vec2>> {
    general::cast_shape(a, pose_a, motion_a, b, pose_b, motion_b)
}

/// The first touch of `mover`, starting at `start` and moving by `motion`
/// while turning by `turn` radians (counter-clockwise) over the same time,
/// against `target` at rest at `target_pose`: the share of the motion done
/// and the contact then, or `None` if it never touches. Unlike
/// [`cast_shape`], it follows the turn, so a blade swung through a post in
/// one tick hits it. Conservative advancement: never past the touch.
/// An error for a non-finite motion or turn, or an end pose out of range.
///
/// ```
/// use collide::narrow::d2::{Cuboid, Pose, cast_shape, cast_turning};
/// use glam::Vec2;
/// let blade = Cuboid::new(Vec2::new(1.0, 0.02))?; // 2 m long, about the origin
/// let post = Cuboid::new(Vec2::splat(0.005))?; // 1 cm thick
/// let post_at = Pose::at(Vec2::new(0.0, 0.8))?; // straight above the pivot
/// let swing = 170f32.to_radians();
/// let hit = cast_turning(&blade, &Pose::IDENTITY, Vec2::ZERO, swing, &post, &post_at)?
///     .expect("the swing passes through the post");
/// assert!((hit.t * swing - 89f32.to_radians()).abs() < 0.02); // about a quarter turn
/// // Both end poses miss it, and a cast that only translates sees nothing.
/// assert!(cast_shape(&blade, &Pose::IDENTITY, Vec2::ZERO, &post, &post_at, Vec2::ZERO).is_none());
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn cast_turning(
    mover: &(impl Support<Vec2> + ?Sized),
    start: &Pose,
    motion: Vec2,
    turn: f32,
    target: &(impl Support<Vec2> + ?Sized),
    target_pose: &Pose,
) -> Result<Option<ShapeCast<Vec2>>, crate::narrow::ShapeError> {
    let (p0, a0) = (start.position(), start.angle());
    Pose::new(p0 + motion, a0 + turn)?;
    let pose_at = |t: f32| Pose::new(p0 + motion * t, a0 + turn * t);
    crate::narrow::turning::cast_turning(mover, pose_at, motion, turn, target, target_pose)
}
