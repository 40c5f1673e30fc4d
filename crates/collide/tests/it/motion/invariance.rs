//! `motion::sweep` under the test kit's invariance harness: a capsule
//! sliding along a turned wall, moved far from the origin, mirrored,
//! scaled and at other tick rates, and pressed into the wall for ten
//! minutes of ticks. After every sweep the capsule may be inside the wall
//! by at most the casts' tolerance (a hundred-thousandth of the larger of
//! the motion and the smaller shape), or far out 4 ulps of the
//! coordinates.

use collide::motion::Response;
use collide::motion::SweepLimits;
use collide::motion::d3::Sweeper;
use collide::narrow::Support;
use collide::narrow::d3::{Capsule, Cuboid, Pose, contact};
use collide::{BroadPhase, Bvh, Handle};
use collide_scenes::invariance::{Claims, Frame, Invariance, Outcome, REST_TICKS, Rate, at_rest};
use glam::{DVec3, Quat, Vec3};

/// A wall 60 m long, turned by `yaw` about the up axis, and a capsule
/// beside it, in `frame`.
struct Slide {
    world: Bvh<Vec3>,
    wall: (Cuboid, Pose),
    capsule: Capsule,
    turn: Quat,
}

impl Slide {
    fn new(frame: &Frame, yaw: f32) -> Self {
        let turn = Quat::from_rotation_y(yaw);
        let half = Vec3::new(30.0, 1.5, 0.08).map(|l| frame.length(l));
        let wall = Cuboid::new(half).unwrap();
        let pose = Pose::new(
            frame.point3(turn * Vec3::new(25.0, 1.4, -1.4)),
            frame.turn(turn),
        )
        .unwrap();
        let mut world = Bvh::new();
        world.insert(wall.aabb(&pose), ()).unwrap();
        world.step();
        let capsule = Capsule::new(frame.length(0.6), frame.length(0.306)).unwrap();
        Slide {
            world,
            wall: (wall, pose),
            capsule,
            turn,
        }
    }

    /// Sweeps from `at` by `motion`, sliding; moves `at` (kept in f64, as
    /// a game far from the origin keeps its positions) by what it moved.
    fn sweep(&self, sweeper: &mut Sweeper, at: &mut DVec3, motion: Vec3) {
        let wall = &self.wall;
        let shape_of = |_: Handle| Some((&wall.0 as &dyn Support<Vec3>, wall.1));
        let start = Pose::at(at.as_vec3()).unwrap();
        let done = sweeper.sweep(&self.world, shape_of, &self.capsule, start, motion);
        *at += done.moved.as_dvec3();
    }

    /// How deep the capsule at `at` is in the wall, and how deep the
    /// casts' tolerance lets it be after a move of `motion` (scenario
    /// units).
    fn depth(&self, frame: &Frame, at: Vec3, motion: Vec3) -> (f64, f64) {
        let depth = contact(
            &self.capsule,
            &Pose::at(at).unwrap(),
            &self.wall.0,
            &self.wall.1,
        )
        .depth;
        let size = 2.0 * (0.6 + 0.306);
        let reach = f64::from(motion.length()) / frame.scale();
        (f64::from(depth.max(0.0)), 1e-5 * reach.max(size))
    }
}

/// Ten seconds of sliding along the wall at 3.8 m/s, turned by `yaw`.
fn slide(yaw: f32) -> impl Fn(&Frame, &Rate) -> Outcome {
    move |frame, rate| {
        let scene = Slide::new(frame, yaw);
        let mut sweeper = Sweeper::new(Response::Slide, SweepLimits::default());
        let mut at = frame
            .point3(scene.turn * Vec3::new(2.0, 0.906, -1.004))
            .as_dvec3();
        let velocity = frame.vector3(scene.turn * Vec3::new(3.5, 0.0, -1.5));
        let motion = velocity * rate.tick_seconds_f32();
        let mut outcome = Outcome::new();
        let ticks = rate.ticks_in(10.0);
        for tick in 1..=ticks {
            scene.sweep(&mut sweeper, &mut at, motion);
            let (depth, allowed) = scene.depth(frame, at.as_vec3(), motion);
            outcome.depth_limit("depth in the wall", depth, allowed);
            if tick.is_multiple_of(u64::from(rate.hz())) {
                outcome.point3("capsule each second", at.as_vec3());
            }
        }
        outcome
    }
}

/// The sweep's claims: a sweep ends within a hundred-thousandth of its
/// motion of the exact end, so two runs of a path part by at most 2e-5 of
/// its length (40 m here), 4 ulps far out; mirrored, bit for bit.
fn claims() -> Claims {
    Claims::new(40.0, 2e-5).mirror_exact().across_rates(2e-5)
}

/// The slide, turned each way.
fn slides() -> Vec<Invariance<impl Fn(&Frame, &Rate) -> Outcome>> {
    [0.3, -0.7]
        .map(|yaw| {
            Invariance::new(
                &format!("a slide along a wall turned by {yaw}"),
                claims(),
                slide(yaw),
            )
        })
        .into()
}

#[test]
fn a_slide_along_a_wall_is_mirrored_bit_for_bit() {
    slides()[0].mirrored().assert_holds();
}

#[test]
fn a_slide_along_a_wall_turned_the_other_way_stays_out_of_it() {
    slides()[1].mirrored().assert_holds();
}

#[test]
fn a_slide_along_a_wall_holds_far_from_the_origin() {
    for run in slides() {
        run.far_out().assert_holds();
    }
}

#[test]
fn a_slide_along_a_wall_holds_scaled() {
    for run in slides() {
        run.scaled().assert_holds();
    }
}

#[test]
fn a_slide_along_a_wall_holds_at_other_tick_rates() {
    for run in slides() {
        run.rates().assert_holds();
    }
}

/// Pressed into the wall every tick for `ticks` ticks.
fn pressed(frame: &Frame, rate: &Rate, ticks: u64) -> Outcome {
    let scene = Slide::new(frame, 0.3);
    let mut sweeper = Sweeper::new(Response::Slide, SweepLimits::default());
    let mut at = frame
        .point3(scene.turn * Vec3::new(2.0, 0.906, -1.004))
        .as_dvec3();
    let motion = frame.vector3(scene.turn * Vec3::new(0.0, 0.0, -2.0)) * rate.tick_seconds_f32();
    let mut outcome = Outcome::new();
    // Reach the wall first.
    for _ in 0..rate.ticks_in(1.0) {
        scene.sweep(&mut sweeper, &mut at, motion);
    }
    for tick in 0..ticks {
        scene.sweep(&mut sweeper, &mut at, motion);
        let (depth, allowed) = scene.depth(frame, at.as_vec3(), motion);
        outcome.depth_limit("depth in the wall", depth, allowed);
        if tick.is_multiple_of(600) {
            outcome.point3("capsule every ten seconds", at.as_vec3());
        }
    }
    outcome
}

#[test]
fn a_capsule_pressed_into_a_wall_stays_put_for_ten_minutes() {
    at_rest(
        "a capsule pressed into a wall",
        claims(),
        REST_TICKS,
        pressed,
    )
    .assert_holds();
}
