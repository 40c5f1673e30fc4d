//! Rewind keeps the world of each of the last N ticks: a shot tested
//! against the tick the shooter saw hits where the target was then, the
//! memory stays at N snapshots, and ticks not kept are errors.

use collide::geometry::Ray;
use collide::{Aabb3, BroadPhase, Bvh, Query};
use collide_game::GameError;
use collide_game::glam::Vec3;
use collide_game::rewind::Rewind;

#[test]
fn a_shot_against_the_shooters_tick_hits_where_the_target_was() {
    let mut world: Bvh<Vec3> = Bvh::new();
    let target = world
        .insert(Aabb3::new(Vec3::ZERO, Vec3::ONE).unwrap(), ())
        .unwrap();
    let mut history = Rewind::new(10).unwrap();
    // The target runs along x at 6 m/s, 60 ticks a second.
    for tick in 0..100u64 {
        let x = tick as f32 * 0.1;
        let aabb = Aabb3::new(Vec3::new(x, 0.0, 0.0), Vec3::new(x + 1.0, 2.0, 1.0)).unwrap();
        world.update(target, aabb).unwrap();
        world.step();
        history.record(tick, world.snapshot()).unwrap();
        assert!(history.len() <= 10);
    }
    assert_eq!(history.len(), 10);
    // A shot fired at tick 99 by a player who saw tick 93 (100 ms behind),
    // aimed at where the target was then: x from 9.3 to 10.3.
    let shot = Ray::new(Vec3::new(9.8, 1.0, -5.0), Vec3::Z, 20.0).unwrap();
    assert_eq!(
        history
            .at(93)
            .unwrap()
            .query_ray_closest(&shot)
            .map(|h| h.handle),
        Some(target)
    );
    assert!(
        world.query_ray_closest(&shot).is_none(),
        "now the target is at 9.9 to 10.9"
    );
    for tick in [89, 100, 1_000] {
        assert_eq!(
            history.at(tick).unwrap_err(),
            GameError::NotKept {
                tick,
                kept: Some((90, 99))
            }
        );
    }
}

#[test]
fn ticks_must_come_in_order_and_a_history_must_keep_one() {
    let world: Bvh<Vec3> = Bvh::new();
    let mut history = Rewind::new(3).unwrap();
    assert_eq!(
        history.at(0).unwrap_err(),
        GameError::NotKept {
            tick: 0,
            kept: None
        }
    );
    history.record(5, world.snapshot()).unwrap();
    assert_eq!(
        history.record(5, world.snapshot()).unwrap_err(),
        GameError::OutOfOrder { tick: 5, newest: 5 }
    );
    assert!(history.record(4, world.snapshot()).is_err());
    assert_eq!(history.len(), 1);
    assert!(Rewind::<collide::Snapshot<Vec3>>::new(0).is_err());
    let message = history.at(9).unwrap_err().to_string();
    assert!(
        message.contains("tick 9 is not kept (ticks 5 to 5 are)"),
        "{message}"
    );
}

#[test]
fn a_rewound_world_answers_with_the_shapes_as_they_were() {
    use collide::narrow::d3::{Pose, Sphere};
    use collide::world::{Collider3, QueryFilter, World3, WorldQuery};
    let mut world = World3::new();
    let ball = Sphere::new(0.5).unwrap();
    let target = world
        .insert(Collider3::moving(ball, Pose::IDENTITY, ()))
        .unwrap();
    let mut history = Rewind::new(10).unwrap();
    for tick in 0..100u64 {
        let at = Vec3::new(tick as f32 * 0.1, 1.0, 0.0);
        world.set_pose(target, Pose::at(at).unwrap()).unwrap();
        world.step();
        history.record(tick, world.snapshot()).unwrap();
    }
    let past = history.at(93).unwrap();
    let cast = |origin: Vec3| {
        let shot = Ray::new(origin, Vec3::Z, 20.0).unwrap();
        past.cast_ray(&shot, &QueryFilter::new())
            .map(|hit| (hit.handle, hit.t))
    };
    // Through the ball's centre as it was (x 9.3): in at 5 m less its
    // radius.
    let (h, t) = cast(Vec3::new(9.3, 1.0, -5.0)).unwrap();
    assert_eq!(h, target);
    assert!((t - 4.5).abs() < 1e-5, "{t}");
    // Through its box's corner, beside the ball: no hit in the shapes.
    assert_eq!(cast(Vec3::new(9.3 + 0.45, 1.45, -5.0)), None);
    assert!(past.query_aabb_any(
        &Aabb3::new(Vec3::new(9.74, 1.44, -0.1), Vec3::new(9.76, 1.46, 0.1)).unwrap()
    ));
    // Now the ball is at 9.9: the old line misses it.
    let now = Ray::new(Vec3::new(9.3, 1.0, -5.0), Vec3::Z, 20.0).unwrap();
    assert!(world.cast_ray(&now, &QueryFilter::new()).is_none());
}
