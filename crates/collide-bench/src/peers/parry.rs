//! `parry2d` / `parry3d`'s `Bvh` (the same API in both crates), in two modes:
//!
//! - `parry-refit`: leaves are updated in place
//!   (`insert_or_update_partially`, no change-detection margin) or removed,
//!   then `refit` and `optimize_incremental` run once per frame;
//! - `parry-rebuild`: the same leaf updates, then a full binned rebuild
//!   (`rebuild(.., BvhBuildStrategy::Binned)`) every frame.
//!
//! Both start (frame 0, the build) with `Bvh::from_iter` over every box, and
//! find the pairs with the tree-against-itself traversal
//! `traverse_bvtt_single_tree::<false>` (the sequential, full-list form;
//! change detection would report only pairs of moved leaves).

/// Which per-frame upkeep a `Bvh` contender does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Refit,
    Rebuild,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Refit => "parry-refit",
            Mode::Rebuild => "parry-rebuild",
        }
    }
}

macro_rules! parry_bvh {
    ($module:ident, $parry:ident, $vec:ty, $($axis:ident),+) => {
        pub mod $module {
            use super::Mode;
            use crate::contender::{Contender, filter_candidates};
            use crate::peers::{Slots, Upserted};
            use collide::Aabb;
            use collide_scenes::Record;
            use $parry::bounding_volume::Aabb as ParryAabb;
            use $parry::math::Vector as ParryVector;
            use $parry::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};

            #[inline]
            fn to_parry(aabb: &Aabb<$vec>) -> ParryAabb {
                let (lo, hi) = (aabb.min(), aabb.max());
                ParryAabb::new(ParryVector::new($(lo.$axis),+), ParryVector::new($(hi.$axis),+))
            }

            pub struct ParryBvh {
                mode: Mode,
                slots: Slots<$vec>,
                bvh: Bvh,
                workspace: BvhWorkspace,
                candidates: Vec<(u32, u32)>,
            }

            impl ParryBvh {
                pub fn new(mode: Mode) -> Self {
                    Self {
                        mode,
                        slots: Slots::default(),
                        bvh: Bvh::new(),
                        workspace: BvhWorkspace::default(),
                        candidates: Vec::new(),
                    }
                }
            }

            impl Contender<$vec> for ParryBvh {
                fn name(&self) -> &str {
                    self.mode.name()
                }

                fn frame(&mut self, records: &[Record<$vec>]) {
                    if self.slots.is_empty() {
                        // The build: bulk-load every box at once.
                        for record in records {
                            match *record {
                                Record::Upsert { id, aabb } => {
                                    self.slots.upsert(id, aabb);
                                }
                                Record::Remove { id } => {
                                    self.slots.remove(id);
                                }
                            }
                        }
                        let slots = &self.slots;
                        self.bvh = Bvh::from_iter(
                            BvhBuildStrategy::Binned,
                            slots
                                .boxes
                                .iter()
                                .enumerate()
                                .filter(|&(slot, _)| slots.live[slot])
                                .map(|(slot, aabb)| (slot, to_parry(aabb))),
                        );
                    } else {
                        for record in records {
                            match *record {
                                Record::Upsert { id, aabb } => {
                                    let slot = match self.slots.upsert(id, aabb) {
                                        Upserted::Moved(slot) | Upserted::Inserted(slot) => slot,
                                    };
                                    self.bvh.insert_or_update_partially(to_parry(&aabb), slot, 0.0);
                                }
                                Record::Remove { id } => {
                                    let slot = self.slots.remove(id);
                                    self.bvh.remove(slot);
                                }
                            }
                        }
                        match self.mode {
                            Mode::Refit => {
                                self.bvh.refit(&mut self.workspace);
                                self.bvh.optimize_incremental(&mut self.workspace);
                            }
                            Mode::Rebuild => {
                                self.bvh.rebuild(&mut self.workspace, BvhBuildStrategy::Binned);
                            }
                        }
                    }
                    self.candidates.clear();
                    let candidates = &mut self.candidates;
                    self.bvh.traverse_bvtt_single_tree::<false>(
                        &mut self.workspace,
                        &mut |a, b| candidates.push((a, b)),
                    );
                }

                fn exact_pairs(&self, out: &mut Vec<(u64, u64)>, sorted: bool) -> u64 {
                    filter_candidates(&self.candidates, &self.slots.ids, &self.slots.boxes, out, sorted)
                }
            }
        }
    };
}

parry_bvh!(dim2, parry2d, glam::Vec2, x, y);
parry_bvh!(dim3, parry3d, glam::Vec3, x, y, z);
