//! Contacts between 3D shapes: closed forms for spheres and capsules, SAT
//! with 15 axes for boxes, and GJK/EPA for any two convex shapes.

use super::pose::Pose;
use super::shapes::{Capsule, Cuboid, Sphere};
use crate::narrow::contact::Contact;
use crate::narrow::general;
use crate::narrow::support::Support;
use glam::Vec3;

/// The contact between any two convex shapes (see [`Contact`]): GJK on
/// their cores for the distance and closest points, EPA when the cores
/// overlap, then the radii.
///
/// ```
/// use collide::narrow::d3::{Capsule, Cuboid, Pose, contact};
/// use glam::Vec3;
/// let floor = Cuboid::new(Vec3::new(10.0, 1.0, 10.0))?;
/// let body = Capsule::new(0.9, 0.3)?; // 2.4 tall
/// let standing = Pose::at(Vec3::new(0.0, 2.1, 0.0))?; // feet at 0.9: 0.1 into the floor
/// let c = contact(&floor, &Pose::IDENTITY, &body, &standing);
/// assert!((c.depth - 0.1).abs() < 1e-5 && (c.normal - Vec3::Y).length() < 1e-5);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn contact(
    a: &(impl Support<Vec3> + ?Sized),
    pose_a: &Pose,
    b: &(impl Support<Vec3> + ?Sized),
    pose_b: &Pose,
) -> Contact<Vec3> {
    general::contact(a, pose_a, b, pose_b)
}

/// The distance between any two convex shapes, 0 when they touch or
/// overlap: GJK alone, cheaper than [`contact`] when overlapping shapes
/// need no depth.
///
/// ```
/// use collide::narrow::d3::{Polyhedron, Pose, distance};
/// use glam::Vec3;
/// let tri = Polyhedron::new(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z])?;
/// assert!((distance(&tri, &Pose::IDENTITY, &tri, &Pose::at(Vec3::new(3.0, 0.0, 0.0))?) - 2.0).abs() < 1e-6);
/// assert_eq!(distance(&tri, &Pose::IDENTITY, &tri, &Pose::IDENTITY), 0.0);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn distance(
    a: &(impl Support<Vec3> + ?Sized),
    pose_a: &Pose,
    b: &(impl Support<Vec3> + ?Sized),
    pose_b: &Pose,
) -> f32 {
    general::distance(a, pose_a, b, pose_b)
}

/// Two spheres, in closed form. Coincident centres push along +y.
///
/// ```
/// use collide::narrow::d3::{Pose, Sphere, contact_sphere_sphere};
/// use glam::Vec3;
/// let ball = Sphere::new(1.0)?;
/// let c = contact_sphere_sphere(&ball, &Pose::IDENTITY, &ball, &Pose::at(Vec3::new(0.0, 0.0, 1.5))?);
/// assert_eq!((c.normal, c.depth), (Vec3::Z, 0.5));
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn contact_sphere_sphere(
    a: &Sphere,
    pose_a: &Pose,
    b: &Sphere,
    pose_b: &Pose,
) -> Contact<Vec3> {
    balls(pose_a.position, a.radius, pose_b.position, b.radius)
}

/// A sphere and a capsule, in closed form (the sphere against the
/// capsule's nearest core point; a centre on the core goes through EPA).
///
/// ```
/// use collide::narrow::d3::{Capsule, Pose, Sphere, contact_sphere_capsule};
/// use glam::Vec3;
/// let ball = Sphere::new(0.5)?;
/// let pole = Capsule::new(2.0, 0.25)?;
/// let c = contact_sphere_capsule(&ball, &Pose::at(Vec3::new(0.0, 1.0, -1.0))?, &pole, &Pose::IDENTITY);
/// assert_eq!((c.normal, c.depth), (Vec3::Z, -0.25)); // 0.25 apart
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn contact_sphere_capsule(
    a: &Sphere,
    pose_a: &Pose,
    b: &Capsule,
    pose_b: &Pose,
) -> Contact<Vec3> {
    let (b0, b1) = (pose_b.apply(b.a), pose_b.apply(b.b));
    let c = pose_a.position;
    let (_, nearest) = closest_between_segments(c, c, b0, b1);
    if nearest == c {
        // The centre on the segment: the way out is across it.
        return contact(a, pose_a, b, pose_b);
    }
    balls(c, a.radius, nearest, b.radius)
}

/// Two capsules, in closed form (the nearest points of their segments);
/// segments that meet go through EPA.
///
/// ```
/// use collide::narrow::d3::{Capsule, Pose, contact_capsule_capsule};
/// use glam::{Quat, Vec3};
/// let bar = Capsule::new(1.0, 0.25)?;
/// // One upright, one lying along x, 0.4 in front of it: cores 0.4 apart.
/// let lying = Pose::new(Vec3::new(0.0, 0.0, 0.4), Quat::from_rotation_z(std::f32::consts::FRAC_PI_2))?;
/// let c = contact_capsule_capsule(&bar, &Pose::IDENTITY, &bar, &lying);
/// assert!((c.depth - 0.1).abs() < 1e-5 && (c.normal - Vec3::Z).length() < 1e-5);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn contact_capsule_capsule(
    a: &Capsule,
    pose_a: &Pose,
    b: &Capsule,
    pose_b: &Pose,
) -> Contact<Vec3> {
    let (a0, a1) = (pose_a.apply(a.a), pose_a.apply(a.b));
    let (b0, b1) = (pose_b.apply(b.a), pose_b.apply(b.b));
    let (pa, pb) = closest_between_segments(a0, a1, b0, b1);
    let scale = [a0, a1, b0, b1]
        .iter()
        .fold(0.0f32, |m, p| m.max(p.abs().max_element()));
    if (pb - pa).length() <= 1e-6 * scale.max(1.0) {
        // The cores meet: how deep is EPA's question.
        return contact(a, pose_a, b, pose_b);
    }
    balls(pa, a.radius, pb, b.radius)
}

/// The contact of two balls (centres and radii), which the sphere and
/// capsule pairs reduce to. Coincident centres push along +y.
fn balls(ca: Vec3, ra: f32, cb: Vec3, rb: f32) -> Contact<Vec3> {
    let between = cb - ca;
    let d = between.length();
    let normal = if d > 0.0 { between / d } else { Vec3::Y };
    Contact {
        normal,
        depth: ra + rb - d,
        point_a: ca + normal * ra,
        point_b: cb - normal * rb,
    }
}

/// The nearest points of segments `[p1, q1]` and `[p2, q2]` (Ericson,
/// Real-Time Collision Detection 5.1.9), in f64.
pub(crate) fn closest_between_segments(p1: Vec3, q1: Vec3, p2: Vec3, q2: Vec3) -> (Vec3, Vec3) {
    let f = |v: Vec3| v.as_dvec3();
    let (p1, q1, p2, q2) = (f(p1), f(q1), f(p2), f(q2));
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, ff) = (d1.length_squared(), d2.length_squared(), d2.dot(r));
    let (s, t) = if a == 0.0 && e == 0.0 {
        (0.0, 0.0)
    } else if a == 0.0 {
        (0.0, (ff / e).clamp(0.0, 1.0))
    } else {
        let c = d1.dot(r);
        if e == 0.0 {
            ((-c / a).clamp(0.0, 1.0), 0.0)
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let mut s = if denom > 0.0 {
                ((b * ff - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut t = (b * s + ff) / e;
            if t < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            }
            (s, t)
        }
    };
    ((p1 + d1 * s).as_vec3(), (p2 + d2 * t).as_vec3())
}

/// Two boxes by the separating axis theorem: the 3 face normals of each
/// and the 9 cross products of their edge directions (those of nearly
/// parallel edges skipped: their cross product has no reliable direction,
/// and a face axis covers them). On the axis of least overlap, the normal
/// (from A toward B) and depth give the minimum translation vector.
/// `None` when an axis separates them. Witness points: for a face axis, the
/// other box's deepest corner and its projection on the face; for an edge
/// axis, the nearest points of the two edges.
///
/// ```
/// use collide::narrow::d3::{Cuboid, Pose, contact_cuboid_cuboid};
/// use glam::Vec3;
/// let crate_box = Cuboid::new(Vec3::ONE)?;
/// let c = contact_cuboid_cuboid(&crate_box, &Pose::IDENTITY, &crate_box, &Pose::at(Vec3::new(0.2, 1.5, 0.0))?)
///     .expect("they overlap");
/// assert_eq!((c.normal, c.depth), (Vec3::Y, 0.5));
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn contact_cuboid_cuboid(
    a: &Cuboid,
    pose_a: &Pose,
    b: &Cuboid,
    pose_b: &Pose,
) -> Option<Contact<Vec3>> {
    let ua = [Vec3::X, Vec3::Y, Vec3::Z].map(|u| pose_a.rotate(u).as_dvec3());
    let ub = [Vec3::X, Vec3::Y, Vec3::Z].map(|u| pose_b.rotate(u).as_dvec3());
    let (ha, hb) = (a.half_extents.as_dvec3(), b.half_extents.as_dvec3());
    let d = (pose_b.position - pose_a.position).as_dvec3();
    // (overlap, unit axis toward B, which axis: 0-2 A's faces, 3-5 B's,
    // 6.. edge pairs i * 3 + j)
    let mut best: Option<(f64, glam::DVec3, usize)> = None;
    let mut test = |axis: glam::DVec3, which: usize| -> bool {
        let ra = ha.x * ua[0].dot(axis).abs()
            + ha.y * ua[1].dot(axis).abs()
            + ha.z * ua[2].dot(axis).abs();
        let rb = hb.x * ub[0].dot(axis).abs()
            + hb.y * ub[1].dot(axis).abs()
            + hb.z * ub[2].dot(axis).abs();
        let along = d.dot(axis);
        let overlap = ra + rb - along.abs();
        if overlap < 0.0 {
            return false;
        }
        let toward = if along < 0.0 { -axis } else { axis };
        if best.is_none_or(|(o, _, _)| overlap < o) {
            best = Some((overlap, toward, which));
        }
        true
    };
    for i in 0..3 {
        if !test(ua[i], i) || !test(ub[i], 3 + i) {
            return None;
        }
    }
    for (i, ea) in ua.iter().enumerate() {
        for (j, eb) in ub.iter().enumerate() {
            let axis = ea.cross(*eb);
            let len = axis.length();
            if len > 1e-6 && !test(axis / len, 6 + i * 3 + j) {
                return None;
            }
        }
    }
    let (depth, normal, which) = best?;
    let n = normal.as_vec3();
    let depth = depth as f32;
    let (point_a, point_b) = match which {
        0..=2 => {
            let deepest = pose_b.apply(b.support(pose_b.unrotate(-n)));
            (deepest + n * depth, deepest)
        }
        3..=5 => {
            let deepest = pose_a.apply(a.support(pose_a.unrotate(n)));
            (deepest, deepest - n * depth)
        }
        _ => {
            let (i, j) = ((which - 6) / 3, (which - 6) % 3);
            let edge = |cuboid: &Cuboid, pose: &Pose, toward: Vec3, axis: usize| {
                let corner = cuboid.support(pose.unrotate(toward));
                let mut other = corner;
                other[axis] = -corner[axis];
                (pose.apply(corner), pose.apply(other))
            };
            let (a0, a1) = edge(a, pose_a, n, i);
            let (b0, b1) = edge(b, pose_b, -n, j);
            closest_between_segments(a0, a1, b0, b1)
        }
    };
    Some(Contact {
        normal: n,
        depth,
        point_a,
        point_b,
    })
}
