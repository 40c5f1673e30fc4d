//! Casts: where a ray first enters a shape ([`RayCast`]), and when a
//! moving shape first touches another ([`ShapeCast`]), and conservative
//! advancement: the fallback of the GJK cast (`gjk_cast.rs`) when it does
//! not settle, and the judge of a cast that starts in contact.
//!
//! Conservative advancement: at the current time, the contact query gives
//! the gap and the normal between the shapes. The gap cannot close faster
//! than the relative motion along that normal (the shapes lie on either
//! side of the plane through the gap, and a translation moves the plane's
//! side as a whole), so advancing by `gap / closing speed` never passes
//! the first touch. Repeat until the gap is within the tolerance. Each
//! step is exact for a face meeting a face; a corner meeting a curved
//! surface converges in a few steps.

use super::contact::Contact;
use crate::geometry::Vector;

/// Where a ray first enters a shape.
///
/// Every ray cast keeps one rule: a ray hits a shape where it passes into
/// it, reaching its inside (or, for a flat shape such as a segment or a
/// flat box, crossing it from one side to the other). A ray that only
/// touches the boundary misses: along a face or an edge, tangent to a
/// curve, or through a corner only; so does a ray starting on the boundary
/// and leaving. The broad phase's boxes follow the same rule
/// ([`Ray`](crate::geometry::Ray)). Within a millionth of the numbers
/// involved a graze may hit or miss, but a hit always lies on the shape.
///
/// ```
/// use collide::geometry::Ray;
/// use collide::narrow::d2::{Circle, Pose, cast_ray_circle};
/// use glam::Vec2;
/// let target = Circle::new(1.0)?;
/// let ray = Ray::new(Vec2::new(-5.0, 0.0), Vec2::X, 100.0).unwrap();
/// let hit = cast_ray_circle(&ray, &target, &Pose::IDENTITY).unwrap();
/// assert_eq!((hit.t, hit.normal, hit.point), (4.0, -Vec2::X, Vec2::new(-1.0, 0.0)));
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayCast<V: Vector> {
    /// Where the ray enters, in lengths of its direction, in
    /// `[0, max_t]`; 0 when it starts inside.
    pub t: f32,
    /// The shape's outward unit normal where the ray enters (facing the
    /// ray); for a ray starting inside, the ray's reversed direction (zero
    /// for a ray of zero direction).
    pub normal: V,
    /// The entry point, `origin + t * direction`.
    pub point: V,
}

/// When a moving shape first touches another: the share `t` of the
/// motions done at that moment, and the contact then.
///
/// A cast that starts with the shapes touching or overlapping reports
/// `t = 0` when the motion pushes them further together (faster than a
/// hundred-thousandth of the motion's length along the normal; the contact's
/// `depth` says how far they overlap, its normal how to separate them);
/// when the motion slides along the contact or leaves it, the cast goes on
/// as if the contact were not there (so a character pressed against a wall
/// can slide along it: cast, move by `t`, remove the normal part of the
/// rest, cast again).
///
/// ```
/// use collide::narrow::d2::{Circle, Cuboid, Pose, cast_shape};
/// use glam::Vec2;
/// let ball = Circle::new(0.5)?;
/// let wall = Cuboid::new(Vec2::new(0.5, 5.0))?;
/// let at_wall = Pose::at(Vec2::new(10.0, 0.0))?;
/// let hit = cast_shape(&ball, &Pose::IDENTITY, Vec2::new(20.0, 0.0), &wall, &at_wall, Vec2::ZERO)
///     .expect("it reaches the wall");
/// assert!((hit.t - 0.45).abs() < 1e-5); // 9 of 20 units
/// assert!((hit.contact.normal - Vec2::X).length() < 1e-5);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeCast<V: Vector> {
    /// The share of the motions done at the first touch, in `[0, 1]`.
    pub t: f32,
    /// The contact at that moment (shapes moved by `t` times their
    /// motions): its depth is about 0, or above 0 for a cast that started
    /// overlapping.
    pub contact: Contact<V>,
}

/// Steps of conservative advancement before settling for the last safe
/// time (faces converge in one or two, curved surfaces in a few).
const MAX_STEPS: usize = 64;

/// Conservative advancement over `t` in `[0, 1]`: `contact_at(t)` is the
/// contact with both shapes moved by `t` times their motions, `relative`
/// the second shape's motion minus the first's, `tolerance` the gap that
/// counts as touching.
pub(crate) fn advance<V: Vector>(
    relative: V,
    tolerance: f32,
    contact_at: impl Fn(f32) -> Contact<V>,
) -> Option<ShapeCast<V>> {
    let dot = |a: V, b: V| (0..V::DIM).map(|k| a.axis(k) * b.axis(k)).sum::<f32>();
    // A motion into the contact slower than this is sliding along it: a
    // motion made tangent (a slide) keeps a rounding residue of about 1e-7
    // of its length, of either sign.
    let sliding = 1e-5 * dot(relative, relative).sqrt();
    let mut t = 0.0f32;
    for _ in 0..MAX_STEPS {
        let contact = contact_at(t);
        let gap = -contact.depth;
        // How fast the gap closes along the normal, per unit of t.
        let closing = -dot(contact.normal, relative);
        if gap <= tolerance {
            // Touching (or, at t = 0, maybe overlapping): a hit unless the
            // motion slides along the contact or leaves it.
            return (t > 0.0 || closing > sliding).then_some(ShapeCast { t, contact });
        }
        if closing <= 0.0 {
            return None;
        }
        // Stop half a tolerance short of the plane: the next gap is
        // positive and, when the normal holds, within the tolerance.
        let step = (gap - 0.5 * tolerance) / closing;
        if t + step > 1.0 {
            return None;
        }
        t += step;
    }
    // Still converging (a corner gliding along a curve): the last safe
    // time, never past the touch.
    Some(ShapeCast {
        t,
        contact: contact_at(t),
    })
}
