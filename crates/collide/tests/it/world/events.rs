//! A world's events against brute force: random colliders of every kind
//! moving, reshaped, refiltered, turned to sensors and back, inserted and
//! removed, under a pair hook, on every structure underneath (and switched
//! between structures while running), near the origin and 1e4 away: at
//! every step the events equal those of a brute force that tests every
//! pair with the same contact and the same rules.

use super::{Live, Random, random_filter};
use crate::checks::world_ops::{Brute, Expected, allowed, insert};
use collide::Structure;
use collide::narrow::Contact;
use collide::narrow::Cuboid;
use collide::narrow::d3::{self, Sphere};
use collide::world::{Candidate, Collider, World, World3, WorldEvents, WorldSettings};
use collide::{Error, Handle, HandleError};
use collide_scenes::SceneRng;
use glam::{Vec2, Vec3};

/// How a random run goes.
#[derive(Clone, Copy)]
struct Run {
    structure: Structure,
    seed: u64,
    /// The side of the box the colliders move in.
    spread: f32,
    /// Added to every coordinate.
    offset: f32,
    /// Switch to the next structure every few steps.
    switching: bool,
    hook: bool,
    sensor_pairs: bool,
}

/// A seeded scene of colliders (a fifth static, a tenth sensors, filters
/// of three groups) moved, reshaped, refiltered, turned to sensors and
/// back, added and removed for 40 steps: every step's events against the
/// brute force; the touching pairs' contacts against the narrow phase.
fn against_brute_force<V: Random>(run: Run) {
    let settings = WorldSettings::default()
        .with_structure(run.structure)
        .with_sensor_pairs(run.sensor_pairs);
    let mut world: World<V, u32> = World::with_settings(settings);
    if run.hook {
        world.set_pair_hook(|c: &Candidate<'_, V, u32>| allowed(*c.value_a, *c.value_b));
    }
    let mut rng = SceneRng::new(run.seed);
    let mut live: Vec<Live<V>> = Vec::new();
    let pose = |rng: &mut SceneRng| V::shifted(&V::pose(rng, run.spread), run.offset);
    let add = |world: &mut World<V, u32>, rng: &mut SceneRng, live: &mut Vec<Live<V>>| {
        let (shape, pose) = (V::shape(rng), pose(rng));
        let (fixed, sensor) = (rng.below(5) == 0, rng.below(10) == 0);
        let (filter, value) = (random_filter(rng), rng.below(100) as u32);
        live.push(insert(world, shape, pose, fixed, filter, sensor, value).unwrap());
    };
    for _ in 0..60 {
        add(&mut world, &mut rng, &mut live);
    }
    let mut counts = [0; 4];
    let mut brute = Brute::default();
    let mut structures = Structure::ALL.iter().cycle().skip(1);
    for step in 0..40 {
        for x in &mut live {
            if x.fixed || rng.below(3) != 0 {
                continue;
            }
            x.pose = pose(&mut rng);
            world.set_pose(x.handle, x.pose).unwrap();
        }
        let k = rng.below(live.len());
        match rng.below(6) {
            0 => {
                let shape = V::shape(&mut rng);
                world.set_shape(live[k].handle, shape.clone()).unwrap();
                live[k].shape = shape;
            }
            1 => {
                live[k].filter = random_filter(&mut rng);
                world.set_filter(live[k].handle, live[k].filter).unwrap();
            }
            2 => {
                live[k].sensor = !live[k].sensor;
                world.set_sensor(live[k].handle, live[k].sensor).unwrap();
            }
            _ => {}
        }
        if rng.below(2) == 0 {
            let k = rng.below(live.len());
            let gone = live.swap_remove(k);
            assert_eq!(world.remove(gone.handle).unwrap(), gone.value);
        }
        if rng.below(2) == 0 {
            add(&mut world, &mut rng, &mut live);
        }
        if run.switching && step % 4 == 3 {
            world.set_structure(*structures.next().unwrap()).unwrap();
        }
        let events = world.step();
        let expected = brute.step(&live, &settings, run.hook);
        let what = format!(
            "{} step {step} (now {})",
            run.structure.name(),
            world.structure()
        );
        assert_eq!(Expected::of(&events), expected, "{what}");
        for (count, list) in counts.iter_mut().zip([
            &events.started,
            &events.stopped,
            &events.sensor_started,
            &events.sensor_stopped,
        ]) {
            *count += list.len();
        }
        for t in &events.touching {
            let find = |h: Handle| live.iter().find(|x| x.handle == h).unwrap();
            let (a, b) = (find(t.a), find(t.b));
            let c: Contact<V> = V::contact(&a.shape, &a.pose, &b.shape, &b.pose);
            assert_eq!(t.contact, c, "{what}: contact");
            // The manifold within the pair's margin, a share of the
            // smaller shape's size.
            let margin = settings.margin() * V::reach(&a.shape).min(V::reach(&b.shape));
            let m = V::manifold(&a.shape, &a.pose, &b.shape, &b.pose, &c, margin);
            assert_eq!(t.manifold, m, "{what}: manifold");
            assert!(!m.points().is_empty(), "{what}: a touching pair has points");
        }
    }
    assert!(
        counts[0] > 30 && counts[1] > 30 && counts[2] > 2 && counts[3] > 2,
        "started, stopped, sensors started, stopped: {counts:?}"
    );
}

fn every_structure<V: Random>(seed: u64, spread: f32, offset: f32) {
    for (k, structure) in Structure::ALL.into_iter().enumerate() {
        against_brute_force::<V>(Run {
            structure,
            seed: seed + k as u64,
            spread,
            offset,
            switching: false,
            hook: k % 2 == 0,
            sensor_pairs: k % 3 == 0,
        });
    }
}

#[test]
fn every_step_on_every_structure_equals_brute_force_2d() {
    every_structure::<Vec2>(3, 8.0, 0.0);
}

#[test]
fn every_step_on_every_structure_equals_brute_force_3d() {
    every_structure::<Vec3>(40, 5.0, 0.0);
}

#[test]
fn every_step_equals_brute_force_far_from_the_origin() {
    for offset in [1e3, -1e4] {
        every_structure::<Vec2>(70, 8.0, offset);
        every_structure::<Vec3>(80, 5.0, offset);
    }
}

#[test]
fn switching_structures_while_running_changes_no_event() {
    for (k, structure) in Structure::ALL.into_iter().enumerate() {
        let run = |seed| Run {
            structure,
            seed,
            spread: 6.0,
            offset: 0.0,
            switching: true,
            hook: true,
            sensor_pairs: false,
        };
        against_brute_force::<Vec2>(run(100 + k as u64));
        against_brute_force::<Vec3>(run(200 + k as u64));
    }
}

#[test]
fn a_resting_pair_touches_once_and_stays_within_the_margin() {
    let mut world = World3::new();
    let floor = world
        .insert(Collider::fixed(
            Cuboid::new(Vec3::new(5.0, 0.5, 5.0)).unwrap(),
            d3::Pose::IDENTITY,
            (),
        ))
        .unwrap();
    let at = |y: f32| d3::Pose::at(Vec3::new(0.0, y, 0.0)).unwrap();
    let ball = world
        .insert(Collider::moving(Sphere::new(0.5).unwrap(), at(1.0), ()))
        .unwrap();
    assert_eq!(world.step().started, [(floor, ball)]);
    // Lifted by half the margin (1% of the ball's size) and back: still
    // touching, no event.
    for k in 0..100 {
        world
            .set_pose(ball, at(if k % 2 == 0 { 1.0025 } else { 1.0 }))
            .unwrap();
        let events = world.step();
        assert!(
            events.started.is_empty() && events.stopped.is_empty(),
            "tick {k}"
        );
        assert_eq!(events.touching.len(), 1);
    }
    // Lifted past the margin: stopped.
    world.set_pose(ball, at(1.01)).unwrap();
    assert_eq!(world.step().stopped, [(floor, ball)]);
    assert_eq!(world.last_pose(ball).unwrap(), at(1.01));
}

#[test]
fn a_sensor_reports_overlaps_in_its_own_lists_and_turns_solid() {
    let mut world = World3::new();
    let zone = world
        .insert(Collider::fixed(Sphere::new(2.0).unwrap(), d3::Pose::IDENTITY, "zone").as_sensor())
        .unwrap();
    let other_zone = world
        .insert(Collider::fixed(Sphere::new(2.0).unwrap(), d3::Pose::IDENTITY, "zone").as_sensor())
        .unwrap();
    let at = |x: f32| d3::Pose::at(Vec3::new(x, 0.0, 0.0)).unwrap();
    let player = world
        .insert(Collider::moving(
            Sphere::new(0.5).unwrap(),
            at(5.0),
            "player",
        ))
        .unwrap();
    assert_eq!(*world.step(), WorldEvents::default());
    world.set_pose(player, at(2.0)).unwrap();
    let events = world.step();
    assert_eq!(
        events.sensor_started,
        [(zone, player), (other_zone, player)]
    );
    assert!(events.started.is_empty() && events.touching.is_empty());
    // The zone turns solid: its pair leaves the sensor lists for the
    // touching ones.
    world.set_sensor(zone, false).unwrap();
    let events = world.step();
    assert_eq!(
        (events.sensor_stopped.as_slice(), events.started.as_slice()),
        (&[(zone, player)][..], &[(zone, player)][..])
    );
    assert_eq!(world.remove(player).unwrap(), "player");
    let events = world.step();
    assert_eq!(
        (events.stopped.as_slice(), events.sensor_stopped.as_slice()),
        (&[(zone, player)][..], &[(other_zone, player)][..])
    );
}

#[test]
fn a_vetoed_pair_stops_and_a_cleared_hook_lets_it_start() {
    let mut world = World3::<u8>::new();
    let ball = |x: f32, v| {
        Collider::moving(
            Sphere::new(1.0).unwrap(),
            d3::Pose::at(Vec3::new(x, 0.0, 0.0)).unwrap(),
            v,
        )
    };
    let a = world.insert(ball(0.0, 1)).unwrap();
    let b = world.insert(ball(1.5, 2)).unwrap();
    assert_eq!(world.step().started, [(a, b)]);
    world.set_pair_hook(|c| *c.value_a + *c.value_b != 3);
    // Unmoved, the pair keeps its answer; moved, the hook is asked.
    assert!(world.step().stopped.is_empty());
    world
        .set_pose(b, d3::Pose::at(Vec3::new(1.4, 0.0, 0.0)).unwrap())
        .unwrap();
    assert_eq!(world.step().stopped, [(a, b)]);
    world.clear_pair_hook();
    world
        .set_pose(b, d3::Pose::at(Vec3::new(1.5, 0.0, 0.0)).unwrap())
        .unwrap();
    assert_eq!(world.step().started, [(a, b)]);
}

#[test]
fn stale_and_foreign_handles_are_errors_and_change_nothing() {
    let mut world = World3::<u8>::new();
    let mut other = World3::<u8>::new();
    let ball = || Collider::moving(Sphere::new(0.5).unwrap(), d3::Pose::IDENTITY, 7);
    let h = world.insert(ball()).unwrap();
    let foreign = other.insert(ball()).unwrap();
    assert_eq!(world.remove(h).unwrap(), 7);
    assert!(matches!(
        world.set_pose(h, d3::Pose::IDENTITY),
        Err(Error::Handle(HandleError::Stale(_)))
    ));
    for result in [
        world.value(foreign).map(|_| ()),
        world.set_pose(foreign, d3::Pose::IDENTITY),
        world.set_filter(foreign, collide::world::Filter::NONE),
        world.set_sensor(foreign, true),
        world.remove(foreign).map(|_| ()),
        world.value_mut(foreign).map(|_| ()),
    ] {
        assert!(
            matches!(result, Err(Error::Handle(HandleError::Foreign { .. }))),
            "{result:?}"
        );
    }
    assert!(matches!(
        world.value_mut(h),
        Err(Error::Handle(HandleError::Stale(_)))
    ));
    assert!(WorldSettings::default().with_margin(0.0).is_err());
    assert!(WorldSettings::default().with_margin(f32::NAN).is_err());
    assert_eq!((world.len(), other.len()), (0, 1));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Any operation sequence: every step and query equals brute force.
    #[test]
    fn any_operation_sequence_equals_brute_force(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..600)) {
        if let Err(difference) = crate::checks::world_ops::check_bytes(&bytes, None) {
            proptest::prop_assert!(false, "{}", difference);
        }
    }
}

/// The world over `auto` on a scene that turns flat and back, which makes
/// `auto` switch by itself: every step equals brute force. A bare `auto`
/// fed the world's own boxes in the same order makes the same decisions,
/// and counts the switches.
#[test]
fn auto_switching_by_itself_changes_no_event() {
    use collide::narrow::d2;
    use collide::{Auto, BroadPhase, Query};
    use collide_scenes::{Motion, Record, Scene, SceneConfig, SceneKind};
    use std::collections::HashMap;
    let config = SceneConfig {
        motion: Motion::Slow,
        ..SceneConfig::new(SceneKind::Flattening, 300)
    };
    let mut scene = Scene::<Vec2>::new(config);
    let settings = WorldSettings::default();
    let mut world: World<Vec2, u32> = World::with_settings(settings);
    let mut bare: Auto<Vec2, ()> = Auto::new();
    let mut bare_of: HashMap<Handle, Handle> = HashMap::new();
    let mut live: Vec<Live<Vec2>> = Vec::new();
    let mut of_id: HashMap<u64, Handle> = HashMap::new();
    let mut brute = Brute::default();
    let mut touched = 0;
    for frame in 0..240 {
        let mut records = Vec::new();
        scene.next_frame(&mut records);
        for r in records {
            match r {
                Record::Upsert { id, aabb } => {
                    let at = d2::Pose::at(aabb.center()).unwrap();
                    if let Some(&h) = of_id.get(&id) {
                        world.set_pose(h, at).unwrap();
                        live.iter_mut().find(|x| x.handle == h).unwrap().pose = at;
                        bare.update(bare_of[&h], world.aabb(h).unwrap()).unwrap();
                    } else {
                        let half = 0.5 * (aabb.max() - aabb.min());
                        let ball = d2::Circle::new(half.min_element()).unwrap().into();
                        let x = insert(&mut world, ball, at, false, collide::Filter::ALL, false, 0);
                        let x = x.unwrap();
                        bare_of.insert(
                            x.handle,
                            bare.insert(world.aabb(x.handle).unwrap(), ()).unwrap(),
                        );
                        of_id.insert(id, x.handle);
                        live.push(x);
                    }
                }
                Record::Remove { id } => {
                    let h = of_id.remove(&id).unwrap();
                    world.remove(h).unwrap();
                    live.retain(|x| x.handle != h);
                    bare.remove(bare_of.remove(&h).unwrap()).unwrap();
                }
            }
        }
        bare.step();
        let events = world.step();
        assert_eq!(
            Expected::of(&events),
            brute.step(&live, &settings, false),
            "frame {frame} ({} under auto)",
            bare.current().name()
        );
        touched += events.started.len();
    }
    assert!(bare.switches() >= 1, "auto never switched");
    assert!(touched > 100, "{touched} pairs started");
}

#[test]
fn a_box_resting_on_a_floor_touches_at_its_corners_with_ids_that_hold() {
    let mut world = World3::<()>::new();
    let floor = d3::Shape::from(Cuboid::new(Vec3::new(10.0, 1.0, 10.0)).unwrap());
    let under = d3::Pose::at(Vec3::new(0.0, -1.0, 0.0)).unwrap();
    world.insert(Collider::fixed(floor, under, ())).unwrap();
    let crate_box = d3::Shape::from(Cuboid::new(Vec3::splat(0.5)).unwrap());
    let resting = |x: f32, y: f32| d3::Pose::at(Vec3::new(x, y, 0.0)).unwrap();
    let handle = world
        .insert(Collider::moving(crate_box, resting(0.0, 0.499), ()))
        .unwrap();
    let events = world.step();
    let first: Vec<_> = events.touching[0]
        .manifold
        .points()
        .iter()
        .map(|p| p.id)
        .collect();
    assert_eq!(first.len(), 4, "{:?}", events.touching[0].manifold);
    let mut rng = SceneRng::new(3);
    for tick in 0..1000 {
        // Settling a little differently each tick, and sliding.
        let at = resting(tick as f32 * 5e-3, 0.499 + rng.range(-1e-4, 1e-4));
        world.set_pose(handle, at).unwrap();
        let events = world.step();
        let m = &events.touching[0].manifold;
        let ids: Vec<_> = m.points().iter().map(|p| p.id).collect();
        assert_eq!(ids, first, "tick {tick}: {m:?}");
        assert_eq!(m.normal(), Vec3::Y);
    }
}
