//! EPA (expanding polytope algorithm) in 3D: how deep two overlapping
//! cores go into each other, and along which normal.
//!
//! A convex polytope of support points of the difference `A - B` is grown
//! until its face nearest the origin lies on the difference's boundary.
//! The start is GJK's last simplex when that is a tetrahedron (it holds
//! the origin); when GJK stopped on a smaller simplex (the cores touch, or
//! symmetric shapes put a face through the origin), it is the hull of that
//! simplex and of the supports along 14 directions (the axes and the
//! diagonals). Growing is an
//! incremental hull: the faces that see the new point go, and the horizon
//! they leave is joined to it. If the origin lies outside the start (a
//! sliver of overlap), the faces it is behind have negative distances and
//! are pushed out first, so the loop still ends on the boundary.

use crate::narrow::gjk::{MinkowskiSupport, Simplex, Vertex};
use crate::narrow::placement::{Penetration, widest_pair};
use glam::DVec3;
use std::cell::Cell;

/// The points of this dimension.
type P = DVec3;

const MAX_ITERATIONS: usize = 64;
const _: () = assert!(
    4 + 14 + 4 + MAX_ITERATIONS <= u16::MAX as usize,
    "a start's points and one per iteration fit a face's u16 indices"
);

/// A triangle of the polytope, counter-clockwise seen from outside.
#[derive(Clone, Copy, Debug)]
struct Face {
    /// The corners' indices in the polytope's points (at most
    /// `MAX_ITERATIONS` plus the 22 candidates of a start: `u16` keeps a
    /// face at 40 bytes).
    v: [u16; 3],
    /// Outward unit normal (zero for a face without area).
    normal: P,
    /// Distance of the face's plane from the origin along the normal
    /// (infinite for a face without area, so it is never nearest).
    distance: f64,
}

/// Lists a dropped polytope leaves for the next one on its thread.
type Spare = (Vec<Vertex<P>>, Vec<Face>, Vec<(u16, u16)>);

thread_local! {
    static SPARE: Cell<Option<Spare>> = const { Cell::new(None) };
}

impl Drop for Polytope {
    fn drop(&mut self) {
        let spare = (
            std::mem::take(&mut self.points),
            std::mem::take(&mut self.faces),
            std::mem::take(&mut self.edges),
        );
        SPARE.with(|cell| cell.set(Some(spare)));
    }
}

struct Polytope {
    points: Vec<Vertex<P>>,
    faces: Vec<Face>,
    /// Visibility tolerance: a point this far in front of a face sees it.
    epsilon: f64,
    /// Scratch for [`Polytope::add`]: the horizon of the faces a new point
    /// sees (kept to reuse its allocation).
    edges: Vec<(u16, u16)>,
}

/// The face of the polytope's `points` at indices `v`.
fn face(points: &[Vertex<P>], v: [u16; 3]) -> Face {
    let [a, b, c] = v.map(|i| points[usize::from(i)].w);
    let n = (b - a).cross(c - a);
    let len = n.dot(n).sqrt();
    if len > 0.0 {
        let normal = n * (1.0 / len);
        Face {
            v,
            normal,
            distance: normal.dot(a),
        }
    } else {
        Face {
            v,
            normal: P::ZERO,
            distance: f64::INFINITY,
        }
    }
}

impl Polytope {
    /// Adds `p` to the hull; false when it is not outside any face.
    fn add(&mut self, p: Vertex<P>) -> bool {
        let epsilon = self.epsilon;
        // In front of the face's plane (never for a face without area,
        // whose distance is infinite).
        let sees = |f: &Face| f.normal.dot(p.w) - f.distance > epsilon;
        // The faces the point sees go (one test per face). Their edges
        // make the horizon: an edge shared by two seen faces comes in both
        // directions, and the second cancels the first.
        self.edges.clear();
        let edges = &mut self.edges;
        let mut seen_any = false;
        self.faces.retain(|f| {
            let seen = sees(f);
            if seen {
                seen_any = true;
                for (i, j) in [(f.v[0], f.v[1]), (f.v[1], f.v[2]), (f.v[2], f.v[0])] {
                    match edges.iter().position(|&e| e == (j, i)) {
                        Some(k) => {
                            edges.swap_remove(k);
                        }
                        None => edges.push((i, j)),
                    }
                }
            }
            !seen
        });
        if !seen_any {
            return false; // it sees no face: nothing went
        }
        let index = self.points.len() as u16;
        self.points.push(p);
        for &(i, j) in &self.edges {
            self.faces.push(face(&self.points, [i, j, index]));
        }
        true
    }
}

/// EPA from GJK's last simplex; `None` when the difference has no volume
/// (flat or thinner than rounding): the cores touch without depth.
pub(crate) fn penetration(
    shapes: &impl MinkowskiSupport<P>,
    simplex: &Simplex<P>,
) -> Option<Penetration<P>> {
    // GJK's tetrahedron holds the origin when GJK ended on one; otherwise
    // (touching, a face through the origin) start from the hull of the
    // simplex and the supports in 14 directions.
    let size = |points: &[Vertex<P>]| {
        let m = points
            .iter()
            .map(|v| v.w.dot(v.w))
            .fold(0.0f64, f64::max)
            .sqrt();
        (m, 1e-10 * m.max(f64::MIN_POSITIVE))
    };
    let from_simplex = match simplex.vertices() {
        &[a, b, c, d] => {
            let (_, epsilon) = size(simplex.vertices());
            tetrahedron([a, b, c, d], epsilon)
        }
        _ => None,
    };
    let mut polytope = match from_simplex {
        Some(p) => p,
        None => {
            // At most the simplex's 4, 14 directions and 2 pairs across: a
            // list on the stack.
            let mut list = [Vertex::<P>::default(); 22];
            let mut count = 0;
            for &v in simplex.vertices() {
                list[count] = v;
                count += 1;
            }
            for x in [-1.0f64, 0.0, 1.0] {
                for y in [-1.0f64, 0.0, 1.0] {
                    for z in [-1.0f64, 0.0, 1.0] {
                        let zeros = [x, y, z].iter().filter(|c| **c == 0.0).count();
                        // The 6 axes and the 8 diagonals.
                        if zeros == 2 || zeros == 0 {
                            list[count] = shapes.support(P::new(x, y, z));
                            count += 1;
                        }
                    }
                }
            }
            // A long thin difference can give every one of those
            // directions the ends of its long diagonal: the supports across
            // the widest line and plane among them find the rest.
            let (across, n) = across_widest(&list[..count]);
            for &d in &across[..n] {
                list[count] = shapes.support(d);
                list[count + 1] = shapes.support(-d);
                count += 2;
            }
            let candidates = &list[..count];
            let (_, epsilon) = size(candidates);
            start(candidates, epsilon)?
        }
    };
    let (magnitude, _) = size(&polytope.points);
    let tolerance = 1e-9 * magnitude.max(f64::MIN_POSITIVE);
    for _ in 0..MAX_ITERATIONS {
        let nearest = nearest_face(&polytope)?;
        let next = shapes.support(nearest.normal);
        if next.w.dot(nearest.normal) - nearest.distance <= tolerance || !polytope.add(next) {
            break;
        }
    }
    let face = nearest_face(&polytope)?;
    // The nearest point of the face's plane to the origin, split into its A
    // and B parts by its barycentric weights in the face.
    let [a, b, c] = face.v.map(|i| polytope.points[usize::from(i)]);
    let q = face.normal * face.distance;
    let weights = barycentric(q, a.w, b.w, c.w);
    let mix = |pa: P, pb: P, pc: P| ((pa * weights[0]) + (pb * weights[1])) + (pc * weights[2]);
    Some(Penetration {
        depth: face.distance.max(0.0),
        normal: face.normal,
        a: mix(a.a, b.a, c.a),
        b: mix(a.b, b.b, c.b),
    })
}

/// The face nearest the origin (the smallest signed distance).
fn nearest_face(polytope: &Polytope) -> Option<Face> {
    let mut best: Option<&Face> = None;
    for f in &polytope.faces {
        // (a face without area has an infinite distance; NaN never wins)
        if f.distance.is_finite() && best.is_none_or(|b| f.distance < b.distance) {
            best = Some(f);
        }
    }
    best.copied()
}

/// The hull of the candidates: the largest tetrahedron among them, then
/// the rest added one by one; `None` when they span no volume.
fn start(candidates: &[Vertex<P>], epsilon: f64) -> Option<Polytope> {
    let far = |score: &dyn Fn(P) -> f64| {
        (0..candidates.len())
            .max_by(|&i, &j| score(candidates[i].w).total_cmp(&score(candidates[j].w)))
    };
    let i0 = far(&|w| w.dot(w))?;
    let p0 = candidates[i0].w;
    let i1 = far(&|w| (w - p0).dot(w - p0))?;
    let line = candidates[i1].w - p0;
    let i2 = far(&|w| {
        let c = (w - p0).cross(line);
        c.dot(c)
    })?;
    let normal = line.cross(candidates[i2].w - p0);
    let i3 = far(&|w| (w - p0).dot(normal).abs())?;
    let volume = (candidates[i3].w - p0).dot(normal).abs();
    let size = line.dot(line).sqrt();
    // (also false for NaN)
    if volume.partial_cmp(&(1e-9 * size * size * size)) != Some(std::cmp::Ordering::Greater) {
        return None;
    }
    let mut polytope = Polytope::around([i0, i1, i2, i3].map(|i| candidates[i]), epsilon);
    for (k, &v) in candidates.iter().enumerate() {
        if ![i0, i1, i2, i3].contains(&k) {
            polytope.add(v);
        }
    }
    Some(polytope)
}

/// GJK's tetrahedron as the start, when it has volume: the same kind of
/// test as [`start`]'s (the volume against a billionth of a length cubed),
/// its length the longest edge from the first corner, where [`start`]
/// measures from the point farthest from the origin; a tetrahedron this
/// rejects goes to [`start`] with the 14 directions.
fn tetrahedron(corners: [Vertex<P>; 4], epsilon: f64) -> Option<Polytope> {
    let p0 = corners[0].w;
    let edges = [1, 2, 3].map(|k| corners[k].w - p0);
    let volume = edges[0].cross(edges[1]).dot(edges[2]).abs();
    let size_sq = edges.iter().map(|e| (*e).dot(*e)).fold(0.0, f64::max);
    // (also false for NaN)
    if volume.partial_cmp(&(1e-9 * size_sq * size_sq.sqrt())) != Some(std::cmp::Ordering::Greater) {
        return None;
    }
    Some(Polytope::around(corners, epsilon))
}

impl Polytope {
    /// The tetrahedron of four points with volume, its faces turned
    /// outward.
    fn around(corners: [Vertex<P>; 4], epsilon: f64) -> Self {
        // This thread's lists from the last polytope, or room for the
        // usual growth (a few dozen points): no allocation once warm.
        let (mut points, mut faces, mut edges) = SPARE.with(Cell::take).unwrap_or_else(|| {
            (
                Vec::with_capacity(32),
                Vec::with_capacity(64),
                Vec::with_capacity(32),
            )
        });
        points.clear();
        faces.clear();
        edges.clear();
        points.extend(corners);
        let mut polytope = Polytope {
            points,
            faces,
            epsilon,
            edges,
        };
        // The opposite corner lies behind each face.
        for (face, opposite) in [
            ([0, 1, 2], 3),
            ([0, 3, 1], 2),
            ([1, 3, 2], 0),
            ([0, 2, 3], 1),
        ] {
            let mut f = self::face(&polytope.points, face);
            if f.normal
                .dot(polytope.points[opposite].w - (polytope.points[usize::from(face[0])].w))
                > 0.0
            {
                f = self::face(&polytope.points, [face[0], face[2], face[1]]);
            }
            polytope.faces.push(f);
        }
        polytope
    }
}

/// Barycentric weights of `q` (in the plane of triangle `abc`), clamped
/// into the triangle when rounding puts it outside.
fn barycentric(q: P, a: P, b: P, c: P) -> [f64; 3] {
    let (e1, e2, d) = (b - a, c - a, q - a);
    let (d11, d12, d22) = (e1.dot(e1), e1.dot(e2), e2.dot(e2));
    let (d1, d2) = (d.dot(e1), d.dot(e2));
    let det = d11 * d22 - d12 * d12;
    if det <= 0.0 {
        return [1.0, 0.0, 0.0];
    }
    let v = (d22 * d1 - d12 * d2) / det;
    let w = (d11 * d2 - d12 * d1) / det;
    let (v, w) = (v.clamp(0.0, 1.0), w.clamp(0.0, 1.0));
    let total = v + w;
    let (v, w) = if total > 1.0 {
        (v / total, w / total)
    } else {
        (v, w)
    };
    [1.0 - v - w, v, w]
}

/// Directions across the points' widest span: the normal of the plane
/// through the two points farthest apart and the one farthest from their
/// line (both normals of the line when all lie on it); none when the
/// points coincide.
fn across_widest(points: &[Vertex<P>]) -> ([P; 2], usize) {
    let Some((p0, p1)) = widest_pair(points) else {
        return ([P::ZERO; 2], 0);
    };
    let line = (p1 - p0).normalize();
    let off_line = |p: &Vertex<P>| {
        let d = p.w - p0;
        d - line * d.dot(line)
    };
    let widest = points
        .iter()
        .map(off_line)
        .max_by(|a, b| a.length_squared().total_cmp(&b.length_squared()))
        .unwrap_or(P::ZERO);
    match line.cross(widest).try_normalize() {
        Some(normal) => ([normal, P::ZERO], 1),
        None => {
            let side = line.any_orthonormal_vector();
            ([side, line.cross(side)], 2)
        }
    }
}
