//! [`Bvh::validate`]: the BVH's invariants, checked by the tests after
//! every operation.

use super::core::Bvh;
use super::tree::{Arena, NONE};
use crate::broad::events::pair_key;
use crate::geometry::Vector;

/// Resting trees up to this size get their pair list checked against
/// brute force (quadratic).
const BRUTE_CHECK_LIMIT: usize = 2000;

/// Scenes up to this size get the candidate list checked against every
/// pair of leaves (quadratic, after every operation in the tests).
const CANDIDATE_CHECK_LIMIT: usize = 300;

impl<V: Vector, T> Bvh<V, T> {
    /// Checks the trees' invariants and names the first one broken: every
    /// internal bound holds its children's, every leaf holds its object's
    /// box (in the moving tree the fat box it keeps for the object, in the
    /// resting one the exact box), parent links and heights agree, every
    /// live object has exactly one leaf, in the tree its state says
    /// (objects inserted since the last step get theirs at the step), and
    /// the resting tree's pair list is exact.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Bvh};
    /// use glam::Vec2;
    /// let mut bvh: Bvh<Vec2> = Bvh::new();
    /// for i in 0..50 {
    ///     let p = Vec2::splat(i as f32);
    ///     bvh.insert(Aabb2::new(p, p + Vec2::ONE)?, ())?;
    /// }
    /// assert_eq!(bvh.validate(), Ok(()));
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn validate(&self) -> Result<(), String> {
        // Inserted since the last step: no leaf yet, waiting in `escaped`.
        let pending = self
            .escapes
            .escaped
            .iter()
            .filter(|&&i| self.escapes.pending[i as usize]);
        let pending = pending.count();
        let marked = self.escapes.pending.iter().filter(|&&p| p).count();
        if pending != marked || marked != self.escapes.pending_len {
            return Err(format!(
                "{marked} pending inserts marked, {pending} listed as escaped, {} counted",
                self.escapes.pending_len
            ));
        }
        for &i in &self.escapes.escaped {
            let i = i as usize;
            if self.escapes.pending[i]
                && (self.leaf_of[i] != NONE || self.tree.moving_at[i] == NONE)
            {
                return Err(format!("pending insert {i} has a leaf or is not moving"));
            }
        }
        let moving = self.check_tree(&self.tree.arena, "moving")? + pending;
        let resting = self.check_tree(&self.resting.arena, "resting")?;
        if moving != self.tree.moving.len() || resting != self.resting.len {
            return Err(format!(
                "{moving} moving and {resting} resting leaves for {} and {} objects",
                self.tree.moving.len(),
                self.resting.len
            ));
        }
        if moving + resting != self.objects.len() {
            return Err(format!(
                "{} leaves for {} objects",
                moving + resting,
                self.objects.len()
            ));
        }
        for (k, &i) in self.tree.moving.iter().enumerate() {
            if self.tree.moving_at.get(i as usize) != Some(&(k as u32)) {
                return Err(format!("moving object {i} is misrecorded"));
            }
        }
        for (k, &i) in self.escapes.escaped.iter().enumerate() {
            if self.escapes.escaped_at.get(i as usize) != Some(&(k as u32)) {
                return Err(format!("escaped object {i} is misrecorded"));
            }
        }
        self.check_resting_pairs()?;
        self.check_candidates()
    }

    /// Checks one tree; returns its number of leaves.
    fn check_tree(&self, arena: &Arena<V>, which: &str) -> Result<usize, String> {
        let nodes = &arena.nodes;
        let mut leaves = 0usize;
        if arena.root == NONE {
            return Ok(0);
        }
        if nodes[arena.root as usize].parent != NONE {
            return Err(format!("the {which} root has a parent"));
        }
        let resting = which == "resting";
        let mut stack = vec![arena.root];
        while let Some(n) = stack.pop() {
            let node = &nodes[n as usize];
            if node.is_leaf() {
                leaves += 1;
                let i = node.object as usize;
                if self.leaf_of.get(i) != Some(&n) {
                    return Err(format!(
                        "{which} leaf {n} holds object {i}, recorded elsewhere"
                    ));
                }
                if resting != (self.tree.moving_at[i] == NONE) {
                    return Err(format!("object {i} is in the {which} tree by mistake"));
                }
                if self.escapes.escaped_at[i] == NONE && !node.bound.contains(&self.boxes[i]) {
                    return Err(format!("{which} leaf {n} does not hold object {i}'s box"));
                }
                if resting && self.escapes.escaped_at[i] == NONE && node.bound != self.boxes[i] {
                    return Err(format!("resting leaf {n} is not object {i}'s box"));
                }
                // What keeps the candidate pairs valid when a tree built in
                // the background replaces this one.
                if !resting && self.tree.fat.get(i) != Some(&node.bound) {
                    return Err(format!("moving leaf {n} is not object {i}'s fat box"));
                }
                if node.height != 0 {
                    return Err(format!("{which} leaf {n} has height {}", node.height));
                }
                continue;
            }
            for c in [node.left, node.right] {
                let child = &nodes[c as usize];
                if child.parent != n {
                    return Err(format!(
                        "{which} node {c}'s parent link does not point to {n}"
                    ));
                }
                if !node.bound.contains(&child.bound) {
                    return Err(format!("{which} node {n}'s bound does not hold child {c}"));
                }
                stack.push(c);
            }
            let h = 1 + nodes[node.left as usize]
                .height
                .max(nodes[node.right as usize].height);
            if node.height != h {
                return Err(format!(
                    "{which} node {n} has height {} instead of {h}",
                    node.height
                ));
            }
        }
        Ok(leaves)
    }

    /// The resting pair list is sorted and, leaving out objects that left
    /// or changed since the last step, equals brute force over the resting
    /// objects (for small trees).
    fn check_resting_pairs(&self) -> Result<(), String> {
        let keys = &self.resting.keys;
        if keys.windows(2).any(|w| w[0] >= w[1]) {
            return Err("the resting pair list is not sorted and unique".into());
        }
        if self.resting.len > BRUTE_CHECK_LIMIT {
            return Ok(());
        }
        let settled = |i: u32| {
            !self.resting.has_left(i)
                && self.escapes.escaped_at[i as usize] == NONE
                && self.tree.moving_at[i as usize] == NONE
        };
        let listed: Vec<u64> = keys
            .iter()
            .copied()
            .filter(|&k| settled((k >> 32) as u32) && settled(k as u32))
            .collect();
        let resting: Vec<u32> = self
            .objects
            .iter()
            .map(|(h, _)| h.index())
            .filter(|&i| settled(i))
            .collect();
        let mut brute = Vec::new();
        for (k, &i) in resting.iter().enumerate() {
            for &j in &resting[k + 1..] {
                if self.boxes[i as usize].overlaps(&self.boxes[j as usize]) {
                    brute.push(pair_key(i, j));
                }
            }
        }
        brute.sort_unstable();
        if listed != brute {
            return Err(format!(
                "the resting pair list has {} settled pairs, brute force finds {}",
                listed.len(),
                brute.len()
            ));
        }
        Ok(())
    }

    /// The candidate list is sorted and, for small scenes, holds every pair
    /// of objects, not both resting and neither changed since the last
    /// step, whose leaves overlap (what the step relies on to find every
    /// pair).
    fn check_candidates(&self) -> Result<(), String> {
        let Some(keys) = self.kept.candidates.keys() else {
            return Ok(());
        };
        if keys.windows(2).any(|w| w[0] >= w[1]) {
            return Err("the candidate list is not sorted and unique".into());
        }
        if self.objects.len() > CANDIDATE_CHECK_LIMIT {
            return Ok(());
        }
        let leaf = |i: u32| {
            let arena = if self.tree.moving_at[i as usize] == NONE {
                &self.resting.arena
            } else {
                &self.tree.arena
            };
            &arena.nodes[self.leaf_of[i as usize] as usize].bound
        };
        let settled: Vec<u32> = self
            .objects
            .iter()
            .map(|(h, _)| h.index())
            .filter(|&i| !self.kept.candidates.is_fresh(i))
            .collect();
        for (k, &i) in settled.iter().enumerate() {
            for &j in &settled[k + 1..] {
                let both_rest = self.tree.moving_at[i as usize] == NONE
                    && self.tree.moving_at[j as usize] == NONE;
                if !both_rest
                    && leaf(i).overlaps(leaf(j))
                    && keys.binary_search(&pair_key(i, j)).is_err()
                {
                    return Err(format!(
                        "objects {i} and {j} have overlapping leaves but are no candidates"
                    ));
                }
            }
        }
        Ok(())
    }
}
