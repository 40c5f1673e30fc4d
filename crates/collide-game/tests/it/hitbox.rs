//! Hitboxes and hurtboxes: active frames, one hit per attack and target,
//! teams, swept swings, tolerances, and an order of events that does not
//! depend on the order things were added in.

use collide::narrow::d2::Pose;
use collide::world::World2;
use collide_game::D2;
use collide_game::glam::Vec2;
use collide_game::hitbox::{Combat, FrameData, HitEvent, Part, Tolerance};

fn at(x: f32, y: f32) -> Pose {
    Pose::at(Vec2::new(x, y)).unwrap()
}

/// A fighter's body: a capsule 1.6 m tall of radius 0.3 about its origin.
fn body() -> Vec<Part<D2>> {
    vec![Part::new(0.5, 0.3, Pose::IDENTITY).unwrap()]
}

/// A jab: a 0.1 m sphere 0.6 m ahead of the attacker.
fn fist() -> Vec<Part<D2>> {
    vec![Part::new(0.0, 0.1, at(0.6, 0.0)).unwrap()]
}

fn run(combat: &mut Combat<D2>, world: &mut World2, ticks: usize) -> Vec<HitEvent> {
    let mut hits = Vec::new();
    for _ in 0..ticks {
        combat.step(world, &mut hits).unwrap();
    }
    hits
}

#[test]
fn three_overlapping_active_ticks_give_one_hit() {
    let mut world = World2::new();
    let mut combat: Combat<D2> = Combat::new(Tolerance::default());
    let a = combat
        .add_fighter(1, 0, at(0.0, 0.0), body(), &mut world, ())
        .unwrap();
    combat
        .add_fighter(2, 1, at(0.9, 0.0), body(), &mut world, ())
        .unwrap();
    combat
        .start_attack(10, a, FrameData::new(0, 3, 2).unwrap(), fist())
        .unwrap();
    let hits = run(&mut combat, &mut world, 6);
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!((hits[0].attack, hits[0].target, hits[0].tick), (10, 2, 0));
}

#[test]
fn with_3_startup_and_2_active_ticks_hits_fall_only_on_ticks_3_and_4() {
    let mut world = World2::new();
    let mut combat: Combat<D2> = Combat::new(Tolerance::default());
    let a = combat
        .add_fighter(1, 0, at(0.0, 0.0), body(), &mut world, ())
        .unwrap();
    // Three targets that step into reach at ticks 0, 4 and 5.
    let targets: Vec<_> = (0..3)
        .map(|k| {
            combat
                .add_fighter(20 + k, 1, at(5.0 + k as f32, 0.0), body(), &mut world, ())
                .unwrap()
        })
        .collect();
    combat
        .start_attack(10, a, FrameData::new(3, 2, 4).unwrap(), fist())
        .unwrap();
    let mut hits = Vec::new();
    for tick in 0..9u64 {
        for (k, &t) in targets.iter().enumerate() {
            let arrives = [0, 4, 5][k];
            let x = if tick >= arrives { 0.9 } else { 5.0 + k as f32 };
            combat.place(t, at(x, 0.5 * k as f32)).unwrap();
        }
        combat.step(&mut world, &mut hits).unwrap();
    }
    let ticks: Vec<(u64, u64)> = hits.iter().map(|h| (h.target, h.tick)).collect();
    assert_eq!(
        ticks,
        vec![(20, 3), (21, 4)],
        "the one arriving in recovery is not hit"
    );
}

#[test]
fn two_separate_jabs_give_two_hits() {
    let mut world = World2::new();
    let mut combat: Combat<D2> = Combat::new(Tolerance::default());
    let a = combat
        .add_fighter(1, 0, at(0.0, 0.0), body(), &mut world, ())
        .unwrap();
    combat
        .add_fighter(2, 1, at(0.9, 0.0), body(), &mut world, ())
        .unwrap();
    let jab = FrameData::new(1, 2, 2).unwrap();
    combat.start_attack(10, a, jab, fist()).unwrap();
    let mut hits = run(&mut combat, &mut world, 6);
    combat.start_attack(11, a, jab, fist()).unwrap();
    hits.extend(run(&mut combat, &mut world, 6));
    assert_eq!(
        hits.iter().map(|h| h.attack).collect::<Vec<_>>(),
        vec![10, 11]
    );
}

#[test]
fn the_owner_and_its_team_are_never_hit() {
    let mut world = World2::new();
    let mut combat: Combat<D2> = Combat::new(Tolerance::default());
    let a = combat
        .add_fighter(1, 0, at(0.0, 0.0), body(), &mut world, ())
        .unwrap();
    combat
        .add_fighter(2, 0, at(0.9, 0.0), body(), &mut world, ())
        .unwrap(); // a team mate in reach
    combat
        .add_fighter(3, 1, at(0.0, 0.9), body(), &mut world, ())
        .unwrap(); // a foe out of reach
    combat
        .start_attack(
            10,
            a,
            FrameData::new(0, 5, 0).unwrap(),
            vec![Part::new(0.0, 2.0, Pose::IDENTITY).unwrap()],
        )
        .unwrap();
    // The 2 m sphere about the owner covers everyone; only the foe is hit.
    let hits = run(&mut combat, &mut world, 5);
    assert_eq!(hits.iter().map(|h| h.target).collect::<Vec<_>>(), vec![3]);
}

#[test]
fn a_blade_turned_170_degrees_in_one_tick_hits_a_5_cm_hurtbox() {
    let mut world = World2::new();
    let mut combat: Combat<D2> = Combat::new(Tolerance::default());
    let a = combat
        .add_fighter(1, 0, at(0.0, 0.0), vec![], &mut world, ())
        .unwrap();
    // A 5 cm target straight above the swordsman, 1 m out.
    combat
        .add_fighter(
            2,
            1,
            at(0.0, 1.0),
            vec![Part::new(0.0, 0.025, Pose::IDENTITY).unwrap()],
            &mut world,
            (),
        )
        .unwrap();
    // A 1.2 m blade along the swordsman's local x, from 0.1 m out.
    let blade = vec![
        Part::new(
            0.6,
            0.02,
            Pose::new(Vec2::new(0.7, 0.0), -90f32.to_radians()).unwrap(),
        )
        .unwrap(),
    ];
    combat
        .start_attack(10, a, FrameData::new(1, 1, 1).unwrap(), blade)
        .unwrap();
    let mut hits = Vec::new();
    combat.step(&mut world, &mut hits).unwrap(); // startup: the blade points along +x
    // The swing: 170 degrees counter-clockwise within the active tick.
    combat
        .place(a, Pose::new(Vec2::ZERO, 170f32.to_radians()).unwrap())
        .unwrap();
    combat.step(&mut world, &mut hits).unwrap();
    assert_eq!(hits.len(), 1, "the swing passed through the target");
    // Both ends of the swing miss it: a test of the end poses alone would not.
}

/// A foe whose body's edge is `gap` metres beyond the fist's reach.
fn reach_test(gap: f32, tolerance: Tolerance) -> usize {
    let mut world = World2::new();
    let mut combat: Combat<D2> = Combat::new(tolerance);
    let a = combat
        .add_fighter(1, 0, at(0.0, 0.0), vec![], &mut world, ())
        .unwrap();
    // Fist sphere at x = 0.6, radius 0.1: reaches x = 0.7.
    combat
        .add_fighter(
            2,
            1,
            at(0.7 + 0.3 + gap, 0.0),
            vec![Part::new(0.0, 0.3, Pose::IDENTITY).unwrap()],
            &mut world,
            (),
        )
        .unwrap();
    combat
        .start_attack(10, a, FrameData::new(0, 1, 0).unwrap(), fist())
        .unwrap();
    run(&mut combat, &mut world, 1).len()
}

#[test]
fn growing_hitboxes_and_shrinking_hurtboxes_move_the_line_by_their_amounts() {
    assert_eq!(reach_test(0.001, Tolerance::default()), 0, "a 1 mm miss");
    assert_eq!(
        reach_test(0.001, Tolerance::new(0.002, 0.0).unwrap()),
        1,
        "grown 2 mm: a hit"
    );
    assert_eq!(
        reach_test(-0.001, Tolerance::default()),
        1,
        "a 1 mm overlap"
    );
    assert_eq!(
        reach_test(-0.001, Tolerance::new(0.0, 0.002).unwrap()),
        0,
        "shrunk 2 mm: a miss"
    );
    assert!(Tolerance::new(-0.1, 0.0).is_err());
}

#[test]
fn the_order_of_adding_does_not_change_the_events() {
    // Four fighters in two teams, each throwing a wide jab; added in every
    // rotation of the order.
    let setup = [(1u64, 0u32, 0.0f32), (2, 1, 0.8), (3, 0, 1.6), (4, 1, 2.4)];
    let mut reference: Option<Vec<HitEvent>> = None;
    for rotation in 0..4 {
        let mut world = World2::new();
        let mut combat: Combat<D2> = Combat::new(Tolerance::default());
        let mut ids = Vec::new();
        for k in 0..4 {
            let (key, team, x) = setup[(k + rotation) % 4];
            ids.push((
                key,
                combat
                    .add_fighter(key, team, at(x, 0.0), body(), &mut world, ())
                    .unwrap(),
            ));
        }
        for k in 0..4 {
            let (key, id) = ids[(k + 3 * rotation) % 4];
            let swing = vec![Part::new(0.0, 0.9, Pose::IDENTITY).unwrap()];
            combat
                .start_attack(100 + key, id, FrameData::new(0, 2, 0).unwrap(), swing)
                .unwrap();
        }
        let hits = run(&mut combat, &mut world, 3);
        match &reference {
            None => reference = Some(hits),
            Some(first) => assert_eq!(&hits, first, "rotation {rotation}"),
        }
    }
    assert!(reference.is_some_and(|r| r.len() >= 4));
}

#[test]
fn hurtboxes_are_sensors_of_the_world_that_follow_their_fighters() {
    use collide::geometry::Ray;
    use collide::world::{Filter, QueryFilter, WorldQuery};
    // The fight's hurtboxes in a group of their own (2), meeting shots (4).
    let hurt = Filter::new(0b010, 0b100);
    let mut world = World2::new();
    let mut combat: Combat<D2> = Combat::new(Tolerance::default()).with_filter(hurt);
    let hero = combat
        .add_fighter(1, 0, at(0.0, 0.0), body(), &mut world, 'h')
        .unwrap();
    let foe = combat
        .add_fighter(2, 1, at(3.0, 0.0), body(), &mut world, 'f')
        .unwrap();
    let shot = |world: &World2<char>, filter: &QueryFilter<'_, char>| {
        let ray = Ray::new(Vec2::new(1.0, 0.0), Vec2::X, 10.0).unwrap();
        world.cast_ray(&ray, filter).map(|hit| (hit.handle, hit.t))
    };
    // Solid-only queries pass them; a shot asking for sensors in its group
    // meets the foe's body at its edge (x 2.7).
    assert_eq!(shot(&world, &QueryFilter::new()), None);
    let shots = QueryFilter::new()
        .with_sensors()
        .with_filter(Filter::new(0b100, 0b010));
    let (h, t) = shot(&world, &shots).unwrap();
    assert_eq!(combat.hurtbox_of(h), Some((2, 0)));
    assert!((t - 1.7).abs() < 1e-5, "{t}");
    assert_eq!(world.filter(h).unwrap(), hurt);
    // Placed and judged, the foe's hurtbox is where it stands.
    combat.place(foe, at(5.0, 0.5)).unwrap();
    combat.step(&mut world, &mut Vec::new()).unwrap();
    let (_, t) = shot(&world, &shots).unwrap();
    assert!((t - 3.7).abs() < 1e-5, "{t}");
    assert_eq!(combat.hurtboxes(hero).unwrap().len(), 1);
    assert_eq!(
        combat.hurtbox_of(combat.hurtboxes(hero).unwrap()[0]),
        Some((1, 0))
    );
}
