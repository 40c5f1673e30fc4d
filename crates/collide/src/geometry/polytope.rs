//! The corners of a frustum's planes: whether the region they bound is
//! bounded, and if so the box around it (from its vertices), or empty.
//! All in f64, with tolerances relative to the planes' scale.

use super::{Aabb, Plane, Vector};

/// What the planes bound.
pub(super) enum Extent<V: Vector> {
    /// Unbounded in some direction.
    Unbounded,
    /// Bounded and empty: no point is inside every plane.
    Empty,
    /// Bounded: every point inside every plane is in this box.
    Within(Aabb<V>),
}

type P3 = [f64; 3];

/// Corners whose planes meet at a smaller angle (the determinant over the
/// normals' lengths) are not trusted: the rounding of the solve could
/// exceed the box's margin (a review found 3e-4 relative error near 1e-12),
/// so the frustum then goes without bounds. At 1e-6 the error stays near
/// 1e-10, far inside the 1e-5 margin.
const ILL_CONDITIONED: f64 = 1e-6;

fn dot(a: P3, b: P3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: P3, b: P3) -> P3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn norm(a: P3) -> f64 {
    dot(a, a).sqrt()
}

/// Classifies the region inside every plane of `planes`.
pub(super) fn extent<V: Vector>(planes: &[Plane<V>]) -> Extent<V> {
    let d = V::DIM;
    let normals: Vec<P3> = planes
        .iter()
        .map(|p| {
            std::array::from_fn(|a| {
                if a < d {
                    f64::from(p.normal().axis(a))
                } else {
                    0.0
                }
            })
        })
        .collect();
    let offsets: Vec<f64> = planes.iter().map(|p| f64::from(p.offset())).collect();
    // Unbounded iff some direction u != 0 has n . u <= 0 for every normal;
    // such a direction, if any, is along the intersection of D - 1 of the
    // planes (or the normals all lie in fewer dimensions).
    let mut candidates: Vec<P3> = Vec::new();
    for (i, &a) in normals.iter().enumerate() {
        if d == 2 {
            candidates.push([-a[1], a[0], 0.0]);
        } else {
            for &b in &normals[i + 1..] {
                // Every pair that is not exactly parallel, however close:
                // a skipped pair could hide the one open direction.
                let c = cross(a, b);
                if norm(c) > 0.0 {
                    candidates.push(c);
                }
            }
        }
    }
    if candidates.is_empty() {
        return Extent::Unbounded; // all normals parallel (3D)
    }
    for u in candidates {
        for u in [u, u.map(|x| -x)] {
            let open = normals
                .iter()
                .all(|&n| dot(n, u) <= 1e-9 * norm(n) * norm(u));
            if open {
                return Extent::Unbounded;
            }
        }
    }
    // Bounded: its vertices are where D of the planes meet.
    let scale = offsets.iter().fold(1.0f64, |m, &o| m.max(o.abs()));
    let feasible = |x: P3| {
        normals
            .iter()
            .zip(&offsets)
            .all(|(&n, &o)| dot(n, x) <= o + 1e-7 * (scale + norm(n) * norm(x)))
    };
    let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
    let mut any = false;
    let mut take = |x: P3| {
        if feasible(x) {
            any = true;
            for a in 0..d {
                lo[a] = lo[a].min(x[a]);
                hi[a] = hi[a].max(x[a]);
            }
        }
    };
    let n = normals.len();
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (normals[i], normals[j]);
            if d == 2 {
                let det = a[0] * b[1] - a[1] * b[0];
                if det == 0.0 {
                    continue; // parallel: no corner
                }
                if det.abs() <= ILL_CONDITIONED * norm(a) * norm(b) {
                    return Extent::Unbounded; // a corner too far to trust
                }
                let (p, q) = (offsets[i], offsets[j]);
                take([
                    (p * b[1] - q * a[1]) / det,
                    (a[0] * q - b[0] * p) / det,
                    0.0,
                ]);
                continue;
            }
            for k in j + 1..n {
                let c = normals[k];
                let det = dot(a, cross(b, c));
                if det == 0.0 {
                    continue; // no single corner
                }
                if det.abs() <= ILL_CONDITIONED * norm(a) * norm(b) * norm(c) {
                    // A corner too far or too ill-conditioned to trust:
                    // give up the bounds rather than risk cutting it off.
                    return Extent::Unbounded;
                }
                let x: P3 = std::array::from_fn(|m| {
                    (offsets[i] * cross(b, c)[m]
                        + offsets[j] * cross(c, a)[m]
                        + offsets[k] * cross(a, b)[m])
                        / det
                });
                take(x);
            }
        }
    }
    if !any {
        return Extent::Empty;
    }
    // Widened against the rounding of the corners and of the hit test.
    let mut min = [0.0f32; 3];
    let mut max = [0.0f32; 3];
    for a in 0..d {
        let margin = 1e-5 * (lo[a].abs().max(hi[a].abs()) + (hi[a] - lo[a])) + 1e-30;
        let (l, h) = (lo[a] - margin, hi[a] + margin);
        if !(l >= f64::from(f32::MIN) && h <= f64::from(f32::MAX)) {
            return Extent::Unbounded; // beyond f32: treat as unbounded
        }
        min[a] = l as f32;
        max[a] = h as f32;
    }
    match Aabb::new(V::from_axes(|a| min[a]), V::from_axes(|a| max[a])) {
        Ok(b) => Extent::Within(b),
        Err(_) => Extent::Unbounded,
    }
}
