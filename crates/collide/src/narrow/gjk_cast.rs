//! The GJK ray cast (van den Bergen, "Ray Casting against General Convex
//! Objects with Application to Continuous Collision Detection", 2004),
//! with a margin: where a point moving along a ray first comes within
//! `margin` of a convex core.
//!
//! One routine serves three queries:
//! - a ray against a sharp shape (margin 0) or a rounded one (margin: its
//!   radius), the core's supports in the shape's frame;
//! - a shape cast: B moving by `r` relative to A first touches A when
//!   `t r` comes within `ra + rb` of the difference of the cores `A - B`,
//!   so the cast is this ray from the origin against that difference (one
//!   GJK loop, where conservative advancement runs a contact query per
//!   step).
//!
//! The point `x` walks along the ray to the plane of each support that
//! separates it from the core grown by the margin (so it never passes the
//! first touch), while GJK keeps the core's point nearest `x` (its simplex
//! holds core points; their differences from `x` move with `x`). It stops
//! when `x` is within `margin + tolerance` of the core.

use super::gjk::{MinkowskiSupport, Point, Simplex, Vertex, add, dot, nearest_any, scale, sub};
use super::point::{normalized, unit};

/// Where the cast stopped: `x` at `lambda` along the ray, the unit normal
/// there (from the core toward `x`), the nearest core point's `a` and `b`
/// parts (for a difference `A - B`; `b` is zero for a single shape), and
/// its distance from `x` (about `margin`). At `lambda` 0 (the ray starts
/// within `margin + tolerance` of the core) only `distance` means
/// anything, as an upper bound: the search may have stopped before its
/// simplex held a point, and a point inside a sharp core can lie as near a
/// line of its support points.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CastStop<P> {
    pub(crate) lambda: f64,
    pub(crate) normal: P,
    pub(crate) a: P,
    pub(crate) b: P,
    pub(crate) distance: f64,
}

/// Iterations before giving up (`None`): polytopes settle in a handful, a
/// margin met at a grazing angle converges more slowly.
const MAX_ITERATIONS: usize = 64;

/// The cast of `start + lambda direction`, `lambda` in `[0, max_lambda]`,
/// against the core of `shapes` (the support's `a - b`) grown by `margin`.
/// `Some(Some(stop))` at the first touch (within `tolerance`, which is
/// never tighter than 1e-7 of the numbers involved; within a thousand
/// times that when rounding leaves no new support point); `Some(None)` for
/// a miss; `None` when it did not settle (the caller then falls back to
/// conservative advancement).
pub(crate) fn gjk_cast<P: Point>(
    shapes: &impl MinkowskiSupport<P>,
    start: P,
    direction: P,
    max_lambda: f64,
    margin: f64,
    tolerance: f64,
) -> Option<Option<CastStop<P>>> {
    let core = |v: &Vertex<P>| sub(v.a, v.b);
    let first = shapes.support(if dot(direction, direction) > 0.0 {
        direction
    } else {
        unit(0)
    });
    let size_sq = dot(core(&first), core(&first))
        .max(dot(start, start))
        .max(margin * margin)
        .max(1e-30);
    let tolerance = tolerance.max(1e-7 * size_sq.sqrt());
    let reach = margin + tolerance;
    let (mut lambda, mut x, mut plane) = (0.0f64, start, P::ZERO);
    let mut simplex = Simplex::default();
    let mut v = sub(x, core(&first));
    // Settled with x at `lambda`, `v` its offset from the core, `plane` the
    // last separating plane's normal.
    let stop = |lambda: f64, v: P, plane: P, simplex: &Simplex<P>| {
        let distance = dot(v, v).sqrt();
        // With a margin, x stops about `margin` from the core, where v's
        // direction is exact; at a sharp core v shrinks to rounding, and
        // the last separating plane's normal is the better one.
        let toward = if (margin > 0.0 && distance > 0.5 * margin) || lambda == 0.0 {
            v
        } else {
            plane
        };
        let nearest = simplex.point();
        CastStop {
            lambda,
            normal: normalized(toward).unwrap_or(toward),
            a: nearest.a,
            b: nearest.b,
            distance,
        }
    };
    for _ in 0..MAX_ITERATIONS {
        let vv = dot(v, v);
        if vv <= reach * reach {
            return Some(Some(stop(lambda, v, plane, &simplex)));
        }
        let p = shapes.support(v);
        let w = sub(x, core(&p));
        // How far x lies beyond the plane of the grown core's support
        // along v (times |v|).
        let beyond = if margin > 0.0 {
            dot(v, w) - margin * vv.sqrt()
        } else {
            dot(v, w) // (no square root in the loop of a sharp cast)
        };
        if beyond > 0.0 {
            let vr = dot(v, direction);
            if vr >= 0.0 {
                return Some(None); // moving away from the plane, or along it
            }
            lambda -= beyond / vr;
            if lambda > max_lambda {
                return Some(None);
            }
            x = add(start, scale(direction, lambda));
            plane = v;
        }
        if simplex.vertices().iter().any(|q| q.a == p.a && q.b == p.b) {
            if beyond <= 0.0 {
                // No new point and no progress: v is the nearest point's
                // offset as far as rounding allows.
                let loose = margin + 1e3 * tolerance;
                return (vv <= loose * loose).then(|| Some(stop(lambda, v, plane, &simplex)));
            }
        } else {
            if simplex.len == 4 {
                return None;
            }
            simplex.vertices[simplex.len] = p;
            simplex.len += 1;
        }
        for q in &mut simplex.vertices[..simplex.len] {
            q.w = sub(x, core(q));
        }
        let face = nearest_any(&simplex)?;
        simplex.keep(&face);
        if face.len == P::DIM + 1 {
            // x is inside the hull of these core points: within the margin.
            v = P::ZERO;
            continue;
        }
        v = simplex.nearest_w();
    }
    None
}
