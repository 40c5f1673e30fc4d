//! Casts of a shape that turns while it moves (a blade swung, a plank
//! spun), by conservative advancement: at each step the gap to the target
//! is measured and time advances by the gap over a bound on how fast any
//! point of the mover can close it (its speed plus its reach times its turn
//! rate), so the mover never passes through, however far it turns in one
//! tick. A plain cast (`cast_shape`) only translates: a blade turned 170
//! degrees in a tick would skip every wall between its two poses.

use super::cast::ShapeCast;
use super::error::ShapeError;
use super::general::{bounds, contact};
use super::placement::Placement;
use super::support::Support;
use crate::geometry::Vector;
use crate::math;

/// Advancement steps before settling for the last safe time (a mover
/// gliding along a target while turning closes slowly).
const MAX_STEPS: usize = 1024;

/// The farthest any point of `shape` can lie from its origin, bounded by
/// the corner of its local bounding box farthest from the origin (in f64:
/// the corner of a shape near `f32::MAX` is farther than f32 holds).
pub(crate) fn reach<L: Placement>(shape: &(impl Support<L::V> + ?Sized)) -> f64 {
    let local = bounds(shape, &L::at(L::V::from_axes(|_| 0.0)));
    (0..L::V::DIM)
        .map(|k| {
            let far = f64::from(local.min().axis(k).abs().max(local.max().axis(k).abs()));
            far * far
        })
        .sum::<f64>()
        .sqrt()
}

/// The first time in `[0, 1]` at which `mover`, placed by `pose_at(t)`,
/// touches `target`: `pose_at` moves its origin by `t × motion` and turns
/// it by `t × turn` radians (about any axis). Touching at `t = 0` is a hit
/// at 0. An error for a shape whose radius is not a finite number of 0 or
/// more, or shapes so large that the gap between them overflows.
pub(crate) fn cast_turning<L: Placement>(
    mover: &(impl Support<L::V> + ?Sized),
    pose_at: impl Fn(f32) -> Result<L, ShapeError>,
    motion: L::V,
    turn: f32,
    target: &(impl Support<L::V> + ?Sized),
    target_pose: &L,
) -> Result<Option<ShapeCast<L::V>>, ShapeError> {
    super::error::radius(mover.radius())?;
    super::error::radius(target.radius())?;
    let length = (0..L::V::DIM)
        .map(|k| math::powi(f64::from(motion.axis(k)), 2))
        .sum::<f64>()
        .sqrt();
    let reach = reach::<L>(mover);
    // No point of the mover moves faster than this, per unit of t (in
    // f64, and no turn adds nothing however far the mover reaches).
    let spin = if turn == 0.0 {
        0.0
    } else {
        f64::from(turn.abs()) * reach
    };
    let speed = (length + spin).min(f64::from(f32::MAX)) as f32;
    let size = |b: crate::geometry::Aabb<L::V>| {
        (0..L::V::DIM)
            .map(|k| b.max().axis(k) - b.min().axis(k))
            .fold(0.0f32, f32::max)
    };
    let start = pose_at(0.0)?;
    let smaller = size(bounds(mover, &start)).min(size(bounds(target, target_pose)));
    // The largest coordinate the mover's poses reach: they are rounded to
    // f32 there (the gap for given poses is exact to the shapes' own
    // rounding, worked out relative to them).
    let magnitude = (0..L::V::DIM)
        .map(|k| start.position().axis(k).abs())
        .fold(0.0f32, f32::max)
        + length as f32;
    // As a plain cast's: a hundred-thousandth of the travel or of the
    // smaller shape, and not below a few ulps of the mover's coordinates
    // (a pose rounded along the way may land that much past the touch).
    let tolerance = (1e-5 * speed.max(smaller))
        .max(2.0 * f32::EPSILON * magnitude)
        .max(f32::MIN_POSITIVE);
    let mut t = 0.0f32;
    for _ in 0..MAX_STEPS {
        let touch = contact(mover, &pose_at(t)?, target, target_pose);
        let gap = -touch.depth;
        if gap.is_nan() {
            return Err(ShapeError::NonFinite {
                what: "gap between the shapes (their sizes and places overflow f32)",
                value: gap,
            });
        }
        if gap <= tolerance {
            return Ok(Some(ShapeCast { t, contact: touch }));
        }
        if speed <= 0.0 {
            return Ok(None);
        }
        // Stop half a tolerance short: the gap stays positive.
        let step = (gap - 0.5 * tolerance) / speed;
        if t + step > 1.0 {
            return Ok(None);
        }
        t += step;
    }
    // Still closing in: the last safe time, never past the touch.
    Ok(Some(ShapeCast {
        t,
        contact: contact(mover, &pose_at(t)?, target, target_pose),
    }))
}
