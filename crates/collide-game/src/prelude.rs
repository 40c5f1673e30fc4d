//! What a game imports first: collide's prelude (the structures, their
//! two traits, boxes, handles, glam's vectors), the dimensions, what
//! systems move through, the clock and the error every part's error
//! converts into.
//!
//! ```
//! use collide_game::prelude::*;
//!
//! fn run() -> Result<u64, GameError> {
//!     let mut clock = FixedClock::new(ClockSettings::hz(60.0)?);
//!     let mut world: Auto<Vec3> = Auto::new();
//!     world.insert(Aabb3::new(Vec3::ZERO, Vec3::ONE)?, ())?;
//!     for _tick in clock.advance(0.05)? {
//!         world.step();
//!     }
//!     Ok(clock.tick())
//! }
//! assert_eq!(run(), Ok(3));
//! ```

pub use crate::dim::{D2, D3, Dim};
pub use crate::error::GameError;
pub use crate::surroundings::{Gravity, Surroundings};
pub use crate::time::{ClockSettings, FixedClock, TimeStep};
pub use collide::prelude::*;
