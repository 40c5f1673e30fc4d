//! The workloads of bodies and shapes: ragdolls, narrow-phase queries,
//! sand and fracture.

use crate::*;

use collide::geometry::Ray;
use collide::narrow::d3::{self, Cuboid, Polyhedron, Pose};
use collide_game::fracture::{self, FractureSettings, Pattern};
use collide_game::glam::{DVec2, DVec3, Vec3};
use collide_game::ragdoll::{Ragdoll, RagdollSettings, Skeleton};
use collide_sand::{Material, Materials, Motion, SandSettings, SandWorld};
use collide_scenes::SceneRng;

// ------------------------------------------------------------------ ragdolls

pub const RAGDOLL_TICKS: usize = 240;

pub struct Dolls {
    level: Level,
    dolls: Vec<Ragdoll>,
}

/// Four humanoid ragdolls dropped turned onto a flight of stairs, side by
/// side.
pub fn ragdolls() -> Run {
    let mut corners = vec![(Vec3::new(-10.0, -1.0, -10.0), Vec3::new(10.0, 0.0, 4.0))];
    for k in 0..6 {
        let top = 1.8 - 0.3 * k as f32;
        corners.push((
            Vec3::new(-8.0, -1.0, -0.45 * k as f32 - 0.45),
            Vec3::new(8.0, top, 4.0),
        ));
    }
    let turns = [
        [0.3, 0.5, -0.2, 0.8],
        [-0.6, 0.1, 0.3, 0.7],
        [0.1, -0.4, 0.7, 0.6],
        [0.5, 0.5, 0.5, 0.5],
    ];
    let mut level = Level::corners(&corners);
    let dolls = turns
        .iter()
        .enumerate()
        .map(|(k, turn)| {
            Ragdoll::new(
                Skeleton::humanoid(1.8, 75.0).expect("valid"),
                RagdollSettings::default(),
                Vec3::new(-4.5 + 3.0 * k as f32, 2.8 + 0.2 * k as f32, 0.3),
                unit_quat(*turn),
                Vec3::new(0.3 - 0.2 * k as f32, 0.0, -1.5),
                level.world_mut(),
                (),
            )
            .expect("valid")
        })
        .collect();
    let mut dolls = Dolls { level, dolls };
    timed(
        4 * RAGDOLL_TICKS,
        "ragdoll steps",
        &mut dolls,
        measured_ragdolls,
    )
}

#[inline(never)]
fn measured_ragdolls(d: &mut Dolls) -> u64 {
    let dt = tick_60();
    let mut digest = Digest::new();
    for _ in 0..RAGDOLL_TICKS {
        for doll in &mut d.dolls {
            doll.step(dt, d.level.world_mut()).expect("finite");
        }
        d.level.world_mut().step();
    }
    for doll in &d.dolls {
        digest.u64(doll.state_hash());
        digest.vec3(doll.centre_of_mass());
    }
    digest.0
}

// -------------------------------------------------------------------- narrow

pub const NARROW_PAIRS: usize = 3_500;

pub struct Pairs {
    boxes: Vec<Cuboid>,
    hulls: Vec<Polyhedron>,
    /// Per pair: which box/hull each side is, the two poses, a motion, a
    /// turn and a ray's origin.
    pairs: Vec<Pair>,
}

pub struct Pair {
    i: usize,
    j: usize,
    pa: Pose,
    pb: Pose,
    motion: Vec3,
    turn: Vec3,
    from: Vec3,
}

/// 3,500 seeded pairs at seeded poses, each asked six things: a box-box
/// contact (SAT), a polyhedron-polyhedron contact (GJK/EPA), a distance,
/// a ray cast, a shape cast and a turning cast: 21,000 queries.
pub fn narrow() -> Run {
    let mut rng = SceneRng::new(31);
    let boxes = vec![
        Cuboid::new(Vec3::new(0.7, 0.3, 0.4)).expect("valid"),
        Cuboid::new(Vec3::new(0.5, 0.5, 0.5)).expect("valid"),
        Cuboid::new(Vec3::new(1.2, 0.1, 0.6)).expect("valid"),
    ];
    let tetra = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
    let wedge = [
        Vec3::ZERO,
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(0.0, 0.6, 0.0),
        Vec3::new(0.0, 0.0, 0.8),
        Vec3::new(1.0, 0.0, 0.8),
        Vec3::new(0.0, 0.6, 0.8),
    ];
    let rock: Vec<Vec3> = (0..16)
        .map(|_| {
            Vec3::new(
                rng.range(-0.6, 0.6),
                rng.range(-0.4, 0.4),
                rng.range(-0.5, 0.5),
            )
        })
        .collect();
    let hulls = vec![
        Polyhedron::new(&tetra).expect("valid"),
        Polyhedron::new(&wedge).expect("valid"),
        Polyhedron::new(&rock).expect("valid"),
        Polyhedron::rounded(&wedge, 0.1).expect("valid"),
    ];
    let pairs = (0..NARROW_PAIRS)
        .map(|_| {
            let (i, j) = (rng.below(4), rng.below(4));
            let pa = Pose::new(within(&mut rng, 1.0), rotation(&mut rng)).expect("finite");
            let pb = Pose::new(within(&mut rng, 1.0), rotation(&mut rng)).expect("finite");
            Pair {
                i,
                j,
                pa,
                pb,
                motion: within(&mut rng, 4.0),
                turn: within(&mut rng, 2.0),
                from: within(&mut rng, 5.0),
            }
        })
        .collect();
    let mut pairs = Pairs {
        boxes,
        hulls,
        pairs,
    };
    timed(
        6 * NARROW_PAIRS,
        "narrow-phase queries",
        &mut pairs,
        measured_narrow,
    )
}

#[inline(never)]
fn measured_narrow(p: &mut Pairs) -> u64 {
    let mut digest = Digest::new();
    for pair in &p.pairs {
        let (ba, bb) = (&p.boxes[pair.i % 3], &p.boxes[pair.j % 3]);
        if let Some(c) = d3::contact_cuboid_cuboid(ba, &pair.pa, bb, &pair.pb) {
            digest.f32(c.depth);
        }
        let (a, b) = (&p.hulls[pair.i], &p.hulls[pair.j]);
        let c = d3::contact(a, &pair.pa, b, &pair.pb);
        digest.f32(c.depth);
        digest.vec3(c.normal);
        digest.f32(d3::distance(a, &pair.pa, b, &pair.pb));
        let ray = Ray::new(pair.from, pair.pb.position() - pair.from, 8.0).expect("finite");
        if let Some(hit) = d3::cast_ray(&ray, b, &pair.pb) {
            digest.f32(hit.t);
        }
        let far =
            Pose::new(pair.pa.position() - pair.motion * 0.5, pair.pa.rotation()).expect("finite");
        if let Some(hit) = d3::cast_shape(a, &far, pair.motion, b, &pair.pb, Vec3::ZERO) {
            digest.f32(hit.t);
        }
        if let Ok(Some(hit)) = d3::cast_turning(a, &far, pair.motion, pair.turn, b, &pair.pb) {
            digest.f32(hit.t);
        }
    }
    digest.0
}

// ---------------------------------------------------------------------- sand

pub const SAND_SIDE: u32 = 256;
pub const SAND_TICKS: usize = 50;

/// A 256 by 256 world whose upper seven eighths start as seeded sand
/// (35%), water (35%) and empty space, collapsing onto a stone floor for
/// 50 ticks on a pool of one thread.
pub fn sand() -> Run {
    let mut table = Materials::new();
    let stone = table
        .add(Material::new("stone", 30.0, Motion::Static).expect("valid"))
        .expect("valid");
    let grains = table
        .add(Material::new("sand", 16.0, Motion::Powder).expect("valid"))
        .expect("valid");
    let water = table
        .add(Material::new("water", 10.0, Motion::Liquid).expect("valid"))
        .expect("valid");
    let settings = SandSettings::new(SAND_SIDE, SAND_SIDE)
        .expect("valid")
        .with_seed(3);
    let mut world = SandWorld::new(settings, table).expect("valid");
    let mut rng = SceneRng::new(99);
    let side = i64::from(SAND_SIDE);
    for x in 0..side {
        world.place_asleep(x, 0, stone).expect("inside");
    }
    for y in side / 8..side {
        for x in 0..side {
            let r = rng.unit();
            let m = if r < 0.35 {
                grains
            } else if r < 0.7 {
                water
            } else {
                continue;
            };
            world.place_asleep(x, y, m).expect("inside");
        }
    }
    world.wake_all();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool");
    pool.install(|| timed(SAND_TICKS, "sand ticks", &mut world, measured_sand))
}

#[inline(never)]
fn measured_sand(world: &mut SandWorld) -> u64 {
    let mut scanned = 0;
    for _ in 0..SAND_TICKS {
        world.tick();
        scanned += world.scanned();
    }
    scanned ^ world.state_hash()
}

// ------------------------------------------------------------------ fracture

pub const FRACTURE_ROUNDS: usize = 25;

pub struct Plates {
    plate: Vec<DVec2>,
    patterns: Vec<Vec<DVec2>>,
    wall: fracture::d3::Part,
    sites_3d: Vec<DVec3>,
}

/// A 20 by 20 plate broken by 1,000 uniform sites and by 1,000 sites of
/// a radial pattern, and a 4 by 3 by 0.5 wall broken by 100 sites in 3D,
/// each 25 times.
pub fn fracture_plates() -> Run {
    let plate = vec![
        DVec2::new(0.0, 0.0),
        DVec2::new(20.0, 0.0),
        DVec2::new(20.0, 20.0),
        DVec2::new(0.0, 20.0),
    ];
    let centre = DVec2::new(10.0, 10.0);
    let patterns = vec![
        Pattern::uniform(1000, 10.0, 5)
            .expect("valid")
            .placed(centre, 0.0),
        Pattern::radial(1000, 14.0, 2.0, 5)
            .expect("valid")
            .placed(centre, 0.0),
    ];
    let mut state = 11u64;
    let mut unit = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let sites_3d = (0..100)
        .map(|_| DVec3::new(4.0 * unit(), 3.0 * unit(), 0.5 * unit()))
        .collect();
    let mut plates = Plates {
        plate,
        patterns,
        wall: fracture::d3::Part::cuboid(DVec3::ZERO, DVec3::new(4.0, 3.0, 0.5)).expect("valid"),
        sites_3d,
    };
    timed(
        3 * FRACTURE_ROUNDS,
        "fractures",
        &mut plates,
        measured_fracture,
    )
}

#[inline(never)]
fn measured_fracture(p: &mut Plates) -> u64 {
    let settings = FractureSettings::default();
    let mut digest = Digest::new();
    for _ in 0..FRACTURE_ROUNDS {
        for sites in &p.patterns {
            let broken = fracture::d2::fracture(std::slice::from_ref(&p.plate), sites, &settings)
                .expect("valid input");
            digest.u64(broken.pieces().len() as u64);
            digest.u64(broken.bonds().len() as u64);
        }
        let broken = fracture::d3::fracture(std::slice::from_ref(&p.wall), &p.sites_3d)
            .expect("valid input");
        digest.u64(broken.pieces().len() as u64);
        digest.u64(broken.bonds().len() as u64);
    }
    digest.0
}
