//! How `Auto` changes structure: at once ([`Auto::switch_to`]) or spread
//! over [`AutoConfig::switch_frames`](super::AutoConfig::switch_frames)
//! steps (a [`Migration`]), without losing or repeating an event.

use super::regrid::BuiltFor;
use super::running::Running;
use super::work::Work;
use super::{Auto, Choice};
use crate::broad::Query;
use crate::broad::brute::Brute;
use crate::broad::bvh::Bvh;
use crate::broad::contract::BroadPhase;
use crate::broad::grid::{Grid, GridConfig, GridKind};
use crate::broad::hosted::Hosted;
use crate::broad::sap::{BandSap, Sap};
use crate::broad::structure::Structure;
use crate::broad::tree::Tree;
use crate::error::Error;
use crate::geometry::{Aabb, Vector};
use crate::handle::Handle;

/// A switch under way: the structure being built and how far.
pub(super) struct Migration<V: Vector> {
    /// Holds, under `Auto`'s handles, every object of the slots below
    /// `cursor` and every object inserted since the switch began.
    pub(super) next: Running<V>,
    /// Slots below this have been offered to `next`.
    cursor: u32,
    choice: Choice,
}

/// A new, empty `structure` (any but [`Structure::Auto`], which gives
/// `None`) that takes its handles from the arena `owner`; a dense or
/// hashed grid with the settings `grid_config` (cell size and bounds
/// chosen at its first step where they are `None`).
pub(super) fn hosted<V: Vector>(
    structure: Structure,
    owner: u32,
    grid_config: GridConfig<V>,
) -> Option<Running<V>> {
    let grid = |kind| {
        Grid::<V>::with_config(kind, grid_config).expect("cells and bounds a grid chose are valid")
    };
    let mut running = match structure {
        Structure::Brute => Running::Brute(Brute::new()),
        Structure::Sap => Running::Sap(Sap::new()),
        Structure::Sap1 => Running::BandSap(BandSap::new()),
        Structure::Grid => Running::Grid(grid(GridKind::Dense)),
        Structure::HashGrid => Running::Grid(grid(GridKind::Hashed)),
        Structure::HGrid => Running::Grid(Grid::hierarchical()),
        Structure::Tree => Running::Tree(Tree::tight()),
        Structure::Loose => Running::Tree(Tree::loose()),
        Structure::Bvh => Running::Bvh(Bvh::new()),
        Structure::Auto => return None,
    };
    running.adopt(owner);
    Some(running)
}

impl<V: Vector, T: Send> Auto<V, T> {
    /// Runs `structure` from now on, built from every object at once; a
    /// switch under way is given up. Handles, pairs and events go on
    /// unchanged: the next step's events are the difference of its pairs
    /// from the last step's. [`Error::NestedAuto`] for
    /// [`Structure::Auto`], which cannot run inside itself.
    pub fn switch_to(&mut self, structure: Structure) -> Result<(), Error> {
        if structure == Structure::Auto {
            return Err(Error::NestedAuto);
        }
        let choice = Choice {
            structure,
            reason: "switched by hand",
        };
        self.switch_now(choice, GridConfig::default())
    }

    /// `structure`, empty, under this `Auto`'s handles (a dense or hashed
    /// grid with the settings `grid`).
    fn new_structure(&self, structure: Structure, grid: GridConfig<V>) -> Running<V> {
        hosted(structure, self.values.owner(), grid)
            .expect("switch_to and choose_structure never give auto")
    }

    /// [`Auto::switch_to`] for `choice` (a dense or hashed grid with the
    /// settings `grid`).
    pub(super) fn switch_now(&mut self, choice: Choice, grid: GridConfig<V>) -> Result<(), Error> {
        // Built aside: an error leaves the running structure as it was.
        let mut next = self.new_structure(choice.structure, grid);
        for (handle, _) in self.values.iter() {
            let aabb = self
                .inner
                .aabb(handle)
                .expect("the running structure holds every object");
            next.insert_at(handle, aabb)?;
        }
        if !self.diff_pending {
            self.before.clear();
            self.before.extend_from_slice(self.inner.pairs());
            self.diff_pending = true;
        }
        self.give_up_migration();
        self.inner = next;
        self.took_over(choice);
        Ok(())
    }

    /// Records that `choice` runs from this step on.
    fn took_over(&mut self, choice: Choice) {
        self.pending = None;
        // The same structure anew is a rebuild.
        if choice.structure == self.status.structure {
            self.status.rebuilds += 1;
        } else if self.picked {
            self.status.switches += 1;
        }
        self.status.structure = choice.structure;
        self.status.reason = choice.reason;
        self.status.since_step = self.status.steps;
        self.status.switching_to = None;
        self.built_for = BuiltFor {
            density: self.status.profile.density,
            overflow: None,
        };
        self.work = Work::default();
    }

    /// Drops a switch under way.
    pub(super) fn give_up_migration(&mut self) {
        self.migration = None;
        self.status.switching_to = None;
    }

    /// Starts building `choice` beside the running structure (a dense or
    /// hashed grid with the settings `grid`).
    pub(super) fn begin_migration(&mut self, choice: Choice, grid: GridConfig<V>) {
        self.give_up_migration();
        self.migration = Some(Migration {
            next: self.new_structure(choice.structure, grid),
            cursor: 0,
            choice,
        });
        self.status.switching_to = Some(choice.structure);
    }

    /// Gives the structure being built its next share of the objects;
    /// true once it holds them all.
    pub(super) fn advance_migration(&mut self) -> bool {
        let Some(m) = &mut self.migration else {
            return false;
        };
        let total = self.values.capacity_index() as u32;
        let share = total.div_ceil(self.config.switch_frames).max(1);
        let end = m.cursor.saturating_add(share).min(total);
        for slot in m.cursor..end {
            let Some(handle) = self.values.handle_at(slot) else {
                continue;
            };
            if m.next.aabb(handle).is_none() {
                let aabb = self
                    .inner
                    .aabb(handle)
                    .expect("the running structure holds every object");
                m.next
                    .insert_at(handle, aabb)
                    .expect("every structure takes the boxes the running one took");
            }
        }
        m.cursor = end;
        end >= total
    }

    /// [`BroadPhase::update`] while a switch is under way: the move
    /// reaches both structures (the one being built once it holds the
    /// object), or neither.
    #[inline(never)]
    pub(super) fn update_migrating(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<(), Error> {
        let m = match &mut self.migration {
            Some(m) if m.next.aabb(handle).is_some() => m,
            _ => return self.inner.update(handle, aabb),
        };
        let before = self
            .inner
            .aabb(handle)
            .expect("both structures hold the same objects");
        self.inner.update(handle, aabb)?;
        if let Err(e) = m.next.update(handle, aabb) {
            // Undone, so that both structures hold the same boxes.
            self.inner
                .update(handle, before)
                .expect("the box it held before");
            return Err(e);
        }
        Ok(())
    }

    /// The step the structure being built holds every object: it steps
    /// instead of the running one (its first step finds every pair afresh)
    /// and runs from now on. Returns the structure it replaced, unstepped,
    /// whose pairs are the last step's: the step's events are their
    /// difference from the new structure's.
    pub(super) fn take_over(&mut self) -> Option<Running<V>> {
        let mut m = self.migration.take()?;
        m.next.step();
        let old = std::mem::replace(&mut self.inner, m.next);
        self.took_over(m.choice);
        Some(old)
    }
}
