//! Structures run inside another under its handles ([`Hosted`]), so that
//! `Auto` passes every call straight through, with no handle of its own to
//! look up or map back.

use super::contract::BroadPhase;
use crate::error::Error;
use crate::geometry::{Aabb, Vector};
use crate::handle::{Handle, HandleError, Slots};

/// The arena of a hosted structure, seen without its value type.
pub(crate) trait HostedArena {
    /// See [`Slots::adopt`].
    fn adopt(&mut self, owner: u32);
    /// See [`Slots::dictate`].
    fn dictate(&mut self, handle: Handle) -> Result<(), HandleError>;
}

impl<T> HostedArena for Slots<T> {
    fn adopt(&mut self, owner: u32) {
        Slots::adopt(self, owner);
    }

    fn dictate(&mut self, handle: Handle) -> Result<(), HandleError> {
        Slots::dictate(self, handle)
    }
}

/// What a one-level grid runs with ([`Hosted::one_level_cells`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct OneLevelCells<V: Vector> {
    /// The cell edge length, in world units.
    pub(crate) cell_size: f32,
    /// The region a dense grid's cells cover; `None` for a hashed grid.
    pub(crate) bounds: Option<Aabb<V>>,
    /// Objects in the overflow list.
    pub(crate) overflow: usize,
}

/// A structure that can hold its objects under handles another arena
/// issued: after [`Hosted::adopt`], [`Hosted::insert_at`] puts each object
/// under the handle it is given, and every other call takes those handles.
pub(crate) trait Hosted<V: Vector>: BroadPhase<V, ()> + Send {
    /// The structure's arena.
    fn arena(&mut self) -> &mut dyn HostedArena;

    /// Takes its handles from the arena `owner` from now on; only while
    /// empty and fresh.
    fn adopt(&mut self, owner: u32) {
        self.arena().adopt(owner);
    }

    /// For a one-level grid (`grid`, `hashgrid`) that has chosen its
    /// cells: their size and bounds, and the objects in its overflow list.
    /// `None` for every other structure.
    fn one_level_cells(&self) -> Option<OneLevelCells<V>> {
        None
    }

    /// Inserts `aabb` under `handle`, which the adopted owner issued and
    /// whose slot is free here.
    fn insert_at(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<(), Error> {
        self.arena().dictate(handle)?;
        let placed = self.insert(aabb, ())?;
        debug_assert_eq!(placed, handle, "the arena took the dictated handle");
        Ok(())
    }
}

/// Implements [`Hosted`] for a structure whose arena is its `objects`.
macro_rules! hosted_by_objects {
    ($structure:ident) => {
        impl<V: $crate::geometry::Vector> $crate::broad::hosted::Hosted<V> for $structure<V> {
            fn arena(&mut self) -> &mut dyn $crate::broad::hosted::HostedArena {
                &mut self.objects
            }
        }
    };
}
pub(crate) use hosted_by_objects;
