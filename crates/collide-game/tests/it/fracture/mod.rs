//! Voronoi fracture in 2D and 3D.

mod d2;
mod d3;
