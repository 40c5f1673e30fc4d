//! Sweeps that turn, checked against dense sampling of the turn; and why
//! old games tunnel: a mover that checks only the ends of a few sub-steps
//! (four a frame, as Super Mario 64 moves) passes a thin wall exactly when
//! one sub-step is longer than the wall plus the mover, where the sweep
//! never does.

use collide::motion::{Response, SweepLimits, d2 as motion2};
use collide::narrow::Support;
use collide::narrow::d2::{Capsule, Circle, Cuboid, Polygon, Pose, cast_turning, distance};
use collide::narrow::d3;
use collide::{Aabb2, BroadPhase, Bvh, Handle};
use collide_scenes::SceneRng;
use glam::{Quat, Vec2, Vec3};

/// The first of `samples` evenly spaced times at which the mover, moved and
/// turned linearly, overlaps the target (a gap below `-slack`): the oracle
/// a turning cast must never pass.
fn first_overlap(
    mover: &dyn Support<Vec2>,
    start: Pose,
    motion: Vec2,
    turn: f32,
    target: &dyn Support<Vec2>,
    at: &Pose,
    samples: usize,
) -> Option<f32> {
    (0..=samples).map(|k| k as f32 / samples as f32).find(|&t| {
        let pose = Pose::new(start.position() + motion * t, start.angle() + turn * t).unwrap();
        collide::narrow::d2::contact(mover, &pose, target, at).depth > 1e-4
    })
}

#[test]
fn a_blade_swung_170_degrees_in_one_tick_hits_a_thin_post() {
    let blade = Cuboid::new(Vec2::new(1.0, 0.02)).unwrap();
    let post = Cuboid::new(Vec2::splat(0.005)).unwrap();
    for (k, post_angle) in [20.0f32, 60.0, 89.0, 90.0, 120.0, 160.0]
        .into_iter()
        .enumerate()
    {
        let r = 0.5 + 0.08 * k as f32;
        let post_at = Pose::at(Vec2::from_angle(post_angle.to_radians()) * r).unwrap();
        let swing = 170f32.to_radians();
        let hit = cast_turning(&blade, &Pose::IDENTITY, Vec2::ZERO, swing, &post, &post_at)
            .unwrap()
            .unwrap_or_else(|| panic!("the swing missed the post at {post_angle} degrees"));
        let oracle = first_overlap(
            &blade,
            Pose::IDENTITY,
            Vec2::ZERO,
            swing,
            &post,
            &post_at,
            20_000,
        )
        .expect("sampling finds the overlap");
        assert!(
            hit.t <= oracle,
            "{post_angle}: hit at {} after the overlap at {oracle}",
            hit.t
        );
        assert!(
            oracle - hit.t < 2e-3,
            "{post_angle}: hit at {}, overlap at {oracle}",
            hit.t
        );
        let at_hit = Pose::new(Vec2::ZERO, swing * hit.t).unwrap();
        assert!(distance(&blade, &at_hit, &post, &post_at) < 1e-3);
    }
}

#[test]
fn turning_casts_never_pass_an_overlap_that_sampling_finds() {
    let mut rng = SceneRng::new(2024);
    let movers: Vec<Box<dyn Support<Vec2>>> = vec![
        Box::new(Cuboid::new(Vec2::new(0.8, 0.05)).unwrap()),
        Box::new(Capsule::new(0.6, 0.05).unwrap()),
        Box::new(
            Polygon::new(&[
                Vec2::new(-0.2, -0.1),
                Vec2::new(0.9, 0.0),
                Vec2::new(-0.2, 0.1),
            ])
            .unwrap(),
        ),
        Box::new(Circle::new(0.1).unwrap()),
    ];
    let wall = Cuboid::new(Vec2::new(0.005, 0.6)).unwrap();
    let (mut hits, mut misses) = (0, 0);
    for case in 0..400 {
        let mover = movers[case % movers.len()].as_ref();
        let start = Pose::new(
            Vec2::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)),
            rng.range(-3.0, 3.0),
        )
        .unwrap();
        let motion = Vec2::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
        let turn = rng.range(-6.0, 6.0);
        let wall_at = Pose::new(
            Vec2::new(rng.range(-1.5, 1.5), rng.range(-1.5, 1.5)),
            rng.range(-3.0, 3.0),
        )
        .unwrap();
        if collide::narrow::d2::contact(mover, &start, &wall, &wall_at).depth > -1e-3 {
            continue; // starting on the wall: not the question here
        }
        let oracle = first_overlap(mover, start, motion, turn, &wall, &wall_at, 4_000);
        let cast = cast_turning(mover, &start, motion, turn, &wall, &wall_at).unwrap();
        match (cast, oracle) {
            (None, Some(t)) => panic!("case {case}: tunnelled through an overlap at {t}"),
            (Some(hit), Some(t)) => {
                assert!(hit.t <= t + 1e-6, "case {case}: hit at {} after {t}", hit.t);
                hits += 1;
            }
            (Some(hit), None) => {
                // A graze between samples: it must be a real touch.
                let pose = Pose::new(
                    start.position() + motion * hit.t,
                    start.angle() + turn * hit.t,
                )
                .unwrap();
                assert!(
                    distance(mover, &pose, &wall, &wall_at) < 1e-3,
                    "case {case}"
                );
            }
            (None, None) => misses += 1,
        }
    }
    assert!(
        hits > 50 && misses > 50,
        "{hits} hits, {misses} misses: the cases should mix"
    );
}

#[test]
fn a_plank_turning_in_3d_hits_a_post_between_its_end_poses() {
    let plank = d3::Cuboid::new(Vec3::new(1.0, 0.02, 0.1)).unwrap();
    let post = d3::Cuboid::new(Vec3::splat(0.005)).unwrap();
    let post_at = d3::Pose::at(Vec3::new(0.0, 0.0, -0.8)).unwrap();
    let turn = Vec3::Y * 170f32.to_radians();
    let start = d3::Pose::IDENTITY;
    let hit = d3::cast_turning(&plank, &start, Vec3::ZERO, turn, &post, &post_at)
        .unwrap()
        .expect("hits");
    let end = d3::Pose::new(Vec3::ZERO, Quat::from_scaled_axis(turn)).unwrap();
    assert!(
        d3::distance(&plank, &end, &post, &post_at) > 0.1,
        "the end pose misses"
    );
    let at_hit = d3::Pose::new(Vec3::ZERO, Quat::from_scaled_axis(turn * hit.t)).unwrap();
    assert!(d3::distance(&plank, &at_hit, &post, &post_at) < 1e-3);
    assert!(
        d3::cast_turning(
            &plank,
            &start,
            Vec3::ZERO,
            Vec3::new(f32::NAN, 0.0, 0.0),
            &post,
            &post_at
        )
        .is_err()
    );
}

/// A 0.1 m ball (radius 0.05) fired at a 1 cm wall over one 60 Hz tick, by
/// `speed` m/s: whether four quarter steps that check only their ends
/// leave it beyond the wall, and whether the sweep does.
fn through_the_wall(speed: f32) -> (bool, bool) {
    let (radius, thickness) = (0.05f32, 0.01f32);
    let wall = Cuboid::new(Vec2::new(thickness / 2.0, 1.0)).unwrap();
    let ball = Circle::new(radius).unwrap();
    let mut world: Bvh<Vec2> = Bvh::new();
    // The wall's near face at x = 1; the ball starts just short of touching
    // it, so a quarter step's end lands in it unless the step is longer
    // than the wall plus the ball.
    let wall_at = Pose::at(Vec2::new(1.0 + thickness / 2.0, 0.0)).unwrap();
    let id = world.insert(wall.aabb(&wall_at), ()).unwrap();
    world.step();
    let shape_of = |h: Handle| (h == id).then_some((&wall as &dyn Support<Vec2>, wall_at));
    let start = Pose::at(Vec2::new(1.0 - radius - 1e-5, 0.0)).unwrap();
    let motion = Vec2::new(speed / 60.0, 0.0);
    let stepped = motion2::substep(&world, shape_of, &ball, start, motion, 4);
    let swept = motion2::sweep(
        &world,
        shape_of,
        &ball,
        start,
        motion,
        Response::Stop,
        SweepLimits::default(),
    );
    let beyond = |pose: Pose| pose.position().x - radius > 1.0 + thickness;
    (
        beyond(stepped.end) && stepped.touched.is_none(),
        beyond(swept.end),
    )
}

#[test]
fn quarter_steps_tunnel_exactly_when_a_step_outruns_the_wall_and_the_sweep_never_does() {
    let (radius, thickness) = (0.05f32, 0.01f32);
    // Tunnels when a quarter of a tick's travel exceeds wall plus ball.
    let threshold = (thickness + 2.0 * radius) * 4.0 * 60.0;
    let mut tunnelled = 0;
    for k in 0..200 {
        let speed = 10f32.powf(4.0 * k as f32 / 199.0); // 1 to 10,000 m/s
        let (stepped, swept) = through_the_wall(speed);
        assert!(!swept, "the sweep passed the wall at {speed} m/s");
        if (speed / threshold - 1.0).abs() < 1e-3 {
            continue; // on the boundary: rounding decides
        }
        assert_eq!(
            stepped,
            speed > threshold,
            "quarter steps at {speed} m/s (threshold {threshold})"
        );
        tunnelled += usize::from(stepped);
    }
    assert!(
        tunnelled > 100,
        "most of the range is above the threshold: {tunnelled}"
    );
}

#[test]
fn a_turning_sweep_through_a_world_finds_the_first_object_swung_into() {
    let post = Cuboid::new(Vec2::splat(0.005)).unwrap();
    let blade = Cuboid::new(Vec2::new(1.0, 0.02)).unwrap();
    let mut world: Bvh<Vec2> = Bvh::new();
    let mut poses = Vec::new();
    for (angle, r) in [(120.0f32, 0.9), (60.0, 0.7), (300.0, 0.5)] {
        let at = Pose::at(Vec2::from_angle(angle.to_radians()) * r).unwrap();
        let h = world.insert(post.aabb(&at), ()).unwrap();
        poses.push((h, at));
    }
    world
        .insert(
            Aabb2::new(Vec2::splat(50.0), Vec2::splat(51.0)).unwrap(),
            (),
        )
        .unwrap();
    world.step();
    let shape_of = |h: Handle| {
        poses
            .iter()
            .find(|(id, _)| *id == h)
            .map(|&(_, at)| (&post as &dyn Support<Vec2>, at))
    };
    let swing = 170f32.to_radians();
    let hit = motion2::sweep_turning(&world, shape_of, &blade, Pose::IDENTITY, Vec2::ZERO, swing)
        .unwrap()
        .expect("the blade meets a post");
    // The post at 60 degrees comes first (the blade's far end meets the
    // one at 300 degrees only at 120).
    assert_eq!(hit.handle, poses[1].0);
    assert!(
        (hit.t * swing - 59f32.to_radians()).abs() < 0.03,
        "at {}",
        hit.t
    );
}
