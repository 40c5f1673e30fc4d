//! Ragdolls: a humanoid dropped from 3 m turned onto a floor, lying on
//! it, and floating in empty space at an odd orientation.
//!
//! A tumble is chaotic: rounding far out leads it elsewhere, so only what
//! a tumble keeps is compared (how it ends up lying, where its centre of
//! mass is, within 2e-2 of the 3 m fall). Claims: no joint beyond its
//! limit by 1e-3 rad (or far out the angle 4 ulps of the coordinates make
//! over the shortest bone), no particle under the floor by more than 5 mm
//! (or 4 ulps far out), mirrored within the tolerance (the skeleton's left
//! and right swap).

use super::{boxes, every, gravity, run_ticks};
use crate::common::Boxes;
use collide_game::Gravity;
use collide_game::glam::{Quat, Vec3};
use collide_game::ragdoll::{Lying, Ragdoll, RagdollSettings, Skeleton};
use collide_game::time::TimeStep;
use collide_scenes::invariance::{Claims, Frame, Invariance, Outcome, REST_TICKS, Rate, at_rest};

/// A humanoid in `world` under `gravity`.
fn doll(
    (frame, world): (&Frame, &mut Boxes),
    at: Vec3,
    turn: Quat,
    settings: RagdollSettings,
    gravity: Vec3,
) -> Ragdoll {
    let skeleton = Skeleton::humanoid(1.8, 75.0).unwrap();
    Ragdoll::new(
        skeleton,
        settings.with_gravity(Gravity::new(gravity).unwrap()),
        frame.point3(at),
        frame.turn(turn),
        Vec3::ZERO,
        &mut world.world,
        (),
    )
    .unwrap()
}

/// Which way it lies, as a number, with left and right swapped back in a
/// mirrored frame.
fn lying(frame: &Frame, r: &Ragdoll) -> i64 {
    match (r.lying(), frame.is_mirrored()) {
        (Lying::FaceDown, _) => 0,
        (Lying::FaceUp, _) => 1,
        (Lying::LeftSide, false) | (Lying::RightSide, true) => 2,
        (Lying::RightSide, false) | (Lying::LeftSide, true) => 3,
        (Lying::Upright, _) => 4,
    }
}

/// Dropped from 3 m, turned over.
const TURNED: (Vec3, f32) = (Vec3::new(0.5, 3.0, -0.5), 1.0);
/// Dropped from 10 m, upright.
const UPRIGHT: (Vec3, f32) = (Vec3::new(-2.0, 9.92, 2.0), 0.0);

/// Dropped from `at`, turned by `tilt` radians about x (and 0.4 about z
/// when tilted), onto a floor, for `ticks`; from tick `from` on, records
/// every `each` seconds (never when `each` is 0: a fall chaotic enough
/// to end differently), and the joint limits and depth under the floor
/// every tick.
fn drop(
    frame: &Frame,
    rate: &Rate,
    (at, tilt): (Vec3, f32),
    ticks: u64,
    each: f64,
    from: u64,
) -> Outcome {
    let mut floor = boxes(
        frame,
        &[(
            Vec3::new(0.0, -1.0, 0.0),
            Vec3::new(20.0, 1.0, 20.0),
            Quat::IDENTITY,
        )],
    );
    let top = frame.point3(Vec3::ZERO).y;
    let turn = Quat::from_rotation_x(tilt) * Quat::from_rotation_z(0.4 * tilt);
    let mut r = doll(
        (frame, &mut floor),
        at,
        turn,
        RagdollSettings::default(),
        gravity(frame),
    );
    // The shortest bone: far out, its ends' rounding turns it this much.
    let shortest = r
        .skeleton()
        .links()
        .map(|(_, _, length)| f64::from(length))
        .fold(f64::INFINITY, f64::min);
    let mut outcome = Outcome::new();
    {
        run_ticks(rate, ticks, |tick, dt| {
            r.step(dt, &mut floor.world).unwrap();
            if tick < from {
                return;
            }
            outcome.angle_limit(
                "joint beyond its limit (rad)",
                f64::from(r.limit_excess()),
                1e-3,
                shortest,
            );
            let deepest = r
                .positions()
                .iter()
                .map(|p| top - p.y)
                .fold(0.0f32, f32::max);
            outcome.depth_limit("particle under the floor", f64::from(deepest), 5e-3);
            if each > 0.0 && every(rate, tick - from, each) {
                outcome.point3("centre of mass", r.centre_of_mass());
                outcome.exact("lying", lying(frame, &r));
            }
        });
    }
    outcome
}

fn claims() -> Claims {
    Claims::new(3.0, 2e-2)
}

fn dropped() -> Invariance<impl Fn(&Frame, &Rate) -> Outcome> {
    Invariance::new(
        "a ragdoll dropped onto a floor",
        claims(),
        |frame: &Frame, rate: &Rate| drop(frame, rate, TURNED, rate.ticks_in(5.0), 5.0, 0),
    )
}

#[test]
fn a_ragdoll_dropped_upright_from_ten_metres_stays_out_of_the_floor() {
    let run = Invariance::new(
        "a ragdoll dropped upright from 10 m",
        claims(),
        |frame: &Frame, rate: &Rate| drop(frame, rate, UPRIGHT, rate.ticks_in(5.0), 0.0, 0),
    );
    run.mirrored().assert_holds();
    run.far_out().assert_holds();
}

#[test]
fn a_dropped_ragdoll_holds_mirrored_and_in_jittered_frames() {
    dropped().mirrored().assert_holds();
    dropped().jittered().assert_holds();
}

#[test]
fn a_dropped_ragdoll_holds_far_from_the_origin() {
    dropped().far_out().assert_holds();
}

#[test]
fn a_ragdoll_lying_on_a_floor_stays_for_ten_minutes() {
    let lying_still = |frame: &Frame, rate: &Rate, ticks: u64| {
        let settle = rate.ticks_in(5.0);
        drop(frame, rate, TURNED, settle + ticks, 10.0, settle)
    };
    at_rest(
        "a ragdoll lying on a floor",
        Claims::new(3.0, 1e-5),
        REST_TICKS,
        lying_still,
    )
    .assert_holds();
}

#[test]
fn a_ragdoll_floating_still_stays_for_ten_minutes() {
    let floating = |frame: &Frame, rate: &Rate, ticks: u64| {
        let mut empty = boxes(frame, &[]);
        let settings = RagdollSettings::default().with_sleep(0.0, 1.0).unwrap();
        let mut r = doll(
            (frame, &mut empty),
            Vec3::new(0.3, -0.2, 0.1),
            Quat::from_rotation_x(1.0),
            settings,
            Vec3::ZERO,
        );
        let dt = TimeStep::new(rate.tick_seconds_f32()).unwrap();
        let mut outcome = Outcome::new();
        for tick in 0..ticks {
            r.step(dt, &mut empty.world).unwrap();
            if tick.is_multiple_of(600) {
                outcome.point3("centre of mass", r.centre_of_mass());
                outcome.limit("kinetic energy (J)", f64::from(r.kinetic_energy()), 1e-6);
            }
        }
        outcome
    };
    at_rest("a ragdoll floating still", claims(), REST_TICKS, floating).assert_holds();
}
