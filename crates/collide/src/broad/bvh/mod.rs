//! `bvh`: a dynamic bounding volume hierarchy with enlarged (fat) leaves,
//! and a second tree for resting objects. See [`Bvh`].

mod build;
mod cache;
mod check;
mod core;
mod pairs;
mod parts;
mod quality;
mod ray;
mod rest;
mod shadow;
mod snapshot;
mod tree;
mod view;
mod wear;

pub use build::BvhBuild;
pub use core::Bvh;
pub use quality::BvhQuality;
