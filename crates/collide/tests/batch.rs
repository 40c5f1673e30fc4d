//! `update_many`, on every structure: the same events as `update` called
//! move by move, a handle named twice ends with its last box, and a stale
//! or foreign handle stops the batch, the moves before it applied. (The
//! grids' split path at the real threshold is checked by
//! `tests/parallel.rs`, which applies scenes through `Runner`, and against
//! brute force with the threshold lowered by the unit tests in
//! `src/broad/parallel_tests.rs`.)

use collide::scene::{Motion, Runner, Scene, SceneConfig, SceneKind};
use collide::{Aabb, BroadPhase, Error, Handle, HandleError, STRUCTURE_NAMES, Vector};
use collide::{Pair, structure_by_name};
use glam::{Vec2, Vec3};

fn batches_match_one_by_one<V: Vector>() {
    for motion in [Motion::Fast, Motion::Teleport, Motion::Churn] {
        let config = SceneConfig {
            motion,
            ..SceneConfig::new(SceneKind::Clustered, 1_200)
        };
        for name in STRUCTURE_NAMES {
            let mut batched = structure_by_name::<V, u64>(name).expect("a structure");
            let mut single = structure_by_name::<V, u64>(name).expect("a structure");
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
    for name in STRUCTURE_NAMES {
        // The grids at 40,000 objects, above the real split threshold, so
        // that their split path meets the bad handle (the pool is the
        // default one); the others apply moves one by one at any size.
        let count: u64 = if name.contains("grid") { 40_000 } else { 400 };
        let bad_at = count as usize * 3 / 4;
        let mut world = structure_by_name::<V, u64>(name).expect("a structure");
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

        // A foreign handle first: the moves before it are applied.
        let mut other = structure_by_name::<V, u64>(name).expect("a structure");
        let foreign = row(other.as_mut(), 1)[0];
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

        // Then a removed object's handle, at the same place.
        moved[bad_at] = real;
        world.remove(real).expect("removed");
        // (It had not moved, so it had no pair; the moves before it are
        // where they already were: no events.)
        let refused = world.update_many(&moved, &boxes);
        assert_eq!(
            refused,
            Err(Error::Handle(HandleError::Stale(real))),
            "{name}"
        );
        let events = world.step();
        assert!(
            events.started.is_empty() && events.stopped.is_empty(),
            "{name}"
        );

        // The structure still works: the batch without it goes through.
        moved.remove(bad_at);
        boxes.remove(bad_at);
        world.update_many(&moved, &boxes).expect("a good batch");
        assert_eq!(
            world.step().started.len(),
            count as usize / 2 - 1 - bad_at / 2,
            "{name}"
        );
    }
}

#[test]
fn a_stale_or_foreign_handle_stops_the_batch_2d() {
    bad_handles_stop_the_batch::<Vec2>();
}

#[test]
fn a_stale_or_foreign_handle_stops_the_batch_3d() {
    bad_handles_stop_the_batch::<Vec3>();
}

#[test]
fn a_handle_named_twice_ends_with_its_last_box() {
    for name in STRUCTURE_NAMES {
        let mut world = structure_by_name::<Vec2, u64>(name).expect("a structure");
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
    for name in STRUCTURE_NAMES {
        let mut world = structure_by_name::<Vec3, u64>(name).expect("a structure");
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
