//! rapier's broad phase (`rapier2d` / `rapier3d`'s `BroadPhaseBvh`) driven
//! alone, as `rapier` in the tables. Every object is a parentless cuboid
//! collider (so no rigid bodies). A new object's collider is inserted and
//! named to `update` as modified; a moved object's leaf is given its new
//! box with `BroadPhaseBvh::set_aabb`, the public way to move a leaf
//! without a physics pipeline (through `update` a collider counts as
//! re-parented on every call: its change flags, set at its creation, are
//! cleared only by rapier's pipelines, and `update` then removes and
//! re-inserts its leaf). The box given is the object's, loosened by half
//! the prediction distance, as rapier's pipeline computes it for a
//! parentless collider. Each frame `update` gets the colliders inserted
//! and removed, and the collider set's own lists of them are drained, as
//! a pipeline does.
//!
//! rapier's broad phase reports when the fattened leaves of two colliders
//! start and stop overlapping (its `AddPair` / `DeletePair` events); a
//! physics pipeline hands those pairs to its narrow phase. To produce what
//! our structures produce, the contender keeps that pair set (with each
//! collider's partners, since a removed collider's pairs end without an
//! event) and, inside the timed frame, keeps the pairs whose boxes touch.
//!
//! Settings: rapier's defaults (length unit 1, its prediction distance and
//! change-detection margins), with every collision type active (two
//! parentless colliders count as fixed, and fixed-fixed pairs are off by
//! default) and rapier's `parallel` feature off, like every timed run here.

macro_rules! rapier_peer {
    ($module:ident, $rapier:ident, $vec:ty, $($axis:ident),+) => {
        pub mod $module {
            use crate::contender::{Contender, filter_candidates};
            use collide::Aabb;
            use collide_scenes::{IdMap, Record};
            use $rapier::dynamics::{
                IntegrationParameters, IslandManager, RigidBodySet, SoftBodySet,
            };
            use $rapier::geometry::{
                Aabb as RapierAabb, ActiveCollisionTypes, BroadPhaseBvh, BroadPhasePairEvent,
                ColliderBuilder, ColliderHandle, ColliderSet, SharedShape,
            };
            use $rapier::math::Vector as RapierVector;
            use rustc_hash::FxHashSet;

            /// The collider's slot: its index in rapier's arena.
            fn slot(handle: ColliderHandle) -> u32 {
                handle.into_raw_parts().0
            }

            /// The pair of two slots, lower first.
            fn ordered(a: u32, b: u32) -> (u32, u32) {
                (a.min(b), a.max(b))
            }

            /// The cuboid of a box: centre and half extents.
            fn cuboid(aabb: &Aabb<$vec>) -> (RapierVector, SharedShape) {
                let (centre, half) = ((aabb.min() + aabb.max()) * 0.5, (aabb.max() - aabb.min()) * 0.5);
                (RapierVector::new($(centre.$axis),+), SharedShape::cuboid($(half.$axis),+))
            }

            pub struct Rapier {
                params: IntegrationParameters,
                colliders: ColliderSet,
                bodies: RigidBodySet,
                islands: IslandManager,
                soft_bodies: SoftBodySet,
                broad_phase: BroadPhaseBvh,
                handles: IdMap<ColliderHandle>,
                /// Per slot: the scene id and exact box of the collider there.
                ids: Vec<u64>,
                boxes: Vec<Aabb<$vec>>,
                /// The broad phase's pairs (slots, lower first), and each
                /// slot's partners in them.
                pairs: FxHashSet<(u32, u32)>,
                partners: Vec<Vec<u32>>,
                /// This frame's new colliders, and removed ones.
                inserted: Vec<ColliderHandle>,
                removed: Vec<ColliderHandle>,
                events: Vec<BroadPhasePairEvent>,
                /// The last frame's pairs whose boxes overlap.
                candidates: Vec<(u32, u32)>,
            }

            impl Rapier {
                pub const NAME: &'static str = "rapier";

                pub fn new() -> Self {
                    Self {
                        params: IntegrationParameters::default(),
                        colliders: ColliderSet::new(),
                        bodies: RigidBodySet::new(),
                        islands: IslandManager::new(),
                        soft_bodies: SoftBodySet::new(),
                        broad_phase: BroadPhaseBvh::new(),
                        handles: IdMap::default(),
                        ids: Vec::new(),
                        boxes: Vec::new(),
                        pairs: FxHashSet::default(),
                        partners: Vec::new(),
                        inserted: Vec::new(),
                        removed: Vec::new(),
                        events: Vec::new(),
                        candidates: Vec::new(),
                    }
                }

                fn upsert(&mut self, id: u64, aabb: Aabb<$vec>) {
                    let handle = match self.handles.get(id) {
                        Some(&handle) => {
                            // Half the prediction distance each side, as
                            // `Collider::compute_broad_phase_aabb` does.
                            let margin = self.params.prediction_distance() / 2.0;
                            let (lo, hi) = (aabb.min(), aabb.max());
                            let leaf = RapierAabb::new(
                                RapierVector::new($(lo.$axis - margin),+),
                                RapierVector::new($(hi.$axis + margin),+),
                            );
                            self.broad_phase.set_aabb(&self.params, handle, leaf);
                            handle
                        }
                        None => {
                            let (centre, shape) = cuboid(&aabb);
                            let collider = ColliderBuilder::new(shape)
                                .translation(centre)
                                .active_collision_types(ActiveCollisionTypes::all())
                                .build();
                            let handle = self.colliders.insert(collider);
                            self.handles.insert(id, handle);
                            self.inserted.push(handle);
                            handle
                        }
                    };
                    let s = slot(handle) as usize;
                    if self.ids.len() <= s {
                        self.ids.resize(s + 1, 0);
                        self.boxes.resize(s + 1, aabb);
                        self.partners.resize_with(s + 1, Vec::new);
                    }
                    self.ids[s] = id;
                    self.boxes[s] = aabb;
                }

                fn remove(&mut self, id: u64) {
                    let handle = self.handles.remove(id).expect("removed id is present");
                    self.colliders.remove(
                        handle,
                        &mut self.islands,
                        &mut self.bodies,
                        &mut self.soft_bodies,
                        false,
                    );
                    self.removed.push(handle);
                    // Its pairs end without an event from the broad phase.
                    let s = slot(handle);
                    let partners = std::mem::take(&mut self.partners[s as usize]);
                    for &other in &partners {
                        self.pairs.remove(&ordered(s, other));
                        self.partners[other as usize].retain(|&p| p != s);
                    }
                    self.partners[s as usize] = partners;
                    self.partners[s as usize].clear();
                }
            }

            impl Contender<$vec> for Rapier {
                fn name(&self) -> &str {
                    Self::NAME
                }

                fn frame(&mut self, records: &[Record<$vec>]) {
                    self.inserted.clear();
                    self.removed.clear();
                    for record in records {
                        match *record {
                            Record::Upsert { id, aabb } => self.upsert(id, aabb),
                            Record::Remove { id } => self.remove(id),
                        }
                    }
                    // A collider inserted and removed in one frame is only
                    // removed.
                    let colliders = &self.colliders;
                    self.inserted.retain(|&h| colliders.contains(h));
                    // The set's own lists, which a pipeline drains each step.
                    drop(self.colliders.take_modified());
                    drop(self.colliders.take_removed());
                    self.events.clear();
                    self.broad_phase.update(
                        &self.params,
                        &self.colliders,
                        &self.bodies,
                        &self.inserted,
                        &self.removed,
                        &mut self.events,
                    );
                    for event in &self.events {
                        match event {
                            BroadPhasePairEvent::AddPair(pair) => {
                                let (a, b) = (slot(pair.collider1), slot(pair.collider2));
                                if self.pairs.insert(ordered(a, b)) {
                                    self.partners[a as usize].push(b);
                                    self.partners[b as usize].push(a);
                                }
                            }
                            BroadPhasePairEvent::DeletePair(pair) => {
                                let (a, b) = (slot(pair.collider1), slot(pair.collider2));
                                if self.pairs.remove(&ordered(a, b)) {
                                    self.partners[a as usize].retain(|&p| p != b);
                                    self.partners[b as usize].retain(|&p| p != a);
                                }
                            }
                        }
                    }
                    // The box test, as a narrow phase would start: closed
                    // boxes, like the other peers' candidates (the untimed
                    // `pairs_by_id` applies collide's strict rule to all).
                    self.candidates.clear();
                    let boxes = &self.boxes;
                    let touch = |a: &Aabb<$vec>, b: &Aabb<$vec>| {
                        let (a_lo, a_hi, b_lo, b_hi) = (a.min(), a.max(), b.min(), b.max());
                        true $(&& a_lo.$axis <= b_hi.$axis && b_lo.$axis <= a_hi.$axis)+
                    };
                    self.candidates.extend(
                        self.pairs
                            .iter()
                            .copied()
                            .filter(|&(a, b)| touch(&boxes[a as usize], &boxes[b as usize])),
                    );
                }

                fn exact_pairs(&self, out: &mut Vec<(u64, u64)>, sorted: bool) -> u64 {
                    filter_candidates(&self.candidates, &self.ids, &self.boxes, out, sorted)
                }
            }
        }
    };
}

rapier_peer!(dim2, rapier2d, glam::Vec2, x, y);
rapier_peer!(dim3, rapier3d, glam::Vec3, x, y, z);
