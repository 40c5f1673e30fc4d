//! The narrow phase's error type.

/// A shape or pose that cannot be built. Each message names the problem and
/// what to do.
///
/// ```
/// use collide::narrow::{ShapeError, d2::Circle};
/// let err = Circle::new(-1.0).unwrap_err();
/// assert!(matches!(err, ShapeError::Radius { .. }));
/// println!("{err}"); // the radius is -1; give a finite radius of 0 or more
/// ```
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum ShapeError {
    /// A coordinate, extent or angle was NaN or infinite.
    #[error("the {what} has a non-finite value ({value}); give finite numbers")]
    NonFinite {
        /// What held it ("position", "half extents", "vertex 3", ...).
        what: &'static str,
        /// The offending value.
        value: f32,
    },
    /// A radius was negative or not finite.
    #[error("the radius is {radius}; give a finite radius of 0 or more")]
    Radius {
        /// The radius given.
        radius: f32,
    },
    /// A contact margin was negative or not finite.
    #[error("the contact margin is {margin}; give a finite margin of 0 or more (world units)")]
    Margin {
        /// The margin given.
        margin: f32,
    },
    /// A rotation quaternion was zero (it cannot be normalised).
    #[error(
        "the rotation quaternion has length {length}; give a non-zero quaternion (it is normalised)"
    )]
    Rotation {
        /// Its length.
        length: f32,
    },
    /// A box's half extent was negative.
    #[error("half extent {value} on axis {axis} is negative; give 0 or more")]
    HalfExtent {
        /// The axis (0 = x).
        axis: usize,
        /// The value given.
        value: f32,
    },
    /// A polygon's points span no area (fewer than 3, or all on a line), or
    /// a polyhedron's no volume (fewer than 4, or all in a plane).
    #[error(
        "the shape's {points} points span no area (2D) or volume (3D); give points not all on one line (2D) or in one plane (3D)"
    )]
    Degenerate {
        /// How many points were given.
        points: usize,
    },
    /// A polygon's hull has more vertices than a polygon may hold.
    #[error(
        "the polygon's hull has {vertices} vertices, more than the {max} a polygon holds; simplify it or split it"
    )]
    TooManyVertices {
        /// Vertices of the convex hull.
        vertices: usize,
        /// The most a polygon holds.
        max: usize,
    },
}

/// `value` if finite, else the error naming `what`.
pub(crate) fn finite(what: &'static str, value: f32) -> Result<f32, ShapeError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(ShapeError::NonFinite { what, value })
    }
}

/// A radius of 0 or more, finite.
pub(crate) fn radius(radius: f32) -> Result<f32, ShapeError> {
    if radius.is_finite() && radius >= 0.0 {
        Ok(radius)
    } else {
        Err(ShapeError::Radius { radius })
    }
}
