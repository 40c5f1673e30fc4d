//! `auto`: a broad phase that measures its scene and runs the structure
//! that suits it, switching when the scene changes character (issue 10).
//!
//! `Auto` issues its own handles and holds one of the other structures
//! inside, whose handles it maps to its own; a step's events are the inner
//! structure's, mapped. Every [`AutoConfig::review_every`] steps it
//! measures the scene ([`SceneProfile`]: variance of the centres per axis,
//! spread of sizes, share of world-spanning objects, coherence of the
//! motion, clustering) and picks a structure with [`choose_structure`], the
//! decision table of seed 000 as a function. It switches once the same
//! other pick has come up [`AutoConfig::confirm`] reviews in a row
//! (hysteresis, so a scene on the edge of a rule does not flap).
//!
//! A switch loses nothing (seed 002): the new structure is built beside
//! the running one, a share of the objects each step over
//! [`AutoConfig::switch_frames`] steps, with every move and removal
//! applied to both, while the running one answers. On the step it holds
//! every object both structures step; the events are the running one's,
//! and since both find exactly the overlapping pairs, the new one carries
//! on from the same pairs. A switch made at once ([`Auto::switch_to`],
//! the first step, an object count that changed fourfold) keeps the pairs
//! from before and makes the next step's events their difference from the
//! new structure's pairs.
//!
//! Pick `auto` when the scene is not known in advance (a level editor, a
//! game whose levels differ) or changes character while it runs. Cost:
//! the inner structure's, plus per call a lookup of its own handle, per
//! step its events mapped to `Auto`'s handles, per review a sample of at
//! most 1,024 boxes measured (and sorted along one axis the step before),
//! and during a switch the second structure's inserts and a doubled move
//! for every object it holds. [`Auto::pairs`] maps the inner pair list
//! when first asked after a step.

mod inner_map;
mod profile;

pub use profile::{Choice, SceneProfile, choose_structure};

use super::contract::{BroadPhase, StepStats};
use super::events::{FrameEvents, Pair};
use super::headroom::{keep_headroom, reserve_headroom};
use super::query::{QueryBudget, QueryStats};
use super::registry::{STRUCTURE_NAMES, structure_by_name};
use crate::error::Error;
use crate::geometry::{Aabb, Region, Vector};
use crate::handle::{Handle, Slots};
use inner_map::InnerMap;
use profile::{Profiler, SMALL_SCENE};
use std::ops::ControlFlow;
use std::sync::{Mutex, OnceLock, PoisonError};

/// When `Auto` reviews its choice and how it switches. See
/// [`AutoConfig::default`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AutoConfig {
    /// Steps between reviews, `>= 1`.
    pub review_every: u32,
    /// Reviews in a row that must pick the same other structure before
    /// `Auto` switches to it, `>= 1`.
    pub confirm: u32,
    /// Steps a switch takes, `>= 1`: the new structure is built beside
    /// the running one, which answers meanwhile, taking this many shares
    /// of the objects, one a step (moves and removals reach both); on the
    /// last both step, the events are the running one's, and the new one,
    /// having found the same pairs, carries on from them.
    pub switch_frames: u32,
}

impl Default for AutoConfig {
    /// A review every 30 steps; a switch after 2 agreeing reviews, built
    /// over 4 steps.
    fn default() -> Self {
        Self {
            review_every: 30,
            confirm: 2,
            switch_frames: 4,
        }
    }
}

/// What `Auto` runs, since when and why ([`Auto::status`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AutoStatus {
    /// The structure running now.
    pub structure: &'static str,
    /// The step (counted from 0) from which it has run.
    pub since_step: u64,
    /// Why it was picked: [`Choice::reason`], or "switched by hand".
    pub reason: &'static str,
    /// The structure being built to take over, if a switch is under way.
    pub switching_to: Option<&'static str>,
    /// Switches so far.
    pub switches: u64,
    /// Steps taken so far.
    pub steps: u64,
    /// What the last review measured.
    pub profile: SceneProfile,
}

/// One object: its value and its handle in the running structure (which
/// keeps the box). Small, since every call reads it.
struct Object<T> {
    value: T,
    inner: Handle,
}

/// A switch under way: the structure being built and how far.
struct Migration<V: Vector> {
    next: Box<dyn BroadPhase<V, u32> + Send>,
    map: InnerMap,
    /// By slot: the object's handle in `next`, once it holds it.
    handles: Vec<Option<Handle>>,
    /// Slots below this have been offered to `next`.
    cursor: u32,
    choice: Choice,
}

impl<V: Vector> Migration<V> {
    /// The handle in `next` of slot `slot`, if it holds it yet.
    fn handle(&self, slot: u32) -> Option<Handle> {
        self.handles.get(slot as usize).copied().flatten()
    }

    fn set_handle(&mut self, slot: u32, handle: Option<Handle>) {
        let i = slot as usize;
        if self.handles.len() <= i {
            self.handles.resize(i + 1, None);
        }
        self.handles[i] = handle;
    }
}

/// `auto`: the structure that suits the scene, chosen and switched by
/// measurement. A switch loses nothing: see [`AutoConfig::switch_frames`]
/// and [`Auto::switch_to`].
///
/// ```
/// use collide::{Aabb2, Auto, BroadPhase};
/// use glam::Vec2;
/// let mut world: Auto<Vec2, &str> = Auto::new();
/// let a = world.insert(Aabb2::new(Vec2::ZERO, Vec2::splat(2.0))?, "crate")?;
/// let b = world.insert(Aabb2::new(Vec2::ONE, Vec2::splat(3.0))?, "barrel")?;
/// assert_eq!(world.step().started.len(), 1);
/// assert_eq!(world.current(), "brute"); // two objects
/// world.switch_to("sap")?; // by hand; a review does the same
/// assert_eq!(world.current(), "sap");
/// assert!(world.step().is_empty()); // the pair goes on: no event
/// world.remove(b)?;
/// assert_eq!(world.step().stopped.len(), 1);
/// println!("{}", world.status().reason); // "switched by hand"
/// # let _ = a;
/// # Ok::<(), collide::Error>(())
/// ```
pub struct Auto<V: Vector, T = ()> {
    objects: Slots<Object<T>>,
    inner: Box<dyn BroadPhase<V, u32> + Send>,
    map: InnerMap,
    migration: Option<Migration<V>>,
    /// Set by a switch made at once: the pairs of the last step, from
    /// which the next step's events are the difference.
    before: Vec<Pair>,
    diff_pending: bool,
    events: FrameEvents,
    /// The inner pairs mapped to `Auto`'s handles, made when first asked
    /// after a step; `spare_pairs` keeps the memory between steps.
    pairs: OnceLock<Vec<Pair>>,
    spare_pairs: Mutex<Vec<Pair>>,
    config: AutoConfig,
    stats: StepStats,
    status: AutoStatus,
    /// The pick of the last reviews that differs from the current
    /// structure, and how many reviews in a row made it.
    pending: Option<(&'static str, u32)>,
    objects_at_review: usize,
    profiler: Profiler,
    /// Scratch for reviews: the boxes and their slots.
    boxes: Vec<Aabb<V>>,
    slots: Vec<u32>,
}

impl<V: Vector, T: Send> Default for Auto<V, T> {
    fn default() -> Self {
        Self::new()
    }
}

/// The registered name equal to `name`, unless it is `auto`.
fn inner_name(name: &str) -> Result<&'static str, Error> {
    STRUCTURE_NAMES
        .iter()
        .copied()
        .find(|&n| n == name && n != "auto")
        .ok_or(Error::Setting {
            name: "structure",
            value: f64::NAN,
            expected: "one of collide::STRUCTURE_NAMES other than auto",
        })
}

/// Objects a review measures at most: a sample of every k-th slot beyond
/// this many (the statistics are shares, ratios and percentiles, which a
/// sample of a thousand gives closely enough for the decision).
const SAMPLE: usize = 1024;

/// Maps `pairs` of an inner structure through `map` into `out` (cleared),
/// sorted.
fn map_pairs(pairs: &[Pair], map: &InnerMap, out: &mut Vec<Pair>) {
    out.clear();
    out.extend(
        pairs
            .iter()
            .map(|p| Pair::new(map.get(p.a()), map.get(p.b()))),
    );
    if !out.is_sorted() {
        out.sort_unstable();
    }
}

impl<V: Vector, T: Send> Auto<V, T> {
    /// An empty `Auto` with [`AutoConfig::default`]; it starts as
    /// brute force and picks at its first step.
    pub fn new() -> Self {
        Self::with_config(AutoConfig::default()).expect("the default settings are valid")
    }

    /// An empty `Auto` with `config`; [`Error::Setting`] for a zero
    /// `review_every`, `confirm` or `switch_frames`.
    ///
    /// ```
    /// use collide::{Auto, AutoConfig, Error};
    /// use glam::Vec2;
    /// let bad = AutoConfig { review_every: 0, ..AutoConfig::default() };
    /// assert!(matches!(Auto::<Vec2>::with_config(bad), Err(Error::Setting { name: "review_every", .. })));
    /// ```
    pub fn with_config(config: AutoConfig) -> Result<Self, Error> {
        for (name, value) in [
            ("review_every", config.review_every),
            ("confirm", config.confirm),
            ("switch_frames", config.switch_frames),
        ] {
            if value == 0 {
                return Err(Error::Setting {
                    name,
                    value: 0.0,
                    expected: "at least 1",
                });
            }
        }
        Ok(Self {
            objects: Slots::new(),
            inner: structure_by_name::<V, u32>("brute").expect("brute is registered"),
            map: InnerMap::default(),
            migration: None,
            before: Vec::new(),
            diff_pending: false,
            events: FrameEvents::default(),
            pairs: OnceLock::new(),
            spare_pairs: Mutex::new(Vec::new()),
            config,
            stats: StepStats::default(),
            status: AutoStatus {
                structure: "brute",
                since_step: 0,
                reason: "nothing measured yet",
                switching_to: None,
                switches: 0,
                steps: 0,
                profile: SceneProfile::default(),
            },
            pending: None,
            objects_at_review: 0,
            profiler: Profiler::default(),
            boxes: Vec::new(),
            slots: Vec::new(),
        })
    }

    /// The name of the structure running inside.
    pub fn current(&self) -> &'static str {
        self.status.structure
    }

    /// How many times `Auto` has switched structure.
    pub fn switches(&self) -> u64 {
        self.status.switches
    }

    /// What the last review measured.
    pub fn last_profile(&self) -> SceneProfile {
        self.status.profile
    }

    /// What runs, since which step, why, and what the last review
    /// measured.
    ///
    /// ```
    /// use collide::{Aabb2, Auto, BroadPhase};
    /// use glam::Vec2;
    /// let mut world: Auto<Vec2> = Auto::new();
    /// for i in 0..100 {
    ///     let x = i as f32 * 3.0;
    ///     world.insert(Aabb2::new(Vec2::new(x, 0.0), Vec2::new(x + 1.0, 1.0))?, ())?;
    /// }
    /// world.step();
    /// let status = world.status();
    /// assert_eq!((status.structure, status.since_step), ("sap1", 0));
    /// assert_eq!(status.profile.objects, 100);
    /// println!("{} since step {}: {}", status.structure, status.since_step, status.reason);
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn status(&self) -> AutoStatus {
        self.status
    }

    /// Runs the structure `name` (one of
    /// [`STRUCTURE_NAMES`](crate::STRUCTURE_NAMES) but `auto`) from now
    /// on, built from every object at once; a switch under way is given
    /// up. Handles, pairs and events go on unchanged: the next step's
    /// events are the difference of its pairs from the last step's.
    /// [`Error::Setting`] for an unknown name.
    pub fn switch_to(&mut self, name: &str) -> Result<(), Error> {
        let structure = inner_name(name)?;
        self.switch_now(Choice {
            structure,
            reason: "switched by hand",
        })
    }

    /// [`Auto::switch_to`] for `choice`.
    fn switch_now(&mut self, choice: Choice) -> Result<(), Error> {
        let mut next = structure_by_name::<V, u32>(choice.structure)
            .expect("inner_name and choose_structure give registered names");
        // Built aside: an error leaves the running structure as it was.
        let inner = &self.inner;
        let placed = self
            .objects
            .iter()
            .map(|(h, o)| {
                let aabb = inner.aabb(o.inner).expect("the running structure holds it");
                next.insert(aabb, h.index()).map(|placed| (h, placed))
            })
            .collect::<Result<Vec<_>, Error>>()?;
        if !self.diff_pending {
            let mut before = std::mem::take(&mut self.before);
            before.clear();
            before.extend_from_slice(self.pairs());
            self.before = before;
            self.diff_pending = true;
        }
        self.give_up_migration();
        self.map.clear();
        for (h, inner) in placed {
            self.objects.get_mut(h)?.inner = inner;
            self.map.insert(inner, h);
        }
        self.inner = next;
        self.took_over(choice);
        Ok(())
    }

    /// Records that `choice` runs from this step on.
    fn took_over(&mut self, choice: Choice) {
        self.pending = None;
        self.status.structure = choice.structure;
        self.status.reason = choice.reason;
        self.status.since_step = self.status.steps;
        self.status.switches += 1;
        self.status.switching_to = None;
    }

    /// Drops a switch under way.
    fn give_up_migration(&mut self) {
        self.migration = None;
        self.status.switching_to = None;
    }

    /// Starts building `choice` beside the running structure.
    fn begin_migration(&mut self, choice: Choice) {
        self.give_up_migration();
        self.migration = Some(Migration {
            next: structure_by_name::<V, u32>(choice.structure)
                .expect("choose_structure gives registered names"),
            map: InnerMap::default(),
            handles: Vec::new(),
            cursor: 0,
            choice,
        });
        self.status.switching_to = Some(choice.structure);
    }

    /// Gives the structure being built its next share of the objects;
    /// true once it holds them all.
    fn advance_migration(&mut self) -> bool {
        let Some(m) = &mut self.migration else {
            return false;
        };
        let total = self.objects.capacity_index() as u32;
        let share = total.div_ceil(self.config.switch_frames).max(1);
        let end = m.cursor.saturating_add(share).min(total);
        for slot in m.cursor..end {
            let Some(h) = self.objects.handle_at(slot) else {
                continue;
            };
            if m.handle(slot).is_none() {
                let inner = self.objects.get(h).expect("a live handle").inner;
                let aabb = self
                    .inner
                    .aabb(inner)
                    .expect("the running structure holds it");
                let next = m
                    .next
                    .insert(aabb, slot)
                    .expect("every structure takes the boxes the running one took");
                m.set_handle(slot, Some(next));
                m.map.insert(next, h);
            }
        }
        m.cursor = end;
        end >= total
    }

    /// The step the structure being built holds every object: it steps
    /// too (its pairs are the running one's) and runs from now on.
    fn take_over(&mut self) {
        let Some(mut m) = self.migration.take() else {
            return;
        };
        m.next.step();
        debug_assert_eq!(m.next.pairs().len(), self.inner.pairs().len());
        for (slot, o) in self.objects.iter_slots_mut() {
            o.inner = m
                .handle(slot)
                .expect("the new structure holds every object");
        }
        self.inner = m.next;
        self.map = m.map;
        self.took_over(m.choice);
    }

    /// Before a step: every `review_every` steps (and at once when the
    /// object count changed fourfold since the last review), measure,
    /// pick, and switch once the same other pick has come `confirm` times
    /// in a row. The step before a review keeps the order along the sweep
    /// axis, for the coherence.
    fn review(&mut self) {
        let steps = self.status.steps;
        let n = self.objects.len();
        let last = self.objects_at_review.max(SMALL_SCENE);
        let jumped = n > 4 * last || (self.objects_at_review > SMALL_SCENE && 4 * n < last);
        let every = u64::from(self.config.review_every);
        let review = steps.is_multiple_of(every) || jumped;
        let keep = (steps + 1).is_multiple_of(every);
        if review || keep {
            self.gather_boxes();
        }
        if review {
            let (objects, inner) = (&self.objects, &self.inner);
            let coherence = self.profiler.coherence(|slot| {
                let h = objects.handle_at(slot)?;
                inner.aabb(objects.get(h)?.inner)
            });
            let mut profile = self.profiler.measure(|| self.boxes.iter());
            profile.objects = n;
            profile.coherence = coherence;
            self.status.profile = profile;
            self.objects_at_review = n;
            self.decide(choose_structure(&profile), steps == 0 || jumped);
        }
        if keep {
            self.profiler.keep_order(
                self.slots.iter().copied().zip(&self.boxes),
                self.status.profile.sweep_axis,
            );
        }
    }

    /// The boxes (from the running structure) and slots of a sample of
    /// the objects, every k-th slot for at most [`SAMPLE`] of them, into
    /// the review's scratch: a review costs the same whatever the count.
    fn gather_boxes(&mut self) {
        self.boxes.clear();
        self.slots.clear();
        let stride = self.objects.len().div_ceil(SAMPLE).max(1);
        let capacity = self.objects.capacity_index() as u32;
        for slot in (0..capacity).step_by(stride) {
            let Some(h) = self.objects.handle_at(slot) else {
                continue;
            };
            let inner = self.objects.get(h).expect("a live handle").inner;
            self.boxes.push(
                self.inner
                    .aabb(inner)
                    .expect("the running structure holds it"),
            );
            self.slots.push(slot);
        }
    }

    /// Acts on a review's pick: nothing when it is running, or being built;
    /// at once when `now`; otherwise once `confirm` reviews agree.
    fn decide(&mut self, choice: Choice, now: bool) {
        if choice.structure == self.status.structure {
            self.status.reason = choice.reason;
            self.pending = None;
            self.give_up_migration();
            return;
        }
        if self.status.switching_to == Some(choice.structure) {
            return;
        }
        let agreeing = match self.pending {
            Some((name, count)) if name == choice.structure => count + 1,
            _ => 1,
        };
        if now {
            self.switch_now(choice)
                .expect("a rebuild of valid boxes under fresh handles succeeds");
        } else if agreeing >= self.config.confirm {
            self.pending = None;
            self.begin_migration(choice);
        } else {
            self.pending = Some((choice.structure, agreeing));
        }
    }

    /// Maps the inner structure's events to `Auto`'s handles.
    fn map_events(&mut self) {
        let events = self.inner.events();
        let map = &self.map;
        for (from, to) in [
            (&events.started, &mut self.events.started),
            (&events.stopped, &mut self.events.stopped),
        ] {
            to.clear();
            reserve_headroom(to, from.len());
            to.extend(
                from.iter()
                    .map(|p| Pair::new(map.get(p.a()), map.get(p.b()))),
            );
            if !to.is_sorted() {
                to.sort_unstable();
            }
        }
    }

    /// Frees the mapped pair list for reuse, after a step or a switch.
    fn drop_mapped_pairs(&mut self) {
        if let Some(pairs) = self.pairs.take() {
            *self
                .spare_pairs
                .get_mut()
                .unwrap_or_else(PoisonError::into_inner) = pairs;
        }
    }

    /// The error for a handle `objects` refuses.
    #[cold]
    fn refusal(&self, handle: Handle) -> Error {
        self.objects
            .check(handle)
            .expect_err("a handle the arena refused")
            .into()
    }

    /// `Auto`'s handle of a live inner handle.
    fn handle_of(&self, inner: Handle) -> Handle {
        self.map.get(inner)
    }
}

impl<V: Vector, T: Send> BroadPhase<V, T> for Auto<V, T> {
    fn name(&self) -> &str {
        "auto"
    }

    fn insert(&mut self, aabb: Aabb<V>, value: T) -> Result<Handle, Error> {
        // The inner structures first: an error leaves nothing behind.
        let slot = self.objects.next_index();
        let inner = self.inner.insert(aabb, slot)?;
        let next = match &mut self.migration {
            Some(m) => match m.next.insert(aabb, slot) {
                Ok(next) => Some(next),
                Err(e) => {
                    self.inner.remove(inner).expect("just inserted");
                    return Err(e);
                }
            },
            None => None,
        };
        let object = Object { value, inner };
        let handle = match self.objects.insert(object) {
            Ok(h) => h,
            Err(e) => {
                self.inner.remove(inner).expect("just inserted");
                if let (Some(m), Some(next)) = (&mut self.migration, next) {
                    m.next.remove(next).expect("just inserted");
                }
                return Err(e.into());
            }
        };
        debug_assert_eq!(handle.index(), slot);
        self.map.insert(inner, handle);
        if let (Some(m), Some(next)) = (&mut self.migration, next) {
            m.map.insert(next, handle);
            m.set_handle(slot, Some(next));
        }
        Ok(handle)
    }

    fn update(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<(), Error> {
        let inner = self
            .objects
            .get(handle)
            .ok_or_else(|| self.refusal(handle))?
            .inner;
        let Some(m) = &mut self.migration else {
            return self.inner.update(inner, aabb);
        };
        let Some(next) = m.handle(handle.index()) else {
            return self.inner.update(inner, aabb);
        };
        let before = self
            .inner
            .aabb(inner)
            .expect("the running structure holds it");
        self.inner.update(inner, aabb)?;
        if let Err(e) = m.next.update(next, aabb) {
            // Undone, so that both structures hold the same boxes.
            self.inner
                .update(inner, before)
                .expect("the box it held before");
            return Err(e);
        }
        Ok(())
    }

    fn remove(&mut self, handle: Handle) -> Result<T, Error> {
        let object = self.objects.remove(handle)?;
        self.inner.remove(object.inner)?;
        if let Some(m) = &mut self.migration
            && let Some(next) = m.handle(handle.index())
        {
            m.set_handle(handle.index(), None);
            m.next.remove(next)?;
        }
        Ok(object.value)
    }

    fn step(&mut self) -> &FrameEvents {
        self.review();
        let complete = self.advance_migration();
        self.inner.step();
        self.map.prepare();
        self.drop_mapped_pairs();
        if self.diff_pending {
            let mut current = std::mem::take(
                self.spare_pairs
                    .get_mut()
                    .unwrap_or_else(PoisonError::into_inner),
            );
            reserve_headroom(&mut current, self.inner.pairs().len());
            map_pairs(self.inner.pairs(), &self.map, &mut current);
            self.events.set_difference(&self.before, &current);
            keep_headroom(&mut self.events.started);
            keep_headroom(&mut self.events.stopped);
            self.pairs
                .set(current)
                .expect("the mapped pairs were dropped above");
            self.diff_pending = false;
        } else {
            self.map_events();
        }
        let inner = self.inner.stats();
        if complete {
            self.take_over();
        }
        self.map.forget_retired();
        self.stats = StepStats {
            objects: self.objects.len(),
            candidates_tested: inner.candidates_tested,
            maintenance_ops: inner.maintenance_ops,
            pairs: inner.pairs,
            started: self.events.started.len(),
            stopped: self.events.stopped.len(),
        };
        self.status.steps += 1;
        &self.events
    }

    fn events(&self) -> &FrameEvents {
        &self.events
    }

    fn pairs(&self) -> &[Pair] {
        if self.diff_pending {
            return &self.before;
        }
        self.pairs.get_or_init(|| {
            let mut pairs = std::mem::take(
                &mut *self
                    .spare_pairs
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner),
            );
            reserve_headroom(&mut pairs, self.inner.pairs().len());
            map_pairs(self.inner.pairs(), &self.map, &mut pairs);
            pairs
        })
    }

    fn stats(&self) -> StepStats {
        self.stats
    }

    fn len(&self) -> usize {
        self.objects.len()
    }

    fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
        self.inner.aabb(self.objects.get(handle)?.inner)
    }

    fn value(&self, handle: Handle) -> Option<&T> {
        self.objects.get(handle).map(|o| &o.value)
    }

    fn query_aabb(
        &self,
        aabb: &Aabb<V>,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.inner
            .query_aabb(aabb, &mut |inner| visit(self.handle_of(inner)))
    }

    fn query_region(
        &self,
        region: &dyn Region<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> QueryStats {
        self.inner
            .query_region(region, budget, &mut |inner| visit(self.handle_of(inner)))
    }
}
