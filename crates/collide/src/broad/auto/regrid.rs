//! When the grid running inside `Auto` no longer fits its scene: a dense
//! or hashed grid keeps the cell size it started with (about the objects'
//! size when crowded, several times it when sparse), chosen from the
//! objects present at its first step or, for a switch spread over steps,
//! from the sample of the review that began it. A scene that changes
//! density afterwards (a hotspot forming, a level squeezed flat, a
//! cluster dispersing) leaves it with cells several times too large or
//! too small, or, for the dense grid, with objects outside its bounds in
//! the overflow list. `Auto` then rebuilds
//! the same structure, which chooses again, as it would switch (over
//! [`AutoConfig::switch_frames`](super::AutoConfig::switch_frames) steps,
//! losing no event).

use super::Auto;
use super::profile::SceneProfile;
use crate::broad::grid::{GridConfig, choose_cell_size, judge_cell_size};
use crate::broad::hosted::Hosted;
use crate::broad::structure::Structure;
use crate::geometry::{Aabb, Vector};

/// The density (see [`SceneProfile::density`]) must have changed this
/// many times, up or down, since the grid chose its cells before the cell
/// size it would choose now is worked out.
const DENSITY_CHANGE: f32 = 2.0;
/// The cells a grid runs with must be predicted to cost this many times
/// those it would choose now (the grid's own cost model: registrations
/// and tests of objects sharing a cell, on the review's sample) for a
/// rebuild: a clear gain, not the model's noise between neighbouring
/// sizes. Cells even one size off make a flattened scene's steps clearly
/// slower (figures: BENCHMARKS.md).
const COST_GAIN: f64 = 1.25;
/// More objects than this share of all in the overflow list than when
/// the grid was built: most have left its bounds.
const OVERFLOW_SHARE: usize = 8;

/// The reason `Auto` gives for a rebuild of the running grid.
pub(super) const REGRID_REASON: &str =
    "the scene's density changed: the grid rebuilt with cells that fit it";

/// What a grid running inside `Auto` was built with.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct BuiltFor {
    /// The density measured at the review that picked it.
    pub(super) density: f32,
    /// The objects in its overflow list at the first review after it
    /// chose its cells.
    pub(super) overflow: Option<usize>,
}

impl<V: Vector, T: Send> Auto<V, T> {
    /// The settings of the structure `name` that a switch builds beside
    /// the running one. A dense or hashed grid gets its cells chosen now,
    /// from the review's sample (`boxes`) as a rebuild chooses them, and
    /// not from every object at its first step, on the step it takes over
    /// (a dense one still fits its bounds to the objects then): choosing
    /// from every object made that step several times as slow as the ones
    /// before it (figures: BENCHMARKS.md). Other structures take the defaults.
    pub(super) fn settings_for_switch(&mut self, structure: Structure) -> GridConfig<V> {
        let cell_size = match structure {
            Structure::Grid | Structure::HashGrid => {
                let max_cells = GridConfig::<V>::default().max_cells_per_object;
                let n = self.values.len();
                choose_cell_size(&self.boxes, n, max_cells, &mut self.cell_scratch)
                    .map(|(size, _)| size)
            }
            _ => None,
        };
        GridConfig {
            cell_size,
            ..GridConfig::default()
        }
    }

    /// The settings to rebuild the running structure with, when it is a
    /// one-level grid whose cells no longer fit the scene `profile`
    /// measured: objects have left its bounds, or the density has changed
    /// [`DENSITY_CHANGE`] times and its cells are predicted to cost
    /// [`COST_GAIN`] times those it would choose now. A density change
    /// that leaves the cells fitting becomes the new reference, so the
    /// check runs once per change. The costs are worked out on the
    /// review's sample (`boxes`). A dense grid is rebuilt over its old
    /// bounds and the sample's (a scene that shrinks may grow back).
    pub(super) fn cells_out_of_date(&mut self, profile: &SceneProfile) -> Option<GridConfig<V>> {
        let running = self.inner.one_level_cells()?;
        let (cell, overflow) = (running.cell_size, running.overflow);
        // At the first review of a grid: the room a check needs, so that
        // one allocates nothing when it comes.
        self.cell_scratch.reserve(self.boxes.len(), V::DIM);
        let n = self.values.len();
        let overflow_then = *self.built_for.overflow.get_or_insert(overflow);
        let escaped = overflow > overflow_then + n / OVERFLOW_SHARE;
        let (now, then) = (profile.density, self.built_for.density);
        let changed = if now > 0.0 && then > 0.0 {
            now >= DENSITY_CHANGE * then || then >= DENSITY_CHANGE * now
        } else {
            now != then
        };
        if !changed && !escaped {
            return None;
        }
        self.built_for.density = now;
        let max_cells = GridConfig::<V>::default().max_cells_per_object;
        let verdict = judge_cell_size(&self.boxes, n, max_cells, cell, &mut self.cell_scratch);
        let cell_size = match verdict {
            Some(v) if escaped || v.current_cost > COST_GAIN * v.best_cost => v.best,
            None if escaped => cell,
            _ => return None,
        };
        // Bounds a grid takes (positive on every axis), else none: the
        // grid then fits them to the objects at its first step.
        let bounds = running.bounds.and_then(|old| {
            let union = self.boxes.iter().fold(old, |u, b| u.union(b));
            let grown = Aabb::new(
                V::from_axes(|a| union.min().axis(a) - cell_size),
                V::from_axes(|a| union.max().axis(a) + cell_size),
            )
            .ok()?;
            (0..V::DIM)
                .all(|a| grown.size().axis(a) > 0.0)
                .then_some(grown)
        });
        Some(GridConfig {
            cell_size: Some(cell_size),
            bounds,
            ..GridConfig::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad::auto::{AutoConfig, Choice};
    use crate::broad::contract::BroadPhase;
    use crate::broad::grid::CellSizeScratch;
    use glam::Vec2;

    #[test]
    fn a_switch_into_a_grid_brings_the_cells_chosen_at_the_review() {
        // Two agreeing reviews to switch: the review of the step after the
        // switch by hand below only notes its pick, and the `decide` call
        // (the second agreeing) begins the switch.
        let config = AutoConfig {
            review_every: 1,
            confirm: 2,
            switch_frames: 3,
        };
        let mut auto: Auto<Vec2> = Auto::with_config(config).unwrap();
        // A lattice of 3,000 boxes, 10 apart, every 3rd one 1 wide and the
        // others 4 wide.
        let mut handles = Vec::new();
        for i in 0..3_000 {
            let min = Vec2::new((i % 60) as f32 * 10.0, (i / 60) as f32 * 10.0);
            let side = if i % 3 == 0 { 1.0 } else { 4.0 };
            let aabb = Aabb::new(min, min + Vec2::splat(side)).unwrap();
            handles.push((auto.insert(aabb, ()).unwrap(), min));
        }
        auto.step();
        auto.switch_to(Structure::Sap1).unwrap();
        auto.step();
        assert_eq!(auto.current(), Structure::Sap1);
        assert_eq!(
            auto.settings_for_switch(Structure::Sap1),
            GridConfig::default()
        );
        assert_eq!(
            auto.settings_for_switch(Structure::HGrid),
            GridConfig::default()
        );

        // The review's sample, as `decide` sees it.
        let max_cells = GridConfig::<Vec2>::default().max_cells_per_object;
        let mut scratch = CellSizeScratch::default();
        let (chosen, _) = choose_cell_size(&auto.boxes, 3_000, max_cells, &mut scratch).unwrap();
        let choice = Choice {
            structure: Structure::Grid,
            reason: "test",
        };
        assert_eq!(auto.status().switching_to, None, "not begun by the review");
        auto.decide(choice, None, false);
        assert_eq!(auto.status().switching_to, Some(Structure::Grid));
        // The scene changes while the switch is under way: the cells it
        // brings are still the review's, not the scene's now.
        let mut boxes = Vec::new();
        for &(h, min) in &handles {
            let aabb = Aabb::new(min, min + Vec2::splat(7.0)).unwrap();
            auto.update(h, aabb).unwrap();
            boxes.push(aabb);
        }
        let (now, _) = choose_cell_size(&boxes, 3_000, max_cells, &mut scratch).unwrap();
        assert_ne!(
            chosen, now,
            "the scene now stands apart from the review's sample"
        );
        for _ in 0..3 {
            auto.step();
        }
        assert_eq!(auto.current(), Structure::Grid, "taken over after 3 steps");
        let cells = auto.inner.one_level_cells().expect("a one-level grid");
        assert_eq!(cells.cell_size, chosen, "the cells chosen at the review");
    }
}
