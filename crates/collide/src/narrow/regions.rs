//! The point of a GJK simplex nearest the origin by Voronoi regions
//! (Ericson, *Real-Time Collision Detection*, 5.1.2, 5.1.5 and 5.1.6):
//! a few dot products classify the origin against the simplex's vertices,
//! edges and faces, instead of solving a small linear system for every
//! face as the general solver in `gjk.rs` does.
//!
//! In GJK only the faces holding the newest point can hold the nearest
//! point (the others held the previous one, which the newest support
//! improved on), so [`nearest_by_regions`] tests only those (and
//! [`reduced_by_regions`] gives GJK the reduced simplex itself); the GJK ray
//! cast moves every point at once and asks [`nearest_any_by_regions`],
//! which tests every face. When rounding says otherwise, or a face is
//! degenerate (points in a line, a flat tetrahedron), or the origin lies
//! on a tetrahedron's face, these give up and the general solver answers,
//! so the two agree wherever these answer.

use super::gjk::{Face, Point, Simplex, Vertex};

/// The nearest point's face, for a simplex whose last point is the newest;
/// `None` to leave the answer to the general solver.
pub(crate) fn nearest_by_regions<P: Point>(simplex: &Simplex<P>) -> Option<Face> {
    by_regions(simplex, true)
}

/// The nearest point's face among all of the simplex's faces; `None` to
/// leave the answer to the general solver.
pub(crate) fn nearest_any_by_regions<P: Point>(simplex: &Simplex<P>) -> Option<Face> {
    by_regions(simplex, false)
}

/// [`nearest_by_regions`] as the reduced simplex itself: the nearest
/// face's points with their weights (for 2 and 3 points each copied whole
/// from a fixed place, no face between; 1 and 4 through the face); `None`
/// to leave the answer to the general solver.
#[inline(always)]
pub(crate) fn reduced_by_regions<P: Point>(simplex: &Simplex<P>) -> Option<Simplex<P>> {
    let v = simplex.vertices;
    let of = |vertices: [Vertex<P>; 4], weights: [f64; 4], len: usize| Simplex {
        vertices,
        weights,
        len,
    };
    let only = |k: usize| of([v[k]; 4], [1.0, 0.0, 0.0, 0.0], 1);
    match simplex.len {
        2 => {
            let t = along_segment(v[0].w, v[1].w);
            Some(if t > 0.0 && t < 1.0 {
                of(v, [1.0 - t, t, 0.0, 0.0], 2)
            } else {
                only(1)
            })
        }
        3 => {
            let (mask, [l0, l1, l2]) = triangle(v[0].w, v[1].w, v[2].w)?;
            match mask {
                0b100 => Some(only(2)),
                0b101 => Some(of([v[0], v[2], v[2], v[2]], [l0, l2, 0.0, 0.0], 2)),
                0b110 => Some(of([v[1], v[2], v[2], v[2]], [l1, l2, 0.0, 0.0], 2)),
                0b111 => Some(of(v, [l0, l1, l2, 0.0], 3)),
                // Without the newest point: rounding, left to the solver.
                _ => None,
            }
        }
        _ => nearest_by_regions(simplex).map(|face| simplex.picked(&face)),
    }
}

/// Both of the above: with `newest` only faces holding the last point
/// count (anything else is rounding, and gives up).
///
/// Inlined, with [`triangle`] and [`pick`], so their small results stay in
/// registers: returned through memory, the caller's wider loads of the
/// narrower stores stalled (figures: BENCHMARKS.md). The tetrahedron's
/// case stays a call (even either way).
#[inline(always)]
fn by_regions<P: Point>(simplex: &Simplex<P>, newest: bool) -> Option<Face> {
    let w = |k: usize| simplex.vertices[k].w;
    match simplex.len {
        1 => Some(Face {
            len: 1,
            weights: [1.0, 0.0, 0.0, 0.0],
            ..Face::default()
        }),
        2 => Some(segment(simplex, newest)),
        3 => {
            let (face, weights) = triangle(w(0), w(1), w(2))?;
            (!newest || face & 0b100 != 0).then(|| pick([0, 1, 2], face, weights))
        }
        4 => tetrahedron(simplex, newest),
        _ => None,
    }
}

/// The nearest point's face of a two-point simplex. With `newest`, the
/// first point alone is never the answer (the second is the newest).
fn segment<P: Point>(simplex: &Simplex<P>, newest: bool) -> Face {
    let t = along_segment(simplex.vertices[0].w, simplex.vertices[1].w);
    let only = |k: u8| Face {
        index: [k, 0, 0, 0],
        weights: [1.0, 0.0, 0.0, 0.0],
        len: 1,
    };
    if t > 0.0 && t < 1.0 {
        Face {
            index: [0, 1, 0, 0],
            weights: [1.0 - t, t, 0.0, 0.0],
            len: 2,
        }
    } else if !newest && t <= 0.0 {
        only(0)
    } else {
        only(1)
    }
}

/// Where the origin's projection falls on the line from `wa` to `wb`: 0 at
/// `wa`, 1 at `wb` (1 for a segment of no length).
#[inline(always)]
fn along_segment<P: Point>(wa: P, wb: P) -> f64 {
    let ab = wb - wa;
    let len_sq = ab.dot(ab);
    if len_sq > 0.0 {
        -wa.dot(ab) / len_sq
    } else {
        1.0
    }
}

/// The Voronoi region of the origin for triangle `a b c`: a bit mask of the
/// vertices of the nearest feature (bit 0 for `a`) and their weights in
/// `a, b, c` order (zero for vertices not in it); `None` when the face is
/// degenerate.
#[inline(always)]
fn triangle<P: Point>(a: P, b: P, c: P) -> Option<(u8, [f64; 3])> {
    let (ab, ac) = (b - a, c - a);
    let (d1, d2) = (-ab.dot(a), -ac.dot(a));
    if d1 <= 0.0 && d2 <= 0.0 {
        return Some((0b001, [1.0, 0.0, 0.0]));
    }
    let (d3, d4) = (-ab.dot(b), -ac.dot(b));
    if d3 >= 0.0 && d4 <= d3 {
        return Some((0b010, [0.0, 1.0, 0.0]));
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let v = d1 / (d1 - d3);
        return Some((0b011, [1.0 - v, v, 0.0]));
    }
    let (d5, d6) = (-ab.dot(c), -ac.dot(c));
    if d6 >= 0.0 && d5 <= d6 {
        return Some((0b100, [0.0, 0.0, 1.0]));
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let w = d2 / (d2 - d6);
        return Some((0b101, [1.0 - w, 0.0, w]));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return Some((0b110, [0.0, 1.0 - w, w]));
    }
    // Inside the face: va, vb, vc are twice the areas of the sub-triangles
    // (times the face's doubled area); their sum vanishes for points in a
    // line.
    let sum = va + vb + vc;
    let scale = ab.dot(ab) * ac.dot(ac);
    if sum.is_nan() || sum <= 1e-12 * scale {
        return None;
    }
    if P::DIM == 3 {
        return Some((0b111, inside_weights(a, ab, ac)));
    }
    let (v, w) = (vb / sum, vc / sum);
    Some((0b111, [1.0 - v - w, v, w]))
}

/// The weights in triangle `a, a + ab, a + ac` (3D) of the origin's
/// projection on its plane, from triple products with the face's normal.
/// The sub-areas above are differences of products of four lengths, so
/// for a long thin triangle (a capsule 1,000 times longer than wide
/// against a small box) their rounding, relative to the face's squared
/// area, is its length squared over its width squared times f64's: the
/// nearest point came out microns off and GJK stopped on it, the contact
/// normal a few hundred-thousandths of a radian wrong. These lose only the
/// length over the width. A projection the tests above put inside but
/// rounding puts a hair outside (GJK's new nearest point often lies next
/// to the edge that held the last) is taken onto that edge, without a
/// branch: a branch here, or an `Option`, kept the weights out of
/// registers, and GJK on polyhedra ran far slower (figures:
/// BENCHMARKS.md).
#[inline(always)]
fn inside_weights<P: Point>(a: P, ab: P, ac: P) -> [f64; 3] {
    let n = ab.cross(ac);
    let nn = n.dot(n);
    let v = (-a.cross(ac).dot(n) / nn).max(0.0);
    let w = (-ab.cross(a).dot(n) / nn).max(0.0);
    let u = (1.0 - v - w).max(0.0);
    let total = u + v + w;
    [u / total, v / total, w / total]
}

/// The tetrahedron's nearest point: the best of the faces (with
/// `newest`, those holding the last point) that the origin lies outside
/// of, or the whole tetrahedron when it holds the origin.
fn tetrahedron<P: Point>(simplex: &Simplex<P>, newest: bool) -> Option<Face> {
    let w = |k: usize| simplex.vertices[k].w;
    // Each face with the point opposite it; all but the first hold point 3.
    const FACES: [([u8; 3], usize); 4] = [
        ([0, 1, 2], 3),
        ([0, 1, 3], 2),
        ([0, 2, 3], 1),
        ([1, 2, 3], 0),
    ];
    let faces = if newest { &FACES[1..] } else { &FACES[..] };
    let mut best: Option<(f64, Face)> = None;
    let mut inside = true;
    for &(face, opposite) in faces {
        let (a, b, c) = (w(face[0].into()), w(face[1].into()), w(face[2].into()));
        let n = (b - a).cross(c - a);
        let origin_side = -a.dot(n);
        let other_side = (w(opposite) - a).dot(n);
        let scale = n.dot(n).sqrt() * (w(opposite) - a).dot(w(opposite) - a).sqrt();
        if other_side.is_nan() || other_side.abs() <= 1e-12 * scale {
            return None; // flat
        }
        if origin_side * other_side >= 0.0 {
            continue; // the origin is on the inner side of this face
        }
        inside = false;
        let (mask, weights) = triangle(a, b, c)?;
        if newest && mask & 0b100 == 0 {
            return None; // a feature without the newest point: rounding
        }
        let found = pick(face, mask, weights);
        let w = found.nearest_w(simplex);
        let d = w.dot(w);
        if best.as_ref().is_none_or(|(bd, _)| d < *bd) {
            best = Some((d, found));
        }
    }
    if inside {
        return enclosing(simplex);
    }
    best.map(|(_, s)| s)
}

/// The whole tetrahedron, for an origin inside it: its barycentric weights
/// by Cramer's rule, when all are positive (`None` on a face or for a flat
/// tetrahedron, left to the general solver, which tests the whole one the
/// same way).
fn enclosing<P: Point>(simplex: &Simplex<P>) -> Option<Face> {
    let w = |k: usize| simplex.vertices[k].w;
    let weights = tetrahedron_weights(w(0), w(1), w(2), w(3))?;
    // (false for NaN)
    weights.iter().all(|&l| l > 0.0).then_some(Face {
        index: [0, 1, 2, 3],
        weights,
        len: 4,
    })
}

/// The barycentric weights of the origin in tetrahedron `w0 w1 w2 w3`
/// (3D), by Cramer's rule on triple products; `None` when it is flat
/// within rounding: a volume below a trillionth of the product of its
/// edges from `w0` (a triple product's rounding error is about 1e-16 of
/// that product). The test is on the volume itself, not on the square of
/// the edges' longest length cubed, so a tetrahedron long and thin (a
/// capsule 1,000 times longer than wide against a small box) still
/// counts: its volume is a millionth of its longest edge cubed.
pub(crate) fn tetrahedron_weights<P: Point>(w0: P, w1: P, w2: P, w3: P) -> Option<[f64; 4]> {
    let (e1, e2, e3) = (w1 - w0, w2 - w0, w3 - w0);
    let det = e1.cross(e2).dot(e3);
    let edges = (e1.dot(e1) * e2.dot(e2) * e3.dot(e3)).sqrt();
    // (also false for NaN)
    if det.abs().partial_cmp(&(1e-12 * edges)) != Some(std::cmp::Ordering::Greater) {
        return None;
    }
    // origin = w0 + m1 e1 + m2 e2 + m3 e3.
    let r = -w0;
    let m1 = r.cross(e2).dot(e3) / det;
    let m2 = e1.cross(r).dot(e3) / det;
    let m3 = e1.cross(e2).dot(r) / det;
    Some([1.0 - m1 - m2 - m3, m1, m2, m3])
}

/// The face of the points `index[k]` (increasing) whose bit `k` is set in
/// `mask`, with their `weights`.
#[inline(always)]
fn pick(index: [u8; 3], mask: u8, weights: [f64; 3]) -> Face {
    let mut out = Face::default();
    for k in 0..3 {
        if mask & (1 << k) != 0 {
            out.index[out.len] = index[k];
            out.weights[out.len] = weights[k];
            out.len += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::narrow::gjk::{Vertex, nearest_face};
    use crate::test_rng::TestRng;
    use glam::{DVec2, DVec3};

    fn simplex<P: Point>(points: &[P]) -> Simplex<P> {
        let mut s = Simplex::default();
        for (k, &w) in points.iter().enumerate() {
            s.vertices[k] = Vertex {
                w,
                a: w,
                b: P::ZERO,
            };
        }
        s.len = points.len();
        s
    }

    /// The regions' face `fast` gives the general solver's nearest point
    /// (same distance), with weights in [0, 1] summing to 1, on increasing
    /// indices.
    fn assert_agree<P: Point>(case: usize, s: &Simplex<P>, fast: &Face, general: &Face) {
        let (pf, pg) = (fast.nearest_w(s), general.nearest_w(s));
        let (df, dg) = (pf.dot(pf), pg.dot(pg));
        let points: Vec<P> = s.vertices().iter().map(|v| v.w).collect();
        assert!(
            (df - dg).abs() <= 1e-9 * (1.0 + dg),
            "case {case}: {points:?}: regions {df} against {dg}"
        );
        let weights = &fast.weights[..fast.len];
        let sum: f64 = weights.iter().sum();
        assert!((sum - 1.0).abs() < 1e-9, "case {case}: weights {weights:?}");
        assert!(weights.iter().all(|&l| (-1e-12..=1.0 + 1e-12).contains(&l)));
        assert!(fast.index[..fast.len].windows(2).all(|w| w[0] < w[1]));
    }

    /// One case of the newest-point question: where the regions answer,
    /// they agree with the face solves and keep the newest point. True when
    /// they answered.
    fn newest_case<P: Point>(case: usize, points: &[P]) -> bool {
        let (s, len) = (simplex(points), points.len());
        let general = nearest_face(&s, 1 << (len - 1)).expect("a point always answers");
        // The reduced simplex GJK takes is the face's points and weights
        // (and gives up where the face does).
        let reduced = reduced_by_regions(&s);
        let Some(fast) = nearest_by_regions(&s) else {
            assert!(reduced.is_none(), "case {case}: reduced without a face");
            return false;
        };
        let (picked, reduced) = (s.picked(&fast), reduced.expect("reduced as the face"));
        assert_eq!(reduced.vertices(), picked.vertices(), "case {case}");
        assert_eq!(reduced.weights[..reduced.len], picked.weights[..picked.len]);
        assert_agree(case, &s, &fast, &general);
        assert!(
            fast.index[..fast.len]
                .iter()
                .any(|&k| s.vertices[usize::from(k)].w == points[len - 1]),
            "case {case}: the newest point is in the answer"
        );
        true
    }

    /// One case of the every-face question (the GJK ray cast's): where the
    /// regions answer, they agree with the face solves.
    fn any_case<P: Point>(case: usize, points: &[P]) -> bool {
        let s = simplex(points);
        let general = nearest_face(&s, 0).expect("a point always answers");
        let Some(fast) = nearest_any_by_regions(&s) else {
            return false;
        };
        assert_agree(case, &s, &fast, &general);
        true
    }

    /// `len` random points: coordinates uniform in [-1, 1) times
    /// `scale(axis)` on the first `dim` axes (0 beyond), moved by `shift`
    /// along x.
    fn random_points(
        rng: &mut TestRng,
        dim: usize,
        len: usize,
        scale: impl Fn(usize) -> f64,
        shift: f64,
    ) -> Vec<DVec3> {
        (0..len)
            .map(|_| {
                let mut c = |a: usize| {
                    if a < dim {
                        f64::from(rng.range(-1.0, 1.0)) * scale(a)
                    } else {
                        0.0
                    }
                };
                DVec3::new(c(0) + shift, c(1), c(2))
            })
            .collect()
    }

    /// Wherever the regions answer, their nearest point is the general
    /// solver's (same distance, weights in [0, 1] summing to 1), on random
    /// segments, triangles and tetrahedra in 2D and 3D, many of them near
    /// the origin or nearly flat.
    #[test]
    fn regions_agree_with_the_face_solves() {
        let mut rng = TestRng::new(7);
        let (mut answered, mut total) = (0, 0);
        for case in 0..20_000 {
            let dim = 2 + case % 2;
            let len = 2 + case % dim.min(3);
            let spread = if case % 5 == 0 { 1e-3 } else { 1.0 };
            let scale = |a: usize| if a == 0 { 1.0 } else { spread };
            let points = random_points(&mut rng, dim, len, scale, 0.3);
            total += 1;
            let flat: Vec<DVec2> = points.iter().map(|p| p.truncate()).collect();
            let fast = if dim == 2 {
                newest_case(case, &flat)
            } else {
                newest_case(case, &points)
            };
            answered += usize::from(fast);
        }
        // The regions answer most (not for flat or enclosing simplices, nor
        // where the nearest feature lacks the newest point, which random
        // points allow and GJK's do not; 89% here).
        assert!(answered * 4 > total * 3, "{answered} of {total}");
    }

    /// Over every face (the GJK ray cast's question), the regions agree
    /// with the face solves wherever they answer, on random points from 1
    /// to 4 around the origin (tetrahedra often enclosing it, which leaves
    /// the answer to the solves).
    #[test]
    fn regions_over_every_face_agree_with_the_face_solves() {
        let mut rng = TestRng::new(11);
        let (mut answered, mut total) = (0, 0);
        for case in 0..20_000 {
            let dim = 2 + case % 2;
            let len = 1 + case % (dim + 1);
            let spread = if case % 7 == 0 { 1e-3 } else { 1.0 };
            let scale = |a: usize| if a == 2 { spread } else { 1.0 };
            let points = random_points(&mut rng, dim, len, scale, 0.0);
            total += 1;
            let flat: Vec<DVec2> = points.iter().map(|p| p.truncate()).collect();
            let fast = if dim == 2 {
                any_case(case, &flat)
            } else {
                any_case(case, &points)
            };
            answered += usize::from(fast);
        }
        assert!(answered * 2 > total, "{answered} of {total}");
    }
}
