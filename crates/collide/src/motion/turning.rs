//! Sweeps that turn: the first object a mover touches while it moves and
//! turns over a tick (a swung blade, a spun plank), through the broad
//! phase. The candidates are the objects whose boxes meet the box around
//! every place the mover can reach (its path, widened by the farthest
//! any of its points lies from its origin); each gets a turning cast.

use super::sweep::SweepHit;
use crate::broad::Query;
use crate::geometry::{Aabb, Vector};
use crate::handle::Handle;
use crate::narrow::placement::Placement;
use crate::narrow::turning::reach;
use crate::narrow::{ShapeCast, Support};
use std::ops::ControlFlow;

/// The earliest touch over the candidates of `world` that `cast` finds
/// (ties by handle), for `mover` starting at `start` and moving by
/// `motion` while turning; `None` when it touches nothing, or when the
/// path leaves the f32 range.
pub(crate) fn sweep_turning<'a, L: Placement>(
    world: &(impl Query<L::V> + ?Sized),
    shape_of: impl Fn(Handle) -> Option<(&'a dyn Support<L::V>, L)>,
    mover: &dyn Support<L::V>,
    start: L,
    motion: L::V,
    cast: impl Fn(&dyn Support<L::V>, &L) -> Option<ShapeCast<L::V>>,
) -> Option<SweepHit<L::V>> {
    let r = reach::<L>(mover).min(f64::from(f32::MAX)) as f32;
    let (p0, p1) = (
        start.position(),
        L::V::from_axes(|k| start.position().axis(k) + motion.axis(k)),
    );
    // A little beyond the reach: the casts' tolerance.
    let margin = r * (1.0 + 1e-3) + f32::MIN_POSITIVE;
    let bound = Aabb::new(
        L::V::from_axes(|k| p0.axis(k).min(p1.axis(k)) - margin),
        L::V::from_axes(|k| p0.axis(k).max(p1.axis(k)) + margin),
    )
    .ok()?;
    let mut earliest: Option<SweepHit<L::V>> = None;
    let _ = world.query_aabb(&bound, &mut |h| {
        if let Some((shape, pose)) = shape_of(h) {
            if let Some(hit) = cast(shape, &pose) {
                let better = earliest.is_none_or(|e| (hit.t, h) < (e.t, e.handle));
                if better {
                    earliest = Some(SweepHit {
                        handle: h,
                        part: 0,
                        t: hit.t,
                        contact: hit.contact,
                    });
                }
            }
        }
        ControlFlow::Continue(())
    });
    earliest
}
