//! Checks shared by the property tests (`broad/properties.rs`, `world/`),
//! the fuzz targets (`fuzz/`) and the replay of the fuzz corpus
//! (`broad/fuzz_corpus.rs`): each takes an input and returns the first
//! thing wrong with collide's answer to it.
// Each user takes what it needs.
#![allow(dead_code)]

pub mod ops;
pub mod trace;
pub mod world_ops;
