//! `collide advise`: which structure suits a recorded game (issue 10).
//!
//! Replays the trace through every structure (brute force too when the
//! scene is small), checks that they agree on every event, and ranks them
//! by time per frame. Beside the ranking it prints what `auto` measures of
//! the scene at a few frames and what its decision table picks from that,
//! so a disagreement between the table and the measurement shows.

use crate::measure::{RunOptions, RunReport, apply_records, run_structure};
use crate::replay::{Failure, check_agreement, open_trace};
use crate::table::{Table, micros, thousands};
use clap::Args;
use collide::scene::Record;
use collide::trace::AnyTrace;
use collide::{Aabb, STRUCTURE_NAMES, SceneProfile, Vector, choose_structure};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `collide advise`.
#[derive(Args, Debug, Clone)]
pub struct AdviseArgs {
    /// The trace file (see `collide::trace` for the format).
    pub trace: PathBuf,
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
    let profiles = profiles(frames);
    let peak = profiles.iter().map(|(_, p)| p.objects).max().unwrap_or(0);
    let names: Vec<&str> = STRUCTURE_NAMES
        .iter()
        .copied()
        .filter(|n| *n != "brute" || peak <= BRUTE_MAX_OBJECTS)
        .collect();
    let bar = ProgressBar::new((frames.len() * names.len()) as u64).with_style(
        ProgressStyle::with_template("{prefix:>8} [{bar:30}] {pos}/{len} frames {eta}")
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    let mut reports = Vec::with_capacity(names.len());
    for name in &names {
        bar.set_prefix(name.to_string());
        let options = RunOptions {
            verify: false,
            keep_events: true,
            progress: Some(&bar),
        };
        let report = run_structure(name, frames, options)
            .map_err(|e| Failure::input(format!("{}: {e}", args.trace.display())))?;
        reports.push(report);
    }
    bar.finish_and_clear();
    let io = |e: std::io::Error| Failure {
        message: format!("cannot write output: {e}"),
        status: 1,
    };
    check_agreement(&reports, out)?;
    reports.sort_by(|a, b| a.mean_frame_micros().total_cmp(&b.mean_frame_micros()));
    write!(out, "{}", ranking(&reports).render()).map_err(io)?;
    writeln!(out).map_err(io)?;
    write!(out, "{}", profile_table(&profiles).render()).map_err(io)?;
    writeln!(out).map_err(io)?;
    for line in advice(&reports, &profiles) {
        writeln!(out, "{line}").map_err(io)?;
    }
    Ok(())
}

/// The scene at [`PROFILES`] frames spread over the trace (the last one
/// included), as `auto` measures it.
fn profiles<V: Vector>(frames: &[Vec<Record<V>>]) -> Vec<(usize, SceneProfile)> {
    let last = frames.len() - 1;
    let at: Vec<usize> = (0..PROFILES).map(|k| last * k / (PROFILES - 1)).collect();
    let mut boxes: BTreeMap<u64, Aabb<V>> = BTreeMap::new();
    let mut out = Vec::new();
    for (f, records) in frames.iter().enumerate() {
        apply_records(&mut boxes, records);
        if at.contains(&f) && out.last().is_none_or(|(g, _)| *g != f) {
            let present: Vec<Aabb<V>> = boxes.values().copied().collect();
            out.push((f, SceneProfile::of(&present)));
        }
    }
    out
}

fn ranking(reports: &[RunReport]) -> Table {
    let fastest = reports[0].mean_frame_micros();
    let mut table = Table::new(&[
        "structure",
        "mean us/frame",
        "p99 us/step",
        "x fastest",
        "candidates/frame",
    ]);
    for r in reports {
        table.row(vec![
            r.structure.clone(),
            micros(r.mean_frame_micros()),
            micros(r.p99_step_micros()),
            format!("{:.2}", r.mean_frame_micros() / fastest),
            thousands(r.per_frame(r.candidates_tested)),
        ]);
    }
    table
}

fn profile_table(profiles: &[(usize, SceneProfile)]) -> Table {
    let mut table = Table::new(&[
        "frame",
        "objects",
        "flatness",
        "size spread",
        "auto's table picks",
    ]);
    for (frame, p) in profiles {
        table.row(vec![
            frame.to_string(),
            thousands(p.objects as f64),
            format!("{:.1}", p.flatness),
            format!("{:.1}", p.size_spread),
            choose_structure(p).to_string(),
        ]);
    }
    table
}

/// The advice: the fastest structure, and how the decision table and
/// `auto` itself compare with it.
fn advice(reports: &[RunReport], profiles: &[(usize, SceneProfile)]) -> Vec<String> {
    let fastest = &reports[0];
    let time_of = |name: &str| {
        reports
            .iter()
            .find(|r| r.structure == name)
            .map(RunReport::mean_frame_micros)
    };
    let mut lines = vec![format!(
        "use `{}`: the fastest here, {} us a frame",
        fastest.structure,
        micros(fastest.mean_frame_micros())
    )];
    if let Some(next) = reports.get(1) {
        lines.push(format!(
            "next: `{}`, {:.2} times as long",
            next.structure,
            next.mean_frame_micros() / fastest.mean_frame_micros()
        ));
    }
    if let Some((_, last)) = profiles.last() {
        let pick = choose_structure(last);
        match time_of(pick) {
            Some(_) if pick == fastest.structure => lines.push(format!(
                "auto's decision table agrees: it picks `{pick}` from the last frame's profile"
            )),
            Some(t) => lines.push(format!(
                "auto's decision table picks `{pick}` from the last frame's profile: {:.2} times \
                 the fastest here",
                t / fastest.mean_frame_micros()
            )),
            None => lines.push(format!(
                "auto's decision table picks `{pick}`, which was not run (too many objects)"
            )),
        }
    }
    if let Some(t) = time_of("auto") {
        lines.push(format!(
            "`auto` itself: {} us a frame, {:.2} times the fastest",
            micros(t),
            t / fastest.mean_frame_micros()
        ));
    }
    lines
}
