//! Worlds of 3D boxes for the demo's game systems: a broad phase over the
//! boxes and each box's shape and pose.

use collide::narrow::Support;
use collide::narrow::d3::{Cuboid, Pose};
use collide::{Aabb3, BroadPhase, Grid, Handle};
use collide_game::{D3, Gravity, Surroundings};
use glam::{Quat, Vec3};

/// Standard gravity, m/s².
pub const GRAVITY: Vec3 = Vec3::new(0.0, -9.81, 0.0);

/// Axis-aligned boxes in a broad phase, with their shapes.
pub struct BoxWorld {
    grid: Grid<Vec3, ()>,
    shapes: Vec<(Handle, Cuboid, Pose)>,
    corners: Vec<(Vec3, Vec3)>,
}

impl BoxWorld {
    /// The boxes from `lo` to `hi` corners.
    pub fn new(corners: Vec<(Vec3, Vec3)>) -> Self {
        let valid = "the demo's boxes are valid";
        let mut grid = Grid::dense();
        let shapes = corners
            .iter()
            .map(|&(lo, hi)| {
                let handle = grid
                    .insert(Aabb3::new(lo, hi).expect(valid), ())
                    .expect(valid);
                let shape = Cuboid::new(0.5 * (hi - lo)).expect(valid);
                let pose = Pose::new(0.5 * (lo + hi), Quat::IDENTITY).expect(valid);
                (handle, shape, pose)
            })
            .collect();
        grid.step();
        Self {
            grid,
            shapes,
            corners,
        }
    }

    /// The boxes' corners, as given.
    pub fn corners(&self) -> &[(Vec3, Vec3)] {
        &self.corners
    }

    fn shape(&self, handle: Handle) -> Option<(&dyn Support<Vec3>, Pose)> {
        self.shapes
            .iter()
            .find(|b| b.0 == handle)
            .map(|b| (&b.1 as &dyn Support<Vec3>, b.2))
    }

    /// Runs `body` with the boxes as surroundings under standard gravity.
    pub fn around<R>(&self, body: impl FnOnce(&Surroundings<'_, '_, D3>) -> R) -> R {
        let shape_of = |h| self.shape(h);
        let around = Surroundings::<D3>::new(
            &self.grid,
            &shape_of,
            Gravity::new(GRAVITY).expect("gravity is finite"),
        );
        body(&around)
    }
}
