//! [`Compound`]: one collider made of convex parts, each with its own
//! pose in the collider's frame: a prop too concave for one hull, a
//! character's hitboxes as one body, a row of crates welded together.
//!
//! The parts sit in a static tree of their boxes, so a pair or a query
//! tests only the parts near it: a compound of a thousand parts costs what
//! its nearby parts cost. Contacts are reported per part pair and queries
//! name the part they hit (a headshot is a part). Building one costs
//! `n log n` in its parts; it is shared (behind an `Arc`) by the colliders
//! and snapshots that hold it.

use super::parts_error::PartsError;
use super::space::Space;
use crate::geometry::Aabb;
use crate::geometry::box_tree::BoxTree;

/// The most parts one collider numbers (part numbers are `u32`).
pub(crate) const MAX_PARTS: usize = u32::MAX as usize;

/// Convex parts with poses in one frame (see the module).
///
/// ```
/// use collide::narrow::d3::{Cuboid, Pose, Sphere};
/// use collide::world::{Collider3, Compound3, World3};
/// use glam::Vec3;
/// let dumbbell = Compound3::new([
///     (Sphere::new(0.5)?.into(), Pose::at(Vec3::new(-1.0, 0.0, 0.0))?),
///     (Cuboid::new(Vec3::new(1.0, 0.1, 0.1))?.into(), Pose::IDENTITY),
///     (Sphere::new(0.5)?.into(), Pose::at(Vec3::new(1.0, 0.0, 0.0))?),
/// ])?;
/// assert_eq!(dumbbell.len(), 3);
/// let mut world = World3::new();
/// world.insert(Collider3::moving(dumbbell, Pose::IDENTITY, "dumbbell"))?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Compound<V: Space> {
    parts: Vec<(V::Shape, V::Pose)>,
    tree: BoxTree<V>,
}

impl<V: Space> Compound<V> {
    /// The compound of `parts`, each a convex shape and its pose in the
    /// compound's frame; part `i` is the `i`-th given. An error for none,
    /// or more than `u32::MAX`.
    pub fn new(parts: impl IntoIterator<Item = (V::Shape, V::Pose)>) -> Result<Self, PartsError> {
        let parts: Vec<(V::Shape, V::Pose)> = parts.into_iter().collect();
        if parts.len() > MAX_PARTS {
            return Err(PartsError::TooMany {
                count: parts.len(),
                max: MAX_PARTS,
            });
        }
        let boxes: Vec<Aabb<V>> = parts.iter().map(|(s, p)| V::aabb(s, p)).collect();
        let tree = BoxTree::new(&boxes).ok_or(PartsError::Empty { what: "compound" })?;
        Ok(Self { parts, tree })
    }

    /// How many parts it has.
    pub fn len(&self) -> usize {
        self.parts.len()
    }

    /// Whether it has none (never: a compound has at least one part).
    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// Its parts, each a shape and its pose in the compound's frame.
    pub fn parts(&self) -> &[(V::Shape, V::Pose)] {
        &self.parts
    }

    /// The tree over its parts' boxes.
    pub(crate) fn tree(&self) -> &BoxTree<V> {
        &self.tree
    }
}
