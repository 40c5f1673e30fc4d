//! Time: the fixed-step clock that turns frame times into ticks of one
//! length, and the integrators that advance a state by a tick.
//!
//! Pick [`FixedClock`] for the loop (its ticks give the step) and
//! [`Integrator::SemiImplicitEuler`] for bodies, [`Verlet`] for points held
//! by distance constraints, [`Integrator::Rk4`] or [`rk4`] for smooth
//! forces where accuracy pays (orbits). Everything here is plain
//! arithmetic: no allocation, the same bits on any thread.
//!
//! **Tolerance.** A run agrees with the same run mirrored bit for bit, and
//! scaled within 1e-5 of its size; RK4 agrees with itself across 30 to 144
//! Hz within 1e-3 of the size, and jittered frames through the clock give
//! the same ticks. Known limit: a state kept in world coordinates rounds to
//! their ulps, so a spring 1e3 and more from the origin loses its energy's
//! accuracy.
//!
//! **The tick loop.** The clock turns each frame's time into ticks; each
//! tick advances what moves, puts it in the collision world and steps the
//! world once:
//!
//! ```
//! use collide::narrow::d3::{Cuboid, Pose, Sphere};
//! use collide_game::prelude::*;
//! use collide_game::time::{Integrator, PointState};
//!
//! let mut world = World3::new();
//! let floor = world.insert(Collider3::fixed(Cuboid::new(Vec3::new(5.0, 0.5, 5.0))?, Pose::at(Vec3::new(0.0, -0.5, 0.0))?, ()))?;
//! let ball = world.insert(Collider3::moving(Sphere::new(0.25)?, Pose::at(Vec3::new(0.0, 2.0, 0.0))?, ()))?;
//! let mut state = PointState { position: Vec3::new(0.0, 2.0, 0.0), velocity: Vec3::ZERO };
//! let mut clock = FixedClock::new(ClockSettings::hz(60.0)?);
//! let mut landed = None;
//! for _frame in 0..120 {
//!     for tick in clock.advance(1.0 / 50.0)? {
//!         state = Integrator::SemiImplicitEuler.step(state, tick.step(), |_, _| Vec3::new(0.0, -9.81, 0.0));
//!         world.set_pose(ball, Pose::at(state.position)?)?;
//!         if world.step().started.contains(&(floor, ball)) && landed.is_none() {
//!             landed = Some(clock.tick());
//!         }
//!     }
//! }
//! // From 2 m, the sphere's bottom meets the floor after about 0.6 s.
//! let landed = landed.unwrap() as f32 / 60.0;
//! assert!((landed - (2.0f32 * 1.75 / 9.81).sqrt()).abs() < 0.05, "{landed} s");
//! # Ok::<(), GameError>(())
//! ```

mod clock;
mod integrate;

pub use clock::{ClockSettings, FixedClock, Frame, FrameTicks, Tick};
pub use integrate::{Integrator, PointState, Real, Space, TimeStep, Verlet, rk4};
