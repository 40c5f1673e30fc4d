//! What a run writes besides its tables: the document it prints, kept so
//! that `--write FILE --section NAME` can put it into BENCHMARKS.md between
//! that section's markers, and the table of issue 8's targets.

use crate::{Row, mib};
use collide::scene::{Motion, SceneKind};
use std::fmt::Write as _;
use std::path::Path;

/// The run's document: printed as it grows, and kept.
#[derive(Default)]
pub(crate) struct Doc {
    text: String,
}

impl Doc {
    /// Prints `text` and keeps it.
    pub(crate) fn put(&mut self, text: &str) {
        print!("{text}");
        self.text.push_str(text);
    }

    /// Prints `text` and a line break, and keeps them.
    pub(crate) fn line(&mut self, text: &str) {
        self.put(text);
        self.put("\n");
    }

    /// What was printed.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }
}

/// The marker lines of section `name` in BENCHMARKS.md.
fn markers(name: &str) -> (String, String) {
    (
        format!("<!-- collide-bench section {name}: begin -->"),
        format!("<!-- collide-bench section {name}: end -->"),
    )
}

/// Replaces what lies between section `name`'s markers in `path` with
/// `body`, its headings moved three levels down (the run's `#` becomes
/// `####`), so it sits under the file's own `###` headings.
pub(crate) fn splice(path: &Path, name: &str, body: &str) -> Result<(), String> {
    let file = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let (begin, end) = markers(name);
    let missing = || {
        format!(
            "{} has no section `{name}`: put the two lines\n{begin}\n{end}\nwhere it goes",
            path.display()
        )
    };
    let start = file.find(&begin).ok_or_else(missing)? + begin.len();
    let stop = start + file[start..].find(&end).ok_or_else(missing)?;
    let mut shifted = String::new();
    for line in body.lines() {
        if line.starts_with('#') {
            shifted.push_str("###");
        }
        shifted.push_str(line);
        shifted.push('\n');
    }
    let spliced = format!("{}\n{}{}", &file[..start], shifted, &file[stop..]);
    std::fs::write(path, spliced).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The target a case's speed ratio (fastest peer's time over our
/// fastest's) must reach, from issue 8: at 10,000 and 100,000 objects, 3
/// with slow motion and 2 otherwise. `None` where the issue sets no ratio.
fn speed_target(n: usize, motion: Motion) -> Option<f64> {
    match (n, motion) {
        (10_000 | 100_000, Motion::Slow) => Some(3.0),
        (10_000 | 100_000, _) => Some(2.0),
        _ => None,
    }
}

/// Issue 8's time limit per frame for our fastest at a million objects on
/// 2D `uniform` with slow motion, in microseconds: 30 ms on one thread,
/// 18 ms on two.
fn million_limit_us(row: &Row, threads: u32) -> Option<f64> {
    let case = (row.dim, row.scene, row.motion, row.n);
    if case
        != (
            2,
            collide::scene::SceneKind::Uniform,
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

/// p99 within this multiple of the mean.
const P99_LIMIT: f64 = 1.5;
/// Peak memory within this multiple of the peer with the least.
const MEMORY_LIMIT: f64 = 1.5;

fn met(ok: bool) -> &'static str {
    if ok { "yes" } else { "**no**" }
}

/// One line per case: our fastest structure beside the fastest peer and
/// the peer with the least memory, and whether issue 8's targets are met,
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
        "| case | our fastest | ms | p99 / mean | × floor | MiB | fastest peer | ms | peer / ours | target | speed met | least peer MiB | ours / least | memory met | p99 met |"
    );
    let _ = writeln!(
        out,
        "|---|---|---:|---:|---:|---:|---|---:|---:|---:|---|---:|---:|---|---|"
    );
    let (mut speed, mut memory, mut p99) = ((0, 0), (0, 0), (0, 0));
    for &case in &cases {
        let (dim, scene, motion, n) = case;
        let in_case = |r: &&Row| case_of(r) == case;
        let fastest = |ours: bool| {
            rows.iter()
                .filter(in_case)
                .filter(|r| r.ours == ours)
                .min_by(|a, b| a.mean_us.total_cmp(&b.mean_us))
        };
        let (Some(best), Some(peer)) = (fastest(true), fastest(false)) else {
            continue;
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
            "| {dim}D {scene} {motion} {n} | {} | {:.2} | {p99_ratio:.2} | {:.0} | {:.1} | {} | {:.2} | {ratio:.2} | {target} | {} | {:.1} ({}) | {memory_ratio:.2} | {} | {} |",
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
        "\nTargets met: speed {} of {} (where the issue sets one), p99 within {P99_LIMIT} times the mean {} of {}, peak memory within {MEMORY_LIMIT} times the least peer's {} of {}.",
        speed.0, speed.1, p99.0, p99.1, memory.0, memory.1
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splice_replaces_only_the_named_section_and_moves_headings_down() {
        let dir = std::env::temp_dir().join(format!("collide-bench-splice-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("B.md");
        let (b1, e1) = markers("one");
        let (b2, e2) = markers("two");
        std::fs::write(
            &path,
            format!("# Top\n{b1}\nold\n{e1}\nkept\n{b2}\nother\n{e2}\n"),
        )
        .unwrap();
        splice(&path, "one", "# Run\n| a |\n").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            format!("# Top\n{b1}\n#### Run\n| a |\n{e1}\nkept\n{b2}\nother\n{e2}\n")
        );
        let error = splice(&path, "three", "x").unwrap_err();
        assert!(error.contains("no section `three`"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
