//! The ragdoll against its oracles: rest stays rest, limits always hold,
//! bones keep their length through a drop, momentum holds in flight, the
//! animated pose is followed, nothing ends inside geometry, the same bits
//! on any number of threads.

mod world;

use crate::common::{Boxes, GRAVITY};
use collide::narrow::d3::{Cuboid, Pose};
use collide::world::Collider3;
use collide_game::Gravity;
use collide_game::glam::{EulerRot, Quat, Vec3};
use collide_game::ragdoll::{Lying, Ragdoll, RagdollSettings, Skeleton};
use collide_game::time::TimeStep;
use collide_scenes::SceneRng;

/// A 1.8 m, 75 kg humanoid in `world`.
fn doll(world: &mut Boxes, at: Vec3, turn: Quat, velocity: Vec3) -> Ragdoll {
    let body = Skeleton::humanoid(1.8, 75.0).unwrap();
    let settings = RagdollSettings::default();
    Ragdoll::new(body, settings, at, turn, velocity, &mut world.world, ()).unwrap()
}

fn dt() -> TimeStep<f32> {
    TimeStep::new(1.0 / 60.0).unwrap()
}

/// The largest relative error of any bone against its rest length.
fn worst_bone(r: &Ragdoll) -> f32 {
    let rest = r.skeleton().rest_pose();
    r.skeleton()
        .parts()
        .iter()
        .map(|&(a, b, _)| {
            let l = rest[a].distance(rest[b]);
            (r.positions()[a].distance(r.positions()[b]) - l).abs()
        })
        .fold(0.0, f32::max)
}

/// A running pose at time `t`: the rest pose moving along -z at 5 m/s
/// with arms and legs swinging, `height` metres up.
fn running(rest: &[Vec3], t: f32, height: f32) -> Vec<Vec3> {
    let swing = 0.6 * (9.0 * t).sin();
    let mut pose: Vec<Vec3> = rest
        .iter()
        .map(|&p| p + Vec3::new(0.0, height, -5.0 * t))
        .collect();
    // Left arm and right leg forward, then the other pair.
    for (top, ends, sign) in [
        (4, [5, 6], 1.0),
        (7, [8, 9], -1.0),
        (10, [11, 12], -1.0),
        (13, [14, 15], 1.0),
    ] {
        let turn = Quat::from_rotation_x(sign * swing);
        let pivot = pose[top];
        for k in ends {
            pose[k] = pivot + turn * (pose[k] - pivot);
        }
    }
    pose
}

#[test]
fn a_ragdoll_from_a_run_keeps_its_momentum_until_it_lands() {
    let mut floor = Boxes::new(&[(Vec3::new(-50.0, -1.0, -80.0), Vec3::new(50.0, 0.0, 50.0))]);
    let mut r = doll(
        &mut floor,
        Vec3::new(0.0, 4.0, 0.0),
        Quat::IDENTITY,
        Vec3::ZERO,
    );
    let rest = r.skeleton().rest_pose().to_vec();
    r.set_weight(1.0).unwrap();
    {
        // Running (leaping, 4 m up) under the animation, limbs swinging.
        for tick in 0..30 {
            r.set_target(&running(&rest, tick as f32 / 60.0, 4.0))
                .unwrap();
            r.step(dt(), &mut floor.world).unwrap();
        }
        // Hit: all limp. The limbs flail against their limits and the
        // bones, inner forces all; the momentum stays until the floor.
        r.set_weight(0.0).unwrap();
        r.step(dt(), &mut floor.world).unwrap();
        let start = r.momentum().with_y(0.0);
        assert!(start.length() > 0.9 * 5.0 * r.skeleton().mass(), "{start}");
        let mut ticks = 0;
        while r.positions().iter().all(|p| p.y > 0.3) {
            r.step(dt(), &mut floor.world).unwrap();
            let now = r.momentum().with_y(0.0);
            assert!(
                (now - start).length() < 0.01 * start.length(),
                "{now} against {start}"
            );
            ticks += 1;
        }
        assert!(ticks > 20, "{ticks} ticks in flight");
    }
}

/// Steps `r` for `ticks` through `world`: the furthest any joint went
/// past its limit (radians) and any bone off its length (metres) after a
/// tick.
fn fall(r: &mut Ragdoll, world: &mut Boxes, ticks: usize) -> (f32, f32) {
    let (mut limit, mut length) = (0.0f32, 0.0f32);
    for _ in 0..ticks {
        r.step(dt(), &mut world.world).unwrap();
        limit = limit.max(r.limit_excess());
        length = length.max(worst_bone(r));
    }
    (limit, length)
}

/// Stairs: ten steps of 0.3 m down along -z from a landing at 3 m, then
/// the floor.
fn stairs() -> Boxes {
    let mut boxes = vec![(Vec3::new(-20.0, -1.0, -40.0), Vec3::new(20.0, 0.0, 20.0))];
    for k in 0..10 {
        let top = 3.0 - 0.3 * k as f32;
        boxes.push((
            Vec3::new(-2.0, -1.0, -0.4 * k as f32 - 0.4),
            Vec3::new(2.0, top, 4.0),
        ));
    }
    Boxes::new(&boxes)
}

/// Whether `p` lies deeper than `tolerance` inside any of `boxes`.
fn inside(boxes: &[(Vec3, Vec3)], p: Vec3, tolerance: f32) -> bool {
    boxes
        .iter()
        .any(|&(lo, hi)| (p - lo).min_element() > tolerance && (hi - p).min_element() > tolerance)
}

#[test]
fn spawned_at_rest_it_stays_at_rest() {
    // Without gravity, in its rest pose: nothing moves.
    let mut world = Boxes::new(&[]);
    let body = Skeleton::humanoid(1.8, 75.0).unwrap();
    let weightless = RagdollSettings::default().with_gravity(Gravity::none());
    let (at, turn) = (Vec3::new(0.0, 5.0, 0.0), Quat::from_rotation_y(0.7));
    let mut r = Ragdoll::new(body, weightless, at, turn, Vec3::ZERO, &mut world.world, ()).unwrap();
    for _ in 0..600 {
        r.step(dt(), &mut world.world).unwrap();
    }
    assert!(r.kinetic_energy() < 1e-6, "{} J", r.kinetic_energy());
    // Dropped flat on the floor, once it has settled it stays.
    let mut floor = Boxes::new(&[(Vec3::new(-20.0, -1.0, -20.0), Vec3::new(20.0, 0.0, 20.0))]);
    let lying = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
    let mut r = doll(&mut floor, Vec3::new(0.0, 0.3, 0.0), lying, Vec3::ZERO);
    for _ in 0..300 {
        r.step(dt(), &mut floor.world).unwrap();
    }
    let mut worst = 0.0f32;
    for _ in 0..600 {
        r.step(dt(), &mut floor.world).unwrap();
        worst = worst.max(r.kinetic_energy());
    }
    assert!(worst < 1e-6, "{worst} J at rest on the floor");
}

#[test]
fn down_the_stairs_no_joint_leaves_its_limits_and_bones_keep_their_length() {
    let mut world = stairs();
    // Dropped 10 m onto the landing, tumbling toward the stairs.
    let mut r = doll(
        &mut world,
        Vec3::new(0.0, 13.0, 1.0),
        Quat::from_rotation_x(0.6),
        Vec3::new(0.3, 0.0, -3.0),
    );
    let (worst_limit, worst_length) = fall(&mut r, &mut world, 600);
    assert!(
        worst_limit < 1e-3,
        "a joint went {worst_limit} rad past its limit"
    );
    assert!(
        worst_length < 0.01,
        "a bone was off its length by {worst_length} m"
    );
}

#[test]
fn no_particle_ends_inside_geometry() {
    let mut boxes = vec![(Vec3::new(-20.0, -1.0, -40.0), Vec3::new(20.0, 0.0, 20.0))];
    for k in 0..10 {
        let top = 3.0 - 0.3 * k as f32;
        boxes.push((
            Vec3::new(-2.0, -1.0, -0.4 * k as f32 - 0.4),
            Vec3::new(2.0, top, 4.0),
        ));
    }
    for seed in 0..6 {
        let turn = Quat::from_euler(
            collide_game::glam::EulerRot::XYZ,
            0.5 * seed as f32,
            1.1 * seed as f32,
            0.3,
        );
        // Each body on stairs of its own.
        let mut world = stairs();
        let mut r = doll(
            &mut world,
            Vec3::new(0.2 * seed as f32 - 0.5, 6.0, 1.0),
            turn,
            Vec3::new(0.0, 0.0, -2.0 - 0.5 * seed as f32),
        );
        for _ in 0..600 {
            r.step(dt(), &mut world.world).unwrap();
        }
        for (k, &p) in r.positions().iter().enumerate() {
            assert!(
                !inside(&boxes, p, 0.01),
                "seed {seed}: particle {k} at {p} is inside"
            );
        }
    }
}

/// The rest pose turned by `turn` about the feet and moved to `at`.
fn posed(r: &Ragdoll, at: Vec3, turn: Quat) -> Vec<Vec3> {
    r.skeleton()
        .rest_pose()
        .iter()
        .map(|&p| at + turn * p)
        .collect()
}

#[test]
fn at_weight_one_it_follows_the_animated_pose() {
    let floor = || Boxes::new(&[(Vec3::new(-50.0, -1.0, -50.0), Vec3::new(50.0, 0.0, 50.0))]);
    let mut world = floor();
    let mut r = doll(&mut world, Vec3::ZERO, Quat::IDENTITY, Vec3::ZERO);
    r.set_weight(1.0).unwrap();
    for tick in 0..300 {
        // Walking forward and turning.
        let t = tick as f32 / 60.0;
        let target = posed(
            &r,
            Vec3::new(0.0, 0.0, -1.4 * t),
            Quat::from_rotation_y(0.3 * t),
        );
        r.set_target(&target).unwrap();
        r.step(dt(), &mut world.world).unwrap();
        for (k, (p, q)) in r.positions().iter().zip(&target).enumerate() {
            assert!(
                p.distance(*q) < 0.01,
                "tick {tick}: particle {k} is {} m off",
                p.distance(*q)
            );
        }
    }
    // A hit reaction: the left arm goes limp and hangs while the rest
    // keeps to the pose.
    let mut world = floor();
    let mut r = doll(&mut world, Vec3::ZERO, Quat::IDENTITY, Vec3::ZERO);
    r.set_weight(1.0).unwrap();
    let arm = r
        .skeleton()
        .parts()
        .iter()
        .position(|&(a, b, _)| (a, b) == (5, 6))
        .unwrap();
    r.set_part_weight(arm, 0.0).unwrap();
    let upper = r
        .skeleton()
        .parts()
        .iter()
        .position(|&(a, b, _)| (a, b) == (4, 5))
        .unwrap();
    r.set_part_weight(upper, 0.0).unwrap();
    let raised = Quat::from_rotation_z(-1.2);
    for _ in 0..120 {
        // The animation raises the arm; the limp one does not follow.
        let mut target = posed(&r, Vec3::ZERO, Quat::IDENTITY);
        let shoulder = target[4];
        target[5] = shoulder + raised * (target[5] - shoulder);
        target[6] = shoulder + raised * (target[6] - shoulder);
        r.set_target(&target).unwrap();
        r.step(dt(), &mut world.world).unwrap();
        assert!(r.positions()[0].distance(target[0]) < 0.01);
        assert!(
            r.positions()[6].distance(target[6]) > 0.3,
            "the limp hand followed"
        );
    }
    assert!(
        r.positions()[6].y < r.positions()[4].y,
        "the limp arm hangs"
    );
}

#[test]
fn the_same_ragdolls_end_in_the_same_bits_on_one_two_and_three_threads() {
    use rayon::prelude::*;
    let run = |threads: usize| -> Vec<u64> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        // Six bodies in one world, tumbling onto the stairs and each other.
        let mut world = stairs();
        let mut dolls: Vec<Ragdoll> = (0..6)
            .map(|k| {
                doll(
                    &mut world,
                    Vec3::new(k as f32 * 0.6 - 1.5, 6.0 + k as f32, 1.0),
                    Quat::from_rotation_x(0.4 * k as f32),
                    Vec3::new(0.0, 0.0, -2.0),
                )
            })
            .collect();
        for _ in 0..240 {
            // The world is read from other threads through its snapshot;
            // each body sees the others where the last tick left them.
            let snapshot = world.world.snapshot();
            pool.install(|| {
                dolls.par_iter_mut().for_each(|r| {
                    r.step_reading(dt(), &snapshot).unwrap();
                });
            });
            for r in &dolls {
                r.place_colliders(&mut world.world).unwrap();
            }
            world.world.step();
        }
        dolls.iter().map(Ragdoll::state_hash).collect()
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert_eq!(one, run(3));
}

#[test]
fn a_fallen_ragdoll_says_which_way_it_lies() {
    let floor = || Boxes::new(&[(Vec3::new(-50.0, -1.0, -50.0), Vec3::new(50.0, 0.0, 50.0))]);
    let half = std::f32::consts::FRAC_PI_2;
    // Tipped forward onto its face or back onto its back, it stays so.
    for (turn, lying) in [
        (Quat::from_rotation_x(-half), Lying::FaceDown),
        (Quat::from_rotation_x(half), Lying::FaceUp),
    ] {
        let mut world = floor();
        let mut r = doll(&mut world, Vec3::new(0.0, 0.5, 0.0), turn, Vec3::ZERO);
        for _ in 0..240 {
            r.step(dt(), &mut world.world).unwrap();
        }
        assert_eq!(r.lying(), lying, "turned {turn}");
        assert!(r.is_asleep(), "settled {turn}");
    }
    // On a side (a body there rolls over, so the animation holds it), and
    // standing.
    for (turn, lying) in [
        (Quat::from_rotation_z(half), Lying::LeftSide),
        (Quat::from_rotation_z(-half), Lying::RightSide),
        (Quat::IDENTITY, Lying::Upright),
    ] {
        let mut world = floor();
        let mut r = doll(&mut world, Vec3::new(0.0, 0.5, 0.0), turn, Vec3::ZERO);
        r.set_weight(1.0).unwrap();
        let target = posed(&r, Vec3::new(0.0, 0.5, 0.0), turn);
        r.set_target(&target).unwrap();
        r.step(dt(), &mut world.world).unwrap();
        assert_eq!(r.lying(), lying, "turned {turn}");
    }
}

#[test]
fn bad_input_is_an_error() {
    let body = Skeleton::humanoid(1.8, 75.0).unwrap();
    let settings = RagdollSettings::default();
    let mut world = collide::world::World3::new();
    assert!(
        Ragdoll::new(
            body.clone(),
            settings,
            Vec3::NAN,
            Quat::IDENTITY,
            Vec3::ZERO,
            &mut world,
            ()
        )
        .is_err()
    );
    assert!(
        Ragdoll::new(
            body.clone(),
            settings,
            Vec3::ZERO,
            Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
            Vec3::ZERO,
            &mut world,
            ()
        )
        .is_err()
    );
    let at = (Vec3::ZERO, Quat::IDENTITY, Vec3::ZERO);
    let mut r = Ragdoll::new(body, settings, at.0, at.1, at.2, &mut world, ()).unwrap();
    // Nothing is left in the world by the bodies refused.
    assert_eq!(world.len(), r.colliders().len());
    assert!(r.set_target(&[Vec3::ZERO; 3]).is_err());
    assert!(r.set_part_weight(0, 1.5).is_err());
    assert!(r.set_part_weight(99, 0.5).is_err());
    assert!(Skeleton::humanoid(1.8, 0.0).is_err());
    assert!(Skeleton::humanoid(1e-8, 75.0).is_err());
    assert!(Skeleton::humanoid(1.8, 1e-38).is_err());
    assert!(Skeleton::humanoid(1.8, 1e30).is_err());
    assert_eq!(r.velocity(99), None);
    assert!(settings.with_iterations(0).is_err());
    assert!(settings.with_sleep(-1.0, 0.5).is_err());
    let _ = GRAVITY;
}

#[test]
fn tumbling_down_stairs_never_gains_energy() {
    for seed in 0..10 {
        let s = seed as f32;
        let turn = Quat::from_euler(
            collide_game::glam::EulerRot::XYZ,
            -0.5 + 0.3 * s,
            0.7 * s,
            0.2 * s,
        );
        let mut world = stairs();
        let mut r = doll(
            &mut world,
            Vec3::new(0.0, 3.0 + (seed % 3) as f32 * 2.0, 1.0),
            turn,
            Vec3::new(0.3 * (s - 5.0), 0.0, -1.0 - 0.5 * s),
        );
        // Kinetic plus potential energy, the floor's height as zero.
        let energy =
            |r: &Ragdoll| r.kinetic_energy() + r.skeleton().mass() * 9.81 * r.centre_of_mass().y;
        let start = energy(&r);
        for tick in 0..480 {
            r.step(dt(), &mut world.world).unwrap();
            let now = energy(&r);
            assert!(
                now <= 1.03 * start,
                "seed {seed}, tick {tick}: {now} J from {start} J"
            );
        }
    }
}

#[test]
fn a_half_weight_follows_a_walking_pose_part_of_the_way() {
    let mut floor = Boxes::new(&[(Vec3::new(-50.0, -1.0, -50.0), Vec3::new(50.0, 0.0, 50.0))]);
    let mut r = doll(&mut floor, Vec3::ZERO, Quat::IDENTITY, Vec3::ZERO);
    r.set_weight(0.5).unwrap();
    for tick in 0..120 {
        let target = posed(
            &r,
            Vec3::new(0.0, 0.0, -1.4 * tick as f32 / 60.0),
            Quat::IDENTITY,
        );
        r.set_target(&target).unwrap();
        r.step(dt(), &mut floor.world).unwrap();
    }
    // Pulled half the way each tick, it keeps up with the walk (2.8 m)
    // within a few ticks' lag, at the walk's speed: the energy the
    // animation adds is not taken back.
    let z = r.centre_of_mass().z;
    assert!(z < -2.3, "it walked to {z}");
    let speed = -r.momentum().z / r.skeleton().mass();
    assert!(speed > 1.0 && speed < 1.6, "at {speed} m/s");
}

#[test]
fn a_sleeping_ragdoll_wakes_when_something_presses_into_it() {
    let floor = (Vec3::new(-20.0, -1.0, -20.0), Vec3::new(20.0, 0.0, 20.0));
    let lying = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2);
    let mut world = Boxes::new(&[floor]);
    let mut r = doll(&mut world, Vec3::new(0.0, 0.3, 0.0), lying, Vec3::ZERO);
    for _ in 0..240 {
        r.step(dt(), &mut world.world).unwrap();
    }
    assert!(r.is_asleep());
    // A crate lands on its chest.
    let chest = r.positions()[1];
    let crate_box = Cuboid::new(Vec3::new(0.3, 0.325, 0.3)).unwrap();
    let at = Pose::at(chest + Vec3::new(0.0, 0.275, 0.0)).unwrap();
    world
        .world
        .insert(Collider3::fixed(crate_box, at, ()))
        .unwrap();
    r.step(dt(), &mut world.world).unwrap();
    assert!(!r.is_asleep(), "it slept on under the crate");
}

/// A four-legged body: a rigid trunk (hip and shoulder clusters tied
/// together), a neck and head, and four legs with a knee each.
fn quadruped() -> Skeleton {
    use collide_game::ragdoll::SkeletonBuilder;
    let mut b = SkeletonBuilder::new();
    let v = Vec3::new;
    let hip = b.joint(v(0.0, 0.62, 0.4), 6.0).unwrap();
    let chest = b.joint(v(0.0, 0.64, -0.4), 6.0).unwrap();
    let head = b.joint(v(0.0, 0.85, -0.7), 2.0).unwrap();
    b.part(hip, chest, 0.12).unwrap();
    b.part(chest, head, 0.08).unwrap();
    let mut tops = Vec::new();
    for (x, z, root) in [
        (-0.12, 0.4, hip),
        (0.12, 0.4, hip),
        (-0.12, -0.4, chest),
        (0.12, -0.4, chest),
    ] {
        let top = b.joint(v(x, 0.55, z), 3.0).unwrap();
        b.tie(root, top).unwrap();
        tops.push((top, x, z));
    }
    b.part(tops[0].0, tops[1].0, 0.08).unwrap();
    b.part(tops[2].0, tops[3].0, 0.08).unwrap();
    for (a, c) in [(0, 2), (1, 3), (0, 3), (1, 2)] {
        b.tie(tops[a].0, tops[c].0).unwrap();
    }
    let trunk = b.frame(tops[0].0, hip, tops[0].0, tops[1].0).unwrap();
    let front = b.frame(tops[2].0, chest, tops[2].0, tops[3].0).unwrap();
    b.torso(trunk).unwrap();
    b.cone(front, chest, head, v(0.0, 0.7, -0.7), 0.8).unwrap();
    for (k, &(top, x, z)) in tops.iter().enumerate() {
        let frame = if k < 2 { trunk } else { front };
        let knee = b.joint(v(x, 0.3, z + 0.02), 1.0).unwrap();
        let foot = b.joint(v(x, 0.05, z), 0.5).unwrap();
        b.part(top, knee, 0.05).unwrap();
        b.part(knee, foot, 0.04).unwrap();
        b.limb(frame, top, knee, foot, -Vec3::Y, 0.9, 0.4, Vec3::Z)
            .unwrap();
        b.hinge(frame, top, knee, foot, 2.2).unwrap();
    }
    b.build().unwrap()
}

#[test]
fn a_four_legged_skeleton_falls_keeping_its_limits_and_bones() {
    let body = quadruped();
    assert_eq!(body.particle_count(), 15);
    let mut floor = Boxes::new(&[(Vec3::new(-20.0, -1.0, -20.0), Vec3::new(20.0, 0.0, 20.0))]);
    let mut r = Ragdoll::new(
        body,
        RagdollSettings::default(),
        Vec3::new(0.0, 3.0, 0.0),
        Quat::from_rotation_z(0.7),
        Vec3::X,
        &mut floor.world,
        (),
    )
    .unwrap();
    let (worst_limit, worst_length) = fall(&mut r, &mut floor, 360);
    assert!(
        worst_limit < 1e-3,
        "a joint went {worst_limit} rad past its limit"
    );
    assert!(worst_length < 0.01, "a bone was off by {worst_length} m");
    assert!(
        r.positions().iter().all(|p| p.y > -0.01),
        "something sank into the floor"
    );
}

#[test]
fn a_bad_skeleton_description_is_an_error() {
    use collide_game::ragdoll::SkeletonBuilder;
    let mut b = SkeletonBuilder::new();
    let a = b.joint(Vec3::ZERO, 1.0).unwrap();
    let c = b.joint(Vec3::X, 1.0).unwrap();
    let lone = b.joint(Vec3::new(5.0, 0.0, 0.0), 1.0).unwrap();
    assert!(b.joint(Vec3::NAN, 1.0).is_err());
    assert!(b.joint(Vec3::Y, -1.0).is_err());
    b.part(a, c, 0.1).unwrap();
    assert!(b.part(a, c, 0.0).is_err());
    // Three joints on a line make no frame.
    assert!(b.frame(a, lone, a, c).is_err());
    let top = b.joint(Vec3::Y, 1.0).unwrap();
    let f = b.frame(a, top, a, c).unwrap();
    assert!(b.cone(f, a, c, Vec3::ZERO, 0.5).is_err());
    assert!(b.cone(f, a, c, Vec3::X, 4.0).is_err());
    b.tie(a, top).unwrap();
    // The lone joint hangs on nothing.
    assert!(b.clone().build().is_err());
    b.tie(c, lone).unwrap();
    b.build().unwrap();
    assert!(SkeletonBuilder::new().build().is_err());
}

/// A ragdoll at rest in empty space, without gravity or sleep, at turned
/// orientations: the bones' fixes turned the rounding of a turned pose's
/// coordinates into speed, tick by tick (the 1.8 m humanoid turned by 1
/// rad about x: 4.5e-8 J at 10 s, 1.2e-6 J at 60 s; a 3 m, 300 kg one
/// 1.5e-5 J within 28 s). Now its momentum stays zero and its kinetic
/// energy under 1e-6 J for ten minutes of ticks.
#[test]
fn a_ragdoll_at_rest_in_empty_space_at_any_orientation_stays_at_rest() {
    let mut rng = collide_scenes::SceneRng::new(21);
    let mut cases = vec![(Quat::from_rotation_x(1.0), 1.8, 75.0, 36_000)];
    for _ in 0..3 {
        let axis = Vec3::new(rng.normal(), rng.normal(), rng.normal()).normalize();
        let turn = Quat::from_axis_angle(axis, rng.range(0.0, 3.0));
        cases.push((turn, 1.8, 75.0, 7_200));
    }
    cases.push((
        Quat::from_rotation_z(2.2) * Quat::from_rotation_x(0.7),
        3.0,
        300.0,
        7_200,
    ));
    for (turn, height, mass, ticks) in cases {
        let mut empty = Boxes::new(&[]);
        let settings = RagdollSettings::default()
            .with_sleep(0.0, 1.0)
            .unwrap()
            .with_gravity(Gravity::none());
        let body = Skeleton::humanoid(height, mass).unwrap();
        let at = Vec3::new(0.3, -0.2, 0.1);
        let mut r =
            Ragdoll::new(body, settings, at, turn, Vec3::ZERO, &mut empty.world, ()).unwrap();
        let (mut energy, mut momentum) = (0.0f32, 0.0f32);
        for _ in 0..ticks {
            r.step(dt(), &mut empty.world).unwrap();
            energy = energy.max(r.kinetic_energy());
            momentum = momentum.max(r.momentum().length());
        }
        assert!(energy < 1e-6, "{height} m turned by {turn}: {energy} J");
        assert!(
            momentum < 1e-5,
            "{height} m turned by {turn}: momentum {momentum}"
        );
    }
}

/// A level for a random drop: a floor with its top at y 0, alone
/// (`kind` 0), with ten stairs of random rise and run (1), or with six
/// random crates on it (2).
fn random_level(rng: &mut SceneRng, kind: usize) -> Vec<(Vec3, Vec3)> {
    let mut boxes = vec![(Vec3::new(-30.0, -2.0, -40.0), Vec3::new(30.0, 0.0, 30.0))];
    match kind {
        0 => {}
        1 => {
            let (rise, run) = (rng.range(0.15, 0.35), rng.range(0.25, 0.45));
            for k in 0..10 {
                boxes.push((
                    Vec3::new(-2.0, -1.0, -run * (k + 1) as f32),
                    Vec3::new(2.0, rise * (10 - k) as f32, 4.0),
                ));
            }
        }
        _ => {
            for _ in 0..6 {
                let centre = Vec3::new(rng.range(-1.5, 1.5), 0.0, rng.range(-1.5, 1.5));
                let half = Vec3::new(
                    rng.range(0.2, 0.8),
                    rng.range(0.1, 0.6),
                    rng.range(0.2, 0.8),
                );
                boxes.push((
                    centre - Vec3::new(half.x, 0.0, half.z),
                    centre + Vec3::new(half.x, 2.0 * half.y, half.z),
                ));
            }
        }
    }
    boxes
}

/// How deep the deepest point of any part's core (the segment between
/// its particles) lies inside any of `boxes`, metres (0 outside all).
fn deepest_core(boxes: &[(Vec3, Vec3)], r: &Ragdoll) -> f32 {
    let p = r.positions();
    let mut worst = 0.0f32;
    for &(a, b, _) in r.skeleton().parts() {
        for k in 0..=8 {
            let x = p[a].lerp(p[b], k as f32 / 8.0);
            for &(lo, hi) in boxes {
                worst = worst.max((x - lo).min(hi - x).min_element());
            }
        }
    }
    worst
}

/// What a random drop showed, its worst after any tick.
#[derive(Default)]
struct Drop {
    /// The deepest point of a part's core inside geometry, m.
    depth: f32,
    /// The most energy gained over the start, as a share of it.
    gain: f32,
    /// The most the centre of mass rose in a tick that began and ended
    /// with under 1e-6 J of kinetic energy, m.
    rise_at_rest: f32,
    /// The most a joint ended a tick past its limit, radians.
    excess: f32,
}

/// Fifty drops of a humanoid that never sleeps (sleeping could hide a
/// fault) from 2 to 14.5 m, at random orientations and with up to 3 m/s
/// across, onto floors, stairs and crates, four seconds each.
fn random_drops() -> Vec<Drop> {
    let mut rng = SceneRng::new(0x0dd_d0115);
    let settings = RagdollSettings::default().with_sleep(0.0, 0.5).unwrap();
    let energy =
        |r: &Ragdoll| r.kinetic_energy() + r.skeleton().mass() * 9.81 * r.centre_of_mass().y;
    (0..50)
        .map(|k| {
            let kind = k % 3;
            let level = random_level(&mut rng, kind);
            let mut world = Boxes::new(&level);
            let mut angle = || rng.range(-3.1, 3.1);
            let turn = Quat::from_euler(EulerRot::XYZ, angle(), angle(), angle());
            let above = if kind == 1 { 4.5 } else { 2.0 };
            let at = Vec3::new(
                rng.range(-1.0, 1.0),
                above + rng.range(0.0, 10.0),
                rng.range(-1.0, 1.0),
            );
            let velocity = Vec3::new(rng.range(-3.0, 3.0), 0.0, rng.range(-3.0, 3.0));
            let body = Skeleton::humanoid(1.8, 75.0).unwrap();
            let mut r =
                Ragdoll::new(body, settings, at, turn, velocity, &mut world.world, ()).unwrap();
            let start = energy(&r);
            let mut drop = Drop::default();
            for _ in 0..240 {
                let (height, moving) = (r.centre_of_mass().y, r.kinetic_energy());
                r.step(dt(), &mut world.world).unwrap();
                drop.depth = drop.depth.max(deepest_core(&level, &r));
                drop.excess = drop.excess.max(r.limit_excess());
                drop.gain = drop.gain.max((energy(&r) - start) / start);
                if moving < 1e-6 && r.kinetic_energy() < 1e-6 {
                    drop.rise_at_rest = drop.rise_at_rest.max(r.centre_of_mass().y - height);
                }
            }
            drop
        })
        .collect()
}

#[test]
fn over_fifty_random_drops_it_never_gains_a_hundredth_of_its_energy() {
    for (k, drop) in random_drops().iter().enumerate() {
        assert!(
            drop.gain <= 0.01,
            "drop {k}: {} of its energy gained",
            drop.gain
        );
    }
}

#[test]
fn over_fifty_random_drops_no_part_ends_a_tick_inside_geometry_nor_past_a_limit() {
    for (k, drop) in random_drops().iter().enumerate() {
        assert!(
            drop.depth <= 5e-3,
            "drop {k}: a part's core {} m inside",
            drop.depth
        );
        assert!(
            drop.excess <= 1e-3,
            "drop {k}: a joint {} rad past its limit",
            drop.excess
        );
    }
}

#[test]
fn over_fifty_random_drops_a_body_at_rest_never_rises() {
    for (k, drop) in random_drops().iter().enumerate() {
        assert!(
            drop.rise_at_rest <= 1e-4,
            "drop {k}: rose {} m at rest",
            drop.rise_at_rest
        );
    }
}
