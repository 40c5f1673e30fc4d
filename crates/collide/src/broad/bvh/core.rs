//! [`Bvh`]: the dynamic BVH behind the broad-phase contract.

use super::build::{BuildScratch, BvhBuild, Leaf};
use super::quality::BvhQuality;
use super::tree::{Arena, NONE, area};
use crate::broad::contract::{BroadPhase, StepStats};
use crate::broad::events::{FrameEvents, Pair, PairTracker, pair_key};
use crate::error::Error;
use crate::geometry::{Aabb, Vector};
use crate::handle::{Handle, Slots};
use std::ops::ControlFlow;

/// Each fat box is the object's box grown by this share of its largest
/// extent on every side. Measured with collide-bench (2D, 100,000 objects,
/// ms per frame for uniform slow / uniform fast / clustered slow / clustered
/// fast): 0.1 gave 40 / 75 / 64 / 102, 0.3 gave 22 / 71 / 56 / 113, 1.0 gave
/// 31 / 54 / 113 / 148. 0.3 is the best compromise.
const FAT_SHARE: f32 = 0.3;

/// A dynamic bounding volume hierarchy (`bvh`) with enlarged leaves.
///
/// Each object has a leaf holding a fat box (its box grown by 30% of its
/// size on every side), so small moves do not touch the tree; an object
/// that leaves its fat box is removed and inserted again at the next step
/// (refitting every ancestor up to the root), unless more than one object
/// in 16 did, in which case the whole tree is rebuilt in Morton order from
/// everyone's current box (cheaper, measured); until the step, queries test
/// such objects by their current box. Insertion picks the sibling that adds the least
/// surface area (perimeter in 2D), with AVL rotations on the way up. The
/// whole tree is rebuilt in Morton order (LBVH) when most of its objects
/// are new (mass inserts), and by binned SAH when it grows taller than
/// about twice the balanced height or its surface-area cost (see
/// [`Bvh::quality`]) has grown half again since the last rebuild.
///
/// Each step finds all pairs by a traversal of the tree against itself
/// (each pair once) and turns them into events by a sorted merge.
///
/// Pick it for objects of very different sizes and for many ray or box
/// queries. Cost per step: about O(n log n) with coherent motion; memory
/// O(n) in one flat node array.
///
/// ```
/// use collide::{Aabb3, BroadPhase, Bvh, Pair};
/// use glam::Vec3;
/// let mut bvh: Bvh<Vec3> = Bvh::new();
/// let a = bvh.insert(Aabb3::new(Vec3::ZERO, Vec3::splat(2.0))?, ())?;
/// let b = bvh.insert(Aabb3::new(Vec3::ONE, Vec3::splat(3.0))?, ())?;
/// assert_eq!(bvh.step().started, vec![Pair::new(a, b)]);
/// assert!(bvh.height() >= 1);
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Debug)]
pub struct Bvh<V: Vector, T = ()> {
    objects: Slots<T>,
    boxes: Vec<Aabb<V>>,
    leaf_of: Vec<u32>,
    arena: Arena<V>,
    tracker: PairTracker,
    keys: Vec<u64>,
    pair_stack: Vec<(u32, u32)>,
    node_stack: Vec<u32>,
    stats: StepStats,
    reinserts: u64,
    rebuilds: u64,
    /// Objects inserted since the last rebuild.
    inserted: usize,
    /// Objects whose box left its leaf's fat box since the last step: their
    /// reinsertion waits for the step (queries test them directly).
    escaped: Vec<u32>,
    /// Per object: its index in `escaped`, or `NONE`.
    escaped_at: Vec<u32>,
    /// Memory the whole-tree builds reuse (a moving scene rebuilds every
    /// step).
    leaves: Vec<Leaf<V>>,
    build_scratch: BuildScratch<V>,
    /// Node pairs the last traversal visited.
    visits: f64,
    /// Node pairs the first traversal after the last rebuild visited.
    built_visits: f64,
    /// The surface-area cost right after the last rebuild.
    built_cost: f64,
}

impl<V: Vector, T> Default for Bvh<V, T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Vector, T> Bvh<V, T> {
    /// An empty BVH.
    pub fn new() -> Self {
        Self {
            objects: Slots::new(),
            boxes: Vec::new(),
            leaf_of: Vec::new(),
            arena: Arena::new(),
            tracker: PairTracker::default(),
            keys: Vec::new(),
            pair_stack: Vec::new(),
            node_stack: Vec::new(),
            stats: StepStats::default(),
            reinserts: 0,
            rebuilds: 0,
            inserted: 0,
            escaped: Vec::new(),
            escaped_at: Vec::new(),
            leaves: Vec::new(),
            build_scratch: BuildScratch::default(),
            visits: 0.0,
            built_visits: f64::INFINITY,
            built_cost: f64::INFINITY,
        }
    }

    /// The height of the tree (0 with one object or none).
    pub fn height(&self) -> u32 {
        self.arena.height()
    }

    /// How many times the whole tree was rebuilt (mass inserts, too tall,
    /// or worn: see [`Bvh::quality`]).
    pub fn rebuilds(&self) -> u64 {
        self.rebuilds
    }

    /// The fat box of `aabb`, saturated at the largest f32.
    fn fat(aabb: &Aabb<V>) -> Aabb<V> {
        let size = aabb.size();
        let extent = (0..V::DIM).map(|a| size.axis(a)).fold(0.0f32, f32::max);
        let margin = f64::from(FAT_SHARE) * f64::from(extent);
        let clamp = |x: f64| x.clamp(f64::from(f32::MIN), f64::from(f32::MAX)) as f32;
        Aabb::new(
            V::from_axes(|a| clamp(f64::from(aabb.min().axis(a)) - margin)),
            V::from_axes(|a| clamp(f64::from(aabb.max().axis(a)) + margin)),
        )
        .expect("a valid box grown and saturated is valid")
    }

    /// The tree's quality figures (surface-area cost, sibling overlap,
    /// height), measured now (a pass over every node).
    pub fn quality(&self) -> BvhQuality {
        self.arena.quality()
    }

    /// Takes object `i` off the escaped list.
    fn forget_escaped(&mut self, i: usize) {
        let at = self.escaped_at[i];
        if at == NONE {
            return;
        }
        self.escaped_at[i] = NONE;
        self.escaped.swap_remove(at as usize);
        if let Some(&moved) = self.escaped.get(at as usize) {
            self.escaped_at[moved as usize] = at;
        }
    }

    /// Re-inserts the objects that left their fat boxes, all at once at the
    /// step; or, when more than one in [`ESCAPED_SHARE`] did, rebuilds the
    /// whole tree in Morton order from everyone's current box instead.
    fn settle_escaped(&mut self) {
        self.reinserts += self.escaped.len() as u64;
        if self.objects.len() > 64 && self.escaped.len() * ESCAPED_SHARE > self.objects.len() {
            self.rebuild(BvhBuild::Morton);
            return;
        }
        for k in 0..self.escaped.len() {
            let i = self.escaped[k] as usize;
            self.escaped_at[i] = NONE;
            self.arena.remove_leaf(self.leaf_of[i]);
            self.leaf_of[i] = self.arena.insert_leaf(i as u32, Self::fat(&self.boxes[i]));
        }
        self.escaped.clear();
    }

    /// Rebuilds the whole tree when needed: in Morton order (LBVH, the
    /// fastest build) after mass inserts; by median splits (balanced) when
    /// the tree is far taller than a balanced one, or worn: its traversal
    /// visits and its surface-area cost have both grown past
    /// [`QUALITY_SLACK`] times their values after the last rebuild.
    /// Measured (collide-bench and 30-frame runs at 100,000 objects, 2D and
    /// 3D, `uniform` and `clustered`): rebuilding worn trees by binned SAH
    /// was 1.3 to 1.8 times slower per frame than by median splits on
    /// `clustered` (SAH's unbalanced trees wore out within 3 frames there
    /// under reinsertion), the same on `uniform`; the Morton build was 20
    /// to 30% faster than the median one at the first frame.
    fn keep_balanced(&mut self) {
        let n = self.objects.len().max(1) as f64;
        let balanced = n.log2().ceil() as u32;
        let mass_insert = self.inserted > 64 && 2 * self.inserted > self.objects.len();
        let too_tall = self.arena.height() > 2 * balanced + 4;
        // Worn: the last traversal visited far more node pairs than the
        // first one after the last rebuild (free to measure, and what a
        // worn tree costs); confirmed by the surface-area cost.
        let worn = self.objects.len() > 64
            && self.visits > QUALITY_SLACK * self.built_visits
            && self.arena.quality().sah_cost > QUALITY_SLACK * self.built_cost;
        if mass_insert || too_tall || worn {
            self.rebuild(if mass_insert {
                BvhBuild::Morton
            } else {
                BvhBuild::Median
            });
        }
    }

    /// Rebuilds the whole tree now, by `method`. The step does this by
    /// itself when needed (see the type's documentation); call it after
    /// loading a level, for example with [`BvhBuild::Sah`] for the best
    /// tree when most objects will rest.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Bvh, BvhBuild};
    /// use glam::Vec2;
    /// let mut bvh: Bvh<Vec2> = Bvh::new();
    /// for i in 0..100 {
    ///     let p = Vec2::new(i as f32 * 3.0, (i % 7) as f32);
    ///     bvh.insert(Aabb2::new(p, p + Vec2::ONE)?, ())?;
    /// }
    /// bvh.rebuild(BvhBuild::Sah);
    /// assert_eq!(bvh.validate(), Ok(()));
    /// assert_eq!(bvh.quality().leaves, 100);
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn rebuild(&mut self, method: BvhBuild) {
        self.inserted = 0;
        let mut leaves = std::mem::take(&mut self.leaves);
        leaves.clear();
        leaves.extend(self.objects.iter().map(|(h, _)| {
            let i = h.index() as usize;
            let bound = if self.escaped_at[i] == NONE {
                self.arena.nodes[self.leaf_of[i] as usize].bound
            } else {
                Self::fat(&self.boxes[i])
            };
            (i as u32, bound)
        }));
        for &i in &self.escaped {
            self.escaped_at[i as usize] = NONE;
        }
        self.escaped.clear();
        let leaf_of = &mut self.leaf_of;
        let mut placed = |object: u32, leaf: u32| leaf_of[object as usize] = leaf;
        self.arena
            .rebuild_with(method, &mut leaves, &mut self.build_scratch, &mut placed);
        self.leaves = leaves;
        self.built_cost = self.arena.built_sah_cost();
        self.built_visits = f64::INFINITY; // measured by the next traversal
        self.rebuilds += 1;
    }
}

/// More escaped objects than one in this many: rebuild the whole tree in
/// Morton order rather than reinsert them (slow motion lets about a quarter
/// of the objects escape per frame, fast motion nearly all). Measured with
/// collide-bench (BENCHMARKS.md, "Trees and the BVH"): against reinserting
/// always, 1.9 to 3.4 times faster per frame under fast motion and the p99
/// down from up to 2.6 to at most 1.7 times the mean. In single-setting
/// runs at 100,000 objects, a threshold of 16 and "any escape" measured
/// the same; 4 and 2 let slow-motion frames reinsert and were up to 1.25
/// times slower on `clustered`, with p99 up to twice as high.
const ESCAPED_SHARE: usize = 16;

/// Rebuild when the node pairs visited by the traversal and the
/// surface-area cost both exceed their values after the last rebuild by
/// this factor.
const QUALITY_SLACK: f64 = 1.5;

impl<V: Vector, T> BroadPhase<V, T> for Bvh<V, T> {
    fn name(&self) -> &str {
        "bvh"
    }

    fn insert(&mut self, aabb: Aabb<V>, value: T) -> Result<Handle, Error> {
        let handle = self.objects.insert(value)?;
        let i = handle.index() as usize;
        if self.boxes.len() <= i {
            self.boxes.resize(i + 1, Aabb::default());
            self.leaf_of.resize(i + 1, NONE);
            self.escaped_at.resize(i + 1, NONE);
        }
        self.boxes[i] = aabb;
        self.leaf_of[i] = self.arena.insert_leaf(i as u32, Self::fat(&aabb));
        self.inserted += 1;
        Ok(handle)
    }

    fn update(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<(), Error> {
        self.objects.check(handle)?;
        let i = handle.index() as usize;
        self.boxes[i] = aabb;
        let leaf = self.leaf_of[i];
        if self.escaped_at[i] == NONE && !self.arena.nodes[leaf as usize].bound.contains(&aabb) {
            self.escaped_at[i] = self.escaped.len() as u32;
            self.escaped.push(i as u32);
        }
        Ok(())
    }

    fn remove(&mut self, handle: Handle) -> Result<T, Error> {
        let value = self.objects.remove(handle)?;
        let i = handle.index() as usize;
        // Churn (as many removals as inserts) is not a mass insert.
        self.inserted = self.inserted.saturating_sub(1);
        self.arena.remove_leaf(self.leaf_of[i]);
        self.leaf_of[i] = NONE;
        self.forget_escaped(i);
        Ok(value)
    }

    fn step(&mut self) -> &FrameEvents {
        self.settle_escaped();
        self.keep_balanced();
        self.keys.clear();
        let mut tested = 0u64;
        let nodes = &self.arena.nodes;
        // Every internal node's two children against each other; each pair
        // of subtrees descends on the side with the larger bound.
        self.node_stack.clear();
        self.pair_stack.clear();
        if self.arena.root != NONE {
            self.node_stack.push(self.arena.root);
        }
        while let Some(n) = self.node_stack.pop() {
            let node = &nodes[n as usize];
            if !node.is_leaf() {
                self.node_stack.push(node.left);
                self.node_stack.push(node.right);
                self.pair_stack.push((node.left, node.right));
            }
        }
        let mut visits = 0u64;
        while let Some((a, b)) = self.pair_stack.pop() {
            visits += 1;
            let (na, nb) = (&nodes[a as usize], &nodes[b as usize]);
            if !na.bound.overlaps(&nb.bound) {
                continue;
            }
            match (na.is_leaf(), nb.is_leaf()) {
                (true, true) => {
                    tested += 1;
                    let (x, y) = (na.object, nb.object);
                    if self.boxes[x as usize].overlaps(&self.boxes[y as usize]) {
                        self.keys.push(pair_key(x, y));
                    }
                }
                (true, false) => {
                    self.pair_stack.push((a, nb.left));
                    self.pair_stack.push((a, nb.right));
                }
                (false, true) => {
                    self.pair_stack.push((na.left, b));
                    self.pair_stack.push((na.right, b));
                }
                (false, false) => {
                    if area(&na.bound) >= area(&nb.bound) {
                        self.pair_stack.push((na.left, b));
                        self.pair_stack.push((na.right, b));
                    } else {
                        self.pair_stack.push((a, nb.left));
                        self.pair_stack.push((a, nb.right));
                    }
                }
            }
        }
        self.visits = visits as f64;
        if self.built_visits.is_infinite() {
            self.built_visits = self.visits.max(1.0);
        }
        self.keys.sort_unstable();
        self.tracker.finish_keys(&self.keys, &self.objects);
        self.stats = self.tracker.stats(
            self.objects.len(),
            tested,
            std::mem::take(&mut self.reinserts),
        );
        self.tracker.events()
    }

    fn events(&self) -> &FrameEvents {
        self.tracker.events()
    }

    fn pairs(&self) -> &[Pair] {
        self.tracker.pairs()
    }

    fn stats(&self) -> StepStats {
        self.stats
    }

    fn len(&self) -> usize {
        self.objects.len()
    }

    fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
        self.objects.check(handle).ok()?;
        Some(self.boxes[handle.index() as usize])
    }

    fn value(&self, handle: Handle) -> Option<&T> {
        self.objects.get(handle)
    }

    fn query_aabb(
        &self,
        aabb: &Aabb<V>,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if self.arena.root == NONE {
            return ControlFlow::Continue(());
        }
        // One allocation per query: the tree may be deep between a burst of
        // inserts and the next step's rebuild.
        let mut stack: Vec<u32> = Vec::with_capacity(64);
        stack.push(self.arena.root);
        while let Some(n) = stack.pop() {
            let node = &self.arena.nodes[n as usize];
            if !node.bound.overlaps(aabb) {
                continue;
            }
            if node.is_leaf() {
                let i = node.object as usize;
                // Escaped objects are tested below, by their current box.
                if self.escaped_at[i] == NONE && self.boxes[i].overlaps(aabb) {
                    visit(
                        self.objects
                            .handle_at(node.object)
                            .expect("leaves hold live objects"),
                    )?;
                }
            } else {
                stack.push(node.left);
                stack.push(node.right);
            }
        }
        for &i in &self.escaped {
            if self.boxes[i as usize].overlaps(aabb) {
                visit(self.objects.handle_at(i).expect("escaped objects are live"))?;
            }
        }
        ControlFlow::Continue(())
    }
}

impl<V: Vector, T> Bvh<V, T> {
    /// Checks the tree's invariants and names the first one broken: every
    /// internal bound holds its children's, every leaf's fat box holds its
    /// object's box, parent links and heights agree, and every live object
    /// has exactly one leaf.
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
        let nodes = &self.arena.nodes;
        let mut leaves = 0usize;
        if self.arena.root != NONE {
            if nodes[self.arena.root as usize].parent != NONE {
                return Err("the root has a parent".into());
            }
            let mut stack = vec![self.arena.root];
            while let Some(n) = stack.pop() {
                let node = &nodes[n as usize];
                if node.is_leaf() {
                    leaves += 1;
                    let i = node.object as usize;
                    if self.leaf_of.get(i) != Some(&n) {
                        return Err(format!("leaf {n} holds object {i}, recorded elsewhere"));
                    }
                    if self.escaped_at[i] == NONE && !node.bound.contains(&self.boxes[i]) {
                        return Err(format!("leaf {n}'s fat box does not hold object {i}"));
                    }
                    if node.height != 0 {
                        return Err(format!("leaf {n} has height {}", node.height));
                    }
                    continue;
                }
                for c in [node.left, node.right] {
                    let child = &nodes[c as usize];
                    if child.parent != n {
                        return Err(format!("node {c}'s parent link does not point to {n}"));
                    }
                    if !node.bound.contains(&child.bound) {
                        return Err(format!("node {n}'s bound does not hold child {c}"));
                    }
                    stack.push(c);
                }
                let h = 1 + nodes[node.left as usize]
                    .height
                    .max(nodes[node.right as usize].height);
                if node.height != h {
                    return Err(format!(
                        "node {n} has height {} instead of {h}",
                        node.height
                    ));
                }
            }
        }
        for (k, &i) in self.escaped.iter().enumerate() {
            if self.escaped_at.get(i as usize) != Some(&(k as u32)) {
                return Err(format!("escaped object {i} is misrecorded"));
            }
        }
        if leaves != self.objects.len() {
            return Err(format!(
                "{leaves} leaves for {} objects",
                self.objects.len()
            ));
        }
        Ok(())
    }
}
