//! Contacts between 3D shapes: closed forms for spheres and capsules, SAT
//! with 15 axes for boxes, and GJK/EPA for any two convex shapes.

use super::pose::Pose;
use super::shapes::{Capsule, Cuboid, Sphere};
use crate::narrow::closed::{self, closest_between_segments};
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
    closed::ball_ball(a, pose_a, b, pose_b)
}

/// A sphere and a capsule, in closed form (the sphere against the
/// capsule's nearest core point; a centre on the core, within rounding,
/// goes through EPA: any normal across the core is then as good, and the
/// rounding residue's direction is not one).
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
    closed::ball_capsule(a, pose_a, b, pose_b)
}

/// A sphere and a box, in closed form: the centre against the box's
/// nearest point; a centre inside the box, or on it within rounding, goes
/// through EPA.
///
/// ```
/// use collide::narrow::d3::{Cuboid, Pose, Sphere, contact_sphere_cuboid};
/// use glam::Vec3;
/// let ball = Sphere::new(0.5)?;
/// let crate_box = Cuboid::new(Vec3::splat(1.0))?;
/// let c = contact_sphere_cuboid(&ball, &Pose::at(Vec3::new(0.0, 1.4, 0.0))?, &crate_box, &Pose::IDENTITY);
/// assert!((c.depth - 0.1).abs() < 1e-6 && c.normal == -Vec3::Y);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn contact_sphere_cuboid(
    a: &Sphere,
    pose_a: &Pose,
    b: &Cuboid,
    pose_b: &Pose,
) -> Contact<Vec3> {
    closed::ball_cuboid(a, pose_a, b, pose_b)
}

/// Two capsules, in closed form (the nearest points of their segments);
/// segments that meet, within rounding, go through EPA.
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
    closed::capsule_capsule(a, pose_a, b, pose_b)
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
    // Each box's axes in world coordinates: its rotation matrix's columns.
    let axes = |pose: &Pose| {
        let m = glam::Mat3::from_quat(pose.rotation);
        [m.x_axis, m.y_axis, m.z_axis].map(|u| u.as_dvec3())
    };
    let (ua, ub) = (axes(pose_a), axes(pose_b));
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
            let (pa, pb) = closest_between_segments(
                a0.as_dvec3(),
                a1.as_dvec3(),
                b0.as_dvec3(),
                b1.as_dvec3(),
            );
            (pa.as_vec3(), pb.as_vec3())
        }
    };
    Some(Contact {
        normal: n,
        depth,
        point_a,
        point_b,
    })
}
