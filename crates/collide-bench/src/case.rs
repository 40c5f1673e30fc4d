//! One scene's runs: every selected implementation measured in rounds,
//! and its table rows (each implementation's median run) once all have
//! run. The rounds of a scene run together, or, with `--spread`, as
//! passes over every scene: round 1 of each scene, then round 2, and so
//! on, so that a stretch of noise on the machine (another process
//! taking a core for a minute) falls on one round of several scenes,
//! which the medians leave out, instead of on every round of one scene,
//! which they cannot.

use super::{
    BRUTE_MAX_N, BRUTE_REFERENCE_MAX_N, Check, Dim, EVENT_NAMES, PEER_NAMES, Row, Selection,
    VARIANT_NAMES, floor, measure, progress,
};
use crate::peers::events::Derive;
use collide_scenes::SceneConfig;
use std::ops::Range;

/// A scene's implementations, in the order a round runs them, with the
/// runs they have had so far, and the notes for its table.
pub(crate) struct CaseRuns {
    config: SceneConfig,
    dim: usize,
    /// The implementation whose pairs the others' are checked against.
    reference: &'static str,
    notes: Vec<String>,
    floor_us: f64,
    runs: Vec<(&'static str, Vec<Row>)>,
}

impl CaseRuns {
    /// The selected implementations for the scene `config`, none run yet;
    /// measures the scene's floor.
    pub(crate) fn plan<V: Dim>(config: SceneConfig, frames: u64, selection: Selection<'_>) -> Self {
        let reference = if config.n <= BRUTE_REFERENCE_MAX_N {
            "brute"
        } else {
            "hashgrid"
        };
        let selected = |name: &str| selection.includes(name);
        let mut notes = vec![format!("reference: `{reference}`")];
        let mut names = Vec::new();
        for &name in &collide::Structure::ALL.map(collide::Structure::name) {
            if name == "brute" && config.n > BRUTE_MAX_N {
                if selected(name) {
                    notes.push(format!("`brute` not run above n = {BRUTE_MAX_N}"));
                }
                continue;
            }
            names.push(name);
        }
        names.extend(
            VARIANT_NAMES
                .iter()
                .filter(|v| selection.named(v) && selected(v)),
        );
        let mut missing = Vec::new();
        for &name in PEER_NAMES {
            // A parallel mode runs only with more than one thread.
            let parallel = name.ends_with("-par");
            if parallel && rayon::current_num_threads() == 1 {
                continue;
            }
            if V::peer(name).is_some() {
                names.push(name);
            } else if selected(name) {
                missing.push(name);
            }
        }
        // Beside each peer that runs, or where `--only` names the row.
        let with_events: Vec<&'static str> = EVENT_NAMES
            .iter()
            .copied()
            .filter(|&name| {
                let (peer, derive) = Derive::split(name).expect("event rows name a way");
                let runs = names.contains(&peer);
                let beside = derive == Derive::Sort && selected(peer) && !selection.skips(name);
                runs && (beside || selection.named(name))
            })
            .collect();
        names.extend(with_events);
        if !missing.is_empty() {
            notes.push(format!(
                "not run in {}D (2D only): {}",
                V::DIM,
                missing.join(", ")
            ));
        }
        let floor_us = floor::<V>(config, frames);
        notes.push(format!(
            "floor (reading every box of a frame once, into an array by id): {floor_us:.1} us per frame"
        ));
        // The reference first: its run in each pass records the pairs.
        let mut runs: Vec<(&'static str, Vec<Row>)> = Vec::new();
        if selected(reference) {
            runs.push((reference, Vec::new()));
        }
        runs.extend(
            names
                .into_iter()
                // Event rows were chosen above, beside their peers.
                .filter(|&name| {
                    name != reference && (selected(name) || EVENT_NAMES.contains(&name))
                })
                .map(|name| (name, Vec::new())),
        );
        Self {
            config,
            dim: V::DIM,
            reference,
            notes,
            floor_us,
            runs,
        }
    }

    /// Runs the rounds `rounds` (of `repeat` in all): the reference first,
    /// recording every frame's pairs, then each round every implementation
    /// once, starting one place further along the list than the round
    /// before, so that none always runs first or last, or after the same
    /// neighbour. The recording run is the reference's run of round 0;
    /// in a later pass (`--spread`) it only records, and the reference
    /// runs again in its place in the round.
    pub(crate) fn run_rounds<V: Dim>(&mut self, frames: u64, rounds: Range<u32>, repeat: u32) {
        let config = self.config;
        let scene = format!(
            "{}D {} {} n={}",
            self.dim, config.kind, config.motion, config.n
        );
        progress(&format!("{scene}: {}", self.reference));
        let mut reference_pairs = Vec::with_capacity(frames as usize);
        let row = measure::<V>(
            self.reference,
            config,
            frames,
            self.floor_us,
            Check::Record(&mut reference_pairs),
        );
        if rounds.start == 0
            && let Some((_, rows)) = self.runs.iter_mut().find(|(n, _)| *n == self.reference)
        {
            rows.push(row);
        }
        let count = self.runs.len();
        for round in rounds {
            for k in 0..count {
                let (name, rows) = &mut self.runs[(k + round as usize) % count];
                if rows.len() > round as usize {
                    continue; // round 0's reference run: it recorded the pairs
                }
                progress(&format!("{scene}: {name} ({}/{repeat})", round + 1));
                rows.push(measure::<V>(
                    name,
                    config,
                    frames,
                    self.floor_us,
                    Check::Compare(&reference_pairs),
                ));
            }
        }
        progress("");
    }

    /// The table's rows, fastest first (each implementation's run with the
    /// median mean, with its fastest mean beside it), and its notes.
    /// `spread`: the rounds ran as passes over every scene.
    pub(crate) fn finish(mut self, repeat: u32, spread: bool) -> (Vec<Row>, Vec<String>) {
        if repeat > 1 {
            self.notes.push(format!(
                "each row: the median of {repeat} runs by mean, run in rounds, each round starting one place further along{}",
                if spread {
                    ", and each round a pass over every scene of the run"
                } else {
                    ""
                }
            ));
        }
        let mut rows = Vec::new();
        for (name, mut runs) in self.runs {
            runs.sort_by(|a, b| a.mean_us.total_cmp(&b.mean_us));
            let best_mean_us = runs[0].mean_us;
            let mut median = runs.swap_remove(runs.len() / 2);
            median.reference = name == self.reference;
            median.best_mean_us = best_mean_us;
            rows.push(median);
        }
        rows.sort_by(|a, b| a.mean_us.total_cmp(&b.mean_us));
        (rows, self.notes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide_scenes::SceneKind;
    use glam::Vec2;

    #[test]
    fn rounds_run_as_passes_give_every_implementation_one_run_a_round() {
        let only = ["brute", "sap1", "grid"].map(String::from);
        let selection = Selection {
            only: &only,
            skip: &[],
        };
        let config = SceneConfig::new(SceneKind::Uniform, 40);
        let mut case = CaseRuns::plan::<Vec2>(config, 3, selection);
        assert_eq!(case.reference, "brute");
        // Three passes of one round each, as `--spread --repeat 3` runs them.
        for pass in 0..3 {
            case.run_rounds::<Vec2>(3, pass..pass + 1, 3);
            for (name, runs) in &case.runs {
                assert_eq!(runs.len(), pass as usize + 1, "{name} after pass {pass}");
            }
        }
        // Only round 0's reference run is the one that recorded the pairs
        // (and ran first); in later passes it ran in its place in the
        // round, checked like the others.
        let (_, reference_runs) = &case.runs[0];
        let recorded: Vec<bool> = reference_runs.iter().map(|r| r.reference).collect();
        assert_eq!(recorded, [true, false, false]);
        let (rows, notes) = case.finish(3, true);
        let mut names: Vec<&str> = rows.iter().map(|r| r.structure.as_str()).collect();
        names.sort_unstable();
        assert_eq!(names, ["brute", "grid", "sap1"]);
        assert_eq!(rows.iter().filter(|r| r.reference).count(), 1);
        assert!(rows.iter().all(|r| r.frames_disagreeing == 0));
        assert!(
            notes.iter().any(|n| n.contains("a pass over every scene")),
            "{notes:?}"
        );
    }
}
