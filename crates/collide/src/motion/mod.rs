//! Motion, the first game system: moving a shape through a world of other
//! shapes for one tick without tunnelling: a projectile's path along the
//! time axis.
//!
//! The mover's path goes into the broad phase as a swept bound; each
//! candidate gets a time of impact from the narrow phase; the earliest
//! contact wins (ties by handle, the stable id), the [`Response`] decides
//! what happens next (stop, slide, bounce, pass through), and the rest of
//! the tick is checked again, within [`SweepLimits`]. The broad phase is
//! read through [`Query`]: the live structure, or a
//! [`Snapshot`](crate::Snapshot) taken for another thread; the shapes come
//! from the caller, who must give their poses at the moment the boxes
//! describe.
//!
//! Depends on the broad phase and the narrow phase.

mod sweep;

pub use sweep::{Response, Sweep, SweepHit, SweepLimits};

use crate::broad::Query;
use crate::handle::Handle;
use crate::narrow::Support;

/// 2D sweeps.
pub mod d2 {
    use super::*;
    use crate::narrow::d2::Pose;
    use glam::Vec2;

    /// Moves `mover` from `start` by `motion` over one tick through the
    /// objects of `world` (whose shapes and poses `shape_of` gives, `None`
    /// for objects without one), with `response` at each contact.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Bvh, Handle};
    /// use collide::motion::{Response, SweepLimits, d2::sweep};
    /// use collide::narrow::{Support, d2::{Circle, Cuboid, Pose}};
    /// use glam::Vec2;
    /// // A 1 cm plate 7 m away, and a 9 mm bullet at 900 m/s, 60 Hz.
    /// let plate = Cuboid::new(Vec2::new(0.005, 1.0))?;
    /// let plate_at = Pose::at(Vec2::new(7.0, 0.0))?;
    /// let mut world: Bvh<Vec2> = Bvh::new();
    /// let id = world.insert(plate.aabb(&plate_at), ()).unwrap();
    /// world.step();
    /// let shape_of = |h: Handle| (h == id).then_some((&plate as &dyn Support<Vec2>, plate_at));
    /// let bullet = Circle::new(0.0045)?;
    /// let done = sweep(&world, shape_of, &bullet, Pose::IDENTITY,
    ///     Vec2::new(15.0, 0.0), Response::Stop, SweepLimits::default());
    /// assert_eq!(done.hits.len(), 1);
    /// assert!((done.end.position().x - 6.9905).abs() < 1e-3); // stopped at the plate
    /// # Ok::<(), collide::narrow::ShapeError>(())
    /// ```
    pub fn sweep<'a>(
        world: &(impl Query<Vec2> + ?Sized),
        shape_of: impl Fn(Handle) -> Option<(&'a dyn Support<Vec2>, Pose)>,
        mover: &dyn Support<Vec2>,
        start: Pose,
        motion: Vec2,
        response: Response,
        limits: SweepLimits,
    ) -> Sweep<Vec2, Pose> {
        super::sweep::sweep(world, shape_of, mover, start, motion, response, limits)
    }
}

/// 3D sweeps.
pub mod d3 {
    use super::*;
    use crate::narrow::d3::Pose;
    use glam::Vec3;

    /// Moves `mover` from `start` by `motion` over one tick through the
    /// objects of `world` (whose shapes and poses `shape_of` gives), with
    /// `response` at each contact. See [`d2::sweep`].
    ///
    /// ```
    /// use collide::{BroadPhase, Grid, Handle};
    /// use collide::motion::{Response, SweepLimits, d3::sweep};
    /// use collide::narrow::{Support, d3::{Capsule, Cuboid, Pose}};
    /// use glam::Vec3;
    /// // A character walks diagonally into a wall and slides along it.
    /// let wall = Cuboid::new(Vec3::new(0.5, 3.0, 10.0))?;
    /// let wall_at = Pose::at(Vec3::new(2.0, 0.0, 0.0))?; // face at x = 1.5
    /// let mut world: Grid<Vec3> = Grid::hashed();
    /// let id = world.insert(wall.aabb(&wall_at), ()).unwrap();
    /// world.step();
    /// let shape_of = |h: Handle| (h == id).then_some((&wall as &dyn Support<Vec3>, wall_at));
    /// let body = Capsule::new(0.9, 0.3)?;
    /// let done = sweep(&world.snapshot(), shape_of, &body, Pose::IDENTITY,
    ///     Vec3::new(3.0, 0.0, 3.0), Response::Slide, SweepLimits::default());
    /// assert!((done.end.position().x - 1.2).abs() < 1e-3); // against the wall
    /// assert!((done.end.position().z - 3.0).abs() < 1e-3); // slid the whole way along it
    /// # Ok::<(), collide::narrow::ShapeError>(())
    /// ```
    pub fn sweep<'a>(
        world: &(impl Query<Vec3> + ?Sized),
        shape_of: impl Fn(Handle) -> Option<(&'a dyn Support<Vec3>, Pose)>,
        mover: &dyn Support<Vec3>,
        start: Pose,
        motion: Vec3,
        response: Response,
        limits: SweepLimits,
    ) -> Sweep<Vec3, Pose> {
        super::sweep::sweep(world, shape_of, mover, start, motion, response, limits)
    }
}
