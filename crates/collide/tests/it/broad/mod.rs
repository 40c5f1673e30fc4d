//! The broad phase: every structure against brute force, its queries,
//! snapshots, filters and batches, determinism, threads and memory.

mod allocation;
mod auto;
mod batch;
mod brute;
mod bvh;
mod changing_scenes;
mod determinism;
mod filter;
mod fuzz_corpus;
mod grid;
mod kdtree;
#[cfg(feature = "parallel")]
mod parallel;
mod properties;
mod query;
mod regressions;
mod sap;
mod snapshot;
mod soak;
mod tree;
mod verify_and_handles;
