//! The world against brute force: events, queries, rest, threads and
//! far-out frames. `Random` gives each dimension's seeded shapes and
//! poses; `Live` is a collider as the tests keep it beside the world.

mod continuous;
mod events;
mod internal_edges;
mod parts;
mod queries;
mod rest;

pub(crate) use crate::checks::world_ops::Live;

use collide::narrow::d2::{self, Circle, Polygon};
use collide::narrow::d3::{self, Polyhedron, Sphere};
use collide::narrow::{Capsule, Cuboid};
use collide::world::{Filter, Space};
use collide_scenes::SceneRng;
use glam::{EulerRot, Quat, Vec2, Vec3};

/// What a dimension's random scene needs.
pub(crate) trait Random: Space {
    fn shape(rng: &mut SceneRng) -> Self::Shape;
    /// A pose within `spread` of the origin on each axis, turned at
    /// random.
    fn pose(rng: &mut SceneRng, spread: f32) -> Self::Pose;
    fn position(pose: &Self::Pose) -> Self;
    /// `pose` moved by `by` along every axis.
    fn shifted(pose: &Self::Pose, by: f32) -> Self::Pose;
}

impl Random for Vec2 {
    fn shape(rng: &mut SceneRng) -> d2::Shape {
        match rng.below(4) {
            0 => Circle::new(rng.range(0.1, 1.0)).unwrap().into(),
            1 => Cuboid::new(Vec2::new(rng.range(0.1, 1.0), rng.range(0.1, 1.0)))
                .unwrap()
                .into(),
            2 => Capsule::<Vec2>::new(rng.range(0.1, 0.8), rng.range(0.1, 0.5))
                .unwrap()
                .into(),
            _ => {
                let s = rng.range(0.3, 1.0);
                Polygon::new(&[Vec2::new(-s, -s), Vec2::new(s, -s), Vec2::new(0.0, s)])
                    .unwrap()
                    .into()
            }
        }
    }
    fn position(pose: &d2::Pose) -> Vec2 {
        pose.position()
    }
    fn shifted(pose: &d2::Pose, by: f32) -> d2::Pose {
        d2::Pose::new(pose.position() + by, pose.angle()).unwrap()
    }
    fn pose(rng: &mut SceneRng, spread: f32) -> d2::Pose {
        let at = Vec2::new(rng.range(-spread, spread), rng.range(-spread, spread));
        d2::Pose::new(at, rng.range(-3.2, 3.2)).unwrap()
    }
}

impl Random for Vec3 {
    fn shape(rng: &mut SceneRng) -> d3::Shape {
        let mut r = |lo, hi| rng.range(lo, hi);
        match (r(0.0, 4.0)) as usize {
            0 => Sphere::new(r(0.1, 1.0)).unwrap().into(),
            1 => Cuboid::new(Vec3::new(r(0.1, 1.0), r(0.1, 1.0), r(0.1, 1.0)))
                .unwrap()
                .into(),
            2 => Capsule::<Vec3>::new(r(0.1, 0.8), r(0.1, 0.5))
                .unwrap()
                .into(),
            _ => {
                let s = r(0.3, 1.0);
                Polyhedron::new(&[Vec3::ZERO, Vec3::X * s, Vec3::Y * s, Vec3::Z * s])
                    .unwrap()
                    .into()
            }
        }
    }
    fn position(pose: &d3::Pose) -> Vec3 {
        pose.position()
    }
    fn shifted(pose: &d3::Pose, by: f32) -> d3::Pose {
        d3::Pose::new(pose.position() + by, pose.rotation()).unwrap()
    }
    fn pose(rng: &mut SceneRng, spread: f32) -> d3::Pose {
        let mut r = |s: f32| rng.range(-s, s);
        let at = Vec3::new(r(spread), r(spread), r(spread));
        let turn = Quat::from_euler(EulerRot::XYZ, r(3.2), r(3.2), r(3.2));
        d3::Pose::new(at, turn).unwrap()
    }
}

/// A seeded filter: one of three groups, meeting all groups but one now
/// and then.
pub(crate) fn random_filter(rng: &mut SceneRng) -> Filter {
    let groups = 1 << rng.below(3);
    let mask = if rng.below(3) == 0 {
        !(1 << rng.below(3))
    } else {
        u32::MAX
    };
    Filter::new(groups, mask)
}
