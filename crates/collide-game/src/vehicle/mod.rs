//! Raycast vehicles: a car and a tank whose chassis is one rigid body held
//! up by springs on rays cast down from the wheel mounts.
//!
//! What it is for: driving games and vehicles in any game, where a car
//! should feel right and cost little. The chassis never touches the
//! ground; each wheel's ray finds it, the spring pushes at the contact
//! (never pulling) and that push is the wheel's load. Each wheel spins as
//! a number; its slip ratio and slip angle read a tire curve (a simple
//! hand-tunable one, or Pacejka's), scaled by the load and kept inside the
//! friction ellipse, so a wheel spinning on the throttle loses side grip:
//! a rear-drive car oversteers and a front-drive one understeers. Tire
//! forces never exceed what stops the slip within the tick, so a parked
//! car stays parked and a wheel's spin stays finite at any tick rate. The
//! arcade assists the genre uses (less roll from the side forces, speed
//! given back while drifting) are settings, off by default.
//!
//! A [`Tank`] is the same chassis with six or more road wheels per side,
//! each side's wheels locked to one track speed: it steers by the
//! difference of the two (skid steer) and turns on the spot with opposite
//! speeds. Tracks are drawn, not simulated; a broken track cuts its side's
//! drive.
//!
//! **On the world.** A vehicle is a collider of the world it drives in
//! (its body's box): shots hit it, and other wheels and characters stand
//! on it. Each step casts its wheels' rays through the world less its own
//! collider, so they see the ground, characters and other vehicles, then
//! moves its collider with it. Gravity is a setting of the vehicle.
//!
//! Costs: a ray per wheel and a few dozen flops per wheel a tick; no
//! allocation after the vehicle is made. Deterministic: the same inputs
//! give the same bits, and a mirrored vehicle in a mirrored world drives
//! the mirrored path.
//!
//! **Tolerance.** A car's path agrees within 1e-3 of its length moved to
//! 1e3 or mirrored (its turn within 1e-3 rad), a tank's within 1e-4 moved
//! to 1e5, mirrored bit for bit with [`TankSettings::mirrored`]; both the
//! same in jittered frames, and a parked car stays put for minutes. Known
//! limits: paths depend on the tick rate (a curve or a pivot parts by over
//! a radian between 30 and 60 Hz within 5 s); a car 1e4 from the origin
//! turns 1.7e-3 rad apart in 8 s; a parked tank creeps 1.8 cm in ten
//! minutes.
//!
//! ```
//! use collide::narrow::d3::{Cuboid, Pose};
//! use collide::world::{Collider3, World3};
//! use collide_game::vehicle::{Car, CarSettings, Controls, WheelSettings};
//! use collide_game::time::TimeStep;
//! use collide_game::glam::{Quat, Vec3};
//! // Flat ground: a box whose top is at y = 0.
//! let mut world = World3::new();
//! let slab = Cuboid::new(Vec3::new(500.0, 0.5, 500.0))?;
//! world.insert(Collider3::fixed(slab, Pose::at(Vec3::new(0.0, -0.5, 0.0))?, ()))?;
//!
//! let wheel = WheelSettings::new(Vec3::ZERO, 0.33, 0.35)?;
//! let settings = CarSettings::four_wheels(1200.0, Vec3::new(0.9, 0.5, 2.2), 1.6, 2.6, -0.2, wheel)?;
//! let mut car = Car::new(settings, Vec3::new(0.0, 0.75, 0.0), Quat::IDENTITY, &mut world, ())?;
//! let dt = TimeStep::new(1.0 / 60.0)?;
//! for _ in 0..300 {
//!     car.step(dt, &Controls::new(1.0, 0.0, 0.0, false)?, &mut world)?;
//!     world.step();
//! }
//! assert!(car.body().linear_velocity().dot(car.forward()) > 10.0); // off it goes
//! // Its collider went with it.
//! assert_eq!(world.pose(car.collider())?.position(), car.body().position());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod car;
mod chassis;
mod tank;
mod tire;
mod wheel;

pub use car::{Axle, Car, CarSettings, Controls, Drive};
pub use tank::{Side, Tank, TankSettings, TrackControls};
pub use tire::{TireCurve, TireSettings};
pub use wheel::{WheelSettings, WheelTelemetry};
