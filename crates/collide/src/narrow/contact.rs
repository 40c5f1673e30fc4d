//! [`Contact`]: what the narrow phase says about two shapes.

use crate::geometry::Vector;

/// How two shapes meet: the unit `normal` from the first toward the
/// second, the signed `depth` along it, and a witness point on each.
///
/// One convention everywhere: moving the second shape by
/// `normal * depth` (or the first by the reverse) makes them just touch,
/// so [`Contact::mtv`] is the minimum translation vector for the second
/// shape when they overlap. Swapping the two shapes flips the normal and
/// swaps the points ([`Contact::flipped`]), nothing else, with two
/// exceptions where no order-free choice exists: shapes whose centres
/// coincide with nothing else to tell a way out push along +y either way,
/// and a SAT tie between equally deep faces takes the first shape's face
/// (the depth is the same; the witness points differ). Results are in the
/// frame the poses are given in (the world).
///
/// ```
/// use collide::narrow::d2::{Circle, Pose, contact_circle_circle};
/// use glam::Vec2;
/// let ball = Circle::new(1.0)?;
/// let hit = contact_circle_circle(&ball, &Pose::IDENTITY, &ball, &Pose::at(Vec2::new(1.5, 0.0))?);
/// assert_eq!((hit.normal, hit.depth), (Vec2::X, 0.5)); // overlapping by 0.5
/// assert_eq!((hit.point_a, hit.point_b), (Vec2::new(1.0, 0.0), Vec2::new(0.5, 0.0)));
/// assert_eq!(hit.mtv(), Vec2::new(0.5, 0.0)); // push the second ball right
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact<V: Vector> {
    /// Unit vector from the first shape toward the second.
    pub normal: V,
    /// Penetration depth along `normal`, world units: above 0 when the
    /// shapes overlap, 0 when they touch, below 0 when apart (then minus
    /// the distance between them).
    pub depth: f32,
    /// The first shape's point farthest along `normal` (deepest into the
    /// second; nearest to it when apart).
    pub point_a: V,
    /// The second shape's point farthest against `normal`.
    pub point_b: V,
}

impl<V: Vector> Contact<V> {
    /// True when the shapes overlap or touch (`depth >= 0`).
    ///
    /// ```
    /// use collide::narrow::d2::{Circle, Pose, contact_circle_circle};
    /// use glam::Vec2;
    /// let ball = Circle::new(1.0)?;
    /// let apart = contact_circle_circle(&ball, &Pose::IDENTITY, &ball, &Pose::at(Vec2::new(3.0, 0.0))?);
    /// assert!(!apart.touching());
    /// assert_eq!(apart.distance(), 1.0);
    /// let kissing = contact_circle_circle(&ball, &Pose::IDENTITY, &ball, &Pose::at(Vec2::new(2.0, 0.0))?);
    /// assert!(kissing.touching() && kissing.distance() == 0.0);
    /// # Ok::<(), collide::narrow::ShapeError>(())
    /// ```
    pub fn touching(&self) -> bool {
        self.depth >= 0.0
    }

    /// The distance between the shapes (0 when they touch or overlap).
    pub fn distance(&self) -> f32 {
        (-self.depth).max(0.0)
    }

    /// The move of the second shape that separates them: `normal * depth`
    /// (pointing back toward the first when they are apart).
    pub fn mtv(&self) -> V {
        V::from_axes(|a| self.normal.axis(a) * self.depth)
    }

    /// The same contact seen from the other shape: normal reversed, points
    /// swapped.
    ///
    /// ```
    /// use collide::narrow::d2::{Circle, Pose, contact_circle_circle};
    /// use glam::Vec2;
    /// let (small, big) = (Circle::new(0.5)?, Circle::new(2.0)?);
    /// let (pa, pb) = (Pose::IDENTITY, Pose::at(Vec2::new(0.0, 2.0))?);
    /// let ab = contact_circle_circle(&small, &pa, &big, &pb);
    /// assert_eq!(contact_circle_circle(&big, &pb, &small, &pa), ab.flipped());
    /// # Ok::<(), collide::narrow::ShapeError>(())
    /// ```
    pub fn flipped(&self) -> Self {
        Self {
            normal: V::from_axes(|a| -self.normal.axis(a)),
            depth: self.depth,
            point_a: self.point_b,
            point_b: self.point_a,
        }
    }
}
