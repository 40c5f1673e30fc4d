//! [`Record`]: one change to the world, the unit of scenes and traces.

use collide::{Aabb, Vector};

/// One change in a frame of a scene or trace, addressed by the caller's own
/// object id (not a [`Handle`](collide::Handle)).
///
/// ```
/// use collide::{Aabb2, BroadPhase, Brute, Query};
/// use collide_scenes::{Record, Runner};
/// use glam::Vec2;
/// let aabb = Aabb2::new(Vec2::ZERO, Vec2::ONE)?;
/// let (mut world, mut runner) = (Brute::<Vec2, u64>::new(), Runner::new());
/// runner.apply(&mut world, &[Record::Upsert { id: 7, aabb }, Record::Upsert { id: 9, aabb }])?;
/// runner.apply(&mut world, &[Record::Remove { id: 7 }])?;
/// assert_eq!(world.len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
    ///
    /// ```
    /// use collide::Aabb2;
    /// use collide_scenes::Record;
    /// use glam::Vec2;
    /// let aabb = Aabb2::new(Vec2::ZERO, Vec2::ONE)?;
    /// assert_eq!(Record::Upsert { id: 3, aabb }.id(), 3);
    /// assert_eq!(Record::<Vec2>::Remove { id: 4 }.id(), 4);
    /// # Ok::<(), collide::AabbError>(())
    /// ```
    pub fn id(&self) -> u64 {
        match *self {
            Record::Upsert { id, .. } | Record::Remove { id } => id,
        }
    }
}

/// A record removed an object id that is not present.
///
/// ```
/// use collide_scenes::NotPresent;
/// assert_eq!(NotPresent(5).to_string(), "object 5 is not present, so it cannot be removed");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("object {0} is not present, so it cannot be removed")]
pub struct NotPresent(pub u64);
