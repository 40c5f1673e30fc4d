//! `--fracture`: Voronoi fracture in 2D: a 20 by 20 plate broken by 1,000
//! uniform sites and by 1,000 sites of a radial pattern (dense at the
//! impact), the median of 21 runs each, with the number of pieces (cells
//! past the narrow phase's 8 corners are cut in two, so there are more
//! pieces than sites).

use collide_game::fracture::{FractureSettings, Pattern, d2};
use collide_game::glam::DVec2;
use std::time::Instant;

const RUNS: usize = 21;

/// One row: the pattern's name, pieces, and the median milliseconds.
pub struct FractureRow {
    pub pattern: &'static str,
    pub pieces: usize,
    pub median_ms: f64,
}

pub fn run_fracture() -> Vec<FractureRow> {
    let plate = vec![
        DVec2::new(0.0, 0.0),
        DVec2::new(20.0, 0.0),
        DVec2::new(20.0, 20.0),
        DVec2::new(0.0, 20.0),
    ];
    let valid = "the benchmark's patterns are valid";
    let patterns = [
        ("uniform", Pattern::uniform(1000, 10.0, 5).expect(valid)),
        ("radial", Pattern::radial(1000, 14.0, 2.0, 5).expect(valid)),
    ];
    let settings = FractureSettings::default();
    patterns
        .into_iter()
        .map(|(name, pattern)| {
            let sites = pattern.placed(DVec2::new(10.0, 10.0), 0.0);
            let mut times = Vec::with_capacity(RUNS);
            let mut pieces = 0;
            for _ in 0..RUNS {
                let start = Instant::now();
                let broken = d2::fracture(std::slice::from_ref(&plate), &sites, &settings)
                    .expect("valid input");
                times.push(start.elapsed().as_secs_f64() * 1e3);
                pieces = broken.pieces().len();
            }
            times.sort_by(f64::total_cmp);
            FractureRow {
                pattern: name,
                pieces,
                median_ms: times[RUNS / 2],
            }
        })
        .collect()
}

/// The 100 sites both 3D runs break the wall at: uniform in 4 by 3 by 0.5.
fn wall_sites() -> Vec<[f64; 3]> {
    let mut state = 11u64;
    let mut unit = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    (0..100)
        .map(|_| [4.0 * unit(), 3.0 * unit(), 0.5 * unit()])
        .collect()
}

/// 100 sites in a 4 by 3 by 0.5 wall: the median milliseconds of 21 runs
/// of `d3::fracture`, and the pieces.
pub fn run_fracture_3d() -> (usize, f64) {
    use collide_game::fracture::d3;
    use collide_game::glam::DVec3;
    let wall = d3::Part::cuboid(DVec3::ZERO, DVec3::new(4.0, 3.0, 0.5)).expect("a valid box");
    let sites: Vec<DVec3> = wall_sites().into_iter().map(DVec3::from_array).collect();
    let mut times = Vec::with_capacity(RUNS);
    let mut pieces = 0;
    for _ in 0..RUNS {
        let start = Instant::now();
        let broken = d3::fracture(std::slice::from_ref(&wall), &sites).expect("valid input");
        times.push(start.elapsed().as_secs_f64() * 1e3);
        pieces = broken.pieces().len();
    }
    times.sort_by(f64::total_cmp);
    (pieces, times[RUNS / 2])
}

/// voro++ (through `voro_rs`) on the same 100 sites in the same wall:
/// putting the sites in a container the wall's size and computing every
/// cell with its volume (`sum_cell_volumes`), the median milliseconds of
/// 21 runs, and the volume summed (which equals the wall's).
pub fn run_voro_3d() -> (f64, f64) {
    use voro_rs::prelude::{Container0, ContainerStd};
    let sites = wall_sites();
    let mut times = Vec::with_capacity(RUNS);
    let mut volume = 0.0;
    for _ in 0..RUNS {
        let start = Instant::now();
        let mut container = ContainerStd::new(
            [0.0, 0.0, 0.0],
            [4.0, 3.0, 0.5],
            [6, 5, 1],
            [false, false, false],
        );
        for (n, &s) in sites.iter().enumerate() {
            container.put(n as i32, s, 0.0);
        }
        volume = container.sum_cell_volumes();
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    (times[RUNS / 2], volume)
}

pub fn fracture_table(rows: &[FractureRow]) -> String {
    let mut out = String::from(
        "## Voronoi fracture, 2D\n\n| 1,000 sites | pieces | median ms (21 runs) |\n|---|---:|---:|\n",
    );
    for r in rows {
        out += &format!("| {} | {} | {:.3} |\n", r.pattern, r.pieces, r.median_ms);
    }
    let (pieces, ms) = run_fracture_3d();
    let (voro_ms, voro_volume) = run_voro_3d();
    out += &format!(
        "\n3D: 100 uniform sites in a 4 by 3 by 0.5 wall: {pieces} pieces with their bonds in {ms:.3} ms; voro++ (voro_rs) computes the 100 cells and their volumes (sum {voro_volume:.6}) in {voro_ms:.3} ms (medians of 21 runs); ours / voro++: {:.2}.\n",
        ms / voro_ms
    );
    out
}
