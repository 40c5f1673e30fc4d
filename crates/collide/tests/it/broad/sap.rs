//! Sweep-and-prune (`sap`, `sap1`) against brute force on every frame, with
//! its invariants checked after every operation, in every setting that
//! changes its path: spanning list on and off, fixed and measured axes,
//! re-sorts, jumps and churn.

use collide::geometry::{Ray, Region};
use collide::{
    Aabb, Aabb2, Aabb3, BandSap, BroadPhase, Error, FrameEvents, Handle, Pair, Query, QueryBudget,
    QueryStats, RayHit, Sap, SapConfig, SapStats, Snapshot, Spanners, StepStats, Vector, Verified,
};
use collide_scenes::lattice_scene;
use collide_scenes::{Motion, Record, Scene, SceneConfig, SceneKind};
use glam::{Vec2, Vec3};
use proptest::prelude::*;
use std::ops::ControlFlow;

/// Which sweep-and-prune a test runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SapKind {
    /// [`Sap`]: every axis.
    AllAxes,
    /// [`BandSap`]: one axis, in bands.
    OneAxis,
}

const KINDS: [SapKind; 2] = [SapKind::AllAxes, SapKind::OneAxis];

/// Either sweep-and-prune, so one test body runs both.
enum AnySap<V: Vector, T> {
    AllAxes(Sap<V, T>),
    OneAxis(BandSap<V, T>),
}

macro_rules! each {
    ($value:expr, $s:ident => $body:expr) => {
        match $value {
            AnySap::AllAxes($s) => $body,
            AnySap::OneAxis($s) => $body,
        }
    };
}

impl<V: Vector, T> AnySap<V, T> {
    fn with_config(kind: SapKind, config: SapConfig) -> Result<Self, Error> {
        Ok(match kind {
            SapKind::AllAxes => Self::AllAxes(Sap::with_config(config)?),
            SapKind::OneAxis => Self::OneAxis(BandSap::with_config(config)?),
        })
    }
    fn new(kind: SapKind) -> Self {
        Self::with_config(kind, SapConfig::default()).unwrap()
    }
    fn sap_stats(&self) -> SapStats {
        each!(self, s => s.sap_stats())
    }
    fn sweep_axis(&self) -> usize {
        each!(self, s => s.sweep_axis())
    }
    fn validate(&self) -> Result<(), String> {
        each!(self, s => s.validate())
    }
}

impl<V: Vector, T> Query<V> for AnySap<V, T> {
    fn name(&self) -> &str {
        each!(self, s => s.name())
    }
    fn len(&self) -> usize {
        each!(self, s => s.len())
    }
    fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
        each!(self, s => s.aabb(handle))
    }
    fn query_aabb(
        &self,
        aabb: &Aabb<V>,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        each!(self, s => s.query_aabb(aabb, visit))
    }
    fn query_region(
        &self,
        region: &dyn Region<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> QueryStats {
        each!(self, s => s.query_region(region, budget, visit))
    }
    fn query_ray(
        &self,
        ray: &Ray<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(RayHit) -> ControlFlow<()>,
    ) -> QueryStats {
        each!(self, s => s.query_ray(ray, budget, visit))
    }
}

impl<V: Vector, T> BroadPhase<V, T> for AnySap<V, T> {
    fn insert(&mut self, aabb: Aabb<V>, value: T) -> Result<Handle, Error> {
        each!(self, s => s.insert(aabb, value))
    }
    fn update(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<(), Error> {
        each!(self, s => s.update(handle, aabb))
    }
    fn remove(&mut self, handle: Handle) -> Result<T, Error> {
        each!(self, s => s.remove(handle))
    }
    fn step(&mut self) -> std::sync::Arc<FrameEvents> {
        each!(self, s => s.step())
    }
    fn events(&self) -> &FrameEvents {
        each!(self, s => s.events())
    }
    fn pairs(&self) -> &[Pair] {
        each!(self, s => s.pairs())
    }
    fn stats(&self) -> StepStats {
        each!(self, s => s.stats())
    }
    fn value(&self, handle: Handle) -> Option<&T> {
        each!(self, s => s.value(handle))
    }
    fn value_mut(&mut self, handle: Handle) -> Option<&mut T> {
        each!(self, s => s.value_mut(handle))
    }
    fn for_each_object(
        &self,
        visit: &mut dyn FnMut(Handle, Aabb<V>, &T) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        each!(self, s => s.for_each_object(visit))
    }
    fn snapshot(&self) -> Snapshot<V> {
        each!(self, s => s.snapshot())
    }
}

/// Settings that send the structure down each of its paths.
fn configs() -> Vec<(&'static str, SapConfig)> {
    vec![
        ("default", SapConfig::default()),
        (
            "no spanning list, remeasured every step",
            SapConfig {
                spanners: Spanners::Off,
                remeasure_every: 1,
                ..SapConfig::default()
            },
        ),
        (
            "many spanners, axis fixed to y",
            SapConfig {
                spanners: Spanners::Extent(14.0),
                sweep_axis: Some(1),
                ..SapConfig::default()
            },
        ),
        (
            "remeasured every other step",
            SapConfig {
                remeasure_every: 2,
                ..SapConfig::default()
            },
        ),
        (
            "spanners above twice the median",
            SapConfig {
                spanners: Spanners::Relative { factor: 1.5 },
                remeasure_every: 3,
                ..SapConfig::default()
            },
        ),
    ]
}

fn verify<V: Vector>(
    kind: SapKind,
    config: SapConfig,
    frames: &[Vec<Record<V>>],
    what: &str,
) -> AnySap<V, u64> {
    let sap = AnySap::with_config(kind, config).unwrap();
    crate::common::verify_each(sap, frames, what, AnySap::validate)
}

#[test]
fn sap_matches_brute_force_on_every_shared_scene_in_every_setting() {
    for kind in KINDS {
        for (name, config) in configs() {
            for scene in SceneKind::ALL {
                for motion in Motion::ALL {
                    let scene_config = SceneConfig {
                        motion,
                        seed: 5,
                        ..SceneConfig::new(scene, 200)
                    };
                    verify(
                        kind,
                        config,
                        &Scene::<Vec2>::new(scene_config).take_frames(14),
                        &format!("{kind:?} {name}: 2D {scene} {motion}"),
                    );
                    verify(
                        kind,
                        config,
                        &Scene::<Vec3>::new(scene_config).take_frames(8),
                        &format!("{kind:?} {name}: 3D {scene} {motion}"),
                    );
                }
            }
        }
    }
}

#[test]
fn sap_matches_brute_force_on_lattices_and_extreme_coordinates() {
    for kind in KINDS {
        for (name, config) in configs() {
            for seed in 0..6 {
                for (offset, unit) in [
                    (0.0, 1.0),
                    (-1.0e6, 1.0),
                    (-4.0, 1.0), // crosses -0.0 and +0.0
                    (1.0e38, 1.0e37),
                    (-3.0e38, 1.0e37),
                ] {
                    let mut frames = lattice_scene::<Vec2>(seed, 30, offset, unit);
                    frames[0].push(Record::Upsert {
                        id: 99_999,
                        aabb: Aabb2::new(Vec2::splat(-3.0e38), Vec2::splat(3.0e38)).unwrap(),
                    });
                    verify(
                        kind,
                        config,
                        &frames,
                        &format!("{kind:?} {name}: 2D {seed} at {offset}"),
                    );
                    verify(
                        kind,
                        config,
                        &lattice_scene::<Vec3>(seed, 15, offset, unit),
                        &format!("{kind:?} {name}: 3D {seed} at {offset}"),
                    );
                }
            }
        }
    }
}

/// The classic failure: with touching boxes, a start sorted before an equal
/// end made the pair look open on that axis; when the boxes then really
/// overlapped no swap happened, and the pair was silently lost after one
/// frame. Eight objects in a row, touching, then pushed into each other and
/// pulled back to touching, frame after frame.
#[test]
fn touching_boxes_that_then_overlap_are_never_lost() {
    for kind in KINDS {
        let row = |shift: f32| -> Vec<Record<Vec2>> {
            (0..8u64)
                .map(|i| {
                    let x = 2.0 * i as f32 + if i % 2 == 1 { shift } else { 0.0 };
                    Record::Upsert {
                        id: i,
                        aabb: Aabb2::new(Vec2::new(x, 0.0), Vec2::new(x + 2.0, 2.0)).unwrap(),
                    }
                })
                .collect()
        };
        let frames: Vec<_> = [0.0, -0.5, 0.0, 0.5, 0.0, -1.0, -2.0, 0.0, 0.0]
            .into_iter()
            .map(row)
            .collect();
        let sap = verify(kind, SapConfig::default(), &frames, &format!("{kind:?}"));
        assert!(
            sap.pairs().is_empty(),
            "touching again at the end: no pairs"
        );
    }
    // The exact case: touching, then one step into each other.
    let mut sap: Sap<Vec2> = Sap::new();
    let a = sap
        .insert(Aabb2::new(Vec2::ZERO, Vec2::splat(2.0)).unwrap(), ())
        .unwrap();
    let b = sap
        .insert(
            Aabb2::new(Vec2::new(2.0, 0.0), Vec2::new(4.0, 2.0)).unwrap(),
            (),
        )
        .unwrap();
    assert!(sap.step().is_empty());
    sap.update(
        b,
        Aabb2::new(Vec2::new(1.5, 0.0), Vec2::new(3.5, 2.0)).unwrap(),
    )
    .unwrap();
    assert_eq!(sap.step().started, vec![Pair::new(a, b)]);
    assert_eq!(sap.sap_stats().resorts, 0, "found by a swap, not a re-sort");
}

#[test]
fn negative_zero_and_positive_zero_are_the_same_coordinate() {
    for kind in KINDS {
        let mut world = Verified::new(AnySap::<Vec2, ()>::new(kind)).unwrap();
        let a = world
            .insert(
                Aabb2::new(Vec2::new(-2.0, 0.0), Vec2::new(-0.0, 1.0)).unwrap(),
                (),
            )
            .unwrap();
        let b = world
            .insert(
                Aabb2::new(Vec2::new(0.0, 0.0), Vec2::new(2.0, 1.0)).unwrap(),
                (),
            )
            .unwrap();
        world.step_checked().unwrap();
        assert!(
            world.pairs().is_empty(),
            "touching at zero is not overlapping"
        );
        world
            .update(
                b,
                Aabb2::new(Vec2::new(-0.0, 0.0), Vec2::new(2.0, 1.0)).unwrap(),
            )
            .unwrap();
        world
            .update(
                a,
                Aabb2::new(Vec2::new(-2.0, 0.0), Vec2::new(0.0, 1.0)).unwrap(),
            )
            .unwrap();
        world.step_checked().unwrap();
        assert!(world.pairs().is_empty());
    }
}

#[test]
fn a_removed_objects_slot_reused_before_the_step_keeps_both_stories_apart() {
    for kind in KINDS {
        let mut world = Verified::new(AnySap::<Vec2, ()>::new(kind)).unwrap();
        let unit = Aabb2::new(Vec2::ZERO, Vec2::splat(2.0)).unwrap();
        let a = world.insert(unit, ()).unwrap();
        let b = world.insert(unit, ()).unwrap();
        world.step_checked().unwrap();
        world.remove(a).unwrap();
        let c = world.insert(unit, ()).unwrap();
        assert_eq!(c.index(), a.index(), "the slot is reused");
        let events = world.step_checked().unwrap().clone();
        assert_eq!(events.stopped, vec![Pair::new(a, b)]);
        assert_eq!(events.started, vec![Pair::new(b, c)]);
    }
}

#[test]
fn coherent_motion_repairs_and_incoherent_motion_resorts() {
    let frames = |motion| {
        let config = SceneConfig {
            motion,
            ..SceneConfig::new(SceneKind::Uniform, 2000)
        };
        Scene::<Vec2>::new(config).take_frames(6)
    };
    // `sap` repairs slow motion; teleports are re-inserted, not swapped.
    let slow = verify(
        SapKind::AllAxes,
        SapConfig::default(),
        &frames(Motion::Slow),
        "slow",
    );
    assert_eq!(slow.sap_stats().resorts, 0, "slow motion repairs");
    assert!(slow.sap_stats().swaps.iter().sum::<u64>() > 0);
    let teleport = verify(
        SapKind::AllAxes,
        SapConfig::default(),
        &frames(Motion::Teleport),
        "teleport",
    );
    assert_eq!(teleport.sap_stats().resorts, 0);
    // Each mover teleports with probability 5% (about 100 of 2000); a
    // landing within a few sizes is no jump.
    let jumps = teleport.sap_stats().jumps;
    assert!((60..=140).contains(&jumps), "{jumps} jumps");

    // A lattice of 3000 boxes: first one box slides (both kinds repair),
    // then every row slides the other way from its neighbours, each box
    // passing about fifty others on x: the swaps would cost more than a
    // sort, so both re-sort.
    let place = |i: u64, shift: f32| {
        let (col, row) = ((i % 60) as f32, (i / 60) as f32);
        let dx = if (i / 60).is_multiple_of(2) {
            shift
        } else {
            -shift
        };
        let p = Vec2::new(col * 10.0 + dx, row * 10.0);
        Record::Upsert {
            id: i,
            aabb: Aabb2::new(p, p + Vec2::splat(4.0)).unwrap(),
        }
    };
    let lattice: Vec<Record<Vec2>> = (0..3000).map(|i| place(i, 0.0)).collect();
    let slide = |x: f32| {
        let p = Vec2::new(x, 3.0);
        vec![Record::Upsert {
            id: 5000,
            aabb: Aabb2::new(p, p + Vec2::splat(4.0)).unwrap(),
        }]
    };
    let mut frames = vec![lattice];
    // Its min passes column 1's at x = 10 (`sap1` keeps only mins), its
    // max passes that start earlier (`sap`).
    frames.extend((1..4).map(|k| slide(k as f32 * 4.0)));
    frames.push((0..3000).map(|i| place(i, 7.0)).collect());
    for kind in KINDS {
        let sap = verify(kind, SapConfig::default(), &frames[..4], "one slides");
        assert_eq!(sap.sap_stats().resorts, 0, "{kind:?}");
        assert!(sap.sap_stats().swaps.iter().sum::<u64>() > 0, "{kind:?}");
        let sap = verify(kind, SapConfig::default(), &frames, "rows slide");
        assert_eq!(sap.sap_stats().resorts, 1, "{kind:?}");
        assert_eq!(
            sap.sap_stats().jumps,
            0,
            "{kind:?}: no jump, only many swaps"
        );
    }
}

/// The frames with every box's corners mapped by `map` (a swap of axes or
/// a stretch, which keep min below max).
fn map_corners(frames: &[Vec<Record<Vec2>>], map: fn(Vec2) -> Vec2) -> Vec<Vec<Record<Vec2>>> {
    frames
        .iter()
        .map(|frame| {
            frame
                .iter()
                .map(|r| match r {
                    Record::Upsert { id, aabb } => Record::Upsert {
                        id: *id,
                        aabb: Aabb2::new(map(aabb.min()), map(aabb.max())).unwrap(),
                    },
                    other => *other,
                })
                .collect()
        })
        .collect()
}

#[test]
fn the_sweep_axis_is_the_one_with_the_largest_variance() {
    // Flat along x: x is the axis; the same scene turned on its side: y.
    let flat = Scene::<Vec2>::new(SceneConfig::new(SceneKind::Flat, 500)).take_frames(1);
    let turned = map_corners(&flat, |v| Vec2::new(v.y, v.x));
    for kind in KINDS {
        let sap = verify(kind, SapConfig::default(), &flat, "flat");
        let v = sap.sap_stats().variance;
        assert!(v[0] > 20.0 * v[1], "{v:?}");
        assert_eq!(sap.sweep_axis(), 0);
        let sap = verify(kind, SapConfig::default(), &turned, "turned");
        assert_eq!(sap.sweep_axis(), 1);
    }
}

#[test]
fn world_spanning_objects_live_in_their_own_list() {
    // 20 floors spanning the world along x, thin along y.
    let config = SceneConfig::new(SceneKind::Large, 1000);
    let frames = Scene::<Vec2>::new(config).take_frames(3);
    let along = |axis| SapConfig {
        sweep_axis: Some(axis),
        ..SapConfig::default()
    };
    for kind in KINDS {
        // Sweeping along the floors: they would meet everything.
        let sap = verify(kind, along(0), &frames, "large, sweeping x");
        assert_eq!(sap.sap_stats().spanners, 20, "{kind:?}");
        // Sweeping across them they are short intervals like any other.
        let sap = verify(kind, along(1), &frames, "large, sweeping y");
        assert_eq!(sap.sap_stats().spanners, 0, "{kind:?}");
        let off = SapConfig {
            spanners: Spanners::Off,
            ..along(0)
        };
        let sap = verify(kind, off, &frames, "large, list off");
        assert_eq!(sap.sap_stats().spanners, 0, "{kind:?}");
    }
}

#[test]
fn floors_across_the_widest_axis_turn_the_sweep_along_them() {
    // The floors of `large` span x; the movers spread twice as far in y,
    // so the centres vary most along y. Sweeping y would put every floor
    // in every band of `sap1`: the sweep runs along x, the floors listed.
    let large = Scene::<Vec2>::new(SceneConfig::new(SceneKind::Large, 1000)).take_frames(3);
    let tall = map_corners(&large, |v| Vec2::new(v.x, 2.0 * v.y));
    let turned = map_corners(&tall, |v| Vec2::new(v.y, v.x));
    for kind in KINDS {
        let sap = verify(kind, SapConfig::default(), &tall, "tall");
        let v = sap.sap_stats().variance;
        assert!(v[1] > 2.0 * v[0], "{v:?}");
        assert_eq!((sap.sweep_axis(), sap.sap_stats().spanners), (0, 20));
        let sap = verify(kind, SapConfig::default(), &turned, "turned");
        assert_eq!((sap.sweep_axis(), sap.sap_stats().spanners), (1, 20));
        // Without a spanning list the variance decides.
        let off = SapConfig {
            spanners: Spanners::Off,
            ..SapConfig::default()
        };
        let sap = verify(kind, off, &tall, "tall, list off");
        assert_eq!((sap.sweep_axis(), sap.sap_stats().spanners), (1, 0));
    }
}

#[test]
fn sap1_takes_the_spanners_pair_changes_from_the_moves_and_matches_brute_force() {
    // Static floors under slow movers: after the first steps the changes
    // come from the moves. Fast motion and churn change too many pairs or
    // the lists (every pair found again); walls going up and down change
    // the spanners. Every frame is checked against brute force either way.
    /// Steps from the moves, and those of them that were also coherent.
    fn run<V: Vector>(kind: SceneKind, motion: Motion, frames: usize) -> (usize, usize) {
        let config = SceneConfig {
            motion,
            seed: 3,
            ..SceneConfig::new(kind, 400)
        };
        let frames = Scene::<V>::new(config).take_frames(frames);
        let flags = std::cell::RefCell::new(Vec::new());
        let what = format!("sap1 {kind} {motion} {}D", V::DIM);
        crate::common::verify_each(BandSap::<V, u64>::new(), &frames, &what, |s| {
            let stats = s.sap_stats();
            flags
                .borrow_mut()
                .push((stats.spanners_from_moves, stats.coherent));
            s.validate()
        });
        // The last check of each frame follows its step.
        let flags = flags.into_inner();
        let mut at = 0;
        let (mut from_moves, mut coherent) = (0, 0);
        for frame in &frames {
            at += frame.len();
            let (moves, kept) = flags[at];
            from_moves += usize::from(moves);
            coherent += usize::from(moves && kept);
            at += 1;
        }
        (from_moves, coherent)
    }
    assert!(run::<Vec2>(SceneKind::Large, Motion::Slow, 30).0 >= 25);
    // In 3D the pairs are few, so some steps change more than one in four
    // and find every pair again.
    assert!(run::<Vec3>(SceneKind::Large, Motion::Slow, 30).0 >= 15);
    // Most movers resting: the kept band pairs are brought up to date
    // around the few that move (a coherent step) before the diff.
    assert!(run::<Vec2>(SceneKind::Large, Motion::Resting, 30).1 >= 15);
    for motion in [Motion::Fast, Motion::Churn] {
        run::<Vec2>(SceneKind::Large, motion, 20);
        run::<Vec3>(SceneKind::Large, motion, 20);
    }
    assert!(run::<Vec2>(SceneKind::Walls, Motion::Slow, 250).0 > 0);
}

/// Boxes with integer corners on a wide lattice: `sap1` cuts it into bands
/// whose edges fall on lattice lines, so boxes start, end and touch exactly
/// on band edges, cross them, jump across many, and churn.
fn banded_lattice(seed: u64, frames: usize) -> Vec<Vec<Record<Vec2>>> {
    let mut rng = collide_scenes::SceneRng::new(seed);
    let mut out = Vec::new();
    let mut live: Vec<u64> = Vec::new();
    let mut next = 0u64;
    let lattice_box = |rng: &mut collide_scenes::SceneRng| {
        let min = Vec2::new(rng.below(64) as f32, rng.below(64) as f32);
        let size = Vec2::new(rng.below(3) as f32, rng.below(3) as f32);
        Aabb2::new(min, min + size).unwrap()
    };
    for frame in 0..frames {
        let mut records = Vec::new();
        let old = next; // ids below this existed before this frame
        let inserts = if frame == 0 { 400 } else { rng.below(6) };
        for _ in 0..inserts {
            live.push(next);
            records.push(Record::Upsert {
                id: next,
                aabb: lattice_box(&mut rng),
            });
            next += 1;
        }
        if frame > 0 {
            for _ in 0..rng.below(6) {
                let id = live.swap_remove(rng.below(live.len()));
                records.push(Record::Remove { id });
            }
            for &id in &live {
                if rng.below(4) == 0 && id < old {
                    records.push(Record::Upsert {
                        id,
                        aabb: lattice_box(&mut rng),
                    });
                }
            }
        }
        out.push(records);
    }
    out
}

#[test]
fn sap1_cuts_wide_worlds_into_bands_and_still_matches_brute_force() {
    for seed in 0..6 {
        for (name, config) in configs() {
            let frames = banded_lattice(seed, 20);
            let sap = verify(
                SapKind::OneAxis,
                config,
                &frames,
                &format!("{name}, seed {seed}"),
            );
            let bands = sap.sap_stats().bands;
            assert!(bands > 1, "{name}: {:?}", sap.sap_stats());
        }
    }
    // The shared scene at 2000 objects: bands of about 8 sizes.
    let frames = Scene::<Vec2>::new(SceneConfig::new(SceneKind::Uniform, 2000)).take_frames(4);
    let sap = verify(SapKind::OneAxis, SapConfig::default(), &frames, "uniform");
    assert!(sap.sap_stats().bands >= 8, "{:?}", sap.sap_stats());
    // A thin 3D corridor (50 units across, objects 5 to 20): narrower
    // bands rather than one band of 8 sizes.
    let frames = Scene::<Vec3>::new(SceneConfig::new(SceneKind::Flat, 2000)).take_frames(4);
    let sap = verify(SapKind::OneAxis, SapConfig::default(), &frames, "3D flat");
    assert!(sap.sap_stats().bands >= 2, "{:?}", sap.sap_stats());
}

/// A grid of boxes drifting up across `sap1`'s band edges, a little each
/// frame: slow enough to repair, so objects change bands without a
/// re-sort.
#[test]
fn sap1_repairs_while_objects_change_bands() {
    let place = |i: u64, frame: usize| {
        let (col, row) = ((i % 40) as f32, (i / 40) as f32);
        // Rows drift at different speeds, so boxes pass each other on y.
        let y = row * 6.0 + frame as f32 * (0.5 + 0.25 * (i % 3) as f32);
        let p = Vec2::new(col * 5.0 + (i % 7) as f32 * 0.1, y);
        Record::Upsert {
            id: i,
            aabb: Aabb2::new(p, p + Vec2::new(4.0, 3.0)).unwrap(),
        }
    };
    let frames: Vec<Vec<Record<Vec2>>> = (0..24)
        .map(|frame| (0..1600).map(|i| place(i, frame)).collect())
        .collect();
    let config = SapConfig {
        sweep_axis: Some(0),
        ..SapConfig::default()
    };
    let sap = verify(SapKind::OneAxis, config, &frames, "drifting across bands");
    let stats = sap.sap_stats();
    assert!(stats.bands > 4, "{stats:?}");
    assert_eq!(stats.resorts, 0, "slow drift repairs: {stats:?}");
}

/// More than 4096 objects in one band: the band is re-sorted by the radix
/// sort rather than a comparison sort.
#[test]
fn sap1_resorts_a_crowded_band_by_radix() {
    let frames = |shift: f32| -> Vec<Record<Vec2>> {
        (0..5000u64)
            .map(|i| {
                // A thin strip: one band. Ties and touching boxes on x.
                let p = Vec2::new((i / 2) as f32 + shift * (i % 3) as f32, (i % 4) as f32);
                Record::Upsert {
                    id: i,
                    aabb: Aabb2::new(p, p + Vec2::new(1.0 + (i % 2) as f32, 1.0)).unwrap(),
                }
            })
            .collect()
    };
    let sap = verify(
        SapKind::OneAxis,
        SapConfig::default(),
        &[frames(0.0), frames(0.5), frames(3.0)],
        "one crowded band",
    );
    assert_eq!(sap.sap_stats().bands, 1);
    assert_eq!(sap.sap_stats().resorts, 1);
}

/// `sap1` over a row of 40 small boxes along x (so x is the sweep axis)
/// that stay put, then `more`, with `config`, after one step.
fn resting_row(
    config: SapConfig,
    more: &[Aabb2],
) -> (Verified<Vec2, (), BandSap<Vec2>>, Vec<collide::Handle>) {
    let mut world = Verified::new(BandSap::with_config(config).unwrap()).unwrap();
    let row = (0..40).map(|i| {
        let p = Vec2::new(100.0 + 10.0 * i as f32, (i % 3) as f32);
        Aabb2::new(p, p + Vec2::splat(2.0)).unwrap()
    });
    let handles = row
        .chain(more.iter().copied())
        .map(|aabb| world.insert(aabb, ()).unwrap())
        .collect();
    world.step_checked().unwrap();
    (world, handles)
}

#[test]
fn sap1_keeps_the_pairs_of_resting_objects_and_rescans_only_movers() {
    let scene = SceneConfig {
        motion: Motion::Resting,
        ..SceneConfig::new(SceneKind::Uniform, 2000)
    };
    let frames = Scene::<Vec2>::new(scene).take_frames(12);
    verify(
        SapKind::OneAxis,
        SapConfig::default(),
        &frames,
        "2D resting",
    );
    let mut world = Verified::new(BandSap::<Vec2, u64>::new()).unwrap();
    let mut runner = collide_scenes::Runner::new();
    let mut events = Vec::new();
    let mut coherent = 0;
    for records in &frames {
        runner.apply(&mut world, records).unwrap();
        runner.step(&mut world, &mut events);
        assert_eq!(world.last_divergence(), None);
        let stats = world.inner().sap_stats();
        assert!(stats.moved <= records.len() as u64);
        coherent += usize::from(stats.coherent);
    }
    // Every step after the first (which sorts) keeps the resting pairs.
    assert_eq!(coherent, frames.len() - 1);
}

#[test]
fn sap1_keeps_pairs_beside_a_floor_while_a_few_boxes_cross_it() {
    // 40 boxes in a row on a floor that spans the world (a spanner); each
    // frame three of them move up or down through the floor's top.
    let floor = Record::Upsert {
        id: 1000,
        aabb: Aabb2::new(Vec2::new(-10.0, -5.0), Vec2::new(500.0, 0.5)).unwrap(),
    };
    let boxed = |i: u64, frame: usize| {
        let lift = if (i as usize + frame) % 13 < 3 {
            (frame % 4) as f32 - 1.5
        } else {
            0.0
        };
        let p = Vec2::new(
            10.0 * i as f32 + (i % 2) as f32 * 7.0,
            lift + (i % 3) as f32 * 0.2,
        );
        Record::Upsert {
            id: i,
            aabb: Aabb2::new(p, p + Vec2::new(9.0, 2.0)).unwrap(),
        }
    };
    let mut frames = vec![
        (0..40)
            .map(|i| boxed(i, 0))
            .chain([floor])
            .collect::<Vec<_>>(),
    ];
    for frame in 1..12 {
        let moved =
            (0..40).filter(|&i| (i as usize + frame) % 13 < 3 || (i as usize + frame - 1) % 13 < 3);
        frames.push(moved.map(|i| boxed(i, frame)).collect());
    }
    let sap = verify(SapKind::OneAxis, SapConfig::default(), &frames, "a floor");
    let stats = sap.sap_stats();
    assert!(
        stats.coherent && stats.spanners == 1 && stats.moved > 0,
        "{stats:?}"
    );
}

#[test]
fn sap1_drops_the_pairs_of_a_slot_a_spanner_took_over() {
    // Caught while building the kept pairs: a removed object's slot taken
    // by a new world-spanning object kept the old object's pairs, reported
    // under the spanner's handle.
    let config = SapConfig {
        spanners: Spanners::Extent(20.0),
        ..SapConfig::default()
    };
    let (mut world, rest) = resting_row(config, &[]);
    let unit = Aabb2::new(Vec2::new(-50.0, 0.0), Vec2::new(-48.0, 2.0)).unwrap();
    let a = world.insert(unit, ()).unwrap();
    let b = world.insert(unit, ()).unwrap();
    world.step_checked().unwrap();
    world.remove(a).unwrap();
    let far = Aabb2::new(Vec2::new(-500.0, 50.0), Vec2::new(-400.0, 51.0)).unwrap();
    let spanner = world.insert(far, ()).unwrap();
    assert_eq!(spanner.index(), a.index(), "the slot is reused");
    let events = world.step_checked().unwrap().clone();
    let stats = world.inner().sap_stats();
    assert!(stats.coherent && stats.spanners == 1, "{stats:?}");
    assert_eq!(events.stopped, vec![Pair::new(a, b)]);
    assert!(events.started.is_empty() && world.pairs().is_empty());
    assert_eq!(world.inner().validate(), Ok(()));
    assert_eq!(rest.len(), 40);
}

#[test]
fn sap1_finds_a_movers_pair_with_a_long_resting_box_behind_it() {
    // The mover's scan backward must reach the start of a box 60 long
    // that did not move, 59 units behind it.
    let config = SapConfig {
        spanners: Spanners::Off,
        ..SapConfig::default()
    };
    let long = Aabb2::new(Vec2::new(0.0, 0.0), Vec2::new(60.0, 2.0)).unwrap();
    let at = |x: f32| Aabb2::new(Vec2::new(x, 0.5), Vec2::new(x + 2.0, 1.5)).unwrap();
    // Both in the first step, which scans every band: the longest extent
    // is then measured over everyone at the next coherent step.
    let (mut world, handles) = resting_row(config, &[long, at(62.0)]);
    let (long, mover) = (handles[40], handles[41]);
    assert!(world.pairs().is_empty());
    world.update(mover, at(59.0)).unwrap();
    let events = world.step_checked().unwrap().clone();
    let stats = world.inner().sap_stats();
    assert!(stats.coherent && stats.moved == 1, "{stats:?}");
    assert_eq!(events.started, vec![Pair::new(long, mover)]);
    assert_eq!(world.inner().validate(), Ok(()));
}

#[test]
fn queries_see_pending_changes_and_match_brute_force() {
    for kind in KINDS {
        for scene in [SceneKind::Uniform, SceneKind::Large] {
            let config = SceneConfig {
                motion: Motion::Churn,
                ..SceneConfig::new(scene, 300)
            };
            let mut sap: AnySap<Vec2, u64> = AnySap::new(kind);
            let frames = Scene::<Vec2>::new(config).take_frames(5);
            let hits = crate::common::queries_match_brute(
                &mut sap,
                &frames,
                &crate::common::probes(),
                "2D",
            );
            assert!(hits > 0);
            let mut sap: AnySap<Vec3, u64> = AnySap::new(kind);
            let frames = Scene::<Vec3>::new(config).take_frames(4);
            crate::common::queries_match_brute(&mut sap, &frames, &crate::common::probes(), "3D");
        }
    }
}

#[test]
fn bad_settings_are_refused_by_name() {
    let bad = [
        SapConfig {
            sweep_axis: Some(3),
            ..SapConfig::default()
        },
        SapConfig {
            remeasure_every: 0,
            ..SapConfig::default()
        },
        SapConfig {
            spanners: Spanners::Relative { factor: 0.5 },
            ..SapConfig::default()
        },
        SapConfig {
            spanners: Spanners::Extent(f32::NAN),
            ..SapConfig::default()
        },
    ];
    for (config, name) in bad
        .into_iter()
        .zip(["sweep_axis", "remeasure_every", "factor", "extent"])
    {
        let err = Sap::<Vec3>::with_config(config).unwrap_err();
        assert!(err.to_string().contains(name), "{err}");
    }
}

/// One operation of a random sequence.
#[derive(Clone, Debug)]
enum Op {
    Insert([u8; 4]),
    Update(usize, [u8; 4]),
    Remove(usize),
    Step,
}

fn op() -> impl Strategy<Value = Op> {
    let corners = any::<[u8; 4]>();
    prop_oneof![
        3 => corners.prop_map(Op::Insert),
        4 => (any::<usize>(), corners).prop_map(|(i, c)| Op::Update(i, c)),
        1 => any::<usize>().prop_map(Op::Remove),
        2 => Just(Op::Step),
    ]
}

/// A lattice box: corners on 0..24 (x, y) and 0..3 (z), sizes 0..2 (ties, touching, identical
/// and zero-size boxes everywhere).
fn lattice(c: [u8; 4]) -> Aabb3 {
    // Wide on x and y so `sap1` cuts bands (a few sizes wide) with
    // objects on their edges.
    let min = Vec3::new(
        f32::from(c[0] % 24),
        f32::from(c[1] % 24),
        f32::from(c[3] % 3),
    );
    let size = Vec3::new(
        f32::from(c[2] % 3),
        f32::from(c[2] / 3 % 3),
        f32::from(c[3] / 3 % 2),
    );
    Aabb3::new(min, min + size).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]
    #[test]
    fn random_operations_on_a_lattice_match_brute_force(ops in prop::collection::vec(op(), 1..120), one_axis: bool, remeasure in 1u32..4, spanning: bool) {
        let kind = if one_axis { SapKind::OneAxis } else { SapKind::AllAxes };
        // Boxes are 0 to 2 long: above 1.5, one in three is a spanner along
        // the sweep axis, and updates move objects into and out of the list.
        let spanners = Spanners::Extent(if spanning { 1.5 } else { 2.5 });
        let config = SapConfig { remeasure_every: remeasure, spanners, ..SapConfig::default() };
        let mut world = Verified::new(AnySap::<Vec3, ()>::with_config(kind, config).unwrap()).unwrap();
        let mut live = Vec::new();
        for op in ops {
            match op {
                Op::Insert(c) => live.push(world.insert(lattice(c), ()).unwrap()),
                Op::Update(i, c) if !live.is_empty() => {
                    let h = live[i % live.len()];
                    world.update(h, lattice(c)).unwrap();
                }
                Op::Remove(i) if !live.is_empty() => {
                    let h = live.swap_remove(i % live.len());
                    world.remove(h).unwrap();
                }
                _ => {
                    let result = world.step_checked().map(|_| ());
                    prop_assert!(result.is_ok(), "{}", result.unwrap_err());
                    prop_assert_eq!(world.inner().validate(), Ok(()));
                }
            }
        }
        prop_assert!(world.step_checked().is_ok());
    }
}

/// Found by a character benchmark on the default world: once any object
/// had moved since the last step, every query on a sweep-and-prune tested
/// every object (1,000 characters in 10,000 boxes ran 20 times slower than
/// on a BVH). Now the sorted axes still answer for what has not moved, and
/// only the moved objects are tested besides: the same hits, a few tests.
#[test]
fn a_query_after_a_move_tests_the_moved_objects_not_every_object() {
    fn check<B: BroadPhase<Vec2, ()>>(mut world: B, name: &str) {
        let mut handles = Vec::new();
        for k in 0..10_000 {
            let at = Vec2::new((k % 100) as f32, (k / 100) as f32);
            let aabb = Aabb2::new(at, at + Vec2::splat(0.5)).unwrap();
            handles.push(world.insert(aabb, ()).unwrap());
        }
        world.step();
        // Three objects move (one far, into the query's area); one is new.
        for (k, to) in [
            (5, Vec2::new(5.2, 0.2)),
            (7070, Vec2::new(50.1, 50.1)),
            (9999, Vec2::new(50.3, 50.3)),
        ] {
            world
                .update(handles[k], Aabb2::new(to, to + Vec2::splat(0.5)).unwrap())
                .unwrap();
        }
        let new = world
            .insert(
                Aabb2::new(Vec2::splat(49.6), Vec2::splat(50.2)).unwrap(),
                (),
            )
            .unwrap();
        let area = Aabb2::new(Vec2::splat(49.9), Vec2::splat(51.2)).unwrap();
        let mut found = Vec::new();
        let stats = world.query_region(&area, QueryBudget::default(), &mut |h| {
            found.push(h);
            ControlFlow::Continue(())
        });
        found.sort_unstable();
        // The four lattice boxes at 50 and 51, the two moved in, the new one.
        let mut expected: Vec<Handle> = [5050, 5051, 5150, 5151, 7070, 9999]
            .map(|k| handles[k])
            .to_vec();
        expected.push(new);
        expected.sort_unstable();
        assert_eq!(found, expected, "{name}");
        assert!(
            stats.tested < 100,
            "{name}: {} objects tested",
            stats.tested
        );
    }
    check(Sap::new(), "sap");
    check(BandSap::new(), "sap1");
}
