//! The character controller: a walk into a turned wall, along it, up a
//! step and down again, and standing still for ten minutes.
//!
//! Claims: the capsule is never inside anything by more than a thousandth
//! of its radius (or 4 ulps of its coordinates far out); positions agree
//! within 1e-5 of the 40 m walk in any frame, mirrored bit for bit, and
//! within 1e-3 across tick rates.

use super::{boxes, every, gravity, run_ticks};
use crate::common::Boxes;
use collide::narrow::d3::{Capsule, Pose, contact};
use collide_game::D3;
use collide_game::character::{Character, CharacterSettings, StepReport};
use collide_game::glam::{Quat, Vec3};
use collide_scenes::invariance::{Claims, Frame, Invariance, Outcome, REST_TICKS, Rate, at_rest};

/// The level, turned by `yaw`: a floor, a wall along the walk and a 0.3 m
/// step across it.
fn level(frame: &Frame, yaw: f32) -> Boxes {
    let turn = Quat::from_rotation_y(yaw);
    boxes(
        frame,
        &[
            (
                Vec3::new(0.0, -0.5, 0.0),
                Vec3::new(60.0, 0.5, 60.0),
                Quat::IDENTITY,
            ),
            (
                turn * Vec3::new(25.0, 1.4, -1.4),
                Vec3::new(30.0, 1.5, 0.08),
                turn,
            ),
            (
                turn * Vec3::new(20.0, 0.15, -0.7),
                Vec3::new(2.0, 0.15, 1.0),
                turn,
            ),
        ],
    )
}

/// A walker: the character and the rules of the run.
struct Walk {
    character: Character<D3>,
    body: Capsule,
    radius: f32,
    fall: f32,
}

impl Walk {
    fn new(frame: &Frame, level: &mut Boxes, at: Vec3) -> Self {
        let settings = CharacterSettings::sized(frame.length(1.8), frame.length(0.3)).unwrap();
        Walk {
            character: Character::new(settings, frame.point3(at), &mut level.world, ()).unwrap(),
            body: Capsule::new(settings.half_height(), settings.radius()).unwrap(),
            radius: 0.3,
            fall: 0.0,
        }
    }

    /// One tick walking at `velocity` (world units) under gravity; records
    /// the deepest the capsule is inside any box.
    fn step(
        &mut self,
        frame: &Frame,
        level: &mut Boxes,
        velocity: Vec3,
        dt: f32,
        outcome: &mut Outcome,
    ) -> StepReport<Vec3> {
        let g = gravity(frame);
        if self.character.ground().is_standing() {
            self.fall = 0.0;
        }
        self.fall += g.y * dt;
        let motion = velocity * dt + Vec3::Y * (self.fall * dt);
        let step = collide_game::time::TimeStep::new(dt).unwrap();
        let report = self.character.step(step, motion, &mut level.world).unwrap();
        level.world.step();
        assert!(!report.squeezed);
        let at = Pose::at(self.character.position()).unwrap();
        let deepest = level
            .all()
            .map(|(shape, pose)| contact(&self.body, &at, shape, &pose).depth)
            .fold(0.0f32, f32::max);
        outcome.depth_limit(
            "depth inside the level",
            f64::from(deepest),
            1e-3 * f64::from(self.radius),
        );
        report
    }

    fn record(&self, outcome: &mut Outcome) {
        outcome.point3("position each second", self.character.position());
        outcome.exact(
            "standing each second",
            i64::from(self.character.ground().is_standing()),
        );
    }
}

/// Ten seconds walking into the wall turned by `yaw` and along it, over
/// the step.
fn walk(yaw: f32) -> impl Fn(&Frame, &Rate) -> Outcome {
    move |frame, rate| {
        let turn = Quat::from_rotation_y(yaw);
        let mut level = level(frame, yaw);
        let mut walker = Walk::new(frame, &mut level, turn * Vec3::new(2.0, 0.95, -0.5));
        let velocity = frame.vector3(turn * Vec3::new(3.5, 0.0, -1.5));
        let mut outcome = Outcome::new();
        run_ticks(rate, rate.ticks_in(10.0), |tick, dt| {
            walker.step(frame, &mut level, velocity, dt.seconds(), &mut outcome);
            if every(rate, tick, 1.0) {
                walker.record(&mut outcome);
            }
        });
        outcome
    }
}

fn claims() -> Claims {
    Claims::new(40.0, 1e-5).mirror_exact().across_rates(1e-3)
}

fn walks() -> Vec<Invariance<impl Fn(&Frame, &Rate) -> Outcome>> {
    [0.3, -0.7]
        .map(|yaw| {
            Invariance::new(
                &format!("a character walking along a wall turned by {yaw}"),
                claims(),
                walk(yaw),
            )
        })
        .into()
}

#[test]
fn a_walk_holds_mirrored_and_in_jittered_frames() {
    for run in walks() {
        run.mirrored().assert_holds();
        run.jittered().assert_holds();
    }
}

#[test]
fn a_walk_holds_scaled() {
    for run in walks() {
        run.scaled().assert_holds();
    }
}

#[test]
fn a_walk_holds_far_from_the_origin() {
    for run in walks() {
        run.far_out().assert_holds();
    }
}

#[test]
fn a_walk_holds_at_other_tick_rates() {
    for run in walks() {
        run.rates().assert_holds();
    }
}

#[test]
fn a_character_standing_on_the_floor_stays_for_ten_minutes() {
    let standing = |frame: &Frame, rate: &Rate, ticks: u64| {
        let mut level = level(frame, 0.3);
        let mut walker = Walk::new(frame, &mut level, Vec3::new(-3.0, 0.95, 4.0));
        let mut outcome = Outcome::new();
        let dt = rate.tick_seconds_f32();
        let mut ignored = Outcome::new();
        for _ in 0..rate.ticks_in(1.0) {
            walker.step(frame, &mut level, Vec3::ZERO, dt, &mut ignored);
        }
        for tick in 0..ticks {
            walker.step(frame, &mut level, Vec3::ZERO, dt, &mut outcome);
            outcome.exact(
                "standing",
                i64::from(walker.character.ground().is_standing()),
            );
            if tick.is_multiple_of(600) {
                outcome.point3("position every ten seconds", walker.character.position());
            }
        }
        outcome
    };
    at_rest(
        "a character standing on a floor",
        claims(),
        REST_TICKS,
        standing,
    )
    .assert_holds();
}

#[test]
fn a_character_stopped_on_a_step_stays_for_ten_minutes() {
    let on_the_step = |frame: &Frame, rate: &Rate, ticks: u64| {
        let mut level = level(frame, 0.0);
        // Walk at the step (its near edge at x = 18); stop on the tick it
        // steps up.
        let mut walker = Walk::new(frame, &mut level, Vec3::new(16.0, 0.95, 0.0));
        let velocity = frame.vector3(Vec3::new(2.0, 0.0, 0.0));
        let dt = rate.tick_seconds_f32();
        let mut ignored = Outcome::new();
        for _ in 0..rate.ticks_in(3.0) {
            if walker
                .step(frame, &mut level, velocity, dt, &mut ignored)
                .stepped_up
            {
                break;
            }
        }
        let mut outcome = Outcome::new();
        for tick in 0..ticks {
            walker.step(frame, &mut level, Vec3::ZERO, dt, &mut outcome);
            outcome.exact(
                "standing",
                i64::from(walker.character.ground().is_standing()),
            );
            if tick.is_multiple_of(60) {
                outcome.point3("feet every second", walker.character.feet());
            }
        }
        outcome
    };
    at_rest(
        "a character stopped on a step",
        claims(),
        REST_TICKS,
        on_the_step,
    )
    .assert_holds();
}
