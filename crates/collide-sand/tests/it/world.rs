//! The falling-sand world against what the rules promise: one cell a
//! tick, conserved materials, the same world on any number of threads,
//! symmetric spreading, no stalls at chunk borders, and cells that sleep
//! until a change next to them wakes them.

use crate::common::{Table, on_threads, table};
use collide_sand::{Burning, Material, MaterialId, Materials, Motion, SandSettings, SandWorld};

fn world(width: u32, height: u32, seed: u64) -> (SandWorld, Table) {
    let t = table();
    let settings = SandSettings::new(width, height).unwrap().with_seed(seed);
    (SandWorld::new(settings, t.materials.clone()).unwrap(), t)
}

fn count(world: &SandWorld, m: MaterialId) -> u64 {
    world.counts()[usize::from(m.index())]
}

#[test]
fn a_lone_grain_falls_one_cell_a_tick_and_rests_on_the_floor() {
    // Across a chunk border on the way down (chunks of 64).
    let (mut w, t) = world(100, 100, 1);
    w.set(70, 90, t.sand).unwrap();
    for tick in 1..=90 {
        w.tick();
        assert_eq!(w.get(70, 90 - tick).unwrap(), t.sand, "tick {tick}");
        assert_eq!(count(&w, t.sand), 1);
    }
    for _ in 0..5 {
        w.tick();
    }
    assert_eq!(w.get(70, 0).unwrap(), t.sand);
    // Settled: nothing left to scan.
    assert_eq!(w.scanned(), 0);
}

#[test]
fn a_lone_puff_of_smoke_rises_one_cell_a_tick() {
    // Gas moves up into rows not yet scanned: only the mark of a moved
    // cell keeps it from rising again in the same tick.
    let (mut w, t) = world(100, 100, 1);
    w.set(30, 10, t.smoke).unwrap();
    for tick in 1..=80 {
        w.tick();
        assert_eq!(w.get(30, 10 + tick).unwrap(), t.smoke, "tick {tick}");
    }
}

/// Pours random materials into a basin for `ticks` ticks; returns the
/// counts at the end and the state hash.
fn pour(threads: usize, ticks: u32, burning: bool) -> (Vec<u64>, u64, Vec<u64>) {
    on_threads(threads, || {
        let (mut w, t) = world(160, 120, 42);
        for x in 0..160 {
            w.set(x, 0, t.stone).unwrap();
        }
        for y in 0..60 {
            w.set(0, y, t.stone).unwrap();
            w.set(159, y, t.stone).unwrap();
        }
        // A shelf across the chunk border, with wood on it when burning.
        for x in 40..100 {
            w.set(x, 50, if burning { t.wood } else { t.stone })
                .unwrap();
        }
        let mut state = 12345u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as u32
        };
        let mut added = vec![0u64; w.materials().len()];
        for tick in 0..ticks {
            if tick < ticks / 2 && tick % 3 == 0 {
                let x = 5 + (next() % 150) as i64;
                let m = match next() % 3 {
                    0 => t.sand,
                    1 => t.water,
                    _ => t.smoke,
                };
                if w.get(x, 110).unwrap() == MaterialId::EMPTY {
                    w.set(x, 110, m).unwrap();
                    added[usize::from(m.index())] += 1;
                }
                if burning && tick == ticks / 4 {
                    w.set(70, 51, t.fire).unwrap();
                }
            }
            w.tick();
        }
        (w.counts(), w.state_hash(), added)
    })
}

#[test]
fn without_reactions_every_material_is_conserved_on_any_number_of_threads() {
    let (one, hash, added) = pour(1, 10_000, false);
    let t = table();
    for m in [t.sand, t.water, t.smoke] {
        let i = usize::from(m.index());
        assert_eq!(one[i], added[i], "material {i}");
        assert!(added[i] > 400, "material {i}: only {} poured", added[i]);
    }
    for threads in [2, 3, 8] {
        let (counts, other_hash, _) = pour(threads, 10_000, false);
        assert_eq!(counts, one, "{threads} threads");
        assert_eq!(other_hash, hash, "{threads} threads");
    }
}

#[test]
fn fire_spreads_and_burns_out_the_same_on_any_number_of_threads() {
    let t = table();
    let (one, hash, _) = pour(1, 3_000, true);
    // The wood shelf burned: some of it became fire, then smoke.
    assert!(one[usize::from(t.wood.index())] < 60, "{one:?}");
    for threads in [2, 3] {
        let (counts, other, _) = pour(threads, 3_000, true);
        assert_eq!((counts, other), (one.clone(), hash), "{threads} threads");
    }
}

/// Mass left and right of column `mid` for material `m`.
fn sides(w: &SandWorld, m: MaterialId, mid: usize) -> (u64, u64) {
    let (mut left, mut right) = (0, 0);
    for row in w.rows() {
        for (x, &c) in row.iter().enumerate() {
            if c == m.index() {
                if x < mid {
                    left += 1;
                } else if x > mid {
                    right += 1;
                }
            }
        }
    }
    (left, right)
}

#[test]
fn a_symmetric_pour_spreads_symmetrically() {
    for liquid in [false, true] {
        let (mut w, t) = world(257, 100, 9);
        let m = if liquid { t.water } else { t.sand };
        for tick in 0..3_000 {
            if tick < 1_500 {
                w.set(128, 95, m).unwrap();
            }
            w.tick();
        }
        let (left, right) = sides(&w, m, 128);
        let total = (left + right) as f64;
        let skew = (left as f64 - right as f64).abs() / total;
        assert!(
            skew < 0.05,
            "{}: {left} left, {right} right",
            if liquid { "water" } else { "sand" }
        );
    }
}

/// Whether any cell of `m` has empty space right below it.
fn floating(w: &SandWorld, m: MaterialId) -> Option<(usize, usize)> {
    let rows: Vec<Vec<u8>> = w.rows().collect();
    for (y, pair) in rows.windows(2).enumerate() {
        let (below, row) = (&pair[0], &pair[1]);
        for (x, (&c, &under)) in row.iter().zip(below).enumerate() {
            if c == m.index() && under == 0 {
                return Some((x, y + 1));
            }
        }
    }
    None
}

#[test]
fn nothing_stalls_at_chunk_borders() {
    // Sand poured on the corner of four chunks settles, every grain
    // resting on something; water poured there levels out across chunks.
    for liquid in [false, true] {
        let (mut w, t) = world(128, 128, 3);
        let m = if liquid { t.water } else { t.sand };
        for tick in 0..2_500 {
            if tick < 640 {
                w.set(64, 120, m).unwrap();
            }
            w.tick();
        }
        assert_eq!(count(&w, m), 640);
        assert_eq!(floating(&w, m), None);
        if liquid {
            // Five rows of water: every column holds 5, give or take one.
            let rows: Vec<Vec<u8>> = w.rows().collect();
            for x in 0..128 {
                let depth = rows.iter().filter(|r| r[x] == m.index()).count();
                assert!((4..=6).contains(&depth), "column {x}: {depth} deep");
            }
        } else {
            assert_eq!(w.scanned(), 0, "settled, yet cells are scanned");
        }
    }
}

#[test]
fn removing_a_floor_in_the_next_chunk_drops_the_pile_above() {
    let (mut w, t) = world(128, 64, 5);
    for x in 0..128 {
        w.set(x, 20, t.stone).unwrap();
    }
    for tick in 0..1_500 {
        if tick < 600 {
            w.set(64, 60, t.sand).unwrap();
        }
        w.tick();
    }
    assert_eq!(w.scanned(), 0);
    let above = count(&w, t.sand);
    // Remove the floor under the pile's left half, in the chunk on the left.
    for x in 20..64 {
        w.set(x, 20, MaterialId::EMPTY).unwrap();
    }
    for _ in 0..500 {
        w.tick();
    }
    let fell = w
        .rows()
        .take(20)
        .flatten()
        .filter(|&c| c == t.sand.index())
        .count() as u64;
    assert!(fell > above / 4, "{fell} of {above} grains fell");
    assert_eq!(count(&w, t.sand), above);
    assert_eq!(floating(&w, t.sand), None);
}

#[test]
fn a_cell_no_one_wakes_stays_put_until_a_change_next_to_it() {
    let (mut w, t) = world(64, 64, 2);
    w.place_asleep(30, 40, t.sand).unwrap();
    for _ in 0..100 {
        w.tick();
    }
    assert_eq!(w.get(30, 40).unwrap(), t.sand, "nobody woke it");
    // A change next to it (two cells away does not count).
    w.set(32, 40, MaterialId::EMPTY).unwrap();
    w.tick();
    assert_eq!(w.get(30, 40).unwrap(), t.sand);
    w.set(31, 40, MaterialId::EMPTY).unwrap();
    w.tick();
    assert_eq!(w.get(30, 39).unwrap(), t.sand, "woken, it falls");
}

#[test]
fn bad_settings_and_cells_are_errors() {
    let (mut w, t) = world(10, 10, 0);
    assert!(w.set(10, 0, t.sand).is_err());
    assert!(w.set(-1, 0, t.sand).is_err());
    assert!(w.get(0, 10).is_err());
    assert!(w.set(0, 0, MaterialId::EMPTY).is_ok());
    let unknown = {
        let mut bigger = Materials::new();
        for k in 0..20 {
            bigger
                .add(Material::new(&format!("m{k}"), 2.0, Motion::Powder).unwrap())
                .unwrap();
        }
        bigger.iter().last().unwrap().0
    };
    assert!(w.set(0, 0, unknown).is_err());
    assert!(SandSettings::new(0, 5).is_err());
    assert!(SandSettings::new(1 << 20, 1 << 20).is_err());
    assert!(SandSettings::new(64, 64).unwrap().with_chunk(2).is_err());
    assert!(Material::new("x", -1.0, Motion::Liquid).is_err());
    assert!(Material::new("x", f32::INFINITY, Motion::Liquid).is_err());
    let fire = Material::new("f", 1.0, Motion::Static).unwrap();
    let bad = Burning {
        spread: 1.5,
        burn_out: 0.1,
        leaves: MaterialId::EMPTY,
    };
    assert!(fire.burning(bad).is_err());
    let mut full = Materials::new();
    for k in 0..255 {
        full.add(Material::new(&format!("m{k}"), 2.0, Motion::Powder).unwrap())
            .unwrap();
    }
    assert!(
        full.add(Material::new("one more", 2.0, Motion::Powder).unwrap())
            .is_err()
    );
    let _ = (t.stone, t.water, t.wood, t.fire, t.smoke);
}

#[test]
fn a_stream_falls_through_four_chunk_rows_and_settles() {
    // Every other border between chunk rows runs its upper row first; the
    // stream may bend there, but nothing is lost or left hanging.
    let (mut w, t) = world(64, 256, 8);
    for tick in 0..1_500 {
        if tick < 300 {
            w.set(32, 250, t.sand).unwrap();
        }
        w.tick();
    }
    assert_eq!(count(&w, t.sand), 300);
    assert_eq!(floating(&w, t.sand), None);
    assert_eq!(w.scanned(), 0);
}
