//! The shared scenes have the shape their documentation describes.

use collide::{Aabb, Vector};
use collide_scenes::{Motion, Record, Scene, SceneConfig, SceneKind, SceneStats};
use glam::{Vec2, Vec3};

fn stats_of<V: Vector>(config: SceneConfig) -> SceneStats {
    let scene = Scene::<V>::new(config);
    let boxes: Vec<Aabb<V>> = scene.objects().map(|(_, b)| b).collect();
    SceneStats::measure(&boxes)
}

#[test]
fn uniform_2d_at_1000_has_the_documented_pair_counts() {
    // About 320 overlapping pairs and about 12,800 overlapping on x alone.
    for seed in 1..4 {
        let s = stats_of::<Vec2>(SceneConfig {
            seed,
            ..SceneConfig::new(SceneKind::Uniform, 1000)
        });
        assert!(
            (250..=400).contains(&s.pairs),
            "seed {seed}: {} pairs",
            s.pairs
        );
        assert!(
            (11_000..=14_000).contains(&s.axis_pairs[0]),
            "seed {seed}: {:?}",
            s.axis_pairs
        );
    }
}

#[test]
fn density_is_constant_as_n_grows() {
    let small = SceneConfig::new(SceneKind::Uniform, 1000);
    let big = SceneConfig::new(SceneKind::Uniform, 16_000);
    assert_eq!(small.world_side(2), 1000.0);
    assert!((big.world_side(2) - 4000.0).abs() < 1e-2);
    assert!((big.world_side(3) - 1000.0 * 16f32.cbrt()).abs() < 1e-2);
    let (s, b) = (stats_of::<Vec2>(small), stats_of::<Vec2>(big));
    let (per_s, per_b) = (s.pairs as f64 / 1000.0, b.pairs as f64 / 16_000.0);
    assert!(
        (per_b / per_s - 1.0).abs() < 0.25,
        "{per_s} vs {per_b} pairs per object"
    );
}

#[test]
fn flat_scenes_are_thin_on_every_axis_but_x() {
    let s = stats_of::<Vec2>(SceneConfig::new(SceneKind::Flat, 1000));
    assert!(
        s.center_variance[0] > 100.0 * s.center_variance[1],
        "{:?}",
        s.center_variance
    );
    let s = stats_of::<Vec3>(SceneConfig::new(SceneKind::Flat, 1000));
    assert!(
        s.center_variance[0] > 100.0 * s.center_variance[2],
        "{:?}",
        s.center_variance
    );
}

#[test]
fn clustered_scenes_are_clustered() {
    let u = stats_of::<Vec2>(SceneConfig::new(SceneKind::Uniform, 1000));
    let c = stats_of::<Vec2>(SceneConfig::new(SceneKind::Clustered, 1000));
    assert!(c.pairs > 4 * u.pairs, "{} vs {}", c.pairs, u.pairs);
}

#[test]
fn large_scenes_add_two_percent_world_spanning_objects() {
    let scene = Scene::<Vec2>::new(SceneConfig::new(SceneKind::Large, 1000));
    let spanning = scene
        .objects()
        .filter(|(_, b)| b.size().x >= 0.99 * scene.world_side())
        .count();
    assert_eq!(spanning, 20);
    assert_eq!(
        scene.objects().count(),
        1020,
        "1000 movers plus 20 spanning"
    );
}

#[test]
fn elongated_scenes_have_a_tenth_rods_a_thousand_to_one() {
    for seed in 1..4 {
        let scene = Scene::<Vec3>::new(SceneConfig {
            seed,
            ..SceneConfig::new(SceneKind::Elongated, 2000)
        });
        let rods = scene
            .objects()
            .filter(|(_, b)| {
                let (long, thin) = (b.size().max_element(), b.size().min_element());
                (long / thin - 1000.0).abs() < 10.0 && (long - 200.0).abs() < 0.1
            })
            .count();
        assert!((150..=250).contains(&rods), "seed {seed}: {rods} rods");
    }
    // Their share can be set: all rods.
    let scene = Scene::<Vec2>::new(SceneConfig {
        odd_per_mille: Some(1000),
        ..SceneConfig::new(SceneKind::Elongated, 100)
    });
    assert!(
        scene
            .objects()
            .all(|(_, b)| (b.size().max_element() - 200.0).abs() < 0.1)
    );
}

#[test]
fn huge_scenes_keep_a_few_huge_movers_among_small_ones() {
    let mut scene = Scene::<Vec2>::new(SceneConfig {
        motion: Motion::Churn,
        ..SceneConfig::new(SceneKind::Huge, 5000)
    });
    let side = scene.world_side();
    let count = |scene: &Scene<Vec2>| {
        let huge = scene
            .objects()
            .filter(|(_, b)| (b.size().x - 0.05 * side).abs() < 0.01 * side)
            .count();
        let small = scene
            .objects()
            .filter(|(_, b)| b.size().max_element() <= 4.01)
            .count();
        (huge, small)
    };
    assert_eq!(count(&scene), (5, 4995));
    scene.take_frames(10);
    let (huge, small) = count(&scene);
    assert_eq!(huge + small, 5000);
    assert!((1..=10).contains(&huge), "{huge} huge after churn");
    // At least one, however few objects.
    let few = Scene::<Vec3>::new(SceneConfig::new(SceneKind::Huge, 40));
    let side = few.world_side();
    assert_eq!(
        few.objects()
            .filter(|(_, b)| (b.size().x - 0.05 * side).abs() < 0.01 * side)
            .count(),
        1
    );
}

#[test]
fn sparse_scenes_keep_their_clusters_apart_in_an_empty_world() {
    for motion in [Motion::Slow, Motion::Teleport] {
        let mut scene = Scene::<Vec2>::new(SceneConfig {
            motion,
            ..SceneConfig::new(SceneKind::Sparse, 20_000)
        });
        let side = scene.world_side();
        assert_eq!(
            side,
            8.0 * SceneConfig::new(SceneKind::Uniform, 20_000).world_side(2)
        );
        scene.take_frames(30);
        // Centres on a coarse grid of cells a cluster's side wide: the
        // 20 clusters of 1,000 fill few of its 64 by 64 cells.
        let cell = side / 64.0;
        let occupied: std::collections::BTreeSet<(i32, i32)> = scene
            .objects()
            .map(|(_, b)| {
                let c = b.center();
                ((c.x / cell) as i32, (c.y / cell) as i32)
            })
            .collect();
        assert!(
            occupied.len() <= 20 * 9,
            "{motion}: {} cells",
            occupied.len()
        );
        assert!(
            scene
                .world()
                .contains(&Aabb::from_point(Vec2::splat(side)).unwrap())
        );
    }
}

#[test]
fn motions_move_as_described() {
    let moved = |motion, kind| {
        let mut scene = Scene::<Vec2>::new(SceneConfig {
            motion,
            ..SceneConfig::new(kind, 1000)
        });
        let before: std::collections::BTreeMap<u64, Aabb<Vec2>> = scene.objects().collect();
        let mut frame = Vec::new();
        scene.next_frame(&mut frame);
        assert_eq!(frame.len(), before.len(), "frame 0 inserts every object");
        scene.next_frame(&mut frame);
        let mut steps = Vec::new();
        let (mut removes, mut inserts) = (0, 0);
        for r in &frame {
            match r {
                Record::Upsert { id, aabb } => match before.get(id) {
                    Some(old) => steps.push((aabb.center() - old.center()).length()),
                    None => inserts += 1,
                },
                Record::Remove { .. } => removes += 1,
            }
        }
        (steps, removes, inserts)
    };
    let (slow, ..) = moved(Motion::Slow, SceneKind::Uniform);
    assert!(
        slow.iter().all(|d| *d <= 1.0 + 1e-3),
        "slow moves at most 1 unit"
    );
    let full_steps = slow.iter().filter(|d| (**d - 1.0).abs() < 1e-3).count();
    assert!(
        full_steps > 950,
        "all but wall bounces move exactly 1 unit: {full_steps}"
    );
    let (fast, ..) = moved(Motion::Fast, SceneKind::Uniform);
    assert!(fast.iter().filter(|d| (**d - 8.0).abs() < 1e-3).count() > 900);
    let (teleport, ..) = moved(Motion::Teleport, SceneKind::Uniform);
    let jumps = teleport.iter().filter(|d| **d > 2.0).count();
    assert!((20..=90).contains(&jumps), "about 5% jump: {jumps}");
    let (_, removes, inserts) = moved(Motion::Churn, SceneKind::Uniform);
    assert_eq!((removes, inserts), (10, 10));
    let (large, ..) = moved(Motion::Slow, SceneKind::Large);
    assert_eq!(large.len(), 1000, "world-spanning objects are static");
}

#[test]
fn equal_configs_give_equal_scenes_and_seeds_differ() {
    let config = SceneConfig {
        motion: Motion::Churn,
        ..SceneConfig::new(SceneKind::Clustered, 300)
    };
    let a = Scene::<Vec3>::new(config).take_frames(5);
    let b = Scene::<Vec3>::new(config).take_frames(5);
    assert_eq!(a, b);
    let c = Scene::<Vec3>::new(SceneConfig { seed: 2, ..config }).take_frames(5);
    assert_ne!(a, c);
}
