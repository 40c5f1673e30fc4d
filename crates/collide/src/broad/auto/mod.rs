//! `auto`: a broad phase that measures its scene and runs the structure
//! that suits it, switching when the scene changes character.
//!
//! `Auto` issues the handles and keeps the user values; one of the other
//! structures runs inside it under those very handles (its arena adopts
//! `Auto`'s owner id and takes the handle `Auto` names at each insert), so
//! every move, query, event and pair passes straight through, with no
//! handle to look up or map back. Every [`AutoConfig::review_every`] steps
//! it measures the scene ([`SceneProfile`]: variance of the centres per
//! axis, spread of sizes, share of world-spanning objects, coherence of the
//! motion, clustering) and picks a structure with [`choose_structure`], the
//! decision table as a function. It switches once the same
//! other pick has come up [`AutoConfig::confirm`] reviews in a row
//! (hysteresis, so a scene on the edge of a rule does not flap). A review
//! comes early when the running structure's candidate tests in a step
//! change fourfold (a scene squeezed flat within a few frames shows there
//! first).
//!
//! A dense or hashed grid keeps the cell size it starts with: chosen by
//! the grid from every object at its first step when `Auto` starts with it
//! or switches to it at once, else (a switch spread over steps) by `Auto`
//! at the review that began the switch, from the review's sample. When
//! the density ([`SceneProfile::density`]) has
//! changed twofold since and the grid's own cost model predicts its cells
//! to cost 1.25 times those it would choose now (a hotspot forming, a
//! cluster dispersing), or when an eighth of the objects have left a
//! dense grid's bounds, `Auto` rebuilds it with the new cells (a dense
//! one over its old bounds and the objects'), as it would switch
//! ([`AutoStatus::rebuilds`]).
//!
//! A switch loses nothing: the new structure is built beside
//! the running one, a share of the objects each step over
//! [`AutoConfig::switch_frames`] steps, with every move and removal
//! applied to both, while the running one answers. On the step it holds
//! every object, the new structure steps instead of the running one, which
//! is dropped unstepped: the step's events are the difference of the new
//! one's pairs from the last step's, exactly those the running one would
//! have reported, since both find exactly the overlapping pairs. The new
//! one carries on from its pairs. A switch made at once ([`Auto::switch_to`],
//! the first step, an object count that changed fourfold) keeps the pairs
//! from before and makes the next step's events their difference from the
//! new structure's pairs.
//!
//! Pick `auto` when the scene is not known in advance (a level editor, a
//! game whose levels differ) or changes character while it runs. Cost:
//! the inner structure's, plus a match per operation (a test and a jump
//! for a move while no switch is under way); per review a sample of at
//! most 1,024 boxes measured (and sorted along one axis the step before),
//! and, when the density has changed twofold or a switch into a dense or
//! hashed grid begins, a grid's cell size worked out on the same sample;
//! during a switch or a rebuild, the second structure's inserts and a
//! doubled move for every object it holds.

mod profile;
mod regrid;
mod running;
mod switch;
mod work;

pub use profile::{Choice, SceneProfile, choose_structure};

use super::contract::{BroadPhase, StepStats, check_batch_lengths};
use super::events::{FrameEvents, Pair, SharedEvents};
use super::grid::{CellSizeScratch, GridConfig};
use super::headroom::keep_headroom;
use super::hosted::Hosted;
use super::query::{QueryBudget, QueryStats, RayHit};
use super::snapshot::Snapshot;
use crate::broad::Query;
use crate::broad::structure::Structure;
use crate::error::Error;
use crate::geometry::{Aabb, Ray, Region, Vector};
use crate::handle::{Handle, Slots};
use profile::{Profiler, SMALL_SCENE};
use regrid::BuiltFor;
use running::Running;
use std::ops::ControlFlow;
use std::sync::Arc;
use switch::{Migration, hosted};
use work::Work;

/// When `Auto` reviews its choice and how it switches. See
/// [`AutoConfig::default`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AutoConfig {
    /// Steps between scheduled reviews, `>= 1` (a review also comes
    /// early when the running structure's work changes fourfold).
    pub review_every: u32,
    /// Reviews in a row that must pick the same other structure before
    /// `Auto` switches to it, `>= 1`.
    pub confirm: u32,
    /// Steps a switch takes, `>= 1`: the new structure is built beside
    /// the running one, which answers meanwhile, taking this many shares
    /// of the objects, one a step (moves and removals reach both); on the
    /// last only the new one steps, and the events are the difference of
    /// its pairs from the running one's of the step before.
    pub switch_frames: u32,
}

impl Default for AutoConfig {
    /// A review every 15 steps (a quarter of a second at 60 steps a
    /// second); a switch after 2 agreeing reviews, built over 4 steps.
    fn default() -> Self {
        Self {
            review_every: 15,
            confirm: 2,
            switch_frames: 4,
        }
    }
}

/// What `Auto` runs, since when and why ([`Auto::status`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AutoStatus {
    /// The structure running now.
    pub structure: Structure,
    /// The step (counted from 0) from which it has run.
    pub since_step: u64,
    /// Why it was picked: [`Choice::reason`], or "switched by hand".
    pub reason: &'static str,
    /// The structure being built to take over, if a switch is under way.
    pub switching_to: Option<Structure>,
    /// Switches so far after the first pick (which replaces the brute
    /// force `Auto` starts with before it has measured anything).
    pub switches: u64,
    /// Rebuilds of the running grid so far, whose cells no longer fitted
    /// the scene (its density had changed).
    pub rebuilds: u64,
    /// Steps taken so far.
    pub steps: u64,
    /// What the last review measured.
    pub profile: SceneProfile,
}

/// `auto`: the structure that suits the scene, chosen and switched by
/// measurement. A switch loses nothing: see [`AutoConfig::switch_frames`]
/// and [`Auto::switch_to`]. `Auto<V, T>` is `Send` and `Sync` when `T` is.
///
/// ```
/// use collide::{Aabb2, Auto, BroadPhase, Structure};
/// use glam::Vec2;
/// let mut world: Auto<Vec2, &str> = Auto::new();
/// let a = world.insert(Aabb2::new(Vec2::ZERO, Vec2::splat(2.0))?, "crate")?;
/// let b = world.insert(Aabb2::new(Vec2::ONE, Vec2::splat(3.0))?, "barrel")?;
/// assert_eq!(world.step().started.len(), 1);
/// assert_eq!(world.current(), Structure::Brute); // two objects
/// world.switch_to(Structure::Sap)?; // by hand; a review does the same
/// assert_eq!(world.current(), Structure::Sap);
/// assert!(world.step().is_empty()); // the pair goes on: no event
/// world.remove(b)?;
/// assert_eq!(world.step().stopped.len(), 1);
/// println!("{}", world.status().reason); // "switched by hand"
/// # let _ = a;
/// # Ok::<(), collide::Error>(())
/// ```
pub struct Auto<V: Vector, T = ()> {
    /// Issues the handles, holds the values.
    values: Slots<T>,
    /// The running structure, under `values`' handles.
    inner: Running<V>,
    migration: Option<Migration<V>>,
    /// Set by a switch made at once: the pairs of the last step, from
    /// which the next step's events are the difference.
    before: Vec<Pair>,
    diff_pending: bool,
    /// The step's events when they are not the running structure's: the
    /// difference of its pairs from the last step's after a switch made
    /// at once or on the step a new structure takes over.
    events: SharedEvents,
    own_events: bool,
    config: AutoConfig,
    stats: StepStats,
    status: AutoStatus,
    /// The pick of the last reviews that differs from the current
    /// structure, and how many reviews in a row made it.
    pending: Option<(Structure, u32)>,
    /// Set after the first review: the pick from the empty start is not
    /// counted as a switch.
    picked: bool,
    objects_at_review: usize,
    profiler: Profiler,
    /// What the running grid was built with, to tell when its cells no
    /// longer fit.
    built_for: BuiltFor,
    /// The running structure's candidate tests, watched for a change that
    /// calls a review early.
    work: Work,
    /// Scratch for reviews: the boxes and their slots, and for working
    /// out a grid's cell size.
    boxes: Vec<Aabb<V>>,
    slots: Vec<u32>,
    cell_scratch: CellSizeScratch,
}

impl<V: Vector, T: Send> Default for Auto<V, T> {
    fn default() -> Self {
        Self::new()
    }
}

/// Objects a review measures at most: a sample of every k-th slot beyond
/// this many (the statistics are shares, ratios and percentiles, which a
/// sample of a thousand gives closely enough for the decision).
const SAMPLE: usize = 1024;

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
        let values = Slots::new();
        let inner = hosted::<V>(Structure::Brute, values.owner(), GridConfig::default())
            .expect("brute is hosted");
        Ok(Self {
            values,
            inner,
            migration: None,
            before: Vec::new(),
            diff_pending: false,
            events: SharedEvents::default(),
            own_events: false,
            config,
            stats: StepStats::default(),
            status: AutoStatus {
                structure: Structure::Brute,
                since_step: 0,
                reason: "nothing measured yet",
                switching_to: None,
                switches: 0,
                rebuilds: 0,
                steps: 0,
                profile: SceneProfile::default(),
            },
            pending: None,
            picked: false,
            objects_at_review: 0,
            profiler: Profiler::default(),
            built_for: BuiltFor::default(),
            work: Work::default(),
            boxes: Vec::new(),
            slots: Vec::new(),
            cell_scratch: CellSizeScratch::default(),
        })
    }

    /// The structure running inside.
    pub fn current(&self) -> Structure {
        self.status.structure
    }

    /// How many times `Auto` has switched structure after its first pick.
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
    /// use collide::{Aabb2, Auto, BroadPhase, Structure};
    /// use glam::Vec2;
    /// let mut world: Auto<Vec2> = Auto::new();
    /// for i in 0..100 {
    ///     let x = i as f32 * 3.0;
    ///     world.insert(Aabb2::new(Vec2::new(x, 0.0), Vec2::new(x + 1.0, 1.0))?, ())?;
    /// }
    /// world.step();
    /// let status = world.status();
    /// assert_eq!((status.structure, status.since_step), (Structure::Sap1, 0));
    /// assert_eq!(status.switches, 0); // the first pick is not a switch
    /// assert_eq!(status.profile.objects, 100);
    /// println!("{} since step {}: {}", status.structure, status.since_step, status.reason);
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn status(&self) -> AutoStatus {
        self.status
    }

    /// Before a step: every `review_every` steps (and at once when the
    /// object count changed fourfold since the last review), measure,
    /// pick, and switch once the same other pick has come `confirm` times
    /// in a row. The step before a review keeps the order along the sweep
    /// axis, for the coherence.
    fn review(&mut self) {
        let steps = self.status.steps;
        let n = self.values.len();
        let last = self.objects_at_review.max(SMALL_SCENE);
        let jumped = n > 4 * last || (self.objects_at_review > SMALL_SCENE && 4 * n < last);
        let every = u64::from(self.config.review_every);
        let review = steps.is_multiple_of(every) || jumped || self.work.changed;
        let keep = (steps + 1).is_multiple_of(every);
        if review || keep {
            self.gather_boxes();
        }
        if review {
            let (values, inner) = (&self.values, &self.inner);
            // An early review has no order kept: the last coherence.
            let coherence = self
                .profiler
                .coherence(|slot| inner.aabb(values.handle_at(slot)?))
                .unwrap_or(self.status.profile.coherence);
            let mut profile = self.profiler.measure(|| self.boxes.iter());
            // The sample's summed volume stands for all the objects'.
            profile.density *= n as f32 / profile.objects.max(1) as f32;
            profile.objects = n;
            profile.coherence = coherence;
            self.status.profile = profile;
            self.objects_at_review = n;
            self.work = Work::watching(self.inner.stats().candidates_tested);
            let choice = choose_structure(&profile);
            let regrid = if choice.structure == self.status.structure {
                self.cells_out_of_date(&profile)
            } else {
                None
            };
            self.decide(choice, regrid, steps == 0 || jumped);
            self.picked = true;
        }
        if keep {
            self.profiler.keep_order(
                self.slots.iter().copied().zip(&self.boxes),
                self.status.profile.sweep_axis,
            );
        }
    }

    /// The boxes (from the running structure) and slots of a sample of
    /// the objects, at most [`SAMPLE`] of them, into the review's scratch:
    /// a review costs the same whatever the count. One slot from each run
    /// of `k` slots, at an offset a hash of the run and the step picks: a
    /// fixed every-k-th slot aliased with scenes built in a pattern (with
    /// a wall every 50th object, every 5th slot never met one).
    fn gather_boxes(&mut self) {
        self.boxes.clear();
        self.slots.clear();
        let stride = self.values.len().div_ceil(SAMPLE).max(1);
        let capacity = self.values.capacity_index() as u32;
        let step = self.status.steps;
        for (run, first) in (0..capacity).step_by(stride).enumerate() {
            let offset = (mix(step, run as u64) % stride as u64) as u32;
            let Some(h) = self.values.handle_at(first + offset) else {
                continue;
            };
            self.boxes
                .push(self.inner.aabb(h).expect("the running structure holds it"));
            self.slots.push(first + offset);
        }
    }

    /// Acts on a review's pick: nothing when it is being built (or the
    /// running structure is being rebuilt); when it is running, nothing
    /// but a rebuild of the running grid with the settings `regrid`, if
    /// given, begun at once; a switch at once when `now`; otherwise once
    /// `confirm` reviews agree.
    fn decide(&mut self, choice: Choice, regrid: Option<GridConfig<V>>, now: bool) {
        if self.status.switching_to == Some(choice.structure) {
            return;
        }
        if choice.structure == self.status.structure {
            self.status.reason = choice.reason;
            self.pending = None;
            self.give_up_migration();
            if let Some(grid) = regrid {
                let choice = Choice {
                    reason: regrid::REGRID_REASON,
                    ..choice
                };
                if now {
                    self.switch_now(choice, grid)
                        .expect("a rebuild of boxes the running structure took succeeds");
                } else {
                    self.begin_migration(choice, grid);
                }
            }
            return;
        }
        let agreeing = match self.pending {
            Some((name, count)) if name == choice.structure => count + 1,
            _ => 1,
        };
        if now {
            self.switch_now(choice, GridConfig::default())
                .expect("a rebuild of boxes the running structure took succeeds");
        } else if agreeing >= self.config.confirm {
            self.pending = None;
            let settings = self.settings_for_switch(choice.structure);
            self.begin_migration(choice, settings);
        } else {
            self.pending = Some((choice.structure, agreeing));
        }
    }
}

/// A well-mixed 64-bit hash of `a` and `b` (SplitMix64's finalizer):
/// the sample's offsets, the same on every run.
fn mix(a: u64, b: u64) -> u64 {
    let mut z = a
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(b)
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl<V: Vector, T: Send> Query<V> for Auto<V, T> {
    fn name(&self) -> &str {
        "auto"
    }
    fn len(&self) -> usize {
        self.values.len()
    }
    fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
        self.inner.aabb(handle)
    }
    fn query_aabb(
        &self,
        aabb: &Aabb<V>,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.inner.query_aabb(aabb, visit)
    }
    fn query_region(
        &self,
        region: &dyn Region<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> QueryStats {
        self.inner.query_region(region, budget, visit)
    }
    fn query_ray(
        &self,
        ray: &Ray<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(RayHit) -> ControlFlow<()>,
    ) -> QueryStats {
        self.inner.query_ray(ray, budget, visit)
    }
    fn query_ray_first(
        &self,
        ray: &Ray<V>,
        exact: &mut dyn FnMut(Handle, f32) -> Option<f32>,
    ) -> Option<(f32, Handle)> {
        self.inner.query_ray_first(ray, exact)
    }
}

impl<V: Vector, T: Send> BroadPhase<V, T> for Auto<V, T> {
    fn insert(&mut self, aabb: Aabb<V>, value: T) -> Result<Handle, Error> {
        // The structures first, under the handle `values` will issue: an
        // error leaves nothing behind.
        let handle = self.values.next_handle();
        self.inner.insert_at(handle, aabb)?;
        let migrating = self
            .migration
            .as_mut()
            .map(|m| m.next.insert_at(handle, aabb));
        if let Some(Err(e)) = migrating {
            self.inner.remove(handle).expect("just inserted");
            return Err(e);
        }
        match self.values.insert(value) {
            Ok(issued) => {
                debug_assert_eq!(issued, handle);
                Ok(handle)
            }
            Err(e) => {
                self.inner.remove(handle).expect("just inserted");
                if let Some(m) = &mut self.migration {
                    m.next.remove(handle).expect("just inserted");
                }
                Err(e.into())
            }
        }
    }
    #[inline]
    fn update(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<(), Error> {
        // Kept to a test and a jump into the running structure: the
        // doubled move of a switch under way is out of line.
        if self.migration.is_some() {
            return self.update_migrating(handle, aabb);
        }
        self.inner.update(handle, aabb)
    }
    fn update_many(&mut self, handles: &[Handle], boxes: &[Aabb<V>]) -> Result<(), Error> {
        if self.migration.is_none() {
            return self.inner.update_many(handles, boxes);
        }
        check_batch_lengths(handles, boxes)?;
        for (&handle, &aabb) in handles.iter().zip(boxes) {
            self.update(handle, aabb)?;
        }
        Ok(())
    }
    fn remove(&mut self, handle: Handle) -> Result<T, Error> {
        self.values.check(handle)?;
        self.inner.remove(handle)?;
        if let Some(m) = self
            .migration
            .as_mut()
            .filter(|m| m.next.aabb(handle).is_some())
        {
            m.next.remove(handle)?;
        }
        Ok(self.values.remove(handle)?)
    }
    fn step(&mut self) -> Arc<FrameEvents> {
        self.review();
        let (replaced, inner_events) = if self.advance_migration() {
            (self.take_over(), None)
        } else {
            (None, Some(self.inner.step()))
        };
        let mut stats = self.inner.stats();
        self.work.watch(stats.candidates_tested, self.values.len());
        self.own_events = false;
        // The last step's pairs, when this step's events are not the
        // running structure's own: those kept by a switch made at once,
        // else those of the structure just taken over from.
        let previous = if self.diff_pending {
            Some(&self.before[..])
        } else {
            replaced.as_ref().map(|old| old.pairs())
        };
        if let Some(previous) = previous {
            let events = self.events.edit();
            events.set_difference(previous, self.inner.pairs());
            keep_headroom(&mut events.started);
            keep_headroom(&mut events.stopped);
            self.diff_pending = false;
            self.own_events = true;
        }
        let events = self.events();
        stats.started = events.started.len();
        stats.stopped = events.stopped.len();
        self.stats = stats;
        self.status.steps += 1;
        match inner_events {
            Some(events) if !self.own_events => events,
            // A switch always diffs against the structure it replaced.
            _ => self.events.share(),
        }
    }
    fn events(&self) -> &FrameEvents {
        if self.own_events {
            self.events.get()
        } else {
            self.inner.events()
        }
    }
    fn pairs(&self) -> &[Pair] {
        if self.diff_pending {
            &self.before
        } else {
            self.inner.pairs()
        }
    }
    fn stats(&self) -> StepStats {
        self.stats
    }
    fn value(&self, handle: Handle) -> Option<&T> {
        self.values.get(handle)
    }
    crate::broad::contract::objects_from_slots!(values);
    fn snapshot(&self) -> Snapshot<V> {
        self.inner.snapshot().renamed("auto")
    }
}
