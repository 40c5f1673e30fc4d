//! The rules a run is held to: what a system claims ([`Claims`]), how one
//! run's record is compared with the reference run's, and the [`Report`]
//! of every comparison with its worst figure.

use super::frame::{Frame, ulp};
use super::outcome::{Far, Outcome, Quantity};
use collide::math;
use glam::{DQuat, DVec3};
use std::fmt;

/// How a system behaves mirrored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mirror {
    /// The mirrored run gives the mirrored outcome bit for bit.
    Exact,
    /// The mirrored run agrees within the tolerance.
    Within,
}

/// What a system promises, as its documentation states it: a tolerance
/// relative to the scenario's size, and what else holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Claims {
    size: f64,
    relative: f64,
    rates: Option<f64>,
    mirror: Mirror,
    ulps: f64,
    double: bool,
}

impl Claims {
    /// A scenario `size` metres across whose runs in other frames agree
    /// with the run at the origin within `relative` of that size (and, far
    /// out, within 4 ulps of the coordinates). A quantity of length to the
    /// power `p` is allowed `relative × size^p`; angles `relative` radians.
    ///
    /// # Panics
    /// If `size` is not above zero or `relative` is negative (or either is
    /// not finite): a test's mistake, not a system's.
    pub fn new(size: f64, relative: f64) -> Self {
        assert!(
            size.is_finite() && size > 0.0,
            "a scenario's size must be above zero, not {size}"
        );
        assert!(
            relative.is_finite() && relative >= 0.0,
            "a relative tolerance must be 0 or more, not {relative}"
        );
        Claims {
            size,
            relative,
            rates: None,
            mirror: Mirror::Within,
            ulps: 4.0,
            double: false,
        }
    }

    /// Runs at other tick rates agree with the 60 Hz run within `relative`
    /// of the size.
    pub fn across_rates(self, relative: f64) -> Self {
        assert!(
            relative.is_finite() && relative >= 0.0,
            "a relative tolerance must be 0 or more, not {relative}"
        );
        Claims {
            rates: Some(relative),
            ..self
        }
    }

    /// The mirrored run gives the mirrored outcome bit for bit.
    pub fn mirror_exact(self) -> Self {
        Claims {
            mirror: Mirror::Exact,
            ..self
        }
    }

    /// The system keeps its coordinates in `f64`: far out, 4 ulps of an
    /// `f64`, not of an `f32`.
    pub fn in_f64(self) -> Self {
        Claims {
            double: true,
            ..self
        }
    }

    /// The scenario's size, metres.
    pub fn size(&self) -> f64 {
        self.size
    }

    /// How far a run may differ, relative to the size.
    pub fn relative(&self) -> f64 {
        self.relative
    }

    pub(crate) fn rates(&self) -> Option<f64> {
        self.rates
    }

    pub(crate) fn mirror(&self) -> Mirror {
        self.mirror
    }

    /// What a quantity of length to the `power` may be off by.
    fn allowed(&self, relative: f64, power: i32) -> f64 {
        relative * math::powi(self.size, power)
    }

    /// What a value like `want` (`value`, back in the scenario's units)
    /// may be off by: a point as [`Claims::allowed_at`]; an energy by
    /// `relative` of itself or of the size squared over a second squared,
    /// whichever is larger; anything else by `relative × size^power`.
    fn allowed_for(&self, want: &Quantity, value: DVec3, relative: f64, frame: &Frame) -> f64 {
        match want {
            Quantity::Point { .. } => self.allowed_at(relative, frame),
            Quantity::Energy(_) => relative * value.x.abs().max(self.size * self.size),
            other => self.allowed(relative, other.power()),
        }
    }

    /// What a coordinate may be off by in `frame`, in the scenario's units:
    /// the tolerance, or far out a few ulps of the coordinates.
    fn allowed_at(&self, relative: f64, frame: &Frame) -> f64 {
        let far = self.ulps * ulp(frame.coordinate_size(self.size), self.double) / frame.scale();
        self.allowed(relative, 1).max(far)
    }
}

/// One value judged: how far off it was and how far it may be.
#[derive(Clone, Debug, PartialEq)]
struct Finding {
    index: usize,
    error: f64,
    allowed: f64,
    /// The values, for exact ones.
    detail: Option<String>,
}

impl Finding {
    /// Whether it is past its allowance (a NaN error is).
    fn fails(&self) -> bool {
        self.error.is_nan() || self.error > self.allowed
    }

    /// How much of its allowance it used (infinite for a failed exact one).
    fn share(&self) -> f64 {
        if self.error == 0.0 {
            0.0
        } else if self.allowed > 0.0 {
            self.error / self.allowed
        } else {
            f64::INFINITY
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "entry {}", self.index + 1)?;
        match &self.detail {
            Some(detail) => write!(f, ", {detail}"),
            None => write!(f, ", {:.3e} of {:.3e} allowed", self.error, self.allowed),
        }
    }
}

/// Every value of one series judged: the worst, the first failure and how
/// many failed.
#[derive(Clone, Debug, PartialEq)]
struct Tally {
    name: String,
    kind: &'static str,
    judged: usize,
    failed: usize,
    worst: Finding,
    first_failure: Option<Finding>,
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} `{}`", self.kind, self.name)?;
        if self.judged == 1 {
            return match &self.worst.detail {
                Some(detail) => write!(f, ": {detail}"),
                None => write!(
                    f,
                    ": {:.3e} of {:.3e} allowed",
                    self.worst.error, self.worst.allowed
                ),
            };
        }
        write!(f, ": worst {}", self.worst)?;
        if self.failed > 0 {
            write!(f, "; {} of {} fail", self.failed, self.judged)?;
        }
        match &self.first_failure {
            Some(first) if *first != self.worst => write!(f, ", the first {first}"),
            _ => Ok(()),
        }
    }
}

/// One run judged: what it was, a tally per series, and any mismatch in
/// what it recorded.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Verdict {
    what: String,
    tallies: Vec<Tally>,
    problem: Option<String>,
}

impl Verdict {
    pub(crate) fn new(what: String) -> Self {
        Verdict {
            what,
            tallies: Vec::new(),
            problem: None,
        }
    }

    fn add(&mut self, name: &str, kind: &'static str, finding: Finding) {
        let at = match self
            .tallies
            .iter()
            .position(|t| t.name == name && t.kind == kind)
        {
            Some(at) => at,
            None => {
                self.tallies.push(Tally {
                    name: name.to_owned(),
                    kind,
                    judged: 0,
                    failed: 0,
                    worst: finding.clone(),
                    first_failure: None,
                });
                self.tallies.len() - 1
            }
        };
        let tally = &mut self.tallies[at];
        tally.judged += 1;
        if finding.fails() {
            tally.failed += 1;
            tally.first_failure.get_or_insert_with(|| finding.clone());
        }
        if finding.share() > tally.worst.share() {
            tally.worst = finding;
        }
    }

    fn holds(&self) -> bool {
        self.problem.is_none() && self.tallies.iter().all(|t| t.failed == 0)
    }

    /// The series that came nearest its allowance.
    fn worst(&self) -> Option<&Tally> {
        self.tallies
            .iter()
            .max_by(|a, b| a.worst.share().total_cmp(&b.worst.share()))
    }
}

/// Every run of a check, judged: printed as one line a run, with the
/// worst figure, and each failing series below it.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    title: String,
    verdicts: Vec<Verdict>,
}

impl Report {
    pub(crate) fn new(title: String) -> Self {
        Report {
            title,
            verdicts: Vec::new(),
        }
    }

    pub(crate) fn push(&mut self, verdict: Verdict) {
        self.verdicts.push(verdict);
    }

    /// Whether every run held.
    pub fn holds(&self) -> bool {
        self.verdicts.iter().all(Verdict::holds)
    }

    /// Prints the report to standard error, and panics with it unless
    /// every run held.
    #[track_caller]
    pub fn assert_holds(&self) {
        eprintln!("{self}");
        assert!(self.holds(), "{self}");
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}:", self.title)?;
        for v in &self.verdicts {
            let state = if v.holds() { "holds" } else { "FAILS" };
            write!(f, "  {} {state}", v.what)?;
            match v.worst() {
                Some(worst) => writeln!(f, "; nearest {worst}")?,
                None => writeln!(f)?,
            }
            if let Some(problem) = &v.problem {
                writeln!(f, "    {problem}")?;
            }
            for tally in v.tallies.iter().filter(|t| t.failed > 0) {
                writeln!(f, "    fails: {tally}")?;
            }
        }
        Ok(())
    }
}

/// The angle between two orientations, radians: of the turn from one to
/// the other (an arc tangent, which stays exact for tiny angles where an
/// arc cosine of the dot product does not).
fn turn_between(a: DQuat, b: DQuat) -> f64 {
    let r = a.normalize().conjugate() * b.normalize();
    2.0 * math::atan2(r.xyz().length(), r.w.abs())
}

/// `q` mirrored (x to -x), or as it is.
fn mirror_turn(q: DQuat, frame: &Frame) -> DQuat {
    if frame.is_mirrored() {
        DQuat::from_xyzw(q.x, -q.y, -q.z, q.w)
    } else {
        q
    }
}

/// A world quantity back in the scenario's units, as a vector (scalars in
/// x); `None` for what is judged otherwise.
fn back(q: &Quantity, frame: &Frame) -> Option<DVec3> {
    let scalar = |x: f64| DVec3::new(x, 0.0, 0.0);
    Some(match *q {
        Quantity::Point { at, dims } => frame.point_back(at, dims),
        Quantity::Vector { value, power } => frame.vector_back(value, power),
        Quantity::Measure { value, power } => scalar(value / math::powi(frame.scale(), power)),
        Quantity::Energy(e) => scalar(e / math::powi(frame.scale(), 2)),
        Quantity::Angle(a) => scalar(if frame.is_mirrored() { -a } else { a }),
        Quantity::Turn(_) | Quantity::Exact(_) | Quantity::Limit { .. } => return None,
    })
}

/// The entries of an outcome by name and kind, each series in the order
/// recorded, the series in the order first recorded.
fn series(outcome: &Outcome) -> Vec<(&str, Vec<&Quantity>)> {
    let mut out: Vec<(&str, Vec<&Quantity>)> = Vec::new();
    for (name, q) in &outcome.entries {
        match out
            .iter_mut()
            .find(|(n, values)| *n == name.as_str() && values[0].kind() == q.kind())
        {
            Some((_, values)) => values.push(q),
            None => out.push((name, vec![q])),
        }
    }
    out
}

/// How far `got` (recorded in `frame`) is from `want` (recorded at the
/// origin) and how far it may be: within `relative` of the size, or bit
/// for bit when `bits`. `None` for limits, judged on their own.
fn difference(
    claims: &Claims,
    want: &Quantity,
    got: &Quantity,
    frame: &Frame,
    relative: f64,
    bits: bool,
) -> Option<(f64, f64, Option<String>)> {
    if let (Quantity::Exact(a), Quantity::Exact(b)) = (want, got) {
        let detail = (a != b).then(|| format!("{b} here, {a} in the reference run"));
        return Some((f64::from(u8::from(a != b)), 0.0, detail));
    }
    if let (Quantity::Turn(a), Quantity::Turn(b)) = (want, got) {
        let b = mirror_turn(*b, frame);
        let allowed = if bits {
            0.0
        } else {
            claims.allowed(relative, 0)
        };
        let error = if bits && *a == b {
            0.0
        } else {
            turn_between(*a, b)
        };
        return Some((error, allowed, None));
    }
    let a = back(want, &Frame::ORIGIN)?;
    let b = back(got, frame)?;
    let allowed = if bits {
        0.0
    } else {
        claims.allowed_for(want, a, relative, frame)
    };
    let error = if bits && a == b {
        0.0
    } else {
        (b - a).length()
    };
    Some((error, allowed, None))
}

/// Compares one run (in `frame`) with the reference run, series by
/// series: within `relative` of the size, or bit for bit when `bits`.
pub(crate) fn compare(
    claims: &Claims,
    reference: &Outcome,
    run: &Outcome,
    frame: &Frame,
    relative: f64,
    bits: bool,
    what: String,
) -> Verdict {
    let mut verdict = Verdict::new(what);
    let got_series = series(run);
    for (name, want) in series(reference) {
        if matches!(want[0], Quantity::Limit { .. }) {
            continue;
        }
        let kind = want[0].kind();
        let Some((_, got)) = got_series
            .iter()
            .find(|(n, values)| *n == name && values[0].kind() == kind)
        else {
            verdict.problem = Some(format!("recorded no {kind} `{name}`"));
            continue;
        };
        if got.len() != want.len() {
            verdict.problem = Some(format!(
                "recorded {} {} `{name}` where the reference run recorded {} {}",
                got.len(),
                got[0].kind(),
                want.len(),
                want[0].kind()
            ));
            continue;
        }
        for (index, (w, g)) in want.iter().zip(got).enumerate() {
            if let Some((error, allowed, detail)) = difference(claims, w, g, frame, relative, bits)
            {
                let finding = Finding {
                    index,
                    error,
                    allowed,
                    detail,
                };
                verdict.add(name, w.kind(), finding);
            }
        }
    }
    judge_limits(claims, run, frame, &mut verdict);
    verdict
}

/// Judges every limit a run recorded, in `frame`.
pub(crate) fn judge_limits(claims: &Claims, run: &Outcome, frame: &Frame, verdict: &mut Verdict) {
    for (name, values) in series(run) {
        for (index, q) in values.into_iter().enumerate() {
            if let Quantity::Limit {
                value,
                allowed,
                power,
                far,
            } = *q
            {
                let far = match far {
                    Far::Nothing => 0.0,
                    Far::Coordinates => claims.allowed_at(0.0, frame),
                    Far::AngleOver(length) => claims.allowed_at(0.0, frame) / length,
                };
                let finding = Finding {
                    index,
                    error: value / math::powi(frame.scale(), power),
                    allowed: allowed.max(far),
                    detail: None,
                };
                verdict.add(name, q.kind(), finding);
            }
        }
    }
}

/// Judges a run at rest: every series stays at its first value (within
/// the claimed tolerance, or far out the coordinates' few ulps), an energy
/// never rises above its first value, an exact value never changes.
pub(crate) fn judge_rest(claims: &Claims, run: &Outcome, frame: &Frame, what: String) -> Verdict {
    let mut verdict = Verdict::new(what);
    let relative = claims.relative;
    for (name, values) in series(run) {
        let start = values[0];
        for (index, q) in values.into_iter().enumerate().skip(1) {
            let judged = match (start, q) {
                (Quantity::Exact(a), Quantity::Exact(b)) => {
                    let detail = (a != b).then(|| format!("became {b}, was {a}"));
                    Some((f64::from(u8::from(a != b)), 0.0, detail))
                }
                (Quantity::Energy(a), Quantity::Energy(b)) => {
                    let (a, b) = (
                        a / math::powi(frame.scale(), 2),
                        b / math::powi(frame.scale(), 2),
                    );
                    let allowed =
                        claims.allowed_for(start, DVec3::new(a, 0.0, 0.0), relative, frame);
                    Some(((b - a).max(0.0), allowed, None))
                }
                // Both in `frame`: the difference is how far it moved.
                _ => difference(claims, start, q, &Frame::ORIGIN, relative, false).map(
                    |(error, _, detail)| {
                        let power = q.power();
                        let allowed = claims.allowed_for(q, DVec3::ZERO, relative, frame);
                        (error / math::powi(frame.scale(), power), allowed, detail)
                    },
                ),
            };
            if let Some((error, allowed, detail)) = judged {
                let finding = Finding {
                    index,
                    error,
                    allowed,
                    detail,
                };
                verdict.add(name, q.kind(), finding);
            }
        }
    }
    judge_limits(claims, run, frame, &mut verdict);
    verdict
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_turn_between_orientations_is_exact_for_tiny_and_large_angles() {
        let q = DQuat::from_axis_angle(DVec3::new(0.3, 0.8, -0.5).normalize(), 1.2);
        // Rounded to f32 and back: not quite unit, yet no angle from itself.
        let rounded = q.as_quat().as_dquat();
        assert!(turn_between(rounded, rounded) < 1e-15);
        let tiny = q * DQuat::from_rotation_y(1e-7);
        assert!((turn_between(q, tiny) - 1e-7).abs() < 1e-12);
        let half = q * DQuat::from_rotation_x(3.0);
        assert!((turn_between(q, half) - 3.0).abs() < 1e-12);
        // q and -q are the same orientation.
        assert!(turn_between(q, -q) < 1e-12);
    }
}
