//! Chunks and their dirty rectangles: the cells a tick scans are those
//! within one cell of a change in the tick before.

use std::sync::atomic::{AtomicI32, Ordering::Relaxed};

/// A rectangle of cells, both corners included; empty when `x0 > x1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    /// Lowest column.
    pub x0: i32,
    /// Lowest row.
    pub y0: i32,
    /// Highest column (included).
    pub x1: i32,
    /// Highest row (included).
    pub y1: i32,
}

impl Rect {
    /// No cells.
    pub const EMPTY: Rect = Rect {
        x0: i32::MAX,
        y0: i32::MAX,
        x1: i32::MIN,
        y1: i32::MIN,
    };

    /// Whether it holds no cell.
    pub fn is_empty(&self) -> bool {
        self.x0 > self.x1 || self.y0 > self.y1
    }

    /// Cells in it.
    pub fn area(&self) -> u64 {
        if self.is_empty() {
            0
        } else {
            let side = |lo: i32, hi: i32| (i64::from(hi) - i64::from(lo) + 1) as u64;
            side(self.x0, self.x1) * side(self.y0, self.y1)
        }
    }

    /// The cells in both.
    pub(crate) fn intersect(&self, other: &Rect) -> Rect {
        Rect {
            x0: self.x0.max(other.x0),
            y0: self.y0.max(other.y0),
            x1: self.x1.min(other.x1),
            y1: self.y1.min(other.y1),
        }
    }

    /// Grows it to hold `other`.
    pub(crate) fn grow(&mut self, other: &Rect) {
        self.x0 = self.x0.min(other.x0);
        self.y0 = self.y0.min(other.y0);
        self.x1 = self.x1.max(other.x1);
        self.y1 = self.y1.max(other.y1);
    }
}

/// A dirty rectangle that several threads grow at once: each side moves
/// by an atomic minimum or maximum, so the result is the same in any
/// order.
#[derive(Debug)]
pub(crate) struct SharedRect([AtomicI32; 4]);

impl SharedRect {
    pub(crate) fn empty() -> Self {
        let e = Rect::EMPTY;
        Self([e.x0, e.y0, e.x1, e.y1].map(AtomicI32::new))
    }

    pub(crate) fn grow(&self, r: &Rect) {
        if r.is_empty() {
            return;
        }
        self.0[0].fetch_min(r.x0, Relaxed);
        self.0[1].fetch_min(r.y0, Relaxed);
        self.0[2].fetch_max(r.x1, Relaxed);
        self.0[3].fetch_max(r.y1, Relaxed);
    }

    /// The rectangle, leaving it empty.
    pub(crate) fn take(&self) -> Rect {
        let e = Rect::EMPTY;
        Rect {
            x0: self.0[0].swap(e.x0, Relaxed),
            y0: self.0[1].swap(e.y0, Relaxed),
            x1: self.0[2].swap(e.x1, Relaxed),
            y1: self.0[3].swap(e.y1, Relaxed),
        }
    }
}

/// How the world is cut into square chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    pub(crate) width: i32,
    pub(crate) height: i32,
    pub(crate) side: i32,
    /// Chunks per row and per column.
    pub(crate) across: i32,
    pub(crate) down: i32,
}

impl Layout {
    pub(crate) fn new(width: u32, height: u32, side: u32) -> Self {
        let (width, height, side) = (width as i32, height as i32, side as i32);
        Self {
            width,
            height,
            side,
            across: (width + side - 1) / side,
            down: (height + side - 1) / side,
        }
    }

    pub(crate) fn chunks(&self) -> usize {
        (self.across * self.down) as usize
    }

    /// The chunk at chunk coordinates `(cx, cy)`.
    #[inline]
    pub(crate) fn chunk_at(&self, cx: i32, cy: i32) -> usize {
        (cy * self.across + cx) as usize
    }

    /// The cells of chunk `c`.
    pub(crate) fn cells_of(&self, c: usize) -> Rect {
        let (cx, cy) = (c as i32 % self.across, c as i32 / self.across);
        Rect {
            x0: cx * self.side,
            y0: cy * self.side,
            x1: ((cx + 1) * self.side).min(self.width) - 1,
            y1: ((cy + 1) * self.side).min(self.height) - 1,
        }
    }

    /// The phase, 0 to 3, of chunk `c`: the parity of its column, plus
    /// twice the parity of its row.
    pub(crate) fn phase_of(&self, c: usize) -> usize {
        let (cx, cy) = (c as i32 % self.across, c as i32 / self.across);
        ((cx & 1) | (cy & 1) << 1) as usize
    }
}
