//! [`KdTree`]: a k-d tree over points for nearest, k-nearest and radius
//! queries, with a policy for points that move.
//!
//! Pick it for many point queries over a set of points that changes slowly
//! (spawn points, waypoints, sound sources, units' positions between
//! rebuilds). It is not a broad phase: it answers "what is near this point",
//! not "what overlaps what".
//!
//! Built by splitting at the median of the axis with the largest spread, so
//! the tree is balanced whatever the distribution (hotspots, a thousand
//! points at one place). Cost: O(n log n) to build, about O(log n) per
//! nearest query, O(n) memory in flat arrays.
//!
//! **Moving points.** [`KdTree::update`] stores the new position at once and
//! marks the point as moved; queries test moved points directly, so answers
//! are always exact. When more than [`KdTree::rebuild_share`] of the points
//! have moved, the next update rebuilds the tree.

use crate::error::Error;
use crate::geometry::{Aabb, Vector};
use crate::math;
use std::cmp::Ordering;

/// Points per leaf.
const LEAF_SIZE: usize = 8;

#[derive(Clone, Copy, Debug)]
struct Node {
    /// Range of `order` this node covers.
    start: u32,
    end: u32,
    /// Children (`u32::MAX` for a leaf).
    left: u32,
    right: u32,
    /// Split axis and value: points in `left` have coordinate <= `split`
    /// on `axis`, points in `right` >= `split`.
    axis: u8,
    split: f32,
}

/// One query answer: the point's index and its squared distance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Neighbour {
    /// The point's index in the slice given to [`KdTree::build`].
    pub index: u32,
    /// Squared Euclidean distance to the query point, in square world
    /// units (computed in f64).
    pub distance_sq: f64,
}

impl Neighbour {
    /// Order by distance, then by index: the order of every answer.
    fn cmp_key(&self, other: &Self) -> Ordering {
        self.distance_sq
            .total_cmp(&other.distance_sq)
            .then(self.index.cmp(&other.index))
    }
}

/// A k-d tree over points, for nearest, k-nearest and radius queries.
///
/// Pick it for many point queries over a set of points that changes slowly
/// (spawn points, waypoints, sound sources, units between rebuilds). It is
/// not a broad phase: it answers "what is near this point", not "what
/// overlaps what". Built by splitting at the median of the axis with the
/// largest spread, so it stays balanced for hotspots and coincident points.
/// Cost: O(n log n) to build, about O(log n) per nearest query, O(n) memory.
///
/// **Moving points**: [`KdTree::update`] stores the new position at once and
/// marks the point as moved; queries test moved points directly, so answers
/// are always exact. When more than [`KdTree::rebuild_share`] of the points
/// have moved, the update rebuilds the tree.
///
/// ```
/// use collide::KdTree;
/// use glam::Vec2;
/// let points = [Vec2::new(0.0, 0.0), Vec2::new(5.0, 0.0), Vec2::new(1.0, 1.0)];
/// let mut tree = KdTree::build(&points)?;
/// assert_eq!(tree.nearest(Vec2::new(4.0, 0.0)).unwrap().index, 1);
/// let near: Vec<u32> = tree.k_nearest(Vec2::ZERO, 2).iter().map(|n| n.index).collect();
/// assert_eq!(near, vec![0, 2]);
/// tree.update(1, Vec2::new(0.5, 0.0))?; // moves are exact at once
/// assert_eq!(tree.within(Vec2::ZERO, 1.0).len(), 2);
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct KdTree<V: Vector> {
    points: Vec<V>,
    /// Point indices, grouped by node.
    order: Vec<u32>,
    nodes: Vec<Node>,
    /// Per point: moved since the last build (its tree position is stale).
    moved: Vec<bool>,
    moved_list: Vec<u32>,
    rebuild_share: f32,
    rebuilds: u64,
}

fn check_point<V: Vector>(p: V) -> Result<(), Error> {
    Aabb::from_point(p)?;
    Ok(())
}

impl<V: Vector> KdTree<V> {
    /// Builds the tree over `points`; point `i` keeps index `i` in answers.
    /// A non-finite coordinate is an error naming it.
    pub fn build(points: &[V]) -> Result<Self, Error> {
        for p in points {
            check_point(*p)?;
        }
        let mut tree = Self {
            points: points.to_vec(),
            order: Vec::new(),
            nodes: Vec::new(),
            moved: vec![false; points.len()],
            moved_list: Vec::new(),
            rebuild_share: 0.1,
            rebuilds: 0,
        };
        tree.rebuild();
        Ok(tree)
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// True when the tree holds no point.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// The current position of point `index`.
    pub fn point(&self, index: u32) -> Option<V> {
        self.points.get(index as usize).copied()
    }

    /// The share of points (0 to 1) that may have moved before an update
    /// rebuilds the tree; 0.1 by default.
    pub fn rebuild_share(&self) -> f32 {
        self.rebuild_share
    }

    /// Sets the rebuild share, clamped to `0..=1`; a NaN is an error.
    pub fn set_rebuild_share(&mut self, share: f32) -> Result<(), Error> {
        if share.is_nan() {
            return Err(Error::Setting {
                name: "rebuild_share",
                value: f64::from(share),
                expected: "a share between 0 and 1",
            });
        }
        self.rebuild_share = share.clamp(0.0, 1.0);
        Ok(())
    }

    /// How many times the tree was built (1 after [`KdTree::build`]).
    pub fn rebuilds(&self) -> u64 {
        self.rebuilds
    }

    /// Points moved since the last build (tested directly by queries).
    pub fn stale_points(&self) -> usize {
        self.moved_list.len()
    }

    /// Moves point `index` to `point`. Queries see the move at once; the
    /// tree is rebuilt when too many points have moved. Errors on an index
    /// out of range or a non-finite point.
    pub fn update(&mut self, index: u32, point: V) -> Result<(), Error> {
        check_point(point)?;
        let i = index as usize;
        if i >= self.points.len() {
            return Err(Error::Setting {
                name: "index",
                value: f64::from(index),
                expected: "the index of a point given to build",
            });
        }
        self.points[i] = point;
        if !self.moved[i] {
            self.moved[i] = true;
            self.moved_list.push(index);
        }
        if self.moved_list.len() as f32 > self.rebuild_share * self.points.len() as f32 {
            self.rebuild();
        }
        Ok(())
    }

    /// Rebuilds the tree from the current positions.
    pub fn rebuild(&mut self) {
        self.order.clear();
        self.order.extend(0..self.points.len() as u32);
        self.nodes.clear();
        for &i in &self.moved_list {
            self.moved[i as usize] = false;
        }
        self.moved_list.clear();
        self.rebuilds += 1;
        if !self.points.is_empty() {
            self.build_node(0, self.points.len());
        }
    }

    /// Builds the node over `order[start..end]` and returns its index.
    fn build_node(&mut self, start: usize, end: usize) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(Node {
            start: start as u32,
            end: end as u32,
            left: u32::MAX,
            right: u32::MAX,
            axis: 0,
            split: 0.0,
        });
        if end - start <= LEAF_SIZE {
            return id;
        }
        // Split the axis of largest spread at the median.
        let points = &self.points;
        let slice = &mut self.order[start..end];
        let axis = (0..V::DIM)
            .max_by(|&a, &b| {
                let spread = |axis: usize| {
                    let (lo, hi) =
                        slice
                            .iter()
                            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &i| {
                                let x = points[i as usize].axis(axis);
                                (lo.min(x), hi.max(x))
                            });
                    f64::from(hi) - f64::from(lo)
                };
                spread(a).total_cmp(&spread(b))
            })
            .unwrap_or(0);
        let mid = slice.len() / 2;
        slice.select_nth_unstable_by(mid, |&a, &b| {
            points[a as usize]
                .axis(axis)
                .total_cmp(&points[b as usize].axis(axis))
        });
        let split = points[slice[mid] as usize].axis(axis);
        let left = self.build_node(start, start + mid);
        let right = self.build_node(start + mid, end);
        let node = &mut self.nodes[id as usize];
        node.left = left;
        node.right = right;
        node.axis = axis as u8;
        node.split = split;
        id
    }

    fn distance_sq(&self, index: u32, q: V) -> f64 {
        let p = self.points[index as usize];
        (0..V::DIM)
            .map(|a| math::powi(f64::from(p.axis(a)) - f64::from(q.axis(a)), 2))
            .sum()
    }

    /// Visits every current point (tree points not moved, then moved
    /// points) whose node is not pruned: `prune(axis_gap_sq)` says whether
    /// a subtree at that squared distance across a split can be skipped.
    fn search(&self, q: V, mut consider: impl FnMut(u32, f64), bound_sq: impl Fn() -> f64) {
        if !self.nodes.is_empty() {
            let mut stack: Vec<(u32, f64)> = Vec::with_capacity(64);
            stack.push((0, 0.0));
            while let Some((id, gap_sq)) = stack.pop() {
                if gap_sq > bound_sq() {
                    continue;
                }
                let node = self.nodes[id as usize];
                if node.left == u32::MAX {
                    for &i in &self.order[node.start as usize..node.end as usize] {
                        if !self.moved[i as usize] {
                            consider(i, self.distance_sq(i, q));
                        }
                    }
                    continue;
                }
                let d = f64::from(q.axis(usize::from(node.axis))) - f64::from(node.split);
                let (near, far) = if d <= 0.0 {
                    (node.left, node.right)
                } else {
                    (node.right, node.left)
                };
                // Far side first on the stack, so the near side is searched
                // first and tightens the bound.
                stack.push((far, gap_sq.max(d * d)));
                stack.push((near, gap_sq));
            }
        }
        for &i in &self.moved_list {
            consider(i, self.distance_sq(i, q));
        }
    }

    /// The nearest point to `q` (ties: the lower index), or `None` for an
    /// empty tree or a non-finite `q`.
    pub fn nearest(&self, q: V) -> Option<Neighbour> {
        self.k_nearest(q, 1).into_iter().next()
    }

    /// The `k` nearest points to `q`, nearest first (ties: lower index
    /// first); fewer when the tree has fewer points; none for a non-finite
    /// `q`.
    pub fn k_nearest(&self, q: V, k: usize) -> Vec<Neighbour> {
        let mut best: Vec<Neighbour> = Vec::with_capacity(k.min(self.len()) + 1);
        if k == 0 || check_point(q).is_err() {
            return best;
        }
        let worst = std::cell::Cell::new(f64::INFINITY);
        self.search(
            q,
            |index, distance_sq| {
                let candidate = Neighbour { index, distance_sq };
                if best.len() == k && candidate.cmp_key(&best[k - 1]) != Ordering::Less {
                    return;
                }
                let at = best.partition_point(|b| b.cmp_key(&candidate) == Ordering::Less);
                best.insert(at, candidate);
                best.truncate(k);
                if best.len() == k {
                    worst.set(best[k - 1].distance_sq);
                }
            },
            || worst.get(),
        );
        best
    }

    /// Every point strictly within `radius` of `q`, nearest first (ties:
    /// lower index first); none for a non-finite `q` or a negative or
    /// non-finite radius.
    pub fn within(&self, q: V, radius: f32) -> Vec<Neighbour> {
        let mut out = Vec::new();
        if check_point(q).is_err() || !(radius >= 0.0 && radius.is_finite()) {
            return out;
        }
        let r_sq = f64::from(radius) * f64::from(radius);
        self.search(
            q,
            |index, distance_sq| {
                if distance_sq < r_sq {
                    out.push(Neighbour { index, distance_sq });
                }
            },
            || r_sq,
        );
        out.sort_unstable_by(Neighbour::cmp_key);
        out
    }
}
