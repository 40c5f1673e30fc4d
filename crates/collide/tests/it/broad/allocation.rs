//! No allocation per frame in steady state: every structure, on
//! every shared scene kind and motion, makes no heap allocation in its
//! `insert`, `update`, `remove` and `step` calls once the scene has run
//! for a while.
//!
//! The test kit's counting global allocator counts the
//! allocations and reallocations made while a structure's call runs on
//! this thread; the scene generator and the test's bookkeeping run with
//! counting off. Set `COLLIDE_ALLOC_TRACE=1` to print a backtrace of each
//! counted allocation (run with `--test-threads 1` to keep them apart),
//! and `COLLIDE_ALLOC_ONLY` to a prefix of the runs' names (`"bvh 2"`,
//! `"grid 3 flat"`) to run only those.

use collide::{BroadPhase, Handle, Structure, Vector};
use collide_scenes::alloc;
use collide_scenes::{Motion, Record, Scene, SceneConfig, SceneKind};
use glam::{Vec2, Vec3};

/// Runs `f`, with counting on if `count`; returns its result and the
/// allocations counted.
fn counted<R>(count: bool, f: impl FnOnce() -> R) -> (R, u64) {
    if !count {
        return (f(), 0);
    }
    let before = alloc::tracked().allocations;
    let result = alloc::track(f);
    (result, alloc::tracked().allocations - before)
}

/// Frames run before counting starts: long enough for every buffer to have
/// met the scene's usual high-water marks.
const WARM_FRAMES: usize = 60;
/// Frames counted after the warm-up.
const COUNTED_FRAMES: usize = 30;
/// Objects per scene.
const OBJECTS: usize = 600;
/// The scenes counted: those whose buffers have met their high-water
/// marks by the end of the warm-up at 600 objects. On rods (`elongated`),
/// `huge` and `sparse` clusters, node counts and cell pair lists still
/// reach new highs after 60 frames (a growth every few dozen frames,
/// amortised, not one per step), so a 30-frame window there would count
/// growth rather than steady state.
const COUNTED_SCENES: [SceneKind; 4] = [
    SceneKind::Uniform,
    SceneKind::Flat,
    SceneKind::Clustered,
    SceneKind::Large,
];
/// Objects per scene for `brute`, whose steps cost the square (its
/// allocations are those of the pair bookkeeping every structure shares).
const BRUTE_OBJECTS: usize = 300;

/// Structures that still allocate in steady state, left out of the main
/// window until they are reworked. `sap1` keeps one array per
/// band across the sweep axis: it counts each band's keys before filling
/// it and keeps spare arrays for added bands, but a band whose count
/// reaches a new high still grows, and its re-measure every 60 steps
/// (step 61 is in the window) re-cuts the bands and classifies spanners
/// anew. Between re-measures it allocates nothing:
/// [`sap1_allocates_nothing_between_its_remeasures`]. `auto` allocates
/// what the structure it runs allocates:
/// [`auto_allocates_no_more_than_the_structure_it_runs`].
const NOT_YET: &[Structure] = &[Structure::Sap1, Structure::Auto];

/// The allocations made by `name`'s calls over the counted frames of one
/// scene, after `warm` frames.
fn allocations<V: Vector>(name: Structure, kind: SceneKind, motion: Motion, warm: usize) -> u64 {
    let mut world = name.build::<V, u64>();
    allocations_of(world.as_mut(), kind, motion, warm, |_| true)
}

/// [`allocations`] of a structure made by the caller, over the counted
/// frames after whose step `counts(world)` holds.
fn allocations_of<V: Vector, W: BroadPhase<V, u64> + ?Sized>(
    world: &mut W,
    kind: SceneKind,
    motion: Motion,
    warm: usize,
    mut counts: impl FnMut(&W) -> bool,
) -> u64 {
    let name = world.name();
    let mut scene = Scene::<V>::new(SceneConfig {
        motion,
        ..SceneConfig::new(
            kind,
            if name == Structure::Brute.name() {
                BRUTE_OBJECTS
            } else {
                OBJECTS
            },
        )
    });
    let mut handles: Vec<Option<Handle>> = Vec::new();
    let mut records = Vec::new();
    let mut total = 0;
    for frame in 0..warm + COUNTED_FRAMES {
        scene.next_frame(&mut records);
        let count = frame >= warm;
        let mut made = 0;
        for record in &records {
            let id = record.id() as usize;
            if handles.len() <= id {
                handles.resize(id + 1, None);
            }
            match *record {
                Record::Upsert { id: _, aabb } => match handles[id] {
                    Some(h) => {
                        let (result, n) = counted(count, || world.update(h, aabb));
                        result.expect("scene boxes are valid");
                        made += n;
                    }
                    None => {
                        let (result, n) = counted(count, || world.insert(aabb, id as u64));
                        handles[id] = Some(result.expect("scene boxes are valid"));
                        made += n;
                    }
                },
                Record::Remove { id: _ } => {
                    let h = handles[id].take().expect("the scene removes present ids");
                    let (result, n) = counted(count, || world.remove(h));
                    result.expect("the handle is live");
                    made += n;
                }
            }
        }
        let ((), n) = counted(count, || {
            world.step();
        });
        if counts(world) {
            total += made + n;
        }
    }
    total
}

/// Every structure of `names` on every scene kind and `motions`, in
/// dimension `V`, counted after `warm` frames; the runs that allocated, as
/// lines.
fn allocating_runs<V: Vector>(names: &[Structure], motions: &[Motion], warm: usize) -> Vec<String> {
    alloc::set_backtraces(std::env::var_os("COLLIDE_ALLOC_TRACE").is_some());
    let only = std::env::var("COLLIDE_ALLOC_ONLY").ok();
    let mut found = Vec::new();
    for &name in names {
        for &kind in &COUNTED_SCENES {
            for &motion in motions {
                let run = format!("{name} {} {kind} {motion}", V::DIM);
                if !only.as_deref().is_none_or(|o| run.starts_with(o)) {
                    continue;
                }
                let n = allocations::<V>(name, kind, motion, warm);
                if n > 0 {
                    found.push(format!(
                        "{name} {}D {kind} {motion}: {n} allocations",
                        V::DIM
                    ));
                }
            }
        }
    }
    found
}

fn assert_none(found: Vec<String>, warm: usize) {
    assert!(
        found.is_empty(),
        "structures allocated after the warm-up ({warm} frames, {OBJECTS} objects, \
         {COUNTED_FRAMES} frames counted); rerun with COLLIDE_ALLOC_TRACE=1 and \
         --test-threads 1 for backtraces:\n{}",
        found.join("\n")
    );
}

/// Every structure but those [`NOT_YET`] names.
fn settled_structures() -> Vec<Structure> {
    Structure::ALL
        .into_iter()
        .filter(|structure| !NOT_YET.contains(structure))
        .collect()
}

#[test]
fn no_structure_allocates_per_frame_in_2d() {
    let runs = allocating_runs::<Vec2>(&settled_structures(), &Motion::ALL, WARM_FRAMES);
    assert_none(runs, WARM_FRAMES);
}

#[test]
fn no_structure_allocates_per_frame_in_3d() {
    let runs = allocating_runs::<Vec3>(&settled_structures(), &Motion::ALL, WARM_FRAMES);
    assert_none(runs, WARM_FRAMES);
}

/// `sap1` re-measures every 60 steps (steps 1, 61, 121, 181); frames 150
/// to 179 hold none of them.
const SAP1_WARM_FRAMES: usize = 150;

#[test]
fn sap1_allocates_nothing_between_its_remeasures() {
    let runs = allocating_runs::<Vec2>(&[Structure::Sap1], &Motion::ALL, SAP1_WARM_FRAMES);
    assert_none(runs, SAP1_WARM_FRAMES);
    let runs = allocating_runs::<Vec3>(&[Structure::Sap1], &Motion::ALL, SAP1_WARM_FRAMES);
    assert_none(runs, SAP1_WARM_FRAMES);
}

/// The grids' split batch update (`update_many` above the real threshold,
/// on two threads) allocates nothing once warm, counted on the thread that
/// calls it (the parts that other threads run are not counted; they write
/// only into the grid's arrays).
#[cfg(feature = "parallel")]
#[test]
fn split_batch_updates_allocate_nothing_once_warm() {
    const SPLIT_OBJECTS: usize = 20_000;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a thread pool");
    let mut found = Vec::new();
    for name in [Structure::Grid, Structure::HashGrid, Structure::HGrid] {
        for motion in [Motion::Slow, Motion::Fast] {
            let mut world = name.build::<Vec2, u64>();
            let mut scene = Scene::<Vec2>::new(SceneConfig {
                motion,
                ..SceneConfig::new(SceneKind::Uniform, SPLIT_OBJECTS)
            });
            let (mut records, mut handles, mut boxes) = (Vec::new(), Vec::new(), Vec::new());
            let mut by_id: Vec<Handle> = Vec::new();
            let mut made = 0;
            for frame in 0..12 {
                scene.next_frame(&mut records);
                if frame == 0 {
                    for record in &records {
                        let Record::Upsert { aabb, .. } = *record else {
                            panic!("the first frame inserts");
                        };
                        by_id.push(world.insert(aabb, record.id()).expect("inserted"));
                    }
                } else {
                    handles.clear();
                    boxes.clear();
                    for record in &records {
                        let Record::Upsert { id, aabb } = *record else {
                            panic!("{motion} only moves objects");
                        };
                        handles.push(by_id[id as usize]);
                        boxes.push(aabb);
                    }
                    let (result, n) = pool
                        .install(|| counted(frame >= 8, || world.update_many(&handles, &boxes)));
                    result.expect("live handles");
                    made += n;
                }
                pool.install(|| world.step());
            }
            if made > 0 {
                found.push(format!("{name} {motion}: {made} allocations"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "split batch updates allocated after the warm-up (8 frames, {SPLIT_OBJECTS} objects, \
         4 frames counted); rerun with COLLIDE_ALLOC_TRACE=1 for backtraces:\n{}",
        found.join("\n")
    );
}

/// `auto` over the main window: its own bookkeeping (values,
/// reviews, working out whether a grid's cells still fit) allocates
/// nothing once warm, so it allocates no more than the structure it runs,
/// run alone on the same scene (which may be `sap1`, or a grid meeting a
/// new high of churn). The frames of a switch or a rebuild (from the step
/// that begins building the new structure to the one it takes over in),
/// which build a structure, are not counted; there are 4 of them for each
/// switch or rebuild (the steps that build the new structure, the last of
/// which it takes over in), and the check allows 5.
#[test]
fn auto_allocates_no_more_than_the_structure_it_runs() {
    fn runs<V: Vector>() -> Vec<String> {
        let mut found = Vec::new();
        for kind in COUNTED_SCENES {
            for motion in Motion::ALL {
                let mut auto = collide::Auto::<V, u64>::new();
                let (mut changes, mut skipped, mut window_changes) = (None, 0, 0);
                let n = allocations_of(&mut auto, kind, motion, WARM_FRAMES, |auto| {
                    let status = auto.status();
                    let now = status.switches + status.rebuilds;
                    let in_window = status.steps > WARM_FRAMES as u64;
                    window_changes += u64::from(in_window && changes != Some(now));
                    let quiet = status.switching_to.is_none() && changes == Some(now);
                    changes = Some(now);
                    skipped += u64::from(in_window && !quiet);
                    quiet
                });
                let status = auto.status();
                // At most one switch or rebuild under way as the window
                // opens, and few in it: the shared scenes do not flap.
                assert!(
                    window_changes <= 2 && skipped <= 5 * (window_changes + 1),
                    "{kind} {motion}: {window_changes} switches or rebuilds and {skipped} \
                     frames not counted in the window: {status:?}"
                );
                let running = auto.current();
                let alone = allocations::<V>(running, kind, motion, WARM_FRAMES);
                if n > alone {
                    found.push(format!(
                        "auto {}D {kind} {motion}: {n} allocations, {running} alone {alone}",
                        V::DIM
                    ));
                }
            }
        }
        found
    }
    let mut found = runs::<Vec2>();
    found.extend(runs::<Vec3>());
    assert_none(found, WARM_FRAMES);
}

/// A warm `Sweeper` allocates nothing: a circle swept with each response
/// through a field of boxes held by every settled structure (the sweep's
/// candidate and passed lists and its hit list are reused).
#[test]
fn a_warm_sweeper_allocates_nothing_on_every_structure() {
    use collide::motion::{Response, SweepLimits, d2::Sweeper};
    use collide::narrow::Support;
    use collide::narrow::d2::{Circle, Cuboid, Pose};
    let crate_shape = Cuboid::new(Vec2::new(0.4, 0.4)).expect("a valid box");
    let ball = Circle::new(0.3).expect("a valid circle");
    let mut found = Vec::new();
    for name in settled_structures() {
        let mut world = name.build::<Vec2, u64>();
        let mut poses: Vec<Option<Pose>> = Vec::new();
        for k in 0..400u64 {
            let at = Vec2::new((k % 20) as f32 * 1.5, (k / 20) as f32 * 1.5);
            let pose = Pose::at(at).expect("a valid pose");
            let h = world.insert(crate_shape.aabb(&pose), k).expect("inserted");
            let slot = h.index() as usize;
            poses.resize(poses.len().max(slot + 1), None);
            poses[slot] = Some(pose);
        }
        world.step();
        let shape_of = |h: Handle| {
            poses
                .get(h.index() as usize)
                .copied()
                .flatten()
                .map(|pose| (&crate_shape as &dyn Support<Vec2>, pose))
        };
        for response in [
            Response::Slide,
            Response::Pass,
            Response::Bounce { restitution: 0.5 },
        ] {
            let mut sweeper = Sweeper::new(response, SweepLimits::default());
            let mut made = 0;
            for round in 0..2 {
                for k in 0..200 {
                    let angle = k as f32 * 0.37;
                    let start = Pose::at(Vec2::new(0.75 + (k % 19) as f32 * 1.5, 0.75))
                        .expect("a valid pose");
                    let motion = Vec2::new(angle.cos(), angle.sin().abs()) * 12.0;
                    let (_, n) = counted(round == 1, || {
                        sweeper.sweep(world.as_ref(), shape_of, &ball, start, motion);
                    });
                    made += n;
                }
            }
            if made > 0 {
                found.push(format!("{name} {response:?}: {made} allocations"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "warm sweeps allocated; rerun with COLLIDE_ALLOC_TRACE=1 and --test-threads 1:\n{}",
        found.join("\n")
    );
}
