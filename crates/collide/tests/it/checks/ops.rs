//! Operation sequences against brute force.
//!
//! A sequence is a placement (where the integer lattice sits: small,
//! negative or huge coordinates) and a list of [`Op`]s: inserts, moves,
//! teleports (to the far edge of `f32`, outside any grid's bounds), removes,
//! stale, removed and foreign handles, batches, mass inserts of identical
//! boxes, steps and queries. [`check`] runs it on one of collide's
//! structures and on [`Brute`] side by side and returns the first
//! difference: a result (error kinds included), a step's events, the pairs,
//! a box, a value, the count, or a query's answer. After a refused
//! operation the sequence goes on, so a structure left inconsistent by an
//! error fails a later comparison.
//!
//! [`decode`] turns arbitrary bytes into a sequence (the fuzz targets' input
//! format); every byte string decodes to something.

use collide::geometry::Ray;
use collide::{
    Aabb, BroadPhase, Brute, Error, Handle, HandleError, Query, Snapshot, Structure, Vector,
};
use std::collections::HashMap;

/// One step of a sequence. Slots pick among the objects alive (or removed)
/// at that moment, modulo their number; corners are lattice coordinates.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// Insert a box with corner `at` and extent `size` (0 to 3 per axis).
    Insert { at: [i8; 3], size: [u8; 3] },
    /// Insert `count` identical boxes.
    MassInsert {
        count: u8,
        at: [i8; 3],
        size: [u8; 3],
    },
    /// Move a live object to a new box.
    Update {
        slot: u8,
        at: [i8; 3],
        size: [u8; 3],
    },
    /// Move a live object far away, chosen by `far`: near `f32::MAX` or
    /// `-f32::MAX`, 10^30 along one axis only, or a box spanning the whole
    /// lattice.
    Teleport { slot: u8, far: u8 },
    /// Remove a live object.
    Remove { slot: u8 },
    /// Use a removed object's handle again: update (`move_it`) or remove.
    Stale { slot: u8, move_it: bool },
    /// Give a handle of another structure: update (`move_it`) or remove.
    Foreign { move_it: bool },
    /// Move `count` live objects from `slot` on by `shift` in one
    /// `update_many`; `stale_at`, when below `count`, puts a removed
    /// object's handle at that position (the batch stops there); `short`
    /// gives one box fewer than handles (refused before anything moves).
    Batch {
        slot: u8,
        count: u8,
        shift: [i8; 3],
        stale_at: u8,
        short: bool,
    },
    /// Find the pairs and events.
    Step,
    /// Ask for the objects overlapping a box.
    QueryBox { at: [i8; 3], size: [u8; 3] },
    /// Ask for the objects containing a point.
    QueryPoint { at: [i8; 3] },
    /// Cast a ray from `from` along `direction`, for `t` up to `max_t`
    /// (255: without end).
    QueryRay {
        from: [i8; 3],
        direction: [i8; 3],
        max_t: u8,
    },
    /// Take a snapshot and ask it for the objects overlapping a box, at a
    /// point and along a ray from `at`; it is kept and checked again at
    /// each later step against the objects as they were when it was taken.
    Snapshot { at: [i8; 3], size: [u8; 3] },
}

/// Where the lattice sits: coordinate = offset + scale * k. Every choice
/// keeps lattice coordinates exact in `f32` (powers of two).
pub const PLACEMENTS: [(f32, f32); 5] = [
    (0.0, 1.0),
    (0.0, 0.125),
    (-1_048_576.0, 1.0),
    (4_194_304.0, 1.0),
    (0.0, 1_099_511_627_776.0), // 2^40: coordinates near 10^13
];

/// Inserts beyond this many live objects are skipped (brute force's steps
/// stay quick).
const MAX_OBJECTS: usize = 1_000;

/// Lattice corners run over -16..16.
const LATTICE: i8 = 16;

/// A sequence's structure, dimension and placement, then its operations,
/// from arbitrary bytes (the fuzz input format): byte 0 picks the
/// structure (modulo the names given) and byte 1 the dimension (low bit)
/// and placement; the rest are operations, each a tag byte and its
/// arguments (missing bytes read as 0).
pub fn decode(bytes: &[u8]) -> (usize, usize, usize, Vec<Op>) {
    let mut r = Reader { bytes, at: 0 };
    let structure = usize::from(r.byte());
    let second = usize::from(r.byte());
    let (dim, placement) = (2 + (second & 1), (second >> 1) % PLACEMENTS.len());
    let mut ops = Vec::new();
    while r.at < bytes.len() && ops.len() < 512 {
        let op = match r.byte() % 13 {
            0 => Op::Insert {
                at: r.corner(),
                size: r.size(),
            },
            1 => Op::MassInsert {
                count: r.byte() % 24,
                at: r.corner(),
                size: r.size(),
            },
            2 => Op::Update {
                slot: r.byte(),
                at: r.corner(),
                size: r.size(),
            },
            3 => Op::Teleport {
                slot: r.byte(),
                far: r.byte(),
            },
            4 => Op::Remove { slot: r.byte() },
            5 => Op::Stale {
                slot: r.byte(),
                move_it: r.byte() & 1 == 0,
            },
            6 => Op::Foreign {
                move_it: r.byte() & 1 == 0,
            },
            7 => {
                let (slot, count) = (r.byte(), r.byte());
                Op::Batch {
                    slot,
                    // The count byte's top three bits: short one time in 8.
                    count: count % 32,
                    short: count / 32 == 7,
                    shift: r.corner(),
                    stale_at: r.byte(),
                }
            }
            8 => Op::QueryBox {
                at: r.corner(),
                size: r.size(),
            },
            9 => Op::QueryPoint { at: r.corner() },
            10 => Op::QueryRay {
                from: r.corner(),
                direction: r.corner(),
                max_t: r.byte(),
            },
            11 => Op::Snapshot {
                at: r.corner(),
                size: r.size(),
            },
            _ => Op::Step,
        };
        ops.push(op);
    }
    (structure, dim, placement, ops)
}

/// Decodes `bytes` (see [`decode`]) and checks the sequence on the
/// structure they pick, built with the settings they pick (byte 0: the
/// structure, then default or configured), or on `structure` with
/// `settings` when given (the corpus replay runs every input on every
/// structure, both ways).
pub fn check_bytes(bytes: &[u8], structure: Option<(Structure, Settings)>) -> Result<(), String> {
    let (picked, dim, placement, sequence) = decode(bytes);
    let names = Structure::ALL;
    let (name, settings) = structure.unwrap_or_else(|| {
        let settings = if (picked / names.len()).is_multiple_of(2) {
            Settings::Default
        } else {
            Settings::Configured
        };
        (names[picked % names.len()], settings)
    });
    match dim {
        2 => check_with::<glam::Vec2>(name, settings, placement, &sequence),
        _ => check_with::<glam::Vec3>(name, settings, placement, &sequence),
    }
}

/// How the structure under test is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Settings {
    /// As [`Structure::build`] builds it.
    Default,
    /// With every setting it has away from its default (see [`build`]).
    Configured,
}

/// `structure` with `settings`, its numbers fitted to the
/// lattice's placement: bounded grids and trees whose bounds cover only
/// the middle of the lattice (objects beyond go to the overflow list),
/// cells of chosen sizes, small tree leaves, a fixed sweep axis, every
/// pair rule and re-sort choice, `auto` reviewing every step and
/// switching in two.
pub fn build<V: Vector>(
    structure: Structure,
    settings: Settings,
    placement: (f32, f32),
) -> Box<dyn BroadPhase<V, u64> + Send> {
    use collide::{
        Auto, AutoConfig, BandSap, Grid, GridConfig, GridKind, Sap, SapConfig, Spanners, Tree,
        TreeConfig, TreeKind,
    };
    if settings == Settings::Default {
        return structure.build::<V, u64>();
    }
    let (offset, scale) = placement;
    let middle = Aabb::new(
        V::from_axes(|_| offset - 6.0 * scale),
        V::from_axes(|_| offset + 6.0 * scale),
    )
    .expect("the lattice's middle is a box");
    let grid = |kind, cell: f32, bounded: bool| -> Box<dyn BroadPhase<V, u64> + Send> {
        let config = GridConfig {
            cell_size: Some(cell * scale),
            bounds: bounded.then_some(middle),
            max_cells_per_object: 4,
            demote_ratio: 0.5,
        };
        Box::new(Grid::<V, u64>::with_config(kind, config).expect("valid grid settings"))
    };
    let tree = |kind, split_above, max_depth| -> Box<dyn BroadPhase<V, u64> + Send> {
        let config = TreeConfig {
            bounds: Some(middle),
            split_above,
            merge_below: 1,
            max_depth,
        };
        Box::new(Tree::<V, u64>::with_config(kind, config).expect("valid tree settings"))
    };
    match structure {
        Structure::Grid => grid(GridKind::Dense, 1.5, true),
        Structure::HashGrid => grid(GridKind::Hashed, 1.0, false),
        Structure::HGrid => grid(GridKind::Hierarchical, 0.5, false),
        Structure::Tree => tree(TreeKind::Tight, 2, 4),
        Structure::Loose => tree(TreeKind::Loose, 3, 6),
        Structure::Sap => Box::new(
            Sap::<V, u64>::with_config(SapConfig {
                sweep_axis: Some(1),
                remeasure_every: 1,
                spanners: Spanners::Extent(4.0 * scale),
            })
            .expect("valid sap settings"),
        ),
        Structure::Sap1 => Box::new(
            BandSap::<V, u64>::with_config(SapConfig {
                sweep_axis: Some(V::DIM - 1),
                remeasure_every: 3,
                spanners: Spanners::Off,
            })
            .expect("valid sap settings"),
        ),
        Structure::Auto => Box::new(
            Auto::<V, u64>::with_config(AutoConfig {
                review_every: 1,
                confirm: 1,
                switch_frames: 2,
            })
            .expect("valid auto settings"),
        ),
        // Brute force and the BVH have no settings.
        Structure::Brute | Structure::Bvh => structure.build::<V, u64>(),
    }
}

/// Reads bytes, 0 past the end.
pub struct Reader<'a> {
    pub bytes: &'a [u8],
    pub at: usize,
}

impl Reader<'_> {
    pub fn byte(&mut self) -> u8 {
        let b = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }
    fn corner(&mut self) -> [i8; 3] {
        [0; 3].map(|_: i8| (self.byte() as i8) % LATTICE)
    }
    fn size(&mut self) -> [u8; 3] {
        [0; 3].map(|_: u8| self.byte() % 4)
    }
}

/// A lattice box in the placement.
fn lattice_box<V: Vector>(placement: (f32, f32), at: [i8; 3], size: [u8; 3]) -> Aabb<V> {
    let (offset, scale) = placement;
    let min = V::from_axes(|i| offset + scale * f32::from(at[i]));
    let max = V::from_axes(|i| offset + scale * (f32::from(at[i]) + f32::from(size[i])));
    Aabb::new(min, max).expect("lattice boxes are valid")
}

/// The far-away boxes of [`Op::Teleport`].
fn far_box<V: Vector>(placement: (f32, f32), far: u8) -> Aabb<V> {
    let (offset, scale) = placement;
    match far % 4 {
        0 => Aabb::new(V::from_axes(|_| 3.0e38), V::from_axes(|_| f32::MAX)),
        1 => Aabb::new(V::from_axes(|_| -f32::MAX), V::from_axes(|_| -3.0e38)),
        // A box spanning the whole lattice and more.
        2 => Aabb::new(
            V::from_axes(|_| offset - scale * 64.0),
            V::from_axes(|_| offset + scale * 64.0),
        ),
        // Far on one axis only.
        _ => Aabb::new(
            V::from_axes(|i| if i == 0 { 1.0e30 } else { offset }),
            V::from_axes(|i| if i == 0 { 1.0e30 } else { offset + scale }),
        ),
    }
    .expect("far boxes are valid")
}

/// One object as both structures know it.
#[derive(Clone, Copy)]
struct Object {
    id: u64,
    ours: Handle,
    brute: Handle,
}

/// Runs `ops` on the structure `name`
/// and on brute force side by side in dimension `V`, the lattice at
/// `PLACEMENTS[placement]`; returns the first difference, naming the
/// operation's index.
pub fn check<V: Vector>(name: Structure, placement: usize, ops: &[Op]) -> Result<(), String> {
    check_with::<V>(name, Settings::Default, placement, ops)
}

/// [`check`] on the structure built with `settings` (see [`build`]).
pub fn check_with<V: Vector>(
    name: Structure,
    settings: Settings,
    placement: usize,
    ops: &[Op],
) -> Result<(), String> {
    let placement = PLACEMENTS[placement % PLACEMENTS.len()];
    let mut ours = build::<V>(name, settings, placement);
    let name = format!("{name} ({settings:?} settings)");
    let mut run = Run::<V> {
        placement,
        kept: None,
        brute: Brute::new(),
        live: Vec::new(),
        removed: Vec::new(),
        ids_ours: HashMap::new(),
        ids_brute: HashMap::new(),
        next_id: 0,
        foreign: {
            let mut other = Brute::<V, u64>::new();
            let unit = Aabb::new(V::from_axes(|_| 0.0), V::from_axes(|_| 1.0)).unwrap();
            other.insert(unit, 0).unwrap()
        },
    };
    for (index, op) in ops.iter().enumerate() {
        run.apply(ours.as_mut(), op)
            .and_then(|()| run.compare_state(ours.as_ref()))
            .map_err(|e| format!("{name} {}D, op {index} ({op:?}): {e}", V::DIM))?;
    }
    // A last step, so pending changes are compared as events too.
    run.apply(ours.as_mut(), &Op::Step)
        .map_err(|e| format!("{name} {}D, the final step: {e}", V::DIM))
}

/// The state of one sequence.
struct Run<V: Vector> {
    placement: (f32, f32),
    brute: Brute<V, u64>,
    live: Vec<Object>,
    removed: Vec<Object>,
    /// Every handle either structure ever issued, to its id (events name
    /// removed objects too).
    ids_ours: HashMap<Handle, u64>,
    ids_brute: HashMap<Handle, u64>,
    next_id: u64,
    /// A handle of a third structure.
    foreign: Handle,
    /// The last snapshot taken and the objects (id, handle, box) it must
    /// show.
    kept: Option<Kept<V>>,
}

/// A snapshot and the objects (id, handle, box) it must show.
type Kept<V> = (Snapshot<V>, Vec<(u64, Handle, Aabb<V>)>);

/// What kind of result an operation had: the two structures must agree on
/// it (their handles differ, so the errors' contents do).
fn kind<T>(result: &Result<T, Error>) -> &'static str {
    match result {
        Ok(_) => "ok",
        Err(Error::Handle(HandleError::Stale(_))) => "stale handle",
        Err(Error::Handle(HandleError::Foreign { .. })) => "foreign handle",
        Err(Error::Handle(HandleError::Full)) => "full",
        Err(Error::Aabb(_)) => "bad box",
        Err(Error::BatchLengths { .. }) => "batch lengths",
        Err(Error::Setting { .. }) => "setting",
        Err(Error::NestedAuto) => "nested auto",
        // Shapes, rays and frustums: no structure operation gives these.
        Err(_) => "another error",
    }
}

fn agree<T, U>(
    what: &str,
    ours: &Result<T, Error>,
    brute: &Result<U, Error>,
) -> Result<(), String> {
    if kind(ours) == kind(brute) {
        Ok(())
    } else {
        Err(format!(
            "{what}: ours {}, brute force {}",
            kind(ours),
            kind(brute)
        ))
    }
}

impl<V: Vector> Run<V> {
    fn apply(&mut self, ours: &mut dyn BroadPhase<V, u64>, op: &Op) -> Result<(), String> {
        let pick = |list: &[Object], slot: u8| -> Option<Object> {
            (!list.is_empty()).then(|| list[usize::from(slot) % list.len()])
        };
        match *op {
            Op::Insert { at, size } => self.insert(ours, lattice_box(self.placement, at, size)),
            Op::MassInsert { count, at, size } => {
                let aabb = lattice_box(self.placement, at, size);
                (0..count).try_for_each(|_| self.insert(ours, aabb))
            }
            Op::Update { slot, at, size } => match pick(&self.live, slot) {
                Some(o) => self.update(ours, o, lattice_box(self.placement, at, size)),
                None => Ok(()),
            },
            Op::Teleport { slot, far } => match pick(&self.live, slot) {
                Some(o) => self.update(ours, o, far_box(self.placement, far)),
                None => Ok(()),
            },
            Op::Remove { slot } => match pick(&self.live, slot) {
                Some(o) => {
                    let (a, b) = (ours.remove(o.ours), self.brute.remove(o.brute));
                    agree("remove", &a, &b)?;
                    if a != Ok(o.id) || b != Ok(o.id) {
                        return Err(format!("remove gave {a:?} and {b:?}, not id {}", o.id));
                    }
                    self.live.retain(|x| x.id != o.id);
                    self.removed.push(o);
                    Ok(())
                }
                None => Ok(()),
            },
            Op::Stale { slot, move_it } => match pick(&self.removed, slot) {
                Some(o) => self.refused(ours, o.ours, o.brute, move_it, "stale handle"),
                None => Ok(()),
            },
            Op::Foreign { move_it } => {
                self.refused(ours, self.foreign, self.foreign, move_it, "foreign handle")
            }
            Op::Batch {
                slot,
                count,
                shift,
                stale_at,
                short,
            } => self.batch(ours, slot, count, shift, stale_at, short),
            Op::Step => self.step(ours),
            Op::QueryBox { at, size } => {
                let probe = lattice_box(self.placement, at, size);
                let got = self.sorted_ids(ours, &ours.query_aabb_all(&probe));
                let want = self.sorted_ids(&self.brute, &self.brute.query_aabb_all(&probe));
                same("box query", &got, &want)
            }
            Op::QueryPoint { at } => {
                let point = lattice_box::<V>(self.placement, at, [0; 3]).min();
                let (got, want) = (
                    ours.query_point_all(point),
                    self.brute.query_point_all(point),
                );
                agree("point query", &got, &want)?;
                if let (Ok(got), Ok(want)) = (got, want) {
                    same(
                        "point query",
                        &self.sorted_ids(ours, &got),
                        &self.sorted_ids(&self.brute, &want),
                    )?;
                }
                Ok(())
            }
            Op::Snapshot { at, size } => self.snapshot(ours, at, size),
            Op::QueryRay {
                from,
                direction,
                max_t,
            } => {
                let origin = lattice_box::<V>(self.placement, from, [0; 3]).min();
                let direction = V::from_axes(|i| f32::from(direction[i]) * self.placement.1);
                let max_t = if max_t == 255 {
                    f32::INFINITY
                } else {
                    f32::from(max_t) / 16.0
                };
                let ray = Ray::new(origin, direction, max_t).expect("lattice rays are valid");
                let hits = |s: &dyn BroadPhase<V, u64>, ids: &HashMap<Handle, u64>| {
                    let mut v: Vec<(u64, u32)> = s
                        .query_ray_all(&ray)
                        .iter()
                        .map(|h| (id_of(ids, h.handle), h.t.to_bits()))
                        .collect();
                    v.sort_unstable();
                    v
                };
                same(
                    "ray query (ids and t)",
                    &hits(ours, &self.ids_ours),
                    &hits(&self.brute, &self.ids_brute),
                )
            }
        }
    }

    /// Takes a snapshot, asks it what brute force is asked now, and keeps
    /// it with the objects it must show.
    fn snapshot(
        &mut self,
        ours: &dyn BroadPhase<V, u64>,
        at: [i8; 3],
        size: [u8; 3],
    ) -> Result<(), String> {
        let snapshot = ours.snapshot();
        let objects: Vec<(u64, Handle, Aabb<V>)> = self
            .live
            .iter()
            .map(|o| (o.id, o.ours, self.brute.aabb(o.brute).expect("live")))
            .collect();
        let probe = lattice_box(self.placement, at, size);
        let ids = |handles: Vec<Handle>| {
            let mut v: Vec<u64> = handles.iter().map(|h| id_of(&self.ids_ours, *h)).collect();
            v.sort_unstable();
            v
        };
        same(
            "snapshot box query",
            &ids(snapshot.query_aabb_all(&probe)),
            &self.sorted_ids(&self.brute, &self.brute.query_aabb_all(&probe)),
        )?;
        let point = probe.max();
        match (
            snapshot.query_point_all(point),
            self.brute.query_point_all(point),
        ) {
            (Ok(got), Ok(want)) => same(
                "snapshot point query",
                &ids(got),
                &self.sorted_ids(&self.brute, &want),
            )?,
            (got, want) => agree("snapshot point query", &got, &want)?,
        }
        let direction = V::from_axes(|i| f32::from(size[i]) - 1.5);
        let ray = Ray::new(probe.min(), direction, f32::INFINITY).expect("lattice rays are valid");
        let hits = |all: Vec<collide::RayHit>, ids: &HashMap<Handle, u64>| {
            let mut v: Vec<(u64, u32)> = all
                .iter()
                .map(|h| (id_of(ids, h.handle), h.t.to_bits()))
                .collect();
            v.sort_unstable();
            v
        };
        same(
            "snapshot ray query (ids and t)",
            &hits(snapshot.query_ray_all(&ray), &self.ids_ours),
            &hits(self.brute.query_ray_all(&ray), &self.ids_brute),
        )?;
        self.kept = Some((snapshot, objects));
        Ok(())
    }

    /// The kept snapshot still shows the objects as they were when it was
    /// taken, whatever happened since.
    fn check_kept(&self) -> Result<(), String> {
        let Some((snapshot, objects)) = &self.kept else {
            return Ok(());
        };
        if snapshot.len() != objects.len() {
            return Err(format!(
                "a kept snapshot holds {} objects, not {}",
                snapshot.len(),
                objects.len()
            ));
        }
        let everything = Aabb::new(V::from_axes(|_| -f32::MAX), V::from_axes(|_| f32::MAX))
            .expect("the f32 range is a box");
        let mut got: Vec<u64> = snapshot
            .query_aabb_all(&everything)
            .iter()
            .map(|h| id_of(&self.ids_ours, *h))
            .collect();
        got.sort_unstable();
        let mut want: Vec<u64> = objects.iter().map(|(id, _, _)| *id).collect();
        want.sort_unstable();
        same("a kept snapshot's objects", &got, &want)?;
        for (id, handle, aabb) in objects {
            if snapshot.aabb(*handle) != Some(*aabb) {
                return Err(format!(
                    "a kept snapshot gives object {id} the box {:?}, not {aabb:?}",
                    snapshot.aabb(*handle)
                ));
            }
        }
        Ok(())
    }

    fn insert(&mut self, ours: &mut dyn BroadPhase<V, u64>, aabb: Aabb<V>) -> Result<(), String> {
        if self.live.len() >= MAX_OBJECTS {
            return Ok(());
        }
        let id = self.next_id;
        self.next_id += 1;
        let (a, b) = (ours.insert(aabb, id), self.brute.insert(aabb, id));
        agree("insert", &a, &b)?;
        if let (Ok(a), Ok(b)) = (a, b) {
            self.ids_ours.insert(a, id);
            self.ids_brute.insert(b, id);
            self.live.push(Object {
                id,
                ours: a,
                brute: b,
            });
        }
        Ok(())
    }

    fn update(
        &mut self,
        ours: &mut dyn BroadPhase<V, u64>,
        o: Object,
        aabb: Aabb<V>,
    ) -> Result<(), String> {
        let (a, b) = (ours.update(o.ours, aabb), self.brute.update(o.brute, aabb));
        agree("update", &a, &b)?;
        a.map_err(|e| format!("update of a live object refused: {e}"))
    }

    /// A handle both must refuse with the error `expected`, changing nothing.
    fn refused(
        &mut self,
        ours: &mut dyn BroadPhase<V, u64>,
        handle_ours: Handle,
        handle_brute: Handle,
        move_it: bool,
        expected: &str,
    ) -> Result<(), String> {
        let aabb = lattice_box(self.placement, [0; 3], [1; 3]);
        let (a, b) = if move_it {
            (
                ours.update(handle_ours, aabb),
                self.brute.update(handle_brute, aabb),
            )
        } else {
            (
                ours.remove(handle_ours).map(|_| ()),
                self.brute.remove(handle_brute).map(|_| ()),
            )
        };
        agree("a refused handle", &a, &b)?;
        if kind(&a) != expected {
            return Err(format!("expected a {expected} error, got {}", kind(&a)));
        }
        Ok(())
    }

    fn batch(
        &mut self,
        ours: &mut dyn BroadPhase<V, u64>,
        slot: u8,
        count: u8,
        shift: [i8; 3],
        stale_at: u8,
        short: bool,
    ) -> Result<(), String> {
        if self.live.is_empty() {
            return Ok(());
        }
        let (mut handles_ours, mut handles_brute, mut boxes) = (Vec::new(), Vec::new(), Vec::new());
        for k in 0..usize::from(count) {
            let o = self.live[(usize::from(slot) + k) % self.live.len()];
            let (h_ours, h_brute) = match self.removed.first() {
                Some(dead) if k == usize::from(stale_at) => (dead.ours, dead.brute),
                _ => (o.ours, o.brute),
            };
            let current = self.brute.aabb(o.brute).expect("live in brute force");
            let moved = |corner: V| {
                V::from_axes(|i| corner.axis(i) + f32::from(shift[i] % 4) * self.placement.1)
            };
            boxes.push(Aabb::new(moved(current.min()), moved(current.max())).unwrap_or(current));
            handles_ours.push(h_ours);
            handles_brute.push(h_brute);
        }
        let short = short && boxes.pop().is_some();
        let (a, b) = (
            ours.update_many(&handles_ours, &boxes),
            self.brute.update_many(&handles_brute, &boxes),
        );
        agree("update_many", &a, &b)?;
        // Nothing moved is checked by the comparison of every box after
        // each operation.
        if short && kind(&a) != "batch lengths" {
            return Err(format!("a short batch gave {}", kind(&a)));
        }
        Ok(())
    }

    fn step(&mut self, ours: &mut dyn BroadPhase<V, u64>) -> Result<(), String> {
        let events = |e: &collide::FrameEvents, ids: &HashMap<Handle, u64>| {
            let mut v: Vec<(u64, u64, bool)> = e
                .started
                .iter()
                .map(|p| (p, true))
                .chain(e.stopped.iter().map(|p| (p, false)))
                .map(|(p, started)| {
                    let (x, y) = (id_of(ids, p.a()), id_of(ids, p.b()));
                    (x.min(y), x.max(y), started)
                })
                .collect();
            v.sort_unstable();
            v
        };
        let got = events(&ours.step(), &self.ids_ours);
        let want = events(&self.brute.step(), &self.ids_brute);
        same("step's events", &got, &want)?;
        self.check_kept()?;
        let pairs = |s: &dyn BroadPhase<V, u64>, ids: &HashMap<Handle, u64>| {
            let mut v: Vec<(u64, u64)> = s
                .pairs()
                .iter()
                .map(|p| {
                    let (x, y) = (id_of(ids, p.a()), id_of(ids, p.b()));
                    (x.min(y), x.max(y))
                })
                .collect();
            v.sort_unstable();
            v
        };
        same(
            "pairs",
            &pairs(ours, &self.ids_ours),
            &pairs(&self.brute, &self.ids_brute),
        )
    }

    /// Counts, boxes and values of every object, live and removed.
    fn compare_state(&self, ours: &dyn BroadPhase<V, u64>) -> Result<(), String> {
        if ours.len() != self.brute.len() {
            return Err(format!("len {} against {}", ours.len(), self.brute.len()));
        }
        for o in &self.live {
            let (a, b) = (ours.aabb(o.ours), self.brute.aabb(o.brute));
            if a != b || ours.value(o.ours) != Some(&o.id) {
                return Err(format!("object {}: box {a:?} against {b:?}", o.id));
            }
        }
        for o in &self.removed {
            if ours.aabb(o.ours).is_some() || ours.value(o.ours).is_some() {
                return Err(format!("removed object {} still answers", o.id));
            }
        }
        Ok(())
    }

    fn sorted_ids(&self, s: &dyn BroadPhase<V, u64>, handles: &[Handle]) -> Vec<u64> {
        // A handle that is not live reads as u64::MAX, so the comparison
        // shows it.
        let mut v: Vec<u64> = handles
            .iter()
            .map(|h| s.value(*h).copied().unwrap_or(u64::MAX))
            .collect();
        v.sort_unstable();
        v
    }
}

/// The id of a handle either structure issued; u64::MAX for one it never
/// did (an invented handle), so the comparison shows it.
fn id_of(ids: &HashMap<Handle, u64>, handle: Handle) -> u64 {
    ids.get(&handle).copied().unwrap_or(u64::MAX)
}

fn same<T: PartialEq + std::fmt::Debug>(what: &str, got: &[T], want: &[T]) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{what}: ours {got:?}, brute force {want:?}"))
    }
}
