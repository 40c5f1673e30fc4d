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
//! when `x` is within `margin + tolerance` of the core, then settles: a
//! GJK distance query from `x` finds the core's nearest point (the
//! simplex's only bounds it), and conservative advancement on those
//! distances brings `x` onto the grown core, so the normal and witnesses
//! are those of the touch however far the ray ran.

use super::gjk::{Gjk, MinkowskiSupport, Point, Simplex, Vertex, gjk, gjk_from, nearest_any};
use super::point::{TRUSTED_GAP, normalized, unit};

/// Where the cast stopped: `x` at `lambda` along the ray, the unit normal
/// there (from the core toward `x`), the nearest core point's `a` and `b`
/// parts (for a difference `A - B`; `b` is zero for a single shape), and
/// its distance from `x` (`margin`, to rounding, once settled). At
/// `lambda` 0 (the ray starts
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
    /// False for a graze that the cast stopped on already leaving: within
    /// the tolerance of the grown core, moving away from it.
    pub(crate) touched: bool,
    /// The core's feature nearest the stop (its direction, for an edge).
    pub(crate) feature: Feature<P>,
}

/// The core's feature nearest a cast's stop, from a simplex whose
/// nearest point is the stop's: the core points with a share in it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Feature<P> {
    /// One point: a corner (or a curve's point).
    Vertex,
    /// Two points, in 3D: inside an edge along this direction.
    Edge(P),
    /// Inside a face (two points in 2D, three in 3D): the stop's normal is
    /// the only one there.
    Face,
    /// Not known: the stop lies at the ray's start, or no simplex held it.
    Unknown,
}

impl<P: Point> Feature<P> {
    /// The feature of the simplex's points whose weights are more than a
    /// thousandth: a stop that near a triangle's side (within the cast's
    /// rounding of it, and more) is taken to be on that side.
    fn of(simplex: &Simplex<P>) -> Self {
        let core = |v: &Vertex<P>| v.a - v.b;
        let mut points = [P::ZERO; 4];
        let mut count = 0;
        for (v, weight) in simplex.vertices().iter().zip(simplex.weights) {
            if weight > 1e-3 {
                points[count] = core(v);
                count += 1;
            }
        }
        match count {
            1 => Feature::Vertex,
            2 if P::DIM == 3 => Feature::Edge(points[1] - points[0]),
            _ if count == P::DIM => Feature::Face,
            _ => Feature::Unknown,
        }
    }
}

/// Iterations before giving up (`None`): polytopes settle in a handful, a
/// margin met at a grazing angle converges more slowly.
const MAX_ITERATIONS: usize = 64;

/// The cast of `start + lambda direction`, `lambda` in `[0, max_lambda]`,
/// against the core of `shapes` (the support's `a - b`) grown by `margin`.
/// `Some(Some(stop))` at the first touch, settled onto it (found within
/// `tolerance`, which is never tighter than 1e-7 of the numbers involved,
/// or a thousand times that when rounding leaves no new support point; a
/// graze that comes within it and leaves counts as a touch there);
/// `Some(None)` for a miss; `None` when it did not settle (the caller then
/// falls back to conservative advancement).
pub(crate) fn gjk_cast<P: Point>(
    shapes: &impl MinkowskiSupport<P>,
    start: P,
    direction: P,
    max_lambda: f64,
    margin: f64,
    tolerance: f64,
) -> Option<Option<CastStop<P>>> {
    let core = |v: &Vertex<P>| v.a - v.b;
    let first = shapes.support(if direction.dot(direction) > 0.0 {
        direction
    } else {
        unit(0)
    });
    let size_sq = core(&first)
        .dot(core(&first))
        .max(start.dot(start))
        .max(margin * margin)
        .max(1e-30);
    let tolerance = tolerance.max(1e-7 * size_sq.sqrt());
    let reach = margin + tolerance;
    let (mut lambda, mut x, mut plane) = (0.0f64, start, P::ZERO);
    let mut simplex = Simplex::default();
    let mut v = x - core(&first);
    // Settled with x at `lambda`, `v` its offset from the core, `plane` the
    // last separating plane's normal.
    let stop = |lambda: f64, v: P, plane: P, simplex: &Simplex<P>| {
        if lambda > 0.0 {
            let path = CastPath {
                start,
                direction,
                max_lambda,
                margin,
                settle_gap: 1e-12 * size_sq.sqrt(),
            };
            return settled(shapes, &path, lambda, *simplex, plane);
        }
        // At the start only the distance means anything (see `CastStop`).
        let nearest = simplex.point();
        CastStop {
            lambda,
            normal: normalized(v).unwrap_or(v),
            a: nearest.a,
            b: nearest.b,
            distance: v.dot(v).sqrt(),
            touched: true,
            feature: Feature::Unknown,
        }
    };
    for _ in 0..MAX_ITERATIONS {
        let vv = v.dot(v);
        if vv <= reach * reach {
            return Some(Some(stop(lambda, v, plane, &simplex)));
        }
        let p = shapes.support(v);
        let w = x - core(&p);
        // How far x lies beyond the plane of the grown core's support
        // along v (times |v|).
        let beyond = if margin > 0.0 {
            v.dot(w) - margin * vv.sqrt()
        } else {
            v.dot(w) // (no square root in the loop of a sharp cast)
        };
        if beyond > 0.0 {
            let vr = v.dot(direction);
            if vr >= 0.0 {
                return Some(None); // moving away from the plane, or along it
            }
            lambda -= beyond / vr;
            if lambda > max_lambda {
                return Some(None);
            }
            x = start + (direction * lambda);
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
            q.w = x - core(q);
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

/// The cast's ray: `start + lambda direction` for `lambda` up to
/// `max_lambda`, against the core grown by `margin`; `settle_gap`, the
/// gap a settled stop is brought within (a trillionth of the numbers
/// involved, near f64's rounding: a ray from 3,000 units away that meets a
/// cap at a grazing angle takes its normal where it stops, and a stop a
/// ten-millionth of 3,000 short of the cap, 0.003 along the ray, turned the
/// normal by 0.2 degrees).
struct CastPath<P> {
    start: P,
    direction: P,
    max_lambda: f64,
    margin: f64,
    settle_gap: f64,
}

/// The stop at `lambda`, settled: its normal, nearest core point and
/// distance found again by a GJK distance query from the point there
/// ([`nearest_from`]), then the point brought up to the grown core by
/// conservative advancement on those exact distances (each step the gap
/// over the closing speed along the normal, which never passes the
/// touch; a face is reached in one step, a curve in a few). The cast
/// stops once its simplex's nearest point comes within reach, which
/// bounds the distance but is not the nearest point of the core: its
/// direction can be degrees off where the cast ran far (a start 300 sizes
/// away), and so can its witnesses; and the stop can be as far as the
/// caller's tolerance short of the touch. Advancement stops where the
/// normal is no longer the distance's (the point on the core, within a
/// trusted gap) or the motion no longer closes the gap (a graze).
fn settled<P: Point>(
    shapes: &impl MinkowskiSupport<P>,
    path: &CastPath<P>,
    mut lambda: f64,
    simplex: Simplex<P>,
    plane: P,
) -> CastStop<P> {
    let at = |lambda: f64| path.start + (path.direction * lambda);
    // A stop is a touch (`touched`, as `nearest_from` gives it) unless
    // the path is found leaving short of the core; one still closing in
    // after every step (a curve met at a grazing angle) is a touch as near
    // as it got.
    let (mut stop, mut trusted, mut simplex) =
        nearest_from(shapes, at(lambda), lambda, simplex, plane);
    for _ in 0..MAX_SETTLE_STEPS {
        let gap = stop.distance - path.margin;
        if !trusted || gap <= path.settle_gap {
            break; // on the grown core
        }
        let closing = -stop.normal.dot(path.direction);
        if closing <= 0.0 {
            // Past the closest approach, short of the core: a graze.
            stop.touched = false;
            break;
        }
        let next = lambda + gap / closing;
        if next > path.max_lambda {
            break;
        }
        let (moved, moved_trusted, moved_simplex) =
            nearest_from(shapes, at(next), next, simplex, stop.normal);
        if moved.distance > stop.distance {
            // The step passed the closest approach: a graze (the plane it
            // aimed at lies beyond the core's edge), or a normal bent by
            // rounding this near the core. Here, within the tolerance and
            // still closing in, is the touch.
            break;
        }
        (lambda, stop, trusted, simplex) = (next, moved, moved_trusted, moved_simplex);
    }
    stop
}

/// Steps of settling onto the touch: a face is reached in one, a curve
/// in a few.
const MAX_SETTLE_STEPS: usize = 16;

/// The stop at `x` (at `lambda` along the ray): its normal and nearest
/// core point by a GJK distance query from `x` run to the end, started
/// from `simplex` (core points near the answer, seen from `x` again), and
/// whether the normal is the offset's direction (false: `x` lies on the
/// core within a trusted gap, and the normal is `plane`, the last
/// separating plane's normal: where `x` lies on the core, a supporting
/// plane through `x` is the normal). The simplex it ended with comes back
/// for the next query.
fn nearest_from<P: Point>(
    shapes: &impl MinkowskiSupport<P>,
    x: P,
    lambda: f64,
    mut simplex: Simplex<P>,
    plane: P,
) -> (CastStop<P>, bool, Simplex<P>) {
    let core = |p: &Vertex<P>| p.a - p.b;
    // The set x - core: its point nearest the origin is x's offset from
    // the core's nearest point.
    let from_x = |d: P| {
        let p = shapes.support(d * (-1.0));
        Vertex {
            w: (x - core(&p)),
            a: p.a,
            b: p.b,
        }
    };
    for q in &mut simplex.vertices[..simplex.len] {
        q.w = x - core(q);
    }
    // The cast's own feature, for a stop on the core, where the distance
    // query finds the core overlapping x within rounding.
    let mut cast_feature = Feature::Unknown;
    let found = match nearest_any(&simplex) {
        Some(face) if simplex.len > 0 => {
            simplex.keep(&face);
            cast_feature = Feature::of(&simplex);
            gjk_from(&from_x, &mut simplex)
        }
        _ => gjk(&from_x, plane * (-1.0), &mut simplex),
    };
    let nearest = simplex.point();
    let offset = nearest.w;
    let distance = offset.dot(offset).sqrt();
    let size = simplex
        .vertices()
        .iter()
        .fold(x.dot(x), |m, p| m.max(p.a.dot(p.a)).max(p.b.dot(p.b)))
        .sqrt();
    let trusted = found == Gjk::Separated && distance > TRUSTED_GAP * size;
    let toward = if trusted { offset } else { plane };
    let stop = CastStop {
        lambda,
        normal: normalized(toward).unwrap_or(toward),
        a: nearest.a,
        b: nearest.b,
        distance: if found == Gjk::Separated {
            distance
        } else {
            0.0
        },
        touched: true,
        feature: if found == Gjk::Separated {
            Feature::of(&simplex)
        } else {
            cast_feature
        },
    };
    (stop, trusted, simplex)
}
