//! What the game systems read of a collision world, in one path: motion's
//! [`Geometry`] (the objects' boxes, and by the same handle each object's
//! convex pieces and their poses: one for a convex collider, a compound's
//! parts and a mesh's triangles near where the system looks). A
//! [`World`](collide::world::World), its snapshot or a view of either
//! through a filter ([`Seen`](collide::world::Seen)) gives it.
//!
//! Here: the level with some objects left out ([`Except`]), and the three
//! readings every system makes of one object: how deep a capsule is in
//! it, where a ray enters it, and the first object along a ray.

use crate::dim::{Dim, dot};
use collide::Handle;
use collide::broad::{Query, QueryBudget, QueryStats, RayHit};
use collide::geometry::{Aabb, Ray, Region, Vector};
use collide::motion::{Geometry, VisitPiece};
use collide::narrow::{Capsule, Support};
use std::ops::ControlFlow;

/// The level a system reads: boxes and pieces by handle.
pub(crate) type Level<'a, D> = dyn Geometry<<D as Dim>::V, <D as Dim>::Pose> + 'a;

/// `level` with the objects `skip` names left out: they have no pieces, so
/// sweeps pass them (their boxes stay, for the broad phase's walk).
pub(crate) struct Except<'a, D: Dim> {
    pub(crate) level: &'a Level<'a, D>,
    pub(crate) skip: &'a dyn Fn(Handle) -> bool,
}

impl<D: Dim> Query<D::V> for Except<'_, D> {
    fn name(&self) -> &str {
        self.level.name()
    }
    fn len(&self) -> usize {
        self.level.len()
    }
    fn aabb(&self, handle: Handle) -> Option<Aabb<D::V>> {
        self.level.aabb(handle)
    }
    fn query_aabb(
        &self,
        aabb: &Aabb<D::V>,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.level.query_aabb(aabb, visit)
    }
    fn query_region(
        &self,
        region: &dyn Region<D::V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> QueryStats {
        self.level.query_region(region, budget, visit)
    }
    fn query_ray(
        &self,
        ray: &Ray<D::V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(RayHit) -> ControlFlow<()>,
    ) -> QueryStats {
        self.level.query_ray(ray, budget, visit)
    }
    fn query_ray_first(
        &self,
        ray: &Ray<D::V>,
        exact: &mut dyn FnMut(Handle, f32) -> Option<f32>,
    ) -> Option<(f32, Handle)> {
        self.level.query_ray_first(ray, exact)
    }
}

impl<D: Dim> Geometry<D::V, D::Pose> for Except<'_, D> {
    fn shape(&self, handle: Handle) -> Option<(&dyn Support<D::V>, D::Pose)> {
        if (self.skip)(handle) {
            None
        } else {
            self.level.shape(handle)
        }
    }

    fn pieces(&self, handle: Handle, near: &Aabb<D::V>, visit: &mut VisitPiece<'_, D::V, D::Pose>) {
        if !(self.skip)(handle) {
            self.level.pieces(handle, near, visit);
        }
    }
}

/// The box from `a` to `b` (either way round), `None` past the f32 range.
pub(crate) fn span<V: Vector>(a: V, b: V) -> Option<Aabb<V>> {
    Aabb::new(
        V::from_axes(|k| a.axis(k).min(b.axis(k))),
        V::from_axes(|k| a.axis(k).max(b.axis(k))),
    )
    .ok()
}

/// The exact box of the object `h`: its pieces' (near `near`) from their
/// support points; `None` when it has none there.
pub(crate) fn exact_box<D: Dim>(
    level: &Level<'_, D>,
    h: Handle,
    near: &Aabb<D::V>,
) -> Option<Aabb<D::V>> {
    let mut bounds: Option<(D::V, D::V)> = None;
    level.pieces(h, near, &mut |_, shape, pose| {
        let axis = |k: usize, sign: f32| D::V::from_axes(|j| if j == k { sign } else { 0.0 });
        let lo = D::V::from_axes(|k| D::support_at(shape, &pose, axis(k, -1.0)).axis(k));
        let hi = D::V::from_axes(|k| D::support_at(shape, &pose, axis(k, 1.0)).axis(k));
        bounds = Some(match bounds {
            None => (lo, hi),
            Some((a, b)) => (
                D::V::from_axes(|k| a.axis(k).min(lo.axis(k))),
                D::V::from_axes(|k| b.axis(k).max(hi.axis(k))),
            ),
        });
    });
    let (lo, hi) = bounds?;
    Aabb::new(lo, hi).ok()
}

/// How deep `mover`, centred at `at`, is in the object `h` (the deepest
/// of its pieces near `near`; below 0: apart by that much) and the way
/// out of that piece; `None` when it has no piece there.
pub(crate) fn overlap<D: Dim>(
    level: &Level<'_, D>,
    h: Handle,
    near: &Aabb<D::V>,
    mover: &Capsule<D::V>,
    at: D::V,
) -> Option<(f32, D::V)> {
    let mut deepest: Option<(f32, D::V)> = None;
    level.pieces(h, near, &mut |_, shape, pose| {
        let (depth, out) = D::overlap(mover, at, shape, &pose);
        if deepest.is_none_or(|(d, _)| depth > d) {
            deepest = Some((depth, out));
        }
    });
    deepest
}

/// Where a ray from `origin` along `d` (up to `max` of it) enters the
/// object `h`: the nearest of its pieces' hits, the ray's `t` and the
/// outward normal (`t` 0 for a ray starting inside a piece).
pub(crate) fn ray_on<D: Dim>(
    level: &Level<'_, D>,
    h: Handle,
    origin: D::V,
    d: D::V,
    max: f32,
) -> Option<(f32, D::V)> {
    let near = span(origin, origin + d * max)?;
    let mut best: Option<(f32, D::V)> = None;
    level.pieces(h, &near, &mut |_, shape, pose| {
        if let Some((t, normal)) = D::ray_cast(shape, &pose, origin, d, max) {
            if best.is_none_or(|(bt, _)| t < bt) {
                best = Some((t, normal));
            }
        }
    });
    best
}

/// The first object a ray from `origin` along unit `d` enters within
/// `max` metres, skipping those `skip` names: the hit's object, distance
/// and normal (ties to the lower handle). The broad phase's first-hit
/// walk ([`Query::query_ray_first`]), each candidate's pieces deciding.
pub(crate) fn first_hit<D: Dim>(
    level: &Level<'_, D>,
    skip: &dyn Fn(Handle) -> bool,
    origin: D::V,
    d: D::V,
    max: f32,
) -> Option<(Handle, f32, D::V)> {
    let ray = Ray::new(origin, d, max).ok()?;
    let mut best: Option<(Handle, f32, D::V)> = None;
    level.query_ray_first(&ray, &mut |h, _| {
        if skip(h) {
            return None;
        }
        let (t, normal) = ray_on::<D>(level, h, origin, d, max)?;
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
