//! Collision filters on every structure: the pairs, events and counts of a
//! `Filtered` structure equal brute force over the boxes under the filter
//! rule, on every frame of seeded scenes in which filters are set, changed,
//! cleared and set again.

use collide::{Aabb, BroadPhase, Filter, Filtered, FrameEvents, Handle, Pair, Structure, Vector};
use collide_scenes::{Motion, Record, Scene, SceneConfig, SceneKind, SceneRng};
use glam::{Vec2, Vec3};
use std::collections::BTreeMap;

/// Mostly layer-like filters over four groups, some open, a few closed.
fn random_filter(rng: &mut SceneRng) -> Filter {
    match rng.next_u64() % 10 {
        0..=2 => Filter::ALL,
        3 => Filter::NONE,
        _ => Filter::new(1 << (rng.next_u64() % 4), (rng.next_u64() % 16) as u32),
    }
}

/// Which filters the objects get in a stretch of frames.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Phase {
    /// Every object on `Filter::ALL`: the structure's own events.
    Open,
    /// New objects get seeded filters and some live ones change each frame.
    Layered,
    /// Every filter goes back to `Filter::ALL` at the phase's first frame.
    Cleared,
}

fn phase_of(frame: usize) -> Phase {
    match frame {
        0..6 => Phase::Open,
        6..18 => Phase::Layered,
        18..22 => Phase::Cleared,
        _ => Phase::Layered,
    }
}

/// Brute force: every pair of live objects whose boxes overlap and whose
/// filters allow each other, sorted.
fn expected_pairs<V: Vector>(live: &BTreeMap<Handle, (Aabb<V>, Filter)>) -> Vec<Pair> {
    let objects: Vec<_> = live.iter().collect();
    let mut pairs = Vec::new();
    for (i, (a, (box_a, filter_a))) in objects.iter().enumerate() {
        for (b, (box_b, filter_b)) in &objects[i + 1..] {
            let allowed =
                filter_a.groups & filter_b.mask != 0 && filter_b.groups & filter_a.mask != 0;
            if box_a.overlaps(box_b) && allowed {
                pairs.push(Pair::new(**a, **b));
            }
        }
    }
    pairs.sort_unstable();
    pairs
}

fn filtered_matches_brute_force<V: Vector>(
    structure: Structure,
    config: SceneConfig,
    frames: usize,
) {
    let mut world = Filtered::new(structure.build::<V, u64>());
    let mut scene = Scene::<V>::new(config);
    let mut rng = SceneRng::new(config.seed ^ 0x5eed);
    let (mut records, mut ids) = (Vec::new(), BTreeMap::<u64, Handle>::new());
    let mut live = BTreeMap::<Handle, (Aabb<V>, Filter)>::new();
    let mut previous = Vec::new();
    for frame in 0..frames {
        let phase = phase_of(frame);
        scene.next_frame(&mut records);
        for record in &records {
            match *record {
                Record::Upsert { id, aabb } => match ids.get(&id) {
                    Some(&h) => {
                        world.update(h, aabb).unwrap();
                        live.get_mut(&h).unwrap().0 = aabb;
                    }
                    None => {
                        let filter = match phase {
                            Phase::Layered => random_filter(&mut rng),
                            Phase::Open | Phase::Cleared => Filter::ALL,
                        };
                        let h = world.insert_filtered(aabb, id, filter).unwrap();
                        ids.insert(id, h);
                        live.insert(h, (aabb, filter));
                    }
                },
                Record::Remove { id } => {
                    let h = ids.remove(&id).unwrap();
                    assert_eq!(world.remove(h).unwrap(), id);
                    live.remove(&h);
                }
            }
        }
        let change_all =
            phase == Phase::Cleared && phase_of(frame.wrapping_sub(1)) != Phase::Cleared;
        for (&h, (_, filter)) in live.iter_mut() {
            let new = match phase {
                Phase::Layered if rng.next_u64().is_multiple_of(8) => random_filter(&mut rng),
                Phase::Cleared if change_all => Filter::ALL,
                _ => continue,
            };
            world.set_filter(h, new).unwrap();
            *filter = new;
        }
        let events = world.step();
        let pairs = expected_pairs(&live);
        let mut expected = FrameEvents::default();
        expected.set_difference(&previous, &pairs);
        let what = format!(
            "{structure}, {}D {config:?}, frame {frame} ({phase:?})",
            V::DIM
        );
        assert!(world.pairs() == pairs, "{what}: pairs differ");
        assert!(*events == expected, "{what}: step's events differ");
        assert!(*world.events() == expected, "{what}: events() differs");
        let stats = world.stats();
        assert_eq!(
            (stats.pairs, stats.started, stats.stopped),
            (pairs.len(), expected.started.len(), expected.stopped.len()),
            "{what}: counts"
        );
        for (&h, &(_, filter)) in &live {
            assert_eq!(world.filter(h), Some(filter), "{what}");
        }
        previous = pairs;
    }
}

#[test]
fn filtered_pairs_match_brute_force_on_every_structure_2d() {
    for structure in Structure::ALL {
        for (kind, motion) in [
            (SceneKind::Clustered, Motion::Churn),
            (SceneKind::Uniform, Motion::Fast),
        ] {
            let config = SceneConfig {
                motion,
                seed: 7,
                ..SceneConfig::new(kind, 300)
            };
            filtered_matches_brute_force::<Vec2>(structure, config, 30);
        }
    }
}

#[test]
fn filtered_pairs_match_brute_force_on_every_structure_3d() {
    for structure in Structure::ALL {
        let config = SceneConfig {
            motion: Motion::Teleport,
            seed: 3,
            ..SceneConfig::new(SceneKind::Clustered, 200)
        };
        filtered_matches_brute_force::<Vec3>(structure, config, 30);
    }
}

#[test]
fn a_stale_or_foreign_handle_gets_no_filter() {
    let unit = collide::Aabb2::new(Vec2::ZERO, Vec2::ONE).unwrap();
    let mut world = Filtered::new(collide::Brute::<Vec2>::new());
    let mut other = Filtered::new(collide::Brute::<Vec2>::new());
    let h = world.insert(unit, ()).unwrap();
    let foreign = other.insert(unit, ()).unwrap();
    world.remove(h).unwrap();
    for handle in [h, foreign] {
        assert!(world.set_filter(handle, Filter::NONE).is_err());
        assert_eq!(world.filter(handle), None);
    }
    assert!(matches!(
        world.set_filter(h, Filter::NONE),
        Err(collide::Error::Handle(collide::HandleError::Stale(_)))
    ));
}
