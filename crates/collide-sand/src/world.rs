//! [`SandWorld`]: the grid of cells, its chunks and the tick.

use crate::chunk::{Layout, Rect, SharedRect};
use crate::error::SandError;
use crate::material::{MaterialId, Materials, Motion};
use crate::update::ChunkUpdate;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, AtomicU32, Ordering::Relaxed};

/// A world's size, chunking and seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SandSettings {
    width: u32,
    height: u32,
    chunk: u32,
    seed: u64,
}

impl SandSettings {
    /// `width` by `height` cells in chunks of 64 by 64, seed 0.
    ///
    /// ```
    /// use collide_sand::SandSettings;
    /// let settings = SandSettings::new(512, 256)?.with_chunk(32)?.with_seed(7);
    /// assert_eq!((settings.width(), settings.height(), settings.chunk()), (512, 256, 32));
    /// assert!(SandSettings::new(0, 10).is_err());
    /// assert!(SandSettings::new(64, 64)?.with_chunk(33).is_err());
    /// # Ok::<(), collide_sand::SandError>(())
    /// ```
    pub fn new(width: u32, height: u32) -> Result<Self, SandError> {
        if width == 0 || height == 0 {
            return Err(SandError::EmptyWorld { width, height });
        }
        if u64::from(width) * u64::from(height) > 1 << 31 || width > 1 << 30 || height > 1 << 30 {
            return Err(SandError::TooLarge { width, height });
        }
        Ok(Self {
            width,
            height,
            chunk: 64,
            seed: 0,
        })
    }

    /// Chunks `side` cells square: even, 4 to 1,024 (default 64).
    pub fn with_chunk(mut self, side: u32) -> Result<Self, SandError> {
        if !side.is_multiple_of(2) || !(4..=1024).contains(&side) {
            return Err(SandError::ChunkSide(side));
        }
        self.chunk = side;
        Ok(self)
    }

    /// The seed every tick's randomness derives from (default 0).
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Cells per row.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Chunk side, in cells.
    pub fn chunk(&self) -> u32 {
        self.chunk
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }
}

/// The cells and their bookkeeping, shared by the chunks a phase runs at
/// once. Every access is a relaxed atomic: the four phases keep the cells
/// two threads touch apart, so the atomics only make that sharing safe
/// Rust and cost what plain loads and stores do.
#[derive(Debug)]
pub(crate) struct Cells {
    pub(crate) layout: Layout,
    pub(crate) ids: Vec<AtomicU8>,
    /// Per cell: the tick it last moved or changed in (a cell moves at most
    /// once a tick).
    pub(crate) stamps: Vec<AtomicU32>,
    /// Per cell: the way it last flowed sideways (`HEADING_RIGHT`,
    /// `HEADING_LEFT`, or 0 for none yet), which it keeps while it can: a
    /// liquid's surface then runs across a basin instead of wandering.
    pub(crate) headings: Vec<AtomicU8>,
    /// Per chunk: the cells to scan next tick.
    pub(crate) next: Vec<SharedRect>,
    /// Per chunk: bumped whenever a static cell in it changes (for the
    /// solid boxes, [`crate::Solids`]).
    pub(crate) revisions: Vec<AtomicU32>,
}

impl Cells {
    #[inline]
    pub(crate) fn index(&self, x: i32, y: i32) -> usize {
        (y * self.layout.width + x) as usize
    }

    #[inline]
    pub(crate) fn inside(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.layout.width && y < self.layout.height
    }

    /// Notes that static cells in `r` changed: every chunk it falls in has
    /// a new revision.
    pub(crate) fn touch_static(&self, r: &Rect) {
        if r.is_empty() {
            return;
        }
        let side = self.layout.side;
        for cy in r.y0 / side..=r.y1 / side {
            for cx in r.x0 / side..=r.x1 / side {
                self.revisions[self.layout.chunk_at(cx, cy)].fetch_add(1, Relaxed);
            }
        }
    }

    /// Marks the cells within one of `r` to be scanned next tick, in every
    /// chunk they fall in.
    pub(crate) fn wake(&self, r: &Rect) {
        let world = Rect {
            x0: 0,
            y0: 0,
            x1: self.layout.width - 1,
            y1: self.layout.height - 1,
        };
        let grown = Rect {
            x0: r.x0 - 1,
            y0: r.y0 - 1,
            x1: r.x1 + 1,
            y1: r.y1 + 1,
        }
        .intersect(&world);
        if grown.is_empty() {
            return;
        }
        let side = self.layout.side;
        for cy in grown.y0 / side..=grown.y1 / side {
            for cx in grown.x0 / side..=grown.x1 / side {
                let c = self.layout.chunk_at(cx, cy);
                let part = grown.intersect(&self.layout.cells_of(c));
                self.next[c].grow(&part);
            }
        }
    }
}

/// A falling-sand world: a grid of cells, each holding one material of a
/// caller-defined [`Materials`] table, updated a tick at a time.
///
/// Pick it for sand, water, smoke and fire that flow cell by cell (the
/// falling-sand genre). Each tick scans only the cells within one of a
/// change in the tick before, chunk by chunk, so a settled world costs a
/// pass over its chunk list; chunks run on rayon's pool in four phases by
/// the parity of their column and row, and the result is the same on any
/// number of threads. Memory: 6 bytes a cell.
///
/// Rules, with `y` up: powder falls, else slides diagonally down; liquid
/// falls, slides diagonally, else flows sideways up to its dispersion
/// ([`Material::with_dispersion`](crate::Material::with_dispersion)),
/// stopping where it can fall, and keeps flowing the way it last flowed
/// while it can (so a basin levels across in hundreds of ticks); gas does
/// the same upside down; a material moves into a cell of lighter material
/// (heavier, for gas rising), never into a static one, and at most once a
/// tick. A chunk scans its rows from the bottom, in a direction that
/// alternates every tick, and each cell tries its two diagonal moves in a
/// random order. Chunk rows run in phase order (even rows, then odd), so
/// at every other border between chunk rows the upper one runs first: a
/// grain falling there meets the grain below before it moved, and may
/// slide diagonally where, inside a chunk, it would have fallen straight.
///
/// ```
/// use collide_sand::{Material, MaterialId, Materials, Motion, SandSettings, SandWorld};
/// let mut table = Materials::new();
/// let sand = table.add(Material::new("sand", 16.0, Motion::Powder)?)?;
/// let mut world = SandWorld::new(SandSettings::new(64, 64)?, table)?;
/// world.set(10, 20, sand)?;
/// world.tick();
/// assert_eq!(world.get(10, 19)?, sand); // one cell a tick
/// assert_eq!(world.get(10, 20)?, MaterialId::EMPTY);
/// # Ok::<(), collide_sand::SandError>(())
/// ```
#[derive(Debug)]
pub struct SandWorld {
    settings: SandSettings,
    materials: Materials,
    cells: Cells,
    /// Per chunk: the cells this tick scans.
    current: Vec<Rect>,
    /// Per phase: the chunks with cells to scan this tick.
    active: [Vec<u32>; 4],
    tick: u32,
    scanned: u64,
    /// Unique among the worlds of this process (for [`crate::Solids`]).
    id: u64,
}

/// The next world's id.
static NEXT_WORLD: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

impl SandWorld {
    /// An empty world. An error when a material flows farther in a tick
    /// than half the chunk side (the chunks updated at once, a chunk
    /// apart, would reach the same cells).
    pub fn new(settings: SandSettings, materials: Materials) -> Result<Self, SandError> {
        let reach = materials.farthest_flow();
        if 2 * reach > settings.chunk {
            let name = materials
                .iter()
                .map(|(_, m)| m)
                .filter(|m| matches!(m.motion(), Motion::Liquid | Motion::Gas))
                .max_by_key(|m| m.dispersion())
                .map_or_else(String::new, |m| m.name().to_string());
            return Err(SandError::FlowPastChunk {
                name,
                cells: reach,
                side: settings.chunk,
                need: 2 * reach,
            });
        }
        let layout = Layout::new(settings.width, settings.height, settings.chunk);
        let count = (settings.width as usize) * (settings.height as usize);
        let chunks = layout.chunks();
        Ok(Self {
            settings,
            materials,
            cells: Cells {
                layout,
                ids: (0..count).map(|_| AtomicU8::new(0)).collect(),
                stamps: (0..count).map(|_| AtomicU32::new(0)).collect(),
                headings: (0..count).map(|_| AtomicU8::new(0)).collect(),
                next: (0..chunks).map(|_| SharedRect::empty()).collect(),
                revisions: (0..chunks).map(|_| AtomicU32::new(0)).collect(),
            },
            current: vec![Rect::EMPTY; chunks],
            active: Default::default(),
            tick: 0,
            scanned: 0,
            id: NEXT_WORLD.fetch_add(1, Relaxed),
        })
    }

    /// This world's id, unique in the process.
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// The settings.
    pub fn settings(&self) -> &SandSettings {
        &self.settings
    }

    /// The material table.
    pub fn materials(&self) -> &Materials {
        &self.materials
    }

    /// Ticks run so far.
    pub fn ticks(&self) -> u32 {
        self.tick
    }

    fn checked(&self, x: i64, y: i64) -> Result<usize, SandError> {
        let (w, h) = (self.settings.width, self.settings.height);
        if x < 0 || y < 0 || x >= i64::from(w) || y >= i64::from(h) {
            return Err(SandError::OutOfBounds {
                x,
                y,
                width: w,
                height: h,
            });
        }
        Ok(self.cells.index(x as i32, y as i32))
    }

    /// The material at `(x, y)`.
    pub fn get(&self, x: i64, y: i64) -> Result<MaterialId, SandError> {
        let i = self.checked(x, y)?;
        Ok(self.materials.id(self.cells.ids[i].load(Relaxed)))
    }

    /// Puts `material` at `(x, y)` and wakes the cells around it.
    pub fn set(&mut self, x: i64, y: i64, material: MaterialId) -> Result<(), SandError> {
        self.place_asleep(x, y, material)?;
        let r = Rect {
            x0: x as i32,
            y0: y as i32,
            x1: x as i32,
            y1: y as i32,
        };
        self.cells.wake(&r);
        Ok(())
    }

    /// Puts `material` at `(x, y)` without waking anything, as world
    /// generation does: the cell stays put, even over empty space, until a
    /// change next to it wakes it.
    pub fn place_asleep(&mut self, x: i64, y: i64, material: MaterialId) -> Result<(), SandError> {
        self.materials.get(material)?;
        let i = self.checked(x, y)?;
        let old = self.cells.ids[i].swap(material.index(), Relaxed);
        self.cells.headings[i].store(0, Relaxed);
        let is_static = |id: u8| self.materials.facts(id).motion == Motion::Static;
        if is_static(old) || is_static(material.index()) {
            let (x, y) = (x as i32, y as i32);
            self.cells.touch_static(&Rect {
                x0: x,
                y0: y,
                x1: x,
                y1: y,
            });
        }
        Ok(())
    }

    /// Wakes every cell: the next tick scans the whole world.
    pub fn wake_all(&mut self) {
        let all = Rect {
            x0: 0,
            y0: 0,
            x1: self.cells.layout.width - 1,
            y1: self.cells.layout.height - 1,
        };
        self.cells.wake(&all);
    }

    /// Runs one tick: each chunk with cells to scan updates them, in four
    /// phases by the parity of the chunk's column and row; the chunks of a
    /// phase run at once on rayon's current pool, and no two of them touch
    /// the same cell (they are a chunk apart, and a cell moves at most half
    /// a chunk a tick: one cell down or up, its dispersion sideways).
    pub fn tick(&mut self) {
        self.tick += 1;
        let layout = self.cells.layout;
        for list in &mut self.active {
            list.clear();
        }
        let mut scanned = 0;
        for (c, rect) in self.current.iter_mut().enumerate() {
            *rect = self.cells.next[c].take();
            if !rect.is_empty() {
                scanned += rect.area();
                self.active[layout.phase_of(c)].push(c as u32);
            }
        }
        self.scanned = scanned;
        let (cells, materials, current) = (&self.cells, &self.materials, &self.current);
        let (seed, tick) = (self.settings.seed, self.tick);
        let run = |&c: &u32| {
            ChunkUpdate::new(cells, materials, seed, tick, c as usize).run(current[c as usize]);
        };
        for list in &self.active {
            if list.len() > 1 && rayon::current_num_threads() > 1 {
                list.par_iter().for_each(run);
            } else {
                list.iter().for_each(run);
            }
        }
    }

    /// Cells the last tick scanned.
    pub fn scanned(&self) -> u64 {
        self.scanned
    }

    /// Per chunk, the cells the last tick scanned (its dirty rectangle),
    /// in chunk order, row by row from the bottom.
    pub fn dirty_rects(&self) -> impl Iterator<Item = Rect> + '_ {
        self.current.iter().copied()
    }

    /// Chunks per row, and rows of chunks.
    pub fn chunk_grid(&self) -> (u32, u32) {
        (
            self.cells.layout.across as u32,
            self.cells.layout.down as u32,
        )
    }

    /// How many cells hold each material, by id.
    pub fn counts(&self) -> Vec<u64> {
        let mut counts = vec![0u64; self.materials.len()];
        for id in &self.cells.ids {
            counts[usize::from(id.load(Relaxed))] += 1;
        }
        counts
    }

    /// Chunks in the world.
    pub(crate) fn chunk_count(&self) -> usize {
        self.cells.layout.chunks()
    }

    /// The cells of chunk `c`.
    pub(crate) fn chunk_rect(&self, c: usize) -> Rect {
        self.cells.layout.cells_of(c)
    }

    /// How many times static cells in chunk `c` changed.
    pub(crate) fn revision(&self, c: usize) -> u32 {
        self.cells.revisions[c].load(Relaxed)
    }

    /// The material at `(x, y)`, inside the world.
    pub(crate) fn cell_id(&self, x: i32, y: i32) -> MaterialId {
        self.materials
            .id(self.cells.ids[self.cells.index(x, y)].load(Relaxed))
    }

    /// A hash of every cell (FNV-1a), for comparing runs.
    pub fn state_hash(&self) -> u64 {
        self.cells.ids.iter().fold(0xcbf2_9ce4_8422_2325, |h, id| {
            (h ^ u64::from(id.load(Relaxed))).wrapping_mul(0x0100_0000_01b3)
        })
    }

    /// The cells row by row from the bottom, as material bytes.
    pub fn rows(&self) -> impl Iterator<Item = Vec<u8>> + '_ {
        let w = self.settings.width as usize;
        self.cells
            .ids
            .chunks(w)
            .map(|row| row.iter().map(|c| c.load(Relaxed)).collect())
    }
}

#[cfg(test)]
mod schedule_tests {
    //! Why four phases: chunks updated at once must not touch the same
    //! cell. A chunk's update reads and writes its own cells and those one
    //! cell above and below them, and as far as the farthest flow (at most
    //! half a chunk, which `SandWorld::new` checks) to either side.
    use super::*;

    /// The cells chunk `c`'s update may read or write, its cells flowing
    /// `reach` cells sideways.
    fn zone(layout: &Layout, c: usize, reach: i32) -> Rect {
        let r = layout.cells_of(c);
        Rect {
            x0: r.x0 - reach,
            y0: r.y0 - 1,
            x1: r.x1 + reach,
            y1: r.y1 + 1,
        }
    }

    /// The groups of chunks a schedule runs at once.
    fn groups(layout: &Layout, colours: usize) -> Vec<Vec<usize>> {
        let mut groups = vec![Vec::new(); colours];
        for c in 0..layout.chunks() {
            let (cx, cy) = (c as i32 % layout.across, c as i32 / layout.across);
            let group = if colours == 4 {
                layout.phase_of(c)
            } else {
                ((cx + cy) & 1) as usize
            };
            groups[group].push(c);
        }
        groups
    }

    fn overlapping(layout: &Layout, group: &[usize], reach: i32) -> bool {
        group.iter().enumerate().any(|(k, &a)| {
            group[k + 1..].iter().any(|&b| {
                !zone(layout, a, reach)
                    .intersect(&zone(layout, b, reach))
                    .is_empty()
            })
        })
    }

    #[test]
    fn four_phases_keep_the_chunks_run_at_once_apart_and_two_colours_do_not() {
        for (w, h, side) in [(256, 256, 64), (100, 60, 8), (12, 12, 4)] {
            let layout = Layout::new(w, h, side);
            // Flowing one cell, or as far as half a chunk: apart.
            for reach in [1, side as i32 / 2] {
                assert!(
                    groups(&layout, 4)
                        .iter()
                        .all(|g| !overlapping(&layout, g, reach))
                );
            }
            // A cell more, and they would meet.
            let past = side as i32 / 2 + 1;
            assert!(
                groups(&layout, 4)
                    .iter()
                    .any(|g| overlapping(&layout, g, past))
            );
            // Diagonal neighbours share a colour and meet at a corner.
            assert!(
                groups(&layout, 2)
                    .iter()
                    .any(|g| overlapping(&layout, g, 1))
            );
        }
    }

    /// Runs the chunks of each group of `schedule` as if at once: each
    /// from the same snapshot of the cells, their changes then written
    /// back one after another (as two threads racing would).
    fn tick_at_once(world: &mut SandWorld, colours: usize) {
        world.tick += 1;
        let layout = world.cells.layout;
        let rects: Vec<Rect> = world.cells.next.iter().map(|r| r.take()).collect();
        for group in groups(&layout, colours) {
            let snapshot: Vec<u8> = world.cells.ids.iter().map(|c| c.load(Relaxed)).collect();
            let mut writes: Vec<(usize, u8)> = Vec::new();
            let mut stamped: Vec<(usize, u32)> = Vec::new();
            for &c in &group {
                let copy = Cells {
                    layout,
                    ids: snapshot.iter().map(|&v| AtomicU8::new(v)).collect(),
                    stamps: world
                        .cells
                        .stamps
                        .iter()
                        .map(|s| AtomicU32::new(s.load(Relaxed)))
                        .collect(),
                    headings: (0..snapshot.len()).map(|_| AtomicU8::new(0)).collect(),
                    next: (0..layout.chunks()).map(|_| SharedRect::empty()).collect(),
                    revisions: (0..layout.chunks()).map(|_| AtomicU32::new(0)).collect(),
                };
                ChunkUpdate::new(&copy, &world.materials, 0, world.tick, c).run(rects[c]);
                for (i, v) in copy.ids.iter().enumerate() {
                    let v = v.load(Relaxed);
                    if v != snapshot[i] {
                        writes.push((i, v));
                    }
                    let stamp = copy.stamps[i].load(Relaxed);
                    if stamp == world.tick {
                        stamped.push((i, stamp));
                    }
                }
            }
            for (i, v) in writes {
                world.cells.ids[i].store(v, Relaxed);
            }
            for (i, stamp) in stamped {
                world.cells.stamps[i].store(stamp, Relaxed);
            }
        }
    }

    #[test]
    fn two_colours_lose_a_grain_at_a_corner_where_four_phases_do_not() {
        use crate::material::{Material, Motion};
        // Chunks of 4 in an 8 by 8 world. Sand at (3, 4) falls into the
        // gap at (3, 3); water at (4, 3), walled in below and on its right,
        // flows left into the same gap. The two sit in chunks that touch
        // only at that corner, which two colours run at once.
        let build = || {
            let mut table = Materials::new();
            let stone = table
                .add(Material::new("stone", 30.0, Motion::Static).unwrap())
                .unwrap();
            let sand = table
                .add(Material::new("sand", 16.0, Motion::Powder).unwrap())
                .unwrap();
            let water = table
                .add(
                    Material::new("water", 10.0, Motion::Liquid)
                        .unwrap()
                        .with_dispersion(1)
                        .unwrap(),
                )
                .unwrap();
            let settings = SandSettings::new(8, 8).unwrap().with_chunk(4).unwrap();
            let mut world = SandWorld::new(settings, table).unwrap();
            for (x, y) in [(2, 2), (3, 2), (4, 2), (5, 2), (5, 3), (2, 3)] {
                world.set(x, y, stone).unwrap();
            }
            world.set(3, 4, sand).unwrap();
            world.set(4, 3, water).unwrap();
            (world, sand, water)
        };
        let moving = |world: &SandWorld, sand: MaterialId, water: MaterialId| {
            let counts = world.counts();
            counts[usize::from(sand.index())] + counts[usize::from(water.index())]
        };
        let (mut two, sand, water) = build();
        tick_at_once(&mut two, 2);
        assert_eq!(
            moving(&two, sand, water),
            1,
            "two colours: one of the two is lost"
        );
        let (mut four, sand, water) = build();
        tick_at_once(&mut four, 4);
        assert_eq!(moving(&four, sand, water), 2, "four phases keep both");
        // And the world's own tick agrees with the four phases.
        let (mut real, sand, water) = build();
        real.tick();
        assert_eq!(moving(&real, sand, water), 2);
        assert_eq!(real.state_hash(), four.state_hash());
    }
}
