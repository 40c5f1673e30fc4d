//! `update_many`, on every structure: the same events as `update` called
//! move by move, a handle named twice ends with its last box, and a stale
//! or foreign handle stops the batch, the moves before it applied. (The
//! grids' split path at the real threshold is checked by
//! `broad/parallel.rs`, which applies scenes through `Runner`, and against
//! brute force with the threshold lowered by the unit tests in
//! `src/broad/parallel_tests.rs`.)

use collide::{Aabb, BroadPhase, Error, Handle, HandleError, Query, Structure, Vector};
use collide::{Grid, Pair, Verified};
use collide_scenes::{Motion, Runner, Scene, SceneConfig, SceneKind};
use glam::{Vec2, Vec3};

fn batches_match_one_by_one<V: Vector>() {
    for motion in [Motion::Fast, Motion::Teleport, Motion::Churn] {
        let config = SceneConfig {
            motion,
            ..SceneConfig::new(SceneKind::Clustered, 1_200)
        };
        for name in Structure::ALL {
            let mut batched = name.build::<V, u64>();
            let mut single = name.build::<V, u64>();
            let (mut batching, mut runner) = (Runner::batching(), Runner::new());
            let (mut scene, mut records) = (Scene::<V>::new(config), Vec::new());
            let (mut found, mut expected) = (Vec::new(), Vec::new());
            for frame in 0..10 {
                scene.next_frame(&mut records);
                batching
                    .apply(batched.as_mut(), &records)
                    .expect("records apply");
                batching.step(batched.as_mut(), &mut found);
                runner
                    .apply(single.as_mut(), &records)
                    .expect("records apply");
                runner.step(single.as_mut(), &mut expected);
                assert!(
                    found == expected,
                    "{name}, {}D {motion}, frame {frame}: batched {} events, one by one {}",
                    V::DIM,
                    found.len(),
                    expected.len()
                );
            }
        }
    }
}

#[test]
fn batches_give_the_events_of_one_update_per_move_2d() {
    batches_match_one_by_one::<Vec2>();
}

#[test]
fn batches_give_the_events_of_one_update_per_move_3d() {
    batches_match_one_by_one::<Vec3>();
}

/// Unit box `k` of a row with a gap of one between boxes, moved `shift`
/// along x.
fn shifted<V: Vector>(k: usize, shift: f32) -> Aabb<V> {
    let x = 2.0 * k as f32 + shift;
    let corner = |offset: f32| V::from_axes(|a| if a == 0 { x + offset } else { offset });
    Aabb::new(corner(0.0), corner(1.0)).expect("a box")
}

/// A row of `count` unit boxes (no pairs).
fn row<V: Vector>(world: &mut dyn BroadPhase<V, u64>, count: u64) -> Vec<Handle> {
    (0..count)
        .map(|i| world.insert(shifted(i as usize, 0.0), i).expect("inserted"))
        .collect()
}

fn bad_handles_stop_the_batch<V: Vector>() {
    for name in Structure::ALL {
        // The grids at 40,000 objects, above the real split threshold, so
        // that their split path meets the bad handle (the pool is the
        // default one); the others apply moves one by one at any size.
        let count: u64 = if name.name().contains("grid") {
            40_000
        } else {
            400
        };
        let bad_at = count as usize * 3 / 4;
        let mut world = name.build::<V, u64>();
        let handles = row(world.as_mut(), count);
        world.step();
        // Every even object half onto its odd neighbour, the odd ones where
        // they are: one pair per even object.
        let target = |k: usize| {
            if k.is_multiple_of(2) {
                shifted(k, 1.5)
            } else {
                shifted(k, 0.0)
            }
        };
        let mut moved = handles.clone();
        let mut boxes: Vec<Aabb<V>> = (0..handles.len()).map(target).collect();

        // A foreign handle first, with the slot of the handle it replaces
        // (so the slots still rise and the grids take their split path):
        // the moves before it are applied.
        let mut other = name.build::<V, u64>();
        let foreign = row(other.as_mut(), bad_at as u64 + 1)[bad_at];
        assert_eq!(foreign.index(), handles[bad_at].index());
        let real = std::mem::replace(&mut moved[bad_at], foreign);
        let refused = world.update_many(&moved, &boxes);
        assert!(
            matches!(refused, Err(Error::Handle(HandleError::Foreign { handle, .. })) if handle == foreign),
            "{name}: {refused:?}"
        );
        for (k, &h) in handles.iter().enumerate() {
            let expected = if k < bad_at {
                target(k)
            } else {
                shifted(k, 0.0)
            };
            assert_eq!(world.aabb(h), Some(expected), "{name}: object {k}");
        }
        assert_eq!(world.step().started.len(), bad_at / 2, "{name}");

        // Then a removed object's handle, at the same place, in a batch
        // that moves every object a quarter along (no pairs): the moves
        // before it end the even objects' pairs, those after it do not
        // happen.
        moved[bad_at] = real;
        world.remove(real).expect("removed");
        let quarter: Vec<Aabb<V>> = (0..handles.len()).map(|k| shifted(k, 0.25)).collect();
        let refused = world.update_many(&moved, &quarter);
        assert_eq!(
            refused,
            Err(Error::Handle(HandleError::Stale(real))),
            "{name}"
        );
        for (k, &h) in handles.iter().enumerate() {
            if k != bad_at {
                let expected = if k < bad_at {
                    quarter[k]
                } else {
                    shifted(k, 0.0)
                };
                assert_eq!(world.aabb(h), Some(expected), "{name}: object {k}");
            }
        }
        let events = world.step();
        assert_eq!(
            (events.started.len(), events.stopped.len()),
            (0, bad_at / 2),
            "{name}"
        );

        // The structure still works: the batch without it goes through.
        moved.remove(bad_at);
        boxes.remove(bad_at);
        world.update_many(&moved, &boxes).expect("a good batch");
        assert_eq!(world.step().started.len(), count as usize / 2 - 1, "{name}");
    }
}

/// Two threads, so that the grids' split path runs whatever the machine.
fn two_threads() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a thread pool")
}

#[test]
fn a_stale_or_foreign_handle_stops_the_batch_2d() {
    two_threads().install(bad_handles_stop_the_batch::<Vec2>);
}

#[test]
fn a_stale_or_foreign_handle_stops_the_batch_3d() {
    two_threads().install(bad_handles_stop_the_batch::<Vec3>);
}

/// A grid fed by a batching runner on two threads (the split path, at the
/// real threshold) and one fed an `update` per move on one thread agree on
/// every frame in everything they report: events, step and grid counters
/// (cells entered and left, level changes, overflow), boxes and levels.
fn split_grid_matches_one_by_one<V: Vector>(
    make: fn() -> Grid<V, u64>,
    kind: SceneKind,
    motion: Motion,
) {
    let config = SceneConfig {
        motion,
        ..SceneConfig::new(kind, 20_000)
    };
    let (one, two) = (
        rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a thread pool"),
        two_threads(),
    );
    let (mut single, mut split) = (make(), make());
    let (mut runner, mut batching) = (Runner::new(), Runner::batching());
    let (mut scene, mut records) = (Scene::<V>::new(config), Vec::new());
    let (mut expected, mut found) = (Vec::new(), Vec::new());
    let label = format!("{} {}D {kind} {motion}", single.name(), V::DIM);
    for frame in 0..6 {
        scene.next_frame(&mut records);
        one.install(|| {
            runner.apply(&mut single, &records).expect("records apply");
            runner.step(&mut single, &mut expected);
        });
        two.install(|| {
            batching.apply(&mut split, &records).expect("records apply");
            batching.step(&mut split, &mut found);
        });
        assert!(found == expected, "{label}, frame {frame}: events differ");
        assert_eq!(split.stats(), single.stats(), "{label}, frame {frame}");
        assert_eq!(
            split.grid_stats(),
            single.grid_stats(),
            "{label}, frame {frame}"
        );
        for id in 0..config.n as u64 {
            let (a, b) = (runner.handle(id), batching.handle(id));
            let (a, b) = (a.expect("present"), b.expect("present"));
            assert_eq!(
                split.aabb(b),
                single.aabb(a),
                "{label}, frame {frame}, object {id}"
            );
            assert_eq!(
                split.level_of(b),
                single.level_of(a),
                "{label}, frame {frame}, object {id}"
            );
        }
    }
}

#[test]
fn split_batches_leave_the_grids_as_one_update_per_move_does() {
    split_grid_matches_one_by_one::<Vec2>(Grid::dense, SceneKind::Uniform, Motion::Slow);
    split_grid_matches_one_by_one::<Vec2>(Grid::hashed, SceneKind::Clustered, Motion::Fast);
    split_grid_matches_one_by_one::<Vec2>(Grid::hierarchical, SceneKind::Large, Motion::Fast);
    split_grid_matches_one_by_one::<Vec3>(Grid::hierarchical, SceneKind::Uniform, Motion::Teleport);
}

#[test]
fn a_handle_named_twice_ends_with_its_last_box() {
    for name in Structure::ALL {
        let mut world = name.build::<Vec2, u64>();
        let handles = row(world.as_mut(), 3);
        world.step();
        let at = |x: f32| Aabb::new(Vec2::new(x, 0.0), Vec2::new(x + 1.0, 1.0)).expect("a box");
        // Object 0 first onto object 1, then onto object 2.
        world
            .update_many(
                &[handles[0], handles[1], handles[0]],
                &[at(2.5), at(2.0), at(4.5)],
            )
            .expect("a good batch");
        assert_eq!(world.aabb(handles[0]), Some(at(4.5)), "{name}");
        assert_eq!(
            world.step().started,
            vec![Pair::new(handles[0], handles[2])],
            "{name}"
        );
    }
}

#[test]
fn columns_of_different_lengths_are_refused_before_anything_moves() {
    for name in Structure::ALL {
        let mut world = name.build::<Vec3, u64>();
        let handles = row(world.as_mut(), 2);
        let far = shifted::<Vec3>(50, 0.0);
        let refused = world.update_many(&handles, &[far]);
        assert_eq!(
            refused,
            Err(Error::BatchLengths {
                handles: 2,
                boxes: 1
            }),
            "{name}"
        );
        assert_eq!(world.aabb(handles[0]), Some(shifted(0, 0.0)), "{name}");
    }
}

/// The moves that the shared scenes never make, through the split path:
/// objects that grow and shrink (another level in `hgrid`, many cells or
/// the overflow list in the others) and objects that leave the dense
/// grid's bounds and come back, against one `update` per move.
#[test]
fn split_batches_move_objects_between_levels_and_the_overflow_list() {
    let side = 130; // 16,900 objects: above the real split threshold
    let count = side * side;
    let place = |k: usize, frame: usize| {
        let (x, y) = ((k % side) as f32 * 3.0, (k / side) as f32 * 3.0);
        let drift = 0.4 * (frame % 3) as f32;
        // From frame 1 on (frame 0 settles the cell size and bounds).
        // Larger than a quarter of the world (overflow in `hgrid` too), a
        // higher level, or the usual size.
        let size = match (k + frame) % 91 {
            _ if frame == 0 => 1.0,
            0 => 300.0,
            r if r % 7 == 0 => 40.0,
            _ => 1.0,
        };
        // Far away: out of the dense grid's bounds (the largest objects
        // too, so that they pair with few others).
        let far = if frame > 0 && ((k + frame).is_multiple_of(11) || size > 100.0) {
            1.0e5
        } else {
            0.0
        };
        let min = Vec2::new(x + drift + far, y);
        Aabb::new(min, min + Vec2::splat(size)).expect("a box")
    };
    for make in [
        Grid::<Vec2, u64>::dense,
        Grid::<Vec2, u64>::hashed,
        Grid::<Vec2, u64>::hierarchical,
    ] {
        let (mut single, mut split) = (make(), make());
        let label = single.name().to_string();
        let boxes: Vec<Aabb<Vec2>> = (0..count).map(|k| place(k, 0)).collect();
        let insert = |world: &mut Grid<Vec2, u64>| -> Vec<Handle> {
            let handles = (0..count)
                .map(|k| world.insert(boxes[k], k as u64).expect("inserted"))
                .collect();
            world.step();
            handles
        };
        let (a, b) = (insert(&mut single), insert(&mut split));
        let pool = two_threads();
        for frame in 1..5 {
            let boxes: Vec<Aabb<Vec2>> = (0..count).map(|k| place(k, frame)).collect();
            for (&h, &aabb) in a.iter().zip(&boxes) {
                single.update(h, aabb).expect("a live handle");
            }
            pool.install(|| split.update_many(&b, &boxes))
                .expect("live handles");
            // The two grids' handles differ by owner only: compare slots.
            let slots = |events: &collide::FrameEvents| {
                [&events.started, &events.stopped].map(|pairs| {
                    pairs
                        .iter()
                        .map(|p| (p.a().index(), p.b().index()))
                        .collect::<Vec<_>>()
                })
            };
            let expected = slots(&single.step());
            let found = pool.install(|| slots(&split.step()));
            assert!(
                found == expected,
                "{label}, frame {frame}: started {} and stopped {} split, {} and {} one by one",
                found[0].len(),
                found[1].len(),
                expected[0].len(),
                expected[1].len()
            );
            assert_eq!(split.stats(), single.stats(), "{label}, frame {frame}");
            let stats = split.grid_stats();
            assert_eq!(stats, single.grid_stats(), "{label}, frame {frame}");
            assert!(stats.overflow_objects > 0, "{label}: some objects overflow");
            if label == "hgrid" {
                assert!(
                    stats.level_changes > 0,
                    "{label}: some objects change level"
                );
            }
            for k in 0..count {
                assert_eq!(
                    split.level_of(b[k]),
                    single.level_of(a[k]),
                    "{label}, object {k}"
                );
            }
        }
    }
}

/// `Verified` keeps its brute-force reference in step through a batch, a
/// batch stopped by a stale handle and one refused for its lengths.
#[test]
fn verified_structures_follow_batches_and_their_refusals() {
    for name in Structure::ALL {
        let world = name.build::<Vec2, u64>();
        let mut world = Verified::new(world).expect("an empty structure");
        let handles = row(&mut world, 300);
        world.step_checked().expect("agrees");
        let onto = |k: usize| shifted::<Vec2>(k, if k.is_multiple_of(2) { 1.5 } else { 0.0 });
        let boxes: Vec<Aabb<Vec2>> = (0..handles.len()).map(onto).collect();
        assert!(matches!(
            world.update_many(&handles, &boxes[..10]),
            Err(Error::BatchLengths { .. })
        ));
        world.remove(handles[200]).expect("removed");
        let refused = world.update_many(&handles, &boxes);
        assert_eq!(
            refused,
            Err(Error::Handle(HandleError::Stale(handles[200]))),
            "{name}"
        );
        let started = world.step_checked().expect("agrees").started.len();
        assert_eq!(
            started, 100,
            "{name}: the even objects before the stale handle"
        );
        let (rest, rest_boxes) = (&handles[201..], &boxes[201..]);
        world.update_many(rest, rest_boxes).expect("live handles");
        let started = world.step_checked().expect("agrees").started.len();
        assert_eq!(started, 49, "{name}: the even objects after it");
        assert_eq!(world.divergence(), None, "{name}");
    }
}
