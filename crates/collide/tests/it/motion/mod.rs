//! Continuous motion: sweeps against a brute-force oracle, and sweeps that
//! turn.

mod sweep;
mod turning;
