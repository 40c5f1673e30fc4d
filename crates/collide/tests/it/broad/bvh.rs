//! The BVH against brute force on every frame, with its invariants checked
//! after every operation.

use collide::{Aabb2, Aabb3, BroadPhase, Bvh, Handle, Query, Vector};
use collide_scenes::lattice_scene;
use collide_scenes::{Motion, Record, Runner, Scene, SceneConfig, SceneKind};
use glam::{Vec2, Vec3};

/// A structure's pairs as sorted pairs of values (ids).
fn pair_ids(world: &dyn BroadPhase<Vec2, u64>) -> Vec<(u64, u64)> {
    let mut ids: Vec<(u64, u64)> = world
        .pairs()
        .iter()
        .map(|p| (*world.value(p.a()).unwrap(), *world.value(p.b()).unwrap()))
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    ids.sort();
    ids
}

/// Runs `frames` through a new BVH beside brute force, validating it after
/// every record and every step.
fn verify<V: Vector>(frames: &[Vec<Record<V>>], what: &str) -> Bvh<V, u64> {
    crate::common::verify_each(Bvh::new(), frames, what, Bvh::validate)
}

#[test]
fn bvh_matches_brute_force_on_every_shared_scene() {
    for kind in SceneKind::ALL {
        for motion in Motion::ALL {
            let config = SceneConfig {
                motion,
                seed: 9,
                ..SceneConfig::new(kind, 200)
            };
            verify(
                &Scene::<Vec2>::new(config).take_frames(12),
                &format!("2D {kind} {motion}"),
            );
            verify(
                &Scene::<Vec3>::new(config).take_frames(8),
                &format!("3D {kind} {motion}"),
            );
        }
    }
}

#[test]
fn bvh_matches_brute_force_on_lattices_and_extreme_coordinates() {
    for seed in 0..8 {
        for (offset, unit) in [
            (0.0, 1.0),
            (-1.0e6, 1.0),
            (1.0e38, 1.0e37),
            (-3.0e38, 1.0e37),
        ] {
            // Plus a box spanning all of f32, whose fat box saturates.
            let mut frames = lattice_scene::<Vec2>(seed, 25, offset, unit);
            frames[0].push(Record::Upsert {
                id: 99_999,
                aabb: Aabb2::new(Vec2::splat(-3.0e38), Vec2::splat(3.0e38)).unwrap(),
            });
            verify(&frames, &format!("2D {seed} at {offset}"));
            verify(
                &lattice_scene::<Vec3>(seed, 15, offset, unit),
                &format!("3D {seed} at {offset}"),
            );
        }
    }
}

#[test]
fn a_thousand_objects_on_one_point_and_a_sorted_line_stay_shallow() {
    let mut bvh: Bvh<Vec3> = Bvh::new();
    for _ in 0..1000 {
        bvh.insert(Aabb3::from_point(Vec3::splat(2.0)).unwrap(), ())
            .unwrap();
    }
    bvh.insert(Aabb3::new(Vec3::ZERO, Vec3::splat(4.0)).unwrap(), ())
        .unwrap();
    bvh.step();
    assert_eq!(bvh.pairs().len(), 1000);
    bvh.validate().unwrap();
    assert!(bvh.height() <= 2 * 10 + 4, "height {}", bvh.height());

    // Objects arriving in sorted order: insertion alone would make a deep
    // tree; the rebuild keeps it near balanced.
    let mut line: Bvh<Vec2> = Bvh::new();
    for i in 0..4096 {
        let x = i as f32 * 3.0;
        line.insert(
            Aabb2::new(Vec2::new(x, 0.0), Vec2::new(x + 1.0, 1.0)).unwrap(),
            (),
        )
        .unwrap();
    }
    line.step();
    line.validate().unwrap();
    assert!(line.height() <= 2 * 12 + 4, "height {}", line.height());
}

#[test]
fn small_moves_stay_inside_the_fat_box_and_steady_motion_is_foreseen() {
    let mut bvh: Bvh<Vec2> = Bvh::new();
    let b = |x: f32| Aabb2::new(Vec2::new(x, 0.0), Vec2::new(x + 10.0, 10.0)).unwrap();
    let h = bvh.insert(b(0.0), ()).unwrap();
    bvh.insert(b(50.0), ()).unwrap();
    bvh.step();
    let mut step_to = |x: f32| {
        bvh.update(h, b(x)).unwrap();
        bvh.step();
        bvh.validate().unwrap();
        bvh.stats().maintenance_ops
    };
    // A new object's margin is 1 to 1.75 units (its motion unknown).
    assert_eq!(step_to(0.9), 0);
    assert_eq!(step_to(6.0), 1, "out of the first fat box");
    // 4 units is more than a quarter of its size: no reach ahead, only
    // the 0.5-unit margin.
    assert_eq!(step_to(7.0), 1, "out of the margin");
    // Now the fat box reaches 1 to 7 moves of 1 unit ahead: the next move
    // stays inside, as does a move back by half a unit.
    assert_eq!(step_to(8.0), 0);
    assert_eq!(step_to(7.5), 0);
}

/// Boxes 4 wide on a lattice of spacing 3 from `origin`: each overlaps its
/// eight neighbours. Returns the handles in lattice order.
fn insert_lattice(bvh: &mut Bvh<Vec2>, origin: Vec2, cols: usize, rows: usize) -> Vec<Handle> {
    (0..cols * rows)
        .map(|k| {
            let p = origin + 3.0 * Vec2::new((k % cols) as f32, (k / cols) as f32);
            bvh.insert(Aabb2::new(p, p + Vec2::splat(4.0)).unwrap(), ())
                .unwrap()
        })
        .collect()
}

/// Overlapping pairs of one lattice of [`insert_lattice`]: along rows and
/// columns and both diagonals.
fn lattice_pairs(cols: usize, rows: usize) -> usize {
    (cols - 1) * rows + cols * (rows - 1) + 2 * (cols - 1) * (rows - 1)
}

/// A scene loaded at once: the new objects wait for the step, but at most a
/// batch of them at a time (the rest already have leaves), so a query
/// before the first step finds every one while testing few; the step
/// finds every pair, and rebuilds the tree when more than a quarter of it
/// came in batches since the last step.
#[test]
fn queries_after_a_mass_insert_find_every_object_and_test_few() {
    use collide::QueryBudget;
    let mut bvh: Bvh<Vec2> = Bvh::new();
    let handles = insert_lattice(&mut bvh, Vec2::ZERO, 100, 100);
    bvh.validate().unwrap();
    // Rows 10 and 11, columns 20 to 24: ten boxes.
    let area = Aabb2::new(Vec2::new(61.5, 31.5), Vec2::new(72.5, 33.5)).unwrap();
    let mut hits = Vec::new();
    let stats = bvh.query_region(&area, QueryBudget::default(), &mut |h| {
        hits.push(h);
        std::ops::ControlFlow::Continue(())
    });
    hits.sort();
    let expected: Vec<Handle> = (0..10_000)
        .filter(|&k| (10..=11).contains(&(k / 100)) && (20..=24).contains(&(k % 100)))
        .map(|k| handles[k])
        .collect();
    assert_eq!(hits, expected);
    assert!(
        stats.tested < 1100,
        "{} objects tested one by one before the step",
        stats.tested
    );
    bvh.step();
    bvh.validate().unwrap();
    assert_eq!(bvh.query_aabb_all(&area), expected);
    assert_eq!(bvh.pairs().len(), lattice_pairs(100, 100));
    // 6,000 more, far away: five batches and 880 waiting, more than a
    // quarter of the tree, so the step rebuilds it whole.
    let rebuilt = bvh.rebuilds();
    insert_lattice(&mut bvh, Vec2::new(1000.0, 0.0), 60, 100);
    bvh.validate().unwrap();
    bvh.step();
    bvh.validate().unwrap();
    assert_eq!(
        bvh.rebuilds(),
        rebuilt + 1,
        "6,000 new of 16,000: a rebuild"
    );
    assert_eq!(
        bvh.pairs().len(),
        lattice_pairs(100, 100) + lattice_pairs(60, 100)
    );
}

#[test]
fn ties_and_late_sorted_inserts_keep_the_tree_shallow() {
    // After the first build, inserts below the mass-insert share go in one
    // by one: identical boxes must not chain, and the height rule holds.
    let mut bvh: Bvh<Vec2> = Bvh::new();
    for i in 0..3000 {
        let p = Vec2::new((i % 60) as f32 * 4.0, (i / 60) as f32 * 4.0);
        bvh.insert(Aabb2::new(p, p + Vec2::ONE).unwrap(), ())
            .unwrap();
    }
    bvh.step();
    let rebuilt = bvh.rebuilds();
    // The new objects get their leaves at the step, one insertion each
    // (not more than a quarter of the tree, and fewer than a batch).
    for _ in 0..1000 {
        bvh.insert(Aabb2::from_point(Vec2::splat(-50.0)).unwrap(), ())
            .unwrap();
    }
    bvh.validate().unwrap();
    bvh.step();
    bvh.validate().unwrap();
    assert_eq!(bvh.rebuilds(), rebuilt, "1000 of 4000 is not a mass insert");
    assert!(
        bvh.height() <= 2 * 12 + 4,
        "ties chained: height {}",
        bvh.height()
    );
    assert_eq!(
        bvh.pairs().len(),
        0,
        "zero-size boxes at one point do not overlap"
    );
}

#[test]
fn churn_of_resting_objects_does_not_rebuild_the_whole_tree() {
    // 2000 resting boxes; each frame 20 leave and 20 new ones arrive: churn
    // is not a mass insert, and nothing escapes its fat box. The newcomers
    // stay in the small moving tree until they have rested 8 steps; only
    // that tree may be rebuilt (when worn), never the 2000.
    let mut rng = collide_scenes::SceneRng::new(3);
    let mut bvh = Bvh::<Vec2, u64>::new();
    let mut live = Vec::new();
    let place = |rng: &mut collide_scenes::SceneRng| {
        let p = Vec2::new(rng.range(0.0, 1000.0), rng.range(0.0, 1000.0));
        Aabb2::new(p, p + Vec2::splat(5.0)).unwrap()
    };
    for _ in 0..2000 {
        live.push(bvh.insert(place(&mut rng), 0).unwrap());
    }
    bvh.step();
    assert_eq!(bvh.rebuilds(), 1, "the build after the first frame");
    // After 8 steps at rest they all move to the resting tree, and the
    // moving tree is built again from what is left.
    for _ in 0..9 {
        bvh.step();
    }
    assert_eq!((bvh.resting(), bvh.rebuilds()), (2000, 2));
    let mut rebuilds = bvh.rebuilds();
    for frame in 0..150 {
        for _ in 0..20 {
            let h = live.swap_remove(rng.below(live.len()));
            bvh.remove(h).unwrap();
            live.push(bvh.insert(place(&mut rng), 0).unwrap());
        }
        bvh.step();
        if bvh.rebuilds() > rebuilds {
            let moving = bvh.quality().leaves;
            assert!(
                moving <= 200,
                "frame {frame}: rebuilt {moving} moving objects"
            );
            rebuilds = bvh.rebuilds();
        }
    }
    assert!(bvh.rebuilds() <= 4, "{} rebuilds", bvh.rebuilds());
    assert!(bvh.resting() > 1800, "{}", bvh.resting());
    bvh.validate().unwrap();
}

#[test]
fn escapes_rebuild_the_tree_only_past_a_quarter_and_stay_exact() {
    // 1,000 boxes on a lattice; then 1% of them, 20%, and 80% jump by
    // half a lattice step (far out of their fat boxes).
    let lattice = |id: u64, shift: f32| {
        let p = Vec2::new((id % 40) as f32 * 6.0 + shift, (id / 40) as f32 * 6.0);
        Record::Upsert {
            id,
            aabb: Aabb2::new(p, p + Vec2::splat(4.0)).unwrap(),
        }
    };
    let mut frames = vec![(0..1000).map(|id| lattice(id, 0.0)).collect::<Vec<_>>()];
    let picks: [fn(u64) -> bool; 3] = [|id| id % 100 == 0, |id| id % 5 == 0, |id| id % 5 != 0];
    for (frame, pick) in picks.into_iter().enumerate() {
        let shift = 3.0 * (frame + 1) as f32;
        frames.push(
            (0..1000)
                .filter(|&id| pick(id))
                .map(|id| lattice(id, shift))
                .collect(),
        );
    }
    assert_eq!(
        frames.iter().map(Vec::len).collect::<Vec<_>>(),
        [1000, 10, 200, 800]
    );
    let rebuilds = |n: usize| verify(&frames[..n], "lattice jumps").rebuilds();
    let built = rebuilds(1);
    // 1% and a fifth (more than one in 1,024, moved less than their size)
    // are grown in place with their ancestors refitted; most rebuild the
    // tree in Morton order.
    assert_eq!(rebuilds(2), built, "1% escaped");
    assert_eq!(rebuilds(3), built, "20% escaped");
    assert_eq!(rebuilds(4), built + 1, "80% escaped");
}

#[test]
fn jumps_are_reinserted_so_a_teleport_does_not_stretch_the_tree() {
    // Regression: with escapes grown in place whenever more than one in
    // 1,024 escaped, objects that jumped across the world kept their place
    // in the tree and stretched their ancestors over it (the `wear_probe`
    // example: surface-area cost 281 to 7,000, steps 1 to 45 ms). 3% of
    // 4,000 boxes jump anywhere each step while the rest wobble inside
    // their fat boxes.
    let mut rng = collide_scenes::SceneRng::new(17);
    let spot = |rng: &mut collide_scenes::SceneRng| {
        Vec2::new(rng.range(0.0, 4000.0), rng.range(0.0, 4000.0))
    };
    let mut centres: Vec<Vec2> = (0..4000).map(|_| spot(&mut rng)).collect();
    let boxed = |c: Vec2| Aabb2::from_center_half_extents(c, Vec2::splat(5.0)).unwrap();
    let mut bvh = Bvh::<Vec2>::new();
    let handles: Vec<Handle> = centres
        .iter()
        .map(|&c| bvh.insert(boxed(c), ()).unwrap())
        .collect();
    bvh.step();
    let built = bvh.quality().sah_cost;
    for step in 0..30 {
        let wobble = if step % 2 == 0 { 0.25 } else { -0.25 };
        for (c, &h) in centres.iter_mut().zip(&handles) {
            if rng.unit() < 0.03 {
                *c = spot(&mut rng);
            } else {
                c.x += wobble;
            }
            bvh.update(h, boxed(*c)).unwrap();
        }
        bvh.step();
        bvh.validate().unwrap();
        let cost = bvh.quality().sah_cost;
        assert!(
            cost < 1.5 * built,
            "step {step}: surface-area cost {cost}, {built} after the build"
        );
    }
}

#[test]
fn box_queries_match_brute_force() {
    let scene = SceneConfig {
        motion: Motion::Teleport,
        ..SceneConfig::new(SceneKind::Clustered, 400)
    };
    let frames = Scene::<Vec2>::new(scene).take_frames(6);
    let mut bvh = Bvh::<Vec2, u64>::new();
    let hits =
        crate::common::queries_match_brute(&mut bvh, &frames, &crate::common::probes(), "bvh");
    assert!(hits > 50, "the probes must hit something ({hits})");
}

#[test]
fn forced_rebuilds_by_every_method_keep_the_pairs_exact() {
    use collide::{Brute, BvhBuild};
    for kind in [SceneKind::Uniform, SceneKind::Clustered, SceneKind::Large] {
        for method in [BvhBuild::Sah, BvhBuild::Median, BvhBuild::Morton] {
            let config = SceneConfig {
                motion: Motion::Churn,
                ..SceneConfig::new(kind, 300)
            };
            let frames = Scene::<Vec2>::new(config).take_frames(12);
            let (mut bvh, mut brute) = (Bvh::<Vec2, u64>::new(), Brute::<Vec2, u64>::new());
            let (mut rb, mut rr) = (Runner::new(), Runner::new());
            let mut events = Vec::new();
            for (f, records) in frames.iter().enumerate() {
                rb.apply(&mut bvh, records).unwrap();
                rr.apply(&mut brute, records).unwrap();
                if f % 3 == 1 {
                    bvh.rebuild(method);
                    bvh.validate().unwrap();
                }
                rb.step(&mut bvh, &mut events);
                rr.step(&mut brute, &mut events);
                assert_eq!(
                    pair_ids(&bvh),
                    pair_ids(&brute),
                    "{kind} {method:?} frame {f}"
                );
                bvh.validate().unwrap();
            }
            // `Large`'s world-spanning objects never move: they rest.
            let q = bvh.quality();
            assert_eq!(q.leaves + bvh.resting(), bvh.len());
            assert_eq!(bvh.resting_quality().leaves, bvh.resting());
            assert_eq!(bvh.resting() > 0, kind == SceneKind::Large);
            assert!(q.sah_cost >= 1.0 && q.sibling_overlap >= 0.0, "{q:?}");
        }
    }
}

#[test]
fn resting_objects_move_to_the_resting_tree_and_stay_exact() {
    // `resting`: about one mover in 11 moves at a time; the rest arrive in
    // the resting tree all at once after 8 steps (the SAH rebuild), then a
    // few at a time (one by one), and wake again.
    for kind in [SceneKind::Uniform, SceneKind::Clustered, SceneKind::Large] {
        let config = SceneConfig {
            motion: Motion::Resting,
            ..SceneConfig::new(kind, 400)
        };
        let bvh = verify(
            &Scene::<Vec2>::new(config).take_frames(60),
            &format!("2D {kind} resting"),
        );
        assert!(bvh.resting() > 300, "2D {kind}: {} resting", bvh.resting());
        let bvh = verify(
            &Scene::<Vec3>::new(config).take_frames(30),
            &format!("3D {kind} resting"),
        );
        assert!(bvh.resting() > 300, "3D {kind}: {} resting", bvh.resting());
    }
    let config = SceneConfig {
        motion: Motion::Resting,
        ..SceneConfig::new(SceneKind::Clustered, 400)
    };
    let frames = Scene::<Vec2>::new(config).take_frames(20);
    let mut bvh = Bvh::<Vec2, u64>::new();
    let hits =
        crate::common::queries_match_brute(&mut bvh, &frames, &crate::common::probes(), "bvh");
    assert!(hits > 50 && bvh.resting() > 300, "{hits} hits");
}

#[test]
fn resting_objects_cost_a_step_no_box_tests() {
    let mut bvh = Bvh::<Vec2, u64>::new();
    for i in 0..500 {
        let p = Vec2::new((i % 25) as f32 * 3.0, (i / 25) as f32 * 3.0);
        bvh.insert(Aabb2::new(p, p + Vec2::splat(4.0)).unwrap(), i)
            .unwrap();
    }
    for _ in 0..10 {
        bvh.step();
    }
    assert_eq!(bvh.resting(), 500);
    let pairs = bvh.pairs().len();
    bvh.step();
    let stats = bvh.stats();
    assert_eq!(
        (stats.candidates_tested, stats.maintenance_ops, stats.pairs),
        (0, 0, pairs)
    );
    assert!(pairs > 1000, "{pairs}");
    bvh.validate().unwrap();
}

#[test]
fn waking_moving_and_removing_resting_objects_report_their_pairs() {
    use collide::Pair;
    let b = |x: f32, y: f32| Aabb2::new(Vec2::new(x, y), Vec2::new(x + 2.0, y + 2.0)).unwrap();
    let mut bvh = Bvh::<Vec2, u64>::new();
    let floor = bvh
        .insert(Aabb2::new(Vec2::ZERO, Vec2::new(100.0, 1.0)).unwrap(), 0)
        .unwrap();
    let a = bvh.insert(b(10.0, 0.5), 1).unwrap();
    let c = bvh.insert(b(11.0, 0.5), 2).unwrap();
    let d = bvh.insert(b(50.0, 0.5), 3).unwrap();
    for _ in 0..10 {
        bvh.step();
        bvh.validate().unwrap();
    }
    assert_eq!(bvh.resting(), 4);
    let mut expected = vec![
        Pair::new(floor, a),
        Pair::new(floor, c),
        Pair::new(a, c),
        Pair::new(floor, d),
    ];
    expected.sort();
    assert_eq!(bvh.pairs(), expected);
    // A resting object moves: at once its queries see the new box; at the
    // step it leaves the resting tree and its pairs follow.
    bvh.update(a, b(30.0, 0.5)).unwrap();
    let mut hits = Vec::new();
    let _ = bvh.query_aabb(&b(30.0, 0.5), &mut |h| {
        hits.push(h);
        std::ops::ControlFlow::Continue(())
    });
    assert_eq!(hits, [floor, a]);
    bvh.validate().unwrap();
    let events = bvh.step().clone();
    assert_eq!(events.stopped, [Pair::new(a, c)]);
    assert!(events.started.is_empty());
    assert_eq!(bvh.resting(), 3);
    // A resting object moved and moved back before the step stays at rest.
    bvh.update(c, b(40.0, 0.5)).unwrap();
    bvh.update(c, b(11.0, 0.5)).unwrap();
    assert!(bvh.step().is_empty());
    assert_eq!(bvh.resting(), 3);
    bvh.validate().unwrap();
    // Removing a resting object ends its pairs.
    bvh.remove(d).unwrap();
    bvh.validate().unwrap();
    assert_eq!(bvh.step().stopped, [Pair::new(floor, d)]);
    // The mover comes back onto c, and a new object lands on both.
    bvh.update(a, b(10.5, 0.5)).unwrap();
    let e = bvh.insert(b(11.0, 0.8), 4).unwrap();
    let events = bvh.step().clone();
    let mut started = vec![
        Pair::new(a, c),
        Pair::new(a, e),
        Pair::new(c, e),
        Pair::new(floor, e),
    ];
    started.sort();
    assert_eq!(events.started, started);
    for _ in 0..10 {
        bvh.step();
        bvh.validate().unwrap();
    }
    assert_eq!(bvh.resting(), 4);
    assert_eq!(bvh.pairs().len(), 6);
    // A slot freed by a resting object and taken by a new one starts clean.
    bvh.remove(c).unwrap();
    let f = bvh.insert(b(80.0, 5.0), 5).unwrap();
    let events = bvh.step().clone();
    assert_eq!(events.stopped.len(), 3);
    assert!(events.started.is_empty());
    assert!(bvh.pairs().iter().all(|p| p.a() != f && p.b() != f));
    bvh.validate().unwrap();
}

/// One operation of a random sequence.
#[derive(Clone, Debug)]
enum Op {
    Insert([u8; 3]),
    /// Moves an object to a lattice box anywhere.
    Jump(usize, [u8; 3]),
    /// Moves an object by a small step (escapes, reach ahead, refits).
    Nudge(usize, i8, i8),
    Remove(usize),
    /// Moves one object in 1 to 8 (from the `k`th) by a small step: with
    /// more than 64 objects, escapes in bulk (refits, rebuilds).
    Drift(i8, i8, u8),
    /// Steps several times (objects come to rest after 8).
    Step(u8),
}

fn op() -> impl proptest::strategy::Strategy<Value = Op> {
    use proptest::prelude::*;
    let corners = any::<[u8; 3]>();
    prop_oneof![
        3 => corners.prop_map(Op::Insert),
        1 => (any::<usize>(), corners).prop_map(|(i, c)| Op::Jump(i, c)),
        4 => (any::<usize>(), -2i8..=2, -2i8..=2).prop_map(|(i, x, y)| Op::Nudge(i, x, y)),
        1 => any::<usize>().prop_map(Op::Remove),
        1 => (-2i8..=2, -2i8..=2, any::<u8>()).prop_map(|(x, y, k)| Op::Drift(x, y, k)),
        2 => (1u8..12).prop_map(Op::Step),
    ]
}

/// A lattice box: corners on 0..32 in quarter units, sizes 0 to 2 units
/// (ties, touching, identical and zero-size boxes).
fn lattice_box(c: [u8; 3]) -> Aabb2 {
    let min = Vec2::new(f32::from(c[0] % 128), f32::from(c[1] % 128)) * 0.25;
    let size = Vec2::new(f32::from(c[2] % 3), f32::from(c[2] / 3 % 3));
    Aabb2::new(min, min + size).unwrap()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]
    /// The candidate cache, escapes (reinserted, refitted, rebuilt), the
    /// reach ahead and the resting tree under random operations: the
    /// pairs and events equal brute force at every step and the
    /// invariants (candidates included) hold after every operation.
    #[test]
    fn random_operations_on_a_lattice_match_brute_force(
        first in proptest::collection::vec(proptest::prelude::any::<[u8; 3]>(), 0..120),
        ops in proptest::collection::vec(op(), 1..160),
    ) {
        let mut world = collide::Verified::new(Bvh::<Vec2>::new()).unwrap();
        let mut live: Vec<_> = first.into_iter().map(|c| world.insert(lattice_box(c), ()).unwrap()).collect();
        for op in ops {
            match op {
                Op::Insert(c) => live.push(world.insert(lattice_box(c), ()).unwrap()),
                Op::Jump(i, c) if !live.is_empty() => {
                    world.update(live[i % live.len()], lattice_box(c)).unwrap();
                }
                Op::Nudge(i, x, y) if !live.is_empty() => {
                    let h = live[i % live.len()];
                    let shift = Vec2::new(f32::from(x), f32::from(y)) * 0.25;
                    let moved = world.aabb(h).unwrap().translated(shift).unwrap();
                    world.update(h, moved).unwrap();
                }
                Op::Remove(i) if !live.is_empty() => {
                    world.remove(live.swap_remove(i % live.len())).unwrap();
                }
                Op::Drift(x, y, k) => {
                    let shift = Vec2::new(f32::from(x), f32::from(y)) * 0.25;
                    let every = usize::from(k % 8) + 1;
                    for &h in live.iter().skip(usize::from(k / 8) % every).step_by(every) {
                        let moved = world.aabb(h).unwrap().translated(shift).unwrap();
                        world.update(h, moved).unwrap();
                    }
                }
                Op::Step(n) => {
                    for _ in 0..n {
                        let result = world.step_checked().map(|_| ());
                        proptest::prop_assert!(result.is_ok(), "{}", result.unwrap_err());
                    }
                }
                _ => {}
            }
            proptest::prop_assert_eq!(world.inner().validate(), Ok(()));
        }
        proptest::prop_assert!(world.step_checked().is_ok());
    }
}
