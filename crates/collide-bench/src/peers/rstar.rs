//! `rstar` (2D and 3D): the R*-tree is bulk-loaded from every live box each
//! frame (`RTree::bulk_load`), then each object's box is queried with
//! `locate_in_envelope_intersecting_int` (the visitor form of
//! `locate_in_envelope_intersecting`), keeping the pairs whose other index
//! is higher.

use super::Dense;
use crate::contender::Contender;
use collide::{Aabb, Vector};
use collide_scenes::Record;
use rstar::{AABB, RTree, RTreeObject};
use std::ops::ControlFlow;

/// A box in the tree: its envelope and its index in the caller's arrays.
#[derive(Clone, Copy, Debug)]
pub struct Item<const D: usize> {
    pub envelope: AABB<[f32; D]>,
    pub index: u32,
}

impl<const D: usize> RTreeObject for Item<D> {
    type Envelope = AABB<[f32; D]>;
    #[inline]
    fn envelope(&self) -> Self::Envelope {
        self.envelope
    }
}

/// rstar's envelope of a box.
#[inline]
pub fn envelope<V: Vector, const D: usize>(aabb: &Aabb<V>) -> AABB<[f32; D]> {
    let (lo, hi) = (aabb.min(), aabb.max());
    AABB::from_corners(
        std::array::from_fn(|i| lo.axis(i)),
        std::array::from_fn(|i| hi.axis(i)),
    )
}

/// `D` must equal `V::DIM`.
pub struct Rstar<V: Vector, const D: usize> {
    dense: Dense<V>,
    tree: RTree<Item<D>>,
    candidates: Vec<(u32, u32)>,
}

impl<V: Vector, const D: usize> Rstar<V, D> {
    pub const NAME: &'static str = "rstar";

    pub fn new() -> Self {
        assert_eq!(V::DIM, D, "rstar's point dimension must match the scene's");
        Self {
            dense: Dense::default(),
            tree: RTree::new(),
            candidates: Vec::new(),
        }
    }
}

impl<V: Vector, const D: usize> Contender<V> for Rstar<V, D> {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn frame(&mut self, records: &[Record<V>]) {
        self.dense.apply(records);
        let mut items = Vec::with_capacity(self.dense.len());
        items.extend(self.dense.boxes.iter().enumerate().map(|(i, aabb)| Item {
            envelope: envelope::<V, D>(aabb),
            index: i as u32,
        }));
        self.tree = RTree::bulk_load(items);
        self.candidates.clear();
        let candidates = &mut self.candidates;
        for (i, aabb) in self.dense.boxes.iter().enumerate() {
            let i = i as u32;
            let _ =
                self.tree
                    .locate_in_envelope_intersecting_int(envelope::<V, D>(aabb), |other| {
                        if other.index > i {
                            candidates.push((i, other.index));
                        }
                        ControlFlow::<()>::Continue(())
                    });
        }
    }

    fn exact_pairs(&self, out: &mut Vec<(u64, u64)>, sorted: bool) -> u64 {
        self.dense.exact_pairs(&self.candidates, out, sorted)
    }
}
