//! Motion, the first game system: moving a shape through a world of other
//! shapes for one tick without tunnelling: a projectile's path along the
//! time axis.
//!
//! The mover's path goes into the broad phase as a swept bound; each
//! candidate gets a time of impact from the narrow phase; the earliest
//! contact wins (ties by handle, the stable id, then part), the
//! [`Response`] decides what happens next (stop, slide, bounce, pass
//! through), and the rest of the tick is checked again, within
//! [`SweepLimits`]. The world is read through [`Geometry`], boxes and
//! convex pieces (a compound's parts, a mesh's triangles) by one handle: a
//! collision
//! [`World`](crate::world::World) or its snapshot
//! (`Sweeper::sweep_in`); or a broad phase through [`Query`] (the live
//! structure, or a [`Snapshot`](crate::Snapshot) taken for another
//! thread) with the shapes from the caller, who must give their poses at
//! the moment the boxes describe.
//!
//! Depends on the broad phase and the narrow phase.
//!
//! **Tolerance.** A sweep ends within the casts' tolerance of the first
//! touch: a hundred-thousandth of the larger of the motion and the smaller
//! shape, so after a slide the mover is inside nothing by more than that;
//! along a path of sweeps the ends' errors add up to at most 1e-5 of its
//! length. Mirrored, a sweep gives the mirrored result bit for bit. Far
//! from the origin the figure is the larger of these and 4 ulps of the
//! coordinates. A slider that rounding has left deeper than the tolerance
//! in anything is moved out along the contact's normal before it moves on,
//! so the depth does not grow over ticks. A path of many sweeps far from
//! the origin keeps to the same path at the origin within those 4 ulps
//! when the caller keeps its position in f64 and adds each sweep's
//! [`Sweep::moved`]; moved to each sweep's f32 end instead, it drifts by
//! that end's rounding every tick (3 cm over 600 ticks 10 km out).

mod geometry;
mod substep;
mod sweep;
mod turning;

pub use geometry::{Geometry, VisitPiece};
pub use substep::Substepped;
pub use sweep::{Response, Sweep, SweepHit, SweepLimits};

use sweep::{Moving, SweepScratch, pieces_of};

use crate::broad::Query;
use crate::geometry::Aabb;
use crate::handle::Handle;
use crate::narrow::{ShapeError, Support};

/// A reusable sweeper for one dimension: `$pose` places shapes over `$v`.
macro_rules! sweeper {
    ($v:ty, $pose:ty, $example:literal) => {
        /// A sweep that keeps its memory from call to call: set the
        /// response and limits once, then [`Sweeper::sweep`] each tick.
        /// Once its lists have grown to a tick's contacts and candidates,
        /// a sweep allocates nothing.
        #[doc = $example]
        #[derive(Clone, Debug)]
        pub struct Sweeper {
            response: Response,
            limits: SweepLimits,
            scratch: SweepScratch,
            last: Sweep<$v, $pose>,
        }

        impl Sweeper {
            /// A sweeper with this response at each contact and these limits.
            pub fn new(response: Response, limits: SweepLimits) -> Self {
                Sweeper {
                    response,
                    limits,
                    scratch: SweepScratch::default(),
                    last: Sweep::at_rest(<$pose>::IDENTITY),
                }
            }

            /// The response at each contact.
            pub fn response(&self) -> Response {
                self.response
            }

            /// Changes the response for the next sweeps.
            pub fn set_response(&mut self, response: Response) {
                self.response = response;
            }

            /// Moves `mover` from `start` by `motion` over one tick, as
            /// [`sweep`] does, and returns the result (kept until the
            /// next call).
            pub fn sweep<'a>(
                &mut self,
                world: &(impl Query<$v> + ?Sized),
                shape_of: impl Fn(Handle) -> Option<(&'a dyn Support<$v>, $pose)>,
                mover: &dyn Support<$v>,
                start: $pose,
                motion: $v,
            ) -> &Sweep<$v, $pose> {
                self.sweep_pieces(world, pieces_of(shape_of), mover, start, motion)
            }

            /// The sweep with each object's convex pieces near a box given
            /// by `pieces`.
            fn sweep_pieces(
                &mut self,
                world: &(impl Query<$v> + ?Sized),
                pieces: impl Fn(Handle, &Aabb<$v>, &mut VisitPiece<'_, $v, $pose>),
                mover: &dyn Support<$v>,
                start: $pose,
                motion: $v,
            ) -> &Sweep<$v, $pose> {
                let moving = Moving {
                    mover,
                    start,
                    motion,
                    response: self.response,
                    limits: self.limits,
                };
                super::sweep::sweep_into(world, pieces, moving, &mut self.scratch, &mut self.last);
                &self.last
            }

            /// Moves `mover` as [`Sweeper::sweep`] does, through the
            /// objects of `geometry` (a collision world or its snapshot),
            /// whose handles the hits carry; a compound is met part by part
            /// and a mesh element by element, and the hits name the part.
            pub fn sweep_in(
                &mut self,
                geometry: &(impl Geometry<$v, $pose> + ?Sized),
                mover: &dyn Support<$v>,
                start: $pose,
                motion: $v,
            ) -> &Sweep<$v, $pose> {
                let pieces = |h: Handle, near: &Aabb<$v>, visit: &mut VisitPiece<'_, $v, $pose>| {
                    geometry.pieces(h, near, visit)
                };
                self.sweep_pieces(geometry, pieces, mover, start, motion)
            }

            /// The last sweep's result.
            pub fn last(&self) -> &Sweep<$v, $pose> {
                &self.last
            }
        }
    };
}

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

    /// The first object `mover` touches while it moves by `motion` and
    /// turns by `turn` radians (counter-clockwise) over one tick from
    /// `start`, with the share of the tick and the contact; `None` when it
    /// touches nothing. Unlike [`sweep`], it follows the turn: a blade
    /// swung through a post in one tick hits it. An error for a non-finite
    /// motion or turn.
    pub fn sweep_turning<'a>(
        world: &(impl Query<Vec2> + ?Sized),
        shape_of: impl Fn(Handle) -> Option<(&'a dyn Support<Vec2>, Pose)>,
        mover: &dyn Support<Vec2>,
        start: Pose,
        motion: Vec2,
        turn: f32,
    ) -> Result<Option<SweepHit<Vec2>>, ShapeError> {
        Pose::new(start.position() + motion, start.angle() + turn)?;
        Ok(super::turning::sweep_turning(
            world,
            shape_of,
            mover,
            start,
            motion,
            |shape, at| {
                crate::narrow::d2::cast_turning(mover, &start, motion, turn, shape, at)
                    .ok()
                    .flatten()
            },
        ))
    }

    /// The discrete reference mover: `motion` in `substeps` equal steps,
    /// checking only where each ends (see [`Substepped`]). It passes
    /// through walls thinner than a step; use [`sweep`] in games.
    pub fn substep<'a>(
        world: &(impl Query<Vec2> + ?Sized),
        shape_of: impl Fn(Handle) -> Option<(&'a dyn Support<Vec2>, Pose)>,
        mover: &dyn Support<Vec2>,
        start: Pose,
        motion: Vec2,
        substeps: u32,
    ) -> Substepped<Pose> {
        super::substep::substep(world, shape_of, mover, start, motion, substeps)
    }

    sweeper!(
        Vec2,
        Pose,
        r#"
```
use collide::{Aabb2, BroadPhase, Grid, Handle};
use collide::motion::{Response, SweepLimits, d2::Sweeper};
use collide::narrow::{Support, d2::{Circle, Cuboid, Pose}};
use glam::Vec2;
let wall = Cuboid::new(Vec2::new(0.5, 5.0))?;
let wall_at = Pose::at(Vec2::new(5.0, 0.0))?;
let mut world: Grid<Vec2> = Grid::hashed();
let id = world.insert(wall.aabb(&wall_at), ()).unwrap();
world.step();
let shape_of = |h: Handle| (h == id).then_some((&wall as &dyn Support<Vec2>, wall_at));
let ball = Circle::new(0.5)?;
let mut sweeper = Sweeper::new(Response::Slide, SweepLimits::default());
let mut at = Pose::IDENTITY;
for _ in 0..3 {
    // Each tick reuses the sweeper's memory.
    at = sweeper.sweep(&world, shape_of, &ball, at, Vec2::new(2.0, 1.0)).end;
}
assert!((at.position().x - 4.0).abs() < 1e-3); // against the wall's face
assert!(sweeper.last().hits.len() == 1);
# Ok::<(), collide::narrow::ShapeError>(())
```"#
    );
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

    /// The first object `mover` touches while it moves by `motion` and
    /// turns by the rotation vector `turn` (axis times radians) over one
    /// tick from `start`. See [`d2::sweep_turning`].
    pub fn sweep_turning<'a>(
        world: &(impl Query<Vec3> + ?Sized),
        shape_of: impl Fn(Handle) -> Option<(&'a dyn Support<Vec3>, Pose)>,
        mover: &dyn Support<Vec3>,
        start: Pose,
        motion: Vec3,
        turn: Vec3,
    ) -> Result<Option<SweepHit<Vec3>>, ShapeError> {
        for v in turn.to_array() {
            crate::narrow::error::finite("turn", v)?;
        }
        Pose::new(start.position() + motion, start.rotation())?;
        Ok(super::turning::sweep_turning(
            world,
            shape_of,
            mover,
            start,
            motion,
            |shape, at| {
                crate::narrow::d3::cast_turning(mover, &start, motion, turn, shape, at)
                    .ok()
                    .flatten()
            },
        ))
    }

    /// The discrete reference mover. See [`d2::substep`].
    pub fn substep<'a>(
        world: &(impl Query<Vec3> + ?Sized),
        shape_of: impl Fn(Handle) -> Option<(&'a dyn Support<Vec3>, Pose)>,
        mover: &dyn Support<Vec3>,
        start: Pose,
        motion: Vec3,
        substeps: u32,
    ) -> Substepped<Pose> {
        super::substep::substep(world, shape_of, mover, start, motion, substeps)
    }

    sweeper!(
        Vec3,
        Pose,
        r#"
```
use collide::{BroadPhase, Bvh, Handle};
use collide::motion::{Response, SweepLimits, d3::Sweeper};
use collide::narrow::{Support, d3::{Cuboid, Pose, Sphere}};
use glam::Vec3;
let floor = Cuboid::new(Vec3::new(10.0, 0.5, 10.0))?;
let floor_at = Pose::at(Vec3::new(0.0, -0.5, 0.0))?; // top at y = 0
let mut world: Bvh<Vec3> = Bvh::new();
let id = world.insert(floor.aabb(&floor_at), ()).unwrap();
world.step();
let shape_of = |h: Handle| (h == id).then_some((&floor as &dyn Support<Vec3>, floor_at));
let ball = Sphere::new(0.25)?;
let mut sweeper = Sweeper::new(Response::Stop, SweepLimits::default());
let start = Pose::at(Vec3::new(0.0, 2.0, 0.0))?;
let done = sweeper.sweep(&world, shape_of, &ball, start, Vec3::new(0.0, -5.0, 0.0));
assert!((done.end.position().y - 0.25).abs() < 1e-3); // resting on the floor
# Ok::<(), collide::narrow::ShapeError>(())
```"#
    );
}
