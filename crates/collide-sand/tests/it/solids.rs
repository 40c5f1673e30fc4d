//! The static cells as boxes: exactly the static cells, each covered once,
//! rebuilt only where they changed, and usable by collide's broad phase.

use collide::glam::Vec2;
use collide::{Aabb2, BroadPhase, Grid, Query};
use collide_sand::{Material, MaterialId, Materials, Motion, SandSettings, SandWorld, Solids};

fn materials() -> (Materials, MaterialId, MaterialId) {
    let mut t = Materials::new();
    let stone = t
        .add(Material::new("stone", 30.0, Motion::Static).unwrap())
        .unwrap();
    let sand = t
        .add(Material::new("sand", 16.0, Motion::Powder).unwrap())
        .unwrap();
    (t, stone, sand)
}

/// Per cell, how many boxes cover its centre.
fn coverage(world: &SandWorld, solids: &Solids, cell: f32) -> Vec<Vec<u32>> {
    let (w, h) = (world.settings().width(), world.settings().height());
    let mut cover = vec![vec![0u32; w as usize]; h as usize];
    for (_, b) in solids.boxes() {
        let (lo, hi) = (b.min() / cell, b.max() / cell);
        let (xs, ys) = (
            lo.x.round() as usize..hi.x.round() as usize,
            lo.y.round() as usize..hi.y.round() as usize,
        );
        for row in &mut cover[ys] {
            for c in &mut row[xs.clone()] {
                *c += 1;
            }
        }
    }
    cover
}

fn check_exact(world: &SandWorld, solids: &Solids, stone: MaterialId, cell: f32) {
    let cover = coverage(world, solids, cell);
    for (y, row) in world.rows().enumerate() {
        for (x, &m) in row.iter().enumerate() {
            let want = u32::from(m == stone.index());
            assert_eq!(cover[y][x], want, "cell ({x}, {y})");
        }
    }
}

#[test]
fn the_boxes_cover_exactly_the_static_cells_of_random_worlds() {
    let mut state = 7u64;
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as u32
    };
    for round in 0..20 {
        let (t, stone, sand) = materials();
        let (w, h) = (40 + next() % 100, 30 + next() % 100);
        let settings = SandSettings::new(w, h).unwrap().with_chunk(16).unwrap();
        let mut world = SandWorld::new(settings, t).unwrap();
        // Blobs of stone (rectangles and noise) and some sand.
        for _ in 0..(5 + next() % 20) {
            let (x0, y0) = (next() % w, next() % h);
            let (bw, bh) = (1 + next() % 20, 1 + next() % 20);
            for y in y0..(y0 + bh).min(h) {
                for x in x0..(x0 + bw).min(w) {
                    if next() % 7 != 0 {
                        world.place_asleep(x.into(), y.into(), stone).unwrap();
                    }
                }
            }
        }
        for _ in 0..200 {
            let (x, y) = (next() % w, next() % h);
            if world.get(x.into(), y.into()).unwrap() == MaterialId::EMPTY {
                world.set(x.into(), y.into(), sand).unwrap();
            }
        }
        let cell = 0.25 * (1 + round % 4) as f32;
        let mut solids = Solids::new(cell).unwrap();
        let mut rebuilt = Vec::new();
        world.refresh_solids(&mut solids, &mut rebuilt);
        check_exact(&world, &solids, stone, cell);
        // Sand moving does not touch the static cells: nothing to rebuild.
        for _ in 0..50 {
            world.tick();
        }
        world.refresh_solids(&mut solids, &mut rebuilt);
        assert!(rebuilt.is_empty(), "round {round}: {rebuilt:?}");
        check_exact(&world, &solids, stone, cell);
    }
}

#[test]
fn digging_rebuilds_only_the_chunk_dug() {
    let (t, stone, _) = materials();
    let mut world = SandWorld::new(SandSettings::new(128, 64).unwrap(), t).unwrap();
    for y in 0..10 {
        for x in 0..128 {
            world.set(x, y, stone).unwrap();
        }
    }
    let mut solids = Solids::new(1.0).unwrap();
    let mut rebuilt = Vec::new();
    world.refresh_solids(&mut solids, &mut rebuilt);
    assert_eq!(rebuilt, [0, 1]);
    assert_eq!(
        solids.chunk(0).len(),
        1,
        "one rectangle: {:?}",
        solids.chunk(0)
    );
    world.set(100, 9, MaterialId::EMPTY).unwrap();
    world.refresh_solids(&mut solids, &mut rebuilt);
    assert_eq!(rebuilt, [1]);
    check_exact(&world, &solids, stone, 1.0);
}

#[test]
fn a_broad_phase_holds_the_boxes_and_finds_a_wall() {
    let (t, stone, _) = materials();
    let mut world = SandWorld::new(SandSettings::new(64, 64).unwrap(), t).unwrap();
    for y in 0..40 {
        world.set(30, y, stone).unwrap();
    }
    let mut solids = Solids::new(0.5).unwrap();
    let mut rebuilt = Vec::new();
    world.refresh_solids(&mut solids, &mut rebuilt);
    let mut grid: Grid<Vec2, usize> = Grid::dense();
    for (chunk, b) in solids.boxes() {
        grid.insert(b, chunk).unwrap();
    }
    grid.step();
    let probe = Aabb2::new(Vec2::new(14.0, 5.0), Vec2::new(16.0, 6.0)).unwrap();
    assert_eq!(
        grid.query_aabb_all(&probe).len(),
        1,
        "the wall at x = 15 to 15.5"
    );
    let miss = Aabb2::new(Vec2::new(14.0, 21.0), Vec2::new(16.0, 22.0)).unwrap();
    assert!(grid.query_aabb_all(&miss).is_empty(), "above the wall");
}

#[test]
fn bad_cell_sizes_are_errors() {
    assert!(Solids::new(0.0).is_err());
    assert!(Solids::new(f32::NAN).is_err());
    assert!(Solids::new(-1.0).is_err());
}

#[test]
fn burning_wood_rebuilds_its_chunk() {
    use collide_sand::Burning;
    let mut t = Materials::new();
    let wood = t
        .add(
            Material::new("wood", 8.0, Motion::Static)
                .unwrap()
                .flammable(),
        )
        .unwrap();
    let fire = t
        .add(
            Material::new("fire", 0.5, Motion::Static)
                .unwrap()
                .burning(Burning {
                    spread: 0.5,
                    burn_out: 0.2,
                    leaves: MaterialId::EMPTY,
                })
                .unwrap(),
        )
        .unwrap();
    let mut world = SandWorld::new(SandSettings::new(64, 64).unwrap(), t).unwrap();
    for x in 0..64 {
        world.set(x, 10, wood).unwrap();
    }
    let mut solids = Solids::new(1.0).unwrap();
    let mut rebuilt = Vec::new();
    world.refresh_solids(&mut solids, &mut rebuilt);
    world.set(0, 10, fire).unwrap();
    world.refresh_solids(&mut solids, &mut rebuilt);
    for _ in 0..200 {
        world.tick();
    }
    world.refresh_solids(&mut solids, &mut rebuilt);
    assert_eq!(rebuilt, [0], "the fire changed the chunk's static cells");
    let static_cells = world
        .rows()
        .flatten()
        .filter(|&c| c == wood.index() || c == fire.index())
        .count();
    let covered: f32 = solids.boxes().map(|(_, b)| b.size().x * b.size().y).sum();
    assert_eq!(covered as usize, static_cells);
    assert!(static_cells < 64, "the shelf burned");
}

#[test]
fn one_solids_reused_with_another_world_rebuilds_everything() {
    // Regression: two worlds whose chunk 0 had the same revision kept the
    // first world's boxes.
    let build = |y: i64| {
        let (t, stone, _) = materials();
        let mut world = SandWorld::new(SandSettings::new(64, 64).unwrap(), t).unwrap();
        for x in 0..64 {
            world.set(x, y, stone).unwrap();
        }
        (world, stone)
    };
    let (a, _) = build(5);
    let (b, stone) = build(40);
    let mut solids = Solids::new(1.0).unwrap();
    let mut rebuilt = Vec::new();
    a.refresh_solids(&mut solids, &mut rebuilt);
    b.refresh_solids(&mut solids, &mut rebuilt);
    assert_eq!(rebuilt, [0]);
    check_exact(&b, &solids, stone, 1.0);
}

#[test]
fn cell_sizes_too_large_for_the_world_are_errors() {
    assert!(Solids::new(1e38).is_err());
    assert!(Solids::new(1e20).is_ok());
}
