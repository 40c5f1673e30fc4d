//! [`Tree`]: the adaptive quadtree (2D) / octree (3D), tight (`tree`) or
//! loose (`loose`), behind the broad-phase contract.

use super::nodes::{Limits, NONE, Nodes};
use super::pairs::{PairScratch, tree_pairs};
use crate::broad::Query;
use crate::broad::contract::{BroadPhase, StepStats};
use crate::broad::events::{FrameEvents, Pair, PairTracker};
use crate::broad::headroom::keep_headroom;
use crate::broad::query::{QueryBudget, QueryStats, queries_by_search};
use crate::broad::snapshot::Snapshot;
use crate::error::Error;
use crate::geometry::{Aabb, Region, Vector};
use crate::handle::{Handle, Slots};
use std::ops::ControlFlow;
use std::sync::Arc;

/// Tight or loose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeKind {
    /// `tree`: an object lives in the deepest node whose cell holds its
    /// whole box; one straddling a split stays at the parent.
    Tight,
    /// `loose`: every node's bound is its cell grown by half the cell on
    /// each side; an object goes to the child holding its centre when it
    /// fits that child's bound, so objects near a split move without
    /// re-registration.
    Loose,
}

/// Settings of a [`Tree`]; every field has a default.
///
/// ```
/// use collide::{Aabb2, Tree, TreeConfig, TreeKind};
/// use glam::Vec2;
/// let config = TreeConfig {
///     bounds: Some(Aabb2::new(Vec2::ZERO, Vec2::splat(1024.0))?),
///     ..TreeConfig::default()
/// };
/// let tree: Tree<Vec2> = Tree::with_config(TreeKind::Loose, config)?;
/// assert_eq!(tree.kind(), TreeKind::Loose);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeConfig<V: Vector> {
    /// The root's cell. `None`: the bounds of the objects present at the
    /// first step plus 1%. Objects outside go to the overflow list.
    pub bounds: Option<Aabb<V>>,
    /// A leaf splits when it holds more than this many objects (>= 1).
    pub split_above: usize,
    /// Children merge into their parent when its subtree holds fewer than
    /// this many objects (< `split_above`).
    pub merge_below: usize,
    /// The deepest level (root 0), at most 30.
    pub max_depth: u8,
}

impl<V: Vector> Default for TreeConfig<V> {
    /// Automatic bounds, split above 8, merge below 4, depth at most 16.
    fn default() -> Self {
        Self {
            bounds: None,
            split_above: 8,
            merge_below: 4,
            max_depth: 16,
        }
    }
}

/// Where an object is registered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    Unplaced,
    /// In this node's list.
    Node(u32),
    /// In the overflow list at this position.
    Overflow(u32),
}

/// The adaptive quadtree (2D) / octree (3D), tight or loose; see
/// [`TreeKind`].
///
/// A leaf splits into 2^D children when it holds more than
/// [`TreeConfig::split_above`] objects (up to [`TreeConfig::max_depth`], and
/// never below a cell of a millionth of the root, so a thousand objects on
/// one point terminate); children merge back when their parent's subtree
/// falls below [`TreeConfig::merge_below`]. An object that straddles the
/// children stays at the parent, and every query visits the objects held on
/// its path, so nothing is missed. Objects outside the root go to an
/// overflow list tested against everything.
///
/// Each step finds all pairs by a traversal of the tree against itself
/// (each node's objects against its subtree, and for the loose tree sibling
/// subtrees whose bounds overlap), each pair once, and turns them into
/// events by a sorted merge.
///
/// Pick a tree for scenes that are dense in places and empty elsewhere;
/// the loose kind when objects move a little every frame. Cost per step:
/// about O(n log n); memory O(n) plus the nodes.
///
/// ```
/// use collide::{Aabb2, BroadPhase, Pair, Tree};
/// use glam::Vec2;
/// let mut tree: Tree<Vec2> = Tree::loose();
/// let a = tree.insert(Aabb2::new(Vec2::ZERO, Vec2::splat(2.0))?, ())?;
/// let b = tree.insert(Aabb2::new(Vec2::ONE, Vec2::splat(3.0))?, ())?;
/// assert_eq!(tree.step().started, vec![Pair::new(a, b)]);
/// tree.validate().unwrap();
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Debug)]
pub struct Tree<V: Vector, T = ()> {
    pub(super) kind: TreeKind,
    pub(super) config: TreeConfig<V>,
    pub(super) objects: Slots<T>,
    pub(super) boxes: Vec<Aabb<V>>,
    pub(super) places: Vec<Place>,
    pub(super) nodes: Option<Nodes<V>>,
    pub(super) overflow: Vec<u32>,
    tracker: PairTracker,
    keys: Vec<u64>,
    /// The step's pair finding's memory: a flat copy of the node lists
    /// and the parts of a split step (see `pairs.rs`).
    pair_scratch: PairScratch<V>,
    stats: StepStats,
    moves: u64,
}

impl<V: Vector, T> Tree<V, T> {
    /// A tight quadtree/octree (`tree`) with default settings.
    pub fn tight() -> Self {
        Self::build(TreeKind::Tight, TreeConfig::default())
    }

    /// A loose quadtree/octree (`loose`) with default settings.
    pub fn loose() -> Self {
        Self::build(TreeKind::Loose, TreeConfig::default())
    }

    /// A tree of `kind` with these settings, or an error naming a bad one.
    pub fn with_config(kind: TreeKind, config: TreeConfig<V>) -> Result<Self, Error> {
        let bad = |name, value: usize, expected| Error::Setting {
            name,
            value: value as f64,
            expected,
        };
        if config.split_above == 0 {
            return Err(bad("split_above", 0, "at least 1"));
        }
        if config.merge_below >= config.split_above {
            return Err(bad(
                "merge_below",
                config.merge_below,
                "less than split_above (or nodes would split and merge forever)",
            ));
        }
        if config.max_depth > 30 {
            return Err(bad(
                "max_depth",
                usize::from(config.max_depth),
                "at most 30",
            ));
        }
        if let Some(b) = config.bounds {
            if (0..V::DIM).any(|a| b.size().axis(a) <= 0.0) {
                return Err(bad("bounds", 0, "a box with positive extent on every axis"));
            }
        }
        Ok(Self::build(kind, config))
    }

    /// An empty tree; configured at once when its settings give the bounds
    /// (else at the first step).
    fn build(kind: TreeKind, config: TreeConfig<V>) -> Self {
        let mut tree = Self::unconfigured(kind, config, Slots::new());
        if let Some(bounds) = config.bounds {
            tree.configure(bounds);
        }
        tree
    }

    /// A tree holding `objects` with nothing else filled in: no boxes, no
    /// nodes (a snapshot copies them in after).
    fn unconfigured(kind: TreeKind, config: TreeConfig<V>, objects: Slots<T>) -> Self {
        Self {
            kind,
            config,
            objects,
            boxes: Vec::new(),
            places: Vec::new(),
            nodes: None,
            overflow: Vec::new(),
            tracker: PairTracker::default(),
            keys: Vec::new(),
            pair_scratch: PairScratch::default(),
            stats: StepStats::default(),
            moves: 0,
        }
    }

    /// Tight or loose.
    pub fn kind(&self) -> TreeKind {
        self.kind
    }

    /// Number of nodes in use (0 before the first step chose the bounds).
    pub fn node_count(&self) -> usize {
        let Some(nodes) = &self.nodes else { return 0 };
        let mut count = 0;
        let mut stack = vec![0u32];
        while let Some(n) = stack.pop() {
            count += 1;
            stack.extend(nodes.children(n));
        }
        count
    }

    /// Objects in the overflow list (outside the root).
    pub fn overflow_objects(&self) -> usize {
        self.overflow.len()
    }

    fn configure(&mut self, root: Aabb<V>) {
        // In f64: a root spanning most of f32's range has an extent that
        // overflows f32.
        let largest = (0..V::DIM)
            .map(|a| f64::from(root.max().axis(a)) - f64::from(root.min().axis(a)))
            .fold(0.0f64, f64::max);
        let limits = Limits {
            split_above: self.config.split_above,
            merge_below: self.config.merge_below,
            max_depth: self.config.max_depth,
            min_cell: (largest * 1.0e-6) as f32,
            looseness: match self.kind {
                TreeKind::Tight => 0.0,
                TreeKind::Loose => 0.5,
            },
        };
        self.nodes = Some(Nodes::new(root, limits, self.boxes.len()));
        let live: Vec<u32> = self.objects.iter().map(|(h, _)| h.index()).collect();
        for i in live {
            self.place(i);
        }
    }

    /// The automatic root: the objects' bounds grown by 1% on each side
    /// (at least 1 unit).
    fn auto_root(&self) -> Aabb<V> {
        let union = self
            .objects
            .iter()
            .map(|(h, _)| self.boxes[h.index() as usize])
            .reduce(|a, b| a.union(&b))
            .unwrap_or_default();
        let size = union.size();
        Aabb::new(
            V::from_axes(|a| union.min().axis(a) - (0.01 * size.axis(a)).max(1.0)),
            V::from_axes(|a| union.max().axis(a) + (0.01 * size.axis(a)).max(1.0)),
        )
        .unwrap_or(union)
    }

    fn ensure_slot(&mut self, index: usize) {
        if self.boxes.len() <= index {
            self.boxes.resize(index + 1, Aabb::default());
            self.places.resize(index + 1, Place::Unplaced);
            if let Some(nodes) = &mut self.nodes {
                nodes.ensure_slots(index + 1);
            }
        }
    }

    /// Registers object `i` by its box: the deepest node that takes it, or
    /// the overflow list.
    fn place(&mut self, i: u32) {
        let Some(nodes) = &mut self.nodes else {
            return;
        };
        let b = self.boxes[i as usize];
        let root = &nodes.nodes[0];
        let inside = match self.kind {
            TreeKind::Tight => root.cell.contains(&b),
            TreeKind::Loose => root.bound.contains(&b),
        };
        if !inside {
            self.places[i as usize] = Place::Overflow(self.overflow.len() as u32);
            self.overflow.push(i);
            return;
        }
        let mut node = 0;
        while let Some(child) = nodes.child_for(node, &b) {
            node = child;
        }
        nodes.link(node, i);
        self.places[i as usize] = Place::Node(node);
        nodes.add_count(node, 1);
        self.split_while_crowded(node);
    }

    /// Splits `node` while it wants to, moving down the objects that fit a
    /// child, and then its children likewise (bounded by the depth limit).
    fn split_while_crowded(&mut self, node: u32) {
        let Some(nodes) = &mut self.nodes else {
            return;
        };
        if !nodes.wants_split(node) {
            return;
        }
        nodes.split(node);
        let first_child = nodes.nodes[node as usize].children;
        // Children that received objects, as bits (at most 2^3).
        let mut touched = 0u32;
        let mut next = nodes.members(node).next();
        while let Some(i) = next {
            next = nodes.next_member(i);
            if let Some(child) = nodes.child_for(node, &self.boxes[i as usize]) {
                nodes.unlink(node, i);
                nodes.link(child, i);
                nodes.nodes[child as usize].subtree += 1;
                self.places[i as usize] = Place::Node(child);
                touched |= 1 << (child - first_child);
            }
        }
        while touched != 0 {
            let k = touched.trailing_zeros();
            touched &= touched - 1;
            self.split_while_crowded(first_child + k);
        }
    }

    /// Unregisters object `i`, merging emptied subtrees.
    fn unplace(&mut self, i: u32) {
        match self.places[i as usize] {
            Place::Unplaced => {}
            Place::Overflow(at) => {
                self.overflow.swap_remove(at as usize);
                if let Some(&moved) = self.overflow.get(at as usize) {
                    self.places[moved as usize] = Place::Overflow(at);
                }
            }
            Place::Node(node) => {
                let nodes = self.nodes.as_mut().expect("placed objects have nodes");
                nodes.unlink(node, i);
                nodes.add_count(node, -1);
                self.merge_from(node);
            }
        }
        self.places[i as usize] = Place::Unplaced;
    }

    /// Collapses the highest ancestor of `node` (or `node` itself) whose
    /// subtree has fallen below the merge threshold.
    fn merge_from(&mut self, node: u32) {
        let Some(nodes) = &mut self.nodes else {
            return;
        };
        let mut target = NONE;
        let mut n = node;
        while n != NONE {
            let here = &nodes.nodes[n as usize];
            if here.children != NONE && (here.subtree as usize) < nodes.limits.merge_below {
                target = n;
            }
            n = here.parent;
        }
        if target == NONE {
            return;
        }
        for child in nodes.children(target) {
            absorb(nodes, &mut self.places, target, child);
        }
        nodes.unsplit(target);
    }

    /// Re-registers object `i` after its box changed: it stays in its node
    /// while the node's bound still holds it (tight: its cell; loose: its
    /// grown bound), so small moves touch nothing.
    fn relocate(&mut self, i: u32) {
        if let (Place::Node(node), Some(nodes)) = (self.places[i as usize], &self.nodes) {
            let b = self.boxes[i as usize];
            let n = &nodes.nodes[node as usize];
            let stays = match self.kind {
                TreeKind::Tight => n.cell.contains(&b),
                TreeKind::Loose => n.bound.contains(&b),
            };
            if stays && nodes.child_for(node, &b).is_none() {
                return;
            }
        }
        if self.nodes.is_some() {
            self.moves += 1;
            self.unplace(i);
            self.place(i);
        }
    }
}

/// Moves every object of the subtree under `from` into `target`'s list and
/// frees the blocks of children below `from` (a merge; the caller frees
/// `from`'s own block). Recursion is bounded by the depth limit (30).
fn absorb<V: Vector>(nodes: &mut Nodes<V>, places: &mut [Place], target: u32, from: u32) {
    while let Some(i) = nodes.members(from).next() {
        nodes.unlink(from, i);
        nodes.link(target, i);
        places[i as usize] = Place::Node(target);
    }
    if nodes.nodes[from as usize].children != NONE {
        for child in nodes.children(from) {
            absorb(nodes, places, target, child);
        }
        nodes.unsplit(from);
    }
}

impl<V: Vector, T> Query<V> for Tree<V, T> {
    fn name(&self) -> &str {
        match self.kind {
            TreeKind::Tight => "tree",
            TreeKind::Loose => "loose",
        }
    }
    fn len(&self) -> usize {
        self.objects.len()
    }
    fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
        self.objects.check(handle).ok()?;
        Some(self.boxes[handle.index() as usize])
    }
    queries_by_search!();
}

impl<V: Vector, T> BroadPhase<V, T> for Tree<V, T> {
    fn insert(&mut self, aabb: Aabb<V>, value: T) -> Result<Handle, Error> {
        let handle = self.objects.insert(value)?;
        let i = handle.index();
        self.ensure_slot(i as usize);
        self.boxes[i as usize] = aabb;
        self.place(i);
        Ok(handle)
    }
    fn update(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<(), Error> {
        self.objects.check(handle)?;
        let i = handle.index();
        self.boxes[i as usize] = aabb;
        self.relocate(i);
        Ok(())
    }
    fn remove(&mut self, handle: Handle) -> Result<T, Error> {
        let value = self.objects.remove(handle)?;
        self.unplace(handle.index());
        Ok(value)
    }
    fn step(&mut self) -> Arc<FrameEvents> {
        if self.nodes.is_none() && !self.objects.is_empty() {
            let root = self.auto_root();
            self.configure(root);
        }
        let mut keys = std::mem::take(&mut self.keys);
        let mut scratch = std::mem::take(&mut self.pair_scratch);
        let tested = tree_pairs(self, &mut scratch, &mut keys);
        self.pair_scratch = scratch;
        // Room for as many pairs next step, and more (see `headroom.rs`).
        keep_headroom(&mut keys);
        self.tracker.finish_keys(&keys, &self.objects);
        self.keys = keys;
        self.stats =
            self.tracker
                .stats(self.objects.len(), tested, std::mem::take(&mut self.moves));
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

impl<V: Vector, T> Tree<V, T> {
    /// What the queries read (nodes, boxes, overflow list), without the
    /// user values and the pair state, for a snapshot.
    fn frozen(&self) -> Tree<V, ()> {
        let objects = self.objects.frozen_copy(|_| ());
        let mut frozen = Tree::unconfigured(self.kind, self.config, objects);
        frozen.boxes = self.boxes.clone();
        frozen.places = self.places.clone();
        frozen.nodes = self.nodes.clone();
        frozen.overflow = self.overflow.clone();
        frozen
    }
}

crate::broad::hosted::hosted_by_objects!(Tree);
