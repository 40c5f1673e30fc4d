//! # collide-game
//!
//! The systems a game runs every tick on top of collision detection,
//! each usable alone:
//!
//! - [`time`]: a fixed-step clock that turns frame times into ticks of one
//!   length (so results do not depend on the frame rate), and the
//!   integrators that advance positions and velocities by a tick.
//! - [`character`]: the kinematic character controller: slides, steps,
//!   slopes, ground snapping and moving platforms.
//! - [`projectile`]: bullets and grenades with exact quadratic drag across
//!   media, swept so they never pass through anything; trajectory
//!   prediction with the flight's own step.
//! - [`hitbox`]: attacks with frame data, swept hitboxes against
//!   hurtboxes, one hit per attack and target.
//! - [`rewind`]: the world of the last few ticks, for lag compensation.
//! - [`dynamics`]: a small rigid-body core for vehicles (3D only).
//! - [`vehicle`]: raycast cars and tanks (3D only).
//! - [`ragdoll`]: ragdolls on position-based dynamics, blended with
//!   animation (3D only).
//! - [`swing`]: a web swing that keeps its energy, with the anchor
//!   choice and the tricks that keep it on the player's line.
//! - [`fracture`]: Voronoi fracture, in [`fracture::d2`] and
//!   [`fracture::d3`] under the same names.
//!
//! Systems that exist in both dimensions are written once over [`Dim`]:
//! [`D2`] or [`D3`]. Dynamics, vehicles and ragdolls are 3D only, on
//! `Vec3`: a rigid body's turning (its inertia tensor, its angular
//! velocity as a vector) has no shared form with 2D worth the generality,
//! and a 2D game rarely wants a suspension or a skeleton. Fracture is
//! written per dimension: its cells (Delaunay in 2D, clipped half-spaces
//! in 3D) differ throughout.
//!
//! It sits above the `collide` crate (broad phase, queries, narrow phase,
//! motion, the collision world), which a game that only needs collision
//! can use without it. Every system reads one collision world
//! (`collide::world::World`, its snapshot, or either through a filter):
//! the character takes the world itself and is a collider in it; the
//! others read it through [`Surroundings`], with gravity and the media.
//!
//! ```
//! use collide_game::time::{ClockSettings, FixedClock, PointState, Integrator};
//!
//! let mut clock = FixedClock::new(ClockSettings::hz(60.0)?);
//! let mut ball = PointState { position: 10.0f32, velocity: 0.0 };
//! for frame_seconds in [0.016, 0.017, 0.033] {
//!     for tick in clock.advance(frame_seconds)? {
//!         ball = Integrator::SemiImplicitEuler.step(ball, tick.step(), |_, _| -9.81);
//!     }
//! }
//! assert_eq!(clock.tick(), 3);
//! assert!(ball.position < 10.0);
//! # Ok::<(), collide_game::GameError>(())
//! ```

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod character;
mod dim;
pub mod dynamics;
mod error;
pub mod fracture;
pub mod hitbox;
mod level;
mod owner;
mod precise;
pub mod prelude;
pub mod projectile;
pub mod ragdoll;
pub mod rewind;
mod surroundings;
pub mod swing;
pub mod time;
pub mod vehicle;
mod world_settings;

pub use collide;
pub use collide::glam;
pub use dim::{D2, D3, Dim, Swept};
pub use error::GameError;
pub use surroundings::{Gravity, Surroundings};

/// The README's examples, compiled and run as doc tests here, where both
/// crates are in reach.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
