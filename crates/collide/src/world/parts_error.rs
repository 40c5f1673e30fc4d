//! [`PartsError`]: a compound, mesh or heightfield that cannot be built.

/// A compound, mesh or heightfield that cannot be built. Each message
/// names the problem, where it is, and what to do.
///
/// ```
/// use collide::world::{Mesh3, PartsError};
/// use glam::Vec3;
/// let corners = [Vec3::ZERO, Vec3::X, Vec3::Z];
/// let err = Mesh3::new(&corners, &[[0, 1, 7]]).unwrap_err();
/// assert_eq!(err, PartsError::Index { element: 0, index: 7, vertices: 3 });
/// println!("{err}"); // element 0 names vertex 7, but there are 3 vertices; ...
/// ```
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum PartsError {
    /// A compound or mesh was given no parts.
    #[error("the {what} has no parts; give at least one")]
    Empty {
        /// "compound" or "mesh".
        what: &'static str,
    },
    /// More parts than a collider numbers.
    #[error("{count} parts is more than the {max} one collider numbers; split it")]
    TooMany {
        /// Parts given.
        count: usize,
        /// The most a collider holds.
        max: usize,
    },
    /// A vertex had a NaN or infinite coordinate.
    #[error("vertex {vertex} has a non-finite coordinate ({value}); give finite numbers")]
    Vertex {
        /// Its number.
        vertex: usize,
        /// The coordinate.
        value: f32,
    },
    /// An element named a vertex past the end of the list.
    #[error(
        "element {element} names vertex {index}, but there are {vertices} vertices; give numbers below {vertices}"
    )]
    Index {
        /// The element's number.
        element: usize,
        /// The vertex number it gave.
        index: u32,
        /// How many vertices there are.
        vertices: usize,
    },
    /// An element's corners span nothing: a triangle's lie on a line, a
    /// segment's ends coincide. Such elements are refused, not dropped,
    /// so a mesh never loses a part unseen.
    #[error(
        "element {element}'s corners span nothing (a triangle's on one line, a segment's ends together); remove it from the index list"
    )]
    Degenerate {
        /// The element's number.
        element: usize,
    },
    /// A height grid's list was not columns times rows long.
    #[error(
        "the height grid has {heights} heights for {columns} by {rows} samples; give columns * rows = {} heights, row by row",
        columns * rows
    )]
    GridSize {
        /// Samples along x.
        columns: usize,
        /// Samples along z (1 in 2D).
        rows: usize,
        /// Heights given.
        heights: usize,
    },
    /// A height grid had too few samples to make a cell.
    #[error("a height grid needs at least 2 samples along each side; it has {columns} by {rows}")]
    GridTooSmall {
        /// Samples along x.
        columns: usize,
        /// Samples along z (1 in 2D).
        rows: usize,
    },
    /// A height was NaN or infinite.
    #[error("height {index} is {value}; give finite heights")]
    Height {
        /// Its place in the list.
        index: usize,
        /// The value.
        value: f32,
    },
    /// A cell size was not finite and above 0.
    #[error("the cell size along axis {axis} is {value}; give a finite size above 0")]
    CellSize {
        /// The axis (0 = x, 2 = z).
        axis: usize,
        /// The size given.
        value: f32,
    },
}
