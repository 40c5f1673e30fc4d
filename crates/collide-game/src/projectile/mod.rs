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
//!
//! **On the world.** Projectiles read the collision world through
//! [`Surroundings`](crate::Surroundings), with gravity and the media, and
//! hit any of its colliders: walls, characters, vehicles. Their step has
//! another shape than the systems' `step(dt, input, world)`: one
//! [`Ballistics`] steps any number of projectiles with one set of scratch
//! memory, so it takes the projectile and what to do at each hit with the
//! world, and the hits of the last step are in [`Ballistics::hits`]. A
//! shot across a floor into a character:
//!
//! ```
//! use collide::narrow::d3::{Cuboid, Pose};
//! use collide_game::character::{Character, CharacterSettings};
//! use collide_game::prelude::*;
//! use collide_game::projectile::{Ballistics, Body, Flight, OnHit, Projectile};
//!
//! let mut world = World3::new();
//! let slab = Cuboid::new(Vec3::new(50.0, 0.5, 50.0))?;
//! world.insert(Collider3::fixed(slab, Pose::at(Vec3::new(0.0, -0.5, 0.0))?, ()))?;
//! let settings = CharacterSettings::sized(1.8, 0.3)?;
//! let target = Character::<D3>::new(settings, Vec3::new(20.0, 0.95, 0.0), &mut world, ())?;
//! let bullet = Body::sphere(0.008, 0.3, 0.0045)?;
//! let mut shot = Projectile::<D3>::new(Vec3::new(0.0, 1.2, 0.0), Vec3::new(400.0, 0.0, 0.0), 0.0, 2.0, None, bullet)?;
//! let mut ballistics = Ballistics::default();
//! let dt = TimeStep::new(1.0 / 60.0)?;
//! for _ in 0..10 {
//!     let around = Surroundings::new(&world, Gravity::earth());
//!     if ballistics.step(&mut shot, &around, dt, |_| OnHit::Stop) != Flight::Flying {
//!         break;
//!     }
//!     world.step();
//! }
//! assert_eq!(ballistics.hits()[0].handle, target.collider());
//! assert!((shot.position().x - 19.7).abs() < 1e-3); // at the capsule's side
//! # Ok::<(), GameError>(())
//! ```

mod drag;
mod flight;
mod media;
mod predict;

pub use drag::{Body, Medium};
pub use flight::{Ballistics, Bounce, Flight, Hit, OnHit, Projectile};
pub use media::{Media, Zone};
pub use predict::{Arcs, Ending, launch_velocity};
