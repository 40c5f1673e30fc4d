//! The demo's cell-size study: the same scene through the hashed grid with
//! cells from far too small to far too large, to show what the automatic
//! choice buys.

use crate::measure::{RunOptions, RunReport, run};
use crate::table::{Table, micros, thousands};
use collide::{BroadPhase, Grid, GridConfig, GridKind, Structure, Verified};
use collide_scenes::{Record, Scene, SceneConfig, SceneKind};
use glam::Vec2;

/// Multiples of the automatic cell size that the study tries.
pub const FACTORS: [f32; 8] = [0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0];

/// One cell size's results.
#[derive(Clone, Debug)]
pub struct CellRow {
    pub factor: f32,
    pub cell_size: f32,
    pub occupied_cells: usize,
    pub report: RunReport,
}

/// Runs the uniform 2D scene (slow) through `hashgrid` at each factor of
/// the automatic cell size, each checked against brute force on every frame.
pub fn cell_size_study(n: usize, frames: usize) -> Result<Vec<CellRow>, String> {
    let recorded: Vec<Vec<Record<Vec2>>> =
        Scene::<Vec2>::new(SceneConfig::new(SceneKind::Uniform, n)).take_frames(frames);
    let auto = {
        let mut probe = Grid::<Vec2, u64>::hashed();
        let mut runner = collide_scenes::Runner::new();
        runner
            .apply(&mut probe, &recorded[0])
            .map_err(|e| e.to_string())?;
        probe.step();
        probe.cell_size().unwrap_or(1.0)
    };
    let mut rows = Vec::new();
    for factor in FACTORS {
        let config = GridConfig {
            cell_size: Some(auto * factor),
            ..GridConfig::default()
        };
        let grid = || Grid::<Vec2, u64>::with_config(GridKind::Hashed, config);
        let mut checked =
            Verified::new(grid().map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
        run(
            Structure::HashGrid,
            &mut checked,
            &recorded,
            RunOptions::default(),
        )
        .map_err(|e| e.to_string())?;
        if let Some(d) = checked.divergence() {
            return Err(format!("cell size study, factor {factor}: {d}"));
        }
        let mut timed = grid().map_err(|e| e.to_string())?;
        let report = run(
            Structure::HashGrid,
            &mut timed,
            &recorded,
            RunOptions::default(),
        )
        .map_err(|e| e.to_string())?;
        rows.push(CellRow {
            factor,
            cell_size: auto * factor,
            occupied_cells: timed.grid_stats().occupied_cells,
            report,
        });
    }
    Ok(rows)
}

/// The study as a table.
pub fn describe_cells(rows: &[CellRow]) -> String {
    let mut table = Table::new(&[
        "cell size",
        "x auto",
        "occupied cells",
        "candidates/frame",
        "cell changes/frame",
        "us/step",
        "us/frame",
    ]);
    for row in rows {
        let r = &row.report;
        table.row(vec![
            format!("{:.1}", row.cell_size),
            format!("{}", row.factor),
            thousands(row.occupied_cells as f64),
            thousands(r.per_frame(r.candidates_tested)),
            thousands(r.per_frame(r.maintenance_ops)),
            micros(r.mean_step_micros()),
            micros(r.mean_frame_micros()),
        ]);
    }
    format!(
        "== cell size: uniform 2D slow through hashgrid, every size checked against brute force ==\n\
         Too small: every box covers many cells, so moves touch many lists. Too large: each\n\
         cell holds many objects and candidates grow with the square.\n{}\n",
        table.render()
    )
}
