//! The invariance harness: runs a game system's scenario in other frames of
//! reference and at other tick rates, and at rest for minutes of ticks, and
//! judges what it records against the tolerance the system claims.
//!
//! A scenario is a function from a [`Frame`] (where it is placed: moved,
//! mirrored or scaled) and a [`Rate`] (ticks a second, fixed or jittered
//! frames) to an [`Outcome`]: the points, vectors, measures, turns and
//! exact values it recorded, and the limits it kept (a depth inside a
//! wall, an energy gained). The scenario builds its world through the
//! frame (`frame.point3(p)`, `frame.vector3(gravity)`, `frame.turn(q)`),
//! so the same code runs everywhere; the harness maps what it records back
//! to the origin and compares.
//!
//! The runs, each a [`Report`] with its worst figure:
//! - [`Invariance::far_out`]: moved 1e3, 1e4 and 1e5 along skewed
//!   directions. A point may differ from the origin's by the larger of the
//!   claimed tolerance and 4 ulps of the coordinates' size; any other
//!   quantity (a speed, a depth below the surface's tolerance, an energy)
//!   by the tolerance at the origin, as it does not grow with distance.
//! - [`Invariance::mirrored`]: x to -x, bit for bit where the system
//!   claims it ([`Claims::mirror_exact`]).
//! - [`Invariance::scaled`]: every length times 0.01 and 100, for systems
//!   whose units allow it.
//! - [`Invariance::rates`]: 30, 120 and 144 Hz against 60, within the
//!   claimed figure across rates; [`Invariance::jittered`]: frames of
//!   random length through a fixed-step clock, against the same rate's
//!   steady frames.
//! - [`at_rest`]: [`REST_TICKS`] ticks (ten minutes at 60 Hz) at the
//!   origin and 1e5 away: nothing moves, no energy appears, no exact
//!   value (an event, a flag) changes.
//!
//! Every run also judges the limits it recorded. Growth over ticks fails
//! as soon as it passes the allowance, so a long run catches a slow creep.
//!
//! ```
//! use collide_scenes::invariance::{Claims, Frame, Invariance, Outcome, Rate};
//! use glam::Vec3;
//!
//! // A ball thrown from a tower: positions by the closed form.
//! let throw = |frame: &Frame, rate: &Rate| {
//!     let (start, velocity) = (frame.point3(Vec3::new(0.0, 10.0, 0.0)), frame.vector3(Vec3::X));
//!     let gravity = frame.vector3(Vec3::new(0.0, -9.81, 0.0));
//!     let t = (rate.ticks_in(1.0) as f64 * rate.tick_seconds()) as f32;
//!     let mut outcome = Outcome::new();
//!     outcome.point3("after a second", start + velocity * t + 0.5 * gravity * t * t);
//!     outcome
//! };
//! let claims = Claims::new(10.0, 1e-6).mirror_exact().across_rates(1e-6);
//! let ball = Invariance::new("a thrown ball", claims, throw);
//! ball.far_out().assert_holds();
//! ball.mirrored().assert_holds();
//! ball.scaled().assert_holds();
//! ball.rates().assert_holds();
//! ```

mod frame;
mod judge;
mod outcome;

pub use frame::{Frame, Pacing, Rate};
pub use judge::{Claims, Mirror, Report};
pub use outcome::Outcome;

use glam::DVec3;
use judge::{Verdict, compare, judge_limits, judge_rest};
use std::cell::OnceCell;

/// Ticks of a run at rest: ten minutes at 60 Hz.
pub const REST_TICKS: u64 = 36_000;

/// The distances a scenario is moved, each along its own skewed direction.
pub fn far_frames() -> [Frame; 3] {
    let along =
        |d: f64, x: f64, y: f64, z: f64| Frame::translated(d * DVec3::new(x, y, z).normalize());
    [
        along(1e3, 1.0, 0.43, -0.71),
        along(1e4, -0.83, 0.37, 0.52),
        along(1e5, 0.91, -0.28, 0.44),
    ]
}

/// The scales a scenario runs at, where its units allow.
pub const SCALES: [f64; 2] = [0.01, 100.0];

/// The tick rates compared with the 60 Hz reference.
pub const RATES: [u32; 3] = [30, 120, 144];

/// A scenario and what its system claims, ready to run in every frame.
pub struct Invariance<S> {
    name: String,
    claims: Claims,
    scenario: S,
    reference: OnceCell<Outcome>,
}

impl<S: Fn(&Frame, &Rate) -> Outcome> Invariance<S> {
    /// The scenario `name` under `claims`.
    pub fn new(name: &str, claims: Claims, scenario: S) -> Self {
        Invariance {
            name: name.to_owned(),
            claims,
            scenario,
            reference: OnceCell::new(),
        }
    }

    /// The run at the origin at 60 Hz, the one every other is compared to.
    pub fn reference(&self) -> &Outcome {
        self.reference
            .get_or_init(|| (self.scenario)(&Frame::ORIGIN, &Rate::REFERENCE))
    }

    /// Runs in `frames` at the reference rate, compared with the reference.
    fn in_frames(&self, title: &str, frames: &[Frame], bits: bool) -> Report {
        let mut report = Report::new(format!("{}, {title}", self.name));
        let mut origin = Verdict::new("at the origin (its limits)".to_owned());
        judge_limits(&self.claims, self.reference(), &Frame::ORIGIN, &mut origin);
        report.push(origin);
        for frame in frames {
            let run = (self.scenario)(frame, &Rate::REFERENCE);
            report.push(compare(
                &self.claims,
                self.reference(),
                &run,
                frame,
                self.claims.relative(),
                bits,
                frame.describe(),
            ));
        }
        report
    }

    /// Moved 1e3, 1e4 and 1e5 from the origin ([`far_frames`]).
    pub fn far_out(&self) -> Report {
        self.in_frames("far from the origin", &far_frames(), false)
    }

    /// Mirrored, x to -x: bit for bit if the system claims it.
    pub fn mirrored(&self) -> Report {
        let bits = self.claims.mirror() == Mirror::Exact;
        let title = if bits {
            "mirrored, bit for bit"
        } else {
            "mirrored"
        };
        self.in_frames(title, &[Frame::mirrored()], bits)
    }

    /// Every length times 0.01 and 100 ([`SCALES`]).
    pub fn scaled(&self) -> Report {
        let frames = SCALES.map(Frame::scaled);
        self.in_frames("scaled", &frames, false)
    }

    /// At 30, 120 and 144 Hz ([`RATES`]), against 60 Hz, within the
    /// claimed figure across rates.
    ///
    /// # Panics
    /// If the claims give no figure across rates.
    pub fn rates(&self) -> Report {
        let relative = self
            .claims
            .rates()
            .expect("the claims give no figure across rates (`Claims::across_rates`)");
        let mut report = Report::new(format!("{}, at other tick rates", self.name));
        for hz in RATES {
            let rate = Rate::fixed(hz);
            let run = (self.scenario)(&Frame::ORIGIN, &rate);
            report.push(compare(
                &self.claims,
                self.reference(),
                &run,
                &Frame::ORIGIN,
                relative,
                false,
                rate.describe(),
            ));
        }
        report
    }

    /// In frames of random length at 60 and 144 Hz, against the same
    /// rate's steady frames: a fixed-step clock must turn them into the
    /// same ticks, so the outcome agrees within the tolerance at the origin.
    pub fn jittered(&self) -> Report {
        let mut report = Report::new(format!("{}, in jittered frames", self.name));
        for (hz, seed) in [(60, 1), (144, 2)] {
            let steady = (self.scenario)(&Frame::ORIGIN, &Rate::fixed(hz));
            let rate = Rate::jittered(hz, seed);
            let run = (self.scenario)(&Frame::ORIGIN, &rate);
            report.push(compare(
                &self.claims,
                &steady,
                &run,
                &Frame::ORIGIN,
                self.claims.relative(),
                false,
                rate.describe(),
            ));
        }
        report
    }
}

/// Runs a scenario at rest for `ticks` ticks at 60 Hz (usually
/// [`REST_TICKS`]), at the origin and 1e5 away: every series it records
/// must stay at its first value (within the claimed tolerance, or far out
/// the coordinates' few ulps), an energy must not rise, an exact value
/// must not change, and every limit must hold.
pub fn at_rest(
    name: &str,
    claims: Claims,
    ticks: u64,
    scenario: impl Fn(&Frame, &Rate, u64) -> Outcome,
) -> Report {
    let mut report = Report::new(format!("{name}, at rest for {ticks} ticks"));
    let far = far_frames()[2];
    for frame in [Frame::ORIGIN, far] {
        let run = scenario(&frame, &Rate::REFERENCE, ticks);
        report.push(judge_rest(&claims, &run, &frame, frame.describe()));
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    /// A point moved by a tenth a tick for a second, accumulated in `f32`
    /// (so rounding grows far out), and a count of ticks.
    fn drift(frame: &Frame, rate: &Rate) -> Outcome {
        let mut at = frame.point3(Vec3::ZERO);
        let step = frame.vector3(Vec3::new(0.1, 0.0, 0.0)) * (60.0 * rate.tick_seconds_f32());
        let mut outcome = Outcome::new();
        for _ in 0..rate.ticks_in(1.0) {
            at += step;
        }
        outcome.point3("end", at);
        outcome.exact("ticks", rate.ticks_in(1.0) as i64 / i64::from(rate.hz()));
        outcome
    }

    #[test]
    fn accumulated_rounding_fails_far_out_and_holds_at_home() {
        let run = Invariance::new("drift", Claims::new(6.0, 1e-6).mirror_exact(), drift);
        run.mirrored().assert_holds();
        let far = run.far_out();
        assert!(!far.holds(), "{far}");
        assert!(
            far.to_string()
                .contains("moved 1e5 along (0.87, -0.27, 0.42) FAILS"),
            "{far}"
        );
    }

    #[test]
    fn an_exact_value_that_changes_with_the_frame_fails() {
        let odd = |frame: &Frame, _: &Rate| {
            let mut outcome = Outcome::new();
            outcome.exact("mirrored", i64::from(frame.is_mirrored()));
            outcome
        };
        let report = Invariance::new("odd", Claims::new(1.0, 1e-6), odd).mirrored();
        assert!(!report.holds());
        assert!(
            report
                .to_string()
                .contains("1 here, 0 in the reference run"),
            "{report}"
        );
    }

    #[test]
    fn a_limit_fails_where_it_is_passed_and_says_when() {
        let sinking = |frame: &Frame, _: &Rate| {
            let mut outcome = Outcome::new();
            for tick in 0..10 {
                outcome.depth_limit("depth", f64::from(tick) * 1e-3 * frame.scale(), 4.5e-3);
            }
            outcome
        };
        let report = Invariance::new("sinking", Claims::new(1.0, 1e-6), sinking).scaled();
        let text = report.to_string();
        assert!(!report.holds());
        assert!(text.contains("5 of 10 fail, the first entry 6"), "{text}");
    }

    #[test]
    fn at_rest_catches_a_creep_a_rising_energy_and_a_flicker() {
        let restless = |frame: &Frame, _: &Rate, ticks: u64| {
            let mut outcome = Outcome::new();
            for tick in 0..ticks {
                let creep = tick as f32 * 1e-7;
                outcome.point3("body", frame.point3(Vec3::new(creep, 1.0, 0.0)));
                outcome.energy("energy", tick as f64 * 1e-7);
                outcome.exact("touching", i64::from(tick % 1000 == 999));
            }
            outcome
        };
        let report = at_rest("restless", Claims::new(1.0, 1e-5), 1000, restless);
        let text = report.to_string();
        assert!(!report.holds());
        assert!(text.contains("fails: point `body`"), "{text}");
        assert!(text.contains("fails: energy `energy`"), "{text}");
        assert!(text.contains("became 1, was 0"), "{text}");
        let still = |frame: &Frame, _: &Rate, ticks: u64| {
            let mut outcome = Outcome::new();
            for _ in 0..ticks {
                outcome.point3("body", frame.point3(Vec3::new(0.5, 1.0, 0.0)));
            }
            outcome
        };
        at_rest("still", Claims::new(1.0, 1e-5), 1000, still).assert_holds();
    }

    #[test]
    fn a_missing_or_extra_entry_is_a_problem() {
        let uneven = |_: &Frame, rate: &Rate| {
            let mut outcome = Outcome::new();
            for _ in 0..rate.hz() / 30 {
                outcome.measure("per tick", 1.0, 0);
            }
            outcome
        };
        let report =
            Invariance::new("uneven", Claims::new(1.0, 1e-6).across_rates(1e-3), uneven).rates();
        assert!(!report.holds());
        assert!(
            report
                .to_string()
                .contains("recorded 1 measure `per tick` where the reference run recorded 2"),
            "{report}"
        );
    }
}
