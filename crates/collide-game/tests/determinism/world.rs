//! The collision world: seeded colliders of every shape, some static,
//! some sensors, in filter groups, moved, reshaped and removed for 30
//! steps (the events, contacts included), then every query.

use crate::narrow::{contact, pose_2d, pose_3d};
use crate::{Entry, Hash, handle};
use collide::geometry::Ray;
use collide::narrow::d2::{self, Circle, Polygon};
use collide::narrow::d3::{self, Polyhedron, Sphere};
use collide::narrow::{Capsule, Cuboid};
use collide::world::{Collider, Filter, QueryFilter, Space, World, WorldEvents, WorldQuery};
use collide_game::glam::{Vec2, Vec3};
use collide_scenes::SceneRng;

/// What the scene needs of a dimension.
trait Seeded: Space {
    fn shape(rng: &mut SceneRng) -> Self::Shape;
    fn pose(rng: &mut SceneRng, reach: f32) -> Self::Pose;
    fn point(rng: &mut SceneRng, reach: f32) -> Self;
}

impl Seeded for Vec2 {
    fn shape(rng: &mut SceneRng) -> d2::Shape {
        match rng.below(4) {
            0 => Circle::new(rng.range(0.2, 0.8)).unwrap().into(),
            1 => Cuboid::new(Vec2::new(rng.range(0.2, 0.8), rng.range(0.2, 0.8)))
                .unwrap()
                .into(),
            2 => Capsule::<Vec2>::new(rng.range(0.2, 0.6), rng.range(0.1, 0.4))
                .unwrap()
                .into(),
            _ => Polygon::new(&[Vec2::ZERO, Vec2::new(1.0, 0.1), Vec2::new(0.2, 0.9)])
                .unwrap()
                .into(),
        }
    }
    fn pose(rng: &mut SceneRng, reach: f32) -> d2::Pose {
        pose_2d(rng, reach)
    }
    fn point(rng: &mut SceneRng, reach: f32) -> Vec2 {
        Vec2::new(rng.range(-reach, reach), rng.range(-reach, reach))
    }
}

impl Seeded for Vec3 {
    fn shape(rng: &mut SceneRng) -> d3::Shape {
        match rng.below(4) {
            0 => Sphere::new(rng.range(0.2, 0.8)).unwrap().into(),
            1 => Cuboid::new(Vec3::new(
                rng.range(0.2, 0.8),
                rng.range(0.2, 0.8),
                rng.range(0.2, 0.8),
            ))
            .unwrap()
            .into(),
            2 => Capsule::<Vec3>::new(rng.range(0.2, 0.6), rng.range(0.1, 0.4))
                .unwrap()
                .into(),
            _ => Polyhedron::new(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z])
                .unwrap()
                .into(),
        }
    }
    fn pose(rng: &mut SceneRng, reach: f32) -> d3::Pose {
        pose_3d(rng, reach)
    }
    fn point(rng: &mut SceneRng, reach: f32) -> Vec3 {
        let mut r = || rng.range(-reach, reach);
        Vec3::new(r(), r(), r())
    }
}

fn events<V: Space>(hash: &mut Hash, events: &WorldEvents<V>) {
    for list in [
        &events.started,
        &events.stopped,
        &events.sensor_started,
        &events.sensor_stopped,
    ] {
        hash.u64(list.len() as u64);
        for &(a, b) in list {
            handle(hash, a);
            handle(hash, b);
        }
    }
    for t in &events.touching {
        handle(hash, t.a);
        handle(hash, t.b);
        contact(hash, &t.contact);
        vector(hash, t.manifold.normal());
        hash.u64(t.manifold.points().len() as u64);
        for p in t.manifold.points() {
            vector(hash, p.point_a);
            vector(hash, p.point_b);
            hash.f32(p.depth);
            hash.u64(u64::from(p.id.bits()));
        }
    }
}

fn vector<V: Space>(hash: &mut Hash, v: V) {
    (0..V::DIM).for_each(|i| hash.f32(v.axis(i)));
}

fn world<V: Seeded>(seed: u64, reach: f32) -> (Hash, Hash) {
    let mut rng = SceneRng::new(seed);
    let mut world: World<V, u32> = World::new();
    world.set_pair_hook(|c| (c.value_a + c.value_b) % 7 != 0);
    let mut live = Vec::new();
    for k in 0..300 {
        let (shape, pose) = (V::shape(&mut rng), V::pose(&mut rng, reach));
        let collider = match rng.below(6) {
            0 => Collider::fixed(shape, pose, k),
            _ => Collider::moving(shape, pose, k),
        };
        let collider = collider.with_filter(Filter::new(1 << rng.below(3), !(1 << rng.below(4))));
        let collider = if rng.below(8) == 0 {
            collider.as_sensor()
        } else {
            collider
        };
        live.push(world.insert(collider).unwrap());
    }
    let (mut found, mut state) = (Hash::new(), Hash::new());
    for _ in 0..30 {
        for &h in live.iter().step_by(2) {
            if rng.below(2) == 0 {
                world.set_pose(h, V::pose(&mut rng, reach)).unwrap();
            }
        }
        let k = rng.below(live.len());
        world.set_shape(live[k], V::shape(&mut rng)).unwrap();
        let gone = live.swap_remove(rng.below(live.len()));
        world.remove(gone).unwrap();
        events(&mut found, &world.step());
    }
    let any = QueryFilter::new().with_sensors();
    for _ in 0..100 {
        let from = V::point(&mut rng, reach * 1.2);
        let to = V::point(&mut rng, reach * 1.2);
        let ray = Ray::new(from, V::from_axes(|i| to.axis(i) - from.axis(i)), 1.0).unwrap();
        if let Some(hit) = world.cast_ray(&ray, &any) {
            handle(&mut state, hit.handle);
            state.f32(hit.t);
            vector(&mut state, hit.normal);
        }
        let (shape, pose) = (V::shape(&mut rng), V::pose(&mut rng, reach));
        if let Some(hit) = world
            .cast_shape(&shape, &pose, V::point(&mut rng, reach), &any)
            .unwrap()
        {
            handle(&mut state, hit.handle);
            state.f32(hit.t);
            contact(&mut state, &hit.contact);
        }
        for h in world.overlap_shape_all(&shape, &pose, &any) {
            handle(&mut state, h);
        }
        if let Some(near) = world.closest_point(from, reach, &any).unwrap() {
            handle(&mut state, near.handle);
            vector(&mut state, near.point);
            state.f32(near.distance);
        }
    }
    (found, state)
}

pub fn scenes(out: &mut Vec<Entry>) {
    let (found, state) = world::<Vec2>(41, 12.0);
    out.push(Entry::new("world 2d: events and queries", &found, &state));
    let (found, state) = world::<Vec3>(42, 7.0);
    out.push(Entry::new("world 3d: events and queries", &found, &state));
}
