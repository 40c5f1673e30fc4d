//! The node pool of a 2^D-ary tree (quadtree in 2D, octree in 3D): logical
//! cells, bounds (the logical cell, or the loose cell), object lists, and
//! the split and merge that keep the tree adaptive.
//!
//! A node's objects are a doubly linked list threaded through one array of
//! links indexed by object, so moving an object between nodes, splitting
//! and merging never allocate (a list per node grew and was dropped as
//! nodes split and merged: up to 2,000 allocations a step).

use crate::broad::headroom::reserve_headroom;
use crate::geometry::{Aabb, Vector};

/// No node / no child.
pub(crate) const NONE: u32 = u32::MAX;

/// One node: its logical cell, its bound (equal to the cell for a tight
/// tree, the cell grown by the looseness for a loose one), the objects
/// stored here (a linked list, see [`Nodes::members`]) and the number of
/// objects in its whole subtree.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<V: Vector> {
    pub(crate) cell: Aabb<V>,
    pub(crate) bound: Aabb<V>,
    pub(crate) parent: u32,
    /// First of 2^D consecutive children, or [`NONE`] for a leaf.
    pub(crate) children: u32,
    pub(crate) depth: u8,
    /// The axes its cell was halved on when it split, as bits (see
    /// [`split_axes`]).
    halved: u8,
    /// The first object stored here, or [`NONE`].
    first: u32,
    /// Objects stored here.
    pub(crate) count: u32,
    pub(crate) subtree: u32,
}

/// An object's neighbours in its node's list ([`NONE`] at the ends).
#[derive(Clone, Copy, Debug)]
struct Link {
    prev: u32,
    next: u32,
}

/// The objects stored in one node, most recently added first.
pub(crate) struct Members<'a> {
    links: &'a [Link],
    at: u32,
}

impl Iterator for Members<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.at == NONE {
            return None;
        }
        let object = self.at;
        self.at = self.links[object as usize].next;
        Some(object)
    }
}

/// The splitting policy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Limits {
    /// A leaf splits when it holds more than this many objects.
    pub(crate) split_above: usize,
    /// Children merge back when their parent's subtree holds fewer.
    pub(crate) merge_below: usize,
    pub(crate) max_depth: u8,
    /// A cell splits only while half its longest edge is at least this.
    pub(crate) min_cell: f32,
    /// The loose bound extends each side of the cell by this share of the
    /// cell's size (0 for a tight tree; 0.5 makes the bound twice the cell).
    pub(crate) looseness: f32,
}

/// The nodes, children allocated in blocks of 2^D, freed blocks reused, and
/// the links of the nodes' object lists.
#[derive(Clone, Debug)]
pub(crate) struct Nodes<V: Vector> {
    pub(crate) nodes: Vec<Node<V>>,
    free_blocks: Vec<u32>,
    /// Per object slot: its neighbours in its node's list.
    links: Vec<Link>,
    pub(crate) limits: Limits,
}

/// The number of children of a node.
pub(crate) const fn fanout(dim: usize) -> usize {
    1 << dim
}

/// The axes a cell is halved on when it splits, as bits: those at least
/// half as long as its longest. A flat cell splits along its length only:
/// halving a thin axis again and again leaves most boxes straddling a
/// midplane, held high in the tree (see the test
/// `a_thin_band_splits_along_its_length`).
fn split_axes<V: Vector>(cell: &Aabb<V>) -> u8 {
    let extent = |a: usize| f64::from(cell.max().axis(a)) - f64::from(cell.min().axis(a));
    let longest = (0..V::DIM).map(extent).fold(0.0, f64::max);
    (0..V::DIM)
        .filter(|&a| extent(a) >= 0.5 * longest)
        .fold(0, |bits, a| bits | 1 << a)
}

impl<V: Vector> Nodes<V> {
    /// A tree with one leaf covering `root`, with links for `slots`
    /// object slots.
    pub(crate) fn new(root: Aabb<V>, limits: Limits, slots: usize) -> Self {
        let mut nodes = Self {
            nodes: Vec::new(),
            free_blocks: Vec::new(),
            links: Vec::new(),
            limits,
        };
        nodes.ensure_slots(slots);
        let bound = nodes.loosen(&root);
        nodes.nodes.push(Node {
            cell: root,
            bound,
            parent: NONE,
            children: NONE,
            depth: 0,
            halved: 0,
            first: NONE,
            count: 0,
            subtree: 0,
        });
        nodes
    }

    /// Links for object slots below `slots`.
    pub(crate) fn ensure_slots(&mut self, slots: usize) {
        if self.links.len() < slots {
            let unlinked = Link {
                prev: NONE,
                next: NONE,
            };
            self.links.resize(slots, unlinked);
        }
    }

    /// Adds object `i` to `node`'s list (at its front). Does not change the
    /// subtree counts.
    pub(crate) fn link(&mut self, node: u32, i: u32) {
        let n = &mut self.nodes[node as usize];
        let old_first = n.first;
        n.first = i;
        n.count += 1;
        self.links[i as usize] = Link {
            prev: NONE,
            next: old_first,
        };
        if old_first != NONE {
            self.links[old_first as usize].prev = i;
        }
    }

    /// Takes object `i` out of `node`'s list. Does not change the subtree
    /// counts.
    pub(crate) fn unlink(&mut self, node: u32, i: u32) {
        let Link { prev, next } = self.links[i as usize];
        if prev == NONE {
            self.nodes[node as usize].first = next;
        } else {
            self.links[prev as usize].next = next;
        }
        if next != NONE {
            self.links[next as usize].prev = prev;
        }
        self.nodes[node as usize].count -= 1;
    }

    /// The objects stored in `node`.
    #[inline]
    pub(crate) fn members(&self, node: u32) -> Members<'_> {
        Members {
            links: &self.links,
            at: self.nodes[node as usize].first,
        }
    }

    /// The object before `i` in its node's list, or [`NONE`] (for
    /// `validate`).
    pub(crate) fn previous(&self, i: u32) -> u32 {
        self.links[i as usize].prev
    }

    /// The object after `i` in its node's list, if any (for walking a
    /// list while moving its objects out).
    pub(crate) fn next_member(&self, i: u32) -> Option<u32> {
        let next = self.links[i as usize].next;
        (next != NONE).then_some(next)
    }

    /// The bound of a node with logical cell `cell`: the cell grown by the
    /// looseness on each side, saturated at the largest f32 so that every
    /// child's bound stays inside its parent's even at the limits of f32.
    fn loosen(&self, cell: &Aabb<V>) -> Aabb<V> {
        let k = self.limits.looseness;
        if k == 0.0 {
            return *cell;
        }
        let grow = |a: usize| {
            let size = f64::from(cell.max().axis(a)) - f64::from(cell.min().axis(a));
            f64::from(k) * size
        };
        let clamp = |x: f64| x.clamp(f64::from(f32::MIN), f64::from(f32::MAX)) as f32;
        Aabb::new(
            V::from_axes(|a| clamp(f64::from(cell.min().axis(a)) - grow(a))),
            V::from_axes(|a| clamp(f64::from(cell.max().axis(a)) + grow(a))),
        )
        .expect("a finite cell grown and saturated is a valid box")
    }

    /// The child of `node` an object with box `b` goes to, if it fits one:
    /// tight trees need the box inside the child's cell; loose trees pick
    /// the child holding the box's centre and need the box inside that
    /// child's loose bound.
    pub(crate) fn child_for(&self, node: u32, b: &Aabb<V>) -> Option<u32> {
        let first = self.nodes[node as usize].children;
        if first == NONE {
            return None;
        }
        let cell = &self.nodes[node as usize].cell;
        if self.limits.looseness > 0.0 {
            let c = b.center();
            let halved = self.nodes[node as usize].halved;
            let mut k = 0usize;
            for a in 0..V::DIM {
                let mid = 0.5 * cell.min().axis(a) + 0.5 * cell.max().axis(a);
                if halved & (1 << a) != 0 && c.axis(a) >= mid {
                    k |= 1 << a;
                }
            }
            let child = first + k as u32;
            return self.nodes[child as usize]
                .bound
                .contains(b)
                .then_some(child);
        }
        (0..fanout(V::DIM) as u32)
            .map(|k| first + k)
            .find(|&child| self.nodes[child as usize].cell.contains(b))
    }

    /// Adds 1 (or subtracts) to the subtree counts from `node` to the root.
    pub(crate) fn add_count(&mut self, mut node: u32, delta: i32) {
        while node != NONE {
            let n = &mut self.nodes[node as usize];
            n.subtree = n.subtree.wrapping_add_signed(delta);
            node = n.parent;
        }
    }

    /// Whether `node` (a leaf) should split now.
    pub(crate) fn wants_split(&self, node: u32) -> bool {
        let n = &self.nodes[node as usize];
        let size = n.cell.size();
        // The longest axis is always halved (see `split_axes`).
        let longest = (0..V::DIM).map(|a| size.axis(a)).fold(0.0, f32::max);
        n.children == NONE
            && n.count as usize > self.limits.split_above
            && n.depth < self.limits.max_depth
            && 0.5 * longest >= self.limits.min_cell
    }

    /// Gives `node` 2^D children (the halves of its cell on every axis).
    pub(crate) fn split(&mut self, node: u32) {
        let count = fanout(V::DIM);
        let first = match self.free_blocks.pop() {
            Some(first) => first,
            None => {
                let first = self.nodes.len() as u32;
                let filler = self.nodes[node as usize];
                self.nodes.resize(self.nodes.len() + count, filler);
                // Every block may be freed at once (a merge at the root):
                // room for all of them, so no merge allocates.
                reserve_headroom(&mut self.free_blocks, self.nodes.len() / count);
                first
            }
        };
        let (cell, depth) = (
            self.nodes[node as usize].cell,
            self.nodes[node as usize].depth,
        );
        let halved = split_axes(&cell);
        self.nodes[node as usize].halved = halved;
        // Child `k` takes the upper half of axis `a` when bit `a` of `k` is
        // set. On an axis not halved, the child with the bit clear takes
        // the whole extent and the one with it set an empty cell at the
        // top, which no box of any size fits before its sibling does.
        for k in 0..count {
            let upper = |a: usize| k & (1 << a) != 0;
            let lo = V::from_axes(|a| {
                let mid = 0.5 * cell.min().axis(a) + 0.5 * cell.max().axis(a);
                match (halved & (1 << a) != 0, upper(a)) {
                    (true, true) => mid,
                    (false, true) => cell.max().axis(a),
                    (_, false) => cell.min().axis(a),
                }
            });
            let hi = V::from_axes(|a| {
                let mid = 0.5 * cell.min().axis(a) + 0.5 * cell.max().axis(a);
                match (halved & (1 << a) != 0, upper(a)) {
                    (true, false) => mid,
                    _ => cell.max().axis(a),
                }
            });
            let child_cell = Aabb::new(lo, hi).unwrap_or(cell);
            let bound = self.loosen(&child_cell);
            let child = &mut self.nodes[first as usize + k];
            child.cell = child_cell;
            child.bound = bound;
            child.parent = node;
            child.children = NONE;
            child.depth = depth + 1;
            child.halved = 0;
            child.first = NONE;
            child.count = 0;
            child.subtree = 0;
        }
        self.nodes[node as usize].children = first;
    }

    /// Frees the children block of `node` (which must be leaves).
    pub(crate) fn unsplit(&mut self, node: u32) {
        let first = self.nodes[node as usize].children;
        self.nodes[node as usize].children = NONE;
        self.free_blocks.push(first);
    }

    /// The children of `node` (consecutive indices), empty for a leaf.
    pub(crate) fn children(&self, node: u32) -> std::ops::Range<u32> {
        let first = self.nodes[node as usize].children;
        if first == NONE {
            0..0
        } else {
            first..first + fanout(V::DIM) as u32
        }
    }
}
