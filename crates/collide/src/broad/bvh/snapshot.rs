//! The BVH's [`Snapshot`](crate::Snapshot): both trees, the boxes and the
//! escaped objects copied (not the user values, the pair lists or the build
//! scratch), answering with the same traversal as the owner ([`View`]).

use super::core::Bvh;
use super::tree::Arena;
use super::view::View;
use crate::broad::query::{QueryBudget, QueryStats, RayHit};
use crate::broad::read::{Query, aabb_by_region};
use crate::geometry::{Aabb, Ray, Region, Vector};
use crate::handle::Handle;
use std::ops::ControlFlow;

/// What a BVH snapshot holds.
pub(super) struct FrozenBvh<V: Vector> {
    moving: Arena<V>,
    resting: Arena<V>,
    boxes: Vec<Aabb<V>>,
    escaped: Vec<u32>,
    escaped_at: Vec<u32>,
    /// Per slot index: the live object's handle.
    handles: Vec<Option<Handle>>,
    len: usize,
}

impl<V: Vector, T> Bvh<V, T> {
    /// The copy a snapshot shares (see
    /// [`BroadPhase::snapshot`](crate::BroadPhase::snapshot)).
    pub(super) fn frozen(&self) -> FrozenBvh<V> {
        let mut handles = vec![None; self.boxes.len()];
        for (h, _) in self.objects.iter() {
            handles[h.index() as usize] = Some(h);
        }
        FrozenBvh {
            moving: self.tree.arena.clone(),
            resting: self.resting.arena.clone(),
            boxes: self.boxes.clone(),
            escaped: self.escapes.escaped.clone(),
            escaped_at: self.escapes.escaped_at.clone(),
            handles,
            len: self.objects.len(),
        }
    }
}

impl<V: Vector> FrozenBvh<V> {
    fn with_view<R>(&self, f: impl FnOnce(View<'_, V>) -> R) -> R {
        let handle = |i: u32| self.handles[i as usize].expect("queried objects are live");
        f(View {
            moving: &self.moving,
            resting: &self.resting,
            boxes: &self.boxes,
            escaped: &self.escaped,
            escaped_at: &self.escaped_at,
            handle: &handle,
        })
    }
}

impl<V: Vector> Query<V> for FrozenBvh<V> {
    fn name(&self) -> &str {
        "bvh"
    }

    fn query_aabb(
        &self,
        aabb: &Aabb<V>,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        aabb_by_region(self, aabb, visit)
    }

    fn len(&self) -> usize {
        self.len
    }

    fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
        let i = handle.index() as usize;
        (self.handles.get(i).copied().flatten() == Some(handle)).then(|| self.boxes[i])
    }

    fn query_region(
        &self,
        region: &dyn Region<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> QueryStats {
        let mut stats = QueryStats::default();
        let _ = self.with_view(|view| view.search(region, &budget, &mut stats, visit));
        stats
    }

    fn query_ray(
        &self,
        ray: &Ray<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(RayHit) -> ControlFlow<()>,
    ) -> QueryStats {
        self.with_view(|view| view.ray_nearest_first(ray, &budget, visit))
    }

    fn query_ray_first(
        &self,
        ray: &Ray<V>,
        exact: &mut dyn FnMut(Handle, f32) -> Option<f32>,
    ) -> Option<(f32, Handle)> {
        self.with_view(|view| view.ray_first(ray, exact))
    }
}
