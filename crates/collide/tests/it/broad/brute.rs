//! The brute-force reference, the runner and the event rules, checked
//! against an independent model on seeded and adversarial scenes, every
//! frame.

use crate::common::Model;
use collide::{BroadPhase, Brute, Query, Vector, Verified};
use collide_scenes::lattice_scene;
use collide_scenes::{Motion, Record, Runner, Scene, SceneConfig, SceneKind};
use glam::{Vec2, Vec3};

fn check_against_model<V: Vector>(frames: &[Vec<Record<V>>], what: &str) {
    let mut model = Model::<V>::default();
    let mut world = Verified::new(Brute::<V, u64>::new()).unwrap();
    let mut runner = Runner::new();
    let mut events = Vec::new();
    for (index, records) in frames.iter().enumerate() {
        let expected = model.frame(records);
        runner.apply(&mut world, records).unwrap();
        runner.step(&mut world, &mut events);
        assert_eq!(events, expected, "{what}: events differ at frame {index}");
        assert_eq!(
            world.pairs().len(),
            model.pairs.len(),
            "{what}: frame {index}"
        );
        assert_eq!(world.len(), model.boxes.len(), "{what}: frame {index}");
        assert!(
            world.divergence().is_none(),
            "{what}: {:?}",
            world.divergence()
        );
    }
}

#[test]
fn brute_matches_the_model_on_every_shared_scene() {
    for kind in SceneKind::ALL {
        for motion in Motion::ALL {
            let config = SceneConfig {
                motion,
                seed: 11,
                ..SceneConfig::new(kind, 250)
            };
            let frames = Scene::<Vec2>::new(config).take_frames(20);
            check_against_model(&frames, &format!("2D {kind} {motion}"));
            let frames = Scene::<Vec3>::new(config).take_frames(10);
            check_against_model(&frames, &format!("3D {kind} {motion}"));
        }
    }
}

#[test]
fn brute_matches_the_model_on_lattices_with_ties_touching_and_zero_size() {
    for seed in 0..20 {
        let frames = lattice_scene::<Vec2>(seed, 40, 0.0, 1.0);
        check_against_model(&frames, &format!("2D lattice seed {seed}"));
        let frames = lattice_scene::<Vec3>(seed, 25, 0.0, 1.0);
        check_against_model(&frames, &format!("3D lattice seed {seed}"));
    }
}

#[test]
fn brute_matches_the_model_at_negative_and_huge_coordinates() {
    for (offset, scale) in [
        (-1.0e6, 1.0),
        (-3.0e7, 4096.0),
        (1.0e30, 1.0e28),
        (-1.0e36, 1.0e35),
    ] {
        let frames = lattice_scene::<Vec2>(5, 30, offset, scale);
        check_against_model(&frames, &format!("offset {offset} scale {scale}"));
    }
}

#[test]
fn removing_an_object_stops_all_its_pairs_at_the_next_step() {
    let mut world: Brute<Vec2> = Brute::new();
    let b = |x: f32| collide::Aabb2::new(Vec2::new(x, 0.0), Vec2::new(x + 2.0, 2.0)).unwrap();
    let hub = world.insert(b(0.0), ()).unwrap();
    let left = world.insert(b(-1.0), ()).unwrap();
    let right = world.insert(b(1.0), ()).unwrap();
    assert_eq!(world.step().started.len(), 2, "left and right only touch");
    world.remove(hub).unwrap();
    // The slot is reused before the step: the old pairs still stop, and the
    // new object's pairs start, told apart by generation.
    let newcomer = world.insert(b(0.5), ()).unwrap();
    assert_eq!(newcomer.index(), hub.index());
    let events = world.step().clone();
    let stopped: Vec<_> = events.stopped.iter().map(|p| (p.a(), p.b())).collect();
    assert_eq!(stopped, vec![(hub, left), (hub, right)]);
    assert_eq!(events.started.len(), 2);
    assert!(events.started.iter().all(|p| p.contains(newcomer)));
    assert!(world.pairs().iter().all(|p| !p.contains(hub)));
}

#[test]
fn events_and_pairs_come_sorted() {
    let frames = Scene::<Vec2>::new(SceneConfig::new(SceneKind::Clustered, 300)).take_frames(5);
    let mut world = Brute::<Vec2, u64>::new();
    let mut runner = Runner::new();
    let mut events = Vec::new();
    for records in &frames {
        runner.apply(&mut world, records).unwrap();
        runner.step(&mut world, &mut events);
        let e = world.events();
        assert!(e.started.windows(2).all(|w| w[0] < w[1]));
        assert!(e.stopped.windows(2).all(|w| w[0] < w[1]));
        assert!(world.pairs().windows(2).all(|w| w[0] < w[1]));
        assert!(world.pairs().iter().all(|p| p.a() < p.b()));
        assert!(
            events
                .windows(2)
                .all(|w| (w[0].a, w[0].b) < (w[1].a, w[1].b))
        );
    }
}
