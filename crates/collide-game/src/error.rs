//! The game layer's errors: each names the setting or input that was wrong
//! and the value it had.

use collide::geometry::RayError;
use collide::narrow::ShapeError;
use collide::{AabbError, HandleError};

/// Bad input to a game system: a setting or a per-tick value out of range,
/// or anything the collision library refused. `collide`'s errors convert
/// into it, so `?` carries a [`ShapeError`], [`AabbError`], [`RayError`],
/// [`HandleError`] or [`collide::Error`] out of a function returning
/// `GameError`:
///
/// ```
/// use collide_game::GameError;
/// use collide_game::glam::Vec3;
/// use collide::narrow::d3::Sphere;
/// use collide::Aabb3;
/// fn level() -> Result<(), GameError> {
///     let _bounds = Aabb3::new(Vec3::ZERO, Vec3::ONE)?;
///     let _ball = Sphere::new(0.5)?;
///     Ok(())
/// }
/// assert!(level().is_ok());
/// ```
///
/// ```
/// use collide_game::GameError;
/// use collide_game::time::ClockSettings;
/// let err = ClockSettings::new(0.0, 8).unwrap_err();
/// assert_eq!(err, GameError::NotPositive { what: "tick length (seconds)", value: 0.0 });
/// assert!(err.to_string().contains("tick length (seconds) must be above zero"));
/// ```
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum GameError {
    /// The collision library refused a box, shape, pose, handle or
    /// setting; the inner error says which and why.
    #[error(transparent)]
    Collide(#[from] collide::Error),
    /// A value that must be a finite number was NaN or infinite.
    #[error("{what} must be a finite number, got {value}")]
    NotFinite {
        /// What the value is.
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// A value that must be above zero was zero or negative.
    #[error("{what} must be above zero, got {value}")]
    NotPositive {
        /// What the value is.
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// A value that must not be negative was.
    #[error("{what} must not be negative, got {value}")]
    Negative {
        /// What the value is.
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// A shape that must be a convex polygon, its corners counter-clockwise,
    /// with an area, was not.
    #[error("{what} {index} is not a convex counter-clockwise polygon with an area")]
    NotConvex {
        /// What the shape is.
        what: &'static str,
        /// Its index in the list given.
        index: usize,
    },
    /// A value outside the range a setting allows.
    #[error("{what} must be from {min} to {max}, got {value}")]
    OutOfRange {
        /// What the value is.
        what: &'static str,
        /// The value given.
        value: f64,
        /// The smallest value allowed.
        min: f64,
        /// The largest value allowed.
        max: f64,
    },
    /// A value beyond the range a system computes in safely.
    #[error("{what} {value} is beyond the limit of {limit}")]
    TooLarge {
        /// What the value is.
        what: &'static str,
        /// The value given.
        value: f64,
        /// The largest magnitude allowed.
        limit: f64,
    },
    /// An id made by another container (another fight, another skeleton
    /// description) than the one it was given to.
    #[error("{what} comes from another container: give ids to the one that made them")]
    ForeignId {
        /// What the id is.
        what: &'static str,
    },
    /// A list that must not be empty was.
    #[error("{what} must not be empty")]
    Empty {
        /// What the list is.
        what: &'static str,
    },
    /// A list whose length must match another's did not.
    #[error("{what}: {got} given, {expected} expected")]
    WrongLength {
        /// What the list is.
        what: &'static str,
        /// The length it must have.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// A tick recorded at or before the newest one recorded.
    #[error("tick {tick} recorded after tick {newest}: record ticks in increasing order")]
    OutOfOrder {
        /// The tick given.
        tick: u64,
        /// The newest tick recorded.
        newest: u64,
    },
    /// A tick the history does not hold (too old, not yet, or skipped).
    #[error("tick {tick} is not kept{}", match kept {
        Some((oldest, newest)) => format!(" (ticks {oldest} to {newest} are)"),
        None => " (nothing is recorded yet)".to_string(),
    })]
    NotKept {
        /// The tick asked for.
        tick: u64,
        /// The oldest and newest ticks kept, if any.
        kept: Option<(u64, u64)>,
    },
}

impl From<ShapeError> for GameError {
    fn from(e: ShapeError) -> Self {
        GameError::Collide(e.into())
    }
}

impl From<AabbError> for GameError {
    fn from(e: AabbError) -> Self {
        GameError::Collide(e.into())
    }
}

impl From<HandleError> for GameError {
    fn from(e: HandleError) -> Self {
        GameError::Collide(e.into())
    }
}

impl From<RayError> for GameError {
    fn from(e: RayError) -> Self {
        GameError::Collide(e.into())
    }
}

/// `value` if it is from `min` to `max`, else [`GameError::OutOfRange`]
/// (or [`GameError::NotFinite`]).
pub(crate) fn within(what: &'static str, value: f64, min: f64, max: f64) -> Result<f64, GameError> {
    if finite(what, value)? < min || value > max {
        return Err(GameError::OutOfRange {
            what,
            value,
            min,
            max,
        });
    }
    Ok(value)
}

/// `value` if it is finite, else [`GameError::NotFinite`].
pub(crate) fn finite(what: &'static str, value: f64) -> Result<f64, GameError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(GameError::NotFinite { what, value })
    }
}

/// `value` if it is finite and above zero.
pub(crate) fn positive(what: &'static str, value: f64) -> Result<f64, GameError> {
    if finite(what, value)? > 0.0 {
        Ok(value)
    } else {
        Err(GameError::NotPositive { what, value })
    }
}

/// `value` if it is finite and not negative.
pub(crate) fn non_negative(what: &'static str, value: f64) -> Result<f64, GameError> {
    if finite(what, value)? >= 0.0 {
        Ok(value)
    } else {
        Err(GameError::Negative { what, value })
    }
}

/// `v` if every component is finite.
pub(crate) fn finite_vector<V: collide::geometry::Vector>(
    what: &'static str,
    v: V,
) -> Result<V, GameError> {
    for k in 0..V::DIM {
        finite(what, f64::from(v.axis(k)))?;
    }
    Ok(v)
}

/// `value` if it is a finite share from 0 to 1.
pub(crate) fn unit_share(what: &'static str, value: f32) -> Result<f32, GameError> {
    within(what, f64::from(value), 0.0, 1.0)?;
    Ok(value)
}
