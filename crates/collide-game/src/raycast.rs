//! The first object a ray meets in the world: the broad phase's
//! first-hit walk ([`Query::query_ray_first`]), each candidate's exact
//! shape deciding.

use crate::dim::{Dim, ShapeOf, dot};
use collide::Handle;
use collide::broad::Query;

/// The first object a ray from `origin` along unit `d` enters within
/// `max` metres, skipping those `skip` names: the hit's object, distance
/// and normal (ties to the lower handle).
pub(crate) fn first_hit<'a, D: Dim>(
    world: &dyn Query<D::V>,
    shape_of: ShapeOf<'_, 'a, D>,
    skip: &dyn Fn(Handle) -> bool,
    origin: D::V,
    d: D::V,
    max: f32,
) -> Option<(Handle, f32, D::V)> {
    let ray = collide::geometry::Ray::new(origin, d, max).ok()?;
    let mut best: Option<(Handle, f32, D::V)> = None;
    world.query_ray_first(&ray, &mut |h, _| {
        if skip(h) {
            return None;
        }
        let (shape, pose) = shape_of(h)?;
        let (t, normal) = D::ray_cast(shape, &pose, origin, d, max)?;
        // A ray starting on or in a surface and leaving it is no hit.
        if t == 0.0 && dot(normal, d) >= 0.0 {
            return None;
        }
        if best.is_none_or(|(bh, bt, _)| (t, h) < (bt, bh)) {
            best = Some((h, t, normal));
        }
        Some(t)
    });
    best
}
