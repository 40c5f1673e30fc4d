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

/// The index of the point with the largest `dot` (the first of equals; 0
/// when none is above minus infinity, as with NaN), for the support of a
/// point cloud (a polyhedron's).
///
/// Without a branch (the winner is unpredictable, so a branch would miss
/// about once a call) and in four interleaved chains, so each comparison
/// waits on the one four points back rather than on the last. Measured
/// with collide-bench's `gjk_loop` (best of 5 runs, alternated): 8-point
/// polyhedra 10% faster on distance and ray casts than one chain; the
/// 6-point hexagon of `gjk_loop d2` 12% slower, so polygons (at most 8
/// points, fully unrolled) keep one chain.
#[inline]
pub(crate) fn farthest<T>(points: &[T], dot: impl Fn(&T) -> f32) -> usize {
    let mut top = [f32::NEG_INFINITY; 4];
    let mut best = [0usize; 4];
    let mut offer = |lane: usize, index: usize, d: f32| {
        let better = d > top[lane];
        top[lane] = if better { d } else { top[lane] };
        best[lane] = if better { index } else { best[lane] };
    };
    let chunks = points.chunks_exact(4);
    let rest = chunks.remainder();
    let full = points.len() - rest.len();
    for (c, chunk) in chunks.enumerate() {
        for (lane, p) in chunk.iter().enumerate() {
            offer(lane, 4 * c + lane, dot(p));
        }
    }
    for (lane, p) in rest.iter().enumerate() {
        offer(lane, full + lane, dot(p));
    }
    // The best lane; equal tops go to the lower index (lanes that saw no
    // point keep minus infinity and index 0).
    let mut lane = 0;
    for other in 1..4 {
        let (d, k) = (top[other], best[other]);
        if d > top[lane] || (d == top[lane] && k < best[lane]) {
            lane = other;
        }
    }
    best[lane]
}

#[cfg(test)]
mod tests {
    use super::farthest;

    #[test]
    fn farthest_is_the_first_largest() {
        for n in 1..12 {
            for winner in 0..n {
                let mut dots = vec![1.0f32; n];
                dots[winner] = 2.0;
                assert_eq!(farthest(&dots, |d| *d), winner, "{n} points");
                // A tie with a later point keeps the earlier one.
                let mut tied = dots.clone();
                tied[n - 1] = 2.0;
                assert_eq!(farthest(&tied, |d| *d), winner);
            }
            assert_eq!(farthest(&vec![f32::NAN; n], |d| *d), 0);
            assert_eq!(farthest(&vec![3.0f32; n], |d| *d), 0);
        }
    }
}
