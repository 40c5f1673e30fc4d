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
    assert!(Rewind::<Vec3>::new(0).is_err());
    let message = history.at(9).unwrap_err().to_string();
    assert!(
        message.contains("tick 9 is not kept (ticks 5 to 5 are)"),
        "{message}"
    );
}
