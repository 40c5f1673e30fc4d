//! GJK (Gilbert-Johnson-Keerthi): the distance and closest points between
//! two convex cores, for any dimension up to 3, from their support
//! functions alone.
//!
//! It works on the Minkowski difference `A - B` (every `a - b`), whose
//! point nearest the origin gives the distance and, split back into its
//! `a` and `b` parts, the closest points. Each iteration asks the support
//! along the current nearest point's reverse, and keeps the smallest
//! simplex (up to D + 1 points) holding the new nearest point. The
//! nearest point of a simplex is found by testing its faces (every subset
//! of its points): each face's nearest affine point, kept when its
//! barycentric weights are all positive, and the smallest of those wins.
//! Only faces holding the newest support point are tried (at most 8 small
//! solves in 3D: Gram systems for edges and triangles, triple products for
//! the tetrahedron, whose Gram determinant would square a thin one's small
//! volume below rounding); it needs no case analysis per dimension, and a
//! degenerate face (points in a line) is skipped, a smaller face answering
//! for it. A faster classification by Voronoi regions (`regions.rs`)
//! answers first and leaves these solves to degenerate and rounding
//! cases (and to an origin on a tetrahedron's face).
//!
//! Arithmetic is in f64 on points typed by dimension (`point.rs`): the
//! support points are exact f32 values, so the answer's error stays near
//! f32 rounding even when the shapes are far larger than their gap (a
//! known weakness of f32 GJK near large shapes).

pub(crate) use super::point::Point;
use super::point::unit;

/// One point of the Minkowski difference and the shape points it came
/// from: `w = a - b`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Vertex<P> {
    pub(crate) w: P,
    pub(crate) a: P,
    pub(crate) b: P,
}

/// The support of `A - B` along a direction: `(a, b)` with `a` farthest
/// along `d` in A and `b` farthest along `-d` in B.
pub(crate) trait MinkowskiSupport<P> {
    fn support(&self, d: P) -> Vertex<P>;
}

impl<P, F: Fn(P) -> Vertex<P>> MinkowskiSupport<P> for F {
    #[inline]
    fn support(&self, d: P) -> Vertex<P> {
        self(d)
    }
}

/// A simplex of the difference: up to 4 vertices with the barycentric
/// weights of its nearest point to the origin.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Simplex<P> {
    pub(crate) vertices: [Vertex<P>; 4],
    pub(crate) weights: [f64; 4],
    pub(crate) len: usize,
}

impl<P: Point> Simplex<P> {
    pub(crate) fn vertices(&self) -> &[Vertex<P>] {
        &self.vertices[..self.len]
    }

    /// The nearest point alone (its `w`), without the `a` and `b` parts
    /// that [`Simplex::point`] also sums.
    pub(crate) fn nearest_w(&self) -> P {
        let mut w = P::ZERO;
        for k in 0..self.len {
            w = w + (self.vertices[k].w * self.weights[k]);
        }
        w
    }

    /// The nearest point and its `a` and `b` parts.
    pub(crate) fn point(&self) -> Vertex<P> {
        let mut out = Vertex::default();
        for k in 0..self.len {
            let (v, l) = (self.vertices[k], self.weights[k]);
            out.w = out.w + (v.w * l);
            out.a = out.a + (v.a * l);
            out.b = out.b + (v.b * l);
        }
        out
    }

    /// A simplex of `face`'s points, with its weights, leaving this one
    /// as it was (GJK falls back on it when the reduced one makes no
    /// progress). Every slot is copied, without a branch and without
    /// zeroing first (the indices past `face.len` are stale but within the
    /// simplex, `& 3`): faster in 2D, and no slower in 3D, than zeroing a
    /// fresh simplex and copying `face.len` points (figures: BENCHMARKS.md).
    #[inline]
    pub(crate) fn picked(&self, face: &Face) -> Simplex<P> {
        Simplex {
            vertices: std::array::from_fn(|k| self.vertices[usize::from(face.index[k] & 3)]),
            weights: face.weights,
            len: face.len,
        }
    }

    /// Keeps only `face`'s points, with its weights, moved down in place
    /// (its indices increase, so each move reads a slot not yet written).
    /// For the GJK ray cast, which never goes back to the larger simplex:
    /// faster there than [`Simplex::picked`] (figures: BENCHMARKS.md).
    #[inline]
    pub(crate) fn keep(&mut self, face: &Face) {
        for k in 0..face.len {
            self.vertices[k] = self.vertices[usize::from(face.index[k] & 3)];
        }
        self.weights = face.weights;
        self.len = face.len;
    }
}

/// Some points of a simplex (indices into it, increasing) with the
/// barycentric weights of their point nearest the origin: what a simplex
/// reduces to, a few bytes instead of a copy of the simplex.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Face {
    pub(crate) index: [u8; 4],
    pub(crate) weights: [f64; 4],
    pub(crate) len: usize,
}

impl Face {
    /// The face's point nearest the origin (its `w`), from `simplex`'s
    /// points.
    #[inline]
    pub(crate) fn nearest_w<P: Point>(&self, simplex: &Simplex<P>) -> P {
        let mut w = P::ZERO;
        for k in 0..self.len {
            let v = simplex.vertices[usize::from(self.index[k])].w;
            w = w + (v * self.weights[k]);
        }
        w
    }

    /// The face of the points whose bits are set in `mask`, weights zero.
    fn from_mask(mask: u32) -> Self {
        let mut out = Self::default();
        for i in 0..4u8 {
            if mask & (1 << i) != 0 {
                out.index[out.len] = i;
                out.len += 1;
            }
        }
        out
    }
}

/// What GJK found; the simplex it ended with is left in the caller's (a
/// result this small comes back in registers, where returning the simplex
/// copied it, which was slower; figures: BENCHMARKS.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Gjk {
    /// The cores are apart: the simplex's nearest point (its `w` is
    /// `a - b`, its length the distance).
    Separated,
    /// The origin is in `A - B` (within rounding): the cores touch or
    /// overlap. The simplex is where the search ended, for EPA to start
    /// from.
    Overlapping,
}

/// Iterations before giving up with the best point so far (GJK converges
/// in a handful on polytopes; curved cores are rounded shapes here, so
/// their cores are polytopes or segments).
const MAX_ITERATIONS: usize = 64;
/// Converged when the support along the nearest point's reverse improves
/// the squared distance by less than this share.
const RELATIVE_TOLERANCE: f64 = 1e-12;

/// GJK on the difference, starting along `start` (any direction; the
/// centre difference is a good one), ending with `simplex` holding the
/// answer (its former content is not read).
pub(crate) fn gjk<P: Point>(
    shapes: &impl MinkowskiSupport<P>,
    start: P,
    simplex: &mut Simplex<P>,
) -> Gjk {
    let first = shapes.support(if start.dot(start) > 0.0 {
        start
    } else {
        unit(0)
    });
    *simplex = Simplex {
        vertices: [
            first,
            Vertex::default(),
            Vertex::default(),
            Vertex::default(),
        ],
        weights: [1.0, 0.0, 0.0, 0.0],
        len: 1,
    };
    iterate(shapes, simplex, first.w)
}

/// GJK from a simplex already reduced to its face nearest the origin,
/// with its weights (a warm start: the GJK ray cast's last simplex, whose
/// points lie near the answer, saves the first iterations).
pub(crate) fn gjk_from<P: Point>(
    shapes: &impl MinkowskiSupport<P>,
    simplex: &mut Simplex<P>,
) -> Gjk {
    let v = simplex.nearest_w();
    iterate(shapes, simplex, v)
}

/// GJK's iterations from `simplex`, whose nearest point is `v`.
#[inline(always)]
fn iterate<P: Point>(shapes: &impl MinkowskiSupport<P>, simplex: &mut Simplex<P>, mut v: P) -> Gjk {
    // The size of the numbers involved, for the absolute tolerance.
    let mut magnitude_sq = simplex
        .vertices()
        .iter()
        .fold(0.0f64, |m, p| m.max(p.a.dot(p.a)).max(p.b.dot(p.b)));
    for _ in 0..MAX_ITERATIONS {
        let vv = v.dot(v);
        if vv <= 1e-24 * magnitude_sq.max(1e-30) {
            return Gjk::Overlapping;
        }
        let next = shapes.support(-v);
        magnitude_sq = magnitude_sq.max(next.a.dot(next.a)).max(next.b.dot(next.b));
        // vv - v.w bounds (from above) how much nearer the true nearest
        // point can be: stop when that is negligible.
        if vv - v.dot(next.w) <= RELATIVE_TOLERANCE * vv {
            return Gjk::Separated;
        }
        if simplex.vertices().iter().any(|x| x.w == next.w) {
            return Gjk::Separated;
        }
        // Grown in place; taking the new point off again restores it.
        simplex.vertices[simplex.len] = next;
        simplex.len += 1;
        let Some(reduced) = reduced(simplex) else {
            simplex.len -= 1;
            return Gjk::Separated;
        };
        if reduced.len == P::DIM + 1 {
            *simplex = reduced;
            return Gjk::Overlapping;
        }
        let nearer = reduced.nearest_w();
        if nearer.dot(nearer) >= vv {
            // No progress (rounding): the previous point is the answer.
            simplex.len -= 1;
            return Gjk::Separated;
        }
        *simplex = reduced;
        v = nearer;
    }
    Gjk::Separated
}

/// `simplex` reduced to its face nearest the origin, with positive
/// weights; `None` if no face could be solved (never for a non-empty
/// simplex: single points always can). Only faces holding the newest point
/// (the last) are tried: the old points' faces held the previous nearest
/// point, which the newest support improved on. The Voronoi-region
/// classification of `regions.rs` answers first (a few dot products),
/// building the reduced simplex itself; this module's face solves answer
/// where it gives up. Built without a [`Face`] between (faster in 2D, even
/// in 3D), and inlined: as a call it returned the 3D simplex through
/// `memcpy`, slower in every case (figures: BENCHMARKS.md).
#[inline(always)]
fn reduced<P: Point>(simplex: &Simplex<P>) -> Option<Simplex<P>> {
    match super::regions::reduced_by_regions(simplex) {
        Some(reduced) => Some(reduced),
        None => nearest_face(simplex, 1u32 << (simplex.len - 1)).map(|face| simplex.picked(&face)),
    }
}

/// The face of `simplex` nearest the origin over every face, with
/// positive weights: for a simplex whose points all moved, as in the GJK
/// ray cast, which then keeps the face's points in place (see
/// [`Simplex::keep`]; taking a reduced simplex by copy as GJK does was
/// slower there; figures: BENCHMARKS.md).
pub(crate) fn nearest_any<P: Point>(simplex: &Simplex<P>) -> Option<Face> {
    super::regions::nearest_any_by_regions(simplex).or_else(|| nearest_face(simplex, 0))
}

/// The nearest face among those holding every point in `required` (a
/// bit mask).
pub(crate) fn nearest_face<P: Point>(simplex: &Simplex<P>, required: u32) -> Option<Face> {
    let n = simplex.len;
    // The best face so far: (squared distance, its points, their weights).
    let mut best: Option<(f64, Face)> = None;
    for mask in (1u32..(1 << n)).filter(|m| m & required == required) {
        let mut face = Face::from_mask(mask);
        let Some(weights) = face_weights(simplex, &face) else {
            continue;
        };
        face.weights = weights;
        let p = face.nearest_w(simplex);
        let d = p.dot(p);
        // Prefer the smaller face on a tie (fewer points, same distance).
        if best
            .as_ref()
            .is_none_or(|(bd, bf)| d < *bd || (d == *bd && face.len < bf.len))
        {
            best = Some((d, face));
        }
    }
    best.map(|(_, face)| face)
}

/// Barycentric weights of the point of the affine hull of `face`
/// nearest the origin, when they are all positive (the point lies inside
/// the face); `None` when one is not, or the face is degenerate.
fn face_weights<P: Point>(simplex: &Simplex<P>, face: &Face) -> Option<[f64; 4]> {
    let k = face.len;
    let w = |j: usize| simplex.vertices[usize::from(face.index[j])].w;
    if k == 1 {
        return Some([1.0, 0.0, 0.0, 0.0]);
    }
    if k == 4 {
        // A tetrahedron (3D): the origin's own weights, by triple products
        // (the Gram determinant squares the volume, and a long thin
        // tetrahedron's would fall below rounding's threshold).
        let weights = super::regions::tetrahedron_weights(w(0), w(1), w(2), w(3))?;
        return weights.iter().all(|&l| l > 0.0).then_some(weights);
    }
    // Solve G mu = -E^T w0 with E's columns e_j = w_j - w0 (j >= 1).
    let base = w(0);
    let e: [P; 3] = std::array::from_fn(|j| if j + 1 < k { w(j + 1) - base } else { P::ZERO });
    let m = k - 1;
    let mut g = [[0.0f64; 4]; 3];
    let mut scale_sq = 0.0f64;
    for r in 0..m {
        for c in 0..m {
            g[r][c] = e[r].dot(e[c]);
        }
        g[r][3] = -e[r].dot(base);
        scale_sq = scale_sq.max(g[r][r]);
    }
    let mu = solve(&mut g, m, scale_sq)?;
    let mut weights = [0.0; 4];
    let mut rest = 1.0;
    for j in 0..m {
        weights[j + 1] = mu[j];
        rest -= mu[j];
    }
    weights[0] = rest;
    weights[..k].iter().all(|&l| l > 0.0).then_some(weights)
}

/// Gaussian elimination with partial pivoting on the `m x m` system in
/// `g` (right-hand side in column 3); `None` when it is singular relative
/// to `scale_sq` (the face's points do not span its dimension).
fn solve(g: &mut [[f64; 4]; 3], m: usize, scale_sq: f64) -> Option<[f64; 3]> {
    let tiny = 1e-13
        * (0..m)
            .fold(1.0, |acc, _| acc * scale_sq)
            .max(f64::MIN_POSITIVE);
    let mut det = 1.0f64;
    for col in 0..m {
        let pivot = (col..m).max_by(|&a, &b| g[a][col].abs().total_cmp(&g[b][col].abs()))?;
        g.swap(col, pivot);
        let p = g[col][col];
        det *= p;
        if p == 0.0 {
            return None;
        }
        let pivot_row = g[col];
        for row in &mut g[col + 1..m] {
            let f = row[col] / p;
            for (x, &y) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * y;
            }
        }
    }
    if det.abs() <= tiny {
        return None;
    }
    let mut x = [0.0; 3];
    for r in (0..m).rev() {
        let mut s = g[r][3];
        for c in r + 1..m {
            s -= g[r][c] * x[c];
        }
        x[r] = s / g[r][r];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, DVec3};

    /// Support of a 2D box [lo, hi].
    fn boxed(lo: [f64; 2], hi: [f64; 2]) -> impl Fn(DVec2) -> DVec2 {
        move |d: DVec2| {
            DVec2::new(
                if d.x >= 0.0 { hi[0] } else { lo[0] },
                if d.y >= 0.0 { hi[1] } else { lo[1] },
            )
        }
    }

    fn pair<P: Point>(a: impl Fn(P) -> P, b: impl Fn(P) -> P) -> impl Fn(P) -> Vertex<P> {
        move |d: P| {
            let (pa, pb) = (a(d), b(-d));
            Vertex {
                w: (pa - pb),
                a: pa,
                b: pb,
            }
        }
    }

    #[test]
    fn distance_between_boxes_is_exact() {
        let shapes = pair(boxed([0.0, 0.0], [1.0, 1.0]), boxed([3.0, 0.5], [4.0, 2.0]));
        let mut s = Simplex::default();
        assert_eq!(gjk(&shapes, DVec2::X, &mut s), Gjk::Separated, "apart");
        let p = s.point();
        assert!((p.w.dot(p.w).sqrt() - 2.0).abs() < 1e-12);
        assert!((p.a.x - 1.0).abs() < 1e-12 && (p.b.x - 3.0).abs() < 1e-12);
        // Diagonal: nearest corners (1,1) and (3,3): distance sqrt 8.
        let shapes = pair(boxed([0.0, 0.0], [1.0, 1.0]), boxed([3.0, 3.0], [4.0, 4.0]));
        assert_eq!(gjk(&shapes, DVec2::ONE, &mut s), Gjk::Separated, "apart");
        assert!(((s.point().w).dot(s.point().w) - 8.0).abs() < 1e-9);
    }

    #[test]
    fn overlap_is_found_in_2d_and_3d() {
        let shapes = pair(boxed([0.0, 0.0], [2.0, 2.0]), boxed([1.0, 1.0], [3.0, 3.0]));
        let mut s = Simplex::default();
        assert_eq!(gjk(&shapes, DVec2::X, &mut s), Gjk::Overlapping);
        let cube = |c: DVec3, h: f64| {
            move |d: DVec3| DVec3::from_axes(|a| c[a] + if d[a] >= 0.0 { h } else { -h })
        };
        let shapes = pair(
            cube(DVec3::ZERO, 1.0),
            cube(DVec3::new(1.5, 0.5, -0.5), 1.0),
        );
        let mut s = Simplex::default();
        assert_eq!(gjk(&shapes, DVec3::X, &mut s), Gjk::Overlapping);
        let shapes = pair(cube(DVec3::ZERO, 1.0), cube(DVec3::splat(2.5), 1.0));
        assert_eq!(gjk(&shapes, DVec3::X, &mut s), Gjk::Separated, "apart");
        assert!(((s.point().w).dot(s.point().w) - 0.75).abs() < 1e-9);
    }
}
