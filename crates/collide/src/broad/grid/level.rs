//! One level of a grid: its registrations (object, cell) kept sorted by
//! cell key in flat arrays, so a cell's objects are contiguous and the step
//! reads memory in order.
//!
//! Between steps only the objects that changed cells are re-registered: their
//! old entries are dropped and their new ones merged in, one linear pass
//! (a sort of just the newcomers, a radix sort when they are many).

use super::cells::{CellCoord, CellFrame, CellRange, hashed_coords, hashed_key};
use crate::broad::radix::radix_sort_by_key;
use crate::geometry::{Aabb, Vector};
use std::ops::{ControlFlow, Range};

/// One object registered in one cell: 16 bytes, since the step moves
/// every registration of a level through its sort.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Reg {
    /// The cell's key (see [`Level::key`]).
    pub(crate) key: u64,
    /// The object's slot index.
    pub(crate) object: u32,
    /// Bit `a` set when this cell is the lowest of the object's range on
    /// axis `a`. Two objects sharing a cell report their pair there only
    /// when their bits together cover every axis (see [`Reg::is_corner`]).
    pub(crate) lowest: u8,
}

impl Reg {
    /// Whether the cell of `self` and `other` (registrations of two
    /// overlapping objects in one cell) is their corner cell, the largest
    /// of their lowest cells per axis (`CellFrame::overlap_corner`): both
    /// cover the cell, so on each axis it is at least both lowest cells, and
    /// it is their largest exactly when it is one of them. Integer bits
    /// instead of the floors of the boxes' corner (measured with perf: the
    /// floors took a quarter of the pair kernel).
    #[inline]
    pub(crate) fn is_corner(&self, other: &Reg, dim: usize) -> bool {
        (self.lowest | other.lowest) == all_axes(dim)
    }

    /// [`Reg::is_corner`] against a box or query region that is not
    /// registered here but covers `cell` with the cells `range`: its own
    /// bits come from the range.
    #[inline]
    pub(crate) fn is_corner_with(&self, range: &CellRange, cell: CellCoord, dim: usize) -> bool {
        (self.lowest | lowest_bits(range, cell, dim)) == all_axes(dim)
    }

    /// The registration as one 64-bit word, `key << 35 | lowest << 32 |
    /// object`, for keys below 2^29 (a dense level's; see
    /// [`super::config::MAX_DENSE_CELLS`]).
    #[inline]
    fn pack(self) -> u64 {
        debug_assert!(self.key < 1 << (64 - PACKED_KEY_SHIFT));
        self.key << PACKED_KEY_SHIFT | u64::from(self.lowest) << 32 | u64::from(self.object)
    }

    /// The registration [`Reg::pack`] packed.
    #[inline]
    fn unpack(packed: u64) -> Reg {
        Reg {
            key: packed >> PACKED_KEY_SHIFT,
            object: packed as u32,
            lowest: (packed >> 32) as u8 & 0b111,
        }
    }
}

/// Where [`Reg::pack`] puts the key: above the object (32 bits) and the
/// lowest-cell bits (3).
const PACKED_KEY_SHIFT: u32 = 35;

/// The [`Reg::lowest`] bits of every axis of dimension `dim`.
#[inline]
fn all_axes(dim: usize) -> u8 {
    (1u8 << dim) - 1
}

/// A level: a cell frame, the registrations sorted by key, and the boxes of
/// the registered objects in the same order (gathered at each step).
#[derive(Debug)]
pub(crate) struct Level<V: Vector> {
    pub(crate) frame: CellFrame,
    /// Dense grids: the number of cells per axis (keys are linear indices).
    /// Hashed: `None` (keys pack the coordinates).
    dims: Option<[i32; 3]>,
    pub(crate) regs: Vec<Reg>,
    pub(crate) boxes: Vec<Aabb<V>>,
    next: Vec<Reg>,
    incoming: Vec<Reg>,
    scratch: Vec<Reg>,
    /// Dense levels under incoherent motion: registrations packed by
    /// [`Reg::pack`], and the sort's scratch.
    packed: Vec<u64>,
    packed_scratch: Vec<u64>,
}

/// [`Level::merge_fresh`] takes the merge with branches when fewer than
/// one registration in this many is new.
const FEW_STALE: usize = 8;

/// Newcomers above this count are radix sorted rather than compared.
const RADIX_THRESHOLD: usize = 2048;

impl<V: Vector> Level<V> {
    pub(crate) fn new(frame: CellFrame, dims: Option<[i32; 3]>) -> Self {
        Self {
            frame,
            dims,
            regs: Vec::new(),
            boxes: Vec::new(),
            next: Vec::new(),
            incoming: Vec::new(),
            scratch: Vec::new(),
            packed: Vec::new(),
            packed_scratch: Vec::new(),
        }
    }

    /// The frame and registrations, without the step's scratch, for a
    /// snapshot.
    pub(crate) fn frozen(&self) -> Self {
        Self {
            regs: self.regs.clone(),
            ..Self::new(self.frame, self.dims)
        }
    }

    /// The key of cell `c` (inside the bounds, for a dense level).
    #[inline]
    pub(crate) fn key(&self, c: CellCoord) -> u64 {
        match self.dims {
            Some(d) => {
                debug_assert!(
                    (0..3).all(|a| 0 <= c[a] && c[a] < d[a]),
                    "dense key of cell {c:?} outside the bounds {d:?}"
                );
                c[0] as u64 + d[0] as u64 * (c[1] as u64 + d[1] as u64 * c[2] as u64)
            }
            None => hashed_key(c, V::DIM),
        }
    }

    /// The cell of a key.
    fn coords(&self, key: u64) -> CellCoord {
        match self.dims {
            Some(d) => {
                let (w, h) = (d[0] as u64, d[1] as u64);
                [
                    (key % w) as i32,
                    ((key / w) % h) as i32,
                    (key / (w * h)) as i32,
                ]
            }
            None => hashed_coords(key, V::DIM),
        }
    }

    /// The part of `range` that can hold cells: inside the bounds (dense) or
    /// all of it (hashed).
    pub(crate) fn clip(&self, range: &CellRange) -> Option<CellRange> {
        match self.dims {
            Some(d) => range.intersect(&CellRange {
                min: [0; 3],
                max: [d[0] - 1, d[1] - 1, d[2] - 1],
            }),
            None => Some(*range),
        }
    }

    /// Whether `c` is a cell this level can hold: inside the bounds (dense)
    /// or inside the clamped lattice (hashed).
    pub(crate) fn in_lattice(&self, c: CellCoord) -> bool {
        match self.dims {
            Some(d) => (0..3).all(|a| 0 <= c[a] && c[a] < d[a]),
            None => hashed_coords(hashed_key(c, V::DIM), V::DIM) == c,
        }
    }

    /// Whether every cell of `range` can be registered.
    #[inline]
    pub(crate) fn holds(&self, range: &CellRange) -> bool {
        match self.dims {
            // Every axis at once (`&`, not `&&`): objects near the bounds
            // make the outcome hard to predict per axis.
            Some(d) => (0..3).fold(true, |inside, a| {
                inside & (range.min[a] >= 0) & (range.max[a] < d[a])
            }),
            None => true,
        }
    }

    /// Replaces the registrations of the objects `is_stale` names with
    /// `fresh` ones, keeping the order by key; [`Level::gather`] then copies
    /// the objects' boxes next to them. With `everything`, `fresh` holds
    /// every object of the level and the old entries are all dropped (the
    /// path for incoherent motion).
    pub(crate) fn reregister(
        &mut self,
        is_stale: impl Fn(u32) -> bool,
        fresh: impl Iterator<Item = (u32, CellRange)>,
        everything: bool,
    ) {
        if everything {
            // Nothing old is kept: no pass over the stale entries.
            self.regs.clear();
        }
        if self.dims.is_some() {
            // A dense level's keys fit in 29 bits, so a registration packs
            // into 8 bytes and the sort moves half the memory (measured with
            // perf: the sort of 16-byte registrations was a fifth of a frame
            // under fast motion).
            let mut packed = std::mem::take(&mut self.packed);
            let mut scratch = std::mem::take(&mut self.packed_scratch);
            let stores = (Reg::pack, Reg::unpack);
            self.refill(&mut packed, &mut scratch, fresh, stores, is_stale);
            (self.packed, self.packed_scratch) = (packed, scratch);
        } else {
            let mut incoming = std::mem::take(&mut self.incoming);
            let mut scratch = std::mem::take(&mut self.scratch);
            let stores = (|reg| reg, |reg| reg);
            self.refill(&mut incoming, &mut scratch, fresh, stores, is_stale);
            (self.incoming, self.scratch) = (incoming, scratch);
        }
    }

    /// [`Level::reregister`]'s work in the registrations' form for the
    /// sort, `R`, which `stores.0` makes and `stores.1` reads: fills
    /// `buffer` with the fresh registrations, sorts them by key (radix
    /// sorted into `scratch` when many) and merges them in (`scratch`
    /// holding the kept ones).
    fn refill<R: Copy + Default>(
        &mut self,
        buffer: &mut Vec<R>,
        scratch: &mut Vec<R>,
        fresh: impl Iterator<Item = (u32, CellRange)>,
        (store, unpack): (impl Fn(Reg) -> R + Copy, impl Fn(R) -> Reg + Copy),
        is_stale: impl Fn(u32) -> bool,
    ) {
        self.fill(buffer, fresh, store);
        if buffer.len() > RADIX_THRESHOLD {
            radix_sort_by_key(buffer, scratch, |&r| unpack(r).key);
        } else {
            buffer.sort_unstable_by_key(|&r| unpack(r).key);
        }
        self.merge_fresh(is_stale, buffer, scratch, (store, unpack));
    }

    /// Drops the stale registrations and merges the sorted `incoming` ones
    /// (as `unpack` makes them) with the rest, the kept ones compacted into
    /// `kept` on the way as `store` makes them.
    ///
    /// When many entries are stale (fast motion: a third or more), whether
    /// an entry is stale and which list the next entry comes from are coin
    /// tosses the branch predictor loses, so the kept entries are compacted
    /// without a branch and then merged choosing each source with a
    /// conditional move; when few are (slow motion) the branches predict
    /// well and the plain merge saves the compaction's pass. Measured with
    /// timers around the level's refresh on 2D `uniform` at 100,000
    /// objects: fast, 3.2 ms a step with the plain merge against 2.6 ms
    /// without branches; slow, 1.1 ms plain against 1.4 to 1.7 ms without
    /// branches.
    ///
    /// The kept entries are compacted in the sort's form (8-byte words for a
    /// dense level), so the merge picks one of two words instead of one of
    /// two 16-byte registrations through memory, and the boxes are copied
    /// afterwards by [`Level::gather`], a loop of independent loads that
    /// keeps more cache misses in flight than the merge did while copying
    /// them. Timers around compaction, merge and box copy, 2D `uniform` fast
    /// at 100,000 objects (medians of frames 4 to 13, three alternated
    /// runs): 1.83, 3.24 and 3.61 ms with 16-byte kept entries and the copy
    /// in the merge; 1.52, 2.92 and 3.17 ms with packed ones; then 1.72,
    /// 1.83 and 2.32 ms against 1.61, 1.51 and 1.61 ms with the copy apart.
    fn merge_fresh<R: Copy + Default>(
        &mut self,
        is_stale: impl Fn(u32) -> bool,
        incoming: &[R],
        kept: &mut Vec<R>,
        (store, unpack): (impl Fn(Reg) -> R, impl Fn(R) -> Reg + Copy),
    ) {
        if incoming.len() * FEW_STALE < self.regs.len() {
            self.merge_fresh_plain(is_stale, incoming, unpack);
            return;
        }
        reserve_with_headroom(kept, self.regs.len());
        kept.resize(self.regs.len(), R::default());
        let mut count = 0;
        for reg in &self.regs {
            kept[count] = store(*reg);
            count += usize::from(!is_stale(reg.object));
        }
        kept.truncate(count);
        // Every entry below is overwritten: resizing keeps old contents.
        let total = count + incoming.len();
        reserve_with_headroom(&mut self.regs, total);
        self.regs.resize(total, Reg::default());
        let (mut i, mut j, mut k) = (0, 0, 0);
        while i < kept.len() && j < incoming.len() {
            // Equal keys keep the kept entry first.
            let (old, new) = (kept[i], incoming[j]);
            let fresh = unpack(new).key < unpack(old).key;
            self.regs[k] = unpack(if fresh { new } else { old });
            i += usize::from(!fresh);
            j += usize::from(fresh);
            k += 1;
        }
        let rest = kept[i..].iter().chain(&incoming[j..]);
        for (slot, &r) in self.regs[k..].iter_mut().zip(rest) {
            *slot = unpack(r);
        }
    }

    /// [`Level::merge_fresh`] with a branch per entry, for few stale ones;
    /// the boxes are copied by [`Level::gather`] in a pass of their own
    /// (copying them here measured slower).
    fn merge_fresh_plain<R: Copy>(
        &mut self,
        is_stale: impl Fn(u32) -> bool,
        incoming: &[R],
        unpack: impl Fn(R) -> Reg,
    ) {
        self.next.clear();
        let mut fresh = incoming.iter().map(|&r| unpack(r)).peekable();
        for reg in &self.regs {
            if is_stale(reg.object) {
                continue;
            }
            while let Some(new) = fresh.next_if(|n| n.key < reg.key) {
                self.next.push(new);
            }
            self.next.push(*reg);
        }
        self.next.extend(fresh);
        std::mem::swap(&mut self.regs, &mut self.next);
    }

    /// Puts the registrations of `fresh` into `buffer` (replacing its
    /// contents), each as `store` makes it, in no particular order. A range
    /// of at most 2 cells per axis (nearly every object, with the automatic
    /// cell size) writes all 2^D corner cells and keeps those it covers by
    /// advancing the write position or not: the loop over a range of 1 or 2
    /// cells per axis mispredicted its branches (measured with perf). Keys
    /// are linear in the cell coordinates within a level, so the corners are
    /// the lowest cell's key plus per-axis strides.
    fn fill<R: Copy + Default>(
        &self,
        buffer: &mut Vec<R>,
        fresh: impl Iterator<Item = (u32, CellRange)>,
        store: impl Fn(Reg) -> R,
    ) {
        let stride = self.strides();
        let corners = 1usize << V::DIM;
        let mut at = 0;
        for (object, range) in fresh {
            if buffer.len() < at + corners {
                // Grown a little at a time: the buffer ends each call at the
                // count written, and the next call regrows it past that.
                buffer.resize(at + 64 * corners, R::default());
            }
            let spans = [0, 1, 2].map(|a| range.max[a] - range.min[a]);
            if spans.iter().all(|&s| s <= 1) {
                let base = self.key(range.min);
                for corner in 0..corners {
                    let mut key = base;
                    let mut covered = true;
                    for (a, step) in stride.iter().enumerate().take(V::DIM) {
                        let up = corner >> a & 1 == 1;
                        // Wraps only for a corner not covered (past the
                        // lattice's last cell), whose entry is overwritten.
                        key = key.wrapping_add(u64::from(up) * step);
                        covered &= !up | (spans[a] == 1);
                    }
                    // The corner's bits say which axes it is up on; it is
                    // at the range's lowest on the others.
                    let lowest = !(corner as u8) & all_axes(V::DIM);
                    debug_assert!(
                        !covered
                            || (self.key(self.coords(key)) == key
                                && range.contains(self.coords(key))
                                && lowest == lowest_bits(&range, self.coords(key), V::DIM))
                    );
                    buffer[at] = store(Reg {
                        key,
                        object,
                        lowest,
                    });
                    at += usize::from(covered);
                }
            } else {
                buffer.truncate(at);
                range.for_each(|c| {
                    buffer.push(store(Reg {
                        key: self.key(c),
                        object,
                        lowest: lowest_bits(&range, c, V::DIM),
                    }))
                });
                at = buffer.len();
            }
        }
        buffer.truncate(at);
    }

    /// How much a cell's key grows per step along each axis (keys are
    /// linear in the coordinates within the lattice).
    fn strides(&self) -> [u64; 3] {
        match self.dims {
            Some(d) => [1, d[0] as u64, d[0] as u64 * d[1] as u64],
            None if V::DIM == 2 => [1, 1 << 32, 0],
            None => [1, 1 << 21, 1 << 42],
        }
    }

    /// Copies the current box of every registered object next to its
    /// registration (reads scattered, writes in order).
    pub(crate) fn gather(&mut self, boxes: &[Aabb<V>]) {
        self.boxes.clear();
        reserve_with_headroom(&mut self.boxes, self.regs.len());
        self.boxes
            .extend(self.regs.iter().map(|r| boxes[r.object as usize]));
    }

    /// The registrations of the cell with `key`.
    pub(crate) fn run(&self, key: u64) -> Range<usize> {
        let start = self.regs.partition_point(|r| r.key < key);
        let end = start + self.regs[start..].partition_point(|r| r.key == key);
        start..end
    }

    /// Calls `f(cell, registrations)` for every registered cell in `range`
    /// until it breaks. Keys increase with x along a row, so each row of the
    /// range is one binary search and a walk over its registered cells; when
    /// the range has more rows than there are registrations, all cells are
    /// walked and filtered instead.
    pub(crate) fn for_each_cell_in(
        &self,
        range: &CellRange,
        mut f: impl FnMut(CellCoord, Range<usize>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let Some(range) = self.clip(range) else {
            return ControlFlow::Continue(());
        };
        let rows = (i64::from(range.max[1]) - i64::from(range.min[1]) + 1) as u128
            * (i64::from(range.max[2]) - i64::from(range.min[2]) + 1) as u128;
        if rows > self.regs.len() as u128 {
            for run in self.runs() {
                let c = self.coords(self.regs[run.start].key);
                if range.contains(c) {
                    f(c, run)?;
                }
            }
            return ControlFlow::Continue(());
        }
        for z in range.min[2]..=range.max[2] {
            for y in range.min[1]..=range.max[1] {
                self.for_each_cell_in_row(range.min[0], range.max[0], y, z, &mut f)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Calls `f(cell, registrations)` for every registered cell of row
    /// `(y, z)` with x in `[x0, x1]` (clipped to the bounds of a dense
    /// level), in order, until it breaks.
    pub(crate) fn for_each_cell_in_row(
        &self,
        x0: i32,
        x1: i32,
        y: i32,
        z: i32,
        mut f: impl FnMut(CellCoord, Range<usize>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let row = CellRange {
            min: [x0, y, z],
            max: [x1, y, z],
        };
        let Some(row) = self.clip(&row) else {
            return ControlFlow::Continue(());
        };
        let first = self.key(row.min);
        let last = self.key(row.max);
        let mut start = self.regs.partition_point(|r| r.key < first);
        while start < self.regs.len() && self.regs[start].key <= last {
            let key = self.regs[start].key;
            let mut end = start + 1;
            while end < self.regs.len() && self.regs[end].key == key {
                end += 1;
            }
            f(self.coords(key), start..end)?;
            start = end;
        }
        ControlFlow::Continue(())
    }

    /// The runs of registrations that share a cell, in key order.
    pub(crate) fn runs(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        let mut start = 0;
        std::iter::from_fn(move || {
            if start >= self.regs.len() {
                return None;
            }
            let key = self.regs[start].key;
            let len = self.regs[start..]
                .iter()
                .position(|r| r.key != key)
                .unwrap_or(self.regs.len() - start);
            let run = start..start + len;
            start += len;
            Some(run)
        })
    }

    /// Number of registered cells.
    pub(crate) fn occupied_cells(&self) -> usize {
        self.runs().count()
    }
}

/// Makes room for `len` items in `buffer`, with a sixteenth more when it
/// must grow: a level's registration count wanders by a fraction of a
/// percent from step to step, and growing by doubling touches megabytes of
/// fresh pages (measured: about 1,150 page faults in one step at 100,000
/// objects, 2D `uniform` fast).
fn reserve_with_headroom<T>(buffer: &mut Vec<T>, len: usize) {
    if len > buffer.capacity() {
        buffer.reserve_exact(len + len / 16 - buffer.len());
    }
}

/// [`Reg::lowest`] of cell `c` in `range`.
fn lowest_bits(range: &CellRange, c: CellCoord, dim: usize) -> u8 {
    (0..dim).fold(0, |bits, a| bits | u8::from(c[a] == range.min[a]) << a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad::grid::config::MAX_DENSE_CELLS;

    #[test]
    fn packed_registrations_round_trip() {
        // Dense keys stay far below what packing holds, even when rounding
        // the cells per axis up adds a row or a column.
        assert!(4.0 * MAX_DENSE_CELLS < (1u64 << (64 - PACKED_KEY_SHIFT)) as f64);
        for reg in [
            Reg::default(),
            Reg {
                key: (1 << 29) - 1,
                object: u32::MAX,
                lowest: 0b111,
            },
            Reg {
                key: 12_345,
                object: 7,
                lowest: 0b010,
            },
        ] {
            assert_eq!(Reg::unpack(reg.pack()), reg);
        }
        let keys = [
            Reg::default().pack(),
            (Reg {
                key: 1,
                ..Reg::default()
            })
            .pack(),
        ];
        assert!(keys[0] >> PACKED_KEY_SHIFT < keys[1] >> PACKED_KEY_SHIFT);
    }

    /// The registrations' bits pick the cell the boxes' corner names, for
    /// two registered boxes and for a box against an unregistered one (a
    /// probe or a query region), on a hashed and a dense level.
    fn corner_bits_agree_with_the_boxes<V: Vector>() {
        let mut rng = crate::scene::SceneRng::new(29);
        let hashed = Level::<V>::new(CellFrame::new([0.0; 3], 1.5), None);
        let dense = Level::<V>::new(CellFrame::new([-20.0; 3], 1.5), Some([30; 3]));
        let mut random_box = || {
            let low = V::from_axes(|_| rng.range(-4.0, 4.0));
            let size = V::from_axes(|_| rng.range(0.0, 4.0));
            Aabb::new(low, V::from_axes(|a| low.axis(a) + size.axis(a))).unwrap()
        };
        let mut checked = 0;
        for _ in 0..3000 {
            let (a, b) = (random_box(), random_box());
            for level in [&hashed, &dense] {
                let (ra, rb) = (level.frame.range_of(&a), level.frame.range_of(&b));
                let regs = |range: CellRange| {
                    let mut out = Vec::new();
                    level.fill(&mut out, std::iter::once((0, range)), |r| r);
                    out
                };
                let (regs_a, regs_b) = (regs(ra), regs(rb));
                let corner = level.frame.overlap_corner(&a, &b);
                for x in &regs_a {
                    let cell = level.coords(x.key);
                    for y in regs_b.iter().filter(|y| y.key == x.key) {
                        let expected = cell == corner;
                        assert_eq!(x.is_corner(y, V::DIM), expected, "{a:?} {b:?} {cell:?}");
                        assert_eq!(x.is_corner_with(&rb, cell, V::DIM), expected);
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked} shared cells checked");
    }

    /// After every kind of re-registration (everything at once, many
    /// objects moved, few moved; dense and hashed), the level holds exactly
    /// the registrations of every object's current cells, sorted by key,
    /// with each object's current box beside it.
    fn reregistering_matches_registering_afresh<V: Vector>() {
        let mut rng = crate::scene::SceneRng::new(41);
        let hashed = Level::<V>::new(CellFrame::new([0.0; 3], 1.5), None);
        let dense = Level::<V>::new(CellFrame::new([-20.0; 3], 1.5), Some([30; 3]));
        for mut level in [hashed, dense] {
            let random_box = |rng: &mut crate::scene::SceneRng| {
                let low = V::from_axes(|_| rng.range(-15.0, 15.0));
                let size = V::from_axes(|_| rng.range(0.0, 3.0));
                Aabb::new(low, V::from_axes(|a| low.axis(a) + size.axis(a))).unwrap()
            };
            // More objects than the radix sort's threshold, so both sorts run.
            let n = 3000;
            let mut boxes: Vec<Aabb<V>> = (0..n).map(|_| random_box(&mut rng)).collect();
            let check = |level: &mut Level<V>, boxes: &[Aabb<V>], case: &str| {
                level.gather(boxes);
                let mut expected = Vec::new();
                for (object, aabb) in boxes.iter().enumerate() {
                    level
                        .frame
                        .range_of(aabb)
                        .for_each(|c| expected.push((level.key(c), object as u32)));
                }
                expected.sort_unstable();
                assert!(
                    level.regs.windows(2).all(|w| w[0].key <= w[1].key),
                    "{case}"
                );
                let mut got: Vec<(u64, u32)> =
                    level.regs.iter().map(|r| (r.key, r.object)).collect();
                got.sort_unstable();
                assert_eq!(got, expected, "{case}");
                for (reg, aabb) in level.regs.iter().zip(&level.boxes) {
                    assert_eq!(*aabb, boxes[reg.object as usize], "{case}");
                }
            };
            let all = |boxes: &[Aabb<V>], level: &Level<V>| -> Vec<(u32, CellRange)> {
                (0..n as u32)
                    .map(|i| (i, level.frame.range_of(&boxes[i as usize])))
                    .collect()
            };
            let fresh = all(&boxes, &level);
            level.reregister(|_| true, fresh.into_iter(), true);
            check(&mut level, &boxes, "everything");
            // Few moved (the merge with branches), many moved (without),
            // then everything again.
            for (round, share) in [0.01, 0.05, 0.4, 0.9, 0.02].into_iter().enumerate() {
                let moved: Vec<u32> = (0..n as u32)
                    .filter(|_| rng.range(0.0, 1.0) < share)
                    .collect();
                let mut stale = vec![false; n];
                for &i in &moved {
                    boxes[i as usize] = random_box(&mut rng);
                    stale[i as usize] = true;
                }
                let fresh: Vec<(u32, CellRange)> = moved
                    .iter()
                    .map(|&i| (i, level.frame.range_of(&boxes[i as usize])))
                    .collect();
                level.reregister(|o| stale[o as usize], fresh.into_iter(), false);
                check(&mut level, &boxes, &format!("round {round}, {share} moved"));
            }
            let fresh = all(&boxes, &level);
            level.reregister(|_| true, fresh.into_iter(), true);
            check(&mut level, &boxes, "everything again");
        }
    }

    #[test]
    fn reregistering_matches_registering_afresh_in_2d_and_3d() {
        reregistering_matches_registering_afresh::<glam::Vec2>();
        reregistering_matches_registering_afresh::<glam::Vec3>();
    }

    #[test]
    fn corner_bits_agree_with_the_boxes_in_2d_and_3d() {
        corner_bits_agree_with_the_boxes::<glam::Vec2>();
        corner_bits_agree_with_the_boxes::<glam::Vec3>();
    }
}
