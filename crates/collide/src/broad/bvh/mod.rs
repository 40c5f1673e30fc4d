//! `bvh`: a dynamic bounding volume hierarchy with enlarged (fat) leaves.
//! See [`Bvh`].

mod build;
mod core;
mod quality;
mod tree;

pub use build::BvhBuild;
pub use core::Bvh;
pub use quality::BvhQuality;
