//! A ragdoll's contacts: each part's capsule pushed out of the world's
//! shapes (found through the broad phase), with friction, and parts that
//! are not joined pushed apart from each other.

use super::skeleton::Skeleton;
use crate::{D3, Dim, Surroundings};
use collide::glam::Vec3;
use collide::narrow::d3::Pose;
use collide::narrow::{Capsule, Support};
use collide::{Aabb3, Handle};
use std::ops::ControlFlow;

/// The closest points of segments `a0 a1` and `b0 b1`, as the share along
/// each.
fn closest_shares(a0: Vec3, a1: Vec3, b0: Vec3, b1: Vec3) -> (f32, f32) {
    let (d1, d2, r) = (a1 - a0, b1 - b0, a0 - b0);
    let (a, e, f) = (d1.dot(d1), d2.dot(d2), d2.dot(r));
    if a <= 1e-12 && e <= 1e-12 {
        return (0.0, 0.0);
    }
    if a <= 1e-12 {
        return (0.0, (f / e).clamp(0.0, 1.0));
    }
    let c = d1.dot(r);
    if e <= 1e-12 {
        return ((-c / a).clamp(0.0, 1.0), 0.0);
    }
    let b = d1.dot(d2);
    let denom = a * e - b * b;
    let mut s = if denom > 1e-12 {
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

/// Pushes apart every two parts that are not joined and overlap, each
/// part's ends moved by their share of the contact and their inverse
/// mass.
pub(crate) fn separate_parts(skeleton: &Skeleton, p: &mut [Vec3], inverse_mass: &[f32]) {
    let parts = &skeleton.parts;
    for &(i, j) in &skeleton.contact_pairs {
        let ((a0, a1, ra), (b0, b1, rb)) = (parts[i], parts[j]);
        let (s, t) = closest_shares(p[a0], p[a1], p[b0], p[b1]);
        let pa = p[a0].lerp(p[a1], s);
        let pb = p[b0].lerp(p[b1], t);
        let gap = pa.distance(pb);
        let overlap = ra + rb - gap;
        if overlap <= 0.0 || gap <= 1e-9 {
            continue;
        }
        let n = (pb - pa) / gap;
        // Each part's contact point moves by its share of the overlap
        // (by inverse mass), spread over its two ends.
        let wa = (1.0 - s) * inverse_mass[a0] + s * inverse_mass[a1];
        let wb = (1.0 - t) * inverse_mass[b0] + t * inverse_mass[b1];
        if wa + wb <= 0.0 {
            continue;
        }
        let spread = |u: f32| (1.0 - u) * (1.0 - u) + u * u;
        let da = n * (-overlap * wa / (wa + wb) / spread(s));
        let db = n * (overlap * wb / (wa + wb) / spread(t));
        p[a0] += da * (1.0 - s);
        p[a1] += da * s;
        p[b0] += db * (1.0 - t);
        p[b1] += db * t;
    }
}

/// The box around the particles, grown by `margin`.
pub(crate) fn bounds(p: &[Vec3], margin: f32) -> Option<Aabb3> {
    let (mut lo, mut hi) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for &x in p {
        lo = lo.min(x);
        hi = hi.max(x);
    }
    Aabb3::new(lo - margin, hi + margin).ok()
}

/// Fills `out` with the objects whose boxes overlap `area`, in handle
/// order.
pub(crate) fn candidates(around: &Surroundings<'_, D3>, area: &Aabb3, out: &mut Vec<Handle>) {
    out.clear();
    let _ = around.level.query_aabb(area, &mut |h| {
        out.push(h);
        ControlFlow::Continue(())
    });
    out.sort_unstable();
}

/// How close (m) a part counts as touching a surface for friction and
/// for losing its speed into it, though not pushed.
const TOUCH: f32 = 0.003;

/// Where a particle touches the world this tick: the sum of the normals
/// it touched along, and how far it was pushed.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Touch {
    pub(crate) normal: Vec3,
    pub(crate) pushed: f32,
}

/// Pushes each part's capsule out of the `near` objects; each particle's
/// touches are summed into `touches` (parts within a few millimetres
/// count as touching without a push).
pub(crate) fn push_out_of_world(
    skeleton: &Skeleton,
    p: &mut [Vec3],
    inverse_mass: &[f32],
    around: &Surroundings<'_, D3>,
    near: &[Handle],
    start: Option<&[Vec3]>,
    touches: &mut [Touch],
) {
    for &(a, b, radius) in &skeleton.parts {
        for &h in near {
            let Some(area) = part_box(p[a], p[b], radius + TOUCH) else {
                continue;
            };
            around.level.pieces(h, &area, &mut |_, shape, pose| {
                push_part_out(
                    p,
                    inverse_mass,
                    (a, b, radius),
                    shape,
                    &pose,
                    start,
                    touches,
                );
            });
        }
    }
}

/// Pushes the part from particle `a` to `b` of `radius` out of one piece
/// (`shape` at `pose`) of an object, as [`push_out_of_world`] says.
fn push_part_out(
    p: &mut [Vec3],
    inverse_mass: &[f32],
    (a, b, radius): (usize, usize, f32),
    shape: &dyn Support<Vec3>,
    pose: &Pose,
    start: Option<&[Vec3]>,
    touches: &mut [Touch],
) {
    let centre = 0.5 * (p[a] + p[b]);
    let Ok(capsule) = Capsule::between(p[a] - centre, p[b] - centre, radius) else {
        return;
    };
    let (depth, out) = D3::overlap(&capsule, centre, shape, pose);
    if depth <= -TOUCH || !out.is_finite() {
        return;
    }
    // In so deep its core is inside: the shortest way out may be the far
    // side (through a step, through the floor). Back to where the step
    // began, outside.
    let outside_at_start = |start: &[Vec3]| {
        let c = 0.5 * (start[a] + start[b]);
        Capsule::between(start[a] - c, start[b] - c, radius)
            .is_ok_and(|cap| D3::overlap(&cap, c, shape, pose).0 <= radius)
    };
    if let Some(start) = start.filter(|s| depth > radius && outside_at_start(s)) {
        for k in [a, b] {
            if inverse_mass[k] > 0.0 {
                p[k] = start[k];
                touches[k].normal += out;
                touches[k].pushed += radius;
            }
        }
        return;
    }
    // Each end as deep as it reaches: the deeper end by the whole depth,
    // the other less by how much higher it stands along the normal (a part
    // poking in at one end is pushed at that end).
    let (ha, hb) = (p[a].dot(out), p[b].dot(out));
    let low = ha.min(hb);
    for (k, h) in [(a, ha), (b, hb)] {
        let own = depth - (h - low);
        if inverse_mass[k] > 0.0 && own > -TOUCH {
            let push = own.max(0.0);
            p[k] += out * push;
            touches[k].normal += out;
            touches[k].pushed += push;
        }
    }
}

/// The box around the part from `a` to `b`, grown by `reach`.
fn part_box(a: Vec3, b: Vec3, reach: f32) -> Option<Aabb3> {
    Aabb3::new(a.min(b) - Vec3::splat(reach), a.max(b) + Vec3::splat(reach)).ok()
}

/// Friction and no bouncing where particles were pushed: the motion
/// across the surface goes (being pushed out is no reason to fly off);
/// along it, a slide shorter than `friction` times the push sticks
/// (static friction), a longer one loses `friction` (0 to 1) of itself.
pub(crate) fn rub(p: &[Vec3], previous: &mut [Vec3], touches: &[Touch], friction: f32) {
    for k in 0..p.len() {
        let Some(n) = touches[k].normal.try_normalize() else {
            continue;
        };
        let v = p[k] - previous[k];
        let along = v - n * v.dot(n);
        let keep = if along.length() <= friction * touches[k].pushed.max(TOUCH) {
            Vec3::ZERO
        } else {
            along * (1.0 - friction)
        };
        previous[k] = p[k] - keep;
    }
}

/// How deep a part's core (its segment) reaches into a nearby object:
/// the deepest such reach beyond the part's radius over every part, with
/// the way out; `None` when no core is inside anything.
pub(crate) fn deepest_core(
    skeleton: &Skeleton,
    p: &[Vec3],
    around: &Surroundings<'_, D3>,
    near: &[Handle],
) -> Option<(f32, Vec3)> {
    let mut deepest: Option<(f32, Vec3)> = None;
    for &(a, b, radius) in &skeleton.parts {
        let centre = 0.5 * (p[a] + p[b]);
        let Ok(capsule) = Capsule::between(p[a] - centre, p[b] - centre, radius) else {
            continue;
        };
        let Some(area) = part_box(p[a], p[b], radius) else {
            continue;
        };
        for &h in near {
            around.level.pieces(h, &area, &mut |_, shape, pose| {
                let (depth, out) = D3::overlap(&capsule, centre, shape, &pose);
                let core = depth - radius;
                if core > 0.0 && out.is_finite() && deepest.is_none_or(|(d, _)| core > d) {
                    deepest = Some((core, out));
                }
            });
        }
    }
    deepest
}
