//! The Rust peers, each behind [`Contender`](crate::contender::Contender),
//! and the id bookkeeping they share. Every peer keeps its own map from
//! scene ids to its own indices; that upkeep is part of its timed frame, as
//! the [`Runner`](collide_scenes::Runner)'s is for ours. Both use the same
//! [`IdMap`], so the comparison measures the structures, not the maps.

pub mod broccoli;
pub mod bvh_crate;
pub mod events;
pub mod flat_spatial;
pub mod parry;
pub mod rapier;
pub mod rstar;

use crate::contender::filter_candidates;
use collide::{Aabb, Vector};
use collide_scenes::IdMap;
use collide_scenes::Record;

/// Live objects in dense arrays (index `i` holds `ids[i]` and `boxes[i]`);
/// a removal swap-removes. For peers that rebuild from scratch every frame.
#[derive(Debug, Default)]
pub struct Dense<V: Vector> {
    pub ids: Vec<u64>,
    pub boxes: Vec<Aabb<V>>,
    index: IdMap<u32>,
}

impl<V: Vector> Dense<V> {
    pub fn apply(&mut self, records: &[Record<V>]) {
        for record in records {
            match *record {
                Record::Upsert { id, aabb } => match self.index.get(id) {
                    Some(&i) => self.boxes[i as usize] = aabb,
                    None => {
                        self.index.insert(id, self.ids.len() as u32);
                        self.ids.push(id);
                        self.boxes.push(aabb);
                    }
                },
                Record::Remove { id } => {
                    let i = self.index.remove(id).expect("removed id is present") as usize;
                    self.ids.swap_remove(i);
                    self.boxes.swap_remove(i);
                    if i < self.ids.len() {
                        self.index.insert(self.ids[i], i as u32);
                    }
                }
            }
        }
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    /// [`filter_candidates`] over these objects.
    pub fn exact_pairs(
        &self,
        candidates: &[(u32, u32)],
        out: &mut Vec<(u64, u64)>,
        sorted: bool,
    ) -> u64 {
        filter_candidates(candidates, &self.ids, &self.boxes, out, sorted)
    }
}

/// Live objects at stable slots (reused LIFO after a removal). For peers
/// that keep their structure between frames and need a stable index.
#[derive(Debug, Default)]
pub struct Slots<V: Vector> {
    pub ids: Vec<u64>,
    pub boxes: Vec<Aabb<V>>,
    pub live: Vec<bool>,
    free: Vec<u32>,
    index: IdMap<u32>,
}

/// What [`Slots::upsert`] did.
pub enum Upserted {
    Moved(u32),
    Inserted(u32),
}

impl<V: Vector> Slots<V> {
    pub fn upsert(&mut self, id: u64, aabb: Aabb<V>) -> Upserted {
        if let Some(&slot) = self.index.get(id) {
            self.boxes[slot as usize] = aabb;
            return Upserted::Moved(slot);
        }
        let slot = match self.free.pop() {
            Some(slot) => {
                let s = slot as usize;
                self.ids[s] = id;
                self.boxes[s] = aabb;
                self.live[s] = true;
                slot
            }
            None => {
                self.ids.push(id);
                self.boxes.push(aabb);
                self.live.push(true);
                (self.ids.len() - 1) as u32
            }
        };
        self.index.insert(id, slot);
        Upserted::Inserted(slot)
    }

    /// Frees `id`'s slot and returns it.
    pub fn remove(&mut self, id: u64) -> u32 {
        let slot = self.index.remove(id).expect("removed id is present");
        self.live[slot as usize] = false;
        self.free.push(slot);
        slot
    }

    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }
}
