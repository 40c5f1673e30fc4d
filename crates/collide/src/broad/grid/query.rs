//! Queries on a grid: boxes (the contract's `query_aabb`), and neighbours by
//! distance, as a melee system finds what is within reach.

use super::cells::CellCoord;
use super::core::{Grid, GridKind, Place};
use crate::broad::query::{QueryBudget, QueryStats};
use crate::error::Error;
use crate::geometry::{Aabb, Region, Vector};
use crate::handle::Handle;
use crate::math;
use std::ops::ControlFlow;

impl<V: Vector, T> Grid<V, T> {
    /// Visits each object `region` hits once: the cells along it for a
    /// segment (see `ray.rs`), else the cells its bounds cover in every
    /// level (an object in several cells is reported only in the cell of
    /// the lower corner of its cells and the bounds' cells), then the
    /// objects changed since the last step and the overflow list; every
    /// object when the region has no bounds or before the first step.
    /// Breaks when `visit` does or the budget runs out (then `stats` says
    /// truncated).
    pub(crate) fn search<R: Region<V> + ?Sized>(
        &self,
        region: &R,
        budget: &QueryBudget,
        stats: &mut QueryStats,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if let Some(ray) = region.as_ray() {
            if let Some(flow) = self.search_ray(ray, budget, stats, visit) {
                return flow;
            }
        }
        let mut test = |x: u32, stats: &mut QueryStats| {
            stats.candidate(budget, region, &self.boxes[x as usize], || {
                visit(self.handle_at(x))
            })
        };
        let bounds = region.bounds();
        let (Some(bounds), false) = (bounds, self.levels.is_empty()) else {
            for (h, _) in self.objects.iter() {
                test(h.index(), stats)?;
            }
            return ControlFlow::Continue(());
        };
        // Registered objects as of the last step, unless they changed
        // since (then their registrations are stale and they are tested
        // directly below). The current box is tested; it lies in the same
        // cells as the registered one, so the registration's lowest-cell
        // bits are current for the corner rule.
        for level in &self.levels {
            let query = level.frame.range_of(&bounds);
            level.for_each_cell_in(&query, |cell, run| {
                if !stats.visit(budget) {
                    return ControlFlow::Break(());
                }
                for reg in &level.regs[run] {
                    let x = reg.object;
                    if !self.dirty[x as usize] && reg.is_corner_with(&query, cell, V::DIM) {
                        test(x, stats)?;
                    }
                }
                ControlFlow::Continue(())
            })?;
        }
        self.search_unregistered(&mut test, stats)
    }

    /// Tests the objects no cell answers for: those changed since the last
    /// step (their registrations are stale) and the overflow list.
    pub(super) fn search_unregistered(
        &self,
        test: &mut dyn FnMut(u32, &mut QueryStats) -> ControlFlow<()>,
        stats: &mut QueryStats,
    ) -> ControlFlow<()> {
        for &x in &self.dirty_list {
            if self.places[x as usize] == Place::Cells {
                test(x, stats)?;
            }
        }
        for &o in &self.overflow {
            test(o, stats)?;
        }
        ControlFlow::Continue(())
    }

    /// Visits every object whose box centre lies strictly within `radius`
    /// of `point` (an asymmetric relation, such as "who hears this sound"):
    /// all the cells around the point, a ring wider than one cell when the
    /// radius exceeds the cell size. Errors on a non-finite point or a
    /// negative or non-finite radius.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Grid};
    /// use glam::Vec2;
    /// use std::ops::ControlFlow;
    /// let mut grid: Grid<Vec2> = Grid::hashed();
    /// let near = grid.insert(Aabb2::from_center_half_extents(Vec2::new(3.0, 0.0), Vec2::ONE)?, ())?;
    /// grid.insert(Aabb2::from_center_half_extents(Vec2::new(9.0, 0.0), Vec2::ONE)?, ())?;
    /// grid.step();
    /// let mut found = Vec::new();
    /// grid.neighbours_within(Vec2::ZERO, 5.0, &mut |h| { found.push(h); ControlFlow::Continue(()) })?;
    /// assert_eq!(found, vec![near]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn neighbours_within(
        &self,
        point: V,
        radius: f32,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> Result<ControlFlow<()>, Error> {
        check_radius(radius)?;
        Aabb::from_point(point)?;
        // A centre strictly within the radius lies strictly inside `around`
        // (widened by one step of f32 on each side, so rounding `p ± r`
        // cannot land on the centre; saturated so it stays finite), and its
        // box contains it, so the box query misses no neighbour; the
        // distance test in f64 then decides.
        let around = Aabb::new(
            V::from_axes(|a| (point.axis(a) - radius).next_down().max(f32::MIN)),
            V::from_axes(|a| (point.axis(a) + radius).next_up().min(f32::MAX)),
        )?;
        let radius_sq = f64::from(radius) * f64::from(radius);
        Ok(self.search(
            &around,
            &QueryBudget::default(),
            &mut QueryStats::default(),
            &mut |h| {
                if distance_sq(self.boxes[h.index() as usize].center(), point) < radius_sq {
                    visit(h)
                } else {
                    ControlFlow::Continue(())
                }
            },
        ))
    }

    /// Visits every pair of objects whose box centres lie strictly within
    /// `radius` of each other, each pair once as (lower, higher) handle (a
    /// symmetric relation, such as melee range). On one-level grids it
    /// scans, for each object's home cell (the cell of its centre), that
    /// cell and the forward half of the surrounding ring, so each pair once;
    /// the ring widens when the radius exceeds the cell size. Sees the
    /// current boxes; pairs come in no particular order.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Grid};
    /// use glam::Vec2;
    /// use std::ops::ControlFlow;
    /// let mut grid: Grid<Vec2> = Grid::dense();
    /// let pt = |x: f32| Aabb2::from_center_half_extents(Vec2::new(x, 0.0), Vec2::ONE);
    /// let a = grid.insert(pt(0.0)?, ())?;
    /// let b = grid.insert(pt(4.0)?, ())?;
    /// grid.insert(pt(20.0)?, ())?;
    /// grid.step();
    /// let mut pairs = Vec::new();
    /// grid.pairs_within(4.5, &mut |x, y| { pairs.push((x, y)); ControlFlow::Continue(()) })?;
    /// assert_eq!(pairs, vec![(a, b)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn pairs_within(
        &self,
        radius: f32,
        visit: &mut dyn FnMut(Handle, Handle) -> ControlFlow<()>,
    ) -> Result<ControlFlow<()>, Error> {
        check_radius(radius)?;
        let ring = self.levels.first().map_or(f64::INFINITY, |l| {
            (f64::from(radius) / f64::from(l.frame.size())).ceil()
        });
        if self.kind == GridKind::Hierarchical || !self.dirty_list.is_empty() || ring > MAX_RING {
            // Across levels, with registrations out of date since the last
            // step, or with a radius of many cells: one neighbour query per
            // object.
            return Ok(self.pairs_within_by_queries(radius, visit));
        }
        Ok(self.pairs_within_cells(radius, visit))
    }

    /// `pairs_within` on a one-level grid, by home cells and half rings.
    fn pairs_within_cells(
        &self,
        radius: f32,
        visit: &mut dyn FnMut(Handle, Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let level = &self.levels[0];
        let frame = &level.frame;
        let radius_sq = f64::from(radius) * f64::from(radius);
        let home = |i: u32| frame.cell_of(self.boxes[i as usize].center());
        let ring = (f64::from(radius) / f64::from(frame.size()))
            .ceil()
            .clamp(1.0, MAX_RING) as i32;
        let mut emit = |a: u32, b: u32| -> ControlFlow<()> {
            let (ca, cb) = (
                self.boxes[a as usize].center(),
                self.boxes[b as usize].center(),
            );
            if distance_sq(ca, cb) < radius_sq {
                let (ha, hb) = (self.handle_at(a), self.handle_at(b));
                visit(ha.min(hb), ha.max(hb))
            } else {
                ControlFlow::Continue(())
            }
        };
        for run in level.runs() {
            let cell_key = level.regs[run.start].key;
            let objects = &level.regs[run.clone()];
            for (k, a_reg) in objects.iter().enumerate() {
                let a = a_reg.object;
                let c = home(a);
                if level.key(c) != cell_key {
                    continue; // a is homed elsewhere
                }
                for b_reg in &objects[k + 1..] {
                    if home(b_reg.object) == c {
                        emit(a, b_reg.object)?;
                    }
                }
                for_each_forward_offset(V::DIM, ring, |offset| {
                    let Some(other) = add(c, offset).filter(|o| level.in_lattice(*o)) else {
                        return ControlFlow::Continue(());
                    };
                    for b_reg in &level.regs[level.run(level.key(other))] {
                        if home(b_reg.object) == other {
                            emit(a, b_reg.object)?;
                        }
                    }
                    ControlFlow::Continue(())
                })?;
            }
        }
        // Overflow objects have no home cell: query around each, keeping
        // pairs with celled objects, and with later overflow objects.
        for (k, &o) in self.overflow.iter().enumerate() {
            let centre = self.boxes[o as usize].center();
            self.neighbours_within(centre, radius, &mut |h| {
                let x = h.index();
                let later = match self.places[x as usize] {
                    Place::Overflow(at) => at as usize > k,
                    _ => true,
                };
                if x != o && later {
                    emit(o, x)
                } else {
                    ControlFlow::Continue(())
                }
            })
            .expect("centres of valid boxes and a checked radius are valid")?;
        }
        ControlFlow::Continue(())
    }

    /// `pairs_within` by one neighbour query per object, keeping each pair
    /// from its lower handle (used across the levels of `hgrid`).
    fn pairs_within_by_queries(
        &self,
        radius: f32,
        visit: &mut dyn FnMut(Handle, Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for (h, _) in self.objects.iter() {
            let centre = self.boxes[h.index() as usize].center();
            let flow = self.neighbours_within(centre, radius, &mut |other| {
                if h < other {
                    visit(h, other)
                } else {
                    ControlFlow::Continue(())
                }
            });
            flow.expect("centres of valid boxes and a checked radius are valid")?;
        }
        ControlFlow::Continue(())
    }
}

fn check_radius(radius: f32) -> Result<(), Error> {
    if radius.is_finite() && radius >= 0.0 {
        Ok(())
    } else {
        Err(Error::Setting {
            name: "radius",
            value: f64::from(radius),
            expected: "a finite distance of 0 or more",
        })
    }
}

fn distance_sq<V: Vector>(a: V, b: V) -> f64 {
    (0..V::DIM)
        .map(|i| math::powi(f64::from(a.axis(i)) - f64::from(b.axis(i)), 2))
        .sum()
}

/// `c + d`, or `None` past the ends of `i32`.
fn add(c: CellCoord, d: CellCoord) -> Option<CellCoord> {
    Some([
        c[0].checked_add(d[0])?,
        c[1].checked_add(d[1])?,
        c[2].checked_add(d[2])?,
    ])
}

/// Radii wider than this many cells use one neighbour query per object
/// instead of scanning rings (whose size grows as the ring^D).
const MAX_RING: f64 = 4.0;

/// Calls `f` with each offset of the ring of `ring` cells around a cell
/// that comes after it in (z, y, x) order: half the neighbourhood, so each
/// pair of home cells is visited once. Allocates nothing.
fn for_each_forward_offset(
    dim: usize,
    ring: i32,
    mut f: impl FnMut(CellCoord) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let span = |axis: usize| if axis < dim { -ring..=ring } else { 0..=0 };
    for z in span(2) {
        for y in span(1) {
            for x in span(0) {
                if (z, y, x) > (0, 0, 0) {
                    f([x, y, z])?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forward_offsets(dim: usize, ring: i32) -> Vec<CellCoord> {
        let mut out = Vec::new();
        let _ = for_each_forward_offset(dim, ring, |o| {
            out.push(o);
            ControlFlow::Continue(())
        });
        out
    }

    #[test]
    fn forward_offsets_are_half_the_ring() {
        assert_eq!(forward_offsets(2, 1).len(), 4); // the forward half: four of eight
        assert_eq!(forward_offsets(3, 1).len(), 13);
        assert_eq!(forward_offsets(2, 2).len(), 12);
        let all = forward_offsets(2, 2);
        for o in &all {
            assert!(
                !all.contains(&[-o[0], -o[1], -o[2]]),
                "{o:?} and its mirror"
            );
        }
    }
}
