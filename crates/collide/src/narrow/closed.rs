//! The closed forms of the round pairs, written once for 2D and 3D: two
//! balls (circles, spheres), a ball and a capsule, two capsules, a ball
//! and a box. Each reduces to two balls around the nearest points of the
//! cores (a point, a segment, or the box's point nearest the centre).
//!
//! They work in f64 relative to the first shape's position, where the f32
//! inputs are exact, so a small gap far from the world's origin keeps its
//! digits. Cores that meet within rounding go to the general contact
//! (EPA): the direction between two nearest points a hair apart is
//! rounding, not a normal (a centre exactly on a turned capsule's axis
//! got one nearly along the axis).

use super::contact::Contact;
use super::dim::Dim;
use super::general;
use super::placement::Placement;
use super::point::{Point, TRUSTED_GAP, Wide, from_p, to_p, unit};
use super::shapes::{Ball, Capsule, Cuboid};

/// Two balls, in closed form. Coincident centres push along +y.
pub(crate) fn ball_ball<L: Placement>(
    a: &Ball<L::V>,
    pose_a: &L,
    b: &Ball<L::V>,
    pose_b: &L,
) -> Contact<L::V> {
    let origin = pose_a.position_wide();
    let between = pose_b.position_wide() - origin;
    balls::<L::V>(origin, Point::ZERO, a.radius, between, b.radius)
}

/// A ball and a capsule: the ball against the capsule's nearest core
/// point, or EPA for a centre on the core.
pub(crate) fn ball_capsule<L: Placement>(
    a: &Ball<L::V>,
    pose_a: &L,
    b: &Capsule<L::V>,
    pose_b: &L,
) -> Contact<L::V> {
    let origin = pose_a.position_wide();
    let (b0, b1) = (placed(pose_b, b.a, origin), placed(pose_b, b.b, origin));
    let centre = <Wide<L::V> as Point>::ZERO;
    let (_, nearest) = closest_between_segments(centre, centre, b0, b1);
    if meeting(centre, nearest, &[b0, b1]) {
        return general::contact(a, pose_a, b, pose_b);
    }
    balls::<L::V>(origin, centre, a.radius, nearest, b.radius)
}

/// A ball and a box: the ball's centre against the nearest point of the
/// box (the centre clamped to the box in its frame, in f64), or the
/// general contact for a centre inside the box or on it within rounding.
pub(crate) fn ball_cuboid<L: Placement>(
    a: &Ball<L::V>,
    pose_a: &L,
    b: &Cuboid<L::V>,
    pose_b: &L,
) -> Contact<L::V> {
    let origin = pose_a.position_wide();
    let offset = pose_b.position_wide() - origin;
    // The centre in the box's frame.
    let local = pose_b.unrotate_wide(offset * (-1.0));
    let h = to_p(b.half_extents);
    let clamped = <Wide<L::V> as Point>::from_axes(|k| local.axis(k).clamp(-h.axis(k), h.axis(k)));
    // Judged in the box's frame: turning there and back is not exact.
    let gap = clamped - local;
    let centre = <Wide<L::V> as Point>::ZERO;
    if meeting(centre, gap, &[local, h]) {
        return general::contact(a, pose_a, b, pose_b);
    }
    let nearest = pose_b.rotate_wide(gap);
    balls::<L::V>(origin, centre, a.radius, nearest, 0.0)
}

/// Two capsules: the nearest points of their segments, or EPA for
/// segments that meet (cross, touch, or lie in line).
pub(crate) fn capsule_capsule<L: Placement>(
    a: &Capsule<L::V>,
    pose_a: &L,
    b: &Capsule<L::V>,
    pose_b: &L,
) -> Contact<L::V> {
    let origin = pose_a.position_wide();
    let (a0, a1) = (placed(pose_a, a.a, origin), placed(pose_a, a.b, origin));
    let (b0, b1) = (placed(pose_b, b.a, origin), placed(pose_b, b.b, origin));
    let (pa, pb) = closest_between_segments(a0, a1, b0, b1);
    if meeting(pa, pb, &[a0, a1, b0, b1]) {
        return general::contact(a, pose_a, b, pose_b);
    }
    balls::<L::V>(origin, pa, a.radius, pb, b.radius)
}

/// `local` placed by `pose`, in f64 relative to `origin`.
pub(crate) fn placed<L: Placement>(pose: &L, local: L::V, origin: Wide<L::V>) -> Wide<L::V> {
    (pose.position_wide() - origin) + pose.rotate_wide(to_p(local))
}

/// The contact of two balls (centres and radii, the centres in f64
/// relative to `origin`). Coincident centres push along +y.
pub(crate) fn balls<V: Dim>(
    origin: Wide<V>,
    ca: Wide<V>,
    ra: f32,
    cb: Wide<V>,
    rb: f32,
) -> Contact<V> {
    let (ra, rb) = (f64::from(ra), f64::from(rb));
    let between = cb - ca;
    let d = between.dot(between).sqrt();
    let normal = if d > 0.0 {
        between * (1.0 / d)
    } else {
        unit(1)
    };
    Contact {
        normal: from_p(normal),
        depth: (ra + rb - d) as f32,
        point_a: from_p(origin + ca + normal * ra),
        point_b: from_p(origin + cb - normal * rb),
    }
}

/// Whether two core points are one within rounding ([`TRUSTED_GAP`] of
/// the coordinates involved).
pub(crate) fn meeting<P: Point>(p: P, q: P, points: &[P]) -> bool {
    let scale = points.iter().fold(0.0f64, |m, x| {
        (0..P::DIM).fold(m, |m, k| m.max(x.axis(k).abs()))
    });
    let d = q - p;
    d.dot(d).sqrt() <= TRUSTED_GAP * scale
}

/// The nearest points of segments `[p1, q1]` and `[p2, q2]` (Ericson,
/// Real-Time Collision Detection 5.1.9), in f64, in 2D or 3D. Segments
/// that cross (2D) or touch give one point twice.
pub(crate) fn closest_between_segments<P: Point>(p1: P, q1: P, p2: P, q2: P) -> (P, P) {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.dot(d1), d2.dot(d2), d2.dot(r));
    let (s, t) = if a == 0.0 && e == 0.0 {
        (0.0, 0.0)
    } else if a == 0.0 {
        (0.0, (f / e).clamp(0.0, 1.0))
    } else {
        let c = d1.dot(r);
        if e == 0.0 {
            ((-c / a).clamp(0.0, 1.0), 0.0)
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let mut s = if denom > 0.0 {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut t = (b * s + f) / e;
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
    (p1 + d1 * s, p2 + d2 * t)
}
