//! Sweep-and-prune, two structures on one shared base: [`Sap`] (`sap`:
//! every axis sorted, pair events straight from endpoint swaps) and
//! [`BandSap`] (`sap1`: one axis sorted by the objects' mins, in bands,
//! candidates by a forward scan, or by a scan around the movers only when
//! few moved), each once for 2D and 3D.
//!
//! - `base.rs`, `parts.rs`, `step.rs`: what both keep, in parts by what
//!   they serve (the proxies and what changed on them, the sorted key
//!   arrays and spanners, the measurements, the step's working lists),
//!   the queries, and the step parts they share;
//! - `endpoints.rs`, `spanners.rs`, `sweep.rs`: keys and their insertion
//!   sort repair, the world-spanning list's index, the full sweep;
//! - `all_axes.rs`, `pairset.rs`: [`Sap`] and its pair set;
//! - `band_sap.rs`, `bands.rs`, `one_axis.rs`, `band_scan.rs`,
//!   `coherent.rs`: [`BandSap`], its bands, their scan, and the steps
//!   that keep the pairs of objects that did not move.
//!
//! The rules of the classic design, all kept: the sorted keys stay sorted across steps and
//! are repaired by insertion sort; equal values put an end before a start
//! (`sap`; `sap1` keeps no ends, its scan stops at a start equal to an
//! end); the sweep axis has the largest variance of centres;
//! world-spanning objects live apart; incoherent motion falls back to a
//! radix sort.

mod all_axes;
mod band_sap;
mod band_scan;
mod bands;
mod base;
mod check;
mod coherent;
mod config;
mod endpoints;
mod one_axis;
mod pairset;
mod parts;
mod spanner_moves;
mod spanners;
mod step;
mod sweep;

pub use all_axes::Sap;
pub use band_sap::BandSap;
pub use config::{SapConfig, SapStats, Spanners};
