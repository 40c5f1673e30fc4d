//! Continuous motion: sweeps against a brute-force oracle, and sweeps that
//! turn.

mod invariance;
mod sweep;
mod turning;
