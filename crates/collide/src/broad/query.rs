//! What a region query reports beside its hits: [`QueryStats`] (nodes or
//! cells visited, candidates tested, hits, and whether a [`QueryBudget`]
//! cut it short), and [`RayHit`] for rays.

use crate::geometry::{Aabb, Ray, Region, Vector};
use crate::handle::Handle;
use std::ops::ControlFlow;

/// Limits on one query's work. When a limit is reached the query stops
/// and its [`QueryStats::truncated`] says so: the hits found so far are
/// not the answer, and "nothing found" must not be read into them.
///
/// ```
/// use collide::QueryBudget;
/// let unlimited = QueryBudget::default();
/// assert_eq!(unlimited.max_tested, None);
/// let small = QueryBudget { max_tested: Some(100), ..QueryBudget::default() };
/// assert_eq!(small.max_visited, None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueryBudget {
    /// The most nodes or cells to visit (`None`: no limit).
    pub max_visited: Option<u64>,
    /// The most candidates to give the exact test (`None`: no limit).
    pub max_tested: Option<u64>,
}

/// What one query did.
///
/// ```
/// use collide::{Aabb2, BroadPhase, Brute, Query, QueryBudget};
/// use glam::Vec2;
/// let mut world: Brute<Vec2> = Brute::new();
/// for i in 0..10 {
///     let p = Vec2::splat(i as f32);
///     world.insert(Aabb2::new(p, p + Vec2::splat(0.5))?, ())?;
/// }
/// let everything = Aabb2::new(Vec2::splat(-1.0), Vec2::splat(20.0))?;
/// let budget = QueryBudget { max_tested: Some(4), ..QueryBudget::default() };
/// let (hits, stats) = world.query_region_all(&everything, budget);
/// assert!(stats.truncated); // not "4 objects": the answer is unknown
/// assert_eq!((hits.len(), stats.tested, stats.hits), (4, 4, 4));
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueryStats {
    /// Nodes (trees), cells (grids) or endpoint slots (sweeps) visited;
    /// 0 for brute force, which has none.
    pub visited: u64,
    /// Objects given the exact test.
    pub tested: u64,
    /// Objects reported to the visitor.
    pub hits: u64,
    /// True when a [`QueryBudget`] limit stopped the query before it
    /// finished.
    pub truncated: bool,
}

impl QueryStats {
    /// Counts a node or cell visit; false when the budget forbids it (the
    /// query is then truncated).
    #[inline]
    pub(crate) fn visit(&mut self, budget: &QueryBudget) -> bool {
        if budget.max_visited.is_some_and(|m| self.visited >= m) {
            self.truncated = true;
            return false;
        }
        self.visited += 1;
        true
    }

    /// Counts a candidate test; false when the budget forbids it (the
    /// query is then truncated).
    #[inline]
    pub(crate) fn test(&mut self, budget: &QueryBudget) -> bool {
        if budget.max_tested.is_some_and(|m| self.tested >= m) {
            self.truncated = true;
            return false;
        }
        self.tested += 1;
        true
    }

    /// Gives one candidate, whose box is `aabb`, the exact test, and calls
    /// `report` on a hit; breaks when the budget forbids the test or
    /// `report` breaks.
    #[inline]
    pub(crate) fn candidate<V: Vector, R: Region<V> + ?Sized>(
        &mut self,
        budget: &QueryBudget,
        region: &R,
        aabb: &Aabb<V>,
        report: impl FnOnce() -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if !self.test(budget) {
            return ControlFlow::Break(());
        }
        if region.hits(aabb) {
            self.hits += 1;
            report()?;
        }
        ControlFlow::Continue(())
    }
}

/// Runs `query` with a visitor that collects every handle; returns them
/// sorted, with the query's statistics.
pub(crate) fn collect_sorted(
    query: impl FnOnce(&mut dyn FnMut(Handle) -> ControlFlow<()>) -> QueryStats,
) -> (Vec<Handle>, QueryStats) {
    let mut out = Vec::new();
    let stats = query(&mut |h| {
        out.push(h);
        ControlFlow::Continue(())
    });
    out.sort_unstable();
    (out, stats)
}

/// Runs a ray `query` with a visitor that collects every hit, in the order
/// given (by entry `t`, then handle).
pub(crate) fn collect_hits(
    query: impl FnOnce(&mut dyn FnMut(RayHit) -> ControlFlow<()>) -> QueryStats,
) -> Vec<RayHit> {
    let mut out = Vec::new();
    query(&mut |hit| {
        out.push(hit);
        ControlFlow::Continue(())
    });
    out
}

/// A region query without pruning: every object gets the exact test, in
/// the order given, until `visit` breaks or the budget runs out.
pub(crate) fn test_each<'a, V: Vector>(
    objects: impl Iterator<Item = (Handle, &'a Aabb<V>)>,
    region: &dyn Region<V>,
    budget: QueryBudget,
    visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
) -> QueryStats {
    let mut stats = QueryStats::default();
    for (handle, aabb) in objects {
        if stats
            .candidate(&budget, region, aabb, || visit(handle))
            .is_break()
        {
            break;
        }
    }
    stats
}

/// The ray query of a structure without an ordered walk: collects every
/// object `query` (a region query with the ray) reports, with its entry `t`
/// from `aabb`, sorts them by `t` then handle, and gives them to `visit`
/// until it breaks.
pub(crate) fn sorted_ray_hits<V: Vector>(
    ray: &Ray<V>,
    aabb: impl Fn(Handle) -> Option<Aabb<V>>,
    query: impl FnOnce(&mut dyn FnMut(Handle) -> ControlFlow<()>) -> QueryStats,
    visit: &mut dyn FnMut(RayHit) -> ControlFlow<()>,
) -> QueryStats {
    // The hits gather in this thread's reused list, taken out while in use
    // (a query nested in `visit` starts a list of its own): no allocation
    // per query once warm.
    let mut hits = RAY_HITS.with(std::cell::Cell::take);
    hits.clear();
    let stats = query(&mut |handle| {
        let aabb = aabb(handle).expect("queries report live objects");
        let t = ray.entry(&aabb).expect("the region hit it");
        hits.push(RayHit { handle, t });
        ControlFlow::Continue(())
    });
    hits.sort_unstable_by(|a, b| a.t.total_cmp(&b.t).then(a.handle.cmp(&b.handle)));
    for &hit in &hits {
        if visit(hit).is_break() {
            break;
        }
    }
    hits.clear();
    RAY_HITS.with(|list| list.set(hits));
    stats
}

thread_local! {
    /// Each thread's list for sorting ray hits.
    static RAY_HITS: std::cell::Cell<Vec<RayHit>> = const { std::cell::Cell::new(Vec::new()) };
}

/// The contract's `query_aabb` and `query_region` for a structure with a
/// method `search(&self, region, &budget, &mut stats, visit)` generic over
/// the region (so box queries are not dynamic calls).
macro_rules! queries_by_search {
    () => {
        fn query_aabb(
            &self,
            aabb: &Aabb<V>,
            visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
        ) -> ControlFlow<()> {
            let mut stats = QueryStats::default();
            self.search(aabb, &QueryBudget::default(), &mut stats, visit)
        }

        fn query_region(
            &self,
            region: &dyn Region<V>,
            budget: QueryBudget,
            visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
        ) -> QueryStats {
            let mut stats = QueryStats::default();
            let _ = self.search(region, &budget, &mut stats, visit);
            stats
        }
    };
}
pub(crate) use queries_by_search;

/// One object a ray hits, and where it enters it.
///
/// ```
/// use collide::{Aabb2, BroadPhase, Brute, geometry::Ray, Query};
/// use glam::Vec2;
/// let mut world: Brute<Vec2> = Brute::new();
/// let far = world.insert(Aabb2::new(Vec2::new(8.0, -1.0), Vec2::new(9.0, 1.0))?, ())?;
/// let near = world.insert(Aabb2::new(Vec2::new(3.0, -1.0), Vec2::new(4.0, 1.0))?, ())?;
/// let ray = Ray::new(Vec2::ZERO, Vec2::X, 100.0)?;
/// let hits = world.query_ray_all(&ray);
/// assert_eq!(hits.iter().map(|h| (h.handle, h.t)).collect::<Vec<_>>(),
///            vec![(near, 3.0), (far, 8.0)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// The object.
    pub handle: Handle,
    /// Where the ray enters its box, in lengths of the ray's direction
    /// (0 when it starts inside).
    pub t: f32,
}
