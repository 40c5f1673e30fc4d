//! `collide demo`: every structure compared on the built-in scenes, with every
//! structure the project has, each verified against brute force on every
//! frame; then an HTML report with an animation and charts.

use crate::cell_study::{cell_size_study, describe_cells};
use crate::measure::{RunOptions, RunReport, run_structure};
use crate::report::{Animation, SceneResult, write_report};
use crate::sap_study::{describe_sap, sap_study};
use crate::table::{Table, micros, thousands};
use clap::Parser;
use collide::{Aabb, Structure, Vector};
use collide_scenes::{Motion, Record, Scene, SceneConfig, SceneKind, SceneStats};
use glam::{Vec2, Vec3};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `collide demo`.
#[derive(Parser, Debug, Clone)]
pub struct DemoArgs {
    /// Objects per scene.
    #[arg(long, default_value_t = 1000, value_parser = crate::record::parse_count)]
    pub n: usize,
    /// Frames per scene.
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub frames: u32,
    /// Where to write the HTML report.
    #[arg(long, default_value = "collide-report/index.html")]
    pub out: PathBuf,
    /// Skip the HTML report.
    #[arg(long)]
    pub no_report: bool,
}

impl Default for DemoArgs {
    /// The defaults of the command line (what `cargo run --release` runs).
    fn default() -> Self {
        Self::parse_from(["demo"])
    }
}

/// The scenes of the demo: (dimension, kind, motion, animated in the report).
const DEMO_SCENES: &[(usize, SceneKind, Motion, bool)] = &[
    (2, SceneKind::Uniform, Motion::Slow, true),
    (2, SceneKind::Flat, Motion::Slow, true),
    (2, SceneKind::Clustered, Motion::Slow, true),
    (2, SceneKind::Large, Motion::Slow, true),
    (2, SceneKind::Uniform, Motion::Fast, false),
    (2, SceneKind::Uniform, Motion::Teleport, true),
    (2, SceneKind::Uniform, Motion::Churn, false),
    (3, SceneKind::Uniform, Motion::Slow, false),
    (3, SceneKind::Clustered, Motion::Slow, false),
];

/// Runs the demo, printing to `out`. Returns an error message if a
/// structure diverged from brute force or the report could not be written.
pub fn demo(args: &DemoArgs, out: &mut dyn Write) -> Result<(), String> {
    let _ = writeln!(
        out,
        "collide demo: {} objects, {} frames per scene, structures: {}\n\
         every structure is checked against brute force on every frame\n",
        args.n,
        args.frames,
        crate::structure_list()
    );
    let bar = ProgressBar::new((DEMO_SCENES.len() * Structure::ALL.len()) as u64).with_style(
        ProgressStyle::with_template("{msg:>24} [{bar:30}] {pos}/{len} runs")
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    let mut results = Vec::new();
    let mut animations = Vec::new();
    for &(dim, kind, motion, animate) in DEMO_SCENES {
        let config = SceneConfig {
            motion,
            ..SceneConfig::new(kind, args.n)
        };
        bar.set_message(format!("{kind} {dim}D {motion}"));
        let (result, animation) = match dim {
            2 => run_scene::<Vec2>(config, args.frames as usize, animate, &bar)?,
            _ => run_scene::<Vec3>(config, args.frames as usize, animate, &bar)?,
        };
        bar.suspend(|| {
            let _ = write!(out, "{}", describe(&result));
        });
        results.push(result);
        animations.extend(animation);
    }
    bar.set_message("cell size study");
    let cells = cell_size_study(args.n, args.frames as usize)?;
    bar.set_message("sweep-and-prune study");
    let sap = sap_study(args.n, args.frames as usize)?;
    bar.finish_and_clear();
    let _ = write!(out, "{}", describe_cells(&cells));
    let _ = write!(out, "{}", describe_sap(&sap));
    if !args.no_report {
        let path = write_report(&args.out, &results, &animations, &cells, &sap)
            .map_err(|e| format!("cannot write the report `{}`: {e}", args.out.display()))?;
        let _ = writeln!(out, "report: {}", path.display());
    }
    Ok(())
}

fn run_scene<V: Vector>(
    config: SceneConfig,
    frames: usize,
    animate: bool,
    bar: &ProgressBar,
) -> Result<(SceneResult, Option<Animation>), String> {
    let mut scene = Scene::<V>::new(config);
    let side = scene.world_side();
    let boxes: Vec<Aabb<V>> = scene.objects().map(|(_, b)| b).collect();
    let stats = SceneStats::measure(&boxes);
    let recorded: Vec<Vec<Record<V>>> = scene.take_frames(frames);
    let label = format!("{} {}D {}", config.kind, V::DIM, config.motion);
    let mut reports = Vec::new();
    for name in Structure::ALL {
        let checked = run_structure(
            name,
            &recorded,
            RunOptions {
                verify: true,
                ..RunOptions::default()
            },
        )
        .map_err(|e| format!("{label}: {e}"))?;
        if let Some(divergence) = checked.divergence {
            return Err(format!("{label}: {divergence}"));
        }
        // Timed separately, without the brute-force check beside it.
        let timed: RunReport = run_structure(name, &recorded, RunOptions::default())
            .map_err(|e| format!("{label}: {e}"))?;
        reports.push(timed);
        bar.inc(1);
    }
    let animation = (animate && V::DIM == 2).then(|| Animation::record(&label, side, &recorded));
    Ok((
        SceneResult {
            label,
            side,
            stats,
            reports,
        },
        animation,
    ))
}

/// The table of one scene: candidates, pairs and time per structure.
pub fn describe(result: &SceneResult) -> String {
    let s = &result.stats;
    let axes = ["x", "y", "z"];
    let variance: Vec<String> = s
        .center_variance
        .iter()
        .zip(axes)
        .map(|(v, a)| format!("{a} {}", thousands(*v)))
        .collect();
    let mut text = format!(
        "== {} (world side {:.0}) ==\n\
         at frame 0: centre variance {}; pairs overlapping on x alone: {}; overlapping pairs: {}\n",
        result.label,
        result.side,
        variance.join(", "),
        thousands(s.axis_pairs[0] as f64),
        thousands(s.pairs as f64),
    );
    let mut table = Table::new(&[
        "structure",
        "candidates/frame",
        "true pairs",
        "maintenance/frame",
        "pair changes/frame",
        "us/step",
        "p99 us/step",
        "us/frame",
        "verified",
    ]);
    for r in &result.reports {
        table.row(vec![
            r.structure.to_string(),
            thousands(r.per_frame(r.candidates_tested)),
            thousands(r.per_frame(r.pair_sum)),
            thousands(r.per_frame(r.maintenance_ops)),
            format!(
                "{:.1}",
                r.steady_changes as f64 / r.frames.saturating_sub(1).max(1) as f64
            ),
            micros(r.mean_step_micros()),
            micros(r.p99_step_micros()),
            micros(r.mean_frame_micros()),
            "every frame".into(),
        ]);
    }
    text.push_str(&table.render());
    text.push('\n');
    text
}
