//! [`Placement`]: what the dimension-free algorithms need from a pose
//! (2D: [`d2::Pose`](super::d2::Pose), 3D: [`d3::Pose`](super::d3::Pose)):
//! where shapes are. The dimension itself (its f64 points and EPA) is
//! [`Dim`](super::dim::Dim).

use super::dim::Dim;
use super::gjk::Vertex;
use super::point::{Point, Wide};

/// The cores' penetration from EPA: the depth, the unit normal from A
/// toward B (the difference's outward normal there), and the witness
/// points: A's point deepest along the normal and B's deepest against it.
/// The general contact also uses it for cores apart (a negative depth: the
/// gap, and the closest points).
pub(crate) struct Penetration<P> {
    pub(crate) depth: f64,
    pub(crate) normal: P,
    pub(crate) a: P,
    pub(crate) b: P,
}

/// A rigid placement in the dimension of `V`.
pub(crate) trait Placement: Copy {
    type V: Dim;
    /// Where the shape's origin is.
    fn position(&self) -> Self::V;
    /// The same turn at another position.
    fn with_position(&self, position: Self::V) -> Self;
    /// No turn, at `position`.
    fn at(position: Self::V) -> Self;
    /// A local point in world coordinates.
    fn apply(&self, local: Self::V) -> Self::V;
    /// A local direction in world coordinates.
    fn rotate(&self, local: Self::V) -> Self::V;
    /// A world direction in local coordinates.
    fn unrotate(&self, world: Self::V) -> Self::V;
    /// The same in f64 (a ray's origin far from the shape keeps its
    /// digits).
    fn unrotate_wide(&self, world: Wide<Self::V>) -> Wide<Self::V>;
    /// The position in f64 (exact).
    fn position_wide(&self) -> Wide<Self::V> {
        self.position().wide()
    }
    /// A local direction in world coordinates, in f64.
    fn rotate_wide(&self, local: Wide<Self::V>) -> Wide<Self::V>;
    /// How `other` is placed as seen from this placement: its local
    /// coordinates to this one's. The general algorithms work in the first
    /// shape's frame, so its supports need no transform and the other's
    /// one (instead of two each).
    fn relative(&self, other: &Self) -> Self::Frame;
    /// This placement itself as a [`Frame`] (local to world coordinates),
    /// for many points or directions at once.
    fn frame(&self) -> Self::Frame;
    /// The rigid transform the supports use, many times per query (2D: a
    /// pose; 3D: a rotation matrix, cheaper per point than a quaternion).
    type Frame: Frame<V = Self::V>;
}

/// A rigid transform from one shape's local coordinates to another's
/// (see [`Placement::relative`]).
pub(crate) trait Frame: Copy {
    type V: Dim;
    /// A point in the target coordinates.
    fn apply(&self, local: Self::V) -> Self::V;
    /// A direction in the target coordinates back in the local ones.
    fn unrotate(&self, target: Self::V) -> Self::V;
    /// Where the local origin lies in the target coordinates.
    fn origin(&self) -> Self::V;
}

/// The two of `points` farthest apart (by their `w`); `None` when they all
/// coincide. EPA's starts look across the line between them.
pub(crate) fn widest_pair<P: Point>(points: &[Vertex<P>]) -> Option<(P, P)> {
    let (mut best, mut ends) = (0.0, (P::ZERO, P::ZERO));
    for (i, p) in points.iter().enumerate() {
        for q in &points[i + 1..] {
            let d = (q.w - p.w).dot(q.w - p.w);
            if d > best {
                (best, ends) = (d, (p.w, q.w));
            }
        }
    }
    (best > 0.0).then_some(ends)
}
