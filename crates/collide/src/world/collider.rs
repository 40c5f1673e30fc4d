//! [`Collider`]: what goes into the world: a shape (convex, a compound
//! or a mesh), a pose, a kind, a
//! filter, a sensor flag and the game's value.

use super::collider_shape::ColliderShape;
use super::space::Space;
use crate::broad::Filter;

/// Whether a collider moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Level geometry: never paired with another static collider.
    Static,
    /// Anything that moves (or may).
    Moving,
}

/// A collider to insert: its shape, pose, kind and value, with a
/// [`Filter`] ([`Filter::ALL`] unless given) and, for a sensor, the flag.
///
/// A sensor reports overlap with solid colliders in the step's sensor
/// lists, without contact data, and is left out of queries unless a query
/// asks for sensors.
///
/// ```
/// use collide::narrow::d3::{Pose, Sphere};
/// use collide::world::{Collider3, Filter, Kind};
/// let ball = Collider3::moving(Sphere::new(0.5)?, Pose::IDENTITY, "ball");
/// assert_eq!((ball.kind(), ball.is_sensor()), (Kind::Moving, false));
/// let trigger = Collider3::fixed(Sphere::new(3.0)?, Pose::IDENTITY, "door trigger")
///     .with_filter(Filter::new(1 << 4, 1))
///     .as_sensor();
/// assert!(trigger.is_sensor());
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Collider<V: Space, T> {
    pub(crate) shape: ColliderShape<V>,
    pub(crate) pose: V::Pose,
    pub(crate) kind: Kind,
    pub(crate) filter: Filter,
    pub(crate) sensor: bool,
    pub(crate) continuous: bool,
    pub(crate) value: T,
}

impl<V: Space, T> Collider<V, T> {
    /// A collider that moves.
    pub fn moving(shape: impl Into<ColliderShape<V>>, pose: V::Pose, value: T) -> Self {
        Self {
            shape: shape.into(),
            pose,
            kind: Kind::Moving,
            filter: Filter::ALL,
            sensor: false,
            continuous: false,
            value,
        }
    }

    /// A static collider (level geometry).
    pub fn fixed(shape: impl Into<ColliderShape<V>>, pose: V::Pose, value: T) -> Self {
        Self {
            kind: Kind::Static,
            ..Self::moving(shape, pose, value)
        }
    }

    /// This collider with `filter`.
    pub fn with_filter(mut self, filter: Filter) -> Self {
        self.filter = filter;
        self
    }

    /// This collider as a sensor.
    pub fn as_sensor(mut self) -> Self {
        self.sensor = true;
        self
    }

    /// This collider swept between steps (continuous collision): its
    /// move from the last step's pose to the new one is cast against what
    /// it meets, so it reports touching a thin collider it passed through
    /// within one step (see [`Touching::impact`](super::Touching::impact)).
    /// A compound is swept part by part; a mesh (level geometry) is never
    /// swept, and inserting one so marked is an error.
    pub fn as_continuous(mut self) -> Self {
        self.continuous = true;
        self
    }

    /// Whether it is swept between steps.
    pub fn is_continuous(&self) -> bool {
        self.continuous
    }

    /// Its kind.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Its filter.
    pub fn filter(&self) -> Filter {
        self.filter
    }

    /// Whether it is a sensor.
    pub fn is_sensor(&self) -> bool {
        self.sensor
    }
}
