//! The grids against brute force on every frame: shared scenes, lattices
//! full of ties, objects far outside a dense grid's bounds, negative and huge
//! coordinates, bad cell sizes and settings.

mod common;

use collide::scene::{Motion, Record, Runner, Scene, SceneConfig, SceneKind};
use collide::{Aabb, Aabb2, BroadPhase, Error, Grid, GridConfig, Vector, Verified};
use common::lattice_scene;
use glam::{Vec2, Vec3};

/// Runs `frames` through `grid` beside brute force; panics at the first
/// divergence with the frame and pair.
fn verify<V: Vector>(grid: Grid<V, u64>, frames: &[Vec<Record<V>>], what: &str) -> Grid<V, u64> {
    let mut world = Verified::new(grid).unwrap();
    let mut runner = Runner::new();
    let mut events = Vec::new();
    for records in frames {
        runner.apply(&mut world, records).unwrap();
        runner.step(&mut world, &mut events);
        if let Some(d) = world.last_divergence() {
            panic!("{what}: {d}");
        }
    }
    world.into_inner()
}

fn configs<V: Vector>(cell: f32, bounds: Option<Aabb<V>>) -> Vec<(String, Grid<V, u64>)> {
    let config = GridConfig {
        cell_size: Some(cell),
        bounds,
        ..GridConfig::default()
    };
    vec![
        ("grid auto".into(), Grid::dense()),
        ("hashgrid auto".into(), Grid::hashed()),
        (
            format!("grid cell {cell}"),
            Grid::with_config(config).unwrap(),
        ),
        (
            format!("hashgrid cell {cell}"),
            Grid::hashed_with_config(config).unwrap(),
        ),
    ]
}

#[test]
fn grids_match_brute_force_on_every_shared_scene() {
    for kind in SceneKind::ALL {
        for motion in Motion::ALL {
            let config = SceneConfig {
                motion,
                seed: 5,
                ..SceneConfig::new(kind, 300)
            };
            let frames = Scene::<Vec2>::new(config).take_frames(25);
            for (name, grid) in configs::<Vec2>(7.0, None) {
                verify(grid, &frames, &format!("2D {kind} {motion} {name}"));
            }
            let frames = Scene::<Vec3>::new(config).take_frames(12);
            for (name, grid) in configs::<Vec3>(40.0, None) {
                verify(grid, &frames, &format!("3D {kind} {motion} {name}"));
            }
        }
    }
}

#[test]
fn grids_match_brute_force_on_lattices_with_ties() {
    for seed in 0..12 {
        for (cell, offset, scale) in [
            (1.0, 0.0, 1.0),
            (2.0, -7.0, 1.0),
            (0.5, 3.0, 1.0),
            (3.0, -1.0e6, 1.0),
        ] {
            let frames = lattice_scene::<Vec2>(seed, 30, offset, scale);
            for (name, grid) in configs::<Vec2>(cell, None) {
                verify(
                    grid,
                    &frames,
                    &format!("lattice {seed} offset {offset} {name}"),
                );
            }
            let frames = lattice_scene::<Vec3>(seed, 20, offset, scale);
            for (name, grid) in configs::<Vec3>(cell, None) {
                verify(
                    grid,
                    &frames,
                    &format!("3D lattice {seed} offset {offset} {name}"),
                );
            }
        }
    }
}

#[test]
fn grids_match_brute_force_at_huge_coordinates() {
    for (offset, scale, cell) in [
        (-3.0e7, 4096.0, 5000.0),
        (1.0e30, 1.0e28, 1.0e28),
        (-1.0e36, 1.0e35, 1.0),
    ] {
        let frames = lattice_scene::<Vec2>(2, 25, offset, scale);
        for (name, grid) in configs::<Vec2>(cell, None) {
            verify(
                grid,
                &frames,
                &format!("offset {offset} scale {scale} {name}"),
            );
        }
    }
}

#[test]
fn objects_far_outside_a_dense_grid_go_to_overflow_and_are_never_lost() {
    // Bounds cover a quarter of the scene: most objects are outside.
    let bounds = Aabb2::new(Vec2::splat(0.0), Vec2::splat(250.0)).unwrap();
    let config = GridConfig {
        cell_size: Some(25.0),
        bounds: Some(bounds),
        ..GridConfig::default()
    };
    for motion in Motion::ALL {
        let scene = SceneConfig {
            motion,
            ..SceneConfig::new(SceneKind::Clustered, 400)
        };
        let frames = Scene::<Vec2>::new(scene).take_frames(20);
        let grid = verify(
            Grid::with_config(config).unwrap(),
            &frames,
            &format!("{motion}"),
        );
        let stats = grid.grid_stats();
        assert!(stats.overflow_objects > 200, "{motion}: {stats:?}");
        assert!(stats.occupied_cells > 0, "{motion}: {stats:?}");
    }
}

#[test]
fn world_spanning_objects_go_to_overflow() {
    let frames = Scene::<Vec2>::new(SceneConfig::new(SceneKind::Large, 1000)).take_frames(5);
    for grid in [Grid::dense(), Grid::hashed()] {
        let grid = verify(grid, &frames, "large");
        assert_eq!(grid.grid_stats().overflow_objects, 20, "the 20 floors");
    }
}

#[test]
fn tiny_and_huge_cells_are_still_exact() {
    let frames = Scene::<Vec2>::new(SceneConfig {
        motion: Motion::Teleport,
        ..SceneConfig::new(SceneKind::Uniform, 200)
    })
    .take_frames(15);
    for cell in [0.25, 3.0, 400.0, 1.0e6] {
        for (name, grid) in configs::<Vec2>(cell, None) {
            verify(grid, &frames, &format!("cell {cell} {name}"));
        }
    }
}

#[test]
fn bad_settings_are_errors_that_name_the_setting() {
    for bad in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        let config = GridConfig::<Vec2> {
            cell_size: Some(bad),
            ..GridConfig::default()
        };
        let err = Grid::<Vec2>::with_config(config).unwrap_err();
        assert!(
            matches!(
                err,
                Error::Setting {
                    name: "cell_size",
                    ..
                }
            ),
            "{bad}: {err}"
        );
        assert!(Grid::<Vec2>::hashed_with_config(config).is_err());
    }
    let config = GridConfig::<Vec2> {
        max_cells_per_object: 0,
        ..GridConfig::default()
    };
    assert!(
        Grid::<Vec2>::with_config(config)
            .unwrap_err()
            .to_string()
            .contains("max_cells_per_object")
    );
    let flat = Aabb2::new(Vec2::ZERO, Vec2::new(10.0, 0.0)).unwrap();
    let config = GridConfig {
        bounds: Some(flat),
        ..GridConfig::default()
    };
    assert!(
        Grid::<Vec2>::with_config(config)
            .unwrap_err()
            .to_string()
            .contains("bounds")
    );
}

#[test]
fn only_objects_that_change_cells_touch_the_cell_lists() {
    let config = GridConfig {
        cell_size: Some(10.0),
        ..GridConfig::default()
    };
    let mut grid: Grid<Vec2> = Grid::hashed_with_config(config).unwrap();
    let b = |x: f32| Aabb2::new(Vec2::new(x, 1.0), Vec2::new(x + 2.0, 3.0)).unwrap();
    let h = grid.insert(b(1.0), ()).unwrap();
    grid.step();
    grid.update(h, b(5.0)).unwrap(); // still in cell 0
    grid.step();
    assert_eq!(grid.grid_stats().cell_changes, 0);
    grid.update(h, b(9.0)).unwrap(); // now covers cells 0 and 1
    grid.step();
    assert_eq!(grid.grid_stats().cell_changes, 1);
    grid.update(h, b(12.0)).unwrap(); // leaves cell 0
    grid.step();
    assert_eq!(grid.grid_stats().cell_changes, 1);
}

#[test]
fn queries_see_updates_before_the_step_and_report_each_object_once() {
    let mut grid: Grid<Vec2> = Grid::hashed_with_config(GridConfig {
        cell_size: Some(1.0),
        ..GridConfig::default()
    })
    .unwrap();
    let big = grid
        .insert(Aabb2::new(Vec2::ZERO, Vec2::splat(5.0)).unwrap(), ())
        .unwrap();
    let query = Aabb2::new(Vec2::splat(1.0), Vec2::splat(4.0)).unwrap();
    assert_eq!(
        grid.query_aabb_all(&query),
        vec![big],
        "once, though in 9 cells"
    );
    grid.update(
        big,
        Aabb2::new(Vec2::splat(10.0), Vec2::splat(11.0)).unwrap(),
    )
    .unwrap();
    assert!(grid.query_aabb_all(&query).is_empty());
    assert_eq!(grid.query_point_all(Vec2::splat(10.5)).unwrap(), vec![big]);
}
