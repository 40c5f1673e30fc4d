//! The parts of [`SweepBase`](super::base::SweepBase), each by what it
//! serves: the objects and their proxies (with what changed on them since
//! the last step), the sorted key arrays and the spanning list, the
//! measurements the step makes and reports, and the step's working lists.

use super::base::{ALIVE, STALE, TOUCHED};
use super::config::SapStats;
use super::endpoints::MAX_PROXIES;
use super::spanners::{SlotKeyLists, SpannerIndex};
use crate::broad::contract::StepStats;
use crate::error::Error;
use crate::geometry::{Aabb, Vector};
use crate::handle::{Handle, HandleError, Slots};

/// The objects, one proxy each (box, handle, status bits), and what
/// changed on them since the last step.
#[derive(Debug)]
pub(super) struct Proxies<V: Vector, T> {
    pub(super) objects: Slots<T>,
    /// Slot index to proxy.
    pub(super) proxy_of: Vec<u32>,
    /// Per proxy: box, handle, status.
    pub(super) boxes: Vec<Aabb<V>>,
    pub(super) handle_of: Vec<Handle>,
    pub(super) status: Vec<u16>,
    /// Proxies free for reuse; a removed object's proxy is freed at the end
    /// of the next step, so a slot reused before the step never mixes the
    /// old object's endpoints and pairs with the new one's.
    pub(super) free: Vec<u32>,
    /// Proxies inserted, removed, jumped or changing list since the last
    /// step (marked [`TOUCHED`]).
    pub(super) touched: Vec<u32>,
    /// Proxies in the sorted arrays whose box changed since the last step,
    /// once each (marked [`STALE`]).
    pub(super) stale: Vec<u32>,
    /// Per entry of `stale`, the proxy's box at the last step (kept while
    /// there are spanners; see `spanner_moves.rs`).
    pub(super) stale_boxes: Vec<Aabb<V>>,
    /// True when an object changed since the last step: queries trust the
    /// sorted arrays only for the objects not `touched` nor `stale`, and
    /// test those directly.
    pub(super) dirty: bool,
}

impl<V: Vector, T> Proxies<V, T> {
    pub(super) fn new(objects: Slots<T>) -> Self {
        Self {
            objects,
            proxy_of: Vec::new(),
            boxes: Vec::new(),
            handle_of: Vec::new(),
            status: Vec::new(),
            free: Vec::new(),
            touched: Vec::new(),
            stale: Vec::new(),
            stale_boxes: Vec::new(),
            dirty: false,
        }
    }

    /// The same proxies over `objects` (a snapshot's frozen arena), free
    /// list left out.
    pub(super) fn frozen<U>(&self, objects: Slots<U>) -> Proxies<V, U> {
        Proxies {
            objects,
            proxy_of: self.proxy_of.clone(),
            boxes: self.boxes.clone(),
            handle_of: self.handle_of.clone(),
            status: self.status.clone(),
            free: Vec::new(),
            touched: self.touched.clone(),
            stale: self.stale.clone(),
            stale_boxes: Vec::new(),
            dirty: self.dirty,
        }
    }

    /// Lists `p` among the touched (once) and sets `bits` on it.
    pub(super) fn touch(&mut self, p: u32, bits: u16) {
        let status = &mut self.status[p as usize];
        if *status & TOUCHED == 0 {
            self.touched.push(p);
        }
        *status |= TOUCHED | bits;
    }

    /// A proxy for `handle` with `aabb`: a freed one, or a new one.
    pub(super) fn allocate(&mut self, aabb: Aabb<V>, handle: Handle) -> Result<u32, Error> {
        if let Some(p) = self.free.pop() {
            let i = p as usize;
            self.boxes[i] = aabb;
            self.handle_of[i] = handle;
            self.status[i] = ALIVE;
            return Ok(p);
        }
        let p = self.boxes.len() as u32;
        if p >= MAX_PROXIES {
            return Err(HandleError::Full.into());
        }
        self.boxes.push(aabb);
        self.handle_of.push(handle);
        self.status.push(ALIVE);
        Ok(p)
    }

    /// Whether `p` holds a live object.
    pub(super) fn live(&self, p: u32) -> bool {
        self.status[p as usize] & ALIVE != 0
    }

    /// Whether the sorted arrays (or the spanning list) hold the proxy `p`
    /// as it is: alive and unchanged since the last step.
    pub(super) fn keyed(&self, p: u32) -> bool {
        self.status[p as usize] & (ALIVE | TOUCHED | STALE) == ALIVE
    }
}

/// The sorted key arrays and the world-spanning list.
#[derive(Debug, Default)]
pub(super) struct SortedKeys {
    /// Sorted keys, one array per axis of endpoints
    /// ([`Sap`](super::Sap)) or one per band of mins on the sweep axis
    /// ([`BandSap`](super::BandSap), see `one_axis.rs`).
    pub(super) arrays: Vec<Vec<u64>>,
    /// True once the arrays have been sorted from scratch.
    pub(super) built: bool,
    /// Proxies in the world-spanning list.
    pub(super) spanners: Vec<u32>,
    /// The spanners grouped and sorted for the pair search.
    pub(super) spanner_index: SpannerIndex,
    /// A spanner moved, entered or left the list since the last step.
    pub(super) spanners_changed: bool,
    /// The last step's pairs hold its spanners' pairs and the index its
    /// spanners as they still are, unless `spanners_changed`: a step may
    /// find the spanners' pair changes from the moves alone.
    pub(super) spanner_pairs_kept: bool,
}

impl SortedKeys {
    /// `arrays` empty arrays, not yet built.
    pub(super) fn new(arrays: usize) -> Self {
        Self {
            arrays: vec![Vec::new(); arrays],
            ..Self::default()
        }
    }

    /// The arrays and the spanning list as they are, for a snapshot.
    pub(super) fn frozen(&self) -> Self {
        Self {
            arrays: self.arrays.clone(),
            built: self.built,
            spanners: self.spanners.clone(),
            spanner_index: SpannerIndex::default(),
            spanners_changed: true,
            spanner_pairs_kept: false,
        }
    }
}

/// What the step measures and decides by (the sweep axis, the spanning
/// threshold, the jump distance, when to re-sort) and reports.
#[derive(Debug, Default)]
pub(super) struct Measures {
    pub(super) sweep_axis: usize,
    /// Largest extent an object in the arrays may have (infinite: no
    /// separate list).
    pub(super) span_extent: f32,
    /// A move of the centre beyond this (plus the object's size) counts as
    /// a jump.
    pub(super) jump_distance: f32,
    /// Until this step, go straight to a re-sort (motion was incoherent).
    pub(super) incoherent_until: u64,
    /// Steps taken.
    pub(super) steps: u64,
    /// Jumps since the last step.
    pub(super) jumps: u64,
    pub(super) stats: StepStats,
    pub(super) sap_stats: SapStats,
}

impl Measures {
    /// Before the first step: the sweep axis given (or x), no spanning
    /// list, no jumps.
    pub(super) fn new(sweep_axis: usize) -> Self {
        Self {
            sweep_axis,
            span_extent: f32::INFINITY,
            jump_distance: f32::INFINITY,
            ..Self::default()
        }
    }

    /// What the queries read (the sweep axis and the spanning threshold),
    /// for a snapshot.
    pub(super) fn frozen(&self) -> Self {
        Self {
            sweep_axis: self.sweep_axis,
            span_extent: self.span_extent,
            ..Self::new(self.sweep_axis)
        }
    }
}

/// The step's working lists, kept from step to step so a warm step
/// allocates nothing.
#[derive(Debug, Default)]
pub(super) struct StepWork {
    pub(super) leaving: Vec<u32>,
    pub(super) entering: Vec<u32>,
    pub(super) dead: Vec<u32>,
    pub(super) fresh: Vec<u64>,
    pub(super) scratch: Vec<u64>,
    pub(super) keys: Vec<u64>,
    pub(super) extents: Vec<f32>,
    /// The spanners' pair search's lists.
    pub(super) spanner_lists: SlotKeyLists,
}
