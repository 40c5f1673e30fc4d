//! What can go wrong building or editing a sand world.

use collide::narrow::ShapeError;
use collide::{AabbError, HandleError};

/// A bad setting, material or cell, or anything the collision library
/// refused. `collide`'s errors convert into it, so `?` carries an
/// [`AabbError`] or a [`collide::Error`] out of a function returning
/// `SandError`:
///
/// ```
/// use collide::Aabb2;
/// use collide::glam::Vec2;
/// use collide_sand::{SandError, SandSettings};
/// fn level() -> Result<(), SandError> {
///     let _settings = SandSettings::new(64, 32)?;
///     let _bounds = Aabb2::new(Vec2::ZERO, Vec2::new(64.0, 32.0))?;
///     Ok(())
/// }
/// assert!(level().is_ok());
/// ```
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SandError {
    /// The collision library refused a box, shape, handle or setting; the
    /// inner error says which and why.
    #[error(transparent)]
    Collide(#[from] collide::Error),
    /// A world needs at least one cell on each axis.
    #[error("a world needs at least one cell on each axis, got {width} by {height}")]
    EmptyWorld {
        /// Cells per row given.
        width: u32,
        /// Rows given.
        height: u32,
    },
    /// More cells than a world indexes (2^31).
    #[error("{width} by {height} cells is more than a world holds (2^31)")]
    TooLarge {
        /// Cells per row given.
        width: u32,
        /// Rows given.
        height: u32,
    },
    /// Chunks are square, even and at least 4 cells wide, so a cell that
    /// moves one cell a tick stays within half a chunk of its own (one
    /// that flows farther sideways needs a wider chunk).
    #[error("chunk side {0} must be even and from 4 to 1024 cells")]
    ChunkSide(u32),
    /// A cell outside the world.
    #[error("cell ({x}, {y}) is outside the {width} by {height} world")]
    OutOfBounds {
        /// The column given.
        x: i64,
        /// The row given.
        y: i64,
        /// The world's cells per row.
        width: u32,
        /// The world's rows.
        height: u32,
    },
    /// A material id the table does not hold.
    #[error("material {0} is not in the table")]
    UnknownMaterial(u8),
    /// A material id made by another table than the world's.
    #[error(
        "material {0} comes from another table: use ids from the table the world was made with"
    )]
    ForeignMaterial(u8),
    /// A table holds at most 256 materials (ids are bytes).
    #[error("a table holds at most 256 materials")]
    TooManyMaterials,
    /// Densities are finite and positive.
    #[error("material `{name}`: density {density} must be finite and positive")]
    Density {
        /// The material's name.
        name: String,
        /// The density given.
        density: f32,
    },
    /// A cell's size in world units is finite and positive.
    #[error("cell size {0} must be finite and positive")]
    CellSize(f32),
    /// A material's sideways flow is 1 to 64 cells a tick.
    #[error("material `{name}`: it flows {cells} cells a tick; give 1 to 64")]
    Dispersion {
        /// The material's name.
        name: String,
        /// The cells a tick given.
        cells: u32,
    },
    /// The chunks run at once four phases apart must stay apart however
    /// far a cell moves: a chunk is at least twice the farthest flow.
    #[error(
        "material `{name}` flows {cells} cells a tick, more than half the chunk side {side}: give chunks of {need} cells or more, or a smaller dispersion"
    )]
    FlowPastChunk {
        /// The material that flows farthest.
        name: String,
        /// Its cells a tick.
        cells: u32,
        /// The chunk side.
        side: u32,
        /// The least chunk side that allows it.
        need: u32,
    },
    /// Chances are probabilities per tick, in [0, 1].
    #[error("material `{name}`: chance {chance} must be in [0, 1]")]
    Chance {
        /// The material's name.
        name: String,
        /// The chance given.
        chance: f32,
    },
}

impl From<AabbError> for SandError {
    fn from(e: AabbError) -> Self {
        SandError::Collide(e.into())
    }
}

impl From<HandleError> for SandError {
    fn from(e: HandleError) -> Self {
        SandError::Collide(e.into())
    }
}

impl From<ShapeError> for SandError {
    fn from(e: ShapeError) -> Self {
        SandError::Collide(e.into())
    }
}
