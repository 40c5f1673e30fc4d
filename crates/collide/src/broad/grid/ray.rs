//! Rays through a grid: the cells along the segment, row by row, instead of
//! every cell of its bounding box.
//!
//! In each level, every row of cells (fixed y, and z in 3D) near the
//! segment is visited over the x-range the segment crosses there, widened
//! by `margin` cells on every side: so every cell within `margin` cells of
//! the segment is visited, once. An object is reported only in the cell it
//! claims: the cell of the point where the ray enters it, clamped into the
//! object's own cells. The exact entry point lies on the segment and in the
//! object's cells; the computed one is off by the rounding of f32 points
//! (`slack`), so the claimed cell is within `margin = ceil(slack / size)`
//! cells (at least 1) of a cell the segment crosses: it is visited, and
//! only it reports the object. Cost: about `(2 margin + 1)^(D-1)` times the
//! cells the segment crosses (usually `margin` is 1), each row one binary
//! search; the walk is taken only when that is under half the cells of the
//! segment's bounding box (long diagonal segments), else the box is.

use super::cells::{CellCoord, CellFrame};
use super::core::Grid;
use crate::broad::query::{QueryBudget, QueryStats};
use crate::geometry::{Ray, Vector};
use crate::handle::Handle;
use crate::math;
use std::ops::ControlFlow;

/// Widest margin (in cells) worth walking; beyond it (coordinates far
/// larger than the cells) the box-bounds path is used.
const MAX_MARGIN: i32 = 6;

impl<V: Vector, T> Grid<V, T> {
    /// The ray form of [`Grid::search`], for a segment (finite `max_t`);
    /// `None` when the walk does not apply (no levels, an endless ray, or
    /// coordinates too large for the cells), and the caller uses the box
    /// path.
    pub(super) fn search_ray(
        &self,
        ray: &Ray<V>,
        budget: &QueryBudget,
        stats: &mut QueryStats,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> Option<ControlFlow<()>> {
        if self.levels.is_empty() || !ray.max_t().is_finite() {
            return None;
        }
        let d = V::DIM;
        let (o, dir, tmax) = (ray.origin(), ray.direction(), f64::from(ray.max_t()));
        let start: [f64; 3] =
            std::array::from_fn(|a| if a < d { f64::from(o.axis(a)) } else { 0.0 });
        let step: [f64; 3] =
            std::array::from_fn(|a| if a < d { f64::from(dir.axis(a)) } else { 0.0 });
        let end: [f64; 3] = std::array::from_fn(|a| start[a] + tmax * step[a]);
        let magnitude = (0..d)
            .map(|a| start[a].abs().max(end[a].abs()))
            .fold(0.0f64, f64::max);
        // Rounding of f32 points along the ray, in world units.
        let slack = 16.0 * f64::from(f32::EPSILON) * magnitude;
        // Per level: the band's half-width in cells.
        let margin_of = |size: f64| (slack / size).ceil().max(1.0);
        // Every cell the walk may touch must be a real cell: outermost
        // cells stretch to infinity (saturation) and the walk's windows do
        // not, so near the ends of the lattice the box path is used.
        let limit = f64::from(CellFrame::limit(d)) / 2.0;
        let (mut walked, mut boxed) = (0.0f64, 0.0f64);
        for level in &self.levels {
            let size = f64::from(level.frame.size());
            let margin = margin_of(size);
            if margin.is_nan() || margin > f64::from(MAX_MARGIN) {
                return None;
            }
            for a in 0..d {
                let lo = level.frame.cell_index_f64(start[a].min(end[a]), a);
                let hi = level.frame.cell_index_f64(start[a].max(end[a]), a);
                if !(lo - margin > -limit && hi + margin < limit) {
                    return None;
                }
            }
            // Cells each path visits, roughly: the band along the segment,
            // or every cell of its bounding box.
            let cells = |a: usize| (end[a] - start[a]).abs() / size + 1.0;
            let longest = (0..d).map(cells).fold(0.0f64, f64::max);
            walked += math::powi(2.0 * margin + 1.0, d as i32 - 1) * (longest + 2.0 * margin);
            boxed += (0..d).map(cells).product::<f64>();
        }
        if walked * 2.0 > boxed {
            return None; // a short or axis-aligned segment: the box is cheaper
        }
        let flow = (|| {
            for level in &self.levels {
                let frame = &level.frame;
                let size = f64::from(frame.size());
                let m = margin_of(size);
                let margin = m as i32;
                // Within the guard above, so plain i32 cells.
                let cell = |x: f64, a: usize| frame.cell_index_f64(x, a) as i32;
                // The t-interval in which the segment is within `margin`
                // cells of cell row `c` on axis `a`, within [t0, t1].
                let slab = |a: usize, c: i32, (t0, t1): (f64, f64)| -> (f64, f64) {
                    let (w0, w1) = (
                        frame.cell_start(c - margin, a),
                        frame.cell_start(c + margin + 1, a),
                    );
                    if step[a] == 0.0 {
                        if start[a] < w0 || start[a] > w1 {
                            (1.0, 0.0)
                        } else {
                            (t0, t1)
                        }
                    } else {
                        let (ta, tb) = ((w0 - start[a]) / step[a], (w1 - start[a]) / step[a]);
                        (t0.max(ta.min(tb)), t1.min(ta.max(tb)))
                    }
                };
                // The cells on axis `a` the segment spans over [t0, t1],
                // widened by the margin.
                let span = |a: usize, (t0, t1): (f64, f64)| {
                    let (p, q) = (start[a] + t0 * step[a], start[a] + t1 * step[a]);
                    (cell(p.min(q) - m * size, a), cell(p.max(q) + m * size, a))
                };
                let whole = (0.0f64, tmax);
                let (y0, y1) = span(1, whole);
                for y in y0..=y1 {
                    let in_y = slab(1, y, whole);
                    if in_y.0 > in_y.1 {
                        continue;
                    }
                    // In 3D only the z rows the segment nears while in this
                    // y row, so the rows visited follow the segment.
                    let (z0, z1) = if d == 3 { span(2, in_y) } else { (0, 0) };
                    for z in z0..=z1 {
                        let near = if d == 3 { slab(2, z, in_y) } else { in_y };
                        if near.0 > near.1 {
                            continue;
                        }
                        let (x0, x1) = span(0, near);
                        level.for_each_cell_in_row(x0, x1, y, z, |here, run| {
                            if !stats.visit(budget) {
                                return ControlFlow::Break(());
                            }
                            for reg in &level.regs[run] {
                                let x = reg.object;
                                if self.dirty[x as usize] {
                                    continue;
                                }
                                if !stats.test(budget) {
                                    return ControlFlow::Break(());
                                }
                                let aabb = &self.boxes[x as usize];
                                let Some(t) = ray.entry(aabb) else {
                                    continue;
                                };
                                let claim: CellCoord = {
                                    // The entry point, in f64 (no overflow).
                                    let point = V::from_axes(|a| {
                                        let x = start[a] + f64::from(t) * step[a];
                                        x.clamp(f64::from(f32::MIN), f64::from(f32::MAX)) as f32
                                    });
                                    let p = frame.cell_of(point);
                                    let own = frame.range_of(aabb);
                                    std::array::from_fn(|a| p[a].clamp(own.min[a], own.max[a]))
                                };
                                if claim == here {
                                    stats.hits += 1;
                                    visit(self.handle_at(x))?;
                                }
                            }
                            ControlFlow::Continue(())
                        })?;
                    }
                }
            }
            let mut test = |x: u32, stats: &mut QueryStats| {
                stats.candidate(budget, ray, &self.boxes[x as usize], || {
                    visit(self.handle_at(x))
                })
            };
            self.search_unregistered(&mut test, stats)
        })();
        Some(flow)
    }
}
