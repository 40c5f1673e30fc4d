//! The tree's step and queries: all pairs by a traversal of the tree
//! against itself, overflow objects against everything, and box queries.

use super::core::Tree;
use super::nodes::Nodes;
use crate::broad::events::pair_key;
use crate::broad::headroom::{keep_headroom, reserve_headroom};
use crate::broad::parallel::{for_each_part, parts_for, split_by_weight};
use crate::broad::query::{QueryBudget, QueryStats};
use crate::broad::split_sort::{SplitSort, pair_key_bits};
use crate::geometry::{Aabb, Region, Vector};
use crate::handle::Handle;
use std::ops::ControlFlow;

/// The nodes' object lists laid out flat for one step's walk: each node's
/// objects (ids and boxes) side by side in one array, so the walk reads
/// them in order rather than following each list's links (a chain of
/// dependent loads: following the links in the walk itself made the tight
/// tree clearly slower on clustered scenes).
#[derive(Clone, Debug, Default)]
struct FlatLists<V: Vector> {
    ids: Vec<u32>,
    boxes: Vec<Aabb<V>>,
    /// Per node: where its objects start in `ids` and `boxes` (its end is
    /// the next node's start).
    starts: Vec<u32>,
    /// Per node with objects at or below it: the box around them this
    /// step. The walk prunes by it rather than by the node's bound: a
    /// loose octree's bound reaches into all 26 neighbours, while what
    /// its objects cover seldom does (on 3D `uniform` at 100,000, 134
    /// pairs of nodes were visited per node by the bounds).
    content: Vec<Content<V>>,
}

/// The box around a node's objects; `lo` above `hi` when it has none.
#[derive(Clone, Copy, Debug)]
struct Content<V> {
    lo: V,
    hi: V,
}

impl<V: Vector> Content<V> {
    const EMPTY_LO: f32 = f32::INFINITY;

    fn empty() -> Self {
        Self {
            lo: V::from_axes(|_| Self::EMPTY_LO),
            hi: V::from_axes(|_| -Self::EMPTY_LO),
        }
    }

    fn grow(&mut self, lo: V, hi: V) {
        self.lo = self.lo.min_each(lo);
        self.hi = self.hi.max_each(hi);
    }

    /// Strict overlap, as [`Aabb::overlaps`]; never for an empty one.
    #[inline]
    fn overlaps(&self, lo: V, hi: V) -> bool {
        (0..V::DIM).all(|a| self.lo.axis(a) < hi.axis(a) && lo.axis(a) < self.hi.axis(a))
    }
}

impl<V: Vector> FlatLists<V> {
    /// Lays out every node's list, in node order.
    fn fill(&mut self, nodes: &Nodes<V>, boxes: &[Aabb<V>]) {
        let (count, objects) = (nodes.nodes.len(), nodes.nodes[0].subtree as usize);
        // By the arena's capacity, which grows by doubling, not its length,
        // which reaches new highs now and then.
        reserve_headroom(&mut self.starts, nodes.nodes.capacity() + 1);
        reserve_headroom(&mut self.content, nodes.nodes.capacity());
        reserve_headroom(&mut self.ids, objects);
        reserve_headroom(&mut self.boxes, objects);
        self.starts.clear();
        self.content.clear();
        self.ids.clear();
        self.boxes.clear();
        for node in 0..count as u32 {
            self.starts.push(self.ids.len() as u32);
            let mut content = Content::empty();
            for i in nodes.members(node) {
                let b = boxes[i as usize];
                content.grow(b.min(), b.max());
                self.ids.push(i);
                self.boxes.push(b);
            }
            self.content.push(content);
        }
        self.starts.push(self.ids.len() as u32);
        self.gather_content(nodes, 0);
    }

    /// Grows each node's content by its children's, from the leaves up;
    /// returns `node`'s.
    fn gather_content(&mut self, nodes: &Nodes<V>, node: u32) -> Content<V> {
        let mut content = self.content[node as usize];
        for c in nodes.children(node) {
            if nodes.nodes[c as usize].subtree > 0 {
                let below = self.gather_content(nodes, c);
                content.grow(below.lo, below.hi);
            }
        }
        self.content[node as usize] = content;
        content
    }

    /// Whether anything under `node` can overlap the box `lo`..`hi`.
    #[inline]
    fn reaches(&self, node: u32, lo: V, hi: V) -> bool {
        self.content[node as usize].overlaps(lo, hi)
    }

    /// `node`'s objects: their ids and boxes.
    #[inline]
    fn of(&self, node: u32) -> (&[u32], &[Aabb<V>]) {
        let range = self.starts[node as usize] as usize..self.starts[node as usize + 1] as usize;
        (&self.ids[range.clone()], &self.boxes[range])
    }
}

/// Memory a step's pair finding reuses.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairScratch<V: Vector> {
    flat: FlatLists<V>,
    /// A split step's nodes with objects at or below them, its parts'
    /// boundaries in those, and each part's keys and box tests.
    tasks: Vec<u32>,
    bounds: Vec<usize>,
    parts: Vec<(Vec<u64>, u64)>,
    /// The sort of the keys (split across threads when they are many).
    sort: SplitSort,
}

/// Every overlapping pair once, into `keys` (sorted); returns the number of
/// box tests. With 16,384 objects or more (`PARALLEL_MIN`) and more than
/// one thread, the nodes are cut into parts that run on the thread pool
/// (each node's own pairs, see `Walk::node_pairs`, do not depend on any
/// other node's), as are the overflow objects' probes; each part finds
/// its pairs into its own list, appended in part order.
pub(crate) fn tree_pairs<V: Vector, T>(
    tree: &Tree<V, T>,
    scratch: &mut PairScratch<V>,
    keys: &mut Vec<u64>,
) -> u64 {
    keys.clear();
    let mut tested = 0;
    if let Some(nodes) = &tree.nodes {
        let PairScratch {
            flat,
            tasks,
            bounds,
            parts,
            ..
        } = &mut *scratch;
        flat.fill(nodes, &tree.boxes);
        let (flat, loose) = (&*flat, tree.kind == super::TreeKind::Loose);
        let split = parts_for(tree.boxes.len());
        if split <= 1 {
            let mut walk = Walk {
                nodes,
                flat,
                keys: &mut *keys,
                tested: 0,
                loose,
            };
            walk.self_pairs(0);
            // Overflow objects against the tree.
            for &o in &tree.overflow {
                walk.probe(0, o, &tree.boxes[o as usize]);
            }
            tested = walk.tested;
        } else {
            // The nodes with objects at or below them, from the root.
            tasks.clear();
            tasks.push(0);
            let mut at = 0;
            while at < tasks.len() {
                let node = tasks[at];
                at += 1;
                for c in nodes.children(node) {
                    if nodes.nodes[c as usize].subtree > 0 {
                        tasks.push(c);
                    }
                }
            }
            // Room for as many next step (see `headroom.rs`).
            keep_headroom(tasks);
            // Each object probes the subtree below it, about as far
            // whatever its node (its box is small against the world): a
            // node weighs its objects. Weighing them by the subtree instead
            // gave one of two threads three times the other's probes.
            let weight = |t: usize| nodes.nodes[tasks[t] as usize].count as usize + 1;
            split_by_weight(tasks.len(), split, weight, bounds);
            if parts.len() < split {
                parts.resize_with(split, Default::default);
            }
            let (tasks, bounds) = (&tasks[..], &bounds[..]);
            let (overflow, boxes) = (&tree.overflow[..], &tree.boxes[..]);
            for_each_part(&mut parts[..split], |k, (found, part_tested)| {
                found.clear();
                let mut walk = Walk {
                    nodes,
                    flat,
                    keys: found,
                    tested: 0,
                    loose,
                };
                for &node in &tasks[bounds[k]..bounds[k + 1]] {
                    walk.node_pairs(node);
                }
                let probes = overflow.len() * k / split..overflow.len() * (k + 1) / split;
                for &o in &overflow[probes] {
                    walk.probe(0, o, &boxes[o as usize]);
                }
                *part_tested = walk.tested;
            });
            let parts = &mut parts[..split];
            let found: usize = parts.iter().map(|(found, _)| found.len()).sum();
            reserve_headroom(keys, found);
            for (found, part_tested) in parts.iter_mut() {
                keys.extend_from_slice(found);
                tested += *part_tested;
                // Room for as many next step (see `headroom.rs`).
                keep_headroom(found);
            }
        }
    }
    // Overflow objects against each other.
    for (k, &a) in tree.overflow.iter().enumerate() {
        for &b in &tree.overflow[k + 1..] {
            tested += 1;
            if tree.boxes[a as usize].overlaps(&tree.boxes[b as usize]) {
                keys.push(pair_key(a, b));
            }
        }
    }
    scratch.sort.sort(keys, pair_key_bits(tree.boxes.len()));
    tested
}

struct Walk<'a, V: Vector> {
    nodes: &'a Nodes<V>,
    flat: &'a FlatLists<V>,
    keys: &'a mut Vec<u64>,
    tested: u64,
    loose: bool,
}

impl<V: Vector> Walk<'_, V> {
    /// Object `x` with box `box_x` (not in this subtree) against every
    /// object of the subtree under `node` whose bound it overlaps.
    fn probe(&mut self, node: u32, x: u32, box_x: &Aabb<V>) {
        if !self.flat.reaches(node, box_x.min(), box_x.max()) {
            return;
        }
        let (ids, boxes) = self.flat.of(node);
        self.tested += ids.len() as u64;
        for (&y, box_y) in ids.iter().zip(boxes) {
            if box_x.overlaps(box_y) {
                self.keys.push(pair_key(x, y));
            }
        }
        for c in self.nodes.children(node) {
            self.probe(c, x, box_x);
        }
    }

    /// All pairs within the subtree under `node`: those of `node` and of
    /// every node below it with objects.
    fn self_pairs(&mut self, node: u32) {
        self.node_pairs(node);
        for c in self.nodes.children(node) {
            if self.nodes.nodes[c as usize].subtree > 0 {
                self.self_pairs(c);
            }
        }
    }

    /// The pairs `node` answers for: its own objects among themselves and
    /// against its descendants, and (loose trees only, whose sibling
    /// bounds overlap) pairs across its children's subtrees. Every pair
    /// within a subtree is one node's, so the nodes' pairs can be found in
    /// any order, on any thread.
    fn node_pairs(&mut self, node: u32) {
        let (ids, boxes) = self.flat.of(node);
        for (k, (&a, box_a)) in ids.iter().zip(boxes).enumerate() {
            self.tested += (ids.len() - k - 1) as u64;
            for (&b, box_b) in ids[k + 1..].iter().zip(&boxes[k + 1..]) {
                if box_a.overlaps(box_b) {
                    self.keys.push(pair_key(a, b));
                }
            }
            for c in self.nodes.children(node) {
                self.probe(c, a, box_a);
            }
        }
        if self.loose {
            let children = self.nodes.children(node);
            for c1 in children.clone() {
                for c2 in c1 + 1..children.end {
                    self.cross_pairs(c1, c2);
                }
            }
        }
    }

    /// All pairs with one object under `a` and the other under `b`
    /// (disjoint subtrees).
    fn cross_pairs(&mut self, a: u32, b: u32) {
        let (nodes, flat) = (self.nodes, self.flat);
        let (na, nb) = (&nodes.nodes[a as usize], &nodes.nodes[b as usize]);
        let content_b = flat.content[b as usize];
        if na.subtree == 0 || nb.subtree == 0 || !flat.reaches(a, content_b.lo, content_b.hi) {
            return;
        }
        let (ids_a, boxes_a) = flat.of(a);
        for (&x, box_x) in ids_a.iter().zip(boxes_a) {
            self.probe(b, x, box_x);
        }
        let (ids_b, boxes_b) = flat.of(b);
        for (&y, box_y) in ids_b.iter().zip(boxes_b) {
            for c in nodes.children(a) {
                self.probe(c, y, box_y);
            }
        }
        for ca in nodes.children(a) {
            for cb in nodes.children(b) {
                self.cross_pairs(ca, cb);
            }
        }
    }
}

impl<V: Vector, T> Tree<V, T> {
    /// Visits each object `region` hits: the nodes whose
    /// bound it hits (objects held on the path included; a node's bound
    /// holds every object below it, and the hit rule is monotone), then the
    /// overflow list; before the first step, every object. Breaks when
    /// `visit` does or the budget runs out (then `stats` says truncated).
    pub(super) fn search<R: Region<V> + ?Sized>(
        &self,
        region: &R,
        budget: &QueryBudget,
        stats: &mut QueryStats,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut test = |x: u32, stats: &mut QueryStats| {
            stats.candidate(budget, region, &self.boxes[x as usize], || {
                visit(self.objects.live_handle_at(x))
            })
        };
        let Some(nodes) = &self.nodes else {
            for (h, _) in self.objects.iter() {
                test(h.index(), stats)?;
            }
            return ControlFlow::Continue(());
        };
        // Depth-first with a fixed stack: at most (2^D - 1) pending
        // siblings per level, 30 levels; no allocation per query.
        let mut stack = [0u32; 30 * 8 + 1];
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let node = stack[top];
            if !stats.visit(budget) {
                return ControlFlow::Break(());
            }
            let n = &nodes.nodes[node as usize];
            if !region.hits(&n.bound) {
                continue;
            }
            for x in nodes.members(node) {
                test(x, stats)?;
            }
            for c in nodes.children(node) {
                stack[top] = c;
                top += 1;
            }
        }
        for &o in &self.overflow {
            test(o, stats)?;
        }
        ControlFlow::Continue(())
    }
}
