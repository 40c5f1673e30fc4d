//! Grids: `grid` (dense over fixed bounds), `hashgrid` (hashed, unbounded)
//! and `hgrid` (hierarchical, hashed levels by object size), one
//! implementation for all three and for 2D and 3D. See [`Grid`].

mod cells;
mod config;
mod core;
mod level;
mod levels;
mod pairs;
mod query;
mod ray;

pub use config::GridConfig;
pub(crate) use config::{CellSizeScratch, choose_cell_size, judge_cell_size};
pub use core::{Grid, GridKind, GridStats};
