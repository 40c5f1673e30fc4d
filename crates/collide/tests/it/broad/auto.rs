//! `auto`: the structure it runs changes, the events do not.
//! Every frame's events and pairs equal brute force's across switches made
//! by hand (to every structure, every few frames), by its own reviews on a
//! scene that changes character, and by the rebuilds of a grid whose cells
//! no longer fit.

use collide::{
    Aabb, Auto, AutoConfig, BroadPhase, Brute, Query, SceneProfile, Structure, Vector,
    choose_structure,
};
use collide_scenes::{
    IdEvent, Motion, PHASE_FRAMES, Record, Runner, Scene, SceneConfig, SceneKind,
};
use glam::{Vec2, Vec3};

/// The structures `auto` can run: all but itself.
const INNER: [Structure; Structure::ALL.len() - 1] = {
    let mut inner = [Structure::Brute; Structure::ALL.len() - 1];
    let (mut from, mut to) = (0, 0);
    while from < Structure::ALL.len() {
        if !matches!(Structure::ALL[from], Structure::Auto) {
            inner[to] = Structure::ALL[from];
            to += 1;
        }
        from += 1;
    }
    inner
};

#[test]
fn auto_runs_every_other_structure() {
    let mut auto = Auto::<Vec2, u64>::new();
    for s in INNER {
        auto.switch_to(s).unwrap();
        assert_eq!(auto.current(), s);
    }
    assert_eq!(
        auto.switch_to(Structure::Auto),
        Err(collide::Error::NestedAuto)
    );
}

/// The pairs of `world` as sorted (lower id, higher id).
fn pair_ids<V: Vector>(world: &dyn BroadPhase<V, u64>) -> Vec<(u64, u64)> {
    let mut v: Vec<(u64, u64)> = world
        .pairs()
        .iter()
        .map(|p| {
            let (x, y) = (*world.value(p.a()).unwrap(), *world.value(p.b()).unwrap());
            (x.min(y), x.max(y))
        })
        .collect();
    v.sort_unstable();
    v
}

/// Runs `frames` through `auto` and brute force side by side, calling
/// `before_step` before each step; panics at the first frame whose events
/// or pairs differ.
fn beside_brute<V: Vector>(
    auto: &mut Auto<V, u64>,
    frames: &[Vec<Record<V>>],
    mut before_step: impl FnMut(usize, &mut Auto<V, u64>),
    what: &str,
) {
    let mut brute = Brute::<V, u64>::new();
    let (mut ra, mut rb) = (Runner::new(), Runner::new());
    let (mut ea, mut eb): (Vec<IdEvent>, Vec<IdEvent>) = (Vec::new(), Vec::new());
    for (f, records) in frames.iter().enumerate() {
        ra.apply(auto, records).unwrap();
        rb.apply(&mut brute, records).unwrap();
        before_step(f, auto);
        let running = auto.current().to_string();
        ra.step(auto, &mut ea);
        rb.step(&mut brute, &mut eb);
        assert!(
            ea == eb,
            "{what}: frame {f} ({running}): {} events against brute force's {}",
            ea.len(),
            eb.len()
        );
        assert_eq!(
            pair_ids::<V>(auto),
            pair_ids::<V>(&brute),
            "{what}: frame {f}"
        );
    }
}

fn scene_frames<V: Vector>(
    kind: SceneKind,
    motion: Motion,
    n: usize,
    frames: usize,
) -> Vec<Vec<Record<V>>> {
    let mut scene = Scene::<V>::new(SceneConfig {
        motion,
        ..SceneConfig::new(kind, n)
    });
    (0..frames)
        .map(|_| {
            let mut records = Vec::new();
            scene.next_frame(&mut records);
            records
        })
        .collect()
}

#[test]
fn switching_by_hand_to_every_structure_loses_no_event() {
    for kind in SceneKind::ALL {
        for motion in [Motion::Slow, Motion::Teleport, Motion::Churn] {
            let frames = scene_frames::<Vec2>(kind, motion, 600, 40);
            let mut auto = Auto::<Vec2, u64>::new();
            let mut k = 0;
            beside_brute(
                &mut auto,
                &frames,
                |f, auto| {
                    if f % 3 == 2 {
                        k = (k + 1) % INNER.len();
                        auto.switch_to(INNER[k]).unwrap();
                    }
                },
                &format!("2D {kind} {motion}"),
            );
            assert!(
                auto.switches() >= 12,
                "{kind} {motion}: {} switches",
                auto.switches()
            );
        }
    }
    let frames = scene_frames::<Vec3>(SceneKind::Clustered, Motion::Fast, 600, 30);
    let mut auto = Auto::<Vec3, u64>::new();
    beside_brute(
        &mut auto,
        &frames,
        |f, auto| auto.switch_to(INNER[f % INNER.len()]).unwrap(),
        "3D clustered fast",
    );
}

#[test]
fn a_switch_by_hand_then_a_switch_built_and_taken_over_in_one_step_loses_nothing() {
    // Built over one step and begun at every review the pick differs: the
    // step after a switch by hand to a structure the table does not pick
    // begins and ends a switch back, so the structure dropped then never
    // stepped, and the events must come from the pairs kept at the switch
    // by hand, not from its pairs.
    let config = AutoConfig {
        review_every: 1,
        confirm: 1,
        switch_frames: 1,
    };
    for kind in [SceneKind::Uniform, SceneKind::Flattening] {
        let frames = scene_frames::<Vec2>(kind, Motion::Fast, 400, 24);
        let mut auto = Auto::<Vec2, u64>::with_config(config).unwrap();
        let mut taken_back = 0;
        // (never what runs, before the first pick)
        let mut picked = Structure::Auto;
        beside_brute(
            &mut auto,
            &frames,
            |f, auto| {
                if f > 0 && auto.current() == picked {
                    taken_back += 1;
                }
                if f % 2 == 1 {
                    picked = auto.current();
                    let other = if picked == Structure::Tree {
                        Structure::Loose
                    } else {
                        Structure::Tree
                    };
                    auto.switch_to(other).unwrap();
                }
            },
            &format!("2D {kind} fast"),
        );
        assert!(taken_back >= 8, "{kind}: taken back {taken_back} times");
    }
}

/// A 2D scene of `n` boxes on a jittered lattice whose height shrinks from
/// `height_from` to `height_to` over the frames (uniform turning flat when
/// it shrinks, flat turning uniform when it grows), every box moving a
/// little each frame.
fn squashing_scene(
    n: usize,
    frames: usize,
    height_from: f32,
    height_to: f32,
) -> Vec<Vec<Record<Vec2>>> {
    let side = (n as f32).sqrt().ceil() as usize;
    (0..frames)
        .map(|f| {
            let t = f as f32 / (frames - 1) as f32;
            let height = height_from + (height_to - height_from) * t;
            (0..n)
                .map(|i| {
                    let (col, row) = ((i % side) as f32, (i / side) as f32);
                    let wobble = ((i * 7 + f * 3) % 11) as f32 * 0.05;
                    let x = col * 10.0 + wobble;
                    let y = row / side as f32 * height + wobble;
                    Record::Upsert {
                        id: i as u64,
                        aabb: Aabb::new(Vec2::new(x, y), Vec2::new(x + 12.0, y + 3.0)).unwrap(),
                    }
                })
                .collect()
        })
        .collect()
}

/// An `Auto` that reviews every 5 steps and switches over 3, and 900
/// boxes squashed flat over 60 frames and stretched back over 60 more
/// (grid, then sweep and prune, then grid).
fn squashed_and_stretched() -> (Auto<Vec2, u64>, Vec<Vec<Record<Vec2>>>) {
    let config = AutoConfig {
        review_every: 5,
        confirm: 2,
        switch_frames: 3,
    };
    let mut frames = squashing_scene(900, 60, 300.0, 1.0);
    frames.extend(squashing_scene(900, 60, 1.0, 300.0));
    (Auto::with_config(config).unwrap(), frames)
}

#[test]
fn a_scene_turning_flat_switches_from_grid_to_sweep_and_prune_and_back_losing_nothing() {
    let (mut auto, frames) = squashed_and_stretched();
    let mut seen = Vec::new();
    beside_brute(
        &mut auto,
        &frames,
        |_, auto| {
            if seen.last() != Some(&auto.current()) {
                seen.push(auto.current());
            }
        },
        "squashed and stretched",
    );
    assert_eq!(
        seen,
        [
            Structure::Brute,
            Structure::Grid,
            Structure::Sap1,
            Structure::Grid
        ],
        "the structures auto ran, in order"
    );
}

#[test]
fn stale_handles_during_a_switch_are_errors_that_change_nothing() {
    let (mut auto, frames) = squashed_and_stretched();
    let mut frames_switching = 0;
    let probe = Aabb::new(Vec2::new(20.0, 0.0), Vec2::new(40.0, 5.0)).unwrap();
    beside_brute(
        &mut auto,
        &frames,
        |_, auto| {
            if auto.status().switching_to.is_none() {
                return;
            }
            frames_switching += 1;
            // Inserted into both structures and removed from both before
            // the step: no event, and a handle now stale in both.
            let gone = auto.insert(probe, u64::MAX).unwrap();
            assert_eq!(auto.remove(gone), Ok(u64::MAX));
            assert!(auto.update(gone, probe).is_err(), "a stale move");
            assert!(
                auto.update_many(&[gone], &[probe]).is_err(),
                "a stale batch"
            );
            assert!(auto.remove(gone).is_err(), "a second removal");
            assert_eq!(auto.aabb(gone), None);
        },
        "stale handles mid-switch",
    );
    assert!(frames_switching > 0, "a switch was under way on some frame");
}

/// What `auto` ran over a run: each structure with the step it took over,
/// and every step that had a switch under way.
#[derive(Debug, Default)]
struct Timeline {
    ran: Vec<(Structure, u64)>,
    building: Vec<u64>,
}

impl Timeline {
    /// Notes `auto`'s status between steps (from the first step on).
    fn note<V: Vector>(&mut self, auto: &Auto<V, u64>) {
        let status = auto.status();
        if status.steps == 0 {
            return;
        }
        if self.ran.last().map(|(s, _)| *s) != Some(status.structure) {
            self.ran.push((status.structure, status.since_step));
        }
        if status.switching_to.is_some() {
            self.building.push(status.steps);
        }
    }

    fn names(&self) -> Vec<Structure> {
        self.ran.iter().map(|(s, _)| *s).collect()
    }
}

/// `auto`, reviewing every 10 steps, on a scene that changes character,
/// beside brute force; what it ran.
fn changing_run<V: Vector>(kind: SceneKind, motion: Motion) -> Timeline {
    let config = AutoConfig {
        review_every: 10,
        confirm: 2,
        switch_frames: 3,
    };
    let mut auto = Auto::<V, u64>::with_config(config).unwrap();
    let frames = scene_frames::<V>(kind, motion, 800, (4 * PHASE_FRAMES + 30) as usize);
    let mut timeline = Timeline::default();
    beside_brute(
        &mut auto,
        &frames,
        |_, auto| timeline.note(auto),
        &format!("{}D {kind} {motion}", V::DIM),
    );
    timeline.note(&auto);
    timeline
}

#[test]
fn scenes_that_change_character_switch_by_themselves_losing_nothing() {
    for motion in [Motion::Slow, Motion::Churn] {
        for kind in SceneKind::CHANGING {
            let d2 = changing_run::<Vec2>(kind, motion);
            let d3 = changing_run::<Vec3>(kind, motion);
            // Uniform turning flat and back: the sweep while flat, the
            // grid before and after, in 2D and 3D alike.
            if kind == SceneKind::Flattening {
                for t in [&d2, &d3] {
                    assert_eq!(
                        t.names(),
                        [Structure::Grid, Structure::Sap1, Structure::Grid],
                        "{kind} {motion}: {t:?}"
                    );
                }
            }
            // Floors and walls appearing in 2D: the sweep while they stand.
            if kind == SceneKind::Walls {
                assert_eq!(
                    d2.names(),
                    [Structure::Grid, Structure::Sap1, Structure::Grid],
                    "{kind} {motion}: {d2:?}"
                );
            }
            // Every switch after the first pick was built over 3 steps
            // while the old structure answered (it began in the step
            // before the two noted here), and took over on the third.
            for t in [&d2, &d3] {
                for &(_, since) in &t.ran[1..] {
                    assert!(
                        t.building.contains(&(since - 1)) && t.building.contains(&since),
                        "{kind} {motion}: {t:?}"
                    );
                    assert!(!t.building.contains(&(since + 1)), "{kind} {motion}: {t:?}");
                }
            }
        }
    }
}

#[test]
fn status_says_what_runs_since_when_and_why() {
    let mut auto = Auto::<Vec2, u64>::new();
    let frames = scene_frames::<Vec2>(SceneKind::Flat, Motion::Slow, 800, 3);
    let mut runner = Runner::new();
    let mut events = Vec::new();
    for records in &frames {
        runner.apply(&mut auto, records).unwrap();
        runner.step(&mut auto, &mut events);
    }
    let status = auto.status();
    assert_eq!((status.structure, status.since_step), (Structure::Sap1, 0));
    assert!(status.reason.contains("flat"), "{status:?}");
    // The first step's pick replaces the empty start: not a switch.
    assert_eq!((status.steps, status.switches), (3, 0));
    assert!(status.profile.flatness > 100.0, "{status:?}");
    auto.switch_to(Structure::Grid).unwrap();
    let status = auto.status();
    assert_eq!((status.structure, status.since_step), (Structure::Grid, 3));
    assert_eq!(status.reason, "switched by hand");
}

#[test]
fn hysteresis_waits_for_agreeing_reviews() {
    // A flat scene: the first review picks sap1 at once; a scene that then
    // turns uniform for a single review does not switch back.
    let config = AutoConfig {
        review_every: 1,
        confirm: 3,
        switch_frames: 1,
    };
    let mut auto = Auto::<Vec2, u64>::with_config(config).unwrap();
    let flat = squashing_scene(400, 2, 1.0, 1.0);
    let uniform = squashing_scene(400, 2, 300.0, 300.0);
    let mut frames = vec![flat[0].clone(), flat[1].clone()];
    frames.push(uniform[0].clone()); // one review sees it uniform
    frames.extend(std::iter::repeat_n(flat[1].clone(), 3));
    let mut runs = Vec::new();
    beside_brute(&mut auto, &frames, |_, a| runs.push(a.current()), "flicker");
    assert!(runs[1..].iter().all(|&r| r == Structure::Sap1), "{runs:?}");
    assert_eq!(auto.switches(), 0, "no switch after the first pick");
}

#[test]
fn the_decision_table() {
    let p = |objects, flatness, size_spread, spanning_share| SceneProfile {
        objects,
        dim: 2,
        flatness,
        size_spread,
        spanning_share,
        ..SceneProfile::default()
    };
    let p3 = |objects, flatness, size_spread, spanning_share| SceneProfile {
        dim: 3,
        ..p(objects, flatness, size_spread, spanning_share)
    };
    let pick = |profile: SceneProfile| choose_structure(&profile).structure;
    assert_eq!(pick(p(10, 1.0, 1.0, 0.0)), Structure::Brute);
    assert_eq!(pick(p(5_000, 1.0, 1.5, 0.0)), Structure::Grid);
    assert_eq!(pick(p(1_000, 500.0, 1.5, 0.0)), Structure::Sap1);
    assert_eq!(pick(p(50_000, 500.0, 1.5, 0.0)), Structure::Grid);
    assert_eq!(pick(p3(2_000, 500.0, 1.5, 0.0)), Structure::Sap1);
    // Flat sweeps pay longer in 3D: 10,000 objects sweep there, not in 2D.
    assert_eq!(pick(p(10_000, 500.0, 1.5, 0.0)), Structure::Grid);
    assert_eq!(pick(p3(10_000, 500.0, 1.5, 0.0)), Structure::Sap1);
    assert_eq!(pick(p3(20_000, 500.0, 1.5, 0.0)), Structure::Grid);
    assert_eq!(pick(p(5_000, 1.0, 1.5, 0.02)), Structure::Sap1);
    assert_eq!(pick(p3(5_000, 1.0, 1.5, 0.02)), Structure::Grid);
    // In 3D a grid holds a few walls well; from 3% of them, the sweep.
    assert_eq!(pick(p3(5_000, 1.0, 1.5, 0.05)), Structure::Sap1);
    assert_eq!(pick(p(5_000, 1.0, 40.0, 0.0)), Structure::HGrid);
    assert_eq!(pick(p(5_000, 500.0, 40.0, 0.02)), Structure::HGrid);
    assert!(!choose_structure(&p(5_000, 1.0, 1.5, 0.0)).reason.is_empty());
}

#[test]
fn bad_settings_and_names_are_errors() {
    let zero = AutoConfig {
        confirm: 0,
        ..AutoConfig::default()
    };
    assert!(Auto::<Vec2>::with_config(zero).is_err());
    let mut auto = Auto::<Vec2>::new();
    let h = auto
        .insert(Aabb::new(Vec2::ZERO, Vec2::ONE).unwrap(), ())
        .unwrap();
    assert!("octree-of-dreams".parse::<Structure>().is_err());
    assert_eq!(
        auto.switch_to(Structure::Auto),
        Err(collide::Error::NestedAuto)
    );
    // Still working, on what it ran before.
    assert_eq!(auto.current(), Structure::Brute);
    auto.remove(h).unwrap();
    assert!(auto.remove(h).is_err());
}

/// A 2D lattice of `n` boxes 2 wide, 10 apart, scaled by `scale(frame)`
/// about the origin and moved by `shift(frame)` along x, each box wobbling
/// a little every frame.
fn lattice_scene(
    n: usize,
    frames: usize,
    scale: impl Fn(f32) -> f32,
    shift: impl Fn(f32) -> f32,
) -> Vec<Vec<Record<Vec2>>> {
    let side = (n as f32).sqrt().ceil() as usize;
    (0..frames)
        .map(|f| {
            let t = f as f32 / (frames - 1) as f32;
            (0..n)
                .map(|i| {
                    let (col, row) = ((i % side) as f32, (i / side) as f32);
                    let wobble = ((i * 7 + f * 3) % 11) as f32 * 0.05;
                    let x = col * 10.0 * scale(t) + shift(t) + wobble;
                    let y = row * 10.0 * scale(t) + wobble;
                    Record::Upsert {
                        id: i as u64,
                        aabb: Aabb::new(Vec2::new(x, y), Vec2::new(x + 2.0, y + 2.0)).unwrap(),
                    }
                })
                .collect()
        })
        .collect()
}

/// Runs `frames` through `auto` reviewing every `review_every` steps,
/// beside brute force; the structures it ran (by name, in order) and its
/// status.
fn reviewed_run<V: Vector>(
    frames: &[Vec<Record<V>>],
    review_every: u32,
    what: &str,
) -> (Vec<Structure>, collide::AutoStatus) {
    let config = AutoConfig {
        review_every,
        confirm: 2,
        switch_frames: 3,
    };
    let mut auto = Auto::<V, u64>::with_config(config).unwrap();
    let mut seen: Vec<Structure> = Vec::new();
    beside_brute(
        &mut auto,
        frames,
        |_, auto| {
            if seen.last() != Some(&auto.current()) {
                seen.push(auto.current());
            }
        },
        what,
    );
    (seen, auto.status())
}

#[test]
fn a_grid_whose_scene_crowds_is_rebuilt_with_cells_that_fit_losing_nothing() {
    // A 3D hotspot forming and dissolving: the grid runs throughout, its
    // cells chosen for the even spread, then rebuilt for the crowd.
    let frames = scene_frames::<Vec3>(
        SceneKind::Hotspot,
        Motion::Slow,
        3_000,
        (4 * PHASE_FRAMES) as usize,
    );
    let (ran, status) = reviewed_run(&frames, 10, "3D hotspot");
    assert_eq!(ran, [Structure::Brute, Structure::Grid], "{status:?}");
    assert!(status.rebuilds >= 1, "{status:?}");
    assert_eq!(status.switches, 0, "the first pick only: {status:?}");
}

#[test]
fn a_dense_grid_whose_objects_leave_its_bounds_is_rebuilt_losing_nothing() {
    // The same density throughout, the whole lattice moving twice its
    // width along x: out of the bounds the dense grid took at first.
    let frames = lattice_scene(900, 60, |_| 1.0, |t| 600.0 * t);
    let (ran, status) = reviewed_run(&frames, 5, "moving away");
    assert_eq!(ran, [Structure::Brute, Structure::Grid], "{status:?}");
    assert!(status.rebuilds >= 1, "{status:?}");
}

#[test]
fn a_steady_scene_is_never_rebuilt() {
    let frames = lattice_scene(900, 60, |_| 1.0, |_| 0.0);
    let (ran, status) = reviewed_run(&frames, 5, "steady");
    assert_eq!(ran, [Structure::Brute, Structure::Grid], "{status:?}");
    assert_eq!((status.switches, status.rebuilds), (0, 0), "{status:?}");
}

#[test]
fn a_sudden_change_in_the_work_calls_a_review_before_its_time() {
    // Steady, then squeezed to a tenth within four frames: the grid's
    // candidate tests jump, and a review comes (and rebuilds the grid)
    // long before the scheduled one.
    let squeeze = |t: f32| 1.0 - 0.9 * ((t - 0.5) * 15.0).clamp(0.0, 1.0);
    let frames = lattice_scene(900, 60, squeeze, |_| 0.0);
    let (ran, status) = reviewed_run(&frames, 1_000, "squeezed at once");
    assert_eq!(ran, [Structure::Brute, Structure::Grid], "{status:?}");
    assert!(status.rebuilds >= 1, "{status:?}");
}

#[test]
fn a_flat_row_far_out_leaving_a_dense_grid_is_rebuilt_without_panicking() {
    // A row of 3,100 boxes of no height (too many for the table's sweep of
    // flat scenes: the grid) at y = 1e9, where a cell's width is lost in
    // the rounding, moving out of the dense grid's bounds: the bounds a
    // rebuild would take are flat, and the rebuilt grid fits its own.
    let frames: Vec<Vec<Record<Vec2>>> = (0..60)
        .map(|f| {
            (0..3_100)
                .map(|i| {
                    let x = i as f32 * 3.0 + 40_000.0 * f as f32 / 59.0;
                    Record::Upsert {
                        id: i,
                        aabb: Aabb::new(Vec2::new(x, 1e9), Vec2::new(x + 2.0, 1e9)).unwrap(),
                    }
                })
                .collect()
        })
        .collect();
    let (ran, status) = reviewed_run(&frames, 5, "a flat row far out");
    assert_eq!(ran, [Structure::Brute, Structure::Grid], "{status:?}");
    assert_eq!(status.structure, Structure::Grid, "{status:?}");
    assert!(status.rebuilds >= 1, "{status:?}");
}

#[test]
fn auto_is_send_and_sync_when_its_values_are() {
    // A game keeps its broad phase in a resource that systems on other
    // threads read (queries) or own (stepping): `Auto` must allow both.
    fn send_and_sync<T: Send + Sync>() {}
    send_and_sync::<Auto<Vec2, u64>>();
    send_and_sync::<Auto<Vec3, String>>();
    let mut auto = Auto::<Vec2, u64>::new();
    auto.insert(Aabb::new(Vec2::ZERO, Vec2::ONE).unwrap(), 7)
        .unwrap();
    auto.step();
    let moved = std::thread::spawn(move || {
        auto.step();
        auto
    })
    .join()
    .unwrap();
    std::thread::scope(|s| {
        s.spawn(|| assert_eq!(moved.len(), 1));
        s.spawn(|| assert_eq!(moved.len(), 1));
    });
}

/// 5,000 small boxes in a 2D world of 2,400 units, every 50th a wall
/// spanning it (2%, the share that makes the table pick `sap1`). Auto's
/// first review sampled every 5th slot, never met a wall, and ran a grid
/// from step 0 to the end; it now picks what the table picks on the whole
/// scene, and keeps it.
#[test]
fn the_first_pick_sees_walls_placed_every_50th_object() {
    let mut auto = Auto::<Vec2, u64>::new();
    let mut rng = collide_scenes::SceneRng::new(3);
    let mut boxes = Vec::new();
    for k in 0..5_000u64 {
        let aabb = if k % 50 == 49 {
            let y = rng.range(0.0, 2_400.0);
            Aabb::new(Vec2::new(0.0, y), Vec2::new(2_400.0, y + 4.0)).unwrap()
        } else {
            let at = Vec2::new(rng.range(0.0, 2_400.0), rng.range(0.0, 2_400.0));
            Aabb::new(at, at + Vec2::splat(rng.range(5.0, 20.0))).unwrap()
        };
        boxes.push(aabb);
        auto.insert(aabb, k).unwrap();
    }
    let whole = SceneProfile::of(&boxes);
    assert_eq!(
        choose_structure(&whole).structure,
        Structure::Sap1,
        "{whole:?}"
    );
    for _ in 0..40 {
        auto.step();
        assert_eq!(auto.current(), Structure::Sap1, "{:?}", auto.status());
    }
    assert_eq!(auto.switches(), 0);
}
