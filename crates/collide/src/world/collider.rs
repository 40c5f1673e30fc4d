//! [`Collider`]: what goes into the world: a shape, a pose, a kind and the
//! game's value.

use super::space::Space;

/// Whether a collider moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Level geometry: never paired with another static collider.
    Static,
    /// Anything that moves (or may).
    Moving,
}

/// A collider to insert: its shape, pose, kind and value.
///
/// ```
/// use collide::narrow::d3::{Pose, Sphere};
/// use collide::world::{Collider3, Kind};
/// let ball = Collider3::moving(Sphere::new(0.5)?, Pose::IDENTITY, "ball");
/// assert_eq!(ball.kind(), Kind::Moving);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Collider<V: Space, T> {
    pub(crate) shape: V::Shape,
    pub(crate) pose: V::Pose,
    pub(crate) kind: Kind,
    pub(crate) value: T,
}

impl<V: Space, T> Collider<V, T> {
    /// A collider that moves.
    pub fn moving(shape: impl Into<V::Shape>, pose: V::Pose, value: T) -> Self {
        Self {
            shape: shape.into(),
            pose,
            kind: Kind::Moving,
            value,
        }
    }

    /// A static collider (level geometry).
    pub fn fixed(shape: impl Into<V::Shape>, pose: V::Pose, value: T) -> Self {
        Self {
            kind: Kind::Static,
            ..Self::moving(shape, pose, value)
        }
    }

    /// Its kind.
    pub fn kind(&self) -> Kind {
        self.kind
    }
}
