//! What a game system moves through: the objects (a broad-phase structure
//! or snapshot, with each object's shape and pose) and gravity.

use crate::dim::{Dim, ShapeOf};
use collide::broad::Query;

/// What a body moves through: the objects (a broad-phase structure or
/// snapshot, and their shapes) and gravity.
#[derive(Clone, Copy)]
pub struct Surroundings<'s, 'a, D: Dim> {
    /// The objects' boxes.
    pub objects: &'s dyn Query<D::V>,
    /// Each object's shape and pose.
    pub shape_of: ShapeOf<'s, 'a, D>,
    /// Gravity, m/s².
    pub gravity: D::V,
}
