//! The structures by name, as `collide replay --structure NAME` spells them.

use super::auto::Auto;
use super::brute::Brute;
use super::bvh::Bvh;
use super::contract::BroadPhase;
use super::grid::Grid;
use super::sap::{Sap, SapKind};
use super::tree::Tree;
use crate::geometry::Vector;

/// Every structure the project has, in the order tables list them.
///
/// ```
/// use glam::Vec3;
/// for name in collide::STRUCTURE_NAMES {
///     let world = collide::structure_by_name::<Vec3, ()>(name).unwrap();
///     assert_eq!(world.name(), *name);
/// }
/// ```
pub const STRUCTURE_NAMES: &[&str] = &[
    "brute", "sap", "sap1", "grid", "hashgrid", "hgrid", "tree", "loose", "bvh", "auto",
];

/// The structure `collide replay` uses when none is named: the fastest of
/// ours on the shared scenes that needs no settings and no bounds (see
/// BENCHMARKS.md; `grid` is as fast but needs bounds).
///
/// ```
/// assert!(collide::STRUCTURE_NAMES.contains(&collide::DEFAULT_STRUCTURE));
/// ```
pub const DEFAULT_STRUCTURE: &str = "hashgrid";

/// A new, empty structure by name, or `None` for an unknown name. It is
/// `Send`, so it can be stepped on another thread or inside a rayon pool
/// of the caller's choosing.
///
/// ```
/// use glam::Vec2;
/// let world = collide::structure_by_name::<Vec2, u64>("brute").unwrap();
/// assert_eq!(world.name(), "brute");
/// assert!(collide::structure_by_name::<Vec2, u64>("nope").is_none());
/// ```
pub fn structure_by_name<V: Vector, T: Send + 'static>(
    name: &str,
) -> Option<Box<dyn BroadPhase<V, T> + Send>> {
    match name {
        "brute" => Some(Box::new(Brute::<V, T>::new())),
        "sap" => Some(Box::new(Sap::<V, T>::new(SapKind::AllAxes))),
        "sap1" => Some(Box::new(Sap::<V, T>::new(SapKind::OneAxis))),
        "grid" => Some(Box::new(Grid::<V, T>::dense())),
        "hashgrid" => Some(Box::new(Grid::<V, T>::hashed())),
        "hgrid" => Some(Box::new(Grid::<V, T>::hierarchical())),
        "tree" => Some(Box::new(Tree::<V, T>::tight())),
        "loose" => Some(Box::new(Tree::<V, T>::loose())),
        "bvh" => Some(Box::new(Bvh::<V, T>::new())),
        "auto" => Some(Box::new(Auto::<V, T>::new())),
        _ => None,
    }
}
