//! The structure `Auto` runs, as an enum of our structure types
//! ([`Running`]) rather than a boxed trait object: a move reaches the
//! structure through a match the compiler sees through, and with no switch
//! under way `Auto::update` is a test and a jump into it (the switch's
//! doubled move is out of line, `Auto::update_migrating`). Inline, it cost
//! every move a stack frame and a copied `Result`, and moves through `Auto`
//! were clearly slower than in the structure alone; out of line they cost
//! about the same (figures: BENCHMARKS.md).

use crate::broad::Query;
use crate::broad::brute::Brute;
use crate::broad::bvh::Bvh;
use crate::broad::contract::{BroadPhase, StepStats};
use crate::broad::events::{FrameEvents, Pair};
use crate::broad::grid::Grid;
use crate::broad::hosted::{Hosted, HostedArena, OneLevelCells};
use crate::broad::query::{QueryBudget, QueryStats, RayHit};
use crate::broad::sap::{BandSap, Sap};
use crate::broad::snapshot::Snapshot;
use crate::broad::tree::Tree;
use crate::error::Error;
use crate::geometry::{Aabb, Ray, Region, Vector};
use crate::handle::Handle;
use std::ops::ControlFlow;
use std::sync::Arc;

/// One of our structures, holding its objects under `Auto`'s handles
/// (a type may cover several kinds: `grid`, `hashgrid` and `hgrid`;
/// `tree` and `loose`).
// One per `Auto`, never in a collection: its size costs nothing, and a box
// would add an indirection to every call.
#[allow(clippy::large_enum_variant)]
pub(super) enum Running<V: Vector> {
    Brute(Brute<V>),
    Sap(Sap<V>),
    BandSap(BandSap<V>),
    Grid(Grid<V>),
    Tree(Tree<V>),
    Bvh(Bvh<V>),
}

/// `$body` with `$s` bound to the structure inside `$running`, whichever
/// it is.
macro_rules! each {
    ($running:expr, $s:ident => $body:expr) => {
        match $running {
            Running::Brute($s) => $body,
            Running::Sap($s) => $body,
            Running::BandSap($s) => $body,
            Running::Grid($s) => $body,
            Running::Tree($s) => $body,
            Running::Bvh($s) => $body,
        }
    };
}

impl<V: Vector> Query<V> for Running<V> {
    fn name(&self) -> &str {
        each!(self, s => s.name())
    }
    fn len(&self) -> usize {
        each!(self, s => s.len())
    }
    #[inline]
    fn aabb(&self, handle: Handle) -> Option<Aabb<V>> {
        each!(self, s => s.aabb(handle))
    }
    fn query_aabb(
        &self,
        aabb: &Aabb<V>,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        each!(self, s => s.query_aabb(aabb, visit))
    }
    fn query_region(
        &self,
        region: &dyn Region<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> QueryStats {
        each!(self, s => s.query_region(region, budget, visit))
    }
    fn query_ray(
        &self,
        ray: &Ray<V>,
        budget: QueryBudget,
        visit: &mut dyn FnMut(RayHit) -> ControlFlow<()>,
    ) -> QueryStats {
        each!(self, s => s.query_ray(ray, budget, visit))
    }
    fn query_ray_first(
        &self,
        ray: &Ray<V>,
        exact: &mut dyn FnMut(Handle, f32) -> Option<f32>,
    ) -> Option<(f32, Handle)> {
        each!(self, s => s.query_ray_first(ray, exact))
    }
}

impl<V: Vector> BroadPhase<V, ()> for Running<V> {
    fn insert(&mut self, aabb: Aabb<V>, value: ()) -> Result<Handle, Error> {
        each!(self, s => s.insert(aabb, value))
    }
    #[inline]
    fn update(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<(), Error> {
        each!(self, s => s.update(handle, aabb))
    }
    #[inline]
    fn update_many(&mut self, handles: &[Handle], boxes: &[Aabb<V>]) -> Result<(), Error> {
        each!(self, s => s.update_many(handles, boxes))
    }
    fn remove(&mut self, handle: Handle) -> Result<(), Error> {
        each!(self, s => s.remove(handle))
    }
    fn step(&mut self) -> Arc<FrameEvents> {
        each!(self, s => s.step())
    }
    fn events(&self) -> &FrameEvents {
        each!(self, s => s.events())
    }
    fn pairs(&self) -> &[Pair] {
        each!(self, s => s.pairs())
    }
    fn stats(&self) -> StepStats {
        each!(self, s => s.stats())
    }
    fn value(&self, handle: Handle) -> Option<&()> {
        each!(self, s => s.value(handle))
    }
    fn value_mut(&mut self, handle: Handle) -> Option<&mut ()> {
        each!(self, s => s.value_mut(handle))
    }
    fn for_each_object(
        &self,
        visit: &mut dyn FnMut(Handle, Aabb<V>, &()) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        each!(self, s => s.for_each_object(visit))
    }
    fn snapshot(&self) -> Snapshot<V> {
        each!(self, s => s.snapshot())
    }
}

impl<V: Vector> Hosted<V> for Running<V> {
    fn arena(&mut self) -> &mut dyn HostedArena {
        each!(self, s => s.arena())
    }

    fn one_level_cells(&self) -> Option<OneLevelCells<V>> {
        each!(self, s => s.one_level_cells())
    }

    fn insert_at(&mut self, handle: Handle, aabb: Aabb<V>) -> Result<(), Error> {
        each!(self, s => s.insert_at(handle, aabb))
    }
}
