//! Region queries (boxes, points, rays, swept boxes, frustums) on every
//! structure against an independent oracle (a map of id to box and the
//! region's own hit test), between updates and steps, on the shared scenes
//! and on integer lattices where rays run along faces and through corners;
//! budgets and statistics.

use collide::geometry::{Frustum, Plane, Ray, Region, SweptAabb};
use collide::{Aabb, BroadPhase, Query, QueryBudget, Structure, Vector};
use collide_scenes::lattice_scene;
use collide_scenes::{Motion, Record, Runner, Scene, SceneConfig, SceneKind, SceneRng};
use glam::{Vec2, Vec3};
use std::collections::BTreeMap;
use std::ops::ControlFlow;

/// The oracle's world: the caller's ids and boxes, nothing else.
#[derive(Default)]
struct Model<V: Vector> {
    boxes: BTreeMap<u64, Aabb<V>>,
}

impl<V: Vector> Model<V> {
    fn apply(&mut self, records: &[Record<V>]) {
        for r in records {
            match *r {
                Record::Upsert { id, aabb } => {
                    self.boxes.insert(id, aabb);
                }
                Record::Remove { id } => {
                    self.boxes.remove(&id);
                }
            }
        }
    }

    fn hits(&self, region: &dyn Region<V>) -> Vec<u64> {
        let mut ids: Vec<u64> = self
            .boxes
            .iter()
            .filter(|(_, b)| region.hits(b))
            .map(|(&id, _)| id)
            .collect();
        ids.sort_unstable();
        ids
    }

    /// (t, id) of every box the ray enters, by t then id.
    fn ray_hits(&self, ray: &Ray<V>) -> Vec<(f32, u64)> {
        let mut hits: Vec<(f32, u64)> = self
            .boxes
            .iter()
            .filter_map(|(&id, b)| ray.entry(b).map(|t| (t, id)))
            .collect();
        hits.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        hits
    }
}

/// A structure's answer as sorted ids.
fn region_ids<V: Vector>(world: &dyn BroadPhase<V, u64>, region: &dyn Region<V>) -> Vec<u64> {
    let (hits, stats) = world.query_region_all(region, QueryBudget::default());
    assert!(!stats.truncated);
    assert_eq!(stats.hits as usize, hits.len());
    let mut ids: Vec<u64> = hits.iter().map(|h| *world.value(*h).unwrap()).collect();
    ids.sort_unstable();
    ids
}

/// A structure's ray answer as (t, id), checked to come in order of t.
fn ray_ids<V: Vector>(world: &dyn BroadPhase<V, u64>, ray: &Ray<V>) -> Vec<(f32, u64)> {
    let hits = world.query_ray_all(ray);
    assert!(
        hits.windows(2)
            .all(|w| (w[0].t, w[0].handle) <= (w[1].t, w[1].handle)),
        "ray hits out of order"
    );
    let closest = world.query_ray_closest(ray);
    assert_eq!(closest, hits.first().copied());
    assert_eq!(world.query_ray_any(ray), !hits.is_empty());
    let mut out: Vec<(f32, u64)> = hits
        .iter()
        .map(|h| (h.t, *world.value(h.handle).unwrap()))
        .collect();
    out.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    out
}

/// Queries of every kind spread over `[lo, hi]` on every axis; rays with
/// zero components, endless and zero-length ones, boxes moving and still,
/// frustums of one to four planes.
struct Probes<V: Vector> {
    regions: Vec<(String, Box<dyn Region<V>>)>,
    rays: Vec<Ray<V>>,
}

fn probes<V: Vector>(seed: u64, lo: f32, hi: f32, count: usize, lattice: bool) -> Probes<V> {
    let mut rng = SceneRng::new(seed);
    let coord = |rng: &mut SceneRng| {
        let x = rng.range(lo, hi);
        if lattice { x.round() } else { x }
    };
    let point = |rng: &mut SceneRng| V::from_axes(|_| coord(rng));
    let span = hi - lo;
    let mut regions: Vec<(String, Box<dyn Region<V>>)> = Vec::new();
    let mut rays = Vec::new();
    for k in 0..count {
        let p = point(&mut rng);
        let q = point(&mut rng);
        let aabb = Aabb::new(p.min_each(q), p.max_each(q)).unwrap();
        // Directions in {-1, 0, 1} per axis on lattices (along faces and
        // diagonals through corners), anything elsewhere; some axes zero.
        let dir = V::from_axes(|_| {
            if lattice {
                [-1.0, 0.0, 1.0][rng.below(3)]
            } else if rng.unit() < 0.25 {
                0.0
            } else {
                rng.range(-1.0, 1.0)
            }
        });
        let max_t = match k % 4 {
            0 => f32::INFINITY,
            1 => 0.0,
            _ => rng.range(0.0, span),
        };
        let ray = Ray::new(p, dir, max_t).unwrap();
        rays.push(ray);
        regions.push((format!("ray {k}"), Box::new(ray)));
        regions.push((format!("box {k}"), Box::new(aabb)));
        regions.push((format!("point {k}"), Box::new(Aabb::from_point(q).unwrap())));
        let moved = V::from_axes(|a| dir.axis(a) * rng.range(0.0, span / 4.0));
        let small = Aabb::new(p, V::from_axes(|a| p.axis(a) + span / 20.0)).unwrap();
        regions.push((
            format!("swept {k}"),
            Box::new(SweptAabb::new(small, moved).unwrap()),
        ));
        let planes: Vec<Plane<V>> = (0..1 + k % 4)
            .map(|_| {
                let normal = V::from_axes(|_| rng.range(-1.0, 1.0));
                Plane::through(point(&mut rng), normal)
            })
            .collect();
        if let Ok(frustum) = Frustum::new(&planes) {
            regions.push((format!("frustum {k}"), Box::new(frustum)));
        }
    }
    Probes { regions, rays }
}

/// Runs `frames` through every structure beside the model, answering
/// `probes` with changes pending and after each step.
fn every_structure_answers_like_the_model<V: Vector>(
    frames: &[Vec<Record<V>>],
    probes: &Probes<V>,
    what: &str,
) {
    for name in Structure::ALL {
        let mut world = name.build::<V, u64>();
        let mut model = Model::default();
        let mut runner = Runner::new();
        let mut events = Vec::new();
        for (f, records) in frames.iter().enumerate() {
            runner.apply(&mut world, records).unwrap();
            model.apply(records);
            for pass in ["pending", "stepped"] {
                for (label, region) in &probes.regions {
                    assert_eq!(
                        region_ids(&*world, region.as_ref()),
                        model.hits(region.as_ref()),
                        "{what}: {name}, frame {f} ({pass}), {label}"
                    );
                }
                for (k, ray) in probes.rays.iter().enumerate() {
                    assert_eq!(
                        ray_ids(&*world, ray),
                        model.ray_hits(ray),
                        "{what}: {name}, frame {f} ({pass}), ray {k}: {ray:?}"
                    );
                }
                if pass == "pending" {
                    runner.step(&mut world, &mut events);
                }
            }
        }
    }
}

#[test]
fn every_query_on_every_structure_matches_the_model_on_the_shared_scenes() {
    for kind in [SceneKind::Uniform, SceneKind::Clustered, SceneKind::Large] {
        for motion in [Motion::Teleport, Motion::Churn] {
            let config = SceneConfig {
                motion,
                seed: 5,
                ..SceneConfig::new(kind, 250)
            };
            let side2 = config.world_side(2);
            let side3 = config.world_side(3);
            every_structure_answers_like_the_model(
                &Scene::<Vec2>::new(config).take_frames(4),
                &probes(7, -50.0, side2 + 50.0, 25, false),
                &format!("2D {kind} {motion}"),
            );
            every_structure_answers_like_the_model(
                &Scene::<Vec3>::new(config).take_frames(3),
                &probes(8, -50.0, side3 + 50.0, 20, false),
                &format!("3D {kind} {motion}"),
            );
        }
    }
}

#[test]
fn rays_along_faces_and_through_corners_of_lattices_match_the_model() {
    // Integer boxes on a small lattice (ties, touching, identical and
    // zero-size boxes) and rays from lattice points along the axes and the
    // diagonals: rays on faces and edges, through corners, starting inside
    // and on faces; also far from the origin.
    for seed in 0..3 {
        for (offset, unit) in [(0.0, 1.0), (-1.0e6, 1.0), (-3.0e38, 1.0e37)] {
            let frames2 = lattice_scene::<Vec2>(seed, 20, offset, unit);
            let probes2 = probes(seed + 40, offset, offset + 20.0 * unit, 30, true);
            every_structure_answers_like_the_model(
                &frames2[..4],
                &probes2,
                &format!("2D lattice {seed} at {offset}"),
            );
            let frames3 = lattice_scene::<Vec3>(seed, 12, offset, unit);
            let probes3 = probes(seed + 50, offset, offset + 12.0 * unit, 20, true);
            every_structure_answers_like_the_model(
                &frames3[..3],
                &probes3,
                &format!("3D lattice {seed} at {offset}"),
            );
        }
    }
}

#[test]
fn budgets_truncate_and_say_so_and_a_finished_query_is_complete() {
    let config = SceneConfig::new(SceneKind::Clustered, 400);
    let frames = Scene::<Vec2>::new(config).take_frames(2);
    let region = Aabb::new(Vec2::splat(-10.0), Vec2::splat(2000.0)).unwrap();
    for name in Structure::ALL {
        let mut world = name.build::<Vec2, u64>();
        let mut runner = Runner::new();
        let mut events = Vec::new();
        for records in &frames {
            runner.apply(&mut world, records).unwrap();
            runner.step(&mut world, &mut events);
        }
        let (full, stats) = world.query_region_all(&region, QueryBudget::default());
        assert_eq!(full.len(), 400, "{name}");
        assert!(!stats.truncated);
        if name != Structure::Brute {
            assert!(stats.visited > 0, "{name}: {stats:?}");
        }
        for limit in [0u64, 1, 7, 100] {
            for budget in [
                QueryBudget {
                    max_tested: Some(limit),
                    ..QueryBudget::default()
                },
                QueryBudget {
                    max_visited: Some(limit),
                    ..QueryBudget::default()
                },
            ] {
                let (part, stats) = world.query_region_all(&region, budget);
                assert!(part.iter().all(|h| full.contains(h)), "{name}");
                assert!(stats.tested <= budget.max_tested.unwrap_or(u64::MAX));
                assert!(stats.visited <= budget.max_visited.unwrap_or(u64::MAX));
                if stats.truncated {
                    // Cut short only where the limit was reached; a tested
                    // budget under the object count cannot report them all.
                    match budget.max_tested {
                        Some(m) => {
                            assert_eq!(stats.tested, m, "{name}");
                            assert!(part.len() < full.len(), "{name}");
                        }
                        None => assert_eq!(Some(stats.visited), budget.max_visited, "{name}"),
                    }
                } else {
                    assert_eq!(part, full, "{name}: {budget:?} not truncated but short");
                }
                if limit == 0 && (budget.max_tested.is_some() || name != Structure::Brute) {
                    assert!(stats.truncated && part.is_empty(), "{name}: {budget:?}");
                }
            }
        }
        // A visitor that stops early is not a truncation.
        let mut seen = 0;
        let stats = world.query_region(&region, QueryBudget::default(), &mut |_| {
            seen += 1;
            ControlFlow::Break(())
        });
        assert_eq!((seen, stats.hits, stats.truncated), (1, 1, false), "{name}");
    }
}

#[test]
fn the_bvh_prunes_a_ray_to_a_few_nodes() {
    let config = SceneConfig::new(SceneKind::Uniform, 5000);
    let frames = Scene::<Vec2>::new(config).take_frames(2);
    let mut world = Structure::Bvh.build::<Vec2, u64>();
    let mut runner = Runner::new();
    let mut events = Vec::new();
    for records in &frames {
        runner.apply(&mut world, records).unwrap();
        runner.step(&mut world, &mut events);
    }
    let side = config.world_side(2);
    let ray = Ray::new(Vec2::new(0.0, side / 2.0), Vec2::X, 100.0).unwrap();
    let stats = world.query_ray(&ray, QueryBudget::default(), &mut |_| {
        ControlFlow::Continue(())
    });
    assert!(stats.hits > 0);
    assert!(
        stats.visited < 500 && stats.tested < 100,
        "a short ray should not wander: {stats:?}"
    );
    // Across the whole world: all hits visit much of the tree; the first
    // hit, walked nearest first, only the start of it.
    let across = Ray::new(Vec2::new(-1.0, side / 2.0), Vec2::X, f32::INFINITY).unwrap();
    let all = world.query_ray(&across, QueryBudget::default(), &mut |_| {
        ControlFlow::Continue(())
    });
    let mut first = None;
    let closest = world.query_ray(&across, QueryBudget::default(), &mut |hit| {
        first = Some(hit);
        ControlFlow::Break(())
    });
    assert!(all.hits > 20 && closest.hits == 1, "{all:?} {closest:?}");
    assert!(
        closest.visited * 4 < all.visited,
        "nearest first: {closest:?} against {all:?}"
    );
    assert_eq!(first, world.query_ray_all(&across).first().copied());
    // A budget cuts a ray short and says so.
    let tight = QueryBudget {
        max_visited: Some(5),
        ..QueryBudget::default()
    };
    let cut = world.query_ray(&across, tight, &mut |_| ControlFlow::Continue(()));
    assert!(cut.truncated && cut.visited == 5, "{cut:?}");
}

#[test]
fn grids_walk_rays_through_tiny_and_huge_cells_and_report_each_object_once() {
    // Objects spanning many cells (tiny cells) and many objects per cell
    // (huge cells), on lattices, where ray entry points fall on cell
    // boundaries: the walk along the ray must report each object once,
    // exactly as the model.
    use collide::{Grid, GridConfig, GridKind};
    for (seed, cell) in [(1u64, 0.25f32), (2, 1.0), (3, 7.0), (4, 100.0)] {
        for kind in [GridKind::Dense, GridKind::Hashed, GridKind::Hierarchical] {
            let config = GridConfig {
                cell_size: Some(cell),
                max_cells_per_object: 4096,
                ..GridConfig::default()
            };
            let frames = lattice_scene::<Vec2>(seed, 16, -3.0, 1.0);
            let probes2 = probes(seed + 90, -3.0, 13.0, 60, true);
            let mut world = Grid::<Vec2, u64>::with_config(kind, config).unwrap();
            let mut model = Model::default();
            let mut runner = Runner::new();
            let mut events = Vec::new();
            for (f, records) in frames.iter().take(4).enumerate() {
                runner.apply(&mut world, records).unwrap();
                model.apply(records);
                runner.step(&mut world, &mut events);
                for (k, ray) in probes2.rays.iter().enumerate() {
                    assert_eq!(
                        ray_ids(&world, ray),
                        model.ray_hits(ray),
                        "{kind:?} cell {cell}, frame {f}, ray {k}: {ray:?}"
                    );
                }
            }
            let frames3 = lattice_scene::<Vec3>(seed, 10, 5.0, 1.0);
            let probes3 = probes(seed + 91, 5.0, 15.0, 40, true);
            let config3 = GridConfig {
                cell_size: Some(cell),
                max_cells_per_object: 4096,
                ..GridConfig::default()
            };
            let mut world = Grid::<Vec3, u64>::with_config(kind, config3).unwrap();
            let mut model = Model::default();
            let mut runner = Runner::new();
            for (f, records) in frames3.iter().take(3).enumerate() {
                runner.apply(&mut world, records).unwrap();
                model.apply(records);
                runner.step(&mut world, &mut events);
                for (k, ray) in probes3.rays.iter().enumerate() {
                    assert_eq!(
                        ray_ids(&world, ray),
                        model.ray_hits(ray),
                        "3D {kind:?} cell {cell}, frame {f}, ray {k}: {ray:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn a_grid_walks_the_cells_along_a_ray_not_its_bounding_box() {
    use collide::{Aabb2, Grid, GridConfig, GridKind};
    let config = GridConfig {
        cell_size: Some(1.0),
        ..GridConfig::default()
    };
    let mut grid = Grid::<Vec2, u64>::with_config(GridKind::Hashed, config).unwrap();
    for i in 0..100 {
        for j in 0..100 {
            let p = Vec2::new(i as f32, j as f32);
            grid.insert(Aabb2::new(p, p + Vec2::splat(0.5)).unwrap(), 0)
                .unwrap();
        }
    }
    grid.step();
    let diagonal = Ray::new(Vec2::splat(0.25), Vec2::ONE, 99.0).unwrap();
    let walk = grid.query_region(&diagonal, QueryBudget::default(), &mut |_| {
        ControlFlow::Continue(())
    });
    let bounds = diagonal.bounds().unwrap();
    let boxed = grid.query_region(&bounds, QueryBudget::default(), &mut |_| {
        ControlFlow::Continue(())
    });
    assert_eq!(walk.hits, 100, "the diagonal enters the 100 boxes on it");
    assert!(boxed.visited > 9_000, "{boxed:?}");
    assert!(
        walk.visited * 5 < boxed.visited,
        "{walk:?} against {boxed:?}"
    );
}

mod properties {
    //! Property tests: random lattice worlds and random queries (rays with
    //! zero components, along faces, from inside; frustums; budgets of
    //! zero) on every structure, against the model.
    use super::*;
    use proptest::prelude::*;

    fn lattice_box() -> impl Strategy<Value = Aabb<Vec2>> {
        (-6i32..6, -6i32..6, 0i32..4, 0i32..4).prop_map(|(x, y, w, h)| {
            let p = Vec2::new(x as f32, y as f32);
            Aabb::new(p, p + Vec2::new(w as f32, h as f32)).unwrap()
        })
    }

    fn lattice_ray() -> impl Strategy<Value = Ray<Vec2>> {
        (-7i32..7, -7i32..7, -2i32..3, -2i32..3, 0u32..4).prop_map(|(x, y, dx, dy, len)| {
            let max_t = [0.0, 1.5, 6.0, f32::INFINITY][len as usize];
            Ray::new(
                Vec2::new(x as f32, y as f32),
                Vec2::new(dx as f32 * 0.5, dy as f32),
                max_t,
            )
            .unwrap()
        })
    }

    fn answers(boxes: &[Aabb<Vec2>], query: impl Fn(&dyn BroadPhase<Vec2, u64>)) {
        for name in Structure::ALL {
            let mut world = name.build::<Vec2, u64>();
            for (i, b) in boxes.iter().enumerate() {
                world.insert(*b, i as u64).unwrap();
            }
            query(&*world); // before the first step
            world.step();
            query(&*world);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn rays_on_every_structure_equal_the_model(
            boxes in prop::collection::vec(lattice_box(), 0..40),
            rays in prop::collection::vec(lattice_ray(), 1..8),
        ) {
            let model = Model {
                boxes: boxes.iter().enumerate().map(|(i, b)| (i as u64, *b)).collect(),
            };
            answers(&boxes, |world| {
                for ray in &rays {
                    assert_eq!(ray_ids(world, ray), model.ray_hits(ray), "{}: {ray:?}", world.name());
                    assert_eq!(region_ids(world, ray), model.hits(ray), "{}: {ray:?}", world.name());
                }
            });
        }

        #[test]
        fn frustums_boxes_and_zero_budgets_on_every_structure(
            boxes in prop::collection::vec(lattice_box(), 1..40),
            planes in prop::collection::vec((-2i32..3, -2i32..3, -8i32..8), 1..5),
            probe in lattice_box(),
        ) {
            let model = Model {
                boxes: boxes.iter().enumerate().map(|(i, b)| (i as u64, *b)).collect(),
            };
            let planes: Vec<Plane<Vec2>> = planes
                .iter()
                .map(|&(a, b, c)| Plane::new(Vec2::new(a as f32, b as f32), c as f32))
                .collect();
            let frustum = Frustum::new(&planes);
            answers(&boxes, |world| {
                assert_eq!(region_ids(world, &probe), model.hits(&probe));
                if let Ok(f) = &frustum {
                    assert_eq!(region_ids(world, f), model.hits(f), "{}", world.name());
                }
                for budget in [
                    QueryBudget { max_tested: Some(0), ..QueryBudget::default() },
                    QueryBudget { max_visited: Some(0), ..QueryBudget::default() },
                ] {
                    let (hits, stats) = world.query_region_all(&probe, budget);
                    // Nothing may be reported without a test; a query that
                    // could not finish says so.
                    if budget.max_tested == Some(0) {
                        assert!(hits.is_empty() && stats.tested == 0);
                    }
                    if !stats.truncated {
                        let mut ids: Vec<u64> =
                            hits.iter().map(|h| *world.value(*h).unwrap()).collect();
                        ids.sort_unstable();
                        assert_eq!(ids, model.hits(&probe), "{} {budget:?}", world.name());
                    }
                }
            });
            // Frustums with a zero normal or two planes facing apart are
            // errors, never a panic.
            if let Err(e) = frustum {
                prop_assert!(!e.to_string().is_empty());
            }
        }
    }
}

/// Review regressions: rays through grids near the saturated outermost
/// cells, long 3D walks, and zero-size boxes at the edge of the f32 range.
mod edges {
    use super::*;
    use collide::{Aabb3, Brute, Bvh, Grid, GridConfig, GridKind};

    fn grid3(kind: GridKind, cell: f32) -> Grid<Vec3, u64> {
        let config = GridConfig {
            cell_size: Some(cell),
            max_cells_per_object: 4096,
            ..GridConfig::default()
        };
        Grid::with_config(kind, config).unwrap()
    }

    fn ids(world: &dyn BroadPhase<Vec3, u64>, ray: &Ray<Vec3>) -> Vec<u64> {
        let mut ids: Vec<u64> = world
            .query_ray_all(ray)
            .iter()
            .map(|h| *world.value(h.handle).unwrap())
            .collect();
        ids.sort_unstable();
        ids
    }

    #[test]
    fn a_3d_grid_ray_beyond_the_saturated_cells_is_not_missed() {
        for kind in [GridKind::Hashed, GridKind::Hierarchical] {
            let mut grid = grid3(kind, 1.0);
            let b = Aabb3::new(
                Vec3::new(50_000.0, 1_550_000.0, 0.0),
                Vec3::new(50_001.0, 1_550_001.0, 1.0),
            )
            .unwrap();
            grid.insert(b, 7).unwrap();
            grid.step();
            let ray = Ray::new(Vec3::new(0.0, 1.5e6, 0.5), Vec3::new(1.0, 1.0, 0.0), 1e5).unwrap();
            assert!(ray.entry(&b).is_some());
            assert_eq!(ids(&grid, &ray), [7], "{kind:?}");
        }
    }

    #[test]
    fn a_ray_through_the_last_3d_cells_reports_each_object_once() {
        let mut grid = grid3(GridKind::Hashed, 1.0);
        let b = Aabb3::new(
            Vec3::new(1.5e6 - 1.0, -1_048_576.0, 1.0),
            Vec3::new(1.5e6 + 1.0, -1_048_574.0, 2.0),
        )
        .unwrap();
        grid.insert(b, 3).unwrap();
        grid.step();
        let from = Vec3::new(1.5e6, -1_048_575.5, 1.5);
        let to = Vec3::new(3e6, 1_048_589.5, 1.5);
        let ray = Ray::new(from, to - from, 1.0).unwrap();
        assert_eq!(ids(&grid, &ray), [3]);
    }

    #[test]
    fn a_long_3d_ray_in_a_diagonal_plane_finds_every_object_along_it() {
        // The walk visits only the (y, z) rows near the segment (before,
        // it looped over all 10^8 rows of the bounding rectangle).
        let mut grid = grid3(GridKind::Hashed, 1.0);
        for i in 0..100 {
            let p = Vec3::new(0.0, i as f32 * 100.0, i as f32 * 100.0);
            grid.insert(
                Aabb3::new(p - Vec3::splat(0.5), p + Vec3::splat(0.5)).unwrap(),
                i,
            )
            .unwrap();
        }
        grid.step();
        let ray = Ray::new(Vec3::ZERO, Vec3::new(0.0, 1.0, 1.0), 1e4).unwrap();
        assert_eq!(ids(&grid, &ray).len(), 100);
    }

    #[test]
    fn a_dense_grid_ray_far_outside_its_cells_does_not_overflow() {
        let config = GridConfig {
            cell_size: Some(1e-3),
            bounds: Some(Aabb::new(Vec2::splat(1e7), Vec2::splat(1e7 + 1.0)).unwrap()),
            ..GridConfig::default()
        };
        let mut grid = Grid::<Vec2, u64>::with_config(GridKind::Dense, config).unwrap();
        let near = Aabb::new(Vec2::splat(-1.0), Vec2::splat(1.0)).unwrap();
        grid.insert(near, 1).unwrap();
        grid.step();
        let ray = Ray::new(Vec2::splat(-50.0), Vec2::ONE, 100.0).unwrap();
        let hits: Vec<u64> = grid
            .query_ray_all(&ray)
            .iter()
            .map(|h| *grid.value(h.handle).unwrap())
            .collect();
        assert_eq!(hits, [1]);
    }

    #[test]
    fn zero_size_boxes_at_the_edge_of_f32_are_seen_by_every_structure() {
        let edge = Aabb::new(Vec2::new(0.0, f32::MAX), Vec2::new(1.0, f32::MAX)).unwrap();
        let west = Frustum::new(&[Plane::new(Vec2::X, 5.0)]).unwrap();
        assert!(west.hits(&edge));
        for name in Structure::ALL {
            let mut world = name.build::<Vec2, u64>();
            world.insert(edge, 9).unwrap();
            world.step();
            assert_eq!(region_ids(&*world, &west), [9], "{name}");
        }
        let mut brute = Brute::<Vec2, u64>::new();
        let mut bvh = Bvh::<Vec2, u64>::new();
        brute.insert(edge, 9).unwrap();
        bvh.insert(edge, 9).unwrap();
        assert_eq!(region_ids(&brute, &west), region_ids(&bvh, &west));
    }
}

#[test]
fn a_ray_whose_direction_is_subnormal_on_an_axis_finds_the_box_it_reaches() {
    // Moving down by the least f32 a unit of t, the ray reaches the top of
    // a box three of those below it at t = 3; that axis's reciprocal
    // overflows, which a walk by reciprocals alone would take as never.
    let below = Aabb::new(Vec3::new(0.0, -1.0, -1.0), Vec3::new(10.0, -4e-45, 1.0)).unwrap();
    let ray = Ray::new(Vec3::new(-1.0, 0.0, 0.0), Vec3::new(1.0, -1e-45, 0.0), 10.0).unwrap();
    let t = ray.entry(&below).expect("the exact test enters");
    for name in Structure::ALL {
        let mut world = name.build::<Vec3, u64>();
        world.insert(below, 1).unwrap();
        // Others around it, so that trees have inner nodes to walk.
        for i in 0..40 {
            let at = Vec3::new(i as f32 * 3.0 - 60.0, 5.0, (i % 7) as f32);
            world
                .insert(Aabb::new(at, at + Vec3::ONE).unwrap(), 10 + i)
                .unwrap();
        }
        // Until at rest, where the BVH's leaves hold the exact boxes.
        for _ in 0..20 {
            world.step();
        }
        assert_eq!(ray_ids(&*world, &ray), [(t, 1)], "{name}");
    }
}

#[test]
fn bounded_frustums_prune_by_their_corners_on_every_structure() {
    let config = SceneConfig {
        motion: Motion::Teleport,
        ..SceneConfig::new(SceneKind::Clustered, 400)
    };
    let side = config.world_side(2);
    // A camera at the world's corner looking along the diagonal, 60 units
    // to half the world away: a bounded quadrilateral.
    let view = Frustum::new(&[
        Plane::new(Vec2::new(-1.0, -1.0), -60.0),
        Plane::new(Vec2::new(1.0, 1.0), side),
        Plane::new(Vec2::new(-1.0, 0.3), 0.0),
        Plane::new(Vec2::new(0.3, -1.0), 0.0),
    ])
    .unwrap();
    assert!(view.bounds().is_some());
    let box3 = Frustum::new(&[
        Plane::new(Vec3::X, 400.0),
        Plane::new(-Vec3::X, -100.0),
        Plane::new(Vec3::Y, 500.0),
        Plane::new(-Vec3::Y, -50.0),
        Plane::new(Vec3::new(1.0, 1.0, 1.0), 900.0),
        Plane::new(-Vec3::Z, 0.0),
    ])
    .unwrap();
    assert!(box3.bounds().is_some());
    let probes2 = Probes {
        regions: vec![("view".to_string(), Box::new(view) as Box<dyn Region<Vec2>>)],
        rays: Vec::new(),
    };
    let probes3 = Probes {
        regions: vec![("box".to_string(), Box::new(box3) as Box<dyn Region<Vec3>>)],
        rays: Vec::new(),
    };
    every_structure_answers_like_the_model(
        &Scene::<Vec2>::new(config).take_frames(4),
        &probes2,
        "2D bounded frustum",
    );
    every_structure_answers_like_the_model(
        &Scene::<Vec3>::new(config).take_frames(3),
        &probes3,
        "3D bounded frustum",
    );
}
