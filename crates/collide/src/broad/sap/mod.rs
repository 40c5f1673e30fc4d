//! Sweep-and-prune: `sap` (every axis sorted, pair events straight from
//! endpoint swaps) and `sap1` (one axis sorted by the objects' mins, in
//! bands, candidates by a forward scan, or by a scan around the movers
//! only when few moved), one implementation for 2D and 3D. See [`Sap`].
//!
//! The rules of the classic design, all kept: the sorted keys stay sorted across steps and
//! are repaired by insertion sort; equal values put an end before a start
//! (`sap`; `sap1` keeps no ends, its scan stops at a start equal to an
//! end); the sweep axis has the largest variance of centres;
//! world-spanning objects live apart; incoherent motion falls back to a
//! radix sort.

mod band_scan;
mod bands;
mod check;
mod coherent;
mod config;
mod core;
mod endpoints;
mod one_axis;
mod pairset;
mod spanners;
mod step;
mod sweep;

pub use config::{SapConfig, SapKind, SapStats, Spanners};
pub use core::Sap;
