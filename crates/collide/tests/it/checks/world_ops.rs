//! The collision world against brute force: the brute force itself
//! (every pair under the world's rules, every query over every collider),
//! and operation sequences decoded from bytes (the `world_ops` fuzz
//! target's input) run on a world and on the brute force side by side.
//!
//! A sequence inserts shapes of every kind on a lattice, moves, reshapes,
//! refilters and removes them, turns them to sensors and back, teleports
//! them far away, uses removed and foreign handles, switches the structure
//! underneath, steps and asks every query. [`check_bytes`] returns the
//! first difference; an operation the world refuses must leave it as it
//! was, and only a teleport may be refused.

use super::ops::Reader;
use collide::geometry::Ray;
use collide::narrow::{Capsule, Contact, Cuboid, d2, d3};
use collide::world::{
    Candidate, Collider, Filter, QueryFilter, Space, World, WorldClosest, WorldEvents, WorldQuery,
    WorldRayHit, WorldSettings, WorldShapeHit,
};
use collide::{Error, Handle, HandleError, Structure};
use glam::{Quat, Vec2, Vec3};

/// A collider as the brute force keeps it.
#[derive(Clone, Debug)]
pub struct Live<V: Space> {
    pub handle: Handle,
    pub shape: V::Shape,
    pub pose: V::Pose,
    pub fixed: bool,
    pub filter: Filter,
    pub sensor: bool,
    pub value: u32,
}

/// Puts a collider of these parts into `world`, and returns it as the
/// brute force keeps it.
pub fn insert<V: Space>(
    world: &mut World<V, u32>,
    shape: V::Shape,
    pose: V::Pose,
    fixed: bool,
    filter: Filter,
    sensor: bool,
    value: u32,
) -> Result<Live<V>, Error> {
    let collider = if fixed {
        Collider::fixed(shape.clone(), pose, value)
    } else {
        Collider::moving(shape.clone(), pose, value)
    };
    let collider = collider.with_filter(filter);
    let collider = if sensor {
        collider.as_sensor()
    } else {
        collider
    };
    let handle = world.insert(collider)?;
    Ok(Live {
        handle,
        shape,
        pose,
        fixed,
        filter,
        sensor,
        value,
    })
}

type Pairs = Vec<(Handle, Handle)>;

/// A step's events as lists of pairs.
#[derive(Debug, PartialEq)]
pub struct Expected {
    pub started: Pairs,
    pub stopped: Pairs,
    pub touching: Pairs,
    pub sensor_started: Pairs,
    pub sensor_stopped: Pairs,
}

impl Expected {
    pub fn of<V: Space>(events: &WorldEvents<V>) -> Self {
        Expected {
            started: events.started.clone(),
            stopped: events.stopped.clone(),
            touching: events.touching.iter().map(|t| (t.a, t.b)).collect(),
            sensor_started: events.sensor_started.clone(),
            sensor_stopped: events.sensor_stopped.clone(),
        }
    }
}

/// The pair hook of the checks: a pure function of the values, so the
/// brute force can apply it to every pair.
pub fn allowed(value_a: u32, value_b: u32) -> bool {
    !(value_a + value_b).is_multiple_of(5)
}

/// The brute force of the world's step: every pair of live colliders
/// under the world's rules.
#[derive(Default)]
pub struct Brute {
    /// The pairs held after the last step (sensor pairs marked), sorted.
    held: Vec<(Handle, Handle, bool)>,
}

impl Brute {
    /// The events of a step over `live`, with the hook [`allowed`] when
    /// `hook`.
    pub fn step<V: Space>(
        &mut self,
        live: &[Live<V>],
        settings: &WorldSettings,
        hook: bool,
    ) -> Expected {
        let mut now = Vec::new();
        for (i, x) in live.iter().enumerate() {
            for y in &live[i + 1..] {
                let (p, q) = if x.handle < y.handle { (x, y) } else { (y, x) };
                let sensor = p.sensor || q.sensor;
                if (p.fixed && q.fixed)
                    || (p.sensor && q.sensor && !settings.sensor_pairs())
                    || !p.filter.allows(q.filter)
                {
                    continue;
                }
                let c = V::contact(&p.shape, &p.pose, &q.shape, &q.pose);
                let was = self.held.contains(&(p.handle, q.handle, sensor));
                let margin = settings.margin() * V::reach(&p.shape).min(V::reach(&q.shape));
                if (c.depth >= 0.0 || (was && -c.depth <= margin))
                    && (!hook || allowed(p.value, q.value))
                {
                    now.push((p.handle, q.handle, sensor));
                }
            }
        }
        now.sort_unstable();
        let before = std::mem::replace(&mut self.held, now);
        let kind = |list: &[(Handle, Handle, bool)], sensor: bool| -> Pairs {
            list.iter()
                .filter(|p| p.2 == sensor)
                .map(|p| (p.0, p.1))
                .collect()
        };
        let minus = |a: &Pairs, b: &Pairs| -> Pairs {
            a.iter().filter(|p| !b.contains(p)).copied().collect()
        };
        let (solid_before, solid_now) = (kind(&before, false), kind(&self.held, false));
        let (sensor_before, sensor_now) = (kind(&before, true), kind(&self.held, true));
        Expected {
            started: minus(&solid_now, &solid_before),
            stopped: minus(&solid_before, &solid_now),
            sensor_started: minus(&sensor_now, &sensor_before),
            sensor_stopped: minus(&sensor_before, &sensor_now),
            touching: solid_now,
        }
    }
}

/// The first of `hits` by `t`, ties to the lower handle.
fn first<X: Copy>(hits: impl Iterator<Item = (f32, Handle, X)>) -> Option<(f32, Handle, X)> {
    hits.fold(None, |best: Option<(f32, Handle, X)>, hit| match best {
        Some(b) if (b.0, b.1) <= (hit.0, hit.1) => Some(b),
        _ => Some(hit),
    })
}

/// Every hit of `ray` on `seen`, by handle.
pub fn ray_hits<V: Space>(seen: &[&Live<V>], ray: &Ray<V>) -> Vec<WorldRayHit<V>> {
    let mut hits: Vec<_> = seen
        .iter()
        .filter_map(|c| {
            V::cast_ray(&c.shape, ray, &c.pose).map(|h| WorldRayHit {
                handle: c.handle,
                t: h.t,
                point: h.point,
                normal: h.normal,
                part: 0,
            })
        })
        .collect();
    hits.sort_unstable_by_key(|h| h.handle);
    hits
}

/// The first of the hits (the world's `cast_ray`).
pub fn first_ray_hit<V: Space>(hits: &[WorldRayHit<V>]) -> Option<WorldRayHit<V>> {
    first(hits.iter().map(|h| (h.t, h.handle, *h))).map(|b| b.2)
}

/// The world's shape cast over `seen`.
pub fn cast<V: Space>(
    seen: &[&Live<V>],
    shape: &V::Shape,
    pose: &V::Pose,
    motion: V,
) -> Option<WorldShapeHit<V>> {
    let hits = seen.iter().filter_map(|c| {
        let now = V::contact(shape, pose, &c.shape, &c.pose);
        let hit = if now.depth > 0.0 {
            Some((0.0, now))
        } else {
            V::cast_shape(shape, pose, motion, &c.shape, &c.pose).map(|h| (h.t, h.contact))
        };
        hit.map(|(t, contact)| (t, c.handle, contact))
    });
    first::<Contact<V>>(hits).map(|(t, handle, contact)| WorldShapeHit {
        handle,
        t,
        contact,
        part: 0,
    })
}

/// The colliders of `seen` that `shape` at `pose` touches, by handle.
pub fn overlapping<V: Space>(seen: &[&Live<V>], shape: &V::Shape, pose: &V::Pose) -> Vec<Handle> {
    let mut out: Vec<Handle> = seen
        .iter()
        .filter(|c| V::contact(shape, pose, &c.shape, &c.pose).depth >= 0.0)
        .map(|c| c.handle)
        .collect();
    out.sort_unstable();
    out
}

/// The world's closest point over `seen`.
pub fn closest<V: Space>(seen: &[&Live<V>], point: V, max: f32) -> Option<WorldClosest<V>> {
    let (dot, at) = (V::dot(), V::at(point).unwrap());
    let hits = seen.iter().filter_map(|c| {
        let contact = V::contact(&c.shape, &c.pose, &dot, &at);
        let (near, d) = if contact.depth >= 0.0 {
            (point, 0.0)
        } else {
            (contact.point_a, -contact.depth)
        };
        (d <= max).then_some((d, c.handle, near))
    });
    first(hits).map(|(distance, handle, point)| WorldClosest {
        handle,
        point,
        distance,
        part: 0,
    })
}

/// What a dimension needs for lattice scenes.
pub trait Lattice: Space {
    /// A shape of kind `kind` (ball, box, capsule, hull) and size `size`.
    fn shape(kind: u8, size: u8) -> Self::Shape;
    /// A pose at lattice point `at` (half units from `offset`) turned by
    /// `turn` sixteenths of a turn.
    fn pose(at: [i8; 3], turn: u8, offset: f32) -> Self::Pose;
    /// The lattice point `at` as a point.
    fn point(at: [i8; 3], offset: f32) -> Self;
    /// The pose `pose` teleported far away, chosen by `far`.
    fn teleported(pose: &Self::Pose, far: u8) -> Result<Self::Pose, collide::narrow::ShapeError>;
}

/// A lattice coordinate.
fn coordinate(k: i8, offset: f32) -> f32 {
    offset + 0.5 * f32::from(k)
}

/// A far coordinate, chosen by `far`.
fn far_coordinate(far: u8) -> f32 {
    [1.0e30, -3.0e38, 1.0e7, f32::MAX][usize::from(far % 4)]
}

/// A size from a byte: 0.05 to 1.6 units.
fn length(size: u8) -> f32 {
    0.05 * f32::from(1 + size % 32)
}

impl Lattice for Vec2 {
    fn shape(kind: u8, size: u8) -> d2::Shape {
        let (l, w) = (length(size), length(size / 32 + 1));
        match kind % 4 {
            0 => d2::Circle::new(l).unwrap().into(),
            1 => Cuboid::new(Vec2::new(l, w)).unwrap().into(),
            2 => Capsule::<Vec2>::new(l, w).unwrap().into(),
            _ => d2::Polygon::new(&[Vec2::ZERO, Vec2::new(l, 0.0), Vec2::new(0.0, w)])
                .unwrap()
                .into(),
        }
    }
    fn pose(at: [i8; 3], turn: u8, offset: f32) -> d2::Pose {
        let at = Vec2::new(coordinate(at[0], offset), coordinate(at[1], offset));
        d2::Pose::new(at, f32::from(turn % 16) * std::f32::consts::TAU / 16.0).unwrap()
    }
    fn point(at: [i8; 3], offset: f32) -> Vec2 {
        Vec2::new(coordinate(at[0], offset), coordinate(at[1], offset))
    }
    fn teleported(pose: &d2::Pose, far: u8) -> Result<d2::Pose, collide::narrow::ShapeError> {
        let p = pose.position();
        d2::Pose::new(Vec2::new(far_coordinate(far), p.y), pose.angle())
    }
}

impl Lattice for Vec3 {
    fn shape(kind: u8, size: u8) -> d3::Shape {
        let (l, w) = (length(size), length(size / 32 + 1));
        match kind % 4 {
            0 => d3::Sphere::new(l).unwrap().into(),
            1 => Cuboid::new(Vec3::new(l, w, l)).unwrap().into(),
            2 => Capsule::<Vec3>::new(l, w).unwrap().into(),
            _ => d3::Polyhedron::new(&[Vec3::ZERO, Vec3::X * l, Vec3::Y * w, Vec3::Z * l])
                .unwrap()
                .into(),
        }
    }
    fn pose(at: [i8; 3], turn: u8, offset: f32) -> d3::Pose {
        let p = Vec3::from_array(at.map(|k| coordinate(k, offset)));
        let axis = [Vec3::X, Vec3::Y, Vec3::Z][usize::from(turn / 16 % 3)];
        let turn = Quat::from_axis_angle(axis, f32::from(turn % 16) * std::f32::consts::TAU / 16.0);
        d3::Pose::new(p, turn).unwrap()
    }
    fn point(at: [i8; 3], offset: f32) -> Vec3 {
        Vec3::from_array(at.map(|k| coordinate(k, offset)))
    }
    fn teleported(pose: &d3::Pose, far: u8) -> Result<d3::Pose, collide::narrow::ShapeError> {
        let p = pose.position();
        d3::Pose::new(Vec3::new(far_coordinate(far), p.y, p.z), pose.rotation())
    }
}

/// One operation. Slots pick among the colliders alive (or removed) then,
/// modulo their number; `flags` carry a collider's kind, sensor flag and
/// filter, or a query's filter.
#[derive(Clone, Debug, PartialEq)]
pub enum WorldOp {
    Insert {
        kind: u8,
        size: u8,
        at: [i8; 3],
        turn: u8,
        flags: u8,
    },
    Move {
        slot: u8,
        at: [i8; 3],
        turn: u8,
    },
    Teleport {
        slot: u8,
        far: u8,
    },
    Reshape {
        slot: u8,
        kind: u8,
        size: u8,
    },
    Refilter {
        slot: u8,
        flags: u8,
    },
    Sensor {
        slot: u8,
    },
    Remove {
        slot: u8,
    },
    Stale {
        slot: u8,
    },
    Foreign,
    Switch {
        structure: u8,
    },
    Ray {
        from: [i8; 3],
        to: [i8; 3],
        flags: u8,
    },
    Cast {
        kind: u8,
        size: u8,
        at: [i8; 3],
        to: [i8; 3],
        flags: u8,
    },
    Point {
        at: [i8; 3],
        flags: u8,
    },
    Closest {
        at: [i8; 3],
        max: u8,
        flags: u8,
    },
    Step,
}

/// A filter from the flags' upper bits: one of three groups, and now and
/// then a mask without one group.
fn filter(flags: u8) -> Filter {
    let group = 1 << ((flags >> 2) % 3);
    let mask = if flags & 0x20 != 0 {
        !(1 << ((flags >> 6) % 3))
    } else {
        u32::MAX
    };
    Filter::new(group, mask)
}

/// Lattice coordinates run over -24..24 half units.
const LATTICE: i8 = 24;

/// The places a sequence's lattice may sit.
pub const OFFSETS: [f32; 4] = [0.0, 1024.0, -16384.0, 0.25];

/// Inserts beyond this many live colliders are skipped.
const MAX_COLLIDERS: usize = 300;

/// A lattice point from three bytes.
fn corner(r: &mut Reader<'_>) -> [i8; 3] {
    [0; 3].map(|_: i8| (r.byte() as i8) % LATTICE)
}

/// How a sequence runs: its structure, dimension, lattice offset,
/// whether the pair hook and sensor pairs are on; then its operations.
#[derive(Clone, Debug)]
pub struct Sequence {
    pub structure: Structure,
    pub three_d: bool,
    pub offset: f32,
    pub hook: bool,
    pub sensor_pairs: bool,
    pub ops: Vec<WorldOp>,
}

/// A sequence from arbitrary bytes: byte 0 picks the structure, byte 1
/// the dimension, offset, hook and sensor pairs; the rest are operations,
/// a tag byte and its arguments each (missing bytes read as 0).
pub fn decode(bytes: &[u8]) -> Sequence {
    let mut r = Reader { bytes, at: 0 };
    let structure = Structure::ALL[usize::from(r.byte()) % Structure::ALL.len()];
    let second = r.byte();
    let mut ops = Vec::new();
    while r.at < bytes.len() && ops.len() < 400 {
        let op = match r.byte() % 16 {
            0 | 1 => WorldOp::Insert {
                kind: r.byte(),
                size: r.byte(),
                at: corner(&mut r),
                turn: r.byte(),
                flags: r.byte(),
            },
            2 | 3 => WorldOp::Move {
                slot: r.byte(),
                at: corner(&mut r),
                turn: r.byte(),
            },
            4 => WorldOp::Teleport {
                slot: r.byte(),
                far: r.byte(),
            },
            5 => WorldOp::Reshape {
                slot: r.byte(),
                kind: r.byte(),
                size: r.byte(),
            },
            6 => WorldOp::Refilter {
                slot: r.byte(),
                flags: r.byte(),
            },
            7 => WorldOp::Sensor { slot: r.byte() },
            8 => WorldOp::Remove { slot: r.byte() },
            9 => WorldOp::Stale { slot: r.byte() },
            10 => WorldOp::Foreign,
            11 => WorldOp::Switch {
                structure: r.byte(),
            },
            12 => WorldOp::Ray {
                from: corner(&mut r),
                to: corner(&mut r),
                flags: r.byte(),
            },
            13 => WorldOp::Cast {
                kind: r.byte(),
                size: r.byte(),
                at: corner(&mut r),
                to: corner(&mut r),
                flags: r.byte(),
            },
            14 => match r.byte() {
                b if b & 1 == 0 => WorldOp::Point {
                    at: corner(&mut r),
                    flags: b,
                },
                b => WorldOp::Closest {
                    at: corner(&mut r),
                    max: r.byte(),
                    flags: b,
                },
            },
            _ => WorldOp::Step,
        };
        ops.push(op);
    }
    Sequence {
        structure,
        three_d: second & 1 != 0,
        offset: OFFSETS[usize::from(second >> 1) % OFFSETS.len()],
        hook: second & 0x10 != 0,
        sensor_pairs: second & 0x20 != 0,
        ops,
    }
}

/// Decodes `bytes` and runs the sequence (on `structure` when given, in
/// place of the one the bytes pick): the first difference from brute
/// force, if any.
pub fn check_bytes(bytes: &[u8], structure: Option<Structure>) -> Result<(), String> {
    let mut sequence = decode(bytes);
    if let Some(structure) = structure {
        sequence.structure = structure;
    }
    if sequence.three_d {
        check::<Vec3>(&sequence)
    } else {
        check::<Vec2>(&sequence)
    }
}

/// A query's filter from flags, and the brute force's reading of it.
fn seen<V: Space>(live: &[Live<V>], flags: u8) -> (QueryFilter<'static, u32>, Vec<&Live<V>>) {
    let (groups, sensors) = (filter(flags), flags & 2 != 0);
    let query = QueryFilter::new().with_filter(groups);
    let query = if sensors { query.with_sensors() } else { query };
    let seen = live
        .iter()
        .filter(|c| (sensors || !c.sensor) && groups.allows(c.filter))
        .collect();
    (query, seen)
}

/// Runs `sequence` on a world and the brute force side by side.
pub fn check<V: Lattice>(sequence: &Sequence) -> Result<(), String> {
    let settings = WorldSettings::default()
        .with_structure(sequence.structure)
        .with_sensor_pairs(sequence.sensor_pairs);
    let mut world: World<V, u32> = World::with_settings(settings);
    if sequence.hook {
        world.set_pair_hook(|c: &Candidate<'_, V, u32>| allowed(*c.value_a, *c.value_b));
    }
    let mut foreign: World<V, u32> = World::new();
    let stranger = foreign
        .insert(Collider::moving(V::shape(0, 0), V::pose([0; 3], 0, 0.0), 0))
        .map_err(|e| e.to_string())?;
    let (mut live, mut removed): (Vec<Live<V>>, Vec<Handle>) = (Vec::new(), Vec::new());
    let mut brute = Brute::default();
    let offset = sequence.offset;
    let pick = |slot: u8, n: usize| usize::from(slot) % n.max(1);
    for (k, op) in sequence.ops.iter().enumerate() {
        let at = |what: &str| format!("op {k} ({op:?}): {what}");
        match *op {
            WorldOp::Insert {
                kind,
                size,
                at: corner,
                turn,
                flags,
            } => {
                if live.len() >= MAX_COLLIDERS {
                    continue;
                }
                let (shape, pose) = (V::shape(kind, size), V::pose(corner, turn, offset));
                let (fixed, sensor, value) = (flags & 1 != 0, flags & 2 != 0, u32::from(flags));
                let x = insert(&mut world, shape, pose, fixed, filter(flags), sensor, value);
                live.push(x.map_err(|e| at(&e.to_string()))?);
            }
            WorldOp::Move {
                slot,
                at: corner,
                turn,
            } if !live.is_empty() => {
                let n = live.len();
                let x = &mut live[pick(slot, n)];
                x.pose = V::pose(corner, turn, offset);
                world
                    .set_pose(x.handle, x.pose)
                    .map_err(|e| at(&e.to_string()))?;
            }
            WorldOp::Teleport { slot, far } if !live.is_empty() => {
                let n = live.len();
                let x = &mut live[pick(slot, n)];
                let Ok(pose) = V::teleported(&x.pose, far) else {
                    continue;
                };
                match world.set_pose(x.handle, pose) {
                    Ok(()) => x.pose = pose,
                    // A box past the f32 range is refused; nothing changes.
                    Err(Error::Aabb(_)) if world.pose(x.handle).ok() == Some(x.pose) => {}
                    Err(e) => return Err(at(&format!("refused with {e}, or changed"))),
                }
            }
            WorldOp::Reshape { slot, kind, size } if !live.is_empty() => {
                let n = live.len();
                let x = &mut live[pick(slot, n)];
                let shape = V::shape(kind, size);
                match world.set_shape(x.handle, shape.clone()) {
                    Ok(()) => x.shape = shape,
                    // Far out, a larger shape's box may pass the f32 range.
                    Err(Error::Aabb(_))
                        if V::far(&x.pose) > 1e20
                            && world.shape(x.handle).ok() == Some(&x.shape.clone().into()) => {}
                    Err(e) => return Err(at(&e.to_string())),
                }
            }
            WorldOp::Refilter { slot, flags } if !live.is_empty() => {
                let n = live.len();
                let x = &mut live[pick(slot, n)];
                x.filter = filter(flags);
                world
                    .set_filter(x.handle, x.filter)
                    .map_err(|e| at(&e.to_string()))?;
            }
            WorldOp::Sensor { slot } if !live.is_empty() => {
                let n = live.len();
                let x = &mut live[pick(slot, n)];
                x.sensor = !x.sensor;
                world
                    .set_sensor(x.handle, x.sensor)
                    .map_err(|e| at(&e.to_string()))?;
            }
            WorldOp::Remove { slot } if !live.is_empty() => {
                let x = live.swap_remove(pick(slot, live.len()));
                let value = world.remove(x.handle).map_err(|e| at(&e.to_string()))?;
                if value != x.value {
                    return Err(at("the removed collider's value"));
                }
                removed.push(x.handle);
            }
            WorldOp::Stale { slot } if !removed.is_empty() => {
                let h = removed[pick(slot, removed.len())];
                let pose = V::pose([0; 3], 0, offset);
                for result in [world.set_pose(h, pose), world.remove(h).map(|_| ())] {
                    if !matches!(result, Err(Error::Handle(HandleError::Stale(_)))) {
                        return Err(at(&format!("a removed handle gave {result:?}")));
                    }
                }
            }
            WorldOp::Foreign => {
                let result = world.set_filter(stranger, Filter::NONE);
                if !matches!(result, Err(Error::Handle(HandleError::Foreign { .. }))) {
                    return Err(at(&format!("a foreign handle gave {result:?}")));
                }
            }
            WorldOp::Switch { structure } => {
                let s = Structure::ALL[usize::from(structure) % Structure::ALL.len()];
                world.set_structure(s).map_err(|e| at(&e.to_string()))?;
            }
            WorldOp::Ray { from, to, flags } => {
                let (a, b) = (V::point(from, offset), V::point(to, offset));
                let Ok(ray) = Ray::new(a, V::from_axes(|i| b.axis(i) - a.axis(i)), 1.0) else {
                    continue;
                };
                let (query, seen) = seen(&live, flags);
                let every = ray_hits(&seen, &ray);
                if world.cast_ray(&ray, &query) != first_ray_hit(&every) {
                    return Err(at("the first ray hit"));
                }
                let mut got = Vec::new();
                world.cast_ray_each(&ray, &query, |h| {
                    got.push(h);
                    std::ops::ControlFlow::Continue(())
                });
                got.sort_unstable_by_key(|h| h.handle);
                if got != every {
                    return Err(at("every ray hit"));
                }
            }
            WorldOp::Cast {
                kind,
                size,
                at: corner,
                to,
                flags,
            } => {
                let (shape, pose) = (V::shape(kind, size), V::pose(corner, 0, offset));
                let (a, b) = (V::point(corner, offset), V::point(to, offset));
                let motion = V::from_axes(|i| b.axis(i) - a.axis(i));
                let (query, seen) = seen(&live, flags);
                let got = world
                    .cast_shape(&shape, &pose, motion, &query)
                    .map_err(|e| at(&e.to_string()))?;
                if got != cast(&seen, &shape, &pose, motion) {
                    return Err(at("the shape cast"));
                }
                if world.overlap_shape_all(&shape, &pose, &query)
                    != overlapping(&seen, &shape, &pose)
                {
                    return Err(at("the shape overlap"));
                }
            }
            WorldOp::Point { at: corner, flags } => {
                let p = V::point(corner, offset);
                let (query, seen) = seen(&live, flags);
                let got = world
                    .overlap_point_all(p, &query)
                    .map_err(|e| at(&e.to_string()))?;
                if got != overlapping(&seen, &V::dot(), &V::at(p).unwrap()) {
                    return Err(at("the point overlap"));
                }
            }
            WorldOp::Closest {
                at: corner,
                max,
                flags,
            } => {
                let p = V::point(corner, offset);
                let (query, seen) = seen(&live, flags);
                let max = 0.25 * f32::from(max % 32);
                let got = world
                    .closest_point(p, max, &query)
                    .map_err(|e| at(&e.to_string()))?;
                if got != closest(&seen, p, max) {
                    return Err(at("the closest point"));
                }
            }
            WorldOp::Step => {
                let expected = brute.step(&live, &settings, sequence.hook);
                let got = Expected::of(&world.step());
                if got != expected {
                    return Err(at(&format!("the events {got:?}, brute force {expected:?}")));
                }
            }
            _ => {}
        }
    }
    Ok(())
}
