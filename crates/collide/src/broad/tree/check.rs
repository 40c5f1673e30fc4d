//! The tree's invariant checker, run by the tests after every operation.

use super::core::{Place, Tree, TreeKind};
use super::nodes::NONE;
use crate::geometry::Vector;

impl<V: Vector, T> Tree<V, T> {
    /// Checks the tree's invariants and names the first one broken: every
    /// node's bound holds its objects and its children's bounds, subtree
    /// counts agree, depth stays within the limit, every object is where
    /// its record says, exactly once.
    ///
    /// ```
    /// use collide::{Aabb3, BroadPhase, Tree};
    /// use glam::Vec3;
    /// let mut tree: Tree<Vec3> = Tree::tight();
    /// for i in 0..100 {
    ///     let p = Vec3::splat(i as f32 * 0.1);
    ///     tree.insert(Aabb3::new(p, p + Vec3::ONE)?, ())?;
    /// }
    /// tree.step();
    /// assert_eq!(tree.validate(), Ok(()));
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn validate(&self) -> Result<(), String> {
        let mut seen = vec![0u8; self.boxes.len()];
        if let Some(nodes) = &self.nodes {
            let mut stack = vec![0u32];
            while let Some(node) = stack.pop() {
                let n = &nodes.nodes[node as usize];
                if n.depth > self.config.max_depth {
                    return Err(format!(
                        "node {node} is at depth {} past the limit",
                        n.depth
                    ));
                }
                if !n.bound.contains(&n.cell) {
                    return Err(format!("node {node}'s bound does not hold its cell"));
                }
                if self.kind == TreeKind::Tight && n.bound != n.cell {
                    return Err(format!("tight node {node} has a bound apart from its cell"));
                }
                let (mut held, mut before) = (0u32, NONE);
                for i in nodes.members(node) {
                    held += 1;
                    if nodes.previous(i) != before {
                        return Err(format!("object {i}'s back link in node {node} is wrong"));
                    }
                    before = i;
                    if held > n.count {
                        return Err(format!("node {node}'s list is longer than its count"));
                    }
                    if !n.bound.contains(&self.boxes[i as usize]) {
                        return Err(format!("node {node}'s bound does not hold object {i}"));
                    }
                    if self.places[i as usize] != Place::Node(node) {
                        return Err(format!(
                            "object {i} is in node {node} but recorded elsewhere"
                        ));
                    }
                    seen[i as usize] += 1;
                }
                if held != n.count {
                    return Err(format!(
                        "node {node} lists {held} objects but counts {}",
                        n.count
                    ));
                }
                let mut count = held;
                for c in nodes.children(node) {
                    let child = &nodes.nodes[c as usize];
                    if child.parent != node || !n.bound.contains(&child.bound) {
                        return Err(format!("child {c} does not sit inside node {node}"));
                    }
                    count += child.subtree;
                    stack.push(c);
                }
                if count != n.subtree {
                    return Err(format!(
                        "node {node} counts {} objects but holds {count}",
                        n.subtree
                    ));
                }
                if n.children == NONE
                    && n.count as usize > self.config.split_above
                    && nodes.wants_split(node)
                {
                    return Err(format!("leaf {node} is crowded but did not split"));
                }
            }
        }
        for (at, &o) in self.overflow.iter().enumerate() {
            if self.places[o as usize] != Place::Overflow(at as u32) {
                return Err(format!(
                    "object {o} is in the overflow list but recorded elsewhere"
                ));
            }
            seen[o as usize] += 1;
        }
        for (h, _) in self.objects.iter() {
            let i = h.index() as usize;
            let expected = u8::from(self.nodes.is_some());
            if seen[i] != expected {
                return Err(format!("object {i} is registered {} times", seen[i]));
            }
        }
        Ok(())
    }
}
