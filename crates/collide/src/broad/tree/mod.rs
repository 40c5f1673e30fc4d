//! The adaptive quadtree (2D) / octree (3D), tight (`tree`) and loose
//! (`loose`), one implementation for both dimensions (a 2^D-ary tree). See
//! [`Tree`].

mod check;
mod core;
mod nodes;
mod pairs;

pub use core::{Tree, TreeConfig, TreeKind};
