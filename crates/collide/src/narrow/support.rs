//! The one trait the narrow phase's general algorithms (GJK, EPA, casts)
//! need from a shape: its support point along a direction.

use crate::geometry::Vector;

/// A convex shape as the general algorithms see it: a convex *core*
/// (a point, a segment, a polygon, a polyhedron) rounded by `radius`
/// (every point within `radius` of the core). A circle is a point core
/// with a radius, a capsule a segment core; boxes and polygons have radius
/// 0 unless rounded.
///
/// Both methods work in the shape's own frame; the caller places the
/// shape with a pose.
///
/// ```
/// use collide::narrow::{Support, d2::Cuboid};
/// use glam::Vec2;
/// let crate_box = Cuboid::new(Vec2::new(2.0, 1.0))?;
/// assert_eq!(crate_box.support(Vec2::new(1.0, -0.5)), Vec2::new(2.0, -1.0));
/// assert_eq!(crate_box.radius(), 0.0);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub trait Support<V: Vector> {
    /// A point of the core farthest along `direction` (any length, not
    /// zero; ties may give any of the farthest points).
    fn support(&self, direction: V) -> V;

    /// The rounding radius around the core (0 for sharp shapes).
    fn radius(&self) -> f32 {
        0.0
    }
}
