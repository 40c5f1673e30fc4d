//! `--sand`: the falling-sand world's speed. A 512 by 512 world whose
//! upper seven eighths start as random sand (35%), water (35%) and empty
//! space, all awake, collapsing onto a stone floor: cells scanned per
//! second and milliseconds per tick over its first 100 ticks, on one
//! thread and on two. Then a settled 2048 by 2048 world (sand placed
//! asleep): microseconds per tick, the cost of its chunk list.

use collide_sand::{Material, MaterialId, Materials, Motion, SandSettings, SandWorld};
use collide_scenes::SceneRng;
use std::time::Instant;

const ACTIVE_SIDE: u32 = 512;
const ACTIVE_TICKS: usize = 100;
const SETTLED_SIDE: u32 = 2048;
const SETTLED_TICKS: usize = 2_000;

fn table() -> (Materials, [MaterialId; 3]) {
    let mut t = Materials::new();
    let valid = "the benchmark's materials are valid";
    let stone = t
        .add(Material::new("stone", 30.0, Motion::Static).expect(valid))
        .expect(valid);
    let sand = t
        .add(Material::new("sand", 16.0, Motion::Powder).expect(valid))
        .expect(valid);
    let water = t
        .add(Material::new("water", 10.0, Motion::Liquid).expect(valid))
        .expect(valid);
    (t, [stone, sand, water])
}

/// One measurement of the collapsing world.
pub struct ActiveRow {
    pub threads: usize,
    pub ms_per_tick: f64,
    pub cells_per_second: f64,
    pub hash: u64,
}

fn collapsing() -> SandWorld {
    let (materials, [stone, sand, water]) = table();
    let settings = SandSettings::new(ACTIVE_SIDE, ACTIVE_SIDE)
        .expect("valid")
        .with_seed(3);
    let mut world = SandWorld::new(settings, materials).unwrap();
    let mut rng = SceneRng::new(99);
    let side = i64::from(ACTIVE_SIDE);
    for x in 0..side {
        world.place_asleep(x, 0, stone).expect("inside");
    }
    for y in side / 8..side {
        for x in 0..side {
            let r = rng.unit();
            let m = if r < 0.35 {
                sand
            } else if r < 0.7 {
                water
            } else {
                continue;
            };
            world.place_asleep(x, y, m).expect("inside");
        }
    }
    world.wake_all();
    world
}

/// The collapsing world on `threads` threads.
pub fn run_active(threads: usize) -> ActiveRow {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a pool");
    pool.install(|| {
        let mut world = collapsing();
        let (mut scanned, start) = (0u64, Instant::now());
        for _ in 0..ACTIVE_TICKS {
            world.tick();
            scanned += world.scanned();
        }
        let seconds = start.elapsed().as_secs_f64();
        ActiveRow {
            threads,
            ms_per_tick: seconds * 1e3 / ACTIVE_TICKS as f64,
            cells_per_second: scanned as f64 / seconds,
            hash: world.state_hash(),
        }
    })
}

/// Microseconds per tick of a settled world.
pub fn run_settled() -> f64 {
    let (materials, [_, sand, _]) = table();
    let settings = SandSettings::new(SETTLED_SIDE, SETTLED_SIDE).expect("valid");
    let mut world = SandWorld::new(settings, materials).unwrap();
    for y in 0..i64::from(SETTLED_SIDE) / 2 {
        for x in 0..i64::from(SETTLED_SIDE) {
            world.place_asleep(x, y, sand).expect("inside");
        }
    }
    world.tick();
    let start = Instant::now();
    for _ in 0..SETTLED_TICKS {
        world.tick();
    }
    start.elapsed().as_secs_f64() * 1e6 / SETTLED_TICKS as f64
}

/// The table `--sand` prints.
pub fn sand_table(rows: &[ActiveRow], settled_us: f64) -> String {
    let mut out = String::from(
        "## Falling sand\n\n| world | threads | ms per tick | cells scanned per second (millions) |\n|---|---:|---:|---:|\n",
    );
    for r in rows {
        out += &format!(
            "| {ACTIVE_SIDE} by {ACTIVE_SIDE}, collapsing, first {ACTIVE_TICKS} ticks | {} | {:.2} | {:.1} |\n",
            r.threads,
            r.ms_per_tick,
            r.cells_per_second / 1e6
        );
    }
    out += &format!(
        "| {SETTLED_SIDE} by {SETTLED_SIDE}, settled, {SETTLED_TICKS} ticks | 1 | {:.4} | — |\n",
        settled_us / 1e3
    );
    if let [one, two, ..] = rows {
        out += &format!(
            "\nTwo threads against one: {:.2} times; the worlds' hashes {}.\n",
            one.ms_per_tick / two.ms_per_tick,
            if one.hash == two.hash {
                "agree"
            } else {
                "DISAGREE"
            }
        );
    }
    out
}
