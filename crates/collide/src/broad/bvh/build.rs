//! Whole-tree builds for the BVH: binned SAH (best quality for resting
//! objects), median splits (balanced; rebuilds worn trees) and LBVH by
//! Morton order (fastest; used after mass inserts).
//!
//! - **Binned SAH**: top-down; at each node the leaves' centres are binned
//!   into 16 slots along the axis where they spread most, and the split
//!   between slots with the least surface-area cost (leaves times area on
//!   each side) is taken. Cost O(n log n).
//! - **LBVH**: every centre gets a Morton code (16 bits per axis in 2D, 10 in
//!   3D, over the centres' bounds); the leaves are sorted by code and each
//!   node splits where the highest differing bit changes. Cost one sort
//!   plus O(n log n) binary searches, and no area computations.

use super::tree::{Arena, NONE, Node, area};
use crate::broad::headroom::reserve_headroom;
use crate::broad::radix::radix_sort_by_key;
use crate::geometry::{Aabb, Vector};

/// How to build a whole BVH ([`Bvh::rebuild`](crate::Bvh::rebuild)).
///
/// ```
/// use collide::BvhBuild;
/// assert_ne!(BvhBuild::Sah, BvhBuild::Morton);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BvhBuild {
    /// Binned surface-area heuristic: the best tree for queries and pairs
    /// while objects rest; the slowest build.
    Sah,
    /// Median splits on the axis of widest spread: balanced, and wears
    /// best under reinsertion (what a worn tree is rebuilt with).
    Median,
    /// Morton order (LBVH): the fastest build (what mass inserts use).
    Morton,
}

/// Where the LBVH splits a run of sorted Morton codes (at least two): at
/// the first code with the highest differing bit set, or in the middle when
/// all are equal.
pub(super) fn lbvh_split(codes: &[u64]) -> usize {
    let (first, last) = (codes[0], codes[codes.len() - 1]);
    if first == last {
        codes.len() / 2
    } else {
        let bit = 63 - (first ^ last).leading_zeros();
        let prefix = last >> bit;
        codes.partition_point(|&c| c >> bit < prefix)
    }
}

/// Centre bins of the SAH build.
const BINS: usize = 16;

/// One leaf to place: the object's slot index and its fat box.
pub(crate) type Leaf<V> = (u32, Aabb<V>);

/// Memory the Morton build reuses from one rebuild to the next (a moving
/// scene rebuilds every step).
#[derive(Clone, Debug, Default)]
pub(crate) struct BuildScratch<V: Vector> {
    coded: Vec<(u64, u32)>,
    sort: Vec<(u64, u32)>,
    ordered: Vec<Leaf<V>>,
    /// The sorted codes of the last [`BuildScratch::sort_by_morton`].
    pub(super) codes: Vec<u64>,
}

impl<V: Vector> BuildScratch<V> {
    /// Makes room to sort `leaves` leaves, with a margin (see
    /// `headroom.rs`).
    pub(super) fn reserve(&mut self, leaves: usize) {
        reserve_headroom(&mut self.coded, leaves);
        reserve_headroom(&mut self.sort, leaves);
        reserve_headroom(&mut self.ordered, leaves);
        reserve_headroom(&mut self.codes, leaves);
    }

    /// Sorts `leaves` by the Morton code of their centres (stable: equal
    /// codes keep their order) and leaves the sorted codes in `codes`.
    pub(super) fn sort_by_morton(&mut self, leaves: &mut Vec<Leaf<V>>) {
        let grid = MortonGrid::new::<V>(&centre_bounds(leaves));
        self.coded.clear();
        self.coded.extend(
            leaves
                .iter()
                .enumerate()
                .map(|(k, (_, b))| (morton(&grid, b.center()), k as u32)),
        );
        radix_sort_by_key(&mut self.coded, &mut self.sort, |&(code, _)| code);
        self.ordered.clear();
        self.ordered
            .extend(self.coded.iter().map(|&(_, k)| leaves[k as usize]));
        std::mem::swap(leaves, &mut self.ordered);
        self.codes.clear();
        self.codes.extend(self.coded.iter().map(|&(code, _)| code));
    }
}

impl<V: Vector> Arena<V> {
    /// The surface-area cost ([`BvhQuality::sah_cost`]) of the tree the
    /// last whole build made, summed as it was built (no extra pass).
    ///
    /// [`BvhQuality::sah_cost`]: crate::BvhQuality::sah_cost
    pub(crate) fn built_sah_cost(&self) -> f64 {
        if self.root == NONE {
            return 0.0;
        }
        let root = area(&self.nodes[self.root as usize].bound);
        if root > 0.0 && root.is_finite() {
            self.built_area / root
        } else {
            0.0
        }
    }

    /// Rebuilds the whole tree from `leaves` (reordering them) by `method`;
    /// calls `placed(object, leaf)` for every new leaf.
    pub(crate) fn rebuild_with(
        &mut self,
        method: BvhBuild,
        leaves: &mut Vec<Leaf<V>>,
        scratch: &mut BuildScratch<V>,
        placed: &mut dyn FnMut(u32, u32),
    ) {
        self.reset();
        if leaves.is_empty() {
            return;
        }
        self.root = self.build_under(method, leaves, scratch, NONE, placed);
        // Depth first: each node allocated before its left subtree, that
        // before its right one; none freed.
        self.preorder = true;
    }

    /// Builds a subtree over `leaves` (not empty; reordered) by `method`,
    /// under `parent` (which the caller links to it); returns its root.
    pub(super) fn build_under(
        &mut self,
        method: BvhBuild,
        leaves: &mut Vec<Leaf<V>>,
        scratch: &mut BuildScratch<V>,
        parent: u32,
        placed: &mut dyn FnMut(u32, u32),
    ) -> u32 {
        match method {
            BvhBuild::Sah => self.build_split(leaves, parent, placed, sah_split),
            BvhBuild::Median => self.build_split(leaves, parent, placed, median_split),
            BvhBuild::Morton => {
                scratch.sort_by_morton(leaves);
                self.build_lbvh(leaves, &scratch.codes, parent, placed)
            }
        }
    }

    fn leaf(
        &mut self,
        (object, bound): Leaf<V>,
        parent: u32,
        placed: &mut dyn FnMut(u32, u32),
    ) -> u32 {
        let leaf = self.alloc(Node {
            bound,
            parent,
            left: NONE,
            right: NONE,
            object,
            height: 0,
        });
        placed(object, leaf);
        leaf
    }

    /// An internal node over the two subtrees built by `children`.
    fn join(&mut self, parent: u32, children: impl FnOnce(&mut Self, u32) -> (u32, u32)) -> u32 {
        let node = self.alloc(Node {
            bound: Aabb::default(),
            parent,
            left: NONE,
            right: NONE,
            object: NONE,
            height: 0,
        });
        let (left, right) = children(self, node);
        let (l, r) = (&self.nodes[left as usize], &self.nodes[right as usize]);
        let (bound, height) = (l.bound.union(&r.bound), 1 + l.height.max(r.height));
        self.built_area += area(&bound);
        let n = &mut self.nodes[node as usize];
        n.left = left;
        n.right = right;
        n.bound = bound;
        n.height = height;
        node
    }

    /// Top-down build: `split` reorders a node's leaves and says how many go
    /// left.
    fn build_split(
        &mut self,
        leaves: &mut [Leaf<V>],
        parent: u32,
        placed: &mut dyn FnMut(u32, u32),
        split: fn(&mut [Leaf<V>]) -> usize,
    ) -> u32 {
        if leaves.len() == 1 {
            return self.leaf(leaves[0], parent, placed);
        }
        let mid = split(leaves);
        self.join(parent, |arena, node| {
            let (lo, hi) = leaves.split_at_mut(mid);
            (
                arena.build_split(lo, node, placed, split),
                arena.build_split(hi, node, placed, split),
            )
        })
    }

    fn build_lbvh(
        &mut self,
        leaves: &[Leaf<V>],
        codes: &[u64],
        parent: u32,
        placed: &mut dyn FnMut(u32, u32),
    ) -> u32 {
        if leaves.len() == 1 {
            return self.leaf(leaves[0], parent, placed);
        }
        let mid = lbvh_split(codes);
        self.join(parent, |arena, node| {
            (
                arena.build_lbvh(&leaves[..mid], &codes[..mid], node, placed),
                arena.build_lbvh(&leaves[mid..], &codes[mid..], node, placed),
            )
        })
    }
}

/// The bounds of the leaves' centres, per axis (low, high).
fn centre_bounds<V: Vector>(leaves: &[Leaf<V>]) -> [(f64, f64); 3] {
    let mut bounds = [(f64::INFINITY, f64::NEG_INFINITY); 3];
    for (_, b) in leaves {
        let c = b.center();
        for (a, (lo, hi)) in bounds.iter_mut().enumerate().take(V::DIM) {
            let x = f64::from(c.axis(a));
            *lo = lo.min(x);
            *hi = hi.max(x);
        }
    }
    bounds
}

/// Splits `leaves` at the median of the axis where their centres spread
/// most (reordering them); returns the size of the left part.
fn median_split<V: Vector>(leaves: &mut [Leaf<V>]) -> usize {
    let bounds = centre_bounds(leaves);
    let axis = (0..V::DIM)
        .max_by(|&a, &b| (bounds[a].1 - bounds[a].0).total_cmp(&(bounds[b].1 - bounds[b].0)))
        .unwrap_or(0);
    let mid = leaves.len() / 2;
    leaves.select_nth_unstable_by(mid, |(_, a), (_, b)| {
        a.center().axis(axis).total_cmp(&b.center().axis(axis))
    });
    mid
}

/// Chooses where to split `leaves` (reordering them): the binned SAH split
/// along the axis of widest centre spread, or the median when the centres
/// coincide or one side would be empty. Returns the size of the left part,
/// in `1..len`.
fn sah_split<V: Vector>(leaves: &mut [Leaf<V>]) -> usize {
    let n = leaves.len();
    let bounds = centre_bounds(leaves);
    let axis = (0..V::DIM)
        .max_by(|&a, &b| (bounds[a].1 - bounds[a].0).total_cmp(&(bounds[b].1 - bounds[b].0)))
        .unwrap_or(0);
    let (lo, hi) = bounds[axis];
    let extent = hi - lo;
    let median = |leaves: &mut [Leaf<V>]| {
        let mid = n / 2;
        leaves.select_nth_unstable_by(mid, |(_, a), (_, b)| {
            a.center().axis(axis).total_cmp(&b.center().axis(axis))
        });
        mid
    };
    if !(extent > 0.0 && extent.is_finite()) || n <= 2 {
        return median(leaves);
    }
    let bin_of = |b: &Aabb<V>| {
        let t = (f64::from(b.center().axis(axis)) - lo) / extent;
        ((t * BINS as f64) as usize).min(BINS - 1)
    };
    let mut counts = [0usize; BINS];
    let mut boxes: [Option<Aabb<V>>; BINS] = [None; BINS];
    for (_, b) in leaves.iter() {
        let k = bin_of(b);
        counts[k] += 1;
        boxes[k] = Some(boxes[k].map_or(*b, |u| u.union(b)));
    }
    // Cost of splitting after bin k: left count * left area + right ...
    let mut right_area = [0.0f64; BINS];
    let mut right_count = [0usize; BINS];
    let (mut acc, mut count) = (None::<Aabb<V>>, 0usize);
    for k in (1..BINS).rev() {
        if let Some(b) = boxes[k] {
            acc = Some(acc.map_or(b, |u| u.union(&b)));
        }
        count += counts[k];
        right_area[k] = acc.map_or(0.0, |b| area(&b));
        right_count[k] = count;
    }
    let (mut best, mut best_cost) = (None, f64::INFINITY);
    let (mut acc, mut count) = (None::<Aabb<V>>, 0usize);
    for k in 0..BINS - 1 {
        if let Some(b) = boxes[k] {
            acc = Some(acc.map_or(b, |u| u.union(&b)));
        }
        count += counts[k];
        let (left, right) = (count, right_count[k + 1]);
        if left == 0 || right == 0 {
            continue;
        }
        let cost = left as f64 * acc.map_or(0.0, |b| area(&b)) + right as f64 * right_area[k + 1];
        if cost < best_cost {
            (best, best_cost) = (Some(k), cost);
        }
    }
    let Some(split) = best else {
        return median(leaves);
    };
    // Partition: bins up to `split` to the left, in place.
    let mut left = 0;
    for i in 0..n {
        if bin_of(&leaves[i].1) <= split {
            leaves.swap(left, i);
            left += 1;
        }
    }
    debug_assert!(left > 0 && left < n);
    left
}

/// The Morton code of `centre`'s cell in `grid`: 16 bits per axis in 2D,
/// 10 in 3D, interleaved (axis 0 in the lowest bit). The scale per axis is
/// worked out once per build and the bits are spread by shifts and masks:
/// a division per axis and a loop over the bits made the codes a visible
/// share of a fast-motion step, where the BVH rebuilds every step.
fn morton<V: Vector>(grid: &MortonGrid, centre: V) -> u64 {
    let mut code = 0u64;
    for a in 0..V::DIM {
        let (lo, scale) = grid.axes[a];
        // In [0, cells - 1] before the conversion, so it cannot saturate.
        let q = ((f64::from(centre.axis(a)) - lo) * scale).clamp(0.0, grid.top) as u64;
        let spread = if V::DIM == 2 {
            spread_by_one(q)
        } else {
            spread_by_two(q)
        };
        code |= spread << a;
    }
    code
}

/// How [`morton`] maps centres to cells: per axis the low end of the
/// centres' bounds and the cells per unit (0 when the bounds are a point
/// or not finite), and the last cell.
struct MortonGrid {
    axes: [(f64, f64); 3],
    top: f64,
}

impl MortonGrid {
    /// 2^16 cells per axis in 2D, 2^10 in 3D, over `bounds`.
    fn new<V: Vector>(bounds: &[(f64, f64); 3]) -> Self {
        let bits = if V::DIM == 2 { 16 } else { 10 };
        let cells = (1u64 << bits) as f64;
        let axes = bounds.map(|(lo, hi)| {
            let extent = hi - lo;
            let scale = if extent > 0.0 && extent.is_finite() {
                cells / extent
            } else {
                0.0
            };
            (lo, scale)
        });
        Self {
            axes,
            top: cells - 1.0,
        }
    }
}

/// The low 16 bits of `x` with a zero after each (bit `k` to bit `2k`).
#[inline]
fn spread_by_one(x: u64) -> u64 {
    let x = x & 0xffff;
    let x = (x | x << 8) & 0x00ff_00ff;
    let x = (x | x << 4) & 0x0f0f_0f0f;
    let x = (x | x << 2) & 0x3333_3333;
    (x | x << 1) & 0x5555_5555
}

/// The low 10 bits of `x` with two zeros after each (bit `k` to bit `3k`).
#[inline]
fn spread_by_two(x: u64) -> u64 {
    let x = x & 0x3ff;
    let x = (x | x << 16) & 0x0300_00ff;
    let x = (x | x << 8) & 0x0300_f00f;
    let x = (x | x << 4) & 0x030c_30c3;
    (x | x << 2) & 0x0924_9249
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::TestRng;
    use glam::{Vec2, Vec3};

    /// The spreads put bit `k` at bit `2k` (`3k`), as a loop over the bits
    /// does, for every input they take.
    #[test]
    fn spreading_bits_matches_the_loop_over_bits() {
        let by_loop = |q: u64, bits: u32, step: u32| {
            (0..bits).fold(0u64, |code, bit| code | ((q >> bit) & 1) << (bit * step))
        };
        for q in 0..1u64 << 16 {
            assert_eq!(spread_by_one(q), by_loop(q, 16, 2), "{q}");
        }
        for q in 0..1u64 << 10 {
            assert_eq!(spread_by_two(q), by_loop(q, 10, 3), "{q}");
        }
    }

    /// Checks parent links, bounds and heights, and that every leaf was
    /// placed once.
    fn check<V: Vector>(arena: &Arena<V>, leaves: usize, placed: &[u32]) {
        assert_eq!(placed.len(), leaves);
        let mut stack = vec![arena.root];
        let mut seen = 0;
        while let Some(n) = stack.pop() {
            let node = &arena.nodes[n as usize];
            if node.is_leaf() {
                seen += 1;
                assert_eq!(node.height, 0);
                continue;
            }
            for c in [node.left, node.right] {
                assert_eq!(arena.nodes[c as usize].parent, n);
                assert!(node.bound.contains(&arena.nodes[c as usize].bound));
                stack.push(c);
            }
        }
        assert_eq!(seen, leaves);
    }

    fn random_leaves<V: Vector>(n: usize, spread: f32, seed: u64) -> Vec<Leaf<V>> {
        let mut rng = TestRng::new(seed);
        (0..n as u32)
            .map(|i| {
                let c = V::from_axes(|_| rng.range(0.0, spread));
                (
                    i,
                    Aabb::from_center_half_extents(c, V::from_axes(|_| 1.0)).unwrap(),
                )
            })
            .collect()
    }

    /// Builds `n` leaves by `method` and checks the tree.
    fn build_and_check<V: Vector>(method: BvhBuild, n: usize, spread: f32, seed: u64) {
        let mut arena: Arena<V> = Arena::new();
        let mut placed = Vec::new();
        let mut leaves = random_leaves::<V>(n, spread, seed);
        let mut scratch = BuildScratch::default();
        arena.rebuild_with(method, &mut leaves, &mut scratch, &mut |o, _| {
            placed.push(o)
        });
        check(&arena, n, &placed);
        let (summed, measured) = (arena.built_sah_cost(), arena.quality().sah_cost);
        assert!(
            (summed - measured).abs() <= 1e-9 * measured.max(1.0),
            "{method:?}: cost summed while building {summed}, measured {measured}"
        );
        let log = crate::math::log2(n as f64).ceil() as u32;
        assert!(
            arena.height() <= 2 * log + 4,
            "{method:?} {}D n {n}: {}",
            V::DIM,
            arena.height()
        );
    }

    #[test]
    fn every_build_gives_valid_shallow_trees() {
        for (n, spread) in [(1, 10.0), (2, 10.0), (3, 0.0), (1000, 0.0), (5000, 1000.0)] {
            for method in [BvhBuild::Sah, BvhBuild::Median, BvhBuild::Morton] {
                build_and_check::<Vec2>(method, n, spread, 7);
                build_and_check::<Vec3>(method, n, spread, 8);
            }
        }
    }

    #[test]
    fn sah_beats_a_median_split_on_clusters() {
        // Two tight clusters far apart, unequal: SAH cuts between them.
        let mut leaves: Vec<Leaf<Vec2>> = (0..30)
            .map(|i| {
                (
                    i,
                    Aabb::from_center_half_extents(Vec2::new(i as f32 * 0.1, 0.0), Vec2::ONE)
                        .unwrap(),
                )
            })
            .chain((30..40).map(|i| {
                (
                    i,
                    Aabb::from_center_half_extents(
                        Vec2::new(1000.0 + i as f32 * 0.1, 0.0),
                        Vec2::ONE,
                    )
                    .unwrap(),
                )
            }))
            .collect();
        assert_eq!(sah_split(&mut leaves), 30);
        assert!(leaves[..30].iter().all(|(_, b)| b.center().x < 500.0));
    }
}
