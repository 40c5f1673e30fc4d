//! The grids against brute force on every frame: shared scenes, lattices
//! full of ties, objects far outside a dense grid's bounds, negative and huge
//! coordinates, bad cell sizes and settings.

use collide::{
    Aabb, Aabb2, BroadPhase, Error, Grid, GridConfig, GridKind, Query, Vector, Verified,
};
use collide_scenes::lattice_scene;
use collide_scenes::{Motion, Record, Runner, Scene, SceneConfig, SceneKind};
use glam::{Vec2, Vec3};

/// Runs `frames` through `grid` beside brute force; panics at the first
/// divergence with the frame and pair.
fn verify<V: Vector>(grid: Grid<V, u64>, frames: &[Vec<Record<V>>], what: &str) -> Grid<V, u64> {
    crate::common::verify_each(grid, frames, what, |_| Ok(()))
}

fn configs<V: Vector>(cell: f32, bounds: Option<Aabb<V>>) -> Vec<(String, Grid<V, u64>)> {
    let config = GridConfig {
        cell_size: Some(cell),
        bounds,
        ..GridConfig::default()
    };
    let mut all: Vec<(String, Grid<V, u64>)> = vec![
        ("grid auto".into(), Grid::dense()),
        ("hashgrid auto".into(), Grid::hashed()),
        ("hgrid auto".into(), Grid::hierarchical()),
    ];
    for kind in [GridKind::Dense, GridKind::Hashed, GridKind::Hierarchical] {
        all.push((
            format!("{kind:?} cell {cell}"),
            Grid::with_config(kind, config).unwrap(),
        ));
    }
    all
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
            Grid::with_config(GridKind::Dense, config).unwrap(),
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
    for grid in [Grid::dense(), Grid::hashed(), Grid::hierarchical()] {
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
        let err = Grid::<Vec2>::with_config(GridKind::Dense, config).unwrap_err();
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
        assert!(Grid::<Vec2>::with_config(GridKind::Hierarchical, config).is_err());
    }
    let config = GridConfig::<Vec2> {
        max_cells_per_object: 0,
        ..GridConfig::default()
    };
    assert!(
        Grid::<Vec2>::with_config(GridKind::Dense, config)
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
        Grid::<Vec2>::with_config(GridKind::Dense, config)
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
    let mut grid: Grid<Vec2> = Grid::with_config(GridKind::Hashed, config).unwrap();
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
    let mut grid: Grid<Vec2> = Grid::with_config(
        GridKind::Hashed,
        GridConfig {
            cell_size: Some(1.0),
            ..GridConfig::default()
        },
    )
    .unwrap();
    let big = grid
        .insert(Aabb2::new(Vec2::ZERO, Vec2::splat(3.0)).unwrap(), ())
        .unwrap();
    let query = Aabb2::new(Vec2::splat(1.0), Vec2::splat(2.5)).unwrap();
    assert_eq!(grid.query_aabb_all(&query), vec![big], "pending insert");
    grid.step();
    assert_eq!(grid.grid_stats().overflow_objects, 0);
    assert_eq!(grid.grid_stats().occupied_cells, 16);
    assert_eq!(
        grid.query_aabb_all(&query),
        vec![big],
        "once, though registered in 16 cells"
    );
    grid.update(
        big,
        Aabb2::new(Vec2::splat(10.0), Vec2::splat(11.0)).unwrap(),
    )
    .unwrap();
    assert!(grid.query_aabb_all(&query).is_empty());
    assert_eq!(grid.query_point_all(Vec2::splat(10.5)).unwrap(), vec![big]);
}

/// A box of largest extent `size` at `x`.
fn sized(x: f32, size: f32) -> Aabb2 {
    Aabb2::new(Vec2::new(x, 0.0), Vec2::new(x + size, size)).unwrap()
}

#[test]
fn hierarchical_levels_follow_size_with_hysteresis() {
    // Level 0 cells of 8: promote above 8, demote below 6.
    let config = GridConfig {
        cell_size: Some(8.0),
        ..GridConfig::default()
    };
    let mut grid: Grid<Vec2> = Grid::with_config(GridKind::Hierarchical, config).unwrap();
    let h = grid.insert(sized(0.0, 5.0), ()).unwrap();
    assert_eq!(grid.level_of(h), Some(0));
    let mut levels = Vec::new();
    for size in [
        7.0, 8.0, 8.5, 7.0, 6.5, 6.0, 5.9, 7.9, 8.1, 16.0, 16.5, 13.0, 12.0, 11.9,
    ] {
        grid.update(h, sized(0.0, size)).unwrap();
        levels.push(grid.level_of(h).unwrap());
    }
    assert_eq!(
        levels,
        [0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 2, 2, 2, 1],
        "level 1 (cells of 16) demotes below 6, level 2 (32) below 12"
    );
    grid.step();
    let changes = grid.grid_stats().level_changes;
    assert_eq!(changes, 5, "promote, demote, promote, promote, demote");
}

#[test]
fn an_object_changing_level_is_never_missing() {
    // A pulsing object crosses level boundaries every frame while always
    // overlapping its neighbour: the pair must never stop, and a query
    // must find it right after each update.
    let config = GridConfig {
        cell_size: Some(4.0),
        demote_ratio: 1.0,
        ..GridConfig::default()
    };
    let mut grid =
        Verified::new(Grid::<Vec2>::with_config(GridKind::Hierarchical, config).unwrap()).unwrap();
    let pulse = grid.insert(sized(0.0, 3.0), ()).unwrap();
    let rock = grid.insert(sized(1.0, 1.0), ()).unwrap();
    grid.step_checked().unwrap();
    let sizes = [3.0, 5.0, 9.0, 17.0, 33.0, 3.5, 70.0, 2.0, 40.0, 4.5];
    for (frame, size) in sizes.into_iter().cycle().take(60).enumerate() {
        grid.update(pulse, sized(0.0, size)).unwrap();
        assert_eq!(
            grid.query_aabb_all(&sized(1.2, 0.5)),
            vec![pulse, rock],
            "frame {frame}: size {size}"
        );
        let events = grid.step_checked().unwrap();
        assert!(events.is_empty(), "frame {frame}: {events:?}");
    }
    // The pulse ends at 4.5 (level 1, cells of 8), the rock at 1 (level 0).
    assert_eq!(grid.inner().grid_stats().levels, 2);
}

#[test]
fn neighbour_queries_match_brute_force() {
    for kind in [GridKind::Dense, GridKind::Hashed, GridKind::Hierarchical] {
        for cell in [3.0f32, 10.0, 50.0] {
            let config = GridConfig {
                cell_size: Some(cell),
                bounds: Some(Aabb2::new(Vec2::splat(100.0), Vec2::splat(400.0)).unwrap()),
                ..GridConfig::default()
            };
            let mut grid: Grid<Vec2, u64> = Grid::with_config(kind, config).unwrap();
            let scene = SceneConfig {
                motion: Motion::Teleport,
                ..SceneConfig::new(SceneKind::Clustered, 300)
            };
            let mut runner = Runner::new();
            let mut events = Vec::new();
            for records in Scene::<Vec2>::new(scene).take_frames(3) {
                runner.apply(&mut grid, &records).unwrap();
                runner.step(&mut grid, &mut events);
            }
            let centres: Vec<(collide::Handle, Vec2)> = (0..300u64)
                .filter_map(|id| runner.handle(id))
                .map(|h| (h, grid.aabb(h).unwrap().center()))
                .collect();
            for radius in [0.0f32, 2.5, 12.0, 40.0] {
                let mut expected = Vec::new();
                for (i, (a, ca)) in centres.iter().enumerate() {
                    for (b, cb) in &centres[i + 1..] {
                        if ca.as_dvec2().distance_squared(cb.as_dvec2())
                            < f64::from(radius) * f64::from(radius)
                        {
                            expected.push((*a.min(b), *a.max(b)));
                        }
                    }
                }
                expected.sort();
                let mut got = Vec::new();
                let _ = grid
                    .pairs_within(radius, &mut |a, b| {
                        got.push((a, b));
                        std::ops::ControlFlow::Continue(())
                    })
                    .unwrap();
                got.sort();
                assert_eq!(got, expected, "{kind:?} cell {cell} radius {radius}");

                let probe = Vec2::new(500.0, 480.0);
                let mut near: Vec<_> = centres
                    .iter()
                    .filter(|(_, c)| {
                        c.as_dvec2().distance_squared(probe.as_dvec2())
                            < f64::from(radius) * f64::from(radius)
                    })
                    .map(|(h, _)| *h)
                    .collect();
                near.sort();
                let mut found = Vec::new();
                let _ = grid
                    .neighbours_within(probe, radius, &mut |h| {
                        found.push(h);
                        std::ops::ControlFlow::Continue(())
                    })
                    .unwrap();
                found.sort();
                assert_eq!(found, near, "{kind:?} cell {cell} radius {radius}");
                if radius >= 40.0 {
                    assert!(!expected.is_empty(), "the scene must have close pairs");
                }
            }
            assert!(
                grid.pairs_within(-1.0, &mut |_, _| std::ops::ControlFlow::Continue(()))
                    .is_err()
            );
            assert!(
                grid.pairs_within(f32::NAN, &mut |_, _| std::ops::ControlFlow::Continue(()))
                    .is_err()
            );
            assert!(
                grid.neighbours_within(Vec2::new(f32::INFINITY, 0.0), 1.0, &mut |_| {
                    std::ops::ControlFlow::Continue(())
                })
                .is_err()
            );
        }
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    /// One operation of a random sequence on a small integer lattice.
    #[derive(Clone, Debug)]
    enum Op {
        Upsert(u64, [i32; 4]),
        Remove(u64),
        Step,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => (0u64..12, prop::array::uniform4(-3i32..5)).prop_map(|(id, c)| Op::Upsert(id, c)),
            1 => (0u64..12).prop_map(Op::Remove),
            2 => Just(Op::Step),
        ]
    }

    /// Turns ops into frames the runner accepts (ids named once per frame,
    /// removes only of present ids), on a lattice of spacing `unit` moved to
    /// `offset`.
    fn frames(ops: &[Op], offset: f32, unit: f32) -> Vec<Vec<Record<Vec2>>> {
        let mut out = vec![Vec::new()];
        let mut present = std::collections::BTreeSet::new();
        let mut named = std::collections::BTreeSet::new();
        for op in ops {
            match op {
                Op::Step => {
                    out.push(Vec::new());
                    named.clear();
                }
                Op::Upsert(id, c) if named.insert(*id) => {
                    let (x0, x1) = (c[0].min(c[1]), c[0].max(c[1]));
                    let (y0, y1) = (c[2].min(c[3]), c[2].max(c[3]));
                    let aabb = Aabb2::new(
                        Vec2::splat(offset) + Vec2::new(x0 as f32, y0 as f32) * unit,
                        Vec2::splat(offset) + Vec2::new(x1 as f32, y1 as f32) * unit,
                    )
                    .unwrap();
                    present.insert(*id);
                    out.last_mut()
                        .unwrap()
                        .push(Record::Upsert { id: *id, aabb });
                }
                Op::Remove(id) if present.contains(id) && named.insert(*id) => {
                    present.remove(id);
                    out.last_mut().unwrap().push(Record::Remove { id: *id });
                }
                _ => {}
            }
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn random_sequences_match_brute_force(
            ops in prop::collection::vec(op(), 1..80),
            cell in prop_oneof![Just(0.5f32), Just(1.0), Just(2.0), Just(7.0)],
            (offset, unit) in prop_oneof![Just((0.0f32, 1.0f32)), Just((-1.0e6, 1.0)), Just((3.0e30, 1.0e28))],
        ) {
            let frames = frames(&ops, offset, unit);
            let config = GridConfig {
                cell_size: Some(cell * unit),
                // Bounds cover part of the lattice: the rest overflows.
                bounds: Some(Aabb2::new(Vec2::splat(offset - 2.0 * unit), Vec2::splat(offset + 2.0 * unit)).unwrap()),
                max_cells_per_object: 9,
                ..GridConfig::default()
            };
            for kind in [GridKind::Dense, GridKind::Hashed, GridKind::Hierarchical] {
                verify(Grid::with_config(kind, config).unwrap(), &frames, &format!("{kind:?}"));
            }
        }
    }
}

#[test]
fn neighbours_of_zero_size_objects_survive_rounding() {
    // Regression: p + r rounded onto the neighbour's centre, and the strict
    // box test then missed a zero-size neighbour within the radius.
    for kind in [GridKind::Dense, GridKind::Hashed, GridKind::Hierarchical] {
        let mut grid: Grid<Vec2> = Grid::with_config(
            kind,
            GridConfig {
                cell_size: Some(0.5),
                bounds: Some(Aabb2::new(Vec2::splat(-10.0), Vec2::splat(2000.0)).unwrap()),
                ..GridConfig::default()
            },
        )
        .unwrap();
        let a = grid
            .insert(Aabb2::from_point(Vec2::new(1000.0, 0.0)).unwrap(), ())
            .unwrap();
        let b = grid
            .insert(Aabb2::from_point(Vec2::new(1001.0, 0.0)).unwrap(), ())
            .unwrap();
        grid.step();
        let mut found = Vec::new();
        let _ = grid
            .neighbours_within(Vec2::new(1000.0, 0.0), 1.00001, &mut |h| {
                found.push(h);
                std::ops::ControlFlow::Continue(())
            })
            .unwrap();
        found.sort();
        assert_eq!(found, vec![a, b], "{kind:?}");
        let mut pairs = Vec::new();
        let _ = grid
            .pairs_within(1.00001, &mut |x, y| {
                pairs.push((x, y));
                std::ops::ControlFlow::Continue(())
            })
            .unwrap();
        assert_eq!(pairs, vec![(a, b)], "{kind:?}");
    }
}

#[test]
fn subnormal_points_keep_their_home_cell() {
    // Regression: the centre of a subnormal point rounded to 0, outside
    // its cell, so pairs_within dropped its pairs.
    let mut grid: Grid<Vec2> = Grid::with_config(
        GridKind::Hashed,
        GridConfig {
            cell_size: Some(1.0),
            ..GridConfig::default()
        },
    )
    .unwrap();
    let a = grid
        .insert(Aabb2::from_point(Vec2::new(-1.0e-45, 0.0)).unwrap(), ())
        .unwrap();
    let b = grid
        .insert(Aabb2::from_point(Vec2::new(-0.5, 0.0)).unwrap(), ())
        .unwrap();
    grid.step();
    let mut pairs = Vec::new();
    let _ = grid
        .pairs_within(1.0, &mut |x, y| {
            pairs.push((x, y));
            std::ops::ControlFlow::Continue(())
        })
        .unwrap();
    assert_eq!(pairs, vec![(a, b)]);
}

#[test]
fn wide_radii_and_extreme_cells_do_not_explode() {
    for cell in [1.0e-30f32, 1.0e38] {
        let mut grid: Grid<Vec2> = Grid::with_config(
            GridKind::Hashed,
            GridConfig {
                cell_size: Some(cell),
                ..GridConfig::default()
            },
        )
        .unwrap();
        let a = grid
            .insert(Aabb2::from_point(Vec2::ZERO).unwrap(), ())
            .unwrap();
        let b = grid
            .insert(Aabb2::from_point(Vec2::new(3.0, 4.0)).unwrap(), ())
            .unwrap();
        grid.step();
        let mut pairs = Vec::new();
        let _ = grid
            .pairs_within(5.5, &mut |x, y| {
                pairs.push((x, y));
                std::ops::ControlFlow::Continue(())
            })
            .unwrap();
        assert_eq!(pairs, vec![(a, b)], "cell {cell}");
    }
    let frames = Scene::<Vec2>::new(SceneConfig::new(SceneKind::Uniform, 150)).take_frames(6);
    for cell in [1.0e-30f32, 1.0e38] {
        for kind in [GridKind::Dense, GridKind::Hashed, GridKind::Hierarchical] {
            let config = GridConfig {
                cell_size: Some(cell),
                ..GridConfig::default()
            };
            verify(
                Grid::with_config(kind, config).unwrap(),
                &frames,
                &format!("{kind:?} cell {cell}"),
            );
        }
    }
}

#[test]
fn box_queries_match_brute_force_after_steps_and_between_them() {
    let scene = SceneConfig {
        motion: Motion::Teleport,
        ..SceneConfig::new(SceneKind::Clustered, 300)
    };
    let frames = Scene::<Vec3>::new(scene).take_frames(8);
    for kind in [GridKind::Dense, GridKind::Hashed, GridKind::Hierarchical] {
        let mut grid: Grid<Vec3, u64> = Grid::with_config(kind, GridConfig::default()).unwrap();
        let hits = crate::common::queries_match_brute(
            &mut grid,
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

/// The cell size a grid of `kind` chooses for a shared scene's first frame,
/// over the 90th percentile of the boxes' largest extents.
fn chosen_factor<V: Vector>(grid_kind: GridKind, scene: SceneKind, n: usize) -> f32 {
    let mut frame = Vec::new();
    Scene::<V>::new(SceneConfig::new(scene, n)).next_frame(&mut frame);
    let mut grid = Grid::<V, u64>::with_config(grid_kind, GridConfig::default()).unwrap();
    let mut extents = Vec::new();
    for record in &frame {
        if let Record::Upsert { id, aabb } = *record {
            grid.insert(aabb, id).unwrap();
            let size = aabb.size();
            extents.push((0..V::DIM).map(|a| size.axis(a)).fold(0.0f32, f32::max));
        }
    }
    grid.step();
    extents.sort_by(f32::total_cmp);
    let p90 = extents[(extents.len() * 9 / 10).min(extents.len() - 1)];
    grid.cell_size().expect("chosen at the first step") / p90
}

#[test]
fn sparse_scenes_get_larger_cells_than_crowded_ones() {
    // Measured fastest at 100,000 objects (BENCHMARKS.md at commit 36a3a50,
    // "Re-fitting the cell cost"): about 8 times the extent on 3D
    // `uniform`, 4 on 2D `uniform`, 1 to 1.5 on 2D `flat`, where 770,000
    // pairs crowd a band.
    let sparse = chosen_factor::<Vec3>(GridKind::Hashed, SceneKind::Uniform, 20_000);
    let even = chosen_factor::<Vec2>(GridKind::Hashed, SceneKind::Uniform, 20_000);
    let crowded = chosen_factor::<Vec2>(GridKind::Hashed, SceneKind::Flat, 20_000);
    assert!(sparse >= 4.0, "3D uniform: {sparse} times the extent");
    assert!((4.0..=5.0).contains(&even), "2D uniform: {even}");
    assert!(crowded <= 1.5, "2D flat: {crowded}");
    // The hierarchical grid keeps its fixed factor of 1.5.
    let fixed = chosen_factor::<Vec3>(GridKind::Hierarchical, SceneKind::Uniform, 20_000);
    assert_eq!(fixed, 1.5);
}
