//! Contacts between 2D shapes: closed forms for circles and capsules, SAT
//! for polygons, and GJK/EPA for any two convex shapes.

use super::pose::Pose;
use super::shapes::{Capsule, Circle, Cuboid, Polygon};
use crate::narrow::closed;
use crate::narrow::contact::Contact;
use crate::narrow::general;
use crate::narrow::support::Support;
use glam::Vec2;

/// The contact between any two convex shapes (see [`Contact`]): GJK on
/// their cores for the distance and closest points, EPA when the cores
/// overlap, then the radii. Exact up to rounding for polygons, boxes and
/// capsules; use the closed forms for circles and capsules when speed
/// matters.
///
/// ```
/// use collide::narrow::d2::{Capsule, Cuboid, Pose, contact};
/// use glam::Vec2;
/// let floor = Cuboid::new(Vec2::new(10.0, 1.0))?;
/// let body = Capsule::new(1.0, 0.5)?; // 3 tall
/// let standing = Pose::at(Vec2::new(0.0, 2.4))?; // feet at 0.9: 0.1 into the floor
/// let c = contact(&floor, &Pose::IDENTITY, &body, &standing);
/// assert!((c.depth - 0.1).abs() < 1e-5);
/// assert!((c.normal - Vec2::Y).length() < 1e-5); // push the body up
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn contact(
    a: &(impl Support<Vec2> + ?Sized),
    pose_a: &Pose,
    b: &(impl Support<Vec2> + ?Sized),
    pose_b: &Pose,
) -> Contact<Vec2> {
    general::contact(a, pose_a, b, pose_b)
}

/// The distance between any two convex shapes, 0 when they touch or
/// overlap: GJK alone, cheaper than [`contact`] when overlapping shapes
/// need no depth.
///
/// ```
/// use collide::narrow::d2::{Polygon, Pose, distance};
/// use glam::Vec2;
/// let tri = Polygon::new(&[Vec2::ZERO, Vec2::X, Vec2::Y])?;
/// assert!((distance(&tri, &Pose::IDENTITY, &tri, &Pose::at(Vec2::new(3.0, 0.0))?) - 2.0).abs() < 1e-6);
/// assert_eq!(distance(&tri, &Pose::IDENTITY, &tri, &Pose::IDENTITY), 0.0);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn distance(
    a: &(impl Support<Vec2> + ?Sized),
    pose_a: &Pose,
    b: &(impl Support<Vec2> + ?Sized),
    pose_b: &Pose,
) -> f32 {
    general::distance(a, pose_a, b, pose_b)
}

/// Two circles, in closed form. Coincident centres push along +y.
///
/// See [`Contact`] for an example.
pub fn contact_circle_circle(
    a: &Circle,
    pose_a: &Pose,
    b: &Circle,
    pose_b: &Pose,
) -> Contact<Vec2> {
    closed::ball_ball(a, pose_a, b, pose_b)
}

/// A circle and a capsule, in closed form (the circle against the
/// capsule's nearest core point; a centre on the core, within rounding,
/// goes through EPA: any normal across the core is then as good, and
/// the rounding residue's direction is not one).
///
/// ```
/// use collide::narrow::d2::{Capsule, Circle, Pose, contact_circle_capsule};
/// use glam::Vec2;
/// let ball = Circle::new(0.5)?;
/// let pole = Capsule::new(2.0, 0.25)?;
/// let c = contact_circle_capsule(&ball, &Pose::at(Vec2::new(-1.0, 1.0))?, &pole, &Pose::IDENTITY);
/// assert_eq!((c.normal, c.depth), (Vec2::X, -0.25)); // 0.25 apart
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn contact_circle_capsule(
    a: &Circle,
    pose_a: &Pose,
    b: &Capsule,
    pose_b: &Pose,
) -> Contact<Vec2> {
    closed::ball_capsule(a, pose_a, b, pose_b)
}

/// A circle and a box, in closed form: the centre against the box's
/// nearest point; a centre inside the box, or on it within rounding, goes
/// through EPA.
///
/// ```
/// use collide::narrow::d2::{Cuboid, Pose, Circle, contact_circle_cuboid};
/// use glam::Vec2;
/// let ball = Circle::new(0.5)?;
/// let crate_box = Cuboid::new(Vec2::splat(1.0))?;
/// let c = contact_circle_cuboid(&ball, &Pose::at(Vec2::new(0.0, 1.4))?, &crate_box, &Pose::IDENTITY);
/// assert!((c.depth - 0.1).abs() < 1e-6 && c.normal == -Vec2::Y);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn contact_circle_cuboid(
    a: &Circle,
    pose_a: &Pose,
    b: &Cuboid,
    pose_b: &Pose,
) -> Contact<Vec2> {
    closed::ball_cuboid(a, pose_a, b, pose_b)
}

/// Two capsules, in closed form (the nearest points of their segments);
/// cores that cross or touch, within rounding, go through EPA.
///
/// ```
/// use collide::narrow::d2::{Capsule, Pose, contact_capsule_capsule};
/// use glam::Vec2;
/// let arm = Capsule::new(1.0, 0.25)?;
/// let beside = Pose::at(Vec2::new(0.4, 0.0))?; // parallel, cores 0.4 apart
/// let c = contact_capsule_capsule(&arm, &Pose::IDENTITY, &arm, &beside);
/// assert!((c.depth - 0.1).abs() < 1e-5 && (c.normal - Vec2::X).length() < 1e-5);
/// // Crossed cores: the way out is sideways, 0.6 + 0.5.
/// let crossed = Pose::new(Vec2::new(0.4, 0.0), std::f32::consts::FRAC_PI_2)?;
/// let c = contact_capsule_capsule(&arm, &Pose::IDENTITY, &arm, &crossed);
/// assert!((c.depth - 1.1).abs() < 1e-5 && (c.normal - Vec2::X).length() < 1e-5);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn contact_capsule_capsule(
    a: &Capsule,
    pose_a: &Pose,
    b: &Capsule,
    pose_b: &Pose,
) -> Contact<Vec2> {
    closed::capsule_capsule(a, pose_a, b, pose_b)
}

/// Two convex polygons by the separating axis theorem: every edge normal
/// of both is a candidate axis; on the axis of least overlap, the normal
/// (from A toward B) and depth give the minimum translation vector.
/// `None` when an axis separates them. The witness points are the
/// deepest vertex of the incident polygon and its projection on the
/// reference edge. Radii (rounded polygons) are added to the depth, which
/// then may report corners that are within the radii on every axis but
/// not truly within reach as touching (conservative); use [`contact`] for
/// an exact answer on rounded polygons. A polygon without area (a box of
/// zero width or size, from [`Cuboid::to_polygon`](super::Cuboid::to_polygon))
/// lacks the axes SAT needs (along a flat box, two of them in line are
/// apart with no edge normal to show it): such pairs go through
/// [`contact`].
///
/// ```
/// use collide::narrow::d2::{Cuboid, Pose, contact_polygon_polygon};
/// use glam::Vec2;
/// let crate_box = Cuboid::new(Vec2::ONE)?.to_polygon();
/// let c = contact_polygon_polygon(&crate_box, &Pose::IDENTITY, &crate_box, &Pose::at(Vec2::new(1.5, 0.25))?)
///     .expect("they overlap");
/// assert_eq!((c.normal, c.depth), (Vec2::X, 0.5));
/// assert!(contact_polygon_polygon(&crate_box, &Pose::IDENTITY, &crate_box, &Pose::at(Vec2::new(3.0, 0.0))?).is_none());
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn contact_polygon_polygon(
    a: &Polygon,
    pose_a: &Pose,
    b: &Polygon,
    pose_b: &Pose,
) -> Option<Contact<Vec2>> {
    if a.is_flat() || b.is_flat() {
        let c = contact(a, pose_a, b, pose_b);
        return (c.depth >= 0.0).then_some(c);
    }
    let world = |p: &Polygon, pose: &Pose| -> ([Vec2; Polygon::MAX_VERTICES], usize) {
        let mut out = [Vec2::ZERO; Polygon::MAX_VERTICES];
        for (o, &v) in out.iter_mut().zip(p.vertices()) {
            *o = pose.apply(v);
        }
        (out, p.vertices().len())
    };
    let (va, na) = world(a, pose_a);
    let (vb, nb) = world(b, pose_b);
    let (va, vb) = (&va[..na], &vb[..nb]);
    let radii = a.radius + b.radius;
    // The largest separation of `inc` from `reference`'s faces: (distance,
    // face normal, deepest vertex of `inc`).
    let best_axis = |reference: &[Vec2], normals: &[Vec2], pose: &Pose, inc: &[Vec2]| {
        let mut best = (f32::NEG_INFINITY, Vec2::ZERO, Vec2::ZERO);
        for (i, &n) in normals.iter().enumerate() {
            let n = pose.rotate(n);
            let (mut deepest, mut sep) = (inc[0], f32::INFINITY);
            for &v in inc {
                let s = n.dot(v - reference[i]);
                if s < sep {
                    (deepest, sep) = (v, s);
                }
            }
            if sep > best.0 {
                best = (sep, n, deepest);
            }
        }
        best
    };
    let (sep_a, n_a, deep_b) = best_axis(va, a.normals(), pose_a, vb);
    let (sep_b, n_b, deep_a) = best_axis(vb, b.normals(), pose_b, va);
    if sep_a - radii > 0.0 || sep_b - radii > 0.0 {
        return None;
    }
    // The axis of least overlap; A's face on a tie.
    let contact = if sep_a >= sep_b {
        let depth = -sep_a;
        Contact {
            normal: n_a,
            depth: depth + radii,
            point_a: deep_b + n_a * (depth + a.radius),
            point_b: deep_b - n_a * b.radius,
        }
    } else {
        let (depth, normal) = (-sep_b, -n_b);
        Contact {
            normal,
            depth: depth + radii,
            point_a: deep_a + normal * a.radius,
            point_b: deep_a - normal * (depth + b.radius),
        }
    };
    Some(contact)
}
