//! What `auto` measures of a scene ([`SceneProfile`]) and the decision it
//! takes from it ([`choose_structure`]): a decision table as a function,
//! with thresholds fitted to the benchmarks.

use crate::broad::structure::Structure;
use crate::geometry::{Aabb, Vector};
use crate::math;
use std::fmt;

/// What `Auto` measured of the scene at a review; [`choose_structure`]
/// decides from it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SceneProfile {
    /// Objects present.
    pub objects: usize,
    /// Axes of the scene, 2 or 3.
    pub dim: usize,
    /// The largest variance of the boxes' centres on one axis over the
    /// smallest (1 for a scene spread alike on every axis; world units
    /// squared over world units squared).
    pub flatness: f32,
    /// The axis whose centres vary the most: the one a sweep would sort
    /// along.
    pub sweep_axis: usize,
    /// The 90th percentile of the objects' sizes over the 10th, the huge
    /// ones left out (1 when all are alike; a zero 10th percentile counts
    /// as the smallest positive size). An object's size is the geometric
    /// mean of its
    /// extents, each at least a hundredth of its largest: a rod 1,000
    /// times longer than thick sizes like a box 100 times smaller than
    /// its length, since a grid registers it in a row of cells, not a
    /// block.
    pub size_spread: f32,
    /// Share of the objects, 0 to 1, 16 times the median size or more: a
    /// few huge objects among many small ones, which percentiles miss. A
    /// grid sized for the small ones registers each huge one in many
    /// cells, and stays the fastest of ours with up to 10% of them.
    pub huge_share: f32,
    /// Share of the objects, 0 to 1, whose longest extent is 10 times
    /// their shortest or more (rods, planks, thin walls).
    pub elongated_share: f32,
    /// Share of the objects, 0 to 1, whose box is a quarter or more of
    /// the scene's largest extent long on some axis (floors and walls that
    /// span the world).
    pub spanning_share: f32,
    /// Share of the neighbours along the sweep axis, 0 to 1, still in
    /// order one step later: 1 when nothing crossed, about 0.5 when the
    /// order is lost (teleports). 1 until measured (the first review, and
    /// [`SceneProfile::of`]).
    pub coherence: f32,
    /// Crowding of the centres: the mean number of other centres sharing
    /// a centre's cell, on a grid of about two centres a cell over their
    /// bounds, over the same for centres spread uniformly (about 1 for a
    /// uniform scene; 5 and more when most objects sit in hotspots).
    pub clustering: f32,
    /// About how many boxes cover a point where the objects are: the
    /// boxes' summed volume (area in 2D) over the volume of their bounds,
    /// times `clustering` (0 for points; above 1 where they must overlap).
    /// A grid's best cell size follows it.
    pub density: f32,
}

impl Default for SceneProfile {
    /// No objects: every measure at its neutral value.
    fn default() -> Self {
        Self {
            objects: 0,
            dim: 0,
            flatness: 1.0,
            sweep_axis: 0,
            size_spread: 1.0,
            huge_share: 0.0,
            elongated_share: 0.0,
            spanning_share: 0.0,
            coherence: 1.0,
            clustering: 1.0,
            density: 0.0,
        }
    }
}

impl fmt::Display for SceneProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} objects in {}D, flatness {:.1} (sweep axis {}), size spread {:.1}, \
             {:.1}% huge, {:.1}% elongated, {:.1}% spanning, coherence {:.3}, \
             clustering {:.1}, density {:.2}",
            self.objects,
            self.dim,
            self.flatness,
            self.sweep_axis,
            self.size_spread,
            self.huge_share * 100.0,
            self.elongated_share * 100.0,
            self.spanning_share * 100.0,
            self.coherence,
            self.clustering,
            self.density
        )
    }
}

impl SceneProfile {
    /// Measures a set of boxes (what `Auto` does at a review, less the
    /// coherence, which needs two steps: it reads 1 here).
    ///
    /// ```
    /// use collide::{Aabb2, SceneProfile};
    /// use glam::Vec2;
    /// let row: Vec<Aabb2> = (0..100)
    ///     .map(|i| Aabb2::new(Vec2::new(i as f32 * 10.0, 0.0), Vec2::new(i as f32 * 10.0 + 2.0, 2.0)))
    ///     .collect::<Result<_, _>>()?;
    /// let profile = SceneProfile::of(&row);
    /// assert_eq!(profile.objects, 100);
    /// assert!(profile.flatness > 1e6); // every centre at y = 1
    /// assert_eq!(profile.sweep_axis, 0);
    /// # Ok::<(), collide::AabbError>(())
    /// ```
    pub fn of<V: Vector>(boxes: &[Aabb<V>]) -> Self {
        Profiler::default().measure(|| boxes.iter())
    }

    /// Measures `after` as [`SceneProfile::of`] does, with the coherence
    /// of the step from `before`: `before[i]` and `after[i]` are one
    /// object a step apart (objects past the shorter slice are left out of
    /// the coherence).
    ///
    /// ```
    /// use collide::{Aabb2, SceneProfile};
    /// use glam::Vec2;
    /// let at = |x: f32| Aabb2::new(Vec2::new(x, 0.0), Vec2::new(x + 1.0, 1.0));
    /// let before = [at(0.0)?, at(10.0)?, at(20.0)?, at(30.0)?, at(40.0)?];
    /// let mut after = before;
    /// after[0] = at(35.0)?; // jumps over three neighbours
    /// let profile = SceneProfile::of_motion(&before, &after);
    /// assert_eq!(profile.coherence, 0.75); // 3 of 4 neighbours still in order
    /// # Ok::<(), collide::AabbError>(())
    /// ```
    pub fn of_motion<V: Vector>(before: &[Aabb<V>], after: &[Aabb<V>]) -> Self {
        let mut profiler = Profiler::default();
        let mut profile = profiler.measure(|| after.iter());
        let axis = profile.sweep_axis;
        profiler.keep_order(before.iter().enumerate().map(|(i, b)| (i as u32, b)), axis);
        profile.coherence = profiler
            .coherence(|i| after.get(i as usize).copied())
            .unwrap_or(1.0);
        profile
    }
}

/// A structure picked by [`choose_structure`] and the rule that picked it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The structure (never [`Structure::Auto`]).
    pub structure: Structure,
    /// The rule, in plain words.
    pub reason: &'static str,
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.structure, self.reason)
    }
}

/// Objects up to this count: brute force.
pub(crate) const SMALL_SCENE: usize = 32;
/// Sizes this spread apart (90th over 10th percentile): the hierarchical
/// grid.
const SPREAD_SIZES: f32 = 16.0;
/// Centres this much more spread on one axis than another: sweep and
/// prune along it, up to a count.
const FLAT_SCENE: f32 = 100.0;
/// Flat 2D scenes up to this many objects sweep; above it a grid's
/// cells, chosen for the band (and chosen again by `Auto` when the scene
/// turns flat), are as fast or faster by 10,000 objects, where at 1,000
/// the sweep is the fastest (figures: BENCHMARKS.md).
const FLAT_SWEEP_MAX_2D: usize = 3_000;
/// Flat 3D scenes up to this many objects sweep. A band in 3D keeps fewer
/// boxes over each stretch of the sorted axis than one in 2D, so the
/// sweep pays longer: on 3D `flat` it leads the grid up to 15,000 objects
/// and loses from 20,000, but for fast motion (figures: BENCHMARKS.md).
const FLAT_SWEEP_MAX_3D: usize = 15_000;
/// This share of world-spanning objects in 2D: sweep and prune.
const SPANNING_2D: f32 = 0.005;
/// This share in 3D, where a grid cell holds fewer of a wall's neighbours:
/// the grid leads the sweep by 5 to 15% with 2% of walls at 10,000
/// objects, and trails it by 30 to 40% with 5% (figures: BENCHMARKS.md).
const SPANNING_3D: f32 = 0.03;

/// The structure for a scene, a decision table as a function,
/// fitted to our structures' measurements (figures: BENCHMARKS.md):
///
/// 1. up to 32 objects: brute force;
/// 2. sizes whose 90th percentile is 16 times their 10th or more, huge
///    objects (16 times the median size) left out: the hierarchical grid.
///    A few huge objects among small ones keep the dense grid, sized for
///    the many (fastest of ours with 0.1% to 10% of them), and so do rods,
///    which a grid registers in a row of cells;
/// 3. half a percent or more of the objects spanning a quarter of the
///    world in 2D (floors, walls), 3% in 3D: one-axis sweep and prune,
///    whose sorted axis holds a long box as one interval where a grid
///    registers it in every cell it covers;
/// 4. centres 100 times more spread (in variance) on one axis than
///    another, up to 3,000 objects in 2D and 15,000 in 3D: one-axis sweep
///    and prune;
/// 5. otherwise the dense grid.
///
/// ```
/// use collide::{SceneProfile, Structure, choose_structure};
/// let flat = SceneProfile { objects: 1_000, dim: 2, flatness: 400.0, ..SceneProfile::default() };
/// assert_eq!(choose_structure(&flat).structure, Structure::Sap1);
/// let even = SceneProfile { objects: 5_000, dim: 2, ..SceneProfile::default() };
/// assert_eq!(choose_structure(&even).structure, Structure::Grid);
/// println!("{}", choose_structure(&even)); // "grid (...the reason...)"
/// ```
pub fn choose_structure(profile: &SceneProfile) -> Choice {
    let (structure, reason) = if profile.objects <= SMALL_SCENE {
        (
            Structure::Brute,
            "32 objects or fewer: testing every pair costs least",
        )
    } else if profile.size_spread >= SPREAD_SIZES {
        (
            Structure::HGrid,
            "sizes 16 times apart or more: a level of cells for each size",
        )
    } else if profile.spanning_share >= spanning_min(profile.dim) {
        (
            Structure::Sap1,
            "objects spanning the world: a sorted axis holds each as one interval",
        )
    } else if profile.flatness >= FLAT_SCENE && profile.objects <= flat_sweep_max(profile.dim) {
        (
            Structure::Sap1,
            "a flat scene: one sorted axis along the band separates them",
        )
    } else {
        (
            Structure::Grid,
            "objects of similar sizes spread in the world: one cell size fits",
        )
    };
    Choice { structure, reason }
}

/// The least share of spanning objects that sweeps in `dim` axes (rule 3).
fn spanning_min(dim: usize) -> f32 {
    if dim >= 3 { SPANNING_3D } else { SPANNING_2D }
}

/// The most objects a flat scene of `dim` axes sweeps (rule 4).
fn flat_sweep_max(dim: usize) -> usize {
    if dim >= 3 {
        FLAT_SWEEP_MAX_3D
    } else {
        FLAT_SWEEP_MAX_2D
    }
}

/// Reused memory for measuring scenes, and the sweep-axis order kept from
/// the step before a review to measure coherence.
#[derive(Debug, Default)]
pub(crate) struct Profiler {
    extents: Vec<f32>,
    cells: Vec<u32>,
    /// Sort keys (`min` on the sweep axis as ordered bits, slot) of the
    /// step before the review, sorted.
    order: Vec<u64>,
    order_scratch: Vec<u64>,
    order_axis: usize,
}

/// The share of the scene's extent a spanning box covers.
const SPANNING_FRACTION: f64 = 0.25;
/// A huge object's size over the median size.
const HUGE: f32 = 16.0;
/// An elongated object's longest extent over its shortest.
const ELONGATED: f32 = 10.0;
/// The least share of its largest extent an axis counts with in an
/// object's size.
const THINNEST: f32 = 0.01;

/// An object's size: the geometric mean of its extents, each at least
/// [`THINNEST`] of its `largest`.
fn size_of<V: Vector>(b: &Aabb<V>, largest: f32) -> f32 {
    let floor = THINNEST * largest;
    let product: f64 = (0..V::DIM)
        .map(|a| f64::from((b.max().axis(a) - b.min().axis(a)).max(floor)))
        .product();
    math::powf(product, 1.0 / V::DIM as f64) as f32
}

/// `x` as a `u32` whose unsigned order is `f32::total_cmp`'s.
fn ordered_bits(x: f32) -> u32 {
    let bits = x.to_bits();
    if bits >> 31 == 1 {
        !bits
    } else {
        bits | 1 << 31
    }
}

impl Profiler {
    /// Measures the boxes `boxes()` walks (twice), all but the coherence,
    /// which reads 1.
    pub(crate) fn measure<'a, V: Vector, I: Iterator<Item = &'a Aabb<V>>>(
        &mut self,
        boxes: impl Fn() -> I,
    ) -> SceneProfile {
        let mut count = 0usize;
        let mut volume = 0f64;
        let (mut sum, mut sum_sq) = ([0f64; 3], [0f64; 3]);
        let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
        let (mut box_lo, mut box_hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
        self.extents.clear();
        let mut elongated = 0usize;
        for b in boxes() {
            count += 1;
            let (mut largest, mut smallest) = (0f32, f32::INFINITY);
            let mut box_volume = 1f64;
            for a in 0..V::DIM {
                let (min, max) = (f64::from(b.min().axis(a)), f64::from(b.max().axis(a)));
                let c = (min + max) * 0.5;
                sum[a] += c;
                sum_sq[a] += c * c;
                lo[a] = lo[a].min(c);
                hi[a] = hi[a].max(c);
                box_lo[a] = box_lo[a].min(min);
                box_hi[a] = box_hi[a].max(max);
                largest = largest.max((max - min) as f32);
                smallest = smallest.min((max - min) as f32);
                box_volume *= max - min;
            }
            volume += box_volume;
            elongated += usize::from(largest > 0.0 && largest >= ELONGATED * smallest);
            self.extents.push(size_of(b, largest));
        }
        if count == 0 {
            return SceneProfile {
                dim: V::DIM,
                ..SceneProfile::default()
            };
        }
        let n = count as f64;
        let variance = |a: usize| (sum_sq[a] / n - math::powi(sum[a] / n, 2)).max(0.0);
        let sweep_axis = (0..V::DIM).fold(0, |best, a| {
            if variance(a) > variance(best) {
                a
            } else {
                best
            }
        });
        let (high, low) = (
            variance(sweep_axis),
            (0..V::DIM).map(variance).fold(f64::INFINITY, f64::min),
        );
        let flatness = if high == 0.0 {
            1.0
        } else {
            (high / low.max(high * 1e-12)) as f32
        };
        // Spanning boxes, and centres counted into cells of about two.
        let per_axis = (math::powf(n / 2.0, 1.0 / V::DIM as f64).floor() as usize).max(1);
        let cells = per_axis.pow(V::DIM as u32);
        self.cells.clear();
        self.cells.resize(cells, 0);
        // Spanning: a quarter of the scene's largest extent (so that the
        // objects of a thin band are not all spanning across it).
        let world = (0..V::DIM)
            .map(|a| box_hi[a] - box_lo[a])
            .fold(0f64, f64::max);
        let mut spanning = 0usize;
        for b in boxes() {
            let mut cell = 0usize;
            let mut spans = false;
            for a in 0..V::DIM {
                let (min, max) = (f64::from(b.min().axis(a)), f64::from(b.max().axis(a)));
                spans |= world > 0.0 && max - min >= SPANNING_FRACTION * world;
                let span = hi[a] - lo[a];
                let at = if span > 0.0 && span.is_finite() {
                    (((min + max) * 0.5 - lo[a]) / span * per_axis as f64) as usize
                } else {
                    0
                };
                cell = cell * per_axis + at.min(per_axis - 1);
            }
            spanning += usize::from(spans);
            self.cells[cell] += 1;
        }
        let crowding: f64 = self
            .cells
            .iter()
            .map(|&c| f64::from(c) * (f64::from(c) - 1.0).max(0.0))
            .sum();
        let clustering = if count < 2 {
            1.0
        } else {
            (crowding * cells as f64 / (n * (n - 1.0))) as f32
        };
        let bounds_volume: f64 = (0..V::DIM).map(|a| box_hi[a] - box_lo[a]).product();
        let cover = if bounds_volume > 0.0 && bounds_volume.is_finite() && volume.is_finite() {
            volume / bounds_volume
        } else {
            0.0
        };
        let (size_spread, huge) = self.sizes();
        SceneProfile {
            objects: count,
            dim: V::DIM,
            flatness,
            sweep_axis,
            size_spread,
            huge_share: (huge as f64 / n) as f32,
            elongated_share: (elongated as f64 / n) as f32,
            spanning_share: (spanning as f64 / n) as f32,
            coherence: 1.0,
            clustering,
            density: (cover * f64::from(clustering)) as f32,
        }
    }

    /// How many gathered sizes are [`HUGE`] times the median or more,
    /// and the 90th percentile of the others over their 10th.
    fn sizes(&mut self) -> (f32, usize) {
        let extents = &mut self.extents;
        let (all, k) = (extents.len(), (extents.len() - 1) / 2);
        let median = *extents.select_nth_unstable_by(k, f32::total_cmp).1;
        if median > 0.0 && median.is_finite() {
            extents.retain(|&e| e < HUGE * median);
        }
        let huge = all - extents.len();
        let mut percentile = |p: usize| {
            let k = (extents.len() - 1) * p / 100;
            *extents.select_nth_unstable_by(k, f32::total_cmp).1
        };
        let p90 = percentile(90);
        let mut p10 = percentile(10);
        if p10 <= 0.0 {
            p10 = extents
                .iter()
                .copied()
                .filter(|&e| e > 0.0)
                .fold(f32::INFINITY, f32::min);
        }
        let spread = if p90 <= 0.0 || !p10.is_finite() || !p90.is_finite() {
            1.0
        } else {
            p90 / p10
        };
        (spread, huge)
    }

    /// Keeps the order of `boxes` (by slot) along `axis`, for
    /// [`Profiler::coherence`] one step later.
    pub(crate) fn keep_order<'a, V: Vector>(
        &mut self,
        boxes: impl Iterator<Item = (u32, &'a Aabb<V>)>,
        axis: usize,
    ) {
        self.order_axis = axis;
        self.order.clear();
        self.order.extend(
            boxes.map(|(slot, b)| {
                u64::from(ordered_bits(b.min().axis(axis))) << 32 | u64::from(slot)
            }),
        );
        super::super::radix::sort_keys(&mut self.order, &mut self.order_scratch);
    }

    /// The share of neighbours in the kept order still in order now
    /// (`box_of(slot)`: a slot's box now, `None` once removed); 1 when
    /// none of them is left; `None` when no order was kept. Forgets the
    /// order.
    pub(crate) fn coherence<V: Vector>(
        &mut self,
        box_of: impl Fn(u32) -> Option<Aabb<V>>,
    ) -> Option<f32> {
        if self.order.is_empty() {
            return None;
        }
        let axis = self.order_axis;
        let (mut neighbours, mut in_order) = (0usize, 0usize);
        let mut last: Option<f32> = None;
        for &key in &self.order {
            let Some(b) = box_of(key as u32) else {
                continue;
            };
            let x = b.min().axis(axis);
            if let Some(previous) = last {
                neighbours += 1;
                in_order += usize::from(previous.total_cmp(&x).is_le());
            }
            last = Some(x);
        }
        self.order.clear();
        Some(if neighbours == 0 {
            1.0
        } else {
            (in_order as f64 / neighbours as f64) as f32
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    fn square(x: f32, y: f32, side: f32) -> Aabb<Vec2> {
        Aabb::new(Vec2::new(x, y), Vec2::new(x + side, y + side)).unwrap()
    }

    #[test]
    fn a_lattice_is_uniform_and_a_hotspot_is_clustered() {
        let lattice: Vec<_> = (0..400)
            .map(|i| square((i % 20) as f32 * 10.0, (i / 20) as f32 * 10.0, 1.0))
            .collect();
        let even = SceneProfile::of(&lattice);
        assert!(even.clustering < 1.5, "{even}");
        assert!(even.flatness < 1.1, "{even}");
        assert_eq!(even.spanning_share, 0.0);
        let mut hot = lattice.clone();
        hot.extend((0..400).map(|i| square(50.0 + (i % 7) as f32 * 0.01, 50.0, 1.0)));
        assert!(SceneProfile::of(&hot).clustering > 5.0);
    }

    #[test]
    fn rods_and_a_few_huge_objects_are_noticed_without_spreading_the_sizes() {
        let mut boxes: Vec<_> = (0..900)
            .map(|i| square((i % 30) as f32 * 10.0, (i / 30) as f32 * 10.0, 2.0))
            .collect();
        // 10% rods, 1,000 to 1 along x or y, 20 times as long as the
        // squares are wide.
        boxes.extend((0..100).map(|i| {
            let (x, y) = ((i % 10) as f32 * 30.0, (i / 10) as f32 * 30.0);
            let (w, h) = if i % 2 == 0 {
                (40.0, 0.04)
            } else {
                (0.04, 40.0)
            };
            Aabb::new(Vec2::new(x, y), Vec2::new(x + w, y + h)).unwrap()
        }));
        let rods = SceneProfile::of(&boxes);
        assert!((rods.elongated_share - 0.1).abs() < 1e-6, "{rods}");
        assert!(rods.size_spread < 4.0 && rods.huge_share == 0.0, "{rods}");
        assert_eq!(choose_structure(&rods).structure, Structure::Grid);
        // 10% huge squares: noticed, and left out of the spread.
        boxes.truncate(900);
        boxes.extend((0..100).map(|i| square((i % 10) as f32 * 30.0, 0.0, 40.0)));
        let huge = SceneProfile::of(&boxes);
        assert!((huge.huge_share - 0.1).abs() < 1e-6, "{huge}");
        assert!(huge.size_spread < 4.0, "{huge}");
        assert_eq!(choose_structure(&huge).structure, Structure::Grid);
        // Sizes spread evenly over three orders of magnitude: the
        // hierarchical grid.
        let spread: Vec<_> = (0..1000)
            .map(|i| {
                square(
                    i as f32 * 10.0,
                    0.0,
                    crate::math::powf(10f32, i as f32 * 0.003),
                )
            })
            .collect();
        let spread = SceneProfile::of(&spread);
        assert_eq!(
            choose_structure(&spread).structure,
            Structure::HGrid,
            "{spread}"
        );
    }

    #[test]
    fn floors_count_as_spanning() {
        let mut boxes: Vec<_> = (0..196)
            .map(|i| square((i % 14) as f32 * 10.0, (i / 14) as f32 * 10.0, 1.0))
            .collect();
        boxes.extend((0..4).map(|k| {
            Aabb::new(
                Vec2::new(0.0, k as f32 * 30.0),
                Vec2::new(131.0, k as f32 * 30.0 + 1.0),
            )
            .unwrap()
        }));
        let p = SceneProfile::of(&boxes);
        assert!((p.spanning_share - 0.02).abs() < 1e-6, "{p}");
    }

    #[test]
    fn coherence_counts_the_neighbours_still_in_order() {
        let mut profiler = Profiler::default();
        let boxes: Vec<_> = (0..10).map(|i| square(i as f32, 0.0, 1.0)).collect();
        profiler.keep_order(boxes.iter().enumerate().map(|(i, b)| (i as u32, b)), 0);
        // Slot 0 jumps to the end: one of the nine neighbours is out of order.
        let moved = |slot: u32| {
            Some(if slot == 0 {
                square(100.0, 0.0, 1.0)
            } else {
                boxes[slot as usize]
            })
        };
        assert!((profiler.coherence(moved).unwrap() - 8.0 / 9.0).abs() < 1e-6);
        // Forgotten once read.
        assert_eq!(profiler.coherence(|_| None::<Aabb<Vec2>>), None);
        // Kept, then every object removed: nothing out of order.
        profiler.keep_order(boxes.iter().enumerate().map(|(i, b)| (i as u32, b)), 0);
        assert_eq!(profiler.coherence(|_| None::<Aabb<Vec2>>), Some(1.0));
    }

    #[test]
    fn density_counts_the_boxes_covering_a_point_where_they_are() {
        // Unit squares tiling a 10 by 10 square: about one box a point.
        let tiled: Vec<_> = (0..100)
            .map(|i| square((i % 10) as f32, (i / 10) as f32, 1.0))
            .collect();
        let even = SceneProfile::of(&tiled).density;
        assert!((0.5..2.0).contains(&even), "{even}");
        // The rows squeezed ten times closer: about five times as dense.
        let squeezed: Vec<_> = (0..100)
            .map(|i| square((i % 10) as f32, (i / 10) as f32 * 0.1, 1.0))
            .collect();
        let dense = SceneProfile::of(&squeezed).density;
        assert!(dense > 4.0 * even, "{even} then {dense}");
        // Points cover nothing.
        let points: Vec<_> = (0..100).map(|i| square(i as f32, 0.0, 0.0)).collect();
        assert_eq!(SceneProfile::of(&points).density, 0.0);
    }

    #[test]
    fn huge_and_degenerate_scenes_measure_finite() {
        let boxes = [
            square(-3e38, -3e38, 0.0),
            Aabb::new(Vec2::splat(-f32::MAX), Vec2::splat(f32::MAX)).unwrap(),
            square(0.0, 0.0, 0.0),
        ];
        let p = SceneProfile::of(&boxes);
        assert!(p.flatness.is_finite() && p.size_spread.is_finite() && p.clustering.is_finite());
        assert!(p.density.is_finite());
        assert_eq!(SceneProfile::of::<Vec2>(&[]).objects, 0);
    }
}
