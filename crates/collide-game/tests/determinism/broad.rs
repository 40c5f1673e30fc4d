//! The broad phase: the shared scenes through every structure, `auto`
//! included, in 2D and 3D; the events of every frame, then box and ray
//! queries on the last.

use crate::{Entry, Hash, handle};
use collide::geometry::Ray;
use collide::{Aabb, Query, Structure, Vector};
use collide_game::glam::{Vec2, Vec3};
use collide_scenes::{Motion, Runner, Scene, SceneConfig, SceneKind, SceneRng};

/// Frames each scene runs.
const FRAMES: usize = 40;

/// A point of the scene's world from three numbers in [0, 1).
fn point<V: Vector>(world: &Aabb<V>, rng: &mut SceneRng) -> V {
    let (lo, hi) = (world.min(), world.max());
    V::from_axes(|i| {
        let u = rng.unit();
        lo.axis(i) + (hi.axis(i) - lo.axis(i)) * u
    })
}

/// One scene on one structure: its events frame by frame, and the
/// queries' answers at the end.
fn run<V: Vector>(structure: Structure, config: SceneConfig) -> (Hash, Hash) {
    let mut world = structure.build::<V, u64>();
    let mut scene = Scene::<V>::new(config);
    let mut runner = Runner::new();
    let (mut records, mut found) = (Vec::new(), Vec::new());
    let mut events = Hash::new();
    for frame in 0..FRAMES {
        scene.next_frame(&mut records);
        runner.apply(&mut world, &records).unwrap();
        runner.step(&mut world, &mut found);
        for e in &found {
            events.u64(frame as u64);
            events.u64(e.a);
            events.u64(e.b);
            events.bool(e.started);
        }
    }
    let mut state = Hash::new();
    let area = scene.world();
    let mut rng = SceneRng::new(7);
    for _ in 0..8 {
        let (a, b) = (point(&area, &mut rng), point(&area, &mut rng));
        let query = Aabb::new(a.min_each(b), a.max_each(b)).unwrap();
        let mut hits = world.query_aabb_all(&query);
        hits.sort_unstable();
        state.u64(hits.len() as u64);
        hits.into_iter().for_each(|h| handle(&mut state, h));
        let (from, to) = (point(&area, &mut rng), point(&area, &mut rng));
        let ray = Ray::new(from, V::from_axes(|i| to.axis(i) - from.axis(i)), 1.0).unwrap();
        for hit in world.query_ray_all(&ray) {
            handle(&mut state, hit.handle);
            state.f32(hit.t);
        }
    }
    (events, state)
}

pub fn scenes(out: &mut Vec<Entry>) {
    let configs = [
        (SceneKind::Clustered, Motion::Fast),
        (SceneKind::Flattening, Motion::Slow),
        (SceneKind::Walls, Motion::Churn),
    ];
    for structure in Structure::ALL {
        for (kind, motion) in configs {
            let config = SceneConfig {
                motion,
                seed: 11,
                ..SceneConfig::new(kind, 300)
            };
            let name =
                |d: &str| format!("{d} {kind} scene, {motion} motion, on {}", structure.name());
            let (events, state) = run::<Vec2>(structure, config);
            out.push(Entry::new(name("2D"), &events, &state));
            let (events, state) = run::<Vec3>(structure, config);
            out.push(Entry::new(name("3D"), &events, &state));
        }
    }
}
