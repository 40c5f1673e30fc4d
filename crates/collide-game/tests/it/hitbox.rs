//! Hitboxes and hurtboxes: active frames, one hit per attack and target,
//! teams, swept swings, tolerances, and an order of events that does not
//! depend on the order things were added in.

use collide::narrow::d2::Pose;
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

fn run(combat: &mut Combat<D2>, ticks: usize) -> Vec<HitEvent> {
    let mut hits = Vec::new();
    for _ in 0..ticks {
        combat.step(&mut hits);
    }
    hits
}

#[test]
fn three_overlapping_active_ticks_give_one_hit() {
    let mut combat: Combat<D2> = Combat::new(Tolerance::default());
    let a = combat.add_fighter(1, 0, at(0.0, 0.0), body());
    combat.add_fighter(2, 1, at(0.9, 0.0), body());
    combat
        .start_attack(10, a, FrameData::new(0, 3, 2).unwrap(), fist())
        .unwrap();
    let hits = run(&mut combat, 6);
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!((hits[0].attack, hits[0].target, hits[0].tick), (10, 2, 0));
}

#[test]
fn with_3_startup_and_2_active_ticks_hits_fall_only_on_ticks_3_and_4() {
    let mut combat: Combat<D2> = Combat::new(Tolerance::default());
    let a = combat.add_fighter(1, 0, at(0.0, 0.0), body());
    // Three targets that step into reach at ticks 0, 4 and 5.
    let targets: Vec<_> = (0..3)
        .map(|k| combat.add_fighter(20 + k, 1, at(5.0 + k as f32, 0.0), body()))
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
        combat.step(&mut hits);
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
    let mut combat: Combat<D2> = Combat::new(Tolerance::default());
    let a = combat.add_fighter(1, 0, at(0.0, 0.0), body());
    combat.add_fighter(2, 1, at(0.9, 0.0), body());
    let jab = FrameData::new(1, 2, 2).unwrap();
    combat.start_attack(10, a, jab, fist()).unwrap();
    let mut hits = run(&mut combat, 6);
    combat.start_attack(11, a, jab, fist()).unwrap();
    hits.extend(run(&mut combat, 6));
    assert_eq!(
        hits.iter().map(|h| h.attack).collect::<Vec<_>>(),
        vec![10, 11]
    );
}

#[test]
fn the_owner_and_its_team_are_never_hit() {
    let mut combat: Combat<D2> = Combat::new(Tolerance::default());
    let a = combat.add_fighter(1, 0, at(0.0, 0.0), body());
    combat.add_fighter(2, 0, at(0.9, 0.0), body()); // a team mate in reach
    combat.add_fighter(3, 1, at(0.0, 0.9), body()); // a foe out of reach
    combat
        .start_attack(
            10,
            a,
            FrameData::new(0, 5, 0).unwrap(),
            vec![Part::new(0.0, 2.0, Pose::IDENTITY).unwrap()],
        )
        .unwrap();
    // The 2 m sphere about the owner covers everyone; only the foe is hit.
    let hits = run(&mut combat, 5);
    assert_eq!(hits.iter().map(|h| h.target).collect::<Vec<_>>(), vec![3]);
}

#[test]
fn a_blade_turned_170_degrees_in_one_tick_hits_a_5_cm_hurtbox() {
    let mut combat: Combat<D2> = Combat::new(Tolerance::default());
    let a = combat.add_fighter(1, 0, at(0.0, 0.0), vec![]);
    // A 5 cm target straight above the swordsman, 1 m out.
    combat.add_fighter(
        2,
        1,
        at(0.0, 1.0),
        vec![Part::new(0.0, 0.025, Pose::IDENTITY).unwrap()],
    );
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
    combat.step(&mut hits); // startup: the blade points along +x
    // The swing: 170 degrees counter-clockwise within the active tick.
    combat
        .place(a, Pose::new(Vec2::ZERO, 170f32.to_radians()).unwrap())
        .unwrap();
    combat.step(&mut hits);
    assert_eq!(hits.len(), 1, "the swing passed through the target");
    // Both ends of the swing miss it: a test of the end poses alone would not.
}

/// A foe whose body's edge is `gap` metres beyond the fist's reach.
fn reach_test(gap: f32, tolerance: Tolerance) -> usize {
    let mut combat: Combat<D2> = Combat::new(tolerance);
    let a = combat.add_fighter(1, 0, at(0.0, 0.0), vec![]);
    // Fist sphere at x = 0.6, radius 0.1: reaches x = 0.7.
    combat.add_fighter(
        2,
        1,
        at(0.7 + 0.3 + gap, 0.0),
        vec![Part::new(0.0, 0.3, Pose::IDENTITY).unwrap()],
    );
    combat
        .start_attack(10, a, FrameData::new(0, 1, 0).unwrap(), fist())
        .unwrap();
    run(&mut combat, 1).len()
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
        let mut combat: Combat<D2> = Combat::new(Tolerance::default());
        let mut ids = Vec::new();
        for k in 0..4 {
            let (key, team, x) = setup[(k + rotation) % 4];
            ids.push((key, combat.add_fighter(key, team, at(x, 0.0), body())));
        }
        for k in 0..4 {
            let (key, id) = ids[(k + 3 * rotation) % 4];
            let swing = vec![Part::new(0.0, 0.9, Pose::IDENTITY).unwrap()];
            combat
                .start_attack(100 + key, id, FrameData::new(0, 2, 0).unwrap(), swing)
                .unwrap();
        }
        let hits = run(&mut combat, 3);
        match &reference {
            None => reference = Some(hits),
            Some(first) => assert_eq!(&hits, first, "rotation {rotation}"),
        }
    }
    assert!(reference.is_some_and(|r| r.len() >= 4));
}
