//! The one trait the narrow phase's general algorithms (GJK, EPA, casts)
//! need from a shape: its support point along a direction.

use crate::geometry::Vector;

/// A convex shape as the general algorithms see it: a convex *core*
/// (a point, a segment, a polygon, a polyhedron) rounded by `radius`
/// (every point within `radius` of the core). A circle is a point core
/// with a radius, a capsule a segment core; boxes and polygons have radius
/// 0 unless rounded.
///
/// Both methods work in the shape's own frame; the caller places the
/// shape with a pose.
///
/// ```
/// use collide::narrow::{Support, d2::Cuboid};
/// use glam::Vec2;
/// let crate_box = Cuboid::new(Vec2::new(2.0, 1.0))?;
/// assert_eq!(crate_box.support(Vec2::new(1.0, -0.5)), Vec2::new(2.0, -1.0));
/// assert_eq!(crate_box.radius(), 0.0);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub trait Support<V: Vector> {
    /// A point of the core farthest along `direction` (any length, not
    /// zero; ties may give any of the farthest points).
    fn support(&self, direction: V) -> V;

    /// The rounding radius around the core (0 for sharp shapes).
    fn radius(&self) -> f32 {
        0.0
    }
}

/// A point cloud's coordinates axis by axis (a structure of arrays), for
/// the support of a polyhedron, which reads every point: the dot products
/// run four points at a time (vector instructions), each of four lanes
/// keeping its largest and that one's index, with no branch on the data
/// (the winner is unpredictable, so a branch would miss about once a
/// call). Padded to a multiple of 4 points with copies of the first, which
/// never win over it.
///
/// Against a loop over the `Vec3` points in four interleaved chains, it is
/// faster for 8-point polyhedra on distance and contact and even on ray
/// casts, but slower for small polygons, so polygons keep their one
/// branchless loop over the vertices (figures: BENCHMARKS.md).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Columns<const N: usize, const D: usize> {
    axes: [[f32; N]; D],
    /// Points in use, rounded up to a multiple of 4 (at most `N`).
    padded: u8,
}

impl<const N: usize, const D: usize> Columns<N, D> {
    /// The columns of `points` (at most `N`; `N` a multiple of 4, at most
    /// 32).
    pub(crate) fn new(points: &[[f32; D]]) -> Self {
        const {
            assert!(
                N.is_multiple_of(4) && N <= 32,
                "whole chunks of 4, u32 indices"
            )
        };
        debug_assert!(points.len() <= N, "{} points for {N} columns", points.len());
        let padded = points.len().div_ceil(4) * 4;
        let mut axes = [[0.0; N]; D];
        for k in 0..padded.min(N) {
            let p = points
                .get(k)
                .or(points.first())
                .copied()
                .unwrap_or([0.0; D]);
            for (axis, column) in axes.iter_mut().enumerate() {
                column[k] = p[axis];
            }
        }
        Self {
            axes,
            padded: padded.min(N) as u8,
        }
    }

    /// The index of the point farthest along `direction`: the first of
    /// equals, and 0 when no dot product is a number (a NaN direction).
    #[inline]
    pub(crate) fn farthest(&self, direction: [f32; D]) -> usize {
        // Lane by lane: the largest dot product so far and its index.
        let mut top = [f32::NEG_INFINITY; 4];
        let mut at = [0u32; 4];
        for chunk in 0..usize::from(self.padded) / 4 {
            for (lane, (top, at)) in top.iter_mut().zip(&mut at).enumerate() {
                let k = 4 * chunk + lane;
                // Indexed by the constant axes, so the loop unrolls
                // wherever this is inlined (an iterator chain here did not,
                // in some callers, and cost three times as much).
                let mut d = self.axes[0][k] * direction[0];
                #[allow(clippy::needless_range_loop)]
                for axis in 1..D {
                    d += self.axes[axis][k] * direction[axis];
                }
                let better = d > *top;
                *top = if better { d } else { *top };
                *at = if better { k as u32 } else { *at };
            }
        }
        // The best lane; equal tops go to the lower index (without a
        // branch).
        let pick = |(t0, a0): (f32, u32), (t1, a1): (f32, u32)| {
            let second = t1 > t0 || (t1 == t0 && a1 < a0);
            if second { (t1, a1) } else { (t0, a0) }
        };
        let left = pick((top[0], at[0]), (top[1], at[1]));
        let right = pick((top[2], at[2]), (top[3], at[3]));
        pick(left, right).1 as usize
    }
}

#[cfg(test)]
mod tests {
    use super::Columns;

    /// The points `x` on one axis, as 1D columns, and the farthest along +1.
    fn farthest_of(x: &[f32]) -> usize {
        let points: Vec<[f32; 1]> = x.iter().map(|&v| [v]).collect();
        Columns::<32, 1>::new(&points).farthest([1.0])
    }

    #[test]
    fn farthest_is_the_first_largest() {
        for n in 1..=32 {
            for winner in 0..n {
                let mut x = vec![1.0f32; n];
                x[winner] = 2.0;
                assert_eq!(farthest_of(&x), winner, "{n} points");
                // A tie with a later point keeps the earlier one.
                let mut tied = x.clone();
                tied[n - 1] = 2.0;
                assert_eq!(farthest_of(&tied), winner);
                // Along -1 the smallest wins.
                let points: Vec<[f32; 1]> = x.iter().map(|&v| [-v]).collect();
                assert_eq!(Columns::<32, 1>::new(&points).farthest([-1.0]), winner);
            }
            assert_eq!(farthest_of(&vec![3.0f32; n]), 0);
            let points: Vec<[f32; 1]> = vec![[1.0]; n];
            assert_eq!(Columns::<32, 1>::new(&points).farthest([f32::NAN]), 0);
        }
        // Padding copies the first point, which keeps its place.
        let points = [[0.0, 5.0], [1.0, 1.0], [2.0, 0.0]];
        let columns = Columns::<8, 2>::new(&points);
        assert_eq!(columns.farthest([0.0, 1.0]), 0);
        assert_eq!(columns.farthest([1.0, 0.0]), 2);
        assert_eq!(columns.farthest([-1.0, -1.0]), 1);
    }
}
