//! The library's error type.

use crate::geometry::{AabbError, FrustumError, RayError};
use crate::handle::{Handle, HandleError};
use crate::narrow::ShapeError;

/// Everything the library can refuse: a box, ray, frustum, shape or pose
/// that cannot be built, a handle that is not this structure's, a setting
/// out of range. Each variant's message names the problem, the value, and
/// what to do about it. Every part's own error converts into it, so `?`
/// carries any of them:
///
/// ```
/// use collide::narrow::d2::Circle;
/// use collide::{Aabb2, Error};
/// use glam::Vec2;
/// fn build() -> Result<(), Error> {
///     let _bounds = Aabb2::new(Vec2::ZERO, Vec2::ONE)?; // an AabbError
///     let _ball = Circle::new(0.5)?; // a ShapeError
///     Ok(())
/// }
/// assert!(build().is_ok());
/// ```
///
/// ```
/// use collide::{Aabb2, BroadPhase, Brute, Error, HandleError};
/// use glam::Vec2;
/// let mut a: Brute<Vec2> = Brute::new();
/// let mut b: Brute<Vec2> = Brute::new();
/// let unit = Aabb2::new(Vec2::ZERO, Vec2::ONE)?;
/// let h = a.insert(unit, ())?;
/// let err = b.update(h, unit).unwrap_err();
/// assert!(matches!(err, Error::Handle(HandleError::Foreign { .. })));
/// println!("{err}"); // handle #0v0 belongs to structure .. but was given to ..
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A box was invalid (non-finite or inverted).
    #[error(transparent)]
    Aabb(#[from] AabbError),
    /// A handle was stale, foreign, or the structure is full.
    #[error(transparent)]
    Handle(#[from] HandleError),
    /// A shape or pose was invalid (non-finite, negative radius, ...).
    #[error(transparent)]
    Shape(#[from] ShapeError),
    /// A compound, mesh or heightfield was invalid (no parts, a bad
    /// vertex or index, a grid of the wrong size, ...).
    #[error(transparent)]
    Parts(#[from] crate::world::PartsError),
    /// A ray was invalid (non-finite, zero direction, negative length).
    #[error(transparent)]
    Ray(#[from] RayError),
    /// A frustum was invalid (a plane non-finite or zero).
    #[error(transparent)]
    Frustum(#[from] FrustumError),
    /// [`update_many`](crate::BroadPhase::update_many) was given a different
    /// number of boxes than handles.
    #[error(
        "update_many got {handles} handles but {boxes} boxes; give one box per handle, in the same order"
    )]
    BatchLengths {
        /// Handles given.
        handles: usize,
        /// Boxes given.
        boxes: usize,
    },
    /// [`Structure::Auto`](crate::Structure::Auto) was asked to run inside
    /// `Auto`.
    #[error("auto cannot run inside auto; switch to one of the other structures")]
    NestedAuto,
    /// Continuous collision was asked of a mesh.
    #[error(
        "a mesh ({parts} elements) is not swept between steps: meshes are level geometry; mark what moves against it continuous instead, or make the moving piece a compound"
    )]
    Continuous {
        /// Its elements.
        parts: usize,
    },
    /// A structure setting is out of range.
    #[error("setting `{name}` is {value}, but it must be {expected}")]
    Setting {
        /// The setting's name, as the builder method spells it.
        name: &'static str,
        /// The value given.
        value: f64,
        /// What it must be.
        expected: &'static str,
    },
    /// A pair was asked of one collider twice.
    #[error("a pair needs two colliders, but {0:?} was given twice")]
    SamePair(Handle),
}
