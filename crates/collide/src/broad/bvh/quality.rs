//! How good a BVH is, measured: the surface-area cost, the
//! overlap between siblings and the height. A tree that has taken many
//! inserts and removals drifts from the one a fresh build would give; these
//! numbers say how far, and drive the rebuild.

use super::tree::{Arena, NONE, area};
use crate::geometry::{Aabb, Vector};

/// Quality figures of a [`Bvh`](crate::Bvh) (`bvh.quality()`), lower is
/// better for all but `leaves`.
///
/// ```
/// use collide::{Aabb2, BroadPhase, Bvh, BvhBuild};
/// use glam::Vec2;
/// let mut bvh: Bvh<Vec2> = Bvh::new();
/// for i in 0..64 {
///     let p = Vec2::new((i % 8) as f32 * 10.0, (i / 8) as f32 * 10.0);
///     bvh.insert(Aabb2::new(p, p + Vec2::ONE)?, ())?;
/// }
/// bvh.rebuild(BvhBuild::Median);
/// let q = bvh.quality();
/// assert_eq!((q.leaves, q.height), (64, 6));
/// assert!(q.sah_cost >= 1.0);
/// assert_eq!(q.sibling_overlap, 0.0); // a lattice splits cleanly
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BvhQuality {
    /// The internal nodes' surface areas (perimeters in 2D) summed and
    /// divided by the root's: the expected number of internal nodes a small
    /// query entering the root visits. At least 1 with two leaves or more.
    pub sah_cost: f64,
    /// The areas of the overlaps between each internal node's two children,
    /// summed and divided by the root's: 0 when no siblings overlap; the
    /// tree-against-itself traversal descends into every overlap.
    pub sibling_overlap: f64,
    /// Levels below the root (0 for one leaf or none).
    pub height: u32,
    /// Number of leaves (objects).
    pub leaves: usize,
}

/// The area of the intersection of `a` and `b` (0 when they are apart).
fn overlap_area<V: Vector>(a: &Aabb<V>, b: &Aabb<V>) -> f64 {
    let mut min = [0.0f32; 3];
    let mut max = [0.0f32; 3];
    for axis in 0..V::DIM {
        min[axis] = a.min().axis(axis).max(b.min().axis(axis));
        max[axis] = a.max().axis(axis).min(b.max().axis(axis));
        if max[axis] < min[axis] {
            return 0.0;
        }
    }
    Aabb::new(V::from_axes(|k| min[k]), V::from_axes(|k| max[k])).map_or(0.0, |b| area(&b))
}

impl<V: Vector> Arena<V> {
    /// Measures the tree.
    pub(crate) fn quality(&self) -> BvhQuality {
        self.quality_with(&mut Vec::new())
    }

    /// [`Arena::quality`] with the traversal's stack lent by the caller (the
    /// step measures its tree now and then: no allocation there).
    pub(crate) fn quality_with(&self, stack: &mut Vec<u32>) -> BvhQuality {
        if self.root == NONE {
            return BvhQuality::default();
        }
        let root_area = area(&self.nodes[self.root as usize].bound);
        let (mut internal, mut overlap, mut leaves) = (0.0f64, 0.0f64, 0usize);
        stack.clear();
        stack.push(self.root);
        while let Some(n) = stack.pop() {
            let node = &self.nodes[n as usize];
            if node.is_leaf() {
                leaves += 1;
                continue;
            }
            internal += area(&node.bound);
            let (l, r) = (
                &self.nodes[node.left as usize],
                &self.nodes[node.right as usize],
            );
            overlap += overlap_area(&l.bound, &r.bound);
            stack.push(node.left);
            stack.push(node.right);
        }
        let ratio = |x: f64| {
            if root_area > 0.0 && root_area.is_finite() {
                x / root_area
            } else {
                0.0
            }
        };
        BvhQuality {
            sah_cost: ratio(internal),
            sibling_overlap: ratio(overlap),
            height: self.height(),
            leaves,
        }
    }
}
