//! Ragdolls as colliders of the world: bodies land on each other, shots
//! meet their parts, threads see each other's bodies where the last tick
//! left them.

use super::dt;
use crate::common::Boxes;
use collide::geometry::Ray;
use collide::world::{QueryFilter, WorldQuery};
use collide_game::glam::{Quat, Vec3};
use collide_game::ragdoll::{Ragdoll, RagdollSettings, Skeleton};

/// A humanoid lying face up, `y` metres up, in `world`.
fn lying_at(world: &mut Boxes, y: f32) -> Ragdoll {
    let body = Skeleton::humanoid(1.8, 75.0).unwrap();
    let face_up = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
    let at = Vec3::new(0.0, y, 0.0);
    Ragdoll::new(
        body,
        RagdollSettings::default(),
        at,
        face_up,
        Vec3::ZERO,
        &mut world.world,
        (),
    )
    .unwrap()
}

#[test]
fn a_ragdoll_dropped_onto_another_comes_to_rest_on_it_and_shots_meet_the_top_one() {
    let mut world = Boxes::new(&[(Vec3::new(-20.0, -1.0, -20.0), Vec3::new(20.0, 0.0, 20.0))]);
    let mut under = lying_at(&mut world, 0.3);
    let mut over = lying_at(&mut world, 1.2);
    for _ in 0..300 {
        under.step(dt(), &mut world.world).unwrap();
        over.step(dt(), &mut world.world).unwrap();
        world.world.step();
    }
    let (low, high) = (under.centre_of_mass().y, over.centre_of_mass().y);
    assert!(
        high > low + 0.15,
        "the top body lies at {high} m, the lower at {low} m"
    );
    // Its colliders lie where its parts are.
    for (k, &h) in over.colliders().iter().enumerate() {
        let (a, b, _) = over.skeleton().parts()[k];
        let middle = 0.5 * (over.positions()[a] + over.positions()[b]);
        let pose = world.world.pose(h).unwrap();
        assert!(pose.position().distance(middle) < 1e-4, "part {k}");
        assert_eq!(over.part_of(h), Some(k));
    }
    // A shot straight down at the top body's middle meets one of its parts.
    let ray = Ray::new(over.centre_of_mass() + 5.0 * Vec3::Y, -Vec3::Y, 10.0).unwrap();
    let hit = world.world.cast_ray(&ray, &QueryFilter::new()).unwrap();
    assert!(
        over.part_of(hit.handle).is_some(),
        "the shot met {:?}",
        hit.handle
    );
    assert_eq!(under.part_of(hit.handle), None);
}
