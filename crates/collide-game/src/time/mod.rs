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

mod clock;
mod integrate;

pub use clock::{ClockSettings, FixedClock, Frame, FrameTicks, Tick};
pub use integrate::{Integrator, PointState, Real, Space, TimeStep, Verlet, rk4};
