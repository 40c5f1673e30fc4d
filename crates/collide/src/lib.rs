//! # collide
//!
//! Collision detection for games, in layers that each work alone:
//!
//! 1. [`geometry`]: the validated box [`Aabb`] (2D and 3D from one
//!    implementation, over glam's [`Vec2`](glam::Vec2) and
//!    [`Vec3`](glam::Vec3)) and the overlap rule used everywhere.
//! 2. [`broad`]: broad-phase structures behind one contract,
//!    [`BroadPhase`]: [`Auto`], which picks and switches among the others
//!    by itself (start here); the brute-force reference [`Brute`]; the
//!    grids ([`Grid`]: dense, hashed, hierarchical); the quadtree/octree
//!    ([`Tree`]: tight, loose); the [`Bvh`]; sweep and prune ([`Sap`]) and
//!    its banded form for wide worlds ([`BandSap`]); with the wrappers
//!    [`Filtered`] (collision layers and masks) and [`Verified`] (checks
//!    every frame against brute force); and [`KdTree`] for point queries.
//!    Every structure answers region and ray queries with statistics and
//!    budgets, and gives a [`Snapshot`] other threads can query.
//!    [`prelude`] holds what a game imports first.
//! 3. [`narrow`]: exact shape tests (closed forms, SAT with the minimum
//!    translation vector, GJK/EPA), ray casts and shape casts with time of
//!    impact, in [`narrow::d2`] and [`narrow::d3`].
//! 4. [`motion`]: moving a shape through a world for one tick without
//!    tunnelling (swept bound, times of impact, stop, slide, bounce, pass).
//! 5. The [`world`]: colliders (a shape, a pose, a kind, a filter, a
//!    sensor flag, the game's value) over any structure, stepped into the
//!    shapes that started and stopped touching, with their contacts, and
//!    exact queries (rays, shape casts, overlaps, the nearest point) on
//!    the world or a snapshot.
//!
//! The seeded scenes, the runner and the trace format that drive the
//! tests, benchmarks and the demo live in the `collide-scenes` crate, so
//! a game does not build them.
//!
//! ```
//! use collide::{Aabb2, BroadPhase, Brute, Pair};
//! use glam::Vec2;
//!
//! let mut world: Brute<Vec2, &str> = Brute::new();
//! let a = world.insert(Aabb2::new(Vec2::ZERO, Vec2::splat(2.0))?, "crate")?;
//! let b = world.insert(Aabb2::new(Vec2::splat(5.0), Vec2::splat(6.0))?, "player")?;
//! assert!(world.step().is_empty());
//!
//! world.update(b, Aabb2::new(Vec2::splat(1.0), Vec2::splat(3.0))?)?;
//! assert_eq!(world.step().started, vec![Pair::new(a, b)]);
//!
//! world.remove(a)?;
//! assert_eq!(world.step().stopped, vec![Pair::new(a, b)]);
//! # Ok::<(), collide::Error>(())
//! ```
//!
//! A game's loop: move, step, then react to each pair that started. The
//! events [`BroadPhase::step`] returns do not borrow the world, so the
//! reaction can look up both values and change the world:
//!
//! ```
//! use collide::glam::Vec2;
//! use collide::{Aabb2, Auto, BroadPhase, Query};
//!
//! enum Thing {
//!     Player { score: u32 },
//!     Coin,
//! }
//!
//! let mut world: Auto<Vec2, Thing> = Auto::new();
//! let player = world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, Thing::Player { score: 0 })?;
//! for x in [3.0, 6.0] {
//!     world.insert(Aabb2::new(Vec2::new(x, 0.0), Vec2::new(x + 1.0, 1.0))?, Thing::Coin)?;
//! }
//! for frame in 1..=8 {
//!     // Move what moved, then step once.
//!     let x = frame as f32;
//!     world.update(player, Aabb2::new(Vec2::new(x, 0.0), Vec2::new(x + 1.0, 1.0))?)?;
//!     let events = world.step();
//!     // The events do not borrow the world: look things up and change them.
//!     for pair in &events.started {
//!         let (a, b) = (pair.a(), pair.b());
//!         let coin = match (world.value(a), world.value(b)) {
//!             (Some(Thing::Player { .. }), Some(Thing::Coin)) => b,
//!             (Some(Thing::Coin), Some(Thing::Player { .. })) => a,
//!             _ => continue,
//!         };
//!         world.remove(coin)?;
//!         if let Some(Thing::Player { score }) = world.value_mut(player) {
//!             *score += 1;
//!         }
//!     }
//! }
//! assert!(matches!(world.value(player), Some(Thing::Player { score: 2 })));
//! assert_eq!(world.len(), 1);
//! # Ok::<(), collide::Error>(())
//! ```

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod broad;
mod error;
pub mod geometry;
mod handle;
pub mod math;
pub mod motion;
pub mod narrow;
pub mod prelude;
#[cfg(test)]
mod test_rng;
pub mod world;

pub use broad::{
    Auto, AutoConfig, AutoStatus, BandSap, BroadPhase, Brute, Bvh, BvhBuild, BvhQuality, Choice,
    Divergence, Filter, Filtered, FrameEvents, Grid, GridConfig, GridKind, GridStats, KdTree,
    Neighbour, NotEmptyError, Pair, Query, QueryBudget, QueryStats, RayHit, Sap, SapConfig,
    SapStats, SceneProfile, Snapshot, Spanners, StepStats, Structure, Tree, TreeConfig, TreeKind,
    UnknownStructure, Verified, choose_structure,
};
pub use broad::{EventList, Mistake};
pub use error::Error;
pub use geometry::{Aabb, Aabb2, Aabb3, AabbError, Corner, Vector};
/// The glam version collide's API uses (`collide::glam::Vec2`), so a game
/// need not match it by hand. With the `mint` feature, its vectors convert
/// to and from the `mint` crate's, which other math libraries also speak.
pub use glam;
pub use handle::{Handle, HandleError, Slots};
