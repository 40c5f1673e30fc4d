//! Rewind: a shot tested against the collision world's snapshot of the
//! tick the shooter saw, while the target runs; and a still world
//! queried in the past for ten minutes.
//!
//! Claims: the same hits, at distances within 1e-6 of the 20 m scene (4
//! ulps far out), mirrored bit for bit; history counts ticks, so tick
//! rates are not compared.

use collide::geometry::Ray;
use collide::narrow::d3::{Cuboid, Pose};
use collide::world::{Collider3, QueryFilter, World3, WorldQuery};
use collide::{Aabb3, Handle};
use collide_game::glam::Vec3;
use collide_game::rewind::Rewind;
use collide_scenes::invariance::{Claims, Frame, Invariance, Outcome, REST_TICKS, Rate, at_rest};

/// A box of the scenario (corners), placed in the frame, as a cuboid's
/// half extents and pose.
fn placed(frame: &Frame, lo: Vec3, hi: Vec3) -> (Cuboid, Pose) {
    let (a, b) = (frame.point3(lo), frame.point3(hi));
    let bounds = Aabb3::new(a.min(b), a.max(b)).unwrap();
    let half = 0.5 * (bounds.max() - bounds.min());
    let centre = bounds.min() + half;
    (Cuboid::new(half).unwrap(), Pose::at(centre).unwrap())
}

/// A target running along x at `speed` m/s for `ticks` in the collision
/// world; every `each` ticks a shot aimed where it was six ticks before,
/// asked of the world's snapshot of that tick.
fn shots(frame: &Frame, speed: f32, ticks: u64, each: u64) -> Outcome {
    let mut world = World3::new();
    let lo = |tick: u64| Vec3::new(tick as f32 * speed / 60.0 - 5.0, 0.0, 0.0);
    let (shape, pose) = placed(frame, lo(0), lo(0) + Vec3::new(1.0, 2.0, 1.0));
    let target: Handle = world.insert(Collider3::moving(shape, pose, ())).unwrap();
    let (floor, at) = placed(frame, Vec3::new(-8.0, -1.0, -8.0), Vec3::new(8.0, 0.0, 8.0));
    world.insert(Collider3::fixed(floor, at, ())).unwrap();
    let mut history = Rewind::new(10).unwrap();
    let mut outcome = Outcome::new();
    for tick in 0..ticks {
        let corner = lo(tick);
        let (_, pose) = placed(frame, corner, corner + Vec3::new(1.0, 2.0, 1.0));
        world.set_pose(target, pose).unwrap();
        world.step();
        history.record(tick, world.snapshot()).unwrap();
        if tick >= 6 && tick.is_multiple_of(each) {
            // Aimed at where the target was six ticks ago, from the side.
            let then = lo(tick - 6) + Vec3::new(0.5, 1.0, -6.0);
            let ray = Ray::new(frame.point3(then), Vec3::Z, frame.length(20.0)).unwrap();
            let past = history.at(tick - 6).unwrap();
            let hit = past.cast_ray(&ray, &QueryFilter::new());
            outcome.exact(
                "hit the target",
                i64::from(hit.is_some_and(|h| h.handle == target)),
            );
            outcome.measure(
                "distance to the hit",
                hit.map_or(-1.0, |h| f64::from(h.t)),
                1,
            );
        }
    }
    outcome
}

fn claims() -> Claims {
    Claims::new(20.0, 1e-6).mirror_exact()
}

#[test]
fn rewound_shots_hold_mirrored_scaled_and_far_from_the_origin() {
    let run = Invariance::new(
        "shots at a running target's past",
        claims(),
        |frame: &Frame, _: &Rate| shots(frame, 6.0, 100, 5),
    );
    run.mirrored().assert_holds();
    run.scaled().assert_holds();
    run.far_out().assert_holds();
}

#[test]
fn a_still_world_rewound_stays_for_ten_minutes() {
    let still = |frame: &Frame, _: &Rate, ticks: u64| shots(frame, 0.0, ticks, 600);
    at_rest("a still world rewound", claims(), REST_TICKS, still).assert_holds();
}
