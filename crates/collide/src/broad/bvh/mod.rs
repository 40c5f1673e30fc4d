//! `bvh`: a dynamic bounding volume hierarchy with enlarged (fat) leaves.
//! See [`Bvh`].

mod core;
mod tree;

pub use core::Bvh;
