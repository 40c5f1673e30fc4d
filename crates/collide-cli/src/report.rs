//! The self-contained HTML reports: the demo's (an animation of each
//! animated 2D scene coloured by overlap, the comparison tables, and
//! charts as inline SVG) and `collide bench`'s (charts and tables). No
//! network access is needed to view them.

use crate::cell_study::{CellRow, describe_cells};
use crate::chart::{Metric, bar_chart, escape, timeline};
use crate::demo::describe;
use crate::measure::RunReport;
use crate::sap_study::{SapRow, sap_table_html};
use base64::Engine;
use collide::{BroadPhase, Brute, Vector};
use collide_scenes::{Record, Runner, SceneStats};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The measured results of one scene.
#[derive(Clone, Debug)]
pub struct SceneResult {
    pub label: String,
    pub side: f32,
    pub stats: SceneStats,
    pub reports: Vec<RunReport>,
}

/// Boxes of a 2D scene over time, quantised to 16 bits per coordinate, with
/// one bit per object: in at least one overlapping pair.
#[derive(Clone, Debug)]
pub struct Animation {
    pub label: String,
    pub lo: f32,
    pub hi: f32,
    /// Per frame: `[count: u32 LE][count * 4 * u16 LE: minx miny maxx maxy]
    /// [ceil(count / 8) bytes of overlap flags]`.
    pub data: Vec<u8>,
    pub frames: usize,
}

/// Frames kept for the animation: every `ANIMATION_STRIDE`-th.
const ANIMATION_STRIDE: usize = 2;

impl Animation {
    /// Replays `frames` through brute force and keeps every second frame.
    /// Only x and y are drawn; a 3D scene would be seen from above.
    pub fn record<V: Vector>(label: &str, side: f32, frames: &[Vec<Record<V>>]) -> Self {
        let margin = 0.05 * side;
        let (lo, hi) = (-margin, side + margin);
        let quantise = |x: f32| (((x - lo) / (hi - lo)).clamp(0.0, 1.0) * 65535.0).round() as u16;
        let mut world = Brute::<V, u64>::new();
        let mut runner = Runner::new();
        let mut boxes = BTreeMap::new();
        let mut events = Vec::new();
        let mut data = Vec::new();
        let mut kept = 0;
        for (index, records) in frames.iter().enumerate() {
            crate::measure::apply_records(&mut boxes, records);
            runner
                .apply(&mut world, records)
                .expect("scene records are valid");
            runner.step(&mut world, &mut events);
            if index % ANIMATION_STRIDE != 0 {
                continue;
            }
            let touching: BTreeSet<u64> = world
                .pairs()
                .iter()
                .flat_map(|p| [p.a(), p.b()])
                .filter_map(|h| world.value(h).copied())
                .collect();
            let count = u32::try_from(boxes.len()).expect("a scene has at most 50 million objects");
            data.extend_from_slice(&count.to_le_bytes());
            for aabb in boxes.values() {
                let (min, max) = (aabb.min(), aabb.max());
                for v in [min.axis(0), min.axis(1), max.axis(0), max.axis(1)] {
                    data.extend_from_slice(&quantise(v).to_le_bytes());
                }
            }
            let mut flags = vec![0u8; boxes.len().div_ceil(8)];
            for (k, id) in boxes.keys().enumerate() {
                if touching.contains(id) {
                    flags[k / 8] |= 1 << (k % 8);
                }
            }
            data.extend_from_slice(&flags);
            kept += 1;
        }
        Self {
            label: label.to_string(),
            lo,
            hi,
            data,
            frames: kept,
        }
    }
}

/// Writes `collide bench`'s page to `path` (creating its folder): a chart
/// of the mean and of the p99 time per frame (frames 1 on) per scene and
/// structure, and the tables. Returns the path.
pub fn write_bench_report(
    path: &Path,
    scenes: &[SceneResult],
    warnings: &[String],
) -> std::io::Result<PathBuf> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut html = String::from(HEAD);
    html.push_str("<h1>collide bench</h1>\n<p>Our structures on the chosen scenes. Times are per frame: the frame's inserts, moves and removes plus <code>step()</code>, over frames 1 on (frame 0 builds). Every frame's events were compared with the reference's. The Rust peers are measured beside ours by <code>crates/collide-bench</code>. Each figure is one run per structure and scene.</p>\n");
    for warning in warnings {
        let _ = writeln!(html, "<p class=\"warning\">{}</p>", escape(warning));
    }
    let charts: [(&str, Metric); 3] = [
        ("Mean time per frame (microseconds)", |r| {
            r.steady_frame_micros().0
        }),
        ("p99 time per frame (microseconds)", |r| {
            r.steady_frame_micros().1
        }),
        ("Overlapping pairs per frame", |r| r.per_frame(r.pair_sum)),
    ];
    for (title, metric) in charts {
        html.push_str(&bar_chart(title, scenes, metric));
    }
    html.push_str("<h2>Scenes</h2>\n");
    for scene in scenes {
        let _ = writeln!(html, "<pre>{}</pre>", escape(&describe(scene)));
    }
    html.push_str("</body></html>\n");
    std::fs::write(path, html)?;
    Ok(std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
}

/// Writes `collide advise`'s page to `path` (creating its folder): charts
/// of the mean and p99 time per frame and of the peak heap of every
/// structure on the trace, a chart of each structure's time frame by
/// frame, the advice and the tables. Returns the path.
pub fn write_advise_report(
    path: &Path,
    trace: &SceneResult,
    tables: &str,
    advice: &str,
) -> std::io::Result<PathBuf> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut html = String::from(HEAD);
    let _ = writeln!(
        html,
        "<h1>collide advise: {}</h1>\n<p>{}</p>",
        escape(&trace.label),
        escape(advice)
    );
    let groups = std::slice::from_ref(trace);
    let charts: [(&str, Metric); 3] = [
        ("Mean time per frame, frames 1 on (microseconds)", |r| {
            r.steady_frame_micros().0
        }),
        ("p99 time per frame, frames 1 on (microseconds)", |r| {
            r.steady_frame_micros().1
        }),
        ("Peak heap (MiB)", |r| {
            r.peak_heap_bytes as f64 / (1024.0 * 1024.0)
        }),
    ];
    for (title, metric) in charts {
        html.push_str(&bar_chart(title, groups, metric));
    }
    html.push_str(&timeline(
        "Time per frame (microseconds), frame by frame",
        &trace.reports,
    ));
    let _ = writeln!(html, "<h2>Tables</h2>\n<pre>{}</pre>", escape(tables));
    html.push_str("</body></html>\n");
    std::fs::write(path, html)?;
    Ok(std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
}

/// Writes the report to `path` (creating its folder) and returns the path.
pub fn write_report(
    path: &Path,
    results: &[SceneResult],
    animations: &[Animation],
    cells: &[CellRow],
    sap: &[SapRow],
) -> std::io::Result<PathBuf> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, render(results, animations, cells, sap))?;
    Ok(std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
}

/// The whole HTML page.
pub fn render(
    results: &[SceneResult],
    animations: &[Animation],
    cells: &[CellRow],
    sap: &[SapRow],
) -> String {
    let mut html = String::new();
    html.push_str(HEAD);
    html.push_str("<h1>collide demo</h1>\n<p>Every broad-phase structure of the library on the built-in scenes (uniform, flat, clustered and large boxes, slow, fast, teleporting and churning, in 2D and 3D): how long a step takes, how many candidate pairs it tests and how much it maintains, then the game systems built on top. Every structure was checked against brute force on every frame. Times are for <code>step()</code> alone (the tables also give the frame with its updates), measured in a run without the check.</p>\n");

    if !animations.is_empty() {
        html.push_str("<h2>Scenes</h2>\n<p>Boxes in at least one overlapping pair are red.</p>\n<div class=\"controls\"><select id=\"scene\">");
        for (k, a) in animations.iter().enumerate() {
            let _ = write!(html, "<option value=\"{k}\">{}</option>", escape(&a.label));
        }
        html.push_str("</select> <button id=\"play\">pause</button> <input id=\"frame\" type=\"range\" min=\"0\" value=\"0\"> <span id=\"info\"></span></div>\n<canvas id=\"view\" width=\"640\" height=\"640\"></canvas>\n<script>const SCENES = [");
        for a in animations {
            let _ = write!(
                html,
                "{{lo:{},hi:{},frames:{},stride:{ANIMATION_STRIDE},data:\"{}\"}},",
                a.lo,
                a.hi,
                a.frames,
                base64::engine::general_purpose::STANDARD.encode(&a.data)
            );
        }
        html.push_str("];</script>\n");
        html.push_str(PLAYER);
    }

    html.push_str("<h2>Charts</h2>\n");
    let charts: [(&str, Metric); 4] = [
        ("Mean time per step (microseconds)", |r| {
            r.mean_step_micros()
        }),
        ("Candidate pairs tested per frame", |r| {
            r.per_frame(r.candidates_tested)
        }),
        ("Maintenance operations per frame", |r| {
            r.per_frame(r.maintenance_ops)
        }),
        ("Overlapping pairs per frame", |r| r.per_frame(r.pair_sum)),
    ];
    for (title, metric) in charts {
        html.push_str(&bar_chart(title, results, metric));
    }

    if !cells.is_empty() {
        html.push_str("<h2>Cell size</h2>\n<p>The uniform scene through the hashed grid at multiples of the automatic cell size.</p>\n");
        let groups: Vec<SceneResult> = cells
            .iter()
            .map(|row| SceneResult {
                label: format!("x{} ({:.1})", row.factor, row.cell_size),
                side: 0.0,
                stats: SceneStats::default(),
                reports: vec![row.report.clone()],
            })
            .collect();
        html.push_str(&bar_chart(
            "Time per step (microseconds) by cell size",
            &groups,
            |r| r.mean_step_micros(),
        ));
        html.push_str(&bar_chart(
            "Cell list changes per frame by cell size",
            &groups,
            |r| r.per_frame(r.maintenance_ops),
        ));
        let _ = writeln!(html, "<pre>{}</pre>", escape(&describe_cells(cells)));
    }

    html.push_str(&crate::world_demo::world_section());
    html.push_str(&crate::game_demo::game_section());

    if !sap.is_empty() {
        html.push_str("<h2>Sweep and prune</h2>\n<p>The measurements of a published walk-through of sweep and prune, repeated with <code>sap</code> and <code>sap1</code>. <em>Reference</em> is the walk-through's figure: 1,000 boxes in 2D moved for 120 frames, one axis kept sorted by insertion sort. <em>Ours</em> is the same measure on this report's scenes, checked against brute force on every frame, so the two differ where the scenes do: the row of true pairs shows by how much. Runs are 2D and slow unless the row says otherwise.</p>\n");
        html.push_str(&sap_table_html(sap));
    }

    html.push_str("<h2>Tables</h2>\n");
    for result in results {
        let _ = writeln!(html, "<pre>{}</pre>", escape(&describe(result)));
    }
    html.push_str("</body></html>\n");
    html
}

const HEAD: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>collide demo report</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; color: #222; }
canvas { border: 1px solid #ccc; background: #fbfbf8; max-width: 100%; }
pre { background: #f4f4f0; padding: .8em; overflow-x: auto; font-size: 13px; }
figure { margin: 1.5em 0; } figcaption { font-weight: 600; margin-bottom: .3em; }
.grid { stroke: #ddd; } .tick { font-size: 13px; text-anchor: end; fill: #555; } .label { font-size: 13px; fill: #333; } .value { font-size: 11px; fill: #333; }
.mark { stroke: #555; stroke-width: 2; } .mark-label { font-size: 13px; fill: #333; font-weight: 600; }
.scroll { overflow-x: auto; }
.legend i.band { opacity: .35; height: 8px; vertical-align: 1px; } .legend i.dashed { height: 3px; vertical-align: 3px; }
table.study { border-collapse: collapse; font-size: 14px; margin: .5em 0; width: 100%; min-width: 560px; } table.study th, table.study td { border-bottom: 1px solid #ddd; padding: .3em .6em; text-align: left; vertical-align: top; } table.study .num { text-align: right; }
.legend { margin-top: .3em; } .legend span { margin-right: 1em; font-size: 13px; white-space: nowrap; } .legend i { display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: -1px; }
.controls { margin: .5em 0; } .warning { color: #a33; font-weight: 600; }
</style></head><body>
"#;

const PLAYER: &str = r#"<script>
(() => {
  const canvas = document.getElementById('view'), ctx = canvas.getContext('2d');
  const select = document.getElementById('scene'), slider = document.getElementById('frame');
  const button = document.getElementById('play'), info = document.getElementById('info');
  let frames = [], scene = null, current = 0, playing = true;
  function decode(s) {
    const bytes = Uint8Array.from(atob(s.data), c => c.charCodeAt(0));
    const view = new DataView(bytes.buffer), out = [];
    let at = 0;
    for (let f = 0; f < s.frames; f++) {
      const n = view.getUint32(at, true); at += 4;
      const boxes = new Uint16Array(bytes.buffer.slice(at, at + 8 * n)); at += 8 * n;
      const flags = bytes.slice(at, at + Math.ceil(n / 8)); at += Math.ceil(n / 8);
      out.push({ n, boxes, flags });
    }
    return out;
  }
  function load(k) {
    scene = SCENES[k]; frames = decode(scene); current = 0;
    slider.max = frames.length - 1; draw();
  }
  function draw() {
    const f = frames[current], w = canvas.width, h = canvas.height, s = w / 65535;
    ctx.clearRect(0, 0, w, h);
    let hot = 0;
    for (let i = 0; i < f.n; i++) {
      const on = (f.flags[i >> 3] >> (i & 7)) & 1; hot += on;
      const x0 = f.boxes[4 * i] * s, y0 = h - f.boxes[4 * i + 3] * s;
      const x1 = f.boxes[4 * i + 2] * s, y1 = h - f.boxes[4 * i + 1] * s;
      ctx.fillStyle = on ? 'rgba(200,50,40,0.55)' : 'rgba(60,110,180,0.35)';
      ctx.fillRect(x0, y0, Math.max(x1 - x0, 1), Math.max(y1 - y0, 1));
    }
    slider.value = current;
    info.textContent = `frame ${current * scene.stride} · ${f.n} objects · ${hot} in overlapping pairs`;
  }
  select.onchange = () => load(+select.value);
  slider.oninput = () => { current = +slider.value; draw(); };
  button.onclick = () => { playing = !playing; button.textContent = playing ? 'pause' : 'play'; };
  setInterval(() => { if (playing && frames.length) { current = (current + 1) % frames.length; draw(); } }, 66);
  load(0);
})();
</script>
"#;
