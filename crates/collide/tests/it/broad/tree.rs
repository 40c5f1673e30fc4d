//! The quadtree/octree (tight and loose) against brute force on every frame,
//! with its invariants checked after every operation.

use collide::{Aabb, Aabb2, Aabb3, BroadPhase, Error, Tree, TreeConfig, TreeKind, Vector};
use collide_scenes::lattice_scene;
use collide_scenes::{Motion, Record, Scene, SceneConfig, SceneKind};
use glam::{Vec2, Vec3};

/// Runs `frames` through `tree` beside brute force, validating the tree
/// after every record and every step.
fn verify<V: Vector>(tree: Tree<V, u64>, frames: &[Vec<Record<V>>], what: &str) -> Tree<V, u64> {
    crate::common::verify_each(tree, frames, what, Tree::validate)
}

fn trees<V: Vector>() -> Vec<(&'static str, Tree<V, u64>)> {
    let small = TreeConfig {
        split_above: 2,
        merge_below: 1,
        max_depth: 6,
        ..TreeConfig::default()
    };
    vec![
        ("tree", Tree::tight()),
        ("loose", Tree::loose()),
        (
            "tree small nodes",
            Tree::with_config(TreeKind::Tight, small).unwrap(),
        ),
        (
            "loose small nodes",
            Tree::with_config(TreeKind::Loose, small).unwrap(),
        ),
    ]
}

#[test]
fn trees_match_brute_force_on_every_shared_scene() {
    for kind in SceneKind::ALL {
        for motion in Motion::ALL {
            let config = SceneConfig {
                motion,
                seed: 3,
                ..SceneConfig::new(kind, 200)
            };
            let frames = Scene::<Vec2>::new(config).take_frames(12);
            for (name, tree) in trees::<Vec2>() {
                verify(tree, &frames, &format!("2D {kind} {motion} {name}"));
            }
            let frames = Scene::<Vec3>::new(config).take_frames(8);
            for (name, tree) in trees::<Vec3>() {
                verify(tree, &frames, &format!("3D {kind} {motion} {name}"));
            }
        }
    }
}

#[test]
fn trees_match_brute_force_on_lattices_and_far_coordinates() {
    for seed in 0..8 {
        for (offset, unit) in [(0.0, 1.0), (-1.0e6, 1.0), (3.0e30, 1.0e28), (-5.0, 0.25)] {
            let frames = lattice_scene::<Vec2>(seed, 25, offset, unit);
            for (name, tree) in trees::<Vec2>() {
                verify(tree, &frames, &format!("lattice {seed} at {offset} {name}"));
            }
            let frames = lattice_scene::<Vec3>(seed, 15, offset, unit);
            for (name, tree) in trees::<Vec3>() {
                verify(
                    tree,
                    &frames,
                    &format!("3D lattice {seed} at {offset} {name}"),
                );
            }
        }
    }
}

#[test]
fn a_thousand_objects_on_one_point_terminate() {
    for kind in [TreeKind::Tight, TreeKind::Loose] {
        let mut tree: Tree<Vec2, u64> = Tree::with_config(kind, TreeConfig::default()).unwrap();
        let dot = Aabb2::from_point(Vec2::splat(3.0)).unwrap();
        let around = Aabb2::new(Vec2::ZERO, Vec2::splat(4.0)).unwrap();
        tree.insert(around, 0).unwrap();
        for i in 1..1000 {
            tree.insert(dot, i).unwrap();
        }
        tree.step();
        assert_eq!(
            tree.pairs().len(),
            999,
            "{kind:?}: each dot overlaps the box, not each other"
        );
        tree.validate().unwrap();
        assert!(
            tree.node_count() < 1000,
            "{kind:?}: {} nodes",
            tree.node_count()
        );
    }
}

#[test]
fn objects_outside_the_root_go_to_overflow_and_come_back() {
    let bounds = Aabb2::new(Vec2::ZERO, Vec2::splat(100.0)).unwrap();
    for kind in [TreeKind::Tight, TreeKind::Loose] {
        let config = TreeConfig {
            bounds: Some(bounds),
            ..TreeConfig::default()
        };
        let scene = SceneConfig {
            motion: Motion::Teleport,
            ..SceneConfig::new(SceneKind::Clustered, 300)
        };
        let frames = Scene::<Vec2>::new(scene).take_frames(15);
        let tree = verify(
            Tree::with_config(kind, config).unwrap(),
            &frames,
            &format!("{kind:?}"),
        );
        assert!(
            tree.overflow_objects() > 100,
            "{kind:?}: {}",
            tree.overflow_objects()
        );
    }
}

#[test]
fn children_merge_when_the_subtree_empties() {
    let bounds = Aabb3::new(Vec3::ZERO, Vec3::splat(128.0)).unwrap();
    let config = TreeConfig {
        bounds: Some(bounds),
        ..TreeConfig::default()
    };
    let mut tree: Tree<Vec3> = Tree::with_config(TreeKind::Tight, config).unwrap();
    let mut handles = Vec::new();
    for i in 0..200 {
        let p = Vec3::new(
            (i % 10) as f32 * 10.0 + 0.5,
            (i / 10) as f32 * 5.0 + 0.5,
            1.0,
        );
        handles.push(
            tree.insert(Aabb3::new(p, p + Vec3::ONE).unwrap(), ())
                .unwrap(),
        );
    }
    tree.step();
    let grown = tree.node_count();
    assert!(grown > 9, "200 objects split the root: {grown} nodes");
    for h in handles.drain(..197) {
        tree.remove(h).unwrap();
        tree.validate().unwrap();
    }
    tree.step();
    assert_eq!(tree.node_count(), 1, "3 objects fit the root alone again");
}

#[test]
fn loose_objects_move_near_splits_without_reregistration() {
    let mut tree: Tree<Vec2> = Tree::with_config(
        TreeKind::Loose,
        TreeConfig {
            bounds: Some(Aabb2::new(Vec2::ZERO, Vec2::splat(64.0)).unwrap()),
            split_above: 1,
            merge_below: 0,
            ..TreeConfig::default()
        },
    )
    .unwrap();
    let b = |x: f32| Aabb2::new(Vec2::new(x, 10.0), Vec2::new(x + 1.0, 11.0)).unwrap();
    let h = tree.insert(b(30.0), ()).unwrap();
    tree.insert(b(5.0), ()).unwrap();
    tree.step();
    // Wiggle across the x = 32 split: the loose bound still holds it.
    for x in [30.5, 31.5, 32.2, 31.0, 32.8] {
        tree.update(h, b(x)).unwrap();
        tree.step();
        assert_eq!(
            tree.stats().maintenance_ops,
            0,
            "moved to {x} without re-registration"
        );
    }
    tree.validate().unwrap();
}

#[test]
fn bad_settings_are_errors() {
    let bad =
        |config: TreeConfig<Vec2>| Tree::<Vec2>::with_config(TreeKind::Tight, config).unwrap_err();
    let d = TreeConfig::<Vec2>::default();
    assert!(matches!(
        bad(TreeConfig {
            split_above: 0,
            ..d
        }),
        Error::Setting {
            name: "split_above",
            ..
        }
    ));
    assert!(matches!(
        bad(TreeConfig {
            merge_below: 8,
            ..d
        }),
        Error::Setting {
            name: "merge_below",
            ..
        }
    ));
    assert!(matches!(
        bad(TreeConfig { max_depth: 31, ..d }),
        Error::Setting {
            name: "max_depth",
            ..
        }
    ));
    let flat = Aabb::new(Vec2::ZERO, Vec2::new(1.0, 0.0)).unwrap();
    assert!(matches!(
        bad(TreeConfig {
            bounds: Some(flat),
            ..d
        }),
        Error::Setting { name: "bounds", .. }
    ));
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn random_sequences_keep_invariants_and_match_brute_force(
            seed in 0u64..1000,
            frames in 2usize..25,
            unit in prop_oneof![Just(1.0f32), Just(0.125), Just(1.0e20)],
        ) {
            let frames = lattice_scene::<Vec2>(seed, frames, -3.0 * unit, unit);
            for (name, tree) in trees::<Vec2>() {
                verify(tree, &frames, name);
            }
        }
    }
}

#[test]
fn roots_spanning_the_whole_f32_range_keep_children_inside_parents() {
    // Regression: a loose bound that overflowed fell back to the bare cell,
    // so a child's bound stuck out of its parent's and pruning missed pairs.
    let bounds = Aabb2::new(Vec2::splat(-2.0e38), Vec2::splat(2.0e38)).unwrap();
    for kind in [TreeKind::Tight, TreeKind::Loose] {
        let config = TreeConfig {
            bounds: Some(bounds),
            split_above: 2,
            merge_below: 1,
            ..TreeConfig::default()
        };
        let mut frames = lattice_scene::<Vec2>(4, 10, 1.0e38, 1.0e37);
        // An object beyond the root that overlaps objects inside it.
        frames[0].push(Record::Upsert {
            id: 9999,
            aabb: Aabb2::new(Vec2::splat(1.5e38), Vec2::splat(3.0e38)).unwrap(),
        });
        verify(
            Tree::with_config(kind, config).unwrap(),
            &frames,
            &format!("{kind:?}"),
        );
    }
}

#[test]
fn box_queries_match_brute_force_before_and_after_steps() {
    let scene = SceneConfig {
        motion: Motion::Teleport,
        ..SceneConfig::new(SceneKind::Clustered, 300)
    };
    let frames = Scene::<Vec3>::new(scene).take_frames(6);
    for kind in [TreeKind::Tight, TreeKind::Loose] {
        let mut tree: Tree<Vec3, u64> = Tree::with_config(kind, TreeConfig::default()).unwrap();
        let hits = crate::common::queries_match_brute(
            &mut tree,
            &frames,
            &crate::common::probes(),
            &format!("{kind:?}"),
        );
        assert!(
            hits > 100,
            "{kind:?}: the probes must hit something ({hits})"
        );
    }
}

#[test]
fn overflow_objects_return_to_the_tree_and_moves_are_counted() {
    let bounds = Aabb2::new(Vec2::ZERO, Vec2::splat(100.0)).unwrap();
    let config = TreeConfig {
        bounds: Some(bounds),
        ..TreeConfig::default()
    };
    let mut tree: Tree<Vec2> = Tree::with_config(TreeKind::Tight, config).unwrap();
    let inside = Aabb2::new(Vec2::splat(10.0), Vec2::splat(12.0)).unwrap();
    let outside = Aabb2::new(Vec2::splat(500.0), Vec2::splat(502.0)).unwrap();
    let h = tree.insert(outside, ()).unwrap();
    tree.step();
    assert_eq!(tree.overflow_objects(), 1);
    tree.update(h, inside).unwrap();
    tree.step();
    assert_eq!(tree.overflow_objects(), 0, "back in the tree");
    assert_eq!(tree.stats().maintenance_ops, 1, "the move was counted");
    tree.validate().unwrap();
}

#[test]
fn a_thousand_objects_on_one_point_terminate_in_3d_by_the_minimum_cell() {
    let config = TreeConfig {
        max_depth: 30,
        ..TreeConfig::default()
    };
    let mut tree: Tree<Vec3> = Tree::with_config(TreeKind::Loose, config).unwrap();
    let dot = Aabb3::from_point(Vec3::splat(3.0)).unwrap();
    tree.insert(Aabb3::new(Vec3::ZERO, Vec3::splat(1000.0)).unwrap(), ())
        .unwrap();
    for _ in 0..1000 {
        tree.insert(dot, ()).unwrap();
    }
    tree.step();
    tree.validate().unwrap();
    assert_eq!(tree.pairs().len(), 1000);
    assert!(
        tree.node_count() < 30 * 8 + 1,
        "{} nodes",
        tree.node_count()
    );
}
