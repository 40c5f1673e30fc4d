//! Failures found by the property tests and the fuzzer, each kept as a
//! named test of the minimal sequence that showed it. Add one
//! here when `broad/properties.rs` or `fuzz/run.sh` finds something: the
//! sequence proptest printed, or the fuzz input decoded with
//! `crate::checks::ops::decode`.

use crate::checks::ops::{Op, Settings, check, check_with};
use collide::{Aabb2, BroadPhase, Grid, Query, Structure};
use glam::{Vec2, Vec3};

/// A dense grid sized itself from bounds 10^30 long and 1 wide: scaling
/// the cell once by the square root of the excess left 10^18 cells on the
/// long axis (the narrow one counts one cell whatever the size), and the
/// cell keys overflowed their packed form at the first step (a debug
/// assertion; in release, wrong keys). Found by the property tests.
#[test]
fn dense_grid_bounds_far_longer_than_wide_keep_the_cell_count_capped() {
    let sequence = [
        Op::Insert {
            at: [0; 3],
            size: [0; 3],
        },
        Op::Teleport { slot: 0, far: 3 },
        Op::Insert {
            at: [0; 3],
            size: [0; 3],
        },
        Op::Step,
    ];
    for name in Structure::ALL {
        check::<Vec2>(name, 0, &sequence).unwrap();
        check::<Vec3>(name, 0, &sequence).unwrap();
    }
    // The same through the API: two objects 10^30 apart on x.
    let mut grid: Grid<Vec2> = Grid::dense();
    let far = Aabb2::new(Vec2::new(1.0e30, 0.0), Vec2::new(1.0e30, 1.0)).unwrap();
    let a = grid.insert(far, ()).unwrap();
    let b = grid
        .insert(Aabb2::new(Vec2::ZERO, Vec2::ZERO).unwrap(), ())
        .unwrap();
    assert!(grid.step().started.is_empty());
    grid.update(b, far).unwrap();
    // Zero width on x: touching only, so no pair under the strict rule.
    assert!(grid.step().started.is_empty());
    grid.update(
        a,
        Aabb2::new(Vec2::new(1.0e30, 0.0), Vec2::new(1.1e30, 1.0)).unwrap(),
    )
    .unwrap();
    grid.update(
        b,
        Aabb2::new(Vec2::new(1.05e30, 0.5), Vec2::new(1.2e30, 0.7)).unwrap(),
    )
    .unwrap();
    assert_eq!(grid.step().started.len(), 1);
}

/// A grid given its cell size (or a dense one its bounds too) and a tree
/// given its bounds are configured when built; a snapshot built its copy
/// the same way, configuring it before the objects' boxes were copied in,
/// and indexed past their end. Only structures with default settings were
/// tested. Found by an independent check.
#[test]
fn a_snapshot_of_a_configured_grid_or_tree_does_not_panic() {
    use collide::{GridConfig, GridKind, Tree, TreeConfig, TreeKind};
    let sequence = [
        Op::Insert {
            at: [0; 3],
            size: [1; 3],
        },
        Op::Snapshot {
            at: [0; 3],
            size: [2; 3],
        },
        Op::Step,
    ];
    for name in Structure::ALL {
        check_with::<Vec2>(name, Settings::Configured, 0, &sequence).unwrap();
        check_with::<Vec3>(name, Settings::Configured, 0, &sequence).unwrap();
    }
    // The two reproductions, through the API.
    let config = GridConfig {
        cell_size: Some(1.0),
        ..GridConfig::default()
    };
    let mut grid: Grid<Vec2> = Grid::with_config(GridKind::Hashed, config).unwrap();
    let unit = Aabb2::new(Vec2::ZERO, Vec2::ONE).unwrap();
    grid.insert(unit, ()).unwrap();
    assert_eq!(grid.snapshot().query_aabb_all(&unit).len(), 1);
    let config = TreeConfig {
        bounds: Some(Aabb2::new(Vec2::ZERO, Vec2::splat(10.0)).unwrap()),
        ..TreeConfig::default()
    };
    let mut tree: Tree<Vec2> = Tree::with_config(TreeKind::Tight, config).unwrap();
    tree.insert(unit, ()).unwrap();
    assert_eq!(tree.snapshot().query_aabb_all(&unit).len(), 1);
}
