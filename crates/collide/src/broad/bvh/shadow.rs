//! Rebuilding the whole moving tree in the background, a share of it per
//! step, so that a worn tree gets a fresh shape without a frame that pays
//! for the whole build (a full rebuild of a large tree is a frame spike
//! engines have reported).
//!
//! Why whole: under refits in place (slow motion, where few objects leave
//! their fat boxes each step) the tree keeps its shape while the objects
//! drift, and its nodes grow until they overlap. Rebuilding its worst
//! subtrees cannot help once objects
//! have drifted out of their subtree's region, since leaves never change
//! subtree there: with the worst subtrees rebuilt a piece at a time, the
//! surface-area cost and the step times still kept rising (figures:
//! BENCHMARKS.md).
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
use super::wear::SHADOW_FIX_SHARE;
use crate::broad::headroom::reserve_headroom;
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
/// counted as a jump, hundreds of objects were reinserted at the end of a
/// build, undoing the new tree's node order; with 4, none.
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
    /// new tree still hold that box ([`Shadow::mend`] reinserts them).
    pub(super) jumped: Vec<u32>,
    /// Leaves of the new tree whose objects left the moving tree while it
    /// was built (removed, at rest): [`Shadow::mend`] takes them out.
    gone: Vec<u32>,
    /// Background rebuilds finished, and dropped, in all, and leaves
    /// mended after the swaps.
    pub(super) finished: u64,
    pub(super) dropped: u64,
    pub(super) mended: u64,
}

impl<V: Vector> Shadow<V> {
    /// Makes room for a background rebuild of `objects` moving objects:
    /// the second arena (2 nodes per object and an eighth more), the copy
    /// of the fat boxes, the sort and the task stack (these with the margin
    /// of `headroom.rs`). The whole rebuilds call this, so the background
    /// rebuilds that follow allocate nothing; the memory is about what the
    /// first background rebuild took before, held from the first whole
    /// build on.
    pub(super) fn reserve(&mut self, objects: usize) {
        self.arena.reserve(2 * objects);
        reserve_headroom(&mut self.leaves, objects);
        self.scratch.reserve(objects);
        // The stack holds at most one pending range per level of the
        // split (64 Morton bits, then halving) and one more.
        reserve_headroom(&mut self.tasks, 2 * 64 + 2);
        let fixes = objects / SHADOW_FIX_SHARE + 1;
        reserve_headroom(&mut self.jumped, fixes);
        reserve_headroom(&mut self.gone, fixes);
    }

    /// Whether a background rebuild is running.
    pub(super) fn running(&self) -> bool {
        self.running
    }

    /// Starts rebuilding a tree over the fat boxes of `objects` (each with a
    /// leaf in the tree to replace). `leaves` and `scratch` are swapped
    /// with the rebuild's own: the caller's, warm from its last whole
    /// build, spare the rebuild the first touch of fresh memory, which
    /// made its first copy and sort far slower (figures: BENCHMARKS.md).
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

    /// Completes the tree once [`Shadow::advance`] has placed every node.
    /// Each leaf whose object still moves with a leaf (`moving_at[i]` and
    /// `leaf_of[i]` not `NONE`) takes the object's fat box of now, but for
    /// objects that [`jumped`] far meanwhile, which keep the copied box and
    /// are listed in [`Shadow::jumped`]; leaves of objects that left the
    /// moving tree meanwhile (removed, at rest) are listed in
    /// [`Shadow::gone`]. Every internal node gets its bound and height.
    /// Returns true when the caller is to swap `self.arena` in and mend it
    /// (see [`Shadow::mend`]); false, dropping the tree, when more than
    /// `max_fixes` leaves would need mending (gone, jumped, or moving
    /// objects without a leaf in it: `moving_len` of them move now).
    pub(super) fn finish(
        &mut self,
        moving_len: usize,
        moving_at: &[u32],
        leaf_of: &[u32],
        fat: &[Aabb<V>],
        max_fixes: usize,
    ) -> bool {
        debug_assert!(self.running && self.tasks.is_empty());
        self.running = false;
        let arena = &mut self.arena;
        let mut built_area = 0.0;
        self.jumped.clear();
        self.gone.clear();
        for k in (0..arena.nodes.len()).rev() {
            let node = &arena.nodes[k];
            if node.is_leaf() {
                let object = node.object;
                if !moves_with_leaf(object, moving_at, leaf_of) {
                    self.gone.push(k as u32);
                } else if jumped(&fat[object as usize], &node.bound) {
                    // Jumped far since the copy: its place in the Morton
                    // order is wrong. It keeps the copied box for now and
                    // is reinserted after the swap.
                    self.jumped.push(object);
                } else {
                    arena.nodes[k].bound = fat[object as usize];
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
        // The leaves kept are of distinct moving objects; the others that
        // move arrived meanwhile.
        let kept = self.leaves.len() - self.gone.len();
        let arrived = moving_len.saturating_sub(kept);
        if self.gone.len() + self.jumped.len() + arrived > max_fixes {
            self.dropped += 1;
            return false;
        }
        arena.built_area = built_area;
        // Allocated in pre-order, none freed (the arena was reset).
        arena.preorder = true;
        self.finished += 1;
        true
    }

    /// After the new tree was swapped in (the old one is now
    /// `self.arena`): points `leaf_of` at its leaves, takes out the leaves
    /// listed in [`Shadow::gone`], reinserts the objects that jumped with
    /// their fat boxes, and inserts the moving objects that have no leaf
    /// in it (inserted or woken meanwhile). Returns how many leaves it
    /// mended.
    pub(super) fn mend(
        &mut self,
        tree: &mut Arena<V>,
        moving: &[u32],
        moving_at: &[u32],
        leaf_of: &mut [u32],
        fat: &[Aabb<V>],
    ) -> usize {
        for (k, node) in tree.nodes.iter().enumerate() {
            if node.is_leaf() && moves_with_leaf(node.object, moving_at, leaf_of) {
                leaf_of[node.object as usize] = k as u32;
            }
        }
        // Before any removal: a moving object's `leaf_of` that does not
        // name a leaf of it here still names its leaf in the old tree.
        let mut fixes = 0;
        for &i in moving {
            let leaf = leaf_of[i as usize];
            let here = tree
                .nodes
                .get(leaf as usize)
                .is_some_and(|n| n.is_leaf() && n.object == i);
            if !here {
                leaf_of[i as usize] = tree.insert_leaf(i, fat[i as usize]);
                fixes += 1;
            }
        }
        for &leaf in &self.gone {
            tree.remove_leaf(leaf);
        }
        for &i in &self.jumped {
            tree.remove_leaf(leaf_of[i as usize]);
            leaf_of[i as usize] = tree.insert_leaf(i, fat[i as usize]);
        }
        let fixes = fixes + self.gone.len() + self.jumped.len();
        self.mended += fixes as u64;
        fixes
    }
}

/// Whether object `i` is in the moving tree with a leaf.
fn moves_with_leaf(i: u32, moving_at: &[u32], leaf_of: &[u32]) -> bool {
    let k = i as usize;
    moving_at.get(k).is_some_and(|&at| at != NONE) && leaf_of.get(k).is_some_and(|&l| l != NONE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::TestRng;
    use glam::Vec2;

    fn random_leaves(n: u32, rng: &mut TestRng) -> Vec<Aabb<Vec2>> {
        (0..n)
            .map(|_| {
                let p = Vec2::new(rng.range(-500.0, 500.0), rng.range(-500.0, 500.0));
                Aabb::new(p, p + Vec2::splat(rng.range(4.0, 8.0))).unwrap()
            })
            .collect()
    }

    #[test]
    fn a_background_build_over_many_steps_gives_a_valid_preorder_tree() {
        let mut rng = TestRng::new(11);
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
        assert!(shadow.finish(moving.len(), &moving_at, &leaf_of, &fat, 1000));
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
    fn a_background_build_lists_what_changed_and_is_dropped_past_the_limit() {
        let mut rng = TestRng::new(12);
        let fat = random_leaves(100, &mut rng);
        let mut shadow: Shadow<Vec2> = Shadow::default();
        let build = |shadow: &mut Shadow<Vec2>, objects: u32| {
            let boxes = (0..objects).map(|i| (i, fat[i as usize]));
            shadow.start(boxes, &mut Vec::new(), &mut BuildScratch::default());
            while !shadow.advance(10) {}
        };
        let leaf_of = [0u32; 100];
        // Object 40 left the moving tree meanwhile (removed or at rest).
        let mut moving_at: Vec<u32> = (0..100).collect();
        moving_at[40] = NONE;
        build(&mut shadow, 100);
        assert!(!shadow.finish(99, &moving_at, &leaf_of, &fat, 0));
        build(&mut shadow, 100);
        assert!(shadow.finish(99, &moving_at, &leaf_of, &fat, 1));
        let gone: Vec<u32> = shadow
            .gone
            .iter()
            .map(|&l| shadow.arena.nodes[l as usize].object)
            .collect();
        assert_eq!(gone, [40]);
        // Object 99 arrived meanwhile (inserted, or woken).
        let moving_at: Vec<u32> = (0..100).collect();
        build(&mut shadow, 99);
        assert!(!shadow.finish(100, &moving_at, &leaf_of, &fat, 0));
        build(&mut shadow, 99);
        assert!(shadow.finish(100, &moving_at, &leaf_of, &fat, 1));
        assert!(shadow.gone.is_empty() && shadow.jumped.is_empty());
        assert_eq!((shadow.finished, shadow.dropped), (2, 2));
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

    /// 3,000 boxes drifting at steady, varied velocities (the tree wears
    /// under refits), `jump_share` of them jumping anywhere each step
    /// (reinserted, or jumped while a background build runs); object 0
    /// still but for steps 30 to 39 and 70 to 79 (it comes to rest and
    /// wakes); and while builds run, one insert, one removal and one
    /// removal with an insert into the freed slot. Checks that the pairs
    /// equal brute force's after every step and that `validate` holds
    /// (every moving leaf is its object's fat box); returns the BVH, the
    /// changes made during builds and the most objects that jumped during
    /// one.
    fn drift(jump_share: f32) -> (crate::Bvh<Vec2, u32>, usize, usize) {
        use crate::{Aabb2, BroadPhase, Brute, Bvh};
        let mut rng = TestRng::new(21);
        let n = 3000usize;
        let spot = |rng: &mut TestRng| Vec2::new(rng.range(0.0, 1500.0), rng.range(0.0, 1500.0));
        let mut centres: Vec<Vec2> = (0..n).map(|_| spot(&mut rng)).collect();
        let velocities: Vec<Vec2> = (0..n)
            .map(|_| Vec2::new(rng.range(-0.6, 0.6), rng.range(-0.6, 0.6)))
            .collect();
        let boxed = |c: Vec2| Aabb2::from_center_half_extents(c, Vec2::splat(5.0)).unwrap();
        let (mut bvh, mut brute) = (Bvh::<Vec2, u32>::new(), Brute::<Vec2, u32>::new());
        let mut handles = Vec::new();
        for (i, &c) in centres.iter().enumerate() {
            let i = i as u32;
            handles.push(Some((
                bvh.insert(boxed(c), i).unwrap(),
                brute.insert(boxed(c), i).unwrap(),
            )));
        }
        let (mut changes, mut jumped) = (0, 0);
        for step in 0..160 {
            for (i, c) in centres.iter_mut().enumerate() {
                let Some((ours, theirs)) = handles[i] else {
                    continue;
                };
                if i == 0 && !(30..40).contains(&step) && !(70..80).contains(&step) {
                    continue;
                }
                if rng.unit() < jump_share {
                    *c = spot(&mut rng);
                } else {
                    *c += velocities[i];
                }
                bvh.update(ours, boxed(*c)).unwrap();
                brute.update(theirs, boxed(*c)).unwrap();
            }
            if bvh.wear.shadow.running() && changes < 3 {
                let victim = 100 + changes;
                if changes > 0 {
                    let (ours, theirs) = handles[victim].take().unwrap();
                    bvh.remove(ours).unwrap();
                    brute.remove(theirs).unwrap();
                }
                if changes != 1 {
                    let c = spot(&mut rng);
                    let value = (n + changes) as u32;
                    bvh.insert(boxed(c), value).unwrap();
                    brute.insert(boxed(c), value).unwrap();
                }
                changes += 1;
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
            jumped = jumped.max(bvh.wear.shadow.jumped.len());
        }
        (bvh, changes, jumped)
    }

    #[test]
    fn a_tree_worn_by_drift_is_rebuilt_in_the_background_and_stays_exact() {
        let (bvh, changes, jumped) = drift(0.003);
        assert_eq!(changes, 3, "too few background builds ran");
        let shadow = &bvh.wear.shadow;
        assert!(shadow.finished >= 3, "{} finished", shadow.finished);
        assert!(shadow.mended > 0 && jumped > 0, "{} mended", shadow.mended);
    }

    #[test]
    fn a_tree_worn_among_teleports_is_rebuilt_whole_at_once_and_stays_exact() {
        // 5% jump each step: a background build would have to mend more
        // than one leaf in 64 at its end.
        let (bvh, _, _) = drift(0.05);
        let shadow = &bvh.wear.shadow;
        assert_eq!((shadow.finished, shadow.dropped), (0, 0), "none started");
        assert!(bvh.rebuilds() >= 3, "{} whole rebuilds", bvh.rebuilds());
    }
}
