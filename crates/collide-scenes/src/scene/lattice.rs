//! Adversarial scenes on an integer lattice: boxes with integer corners in
//! a small grid, so ties, touching, identical and zero-size boxes are
//! common. Every structure's tests run them beside the shared scenes.

use super::{Record, SceneRng};
use collide::{Aabb, Vector};

/// A churning scene on an integer lattice: boxes with integer corners in a
/// small grid, so ties, touching, identical and zero-size boxes are common;
/// each frame moves, teleports, removes and inserts. `offset` and `scale`
/// move the lattice (negative and huge coordinates).
pub fn lattice_scene<V: Vector>(
    seed: u64,
    frames: usize,
    offset: f32,
    scale: f32,
) -> Vec<Vec<Record<V>>> {
    let mut rng = SceneRng::new(seed);
    let mut present: Vec<u64> = Vec::new();
    let mut next_id = 0u64;
    let mut out = Vec::new();
    let lattice_box = |rng: &mut SceneRng| {
        let min = V::from_axes(|_| rng.below(8) as f32);
        let size = V::from_axes(|_| rng.below(3) as f32); // 0, 1 or 2: zero-size too
        Aabb::new(
            V::from_axes(|i| offset + scale * min.axis(i)),
            V::from_axes(|i| offset + scale * (min.axis(i) + size.axis(i))),
        )
        .expect("lattice boxes are valid")
    };
    for frame in 0..frames {
        let mut records = Vec::new();
        let mut named = std::collections::BTreeSet::new();
        let inserts = if frame == 0 { 24 } else { rng.below(4) };
        // Remove a few.
        for _ in 0..rng.below(4) {
            if present.is_empty() {
                break;
            }
            let id = present.swap_remove(rng.below(present.len()));
            named.insert(id);
            records.push(Record::Remove { id });
        }
        // Move some, including identical re-sends of the same box.
        for &id in &present {
            if rng.below(3) == 0 && named.insert(id) {
                records.push(Record::Upsert {
                    id,
                    aabb: lattice_box(&mut rng),
                });
            }
        }
        for _ in 0..inserts {
            let id = next_id;
            next_id += 1;
            present.push(id);
            records.push(Record::Upsert {
                id,
                aabb: lattice_box(&mut rng),
            });
        }
        out.push(records);
    }
    out
}
