//! Projectiles: flight through media and hits, and predicted paths.

mod flight;
mod predict;
