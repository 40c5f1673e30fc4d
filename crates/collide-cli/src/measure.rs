//! Running one structure over a sequence of frames and measuring it: the
//! shared engine of `collide replay` and `collide demo`.

use collide::{Aabb, Auto, BroadPhase, Structure, Vector, Verified};
use collide_scenes::{IdEvent, Record, RunError, Runner, alloc, mean, percentile};
use indicatif::ProgressBar;
use std::collections::BTreeMap;
use std::time::Instant;

/// One event with its frame, in trace ids.
pub type FrameEvent = (usize, IdEvent);

/// What one structure did over a run.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// The structure that ran.
    pub structure: Structure,
    pub frames: usize,
    pub peak_objects: usize,
    pub started: u64,
    pub stopped: u64,
    pub final_pairs: usize,
    /// Microseconds per frame of `step()` alone.
    pub step_micros: Vec<f64>,
    /// Microseconds per frame of the frame's insert/update/remove calls plus
    /// the step (parsing and generation excluded).
    pub frame_micros: Vec<f64>,
    pub candidates_tested: u64,
    pub maintenance_ops: u64,
    pub pair_sum: u64,
    /// Started plus stopped events after frame 0 (which starts every pair).
    pub steady_changes: u64,
    /// The event stream, when asked for.
    pub events: Vec<FrameEvent>,
    /// A digest of each frame's events (FNV-1a over their ids and kinds,
    /// in order): equal streams give equal digests, frame by frame.
    pub event_digests: Vec<u64>,
    /// The most heap the run held at once above what was held when it
    /// started (the structure, the runner's id map and its scratch; the
    /// report's own per-frame columns are allocated before), in bytes.
    pub peak_heap_bytes: usize,
    /// The first divergence from brute force, when verified.
    pub divergence: Option<String>,
    /// For `auto` (not verified): each structure it ran, from which step
    /// and why, in order.
    pub auto_runs: Vec<AutoRun>,
    /// For `auto`: how many times it rebuilt the running grid.
    pub auto_rebuilds: u64,
}

/// A structure `auto` ran: from which step and why ([`collide::AutoStatus`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AutoRun {
    pub structure: Structure,
    pub since_step: u64,
    pub reason: &'static str,
}

impl RunReport {
    /// An empty report for `structure`.
    pub fn new(structure: Structure) -> Self {
        Self {
            structure,
            frames: 0,
            peak_objects: 0,
            started: 0,
            stopped: 0,
            final_pairs: 0,
            step_micros: Vec::new(),
            frame_micros: Vec::new(),
            candidates_tested: 0,
            maintenance_ops: 0,
            pair_sum: 0,
            steady_changes: 0,
            events: Vec::new(),
            event_digests: Vec::new(),
            peak_heap_bytes: 0,
            divergence: None,
            auto_runs: Vec::new(),
            auto_rebuilds: 0,
        }
    }

    pub fn mean_step_micros(&self) -> f64 {
        mean(&self.step_micros)
    }

    pub fn p99_step_micros(&self) -> f64 {
        percentile(&self.step_micros, 0.99)
    }

    pub fn mean_frame_micros(&self) -> f64 {
        mean(&self.frame_micros)
    }

    /// Mean and p99 microseconds per frame over frames 1 on (frame 0
    /// builds the structure).
    pub fn steady_frame_micros(&self) -> (f64, f64) {
        let steady = self.frame_micros.get(1..).unwrap_or_default();
        (mean(steady), percentile(steady, 0.99))
    }

    /// Mean microseconds per `step()` over frames 1 on.
    pub fn steady_step_micros(&self) -> f64 {
        mean(self.step_micros.get(1..).unwrap_or_default())
    }

    pub fn per_frame(&self, total: u64) -> f64 {
        total as f64 / self.frames.max(1) as f64
    }
}

/// How to run.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunOptions<'a> {
    /// Check every frame against brute force.
    pub verify: bool,
    /// Keep the event stream in the report.
    pub keep_events: bool,
    /// Advanced once per frame.
    pub progress: Option<&'a ProgressBar>,
}

/// Applies a frame's records to a map of the boxes present, by id.
pub fn apply_records<V: Vector>(boxes: &mut BTreeMap<u64, Aabb<V>>, records: &[Record<V>]) {
    for record in records {
        match *record {
            Record::Upsert { id, aabb } => boxes.insert(id, aabb),
            Record::Remove { id } => boxes.remove(&id),
        };
    }
}

/// Runs `structure` over `frames`.
pub fn run_structure<V: Vector>(
    structure: Structure,
    frames: &[Vec<Record<V>>],
    options: RunOptions<'_>,
) -> Result<RunReport, RunError> {
    if structure == Structure::Auto && !options.verify {
        let mut world = Auto::<V, u64>::new();
        let mut runs: Vec<AutoRun> = Vec::new();
        let mut report = run_observed(structure, &mut world, frames, options, |auto| {
            let status = auto.status();
            // A rebuild keeps the name: only switches are listed.
            if runs.last().map(|r| r.structure) != Some(status.structure) {
                runs.push(AutoRun {
                    structure: status.structure,
                    since_step: status.since_step,
                    reason: status.reason,
                });
            }
        })?;
        report.auto_runs = runs;
        report.auto_rebuilds = world.status().rebuilds;
        return Ok(report);
    }
    let world = structure.build::<V, u64>();
    if options.verify {
        let mut world = Verified::new(world).expect("a structure just built is empty");
        let mut report = run(structure, &mut world, frames, options)?;
        report.divergence = world.divergence().map(|d| d.to_string());
        Ok(report)
    } else {
        let mut world = world;
        run(structure, world.as_mut(), frames, options)
    }
}

/// Runs `world`, a `structure`, over `frames` (it should start empty).
pub fn run<V: Vector>(
    structure: Structure,
    world: &mut (impl BroadPhase<V, u64> + ?Sized),
    frames: &[Vec<Record<V>>],
    options: RunOptions<'_>,
) -> Result<RunReport, RunError> {
    run_observed(structure, world, frames, options, |_| {})
}

/// [`run`], calling `after_step` with the world after each step (outside
/// the timing).
pub fn run_observed<V: Vector, W: BroadPhase<V, u64> + ?Sized>(
    structure: Structure,
    world: &mut W,
    frames: &[Vec<Record<V>>],
    options: RunOptions<'_>,
    mut after_step: impl FnMut(&W),
) -> Result<RunReport, RunError> {
    let mut runner = Runner::new();
    let mut report = RunReport {
        step_micros: Vec::with_capacity(frames.len()),
        frame_micros: Vec::with_capacity(frames.len()),
        event_digests: Vec::with_capacity(frames.len()),
        ..RunReport::new(structure)
    };
    let mut events = Vec::new();
    // The kept event stream grows with the run: its bytes are taken out
    // of the peak below, which is exact when no events are kept.
    alloc::reset_peak();
    for (index, records) in frames.iter().enumerate() {
        let frame_start = Instant::now();
        runner.apply(world, records)?;
        let step_start = Instant::now();
        world.step();
        let done = Instant::now();
        report
            .step_micros
            .push((done - step_start).as_secs_f64() * 1e6);
        report
            .frame_micros
            .push((done - frame_start).as_secs_f64() * 1e6);
        after_step(world);
        runner.collect_events(world, &mut events);
        report.event_digests.push(digest(&events));
        let stats = world.stats();
        report.frames += 1;
        report.peak_objects = report.peak_objects.max(world.len());
        report.started += stats.started as u64;
        report.stopped += stats.stopped as u64;
        report.candidates_tested += stats.candidates_tested;
        report.maintenance_ops += stats.maintenance_ops;
        report.pair_sum += stats.pairs as u64;
        report.final_pairs = stats.pairs;
        if index > 0 {
            report.steady_changes += (stats.started + stats.stopped) as u64;
        }
        if options.keep_events {
            report.events.extend(events.iter().map(|e| (index, *e)));
        }
        if let Some(bar) = options.progress {
            bar.inc(1);
        }
    }
    let kept = report.events.capacity() * std::mem::size_of::<FrameEvent>();
    report.peak_heap_bytes = alloc::peak_bytes().saturating_sub(kept);
    Ok(report)
}

/// FNV-1a over a frame's events: ids and kind, in order.
fn digest(events: &[IdEvent]) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for e in events {
        for word in [e.a, e.b, u64::from(e.started)] {
            for byte in word.to_le_bytes() {
                hash = (hash ^ u64::from(byte)).wrapping_mul(PRIME);
            }
        }
    }
    hash
}
