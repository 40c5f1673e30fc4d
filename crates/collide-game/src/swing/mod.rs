//! A web swing: a body on a rope to a pivot, and the choice of where the
//! rope sticks.
//!
//! What it is for: a swinging hero, a grappling hook, a rope across a
//! pit. The rope is a distance constraint while taut and nothing while
//! slack. A rope that stays taut turns the body's velocity with it
//! ([`RopeStep::TurnWithRope`], the default), so a swing holds its energy
//! for minutes; the plain step that deletes the outward velocity
//! ([`RopeStep::DeleteOutward`]) bleeds about two thirds of it in a
//! minute. The body is swept against the world every tick, so a fast
//! swing does not pass through a thin pillar.
//!
//! The game keeps the swing looking right without the player noticing:
//! the drawn anchor stays on the wall while the simulated pivot drifts,
//! within a speed limit, toward the line the player wants to travel (a
//! pendulum otherwise pulls the body toward the wall it hangs from), and
//! the rope shortens when the bottom of the arc would touch the ground
//! or a roof. [`choose_anchor`] picks the anchor among points on the faces
//! of the boxes around buildings (the broad phase's boxes), scored by the
//! wished direction, the rope's length and its angle, and confirms the
//! best with one ray. A point on a roof line may lift its pivot above the
//! roof, where a rope could not really stick.
//!
//! Costs: a tick is one ray down from the pivot and one swept move; a
//! rope short for the tick is stepped in parts (each at most 0.018 rad of
//! the pendulum's own frequency √(g/L): one part for 10 m at 60 Hz, six
//! for 1 m at 30 Hz), a few multiplications each; the anchor choice is
//! one box query, a few candidates per nearby face and one ray.
//!
//! **On the world.** A swing reads the collision world through
//! [`Surroundings`](crate::Surroundings) (the world with gravity):
//! `step(dt, wish, &around)`, the same shape as the other systems with
//! the world only read. Its body is a ball of the settings' radius, swept
//! through the world but not a collider of it: a game whose swinging
//! hero others should meet sets the hero's own collider (a character's,
//! say) where the body is after each step.
//!
//! **Tolerance.** A swing mirrored is the mirrored swing bit for bit;
//! scaled, or in jittered frames, it agrees within 1e-5 of its size, and
//! across 30 to 144 Hz within 1e-2; its energy holds within 1% over
//! minutes for every rope from 0.5 m up at 30 Hz and up, and a body
//! hanging still stays still. Known limit: far from the
//! origin a swing parts from the origin's by more than 4 ulps of the
//! coordinates.
//!
//! ```
//! use collide_game::swing::{RopeStep, SwingSettings, Swinger};
//! use collide_game::time::TimeStep;
//! use collide_game::{D3, Gravity, glam::Vec3};
//! use collide::world::World3;
//! // An empty world: a 10 m rope from 60 degrees off the vertical.
//! let world: World3 = World3::new();
//! let around = collide_game::Surroundings::<D3>::new(&world, Gravity::earth());
//! let pivot = Vec3::new(0.0, 20.0, 0.0);
//! let start = pivot + 10.0 * Vec3::new(60f32.to_radians().sin(), -60f32.to_radians().cos(), 0.0);
//! let mut body = Swinger::<D3>::new(SwingSettings::new(0.3)?, start, Vec3::ZERO)?;
//! body.attach(pivot, pivot, 10.0)?;
//! // Energy per kilogram above the arc's low point, 10 m under the pivot.
//! let above_low = |body: &Swinger<D3>| body.energy(around.gravity()) - 9.81 * 10.0;
//! let energy = above_low(&body);
//! let dt = TimeStep::new(1.0 / 60.0)?;
//! for _ in 0..3600 {
//!     body.step(dt, Vec3::ZERO, &around)?;
//! }
//! assert!(((above_low(&body) - energy) / energy).abs() < 0.015);
//! # Ok::<(), collide_game::GameError>(())
//! ```

mod anchor;
mod rope;

pub use anchor::{Anchor, AnchorSettings, choose_anchor};
pub use rope::{Rope, RopeStep, SwingSettings, Swinger};
