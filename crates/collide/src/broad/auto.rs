//! `auto`: a broad phase that measures its scene and runs the structure
//! that suits it, switching when the scene changes character (issue 10).
//!
//! `Auto` issues its own handles and keeps its own pair list, and holds one
//! of the other structures inside, whose handles it maps to its own. A
//! switch builds the new structure from every object and swaps it in; the
//! events of the step that switches are the difference between `Auto`'s
//! pairs before and after, like every other step's, so a switch can
//! neither lose nor repeat an event: both structures find exactly the
//! overlapping pairs.
//!
//! Every [`AutoConfig::review_every`] steps it measures the scene (the
//! variance of the centres per axis, the spread of the objects' sizes)
//! and picks a structure with [`choose_structure`], the decision table of seed 000
//! as a function; it switches once the same other pick has come up
//! [`AutoConfig::confirm`] reviews in a row (hysteresis, so a scene on the
//! edge of a rule does not flap).
//!
//! Cost: the inner structure's, plus per step its pair keys mapped to
//! `Auto`'s slots (sorted only when the inner slots differ from `Auto`'s)
//! and merged into `Auto`'s pair list, and per review a pass over the
//! boxes. A switch rebuilds: one insert per object, on the step that
//! switches.

use super::contract::{BroadPhase, StepStats};
use super::events::{FrameEvents, Pair, PairTracker, pair_key};
use super::headroom::reserve_headroom;
use super::query::{QueryBudget, QueryStats};
use super::radix::radix_sort_by_key;
use super::registry::structure_by_name;
use crate::error::Error;
use crate::geometry::{Aabb, Region, Vector};
use crate::handle::{Handle, Slots};
use std::ops::ControlFlow;

/// When `Auto` reviews its choice. See [`AutoConfig::default`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AutoConfig {
    /// Steps between reviews, `>= 1`.
    pub review_every: u32,
    /// Reviews in a row that must pick the same other structure before
    /// `Auto` switches to it, `>= 1`.
    pub confirm: u32,
}

impl Default for AutoConfig {
    /// A review every 30 steps; a switch after 2 agreeing reviews.
    fn default() -> Self {
        Self {
            review_every: 30,
            confirm: 2,
        }
    }
}

/// What `Auto` measured of the scene at a review; [`choose_structure`] decides from
/// it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SceneProfile {
    /// Objects present.
    pub objects: usize,
    /// The largest variance of the boxes' centres on one axis over the
    /// smallest (1 for a scene spread alike on every axis; world units
    /// squared over world units squared).
    pub flatness: f32,
    /// The 90th percentile of the objects' largest extent over the 10th
    /// (1 when all are alike; a zero 10th percentile counts as the
    /// smallest positive extent).
    pub size_spread: f32,
}

impl SceneProfile {
    /// Measures a set of boxes (what `Auto` does at a review).
    ///
    /// ```
    /// use collide::{Aabb2, SceneProfile};
    /// use glam::Vec2;
    /// let row: Vec<Aabb2> = (0..100)
    ///     .map(|i| Aabb2::new(Vec2::new(i as f32 * 10.0, 0.0), Vec2::new(i as f32 * 10.0 + 2.0, 2.0)))
    ///     .collect::<Result<_, _>>()?;
    /// let profile = SceneProfile::of(&row);
    /// assert_eq!(profile.objects, 100);
    /// assert!(profile.flatness > 1e6); // every centre at y = 1
    /// # Ok::<(), collide::AabbError>(())
    /// ```
    pub fn of<V: Vector>(boxes: &[Aabb<V>]) -> Self {
        profile(boxes.iter(), &mut Vec::new())
    }
}

/// Objects up to this count: brute force.
const SMALL_SCENE: usize = 32;
/// Sizes this spread apart (90th over 10th percentile): the hierarchical
/// grid.
const SPREAD_SIZES: f32 = 16.0;
/// Centres this much more spread on one axis than another: sweep and
/// prune along it.
const FLAT_SCENE: f32 = 100.0;

/// The structure for a scene, seed 000's decision table as a function: up
/// to 32 objects, brute force; sizes whose 90th percentile is 16 times
/// their 10th or more, the hierarchical grid; centres 100 times more
/// spread (in variance) on one axis than another, one-axis sweep and
/// prune; otherwise the dense grid. The thresholds are a first guess, not
/// yet fitted to measurements.
///
/// ```
/// use collide::{SceneProfile, choose_structure};
/// let flat = SceneProfile { objects: 5_000, flatness: 400.0, size_spread: 2.0 };
/// assert_eq!(choose_structure(&flat), "sap1");
/// let even = SceneProfile { objects: 5_000, flatness: 1.2, size_spread: 2.0 };
/// assert_eq!(choose_structure(&even), "grid");
/// ```
pub fn choose_structure(profile: &SceneProfile) -> &'static str {
    if profile.objects <= SMALL_SCENE {
        "brute"
    } else if profile.size_spread >= SPREAD_SIZES {
        "hgrid"
    } else if profile.flatness >= FLAT_SCENE {
        "sap1"
    } else {
        "grid"
    }
}

/// Measures `boxes` for [`choose_structure`]; `scratch` is reused memory.
fn profile<'a, V: Vector>(
    boxes: impl Iterator<Item = &'a Aabb<V>>,
    scratch: &mut Vec<f32>,
) -> SceneProfile {
    let mut count = 0usize;
    let (mut sum, mut sum_sq) = ([0f64; 3], [0f64; 3]);
    scratch.clear();
    for b in boxes {
        count += 1;
        let (c, size) = (b.center(), b.size());
        for a in 0..V::DIM {
            let x = f64::from(c.axis(a));
            sum[a] += x;
            sum_sq[a] += x * x;
        }
        scratch.push((0..V::DIM).map(|a| size.axis(a)).fold(0.0, f32::max));
    }
    if count == 0 {
        return SceneProfile::default();
    }
    let n = count as f64;
    let variances = (0..V::DIM).map(|a| (sum_sq[a] / n - (sum[a] / n).powi(2)).max(0.0));
    let (low, high) = variances.fold((f64::INFINITY, 0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let flatness = if high == 0.0 {
        1.0
    } else {
        (high / low.max(high * 1e-12)) as f32
    };
    let percentile = |scratch: &mut Vec<f32>, p: usize| {
        let k = (scratch.len() - 1) * p / 100;
        *scratch.select_nth_unstable_by(k, f32::total_cmp).1
    };
    let p90 = percentile(scratch, 90);
    let mut p10 = percentile(scratch, 10);
    if p10 <= 0.0 {
        p10 = scratch
            .iter()
            .copied()
            .filter(|&e| e > 0.0)
            .fold(f32::INFINITY, f32::min);
    }
    let size_spread = if p90 <= 0.0 || !p10.is_finite() {
        1.0
    } else {
        p90 / p10
    };
    SceneProfile {
        objects: count,
        flatness,
        size_spread,
    }
}

/// Records that the inner handle `inner` holds `Auto`'s slot `slot`.
fn map_inner(slot_of_inner: &mut Vec<u32>, inner: Handle, slot: u32) {
    let i = inner.index() as usize;
    if slot_of_inner.len() <= i {
        slot_of_inner.resize(i + 1, u32::MAX);
    }
    slot_of_inner[i] = slot;
}

/// `auto`: the structure that suits the scene, chosen and switched by
/// measurement.
///
/// It issues its own handles and keeps its own pair list over one of the
/// other structures. Every [`AutoConfig::review_every`] steps it measures
/// the scene ([`SceneProfile`]) and picks with [`choose_structure`]; it
/// switches once the same other pick has come [`AutoConfig::confirm`]
/// reviews in a row, by building the new structure from every object. The
/// events of that step are the difference of its pairs before and after,
/// as on every step, so a switch neither loses nor repeats an event.
///
/// Cost: the inner structure's, plus its pairs mapped and merged into
/// `Auto`'s each step, a pass over the boxes each review, and one insert
/// per object on a switch.
///
/// ```
/// use collide::{Aabb2, Auto, BroadPhase};
/// use glam::Vec2;
/// let mut world: Auto<Vec2, &str> = Auto::new();
/// let a = world.insert(Aabb2::new(Vec2::ZERO, Vec2::splat(2.0))?, "crate")?;
/// let b = world.insert(Aabb2::new(Vec2::ONE, Vec2::splat(3.0))?, "barrel")?;
/// assert_eq!(world.step().started.len(), 1);
/// world.switch_to("sap")?; // by hand; a review does the same
/// assert_eq!(world.current(), "sap");
/// assert!(world.step().is_empty()); // the pair goes on: no event
/// world.remove(b)?;
/// assert_eq!(world.step().stopped.len(), 1);
/// # let _ = a;
/// # Ok::<(), collide::Error>(())
/// ```
pub struct Auto<V: Vector, T = ()> {
    /// Each object's box, value and handle in the inner structure.
    objects: Slots<(Aabb<V>, T, Handle)>,
    inner: Box<dyn BroadPhase<V, u32> + Send>,
    /// `Auto`'s slot of each inner slot.
    slot_of_inner: Vec<u32>,
    tracker: PairTracker,
    config: AutoConfig,
    stats: StepStats,
    steps: u64,
    /// The pick of the last reviews that differs from the current
    /// structure, and how many reviews in a row made it.
    pending: Option<(&'static str, u32)>,
    switches: u64,
    last_profile: SceneProfile,
    // Scratch, reused every step.
    keys: Vec<u64>,
    key_scratch: Vec<u64>,
    extents: Vec<f32>,
}

impl<V: Vector, T: Send> Default for Auto<V, T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Vector, T: Send> Auto<V, T> {
    /// An empty `Auto` with [`AutoConfig::default`]; it starts as
    /// brute force and picks at its first step.
    pub fn new() -> Self {
        Self::with_config(AutoConfig::default()).expect("the default settings are valid")
    }

    /// An empty `Auto` with `config`; [`Error::Setting`] for a zero
    /// `review_every` or `confirm`.
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
            slot_of_inner: Vec::new(),
            tracker: PairTracker::default(),
            config,
            stats: StepStats::default(),
            steps: 0,
            pending: None,
            switches: 0,
            last_profile: SceneProfile::default(),
            keys: Vec::new(),
            key_scratch: Vec::new(),
            extents: Vec::new(),
        })
    }

    /// The name of the structure running inside.
    pub fn current(&self) -> &str {
        self.inner.name()
    }

    /// How many times `Auto` has switched structure.
    pub fn switches(&self) -> u64 {
        self.switches
    }

    /// What the last review measured.
    pub fn last_profile(&self) -> SceneProfile {
        self.last_profile
    }

    /// Runs the structure `name` (one of [`STRUCTURE_NAMES`](crate::STRUCTURE_NAMES)
    /// but `auto`) from now on: it is built from every object at once. Handles, pairs
    /// and events go on unchanged. [`Error::Setting`] for an unknown name.
    pub fn switch_to(&mut self, name: &str) -> Result<(), Error> {
        let unknown = Error::Setting {
            name: "structure",
            value: f64::NAN,
            expected: "one of collide::STRUCTURE_NAMES other than auto",
        };
        if name == "auto" {
            return Err(unknown);
        }
        let mut next = structure_by_name::<V, u32>(name).ok_or(unknown)?;
        // Built aside: an error leaves the running structure as it was.
        let placed = self
            .objects
            .iter()
            .map(|(h, o)| next.insert(o.0, h.index()).map(|inner| (h, inner)))
            .collect::<Result<Vec<_>, Error>>()?;
        self.slot_of_inner.clear();
        for (h, inner) in placed {
            self.objects.get_mut(h)?.2 = inner;
            map_inner(&mut self.slot_of_inner, inner, h.index());
        }
        self.inner = next;
        self.pending = None;
        self.switches += 1;
        Ok(())
    }

    /// Every `review_every` steps: measure, pick, and switch once the
    /// same other pick has come `confirm` times in a row.
    fn review(&mut self) {
        if !self
            .steps
            .is_multiple_of(u64::from(self.config.review_every))
        {
            return;
        }
        self.last_profile = profile(self.objects.iter().map(|(_, o)| &o.0), &mut self.extents);
        let pick = choose_structure(&self.last_profile);
        if pick == self.inner.name() {
            self.pending = None;
            return;
        }
        let agreeing = match self.pending {
            Some((name, count)) if name == pick => count + 1,
            _ => 1,
        };
        // The first review has nothing to compare against: the first
        // pick is taken at once.
        if agreeing >= self.config.confirm || self.steps == 0 {
            self.switch_to(pick)
                .expect("a rebuild of valid boxes under fresh handles succeeds");
        } else {
            self.pending = Some((pick, agreeing));
        }
    }

    /// `Auto`'s handle of an inner handle.
    fn handle_of(&self, inner: Handle) -> Handle {
        let slot = self.slot_of_inner[inner.index() as usize];
        self.objects.live_handle_at(slot)
    }
}

impl<V: Vector, T: Send> BroadPhase<V, T> for Auto<V, T> {
    fn name(&self) -> &str {
        "auto"
    }

    fn insert(&mut self, aabb: Aabb<V>, value: T) -> Result<Handle, Error> {
        // The inner structure first: its error leaves nothing behind.
        let slot = self.objects.next_index();
        let inner = self.inner.insert(aabb, slot)?;
        let handle = match self.objects.insert((aabb, value, inner)) {
            Ok(h) => h,
            Err(e) => {
                self.inner.remove(inner).expect("just inserted");
                return Err(e.into());
            }
        };
        debug_assert_eq!(handle.index(), slot);
        map_inner(&mut self.slot_of_inner, inner, slot);
        Ok(handle)
    }

    fn update(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<(), Error> {
        let object = self.objects.get_mut(handle)?;
        object.0 = aabb;
        self.inner.update(object.2, aabb)
    }

    fn remove(&mut self, handle: Handle) -> Result<T, Error> {
        let (_, value, inner) = self.objects.remove(handle)?;
        self.inner.remove(inner)?;
        Ok(value)
    }

    fn step(&mut self) -> &FrameEvents {
        self.review();
        self.steps += 1;
        self.inner.step();
        let inner_stats = self.inner.stats();
        self.keys.clear();
        // Room with a margin, so that a pair count that wanders does not
        // reallocate (the sort below, when it runs, does the same).
        reserve_headroom(&mut self.keys, self.inner.pairs().len());
        let slots = &self.slot_of_inner;
        self.keys.extend(
            self.inner
                .pairs()
                .iter()
                .map(|p| pair_key(slots[p.a().index() as usize], slots[p.b().index() as usize])),
        );
        // While the inner slots are `Auto`'s own (both arenas saw the same
        // inserts and removes since a switch that left no holes), the keys
        // come out sorted already.
        if !self.keys.is_sorted() {
            radix_sort_by_key(&mut self.keys, &mut self.key_scratch, |&k| k);
        }
        self.tracker.finish_keys(&self.keys, &self.objects);
        self.stats = self.tracker.stats(
            self.objects.len(),
            inner_stats.candidates_tested,
            inner_stats.maintenance_ops,
        );
        self.tracker.events()
    }

    fn events(&self) -> &FrameEvents {
        self.tracker.events()
    }

    fn pairs(&self) -> &[Pair] {
        self.tracker.pairs()
    }

    fn stats(&self) -> StepStats {
        self.stats
    }

    fn len(&self) -> usize {
        self.objects.len()
    }

    fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
        self.objects.get(handle).map(|o| o.0)
    }

    fn value(&self, handle: Handle) -> Option<&T> {
        self.objects.get(handle).map(|o| &o.1)
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
