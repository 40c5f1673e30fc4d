//! The broad phase: structures that keep the set of overlapping box pairs
//! current as objects move, all behind one contract: [`Query`] for what
//! they answer, [`BroadPhase`] for how they change.
//!
//! - [`Auto`]: measures the scene and runs the structure that suits it,
//!   switching when the scene changes (`auto`).
//! - [`Brute`]: the O(n²) reference every other structure is checked
//!   against.
//! - [`Grid`]: uniform grids, dense (`grid`) or hashed (`hashgrid`).
//! - [`Tree`]: adaptive quadtree/octree, tight (`tree`) or loose (`loose`).
//! - [`Sap`]: incremental sweep-and-prune on every axis (`sap`), and
//!   [`BandSap`]: along one axis in bands, plus a box test (`sap1`).
//! - [`Bvh`]: a dynamic bounding volume hierarchy with fat leaves (`bvh`).
//! - [`KdTree`]: nearest, k-nearest and radius queries over points (not a
//!   broad phase; it sits here with the other spatial structures).
//! - [`Verified`]: runs any structure beside [`Brute`] and reports the first
//!   divergence.
//! - [`Filtered`]: any structure with collision filters ([`Filter`]: group
//!   and mask bits per object), reporting only the pairs they allow.
//! - [`Snapshot`]: a frozen copy of any of them ([`BroadPhase::snapshot`])
//!   that other threads query while the owner goes on.
//!
//! Depends on geometry and handles only.

mod auto;
mod batch;
mod brute;
mod bvh;
mod contract;
mod events;
mod filter;
mod grid;
mod headroom;
mod hosted;
mod kdtree;
mod parallel;
#[cfg(all(test, feature = "parallel"))]
mod parallel_tests;
mod query;
mod radix;
mod read;
mod sap;
mod snapshot;
mod split_sort;
mod structure;
mod tree;
mod verify;

pub use auto::{Auto, AutoConfig, AutoStatus, Choice, SceneProfile, choose_structure};
pub use brute::Brute;
pub use bvh::{Bvh, BvhBuild, BvhQuality};
pub use contract::{BroadPhase, StepStats};
pub use events::{FrameEvents, Pair};
pub use filter::{Filter, Filtered};
pub use grid::{Grid, GridConfig, GridKind, GridStats};
pub use kdtree::{KdTree, Neighbour};
pub use query::{QueryBudget, QueryStats, RayHit};
pub use read::Query;
pub(crate) use read::query_through;
pub use sap::{BandSap, Sap, SapConfig, SapStats, Spanners};
pub use snapshot::Snapshot;
pub use structure::{Structure, UnknownStructure};
pub use tree::{Tree, TreeConfig, TreeKind};
pub use verify::{Divergence, EventList, Mistake, NotEmptyError, Verified};
