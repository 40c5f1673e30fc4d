//! Time: the fixed-step clock that turns frame times into ticks of one
//! length, and the integrators that advance a state by a tick.
//!
//! Pick [`FixedClock`] for the loop (its ticks give the step) and
//! [`Integrator::SemiImplicitEuler`] for bodies, [`Verlet`] for points held
//! by distance constraints, [`Integrator::Rk4`] or [`rk4`] for smooth
//! forces where accuracy pays (orbits). Everything here is plain
//! arithmetic: no allocation, the same bits on any thread.

mod clock;
mod integrate;

pub use clock::{ClockSettings, FixedClock, Frame, FrameTicks, Tick};
pub use integrate::{Integrator, PointState, Real, Space, TimeStep, Verlet, rk4};
