//! EPA (expanding polytope algorithm) in 2D: how deep two overlapping
//! cores go into each other, and along which normal.
//!
//! When GJK finds the origin inside the difference `A - B`, the smallest
//! move of B that separates the cores is the point of the difference's
//! boundary nearest the origin. EPA grows a polygon inside the difference,
//! always pushing out the edge nearest the origin with the support along
//! its normal, until that edge is on the boundary (the support adds
//! nothing).

use super::hull::convex_hull;
use crate::narrow::gjk::{MinkowskiSupport, Simplex, Vertex, add, dot, scale, sub};
use crate::narrow::placement::Penetration;
use glam::DVec2;

/// The points of this dimension.
type P = DVec2;

const MAX_ITERATIONS: usize = 64;

/// EPA from GJK's last simplex; `None` when the difference has no area
/// (two segments on one line, two points): the cores touch without depth.
pub(crate) fn penetration(
    shapes: &impl MinkowskiSupport<P>,
    simplex: &Simplex<P>,
) -> Option<Penetration<P>> {
    // Start from GJK's triangle when it has area (it holds the origin);
    // else from the hull of the simplex and the supports in eight
    // directions, which lies inside the difference. A sliver of overlap may
    // leave the origin outside it: the edges it is behind have negative
    // distances and are pushed out first, so the loop still ends on the
    // boundary.
    let mut polygon = hull(simplex.vertices());
    if polygon.len() < 3 {
        let mut points: Vec<Vertex<P>> = simplex.vertices().to_vec();
        for k in 0..8 {
            let angle = k as f64 * std::f64::consts::FRAC_PI_4;
            points.push(shapes.support(P::new(angle.cos(), angle.sin())));
        }
        polygon = hull(&points);
        if polygon.len() < 3 {
            return None;
        }
    }
    let magnitude = polygon
        .iter()
        .map(|v| dot(v.w, v.w))
        .fold(0.0f64, f64::max)
        .sqrt();
    let tolerance = 1e-9 * magnitude.max(f64::MIN_POSITIVE);
    let mut best = nearest_edge(&polygon)?;
    for _ in 0..MAX_ITERATIONS {
        let (i, distance, normal) = best;
        let next = shapes.support(normal);
        if dot(next.w, normal) - distance <= tolerance || polygon.iter().any(|v| v.w == next.w) {
            break;
        }
        // Every point is a support point, in the order of the directions
        // that found them, so the polygon stays convex: insert in place.
        polygon.insert(i + 1, next);
        best = nearest_edge(&polygon)?;
    }
    let (i, distance, normal) = best;
    // The boundary point nearest the origin, split into its A and B parts
    // by where it lies on the edge.
    let (p, q) = (polygon[i], polygon[(i + 1) % polygon.len()]);
    let edge = sub(q.w, p.w);
    let len_sq = dot(edge, edge);
    let s = if len_sq > 0.0 {
        (-dot(p.w, edge) / len_sq).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let lerp = |x: P, y: P| add(x, scale(sub(y, x), s));
    Some(Penetration {
        depth: distance.max(0.0),
        normal,
        a: lerp(p.a, q.a),
        b: lerp(p.b, q.b),
    })
}

/// The edge nearest the origin of a counter-clockwise polygon: its index,
/// distance (along its outward normal) and outward unit normal.
fn nearest_edge(polygon: &[Vertex<P>]) -> Option<(usize, f64, P)> {
    let n = polygon.len();
    let mut best: Option<(usize, f64, P)> = None;
    for i in 0..n {
        let (p, q) = (polygon[i].w, polygon[(i + 1) % n].w);
        let e = sub(q, p);
        let len = dot(e, e).sqrt();
        if len == 0.0 {
            continue;
        }
        let normal = P::new(e.y / len, -e.x / len);
        let distance = dot(normal, p);
        if best.is_none_or(|(_, d, _)| distance < d) {
            best = Some((i, distance, normal));
        }
    }
    best
}

/// The convex hull of the points' `w`, counter-clockwise.
fn hull(points: &[Vertex<P>]) -> Vec<Vertex<P>> {
    convex_hull(points, |v| [v.w.x, v.w.y], 0.0)
}
