//! The first object a ray meets in the world: the broad phase's ray
//! query in entry order, then each candidate's exact shape.

use crate::dim::{Dim, ShapeOf, dot};
use collide::Handle;
use collide::broad::Query;

/// The first object a ray from `origin` along unit `d` enters within
/// `max` metres, skipping those `skip` names: broad phase in entry order,
/// each candidate's exact shape; the hit's object, distance and normal.
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
    let _ = world.query_ray(&ray, collide::QueryBudget::default(), &mut |hit| {
        if best.is_some_and(|(_, t, _)| hit.t > t) {
            return std::ops::ControlFlow::Break(());
        }
        if skip(hit.handle) {
            return std::ops::ControlFlow::Continue(());
        }
        if let Some((shape, pose)) = shape_of(hit.handle) {
            if let Some((t, normal)) = D::ray_cast(shape, &pose, origin, d, max) {
                // A ray starting on or in a surface and leaving it is no hit.
                let leaving = t == 0.0 && dot(normal, d) >= 0.0;
                if !leaving && best.is_none_or(|(h, bt, _)| (t, hit.handle) < (bt, h)) {
                    best = Some((hit.handle, t, normal));
                }
            }
        }
        std::ops::ControlFlow::Continue(())
    });
    best
}
