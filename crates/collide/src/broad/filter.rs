//! Collision filtering: which objects may pair at all. [`Filter`] gives each
//! object group bits and mask bits; [`Filtered`] wraps any structure and
//! reports only the pairs whose filters allow each other.
//!
//! Pick it for layers (players do not pair with their own bullets, pickups
//! pair only with players, triggers ignore static walls). The filter is
//! applied after the structure's box test and before a pair is reported,
//! as Box2D does: filtered pairs still cost their box test. With every
//! object on [`Filter::ALL`] the wrapper hands the structure's own events
//! through untouched; with any narrower filter, each step costs one pass
//! over the structure's pairs.

use super::contract::{BroadPhase, StepStats, everything};
use super::events::{FrameEvents, Pair, SharedEvents};
use super::headroom::{keep_headroom, reserve_headroom};
use super::snapshot::Snapshot;
use crate::broad::Query;
use crate::error::Error;
use crate::geometry::{Aabb, Vector};
use crate::handle::Handle;
use std::marker::PhantomData;
use std::ops::ControlFlow;
use std::sync::Arc;

/// An object's collision filter: the groups it belongs to and the groups it
/// pairs with. Two objects pair when each one's `mask` shares a bit with
/// the other's `groups` (Box2D's category and mask bits, rapier's
/// interaction groups). The default, [`Filter::ALL`], pairs with everything.
///
/// ```
/// use collide::Filter;
/// const PLAYER: u32 = 1 << 0;
/// const BULLET: u32 = 1 << 1;
/// const WALL: u32 = 1 << 2;
/// let player = Filter::new(PLAYER, BULLET | WALL);
/// let bullet = Filter::new(BULLET, PLAYER | WALL); // bullets pass bullets
/// let wall = Filter::new(WALL, u32::MAX);
/// assert!(player.allows(bullet) && bullet.allows(wall));
/// assert!(!bullet.allows(bullet));
/// assert!(!wall.allows(wall.with_mask(!WALL))); // both must agree
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Filter {
    /// The groups the object belongs to, one bit each (up to 32 groups).
    pub groups: u32,
    /// The groups the object pairs with, one bit each.
    pub mask: u32,
}

impl Filter {
    /// In every group, pairing with every group: the default.
    pub const ALL: Filter = Filter::new(u32::MAX, u32::MAX);
    /// In no group, pairing with nothing: the object takes part in queries
    /// but never in pairs.
    pub const NONE: Filter = Filter::new(0, 0);

    /// A filter from group bits and mask bits.
    pub const fn new(groups: u32, mask: u32) -> Self {
        Filter { groups, mask }
    }

    /// The same groups with another mask.
    pub const fn with_mask(self, mask: u32) -> Self {
        Filter { mask, ..self }
    }

    /// Whether objects with these two filters may pair (symmetric).
    pub const fn allows(self, other: Filter) -> bool {
        self.groups & other.mask != 0 && other.groups & self.mask != 0
    }
}

impl Default for Filter {
    fn default() -> Self {
        Filter::ALL
    }
}

/// Which lists the last step reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum View {
    /// The structure's own pairs and events (every filter was
    /// [`Filter::ALL`]).
    Inner,
    /// The wrapper's copy, equal to the structure's pairs (every filter was
    /// [`Filter::ALL`] again, after a step that filtered).
    OwnUnfiltered,
    /// The wrapper's copy, filtered.
    Own,
}

/// Each object's filter by slot index, and how many are not [`Filter::ALL`].
#[derive(Clone, Debug, Default)]
struct Filters {
    by_slot: Vec<Filter>,
    narrowed: usize,
}

impl Filters {
    fn get(&self, handle: Handle) -> Filter {
        self.by_slot
            .get(handle.index() as usize)
            .copied()
            .unwrap_or(Filter::ALL)
    }

    fn set(&mut self, handle: Handle, filter: Filter) {
        let index = handle.index() as usize;
        if self.by_slot.len() <= index {
            self.by_slot.resize(index + 1, Filter::ALL);
        }
        let old = std::mem::replace(&mut self.by_slot[index], filter);
        self.narrowed =
            self.narrowed + usize::from(filter != Filter::ALL) - usize::from(old != Filter::ALL);
    }

    fn allows(&self, pair: &Pair) -> bool {
        self.get(pair.a()).allows(self.get(pair.b()))
    }
}

/// The reported pairs and events while some filter is narrower than
/// [`Filter::ALL`].
#[derive(Clone, Debug, Default)]
struct Reported {
    pairs: Vec<Pair>,
    next: Vec<Pair>,
    events: SharedEvents,
}

impl Reported {
    /// Takes the structure's pairs through the filters and diffs them
    /// against the last reported ones.
    fn refresh(&mut self, inner: &[Pair], filters: &Filters) {
        self.next.clear();
        self.next
            .extend(inner.iter().filter(|p| filters.allows(p)).copied());
        let events = self.events.edit();
        events.set_difference(&self.pairs, &self.next);
        keep_headroom(&mut events.started);
        keep_headroom(&mut events.stopped);
        std::mem::swap(&mut self.pairs, &mut self.next);
        reserve_headroom(&mut self.next, self.pairs.len());
    }
}

/// Any structure with a [`Filter`] per object: only pairs whose filters
/// allow each other are reported, in the pair list, the events and the
/// statistics. Queries are the structure's own and see every object.
///
/// ```
/// use collide::{Aabb2, BroadPhase, Filter, Filtered, Grid, Pair};
/// use glam::Vec2;
/// const PLAYER: u32 = 1;
/// const PICKUP: u32 = 2;
/// let mut world = Filtered::new(Grid::<Vec2, &str>::hashed());
/// let unit = Aabb2::new(Vec2::ZERO, Vec2::ONE)?;
/// let player = world.insert_filtered(unit, "player", Filter::new(PLAYER, u32::MAX))?;
/// let coin = world.insert_filtered(unit, "coin", Filter::new(PICKUP, PLAYER))?;
/// world.insert_filtered(unit, "gem", Filter::new(PICKUP, PLAYER))?;
/// // The pickups overlap each other too, but only pair with the player.
/// assert_eq!(world.step().started.len(), 2);
/// world.set_filter(coin, Filter::NONE)?; // collected: no longer pairs
/// assert_eq!(world.step().stopped, vec![Pair::new(player, coin)]);
/// # Ok::<(), collide::Error>(())
/// ```
pub struct Filtered<V: Vector, T, S: BroadPhase<V, T>> {
    inner: S,
    filters: Filters,
    view: View,
    reported: Reported,
    _types: PhantomData<fn() -> (V, T)>,
}

impl<V: Vector, T, S: BroadPhase<V, T>> Filtered<V, T, S> {
    /// Wraps a structure; its objects start with [`Filter::ALL`].
    pub fn new(inner: S) -> Self {
        Filtered {
            inner,
            filters: Filters::default(),
            view: View::Inner,
            reported: Reported::default(),
            _types: PhantomData,
        }
    }

    /// The wrapped structure (its pairs are unfiltered).
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// Unwraps the structure.
    pub fn into_inner(self) -> S {
        self.inner
    }

    /// Adds an object with its filter; it takes part in pairs from the next
    /// step.
    pub fn insert_filtered(
        &mut self,
        aabb: Aabb<V>,
        value: T,
        filter: Filter,
    ) -> Result<Handle, Error> {
        let handle = self.inner.insert(aabb, value)?;
        self.set_filter_of_live(handle, filter);
        Ok(handle)
    }

    /// Changes an object's filter; its pairs follow from the next step.
    /// A stale or foreign handle is refused.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute, Filter, Filtered};
    /// use glam::Vec2;
    /// let mut world = Filtered::new(Brute::<Vec2>::new());
    /// let unit = Aabb2::new(Vec2::ZERO, Vec2::ONE)?;
    /// let (a, b) = (world.insert(unit, ())?, world.insert(unit, ())?);
    /// world.set_filter(a, Filter::NONE)?;
    /// assert!(world.step().is_empty());
    /// world.set_filter(a, Filter::ALL)?;
    /// assert_eq!(world.step().started.len(), 1);
    /// world.remove(b)?;
    /// assert!(world.set_filter(b, Filter::NONE).is_err()); // stale
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn set_filter(&mut self, handle: Handle, filter: Filter) -> Result<(), Error> {
        if self.inner.aabb(handle).is_none() {
            // Not live here: an update names the handle's fault exactly
            // (stale or foreign) and is refused without effect.
            self.inner.update(handle, everything())?;
            unreachable!("a structure refuses an update of a handle it does not hold");
        }
        self.set_filter_of_live(handle, filter);
        Ok(())
    }

    /// The object's filter, or `None` for a stale or foreign handle.
    pub fn filter(&self, handle: Handle) -> Option<Filter> {
        self.inner.aabb(handle).map(|_| self.filters.get(handle))
    }

    fn set_filter_of_live(&mut self, handle: Handle, filter: Filter) {
        if self.view == View::Inner && filter != Filter::ALL && self.filters.narrowed == 0 {
            // The last reported pairs are the structure's: copy them to
            // diff the first filtered step against.
            self.reported.pairs.clear();
            self.reported.pairs.extend_from_slice(self.inner.pairs());
            self.view = View::Own;
        }
        self.filters.set(handle, filter);
    }
}

impl<V: Vector, T, S: BroadPhase<V, T>> Query<V> for Filtered<V, T, S> {
    super::read::query_through!(inner);
}

impl<V: Vector, T, S: BroadPhase<V, T>> BroadPhase<V, T> for Filtered<V, T, S> {
    fn insert(&mut self, aabb: Aabb<V>, value: T) -> Result<Handle, Error> {
        self.insert_filtered(aabb, value, Filter::ALL)
    }
    fn update(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<(), Error> {
        self.inner.update(handle, aabb)
    }
    fn update_many(&mut self, handles: &[Handle], boxes: &[Aabb<V>]) -> Result<(), Error> {
        self.inner.update_many(handles, boxes)
    }
    fn remove(&mut self, handle: Handle) -> Result<T, Error> {
        let value = self.inner.remove(handle)?;
        self.filters.set(handle, Filter::ALL);
        Ok(value)
    }
    fn step(&mut self) -> Arc<FrameEvents> {
        let events = self.inner.step();
        let filtering = self.filters.narrowed > 0;
        if !filtering && self.view != View::Own {
            // The last reported pairs were the structure's: so are its events.
            self.view = View::Inner;
            return events;
        }
        drop(events);
        self.reported.refresh(self.inner.pairs(), &self.filters);
        self.view = if filtering {
            View::Own
        } else {
            View::OwnUnfiltered
        };
        self.reported.events.share()
    }
    fn events(&self) -> &FrameEvents {
        match self.view {
            View::Inner => self.inner.events(),
            View::Own | View::OwnUnfiltered => self.reported.events.get(),
        }
    }
    fn pairs(&self) -> &[Pair] {
        match self.view {
            View::Inner => self.inner.pairs(),
            View::Own | View::OwnUnfiltered => &self.reported.pairs,
        }
    }
    fn stats(&self) -> StepStats {
        let events = self.events();
        StepStats {
            pairs: self.pairs().len(),
            started: events.started.len(),
            stopped: events.stopped.len(),
            ..self.inner.stats()
        }
    }
    fn value(&self, handle: Handle) -> Option<&T> {
        self.inner.value(handle)
    }
    fn value_mut(&mut self, handle: Handle) -> Option<&mut T> {
        self.inner.value_mut(handle)
    }
    fn for_each_object(
        &self,
        visit: &mut dyn FnMut(Handle, Aabb<V>, &T) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.inner.for_each_object(visit)
    }
    fn snapshot(&self) -> Snapshot<V> {
        self.inner.snapshot()
    }
}
