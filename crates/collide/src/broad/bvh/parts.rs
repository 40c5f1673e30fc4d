//! The BVH's state, grouped by concern: the moving tree with its fat
//! boxes, the objects waiting for their leaves, the kept candidate pairs
//! with the step's key lists, and the memory the builds reuse. (The
//! resting tree is in `rest.rs`, the wear figures and background rebuild
//! in `wear.rs`.)

use super::build::{BuildScratch, Leaf};
use super::cache::Candidates;
use super::tree::{Arena, NONE, RefitScratch};
use crate::geometry::{Aabb, Vector};

/// The moving tree: its nodes, its objects, and their fat boxes.
#[derive(Debug)]
pub(super) struct MovingTree<V: Vector> {
    /// The moving tree.
    pub(super) arena: Arena<V>,
    /// The objects in the moving tree, and per object its index there
    /// (`NONE` for resting objects).
    pub(super) moving: Vec<u32>,
    pub(super) moving_at: Vec<u32>,
    /// Per escaped object: how far its box's lower corner moved in the
    /// update that escaped (the fat box reaches ahead along it).
    pub(super) shift: Vec<V>,
    /// Per moving object: its leaf's fat box (read by every update, kept
    /// here in object order rather than in the tree; for an object without
    /// a leaf yet, whatever its slot held before, never read).
    pub(super) fat: Vec<Aabb<V>>,
}

impl<V: Vector> Default for MovingTree<V> {
    fn default() -> Self {
        Self {
            arena: Arena::new(),
            moving: Vec::new(),
            moving_at: Vec::new(),
            fat: Vec::new(),
            shift: Vec::new(),
        }
    }
}

impl<V: Vector> MovingTree<V> {
    /// Adds object `i` to the list of moving objects.
    pub(super) fn start_moving(&mut self, i: usize) {
        self.moving_at[i] = self.moving.len() as u32;
        self.moving.push(i as u32);
    }

    /// Takes object `i` off the list of moving objects.
    pub(super) fn stop_moving(&mut self, i: usize) {
        let at = self.moving_at[i];
        self.moving_at[i] = NONE;
        self.moving.swap_remove(at as usize);
        if let Some(&other) = self.moving.get(at as usize) {
            self.moving_at[other as usize] = at;
        }
    }
}

/// Objects waiting for the step: escaped from their fat boxes, or inserted
/// without a leaf yet.
#[derive(Debug, Default)]
pub(super) struct Escapes {
    /// Objects whose box left its leaf's fat box (or, resting, changed)
    /// since the last step, and objects inserted since then that have no
    /// leaf yet: their leaves wait for the step (queries test them
    /// directly).
    pub(super) escaped: Vec<u32>,
    /// Per object: its index in `escaped`, or `NONE`.
    pub(super) escaped_at: Vec<u32>,
    /// Per object: inserted since the last step, so it has no leaf yet (it
    /// waits in `escaped`, where queries find it; the step makes its leaf,
    /// with all the others' when many arrive at once, or
    /// [`Bvh::place_pending`] when [`PENDING_BATCH`] wait).
    pub(super) pending: Vec<bool>,
    /// How many objects `pending` marks.
    pub(super) pending_len: usize,
    /// Objects given their leaves by [`Bvh::place_pending`] since the last
    /// step (removals not taken off): the step counts them as new when it
    /// decides whether to rebuild the moving tree.
    pub(super) placed_early: usize,
}

/// The candidate pairs kept between steps, and the step's key lists.
#[derive(Debug, Default)]
pub(super) struct KeptPairs {
    pub(super) keys: Vec<u64>,
    pub(super) merged: Vec<u64>,
    pub(super) arrivals: Vec<u32>,
    /// Pairs whose leaves overlap, kept between steps.
    pub(super) candidates: Candidates,
}

/// Memory the whole-tree builds and refits reuse.
#[derive(Debug, Default)]
pub(super) struct BuildMemory<V: Vector> {
    pub(super) refit_scratch: RefitScratch,
    /// Memory the whole-tree builds reuse (a moving scene rebuilds every
    /// step).
    pub(super) leaves: Vec<Leaf<V>>,
    pub(super) build_scratch: BuildScratch<V>,
}
