//! Handles (index plus generation plus owner) and [`Slots`], the
//! generational arena every structure keeps its objects in.
//!
//! A handle stays valid until its object is removed. After that the slot
//! may be reused, but with a new generation, so the old handle is refused
//! ([`HandleError::Stale`]) instead of silently addressing the new object.
//! Each arena has an owner id, so a handle from another structure is refused
//! too ([`HandleError::Foreign`]).

use std::fmt;
use std::sync::atomic::{AtomicU32, Ordering};

/// The address of one object in one structure: slot index, generation and
/// the id of the structure that issued it.
///
/// Handles order by index, then generation: the order used for pairs and
/// events. Within one structure only one generation of an index is alive, so
/// this is the order of slot indices.
///
/// ```
/// use collide::{BroadPhase, Brute, Aabb2};
/// use glam::Vec2;
/// let mut world: Brute<Vec2> = Brute::new();
/// let h = world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
/// world.remove(h)?;
/// assert!(world.remove(h).is_err()); // stale: already removed
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Handle {
    index: u32,
    generation: u32,
    owner: u32,
}

impl Handle {
    /// The slot index, dense from 0; useful to index side tables.
    ///
    /// ```
    /// use collide::Slots;
    /// let mut slots = Slots::new();
    /// let (a, b) = (slots.insert('a')?, slots.insert('b')?);
    /// assert_eq!((a.index(), b.index()), (0, 1));
    /// # Ok::<(), collide::HandleError>(())
    /// ```
    #[inline]
    pub fn index(self) -> u32 {
        self.index
    }

    /// How many times the slot had been freed before this object took it.
    ///
    /// ```
    /// use collide::Slots;
    /// let mut slots = Slots::new();
    /// let first = slots.insert(1)?;
    /// slots.remove(first)?;
    /// let second = slots.insert(2)?; // same slot, freed once before
    /// assert_eq!((first.generation(), second.generation()), (0, 1));
    /// # Ok::<(), collide::HandleError>(())
    /// ```
    #[inline]
    pub fn generation(self) -> u32 {
        self.generation
    }

    /// The id of the structure (arena) that issued the handle.
    ///
    /// ```
    /// use collide::Slots;
    /// let (mut a, mut b) = (Slots::new(), Slots::new());
    /// let (ha, hb) = (a.insert(())?, b.insert(())?);
    /// assert_eq!(ha.owner(), a.owner());
    /// assert_ne!(ha.owner(), hb.owner()); // each arena has its own id
    /// # Ok::<(), collide::HandleError>(())
    /// ```
    #[inline]
    pub fn owner(self) -> u32 {
        self.owner
    }
}

impl fmt::Display for Handle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}v{}", self.index, self.generation)
    }
}

/// Why a handle was refused.
///
/// ```
/// use collide::{HandleError, Slots};
/// let mut slots = Slots::new();
/// let h = slots.insert("crate")?;
/// slots.remove(h)?;
/// assert_eq!(slots.remove(h), Err(HandleError::Stale(h)));
/// let other: Slots<&str> = Slots::new();
/// assert!(matches!(other.check(h), Err(HandleError::Foreign { handle, .. }) if handle == h));
/// # Ok::<(), HandleError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandleError {
    /// The object was removed (and its slot possibly reused).
    #[error(
        "handle {0} is stale: its object was removed; drop the handle when you remove the object"
    )]
    Stale(Handle),
    /// The handle was issued by another structure.
    #[error(
        "handle {handle} belongs to structure {} but was given to structure {expected}; \
         use each handle only with the structure that returned it",
        handle.owner
    )]
    Foreign {
        /// The handle given.
        handle: Handle,
        /// The owner id of the structure it was given to.
        expected: u32,
    },
    /// All `u32::MAX` slots are in use.
    #[error("no free slot: a structure holds at most {} objects", u32::MAX)]
    Full,
}

static NEXT_OWNER: AtomicU32 = AtomicU32::new(1);

/// A generational arena: values addressed by [`Handle`], slots reused
/// through a LIFO free list (deterministic), generations bumped on removal.
///
/// Slots whose generation would overflow are retired, never reused, so a
/// handle can never come back to life.
///
/// ```
/// use collide::Slots;
/// let mut slots = Slots::new();
/// let a = slots.insert("a")?;
/// assert_eq!(slots.get(a), Some(&"a"));
/// slots.remove(a)?;
/// let b = slots.insert("b")?;
/// assert_eq!(b.index(), a.index()); // the slot is reused...
/// assert_eq!(slots.get(a), None);   // ...but the old handle is refused
/// # Ok::<(), collide::HandleError>(())
/// ```
///
/// `Slots` is deliberately not `Clone`: two copies would share an owner id,
/// so a handle issued by one after the copy could address another object in
/// the other.
#[derive(Debug)]
pub struct Slots<T> {
    owner: u32,
    /// Per slot: the value, `None` while the slot is free.
    values: Vec<Option<T>>,
    /// Per slot: `generation << 1 | live`, apart from the values so that
    /// checking a handle or turning a slot index back into one (every pair
    /// of a step) reads 8 bytes, whatever `T` is.
    stamps: Vec<u64>,
    free: Vec<u32>,
    len: usize,
    /// Inserts that took a freed slot: while this stays the same, a slot
    /// index names the same object as before (see [`Slots::reuses`]).
    reuses: u64,
    /// Set by [`Slots::adopt`]: another arena issues the handles, each
    /// insert takes the one [`Slots::dictate`] named, and no free list is
    /// kept.
    adopted: bool,
    dictated: Option<Handle>,
}

/// The handles of a [`Slots`]' live slots by index (what
/// [`Slots::live_handle_at`] reads), apart from the values so that it is
/// `Sync` for any `T`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LiveHandles<'a> {
    owner: u32,
    stamps: &'a [u64],
}

impl LiveHandles<'_> {
    /// The handle of the live slot `index`.
    #[inline]
    pub(crate) fn at(self, index: u32) -> Handle {
        let s = self.stamps[index as usize];
        debug_assert!(s & 1 == 1, "slot {index} is live");
        Handle {
            index,
            generation: (s >> 1) as u32,
            owner: self.owner,
        }
    }

    /// Whether `handle` names a live object of these slots (what
    /// [`Slots::check`] accepts).
    #[inline]
    pub(crate) fn holds(self, handle: Handle) -> bool {
        handle.owner == self.owner
            && self.stamps.get(handle.index as usize) == Some(&stamp(handle.generation, true))
    }
}

/// A slot's stamp: its generation and whether it is live.
#[inline]
fn stamp(generation: u32, live: bool) -> u64 {
    u64::from(generation) << 1 | u64::from(live)
}

impl<T> Default for Slots<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Slots<T> {
    /// An empty arena with a fresh owner id.
    ///
    /// ```
    /// use collide::Slots;
    /// let (a, b) = (Slots::<u8>::new(), Slots::<u8>::new());
    /// assert!(a.is_empty());
    /// assert_ne!(a.owner(), b.owner());
    /// ```
    pub fn new() -> Self {
        Self {
            owner: NEXT_OWNER.fetch_add(1, Ordering::Relaxed),
            values: Vec::new(),
            stamps: Vec::new(),
            free: Vec::new(),
            len: 0,
            reuses: 0,
            adopted: false,
            dictated: None,
        }
    }

    /// The owner id written into every handle of this arena.
    ///
    /// ```
    /// use collide::Slots;
    /// let mut slots = Slots::new();
    /// assert_eq!(slots.insert(0.5)?.owner(), slots.owner());
    /// # Ok::<(), collide::HandleError>(())
    /// ```
    pub fn owner(&self) -> u32 {
        self.owner
    }

    /// Number of live values.
    ///
    /// ```
    /// use collide::Slots;
    /// let mut slots = Slots::new();
    /// let a = slots.insert("a")?;
    /// slots.insert("b")?;
    /// slots.remove(a)?;
    /// assert_eq!(slots.len(), 1);
    /// # Ok::<(), collide::HandleError>(())
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no value is live.
    ///
    /// ```
    /// use collide::Slots;
    /// let mut slots = Slots::new();
    /// assert!(slots.is_empty());
    /// let h = slots.insert(())?;
    /// assert!(!slots.is_empty());
    /// slots.remove(h)?;
    /// assert!(slots.is_empty());
    /// # Ok::<(), collide::HandleError>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// One more than the largest slot index ever used: the size side tables
    /// indexed by [`Handle::index`] need.
    ///
    /// ```
    /// use collide::Slots;
    /// let mut slots = Slots::new();
    /// let hs = [slots.insert(1)?, slots.insert(2)?, slots.insert(3)?];
    /// slots.remove(hs[2])?;
    /// assert_eq!((slots.len(), slots.capacity_index()), (2, 3));
    /// let mut side_table = vec![0.0; slots.capacity_index()];
    /// side_table[hs[1].index() as usize] = 9.5;
    /// assert_eq!(side_table, [0.0, 9.5, 0.0]);
    /// # Ok::<(), collide::HandleError>(())
    /// ```
    pub fn capacity_index(&self) -> usize {
        self.values.len()
    }

    /// Stores `value` and returns its handle.
    ///
    /// ```
    /// use collide::Slots;
    /// let mut slots = Slots::new();
    /// let h = slots.insert(String::from("wall"))?;
    /// assert_eq!(slots.get(h).map(String::as_str), Some("wall"));
    /// # Ok::<(), collide::HandleError>(())
    /// ```
    pub fn insert(&mut self, value: T) -> Result<Handle, HandleError> {
        if let Some(handle) = self.dictated.take() {
            self.insert_dictated(handle, value);
            return Ok(handle);
        }
        let index = match self.free.pop() {
            Some(index) => {
                self.reuses += 1;
                index
            }
            None => {
                let index = u32::try_from(self.values.len()).map_err(|_| HandleError::Full)?;
                if index == u32::MAX {
                    return Err(HandleError::Full);
                }
                self.values.push(None);
                self.stamps.push(stamp(0, false));
                index
            }
        };
        let generation = (self.stamps[index as usize] >> 1) as u32;
        self.values[index as usize] = Some(value);
        self.stamps[index as usize] = stamp(generation, true);
        self.len += 1;
        Ok(Handle {
            index,
            generation,
            owner: self.owner,
        })
    }

    /// The slot index the next [`Slots::insert`] will use (when it
    /// succeeds).
    #[inline]
    pub(crate) fn next_index(&self) -> u32 {
        match self.free.last() {
            Some(&index) => index,
            None => self.values.len() as u32,
        }
    }

    /// Checks that `handle` addresses a live value of this arena.
    ///
    /// ```
    /// use collide::{HandleError, Slots};
    /// let mut slots = Slots::new();
    /// let h = slots.insert(7)?;
    /// assert_eq!(slots.check(h), Ok(()));
    /// slots.remove(h)?;
    /// assert_eq!(slots.check(h), Err(HandleError::Stale(h)));
    /// # Ok::<(), HandleError>(())
    /// ```
    pub fn check(&self, handle: Handle) -> Result<(), HandleError> {
        if handle.owner != self.owner {
            return Err(HandleError::Foreign {
                handle,
                expected: self.owner,
            });
        }
        if self.live_handles().holds(handle) {
            Ok(())
        } else {
            Err(HandleError::Stale(handle))
        }
    }

    /// The value, or `None` for a stale or foreign handle.
    ///
    /// ```
    /// use collide::Slots;
    /// let (mut mine, mut theirs) = (Slots::new(), Slots::new());
    /// let h = mine.insert("mine")?;
    /// theirs.insert("theirs")?; // same index 0, other owner
    /// assert_eq!(mine.get(h), Some(&"mine"));
    /// assert_eq!(theirs.get(h), None);
    /// # Ok::<(), collide::HandleError>(())
    /// ```
    pub fn get(&self, handle: Handle) -> Option<&T> {
        self.check(handle).ok()?;
        self.values[handle.index as usize].as_ref()
    }

    /// The value mutably, or a typed error for a stale or foreign handle.
    ///
    /// ```
    /// use collide::Slots;
    /// let mut slots = Slots::new();
    /// let h = slots.insert(10)?;
    /// *slots.get_mut(h)? += 5;
    /// assert_eq!(slots.get(h), Some(&15));
    /// # Ok::<(), collide::HandleError>(())
    /// ```
    pub fn get_mut(&mut self, handle: Handle) -> Result<&mut T, HandleError> {
        self.check(handle)?;
        self.values[handle.index as usize]
            .as_mut()
            .ok_or(HandleError::Stale(handle))
    }

    /// Removes and returns the value; the handle becomes stale.
    ///
    /// ```
    /// use collide::Slots;
    /// let mut slots = Slots::new();
    /// let h = slots.insert("coin")?;
    /// assert_eq!(slots.remove(h)?, "coin");
    /// assert!(slots.remove(h).is_err()); // stale now
    /// # Ok::<(), collide::HandleError>(())
    /// ```
    pub fn remove(&mut self, handle: Handle) -> Result<T, HandleError> {
        self.check(handle)?;
        let at = handle.index as usize;
        let value = self.values[at].take().ok_or(HandleError::Stale(handle))?;
        self.len -= 1;
        match handle.generation.checked_add(1) {
            Some(next) => {
                self.stamps[at] = stamp(next, false);
                if !self.adopted {
                    self.free.push(handle.index);
                }
            }
            // Retired for good, so no handle can ever come back to life.
            None => self.stamps[at] = stamp(handle.generation, false),
        }
        Ok(value)
    }

    /// The handle of the live value in slot `index`, if any. Structures that
    /// work on plain `u32` indices inside turn them back into handles with
    /// this.
    ///
    /// ```
    /// use collide::Slots;
    /// let mut slots = Slots::new();
    /// let h = slots.insert('x')?;
    /// assert_eq!(slots.handle_at(h.index()), Some(h));
    /// slots.remove(h)?;
    /// assert_eq!(slots.handle_at(h.index()), None);
    /// # Ok::<(), collide::HandleError>(())
    /// ```
    #[inline]
    pub fn handle_at(&self, index: u32) -> Option<Handle> {
        let s = *self.stamps.get(index as usize)?;
        (s & 1 == 1).then_some(Handle {
            index,
            generation: (s >> 1) as u32,
            owner: self.owner,
        })
    }

    /// How many inserts so far took a freed slot. While it stays the same,
    /// every live slot index still names the object it named before, so
    /// slot indices saved earlier can be compared without their handles.
    pub(crate) fn reuses(&self) -> u64 {
        self.reuses
    }

    /// The handle of slot `index`, which the caller knows is live (a
    /// structure's own registered object): [`Slots::handle_at`] without
    /// the check.
    #[inline]
    pub(crate) fn live_handle_at(&self, index: u32) -> Handle {
        self.live_handles().at(index)
    }

    /// The handles of the live slots, without the values: shareable across
    /// threads whatever `T` is.
    #[inline]
    pub(crate) fn live_handles(&self) -> LiveHandles<'_> {
        LiveHandles {
            owner: self.owner,
            stamps: &self.stamps,
        }
    }

    /// Live values in slot order, with their handles.
    ///
    /// ```
    /// use collide::Slots;
    /// let mut slots = Slots::new();
    /// let hs = [slots.insert('a')?, slots.insert('b')?, slots.insert('c')?];
    /// slots.remove(hs[1])?;
    /// let live: Vec<_> = slots.iter().collect();
    /// assert_eq!(live, vec![(hs[0], &'a'), (hs[2], &'c')]);
    /// # Ok::<(), collide::HandleError>(())
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (Handle, &T)> + '_ {
        let owner = self.owner;
        (self.values.iter().zip(&self.stamps))
            .enumerate()
            .filter_map(move |(i, (value, &s))| {
                value.as_ref().map(|v| {
                    (
                        Handle {
                            index: i as u32,
                            generation: (s >> 1) as u32,
                            owner,
                        },
                        v,
                    )
                })
            })
    }
}

impl<T> Slots<T> {
    /// A read-only copy for a snapshot: the same handles (owner, indices,
    /// generations) with `value` mapped by `f`. It shares the owner id, so
    /// it must never insert (it would issue handles the original may issue
    /// too); snapshots only look up.
    pub(crate) fn frozen_copy<U>(&self, f: impl Fn(&T) -> U) -> Slots<U> {
        Slots {
            owner: self.owner,
            values: self.values.iter().map(|v| v.as_ref().map(&f)).collect(),
            stamps: self.stamps.clone(),
            free: Vec::new(),
            len: self.len,
            reuses: self.reuses,
            adopted: self.adopted,
            dictated: None,
        }
    }

    /// The handle the next [`Slots::insert`] will issue (when it
    /// succeeds).
    pub(crate) fn next_handle(&self) -> Handle {
        let index = self.next_index();
        let generation = self
            .stamps
            .get(index as usize)
            .map_or(0, |&s| (s >> 1) as u32);
        Handle {
            index,
            generation,
            owner: self.owner,
        }
    }

    /// Hands the issuing of handles to the arena `owner`: from now on each
    /// insert takes the handle [`Slots::dictate`] named just before, so a
    /// structure inside another (`Auto`) gives out the outer one's handles.
    /// Only for an arena that never held anything.
    pub(crate) fn adopt(&mut self, owner: u32) {
        debug_assert!(self.values.is_empty(), "adopt a fresh arena");
        self.owner = owner;
        self.adopted = true;
    }

    /// Makes the next insert of an adopted arena take `handle`; refused
    /// ([`HandleError::Foreign`]) unless the arena was adopted by the
    /// handle's owner and its slot is free here.
    pub(crate) fn dictate(&mut self, handle: Handle) -> Result<(), HandleError> {
        let live = self
            .stamps
            .get(handle.index as usize)
            .is_some_and(|s| s & 1 == 1);
        if !self.adopted || handle.owner != self.owner || live {
            return Err(HandleError::Foreign {
                handle,
                expected: self.owner,
            });
        }
        self.dictated = Some(handle);
        Ok(())
    }

    /// Puts `value` at the slot of `handle` (checked by
    /// [`Slots::dictate`]), growing the arena with free slots up to it.
    fn insert_dictated(&mut self, handle: Handle, value: T) {
        let at = handle.index as usize;
        if at < self.values.len() {
            self.reuses += 1;
        } else {
            self.values.resize_with(at + 1, || None);
            self.stamps.resize(at + 1, stamp(0, false));
        }
        self.values[at] = Some(value);
        self.stamps[at] = stamp(handle.generation, true);
        self.len += 1;
    }
}

/// Objects removed since the last step, by handle. A step's stopped events
/// name removed handles; translating them back to what the caller knows
/// (an id, another structure's handle) needs this log.
#[derive(Debug)]
pub(crate) struct RemovedLog<T> {
    entries: Vec<(Handle, T)>,
    sorted: bool,
}

impl<T> Default for RemovedLog<T> {
    fn default() -> Self {
        Self {
            entries: Vec::new(),
            sorted: true,
        }
    }
}

impl<T: Copy> RemovedLog<T> {
    /// Records that `handle`, which stood for `value`, was removed.
    pub(crate) fn push(&mut self, handle: Handle, value: T) {
        self.entries.push((handle, value));
        self.sorted = false;
    }

    /// Sorts the log so [`RemovedLog::get`] can binary-search it; call once
    /// per step, before the lookups.
    pub(crate) fn seal(&mut self) {
        if !self.sorted {
            self.entries.sort_unstable_by_key(|(h, _)| *h);
            self.sorted = true;
        }
    }

    /// What the removed `handle` stood for, if it was removed since the
    /// last [`RemovedLog::clear`]. The log must be sealed.
    pub(crate) fn get(&self, handle: Handle) -> Option<T> {
        debug_assert!(self.sorted, "seal the log before looking up");
        self.entries
            .binary_search_by_key(&handle, |(h, _)| *h)
            .ok()
            .map(|k| self.entries[k].1)
    }

    /// Forgets every entry, keeping the memory.
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
        self.sorted = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_adopted_arena_takes_the_handles_its_owner_issues() {
        let mut outer = Slots::new();
        let mut hosted: Slots<char> = Slots::new();
        hosted.adopt(outer.owner());
        let stranger = Slots::<char>::new().next_handle();
        assert!(hosted.dictate(stranger).is_err(), "another owner's handle");
        let mut issued = Vec::new();
        for value in ['a', 'b', 'c'] {
            let next = outer.next_handle();
            hosted.dictate(next).unwrap();
            assert_eq!(hosted.insert(value).unwrap(), next);
            assert_eq!(outer.insert(()).unwrap(), next);
            issued.push(next);
        }
        assert!(hosted.dictate(issued[1]).is_err(), "a live slot");
        hosted.remove(issued[1]).unwrap();
        outer.remove(issued[1]).unwrap();
        let reused = outer.next_handle();
        assert_eq!((reused.index(), reused.generation()), (1, 1));
        hosted.dictate(reused).unwrap();
        assert_eq!(hosted.insert('d').unwrap(), reused);
        assert_eq!(hosted.get(issued[1]), None, "the old handle is stale");
        assert_eq!(hosted.get(reused), Some(&'d'));
        assert!(hosted.free.is_empty(), "the owner keeps the free list");
    }

    #[test]
    fn stale_handle_never_addresses_the_new_object() {
        let mut slots = Slots::new();
        let old = slots.insert(1).unwrap();
        slots.remove(old).unwrap();
        let new = slots.insert(2).unwrap();
        assert_eq!(old.index(), new.index());
        assert_ne!(old.generation(), new.generation());
        assert_eq!(slots.get(old), None);
        assert_eq!(slots.remove(old), Err(HandleError::Stale(old)));
        assert_eq!(slots.get(new), Some(&2));
    }

    #[test]
    fn foreign_handle_is_refused() {
        let mut a = Slots::new();
        let b: Slots<i32> = Slots::new();
        let h = a.insert(1).unwrap();
        assert!(matches!(b.check(h), Err(HandleError::Foreign { .. })));
        assert!(b.get(h).is_none());
    }

    #[test]
    fn double_remove_is_an_error() {
        let mut slots = Slots::new();
        let h = slots.insert(()).unwrap();
        assert!(slots.remove(h).is_ok());
        assert_eq!(slots.remove(h), Err(HandleError::Stale(h)));
        assert!(slots.is_empty());
    }

    #[test]
    fn exhausted_generation_retires_the_slot() {
        let mut slots = Slots::new();
        let h = slots.insert(0).unwrap();
        slots.stamps[0] = stamp(u32::MAX, true);
        let h = Handle {
            generation: u32::MAX,
            ..h
        };
        slots.remove(h).unwrap();
        assert_eq!(slots.check(h), Err(HandleError::Stale(h)));
        assert_eq!(slots.handle_at(h.index()), None);
        let next = slots.insert(1).unwrap();
        assert_ne!(next.index(), h.index(), "a retired slot is never reused");
    }

    #[test]
    fn iteration_is_in_slot_order() {
        let mut slots = Slots::new();
        let hs: Vec<_> = (0..5).map(|i| slots.insert(i).unwrap()).collect();
        slots.remove(hs[1]).unwrap();
        slots.remove(hs[3]).unwrap();
        let left: Vec<_> = slots.iter().map(|(_, v)| *v).collect();
        assert_eq!(left, vec![0, 2, 4]);
    }
}
