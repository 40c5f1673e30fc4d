//! What the benchmark drives: one implementation (ours or a peer) behind a
//! common interface, split into the timed part (apply a frame and produce
//! the pairs) and the untimed part (hand the pairs over as sorted scene ids).

use collide::{Aabb, BroadPhase, Vector};
use collide_scenes::{IdEvent, Record, Runner};

/// One implementation under measurement.
pub trait Contender<V: Vector> {
    /// The name shown in the tables (and accepted by `--only`).
    fn name(&self) -> &str;

    /// Timed: applies the frame's records and produces the full list of
    /// overlapping (candidate) pairs, kept inside the contender.
    fn frame(&mut self, records: &[Record<V>]);

    /// Untimed: writes the pairs of the last [`frame`](Self::frame) into
    /// `out` (cleared first) as `(lower id, higher id)`, sorted, keeping only
    /// those that overlap under collide's strict rule ([`Aabb::overlaps`]).
    /// Returns how many candidates the rule filtered out.
    fn pairs_by_id(&self, out: &mut Vec<(u64, u64)>) -> u64 {
        self.exact_pairs(out, true)
    }

    /// [`pairs_by_id`](Self::pairs_by_id), sorted only when `sorted`
    /// says; also called inside a timed frame by the rows that derive
    /// events from a peer's pairs (see `peers/events.rs`).
    fn exact_pairs(&self, out: &mut Vec<(u64, u64)>, sorted: bool) -> u64;

    /// Untimed, after [`pairs_by_id`](Self::pairs_by_id): bookkeeping a
    /// game would do between frames that the measurement leaves out.
    fn between_frames(&mut self) {}
}

/// One of collide's structures, driven exactly as `collide replay` drives it:
/// [`Runner::apply`] then `step()`.
pub struct Ours<V: Vector> {
    name: String,
    world: Box<dyn BroadPhase<V, u64>>,
    runner: Runner<V>,
    events: Vec<IdEvent>,
}

impl<V: Vector> Ours<V> {
    /// `name` must be a [`collide::Structure`]'s.
    pub fn new(name: &str) -> Self {
        let world = name
            .parse::<collide::Structure>()
            .ok()
            .map(|s| s.build::<V, u64>())
            .unwrap_or_else(|| panic!("`{name}` is not a collide::Structure"));
        Self::with_world(name, world)
    }

    /// A structure built with non-default settings, under its own name.
    pub fn with_world(name: &str, world: Box<dyn BroadPhase<V, u64>>) -> Self {
        Self {
            name: name.to_string(),
            world,
            runner: Runner::new(),
            events: Vec::new(),
        }
    }
}

impl<V: Vector> Contender<V> for Ours<V> {
    fn name(&self) -> &str {
        &self.name
    }

    fn frame(&mut self, records: &[Record<V>]) {
        self.runner
            .apply(self.world.as_mut(), records)
            .unwrap_or_else(|e| panic!("{}: scene records refused: {e}", self.name));
        self.world.step();
    }

    /// Always sorted: our pairs come in handle order, not id order.
    fn exact_pairs(&self, out: &mut Vec<(u64, u64)>, _sorted: bool) -> u64 {
        out.clear();
        let id = |h| {
            *self
                .world
                .value(h)
                .expect("a pair after a step names live objects")
        };
        out.extend(self.world.pairs().iter().map(|p| {
            let (a, b) = (id(p.a()), id(p.b()));
            (a.min(b), a.max(b))
        }));
        out.sort_unstable();
        0
    }

    /// The step's events in scene ids, as a game reads them; this is also
    /// when the runner forgets the ids of the objects removed before the
    /// step, which would otherwise pile up over a run with removals.
    fn between_frames(&mut self) {
        self.runner
            .collect_events(self.world.as_ref(), &mut self.events);
    }
}

/// Turns a peer's candidate pairs (indices into `ids`/`boxes`) into
/// scene-id pairs under collide's rule, sorted when `sorted` says; returns
/// the number filtered out.
pub fn filter_candidates<V: Vector>(
    candidates: &[(u32, u32)],
    ids: &[u64],
    boxes: &[Aabb<V>],
    out: &mut Vec<(u64, u64)>,
    sorted: bool,
) -> u64 {
    out.clear();
    let mut filtered = 0;
    for &(i, j) in candidates {
        let (i, j) = (i as usize, j as usize);
        if boxes[i].overlaps(&boxes[j]) {
            let (a, b) = (ids[i], ids[j]);
            out.push((a.min(b), a.max(b)));
        } else {
            filtered += 1;
        }
    }
    if sorted {
        out.sort_unstable();
    }
    filtered
}
