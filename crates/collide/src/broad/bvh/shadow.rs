//! Rebuilding the whole moving tree in the background, a share of it per
//! step, so that a worn tree gets a fresh shape without a frame that pays
//! for the whole build (seed 002: a full rebuild of 65,536 leaves once cost
//! an engine a 108 ms frame).
//!
//! Why whole: under refits in place (slow motion, where few objects leave
//! their fat boxes each step) the tree keeps its shape while the objects
//! drift, and its nodes grow until they overlap. Rebuilding its worst
//! subtrees ([`Renewal`](super::renew::Renewal)) cannot help once objects
//! have drifted out of their subtree's region, since leaves never change
//! subtree there. Measured with `frame_times bvh 100000 slow uniform 200`
//! (collide-bench): the surface-area cost rose from 686 after a build to
//! 1,064 by frame 120, and the steps from about 10 to 17 ms, renewals
//! included.
//!
//! How: at the start the moving objects' fat boxes are copied and sorted in
//! Morton order (one radix sort). Each step then places a budget of leaves
//! into a second node arena, top-down in pre-order (the LBVH split of
//! `build.rs`, from an explicit list of ranges instead of recursion). When
//! every leaf is placed, each leaf takes its object's fat box of now (some
//! left their boxes in between), one pass backwards over the nodes gives
//! every internal node its bound, and the new tree replaces the old. The
//! leaves hold the same boxes as the old tree's did, so the candidate pairs
//! kept between steps stay valid. If the set of moving objects changed
//! meanwhile (inserts, removals, objects coming to rest or waking), the
//! new tree is dropped instead.
//!
//! Cost: a copy and a sort of the leaves at the start; then per step the
//! budget's leaves and as many internal nodes; at the end a pass over
//! every leaf and node.

use super::build::{BuildScratch, Leaf, lbvh_split};
use super::tree::{Arena, NONE, Node, area};
use crate::geometry::{Aabb, Vector};

/// Whether an object whose leaf held `old` and whose fat box is now `new`
/// jumped (a teleport) rather than moved: on some axis the gap between the
/// two exceeds [`JUMP_EXTENTS`] times `old`'s largest extent. A leaf grown
/// in place over such a jump would stretch its ancestors across the
/// world; a moved one stays near its neighbours in the tree.
pub(super) fn jumped<V: Vector>(new: &Aabb<V>, old: &Aabb<V>) -> bool {
    let axis = |b: &Aabb<V>, a: usize| (f64::from(b.min().axis(a)), f64::from(b.max().axis(a)));
    let extent = (0..V::DIM)
        .map(|a| axis(old, a).1 - axis(old, a).0)
        .fold(0.0, f64::max);
    (0..V::DIM).any(|a| {
        let ((new_lo, new_hi), (old_lo, old_hi)) = (axis(new, a), axis(old, a));
        (new_lo - old_hi).max(old_lo - new_hi) > JUMP_EXTENTS * extent
    })
}

/// See [`jumped`]. The background build takes about 10 steps, over which
/// a small object under slow motion moves a few of its sizes: with any gap
/// counted as a jump, 183 and 335 objects were reinserted at the ends of
/// the first two builds of `frame_times bvh 100000 slow clustered 60`
/// (collide-bench), which undid the new tree's node order; with 4, none.
const JUMP_EXTENTS: f64 = 4.0;

/// A range of Morton-ordered leaves still to build, and where to link the
/// subtree over it.
#[derive(Clone, Copy, Debug)]
struct Task {
    first: u32,
    end: u32,
    parent: u32,
    /// Whether the subtree is its parent's right child.
    right: bool,
}

/// A background rebuild, and the memory it reuses.
#[derive(Clone, Debug, Default)]
pub(super) struct Shadow<V: Vector> {
    /// The tree being built; between builds, the replaced tree's nodes
    /// (memory for the next build).
    pub(super) arena: Arena<V>,
    leaves: Vec<Leaf<V>>,
    scratch: BuildScratch<V>,
    /// Ranges still to build; empty with `running` false when idle.
    tasks: Vec<Task>,
    running: bool,
    /// Objects that jumped far from their box of the start while the tree
    /// was built (teleports): after [`Shadow::finish`] their leaves in the
    /// new tree still hold that box and must be reinserted with their fat
    /// box of now.
    pub(super) jumped: Vec<u32>,
    /// Background rebuilds finished, and dropped, in all.
    pub(super) finished: u64,
    pub(super) dropped: u64,
}

impl<V: Vector> Shadow<V> {
    /// Whether a background rebuild is running.
    pub(super) fn running(&self) -> bool {
        self.running
    }

    /// Starts rebuilding a tree over the fat boxes of `objects` (each with a
    /// leaf in the tree to replace). `leaves` and `scratch` are swapped
    /// with the rebuild's own: the caller's, warm from its last whole
    /// build, spare the rebuild the first touch of fresh memory (the first
    /// copy and sort at 100,000 objects took 8 ms with fresh memory, 3.3
    /// ms with the lent one).
    pub(super) fn start(
        &mut self,
        objects: impl Iterator<Item = (u32, Aabb<V>)>,
        leaves: &mut Vec<Leaf<V>>,
        scratch: &mut BuildScratch<V>,
    ) {
        std::mem::swap(&mut self.leaves, leaves);
        std::mem::swap(&mut self.scratch, scratch);
        self.leaves.clear();
        self.leaves.extend(objects);
        self.arena.reset();
        self.tasks.clear();
        self.running = !self.leaves.is_empty();
        if self.running {
            self.scratch.sort_by_morton(&mut self.leaves);
            let end = self.leaves.len() as u32;
            self.tasks.push(Task {
                first: 0,
                end,
                parent: NONE,
                right: false,
            });
        }
    }

    /// Drops the rebuild in progress (the tree was rebuilt another way).
    pub(super) fn cancel(&mut self) {
        if self.running {
            self.running = false;
            self.tasks.clear();
            self.dropped += 1;
        }
    }

    /// Places up to `budget` leaves (at least one) and their ancestors;
    /// returns whether the tree is complete (every node placed, bounds
    /// not yet set: see [`Shadow::finish`]).
    pub(super) fn advance(&mut self, budget: usize) -> bool {
        let mut placed = 0;
        while placed < budget.max(1) {
            let Some(task) = self.tasks.pop() else {
                break;
            };
            let (first, end) = (task.first as usize, task.end as usize);
            let node = if end - first == 1 {
                placed += 1;
                let (object, bound) = self.leaves[first];
                self.arena.alloc(Node {
                    bound,
                    parent: task.parent,
                    left: NONE,
                    right: NONE,
                    object,
                    height: 0,
                })
            } else {
                let mid = first + lbvh_split(&self.scratch.codes[first..end]);
                let node = self.arena.alloc(Node {
                    bound: Aabb::default(),
                    parent: task.parent,
                    left: NONE,
                    right: NONE,
                    object: NONE,
                    height: 0,
                });
                // Left popped first: every node before its children.
                for (first, end, right) in [(mid, end, true), (first, mid, false)] {
                    self.tasks.push(Task {
                        first: first as u32,
                        end: end as u32,
                        parent: node,
                        right,
                    });
                }
                node
            };
            if task.parent == NONE {
                self.arena.root = node;
            } else if task.right {
                self.arena.nodes[task.parent as usize].right = node;
            } else {
                self.arena.nodes[task.parent as usize].left = node;
            }
        }
        self.tasks.is_empty()
    }

    /// Completes the tree once [`Shadow::advance`] has placed every node:
    /// if its leaves' objects are exactly the `moving` objects (each with
    /// a leaf, `leaf_of[i] != NONE`), gives each leaf its object's fat box
    /// of now (but for [`Shadow::jumped`]) and every internal node its
    /// bound and height, and returns true (swap `self.arena` in, call
    /// [`Shadow::relink`], and reinsert the jumped objects). Returns
    /// false, dropping the tree, if the moving objects changed meanwhile.
    pub(super) fn finish(
        &mut self,
        moving: &[u32],
        moving_at: &[u32],
        leaf_of: &[u32],
        fat: &[Aabb<V>],
    ) -> bool {
        debug_assert!(self.running && self.tasks.is_empty());
        self.running = false;
        let has_leaf = |i: u32| {
            let k = i as usize;
            moving_at.get(k).is_some_and(|&at| at != NONE)
                && leaf_of.get(k).is_some_and(|&leaf| leaf != NONE)
        };
        // The leaves' objects are distinct, so equal counts and each one
        // moving with a leaf mean the same set.
        if self.leaves.len() != moving.len() || !self.leaves.iter().all(|&(i, _)| has_leaf(i)) {
            self.dropped += 1;
            return false;
        }
        let arena = &mut self.arena;
        let mut built_area = 0.0;
        self.jumped.clear();
        for k in (0..arena.nodes.len()).rev() {
            let node = &arena.nodes[k];
            if node.is_leaf() {
                let object = node.object;
                if !jumped(&fat[object as usize], &node.bound) {
                    arena.nodes[k].bound = fat[object as usize];
                } else {
                    // Jumped far since the copy: its place in the Morton
                    // order is wrong. It keeps the copied box for now and
                    // is reinserted after the swap (see `jumped`).
                    self.jumped.push(object);
                }
                continue;
            }
            let (l, r) = (
                &arena.nodes[node.left as usize],
                &arena.nodes[node.right as usize],
            );
            let (bound, height) = (l.bound.union(&r.bound), 1 + l.height.max(r.height));
            built_area += area(&bound);
            let n = &mut arena.nodes[k];
            n.bound = bound;
            n.height = height;
        }
        arena.built_area = built_area;
        // Allocated in pre-order, none freed (the arena was reset).
        arena.preorder = true;
        self.finished += 1;
        true
    }

    /// After the new tree was swapped in (the old one is now
    /// `self.arena`): points `leaf_of` at the new leaves.
    pub(super) fn relink(new: &Arena<V>, leaf_of: &mut [u32]) {
        for (k, node) in new.nodes.iter().enumerate() {
            if node.is_leaf() {
                leaf_of[node.object as usize] = k as u32;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::SceneRng;
    use glam::Vec2;

    fn random_leaves(n: u32, rng: &mut SceneRng) -> Vec<Aabb<Vec2>> {
        (0..n)
            .map(|_| {
                let p = Vec2::new(rng.range(-500.0, 500.0), rng.range(-500.0, 500.0));
                Aabb::new(p, p + Vec2::splat(rng.range(4.0, 8.0))).unwrap()
            })
            .collect()
    }

    #[test]
    fn a_background_build_over_many_steps_gives_a_valid_preorder_tree() {
        let mut rng = SceneRng::new(11);
        let n = 5000u32;
        let mut fat = random_leaves(n, &mut rng);
        let copied = fat.clone();
        let moving: Vec<u32> = (0..n).collect();
        let moving_at = moving.clone();
        let leaf_of = vec![0u32; n as usize];
        let mut shadow: Shadow<Vec2> = Shadow::default();
        let (mut leaves, mut scratch) = (Vec::new(), BuildScratch::default());
        shadow.start(
            moving.iter().map(|&i| (i, fat[i as usize])),
            &mut leaves,
            &mut scratch,
        );
        // Meanwhile every 7th object drifts a little out of its box, and
        // at the third step every 11th (not a 7th) jumps far.
        let drifts = |i: usize| i.is_multiple_of(7);
        let jumps = |i: usize| i.is_multiple_of(11) && !drifts(i);
        let mut steps = 0;
        while !shadow.advance(700) {
            steps += 1;
            for (i, bound) in fat.iter_mut().enumerate() {
                if drifts(i) {
                    *bound = bound.translated(Vec2::new(0.25, -0.25)).unwrap();
                } else if jumps(i) && steps == 3 {
                    *bound = bound.translated(Vec2::new(2000.0, 0.0)).unwrap();
                }
            }
        }
        assert!(steps >= 6, "{steps} steps for {n} leaves at 700 a step");
        assert!(shadow.finish(&moving, &moving_at, &leaf_of, &fat));
        let mut jumped = shadow.jumped.clone();
        jumped.sort_unstable();
        let jumpers: Vec<u32> = (0..n).filter(|&i| jumps(i as usize)).collect();
        assert_eq!(jumped, jumpers);
        let arena = &shadow.arena;
        assert!(arena.preorder);
        let mut seen = vec![false; n as usize];
        let mut stack = vec![arena.root];
        while let Some(k) = stack.pop() {
            let node = &arena.nodes[k as usize];
            if node.is_leaf() {
                let i = node.object as usize;
                let expected = if jumps(i) { copied[i] } else { fat[i] };
                assert_eq!(node.bound, expected, "object {i}");
                assert!(!std::mem::replace(&mut seen[i], true));
                continue;
            }
            for c in [node.left, node.right] {
                assert!(c > k, "node {k}'s child {c} comes before it");
                assert_eq!(arena.nodes[c as usize].parent, k);
                assert!(node.bound.contains(&arena.nodes[c as usize].bound));
                stack.push(c);
            }
        }
        assert!(seen.iter().all(|&s| s), "every object has a leaf");
        assert!(arena.height() <= 40, "height {}", arena.height());
    }

    #[test]
    fn a_background_build_is_dropped_when_the_moving_objects_changed() {
        let mut rng = SceneRng::new(12);
        let fat = random_leaves(100, &mut rng);
        let moving: Vec<u32> = (0..100).collect();
        let mut shadow: Shadow<Vec2> = Shadow::default();
        // One object came to rest (left the moving list) meanwhile.
        shadow.start(
            moving.iter().map(|&i| (i, fat[i as usize])),
            &mut Vec::new(),
            &mut BuildScratch::default(),
        );
        while !shadow.advance(10) {}
        let mut moving_at: Vec<u32> = (0..100).collect();
        moving_at[40] = NONE;
        let fewer: Vec<u32> = (0..100).filter(|&i| i != 40).collect();
        assert!(!shadow.finish(&fewer, &moving_at, &[0; 100], &fat));
        // One object was inserted meanwhile and has its leaf.
        shadow.start(
            moving.iter().take(99).map(|&i| (i, fat[i as usize])),
            &mut Vec::new(),
            &mut BuildScratch::default(),
        );
        while !shadow.advance(10) {}
        let moving_at: Vec<u32> = (0..100).collect();
        assert!(!shadow.finish(&moving, &moving_at, &[0; 100], &fat));
        assert_eq!((shadow.finished, shadow.dropped), (0, 2));
        assert!(!shadow.running());
    }

    /// The pairs of `world` as sorted pairs of values.
    fn pair_values(world: &dyn crate::BroadPhase<Vec2, u32>) -> Vec<(u32, u32)> {
        let mut pairs: Vec<(u32, u32)> = world
            .pairs()
            .iter()
            .map(|p| (*world.value(p.a()).unwrap(), *world.value(p.b()).unwrap()))
            .map(|(a, b)| (a.min(b), a.max(b)))
            .collect();
        pairs.sort_unstable();
        pairs
    }

    #[test]
    fn a_tree_worn_by_drift_is_rebuilt_in_the_background_and_stays_exact() {
        // 3,000 boxes drifting at steady, varied velocities (the tree wears
        // under refits), 0.3% jumping anywhere each step (reinserted, or
        // jumped while a background build runs), and at step 90, while a
        // build runs, one insert (the build is dropped). The pairs equal
        // brute force's after every step.
        use crate::{Aabb2, BroadPhase, Brute, Bvh};
        let mut rng = SceneRng::new(21);
        let n = 3000usize;
        let spot = |rng: &mut SceneRng| Vec2::new(rng.range(0.0, 1500.0), rng.range(0.0, 1500.0));
        let mut centres: Vec<Vec2> = (0..n).map(|_| spot(&mut rng)).collect();
        let velocities: Vec<Vec2> = (0..n)
            .map(|_| Vec2::new(rng.range(-0.6, 0.6), rng.range(-0.6, 0.6)))
            .collect();
        let boxed = |c: Vec2| Aabb2::from_center_half_extents(c, Vec2::splat(5.0)).unwrap();
        let (mut bvh, mut brute) = (Bvh::<Vec2, u32>::new(), Brute::<Vec2, u32>::new());
        let mut handles = Vec::new();
        for (i, &c) in centres.iter().enumerate() {
            let i = i as u32;
            handles.push((
                bvh.insert(boxed(c), i).unwrap(),
                brute.insert(boxed(c), i).unwrap(),
            ));
        }
        let (mut dropped_by_insert, mut jumped) = (false, 0);
        for step in 0..160 {
            for (i, c) in centres.iter_mut().enumerate() {
                if rng.unit() < 0.003 {
                    *c = spot(&mut rng);
                } else {
                    *c += velocities[i];
                }
                bvh.update(handles[i].0, boxed(*c)).unwrap();
                brute.update(handles[i].1, boxed(*c)).unwrap();
            }
            if step >= 90 && !dropped_by_insert && bvh.shadow.running() {
                let c = spot(&mut rng);
                bvh.insert(boxed(c), n as u32).unwrap();
                brute.insert(boxed(c), n as u32).unwrap();
                dropped_by_insert = true;
            }
            let (ours, theirs) = (bvh.step().clone(), brute.step().clone());
            assert_eq!(
                (ours.started.len(), ours.stopped.len()),
                (theirs.started.len(), theirs.stopped.len()),
                "step {step}"
            );
            assert_eq!(pair_values(&bvh), pair_values(&brute), "step {step}");
            bvh.validate()
                .unwrap_or_else(|e| panic!("step {step}: {e}"));
            jumped = jumped.max(bvh.shadow.jumped.len());
        }
        assert!(dropped_by_insert, "no background build ran after step 90");
        assert!(bvh.shadow.finished >= 2, "{} finished", bvh.shadow.finished);
        assert!(bvh.shadow.dropped >= 1, "{} dropped", bvh.shadow.dropped);
        assert!(jumped > 0, "no object jumped during a background build");
        assert_eq!(bvh.resting(), 1, "all but the one inserted move");
    }
}
