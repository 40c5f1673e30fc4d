//! The demo's sweep-and-prune study: the measurements of a published
//! walk-through of sweep and prune (1,000 boxes in 2D over 120 frames, one
//! axis kept sorted by insertion sort), repeated on the shared scenes with
//! `sap` and `sap1`, every run checked against brute force on every frame,
//! printed beside the walk-through's figures.

use crate::measure::{RunOptions, RunReport, run};
use crate::table::{Table, micros, thousands};
use collide::{BandSap, BroadPhase, Sap, SapConfig, Spanners, Structure, Verified};
use collide_scenes::{Motion, Record, Scene, SceneConfig, SceneKind};
use glam::Vec2;

/// One line of the study: what was measured, the walk-through's figure,
/// ours.
#[derive(Clone, Debug)]
pub struct SapRow {
    pub measure: String,
    pub reference: String,
    pub ours: String,
    pub note: String,
}

/// `sap` or `sap1` (`structure`) with `config`.
fn build_sap(
    structure: Structure,
    config: SapConfig,
) -> Result<Box<dyn BroadPhase<Vec2, u64>>, String> {
    let built: Box<dyn BroadPhase<Vec2, u64>> = match structure {
        Structure::Sap => Box::new(Sap::with_config(config).map_err(|e| e.to_string())?),
        Structure::Sap1 => Box::new(BandSap::with_config(config).map_err(|e| e.to_string())?),
        other => return Err(format!("`{other}` is not a sweep-and-prune")),
    };
    Ok(built)
}

/// Runs `sap` or `sap1` (`structure`) with `config` over `frames`, checked
/// against brute force, then again unchecked for the timings.
fn run_sap(
    structure: Structure,
    config: SapConfig,
    frames: &[Vec<Record<Vec2>>],
    what: &str,
) -> Result<RunReport, String> {
    let build = || build_sap(structure, config);
    let mut checked = Verified::new(build()?).map_err(|e| e.to_string())?;
    run(structure, &mut checked, frames, RunOptions::default()).map_err(|e| e.to_string())?;
    if let Some(d) = checked.divergence() {
        return Err(format!("sweep-and-prune study, {what}: {d}"));
    }
    let mut timed = build()?;
    run(structure, &mut timed, frames, RunOptions::default()).map_err(|e| e.to_string())
}

/// Swaps an insertion sort makes per frame keeping one axis (x) of
/// endpoints sorted: the inversions between one frame's order and the next
/// frame's values, averaged over the frames after the first. Endpoints order
/// as collide's do: by value, an end before a start at equal values, then
/// by object.
fn swaps_per_frame(frames: &[Vec<Record<Vec2>>]) -> f64 {
    use std::collections::BTreeMap;
    let mut boxes: BTreeMap<u64, (f32, f32)> = BTreeMap::new();
    let mut order: Vec<(u64, bool)> = Vec::new(); // (object, is_start)
    let mut total = 0u64;
    for (f, records) in frames.iter().enumerate() {
        for r in records {
            match r {
                Record::Upsert { id, aabb } => {
                    boxes.insert(*id, (aabb.min().x, aabb.max().x));
                }
                Record::Remove { id } => {
                    boxes.remove(id);
                }
            }
        }
        let key = |&(id, start): &(u64, bool)| {
            let (lo, hi) = boxes[&id];
            (if start { lo } else { hi }, start, id)
        };
        // Last frame's order, minus removed objects, plus new ones at the end
        // (as a structure would append them before sorting).
        order.retain(|(id, _)| boxes.contains_key(id));
        let known: std::collections::BTreeSet<u64> = order.iter().map(|(id, _)| *id).collect();
        for &id in boxes.keys().filter(|id| !known.contains(id)) {
            order.push((id, true));
            order.push((id, false));
        }
        let mut keyed: Vec<(f32, bool, u64)> = order.iter().map(key).collect();
        let inversions = count_inversions(&mut keyed);
        if f > 0 {
            total += inversions;
        }
        order = keyed.iter().map(|&(_, start, id)| (id, start)).collect();
    }
    total as f64 / frames.len().saturating_sub(1).max(1) as f64
}

/// Sorts `items` (merge sort) and returns how many pairs were out of order.
fn count_inversions(items: &mut [(f32, bool, u64)]) -> u64 {
    fn less(a: &(f32, bool, u64), b: &(f32, bool, u64)) -> bool {
        a.0.total_cmp(&b.0)
            .then(a.1.cmp(&b.1))
            .then(a.2.cmp(&b.2))
            .is_lt()
    }
    let n = items.len();
    if n < 2 {
        return 0;
    }
    let (left, right) = items.split_at_mut(n / 2);
    let mut count = count_inversions(left) + count_inversions(right);
    let mut merged = Vec::with_capacity(n);
    let (mut i, mut j) = (0, 0);
    while i < left.len() && j < right.len() {
        if less(&right[j], &left[i]) {
            count += (left.len() - i) as u64;
            merged.push(right[j]);
            j += 1;
        } else {
            merged.push(left[i]);
            i += 1;
        }
    }
    merged.extend_from_slice(&left[i..]);
    merged.extend_from_slice(&right[j..]);
    items.copy_from_slice(&merged);
    count
}

/// Pairs whose intervals overlap along `axis` (the candidates a plain
/// one-axis sweep meets), averaged over the frames after the first.
fn axis_overlaps_per_frame(frames: &[Vec<Record<Vec2>>], axis: usize) -> f64 {
    use std::collections::BTreeMap;
    let mut boxes: BTreeMap<u64, (f32, f32)> = BTreeMap::new();
    let (mut total, mut sorted, mut mins) = (0u64, Vec::new(), Vec::new());
    for (f, records) in frames.iter().enumerate() {
        for r in records {
            match r {
                Record::Upsert { id, aabb } => {
                    boxes.insert(*id, (aabb.min()[axis], aabb.max()[axis]));
                }
                Record::Remove { id } => {
                    boxes.remove(id);
                }
            }
        }
        if f == 0 {
            continue;
        }
        total += overlapping_intervals(boxes.values().copied(), &mut sorted, &mut mins);
    }
    total as f64 / frames.len().saturating_sub(1).max(1) as f64
}

/// Pairs of `intervals` (min, max) that overlap, each counted once: in
/// order of their mins, each interval meets the later ones that start
/// before it ends (ties in the min counted from the earlier in that order).
fn overlapping_intervals(
    intervals: impl Iterator<Item = (f32, f32)>,
    sorted: &mut Vec<(f32, f32)>,
    mins: &mut Vec<f32>,
) -> u64 {
    sorted.clear();
    sorted.extend(intervals);
    sorted.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    mins.clear();
    mins.extend(sorted.iter().map(|i| i.0));
    sorted
        .iter()
        .enumerate()
        .map(|(k, &(_, hi))| mins.partition_point(|&m| m < hi).saturating_sub(k + 1) as u64)
        .sum()
}

fn frames_of(kind: SceneKind, motion: Motion, n: usize, frames: usize) -> Vec<Vec<Record<Vec2>>> {
    Scene::<Vec2>::new(SceneConfig {
        motion,
        ..SceneConfig::new(kind, n)
    })
    .take_frames(frames)
}

/// Runs the study on `n` objects for `frames` frames.
pub fn sap_study(n: usize, frames: usize) -> Result<Vec<SapRow>, String> {
    let plain = SapConfig::default();
    let fixed = |axis| SapConfig {
        sweep_axis: Some(axis),
        ..plain
    };
    let per_frame = |r: &RunReport, total: u64| r.per_frame(total);
    let mut rows = Vec::new();

    let uniform = frames_of(SceneKind::Uniform, Motion::Slow, n, frames);
    let one_axis = run_sap(Structure::Sap1, fixed(0), &uniform, "uniform, x")?;
    let banded = run_sap(
        Structure::Sap1,
        SapConfig::default(),
        &uniform,
        "uniform, bands",
    )?;
    let exact = run_sap(Structure::Sap, SapConfig::default(), &uniform, "uniform")?;
    rows.push(SapRow {
        measure: "uniform: one-axis (x) candidates per frame".into(),
        reference: "13,188".into(),
        ours: thousands(axis_overlaps_per_frame(&uniform, 0)),
        note: format!(
            "as a plain sweep meets them; sap1 along x in bands: {} us/step; by variance (the default): {} candidates, {} us/step",
            micros(one_axis.mean_step_micros()),
            thousands(per_frame(&banded, banded.candidates_tested)),
            micros(banded.mean_step_micros())
        ),
    });
    rows.push(SapRow {
        measure: "uniform: true pairs per frame".into(),
        reference: "409".into(),
        ours: thousands(per_frame(&exact, exact.pair_sum)),
        note: "both axes: exactly the pairs".into(),
    });

    let flat = frames_of(SceneKind::Flat, Motion::Slow, n, frames);
    let good = run_sap(Structure::Sap1, fixed(0), &flat, "flat, x")?;
    let bad = run_sap(Structure::Sap1, fixed(1), &flat, "flat, y")?;
    let chosen = run_sap(Structure::Sap1, plain, &flat, "flat, auto")?;
    let (along_x, along_y) = (
        axis_overlaps_per_frame(&flat, 0),
        axis_overlaps_per_frame(&flat, 1),
    );
    let ratio = along_y / along_x.max(1.0);
    rows.push(SapRow {
        measure: "flat: candidates sweeping x (good) / y (bad)".into(),
        reference: "22 times".into(),
        ours: format!(
            "{} / {} ({ratio:.0} times)",
            thousands(along_x),
            thousands(along_y),
        ),
        note: format!(
            "as a plain sweep meets them; sap1 along x / y in bands: {} / {} us/step; by variance sap1 picks x: {} candidates",
            micros(good.mean_step_micros()),
            micros(bad.mean_step_micros()),
            thousands(per_frame(&chosen, chosen.candidates_tested)),
        ),
    });

    let fast = frames_of(SceneKind::Uniform, Motion::Fast, n, frames);
    let endpoints = 2.0 * n as f64;
    rows.push(SapRow {
        measure: "uniform slow: swaps per frame, x kept sorted".into(),
        reference: "1,133".into(),
        ours: thousands(swaps_per_frame(&uniform)),
        note: format!(
            "a fresh sort of the {} endpoints: about {} comparisons (the walk-through: 9,965 for {n} objects)",
            thousands(endpoints),
            thousands(endpoints * endpoints.log2())
        ),
    });
    rows.push(SapRow {
        measure: "uniform fast: swaps per frame, x kept sorted".into(),
        reference: "18,132".into(),
        ours: thousands(swaps_per_frame(&fast)),
        note: "more than a fresh sort: sap and sap1 re-sort (radix) instead".into(),
    });
    rows.push(SapRow {
        measure: "uniform slow: pair changes per frame, all axes".into(),
        reference: "15".into(),
        ours: format!(
            "{:.1}",
            exact.steady_changes as f64 / exact.frames.saturating_sub(1).max(1) as f64
        ),
        note: format!(
            "sap: events straight from swaps, {} swaps/frame on both axes, {} us/step",
            thousands(per_frame(&exact, exact.maintenance_ops)),
            micros(exact.mean_step_micros())
        ),
    });

    let large = frames_of(SceneKind::Large, Motion::Slow, n, frames);
    let off = SapConfig {
        spanners: Spanners::Off,
        ..plain
    };
    let off_x = SapConfig {
        sweep_axis: Some(0),
        ..off
    };
    let with_list = run_sap(Structure::Sap1, fixed(0), &large, "large, list")?;
    let without = run_sap(Structure::Sap1, off_x, &large, "large, no list")?;
    let spanners = (n as f64 * 0.02).round();
    rows.push(SapRow {
        measure: format!("{spanners} spanning objects: candidates per frame, list / none"),
        reference: "2.5 times with none".into(),
        ours: format!(
            "{} / {} ({:.1} times)",
            thousands(per_frame(&with_list, with_list.candidates_tested)),
            thousands(per_frame(&without, without.candidates_tested)),
            without.candidates_tested as f64 / with_list.candidates_tested.max(1) as f64
        ),
        note: format!(
            "sap1 sweeping x: {} / {} us/step; compare uniform: {}",
            micros(with_list.mean_step_micros()),
            micros(without.mean_step_micros()),
            thousands(per_frame(&one_axis, one_axis.candidates_tested)),
        ),
    });
    Ok(rows)
}

/// The study as an HTML table whose last column wraps.
pub fn sap_table_html(rows: &[SapRow]) -> String {
    use crate::chart::escape;
    let mut html = String::from(
        "<div class=\"scroll\"><table class=\"study\"><colgroup><col style=\"width:28%\"><col style=\"width:14%\"><col style=\"width:18%\"><col style=\"width:40%\"></colgroup><tr><th>measure</th><th class=\"num\">reference</th><th class=\"num\">ours</th><th>how</th></tr>\n",
    );
    for row in rows {
        html.push_str(&format!(
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>\n",
            escape(&row.measure),
            escape(&row.reference),
            escape(&row.ours),
            escape(&row.note)
        ));
    }
    html.push_str("</table></div>\n");
    html
}

/// The study as a table.
pub fn describe_sap(rows: &[SapRow]) -> String {
    let mut table = Table::new(&["measure", "reference", "ours", "how"]);
    for row in rows {
        table.row(vec![
            row.measure.clone(),
            row.reference.clone(),
            row.ours.clone(),
            row.note.clone(),
        ]);
    }
    format!(
        "== sweep and prune: a published walk-through's figures (reference) beside ours (2D, slow \
         unless named; one-axis candidates counted as a plain sweep meets them), every run checked \
         against brute force ==\n{}\n",
        table.render()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_intervals_are_counted_once_ties_included() {
        let (mut sorted, mut mins) = (Vec::new(), Vec::new());
        let mut count = |intervals: &[(f32, f32)]| {
            overlapping_intervals(intervals.iter().copied(), &mut sorted, &mut mins)
        };
        // Three starting together overlap pairwise: 3 pairs, not 6.
        assert_eq!(count(&[(0.0, 2.0), (0.0, 3.0), (0.0, 1.0)]), 3);
        // Touching is not overlapping; a later start inside counts.
        assert_eq!(count(&[(0.0, 1.0), (1.0, 2.0), (1.5, 4.0)]), 1);
        assert_eq!(count(&[]), 0);
    }

    #[test]
    fn inversions_are_counted_like_insertion_sort_swaps() {
        let mut items: Vec<(f32, bool, u64)> = [3.0, 1.0, 2.0, 0.0]
            .iter()
            .enumerate()
            .map(|(i, &v)| (v, true, i as u64))
            .collect();
        assert_eq!(count_inversions(&mut items), 5);
        assert!(items.windows(2).all(|w| w[0].0 <= w[1].0));
        // At equal values an end (false) sorts before a start (true).
        let mut tie = vec![(1.0, true, 0), (1.0, false, 1)];
        assert_eq!(count_inversions(&mut tie), 1);
    }
}
