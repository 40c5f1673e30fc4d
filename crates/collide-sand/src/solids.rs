//! The world's static cells as boxes, for collide's broad phase: per
//! chunk, rows of static cells merged into runs and runs stacked into
//! rectangles, rebuilt only for chunks whose cells changed.

use crate::error::SandError;
use crate::material::Motion;
use crate::world::SandWorld;
use collide::Aabb2;
use collide::glam::Vec2;

/// The boxes of a world's static cells, kept chunk by chunk.
///
/// ```
/// use collide_sand::{Material, Materials, Motion, SandSettings, SandWorld, Solids};
/// let mut table = Materials::new();
/// let stone = table.add(Material::new("stone", 30.0, Motion::Static)?)?;
/// let mut world = SandWorld::new(SandSettings::new(128, 64)?, table)?;
/// for x in 10..90 {
///     world.set(x, 5, stone)?; // one row across two chunks
/// }
/// let mut solids = Solids::new(0.5)?; // half a world unit a cell
/// let mut rebuilt = Vec::new();
/// world.refresh_solids(&mut solids, &mut rebuilt);
/// assert_eq!(rebuilt, [0, 1]);
/// let boxes: Vec<_> = solids.boxes().collect();
/// assert_eq!(boxes.len(), 2); // one run in each chunk
/// assert_eq!(boxes[0].1.min(), collide::glam::Vec2::new(5.0, 2.5));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Solids {
    cell: f32,
    /// Per chunk: its boxes, and the revision of its cells they were built
    /// from.
    chunks: Vec<(Vec<Aabb2>, Option<u32>)>,
    /// The world the boxes are of: another world rebuilds them all.
    world: Option<u64>,
    /// Scratch: the open runs of the rows below.
    open: Vec<Run>,
    runs: Vec<Run>,
}

/// A run of static cells `x0..=x1` on rows `y0` up to the row being read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    x0: i32,
    x1: i32,
    y0: i32,
}

impl Solids {
    /// Boxes for cells `cell` world units wide (positive, and small
    /// enough that 2^31 cells stay finite); cell `(x, y)` covers
    /// `[x, x + 1] * cell` by `[y, y + 1] * cell`.
    pub fn new(cell: f32) -> Result<Self, SandError> {
        if !(cell > 0.0 && (cell * (1u64 << 31) as f32).is_finite()) {
            return Err(SandError::CellSize(cell));
        }
        Ok(Self {
            cell,
            chunks: Vec::new(),
            world: None,
            open: Vec::new(),
            runs: Vec::new(),
        })
    }

    /// Every box with the index of its chunk, chunk by chunk.
    pub fn boxes(&self) -> impl Iterator<Item = (usize, Aabb2)> + '_ {
        self.chunks
            .iter()
            .enumerate()
            .flat_map(|(c, (boxes, _))| boxes.iter().map(move |b| (c, *b)))
    }

    /// The boxes of chunk `chunk`.
    pub fn chunk(&self, chunk: usize) -> &[Aabb2] {
        self.chunks.get(chunk).map_or(&[], |(boxes, _)| boxes)
    }

    fn close(&mut self, run: Run, y1: i32, out: &mut Vec<Aabb2>) {
        let c = self.cell;
        let min = Vec2::new(run.x0 as f32 * c, run.y0 as f32 * c);
        let max = Vec2::new((run.x1 + 1) as f32 * c, (y1 + 1) as f32 * c);
        out.push(Aabb2::new(min, max).expect("cell corners are ordered and finite"));
    }
}

impl SandWorld {
    /// Rebuilds the boxes of every chunk whose cells changed since
    /// `solids` last saw it, and lists those chunks in `rebuilt` (cleared
    /// first). Static cells ([`Motion::Static`]) are solid. A game then
    /// replaces those chunks' boxes in its broad phase.
    pub fn refresh_solids(&self, solids: &mut Solids, rebuilt: &mut Vec<usize>) {
        rebuilt.clear();
        let chunks = self.chunk_count();
        if solids.chunks.len() != chunks || solids.world != Some(self.id()) {
            solids.chunks = vec![(Vec::new(), None); chunks];
            solids.world = Some(self.id());
        }
        for c in 0..chunks {
            let revision = self.revision(c);
            if solids.chunks[c].1 == Some(revision) {
                continue;
            }
            let mut boxes = std::mem::take(&mut solids.chunks[c].0);
            boxes.clear();
            self.chunk_boxes(c, solids, &mut boxes);
            solids.chunks[c] = (boxes, Some(revision));
            rebuilt.push(c);
        }
    }

    /// Chunk `c`'s static cells as rectangles: each row's runs, merged
    /// with the run of the same columns on the row below.
    fn chunk_boxes(&self, c: usize, solids: &mut Solids, out: &mut Vec<Aabb2>) {
        let r = self.chunk_rect(c);
        let mut open = std::mem::take(&mut solids.open);
        let mut runs = std::mem::take(&mut solids.runs);
        open.clear();
        for y in r.y0..=r.y1 + 1 {
            runs.clear();
            if y <= r.y1 {
                let mut x = r.x0;
                while x <= r.x1 {
                    if self.is_static(x, y) {
                        let x0 = x;
                        while x < r.x1 && self.is_static(x + 1, y) {
                            x += 1;
                        }
                        runs.push(Run { x0, x1: x, y0: y });
                    }
                    x += 1;
                }
            }
            // A run of the row below continues when this row has a run of
            // the same columns; otherwise it closes.
            for run in runs.iter_mut() {
                if let Some(k) = open.iter().position(|o| o.x0 == run.x0 && o.x1 == run.x1) {
                    run.y0 = open[k].y0;
                    open.swap_remove(k);
                }
            }
            for o in open.drain(..) {
                solids.close(o, y - 1, out);
            }
            open.extend(runs.iter().copied());
        }
        solids.open = open;
        solids.runs = runs;
    }

    fn is_static(&self, x: i32, y: i32) -> bool {
        let id = self.cell_id(x, y);
        self.materials().get(id).map(|m| m.motion()) == Ok(Motion::Static)
    }
}
