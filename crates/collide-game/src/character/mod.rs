//! The kinematic character controller, written once for 2D and 3D: a
//! capsule moved by code, not forces, as platformers and shooters move
//! their characters. Pick it for a player or an NPC that must feel exact
//! (no bouncing on stairs, no sliding on gentle slopes, riding platforms
//! without lag). It costs a few sweeps a tick: the base's carry, one per
//! slide, three for a step up, and the ground probe.

mod controller;
mod settings;

pub use controller::{Character, Ground, StepReport};
pub use settings::{CharacterSettings, Inherit};
