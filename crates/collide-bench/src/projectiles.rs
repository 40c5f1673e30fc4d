//! `--projectiles N`: one tick of N point projectiles (air drag, gravity,
//! 300 m/s, 60 ticks a second) through a collision world of 10,000 boxes
//! over our BVH, against N `query_ray_closest` calls along the same
//! segments on the same world (its broad phase's boxes): what flying a
//! projectile costs over the bare ray query it is built on. Each side
//! runs 7 alternating rounds; the table gives the median microseconds per
//! projectile or query and their ratio.

use collide::geometry::Ray;
use collide::narrow::d3::{Cuboid, Pose};
use collide::world::{Collider3, World3, WorldSettings};
use collide::{Query, Structure};
use collide_game::D3;
use collide_game::projectile::{Ballistics, Body, Media, Medium, OnHit, Projectile};
use collide_game::time::TimeStep;
use collide_game::{Gravity, Surroundings};
use collide_scenes::SceneRng;
use glam::Vec3;
use std::time::Instant;

const BOXES: usize = 10_000;
const ROUNDS: usize = 7;
const DT: f32 = 1.0 / 60.0;

/// One row: microseconds per projectile tick and per ray query.
pub struct ProjectileRow {
    pub projectiles: usize,
    pub flight_us: f64,
    pub ray_us: f64,
    pub hits: usize,
    pub ray_hits: usize,
}

/// Runs both on the same world and starts.
pub fn run_projectiles(count: usize) -> ProjectileRow {
    let mut rng = SceneRng::new(4242);
    // 10,000 boxes of 0.5 to 3 m in a cube of side 200 m.
    let side = 200.0;
    let mut world: World3 =
        World3::with_settings(WorldSettings::default().with_structure(Structure::Bvh));
    for _ in 0..BOXES {
        let half = Vec3::new(
            rng.range(0.25, 1.5),
            rng.range(0.25, 1.5),
            rng.range(0.25, 1.5),
        );
        let at = Pose::at(Vec3::new(
            rng.range(0.0, side),
            rng.range(0.0, side),
            rng.range(0.0, side),
        ))
        .expect("finite");
        let shape = Cuboid::new(half).expect("valid");
        world
            .insert(Collider3::fixed(shape, at, ()))
            .expect("valid");
    }
    world.step();
    let starts: Vec<(Vec3, Vec3)> = (0..count)
        .map(|_| {
            let at = Vec3::new(
                rng.range(0.0, side),
                rng.range(0.0, side),
                rng.range(0.0, side),
            );
            let dir = Vec3::new(
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
            )
            .normalize_or(Vec3::X);
            (at, dir * 300.0)
        })
        .collect();
    let media = Media::<D3>::new(Medium::AIR);
    let around = Surroundings::<D3>::new(&world, Gravity::earth()).with_media(&media);
    let body = Body::sphere(0.008, 0.3, 0.0045).expect("valid");
    let dt = TimeStep::new(DT).expect("positive");
    let mut ballistics = Ballistics::<D3>::default();
    let rays: Vec<Ray<Vec3>> = starts
        .iter()
        .map(|&(at, v)| Ray::new(at, v.normalize(), v.length() * DT).expect("finite"))
        .collect();
    let (mut flight, mut query) = (Vec::new(), Vec::new());
    let (mut hits, mut ray_hits) = (0, 0);
    for _ in 0..ROUNDS {
        let mut shots: Vec<Projectile<D3>> = starts
            .iter()
            .map(|&(at, v)| Projectile::new(at, v, 0.0, 5.0, None, body).expect("valid"))
            .collect();
        let start = Instant::now();
        hits = 0;
        for shot in &mut shots {
            ballistics.step(shot, &around, dt, |_| OnHit::Stop);
            hits += ballistics.hits().len();
        }
        flight.push(start.elapsed().as_secs_f64() * 1e6 / count as f64);
        let start = Instant::now();
        ray_hits = rays
            .iter()
            .filter(|r| world.query_ray_closest(r).is_some())
            .count();
        query.push(start.elapsed().as_secs_f64() * 1e6 / count as f64);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    ProjectileRow {
        projectiles: count,
        flight_us: median(&mut flight),
        ray_us: median(&mut query),
        hits,
        ray_hits,
    }
}

/// The table of `--projectiles`.
pub fn projectile_table(row: &ProjectileRow) -> String {
    format!(
        "\n## Projectiles, {} in a world of {BOXES} boxes (bvh, one core)\n\n\
         | what | us each (median of {ROUNDS}) | hits |\n|---|---:|---:|\n\
         | one projectile tick (drag, gravity, swept ray, exact shapes) | {:.3} | {} |\n\
         | one `query_ray_closest` along the same segment (boxes only) | {:.3} | {} |\n\
         | ratio | {:.2} | |\n",
        row.projectiles,
        row.flight_us,
        row.hits,
        row.ray_us,
        row.ray_hits,
        row.flight_us / row.ray_us
    )
}
