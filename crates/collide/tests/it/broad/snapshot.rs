//! Snapshots of every structure queried from several threads while the
//! owner moves, steps and (the BVH) rebuilds: every answer
//! equals brute force over the objects as they were when the snapshot was
//! taken.

use collide::geometry::{Frustum, Plane, Ray, Region, SweptAabb};
use collide::{Aabb, BroadPhase, Bvh, BvhBuild, Handle, Query, QueryBudget, Snapshot, Structure};
use collide_scenes::{Motion, Record, Runner, Scene, SceneConfig, SceneKind, SceneRng};
use glam::Vec2;
use std::collections::BTreeMap;
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Mutex};

/// A snapshot, the frame it shows and the objects (handle, box) it must
/// show.
type Job = (Snapshot<Vec2>, u64, Arc<Vec<(Handle, Aabb<Vec2>)>>);

/// Queries of each kind on `snapshot` against brute force over `objects`;
/// returns the number of checks.
fn check(
    snapshot: &Snapshot<Vec2>,
    frame: u64,
    objects: &[(Handle, Aabb<Vec2>)],
    seed: u64,
) -> usize {
    let name = snapshot.name().to_owned();
    assert_eq!(snapshot.len(), objects.len(), "{name} frame {frame}");
    let brute = |hits: &dyn Fn(&Aabb<Vec2>) -> bool| -> Vec<Handle> {
        let mut want: Vec<Handle> = objects
            .iter()
            .filter(|(_, b)| hits(b))
            .map(|(h, _)| *h)
            .collect();
        want.sort_unstable();
        want
    };
    let mut rng = SceneRng::new(seed);
    let mut checks = 0;
    for _ in 0..6 {
        let c = Vec2::new(rng.range(0.0, 1500.0), rng.range(0.0, 1500.0));
        let probe = Aabb::from_center_half_extents(c, Vec2::splat(rng.range(5.0, 80.0))).unwrap();
        let (got, stats) = snapshot.query_region_all(&probe, QueryBudget::default());
        assert!(!stats.truncated);
        assert_eq!(
            got,
            brute(&|b| b.overlaps(&probe)),
            "{name} frame {frame}: box {probe:?}"
        );
        let dir = Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
        let ray = Ray::new(c, dir, rng.range(0.0, 400.0)).unwrap();
        let mut want: Vec<(f32, Handle)> = objects
            .iter()
            .filter_map(|(h, b)| ray.entry(b).map(|t| (t, *h)))
            .collect();
        want.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let got: Vec<(f32, Handle)> = snapshot
            .query_ray_all(&ray)
            .iter()
            .map(|h| (h.t, h.handle))
            .collect();
        assert_eq!(got, want, "{name} frame {frame}: ray {ray:?}");
        assert_eq!(
            snapshot.query_ray_closest(&ray).map(|h| (h.t, h.handle)),
            want.first().copied()
        );
        let swept = SweptAabb::new(probe, dir * 200.0).unwrap();
        let (got, _) = snapshot.query_region_all(&swept, QueryBudget::default());
        assert_eq!(
            got,
            brute(&|b| swept.hits(b)),
            "{name} frame {frame}: swept {swept:?}"
        );
        let wedge =
            Frustum::new(&[Plane::new(dir, dir.dot(c)), Plane::new(-dir.perp(), 0.0)]).unwrap();
        let (got, _) = snapshot.query_region_all(&wedge, QueryBudget::default());
        assert_eq!(
            got,
            brute(&|b| wedge.hits(b)),
            "{name} frame {frame}: frustum"
        );
        checks += 4;
    }
    for (h, b) in objects.iter().take(3) {
        assert_eq!(snapshot.aabb(*h), Some(*b), "{name} frame {frame}");
    }
    checks
}

/// Runs 24 frames of `motion` on `world` with three reader threads; after
/// each frame, `chore` may rebuild. Returns the number of checks made.
fn run<S: BroadPhase<Vec2, u64>>(
    mut world: S,
    motion: Motion,
    mut chore: impl FnMut(&mut S, usize),
) -> usize {
    const FRAMES: usize = 24;
    let config = SceneConfig {
        motion,
        ..SceneConfig::new(SceneKind::Clustered, 1000)
    };
    let frames: Vec<Vec<Record<Vec2>>> = Scene::<Vec2>::new(config).take_frames(FRAMES);
    let (send, receive) = sync_channel::<Job>(4);
    let receive = Arc::new(Mutex::new(receive));
    std::thread::scope(|s| {
        let readers: Vec<_> = (0..3u64)
            .map(|k| {
                let receive = Arc::clone(&receive);
                s.spawn(move || {
                    let mut checks = 0;
                    loop {
                        let job = receive.lock().unwrap().recv();
                        let Ok((snapshot, frame, objects)) = job else {
                            return checks;
                        };
                        checks += check(&snapshot, frame, &objects, k * 1000 + frame);
                    }
                })
            })
            .collect();
        // Only the readers hold the receiver now: if they all fail, a send
        // fails instead of blocking, and the join below shows why.
        drop(receive);
        // The owner: applies each frame, snapshots it (half the time before
        // the step, with changes pending), and goes on.
        let mut runner = Runner::new();
        let mut model: BTreeMap<u64, Aabb<Vec2>> = BTreeMap::new();
        let mut events = Vec::new();
        for (f, records) in frames.iter().enumerate() {
            runner.apply(&mut world, records).unwrap();
            for r in records {
                match *r {
                    Record::Upsert { id, aabb } => {
                        model.insert(id, aabb);
                    }
                    Record::Remove { id } => {
                        model.remove(&id);
                    }
                }
            }
            if f % 2 == 1 {
                runner.step(&mut world, &mut events);
            }
            let objects: Vec<(Handle, Aabb<Vec2>)> = model
                .iter()
                .map(|(id, b)| (runner.handle(*id).unwrap(), *b))
                .collect();
            if send
                .send((world.snapshot(), f as u64, Arc::new(objects)))
                .is_err()
            {
                break; // every reader failed
            }
            if f % 2 == 0 {
                runner.step(&mut world, &mut events);
            }
            chore(&mut world, f);
        }
        drop(send);
        let checks: usize = readers
            .into_iter()
            .map(|r| {
                r.join()
                    .expect("a reader's check failed (its message is above)")
            })
            .sum();
        assert_eq!(
            checks,
            FRAMES * 24,
            "{} {motion}: every snapshot checked once",
            world.name()
        );
        checks
    })
}

#[test]
fn snapshots_of_every_structure_answer_from_other_threads_while_the_owner_moves() {
    for name in Structure::ALL {
        for motion in [Motion::Teleport, Motion::Churn] {
            let world = name.build::<Vec2, u64>();
            run(world, motion, |_, _| {});
        }
    }
}

#[test]
fn bvh_snapshots_stay_exact_while_the_owner_rebuilds() {
    for motion in [Motion::Teleport, Motion::Churn, Motion::Resting] {
        run(Bvh::<Vec2, u64>::new(), motion, |bvh, f| match f % 9 {
            3 => bvh.rebuild(BvhBuild::Median),
            6 => bvh.rebuild(BvhBuild::Morton),
            _ => {}
        });
    }
}

#[test]
fn a_snapshot_outlives_its_owner_and_its_handles_stay_values() {
    for name in Structure::ALL {
        let mut world = name.build::<Vec2, String>();
        let unit = Aabb::new(Vec2::ZERO, Vec2::ONE).unwrap();
        let a = world.insert(unit, "a".to_owned()).unwrap();
        let b = world.insert(unit, "b".to_owned()).unwrap();
        world.step();
        world.remove(b).unwrap(); // pending: the snapshot sees it gone
        let snapshot = world.snapshot();
        let copy = snapshot.clone();
        assert!(copy.shares_with(&snapshot));
        drop(world);
        let all = Aabb::new(Vec2::splat(-5.0), Vec2::splat(5.0)).unwrap();
        assert_eq!(
            copy.query_region_all(&all, QueryBudget::default()).0,
            [a],
            "{name}"
        );
        assert_eq!((snapshot.len(), snapshot.name()), (1, name.name()));
        assert_eq!(
            (snapshot.aabb(a), snapshot.aabb(b)),
            (Some(unit), None),
            "{name}"
        );
        assert!(!snapshot.is_empty());
    }
}
