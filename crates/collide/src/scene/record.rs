//! [`Record`]: one change to the world, the unit of scenes and traces.

use crate::geometry::{Aabb, Vector};

/// One change in a frame of a scene or trace, addressed by the caller's own
/// object id (not a [`Handle`](crate::Handle)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Record<V: Vector> {
    /// Insert object `id` with this box, or move it there if present.
    Upsert {
        /// The caller's object id.
        id: u64,
        /// The object's new box.
        aabb: Aabb<V>,
    },
    /// Remove object `id`.
    Remove {
        /// The caller's object id.
        id: u64,
    },
}

impl<V: Vector> Record<V> {
    /// The object id the record names.
    pub fn id(&self) -> u64 {
        match *self {
            Record::Upsert { id, .. } | Record::Remove { id } => id,
        }
    }
}
