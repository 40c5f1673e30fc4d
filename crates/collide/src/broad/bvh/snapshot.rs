//! [`BvhSnapshot`]: a frozen, shareable copy of a [`Bvh`] for queries from
//! other threads while the owner goes on updating and rebuilding.

use super::core::Bvh;
use super::tree::Arena;
use super::view::View;
use crate::broad::query::{
    QueryBudget, QueryStats, RayHit, collect_hits, collect_sorted, first_hit,
};
use crate::geometry::{Aabb, Ray, Region, Vector};
use crate::handle::Handle;
use std::ops::ControlFlow;
use std::sync::Arc;

/// A read-only copy of a [`Bvh`] as it was when taken: queries on it see
/// that moment whatever the owner does after (update, step, rebuild), on
/// any number of threads at once. Cloning it is cheap (a reference count);
/// its memory goes when the last clone is dropped. Answers are
/// [`Handle`]s, plain values that stay meaningful after the snapshot is
/// gone (look them up in the owner: a removed object's handle is refused).
///
/// Taking one copies the trees' arrays, the boxes and the handles: a
/// memory copy, no rebuild (BENCHMARKS.md, "Taking a BVH snapshot": about
/// a twelfth of a step).
///
/// ```
/// use collide::{Aabb2, BroadPhase, Bvh, QueryBudget};
/// use glam::Vec2;
/// let mut bvh: Bvh<Vec2> = Bvh::new();
/// let crate_box = Aabb2::new(Vec2::ZERO, Vec2::ONE)?;
/// let h = bvh.insert(crate_box, ())?;
/// bvh.step();
/// let snapshot = bvh.snapshot();
/// bvh.remove(h)?; // the owner moves on
/// let reader = std::thread::spawn(move || {
///     let around = Aabb2::new(Vec2::splat(-1.0), Vec2::splat(2.0)).unwrap();
///     snapshot.query_region_all(&around, QueryBudget::default()).0
/// });
/// assert_eq!(reader.join().unwrap(), vec![h]); // as it was
/// assert!(bvh.query_aabb_all(&Aabb2::new(Vec2::splat(-1.0), Vec2::splat(2.0))?).is_empty());
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct BvhSnapshot<V: Vector> {
    frozen: Arc<Frozen<V>>,
}

#[derive(Debug)]
struct Frozen<V: Vector> {
    moving: Arena<V>,
    resting: Arena<V>,
    boxes: Vec<Aabb<V>>,
    escaped: Vec<u32>,
    escaped_at: Vec<u32>,
    /// Per slot index: the live object's handle.
    handles: Vec<Option<Handle>>,
    len: usize,
    steps: u64,
}

impl<V: Vector, T> Bvh<V, T> {
    /// A frozen copy of the structure for queries from other threads (see
    /// [`BvhSnapshot`]). It sees updates made since the last step, as
    /// queries on the owner do.
    pub fn snapshot(&self) -> BvhSnapshot<V> {
        let mut handles = vec![None; self.boxes.len()];
        for (h, _) in self.objects.iter() {
            handles[h.index() as usize] = Some(h);
        }
        BvhSnapshot {
            frozen: Arc::new(Frozen {
                moving: self.arena.clone(),
                resting: self.resting.arena.clone(),
                boxes: self.boxes.clone(),
                escaped: self.escaped.clone(),
                escaped_at: self.escaped_at.clone(),
                handles,
                len: self.objects.len(),
                steps: u64::from(self.steps),
            }),
        }
    }
}

impl<V: Vector> BvhSnapshot<V> {
    fn with_view<R>(&self, f: impl FnOnce(View<'_, V>) -> R) -> R {
        let frozen = &*self.frozen;
        let handle = |i: u32| frozen.handles[i as usize].expect("queried objects are live");
        f(View {
            moving: &frozen.moving,
            resting: &frozen.resting,
            boxes: &frozen.boxes,
            escaped: &frozen.escaped,
            escaped_at: &frozen.escaped_at,
            handle: &handle,
        })
    }

    /// Number of objects when it was taken.
    pub fn len(&self) -> usize {
        self.frozen.len
    }

    /// True when it holds no object.
    pub fn is_empty(&self) -> bool {
        self.frozen.len == 0
    }

    /// Steps the owner had taken when it was taken (which frame it shows).
    pub fn steps(&self) -> u64 {
        self.frozen.steps
    }

    /// An object's box as it was, or `None` for a handle it did not hold.
    pub fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
        let i = handle.index() as usize;
        (self.frozen.handles.get(i).copied().flatten() == Some(handle))
            .then(|| self.frozen.boxes[i])
    }

    /// [`BroadPhase::query_region`](crate::BroadPhase::query_region) on
    /// the frozen trees.
    pub fn query_region(
        &self,
        region: &dyn Region<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> QueryStats {
        let mut stats = QueryStats::default();
        let _ = self.with_view(|view| view.search(region, &budget, &mut stats, visit));
        stats
    }

    /// Every object `region` hits, sorted by handle, and the statistics.
    pub fn query_region_all(
        &self,
        region: &dyn Region<V>,
        budget: QueryBudget,
    ) -> (Vec<Handle>, QueryStats) {
        collect_sorted(|visit| self.query_region(region, budget, visit))
    }

    /// [`BroadPhase::query_ray`](crate::BroadPhase::query_ray) on the
    /// frozen trees: hits by entry `t`, then handle, nearest first.
    pub fn query_ray(
        &self,
        ray: &Ray<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(RayHit) -> ControlFlow<()>,
    ) -> QueryStats {
        self.with_view(|view| view.ray_nearest_first(ray, &budget, visit))
    }

    /// Every object `ray` hits, by entry `t`, then handle.
    pub fn query_ray_all(&self, ray: &Ray<V>) -> Vec<RayHit> {
        collect_hits(|visit| self.query_ray(ray, QueryBudget::default(), visit))
    }

    /// The first object `ray` enters, if any.
    pub fn query_ray_closest(&self, ray: &Ray<V>) -> Option<RayHit> {
        first_hit(|visit| self.query_ray(ray, QueryBudget::default(), visit))
    }
}
