//! Casts of a shape that turns while it moves (a blade swung, a plank
//! spun), by conservative advancement: at each step the gap to the target
//! is measured and time advances by the gap over a bound on how fast any
//! point of the mover can close it (its speed plus its reach times its turn
//! rate), so the mover never passes through, however far it turns in one
//! tick. A plain cast (`cast_shape`) only translates: a blade turned 170
//! degrees in a tick would skip every wall between its two poses.

use super::cast::ShapeCast;
use super::general::{bounds, contact};
use super::placement::Placement;
use super::support::Support;
use crate::geometry::Vector;

/// Advancement steps before settling for the last safe time (a mover
/// gliding along a target while turning closes slowly).
const MAX_STEPS: usize = 1024;

/// The farthest any point of `shape` can lie from its origin, bounded by
/// the corner of its local bounding box farthest from the origin.
pub(crate) fn reach<L: Placement>(shape: &(impl Support<L::V> + ?Sized)) -> f32 {
    let local = bounds(shape, &L::at(L::V::from_axes(|_| 0.0)));
    (0..L::V::DIM)
        .map(|k| {
            let far = local.min().axis(k).abs().max(local.max().axis(k).abs());
            far * far
        })
        .sum::<f32>()
        .sqrt()
}

/// The first time in `[0, 1]` at which `mover`, placed by `pose_at(t)`,
/// touches `target`: `pose_at` moves its origin by `t × motion` and turns
/// it by `t × turn` radians (about any axis). Touching at `t = 0` is a hit
/// at 0.
pub(crate) fn cast_turning<L: Placement>(
    mover: &(impl Support<L::V> + ?Sized),
    pose_at: impl Fn(f32) -> L,
    motion: L::V,
    turn: f32,
    target: &(impl Support<L::V> + ?Sized),
    target_pose: &L,
) -> Option<ShapeCast<L::V>> {
    let length = (0..L::V::DIM)
        .map(|k| motion.axis(k) * motion.axis(k))
        .sum::<f32>()
        .sqrt();
    let reach = reach::<L>(mover);
    // No point of the mover moves faster than this, per unit of t.
    let speed = length + turn.abs() * reach;
    let size = |b: crate::geometry::Aabb<L::V>| {
        (0..L::V::DIM)
            .map(|k| b.max().axis(k) - b.min().axis(k))
            .fold(0.0f32, f32::max)
    };
    let start = pose_at(0.0);
    let smaller = size(bounds(mover, &start)).min(size(bounds(target, target_pose)));
    let magnitude = (0..L::V::DIM)
        .map(|k| start.position().axis(k).abs() + target_pose.position().axis(k).abs())
        .fold(0.0f32, f32::max)
        + length;
    // As a plain cast's: a hundred-thousandth of the travel or of the
    // smaller shape, and not below the rounding of the coordinates.
    let tolerance = (1e-5 * speed.max(smaller))
        .max(16.0 * f32::EPSILON * magnitude)
        .max(f32::MIN_POSITIVE);
    let mut t = 0.0f32;
    for _ in 0..MAX_STEPS {
        let touch = contact(mover, &pose_at(t), target, target_pose);
        let gap = -touch.depth;
        if gap <= tolerance {
            return Some(ShapeCast { t, contact: touch });
        }
        if speed <= 0.0 {
            return None;
        }
        // Stop half a tolerance short: the gap stays positive.
        let step = (gap - 0.5 * tolerance) / speed;
        if t + step > 1.0 {
            return None;
        }
        t += step;
    }
    // Still closing in: the last safe time, never past the touch.
    Some(ShapeCast {
        t,
        contact: contact(mover, &pose_at(t), target, target_pose),
    })
}
