//! The web swing's part of the demo report: a swing's energy over a
//! minute under the turning step and the plain step, and a run down a
//! street seen from above, each rope's anchor chosen on the buildings,
//! with the simulated pivot drifting toward the street's line and without.

use crate::box_world::{BoxWorld, GRAVITY};
use crate::chart::{Scale, Series, Stroke, line_chart};
use collide_game::D3;
use collide_game::swing::{AnchorSettings, RopeStep, SwingSettings, Swinger, choose_anchor};
use collide_game::time::TimeStep;
use glam::Vec3;
use std::fmt::Write as _;

/// A 10 m rope from 60 degrees for 60 s at 60 ticks a second: the
/// swing's energy above the arc's low point each quarter second, as a
/// share of the start's.
fn energy_series(step: RopeStep) -> Vec<(f64, f64)> {
    let valid = "the demo's swing is valid";
    let pivot = Vec3::new(0.0, 50.0, 0.0);
    let angle = 60f32.to_radians();
    let start = pivot + 10.0 * Vec3::new(angle.sin(), -angle.cos(), 0.0);
    let settings = SwingSettings::new(0.3).expect(valid).with_step(step);
    let mut body = Swinger::<D3>::new(settings, start, Vec3::ZERO).expect(valid);
    body.attach(pivot, pivot, 10.0).expect(valid);
    let above_low = |b: &Swinger<D3>| f64::from(b.energy(GRAVITY) - 9.81 * 40.0);
    let e0 = above_low(&body);
    let dt = TimeStep::new(1.0 / 60.0).expect(valid);
    let mut points = vec![(0.0, 1.0)];
    BoxWorld::new(Vec::new()).around(|around| {
        for tick in 1..=3600 {
            body.step(dt, Vec3::ZERO, around).expect(valid);
            if tick % 15 == 0 {
                points.push((f64::from(tick) / 60.0, above_low(&body) / e0));
            }
        }
    });
    points
}

/// One run down the street: the body's path and the anchors used.
struct Run {
    path: Vec<Vec3>,
    anchors: Vec<Vec3>,
}

/// The street: 16 m wide along +z, blocks of buildings on both sides.
fn street() -> BoxWorld {
    let mut boxes = vec![(Vec3::new(-60.0, -1.0, -20.0), Vec3::new(60.0, 0.0, 400.0))];
    let heights = [38.0, 52.0, 44.0, 60.0, 41.0, 55.0, 47.0, 36.0, 58.0, 43.0];
    for (k, h) in heights.iter().enumerate() {
        let z = k as f32 * 36.0;
        boxes.push((Vec3::new(-40.0, 0.0, z), Vec3::new(-8.0, *h, z + 30.0)));
        let other = heights[(k + 3) % heights.len()];
        boxes.push((
            Vec3::new(8.0, 0.0, z + 12.0),
            Vec3::new(40.0, other, z + 42.0),
        ));
    }
    BoxWorld::new(boxes)
}

/// Swings down the street for 12 s: a rope is chosen when falling with
/// none, and let go once past the pivot and rising.
fn street_run(city: &BoxWorld, drift: bool) -> Run {
    let valid = "the demo's swing is valid";
    let (speed, reach) = if drift { (6.0, 6.0) } else { (0.0, 0.0) };
    let settings = SwingSettings::new(0.4)
        .expect(valid)
        .with_pivot_drift(speed, reach)
        .expect(valid);
    let anchors = AnchorSettings::new(8.0, 30.0).expect(valid);
    let mut body = Swinger::<D3>::new(
        settings,
        Vec3::new(0.0, 32.0, 0.0),
        Vec3::new(0.0, 0.0, 16.0),
    )
    .expect(valid);
    let wish = Vec3::Z;
    let dt = TimeStep::new(1.0 / 60.0).expect(valid);
    let mut run = Run {
        path: Vec::new(),
        anchors: Vec::new(),
    };
    city.around(|around| {
        for _ in 0..12 * 60 {
            match body.rope().copied() {
                None if body.velocity().y < 0.0 => {
                    if let Some(anchor) =
                        choose_anchor(body.position(), wish, &anchors, around).expect(valid)
                    {
                        body.attach(anchor.point(), anchor.pivot(), anchor.length())
                            .expect(valid);
                        run.anchors.push(anchor.point());
                    }
                }
                Some(rope) => {
                    let past = (body.position() - rope.pivot()).dot(wish) > 0.4 * rope.length();
                    if past && body.velocity().y > 0.0 {
                        body.release();
                    }
                }
                None => {}
            }
            body.step(dt, wish, around).expect(valid);
            run.path.push(body.position());
        }
    });
    run
}

/// The street from above: buildings, the two runs' paths and anchors.
fn street_svg(city: &BoxWorld, runs: &[(&Run, &str)]) -> String {
    let (s, z0, z1, x0, x1) = (6.0f32, -4.0f32, 136.0f32, -24.0f32, 24.0f32);
    let (w, h) = ((z1 - z0) * s, (x1 - x0) * s);
    let px = |p: Vec3| ((p.z - z0) * s, (x1 - p.x) * s);
    let mut svg = format!(
        "<figure><svg viewBox=\"0 0 {w:.0} {h:.0}\" width=\"{w:.0}\" height=\"{h:.0}\" style=\"max-width:100%;height:auto;background:#f4f4f1\" role=\"img\">\n"
    );
    for &(lo, hi) in city.corners().iter().skip(1) {
        let (a, b) = (
            px(Vec3::new(hi.x, 0.0, lo.z)),
            px(Vec3::new(lo.x, 0.0, hi.z)),
        );
        let _ = writeln!(
            svg,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#c9c9c4\" stroke=\"#9a9a94\"/>",
            a.0,
            a.1,
            b.0 - a.0,
            b.1 - a.1
        );
    }
    for (run, colour) in runs {
        let points: Vec<String> = run
            .path
            .iter()
            .map(|&p| {
                let (x, y) = px(p);
                format!("{x:.1},{y:.1}")
            })
            .collect();
        let _ = writeln!(
            svg,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"/>",
            points.join(" ")
        );
        for &a in &run.anchors {
            let (x, y) = px(a);
            let _ = writeln!(
                svg,
                "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"4\" fill=\"{colour}\"/>"
            );
        }
    }
    svg.push_str("</svg></figure>\n");
    svg
}

/// How far a run strays from the street's middle line: the mean of |x|.
fn straying(run: &Run) -> f32 {
    run.path.iter().map(|p| p.x.abs()).sum::<f32>() / run.path.len().max(1) as f32
}

/// The web swing section of the demo page.
pub fn swing_section() -> String {
    let turning = energy_series(RopeStep::TurnWithRope);
    let plain = energy_series(RopeStep::DeleteOutward);
    let last = |p: &[(f64, f64)]| p.last().map_or(1.0, |q| q.1);
    let mut html = format!(
        "<h3>Web swing</h3>\n<p>A 10 m rope from 60 degrees, 60 ticks a second, for a minute: the swing's energy above the bottom of its arc, as a share of the start's. The plain step (pull the body back onto the rope's sphere, delete the outward velocity) ends at {:.0}%; turning the velocity with the rope ends at {:.1}% and never strays past 1.5%.</p>\n",
        100.0 * last(&plain),
        100.0 * last(&turning)
    );
    html.push_str(&line_chart(
        "Swing energy as a share of the start's",
        "time (s)",
        &[
            Series {
                name: "turn the velocity with the rope".into(),
                colour: "#3b6fb6",
                points: turning,
                stroke: Stroke::Line,
            },
            Series {
                name: "plain: delete the outward velocity".into(),
                colour: "#c2453d",
                points: plain,
                stroke: Stroke::Line,
            },
        ],
        &[],
        Scale::Linear,
    ));
    let city = street();
    let (drifting, fixed) = (street_run(&city, true), street_run(&city, false));
    let _ = writeln!(
        html,
        "<p>Swinging down a street, seen from above (the street runs left to right, buildings grey). Each rope sticks where the anchor choice puts it (dots): candidate points on the faces of the boxes around the buildings, scored by the wished direction, the rope's length and angle, the best confirmed by one ray. Blue: the simulated pivot drifts toward the street's line, up to 6 m at 6 m/s, while the drawn rope stays on the wall; red: the pivot stays on the wall, and each swing pulls the body toward the building it hangs from. Mean distance from the street's middle: {:.1} m with the drift, {:.1} m without.</p>",
        straying(&drifting),
        straying(&fixed)
    );
    html.push_str(&street_svg(
        &city,
        &[(&fixed, "#c2453d"), (&drifting, "#3b6fb6")],
    ));
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_turning_step_holds_and_the_drift_keeps_the_body_on_the_street() {
        let turning = energy_series(RopeStep::TurnWithRope);
        let plain = energy_series(RopeStep::DeleteOutward);
        assert!(turning.iter().all(|p| (p.1 - 1.0).abs() < 0.015));
        assert!(plain.last().unwrap().1 < 0.5);
        let city = street();
        let (drifting, fixed) = (street_run(&city, true), street_run(&city, false));
        assert!(
            drifting.anchors.len() >= 5,
            "{} ropes",
            drifting.anchors.len()
        );
        assert!(
            drifting.path.last().unwrap().z > 100.0,
            "it travels down the street"
        );
        assert!(straying(&drifting) < straying(&fixed));
    }
}
