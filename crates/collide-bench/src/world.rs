//! `--world-rays N` and `--world-step N`: the collision world against
//! rapier 0.36 on the same colliders, one core.
//!
//! The colliders come from the shared scenes (3D): each object's box
//! holds one shape, by its id: a ball, a box, a capsule or a convex hull
//! (an octahedron), all unturned.
//!
//! - Rays: `N` colliders of the `uniform` scene, `N` rays from seeded
//!   points in the world in seeded directions, each as long as a tenth of
//!   the world's side. Ours: `World::cast_ray` (the first hit with its
//!   point and normal) over `auto` and over `bvh`; rapier:
//!   `QueryPipeline::cast_ray_and_get_normal` over its `BroadPhaseBvh`.
//!   The hit counts must agree to within grazes.
//! - Step: the scene's frames move the colliders (`set_pose`; rapier's
//!   `set_position`), then one step. Ours: `World::step` over `auto`
//!   (touching pairs with their contact and manifold, started and stopped
//!   events); rapier: `CollisionPipeline::step` (contact manifolds for
//!   every pair of boxes within the prediction distance, and its events).
//!   Both build manifolds: ours for the pairs touching (apart by at most
//!   the margin once touching), rapier's for every pair within its
//!   prediction distance, 1% of the mean shape's size.

use collide::Structure;
use collide::geometry::Ray;
use collide::narrow::d3::{Polyhedron, Pose, Shape, Sphere};
use collide::narrow::{Capsule, Cuboid};
use collide::world::{Collider3, QueryFilter, World3, WorldQuery, WorldSettings};
use collide::{Aabb, Handle};
use collide_scenes::{Motion, Record, Scene, SceneConfig, SceneKind, SceneRng};
use glam::Vec3;
use std::time::Instant;

/// Frames timed per step scene (after frame 0, the build).
const FRAMES: usize = 30;

/// The shape in a box, by the object's id: ball, box, capsule or hull,
/// centred on the box.
pub fn shape_in_box(id: u64, aabb: &Aabb<Vec3>) -> (Shape, Vec3) {
    let (h, c) = (0.5 * (aabb.max() - aabb.min()), aabb.center());
    let h = h.max(Vec3::splat(1e-3));
    let shape = match id % 4 {
        0 => Sphere::new(h.min_element()).unwrap().into(),
        1 => Cuboid::new(h).unwrap().into(),
        2 => {
            let r = h.x.min(h.z);
            Capsule::<Vec3>::new((h.y - r).max(0.0), r).unwrap().into()
        }
        _ => Polyhedron::new(&[
            Vec3::X * h.x,
            -Vec3::X * h.x,
            Vec3::Y * h.y,
            -Vec3::Y * h.y,
            Vec3::Z * h.z,
            -Vec3::Z * h.z,
        ])
        .unwrap()
        .into(),
    };
    (shape, c)
}

/// The same shape for rapier.
pub fn rapier_collider(shape: &Shape, at: Vec3) -> rapier3d::geometry::Collider {
    use rapier3d::geometry::{ActiveCollisionTypes, ColliderBuilder};
    use rapier3d::math::Vector as V;
    let builder = match shape {
        Shape::Sphere(s) => ColliderBuilder::ball(s.radius()),
        Shape::Cuboid(b) => {
            let h = b.half_extents();
            ColliderBuilder::cuboid(h.x, h.y, h.z)
        }
        Shape::Capsule(c) => ColliderBuilder::capsule_y(0.5 * (c.b() - c.a()).length(), c.radius()),
        Shape::Polyhedron(p) => {
            let points: Vec<V> = p.points().iter().map(|q| V::new(q.x, q.y, q.z)).collect();
            ColliderBuilder::convex_hull(&points).expect("an octahedron has a hull")
        }
        Shape::Triangle(t) => {
            let [a, b, c] = t.points().map(|q| V::new(q.x, q.y, q.z));
            ColliderBuilder::triangle(a, b, c)
        }
    };
    builder
        .translation(V::new(at.x, at.y, at.z))
        .active_collision_types(ActiveCollisionTypes::all())
        .build()
}

/// rapier's side: its sets, broad phase and pipeline.
pub struct Rapier {
    pub colliders: rapier3d::geometry::ColliderSet,
    pub bodies: rapier3d::dynamics::RigidBodySet,
    islands: rapier3d::dynamics::IslandManager,
    pub broad_phase: rapier3d::geometry::BroadPhaseBvh,
    narrow_phase: rapier3d::geometry::NarrowPhase,
    pipeline: rapier3d::pipeline::CollisionPipeline,
    handles: Vec<rapier3d::geometry::ColliderHandle>,
    prediction: f32,
}

impl Rapier {
    fn new(shapes: &[(Shape, Vec3)], prediction: f32) -> Self {
        let mut colliders = rapier3d::geometry::ColliderSet::new();
        let handles = shapes
            .iter()
            .map(|(s, at)| colliders.insert(rapier_collider(s, *at)))
            .collect();
        Self {
            handles,
            ..Self::of(colliders, prediction)
        }
    }

    /// rapier over `colliders` (no handles kept), stepped once.
    pub fn of(colliders: rapier3d::geometry::ColliderSet, prediction: f32) -> Self {
        let mut out = Rapier {
            colliders,
            bodies: rapier3d::dynamics::RigidBodySet::new(),
            islands: rapier3d::dynamics::IslandManager::new(),
            broad_phase: rapier3d::geometry::BroadPhaseBvh::new(),
            narrow_phase: rapier3d::geometry::NarrowPhase::new(),
            pipeline: rapier3d::pipeline::CollisionPipeline::new(),
            handles: Vec::new(),
            prediction,
        };
        out.step();
        out
    }

    pub fn step(&mut self) {
        self.pipeline.step(
            self.prediction,
            &mut self.islands,
            &mut self.broad_phase,
            &mut self.narrow_phase,
            &mut self.bodies,
            &mut self.colliders,
            &(),
            &(),
        );
    }

    pub fn touching(&self) -> usize {
        self.narrow_phase
            .contact_pairs()
            .filter(|p| p.has_any_active_contact())
            .count()
    }
}

/// The shapes of a scene's objects at frame 0, by id.
fn shapes_of(scene: &Scene<Vec3>) -> (Vec<u64>, Vec<(Shape, Vec3)>) {
    let (mut ids, mut shapes) = (Vec::new(), Vec::new());
    for (id, aabb) in scene.objects() {
        ids.push(id);
        shapes.push(shape_in_box(id, &aabb));
    }
    (ids, shapes)
}

/// A world of `shapes` over `structure`.
fn world_of(shapes: &[(Shape, Vec3)], structure: Structure) -> (World3<u32>, Vec<Handle>) {
    let mut world = World3::with_settings(WorldSettings::default().with_structure(structure));
    let handles = shapes
        .iter()
        .enumerate()
        .map(|(k, (s, at))| {
            world
                .insert(Collider3::moving(
                    s.clone(),
                    Pose::at(*at).unwrap(),
                    k as u32,
                ))
                .unwrap()
        })
        .collect();
    world.step();
    (world, handles)
}

/// One row of the ray table.
pub struct RayRow {
    pub name: String,
    /// Rays per millisecond, best of three rounds.
    pub rate: f64,
    pub hits: usize,
}

/// Rays per millisecond of the best of three rounds of `round` (which
/// casts `rays` rays and returns how many hit), and the hits.
pub fn best(rays: usize, mut round: impl FnMut() -> usize) -> (f64, usize) {
    let (mut rate, mut hits) = (0.0f64, 0);
    for _ in 0..3 {
        let start = Instant::now();
        hits = round();
        rate = rate.max(rays as f64 / (start.elapsed().as_secs_f64() * 1e3));
    }
    (rate, hits)
}

/// The row of `casts` (origin, end less origin) cast through `world`.
pub fn world_ray_row<T>(name: String, world: &World3<T>, casts: &[(Vec3, Vec3)]) -> RayRow {
    let filter = QueryFilter::new();
    let (rate, hits) = best(casts.len(), || {
        casts
            .iter()
            .filter(|(from, along)| {
                let ray = Ray::new(*from, *along, 1.0).unwrap();
                world.cast_ray(&ray, &filter).is_some()
            })
            .count()
    });
    RayRow { name, rate, hits }
}

/// The row of `casts` cast through rapier's `QueryPipeline` over `rapier`.
pub fn rapier_ray_row(rapier: &Rapier, casts: &[(Vec3, Vec3)]) -> RayRow {
    let dispatcher = rapier3d::parry::query::DefaultQueryDispatcher;
    let queries = rapier.broad_phase.as_query_pipeline(
        &dispatcher,
        &rapier.bodies,
        &rapier.colliders,
        rapier3d::pipeline::QueryFilter::default(),
    );
    let (rate, hits) = best(casts.len(), || {
        use rapier3d::math::Vector as V;
        casts
            .iter()
            .filter(|(from, along)| {
                let ray = rapier3d::parry::query::Ray::new(
                    V::new(from.x, from.y, from.z),
                    V::new(along.x, along.y, along.z),
                );
                queries.cast_ray_and_get_normal(&ray, 1.0, true).is_some()
            })
            .count()
    });
    RayRow {
        name: "rapier QueryPipeline".into(),
        rate,
        hits,
    }
}

/// `n` rays into `n` colliders of the `uniform` scene.
pub fn run_rays(n: usize) -> Vec<RayRow> {
    let scene = Scene::<Vec3>::new(SceneConfig::new(SceneKind::Uniform, n));
    let (_, shapes) = shapes_of(&scene);
    let side = scene.world_side();
    let mut rng = SceneRng::new(77);
    let rays: Vec<(Vec3, Vec3)> = (0..n)
        .map(|_| {
            let from = Vec3::new(
                rng.range(0.0, side),
                rng.range(0.0, side),
                rng.range(0.0, side),
            );
            let d = Vec3::new(rng.normal(), rng.normal(), rng.normal()).normalize_or(Vec3::X);
            (from, d * 0.1 * side)
        })
        .collect();
    let mut rows: Vec<RayRow> = [Structure::Auto, Structure::Bvh]
        .into_iter()
        .map(|structure| {
            let name = format!("collide world ({})", structure.name());
            world_ray_row(name, &world_of(&shapes, structure).0, &rays)
        })
        .collect();
    rows.push(rapier_ray_row(&Rapier::new(&shapes, 0.0), &rays));
    rows
}

/// The table of `--world-rays`.
pub fn ray_table(n: usize, rows: &[RayRow]) -> String {
    let mut out = format!(
        "\n## Ray casts into the world: {n} rays, {n} colliders (3D uniform; balls, boxes, capsules, hulls; one core)\n\n\
         | implementation | rays/ms (best of 3) | rays that hit |\n|---|---|---|\n"
    );
    for r in rows {
        out.push_str(&format!("| {} | {:.0} | {} |\n", r.name, r.rate, r.hits));
    }
    out
}

/// One row of the step table.
pub struct StepRow {
    pub scene: String,
    pub ours_ms: f64,
    pub rapier_ms: f64,
    pub ours_touching: usize,
    pub rapier_touching: usize,
}

/// `FRAMES` frames of the scene on both sides: mean milliseconds a frame.
fn run_step_scene(kind: SceneKind, motion: Motion, n: usize) -> StepRow {
    let config = SceneConfig {
        motion,
        ..SceneConfig::new(kind, n)
    };
    let mut scene = Scene::<Vec3>::new(config);
    let (ids, shapes) = shapes_of(&scene);
    let index: std::collections::HashMap<u64, usize> =
        ids.iter().enumerate().map(|(k, &id)| (id, k)).collect();
    let reach = shapes
        .iter()
        .map(|(s, _)| {
            let b = s.aabb(&Pose::IDENTITY);
            0.5 * (b.max() - b.min()).length()
        })
        .sum::<f32>()
        / shapes.len() as f32;
    let (mut world, handles) = world_of(&shapes, Structure::Auto);
    let mut rapier = Rapier::new(&shapes, 0.01 * reach);
    let frames = scene.take_frames(FRAMES);
    let (mut ours, mut theirs) = (0.0, 0.0);
    let (mut ours_touching, mut rapier_touching) = (0, 0);
    for records in &frames {
        let start = Instant::now();
        for r in records {
            if let Record::Upsert { id, aabb } = r {
                if let Some(&k) = index.get(id) {
                    world
                        .set_pose(handles[k], Pose::at(aabb.center()).unwrap())
                        .unwrap();
                }
            }
        }
        ours_touching += world.step().touching.len();
        ours += start.elapsed().as_secs_f64();
        let start = Instant::now();
        for r in records {
            if let Record::Upsert { id, aabb } = r {
                if let Some(&k) = index.get(id) {
                    let c = aabb.center();
                    let at = rapier3d::math::Pose::from_translation(rapier3d::math::Vector::new(
                        c.x, c.y, c.z,
                    ));
                    rapier.colliders[rapier.handles[k]].set_position(at);
                }
            }
        }
        rapier.step();
        theirs += start.elapsed().as_secs_f64();
        rapier_touching += rapier.touching();
    }
    StepRow {
        scene: format!("{} {} {n}", kind.name(), motion.name()),
        ours_ms: ours * 1e3 / FRAMES as f64,
        rapier_ms: theirs * 1e3 / FRAMES as f64,
        ours_touching: ours_touching / FRAMES,
        rapier_touching: rapier_touching / FRAMES,
    }
}

/// The step scenes at `n` colliders.
pub fn run_steps(n: usize) -> Vec<StepRow> {
    let mut rows = Vec::new();
    for kind in [SceneKind::Uniform, SceneKind::Clustered] {
        for motion in [Motion::Slow, Motion::Fast] {
            rows.push(run_step_scene(kind, motion, n));
        }
    }
    rows
}

/// The table of `--world-step`.
pub fn step_table(n: usize, rows: &[StepRow]) -> String {
    let mut out = format!(
        "\n## World step: {n} colliders (3D; balls, boxes, capsules, hulls; one core; mean of {FRAMES} frames)\n\n\
         Both build contact manifolds: the world for its touching pairs (kept while apart by at \
         most 1% of the smaller shape's size), rapier for every pair within its prediction \
         distance (1% of the mean shape's size).\n\n\
         | scene | collide world ms | rapier CollisionPipeline ms | rapier / ours | touching (ours) | pairs with contacts (rapier) |\n|---|---|---|---|---|---|\n"
    );
    for r in rows {
        out.push_str(&format!(
            "| {} | {:.2} | {:.2} | {:.2} | {} | {} |\n",
            r.scene,
            r.ours_ms,
            r.rapier_ms,
            r.rapier_ms / r.ours_ms,
            r.ours_touching,
            r.rapier_touching
        ));
    }
    out
}

/// The rows of `--world-rays` as CSV.
pub fn ray_csv(n: usize, rows: &[RayRow]) -> String {
    let mut out = String::from("colliders,rays,implementation,rays_per_ms,hits\n");
    for r in rows {
        out.push_str(&format!("{n},{n},{},{:.1},{}\n", r.name, r.rate, r.hits));
    }
    out
}

/// The rows of `--world-step` as CSV.
pub fn step_csv(n: usize, rows: &[StepRow]) -> String {
    let mut out = String::from(
        "colliders,scene,collide_ms,rapier_ms,collide_touching,rapier_pairs_with_contacts\n",
    );
    for r in rows {
        out.push_str(&format!(
            "{n},{},{:.3},{:.3},{},{}\n",
            r.scene, r.ours_ms, r.rapier_ms, r.ours_touching, r.rapier_touching
        ));
    }
    out
}
