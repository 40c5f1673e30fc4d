//! A discrete mover, as a reference: it splits a tick's motion into a few
//! sub-steps and checks only where each one ends, pushing out of whatever
//! it overlaps there (Super Mario 64 moves in four quarter steps this
//! way). It is cheap, and it passes through a wall whenever one sub-step
//! is longer than the wall's thickness plus the mover's size: nothing
//! checks the space between the ends. Games should use the sweep; this is
//! here to show and test the difference.

use crate::broad::Query;
use crate::geometry::Vector;
use crate::handle::Handle;
use crate::narrow::Support;
use crate::narrow::general::{bounds, contact};
use crate::narrow::placement::Placement;
use std::ops::ControlFlow;

/// Where a sub-stepped move ended, and the first object it was found
/// overlapping (then pushed out of, and the move ended there).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Substepped<P> {
    /// The mover's pose at the end.
    pub end: P,
    /// The first object a sub-step ended in, if any.
    pub touched: Option<Handle>,
}

/// The discrete move, once for 2D and 3D.
pub(crate) fn substep<'a, L: Placement>(
    world: &(impl Query<L::V> + ?Sized),
    shape_of: impl Fn(Handle) -> Option<(&'a dyn Support<L::V>, L)>,
    mover: &dyn Support<L::V>,
    start: L,
    motion: L::V,
    substeps: u32,
) -> Substepped<L> {
    let n = substeps.max(1);
    let mut pose = start;
    for k in 1..=n {
        let share = k as f32 / n as f32;
        let to = L::V::from_axes(|a| start.position().axis(a) + motion.axis(a) * share);
        if (0..L::V::DIM).any(|a| !to.axis(a).is_finite()) {
            break;
        }
        pose = pose.with_position(to);
        // The deepest overlap at this sub-step's end, ties by handle.
        let mut deepest: Option<(f32, Handle, L::V)> = None;
        let _ = world.query_aabb(&bounds(mover, &pose), &mut |h| {
            if let Some((shape, at)) = shape_of(h) {
                let c = contact(mover, &pose, shape, &at);
                let deeper = deepest.is_none_or(|(d, e, _)| {
                    (c.depth, std::cmp::Reverse(h)) > (d, std::cmp::Reverse(e))
                });
                if c.depth > 0.0 && deeper {
                    deepest = Some((c.depth, h, c.normal));
                }
            }
            ControlFlow::Continue(())
        });
        if let Some((depth, h, normal)) = deepest {
            // Out along the shortest way, which may be forward: past the
            // middle of a thin wall, the push completes the tunnel.
            let p = pose.position();
            pose = pose.with_position(L::V::from_axes(|a| p.axis(a) - normal.axis(a) * depth));
            return Substepped {
                end: pose,
                touched: Some(h),
            };
        }
    }
    Substepped {
        end: pose,
        touched: None,
    }
}
