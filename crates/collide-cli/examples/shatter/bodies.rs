//! The falling groups as rigid bodies: each a compound collider of its
//! pieces, pushed apart from what it touches by impulses at the world's
//! contact manifold points (rounds of them a tick, friction included).
//! Enough for pieces to fall, tumble and come to rest; not a physics
//! engine.

use collide::Handle;
use collide::narrow::d3::{Polyhedron, Pose, Shape};
use collide::world::{Collider3, Compound, World3, WorldEvents};
use collide_game::dynamics::RigidBody;
use collide_game::fracture::d3::Piece;
use glam::{DVec3, Quat, Vec3};
use std::error::Error;
use std::sync::Arc;

type Compound3 = Compound<Vec3>;

/// A falling group: its body, its collider, its pieces' faces about its
/// centre of mass (for the picture).
pub struct Chunk {
    pub body: RigidBody,
    pub collider: Handle,
    pub faces: Vec<Vec<Vec3>>,
}

/// The pieces of a broken wall, those broken loose with a crack of 2% of
/// their size around them (pieces that shared a side start apart, not
/// pressed together along it).
pub struct Cracked<'a> {
    pub pieces: &'a [Piece],
    pub loose: &'a [bool],
}

impl Cracked<'_> {
    /// Piece `k`'s corner `c`, cracked, about `about`.
    fn corner(&self, k: u32, c: DVec3, about: DVec3) -> Vec3 {
        let piece = &self.pieces[k as usize];
        let shrink = if self.loose[k as usize] { 0.98 } else { 1.0 };
        (piece.centroid() + (c - piece.centroid()) * shrink - about).as_vec3()
    }

    /// The pieces `group` as one compound about `about`.
    pub fn compound(&self, group: &[u32], about: DVec3) -> Result<Compound3, Box<dyn Error>> {
        let mut parts = Vec::with_capacity(group.len());
        for &k in group {
            let piece = &self.pieces[k as usize];
            let shrink = if self.loose[k as usize] { 0.98 } else { 1.0 };
            let corners: Vec<Vec3> = piece
                .shape()?
                .points()
                .iter()
                .map(|p| *p * shrink)
                .collect();
            let hull = Shape::Polyhedron(Arc::new(Polyhedron::new(&corners)?));
            parts.push((hull, Pose::at((piece.centroid() - about).as_vec3())?));
        }
        Ok(Compound::new(parts)?)
    }
}

impl Chunk {
    /// The pieces `group` of `density` kg/m³ as a body at rest and a
    /// moving collider in `world`, with a box's moments of inertia for the
    /// group's bounds.
    pub fn new(
        cracked: &Cracked<'_>,
        group: &[u32],
        density: f32,
        world: &mut World3<()>,
    ) -> Result<Self, Box<dyn Error>> {
        let pieces = |g: &[u32]| {
            g.iter()
                .map(|&k| &cracked.pieces[k as usize])
                .collect::<Vec<_>>()
        };
        let volume: f64 = pieces(group).iter().map(|p| p.volume()).sum();
        let centre = pieces(group)
            .iter()
            .map(|p| p.centroid() * p.volume())
            .sum::<DVec3>()
            / volume;
        let shape = cracked.compound(group, centre)?;
        let collider = world.insert(Collider3::moving(shape, Pose::at(centre.as_vec3())?, ()))?;
        let (mut lo, mut hi) = (DVec3::MAX, DVec3::MIN);
        for c in pieces(group).iter().flat_map(|p| p.corners()) {
            (lo, hi) = (lo.min(*c), hi.max(*c));
        }
        let half = (0.5 * (hi - lo)).as_vec3();
        let body = RigidBody::cuboid(
            density * volume as f32,
            half,
            centre.as_vec3(),
            Quat::IDENTITY,
        )?;
        let faces = group
            .iter()
            .flat_map(|&k| {
                let piece = &cracked.pieces[k as usize];
                piece
                    .faces()
                    .iter()
                    .map(move |f| f.iter().map(|&c| cracked.corner(k, c, centre)).collect())
            })
            .collect();
        Ok(Chunk {
            body,
            collider,
            faces,
        })
    }

    /// The same moving at `linear` m/s and turning at `angular` rad/s.
    pub fn pushed(mut self, linear: Vec3, angular: Vec3) -> Result<Self, Box<dyn Error>> {
        self.body.set_velocity(linear, angular)?;
        Ok(self)
    }
}

/// One tick's contacts at `events`: each point where a group touches
/// anything (in `contacts`, cleared first), then rounds of impulses.
pub fn settle(
    chunks: &mut [Chunk],
    events: &WorldEvents<Vec3>,
    contacts: &mut Vec<Contact>,
    dt: f32,
) -> Result<(), Box<dyn std::error::Error>> {
    contacts.clear();
    for touch in &events.touching {
        let (a, b) = (find(chunks, touch.a), find(chunks, touch.b));
        let parts = events.parts(touch);
        let manifolds = parts
            .iter()
            .map(|p| &p.manifold)
            .chain(parts.is_empty().then_some(&touch.manifold));
        for m in manifolds {
            for p in m.points() {
                contacts.push(Contact {
                    bodies: (a, b),
                    normal: m.normal(),
                    point: 0.5 * (p.point_a + p.point_b),
                    depth: p.depth,
                    taken: 0.0,
                });
            }
        }
    }
    for _ in 0..20 {
        for c in contacts.iter_mut() {
            push_apart(chunks, c, dt)?;
        }
    }
    Ok(())
}

/// The falling group with collider `h`, if any.
fn find(chunks: &[Chunk], h: Handle) -> Option<usize> {
    chunks.iter().position(|c| c.collider == h)
}

/// A point where a group touches something: the two colliders' groups
/// (none for the floor and what stands), the normal from the first to the
/// second, the point, the overlap, and the normal impulse taken so far.
pub struct Contact {
    bodies: (Option<usize>, Option<usize>),
    normal: Vec3,
    point: Vec3,
    depth: f32,
    taken: f32,
}

/// One round at contact `c`: the normal impulse that stops the bodies'
/// approach there (up to closing a gap still open within the tick, and
/// pushing out a share of an overlap), kept at zero or more in total over
/// the rounds, and friction up to 0.6 of it.
fn push_apart(
    chunks: &mut [Chunk],
    c: &mut Contact,
    dt: f32,
) -> Result<(), Box<dyn std::error::Error>> {
    let (a, b, point, normal) = (c.bodies.0, c.bodies.1, c.point, c.normal);
    let velocity = |k: Option<usize>, chunks: &[Chunk]| {
        k.map_or(Vec3::ZERO, |k| chunks[k].body.velocity_at(point))
    };
    let weight = |k: Option<usize>, chunks: &[Chunk], d: Vec3| {
        k.map_or(0.0, |k| chunks[k].body.inverse_mass_at(point, d))
    };
    let k = weight(a, chunks, normal) + weight(b, chunks, normal);
    if k <= 0.0 {
        return Ok(());
    }
    let relative = velocity(b, chunks) - velocity(a, chunks);
    let approach = relative.dot(normal);
    let bias = if c.depth < 0.0 {
        c.depth / dt
    } else {
        0.2 * (c.depth - 0.002).max(0.0) / dt
    };
    let total = (c.taken + (bias - approach) / k).max(0.0);
    let lambda = total - c.taken;
    c.taken = total;
    let slide = relative - approach * normal;
    let friction = match slide.try_normalize() {
        Some(t) => {
            -t * (slide.length() / (weight(a, chunks, t) + weight(b, chunks, t))).min(0.6 * total)
        }
        None => Vec3::ZERO,
    };
    let impulse = lambda * normal + friction;
    if let Some(b) = b {
        chunks[b].body.apply_impulse_at(impulse, point)?;
    }
    if let Some(a) = a {
        chunks[a].body.apply_impulse_at(-impulse, point)?;
    }
    Ok(())
}
