//! `flat_spatial`'s `AABBGrid` (2D only), maintained incrementally: each
//! frame moves objects with `set_aabb` (0.6 applies moves eagerly; its
//! `AABBGrid` has no separate `maintain`), inserts and removes them, then
//! finds the pairs by querying each object's box (`query_visitor`).

use super::{Slots, Upserted};
use crate::contender::{Contender, filter_candidates};
use collide::Aabb;
use collide_scenes::Record;
use flat_spatial::AABBGrid;
use flat_spatial::aabbgrid::AABBGridHandle;
use glam::Vec2;

/// The grid's cell side in world units. Scene boxes are 5 to 20 units wide;
/// of 8, 16, 24, 32, 48, 64, 96, 128 and 192, 64 was (within noise) the
/// fastest on the uniform and flat 2D scenes at n = 10,000, slow and fast:
/// larger cells mean fewer multi-cell queries, each of which allocates a
/// de-duplication set inside `query_visitor`.
pub const CELL_SIZE: i32 = 64;

#[derive(Clone, Copy, Debug)]
struct FsBox {
    ll: [f32; 2],
    ur: [f32; 2],
}

impl flat_spatial::AABB for FsBox {
    type V2 = [f32; 2];
    #[inline]
    fn ll(&self) -> [f32; 2] {
        self.ll
    }
    #[inline]
    fn ur(&self) -> [f32; 2] {
        self.ur
    }
}

#[inline]
fn to_fs(aabb: &Aabb<Vec2>) -> FsBox {
    FsBox {
        ll: aabb.min().to_array(),
        ur: aabb.max().to_array(),
    }
}

pub struct FlatSpatial {
    grid: AABBGrid<u32, FsBox>,
    slots: Slots<Vec2>,
    handles: Vec<Option<AABBGridHandle>>,
    candidates: Vec<(u32, u32)>,
}

impl FlatSpatial {
    pub const NAME: &'static str = "flat_spatial";

    pub fn new() -> Self {
        Self {
            grid: AABBGrid::new(CELL_SIZE),
            slots: Slots::default(),
            handles: Vec::new(),
            candidates: Vec::new(),
        }
    }
}

impl Contender<Vec2> for FlatSpatial {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn frame(&mut self, records: &[Record<Vec2>]) {
        for record in records {
            match *record {
                Record::Upsert { id, aabb } => match self.slots.upsert(id, aabb) {
                    Upserted::Moved(slot) => {
                        let h = self.handles[slot as usize].expect("live slot has a handle");
                        self.grid.set_aabb(h, to_fs(&aabb));
                    }
                    Upserted::Inserted(slot) => {
                        let h = self.grid.insert(to_fs(&aabb), slot);
                        let s = slot as usize;
                        if s == self.handles.len() {
                            self.handles.push(Some(h));
                        } else {
                            self.handles[s] = Some(h);
                        }
                    }
                },
                Record::Remove { id } => {
                    let slot = self.slots.remove(id) as usize;
                    let h = self.handles[slot].take().expect("live slot has a handle");
                    self.grid.remove(h);
                }
            }
        }
        self.candidates.clear();
        let candidates = &mut self.candidates;
        for (slot, aabb) in self.slots.boxes.iter().enumerate() {
            if !self.slots.live[slot] {
                continue;
            }
            let slot = slot as u32;
            self.grid.query_visitor(to_fs(aabb), |_, _, &other| {
                if other > slot {
                    candidates.push((slot, other));
                }
            });
        }
    }

    fn exact_pairs(&self, out: &mut Vec<(u64, u64)>, sorted: bool) -> u64 {
        filter_candidates(
            &self.candidates,
            &self.slots.ids,
            &self.slots.boxes,
            out,
            sorted,
        )
    }
}
