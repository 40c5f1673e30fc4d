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
//! 1e3 to 1e5 from the origin a flight keeps to the one at the origin
//! within 1e-5 of its room or 4 ulps of its coordinates (its position is
//! kept in f64). Crossing between media follows the exact law to 1e-5 of
//! the speed at any distance up to 1e5 from the origin. A bounce slower
//! than the speed gravity gives in a tick keeps the projectile on the
//! surface, where it slides with Coulomb's friction and comes to rest
//! once that stops it ([`Flight::Resting`], and a prediction ends
//! [`Ending::Rest`] on the same tick). Known limit: a grenade under
//! gravity bounces at other times at other tick rates (semi-implicit
//! steps), its velocity up to 0.5 m/s apart at 30 and 144 Hz.

mod drag;
mod flight;
mod media;
mod predict;

pub use drag::{Body, Medium};
pub use flight::{Ballistics, Bounce, Flight, Hit, OnHit, Projectile};
pub use media::{Media, Zone};
pub use predict::{Arcs, Ending, launch_velocity};
