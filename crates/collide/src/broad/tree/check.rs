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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad::contract::BroadPhase;
    use crate::geometry::Aabb;
    use crate::test_rng::TestRng;
    use glam::Vec3;

    /// The share of objects held in nodes with children.
    fn held_high(tree: &Tree<Vec3>) -> f64 {
        let nodes = tree.nodes.as_ref().expect("stepped");
        let high = tree
            .places
            .iter()
            .filter(|p| matches!(p, Place::Node(n) if nodes.nodes[*n as usize].children != NONE))
            .count();
        high as f64 / tree.places.len() as f64
    }

    /// 10,000 boxes 5 to 20 units wide, centred in a band along x of the
    /// given thickness on y and z, in a world 2,154 units long.
    fn band(tree: &mut Tree<Vec3>, thickness: f32) {
        let mut rng = TestRng::new(7);
        let side = 2154.0;
        for _ in 0..10_000 {
            let c = Vec3::new(
                rng.range(0.0, side),
                0.5 * side + thickness * rng.range(-0.5, 0.5),
                0.5 * side + thickness * rng.range(-0.5, 0.5),
            );
            let h = Vec3::new(
                rng.range(2.5, 10.0),
                rng.range(2.5, 10.0),
                rng.range(2.5, 10.0),
            );
            tree.insert(Aabb::new(c - h, c + h).unwrap(), ()).unwrap();
        }
        tree.step();
        assert_eq!(tree.validate(), Ok(()));
    }

    #[test]
    fn a_thin_band_splits_along_its_length() {
        // Halving a thin band's thin axes with its long one held 98% of
        // its boxes high (tight) and 82% (loose), straddling midplanes,
        // each tested against a whole subtree. Limits: tight, thin band,
        // spread scene; loose, the same.
        let limits = [
            (Tree::<Vec3>::tight as fn() -> _, 0.9, 0.3),
            (Tree::loose, 0.3, 0.05),
        ];
        for (make, thin_limit, thick_limit) in limits {
            let (mut thin, mut thick) = (make(), make());
            band(&mut thin, 86.0);
            band(&mut thick, 2154.0);
            let (thin, thick) = (held_high(&thin), held_high(&thick));
            assert!(
                thin < thin_limit,
                "{thin:.2} of a thin band's boxes held high"
            );
            assert!(
                thick < thick_limit,
                "{thick:.2} of a spread scene's boxes held high"
            );
        }
    }
}
