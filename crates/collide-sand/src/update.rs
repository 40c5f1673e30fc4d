//! One chunk's share of a tick: the cell rules over its dirty rectangle.

use crate::chunk::Rect;
use crate::material::{Materials, Motion};
use crate::world::Cells;
use std::sync::atomic::Ordering::Relaxed;

/// The way a cell last flowed sideways (see `Cells::headings`).
pub(crate) const HEADING_RIGHT: u8 = 1;
pub(crate) const HEADING_LEFT: u8 = 2;

/// A chunk's randomness for one tick: SplitMix64 from the world's seed,
/// the tick and the chunk's index, so it does not depend on which thread
/// runs the chunk or when.
struct ChunkRng {
    state: u64,
    bits: u64,
    left: u32,
}

impl ChunkRng {
    fn new(seed: u64, tick: u32, chunk: usize) -> Self {
        let mut rng = Self {
            state: seed
                ^ (u64::from(tick) << 32 | chunk as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            bits: 0,
            left: 0,
        };
        rng.next_u64();
        rng
    }

    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A fair coin, from a buffer of 64 bits.
    #[inline]
    fn coin(&mut self) -> bool {
        if self.left == 0 {
            self.bits = self.next_u64();
            self.left = 64;
        }
        self.left -= 1;
        let bit = self.bits & 1 == 1;
        self.bits >>= 1;
        bit
    }

    /// True with probability `p`.
    fn chance(&mut self, p: f32) -> bool {
        p > 0.0 && ((self.next_u64() >> 40) as f32) < p * (1u64 << 24) as f32
    }
}

/// The update of one chunk in one tick.
pub(crate) struct ChunkUpdate<'a> {
    cells: &'a Cells,
    materials: &'a Materials,
    tick: u32,
    rng: ChunkRng,
    /// The cells this chunk changed, to wake (with their neighbours).
    changed: Rect,
    /// The static cells it changed (burning ones), for the solid boxes.
    changed_static: Rect,
}

impl<'a> ChunkUpdate<'a> {
    pub(crate) fn new(
        cells: &'a Cells,
        materials: &'a Materials,
        seed: u64,
        tick: u32,
        chunk: usize,
    ) -> Self {
        Self {
            cells,
            materials,
            tick,
            rng: ChunkRng::new(seed, tick, chunk),
            changed: Rect::EMPTY,
            changed_static: Rect::EMPTY,
        }
    }

    /// Updates the cells of `rect`, rows from the bottom, each row in the
    /// direction of this tick; then wakes what changed.
    pub(crate) fn run(mut self, rect: Rect) {
        let rightward = self.tick.is_multiple_of(2);
        for y in rect.y0..=rect.y1 {
            if rightward {
                for x in rect.x0..=rect.x1 {
                    self.cell(x, y);
                }
            } else {
                for x in (rect.x0..=rect.x1).rev() {
                    self.cell(x, y);
                }
            }
        }
        self.cells.wake(&self.changed);
        self.cells.touch_static(&self.changed_static);
    }

    #[inline]
    fn note(&mut self, x: i32, y: i32) {
        self.changed.grow(&Rect {
            x0: x,
            y0: y,
            x1: x,
            y1: y,
        });
    }

    fn cell(&mut self, x: i32, y: i32) {
        let cells = self.cells;
        let i = cells.index(x, y);
        let id = cells.ids[i].load(Relaxed);
        if id == 0 || cells.stamps[i].load(Relaxed) == self.tick {
            return;
        }
        let facts = *self.materials.facts(id);
        if facts.burning.is_some() {
            self.burn(x, y, id);
            if cells.ids[i].load(Relaxed) != id {
                return;
            }
        }
        let me = Mover {
            x,
            y,
            index: i,
            id,
            density: facts.density,
            reach: facts.dispersion,
        };
        match facts.motion {
            Motion::Empty | Motion::Static => {}
            Motion::Powder => {
                let _ = self.try_move(&me, 0, -1, Sink::Down) || self.try_pair(&me, -1, Sink::Down);
            }
            Motion::Liquid => {
                let _ = self.try_move(&me, 0, -1, Sink::Down)
                    || self.try_pair(&me, -1, Sink::Down)
                    || self.try_flow(&me, Sink::Down);
            }
            Motion::Gas => {
                let _ = self.try_move(&me, 0, 1, Sink::Up)
                    || self.try_pair(&me, 1, Sink::Up)
                    || self.try_flow(&me, Sink::Up);
            }
        }
    }

    /// Flows sideways up to its dispersion, every cell on the way one it
    /// could move into (so it never passes a wall or a heavier cell): to
    /// the nearer cell it could fall from, either way (a hole in the
    /// surface is filled, not jumped; a tie, or none, goes the way a coin
    /// picks first, as far as it can). Each cell it passes stays as it was.
    fn try_flow(&mut self, me: &Mover, sink: Sink) -> bool {
        // The way it last flowed first, else a coin's.
        let first = match self.cells.headings[me.index].load(Relaxed) {
            HEADING_RIGHT => 1,
            HEADING_LEFT => -1,
            _ if self.rng.coin() => 1,
            _ => -1,
        };
        let fall = match sink {
            Sink::Down => -1,
            Sink::Up => 1,
        };
        // Per way: how far it can go, and the nearest cell it can fall from.
        let mut ways = [(0, None); 2];
        for (way, dx) in ways.iter_mut().zip([first, -first]) {
            for k in 1..=me.reach {
                if !self.can_enter(me, dx * k, 0, sink) {
                    break;
                }
                way.0 = k;
                if self.can_enter(me, dx * k, fall, sink) {
                    way.1 = Some(k);
                    break;
                }
            }
        }
        let dx = match (ways[0].1, ways[1].1) {
            (Some(a), Some(b)) if b < a => -first * b,
            (Some(a), _) => first * a,
            (None, Some(b)) => -first * b,
            (None, None) if ways[0].0 > 0 => first * ways[0].0,
            (None, None) => -first * ways[1].0,
        };
        if dx == 0 || !self.try_move(me, dx, 0, sink) {
            return false;
        }
        let heading = if dx > 0 { HEADING_RIGHT } else { HEADING_LEFT };
        let t = self.cells.index(me.x + dx, me.y);
        self.cells.headings[t].store(heading, Relaxed);
        true
    }

    /// Tries the two sideways moves at row offset `dy` (diagonal, or level
    /// when 0), in a random order.
    fn try_pair(&mut self, me: &Mover, dy: i32, sink: Sink) -> bool {
        let first = if self.rng.coin() { 1 } else { -1 };
        self.try_move(me, first, dy, sink) || self.try_move(me, -first, dy, sink)
    }

    /// Moves the cell at `(x, y)` by `(dx, dy)` when the target is inside,
    /// not static, empty or not moved this tick, and lighter (`Sink::Down`)
    /// or heavier (`Sink::Up`): the two trade places.
    #[inline]
    fn try_move(&mut self, me: &Mover, dx: i32, dy: i32, sink: Sink) -> bool {
        if !self.can_enter(me, dx, dy, sink) {
            return false;
        }
        let (tx, ty) = (me.x + dx, me.y + dy);
        let cells = self.cells;
        let t = cells.index(tx, ty);
        let other = cells.ids[t].load(Relaxed);
        cells.ids[me.index].store(other, Relaxed);
        cells.ids[t].store(me.id, Relaxed);
        // Each keeps its heading as it moves.
        let mine = cells.headings[me.index].load(Relaxed);
        cells.headings[me.index].store(cells.headings[t].load(Relaxed), Relaxed);
        cells.headings[t].store(mine, Relaxed);
        cells.stamps[me.index].store(self.tick, Relaxed);
        cells.stamps[t].store(self.tick, Relaxed);
        self.changed.grow(&Rect {
            x0: me.x.min(tx),
            y0: me.y.min(ty),
            x1: me.x.max(tx),
            y1: me.y.max(ty),
        });
        true
    }

    /// Whether the cell could move by `(dx, dy)`: the target is inside,
    /// not static, empty or not moved this tick, and lighter (`Sink::Down`)
    /// or heavier (`Sink::Up`).
    #[inline]
    fn can_enter(&self, me: &Mover, dx: i32, dy: i32, sink: Sink) -> bool {
        let (tx, ty) = (me.x + dx, me.y + dy);
        let cells = self.cells;
        if !cells.inside(tx, ty) {
            return false;
        }
        let t = cells.index(tx, ty);
        let other = cells.ids[t].load(Relaxed);
        // A material moves once a tick; empty space may be displaced again
        // (else a grain never catches a gap that moved this tick).
        if other != 0 && cells.stamps[t].load(Relaxed) == self.tick {
            return false;
        }
        let facts = self.materials.facts(other);
        let passes = match sink {
            Sink::Down => facts.density < me.density,
            Sink::Up => facts.density > me.density,
        };
        passes && facts.motion != Motion::Static
    }

    /// A burning cell: sets flammable side neighbours alight, each with the
    /// material's spread chance, then burns out with its burn-out chance;
    /// while it burns it stays awake.
    fn burn(&mut self, x: i32, y: i32, id: u8) {
        let burning = self
            .materials
            .facts(id)
            .burning
            .expect("called on burning cells");
        let cells = self.cells;
        for (dx, dy) in [(-1, 0), (1, 0), (0, 1), (0, -1)] {
            let (nx, ny) = (x + dx, y + dy);
            if !cells.inside(nx, ny) {
                continue;
            }
            let n = cells.index(nx, ny);
            let other = cells.ids[n].load(Relaxed);
            if self.materials.facts(other).flammable && self.rng.chance(burning.spread) {
                cells.ids[n].store(id, Relaxed);
                cells.stamps[n].store(self.tick, Relaxed);
                self.note(nx, ny);
                self.note_static(nx, ny, other, id);
            }
        }
        if self.rng.chance(burning.burn_out) {
            let i = cells.index(x, y);
            cells.ids[i].store(burning.leaves.index(), Relaxed);
            cells.stamps[i].store(self.tick, Relaxed);
            self.note_static(x, y, id, burning.leaves.index());
        }
        self.note(x, y);
    }

    /// Notes a cell that changed from `old` to `new` when either is static.
    fn note_static(&mut self, x: i32, y: i32, old: u8, new: u8) {
        let is_static = |id: u8| self.materials.facts(id).motion == Motion::Static;
        if is_static(old) || is_static(new) {
            self.changed_static.grow(&Rect {
                x0: x,
                y0: y,
                x1: x,
                y1: y,
            });
        }
    }
}

/// The cell being updated.
struct Mover {
    x: i32,
    y: i32,
    index: usize,
    id: u8,
    density: f32,
    /// Cells it flows sideways in a tick.
    reach: i32,
}

/// Which way a material moves through others: down through lighter ones,
/// or up through heavier ones (gas).
#[derive(Clone, Copy)]
enum Sink {
    Down,
    Up,
}
