//! What a game imports first: the two traits every structure answers
//! through, the boxes, handles and events, the structures, the error every
//! part's error converts into, and glam's vectors.
//!
//! ```
//! use collide::prelude::*;
//!
//! fn coins() -> Result<usize, Error> {
//!     let mut world: Auto<Vec2, &str> = Auto::new();
//!     let player = world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, "player")?;
//!     world.insert(Aabb2::new(Vec2::splat(0.5), Vec2::splat(1.5))?, "coin")?;
//!     let started = world.step().started.len();
//!     world.remove(player)?;
//!     Ok(started + world.len())
//! }
//! assert_eq!(coins(), Ok(2));
//! ```

pub use crate::broad::{
    Auto, BroadPhase, Brute, Bvh, FrameEvents, Grid, Pair, Query, Sap, Structure, Tree,
};
pub use crate::error::Error;
pub use crate::geometry::{Aabb, Aabb2, Aabb3, Vector};
pub use crate::handle::Handle;
pub use crate::narrow::Support;
pub use crate::world::{
    Collider2, Collider3, QueryFilter, World2, World3, WorldQuery, WorldSettings,
};
pub use glam::{Quat, Vec2, Vec3};
