//! The game layer's part of the demo report: each system shown by a chart
//! or an animation computed here, in the same run.

use crate::chart::{Scale, Series, Stroke, line_chart};
use collide::motion::{Response, SweepLimits, d2 as motion2};
use collide::narrow::Support;
use collide::narrow::d2::{Circle, Cuboid, Pose};
use collide::{BroadPhase, Bvh, Handle};
use collide_game::time::{Integrator, PointState, TimeStep, Verlet};
use glam::Vec2;
use std::f64::consts::TAU;

/// Ticks a second of the integrators' chart: a common game rate, coarse
/// enough for the integrators to differ visibly.
const TICKS_PER_SECOND: f64 = 30.0;
/// Seconds the integrators' chart covers.
const SECONDS: f64 = 10.0;

/// The amplitude of a 1 Hz spring, √(x² + (v/ω)²), tick by tick under each
/// integrator: 1 is exact.
fn integrator_series() -> Vec<Series> {
    let omega = TAU;
    let dt = TimeStep::new(1.0 / TICKS_PER_SECOND).expect("a positive step");
    let steps = (SECONDS * TICKS_PER_SECOND) as usize;
    let amplitude = |x: f64, v: f64| (x * x + (v / omega).powi(2)).sqrt();
    let spring = |x: f64, _: f64| -omega * omega * x;
    let mut series: Vec<Series> = [
        (Integrator::ExplicitEuler, "explicit Euler", "#c2453d"),
        (
            Integrator::SemiImplicitEuler,
            "semi-implicit Euler",
            "#3b6fb6",
        ),
        (Integrator::Rk4, "RK4", "#2e8b57"),
    ]
    .into_iter()
    .map(|(integrator, name, colour)| {
        let mut s = PointState {
            position: 1.0,
            velocity: 0.0,
        };
        let mut points = vec![(0.0, 1.0)];
        for k in 1..=steps {
            s = integrator.step(s, dt, spring);
            points.push((
                k as f64 / TICKS_PER_SECOND,
                amplitude(s.position, s.velocity),
            ));
        }
        Series {
            name: name.to_string(),
            colour,
            points,
            stroke: Stroke::Line,
        }
    })
    .collect();
    let mut verlet = Verlet::new(1.0, 0.0);
    let mut points = vec![(0.0, 1.0)];
    for k in 1..=steps {
        verlet.step(dt, |x| -omega * omega * x);
        // Verlet's velocity is the last step's average, half a step
        // behind the position: its amplitude wobbles by that much.
        points.push((
            k as f64 / TICKS_PER_SECOND,
            amplitude(verlet.position(), verlet.velocity()),
        ));
    }
    series.push(Series {
        name: "Verlet".to_string(),
        colour: "#d9822b",
        points,
        stroke: Stroke::Line,
    });
    series
}

/// A 0.1 m ball fired over one 60 Hz tick at a 1 cm wall whose near face
/// is at 1 m, at speeds from 1 to 10,000 m/s: where the ball's centre
/// ends, by four quarter steps that check only their ends, and by the
/// sweep.
fn tunnel_series() -> Vec<Series> {
    let (radius, thickness) = (0.05f32, 0.01f32);
    let wall = Cuboid::new(Vec2::new(thickness / 2.0, 1.0)).expect("a valid wall");
    let ball = Circle::new(radius).expect("a valid ball");
    let wall_at = Pose::at(Vec2::new(1.0 + thickness / 2.0, 0.0)).expect("a valid pose");
    let mut world: Bvh<Vec2> = Bvh::new();
    let id = world.insert(wall.aabb(&wall_at), ()).expect("a valid box");
    world.step();
    let shape_of = |h: Handle| (h == id).then_some((&wall as &dyn Support<Vec2>, wall_at));
    let start = Pose::at(Vec2::new(1.0 - radius - 1e-5, 0.0)).expect("a valid pose");
    let (mut stepped, mut swept) = (Vec::new(), Vec::new());
    for k in 0..=200 {
        let log_speed = 4.0 * k as f64 / 200.0;
        let motion = Vec2::new(10f32.powf(log_speed as f32) / 60.0, 0.0);
        let quarter = motion2::substep(&world, shape_of, &ball, start, motion, 4);
        let sweep = motion2::sweep(
            &world,
            shape_of,
            &ball,
            start,
            motion,
            Response::Stop,
            SweepLimits::default(),
        );
        let past = |pose: Pose| f64::from(pose.position().x);
        stepped.push((log_speed, past(quarter.end)));
        swept.push((log_speed, past(sweep.end)));
    }
    vec![
        Series {
            name: "four quarter steps, ends checked".to_string(),
            colour: "#c2453d",
            points: stepped,
            stroke: Stroke::Line,
        },
        Series {
            name: "sweep".to_string(),
            colour: "#3b6fb6",
            points: swept,
            stroke: Stroke::Line,
        },
    ]
}

/// The game layer's section of the demo page.
pub fn game_section() -> String {
    let mut html = String::from(
        "<h2>Game layer</h2>\n<h3>Integrators</h3>\n<p>A 1 Hz spring stepped 30 times a second for 10 seconds from rest at 1, under each integrator. The line is the amplitude its state implies: the exact answer stays at 1. Explicit Euler gains energy every step (2.6 times in the first 1.5 s); semi-implicit Euler's error rises and falls without growing; RK4 stays on the line; Verlet, at a fixed step, takes the same positions as semi-implicit Euler.</p>\n",
    );
    let series = integrator_series();
    html.push_str(&line_chart(
        "Spring amplitude by integrator, 30 ticks a second",
        "time (s)",
        &series,
        &[],
        Scale::Fit,
    ));
    // The three that hold, on a linear axis where their wobble shows.
    let holding: Vec<Series> = series
        .into_iter()
        .filter(|s| s.name != "explicit Euler")
        .collect();
    html.push_str(&line_chart(
        "The integrators that hold, close up: spring amplitude",
        "time (s)",
        &holding,
        &[],
        Scale::Fit,
    ));
    html.push_str(&crate::character_demo::character_section());
    html.push_str(&crate::projectile_demo::projectile_section());
    html.push_str(&crate::hitbox_demo::hitbox_section());
    html.push_str(&crate::sand_demo::sand_section());
    html.push_str(&crate::fracture_demo::fracture_section());
    html.push_str(&crate::swing_demo::swing_section());
    html.push_str(&crate::vehicle_demo::vehicle_section());
    html.push_str(&crate::ragdoll_demo::ragdoll_section());
    html.push_str("<h3>Why old games tunnel</h3>\n<p>A 0.1 m ball fired at a 1 cm wall over one 60 Hz tick. Moved in four quarter steps that look only at where each ends (as Super Mario 64 moves), it is caught while a quarter step is shorter than the wall plus the ball (0.11 m, about 26 m/s) and passes straight through above that. The sweep checks the whole path and stops at the wall at every speed. The lines are where the ball's centre ends; the wall spans 1.00 to 1.01 m, and the ball starts touching it at 0.95 m.</p>\n");
    html.push_str(&line_chart(
        "Where the ball ends after one tick (m), by speed",
        "speed: log10 of metres per second (1 to 10,000)",
        &tunnel_series(),
        &[],
        Scale::Fit,
    ));
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chart_shows_explicit_euler_growing_and_the_others_holding() {
        let series = integrator_series();
        let last = |name: &str| {
            series
                .iter()
                .find(|s| s.name == name)
                .and_then(|s| s.points.last())
                .expect("every series has points")
                .1
        };
        assert!(last("explicit Euler") > 100.0);
        assert!((last("semi-implicit Euler") - 1.0).abs() < 0.15);
        assert!((last("RK4") - 1.0).abs() < 0.01);
    }
}
