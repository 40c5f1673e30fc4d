//! Liquids flowing sideways several cells a tick (their dispersion): a
//! basin levels in hundreds of ticks, not tens of thousands, with every
//! count kept and the same world on any number of threads.

use crate::common::{on_threads, table};
use collide_sand::{Material, Materials, Motion, SandError, SandSettings, SandWorld};

/// A stone basin `inner` cells wide, a block of water 30 wide and 40
/// high poured in at its left end, water flowing `dispersion` cells a
/// tick: the tick it is level within one cell (or `None` within
/// `limit`), its water count and its state hash then.
fn level(inner: u32, dispersion: u32, limit: u32) -> (Option<u32>, u64, u64) {
    let mut t = table();
    let water = Material::new("still water", 10.0, Motion::Liquid)
        .unwrap()
        .with_dispersion(dispersion)
        .unwrap();
    let still = t.materials.add(water).unwrap();
    let (width, height) = (inner + 2, 64);
    let settings = SandSettings::new(width, height).unwrap().with_seed(9);
    let mut world = SandWorld::new(settings, t.materials.clone()).unwrap();
    for x in 0..i64::from(width) {
        world.set(x, 0, t.stone).unwrap();
    }
    for y in 0..i64::from(height) {
        world.set(0, y, t.stone).unwrap();
        world.set(i64::from(width) - 1, y, t.stone).unwrap();
    }
    for x in 1..=30 {
        for y in 1..=40 {
            world.set(x, y, still).unwrap();
        }
    }
    let poured = world.counts()[usize::from(still.index())];
    let columns = |world: &SandWorld| {
        (1..=i64::from(inner))
            .map(|x| {
                (1..i64::from(height))
                    .filter(|&y| world.get(x, y).unwrap() == still)
                    .count()
            })
            .collect::<Vec<_>>()
    };
    for tick in 1..=limit {
        world.tick();
        let heights = columns(&world);
        let (low, high) = (heights.iter().min().unwrap(), heights.iter().max().unwrap());
        if high - low <= 1 {
            assert_eq!(world.counts()[usize::from(still.index())], poured);
            return (Some(tick), poured, world.state_hash());
        }
    }
    (None, poured, world.state_hash())
}

/// Flowing one cell a tick each way by a coin, a basin 313 cells wide
/// levelled only after 27,500 ticks (and this one not in 30,000). With
/// the default dispersion, and each cell keeping the way it flowed, a
/// 300-cell basin levels within one cell in at most 600 ticks (439), the
/// same on 1, 2, 3 and 8 threads.
#[test]
fn a_300_cell_basin_levels_within_600_ticks_on_any_number_of_threads() {
    let runs: Vec<_> = [1, 2, 3, 8]
        .into_iter()
        .map(|threads| on_threads(threads, || level(300, collide_sand::LIQUID_DISPERSION, 600)))
        .collect();
    let (levelled, _, _) = runs[0];
    assert!(levelled.is_some(), "not level after 600 ticks");
    assert!(runs.iter().all(|r| *r == runs[0]), "{runs:?}");
    // One cell a tick is not level by then (1,262 ticks).
    let (slow, _, _) = level(300, 1, 600);
    assert_eq!(slow, None);
}

/// A material flowing farther than half a chunk would let the chunks a
/// phase runs at once reach the same cells: the world refuses it, and
/// says what chunk it needs.
#[test]
fn a_flow_longer_than_half_a_chunk_is_refused() {
    let mut materials = Materials::new();
    let far = Material::new("mercury", 20.0, Motion::Liquid)
        .unwrap()
        .with_dispersion(40)
        .unwrap();
    materials.add(far).unwrap();
    let settings = SandSettings::new(256, 64).unwrap();
    let err = SandWorld::new(settings, materials.clone()).unwrap_err();
    assert!(
        matches!(
            err,
            SandError::FlowPastChunk {
                cells: 40,
                side: 64,
                need: 80,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("mercury"), "{err}");
    let wide = SandSettings::new(256, 64).unwrap().with_chunk(80).unwrap();
    assert!(SandWorld::new(wide, materials).is_ok());
    for cells in [0, 65] {
        let water = Material::new("water", 10.0, Motion::Liquid).unwrap();
        assert!(matches!(
            water.with_dispersion(cells),
            Err(SandError::Dispersion { .. })
        ));
    }
}
