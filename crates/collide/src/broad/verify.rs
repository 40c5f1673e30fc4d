//! [`Verified`]: runs any structure beside brute force on every step and
//! reports the first divergence. Develop with this check
//! on; every structure's tests use it.

use super::brute::Brute;
use super::contract::{BroadPhase, StepStats, check_batch_lengths};
use super::events::{FrameEvents, Pair};
use super::snapshot::Snapshot;
use crate::broad::Query;
use crate::error::Error;
use crate::geometry::{Aabb, Vector};
use crate::handle::{Handle, HandleError, RemovedLog};
use std::fmt;
use std::marker::PhantomData;
use std::ops::ControlFlow;
use std::sync::Arc;

/// Which list of a step disagreed with brute force.
///
/// ```
/// use collide::broad::{EventList, Mistake};
/// use collide::{Divergence, Pair, Slots};
/// let mut slots = Slots::new();
/// let pair = Pair::new(slots.insert(())?, slots.insert(())?);
/// let d = Divergence {
///     structure: "grid".into(),
///     frame: 2,
///     list: EventList::Pairs,
///     pair,
///     mistake: Mistake::Missed,
/// };
/// assert!(d.to_string().contains("missed the current pair"));
/// # Ok::<(), collide::HandleError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventList {
    /// The started events.
    Started,
    /// The stopped events.
    Stopped,
    /// The current pair list.
    Pairs,
}

/// Which side got it wrong.
///
/// ```
/// use collide::broad::{EventList, Mistake};
/// use collide::{Divergence, Pair, Slots};
/// let mut slots = Slots::new();
/// let pair = Pair::new(slots.insert(())?, slots.insert(())?);
/// let d = Divergence {
///     structure: "grid".into(),
///     frame: 0,
///     list: EventList::Stopped,
///     pair,
///     mistake: Mistake::Invented,
/// };
/// assert!(d.to_string().contains("invented the stopped event"));
/// # Ok::<(), collide::HandleError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mistake {
    /// Brute force has the pair; the structure does not.
    Missed,
    /// The structure has the pair; brute force does not.
    Invented,
}

/// The first disagreement between a structure and brute force.
///
/// [`Verified`] produces it; its message names the frame, the structure,
/// the list and the pair.
///
/// ```
/// use collide::broad::{EventList, Mistake};
/// use collide::{Divergence, Pair, Slots};
/// let mut slots = Slots::new();
/// let pair = Pair::new(slots.insert(())?, slots.insert(())?);
/// let d = Divergence {
///     structure: "grid".into(),
///     frame: 3,
///     list: EventList::Started,
///     pair,
///     mistake: Mistake::Missed,
/// };
/// assert_eq!(
///     d.to_string(),
///     "frame 3: grid missed the started event (#0v0, #1v0) that brute force reports"
/// );
/// # Ok::<(), collide::HandleError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The structure's name.
    pub structure: String,
    /// The step, counting from 0 for the first call to `step`.
    pub frame: u64,
    /// Which list disagreed.
    pub list: EventList,
    /// The pair, in the checked structure's handles.
    pub pair: Pair,
    /// Whether the structure missed or invented the pair.
    pub mistake: Mistake,
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = match self.list {
            EventList::Started => "started event",
            EventList::Stopped => "stopped event",
            EventList::Pairs => "current pair",
        };
        match self.mistake {
            Mistake::Missed => write!(
                f,
                "frame {}: {} missed the {} {} that brute force reports",
                self.frame, self.structure, list, self.pair
            ),
            Mistake::Invented => write!(
                f,
                "frame {}: {} invented the {} {} that brute force does not report",
                self.frame, self.structure, list, self.pair
            ),
        }
    }
}

impl std::error::Error for Divergence {}

/// [`Verified::new`] was given a structure that already holds objects, which
/// the brute-force reference beside it would not know.
///
/// ```
/// use collide::{Aabb2, BroadPhase, Brute, NotEmptyError, Verified};
/// use glam::Vec2;
/// let mut world: Brute<Vec2> = Brute::new();
/// world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
/// let err = Verified::new(world).unwrap_err();
/// assert_eq!(err, NotEmptyError { objects: 1 });
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "a verified structure must start empty, but this one holds {objects} objects; \
     wrap it in Verified before inserting"
)]
pub struct NotEmptyError {
    /// Objects the structure held.
    pub objects: usize,
}

/// A structure checked against brute force on every step.
///
/// It forwards every call to the wrapped structure and to a [`Brute`] beside
/// it, and after each step compares started events, stopped events and the
/// pair list. The first disagreement ever seen is kept
/// ([`Verified::divergence`]); [`Verified::step_checked`] returns the
/// current step's first disagreement as an error.
///
/// ```
/// use collide::{Aabb2, BroadPhase, Brute, Verified};
/// use glam::Vec2;
/// let mut world = Verified::new(Brute::<Vec2, u32>::new())?;
/// let h = world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, 7)?;
/// world.insert(Aabb2::new(Vec2::splat(0.5), Vec2::splat(1.5))?, 8)?;
/// let events = world.step_checked()?;
/// assert_eq!(events.started.len(), 1);
/// assert_eq!(world.value(h), Some(&7));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Verified<V: Vector, T, S> {
    inner: S,
    _value: PhantomData<fn() -> T>,
    reference: Brute<V, Handle>,
    /// Reference handle for each inner handle index.
    to_reference: Vec<Option<Handle>>,
    /// Removed since the last step: reference handle to inner handle, to
    /// translate the reference's stopped events.
    removed: RemovedLog<Handle>,
    frame: u64,
    /// The first divergence ever seen.
    divergence: Option<Divergence>,
    /// The divergence of the last step, if it had one.
    last_divergence: Option<Divergence>,
    /// The reference's output of the last step, in inner handles.
    expected: FrameEvents,
    expected_pairs: Vec<Pair>,
}

impl<V: Vector, T, S> Verified<V, T, S> {
    /// Wraps `inner`, which must be empty: objects already in it would be
    /// unknown to the reference.
    ///
    /// ```
    /// use collide::{BroadPhase, Brute, Verified, Query};
    /// use glam::Vec3;
    /// let world = Verified::new(Brute::<Vec3, u64>::new())?;
    /// assert!(world.is_empty());
    /// assert_eq!(world.name(), "brute"); // the wrapped structure's name
    /// # Ok::<(), collide::NotEmptyError>(())
    /// ```
    pub fn new(inner: S) -> Result<Self, NotEmptyError>
    where
        S: BroadPhase<V, T>,
    {
        if !inner.is_empty() {
            return Err(NotEmptyError {
                objects: inner.len(),
            });
        }
        Ok(Self {
            inner,
            _value: PhantomData,
            reference: Brute::new(),
            to_reference: Vec::new(),
            removed: RemovedLog::default(),
            frame: 0,
            divergence: None,
            last_divergence: None,
            expected: FrameEvents::default(),
            expected_pairs: Vec::new(),
        })
    }

    /// The first divergence seen, if any.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute, Verified};
    /// use glam::Vec2;
    /// let mut world = Verified::new(Brute::<Vec2>::new())?;
    /// world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// world.step();
    /// assert_eq!(world.divergence(), None); // brute force agrees with itself
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn divergence(&self) -> Option<&Divergence> {
        self.divergence.as_ref()
    }

    /// The wrapped structure.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute, Verified, Query};
    /// use glam::Vec2;
    /// let mut world = Verified::new(Brute::<Vec2>::new())?;
    /// world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// assert_eq!(world.inner().len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// Unwraps the structure.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute, Verified};
    /// use glam::Vec2;
    /// let mut world = Verified::new(Brute::<Vec2, &str>::new())?;
    /// let h = world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, "kept")?;
    /// let brute: Brute<Vec2, &str> = world.into_inner();
    /// assert_eq!(brute.value(h), Some(&"kept"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn into_inner(self) -> S {
        self.inner
    }

    /// The reference handle of the inner `handle`: the one whose stored
    /// inner handle (generation included) is exactly `handle`. An inner
    /// structure that wrongly accepted a stale handle gets it refused here
    /// rather than applied to the object now in the slot.
    fn reference_of(&self, handle: Handle) -> Result<Handle, Error> {
        self.to_reference
            .get(handle.index() as usize)
            .copied()
            .flatten()
            .filter(|r| self.reference.value(*r) == Some(&handle))
            .ok_or(Error::Handle(HandleError::Stale(handle)))
    }

    fn to_inner(&self, reference: Handle) -> Handle {
        self.reference
            .value(reference)
            .copied()
            .or_else(|| self.removed.get(reference))
            .expect("every reference handle maps to an inner handle")
    }

    fn translate(&self, pairs: &[Pair], out: &mut Vec<Pair>) {
        out.clear();
        out.extend(
            pairs
                .iter()
                .map(|p| Pair::new(self.to_inner(p.a()), self.to_inner(p.b()))),
        );
        out.sort_unstable();
    }
}

impl<V: Vector, T, S: BroadPhase<V, T>> Verified<V, T, S> {
    /// Steps and returns the events, or the divergence if this step's
    /// events or pairs disagree with brute force.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute, Verified};
    /// use glam::Vec2;
    /// let mut world = Verified::new(Brute::<Vec2>::new())?;
    /// let a = world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// assert_eq!(world.step_checked()?.started.len(), 1);
    /// world.remove(a)?;
    /// assert_eq!(world.step_checked()?.stopped.len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn step_checked(&mut self) -> Result<Arc<FrameEvents>, Divergence> {
        let events = self.step();
        match &self.last_divergence {
            Some(d) => Err(d.clone()),
            None => Ok(events),
        }
    }

    /// The first disagreement of the last step, if it had one.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Brute, Verified};
    /// use glam::Vec2;
    /// let mut world = Verified::new(Brute::<Vec2>::new())?;
    /// world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
    /// world.step();
    /// assert!(world.last_divergence().is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn last_divergence(&self) -> Option<&Divergence> {
        self.last_divergence.as_ref()
    }

    /// The first difference between the reference's translated output and
    /// the inner structure's output of the step just taken.
    fn first_divergence(&self) -> Option<Divergence> {
        let checks = [
            (
                EventList::Started,
                &self.expected.started[..],
                &self.inner.events().started[..],
            ),
            (
                EventList::Stopped,
                &self.expected.stopped[..],
                &self.inner.events().stopped[..],
            ),
            (
                EventList::Pairs,
                &self.expected_pairs[..],
                self.inner.pairs(),
            ),
        ];
        checks.into_iter().find_map(|(list, expected, actual)| {
            first_difference(expected, actual).map(|(pair, mistake)| Divergence {
                structure: self.inner.name().to_string(),
                frame: self.frame,
                list,
                pair,
                mistake,
            })
        })
    }
}

/// The first pair where two sorted lists differ, and which side lacks it.
fn first_difference(expected: &[Pair], actual: &[Pair]) -> Option<(Pair, Mistake)> {
    let (mut i, mut j) = (0, 0);
    loop {
        match (expected.get(i), actual.get(j)) {
            (None, None) => return None,
            (Some(e), None) => return Some((*e, Mistake::Missed)),
            (None, Some(a)) => return Some((*a, Mistake::Invented)),
            (Some(e), Some(a)) if e == a => {
                i += 1;
                j += 1;
            }
            (Some(e), Some(a)) if e < a => return Some((*e, Mistake::Missed)),
            (Some(_), Some(a)) => return Some((*a, Mistake::Invented)),
        }
    }
}

impl<V: Vector, T, S: BroadPhase<V, T>> Query<V> for Verified<V, T, S> {
    super::read::query_through!(inner);
}

impl<V: Vector, T, S: BroadPhase<V, T>> BroadPhase<V, T> for Verified<V, T, S> {
    fn insert(&mut self, aabb: Aabb<V>, value: T) -> Result<Handle, Error> {
        let handle = self.inner.insert(aabb, value)?;
        let reference = match self.reference.insert(aabb, handle) {
            Ok(r) => r,
            Err(e) => {
                let _ = self.inner.remove(handle);
                return Err(e);
            }
        };
        let index = handle.index() as usize;
        if self.to_reference.len() <= index {
            self.to_reference.resize(index + 1, None);
        }
        self.to_reference[index] = Some(reference);
        Ok(handle)
    }
    fn update(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<(), Error> {
        self.inner.update(handle, aabb)?;
        let reference = self.reference_of(handle)?;
        self.reference.update(reference, aabb)
    }
    fn update_many(&mut self, handles: &[Handle], boxes: &[Aabb<V>]) -> Result<(), Error> {
        // The structure's own batch path (split across threads for a grid),
        // then the reference move by move, up to the first handle the
        // structure refused (which has no reference either).
        check_batch_lengths(handles, boxes)?;
        let applied = self.inner.update_many(handles, boxes);
        for (&handle, &aabb) in handles.iter().zip(boxes) {
            let Ok(reference) = self.reference_of(handle) else {
                break;
            };
            self.reference.update(reference, aabb)?;
        }
        applied
    }
    fn remove(&mut self, handle: Handle) -> Result<T, Error> {
        let value = self.inner.remove(handle)?;
        let reference = self.reference_of(handle)?;
        self.to_reference[handle.index() as usize] = None;
        self.reference.remove(reference)?;
        self.removed.push(reference, handle);
        Ok(value)
    }
    fn step(&mut self) -> Arc<FrameEvents> {
        self.reference.step();
        self.removed.seal();
        let (mut expected, mut expected_pairs) = (
            std::mem::take(&mut self.expected),
            std::mem::take(&mut self.expected_pairs),
        );
        self.translate(&self.reference.events().started, &mut expected.started);
        self.translate(&self.reference.events().stopped, &mut expected.stopped);
        self.translate(self.reference.pairs(), &mut expected_pairs);
        (self.expected, self.expected_pairs) = (expected, expected_pairs);
        self.removed.clear();

        let events = self.inner.step();
        self.last_divergence = self.first_divergence();
        if self.divergence.is_none() {
            self.divergence.clone_from(&self.last_divergence);
        }
        self.frame += 1;
        events
    }
    fn events(&self) -> &FrameEvents {
        self.inner.events()
    }
    fn pairs(&self) -> &[Pair] {
        self.inner.pairs()
    }
    fn stats(&self) -> StepStats {
        self.inner.stats()
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
