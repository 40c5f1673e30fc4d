//! Projectiles: a few values (position, velocity, radius, lifetime,
//! owner), not rigid bodies. Each tick: gravity, then quadratic drag
//! solved exactly along the path (stable at any step, even a bullet
//! entering water), split where the path crosses into another medium, and
//! swept through the world (a ray for a point, a sphere for a radius) so
//! nothing is skipped at any speed. Pick it for bullets, arrows, grenades
//! and sparks; it costs one ray or sphere sweep per tick, and one more per
//! medium crossing or bounce.
//!
//! **Tolerance.** A flight mirrored is the mirrored flight bit for bit, the
//! same in jittered frames, and a prediction ends as the flight does.
//! Crossing between media follows the exact law to 1e-5 of the speed at
//! any distance up to 1e5 from the origin. A bounce slower than the speed
//! gravity gives in a tick keeps the projectile on the surface, and one
//! that then slides slower than that comes to rest ([`Flight::Resting`],
//! and a prediction ends [`Ending::Rest`] on the same tick). Known limits:
//! a grenade under gravity lands about 9 cm apart at 30 and 60 Hz, and its
//! bounces far from the origin come up to 1.3e-4 s apart.

mod drag;
mod flight;
mod media;
mod predict;

pub use drag::{Body, Medium};
pub use flight::{Ballistics, Bounce, Flight, Hit, OnHit, Projectile};
pub use media::{Media, Zone};
pub use predict::{Arcs, Ending, launch_velocity};
