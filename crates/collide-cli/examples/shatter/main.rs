//! A wall that shatters when shot (3D): a shot's ray meets a concrete
//! wall in the collision world; the wall breaks into Voronoi pieces, small
//! near the hole, the pieces at the hole turn to dust, those around it
//! break loose, and the groups no longer joined to the pillar the wall is
//! built against fall too: each falling group is a rigid body, a compound
//! collider of its pieces, bouncing off the floor, the stump and each
//! other by the world's contact manifolds until they rest.
//!
//! `cargo run --release --example shatter` prints what broke and where it
//! came to rest, and writes an SVG of the wall before and after, seen
//! from the front.

use collide::geometry::Ray;
use collide::narrow::d3::{Cuboid, Pose};
use collide::world::{Collider3, QueryFilter, World3, WorldQuery};
use collide_game::fracture::Pattern;
use collide_game::fracture::d3::{Part, fracture, islands};
use glam::{DVec2, DVec3, Vec3};
use std::fmt::Write;

mod bodies;
use bodies::{Chunk, Cracked, settle};

const HZ: f32 = 60.0;
const GRAVITY: Vec3 = Vec3::new(0.0, -9.81, 0.0);
/// Concrete, kg/m³.
const DENSITY: f32 = 2400.0;
/// Metres from the hole within which pieces turn to dust.
const DUST: f64 = 0.4;
/// Metres from the hole within which pieces break loose, each alone.
const LOOSE: f64 = 1.5;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = World3::<()>::new();
    let slab = Cuboid::new(Vec3::new(10.0, 0.5, 10.0))?;
    world.insert(Collider3::fixed(
        slab,
        Pose::at(Vec3::new(0.0, -0.5, 0.0))?,
        (),
    ))?;
    // A wall 4 m wide, 3 m tall and 0.3 m thick on the floor, held by a
    // pillar at its left end.
    let (low, high) = (DVec3::new(-2.0, 0.0, -0.15), DVec3::new(2.0, 3.0, 0.15));
    let half = (0.5 * (high - low)).as_vec3();
    let wall = world.insert(Collider3::fixed(
        Cuboid::new(half)?,
        Pose::at(Vec3::new(0.0, half.y, 0.0))?,
        (),
    ))?;
    // The shot, from 20 m in front, at the wall's middle.
    let ray = Ray::new(Vec3::new(0.2, 1.5, 20.0), -Vec3::Z, 40.0)?;
    let hit = world
        .cast_ray(&ray, &QueryFilter::new())
        .ok_or("the shot missed the wall")?;
    let hole = ray.at(hit.t).as_dvec3();
    // Pieces dense near the hole, sites in the wall's plane.
    let sites: Vec<DVec3> = Pattern::radial(80, 2.5, 2.0, 11)?
        .placed(DVec2::new(hole.x, hole.y), 0.0)
        .into_iter()
        .map(|s| DVec3::new(s.x, s.y, 0.0))
        .collect();
    let broken = fracture(&[Part::cuboid(low, high)?], &sites)?;
    let pieces = broken.pieces();
    let near = |k: usize| pieces[k].centroid().distance(hole);
    let dust = (0..pieces.len()).filter(|&k| near(k) < DUST).count();
    let gone: Vec<bool> = (0..pieces.len()).map(|k| near(k) < LOOSE).collect();
    // The wall is built against a pillar at its left end.
    let on_pillar =
        |p: &collide_game::fracture::d3::Piece| p.corners().iter().any(|c| c.x < low.x + 1e-6);
    let split = islands(&broken, &gone, on_pillar)?;
    // The loose pieces fall each alone, and the groups cut off together.
    let mut groups: Vec<Vec<u32>> = (0..pieces.len() as u32)
        .filter(|&k| gone[k as usize] && near(k as usize) >= DUST)
        .map(|k| vec![k])
        .collect();
    groups.extend(split.falling().iter().map(|i| i.pieces().to_vec()));
    world.remove(wall)?;
    // What still stands is one fixed compound; each falling group a body
    // the blast pushes away from the hole, harder nearer.
    let cracked = Cracked {
        pieces,
        loose: &gone,
    };
    let stump = cracked.compound(split.anchored(), DVec3::ZERO)?;
    world.insert(Collider3::fixed(stump, Pose::IDENTITY, ()))?;
    let mut chunks = Vec::new();
    for group in &groups {
        let chunk = Chunk::new(&cracked, group, DENSITY, &mut world)?;
        let away = chunk.body.position().as_dvec3() - hole;
        let push = (away.normalize() * (2.0 / away.length().max(0.5)) - 3.0 * DVec3::Z).as_vec3();
        chunks.push(chunk.pushed(push, Vec3::new(push.y, -push.x, 0.0))?);
    }
    let dt = 1.0 / HZ;
    let mut contacts = Vec::new();
    for _ in 0..(6.0 * HZ) as usize {
        let events = world.step();
        for c in &mut chunks {
            let v = c.body.linear_velocity() + GRAVITY * dt;
            c.body.set_velocity(v, c.body.angular_velocity())?;
        }
        settle(&mut chunks, &events, &mut contacts, dt)?;
        for c in &mut chunks {
            c.body.integrate(dt)?;
            world.set_pose(
                c.collider,
                Pose::new(c.body.position(), c.body.orientation())?,
            )?;
        }
    }
    let fastest = chunks
        .iter()
        .map(|c| c.body.linear_velocity().length())
        .fold(0.0, f32::max);
    let lowest = chunks
        .iter()
        .flat_map(|c| c.faces.iter().flatten().map(|p| c.body.to_world(*p).y))
        .fold(f32::MAX, f32::min);
    println!("the shot hit the wall at ({:.2}, {:.2}) m", hole.x, hole.y);
    let cut_off: usize = split.falling().iter().map(|i| i.pieces().len()).sum();
    let parts = match split.falling().len() {
        1 => "1 part".to_string(),
        n => format!("{n} parts"),
    };
    println!(
        "{} pieces: {dust} dust, {} broken loose, {} still on the pillar, {cut_off} in {parts} cut off from it",
        pieces.len(),
        groups.len() - split.falling().len(),
        split.anchored().len(),
    );
    println!(
        "after 6 s the fastest body moves at {fastest:.3} m/s, the lowest point {:.0} mm into the floor",
        -1000.0 * lowest.min(0.0)
    );
    let out = std::env::temp_dir().join("collide-shatter.svg");
    std::fs::write(&out, svg(pieces, &split, &chunks))?;
    println!("picture: {}", out.display());
    Ok(())
}

/// The wall from the front: the pieces that stand (grey), the dust
/// (outlined) and the falling groups where they came to rest (coloured).
fn svg(
    pieces: &[collide_game::fracture::d3::Piece],
    split: &collide_game::fracture::d3::Islands,
    chunks: &[Chunk],
) -> String {
    let px = |v: Vec3| format!("{:.1},{:.1}", 100.0 * (v.x + 4.0), 100.0 * (4.0 - v.y));
    let mut out = String::from(
        "<svg xmlns='http://www.w3.org/2000/svg' width='800' height='420'><rect width='100%' height='100%' fill='#f4f4f0'/><rect x='0' y='400' width='800' height='20' fill='#888'/><rect x='200' y='100' width='400' height='300' fill='none' stroke='#555' stroke-dasharray='6 4'/>",
    );
    let mut face = |corners: &mut dyn Iterator<Item = Vec3>, style: &str| {
        let points: Vec<String> = corners.map(px).collect();
        let _ = write!(out, "<polygon points='{}' {style}/>", points.join(" "));
    };
    for &k in split.anchored() {
        for f in pieces[k as usize].faces() {
            face(
                &mut f.iter().map(|c| c.as_vec3()),
                "fill='#999' stroke='#555' stroke-width='0.5'",
            );
        }
    }
    for (n, c) in chunks.iter().enumerate() {
        let colour = [
            "#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
        ][n % 6];
        for f in &c.faces {
            face(
                &mut f.iter().map(|p| c.body.to_world(*p)),
                &format!("fill='{colour}' fill-opacity='0.5' stroke='{colour}' stroke-width='0.5'"),
            );
        }
    }
    out + "</svg>"
}
