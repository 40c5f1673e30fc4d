//! Scene statistics: the numbers the demo prints about a scene before
//! comparing structures (variance of centres per axis, pairs overlapping on
//! one axis, true overlapping pairs).

use collide::{Aabb, Vector, math};

/// Statistics of one set of boxes.
///
/// ```
/// use collide::Aabb2;
/// use collide_scenes::SceneStats;
/// use glam::Vec2;
/// let boxes = [
///     Aabb2::from_center_half_extents(Vec2::new(0.0, 0.0), Vec2::ONE)?,
///     Aabb2::from_center_half_extents(Vec2::new(1.0, 0.0), Vec2::ONE)?,
///     Aabb2::from_center_half_extents(Vec2::new(2.0, 0.0), Vec2::ONE)?,
/// ];
/// let stats = SceneStats::measure(&boxes);
/// assert_eq!(stats.objects, 3);
/// assert_eq!(stats.center_variance, vec![2.0 / 3.0, 0.0]);
/// assert_eq!((stats.axis_pairs, stats.pairs), (vec![2, 3], 2));
/// # Ok::<(), collide::AabbError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SceneStats {
    /// Number of boxes.
    pub objects: usize,
    /// Variance of box centres on each axis (x, y[, z]), in square units.
    pub center_variance: Vec<f64>,
    /// Pairs whose projections overlap on each axis alone (strict rule).
    pub axis_pairs: Vec<u64>,
    /// Pairs overlapping on every axis: the true pairs.
    pub pairs: u64,
}

impl SceneStats {
    /// Measures `boxes` (one sort and sweep per axis, O(n log n + output)).
    ///
    /// ```
    /// use collide::Aabb2;
    /// use collide_scenes::SceneStats;
    /// use glam::Vec2;
    /// let boxes = [
    ///     Aabb2::new(Vec2::new(0.0, 0.0), Vec2::new(2.0, 1.0))?,
    ///     Aabb2::new(Vec2::new(1.0, 5.0), Vec2::new(3.0, 6.0))?,
    /// ];
    /// let stats = SceneStats::measure(&boxes);
    /// assert_eq!(stats.axis_pairs, vec![1, 0]); // overlap on x only
    /// assert_eq!(stats.pairs, 0);
    /// # Ok::<(), collide::AabbError>(())
    /// ```
    pub fn measure<V: Vector>(boxes: &[Aabb<V>]) -> Self {
        let n = boxes.len();
        let center_variance = (0..V::DIM)
            .map(|axis| {
                let mean = boxes
                    .iter()
                    .map(|b| f64::from(b.center().axis(axis)))
                    .sum::<f64>()
                    / n.max(1) as f64;
                boxes
                    .iter()
                    .map(|b| math::powi(f64::from(b.center().axis(axis)) - mean, 2))
                    .sum::<f64>()
                    / n.max(1) as f64
            })
            .collect();
        let mut order: Vec<usize> = (0..n).collect();
        let mut axis_pairs = Vec::with_capacity(V::DIM);
        let mut pairs = 0;
        for axis in 0..V::DIM {
            order.sort_unstable_by(|&a, &b| {
                boxes[a]
                    .min()
                    .axis(axis)
                    .total_cmp(&boxes[b].min().axis(axis))
            });
            let mut count = 0;
            for (k, &i) in order.iter().enumerate() {
                let bi = &boxes[i];
                for &j in &order[k + 1..] {
                    if boxes[j].min().axis(axis) >= bi.max().axis(axis) {
                        break;
                    }
                    if bi.overlaps_on_axis(&boxes[j], axis) {
                        count += 1;
                        if axis == 0 && bi.overlaps(&boxes[j]) {
                            pairs += 1;
                        }
                    }
                }
            }
            axis_pairs.push(count);
        }
        Self {
            objects: n,
            center_variance,
            axis_pairs,
            pairs,
        }
    }
}
