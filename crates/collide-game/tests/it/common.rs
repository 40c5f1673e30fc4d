//! Worlds of boxes for the game-layer tests: a collision world of fixed
//! boxes, and each box's exact shape and pose.

#![allow(dead_code)]

use collide::Handle;
use collide::narrow::Support;
use collide::narrow::d3::{Cuboid, Pose};
use collide::world::{Collider3, World3};
use collide_game::glam::{Quat, Vec3};
use collide_game::{D3, Gravity, Surroundings};

/// Standard gravity, m/s².
pub const GRAVITY: Vec3 = Vec3::new(0.0, -9.81, 0.0);

/// Boxes in a world, with their shapes.
pub struct Boxes {
    pub world: World3,
    shapes: Vec<(Handle, Cuboid, Pose)>,
}

impl Boxes {
    /// Axis-aligned boxes from their corners.
    pub fn new(corners: &[(Vec3, Vec3)]) -> Self {
        let turned: Vec<(Vec3, Vec3, Quat)> = corners
            .iter()
            .map(|&(lo, hi)| (0.5 * (lo + hi), 0.5 * (hi - lo), Quat::IDENTITY))
            .collect();
        Self::turned(&turned)
    }

    /// Boxes by centre, half extents and rotation.
    pub fn turned(boxes: &[(Vec3, Vec3, Quat)]) -> Self {
        let mut world = World3::new();
        let shapes = boxes
            .iter()
            .map(|&(centre, half, rotation)| {
                let shape = Cuboid::new(half).unwrap();
                let pose = Pose::new(centre, rotation).unwrap();
                let h = world.insert(Collider3::fixed(shape, pose, ())).unwrap();
                (h, shape, pose)
            })
            .collect();
        world.step();
        Self { world, shapes }
    }

    /// Every box's shape and pose.
    pub fn all(&self) -> impl Iterator<Item = (&dyn Support<Vec3>, Pose)> + '_ {
        self.shapes
            .iter()
            .map(|b| (&b.1 as &dyn Support<Vec3>, b.2))
    }

    /// The handle of the `k`th box given.
    pub fn handle(&self, k: usize) -> Handle {
        self.shapes[k].0
    }

    /// A box's exact bounds.
    pub fn aabb(&self, h: Handle) -> Option<collide::Aabb3> {
        self.shapes
            .iter()
            .find(|b| b.0 == h)
            .map(|b| b.1.aabb(&b.2))
    }

    /// A box's shape and pose.
    pub fn shape(&self, h: Handle) -> Option<(&dyn Support<Vec3>, Pose)> {
        self.shapes
            .iter()
            .find(|b| b.0 == h)
            .map(|b| (&b.1 as &dyn Support<Vec3>, b.2))
    }
}

/// Runs `body` with the boxes as surroundings under standard gravity.
pub fn with_surroundings<R>(boxes: &Boxes, body: impl FnOnce(&Surroundings<'_, D3>) -> R) -> R {
    with_surroundings_under(boxes, GRAVITY, body)
}

/// Runs `body` with the boxes as surroundings under `gravity`.
pub fn with_surroundings_under<R>(
    boxes: &Boxes,
    gravity: Vec3,
    body: impl FnOnce(&Surroundings<'_, D3>) -> R,
) -> R {
    let around = Surroundings::<D3>::new(&boxes.world, Gravity::new(gravity).unwrap());
    body(&around)
}
