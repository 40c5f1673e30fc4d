//! Helpers shared by the integration tests: an independent, obviously
//! correct oracle over the caller's ids, and checks of a structure against
//! brute force after every operation.

#![allow(dead_code)]

use collide::{Aabb, Query, Vector};
use collide_scenes::{IdEvent, Record};
use std::collections::{BTreeMap, BTreeSet};

/// The simplest possible model: a map of id to box, all pairs every frame,
/// events as set differences. Shares no code with the library's structures.
#[derive(Default)]
pub struct Model<V: Vector> {
    pub boxes: BTreeMap<u64, Aabb<V>>,
    pub pairs: BTreeSet<(u64, u64)>,
}

impl<V: Vector> Model<V> {
    pub fn frame(&mut self, records: &[Record<V>]) -> Vec<IdEvent> {
        for r in records {
            match *r {
                Record::Upsert { id, aabb } => {
                    self.boxes.insert(id, aabb);
                }
                Record::Remove { id } => {
                    self.boxes
                        .remove(&id)
                        .expect("model: remove of a present id");
                }
            }
        }
        let items: Vec<_> = self.boxes.iter().collect();
        let mut now = BTreeSet::new();
        for (i, (a, ba)) in items.iter().enumerate() {
            for (b, bb) in &items[i + 1..] {
                let overlap = (0..V::DIM).all(|k| {
                    ba.min().axis(k) < bb.max().axis(k) && bb.min().axis(k) < ba.max().axis(k)
                });
                if overlap {
                    now.insert((**a, **b));
                }
            }
        }
        let mut events: Vec<IdEvent> = now
            .difference(&self.pairs)
            .map(|&(a, b)| IdEvent {
                a,
                b,
                started: true,
            })
            .chain(self.pairs.difference(&now).map(|&(a, b)| IdEvent {
                a,
                b,
                started: false,
            }))
            .collect();
        events.sort();
        self.pairs = now;
        events
    }
}

/// Runs `frames` through `structure` beside brute force, record by record,
/// calling `check` (an invariant checker, or nothing) after every record
/// and every step; panics at the first divergence or broken invariant.
pub fn verify_each<V: Vector, S: collide::BroadPhase<V, u64>>(
    structure: S,
    frames: &[Vec<Record<V>>],
    what: &str,
    check: impl Fn(&S) -> Result<(), String>,
) -> S {
    let mut world = collide::Verified::new(structure).unwrap();
    let mut runner = collide_scenes::Runner::new();
    let mut events = Vec::new();
    for (f, records) in frames.iter().enumerate() {
        for record in records {
            runner
                .apply(&mut world, std::slice::from_ref(record))
                .unwrap();
            if let Err(e) = check(world.inner()) {
                panic!("{what}: frame {f}, after {record:?}: {e}");
            }
        }
        runner.step(&mut world, &mut events);
        if let Some(d) = world.last_divergence() {
            panic!("{what}: {d}");
        }
        check(world.inner()).unwrap_or_else(|e| panic!("{what}: frame {f}: {e}"));
    }
    world.into_inner()
}

/// Box probes spread over the shared scenes' worlds.
pub fn probes<V: Vector>() -> Vec<Aabb<V>> {
    (0..40)
        .map(|k| {
            let k = k as f32;
            let c = V::from_axes(|a| [k * 25.0, 1000.0 - k * 20.0, 300.0 + k * 7.0][a]);
            Aabb::from_center_half_extents(c, V::from_axes(|_| 8.0 + k * 3.0)).unwrap()
        })
        .collect()
}

/// Answers `probes` with `structure` and with brute force, between each
/// frame's updates and its step (changes pending) and after the step, and
/// compares them (as scene ids). Returns how many hits brute force found.
pub fn queries_match_brute<V: Vector, S: collide::BroadPhase<V, u64>>(
    structure: &mut S,
    frames: &[Vec<Record<V>>],
    probes: &[Aabb<V>],
    what: &str,
) -> usize {
    use collide::BroadPhase;
    let mut brute = collide::Brute::<V, u64>::new();
    let (mut rs, mut rb) = (collide_scenes::Runner::new(), collide_scenes::Runner::new());
    let mut events = Vec::new();
    let mut hits = 0;
    let ids = |hs: Vec<collide::Handle>, w: &dyn BroadPhase<V, u64>| {
        let mut v: Vec<u64> = hs.iter().map(|h| *w.value(*h).unwrap()).collect();
        v.sort();
        v
    };
    for (f, records) in frames.iter().enumerate() {
        rs.apply(structure, records).unwrap();
        rb.apply(&mut brute, records).unwrap();
        for pass in ["with changes pending", "after the step"] {
            for q in probes {
                let want = ids(brute.query_aabb_all(q), &brute);
                hits += want.len();
                assert_eq!(
                    ids(structure.query_aabb_all(q), structure),
                    want,
                    "{what}: frame {f}, {pass}"
                );
            }
            if pass == "with changes pending" {
                rs.step(structure, &mut events);
                rb.step(&mut brute, &mut events);
            }
        }
    }
    hits
}
