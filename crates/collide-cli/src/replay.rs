//! `collide replay`: replays a trace through one structure or all of them.

use crate::load::{LoadWatch, stall_warnings};
use crate::measure::{FrameEvent, RunOptions, RunReport, run_structure};
use crate::table::{Table, micros, thousands};
use clap::Args;
use collide::{Structure, Vector};
use collide_scenes::Record;
use collide_scenes::trace::{AnyTrace, parse};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{self, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Arguments of `collide replay`.
#[derive(Args, Debug, Clone)]
pub struct ReplayArgs {
    /// The trace file (see `collide_scenes::trace` for the format).
    pub trace: PathBuf,
    /// A structure name, or `all` to run and compare every structure.
    #[arg(long, short, default_value = Structure::DEFAULT.name())]
    pub structure: String,
    /// Write the events, one per line (`FRAME + A B` or `FRAME - A B`), to
    /// this file, or to standard output with `-`.
    #[arg(long)]
    pub events: Option<String>,
    /// Print statistics per structure.
    #[arg(long)]
    pub stats: bool,
}

/// A failure of the command, with the exit status it should give.
#[derive(Debug)]
pub struct Failure {
    pub message: String,
    pub status: u8,
}

impl Failure {
    pub(crate) fn input(message: String) -> Self {
        Self { message, status: 2 }
    }
}

/// Runs `collide replay`; `out` receives the tables and summaries.
pub fn replay(args: &ReplayArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let names: Vec<Structure> = if args.structure == "all" {
        Structure::ALL.to_vec()
    } else if let Ok(structure) = args.structure.parse::<Structure>() {
        vec![structure]
    } else {
        return Err(Failure::input(format!(
            "unknown structure `{}`; expected `all` or one of: {}",
            args.structure,
            crate::structure_list()
        )));
    };
    match open_trace(&args.trace)? {
        AnyTrace::D2(t) => replay_frames(&t.frames, &names, args, out),
        AnyTrace::D3(t) => replay_frames(&t.frames, &names, args, out),
    }
}

/// Reads and parses the trace at `path`; errors name the file (and the
/// line, for a malformed trace).
pub(crate) fn open_trace(path: &Path) -> Result<AnyTrace, Failure> {
    let cannot_open =
        |why: String| Failure::input(format!("cannot open trace `{}`: {why}", path.display()));
    if path.is_dir() {
        return Err(cannot_open("it is a directory, not a trace file".into()));
    }
    let file = std::fs::File::open(path).map_err(|e| cannot_open(e.to_string()))?;
    parse(BufReader::new(file)).map_err(|e| Failure::input(format!("{}: {e}", path.display())))
}

fn replay_frames<V: Vector>(
    frames: &[Vec<Record<V>>],
    names: &[Structure],
    args: &ReplayArgs,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let total = (frames.len() * names.len()) as u64;
    let bar = if total >= 2_000 {
        ProgressBar::new(total).with_style(
            ProgressStyle::with_template("{prefix:>8} [{bar:30}] {pos}/{len} frames {eta}")
                .expect("the template is valid")
                .progress_chars("=> "),
        )
    } else {
        ProgressBar::hidden()
    };
    let compare = args.structure == "all";
    let keep_events = args.events.is_some() || compare;
    let mut reports = Vec::with_capacity(names.len());
    let mut load = LoadWatch::start(1);
    for &name in names {
        bar.set_prefix(name.to_string());
        let options = RunOptions {
            verify: false,
            keep_events,
            progress: Some(&bar),
        };
        let report = run_structure(name, frames, options)
            .map_err(|e| Failure::input(format!("{}: {e}", args.trace.display())))?;
        reports.push(report);
        load.sample();
    }
    bar.finish_and_clear();

    let io = |e: io::Error| Failure {
        message: format!("cannot write output: {e}"),
        status: 1,
    };
    if let Some(target) = &args.events {
        write_events(target, &reports[0].events)
            .map_err(|e| Failure::input(format!("cannot write the events to `{target}`: {e}")))?;
    }
    // With events on standard output, summaries go to standard error.
    let mut stderr = io::stderr();
    let summary: &mut dyn Write = if args.events.as_deref() == Some("-") {
        &mut stderr
    } else {
        out
    };
    if args.stats || compare {
        write!(summary, "{}", stats_table(&reports).render()).map_err(io)?;
        writeln!(
            summary,
            "one run per structure; means and p99 over its {} steps",
            frames.len()
        )
        .map_err(io)?;
        for warning in load.warning().into_iter().chain(stall_warnings(&reports)) {
            writeln!(summary, "{warning}").map_err(io)?;
        }
    } else {
        let r = &reports[0];
        writeln!(
            summary,
            "replayed {} frames through {}: {} started, {} stopped, {} pairs at the end",
            r.frames, r.structure, r.started, r.stopped, r.final_pairs
        )
        .map_err(io)?;
    }
    for r in reports.iter().filter(|r| !r.auto_runs.is_empty()) {
        write!(summary, "{}", auto_timeline(r)).map_err(io)?;
    }
    if compare {
        check_agreement(&reports, summary)?;
    }
    Ok(())
}

/// What `auto` ran over a replay: each structure from the step it took
/// over and why, and the rebuilds of a grid whose cells no longer fitted.
pub(crate) fn auto_timeline(report: &RunReport) -> String {
    use std::fmt::Write as _;
    let mut text = String::from("auto ran:\n");
    for run in &report.auto_runs {
        let _ = writeln!(
            text,
            "  {} from step {}: {}",
            run.structure, run.since_step, run.reason
        );
    }
    let _ = writeln!(
        text,
        "  {} switch{} after the first pick, {} rebuild{} of a grid whose cells no longer \
         fitted the density",
        report.auto_runs.len().saturating_sub(1),
        if report.auto_runs.len() == 2 {
            ""
        } else {
            "es"
        },
        report.auto_rebuilds,
        if report.auto_rebuilds == 1 { "" } else { "s" },
    );
    text
}

/// The per-structure statistics table of `--stats` and `--structure all`.
/// `us/step` times `step()` alone; `us/frame` adds the frame's insert,
/// update and remove calls. Parsing is excluded from both.
pub fn stats_table(reports: &[RunReport]) -> Table {
    let mut table = Table::new(&[
        "structure",
        "frames",
        "peak objects",
        "started",
        "stopped",
        "pairs at end",
        "mean us/step",
        "p99 us/step",
        "mean us/frame",
    ]);
    for r in reports {
        table.row(vec![
            r.structure.to_string(),
            thousands(r.frames as f64),
            thousands(r.peak_objects as f64),
            thousands(r.started as f64),
            thousands(r.stopped as f64),
            thousands(r.final_pairs as f64),
            micros(r.mean_step_micros()),
            micros(r.p99_step_micros()),
            micros(r.mean_frame_micros()),
        ]);
    }
    table
}

/// Fails, naming the first differing event, unless every report has the
/// same event stream; then says so on `out`.
pub(crate) fn check_agreement(reports: &[RunReport], out: &mut dyn Write) -> Result<(), Failure> {
    let first = &reports[0];
    for other in &reports[1..] {
        if let Some(k) = (0..first.events.len().max(other.events.len()))
            .find(|&k| first.events.get(k) != other.events.get(k))
        {
            let show = |e: Option<&FrameEvent>| e.map_or("nothing".to_string(), event_line);
            return Err(Failure {
                message: format!(
                    "{} and {} disagree at event {k}: {} has `{}`, {} has `{}`",
                    first.structure,
                    other.structure,
                    first.structure,
                    show(first.events.get(k)),
                    other.structure,
                    show(other.events.get(k)),
                ),
                status: 1,
            });
        }
    }
    let _ = writeln!(
        out,
        "all {} structures ({}) agree on every event of every frame",
        reports.len(),
        reports
            .iter()
            .map(|r| r.structure.name())
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(())
}

/// One event as a line of `--events`: `FRAME + A B` or `FRAME - A B`.
pub fn event_line((frame, e): &FrameEvent) -> String {
    let sign = if e.started { '+' } else { '-' };
    format!("{frame} {sign} {} {}", e.a, e.b)
}

fn write_events(target: &str, events: &[FrameEvent]) -> io::Result<()> {
    let sink: Box<dyn Write> = if target == "-" {
        Box::new(io::stdout().lock())
    } else {
        Box::new(std::fs::File::create(target)?)
    };
    let mut sink = BufWriter::new(sink);
    for event in events {
        writeln!(sink, "{}", event_line(event))?;
    }
    sink.flush()
}
