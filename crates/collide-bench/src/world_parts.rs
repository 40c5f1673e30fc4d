//! `--world-parts N`: colliders made of parts against rapier 0.36, one
//! core, the same work on both sides.
//!
//! - Mesh floor: a heightfield of gentle random hills, 225 by 225 samples
//!   (100,352 triangles), built as a triangle mesh on both sides (ours
//!   `Mesh3::from_heights`; rapier's `trimesh` with its internal-edge fix,
//!   as ours fixes them), and `N` movers (balls, boxes, capsules, hulls
//!   about 0.5 m across) wandering over it, about a third touching it.
//!   Each frame moves every mover, then steps: ours `World::step`
//!   (manifolds for the touching pairs), rapier `CollisionPipeline::step`
//!   (manifolds within its prediction distance, 1% of the mean size).
//! - Compound: one static compound of 1,000 boxes (a 10 by 10 by 10
//!   lattice of 0.5 m boxes, 1 m apart), `N / 5` balls wandering through
//!   it.
//! - Rays: `N * 10` rays cast down onto the mesh floor from seeded
//!   points, tilted at random; ours `World::cast_ray` over `bvh`, rapier
//!   `QueryPipeline::cast_ray_and_get_normal`.
//! - Peak heap: the counting allocator's peak while building the world
//!   and running its frames, on each side alone.

use crate::world::{Rapier, RayRow, rapier_collider, rapier_ray_row, shape_in_box, world_ray_row};
use collide::Structure;
use collide::narrow::d3::{Cuboid, Pose, Shape, Sphere};
use collide::world::{Collider3, Compound3, Mesh3, World3, WorldSettings};
use collide::{Aabb, Handle};
use collide_scenes::SceneRng;
use collide_scenes::alloc;
use glam::{Vec2, Vec3};
use std::time::Instant;

/// Frames timed per row (after the build and one warm step).
const FRAMES: usize = 30;
/// Samples a side of the heightfield, and its cell in metres.
const SAMPLES: usize = 225;
const CELL: f32 = 1.0;

/// One row of the table.
pub struct PartsRow {
    pub row: String,
    pub ours_ms: f64,
    pub rapier_ms: f64,
    pub ours_touching: usize,
    pub rapier_touching: usize,
    pub ours_peak: usize,
    pub rapier_peak: usize,
}

/// The floor's heights: gentle hills, about a metre high.
fn heights() -> Vec<f32> {
    let mut rng = SceneRng::new(5);
    let bumps: Vec<(f32, f32, f32)> = (0..40)
        .map(|_| {
            (
                rng.range(0.0, 224.0),
                rng.range(0.0, 224.0),
                rng.range(-1.0, 1.0),
            )
        })
        .collect();
    (0..SAMPLES * SAMPLES)
        .map(|k| {
            let (x, z) = ((k % SAMPLES) as f32, (k / SAMPLES) as f32);
            bumps
                .iter()
                .map(|&(bx, bz, h)| {
                    let d2 = ((x - bx) * (x - bx) + (z - bz) * (z - bz)) / 400.0;
                    h / (1.0 + d2)
                })
                .sum()
        })
        .collect()
}

/// The floor's height under `(x, z)` (bilinear, close enough to place
/// movers near it).
fn height_at(h: &[f32], x: f32, z: f32) -> f32 {
    let (i, j) = ((x / CELL) as usize, (z / CELL) as usize);
    let (i, j) = (i.min(SAMPLES - 2), j.min(SAMPLES - 2));
    let (fx, fz) = (x / CELL - i as f32, z / CELL - j as f32);
    let at = |i: usize, j: usize| h[j * SAMPLES + i];
    (at(i, j) * (1.0 - fx) + at(i + 1, j) * fx) * (1.0 - fz)
        + (at(i, j + 1) * (1.0 - fx) + at(i + 1, j + 1) * fx) * fz
}

/// The mesh's vertices and triangles, as `Mesh3::from_heights` makes them.
fn triangles(h: &[f32]) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let vertices = (0..SAMPLES * SAMPLES)
        .map(|k| {
            Vec3::new(
                (k % SAMPLES) as f32 * CELL,
                h[k],
                (k / SAMPLES) as f32 * CELL,
            )
        })
        .collect();
    let at = |i: usize, j: usize| (j * SAMPLES + i) as u32;
    let mut t = Vec::new();
    for j in 0..SAMPLES - 1 {
        for i in 0..SAMPLES - 1 {
            let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i, j + 1), at(i + 1, j + 1));
            t.push([a, c, d]);
            t.push([a, d, b]);
        }
    }
    (vertices, t)
}

/// `n` movers over the floor, and each frame's positions: a seeded walk
/// of up to 5 cm a frame, kept over the floor, about a third touching it.
fn movers(h: &[f32], n: usize) -> (Vec<Shape>, Vec<Vec<Vec3>>) {
    let mut rng = SceneRng::new(9);
    let side = (SAMPLES - 1) as f32 * CELL;
    let shapes: Vec<Shape> = (0..n)
        .map(|k| {
            let half = Vec3::new(
                rng.range(0.15, 0.3),
                rng.range(0.15, 0.3),
                rng.range(0.15, 0.3),
            );
            shape_in_box(k as u64, &Aabb::new(-half, half).unwrap()).0
        })
        .collect();
    let at: Vec<Vec3> = (0..n)
        .map(|_| {
            let (x, z) = (rng.range(1.0, side - 1.0), rng.range(1.0, side - 1.0));
            Vec3::new(x, height_at(h, x, z) + rng.range(0.0, 0.8), z)
        })
        .collect();
    let frames = walk(&mut rng, at, |q| {
        let (x, z) = (q.x.clamp(1.0, side - 1.0), q.z.clamp(1.0, side - 1.0));
        let floor = height_at(h, x, z);
        Vec3::new(x, q.y.clamp(floor, floor + 0.8), z)
    });
    (shapes, frames)
}

/// The frames of a seeded walk from `at`: each frame every point moves up
/// to 5 cm along each axis, then `keep` puts it back where it may be.
fn walk(rng: &mut SceneRng, mut at: Vec<Vec3>, keep: impl Fn(Vec3) -> Vec3) -> Vec<Vec<Vec3>> {
    let mut frames = vec![at.clone()];
    for _ in 0..=FRAMES {
        for p in &mut at {
            let step = Vec3::new(
                rng.range(-0.05, 0.05),
                rng.range(-0.05, 0.05),
                rng.range(-0.05, 0.05),
            );
            *p = keep(*p + step);
        }
        frames.push(at.clone());
    }
    frames
}

/// The floor as rapier's fixed triangle mesh, with its internal-edge fix
/// (as ours fixes them).
fn rapier_floor(vertices: &[Vec3], tris: &[[u32; 3]]) -> rapier3d::geometry::Collider {
    use rapier3d::geometry::{ColliderBuilder, TriMeshFlags};
    let v = vertices
        .iter()
        .map(|p| rapier3d::math::Vector::new(p.x, p.y, p.z))
        .collect();
    let mesh =
        ColliderBuilder::trimesh_with_flags(v, tris.to_vec(), TriMeshFlags::FIX_INTERNAL_EDGES);
    fixed(mesh.unwrap())
}

fn rapier_at(p: Vec3) -> rapier3d::math::Pose {
    rapier3d::math::Pose::from_translation(rapier3d::math::Vector::new(p.x, p.y, p.z))
}

/// A fixed rapier collider from a builder.
fn fixed(builder: rapier3d::geometry::ColliderBuilder) -> rapier3d::geometry::Collider {
    use rapier3d::geometry::ActiveCollisionTypes;
    builder
        .active_collision_types(ActiveCollisionTypes::all())
        .build()
}

/// Runs one row: `level` (ours) and `rapier_level` beside `shapes`
/// moved through `frames`.
fn row(
    name: &str,
    level: impl Fn(&mut World3<u32>) -> Handle,
    rapier_level: impl Fn() -> rapier3d::geometry::Collider,
    shapes: &[Shape],
    frames: &[Vec<Vec3>],
) -> PartsRow {
    let reach = shapes
        .iter()
        .map(|s| {
            let b = s.aabb(&Pose::IDENTITY);
            0.5 * (b.max() - b.min()).length()
        })
        .sum::<f32>()
        / shapes.len() as f32;
    // Ours.
    alloc::reset_tracked();
    let (ours_s, ours_touching) = alloc::track(|| {
        let mut world =
            World3::with_settings(WorldSettings::default().with_structure(Structure::Auto));
        level(&mut world);
        let handles: Vec<Handle> = shapes
            .iter()
            .zip(&frames[0])
            .enumerate()
            .map(|(k, (s, &p))| {
                world
                    .insert(Collider3::moving(s.clone(), Pose::at(p).unwrap(), k as u32))
                    .unwrap()
            })
            .collect();
        world.step();
        let (mut time, mut touching) = (0.0, 0);
        for at in &frames[1..=FRAMES] {
            let start = Instant::now();
            for (&h, &p) in handles.iter().zip(at) {
                world.set_pose(h, Pose::at(p).unwrap()).unwrap();
            }
            touching += world.step().touching.len();
            time += start.elapsed().as_secs_f64();
        }
        (time, touching)
    });
    let ours_peak = alloc::tracked().peak_bytes.max(0) as usize;
    // rapier.
    alloc::reset_tracked();
    let (rapier_s, rapier_touching) = alloc::track(|| {
        let mut set = rapier3d::geometry::ColliderSet::new();
        set.insert(rapier_level());
        let handles: Vec<_> = shapes
            .iter()
            .zip(&frames[0])
            .map(|(s, &p)| set.insert(rapier_collider(s, p)))
            .collect();
        let mut rapier = Rapier::of(set, 0.01 * reach);
        let (mut time, mut touching) = (0.0, 0);
        for at in &frames[1..=FRAMES] {
            let start = Instant::now();
            for (&h, &p) in handles.iter().zip(at) {
                rapier.colliders[h].set_position(rapier_at(p));
            }
            rapier.step();
            time += start.elapsed().as_secs_f64();
            touching += rapier.touching();
        }
        (time, touching)
    });
    let rapier_peak = alloc::tracked().peak_bytes.max(0) as usize;
    PartsRow {
        row: name.into(),
        ours_ms: ours_s * 1e3 / FRAMES as f64,
        rapier_ms: rapier_s * 1e3 / FRAMES as f64,
        ours_touching: ours_touching / FRAMES,
        rapier_touching: rapier_touching / FRAMES,
        ours_peak,
        rapier_peak,
    }
}

/// The rows at `n` movers.
pub fn run_parts(n: usize) -> Vec<PartsRow> {
    let h = heights();
    let (vertices, tris) = triangles(&h);
    let (shapes, frames) = movers(&h, n);
    let mesh_row = row(
        &format!("mesh floor of {} triangles, {n} movers", tris.len()),
        |w| {
            let ground = Mesh3::from_heights(SAMPLES, SAMPLES, &h, Vec2::splat(CELL)).unwrap();
            w.insert(Collider3::fixed(ground, Pose::IDENTITY, u32::MAX))
                .unwrap()
        },
        || rapier_floor(&vertices, &tris),
        &shapes,
        &frames,
    );
    // The lattice: 1,000 boxes of 0.5 m, 1 m apart, from (0.5, 0.5, 0.5).
    let lattice: Vec<Vec3> = (0..1000)
        .map(|k| {
            Vec3::new((k % 10) as f32, ((k / 10) % 10) as f32, (k / 100) as f32) + Vec3::splat(0.5)
        })
        .collect();
    let mut rng = SceneRng::new(13);
    let balls: Vec<Shape> = (0..n / 5)
        .map(|_| Sphere::new(rng.range(0.1, 0.3)).unwrap().into())
        .collect();
    let at: Vec<Vec3> = (0..n / 5)
        .map(|_| {
            Vec3::new(
                rng.range(0.0, 10.0),
                rng.range(0.0, 10.0),
                rng.range(0.0, 10.0),
            )
        })
        .collect();
    let ball_frames = walk(&mut rng, at, |q| q.clamp(Vec3::ZERO, Vec3::splat(10.0)));
    let compound_row = row(
        &format!("compound of 1000 boxes, {} balls", n / 5),
        |w| {
            let brick = Cuboid::new(Vec3::splat(0.25)).unwrap();
            let parts = lattice
                .iter()
                .map(|&p| (brick.into(), Pose::at(p).unwrap()));
            w.insert(Collider3::fixed(
                Compound3::new(parts).unwrap(),
                Pose::IDENTITY,
                u32::MAX,
            ))
            .unwrap()
        },
        || {
            use rapier3d::geometry::{ColliderBuilder, SharedShape};
            let parts = lattice
                .iter()
                .map(|&p| (rapier_at(p), SharedShape::cuboid(0.25, 0.25, 0.25)))
                .collect();
            fixed(ColliderBuilder::compound(parts))
        },
        &balls,
        &ball_frames,
    );
    vec![mesh_row, compound_row]
}

/// `rays` rays cast down onto the mesh floor.
pub fn run_mesh_rays(rays: usize) -> Vec<RayRow> {
    let h = heights();
    let (vertices, tris) = triangles(&h);
    let side = (SAMPLES - 1) as f32 * CELL;
    let mut rng = SceneRng::new(21);
    let casts: Vec<(Vec3, Vec3)> = (0..rays)
        .map(|_| {
            let from = Vec3::new(rng.range(0.0, side), 5.0, rng.range(0.0, side));
            let d = Vec3::new(rng.range(-1.0, 1.0), -2.0, rng.range(-1.0, 1.0)).normalize();
            (from, d * 20.0)
        })
        .collect();
    let mut world =
        World3::<()>::with_settings(WorldSettings::default().with_structure(Structure::Bvh));
    let ground = Mesh3::from_heights(SAMPLES, SAMPLES, &h, Vec2::splat(CELL)).unwrap();
    world
        .insert(Collider3::fixed(ground, Pose::IDENTITY, ()))
        .unwrap();
    world.step();
    let ours = world_ray_row("collide world (bvh)".into(), &world, &casts);
    let mut set = rapier3d::geometry::ColliderSet::new();
    set.insert(rapier_floor(&vertices, &tris));
    vec![ours, rapier_ray_row(&Rapier::of(set, 0.0), &casts)]
}

/// The tables of `--world-parts`.
pub fn parts_table(n: usize, rows: &[PartsRow], rays: usize, ray_rows: &[RayRow]) -> String {
    let mib = |b: usize| b as f64 / (1024.0 * 1024.0);
    let mut out = format!(
        "\n## World step with parts ({n} movers; 3D; one core; mean of {FRAMES} frames; peak heap while building and stepping)\n\n\
         | row | collide world ms | rapier ms | rapier / ours | touching (ours) | pairs with contacts (rapier) | peak heap ours MiB | rapier MiB |\n|---|---|---|---|---|---|---|---|\n"
    );
    for r in rows {
        out.push_str(&format!(
            "| {} | {:.2} | {:.2} | {:.2} | {} | {} | {:.1} | {:.1} |\n",
            r.row,
            r.ours_ms,
            r.rapier_ms,
            r.rapier_ms / r.ours_ms,
            r.ours_touching,
            r.rapier_touching,
            mib(r.ours_peak),
            mib(r.rapier_peak)
        ));
    }
    out.push_str(&format!(
        "\n## Rays onto the mesh floor ({rays} rays, 100,352 triangles)\n\n| implementation | rays/ms (best of 3) | rays that hit |\n|---|---|---|\n"
    ));
    for r in ray_rows {
        out.push_str(&format!("| {} | {:.0} | {} |\n", r.name, r.rate, r.hits));
    }
    out
}

/// The rows as CSV.
pub fn parts_csv(n: usize, rows: &[PartsRow], ray_rows: &[RayRow]) -> String {
    let mut out = String::from(
        "movers,row,collide_ms,rapier_ms,collide_touching,rapier_pairs_with_contacts,collide_peak_bytes,rapier_peak_bytes,rays_per_ms,hits\n",
    );
    for r in rows {
        out.push_str(&format!(
            "{n},{},{:.3},{:.3},{},{},{},{},,\n",
            r.row,
            r.ours_ms,
            r.rapier_ms,
            r.ours_touching,
            r.rapier_touching,
            r.ours_peak,
            r.rapier_peak
        ));
    }
    for r in ray_rows {
        out.push_str(&format!(
            "{n},rays: {},,,,,,,{:.1},{}\n",
            r.name, r.rate, r.hits
        ));
    }
    out
}
