//! A sphere or a capsule against a [`Triangle`], in closed form: the
//! pairs a character or a ball on a triangle mesh asks for most. Each
//! reduces to two balls around the nearest points of the cores (the
//! sphere's centre or the capsule's segment, and the triangle), in f64
//! relative to the round shape's position, as the other closed forms do.
//! Cores that meet within rounding (a centre on the triangle, a segment
//! through it) go to the general contact (EPA).

use super::pose::Pose;
use super::shapes::{Capsule, Sphere};
use super::triangle::Triangle;
use crate::narrow::closed::{balls, closest_between_segments, meeting, placed};
use crate::narrow::contact::Contact;
use crate::narrow::general;
use glam::DVec3;

/// A sphere and a triangle, in closed form: the centre against the
/// triangle's nearest point; a centre on the triangle within rounding
/// goes through EPA.
///
/// ```
/// use collide::narrow::d3::{Pose, Sphere, Triangle, contact_sphere_triangle};
/// use glam::Vec3;
/// let ball = Sphere::new(0.5)?;
/// let ground = Triangle::new(Vec3::ZERO, Vec3::new(0.0, 0.0, 4.0), Vec3::new(4.0, 0.0, 0.0))?;
/// let c = contact_sphere_triangle(&ball, &Pose::at(Vec3::new(1.0, 0.4, 1.0))?, &ground, &Pose::IDENTITY);
/// assert!((c.depth - 0.1).abs() < 1e-6 && c.normal == -Vec3::Y);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn contact_sphere_triangle(
    a: &Sphere,
    pose_a: &Pose,
    b: &Triangle,
    pose_b: &Pose,
) -> Contact<glam::Vec3> {
    let origin = pose_a.position().as_dvec3();
    let corners = b.points().map(|p| placed(pose_b, p, origin));
    let centre = DVec3::ZERO;
    let nearest = nearest_on_triangle(centre, &corners);
    if meeting(centre, nearest, &corners) {
        return general::contact(a, pose_a, b, pose_b);
    }
    balls(origin, centre, a.radius, nearest, 0.0)
}

/// A capsule and a triangle, in closed form: the nearest points of the
/// capsule's segment and the triangle; a segment that meets the triangle
/// within rounding goes through EPA.
///
/// ```
/// use collide::narrow::d3::{Capsule, Pose, Triangle, contact_capsule_triangle};
/// use glam::Vec3;
/// let body = Capsule::new(0.5, 0.3)?; // upright, 1.6 tall
/// let ground = Triangle::new(Vec3::ZERO, Vec3::new(0.0, 0.0, 4.0), Vec3::new(4.0, 0.0, 0.0))?;
/// let c = contact_capsule_triangle(&body, &Pose::at(Vec3::new(1.0, 0.7, 1.0))?, &ground, &Pose::IDENTITY);
/// assert!((c.depth - 0.1).abs() < 1e-6 && c.normal == -Vec3::Y);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn contact_capsule_triangle(
    a: &Capsule,
    pose_a: &Pose,
    b: &Triangle,
    pose_b: &Pose,
) -> Contact<glam::Vec3> {
    let origin = pose_a.position().as_dvec3();
    let (p, q) = (placed(pose_a, a.a, origin), placed(pose_a, a.b, origin));
    let corners = b.points().map(|c| placed(pose_b, c, origin));
    let (on_segment, on_triangle) = nearest_segment_triangle(p, q, &corners);
    let [c0, c1, c2] = corners;
    if meeting(on_segment, on_triangle, &[p, q, c0, c1, c2]) {
        return general::contact(a, pose_a, b, pose_b);
    }
    balls(origin, on_segment, a.radius, on_triangle, 0.0)
}

/// The point of the triangle `[a, b, c]` nearest `p` (Ericson, Real-Time
/// Collision Detection 5.1.5: which corner, edge or the face holds it).
pub(crate) fn nearest_on_triangle(p: DVec3, [a, b, c]: &[DVec3; 3]) -> DVec3 {
    let (ab, ac, ap) = (*b - *a, *c - *a, p - *a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return *a;
    }
    let bp = p - *b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return *b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return *a + ab * (d1 / (d1 - d3));
    }
    let cp = p - *c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return *c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return *a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        return *b + (*c - *b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denominator = 1.0 / (va + vb + vc);
    *a + ab * (vb * denominator) + ac * (vc * denominator)
}

/// The nearest points of the segment `[p, q]` and the triangle: where the
/// segment crosses the triangle, that point twice; else the nearest of
/// its ends against the triangle and of it against each edge (one of
/// these holds the nearest pair when they do not meet).
fn nearest_segment_triangle(p: DVec3, q: DVec3, corners: &[DVec3; 3]) -> (DVec3, DVec3) {
    let [a, b, c] = *corners;
    let normal = (b - a).cross(c - a);
    let (sp, sq) = (normal.dot(p - a), normal.dot(q - a));
    if sp * sq <= 0.0 && sp != sq {
        let x = p + (q - p) * (sp / (sp - sq));
        if inside(x, corners, normal) {
            return (x, x);
        }
    }
    let mut best = (p, nearest_on_triangle(p, corners));
    let mut best_sq = (best.1 - best.0).length_squared();
    let mut consider = |pair: (DVec3, DVec3)| {
        let d = (pair.1 - pair.0).length_squared();
        if d < best_sq {
            (best, best_sq) = (pair, d);
        }
    };
    consider((q, nearest_on_triangle(q, corners)));
    for (e0, e1) in [(a, b), (b, c), (c, a)] {
        consider(closest_between_segments(p, q, e0, e1));
    }
    best
}

/// Whether `x`, in the triangle's plane, lies inside it or on its edges
/// (each edge sees it on the inner side of `normal`). Rounding may put a
/// point on an edge either way: outside, the edges' nearest points find
/// it within rounding, and EPA answers all the same.
fn inside(x: DVec3, [a, b, c]: &[DVec3; 3], normal: DVec3) -> bool {
    [(*a, *b), (*b, *c), (*c, *a)]
        .iter()
        .all(|&(e0, e1)| (e1 - e0).cross(x - e0).dot(normal) >= 0.0)
}
