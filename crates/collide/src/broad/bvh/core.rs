//! [`Bvh`]: the dynamic BVH behind the broad-phase contract.

use super::build::BvhBuild;
use super::parts::{BuildMemory, Escapes, KeptPairs, MovingTree};
use super::quality::BvhQuality;
use super::rest::{REST_STEPS, RestingTree};
use super::shadow::jumped;
use super::tree::NONE;
use super::view::View;
use super::wear::{SHADOW_FIX_SHARE, Wear, shadow_budget};
use crate::broad::Query;
use crate::broad::contract::{BroadPhase, StepStats};
use crate::broad::events::{FrameEvents, Pair, PairTracker};
use crate::broad::headroom::reserve_headroom;
use crate::broad::query::{QueryBudget, QueryStats, RayHit, queries_by_search};
use crate::broad::radix::merge_sorted;
use crate::broad::snapshot::Snapshot;
use crate::error::Error;
use crate::geometry::{Aabb, Ray, Region, Vector};
use crate::handle::{Handle, Slots};
use crate::math;
use std::ops::ControlFlow;
use std::sync::Arc;

/// Each fat box is the object's box grown by this share of its largest
/// extent on every side, and reaching ahead along its last move (see
/// [`PREDICT_STEPS`]). Small fat boxes mean few candidates, large ones few
/// escapes: with the reach ahead catching steady motion, a small share
/// gives the fastest steps, on clustered scenes by far; under the old
/// design (every pair found by a traversal each step) 0.3 was best
/// (figures: BENCHMARKS.md).
const FAT_SHARE: f64 = 0.05;

/// A new object's fat box is its box grown by 1 to 1.75 times this share of
/// its size (varied by object), its motion being unknown. With the moving
/// objects' share (5%), most of a scene inserted at once and set moving
/// left its boxes at the first step, a frame far slower than the rest; 0.1
/// spreads those escapes over a few steps without growing boxes much,
/// where 0.25 spreads them wider but its larger boxes cost crowded 3D
/// scenes dearly while they last (figures: BENCHMARKS.md).
const NEW_SHARE: f64 = 0.1;

/// A fat box reaches this many of the object's last moves ahead (0.25 to
/// 1.75 times as many, varied by object and step), at most its own size,
/// and not at all for objects that move more than a quarter of their size
/// per step (their leaves change every step whatever the reach). With
/// constant velocities, objects leave their fat boxes every few steps
/// instead of nearly every step. Reaching further trades escapes for
/// candidates: 4 moves is as fast as more on uniform scenes and fastest on
/// clustered ones (figures: BENCHMARKS.md). The spread of the reach matters
/// for the slowest frames: with 0.5 to 1.5 times, objects that started
/// together still left their boxes together (a third of the scene at once).
const PREDICT_STEPS: f64 = 4.0;

/// How much further a fat box reaches ahead where no other leaf is near
/// (see [`Bvh::crowd_factor`]). It pays where nearly every object is alone
/// (3D `uniform`: fewer escapes for a few more candidates, faster steps);
/// elsewhere it made no difference beyond noise (figures: BENCHMARKS.md).
const CROWD_REACH: f64 = 3.0;

/// A dynamic bounding volume hierarchy (`bvh`) with enlarged leaves.
///
/// Each object has a leaf holding a fat box (its box grown by 5% of its
/// size on every side and reaching ahead along its last move, further
/// where few others are near, up to its own size; 10 to 18% all round for
/// a new object, whose motion is not known), so small and steady moves do
/// not touch the tree. New objects (their leaves made at the next step, or
/// as a batch built in Morton order once 1,024 wait, so queries test at
/// most 1,023 of them one by one) and objects that leave their fat boxes
/// are handled at the next step: inserted or reinserted when few (one in
/// 1,024 or fewer) or when they jumped (a gap of over 4 times the size of
/// their fat box), escaped leaves grown in place with the ancestors
/// refitted when more (in one pass over the nodes while they are in the
/// order of the last whole build), and the whole tree rebuilt in Morton
/// order from everyone's current box when more than a quarter are new or
/// escaped (a scene loaded at once); until
/// the step, queries test such objects by their current box. Insertion
/// picks the sibling that adds the least surface area (perimeter in 2D),
/// with AVL rotations on the way up. The whole tree is rebuilt in Morton
/// order (LBVH) when most of its objects are new (mass inserts), and by
/// median splits when it grows taller than about twice the balanced
/// height. When it wears (its surface-area cost, see [`Bvh::quality`],
/// and its queries' node visits both grown by a fifth since the last
/// rebuild, as objects drift under refits) it is rebuilt whole in the
/// background: a new tree in Morton order, built at most one leaf in 8
/// per step (at least 1,024), replaces it once complete (mended for the
/// objects that arrived, left or jumped meanwhile), so no step pays for a
/// whole rebuild, unless objects join, leave or jump so fast (teleports,
/// churn) that mending would cost more: then it is rebuilt whole at once.
///
/// Objects whose boxes have not changed for 8 steps (static level
/// geometry, sleeping bodies) move to a second, resting tree holding
/// their exact boxes (built in Morton order when many arrive at once);
/// their pairs with each other are kept between steps, so they cost a step
/// nothing but a merge of that list. An object that moves again goes back to the moving
/// tree at the next step.
///
/// The pairs of objects whose leaves overlap (candidates) are kept from
/// one step to the next: a step queries the trees only for the objects
/// whose leaf changed, and gives every candidate the exact box test. When
/// more than a quarter of the leaves change step after step (fast
/// motion), it finds the pairs instead by a traversal of the moving tree
/// against itself and against the resting tree. Either way the pairs
/// become events by a sorted merge.
///
/// Pick it for objects of very different sizes, for scenes where most
/// objects rest, and for many ray or box queries. Cost per step: about
/// O(e log n) for e objects out of their fat boxes, plus O(candidates);
/// memory O(n) in two flat node arrays.
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
    pub(super) objects: Slots<T>,
    pub(super) boxes: Vec<Aabb<V>>,
    /// Per object: its leaf, in the moving tree or in the resting one
    /// (`NONE` for an object inserted since the last step that has none
    /// yet: see `pending`).
    pub(super) leaf_of: Vec<u32>,
    pub(super) resting: RestingTree<V>,
    /// Per object: the step count when its box last changed.
    pub(super) moved_at: Vec<u32>,
    /// Steps taken.
    pub(super) steps: u32,
    pub(super) tracker: PairTracker,
    pub(super) stats: StepStats,
    pub(super) reinserts: u64,
    /// The moving tree, its objects and their fat boxes.
    pub(super) tree: MovingTree<V>,
    /// Objects waiting for the step: escaped, or inserted without a leaf.
    pub(super) escapes: Escapes,
    /// The candidate pairs kept between steps, and the step's key lists.
    pub(super) kept: KeptPairs,
    /// The wear figures and the background rebuild of the moving tree.
    pub(super) wear: Wear<V>,
    /// Memory the builds reuse.
    pub(super) memory: BuildMemory<V>,
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
            resting: RestingTree::default(),
            moved_at: Vec::new(),
            steps: 0,
            tracker: PairTracker::default(),
            stats: StepStats::default(),
            reinserts: 0,
            tree: MovingTree::default(),
            escapes: Escapes::default(),
            kept: KeptPairs::default(),
            wear: Wear::default(),
            memory: BuildMemory::default(),
        }
    }

    /// The height of the moving tree (0 with one object or none). Objects
    /// inserted since the last step may not be in it yet.
    pub fn height(&self) -> u32 {
        self.tree.arena.height()
    }

    /// How many objects are in the resting tree (their boxes have not
    /// changed for 8 steps or more).
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Bvh, Pair};
    /// use glam::Vec2;
    /// let mut bvh: Bvh<Vec2> = Bvh::new();
    /// let floor = bvh.insert(Aabb2::new(Vec2::ZERO, Vec2::new(100.0, 1.0))?, ())?;
    /// let ball = bvh.insert(Aabb2::new(Vec2::new(5.0, 1.0), Vec2::new(6.0, 2.0))?, ())?;
    /// for step in 0..10 {
    ///     let x = 5.0 + step as f32;
    ///     bvh.update(ball, Aabb2::new(Vec2::new(x, 0.5), Vec2::new(x + 1.0, 1.5))?)?;
    ///     bvh.step();
    /// }
    /// assert_eq!(bvh.resting(), 1); // the floor; the ball keeps moving
    /// assert_eq!(bvh.pairs(), [Pair::new(floor, ball)]);
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn resting(&self) -> usize {
        self.resting.len
    }

    /// How many times the whole moving tree was rebuilt (mass inserts, many
    /// objects out of their fat boxes, most objects coming to rest, too
    /// tall, [`Bvh::rebuild`]; and worn, those built in the background
    /// over several steps).
    pub fn rebuilds(&self) -> u64 {
        self.wear.rebuilds
    }

    /// The fat box of `aabb` that last moved by `shift`: grown by `share`
    /// of its size on every side and reaching `jitter` times
    /// [`PREDICT_STEPS`] such moves ahead (at most its size; none for fast
    /// objects), saturated at the largest f32.
    fn fat(aabb: &Aabb<V>, shift: V, jitter: f64, share: f64) -> Aabb<V> {
        let size = aabb.size();
        let extent = f64::from((0..V::DIM).map(|a| size.axis(a)).fold(0.0f32, f32::max));
        // Per axis, at most STRETCH times the object's own extent there: a
        // wall across the world keeps a margin of its height, not of its
        // length, above and below (a fat box grown by its length on every
        // axis covered much of the world, and every query there met it).
        let margin = |a: usize| share * extent.min(STRETCH * f64::from(size.axis(a)));
        // An object that moves more than a quarter of its size per step
        // would leave a fat box that reaches ahead by its size within a few
        // steps: no reach ahead (which would only add candidates).
        let fast = (0..V::DIM).any(|a| 4.0 * f64::from(shift.axis(a)).abs() > extent);
        let jitter = if fast { 0.0 } else { jitter };
        let ahead = |a: usize| {
            let reach = jitter * PREDICT_STEPS * f64::from(shift.axis(a));
            if reach.is_finite() {
                reach.clamp(-extent, extent)
            } else {
                0.0
            }
        };
        let clamp = |x: f64| x.clamp(f64::from(f32::MIN), f64::from(f32::MAX)) as f32;
        Aabb::new(
            V::from_axes(|a| clamp(f64::from(aabb.min().axis(a)) - margin(a) + ahead(a).min(0.0))),
            V::from_axes(|a| clamp(f64::from(aabb.max().axis(a)) + margin(a) + ahead(a).max(0.0))),
        )
        .expect("a valid box grown and saturated is valid")
    }

    /// Object `i`'s fat box now. How far it reaches ahead varies from one
    /// object and step to the next (a hash of both, 0.25 to 1.75 times
    /// [`PREDICT_STEPS`]), so that objects that started together do not
    /// all leave their fat boxes in the same step, and with its crowd (1 to
    /// 4 times that: [`Bvh::crowd_factor`]); at most its own size.
    fn fat_of(&self, i: usize) -> Aabb<V> {
        let reach = self.fat_jitter(i) * self.crowd_factor(i);
        Self::fat(&self.boxes[i], self.tree.shift[i], reach, FAT_SHARE)
    }

    /// How much further than [`PREDICT_STEPS`] object `i`'s fat box reaches
    /// ahead: `1 + 3 / (1 + c)` for an object whose leaf overlapped `c`
    /// others' at its last query (4 times alone, 1.25 times among 11),
    /// 1 when not known. Reach ahead costs candidates only where objects
    /// crowd; where they do not, it saves escapes.
    fn crowd_factor(&self, i: usize) -> f64 {
        match self.kept.candidates.crowd(i as u32) {
            Some(c) => 1.0 + CROWD_REACH / (1.0 + f64::from(c)),
            _ => 1.0,
        }
    }

    /// The fat box object `i` gets at the step that settles it: the wider
    /// one of a new object (its motion is not known yet; varied by object,
    /// so that objects inserted together and set moving together leave
    /// their first fat boxes over several steps, not all at the first), or
    /// [`Bvh::fat_of`]. Takes the object off the pending inserts.
    fn settled_fat(&mut self, i: usize) -> Aabb<V> {
        if std::mem::take(&mut self.escapes.pending[i]) {
            self.escapes.pending_len -= 1;
            let wide = NEW_SHARE * (1.0 + (self.fat_jitter(i) - 1.0).abs());
            Self::fat(&self.boxes[i], V::from_axes(|_| 0.0), 0.0, wide)
        } else {
            self.fat_of(i)
        }
    }

    /// Gives the objects inserted since the last step their leaves now, as
    /// one subtree built in Morton order and linked into the moving tree,
    /// so that queries before the step test fewer than [`PENDING_BATCH`]
    /// of them one by one. (The step's rebuild after a mass insert then
    /// gives the tree its final shape.)
    fn place_pending(&mut self) {
        let mut leaves = std::mem::take(&mut self.memory.leaves);
        leaves.clear();
        for k in (0..self.escapes.escaped.len()).rev() {
            let i = self.escapes.escaped[k] as usize;
            if self.escapes.pending[i] {
                let fat = self.settled_fat(i);
                self.tree.fat[i] = fat;
                leaves.push((i as u32, fat));
                self.forget_escaped(i);
            }
        }
        if !leaves.is_empty() {
            let leaf_of = &mut self.leaf_of;
            let mut placed = |object: u32, leaf: u32| leaf_of[object as usize] = leaf;
            let method = BvhBuild::Morton;
            let root = self.tree.arena.build_under(
                method,
                &mut leaves,
                &mut self.memory.build_scratch,
                NONE,
                &mut placed,
            );
            self.tree.arena.insert_subtree(root);
            self.escapes.placed_early += leaves.len();
        }
        self.memory.leaves = leaves;
    }

    /// 0.25 to 1.75, from a hash of object `i` and the step count.
    fn fat_jitter(&self, i: usize) -> f64 {
        let hash = (i as u64 ^ (u64::from(self.steps) << 32)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        0.25 + 1.5 * ((hash >> 40) as f64 / (1u64 << 24) as f64)
    }

    /// The moving tree's quality figures (surface-area cost, sibling
    /// overlap, height), measured now (a pass over every node; objects
    /// inserted since the last step may not be in the tree yet).
    pub fn quality(&self) -> BvhQuality {
        self.tree.arena.quality()
    }

    /// The resting tree's quality figures (see [`Bvh::resting`]).
    pub fn resting_quality(&self) -> BvhQuality {
        self.resting.arena.quality()
    }

    /// Takes object `i` off the escaped list.
    fn forget_escaped(&mut self, i: usize) {
        let at = self.escapes.escaped_at[i];
        if at == NONE {
            return;
        }
        self.escapes.escaped_at[i] = NONE;
        self.escapes.escaped.swap_remove(at as usize);
        if let Some(&moved) = self.escapes.escaped.get(at as usize) {
            self.escapes.escaped_at[moved as usize] = at;
        }
    }

    /// Takes the escaped objects that were resting out of the resting tree
    /// and onto the list of moving ones (their leaf in the moving tree
    /// comes after); those whose box changed and changed back stay.
    fn wake_escaped(&mut self) {
        // Backwards: forgetting one moves an element already seen.
        for k in (0..self.escapes.escaped.len()).rev() {
            let i = self.escapes.escaped[k] as usize;
            if self.tree.moving_at[i] != NONE {
                continue;
            }
            if self.resting.arena.nodes[self.leaf_of[i] as usize].bound == self.boxes[i] {
                self.forget_escaped(i);
                continue;
            }
            self.resting.leave(i as u32, self.leaf_of[i]);
            self.leaf_of[i] = NONE;
            self.tree.start_moving(i);
            self.wear.moving_changes += 1;
        }
    }

    /// Gives the objects that left their fat boxes new ones, and new
    /// objects their first, all at once at the step: (re)inserted, or grown
    /// in place when more than one moving object in [`ESCAPED_SHARE`]
    /// escaped, or by a rebuild of the moving tree in Morton order when
    /// more than one in [`REBUILD_SHARE`] escaped or is new; each is marked
    /// fresh for the candidate cache.
    fn settle_escaped(&mut self) {
        // Every waiting new object is in `escaped` (checked by `validate`).
        self.reinserts += (self.escapes.escaped.len() - self.escapes.pending_len) as u64;
        self.wake_escaped();
        let (n, escaped) = (self.tree.moving.len(), self.escapes.escaped.len());
        // New objects placed a batch at a time count as changed leaves too:
        // a tree that took many batches is rebuilt whole.
        let changed = escaped + std::mem::take(&mut self.escapes.placed_early);
        let many = n > 64 && changed * ESCAPED_SHARE > n;
        if many && changed * REBUILD_SHARE > n {
            self.rebuild_moving(BvhBuild::Morton);
            return;
        }
        for k in 0..escaped {
            let i = self.escapes.escaped[k] as usize;
            self.escapes.escaped_at[i] = NONE;
            self.kept.candidates.mark(i as u32);
            let fat = self.settled_fat(i);
            self.tree.fat[i] = fat;
            let leaf = self.leaf_of[i];
            if leaf == NONE {
                // Inserted since the last step, or woken from the resting
                // tree.
                self.leaf_of[i] = self.tree.arena.insert_leaf(i as u32, fat);
            } else {
                // Few escapes, or a jump (a teleport): if grown in place,
                // its leaf would stretch its ancestors across the world,
                // and the tree's cost and steps would grow many times over
                // (figures: BENCHMARKS.md).
                let jump = jumped(&fat, &self.tree.arena.nodes[leaf as usize].bound);
                if !many || jump {
                    self.wear.moving_changes += usize::from(jump);
                    self.tree.arena.remove_leaf(leaf);
                    self.leaf_of[i] = self.tree.arena.insert_leaf(i as u32, fat);
                }
            }
        }
        if many {
            // The others grown in place (the reinserted ones' bounds are
            // set already), the ancestors refitted once each: the tree
            // keeps its shape (and wears: see `keep_balanced`).
            let (leaf_of, fat) = (&self.leaf_of, &self.tree.fat);
            let leaves = self
                .escapes
                .escaped
                .iter()
                .map(|&i| (leaf_of[i as usize], fat[i as usize]));
            self.tree
                .arena
                .refit_leaves(leaves, &mut self.memory.refit_scratch);
        }
        self.escapes.escaped.clear();
    }

    /// Moves the objects whose boxes have not changed for [`REST_STEPS`]
    /// steps from the moving tree to the resting one.
    fn settle_resting(&mut self) {
        self.resting.forget_left();
        self.kept.arrivals.clear();
        for &i in &self.tree.moving {
            if self.steps.wrapping_sub(self.moved_at[i as usize]) >= REST_STEPS {
                self.kept.arrivals.push(i);
            }
        }
        // Most of the moving tree leaving (a level at rest after loading):
        // building the rest again is cheaper than removing leaf by leaf.
        let most =
            self.kept.arrivals.len() > 64 && 2 * self.kept.arrivals.len() > self.tree.moving.len();
        for k in 0..self.kept.arrivals.len() {
            let i = self.kept.arrivals[k] as usize;
            self.tree.stop_moving(i);
            if !most {
                self.tree.arena.remove_leaf(self.leaf_of[i]);
            }
        }
        if most {
            self.rebuild_moving(BvhBuild::Morton);
        }
        // `keys` still holds the last step's moving pairs (own and cross).
        let (objects, moving_at) = (&self.objects, &self.tree.moving_at);
        let rests = |i: u32| moving_at[i as usize] == NONE && objects.handle_at(i).is_some();
        let last_keys = self
            .kept
            .keys
            .iter()
            .copied()
            .filter(|&k| rests((k >> 32) as u32) && rests(k as u32));
        let leaf_of = &mut self.leaf_of;
        self.resting.admit(
            &self.kept.arrivals,
            &self.boxes,
            last_keys,
            &mut |object: u32, leaf: u32| leaf_of[object as usize] = leaf,
        );
        self.reinserts += self.kept.arrivals.len() as u64;
        self.wear.moving_changes += self.kept.arrivals.len();
    }

    /// Rebuilds the moving tree when needed: whole, in Morton order (LBVH,
    /// the fastest build) after mass inserts, and by median splits
    /// (balanced) when it is far taller than a balanced one (either drops
    /// any background rebuild running); in the
    /// background when worn (its queries' node visits and its surface-area
    /// cost have both grown past [`QUALITY_SLACK`] times their values after
    /// the last rebuild): in Morton order, at most one leaf in
    /// [`SHADOW_SHARE`] per step (see `shadow.rs`), or at once when
    /// objects join, leave or jump too fast (see [`SHADOW_FIX_SHARE`]).
    /// Not by binned SAH: its unbalanced trees wore out within a few frames
    /// of reinsertion on clustered scenes, and the Morton build beats the
    /// median one on the first frame (figures: BENCHMARKS.md).
    fn keep_balanced(&mut self) {
        let n = self.tree.moving.len().max(1) as f64;
        let balanced = math::log2(n).ceil() as u32;
        let mass_insert =
            self.wear.inserted > 64 && 2 * self.wear.inserted > self.tree.moving.len();
        let too_tall = self.tree.arena.height() > 2 * balanced + 4;
        let m = self.tree.moving.len();
        self.wear.take_changes();
        if mass_insert || too_tall {
            // Cancels any background rebuild.
            self.rebuild_moving(if mass_insert {
                BvhBuild::Morton
            } else {
                BvhBuild::Median
            });
            return;
        }
        if self.wear.shadow.running() {
            self.advance_shadow();
            return;
        }
        if self.wear.resized(m) {
            self.wear.rebaseline(&self.tree);
        }
        let worn = self.wear.worn(&self.tree, self.steps);
        let busy = self.wear.busy(m);
        if worn && busy {
            self.rebuild_moving(BvhBuild::Morton);
        } else if worn {
            let (leaf_of, fat) = (&self.leaf_of, &self.tree.fat);
            let objects = self.tree.moving.iter().map(|&i| (i, fat[i as usize]));
            self.wear.shadow.start(
                objects.filter(|&(i, _)| leaf_of[i as usize] != NONE),
                &mut self.memory.leaves,
                &mut self.memory.build_scratch,
            );
        }
    }

    /// Places the background rebuild's share of leaves for this step; when
    /// all are placed, swaps the new tree in and mends it (objects that
    /// jumped, arrived or left meanwhile), or, when more than one leaf in
    /// [`SHADOW_FIX_SHARE`] would need mending (teleports, churn), drops it
    /// and rebuilds the tree whole now.
    fn advance_shadow(&mut self) {
        let m = self.tree.moving.len();
        if !self.wear.shadow.advance(shadow_budget(m)) {
            return;
        }
        let max_fixes = m / SHADOW_FIX_SHARE;
        if !self.wear.shadow.finish(
            m,
            &self.tree.moving_at,
            &self.leaf_of,
            &self.tree.fat,
            max_fixes,
        ) {
            self.rebuild_moving(BvhBuild::Morton);
            return;
        }
        std::mem::swap(&mut self.tree.arena, &mut self.wear.shadow.arena);
        let mended = self.wear.shadow.mend(
            &mut self.tree.arena,
            &self.tree.moving,
            &self.tree.moving_at,
            &mut self.leaf_of,
            &self.tree.fat,
        );
        self.wear.rebuilds += 1;
        if mended == 0 {
            self.wear.baseline_from_build(&self.tree);
        } else {
            // The cost summed by the build misses the mended leaves.
            self.wear.rebaseline(&self.tree);
        }
    }

    /// Rebuilds both trees now, by `method`. The step does this by itself
    /// when needed (see the type's documentation); call it after loading a
    /// level, for example with [`BvhBuild::Sah`] for the best trees when
    /// most objects will rest.
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
        self.rebuild_moving(method);
        let leaf_of = &mut self.leaf_of;
        self.resting
            .rebuild_all(method, &mut |object: u32, leaf: u32| {
                leaf_of[object as usize] = leaf
            });
    }

    /// Rebuilds the moving tree by `method`, escaped objects (resting ones
    /// woken first) at their current boxes.
    fn rebuild_moving(&mut self, method: BvhBuild) {
        self.wear.shadow.cancel();
        self.wake_escaped();
        self.wear.inserted = 0;
        self.escapes.placed_early = 0;
        for k in 0..self.escapes.escaped.len() {
            let i = self.escapes.escaped[k] as usize;
            self.escapes.escaped_at[i] = NONE;
            self.tree.fat[i] = self.settled_fat(i);
            self.kept.candidates.mark(i as u32);
        }
        let mut leaves = std::mem::take(&mut self.memory.leaves);
        leaves.clear();
        leaves.extend(
            self.tree
                .moving
                .iter()
                .map(|&i| (i, self.tree.fat[i as usize])),
        );
        self.escapes.escaped.clear();
        let leaf_of = &mut self.leaf_of;
        let mut placed = |object: u32, leaf: u32| leaf_of[object as usize] = leaf;
        self.tree.arena.rebuild_with(
            method,
            &mut leaves,
            &mut self.memory.build_scratch,
            &mut placed,
        );
        self.memory.leaves = leaves;
        self.wear.baseline_from_build(&self.tree);
        self.wear.rebuilds += 1;
        // The background rebuilds to come allocate nothing, nor the wear
        // checks (whose stack holds at most the height and one more, and
        // the tree may grow twice as tall before it is rebuilt).
        self.wear.shadow.reserve(self.tree.moving.len());
        let height = self.tree.arena.height() as usize;
        reserve_headroom(&mut self.wear.quality_stack, 2 * height + 2);
    }
}

/// At this many objects inserted since the last step, they get their leaves
/// at once (see [`Bvh::place_pending`]) rather than wait for the step:
/// queries test waiting objects one by one.
const PENDING_BATCH: usize = 1024;

/// More escaped objects than one in this many: grow their leaves in place
/// and refit rather than reinsert them. A reinsertion takes a walk down and
/// two up with rotations, several times the cost of growing a leaf in place
/// and refitting, and reinserting many escapes also wears the tree
/// (figures: BENCHMARKS.md). Below 1,025 moving objects (and above 64)
/// every escape is grown in place, unless it jumped.
const ESCAPED_SHARE: usize = 1024;

/// More escaped objects than one in this many: rebuild the whole moving
/// tree in Morton order rather than refit it (fast motion: a refitted tree
/// would wear out within steps). Rebuilding past a quarter beat waiting
/// until half had escaped (figures: BENCHMARKS.md).
const REBUILD_SHARE: usize = 4;

/// A fat box's margin on an axis is at most this many times the object's
/// extent on that axis (see [`Bvh::fat`]).
const STRETCH: f64 = 4.0;

impl<V: Vector, T> Query<V> for Bvh<V, T> {
    fn name(&self) -> &str {
        "bvh"
    }
    fn len(&self) -> usize {
        self.objects.len()
    }
    fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
        self.objects.check(handle).ok()?;
        Some(self.boxes[handle.index() as usize])
    }
    queries_by_search!();
    fn query_ray(
        &self,
        ray: &Ray<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(RayHit) -> ControlFlow<()>,
    ) -> QueryStats {
        let handle = |i: u32| self.objects.live_handle_at(i);
        self.view(&handle).ray_nearest_first(ray, &budget, visit)
    }
    fn query_ray_first(
        &self,
        ray: &Ray<V>,
        exact: &mut dyn FnMut(Handle, f32) -> Option<f32>,
    ) -> Option<(f32, Handle)> {
        let handle = |i: u32| self.objects.live_handle_at(i);
        self.view(&handle).ray_first(ray, exact)
    }
}

impl<V: Vector, T> BroadPhase<V, T> for Bvh<V, T> {
    fn insert(&mut self, aabb: Aabb<V>, value: T) -> Result<Handle, Error> {
        let handle = self.objects.insert(value)?;
        let i = handle.index() as usize;
        if self.boxes.len() <= i {
            self.boxes.resize(i + 1, Aabb::default());
            self.leaf_of.resize(i + 1, NONE);
            self.escapes.escaped_at.resize(i + 1, NONE);
            self.tree.moving_at.resize(i + 1, NONE);
            self.moved_at.resize(i + 1, 0);
            self.tree.shift.resize(i + 1, V::from_axes(|_| 0.0));
            self.tree.fat.resize(i + 1, Aabb::default());
            self.escapes.pending.resize(i + 1, false);
        }
        self.tree.shift[i] = V::from_axes(|_| 0.0);
        self.boxes[i] = aabb;
        self.moved_at[i] = self.steps;
        self.tree.start_moving(i);
        // Its leaf waits for the step (see `settled_fat`) or for a batch
        // (`place_pending`): a scene loaded at once is then built in Morton
        // order instead of inserted leaf by leaf and rebuilt, far faster;
        // batches keep queries before the step from testing every new
        // object (figures: BENCHMARKS.md).
        self.leaf_of[i] = NONE;
        self.escapes.pending[i] = true;
        self.escapes.pending_len += 1;
        self.escapes.escaped_at[i] = self.escapes.escaped.len() as u32;
        self.escapes.escaped.push(i as u32);
        self.kept.candidates.mark(i as u32);
        self.kept.candidates.forget_crowd(i as u32);
        self.wear.inserted += 1;
        self.wear.moving_changes += 1;
        if self.escapes.pending_len >= PENDING_BATCH {
            self.place_pending();
        }
        Ok(handle)
    }
    fn update(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<(), Error> {
        self.objects.check(handle)?;
        let i = handle.index() as usize;
        if self.boxes[i] == aabb {
            return Ok(());
        }
        let old = std::mem::replace(&mut self.boxes[i], aabb);
        self.moved_at[i] = self.steps;
        self.tree.shift[i] = V::from_axes(|a| aabb.min().axis(a) - old.min().axis(a));
        if self.escapes.escaped_at[i] != NONE {
            return Ok(());
        }
        // A resting leaf holds the old box exactly: any change escapes it.
        let resting = self.tree.moving_at[i] == NONE;
        if resting || !self.tree.fat[i].contains(&aabb) {
            self.escapes.escaped_at[i] = self.escapes.escaped.len() as u32;
            self.escapes.escaped.push(i as u32);
        }
        Ok(())
    }
    fn remove(&mut self, handle: Handle) -> Result<T, Error> {
        let value = self.objects.remove(handle)?;
        let i = handle.index() as usize;
        // Churn (as many removals as inserts) is not a mass insert for
        // `keep_balanced`; a step that must give more than a quarter of the
        // moving tree new leaves still rebuilds it (`settle_escaped`).
        self.wear.inserted = self.wear.inserted.saturating_sub(1);
        if self.tree.moving_at[i] == NONE {
            self.resting.leave(i as u32, self.leaf_of[i]);
        } else {
            if self.leaf_of[i] != NONE {
                self.tree.arena.remove_leaf(self.leaf_of[i]);
            }
            self.tree.stop_moving(i);
            self.wear.moving_changes += 1;
        }
        self.leaf_of[i] = NONE;
        if std::mem::take(&mut self.escapes.pending[i]) {
            self.escapes.pending_len -= 1;
        }
        self.forget_escaped(i);
        self.kept.candidates.mark(i as u32);
        Ok(value)
    }
    fn step(&mut self) -> Arc<FrameEvents> {
        self.settle_escaped();
        self.settle_resting();
        self.keep_balanced();
        let done = self.kept.candidates.refresh(
            &self.tree.arena,
            &self.resting.arena,
            &self.leaf_of,
            &self.tree.moving_at,
            &self.boxes,
            &mut self.kept.keys,
        );
        self.kept.candidates.make_room(&mut self.kept.keys);
        if done.queries >= 64 {
            // Wear shows in the fresh objects' queries: node visits per
            // query (not measured when every candidate was found again).
            self.wear.visits = done.query_visits as f64 / done.queries as f64;
            if self.wear.built_visits.is_infinite() {
                self.wear.built_visits = self.wear.visits.max(1.0);
            }
        }
        let keys = if self.resting.keys.is_empty() {
            &self.kept.keys
        } else {
            merge_sorted(&self.kept.keys, &self.resting.keys, &mut self.kept.merged);
            &self.kept.merged
        };
        self.tracker.finish_keys(keys, &self.objects);
        self.stats = self.tracker.stats(
            self.objects.len(),
            done.tested,
            std::mem::take(&mut self.reinserts),
        );
        self.steps = self.steps.wrapping_add(1);
        self.tracker.shared_events()
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
    fn value(&self, handle: Handle) -> Option<&T> {
        self.objects.get(handle)
    }
    crate::broad::contract::objects_from_slots!(objects);
    fn snapshot(&self) -> Snapshot<V> {
        Snapshot::new(self.frozen())
    }
}

impl<V: Vector, T> Bvh<V, T> {
    /// The trees as the queries see them.
    pub(super) fn view<'a>(&'a self, handle: &'a dyn Fn(u32) -> Handle) -> View<'a, V> {
        View {
            moving: &self.tree.arena,
            resting: &self.resting.arena,
            boxes: &self.boxes,
            escaped: &self.escapes.escaped,
            escaped_at: &self.escapes.escaped_at,
            handle,
        }
    }

    /// The queries' traversal (see [`View::search`]).
    fn search<R: Region<V> + ?Sized>(
        &self,
        region: &R,
        budget: &QueryBudget,
        stats: &mut QueryStats,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let handle = |i: u32| self.objects.live_handle_at(i);
        self.view(&handle).search(region, budget, stats, visit)
    }
}

crate::broad::hosted::hosted_by_objects!(Bvh);
