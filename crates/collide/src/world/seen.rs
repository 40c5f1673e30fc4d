//! [`Seen`]: a world (or its snapshot) as one [`QueryFilter`] sees it, for
//! motion. A sweep through it meets only the colliders the filter lets
//! through: a character's own collider left out, sensors passed, groups
//! its filter does not pair with passed. It borrows the world and costs
//! one filter test for each collider a sweep finds near its path.

use super::filter::QueryFilter;
use super::query::sealed::Lookup;
use super::space::Space;
use crate::broad::query_through;
use crate::geometry::Aabb;
use crate::motion::{Geometry, VisitPiece};
use crate::narrow::Support;
use crate::{Handle, Query};

/// A world `L` ([`World`](super::World) or
/// [`WorldSnapshot`](super::WorldSnapshot)) seen through a
/// [`QueryFilter`]: its boxes as they are ([`Query`]), and the shapes of
/// the colliders the filter sees ([`Geometry`]); the rest have none, so
/// sweeps pass them. Made by [`WorldQuery::seen`](super::WorldQuery::seen).
///
/// ```
/// use collide::motion::{Response, SweepLimits, d2::Sweeper};
/// use collide::narrow::d2::{Circle, Cuboid, Pose};
/// use collide::world::{Collider2, QueryFilter, World2, WorldQuery};
/// use glam::Vec2;
/// let mut world = World2::new();
/// let me = world.insert(Collider2::moving(Circle::new(0.5)?, Pose::IDENTITY, ()))?;
/// world.insert(Collider2::fixed(Cuboid::new(Vec2::new(1.0, 1.0))?, Pose::at(Vec2::new(3.0, 0.0))?, ()).as_sensor())?;
/// let wall = world.insert(Collider2::fixed(Cuboid::new(Vec2::new(0.5, 5.0))?, Pose::at(Vec2::new(10.0, 0.0))?, ()))?;
/// let skip = [me];
/// let seen = world.seen(QueryFilter::new().excluding(&skip));
/// let mut sweeper = Sweeper::new(Response::Stop, SweepLimits::default());
/// // Out of its own collider, through the sensor, to the wall.
/// let done = sweeper.sweep_in(&seen, &Circle::new(0.5)?, Pose::IDENTITY, Vec2::new(20.0, 0.0));
/// assert_eq!(done.hits[0].handle, wall);
/// assert!((done.end.position().x - 9.0).abs() < 1e-4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Seen<'a, L: ?Sized, T> {
    world: &'a L,
    filter: QueryFilter<'a, T>,
}

impl<L: ?Sized, T> Clone for Seen<'_, L, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<L: ?Sized, T> Copy for Seen<'_, L, T> {}

impl<L: ?Sized, T> std::fmt::Debug for Seen<'_, L, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Seen")
            .field("filter", &self.filter)
            .finish_non_exhaustive()
    }
}

impl<'a, L: ?Sized, T> Seen<'a, L, T> {
    pub(super) fn new(world: &'a L, filter: QueryFilter<'a, T>) -> Self {
        Seen { world, filter }
    }

    /// The world seen.
    pub fn world(&self) -> &'a L {
        self.world
    }

    /// The filter it is seen through.
    pub fn filter(&self) -> &QueryFilter<'a, T> {
        &self.filter
    }
}

impl<L: ?Sized, T> Seen<'_, L, T> {
    /// Whether the filter sees the collider `h` (false for a handle not in
    /// the world).
    pub fn sees<V: Space>(&self, h: Handle) -> bool
    where
        L: Lookup<V, T>,
    {
        self.world
            .view(h)
            .is_some_and(|c| self.filter.sees(h, &c.filter, c.sensor, c.value))
    }
}

impl<V: Space, T, L: Lookup<V, T> + ?Sized> Query<V> for Seen<'_, L, T> {
    query_through!(world);
}

impl<V: Space, T, L> Geometry<V, V::Pose> for Seen<'_, L, T>
where
    L: Lookup<V, T> + Geometry<V, V::Pose> + ?Sized,
{
    fn shape(&self, handle: Handle) -> Option<(&dyn Support<V>, V::Pose)> {
        if self.sees(handle) {
            self.world.shape(handle)
        } else {
            None
        }
    }

    fn pieces(&self, handle: Handle, near: &Aabb<V>, visit: &mut VisitPiece<'_, V, V::Pose>) {
        if self.sees(handle) {
            self.world.pieces(handle, near, visit);
        }
    }
}
