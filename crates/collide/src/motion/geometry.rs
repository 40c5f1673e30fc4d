//! [`Geometry`]: what motion reads of a world, as a trait of its own so
//! that motion depends on nothing above it: the objects' boxes, through
//! [`Query`], and each object's shape and pose by the same handle. The
//! collision world and its snapshot give it
//! ([`World`](crate::world::World), [`WorldSnapshot`](crate::world::WorldSnapshot));
//! a broad-phase structure with a function from handle to shape is the
//! other way in, through the functions that take both.

use crate::broad::Query;
use crate::geometry::Vector;
use crate::handle::Handle;
use crate::narrow::Support;

/// The objects a mover meets: their boxes ([`Query`]) and, by the same
/// handles, their shapes and poses of type `P`, at the moment the boxes
/// describe.
pub trait Geometry<V: Vector, P>: Query<V> {
    /// The shape and pose of the object `handle`, or `None` for a handle
    /// with no shape (the mover passes it).
    fn shape(&self, handle: Handle) -> Option<(&dyn Support<V>, P)>;
}
