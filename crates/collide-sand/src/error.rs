//! What can go wrong building or editing a sand world.

/// A bad setting, material or cell.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SandError {
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
    /// moves one cell a tick stays within half a chunk of its own.
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
    /// Chances are probabilities per tick, in [0, 1].
    #[error("material `{name}`: chance {chance} must be in [0, 1]")]
    Chance {
        /// The material's name.
        name: String,
        /// The chance given.
        chance: f32,
    },
}
