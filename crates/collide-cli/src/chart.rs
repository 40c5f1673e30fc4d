//! Inline SVG charts for the report pages: one colour per structure, the
//! same on every chart and page; a log axis where the values span orders
//! of magnitude (brute force beside the rest); labels that fit.

use crate::measure::RunReport;
use crate::report::SceneResult;
use collide::Structure;
use std::fmt::Write as _;

/// A structure's colour on every chart. A new structure must get one here.
pub fn colour(structure: Structure) -> &'static str {
    match structure {
        Structure::Brute => "#8c6d46",
        Structure::Sap => "#3b6fb6",
        Structure::Sap1 => "#7fb2e5",
        Structure::Grid => "#2e8b57",
        Structure::HashGrid => "#9acd32",
        Structure::HGrid => "#d9822b",
        Structure::Tree => "#c2453d",
        Structure::Loose => "#e89ab8",
        Structure::Bvh => "#8560a8",
        Structure::Auto => "#222222",
    }
}

/// Positive values spanning more than this factor get a log axis.
const LOG_SPAN: f64 = 30.0;

/// Where values fall on a chart's value axis: linear from zero, or
/// logarithmic over whole decades.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axis {
    log: bool,
    lo: f64,
    hi: f64,
    /// A linear axis's distance between grid lines.
    step: f64,
}

impl Axis {
    /// The axis for these values: log when the positive ones span more
    /// than [`LOG_SPAN`], else linear from zero to a round maximum.
    pub fn fit(values: impl IntoIterator<Item = f64>) -> Axis {
        let (mut min, mut max) = (f64::INFINITY, 0.0f64);
        for v in values.into_iter().filter(|v| v.is_finite() && *v > 0.0) {
            min = min.min(v);
            max = max.max(v);
        }
        if max <= 0.0 {
            return Axis {
                log: false,
                lo: 0.0,
                hi: 1.0,
                step: 0.25,
            };
        }
        if max / min > LOG_SPAN {
            let lo = 10f64.powf(min.log10().floor());
            let hi = 10f64.powf(max.log10().ceil()).max(lo * 10.0);
            return Axis {
                log: true,
                lo,
                hi,
                step: 10.0,
            };
        }
        Axis::linear(max)
    }

    /// A linear axis from zero to a round value at or above `max`.
    pub fn linear(max: f64) -> Axis {
        if !(max.is_finite() && max > 0.0) {
            return Axis::fit([]);
        }
        let step = nice_step(max / 4.0);
        Axis {
            log: false,
            lo: 0.0,
            hi: (max / step).ceil() * step,
            step,
        }
    }

    /// Whether the axis is logarithmic.
    pub fn is_log(&self) -> bool {
        self.log
    }

    /// The value's place on the axis, 0 at the bottom to 1 at the top
    /// (clamped; values at or below a log axis's bottom give 0).
    pub fn place(&self, value: f64) -> f64 {
        let at = if self.log {
            if value <= self.lo {
                return 0.0;
            }
            (value / self.lo).log10() / (self.hi / self.lo).log10()
        } else {
            value / self.hi
        };
        at.clamp(0.0, 1.0)
    }

    /// The values to draw grid lines at: each decade on a log axis, round
    /// steps (1, 2 or 5 times a power of ten) on a linear one.
    pub fn ticks(&self) -> Vec<f64> {
        if self.log {
            let decades = (self.hi / self.lo).log10().round() as i32;
            (0..=decades).map(|k| self.lo * 10f64.powi(k)).collect()
        } else {
            let steps = (self.hi / self.step).round() as usize;
            (0..=steps).map(|k| self.step * k as f64).collect()
        }
    }
}

/// 1, 2 or 5 times a power of ten, at least `rough`.
fn nice_step(rough: f64) -> f64 {
    let power = 10f64.powf(rough.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&s| s >= rough)
        .unwrap_or(10.0 * power)
}

/// A tick label: thousands separated, or up to two decimals below 10.
fn tick_label(value: f64) -> String {
    if value != 0.0 && value.abs() < 10.0 {
        let text = format!("{value:.2}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        crate::table::thousands(value)
    }
}

/// Text made safe to put in HTML.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Splits a label into lines of at most `width` characters at spaces.
fn wrap(label: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in label.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.len() + 1 + word.len() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// Draws the grid lines and their labels of `axis` over a plot whose left
/// edge, top, right edge and height are given, in SVG units.
fn draw_axis(svg: &mut String, axis: &Axis, (left, top, right, height): (f64, f64, f64, f64)) {
    for tick in axis.ticks() {
        let y = top + height - height * axis.place(tick);
        let _ = writeln!(
            svg,
            "<line x1=\"{left}\" x2=\"{right}\" y1=\"{y:.1}\" y2=\"{y:.1}\" class=\"grid\"/><text x=\"{}\" y=\"{:.1}\" class=\"tick\">{}</text>",
            left - 6.0,
            y + 4.0,
            tick_label(tick)
        );
    }
}

/// Opens a figure with `caption` and an SVG of `width` by `height` units.
/// The SVG fills the column up to its own width but never shrinks below
/// four fifths of it: past that the figure scrolls sideways, so its labels
/// stay readable in a narrow window.
pub fn open_figure(caption: &str, width: f64, height: f64) -> String {
    let mut html = String::new();
    let _ = writeln!(
        html,
        "<figure><figcaption>{}</figcaption><div class=\"scroll\"><svg viewBox=\"0 0 {width:.0} {height:.0}\" style=\"width:100%;max-width:{width:.0}px;min-width:{:.0}px;height:auto\" role=\"img\">",
        escape(caption),
        0.8 * width
    );
    html
}

/// Closes what [`open_figure`] opened, after the SVG's content.
pub const CLOSE_SVG: &str = "</svg></div>";

/// The structures of the reports, in their first order of appearance.
fn structures_of<'a>(reports: impl IntoIterator<Item = &'a RunReport>) -> Vec<Structure> {
    let mut seen = Vec::new();
    for r in reports {
        if !seen.contains(&r.structure) {
            seen.push(r.structure);
        }
    }
    seen
}

/// A legend of (colour, name, swatch class) entries; the class draws a
/// swatch as its line is drawn (a band, a dash), empty for a plain one.
fn legend<'a>(entries: impl IntoIterator<Item = (&'a str, &'a str, &'a str)>) -> String {
    let mut html = String::from("<div class=\"legend\">");
    for (colour, name, class) in entries {
        let class = if class.is_empty() {
            String::new()
        } else {
            format!(" class=\"{class}\"")
        };
        let _ = write!(
            html,
            "<span><i{class} style=\"background:{colour}\"></i>{}</span>",
            escape(name)
        );
    }
    html.push_str("</div>");
    html
}

/// What a chart shows of one run.
pub type Metric = fn(&RunReport) -> f64;

/// A grouped bar chart: one group per scene, one bar per structure in its
/// colour, on a log axis when the values span orders of magnitude. Each
/// bar's exact value shows on hover.
pub fn bar_chart(title: &str, groups: &[SceneResult], metric: Metric) -> String {
    let structures = structures_of(groups.iter().flat_map(|g| &g.reports));
    let axis = Axis::fit(groups.iter().flat_map(|g| g.reports.iter().map(metric)));
    let (bar_w, gap, left, top, plot_h) = (9.0, 1.5, 64.0, 12.0, 220.0);
    let group_w = (structures.len().max(1) as f64 * (bar_w + gap) + 24.0).max(110.0);
    let label_chars = (group_w / 7.8) as usize;
    let label_lines = groups
        .iter()
        .map(|g| wrap(&g.label, label_chars).len())
        .max()
        .unwrap_or(1);
    let width = left + group_w * groups.len() as f64 + 10.0;
    let height = top + plot_h + 10.0 + 16.0 * label_lines as f64;
    let caption = if axis.is_log() {
        format!("{title} (log scale)")
    } else {
        title.to_string()
    };
    let mut svg = open_figure(&caption, width, height);
    draw_axis(&mut svg, &axis, (left, top, width - 6.0, plot_h));
    for (g, group) in groups.iter().enumerate() {
        // The bars centred under the group's label.
        let centre = left + group_w * (g as f64 + 0.5);
        let x0 = centre - 0.5 * (bar_w + gap) * structures.len() as f64;
        for report in &group.reports {
            let slot = structures
                .iter()
                .position(|&s| s == report.structure)
                .unwrap_or(0);
            let value = metric(report);
            let h = plot_h * axis.place(value);
            let x = x0 + (bar_w + gap) * slot as f64;
            let bottom = top + plot_h;
            let _ = writeln!(
                svg,
                "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{bar_w}\" height=\"{h:.1}\" fill=\"{}\"><title>{}: {} = {}</title></rect>",
                bottom - h,
                colour(report.structure),
                escape(&group.label),
                escape(report.structure.name()),
                tick_label(value)
            );
            // A value at the axis's foot (zero on a log axis) would draw
            // nothing, as if it were missing: a stub and its value instead.
            if h < 1.0 {
                let _ = writeln!(
                    svg,
                    "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{bar_w}\" height=\"2\" fill=\"{}\"/><text x=\"{:.1}\" y=\"{:.1}\" class=\"value\" text-anchor=\"middle\">{}</text>",
                    bottom - 2.0,
                    colour(report.structure),
                    x + 0.5 * bar_w,
                    bottom - 5.0,
                    tick_label(value)
                );
            }
        }
        for (k, line) in wrap(&group.label, label_chars).iter().enumerate() {
            let _ = writeln!(
                svg,
                "<text x=\"{centre:.1}\" y=\"{:.1}\" class=\"label\" text-anchor=\"middle\">{}</text>",
                top + plot_h + 18.0 + 16.0 * k as f64,
                escape(line)
            );
        }
    }
    svg.push_str(CLOSE_SVG);
    svg.push_str(&legend(
        structures.iter().map(|&s| (colour(s), s.name(), "")),
    ));
    svg.push_str("</figure>\n");
    svg
}

/// Each report's time per frame (frames 1 on), frame by frame, as small
/// panels one above the other, each on its own axis from zero so that
/// where a structure's frames spike shows; its mean and p99 are written
/// beside it for comparing panels.
pub fn timeline(title: &str, reports: &[RunReport]) -> String {
    let frames = reports
        .iter()
        .map(|r| r.frame_micros.len())
        .max()
        .unwrap_or(0);
    let (left, panel_h, gap, plot_w) = (150.0, 56.0, 16.0, 700.0);
    let width = left + plot_w + 150.0;
    let height = 10.0 + (panel_h + gap) * reports.len() as f64 + 24.0;
    let mut svg = open_figure(title, width, height);
    let x_of = |f: usize| left + plot_w * f as f64 / (frames.max(2) - 1) as f64;
    for (k, r) in reports.iter().enumerate() {
        let top = 10.0 + (panel_h + gap) * k as f64;
        let times = r.frame_micros.iter().skip(1).copied();
        let axis = Axis::linear(times.clone().fold(0.0, f64::max));
        draw_panel_axis(&mut svg, &axis, (left, top, left + plot_w, panel_h));
        let points: Vec<String> = times
            .enumerate()
            .map(|(f, t)| {
                format!(
                    "{:.1},{:.1}",
                    x_of(f + 1),
                    top + panel_h - panel_h * axis.place(t)
                )
            })
            .collect();
        let c = colour(r.structure);
        let (mean, p99) = r.steady_frame_micros();
        let _ = writeln!(
            svg,
            "<polyline fill=\"none\" stroke=\"{c}\" stroke-width=\"1.2\" points=\"{}\"/><text x=\"8\" y=\"{:.1}\" font-size=\"13\" font-weight=\"600\" fill=\"{c}\">{}</text><text x=\"{}\" y=\"{:.1}\" class=\"label\">mean {} p99 {}</text>",
            points.join(" "),
            top + panel_h / 2.0 + 4.0,
            escape(r.structure.name()),
            left + plot_w + 10.0,
            top + panel_h / 2.0 + 4.0,
            tick_label(mean),
            tick_label(p99)
        );
    }
    let _ = writeln!(
        svg,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" class=\"label\">frame (1 to {})</text>{CLOSE_SVG}</figure>",
        left + plot_w / 2.0,
        height - 6.0,
        frames.saturating_sub(1)
    );
    svg
}

/// A panel's grid: its bottom and top lines labelled, the lines between
/// drawn unlabelled.
fn draw_panel_axis(
    svg: &mut String,
    axis: &Axis,
    (left, top, right, height): (f64, f64, f64, f64),
) {
    let ticks = axis.ticks();
    for (k, &tick) in ticks.iter().enumerate() {
        let y = top + height - height * axis.place(tick);
        let _ = writeln!(
            svg,
            "<line x1=\"{left}\" x2=\"{right}\" y1=\"{y:.1}\" y2=\"{y:.1}\" class=\"grid\"/>"
        );
        if k == 0 || k + 1 == ticks.len() {
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{:.1}\" class=\"tick\">{}</text>",
                left - 6.0,
                y + 4.0,
                tick_label(tick)
            );
        }
    }
}

/// One line of a [`line_chart`]: its name, colour and (x, y) points.
#[derive(Clone, Debug)]
pub struct Series {
    /// The name in the legend.
    pub name: String,
    /// Its CSS colour.
    pub colour: &'static str,
    /// The points, in order of x.
    pub points: Vec<(f64, f64)>,
    /// How its line is drawn.
    pub stroke: Stroke,
}

/// How a series' line is drawn, so that lines that lie on each other (a
/// simulation on its exact law) all stay visible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stroke {
    /// A plain line.
    Line,
    /// A wide, pale band drawn under the others: the reference a thin
    /// line on top is checked against.
    Band,
    /// A dashed line on top of the others.
    Dashed,
}

/// A fixed line across a [`line_chart`]: a wall, a floor, a surface.
#[derive(Clone, Debug)]
pub struct Mark {
    /// Where it stands.
    pub at: MarkAt,
    /// Its label, written beside it.
    pub label: String,
}

/// Where a [`Mark`] stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MarkAt {
    /// Upright at this x.
    X(f64),
    /// Across at this y.
    Y(f64),
}

/// How a line chart's y axis is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Log when the values span orders of magnitude, else linear.
    Fit,
    /// Always linear from zero: for paths in space.
    Linear,
}

/// A line chart of several series over a shared x axis, its y axis by
/// `scale`, with `marks` drawn across it (the axes widen to show them).
/// Bands go under the lines and dashed lines over them.
pub fn line_chart(
    title: &str,
    x_label: &str,
    series: &[Series],
    marks: &[Mark],
    scale: Scale,
) -> String {
    let points = || series.iter().flat_map(|s| s.points.iter().copied());
    let mark_ys = || {
        marks.iter().filter_map(|m| match m.at {
            MarkAt::Y(y) => Some(y),
            MarkAt::X(_) => None,
        })
    };
    let axis = match scale {
        Scale::Fit => Axis::fit(points().map(|(_, y)| y).chain(mark_ys())),
        Scale::Linear => Axis::linear(
            points()
                .map(|(_, y)| y)
                .chain(mark_ys())
                .fold(0.0, f64::max),
        ),
    };
    let mark_xs = marks.iter().filter_map(|m| match m.at {
        MarkAt::X(x) => Some(x),
        MarkAt::Y(_) => None,
    });
    let (x_min, x_max) = points()
        .map(|(x, _)| x)
        .chain(mark_xs)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
            (lo.min(x), hi.max(x))
        });
    let x_span = if x_max > x_min { x_max - x_min } else { 1.0 };
    let (left, top, plot_w, plot_h) = (64.0, 12.0, 720.0, 260.0);
    let (width, height) = (left + plot_w + 20.0, top + plot_h + 44.0);
    let caption = if axis.is_log() {
        format!("{title} (log scale)")
    } else {
        title.to_string()
    };
    let mut svg = open_figure(&caption, width, height);
    draw_axis(&mut svg, &axis, (left, top, left + plot_w, plot_h));
    let x_at = |x: f64| left + plot_w * (x - x_min) / x_span;
    let y_at = |y: f64| top + plot_h - plot_h * axis.place(y);
    for mark in marks {
        let (x1, y1, x2, y2, tx, ty, anchor) = match mark.at {
            MarkAt::X(x) => (
                x_at(x),
                top,
                x_at(x),
                top + plot_h,
                x_at(x) - 4.0,
                top + 14.0,
                "end",
            ),
            MarkAt::Y(y) => (
                left,
                y_at(y),
                left + plot_w,
                y_at(y),
                left + plot_w - 4.0,
                y_at(y) - 5.0,
                "end",
            ),
        };
        let _ = writeln!(
            svg,
            "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" class=\"mark\"/><text x=\"{tx:.1}\" y=\"{ty:.1}\" class=\"mark-label\" text-anchor=\"{anchor}\">{}</text>",
            escape(&mark.label)
        );
    }
    let layers = [Stroke::Band, Stroke::Line, Stroke::Dashed];
    for layer in layers {
        for s in series.iter().filter(|s| s.stroke == layer) {
            let path: Vec<String> = s
                .points
                .iter()
                .map(|&(x, y)| format!("{:.1},{:.1}", x_at(x), y_at(y)))
                .collect();
            let style = match layer {
                Stroke::Band => {
                    "stroke-width=\"7\" stroke-opacity=\"0.35\" stroke-linecap=\"round\""
                }
                Stroke::Line => "stroke-width=\"1.6\"",
                Stroke::Dashed => "stroke-width=\"1.6\" stroke-dasharray=\"5 4\"",
            };
            let _ = writeln!(
                svg,
                "<polyline fill=\"none\" stroke=\"{}\" {style} points=\"{}\"><title>{}</title></polyline>",
                s.colour,
                path.join(" "),
                escape(&s.name)
            );
        }
    }
    let _ = writeln!(
        svg,
        "<text x=\"{left}\" y=\"{}\" class=\"label\">{}</text><text x=\"{}\" y=\"{}\" class=\"label\" text-anchor=\"end\">{}</text><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" class=\"label\">{}</text>{CLOSE_SVG}",
        top + plot_h + 18.0,
        tick_label(x_min),
        left + plot_w,
        top + plot_h + 18.0,
        tick_label(x_max),
        left + plot_w / 2.0,
        height - 6.0,
        escape(x_label)
    );
    svg.push_str(&legend(series.iter().map(|s| {
        let class = match s.stroke {
            Stroke::Line => "",
            Stroke::Band => "band",
            Stroke::Dashed => "dashed",
        };
        (s.colour, s.name.as_str(), class)
    })));
    svg.push_str("</figure>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_structure_has_its_own_colour() {
        let colours: std::collections::BTreeSet<_> =
            Structure::ALL.into_iter().map(colour).collect();
        assert_eq!(colours.len(), Structure::ALL.len());
    }

    #[test]
    fn values_spanning_decades_get_a_log_axis_over_whole_decades() {
        let axis = Axis::fit([3.0, 40.0, 25_000.0]);
        assert!(axis.is_log());
        assert_eq!(
            axis.ticks(),
            vec![1.0, 10.0, 100.0, 1_000.0, 10_000.0, 100_000.0]
        );
        assert_eq!(axis.place(1.0), 0.0);
        assert!((axis.place(1_000.0) - 0.6).abs() < 1e-12);
        assert_eq!(axis.place(0.0), 0.0);
    }

    #[test]
    fn close_values_keep_a_linear_axis_from_zero_to_a_round_top() {
        let axis = Axis::fit([120.0, 310.0, 0.0]);
        assert!(!axis.is_log());
        assert_eq!(axis.ticks(), vec![0.0, 100.0, 200.0, 300.0, 400.0]);
        assert_eq!(Axis::fit([0.0; 3]).ticks().len(), 5);
    }

    #[test]
    fn long_labels_wrap_at_spaces() {
        assert_eq!(
            wrap("2D uniform slow n=10000", 12),
            vec!["2D uniform", "slow n=10000"]
        );
    }

    fn group(label: &str, reports: Vec<RunReport>) -> SceneResult {
        SceneResult {
            label: label.to_string(),
            side: 0.0,
            stats: collide_scenes::SceneStats::default(),
            reports,
        }
    }

    fn with_maintenance(structure: Structure, ops: u64) -> RunReport {
        let mut r = RunReport::new(structure);
        r.frames = 1;
        r.maintenance_ops = ops;
        r
    }

    #[test]
    fn a_zero_on_a_log_axis_draws_a_stub_and_its_value_not_nothing() {
        let groups = [group(
            "fast",
            vec![
                with_maintenance(Structure::Sap, 0),
                with_maintenance(Structure::Grid, 5_000),
                with_maintenance(Structure::Bvh, 3),
            ],
        )];
        let svg = bar_chart("maintenance", &groups, |r| r.per_frame(r.maintenance_ops));
        assert!(svg.contains("(log scale)"));
        let stub = format!("height=\"2\" fill=\"{}\"", colour(Structure::Sap));
        assert!(svg.contains(&stub), "{svg}");
        assert!(svg.contains("class=\"value\" text-anchor=\"middle\">0</text>"));
    }

    #[test]
    fn a_lone_bar_stands_centred_under_its_label() {
        let groups = [group(
            "x1 (76.8)",
            vec![with_maintenance(Structure::HashGrid, 7)],
        )];
        let svg = bar_chart("cells", &groups, |r| r.per_frame(r.maintenance_ops));
        let number = |after: &str| -> f64 {
            let at = svg.find(after).unwrap() + after.len();
            svg[at..].split('"').next().unwrap().parse().unwrap()
        };
        let bar_centre = number("<rect x=\"") + 0.5 * 9.0;
        // The label is the text that holds the group's name.
        let label_at = svg.find(">x1 (76.8)<").unwrap();
        let label_x: f64 = svg[..label_at]
            .rsplit("<text x=\"")
            .next()
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(
            (bar_centre - label_x).abs() < 2.0,
            "bar at {bar_centre}, label at {label_x}"
        );
    }

    #[test]
    fn marks_widen_the_axes_to_show_themselves() {
        let series = [Series {
            name: "path".to_string(),
            colour: "#000",
            points: vec![(0.0, 1.0), (8.75, 2.0)],
            stroke: Stroke::Line,
        }];
        let marks = [
            Mark {
                at: MarkAt::X(9.0),
                label: "wall".to_string(),
            },
            Mark {
                at: MarkAt::Y(0.0),
                label: "floor".to_string(),
            },
        ];
        let svg = line_chart("path", "x", &series, &marks, Scale::Linear);
        assert!(
            svg.contains(">9</text>"),
            "the x axis reaches the wall: {svg}"
        );
        assert!(svg.contains(">wall</text>") && svg.contains(">floor</text>"));
    }
}
