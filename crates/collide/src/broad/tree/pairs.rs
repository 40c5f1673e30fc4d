//! The tree's step and queries: all pairs by a traversal of the tree
//! against itself, overflow objects against everything, and box queries.

use super::core::Tree;
use super::nodes::Nodes;
use crate::broad::events::pair_key;
use crate::broad::query::{QueryBudget, QueryStats};
use crate::geometry::{Aabb, Region, Vector};
use crate::handle::Handle;
use std::ops::ControlFlow;

/// Every overlapping pair once, into `keys` (sorted); returns the number of
/// box tests.
pub(crate) fn tree_pairs<V: Vector, T>(tree: &Tree<V, T>, keys: &mut Vec<u64>) -> u64 {
    keys.clear();
    let mut walk = Walk {
        boxes: &tree.boxes,
        keys,
        tested: 0,
        loose: tree.kind == super::TreeKind::Loose,
    };
    if let Some(nodes) = &tree.nodes {
        walk.self_pairs(nodes, 0);
        // Overflow objects against the tree, then against each other.
        for &o in &tree.overflow {
            walk.probe(nodes, 0, o);
        }
    }
    for (k, &a) in tree.overflow.iter().enumerate() {
        for &b in &tree.overflow[k + 1..] {
            walk.test(a, b);
        }
    }
    let tested = walk.tested;
    keys.sort_unstable();
    tested
}

struct Walk<'a, V: Vector> {
    boxes: &'a [Aabb<V>],
    keys: &'a mut Vec<u64>,
    tested: u64,
    loose: bool,
}

impl<V: Vector> Walk<'_, V> {
    #[inline]
    fn test(&mut self, a: u32, b: u32) {
        self.tested += 1;
        if self.boxes[a as usize].overlaps(&self.boxes[b as usize]) {
            self.keys.push(pair_key(a, b));
        }
    }

    /// Object `x` (not in this subtree) against every object of the subtree
    /// under `node` whose bound it overlaps.
    fn probe(&mut self, nodes: &Nodes<V>, node: u32, x: u32) {
        let n = &nodes.nodes[node as usize];
        if !n.bound.overlaps(&self.boxes[x as usize]) {
            return;
        }
        for &y in &n.objects {
            self.test(x, y);
        }
        for c in nodes.children(node) {
            self.probe(nodes, c, x);
        }
    }

    /// All pairs within the subtree under `node`: its own objects among
    /// themselves and against its descendants, each child's subtree, and
    /// (loose trees only, whose sibling bounds overlap) pairs across
    /// sibling subtrees.
    fn self_pairs(&mut self, nodes: &Nodes<V>, node: u32) {
        let objects = &nodes.nodes[node as usize].objects;
        for (k, &a) in objects.iter().enumerate() {
            for &b in &objects[k + 1..] {
                self.test(a, b);
            }
            for c in nodes.children(node) {
                self.probe(nodes, c, a);
            }
        }
        let children = nodes.children(node);
        for c in children.clone() {
            if nodes.nodes[c as usize].subtree > 0 {
                self.self_pairs(nodes, c);
            }
        }
        if self.loose {
            for c1 in children.clone() {
                for c2 in c1 + 1..children.end {
                    self.cross_pairs(nodes, c1, c2);
                }
            }
        }
    }

    /// All pairs with one object under `a` and the other under `b`
    /// (disjoint subtrees).
    fn cross_pairs(&mut self, nodes: &Nodes<V>, a: u32, b: u32) {
        let (na, nb) = (&nodes.nodes[a as usize], &nodes.nodes[b as usize]);
        if na.subtree == 0 || nb.subtree == 0 || !na.bound.overlaps(&nb.bound) {
            return;
        }
        for &x in &na.objects {
            self.probe(nodes, b, x);
        }
        for &y in &nb.objects {
            for c in nodes.children(a) {
                self.probe(nodes, c, y);
            }
        }
        for ca in nodes.children(a) {
            for cb in nodes.children(b) {
                self.cross_pairs(nodes, ca, cb);
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
            for &x in &n.objects {
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
