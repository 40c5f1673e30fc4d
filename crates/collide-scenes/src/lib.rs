//! # collide-scenes
//!
//! The test kit of collide: what its tests, benchmarks, fuzzing and the
//! `collide` command share, kept out of the library so that a game does
//! not build it.
//!
//! - [`Scene`]: deterministic, seeded generators of moving boxes (uniform,
//!   clustered, flat, adversarial and changing scenes) and
//!   [`lattice_scene`] (integer corners, full of ties), producing frames
//!   of [`Record`]s.
//! - [`Runner`]: drives any broad-phase structure with records named by
//!   the caller's ids, and reports events in those ids ([`IdEvent`]).
//! - [`trace`]: the text format for recorded box streams, so a game can
//!   record what it fed the broad phase and replay it through any
//!   structure.
//! - [`invariance`]: runs a game system's scenario far from the origin,
//!   mirrored, scaled, at other tick rates and at rest for minutes, and
//!   judges it against the tolerance the system claims.
//! - [`alloc`]: a counting global allocator; [`mean`] and [`percentile`]
//!   for timings.
//!
//! ```
//! use collide::{BroadPhase, Brute, Grid};
//! use collide_scenes::{Runner, Scene, SceneConfig, SceneKind};
//! use glam::Vec2;
//!
//! let mut scene = Scene::<Vec2>::new(SceneConfig::new(SceneKind::Clustered, 300));
//! let (mut grid, mut brute) = (Grid::<Vec2, u64>::hashed(), Brute::<Vec2, u64>::new());
//! let (mut a, mut b) = (Runner::new(), Runner::new());
//! let (mut frame, mut found, mut expected) = (Vec::new(), Vec::new(), Vec::new());
//! for _ in 0..10 {
//!     scene.next_frame(&mut frame);
//!     a.apply(&mut grid, &frame)?;
//!     b.apply(&mut brute, &frame)?;
//!     a.step(&mut grid, &mut found);
//!     b.step(&mut brute, &mut expected);
//!     assert_eq!(found, expected);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod alloc;
pub mod invariance;
mod scene;
mod summary;
pub mod trace;

pub use scene::{
    IdEvent, IdMap, Motion, NotPresent, PHASE_FRAMES, Record, RunError, Runner, Scene, SceneConfig,
    SceneKind, SceneRng, SceneStats, UnknownName, lattice_scene,
};
pub use summary::{mean, percentile};
