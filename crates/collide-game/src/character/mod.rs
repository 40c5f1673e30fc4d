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
//!
//! **On the world.** A character is a capsule collider of the collision
//! world ([`Character::collider`]): other characters stand on it and bump
//! into it, rays and shots hit it. Each step reads the world less its own
//! collider (what its filter pairs with, sensors passed), takes a moving
//! base's move from the base's pose at the world's last step and now, and
//! writes its collider back. A character its move runs into blocks it;
//! to let characters push each other, a game hands the step's
//! [`StepReport::pushing`] to the other's [`Character::shove`] and shoves
//! the pusher as far as the other went. So a tick moves the platforms
//! first, steps the characters in handle order (each sees the moves
//! before it), then steps the world, once:
//!
//! ```
//! use collide::narrow::d3::{Cuboid, Pose};
//! use collide_game::character::{Character, CharacterSettings};
//! use collide_game::prelude::*;
//!
//! let mut world = World3::new();
//! let slab = Cuboid::new(Vec3::new(20.0, 0.5, 20.0))?;
//! world.insert(Collider3::fixed(slab, Pose::at(Vec3::new(0.0, -0.5, 0.0))?, ()))?;
//! // A lift 2 m by 2 m, its top 0.2 m up, rising 1 m/s after a second.
//! let plate = Cuboid::new(Vec3::new(1.0, 0.1, 1.0))?;
//! let lift = world.insert(Collider3::moving(plate, Pose::at(Vec3::new(0.0, 0.1, 0.0))?, ()))?;
//! let settings = CharacterSettings::sized(1.8, 0.3)?;
//! let mut rider = Character::<D3>::new(settings, Vec3::new(0.0, 1.2, 0.0), &mut world, ())?;
//! let dt = TimeStep::new(1.0 / 60.0)?;
//! let mut fall = 0.0;
//! for tick in 0..180 {
//!     let height = 0.1 + (tick as f32 / 60.0 - 1.0).max(0.0);
//!     world.set_pose(lift, Pose::at(Vec3::new(0.0, height, 0.0))?)?;
//!     if rider.ground().is_standing() {
//!         fall = 0.0;
//!     }
//!     fall -= 9.81 / 60.0;
//!     rider.step(dt, Vec3::Y * (fall / 60.0), &mut world)?;
//!     world.step();
//! }
//! assert_eq!(rider.ground().on(), Some(lift));
//! assert!((rider.feet().y - 2.2).abs() < 0.02); // carried up 2 m
//! # Ok::<(), GameError>(())
//! ```

mod controller;
mod ledge;
mod report;
mod settings;

pub use controller::{Character, MAX_MOTION_PER_TICK};
pub use report::{Ground, Push, StepReport};
pub use settings::{CharacterSettings, Inherit};
