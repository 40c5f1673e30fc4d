//! Hitboxes in 2D: a fighter jabbing and swinging at one walking in, the
//! hits by attack, target and tick.
//!
//! Claims: the same hits on the same ticks in any frame (frame data count
//! ticks, so tick rates are not compared), mirrored bit for bit.

use collide::narrow::d2::Pose;
use collide::world::World2;
use collide_game::D2;
use collide_game::glam::Vec2;
use collide_game::hitbox::{Combat, FrameData, Part, Tolerance};
use collide_scenes::invariance::{Claims, Frame, Invariance, Outcome, Rate};

/// A part's pose on its fighter, placed in the frame (a mirrored frame
/// mirrors the offset and the turn).
fn on(frame: &Frame, x: f32, y: f32, angle: f32) -> Pose {
    Pose::new(frame.vector2(Vec2::new(x, y)), frame.angle(angle)).unwrap()
}

/// Where a fighter stands, in the frame.
fn at(frame: &Frame, x: f32, y: f32) -> Pose {
    Pose::at(frame.point2(Vec2::new(x, y))).unwrap()
}

fn fight(frame: &Frame, _: &Rate) -> Outcome {
    let mut world = World2::new();
    let mut combat: Combat<D2> =
        Combat::new(Tolerance::new(frame.length(0.02), frame.length(0.01)).unwrap());
    let body = || {
        vec![
            Part::new(
                frame.length(0.5),
                frame.length(0.3),
                on(frame, 0.0, 0.0, 0.0),
            )
            .unwrap(),
        ]
    };
    let attacker = combat
        .add_fighter(1, 0, at(frame, 0.0, 0.0), body(), &mut world, ())
        .unwrap();
    let target = combat
        .add_fighter(2, 1, at(frame, 4.0, 0.0), body(), &mut world, ())
        .unwrap();
    let fist = || vec![Part::new(0.0, frame.length(0.1), on(frame, 0.6, 0.0, 0.0)).unwrap()];
    let blade = || {
        vec![
            Part::new(
                frame.length(0.5),
                frame.length(0.05),
                on(frame, 0.7, 0.3, -1.2),
            )
            .unwrap(),
        ]
    };
    let mut hits = Vec::new();
    for tick in 0..120u64 {
        // The target walks in at 2 m/s and back out.
        let x =
            4.0 - 2.0 * (tick as f32 / 60.0).min(1.6) + 3.0 * (tick as f32 / 60.0 - 1.6).max(0.0);
        combat.place(target, at(frame, x, 0.05)).unwrap();
        if tick.is_multiple_of(20) {
            combat
                .start_attack(tick, attacker, FrameData::new(2, 3, 4).unwrap(), fist())
                .unwrap();
        }
        if tick % 30 == 15 {
            combat
                .start_attack(
                    1000 + tick,
                    attacker,
                    FrameData::new(3, 4, 6).unwrap(),
                    blade(),
                )
                .unwrap();
        }
        combat.step(&mut world, &mut hits).unwrap();
    }
    let mut outcome = Outcome::new();
    for hit in &hits {
        outcome.exact("hit attack", hit.attack as i64);
        outcome.exact("hit tick", hit.tick as i64);
        outcome.exact("hit target", hit.target as i64);
    }
    outcome.exact("hits", hits.len() as i64);
    outcome
}

fn claims() -> Claims {
    Claims::new(5.0, 1e-6).mirror_exact()
}

fn fighting() -> Invariance<impl Fn(&Frame, &Rate) -> Outcome> {
    Invariance::new("a jab and a swing at a fighter walking in", claims(), fight)
}

#[test]
fn hits_hold_mirrored_and_scaled() {
    let run = fighting();
    assert!(!run.reference().is_empty());
    run.mirrored().assert_holds();
    run.scaled().assert_holds();
}

#[test]
fn hits_hold_far_from_the_origin() {
    fighting().far_out().assert_holds();
}
