//! The narrow phase: 2D and 3D against themselves, against parry and
//! against an exact f64 reference, and the wrong answers found so far.

mod d2;
mod d3;
mod exact;
mod extreme;
mod manifold;
mod parry_oracle;
mod ray_rule;
mod regressions;
