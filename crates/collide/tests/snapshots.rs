//! BVH snapshots queried from several threads while the owner moves,
//! steps, rebuilds and renews the tree: every answer equals brute force over
//! the objects as they were when the snapshot was taken.

use collide::geometry::Ray;
use collide::scene::{Motion, Record, Runner, Scene, SceneConfig, SceneKind, SceneRng};
use collide::{Aabb, BroadPhase, Bvh, BvhBuild, BvhSnapshot, Handle, QueryBudget};
use glam::Vec2;
use std::collections::BTreeMap;
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Mutex};

/// A snapshot and the objects (handle, box) it must show.
type Job = (BvhSnapshot<Vec2>, Arc<Vec<(Handle, Aabb<Vec2>)>>);

fn check(snapshot: &BvhSnapshot<Vec2>, objects: &[(Handle, Aabb<Vec2>)], seed: u64) -> usize {
    assert_eq!(snapshot.len(), objects.len());
    let mut rng = SceneRng::new(seed);
    let mut checks = 0;
    for _ in 0..20 {
        let c = Vec2::new(rng.range(0.0, 1500.0), rng.range(0.0, 1500.0));
        let probe = Aabb::from_center_half_extents(c, Vec2::splat(rng.range(5.0, 80.0))).unwrap();
        let (got, stats) = snapshot.query_region_all(&probe, QueryBudget::default());
        let mut want: Vec<Handle> = objects
            .iter()
            .filter(|(_, b)| b.overlaps(&probe))
            .map(|(h, _)| *h)
            .collect();
        want.sort_unstable();
        assert!(!stats.truncated);
        assert_eq!(got, want, "box {probe:?} at step {}", snapshot.steps());
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
        assert_eq!(got, want, "ray {ray:?} at step {}", snapshot.steps());
        for (h, b) in objects.iter().take(3) {
            assert_eq!(snapshot.aabb(*h), Some(*b));
        }
        checks += 2;
    }
    checks
}

#[test]
fn snapshots_answer_from_other_threads_while_the_owner_moves_and_rebuilds() {
    for motion in [Motion::Teleport, Motion::Churn, Motion::Resting] {
        let config = SceneConfig {
            motion,
            ..SceneConfig::new(SceneKind::Clustered, 1500)
        };
        let frames: Vec<Vec<Record<Vec2>>> = Scene::<Vec2>::new(config).take_frames(40);
        let (send, receive) = sync_channel::<Job>(4);
        let receive = Arc::new(Mutex::new(receive));
        let checks = std::thread::scope(|s| {
            let readers: Vec<_> = (0..3)
                .map(|k| {
                    let receive = Arc::clone(&receive);
                    s.spawn(move || {
                        let mut checks = 0;
                        loop {
                            let job = receive.lock().unwrap().recv();
                            let Ok((snapshot, objects)) = job else {
                                return checks;
                            };
                            checks += check(&snapshot, &objects, k * 1000 + snapshot.steps());
                        }
                    })
                })
                .collect();
            // The owner: applies each frame, snapshots it (half the time
            // before the step, with changes pending), and goes on.
            let mut bvh = Bvh::<Vec2, u64>::new();
            let mut runner = Runner::new();
            let mut model: BTreeMap<u64, Aabb<Vec2>> = BTreeMap::new();
            let mut events = Vec::new();
            for (f, records) in frames.iter().enumerate() {
                runner.apply(&mut bvh, records).unwrap();
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
                    runner.step(&mut bvh, &mut events);
                }
                let objects: Vec<(Handle, Aabb<Vec2>)> = model
                    .iter()
                    .map(|(id, b)| (runner.handle(*id).unwrap(), *b))
                    .collect();
                send.send((bvh.snapshot(), Arc::new(objects))).unwrap();
                if f % 2 == 0 {
                    runner.step(&mut bvh, &mut events);
                }
                match f % 9 {
                    3 => bvh.rebuild(BvhBuild::Median),
                    6 => bvh.renew(),
                    _ => {}
                }
            }
            drop(send);
            readers
                .into_iter()
                .map(|r| r.join().unwrap())
                .sum::<usize>()
        });
        assert_eq!(checks, 40 * 40, "{motion}: every snapshot checked once");
    }
}

#[test]
fn a_snapshot_outlives_its_owner_and_its_handles_stay_values() {
    let mut bvh: Bvh<Vec2> = Bvh::new();
    let a = bvh
        .insert(Aabb::new(Vec2::ZERO, Vec2::ONE).unwrap(), ())
        .unwrap();
    bvh.step();
    let snapshot = bvh.snapshot();
    let copy = snapshot.clone();
    drop(bvh);
    let all = Aabb::new(Vec2::splat(-5.0), Vec2::splat(5.0)).unwrap();
    assert_eq!(copy.query_region_all(&all, QueryBudget::default()).0, [a]);
    assert_eq!((snapshot.len(), snapshot.steps()), (1, 1));
    assert!(!snapshot.is_empty());
}
