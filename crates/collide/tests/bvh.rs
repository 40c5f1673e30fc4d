//! The BVH against brute force on every frame, with its invariants checked
//! after every operation.

mod common;

use collide::scene::{Motion, Record, Runner, Scene, SceneConfig, SceneKind};
use collide::{Aabb2, Aabb3, BroadPhase, Bvh, Vector};
use common::lattice_scene;
use glam::{Vec2, Vec3};

/// Runs `frames` through a new BVH beside brute force, validating it after
/// every record and every step.
fn verify<V: Vector>(frames: &[Vec<Record<V>>], what: &str) -> Bvh<V, u64> {
    common::verify_each(Bvh::new(), frames, what, Bvh::validate)
}

#[test]
fn bvh_matches_brute_force_on_every_shared_scene() {
    for kind in SceneKind::ALL {
        for motion in Motion::ALL {
            let config = SceneConfig {
                motion,
                seed: 9,
                ..SceneConfig::new(kind, 200)
            };
            verify(
                &Scene::<Vec2>::new(config).take_frames(12),
                &format!("2D {kind} {motion}"),
            );
            verify(
                &Scene::<Vec3>::new(config).take_frames(8),
                &format!("3D {kind} {motion}"),
            );
        }
    }
}

#[test]
fn bvh_matches_brute_force_on_lattices_and_extreme_coordinates() {
    for seed in 0..8 {
        for (offset, unit) in [
            (0.0, 1.0),
            (-1.0e6, 1.0),
            (1.0e38, 1.0e37),
            (-3.0e38, 1.0e37),
        ] {
            // Plus a box spanning all of f32, whose fat box saturates.
            let mut frames = lattice_scene::<Vec2>(seed, 25, offset, unit);
            frames[0].push(Record::Upsert {
                id: 99_999,
                aabb: Aabb2::new(Vec2::splat(-3.0e38), Vec2::splat(3.0e38)).unwrap(),
            });
            verify(&frames, &format!("2D {seed} at {offset}"));
            verify(
                &lattice_scene::<Vec3>(seed, 15, offset, unit),
                &format!("3D {seed} at {offset}"),
            );
        }
    }
}

#[test]
fn a_thousand_objects_on_one_point_and_a_sorted_line_stay_shallow() {
    let mut bvh: Bvh<Vec3> = Bvh::new();
    for _ in 0..1000 {
        bvh.insert(Aabb3::from_point(Vec3::splat(2.0)).unwrap(), ())
            .unwrap();
    }
    bvh.insert(Aabb3::new(Vec3::ZERO, Vec3::splat(4.0)).unwrap(), ())
        .unwrap();
    bvh.step();
    assert_eq!(bvh.pairs().len(), 1000);
    bvh.validate().unwrap();
    assert!(bvh.height() <= 2 * 10 + 4, "height {}", bvh.height());

    // Objects arriving in sorted order: insertion alone would make a deep
    // tree; the rebuild keeps it near balanced.
    let mut line: Bvh<Vec2> = Bvh::new();
    for i in 0..4096 {
        let x = i as f32 * 3.0;
        line.insert(
            Aabb2::new(Vec2::new(x, 0.0), Vec2::new(x + 1.0, 1.0)).unwrap(),
            (),
        )
        .unwrap();
    }
    line.step();
    line.validate().unwrap();
    assert!(line.height() <= 2 * 12 + 4, "height {}", line.height());
}

#[test]
fn small_moves_stay_inside_the_fat_box() {
    let mut bvh: Bvh<Vec2> = Bvh::new();
    let b = |x: f32| Aabb2::new(Vec2::new(x, 0.0), Vec2::new(x + 10.0, 10.0)).unwrap();
    let h = bvh.insert(b(0.0), ()).unwrap();
    bvh.insert(b(50.0), ()).unwrap();
    bvh.step();
    bvh.update(h, b(2.5)).unwrap(); // within the 3-unit margin
    bvh.step();
    assert_eq!(bvh.stats().maintenance_ops, 0);
    bvh.update(h, b(5.0)).unwrap(); // out of it: reinserted
    bvh.step();
    assert_eq!(bvh.stats().maintenance_ops, 1);
    bvh.validate().unwrap();
}

#[test]
fn ties_and_late_sorted_inserts_keep_the_tree_shallow() {
    // After the first build, inserts below the mass-insert share go in one
    // by one: identical boxes must not chain, and the height rule holds.
    let mut bvh: Bvh<Vec2> = Bvh::new();
    for i in 0..3000 {
        let p = Vec2::new((i % 60) as f32 * 4.0, (i / 60) as f32 * 4.0);
        bvh.insert(Aabb2::new(p, p + Vec2::ONE).unwrap(), ())
            .unwrap();
    }
    bvh.step();
    let rebuilt = bvh.rebuilds();
    for _ in 0..1000 {
        bvh.insert(Aabb2::from_point(Vec2::splat(-50.0)).unwrap(), ())
            .unwrap();
    }
    bvh.validate().unwrap();
    assert!(
        bvh.height() <= 2 * 12 + 4,
        "ties chained: height {}",
        bvh.height()
    );
    bvh.step();
    assert_eq!(bvh.rebuilds(), rebuilt, "1000 of 4000 is not a mass insert");
    assert_eq!(
        bvh.pairs().len(),
        0,
        "zero-size boxes at one point do not overlap"
    );
}

#[test]
fn churn_of_resting_objects_does_not_rebuild_the_whole_tree() {
    // 2000 resting boxes; each frame 20 leave and 20 new ones arrive: churn
    // is not a mass insert, and nothing escapes its fat box.
    let mut rng = collide::scene::SceneRng::new(3);
    let mut bvh = Bvh::<Vec2, u64>::new();
    let mut live = Vec::new();
    let place = |rng: &mut collide::scene::SceneRng| {
        let p = Vec2::new(rng.range(0.0, 1000.0), rng.range(0.0, 1000.0));
        Aabb2::new(p, p + Vec2::splat(5.0)).unwrap()
    };
    for _ in 0..2000 {
        live.push(bvh.insert(place(&mut rng), 0).unwrap());
    }
    bvh.step();
    assert_eq!(bvh.rebuilds(), 1, "the build after the first frame");
    for _ in 0..150 {
        for _ in 0..20 {
            let h = live.swap_remove(rng.below(live.len()));
            bvh.remove(h).unwrap();
            live.push(bvh.insert(place(&mut rng), 0).unwrap());
        }
        bvh.step();
    }
    assert_eq!(bvh.rebuilds(), 1, "churn alone never rebuilds");
    bvh.validate().unwrap();
}

#[test]
fn moving_objects_rebuild_in_morton_order_and_stay_exact() {
    // Slow motion lets about a quarter escape their fat boxes per frame:
    // more than one in 16, so the step rebuilds.
    let config = SceneConfig::new(SceneKind::Uniform, 2000);
    let frames = Scene::<Vec2>::new(config).take_frames(6);
    let bvh = verify(&frames, "uniform slow");
    assert!(bvh.rebuilds() > 2, "{}", bvh.rebuilds());
}

#[test]
fn box_queries_match_brute_force() {
    let scene = SceneConfig {
        motion: Motion::Teleport,
        ..SceneConfig::new(SceneKind::Clustered, 400)
    };
    let frames = Scene::<Vec2>::new(scene).take_frames(6);
    let mut bvh = Bvh::<Vec2, u64>::new();
    let hits = common::queries_match_brute(&mut bvh, &frames, &common::probes(), "bvh");
    assert!(hits > 50, "the probes must hit something ({hits})");
}

#[test]
fn forced_rebuilds_by_every_method_keep_the_pairs_exact() {
    use collide::{Brute, BvhBuild};
    let ids = |world: &dyn BroadPhase<Vec2, u64>| {
        let mut v: Vec<(u64, u64)> = world
            .pairs()
            .iter()
            .map(|p| {
                let (a, b) = (*world.value(p.a()).unwrap(), *world.value(p.b()).unwrap());
                (a.min(b), a.max(b))
            })
            .collect();
        v.sort();
        v
    };
    for kind in [SceneKind::Uniform, SceneKind::Clustered, SceneKind::Large] {
        for method in [BvhBuild::Sah, BvhBuild::Median, BvhBuild::Morton] {
            let config = SceneConfig {
                motion: Motion::Churn,
                ..SceneConfig::new(kind, 300)
            };
            let frames = Scene::<Vec2>::new(config).take_frames(12);
            let (mut bvh, mut brute) = (Bvh::<Vec2, u64>::new(), Brute::<Vec2, u64>::new());
            let (mut rb, mut rr) = (Runner::new(), Runner::new());
            let mut events = Vec::new();
            for (f, records) in frames.iter().enumerate() {
                rb.apply(&mut bvh, records).unwrap();
                rr.apply(&mut brute, records).unwrap();
                if f % 3 == 1 {
                    bvh.rebuild(method);
                    bvh.validate().unwrap();
                }
                rb.step(&mut bvh, &mut events);
                rr.step(&mut brute, &mut events);
                assert_eq!(ids(&bvh), ids(&brute), "{kind} {method:?} frame {f}");
                bvh.validate().unwrap();
            }
            let q = bvh.quality();
            assert_eq!(q.leaves, bvh.len());
            assert!(q.sah_cost >= 1.0 && q.sibling_overlap >= 0.0, "{q:?}");
        }
    }
}
