//! Shared scenes and the runner: deterministic, seeded generators of moving
//! boxes ([`Scene`], and [`lattice_scene`], full of ties) used by tests,
//! benchmarks and the demo alike, the [`Record`] they produce (the same
//! unit a trace file holds), and [`Runner`], which drives any structure
//! with records named by the caller's ids.
//!
//! Sits above the broad phase: it uses structures, structures never use it.

mod changing;
mod generate;
mod idmap;
mod lattice;
mod record;
mod rng;
mod runner;
mod stats;

pub use changing::PHASE_FRAMES;
pub use generate::{Motion, Scene, SceneConfig, SceneKind, UnknownName};
pub use idmap::IdMap;
pub use lattice::lattice_scene;
pub use record::{NotPresent, Record};
pub use rng::SceneRng;
pub use runner::{IdEvent, RunError, Runner};
pub use stats::SceneStats;
