//! [`Geometry`]: what motion reads of a world, as a trait of its own so
//! that motion depends on nothing above it: the objects' boxes, through
//! [`Query`], and each object's convex pieces and their poses by the same
//! handle (one for a convex object; a compound's parts and a mesh's
//! triangles near where the mover goes). The
//! collision world and its snapshot give it
//! ([`World`](crate::world::World), [`WorldSnapshot`](crate::world::WorldSnapshot));
//! a broad-phase structure with a function from handle to shape is the
//! other way in, through the functions that take both.

use crate::broad::Query;
use crate::geometry::{Aabb, Vector};
use crate::handle::Handle;
use crate::narrow::Support;

/// What [`Geometry::pieces`] calls with each piece: its number (0 for a
/// convex object, else the compound's part or the mesh's element), its
/// shape and its pose.
pub type VisitPiece<'a, V, P> = dyn FnMut(u32, &dyn Support<V>, P) + 'a;

/// The objects a mover meets: their boxes ([`Query`]) and, by the same
/// handles, their shapes and poses of type `P`, at the moment the boxes
/// describe.
pub trait Geometry<V: Vector, P>: Query<V> {
    /// The shape and pose of the object `handle` when it is one convex
    /// shape, or `None` (no shape, or one made of parts).
    fn shape(&self, handle: Handle) -> Option<(&dyn Support<V>, P)>;

    /// Each convex piece of the object `handle` whose box may meet `near`,
    /// with its number and pose, to `visit`; nothing for a handle with no
    /// shape (the mover passes it). By default the one shape
    /// [`Geometry::shape`] gives, as piece 0.
    fn pieces(&self, handle: Handle, near: &Aabb<V>, visit: &mut VisitPiece<'_, V, P>) {
        let _ = near;
        if let Some((shape, pose)) = self.shape(handle) {
            visit(0, shape, pose);
        }
    }
}
