//! A falling-sand world for games: a grid of cells, each holding one
//! material from a table the caller defines (density, kind of motion, how
//! it burns), updated tick by tick with the falling-sand rules.
//!
//! What it is for: sand that piles, water that levels, smoke that rises
//! and fire that spreads, cell by cell, in worlds of millions of cells.
//! What it costs: 5 bytes a cell, and per tick only the cells within one
//! of a change in the tick before (each chunk keeps a dirty rectangle), so
//! a settled world costs a pass over its chunk list. Chunks update on
//! rayon's pool in four phases by the parity of their column and row, so
//! no two threads touch the same cell, and every chunk draws its
//! randomness from the seed, the tick and its index: the same seed gives
//! the same world on any number of threads.
//!
//! It stands alone: a game that wants sand builds this crate and collide's
//! core, not the other game systems.
//!
//! **Tolerance.** Cells are exact: the same seed gives the same world bit
//! for bit. Known limit: a basin of sand and water still changes after
//! 10,000 ticks, where a settled world should stop.
//!
//! ```
//! use collide_sand::{Material, MaterialId, Materials, Motion, SandSettings, SandWorld};
//! let mut table = Materials::new();
//! let sand = table.add(Material::new("sand", 16.0, Motion::Powder)?)?;
//! let water = table.add(Material::new("water", 10.0, Motion::Liquid)?)?;
//! let mut world = SandWorld::new(SandSettings::new(128, 128)?.with_seed(1), table)?;
//! for x in 40..80 {
//!     world.set(x, 100, sand)?;
//!     world.set(x, 60, water)?;
//! }
//! for _ in 0..300 {
//!     world.tick();
//! }
//! // Sand sank through the water: the bottom row is sand.
//! assert_eq!(world.get(60, 0)?, sand);
//! assert_eq!(world.counts()[usize::from(sand.index())], 40);
//! # Ok::<(), collide_sand::SandError>(())
//! ```

#![warn(missing_docs)]

mod chunk;
mod error;
mod material;
mod solids;
mod update;
mod world;

pub use chunk::Rect;
pub use error::SandError;
pub use material::{
    Burning, LIQUID_DISPERSION, MAX_DISPERSION, Material, MaterialId, Materials, Motion,
};
pub use solids::Solids;
pub use world::{SandSettings, SandWorld};
