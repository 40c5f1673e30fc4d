//! `collide bench`: our structures on a chosen subset of the shared scenes,
//! timed frame by frame, with a progress bar; a table per scene on standard
//! output, every run in a CSV file, and charts in an HTML page.
//!
//! Each structure's event stream is compared on every frame with a
//! reference's (brute force up to [`BRUTE_REFERENCE_MAX_N`] objects, the
//! hashed grid above, itself tested against brute force in the test suite),
//! in the same run that is timed: the comparison happens after each timed
//! frame. The Rust peers (parry, rstar, broccoli, ...) are measured beside
//! ours by the separate `crates/collide-bench`, which keeps them out of this
//! build.

use crate::load::{LoadWatch, stall_warnings};
use crate::measure::{RunOptions, RunReport, run_structure};
use crate::report::{SceneResult, write_bench_report};
use crate::table::{Table, micros, thousands};
use clap::Parser;
use collide::{Aabb, Structure, Vector};
use collide_scenes::{Motion, Record, Scene, SceneConfig, SceneKind, SceneStats};
use glam::{Vec2, Vec3};
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

/// Up to this many objects the reference is `brute`, above it `hashgrid`.
pub const BRUTE_REFERENCE_MAX_N: usize = 2_000;

/// Arguments of `collide bench`.
#[derive(Parser, Debug, Clone)]
pub struct BenchArgs {
    /// Dimensions (2, 3); comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [2], value_parser = clap::value_parser!(u32).range(2..=3))]
    pub dim: Vec<u32>,
    /// Scene kinds (uniform, flat, clustered, large, elongated, huge,
    /// sparse, and those that change character); comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [SceneKind::Uniform])]
    pub scene: Vec<SceneKind>,
    /// Motions (slow, fast, teleport, churn, resting); comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [Motion::Slow, Motion::Fast])]
    pub motion: Vec<Motion>,
    /// Numbers of moving objects; comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [10_000], value_parser = crate::record::parse_count)]
    pub n: Vec<usize>,
    /// Frames per scene, frame 0 (the build) included.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(2..=1_000_000))]
    pub frames: u32,
    /// Only these structures (comma-separated names); default: all but
    /// `brute`. The reference runs in any case, to check them.
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
    /// Also write every run to this CSV file.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Where to write the HTML page of charts.
    #[arg(long, default_value = "collide-report/bench.html")]
    pub out: PathBuf,
    /// Skip the HTML page.
    #[arg(long)]
    pub no_report: bool,
    /// Threads our structures may step on (a rayon pool of this size;
    /// all but `sap` and `brute` split large steps across it). The default, 1, times them
    /// single-threaded.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: u32,
}

/// One structure's run on one scene.
#[derive(Clone, Debug)]
pub struct BenchRow {
    pub dim: usize,
    pub scene: SceneKind,
    pub motion: Motion,
    pub n: usize,
    pub reference: Structure,
    pub report: RunReport,
}

/// Why `collide bench` stopped: the message and the exit status (2 for bad
/// arguments, 1 for a structure that disagreed or a file not written).
#[derive(Debug)]
pub struct BenchFailure {
    pub message: String,
    pub status: u8,
}

/// Runs `collide bench`, printing tables to `out`.
pub fn bench(args: &BenchArgs, out: &mut dyn Write) -> Result<(), BenchFailure> {
    let mut only = Vec::new();
    for name in &args.only {
        match name.parse::<Structure>() {
            Ok(structure) => only.push(structure),
            Err(_) => {
                return Err(BenchFailure {
                    message: format!(
                        "unknown structure `{name}` in --only; expected some of: {}",
                        crate::structure_list()
                    ),
                    status: 2,
                });
            }
        }
    }
    let selected: Vec<Structure> = Structure::ALL
        .into_iter()
        .filter(|&structure| {
            if only.is_empty() {
                structure != Structure::Brute
            } else {
                only.contains(&structure)
            }
        })
        .collect();
    let cases: Vec<(u32, SceneKind, Motion, usize)> = args
        .dim
        .iter()
        .flat_map(|&d| {
            args.scene.iter().flat_map(move |&k| {
                args.motion
                    .iter()
                    .flat_map(move |&m| args.n.iter().map(move |&n| (d, k, m, n)))
            })
        })
        .collect();
    let _ = writeln!(
        out,
        "collide bench: {} scene(s), {} frames each, structures: {}, {} thread(s)\n\
         timed per frame: the frame's inserts, moves and removes plus the step (us/step: the \
         step alone); each figure is one run per structure and scene, its mean and p99 \
         over the {} frames from frame 1 on (frame 0 builds: \"build us\"); every frame's \
         events compared with the reference's\n",
        cases.len(),
        args.frames,
        selected
            .iter()
            .map(|s| s.name())
            .collect::<Vec<_>>()
            .join(", "),
        args.threads,
        args.frames - 1,
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads as usize)
        .build()
        .map_err(|e| BenchFailure {
            message: format!("cannot start {} threads: {e}", args.threads),
            status: 1,
        })?;
    // On standard error, hidden when it is not a terminal.
    let bar = ProgressBar::new((cases.len() * (selected.len() + 1)) as u64).with_style(
        ProgressStyle::with_template("{msg:>28} [{bar:30}] {pos}/{len} runs {elapsed}")
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    let (mut rows, mut scenes) = (Vec::new(), Vec::new());
    let mut load = LoadWatch::start(args.threads as usize);
    for (dim, kind, motion, n) in cases {
        let config = SceneConfig {
            motion,
            ..SceneConfig::new(kind, n)
        };
        bar.set_message(format!("{dim}D {kind} {motion} n={n}"));
        let (case_rows, scene) = match dim {
            2 => run_case::<Vec2>(config, args.frames as usize, &selected, &pool, &bar)?,
            _ => run_case::<Vec3>(config, args.frames as usize, &selected, &pool, &bar)?,
        };
        bar.suspend(|| {
            let _ = write!(out, "{}", describe(&case_rows));
        });
        rows.extend(case_rows);
        scenes.push(scene);
        load.sample();
    }
    bar.finish_and_clear();
    let reports: Vec<RunReport> = rows.iter().map(|r| r.report.clone()).collect();
    let warnings: Vec<String> = load
        .warning()
        .into_iter()
        .chain(stall_warnings(&reports))
        .collect();
    for warning in &warnings {
        let _ = writeln!(out, "{warning}");
    }
    if let Some(path) = &args.csv {
        std::fs::write(path, csv(&rows)).map_err(|e| BenchFailure {
            message: format!("cannot write `{}`: {e}", path.display()),
            status: 1,
        })?;
        let _ = writeln!(out, "csv: {} ({} rows)", path.display(), rows.len());
    }
    if !args.no_report {
        let path = write_bench_report(&args.out, &scenes, &warnings).map_err(|e| BenchFailure {
            message: format!("cannot write the report `{}`: {e}", args.out.display()),
            status: 1,
        })?;
        let _ = writeln!(out, "report: {}", path.display());
    }
    Ok(())
}

/// Runs the reference and then every selected structure on one scene, each
/// inside `pool`.
fn run_case<V: Vector>(
    config: SceneConfig,
    frames: usize,
    selected: &[Structure],
    pool: &rayon::ThreadPool,
    bar: &ProgressBar,
) -> Result<(Vec<BenchRow>, SceneResult), BenchFailure> {
    let mut scene = Scene::<V>::new(config);
    let side = scene.world_side();
    let boxes: Vec<Aabb<V>> = scene.objects().map(|(_, b)| b).collect();
    let stats = SceneStats::measure(&boxes);
    let recorded: Vec<Vec<Record<V>>> = scene.take_frames(frames);
    let label = format!(
        "{}D {} {} n={}",
        V::DIM,
        config.kind,
        config.motion,
        config.n
    );
    let reference = if config.n <= BRUTE_REFERENCE_MAX_N {
        Structure::Brute
    } else {
        Structure::HashGrid
    };
    let options = RunOptions {
        keep_events: true,
        ..RunOptions::default()
    };
    let failed = |e: collide_scenes::RunError| BenchFailure {
        message: format!("{label}: {e}"),
        status: 1,
    };
    let run = |structure: Structure| pool.install(|| run_structure(structure, &recorded, options));
    let expected = run(reference).map_err(failed)?;
    bar.inc(1);
    let mut rows = Vec::new();
    for &name in selected {
        let report = if name == reference {
            expected.clone()
        } else {
            run(name).map_err(failed)?
        };
        if let Some(frame) = first_difference(&report, &expected) {
            return Err(BenchFailure {
                message: format!(
                    "{label}: `{name}`'s events differ from the reference `{reference}`'s at frame {frame}"
                ),
                status: 1,
            });
        }
        rows.push(BenchRow {
            dim: V::DIM,
            scene: config.kind,
            motion: config.motion,
            n: config.n,
            reference,
            report: RunReport {
                events: Vec::new(),
                ..report
            },
        });
        bar.inc(1);
    }
    let result = SceneResult {
        label,
        side,
        stats,
        reports: rows.iter().map(|r| r.report.clone()).collect(),
    };
    Ok((rows, result))
}

/// The first frame whose events differ, if any.
fn first_difference(got: &RunReport, want: &RunReport) -> Option<usize> {
    if got.events == want.events {
        return None;
    }
    let frame = got
        .events
        .iter()
        .zip(&want.events)
        .find(|(a, b)| a != b)
        .map(|(a, b)| a.0.min(b.0));
    // Otherwise one stream is a prefix of the other: the first frame past
    // the shorter one.
    Some(frame.unwrap_or_else(|| {
        let shorter = got.events.len().min(want.events.len());
        got.events
            .get(shorter)
            .or(want.events.get(shorter))
            .map_or(0, |e| e.0)
    }))
}

/// The table of one scene.
fn describe(rows: &[BenchRow]) -> String {
    let Some(first) = rows.first() else {
        return String::new();
    };
    let mut text = format!(
        "== {}D {} {}, n = {}: events checked against `{}` on every frame ==\n",
        first.dim, first.scene, first.motion, first.n, first.reference
    );
    let mut table = Table::new(&[
        "structure",
        "us/frame",
        "p99 us/frame",
        "us/step",
        "build us",
        "pairs/frame",
    ]);
    let mut sorted: Vec<&BenchRow> = rows.iter().collect();
    sorted.sort_by(|a, b| {
        a.report
            .steady_frame_micros()
            .0
            .total_cmp(&b.report.steady_frame_micros().0)
    });
    for row in sorted {
        let (mean, p99) = row.report.steady_frame_micros();
        let r = &row.report;
        table.row(vec![
            r.structure.to_string(),
            micros(mean),
            micros(p99),
            micros(r.steady_step_micros()),
            micros(r.frame_micros.first().copied().unwrap_or(0.0)),
            thousands(r.per_frame(r.pair_sum)),
        ]);
    }
    text.push_str(&table.render());
    text.push('\n');
    text
}

/// Every run as a CSV row.
pub fn csv(rows: &[BenchRow]) -> String {
    let mut text = String::from(
        "dim,scene,motion,n,frames,structure,reference,build_us,mean_frame_us,p99_frame_us,mean_step_us,pairs_per_frame\n",
    );
    for row in rows {
        let (mean, p99) = row.report.steady_frame_micros();
        let r = &row.report;
        let _ = writeln!(
            text,
            "{},{},{},{},{},{},{},{:.3},{:.3},{:.3},{:.3},{:.1}",
            row.dim,
            row.scene,
            row.motion,
            row.n,
            r.frames,
            r.structure,
            row.reference,
            r.frame_micros.first().copied().unwrap_or(0.0),
            mean,
            p99,
            r.steady_step_micros(),
            r.per_frame(r.pair_sum)
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide_scenes::IdEvent;

    fn report(events: &[(usize, u64)]) -> RunReport {
        RunReport {
            events: events
                .iter()
                .map(|&(frame, b)| {
                    (
                        frame,
                        IdEvent {
                            a: 0,
                            b,
                            started: true,
                        },
                    )
                })
                .collect(),
            ..RunReport::new(collide::Structure::Brute)
        }
    }

    #[test]
    fn the_first_differing_frame_is_named() {
        let want = report(&[(0, 1), (0, 2), (3, 4)]);
        assert_eq!(
            first_difference(&report(&[(0, 1), (0, 2), (3, 4)]), &want),
            None
        );
        // A different event, a missing one, and one too many.
        assert_eq!(
            first_difference(&report(&[(0, 1), (0, 2), (3, 5)]), &want),
            Some(3)
        );
        assert_eq!(first_difference(&report(&[(0, 1), (0, 2)]), &want), Some(3));
        assert_eq!(
            first_difference(&report(&[(0, 1), (0, 2), (3, 4), (5, 6)]), &want),
            Some(5)
        );
        assert_eq!(
            first_difference(&report(&[(0, 1), (2, 2), (3, 4)]), &want),
            Some(0)
        );
    }
}
