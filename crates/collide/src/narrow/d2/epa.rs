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
use crate::math;
use crate::narrow::gjk::{MinkowskiSupport, Simplex, Vertex};
use crate::narrow::placement::{Penetration, widest_pair};
use glam::DVec2;

/// The points of this dimension.
type P = DVec2;

/// The most points the polygon holds: the start (the hull of at most 3 +
/// 10 points; a shape of another crate whose supports are not finite can
/// leave the hull up to 2 (3 + 10) - 2 of them, checked below) and one per
/// iteration. Every point is a distinct vertex of the difference, which
/// has at most 16 for two polygons (each of at most
/// [`Polygon::MAX_VERTICES`](super::Polygon::MAX_VERTICES)), fewer for
/// other cores; a shape of another crate with more vertices stops growing
/// here, its depth found to within its last edge (the tests' 200-sided
/// shape still passes with room for only 12 points).
const CAPACITY: usize = 32;
const _: () = assert!(CAPACITY >= 2 * (3 + 10) - 2, "room for the widest start");

/// EPA from GJK's last simplex; `None` when the difference has no area
/// (two segments on one line, two points): the cores touch without depth.
pub(crate) fn penetration(
    shapes: &impl MinkowskiSupport<P>,
    simplex: &Simplex<P>,
) -> Option<Penetration<P>> {
    let mut polygon = Polygon {
        points: [Vertex::default(); CAPACITY],
        edges: [Edge::default(); CAPACITY],
        next: [0; CAPACITY],
        len: 0,
    };
    if !polygon.start(shapes, simplex) {
        return None;
    }
    let magnitude = polygon.points[..polygon.len]
        .iter()
        .map(|v| v.w.dot(v.w))
        .fold(0.0f64, f64::max)
        .sqrt();
    let tolerance = 1e-9 * magnitude.max(f64::MIN_POSITIVE);
    let mut best = polygon.nearest()?;
    while polygon.len < CAPACITY {
        let Edge {
            distance, normal, ..
        } = polygon.edges[best];
        let next = shapes.support(normal);
        if next.w.dot(normal) - distance <= tolerance
            || polygon.points[..polygon.len].iter().any(|v| v.w == next.w)
        {
            break;
        }
        // Every point is a support point, in the order of the directions
        // that found them, so the polygon stays convex: it goes between
        // the ends of the edge that found it.
        polygon.split(best, next);
        best = polygon.nearest()?;
    }
    let Edge { distance, normal } = polygon.edges[best];
    // The boundary point nearest the origin, split into its A and B parts
    // by where it lies on the edge.
    let (p, q) = (
        polygon.points[best],
        polygon.points[usize::from(polygon.next[best])],
    );
    let edge = q.w - p.w;
    let len_sq = edge.dot(edge);
    let s = if len_sq > 0.0 {
        (-p.w.dot(edge) / len_sq).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let lerp = |x: P, y: P| x + ((y - x) * s);
    Some(Penetration {
        depth: distance.max(0.0),
        normal,
        a: lerp(p.a, q.a),
        b: lerp(p.b, q.b),
    })
}

/// An edge's outward unit normal and its distance from the origin along
/// it (negative when the origin is outside); a zero normal for an edge of
/// no length, which is never the nearest.
#[derive(Clone, Copy, Debug, Default)]
struct Edge {
    distance: f64,
    normal: P,
}

impl Edge {
    /// The edge from `p` to `q` of a counter-clockwise polygon.
    fn new(p: P, q: P) -> Self {
        let e = q - p;
        let len = e.dot(e).sqrt();
        if len == 0.0 {
            return Self {
                distance: f64::INFINITY,
                normal: P::ZERO,
            };
        }
        let normal = P::new(e.y / len, -e.x / len);
        Self {
            distance: normal.dot(p),
            normal,
        }
    }
}

/// The polygon EPA grows, on the stack (no allocation): its points in the
/// order they came, each linked to the next counter-clockwise, and each
/// point's edge to its next kept with its normal, so a new point computes
/// two edges and moves nothing: faster than a `Vec` rebuilt by a hull at
/// the start with every edge's normal recomputed per iteration (figures:
/// BENCHMARKS.md).
struct Polygon {
    points: [Vertex<P>; CAPACITY],
    edges: [Edge; CAPACITY],
    next: [u8; CAPACITY],
    len: usize,
}

impl Polygon {
    /// The start: GJK's triangle when it has area (it holds the origin);
    /// else the hull of the simplex and the supports in eight directions,
    /// which lies inside the difference. A sliver of overlap may leave the
    /// origin outside it: the edges it is behind have negative distances
    /// and are pushed out first, so the loop still ends on the boundary.
    /// False when even that has no area.
    fn start(&mut self, shapes: &impl MinkowskiSupport<P>, simplex: &Simplex<P>) -> bool {
        let polygon = self;
        let found = simplex.vertices();
        if let [a, b, c] = found {
            let turn = (b.w - a.w).perp_dot(c.w - a.w);
            let size_sq = (b.w - a.w).dot(b.w - a.w).max((c.w - a.w).dot(c.w - a.w));
            if turn.abs() > 1e-12 * size_sq {
                let ordered = if turn > 0.0 {
                    [*a, *b, *c]
                } else {
                    [*a, *c, *b]
                };
                polygon.points[..3].copy_from_slice(&ordered);
                polygon.len = 3;
            }
        }
        if polygon.len == 0 {
            let mut points: Vec<Vertex<P>> = found.to_vec();
            for k in 0..8 {
                let angle = k as f64 * std::f64::consts::FRAC_PI_4;
                points.push(shapes.support(P::new(math::cos(angle), math::sin(angle))));
            }
            // A long thin difference (crossing segments) can give every
            // one of those directions the same two ends of its long
            // diagonal: the supports across the line through the two
            // points farthest apart find its width.
            if let Some(across) = across_widest(&points) {
                points.push(shapes.support(across));
                points.push(shapes.support(-across));
            }
            let hull = convex_hull(&points, |v| [v.w.x, v.w.y], 0.0);
            if hull.len() < 3 {
                return false;
            }
            let len = hull.len().min(CAPACITY);
            polygon.points[..len].copy_from_slice(&hull[..len]);
            polygon.len = len;
        }
        for i in 0..polygon.len {
            polygon.next[i] = if i + 1 == polygon.len { 0 } else { i + 1 } as u8;
            polygon.edges[i] = polygon.edge(i);
        }
        true
    }

    /// The edge from point `i` to its next, computed.
    fn edge(&self, i: usize) -> Edge {
        Edge::new(self.points[i].w, self.points[usize::from(self.next[i])].w)
    }

    /// `point` added between point `i` and its next, splitting `i`'s edge
    /// in two (the caller keeps `len` below the capacity).
    fn split(&mut self, i: usize, point: Vertex<P>) {
        let new = self.len;
        self.points[new] = point;
        self.next[new] = self.next[i];
        self.next[i] = new as u8;
        self.len += 1;
        self.edges[i] = self.edge(i);
        self.edges[new] = self.edge(new);
    }

    /// The index of the edge nearest the origin; `None` when every edge
    /// has no length.
    fn nearest(&self) -> Option<usize> {
        let mut best: Option<(usize, f64)> = None;
        for (i, edge) in self.edges[..self.len].iter().enumerate() {
            if edge.distance.is_finite() && best.is_none_or(|(_, d)| edge.distance < d) {
                best = Some((i, edge.distance));
            }
        }
        best.map(|(i, _)| i)
    }
}

/// A unit vector across the line through the two of `points` farthest
/// apart; `None` when they all coincide.
fn across_widest(points: &[Vertex<P>]) -> Option<P> {
    widest_pair(points).map(|(p, q)| (q - p).perp().normalize())
}
