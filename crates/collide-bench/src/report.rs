//! The verdict tables a run prints after its per-case tables: our fastest
//! against the fastest peer, and `auto` against our other structures.

use crate::{Row, mib};
use collide_scenes::{Motion, SceneKind};
use std::fmt::Write as _;

/// The target a case's speed ratio (fastest peer's time over our
/// fastest's) must reach: at 10,000 and 100,000 objects, 3 with slow
/// motion and 2 otherwise. `None` where no ratio is set.
fn speed_target(n: usize, motion: Motion) -> Option<f64> {
    match (n, motion) {
        (10_000 | 100_000, Motion::Slow) => Some(3.0),
        (10_000 | 100_000, _) => Some(2.0),
        _ => None,
    }
}

/// The time limit per frame for our fastest at a million objects on
/// 2D `uniform` with slow motion, in microseconds: 30,000 on one thread,
/// 18,000 on two.
fn million_limit_us(row: &Row, threads: u32) -> Option<f64> {
    let case = (row.dim, row.scene, row.motion, row.n);
    if case
        != (
            2,
            collide_scenes::SceneKind::Uniform,
            Motion::Slow,
            1_000_000,
        )
    {
        return None;
    }
    match threads {
        1 => Some(30_000.0),
        2 => Some(18_000.0),
        _ => None,
    }
}

/// Whether `row` is a peer's row that also derives events.
fn derives_events(row: &Row) -> bool {
    crate::peers::events::Derive::split(&row.structure).is_some()
}

/// p99 within this multiple of the mean.
const P99_LIMIT: f64 = 1.5;
/// Peak memory within this multiple of the peer with the least.
const MEMORY_LIMIT: f64 = 1.5;

fn met(ok: bool) -> &'static str {
    if ok { "yes" } else { "**no**" }
}

/// One line per case: our fastest structure beside the fastest peer (its
/// candidate pairs alone), the fastest peer that also derives events (a
/// `PEER+sort` or `PEER+hash` row, when any ran) and the peer with the
/// least memory, and whether the targets are met (against the first),
/// then how many were.
pub(crate) fn targets(rows: &[Row], threads: u32) -> String {
    let case_of = |r: &Row| (r.dim, r.scene, r.motion, r.n);
    let mut cases: Vec<(usize, SceneKind, Motion, usize)> = Vec::new();
    for r in rows {
        if !cases.contains(&case_of(r)) {
            cases.push(case_of(r));
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| case | our fastest | ms | p99 / mean | × floor | MiB | fastest peer | ms | peer / ours | with events | ms | that / ours | target | speed met | least peer MiB | ours / least | memory met | p99 met |"
    );
    let _ = writeln!(
        out,
        "|---|---|---:|---:|---:|---:|---|---:|---:|---|---:|---:|---:|---|---:|---:|---|---|"
    );
    let (mut speed, mut memory, mut p99) = ((0, 0), (0, 0), (0, 0));
    for &case in &cases {
        let (dim, scene, motion, n) = case;
        let in_case = |r: &&Row| case_of(r) == case;
        let fastest = |ours: bool, events: bool| {
            rows.iter()
                .filter(in_case)
                .filter(|r| r.ours == ours && (ours || derives_events(r) == events))
                .min_by(|a, b| a.mean_us.total_cmp(&b.mean_us))
        };
        let (Some(best), Some(peer)) = (fastest(true, false), fastest(false, false)) else {
            continue;
        };
        let with_events = match fastest(false, true) {
            Some(e) => format!(
                "{} | {:.2} | {:.2}",
                e.structure,
                e.mean_us / 1000.0,
                e.mean_us / best.mean_us
            ),
            None => "— | — | —".to_string(),
        };
        let least = rows
            .iter()
            .filter(in_case)
            .filter(|r| !r.ours)
            .min_by_key(|r| r.peak_bytes)
            .expect("a peer ran");
        let ratio = peer.mean_us / best.mean_us;
        let (target, speed_ok) = match (speed_target(n, motion), million_limit_us(best, threads)) {
            (Some(t), _) => (format!("{t:.0}×"), Some(ratio >= t)),
            (None, Some(limit)) => (
                format!("< {:.0} ms", limit / 1000.0),
                Some(best.mean_us < limit),
            ),
            (None, None) => ("—".to_string(), None),
        };
        let p99_ratio = best.p99_us / best.mean_us;
        let memory_ratio = best.peak_bytes as f64 / least.peak_bytes.max(1) as f64;
        let p99_ok = p99_ratio <= P99_LIMIT;
        let memory_ok = memory_ratio <= MEMORY_LIMIT;
        if let Some(ok) = speed_ok {
            speed = (speed.0 + usize::from(ok), speed.1 + 1);
        }
        memory = (memory.0 + usize::from(memory_ok), memory.1 + 1);
        p99 = (p99.0 + usize::from(p99_ok), p99.1 + 1);
        let _ = writeln!(
            out,
            "| {dim}D {scene} {motion} {n} | {} | {:.2} | {p99_ratio:.2} | {:.0} | {:.1} | {} | {:.2} | {ratio:.2} | {with_events} | {target} | {} | {:.1} ({}) | {memory_ratio:.2} | {} | {} |",
            best.structure,
            best.mean_us / 1000.0,
            best.floor_multiple,
            mib(best.peak_bytes),
            peer.structure,
            peer.mean_us / 1000.0,
            speed_ok.map_or("—", met),
            mib(least.peak_bytes),
            least.structure,
            met(memory_ok),
            met(p99_ok),
        );
    }
    let _ = writeln!(
        out,
        "\nTargets met: speed {} of {} (where one is set), p99 within {P99_LIMIT} times the mean {} of {}, peak memory within {MEMORY_LIMIT} times the least peer's {} of {}.",
        speed.0, speed.1, p99.0, p99.1, memory.0, memory.1
    );
    out
}

/// The target for `auto`: within this multiple of the fastest other
/// structure of ours, mean per frame.
const AUTO_LIMIT: f64 = 1.15;

/// One line per case that ran `auto`: its mean per frame beside the
/// fastest other structure of ours, and whether that target is met,
/// then how many were. Empty when no case ran `auto`.
///
/// The verdict is on the rows' means (each the median run of
/// `--repeat`). Beside it, for reading a miss, the same ratio of the
/// best runs: `auto`'s fastest run over the fastest run of any other
/// structure of ours, which a stretch of noise on the machine cannot
/// raise unless it covers every run.
pub(crate) fn auto_target(rows: &[Row]) -> String {
    let case_of = |r: &Row| (r.dim, r.scene, r.motion, r.n);
    let mut out = String::new();
    let mut met_count = (0, 0);
    let mut best_met = 0;
    let mut seen = Vec::new();
    for auto in rows.iter().filter(|r| r.structure == "auto") {
        let case = case_of(auto);
        if seen.contains(&case) {
            continue;
        }
        seen.push(case);
        let others = || {
            rows.iter()
                .filter(|r| case_of(r) == case && r.ours && r.structure != "auto")
        };
        let Some(best) = others().min_by(|a, b| a.mean_us.total_cmp(&b.mean_us)) else {
            continue;
        };
        if out.is_empty() {
            let _ = writeln!(
                out,
                "| case | fastest other of ours | us/frame | auto us/frame | auto / fastest | p99 auto / fastest | within {AUTO_LIMIT}× | best runs: auto / fastest |"
            );
            let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---|---:|");
        }
        let ratio = auto.mean_us / best.mean_us;
        let ok = ratio <= AUTO_LIMIT;
        met_count = (met_count.0 + usize::from(ok), met_count.1 + 1);
        let best_run = others()
            .map(|r| r.best_mean_us)
            .fold(f64::INFINITY, f64::min);
        let best_ratio = auto.best_mean_us / best_run;
        best_met += usize::from(best_ratio <= AUTO_LIMIT);
        let (dim, scene, motion, n) = case;
        let _ = writeln!(
            out,
            "| {dim}D {scene} {motion} {n} | {} | {:.1} | {:.1} | {ratio:.2} | {:.2} | {} | {best_ratio:.2} |",
            best.structure,
            best.mean_us,
            auto.mean_us,
            auto.p99_us / best.p99_us.max(1e-9),
            met(ok),
        );
    }
    if !out.is_empty() {
        let _ = writeln!(
            out,
            "\n`auto` within {AUTO_LIMIT} times the fastest other structure of ours: {} of {} cases (by the best runs: {best_met} of {}).",
            met_count.0, met_count.1, met_count.1
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(scene: SceneKind, structure: &str, ours: bool, mean_us: f64) -> Row {
        Row {
            dim: 2,
            scene,
            motion: Motion::Slow,
            n: 100,
            frames: 2,
            structure: structure.to_owned(),
            ours,
            reference: false,
            build_us: 0.0,
            mean_us,
            best_mean_us: mean_us,
            p99_us: mean_us,
            floor_multiple: 1.0,
            peak_bytes: 0,
            pairs_last: 0,
            frames_disagreeing: 0,
            filtered: 0,
            first_disagreement: None,
        }
    }

    #[test]
    fn auto_is_compared_with_the_fastest_other_of_ours_not_with_peers() {
        let rows = [
            row(SceneKind::Uniform, "grid", true, 100.0),
            row(SceneKind::Uniform, "sap1", true, 90.0),
            row(SceneKind::Uniform, "broccoli", false, 10.0),
            row(SceneKind::Uniform, "auto", true, 103.0),
            row(SceneKind::Flat, "grid", true, 100.0),
            row(SceneKind::Flat, "auto", true, 120.0),
        ];
        let table = auto_target(&rows);
        assert!(
            table.contains("| 2D uniform slow 100 | sap1 | 90.0 | 103.0 | 1.14 |"),
            "{table}"
        );
        assert!(
            table.contains("| 2D flat slow 100 | grid | 100.0 | 120.0 | 1.20 |"),
            "{table}"
        );
        assert!(
            table.contains("1 of 2 cases (by the best runs: 1 of 2)"),
            "{table}"
        );
        assert!(auto_target(&rows[..3]).is_empty());
    }

    #[test]
    fn the_best_runs_ratio_sits_beside_the_verdict_without_changing_it() {
        // auto's median run 1.20 times grid's, its best run 1.05 times the
        // best run of any other (sap1's, though grid has the faster median).
        let with_best = |mut r: Row, best_mean_us| {
            r.best_mean_us = best_mean_us;
            r
        };
        let rows = [
            with_best(row(SceneKind::Uniform, "grid", true, 100.0), 99.0),
            with_best(row(SceneKind::Uniform, "sap1", true, 110.0), 96.0),
            with_best(row(SceneKind::Uniform, "auto", true, 120.0), 100.8),
        ];
        let table = auto_target(&rows);
        assert!(
            table.contains(
                "| 2D uniform slow 100 | grid | 100.0 | 120.0 | 1.20 | 1.20 | **no** | 1.05 |"
            ),
            "{table}"
        );
        assert!(
            table.contains("0 of 1 cases (by the best runs: 1 of 1)"),
            "{table}"
        );
    }
}
