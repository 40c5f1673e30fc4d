//! Worlds of boxes for the game-layer tests: a broad phase over their
//! bounding boxes and each box's exact shape and pose.

#![allow(dead_code)]

use collide::narrow::Support;
use collide::narrow::d3::{Cuboid, Pose};
use collide::{Aabb3, BroadPhase, Grid, Handle};
use collide_game::glam::{Quat, Vec3};
use collide_game::{D3, Gravity, Surroundings};

/// Standard gravity, m/s².
pub const GRAVITY: Vec3 = Vec3::new(0.0, -9.81, 0.0);

/// Boxes in a broad phase, with their shapes.
pub struct Boxes {
    pub grid: Grid<Vec3, ()>,
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
        let mut grid = Grid::dense();
        let shapes = boxes
            .iter()
            .map(|&(centre, half, rotation)| {
                let shape = Cuboid::new(half).unwrap();
                let pose = Pose::new(centre, rotation).unwrap();
                // The rotated box's bounds.
                let m = collide_game::glam::Mat3::from_quat(rotation);
                let reach =
                    m.x_axis.abs() * half.x + m.y_axis.abs() * half.y + m.z_axis.abs() * half.z;
                let h = grid
                    .insert(Aabb3::new(centre - reach, centre + reach).unwrap(), ())
                    .unwrap();
                (h, shape, pose)
            })
            .collect();
        grid.step();
        Self { grid, shapes }
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

    /// A box's shape and pose.
    pub fn shape(&self, h: Handle) -> Option<(&dyn Support<Vec3>, Pose)> {
        self.shapes
            .iter()
            .find(|b| b.0 == h)
            .map(|b| (&b.1 as &dyn Support<Vec3>, b.2))
    }
}

/// Runs `body` with the boxes as surroundings under standard gravity.
pub fn with_surroundings<R>(boxes: &Boxes, body: impl FnOnce(&Surroundings<'_, '_, D3>) -> R) -> R {
    with_surroundings_under(boxes, GRAVITY, body)
}

/// Runs `body` with the boxes as surroundings under `gravity`.
pub fn with_surroundings_under<R>(
    boxes: &Boxes,
    gravity: Vec3,
    body: impl FnOnce(&Surroundings<'_, '_, D3>) -> R,
) -> R {
    let shape_of = |h| boxes.shape(h);
    let around = Surroundings::<D3>::new(&boxes.grid, &shape_of, Gravity::new(gravity).unwrap());
    body(&around)
}
