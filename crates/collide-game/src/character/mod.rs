//! The kinematic character controller, written once for 2D and 3D: a
//! capsule moved by code, not forces, as platformers and shooters move
//! their characters. Pick it for a player or an NPC that must feel exact
//! (no bouncing on stairs, no sliding on gentle slopes, riding platforms
//! without lag). It costs a few sweeps a tick: the base's carry, one per
//! slide, three for a step up, and the ground probe.
//!
//! **Tolerance.** After every tick the capsule is inside nothing by more
//! than a thousandth of its radius (unless the step reports it squeezed),
//! or far out 4 ulps of its coordinates. A walk mirrored is the mirrored
//! walk bit for bit; the same within 1e-5 of its length in jittered
//! frames and scaled by 0.01 or 100, and within that or 4 ulps of its
//! coordinates 1e3 to 1e5 from the origin (its position is kept in f64);
//! within 1e-3 of its length at 30 to 144 Hz. A character stopped on a
//! step stays on it for minutes of ticks.

mod controller;
mod ledge;
mod settings;

pub use controller::{Character, Ground, MAX_MOTION_PER_TICK, StepReport};
pub use settings::{CharacterSettings, Inherit};
