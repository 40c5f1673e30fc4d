//! The clock and the integrators against closed forms: a 1 Hz spring
//! (x = cos 2πt), constant acceleration, and frame-rate independence.

use collide_game::GameError;
use collide_game::glam;
use collide_game::time::{
    ClockSettings, FixedClock, Integrator, PointState, TimeStep, Verlet, rk4,
};
use std::f64::consts::TAU;

/// A 1 Hz spring: a = -ω² x.
const OMEGA: f64 = TAU;

fn spring(x: f64, _v: f64) -> f64 {
    -OMEGA * OMEGA * x
}

/// The spring's energy per unit mass, as an amplitude: √(x² + (v/ω)²).
fn amplitude(s: PointState<f64>) -> f64 {
    (s.position * s.position + (s.velocity / OMEGA).powi(2)).sqrt()
}

fn energy(s: PointState<f64>) -> f64 {
    0.5 * s.velocity * s.velocity + 0.5 * OMEGA * OMEGA * s.position * s.position
}

fn run(integrator: Integrator, dt: f64, steps: usize) -> PointState<f64> {
    let dt = TimeStep::new(dt).unwrap();
    let mut s = PointState {
        position: 1.0,
        velocity: 0.0,
    };
    for _ in 0..steps {
        s = integrator.step(s, dt, spring);
    }
    s
}

#[test]
fn explicit_euler_grows_a_1_hz_spring_2_63_times_in_1_5_s_at_30_ticks_a_second() {
    let growth = amplitude(run(Integrator::ExplicitEuler, 1.0 / 30.0, 45));
    assert!((growth - 2.63).abs() <= 0.01, "grew {growth} times");
    // Semi-implicit Euler over the same ticks stays near the start.
    let semi = amplitude(run(Integrator::SemiImplicitEuler, 1.0 / 30.0, 45));
    assert!((semi - 1.0).abs() < 0.12, "semi-implicit: {semi}");
}

#[test]
fn semi_implicit_euler_keeps_the_energy_bounded_without_drift_for_10000_steps() {
    let dt = TimeStep::new(1.0 / 30.0).unwrap();
    let mut s = PointState {
        position: 1.0,
        velocity: 0.0,
    };
    let start = energy(s);
    let mut ratios = Vec::with_capacity(10_000);
    for _ in 0..10_000 {
        s = Integrator::SemiImplicitEuler.step(s, dt, spring);
        ratios.push(energy(s) / start);
    }
    let (low, high) = ratios.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &r| {
        (lo.min(r), hi.max(r))
    });
    assert!(
        low >= 0.90 && high <= 1.12,
        "energy ratio from {low} to {high}"
    );
    // No drift: the first and last thousand steps average the same energy
    // (each averages about 33 whole periods of the oscillating error).
    let mean = |r: &[f64]| r.iter().sum::<f64>() / r.len() as f64;
    let (first, last) = (mean(&ratios[..1_000]), mean(&ratios[9_000..]));
    assert!((first - last).abs() < 1e-3, "first {first}, last {last}");
    // Explicit Euler over the same steps is far outside.
    let explicit = energy(run(Integrator::ExplicitEuler, 1.0 / 30.0, 100)) / start;
    assert!(
        explicit > 50.0,
        "explicit Euler after 100 steps: {explicit}"
    );
}

#[test]
fn rk4_error_falls_16_times_when_the_step_halves() {
    let error = |ticks_per_second: usize| {
        let s = run(
            Integrator::Rk4,
            1.0 / ticks_per_second as f64,
            2 * ticks_per_second,
        );
        // After 2 s the 1 Hz spring is back at x = 1, v = 0.
        ((s.position - 1.0).powi(2) + (s.velocity / OMEGA).powi(2)).sqrt()
    };
    for rate in [30, 60, 120] {
        let ratio = error(rate) / error(2 * rate);
        assert!(
            (ratio - 16.0).abs() <= 1.5,
            "{rate} Hz: the error fell {ratio} times"
        );
    }
    // The general first-order form agrees with the second-order one.
    let dt = TimeStep::new(1.0 / 60.0).unwrap();
    let mut y = [1.0f64, 0.0];
    let mut s = PointState {
        position: 1.0,
        velocity: 0.0,
    };
    for k in 0..120 {
        let v = glam::DVec2::from(y);
        y = rk4(v, k as f64 / 60.0, dt, |_, y| {
            glam::DVec2::new(y.y, -OMEGA * OMEGA * y.x)
        })
        .into();
        s = Integrator::Rk4.step(s, dt, spring);
    }
    assert!((y[0] - s.position).abs() < 1e-12 && (y[1] - s.velocity).abs() < 1e-12);
}

#[test]
fn verlet_is_exact_under_gravity_when_the_step_changes() {
    let g = glam::DVec2::new(0.0, -9.81);
    let (x0, v0) = (glam::DVec2::new(1.0, 50.0), glam::DVec2::new(3.0, 12.0));
    let mut point = Verlet::new(x0, v0);
    let mut rng = 12345u64;
    let mut t = 0.0;
    for _ in 0..500 {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let dt = 1.0 / 240.0 + (rng >> 40) as f64 / (1u64 << 24) as f64 / 20.0;
        point.step(TimeStep::new(dt).unwrap(), |_| g);
        t += dt;
        let exact = x0 + v0 * t + g * (t * t / 2.0);
        assert!(
            (point.position() - exact).length() < 1e-9 * (1.0 + exact.length()),
            "at t = {t}: {} against {exact}",
            point.position()
        );
    }
    // Plain Verlet, which ignores the change of step, drifts off.
    let (mut x, mut previous, mut t) = (x0, x0 - v0 * 0.01 + g * 0.00005, 0.0);
    for dt in [0.01, 0.02, 0.005, 0.03] {
        let next = x * 2.0 - previous + g * (dt * dt);
        (previous, x) = (x, next);
        t += dt;
    }
    let exact = x0 + v0 * t + g * (t * t / 2.0);
    assert!((x - exact).length() > 1e-3, "plain Verlet should miss");
}

/// A spring ticked by the clock from frames of the given lengths until
/// `seconds` of frames have passed: the ticks run and the final state.
fn ticked(frames: impl Iterator<Item = f64>, seconds: f64) -> (u64, Vec<f64>, PointState<f32>) {
    let mut clock = FixedClock::new(ClockSettings::new(1.0 / 60.0, 8).unwrap());
    let mut s = PointState {
        position: 1.0f32,
        velocity: 0.0,
    };
    let (mut elapsed, mut times) = (0.0, Vec::new());
    for frame in frames {
        if elapsed + frame > seconds {
            break;
        }
        elapsed += frame;
        for tick in clock.advance(frame).unwrap() {
            assert_eq!(tick.index(), times.len() as u64);
            times.push(tick.time());
            s = Integrator::SemiImplicitEuler.step(s, tick.step(), |x, _| {
                -(std::f32::consts::TAU * std::f32::consts::TAU) * x
            });
        }
    }
    (clock.tick(), times, s)
}

#[test]
fn frame_rates_of_30_60_144_hz_or_jittered_give_the_same_ticks_and_the_same_bits() {
    // 3.5 s plus a third of a tick: no frame rate ends on a tick boundary.
    let seconds = 3.5 + 1.0 / 180.0;
    let runs = [
        ticked(std::iter::repeat(1.0 / 30.0), seconds),
        ticked(std::iter::repeat(1.0 / 60.0), seconds),
        ticked(std::iter::repeat(1.0 / 144.0), seconds),
        ticked(
            (0u64..).map(|k| {
                let jitter = (k.wrapping_mul(2654435761) % 1000) as f64 / 1000.0;
                0.004 + 0.02 * jitter
            }),
            seconds,
        ),
    ];
    let (ticks, times, state) = &runs[1];
    assert_eq!(*ticks, 210);
    for (k, (other_ticks, other_times, other_state)) in runs.iter().enumerate() {
        // The jittered frames stop short of the end by up to a frame.
        if k < 3 {
            assert_eq!(other_ticks, ticks, "run {k}");
            assert_eq!(
                other_state.position.to_bits(),
                state.position.to_bits(),
                "run {k}"
            );
            assert_eq!(
                other_state.velocity.to_bits(),
                state.velocity.to_bits(),
                "run {k}"
            );
        }
        assert_eq!(&times[..other_times.len()], &other_times[..], "run {k}");
    }
    // Ticks' times are index × length, not a running sum.
    assert_eq!(times[209], 209.0 * (1.0 / 60.0));
}

#[test]
fn a_stalled_frame_runs_the_cap_and_reports_the_rest_as_dropped() {
    let mut clock = FixedClock::new(ClockSettings::new(1.0 / 60.0, 8).unwrap());
    clock.advance(1.0 / 60.0).unwrap();
    let stall = clock.advance(1.0).unwrap();
    assert_eq!(stall.ticks(), 8);
    assert_eq!(stall.dropped_ticks(), 52);
    assert!((stall.dropped_seconds() - 52.0 / 60.0).abs() < 1e-12);
    assert_eq!(
        stall.into_iter().map(|t| t.index()).collect::<Vec<_>>(),
        (1..9).collect::<Vec<_>>()
    );
    assert_eq!((clock.tick(), clock.dropped_ticks()), (9, 52));
    // After the stall the clock keeps its pace.
    assert_eq!(clock.advance(1.0 / 60.0).unwrap().ticks(), 1);
}

#[test]
fn the_interpolation_factor_is_the_share_of_a_tick_left_over() {
    let mut clock = FixedClock::new(ClockSettings::new(0.01, 8).unwrap());
    assert_eq!(clock.alpha(), 0.0);
    clock.advance(0.0125).unwrap();
    assert!((clock.alpha() - 0.25).abs() < 1e-9);
    clock.advance(0.0070).unwrap();
    assert!((clock.alpha() - 0.95).abs() < 1e-9);
    assert_eq!(clock.tick(), 1);
    clock.advance(0.0).unwrap();
    assert_eq!(clock.tick(), 1);
}

#[test]
fn a_million_ticks_keep_time_without_drift() {
    let mut clock = FixedClock::new(ClockSettings::new(1.0 / 60.0, u32::MAX).unwrap());
    for _ in 0..1_000 {
        clock.advance(1_000.0 / 60.0).unwrap();
    }
    assert_eq!(clock.tick(), 1_000_000);
    assert_eq!(clock.time(), 1_000_000.0 * (1.0 / 60.0));
}

#[test]
fn bad_times_and_settings_are_errors_that_name_the_value() {
    let mut clock = FixedClock::new(ClockSettings::default());
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let err = clock.advance(bad).unwrap_err();
        assert!(
            matches!(
                err,
                GameError::NotFinite {
                    what: "frame time (seconds)",
                    ..
                }
            ),
            "{err}"
        );
    }
    assert!(matches!(
        clock.advance(-0.01),
        Err(GameError::Negative { .. })
    ));
    assert_eq!(clock.tick(), 0, "a refused frame changes nothing");
    assert!(ClockSettings::new(0.0, 8).is_err());
    assert!(ClockSettings::new(-1.0, 8).is_err());
    assert!(ClockSettings::new(1.0 / 60.0, 0).is_err());
    assert!(ClockSettings::hz(f64::NAN).is_err());
    assert!(ClockSettings::hz(0.0).is_err());
    assert!(TimeStep::new(0.0f32).is_err());
    assert!(TimeStep::new(-0.5f64).is_err());
    assert!(TimeStep::new(f32::INFINITY).is_err());
}
