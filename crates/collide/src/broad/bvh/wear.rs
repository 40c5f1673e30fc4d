//! The moving tree's wear: the figures that say a tree has worn (nodes
//! visited per query, surface-area cost, both against their values after
//! the last rebuild), how fast its objects change, and the background
//! rebuild that renews it (see `shadow.rs`).

use super::parts::MovingTree;
use super::shadow::Shadow;
use crate::geometry::Vector;

/// Rebuild when the nodes visited per query and the surface-area cost
/// both exceed their values after the last rebuild by this factor. Under
/// slow motion the cost grows about 1% a step after a rebuild (2D
/// `uniform` at 100,000 objects), so the background rebuild runs about
/// every 20 steps; 1.2 ran faster than 1.5 (figures: BENCHMARKS.md).
const QUALITY_SLACK: f64 = 1.2;

/// Steps between two measures of the surface-area cost for wear.
const WEAR_CHECK_STEPS: u32 = 4;

/// A worn moving tree is rebuilt whole in the background (see
/// `shadow.rs`), at most one leaf in this many per step (and at least
/// [`SHADOW_MIN`]).
const SHADOW_SHARE: usize = 8;
const SHADOW_MIN: usize = 1024;

/// The leaves a background rebuild of a tree of `m` places per step.
pub(super) fn shadow_budget(m: usize) -> usize {
    (m / SHADOW_SHARE).max(SHADOW_MIN)
}

/// The background rebuild is dropped, and the tree rebuilt whole at once,
/// when more than one leaf in this many would need mending after the swap
/// (each a removal or insertion: a walk through the tree); and a
/// worn tree is rebuilt whole at once, without trying, when the objects
/// that joined, left or jumped in the recent steps say as much. Under the
/// `teleport` motion (5% of the objects jump each step) a third of the
/// leaves jump during a build, under `churn` (1% inserted and 1% removed)
/// a sixth change: there steps are slow already (reinsertions), and a whole
/// rebuild is the smaller cost. Renewing the tree a piece at a time instead
/// left teleport steps slowing frame after frame, and growing teleported
/// leaves in place was far worse (figures: BENCHMARKS.md).
pub(super) const SHADOW_FIX_SHARE: usize = 64;

/// The wear figures and the background rebuild of the moving tree.
#[derive(Debug)]
pub(super) struct Wear<V: Vector> {
    pub(super) rebuilds: u64,
    /// Objects inserted since the last rebuild.
    pub(super) inserted: usize,
    /// Nodes visited per query of the fresh objects at the last step that
    /// made enough of them (see `step`).
    pub(super) visits: f64,
    /// The same at the first such step after the last rebuild.
    pub(super) built_visits: f64,
    /// The surface-area cost right after the last rebuild.
    pub(super) built_cost: f64,
    /// Objects in the moving tree when `built_visits` and `built_cost`
    /// were taken: a tree that has since halved or doubled is measured
    /// afresh instead of judged worn.
    pub(super) built_len: usize,
    /// A whole rebuild of the worn moving tree, done a share per step.
    pub(super) shadow: Shadow<V>,
    /// The stack [`Arena::quality_with`] lends when the step measures wear.
    pub(super) quality_stack: Vec<u32>,
    /// The step count when the surface-area cost was last measured for
    /// wear.
    pub(super) wear_checked_at: u32,
    /// Objects that joined or left the moving tree or jumped since the last
    /// step, and the recent steps' average of that (what a background
    /// rebuild would have to mend at its end).
    pub(super) moving_changes: usize,
    pub(super) change_rate: f64,
}

impl<V: Vector> Default for Wear<V> {
    fn default() -> Self {
        Self {
            visits: 0.0,
            built_visits: f64::INFINITY,
            built_cost: f64::INFINITY,
            built_len: 0,
            shadow: Shadow::default(),
            quality_stack: Vec::new(),
            wear_checked_at: 0,
            moving_changes: 0,
            change_rate: 0.0,
            rebuilds: 0,
            inserted: 0,
        }
    }
}

impl<V: Vector> Wear<V> {
    /// Folds the objects that joined, left or jumped since the last step
    /// into the recent steps' average.
    pub(super) fn take_changes(&mut self) {
        let changes = std::mem::take(&mut self.moving_changes) as f64;
        self.change_rate = 0.75 * self.change_rate + 0.25 * changes;
    }

    /// True when the moving tree, now of `m` objects, has grown or shrunk
    /// by half or more since the figures were taken (by inserts, removals,
    /// objects coming to rest and waking): they say nothing of wear then.
    pub(super) fn resized(&self, m: usize) -> bool {
        m > 2 * self.built_len || 2 * m < self.built_len
    }

    /// Worn: the fresh objects' queries visit far more nodes than the
    /// first ones after the last rebuild (free to measure, and what a worn
    /// tree costs), confirmed by the surface-area cost. That cost takes a
    /// pass over every node: measured at most every [`WEAR_CHECK_STEPS`]
    /// steps, which halves its share of a step where the visits stay past
    /// the slack while the cost does not.
    pub(super) fn worn(&mut self, tree: &MovingTree<V>, steps: u32) -> bool {
        let due = steps.wrapping_sub(self.wear_checked_at) >= WEAR_CHECK_STEPS;
        tree.moving.len() > 64 && self.visits > QUALITY_SLACK * self.built_visits && due && {
            self.wear_checked_at = steps;
            let quality = tree.arena.quality_with(&mut self.quality_stack);
            quality.sah_cost > QUALITY_SLACK * self.built_cost
        }
    }

    /// A scene that changes so fast that a background rebuild of a tree of
    /// `m` objects would have to mend more than it may at its end (see
    /// [`SHADOW_FIX_SHARE`]): rebuilt whole at once instead.
    pub(super) fn busy(&self, m: usize) -> bool {
        let build_steps = m.div_ceil(shadow_budget(m)) + 1;
        self.change_rate * build_steps as f64 > (m / SHADOW_FIX_SHARE) as f64
    }

    /// Takes the figures of the tree a whole build just made: the
    /// surface-area cost it summed, the visits at the next step's queries.
    pub(super) fn baseline_from_build(&mut self, tree: &MovingTree<V>) {
        self.built_cost = tree.arena.built_sah_cost();
        self.built_len = tree.moving.len();
        self.built_visits = f64::INFINITY;
    }

    /// Takes the figures afresh: the surface-area cost now, the visits at
    /// the next step's queries.
    pub(super) fn rebaseline(&mut self, tree: &MovingTree<V>) {
        self.built_len = tree.moving.len();
        self.built_cost = tree.arena.quality_with(&mut self.quality_stack).sah_cost;
        self.built_visits = f64::INFINITY;
    }
}
