//! Worlds of 3D boxes for the demo's game systems: the boxes as fixed
//! colliders of a collision world.

use collide::Structure;
use collide::narrow::d3::{Cuboid, Pose};
use collide::world::{Collider3, World3, WorldSettings};
use collide_game::{D3, Gravity, Surroundings};
use glam::{Quat, Vec3};

/// Standard gravity, m/s².
pub const GRAVITY: Vec3 = Vec3::new(0.0, -9.81, 0.0);

/// Axis-aligned boxes as fixed colliders of a world (over a dense grid).
pub struct BoxWorld {
    world: World3,
    corners: Vec<(Vec3, Vec3)>,
}

impl BoxWorld {
    /// The boxes from `lo` to `hi` corners.
    pub fn new(corners: Vec<(Vec3, Vec3)>) -> Self {
        let valid = "the demo's boxes are valid";
        let mut world =
            World3::with_settings(WorldSettings::default().with_structure(Structure::Grid));
        for &(lo, hi) in &corners {
            let shape = Cuboid::new(0.5 * (hi - lo)).expect(valid);
            let pose = Pose::new(0.5 * (lo + hi), Quat::IDENTITY).expect(valid);
            world
                .insert(Collider3::fixed(shape, pose, ()))
                .expect(valid);
        }
        world.step();
        Self { world, corners }
    }

    /// The boxes' corners, as given.
    pub fn corners(&self) -> &[(Vec3, Vec3)] {
        &self.corners
    }

    /// The world, for the systems that are colliders of it (vehicles).
    pub fn world_mut(&mut self) -> &mut World3 {
        &mut self.world
    }

    /// Runs `body` with the boxes as surroundings under standard gravity.
    pub fn around<R>(&self, body: impl FnOnce(&Surroundings<'_, D3>) -> R) -> R {
        let around = Surroundings::<D3>::new(
            &self.world,
            Gravity::new(GRAVITY).expect("gravity is finite"),
        );
        body(&around)
    }
}
