//! Uniform grids: `grid` (dense over fixed bounds) and `hashgrid` (hashed,
//! unbounded), one implementation for 2D and 3D. See [`Grid`].

mod cells;
mod config;
mod pairs;
mod uniform;

pub use config::GridConfig;
pub use uniform::{Grid, GridKind, GridStats};
