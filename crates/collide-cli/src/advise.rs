//! `collide advise`: which structure suits a recorded game.
//!
//! Replays the trace through every structure (brute force too when the
//! scene is small), checks that they agree on every frame's events, and
//! ranks them by mean time per frame, with the p99 and the peak heap of
//! each. Beside the ranking it prints what `auto` measures of the scene at
//! a few frames and what its decision table picks from that, then a
//! paragraph of advice in plain words, and writes the charts into an HTML
//! page (`--out`).

use crate::measure::{RunOptions, RunReport, apply_records, run_structure};
use crate::replay::{Failure, open_trace};
use crate::report::{SceneResult, write_advise_report};
use crate::table::{Table, micros, thousands};
use clap::Args;
use collide::{Aabb, SceneProfile, Structure, Vector, choose_structure};
use collide_scenes::alloc;
use collide_scenes::trace::AnyTrace;
use collide_scenes::{Record, SceneStats};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `collide advise`.
#[derive(Args, Debug, Clone)]
pub struct AdviseArgs {
    /// The trace file (see `collide_scenes::trace` for the format).
    pub trace: PathBuf,
    /// Where to write the HTML page of charts.
    #[arg(long, default_value = "collide-report/advise.html")]
    pub out: PathBuf,
}

/// Brute force runs only up to this many objects (it is quadratic).
const BRUTE_MAX_OBJECTS: usize = 2_000;

/// Frames at which the scene is profiled.
const PROFILES: usize = 5;

/// Runs `collide advise`; `out` receives the tables and the advice.
pub fn advise(args: &AdviseArgs, out: &mut dyn Write) -> Result<(), Failure> {
    match open_trace(&args.trace)? {
        AnyTrace::D2(t) => advise_frames(&t.frames, args, out),
        AnyTrace::D3(t) => advise_frames(&t.frames, args, out),
    }
}

fn advise_frames<V: Vector>(
    frames: &[Vec<Record<V>>],
    args: &AdviseArgs,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    if frames.is_empty() {
        return Err(Failure::input(format!(
            "{}: the trace has no frames; record at least one",
            args.trace.display()
        )));
    }
    // Frame 0 builds every structure; the times compared are of the
    // frames after it.
    if frames.len() < 2 {
        return Err(Failure::input(format!(
            "{}: the trace has one frame, which only builds the structures; \
             record at least two to compare their frame times",
            args.trace.display()
        )));
    }
    let profiles = profiles(frames);
    let peak = profiles.iter().map(|(_, p)| p.objects).max().unwrap_or(0);
    let names: Vec<Structure> = Structure::ALL
        .into_iter()
        .filter(|&s| s != Structure::Brute || peak <= BRUTE_MAX_OBJECTS)
        .collect();
    let bar = ProgressBar::new((frames.len() * names.len()) as u64).with_style(
        ProgressStyle::with_template("{prefix:>8} [{bar:30}] {pos}/{len} frames {eta}")
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    let mut reports = Vec::with_capacity(names.len());
    for &name in &names {
        bar.set_prefix(name.to_string());
        let options = RunOptions {
            verify: false,
            keep_events: false,
            progress: Some(&bar),
        };
        alloc::reset_peak();
        let report = run_structure(name, frames, options)
            .map_err(|e| Failure::input(format!("{}: {e}", args.trace.display())))?;
        reports.push(report);
    }
    bar.finish_and_clear();
    let io = |e: std::io::Error| Failure {
        message: format!("cannot write output: {e}"),
        status: 1,
    };
    check_digests(&reports, args)?;
    writeln!(
        out,
        "all {} structures agree on the events of every frame",
        reports.len()
    )
    .map_err(io)?;
    reports.sort_by(|a, b| {
        let mean = |r: &RunReport| r.steady_frame_micros().0;
        mean(a).total_cmp(&mean(b))
    });
    write!(out, "{}", ranking(&reports).render()).map_err(io)?;
    writeln!(out).map_err(io)?;
    write!(out, "{}", profile_table(&profiles).render()).map_err(io)?;
    writeln!(out).map_err(io)?;
    if let Some(auto) = reports.iter().find(|r| !r.auto_runs.is_empty()) {
        write!(out, "{}", crate::replay::auto_timeline(auto)).map_err(io)?;
        writeln!(out).map_err(io)?;
    }
    let paragraph = advice(&reports, &profiles);
    writeln!(out, "{}", wrap(&paragraph, 78)).map_err(io)?;
    let scene = SceneResult {
        label: args
            .trace
            .file_name()
            .map_or_else(|| "trace".into(), |n| n.to_string_lossy().into_owned()),
        side: 0.0,
        stats: SceneStats::default(),
        reports,
    };
    let tables = format!(
        "{}\n{}",
        ranking(&scene.reports).render(),
        profile_table(&profiles).render()
    );
    let path =
        write_advise_report(&args.out, &scene, &tables, &paragraph).map_err(|e| Failure {
            message: format!("cannot write {}: {e}", args.out.display()),
            status: 1,
        })?;
    writeln!(out, "\ncharts: {}", path.display()).map_err(io)?;
    Ok(())
}

/// Fails, naming the first frame whose events differ, unless every
/// report has the same event digests.
fn check_digests(reports: &[RunReport], args: &AdviseArgs) -> Result<(), Failure> {
    let first = &reports[0];
    for other in &reports[1..] {
        if let Some(frame) = (0..first.event_digests.len().max(other.event_digests.len()))
            .find(|&f| first.event_digests.get(f) != other.event_digests.get(f))
        {
            return Err(Failure {
                message: format!(
                    "{} and {} disagree on the events of frame {frame}; see them with \
                     `collide replay {} --structure all --events -`",
                    first.structure,
                    other.structure,
                    args.trace.display()
                ),
                status: 1,
            });
        }
    }
    Ok(())
}

/// The scene at [`PROFILES`] frames spread over the trace (the last one
/// included), as `auto` measures it: the coherence from the frame before
/// (objects present in both).
fn profiles<V: Vector>(frames: &[Vec<Record<V>>]) -> Vec<(usize, SceneProfile)> {
    let last = frames.len() - 1;
    let at: Vec<usize> = (0..PROFILES).map(|k| last * k / (PROFILES - 1)).collect();
    let mut boxes: BTreeMap<u64, Aabb<V>> = BTreeMap::new();
    let mut out = Vec::new();
    for (f, records) in frames.iter().enumerate() {
        let before = at.contains(&f).then(|| boxes.clone());
        apply_records(&mut boxes, records);
        if at.contains(&f) && out.last().is_none_or(|(g, _)| *g != f) {
            let present: Vec<Aabb<V>> = boxes.values().copied().collect();
            let mut profile = SceneProfile::of(&present);
            if let Some(before) = before.filter(|b| !b.is_empty()) {
                let (then, now): (Vec<Aabb<V>>, Vec<Aabb<V>>) = before
                    .iter()
                    .filter_map(|(id, b)| boxes.get(id).map(|now| (*b, *now)))
                    .unzip();
                profile.coherence = SceneProfile::of_motion(&then, &now).coherence;
            }
            out.push((f, profile));
        }
    }
    out
}

fn ranking(reports: &[RunReport]) -> Table {
    let fastest = reports[0].steady_frame_micros().0;
    let mut table = Table::new(&[
        "structure",
        "mean us/frame",
        "p99 us/frame",
        "x fastest",
        "peak heap MiB",
        "candidates/frame",
    ]);
    for r in reports {
        let (mean, p99) = r.steady_frame_micros();
        table.row(vec![
            r.structure.to_string(),
            micros(mean),
            micros(p99),
            format!("{:.2}", mean / fastest),
            format!("{:.2}", mib(r.peak_heap_bytes)),
            thousands(r.per_frame(r.candidates_tested)),
        ]);
    }
    table
}

fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

fn profile_table(profiles: &[(usize, SceneProfile)]) -> Table {
    let mut table = Table::new(&[
        "frame",
        "objects",
        "flatness",
        "size spread",
        "huge %",
        "elongated %",
        "spanning %",
        "coherence",
        "clustering",
        "density",
        "auto's table picks",
    ]);
    for (frame, p) in profiles {
        table.row(vec![
            frame.to_string(),
            thousands(p.objects as f64),
            format!("{:.1}", p.flatness),
            format!("{:.1}", p.size_spread),
            format!("{:.1}", p.huge_share * 100.0),
            format!("{:.1}", p.elongated_share * 100.0),
            format!("{:.1}", p.spanning_share * 100.0),
            format!("{:.3}", p.coherence),
            format!("{:.1}", p.clustering),
            format!("{:.3}", p.density),
            choose_structure(p).structure.to_string(),
        ]);
    }
    table
}

/// The scene in plain words, from its last profile.
fn describe_scene(p: &SceneProfile) -> String {
    let mut words = format!("{} objects in {}D", thousands(p.objects as f64), p.dim);
    let spread = if p.flatness >= 100.0 {
        format!(
            ", spread in a thin band (the centres vary {:.0} times more along one axis than \
             another)",
            p.flatness
        )
    } else if p.clustering >= 4.0 {
        format!(
            ", crowded into hotspots ({:.0} times the neighbours of an even spread)",
            p.clustering
        )
    } else {
        ", spread evenly".to_string()
    };
    words.push_str(&spread);
    if p.size_spread >= 4.0 {
        let _ = write!(words, ", of sizes {:.0} times apart", p.size_spread);
    } else {
        words.push_str(", of similar sizes");
    }
    if p.huge_share > 0.0 {
        let _ = write!(
            words,
            ", {:.1}% of them huge (16 times the median size or more)",
            p.huge_share * 100.0
        );
    }
    if p.elongated_share >= 0.01 {
        let _ = write!(
            words,
            ", {:.0}% of them long and thin (10 to 1 or more)",
            p.elongated_share * 100.0
        );
    }
    if p.spanning_share > 0.0 {
        let _ = write!(
            words,
            ", {:.1}% of them spanning the world",
            p.spanning_share * 100.0
        );
    }
    if p.coherence < 0.95 {
        let _ = write!(
            words,
            ", moving incoherently ({:.0}% of neighbours swap order in a frame)",
            (1.0 - p.coherence) * 100.0
        );
    } else {
        words.push_str(", moving smoothly");
    }
    words
}

/// The advice, one paragraph: the scene, the fastest structure and the
/// next, the decision table's pick and `auto`'s own time, and what to use.
fn advice(reports: &[RunReport], profiles: &[(usize, SceneProfile)]) -> String {
    let fastest = &reports[0];
    let best = fastest.steady_frame_micros().0;
    let time_of = |structure: Structure| {
        reports
            .iter()
            .find(|r| r.structure == structure)
            .map(|r| r.steady_frame_micros().0)
    };
    let mut text = String::new();
    if let Some((_, last)) = profiles.last() {
        let _ = write!(text, "This game has {}. ", describe_scene(last));
    }
    let (_, p99) = fastest.steady_frame_micros();
    let _ = write!(
        text,
        "`{}` was the fastest: {} us a frame on average, {} at the 99th percentile, \
         holding {:.2} MiB at most.",
        fastest.structure,
        micros(best),
        micros(p99),
        mib(fastest.peak_heap_bytes)
    );
    if let Some(next) = reports.get(1) {
        let _ = write!(
            text,
            " `{}` came next at {:.2} times its time.",
            next.structure,
            next.steady_frame_micros().0 / best
        );
    }
    if let Some((_, last)) = profiles.last() {
        let pick = choose_structure(last);
        match time_of(pick.structure) {
            Some(_) if pick.structure == fastest.structure => {
                let _ = write!(
                    text,
                    " auto's decision table picks it too ({}).",
                    pick.reason
                );
            }
            Some(t) => {
                let _ = write!(
                    text,
                    " auto's decision table picks `{}` ({}), {:.2} times the fastest here.",
                    pick.structure,
                    pick.reason,
                    t / best
                );
            }
            None => {
                let _ = write!(
                    text,
                    " auto's decision table picks `{}`, which was not run (too many objects \
                     for it).",
                    pick.structure
                );
            }
        }
    }
    let auto = time_of(Structure::Auto).map(|t| t / best);
    if let Some(ratio) = auto {
        let _ = write!(
            text,
            " `auto` itself, measuring and switching as it runs, took {ratio:.2} times the \
             fastest."
        );
    }
    let _ = write!(text, " Use `{}` for games like this one", fastest.structure);
    match auto {
        Some(r) if r <= 1.15 && fastest.structure != Structure::Auto => text.push_str(
            ", or `auto` if its scenes differ from level to level: here it stays within 15% \
             of the best.",
        ),
        _ => text.push('.'),
    }
    text
}

/// `text` broken into lines of at most `width` characters, at spaces.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split(' ') {
        if line > 0 && line + 1 + word.len() > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += word.len();
    }
    out
}
