//! [`Snapshot`]: a frozen, shareable copy of a structure, for queries from
//! other threads while the owner goes on updating, stepping and
//! rebuilding.
//!
//! Each structure copies what its queries read (cells and registrations,
//! nodes, sorted endpoints, trees) without the user values, the pair set
//! or the step scratch, and the copy answers with the structure's own
//! query code: the same pruning, statistics and order as the owner at that
//! moment. The copy sits behind an [`Arc`]: cloning a snapshot is a
//! reference count, and its memory goes with the last clone.

use super::contract::{BroadPhase, everything};
use super::query::{QueryBudget, QueryStats, RayHit, sorted_ray_hits, test_each};
use super::read::{Query, aabb_by_region};
use crate::geometry::{Aabb, Ray, Region, Vector};
use crate::handle::Handle;
use std::fmt;
use std::ops::ControlFlow;
use std::sync::Arc;

/// The contract's fallback for structures outside this crate: the objects
/// and their boxes, listed by handle, each query testing all of them.
struct Listed<V: Vector> {
    name: String,
    objects: Vec<(Handle, Aabb<V>)>,
}

impl<V: Vector> Query<V> for Listed<V> {
    fn name(&self) -> &str {
        &self.name
    }
    fn query_aabb(
        &self,
        aabb: &Aabb<V>,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        aabb_by_region(self, aabb, visit)
    }
    fn len(&self) -> usize {
        self.objects.len()
    }
    fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
        let k = self.objects.binary_search_by_key(&handle, |o| o.0).ok()?;
        Some(self.objects[k].1)
    }
    fn query_region(
        &self,
        region: &dyn Region<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> QueryStats {
        let objects = self.objects.iter().map(|(h, aabb)| (*h, aabb));
        test_each(objects, region, budget, visit)
    }
    fn query_ray(
        &self,
        ray: &Ray<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(RayHit) -> ControlFlow<()>,
    ) -> QueryStats {
        sorted_ray_hits(
            ray,
            |h| self.aabb(h),
            |visit| self.query_region(ray, budget, visit),
            visit,
        )
    }
}

/// Another snapshot under another name: `Auto`'s, which copies the
/// structure it runs.
struct Renamed<V: Vector> {
    name: &'static str,
    snapshot: Snapshot<V>,
}

impl<V: Vector> Query<V> for Renamed<V> {
    fn name(&self) -> &str {
        self.name
    }
    fn query_aabb(
        &self,
        aabb: &Aabb<V>,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.snapshot.frozen.query_aabb(aabb, visit)
    }
    fn len(&self) -> usize {
        self.snapshot.frozen.len()
    }
    fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
        self.snapshot.frozen.aabb(handle)
    }
    fn query_region(
        &self,
        region: &dyn Region<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> QueryStats {
        self.snapshot.frozen.query_region(region, budget, visit)
    }
    fn query_ray(
        &self,
        ray: &Ray<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(RayHit) -> ControlFlow<()>,
    ) -> QueryStats {
        self.snapshot.frozen.query_ray(ray, budget, visit)
    }
    fn query_ray_first(
        &self,
        ray: &Ray<V>,
        exact: &mut dyn FnMut(Handle, f32) -> Option<f32>,
    ) -> Option<(f32, Handle)> {
        self.snapshot.frozen.query_ray_first(ray, exact)
    }
}

/// A read-only copy of a structure as it was when taken (see
/// [`BroadPhase::snapshot`]): queries on it see that moment whatever the
/// owner does after (update, step, rebuild), on any number of threads at
/// once. Cloning it is cheap (a reference count); its memory goes when the
/// last clone is dropped. Answers are [`Handle`]s, plain values that stay
/// meaningful after the snapshot is gone (look them up in the owner: a
/// removed object's handle is refused).
///
/// Taking one copies the arrays the structure's queries read (no rebuild,
/// no user values); its cost beside a step: BENCHMARKS.md.
///
/// ```
/// use collide::{Aabb2, BroadPhase, Grid, Query, QueryBudget};
/// use glam::Vec2;
/// let mut grid: Grid<Vec2> = Grid::hashed();
/// let crate_box = Aabb2::new(Vec2::ZERO, Vec2::ONE)?;
/// let h = grid.insert(crate_box, ())?;
/// grid.step();
/// let snapshot = grid.snapshot();
/// grid.remove(h)?; // the owner moves on
/// let around = Aabb2::new(Vec2::splat(-1.0), Vec2::splat(2.0))?;
/// let reader = std::thread::spawn(move || {
///     snapshot.query_region_all(&around, QueryBudget::default()).0
/// });
/// assert_eq!(reader.join().unwrap(), vec![h]); // as it was
/// assert!(grid.query_aabb_all(&around).is_empty());
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Clone)]
pub struct Snapshot<V: Vector> {
    frozen: Arc<dyn Query<V> + Send + Sync>,
}

impl<V: Vector> fmt::Debug for Snapshot<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Snapshot")
            .field("structure", &self.name())
            .field("len", &self.len())
            .finish_non_exhaustive()
    }
}

impl<V: Vector> Snapshot<V> {
    /// Shares `frozen`, a copy made for the snapshot (a structure of this
    /// crate without its user values, or what it queries), among readers.
    /// The copy is never updated (its handles' owner id is the original's,
    /// so it must not issue handles).
    pub(crate) fn new(frozen: impl Query<V> + Send + Sync + 'static) -> Self {
        Self {
            frozen: Arc::new(frozen),
        }
    }

    /// This snapshot, answering to `name`.
    pub(crate) fn renamed(self, name: &'static str) -> Self {
        Self::new(Renamed {
            name,
            snapshot: self,
        })
    }

    /// The contract's fallback: lists the objects through
    /// [`Query::query_aabb`] over the whole f32 range (a box of zero
    /// size on the very edge of that range escapes it) and tests every one
    /// per query.
    pub(crate) fn listed<T, S: BroadPhase<V, T> + ?Sized>(structure: &S) -> Self {
        let mut objects = Vec::with_capacity(structure.len());
        let _ = structure.query_aabb(&everything(), &mut |h| {
            // A structure that reports a handle it has no box for is
            // skipped over, not trusted.
            if let Some(aabb) = structure.aabb(h) {
                objects.push((h, aabb));
            }
            ControlFlow::Continue(())
        });
        objects.sort_unstable_by_key(|o| o.0);
        Self::new(Listed {
            name: structure.name().to_owned(),
            objects,
        })
    }

    /// Whether `self` and `other` are clones of one snapshot (share one
    /// copy).
    ///
    /// ```
    /// use collide::{BroadPhase, Brute, Query};
    /// use glam::Vec2;
    /// let world: Brute<Vec2> = Brute::new();
    /// let (a, b) = (world.snapshot(), world.snapshot());
    /// assert!(a.clone().shares_with(&a)); // a clone is the same copy
    /// assert!(!a.shares_with(&b)); // two snapshots are two copies
    /// assert_eq!((a.name(), a.len(), a.is_empty()), ("brute", 0, true));
    /// ```
    pub fn shares_with(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.frozen, &other.frozen)
    }
}

/// A snapshot answers with the frozen structure's own query code.
///
/// ```
/// use collide::{Aabb2, BroadPhase, Query, Tree, geometry::Ray};
/// use glam::Vec2;
/// let mut world: Tree<Vec2> = Tree::tight();
/// let near = world.insert(Aabb2::new(Vec2::new(2.0, -1.0), Vec2::new(3.0, 1.0))?, ())?;
/// world.insert(Aabb2::new(Vec2::new(6.0, -1.0), Vec2::new(7.0, 1.0))?, ())?;
/// world.step();
/// let snapshot = world.snapshot();
/// let ray = Ray::new(Vec2::ZERO, Vec2::X, 100.0)?;
/// let hit = snapshot.query_ray_closest(&ray).unwrap();
/// assert_eq!((hit.handle, hit.t), (near, 2.0));
/// assert_eq!(snapshot.query_ray_all(&ray).len(), 2);
/// assert!(snapshot.query_ray_any(&ray));
/// assert_eq!(snapshot.aabb(near), world.aabb(near));
/// assert_eq!((snapshot.name(), snapshot.len()), ("tree", 2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
impl<V: Vector> Query<V> for Snapshot<V> {
    fn name(&self) -> &str {
        self.frozen.name()
    }
    fn len(&self) -> usize {
        self.frozen.len()
    }
    fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
        self.frozen.aabb(handle)
    }
    fn query_aabb(
        &self,
        aabb: &Aabb<V>,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.frozen.query_aabb(aabb, visit)
    }
    fn query_region(
        &self,
        region: &dyn Region<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> QueryStats {
        self.frozen.query_region(region, budget, visit)
    }
    fn query_ray(
        &self,
        ray: &Ray<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(RayHit) -> ControlFlow<()>,
    ) -> QueryStats {
        self.frozen.query_ray(ray, budget, visit)
    }
    fn query_ray_first(
        &self,
        ray: &Ray<V>,
        exact: &mut dyn FnMut(Handle, f32) -> Option<f32>,
    ) -> Option<(f32, Handle)> {
        self.frozen.query_ray_first(ray, exact)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad::{BandSap, Brute, Bvh, Grid, Tree};
    use glam::Vec2;

    fn unit(x: f32) -> Aabb<Vec2> {
        Aabb::new(Vec2::new(x, 0.0), Vec2::new(x + 1.0, 1.0)).unwrap()
    }

    #[test]
    fn the_fallback_for_other_structures_answers_like_the_owner() {
        let mut world: Brute<Vec2, u32> = Brute::new();
        let handles: Vec<Handle> = (0..40)
            .map(|k| world.insert(unit(k as f32 * 0.7 - 9.0), k).unwrap())
            .collect();
        world.remove(handles[5]).unwrap();
        let listed = Snapshot::listed(&world);
        assert_eq!((listed.name(), listed.len()), ("brute", 39));
        assert_eq!(listed.aabb(handles[5]), None);
        assert_eq!(listed.aabb(handles[6]), world.aabb(handles[6]));
        for x in [-9.5, -3.0, 0.1, 12.0] {
            let probe = Aabb::new(Vec2::new(x, 0.2), Vec2::new(x + 2.5, 0.4)).unwrap();
            assert_eq!(listed.query_aabb_all(&probe), world.query_aabb_all(&probe));
            let ray = Ray::new(Vec2::new(x, 0.5), Vec2::new(1.0, 0.01), 6.0).unwrap();
            assert_eq!(listed.query_ray_all(&ray), world.query_ray_all(&ray));
        }
        let budget = QueryBudget {
            max_tested: Some(3),
            ..QueryBudget::default()
        };
        let everywhere = Aabb::new(Vec2::splat(-99.0), Vec2::splat(99.0)).unwrap();
        let (hits, stats) = listed.query_region_all(&everywhere, budget);
        assert_eq!((hits.len(), stats.truncated), (3, true));
    }

    #[test]
    fn the_copy_is_freed_when_the_last_reader_lets_go() {
        let mut structures: Vec<Box<dyn BroadPhase<Vec2, u32>>> = vec![
            Box::new(Brute::new()),
            Box::new(Grid::hashed()),
            Box::new(Tree::tight()),
            Box::new(BandSap::new()),
            Box::new(Bvh::new()),
        ];
        for world in &mut structures {
            for k in 0..50 {
                world.insert(unit(k as f32 * 0.5), k).unwrap();
            }
            world.step();
            let snapshot = world.snapshot();
            let weak = Arc::downgrade(&snapshot.frozen);
            let readers: Vec<_> = (0..3)
                .map(|_| {
                    let copy = snapshot.clone();
                    std::thread::spawn(move || copy.query_aabb_all(&unit(10.0)).len())
                })
                .collect();
            let last = snapshot.clone();
            drop(snapshot);
            world.step(); // the owner goes on; the copy stays for the readers
            for reader in readers {
                assert_eq!(reader.join().unwrap(), 3, "{}", world.name());
            }
            assert!(
                weak.upgrade().is_some(),
                "{}: freed under a reader",
                world.name()
            );
            drop(last);
            assert!(
                weak.upgrade().is_none(),
                "{}: the copy outlived its readers",
                world.name()
            );
        }
    }
}
