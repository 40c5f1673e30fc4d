//! The point of a GJK simplex nearest the origin by Voronoi regions
//! (Ericson, *Real-Time Collision Detection*, 5.1.2, 5.1.5 and 5.1.6):
//! a few dot products classify the origin against the simplex's vertices,
//! edges and faces, instead of solving a small linear system for every
//! face as the general solver in `gjk.rs` does.
//!
//! Only the faces holding the newest point can hold the nearest point (the
//! others held the previous one, which the newest support improved on).
//! When rounding says otherwise, or a face is degenerate (points in a
//! line, a flat tetrahedron), this gives up and the general solver
//! answers, so the two agree wherever this one answers.

use super::gjk::{P, Simplex, dot, sub};

/// The nearest point's face, for a simplex whose last point is the newest;
/// `None` to leave the answer to the general solver.
pub(crate) fn nearest_by_regions(simplex: &Simplex) -> Option<Simplex> {
    let w = |k: usize| simplex.vertices[k].w;
    match simplex.len {
        1 => Some(*simplex),
        2 => Some(segment(simplex)),
        3 => {
            let (face, weights) = triangle(w(0), w(1), w(2))?;
            (face & 0b100 != 0).then(|| pick(simplex, [0, 1, 2], face, weights))
        }
        4 => tetrahedron(simplex),
        _ => None,
    }
}

/// The nearest point of the two-point simplex (the second the newest), as
/// a simplex.
fn segment(simplex: &Simplex) -> Simplex {
    let [a, b, ..] = simplex.vertices;
    let (wa, wb) = (a.w, b.w);
    let ab = sub(wb, wa);
    let len_sq = dot(ab, ab);
    let t = if len_sq > 0.0 {
        -dot(wa, ab) / len_sq
    } else {
        1.0
    };
    let mut out = Simplex::default();
    if t > 0.0 && t < 1.0 {
        out.vertices[0] = a;
        out.vertices[1] = b;
        out.weights[0] = 1.0 - t;
        out.weights[1] = t;
        out.len = 2;
    } else {
        out.vertices[0] = b;
        out.weights[0] = 1.0;
        out.len = 1;
    }
    out
}

/// The Voronoi region of the origin for triangle `a b c`: a bit mask of the
/// vertices of the nearest feature (bit 0 for `a`) and their weights in
/// `a, b, c` order (zero for vertices not in it); `None` when the face is
/// degenerate.
fn triangle(a: P, b: P, c: P) -> Option<(u8, [f64; 3])> {
    let (ab, ac) = (sub(b, a), sub(c, a));
    let (d1, d2) = (-dot(ab, a), -dot(ac, a));
    if d1 <= 0.0 && d2 <= 0.0 {
        return Some((0b001, [1.0, 0.0, 0.0]));
    }
    let (d3, d4) = (-dot(ab, b), -dot(ac, b));
    if d3 >= 0.0 && d4 <= d3 {
        return Some((0b010, [0.0, 1.0, 0.0]));
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let v = d1 / (d1 - d3);
        return Some((0b011, [1.0 - v, v, 0.0]));
    }
    let (d5, d6) = (-dot(ab, c), -dot(ac, c));
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
    let scale = dot(ab, ab) * dot(ac, ac);
    if sum.is_nan() || sum <= 1e-12 * scale {
        return None;
    }
    let (v, w) = (vb / sum, vc / sum);
    Some((0b111, [1.0 - v - w, v, w]))
}

/// The tetrahedron's nearest point: the best of the faces holding the
/// newest point (the last) that the origin lies outside of, or the whole
/// tetrahedron when it holds the origin.
fn tetrahedron(simplex: &Simplex) -> Option<Simplex> {
    let w = |k: usize| simplex.vertices[k].w;
    // The faces holding point 3, each with the point opposite it.
    const FACES: [([usize; 3], usize); 3] = [([0, 1, 3], 2), ([0, 2, 3], 1), ([1, 2, 3], 0)];
    let mut best: Option<(f64, Simplex)> = None;
    let mut inside = true;
    for (face, opposite) in FACES {
        let (a, b, c) = (w(face[0]), w(face[1]), w(face[2]));
        let n = cross(sub(b, a), sub(c, a));
        let origin_side = -dot(a, n);
        let other_side = dot(sub(w(opposite), a), n);
        let scale = dot(n, n).sqrt() * dot(sub(w(opposite), a), sub(w(opposite), a)).sqrt();
        if other_side.is_nan() || other_side.abs() <= 1e-12 * scale {
            return None; // flat
        }
        if origin_side * other_side >= 0.0 {
            continue; // the origin is on the inner side of this face
        }
        inside = false;
        let (mask, weights) = triangle(a, b, c)?;
        if mask & 0b100 == 0 {
            return None; // a feature without the newest point: rounding
        }
        let found = pick(simplex, face, mask, weights);
        let w = found.nearest_w();
        let d = dot(w, w);
        if best.as_ref().is_none_or(|(bd, _)| d < *bd) {
            best = Some((d, found));
        }
    }
    if inside {
        return None; // the origin is inside: the general solver's weights
    }
    best.map(|(_, s)| s)
}

/// The sub-simplex of `simplex` made of the points `index[k]` whose bit `k`
/// is set in `mask`, with their `weights`.
fn pick(simplex: &Simplex, index: [usize; 3], mask: u8, weights: [f64; 3]) -> Simplex {
    let mut out = Simplex::default();
    for k in 0..3 {
        if mask & (1 << k) != 0 {
            out.vertices[out.len] = simplex.vertices[index[k]];
            out.weights[out.len] = weights[k];
            out.len += 1;
        }
    }
    out
}

fn cross(a: P, b: P) -> P {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::narrow::gjk::{Vertex, nearest_face};
    use crate::scene::SceneRng;

    fn simplex(points: &[P]) -> Simplex {
        let mut s = Simplex::default();
        for (k, &w) in points.iter().enumerate() {
            s.vertices[k] = Vertex {
                w,
                a: w,
                b: [0.0; 3],
            };
        }
        s.len = points.len();
        s
    }

    /// Wherever the regions answer, their nearest point is the general
    /// solver's (same distance, weights in [0, 1] summing to 1), on random
    /// segments, triangles and tetrahedra in 2D and 3D, many of them near
    /// the origin or nearly flat.
    #[test]
    fn regions_agree_with_the_face_solves() {
        let mut rng = SceneRng::new(7);
        let (mut answered, mut total) = (0, 0);
        for case in 0..20_000 {
            let dim = 2 + case % 2;
            let len = 2 + case % dim.min(3);
            let spread = if case % 5 == 0 { 1e-3 } else { 1.0 };
            let points: Vec<P> = (0..len)
                .map(|_| {
                    let mut c = |a: usize| {
                        if a < dim {
                            f64::from(rng.range(-1.0, 1.0)) * if a == 0 { 1.0 } else { spread }
                        } else {
                            0.0
                        }
                    };
                    [c(0) + 0.3, c(1), c(2)]
                })
                .collect();
            let s = simplex(&points);
            let general = nearest_face(&s, 1 << (len - 1)).expect("a point always answers");
            total += 1;
            let Some(fast) = nearest_by_regions(&s) else {
                continue;
            };
            answered += 1;
            let (pf, pg) = (fast.point().w, general.point().w);
            let (df, dg) = (dot(pf, pf), dot(pg, pg));
            assert!(
                (df - dg).abs() <= 1e-9 * (1.0 + dg),
                "case {case}: {points:?}: regions {df} against {dg}"
            );
            let sum: f64 = fast.weights[..fast.len].iter().sum();
            assert!(
                (sum - 1.0).abs() < 1e-9,
                "case {case}: weights {:?}",
                fast.weights
            );
            assert!(
                fast.weights[..fast.len]
                    .iter()
                    .all(|&l| (-1e-12..=1.0 + 1e-12).contains(&l))
            );
            assert!(
                fast.vertices[..fast.len]
                    .iter()
                    .any(|v| v.w == points[len - 1]),
                "case {case}: the newest point is in the answer"
            );
        }
        // The regions answer most (not for flat or enclosing simplices, nor
        // where the nearest feature lacks the newest point, which random
        // points allow and GJK's do not; 89% here).
        assert!(answered * 4 > total * 3, "{answered} of {total}");
    }
}
