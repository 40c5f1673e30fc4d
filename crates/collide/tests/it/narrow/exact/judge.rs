//! The rules an answer of the narrow phase is judged by against the exact
//! reference (`reference.rs`), the same in 2D and 3D, and the record of the
//! worst error seen per kind of answer.
//!
//! An error is measured in world units and allowed [`tolerance`]: a
//! hundred-thousandth of the shapes' size, plus a millionth of the
//! distance between them and of a motion's length (a few roundings of f32,
//! which holds about 7 digits: the library places one shape in the other's
//! frame, and a cast's time is an f32 share of its motion). Answers the library works
//! out in world coordinates in f32 (witness points, SAT, a cast's stop)
//! are also allowed a millionth of the largest coordinate ([`Rules`]): a
//! shape 10^5 from the origin is placed to within about 0.01. A normal is
//! also allowed a millionth of a radian (an f32 unit vector, turned by an
//! f32 rotation). Where the
//! right normal is not unique (a tie, or shapes that just touch), a normal
//! is judged by what it does: the second shape moved along it by the depth
//! must clear the first, that is, the overlap along it must be the depth.

use crate::narrow::exact::reference::{
    Body, Space, candidates, closest_approach, core_closest, cores_meet, depth, first_touch,
    first_within, overlap, point,
};
use glam::DVec3;
use std::collections::BTreeMap;

/// A contact as the library gave it, in f64 (2D in the plane z = 0).
#[derive(Clone, Copy, Debug)]
pub struct Answer {
    pub depth: f64,
    pub normal: DVec3,
    pub point_a: DVec3,
    pub point_b: DVec3,
}

/// The worst error seen per kind of answer, and how many answers were
/// judged. Errors are relative to the shapes' size (or their distance
/// apart, for shapes of no size), or, for shapes far from the origin (see
/// [`Report::far`]), to their distance from it, which is what f32 rounds
/// them by.
#[derive(Default)]
pub struct Report {
    worst: BTreeMap<String, (f64, String)>,
    pub judged: usize,
    /// The distance from the origin of the case being judged, when it is
    /// one of the far ones.
    pub far: Option<f64>,
    /// The distance between the shapes of the case being judged: the
    /// basis for shapes of no size (two points).
    pub apart: f64,
    /// The case being judged, for the summary.
    pub case: usize,
}

impl Report {
    /// Records an error of `error` world units on a case of this `size`.
    fn note(&mut self, what: &str, error: f64, size: f64, case: &str) {
        let (key, basis) = match self.far {
            Some(distance) => (format!("{what}, far"), distance),
            None => (what.to_owned(), size.max(self.apart).max(1e-6)),
        };
        let relative = error / basis;
        let entry = self.worst.entry(key).or_insert((0.0, String::new()));
        if relative > entry.0 {
            *entry = (relative, format!("{case}, case {}", self.case));
        }
    }

    /// One line per kind: the worst relative error and the case it came
    /// from.
    pub fn summary(&self) -> String {
        let mut out = format!(
            "{} answers judged; the worst error of each kind, relative to the shapes' size (far: to their distance from the origin)\n",
            self.judged
        );
        for (what, (worst, case)) in &self.worst {
            out += &format!("  {what:<36} {worst:.1e}  ({case})\n");
        }
        out
    }
}

/// The error allowed on an answer the library works out relative to the
/// shapes: see the module docs.
pub fn tolerance(bodies: &[&Body], motion: f64) -> f64 {
    let size = bodies.iter().map(|b| b.size()).fold(0.0, f64::max);
    let apart = bodies
        .iter()
        .flat_map(|a| {
            bodies
                .iter()
                .map(move |b| (a.points[0] - b.points[0]).length())
        })
        .fold(0.0, f64::max);
    1e-5 * size + 1e-6 * (apart + motion) + 1e-12
}

/// [`tolerance`] for an answer worked out in world coordinates in f32.
pub fn world_tolerance(bodies: &[&Body], motion: f64) -> f64 {
    let magnitude = bodies.iter().map(|b| b.magnitude()).fold(0.0, f64::max);
    tolerance(bodies, motion) + 1e-6 * magnitude
}

/// How a contact is judged.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// Its witness points must lie on the shapes (the general contact and
    /// the closed forms), not only on the planes of the deepest points
    /// (SAT's projection on the reference face).
    pub inside: bool,
    /// It is worked out in world coordinates in f32 (SAT, a cast's stop),
    /// so the coordinates' rounding is allowed.
    pub world: bool,
    /// The length of the motion that placed the shapes (a cast's).
    pub motion: f64,
}

impl Rules {
    /// The general contact and the closed forms.
    pub const RELATIVE: Rules = Rules {
        inside: true,
        world: false,
        motion: 0.0,
    };
    /// SAT.
    pub const SAT: Rules = Rules {
        inside: false,
        world: true,
        motion: 0.0,
    };
}

/// The gap between two bodies: their distance, or minus their depth.
fn signed_gap(a: &Body, b: &Body, space: Space) -> f64 {
    -depth(a, b, space).depth
}

/// The distance from `p` to the body (0 inside).
fn outside_by(p: DVec3, body: &Body, space: Space) -> f64 {
    let point = Body::new(vec![p], 0.0, space);
    if cores_meet(&point, body, space) {
        return 0.0;
    }
    let (_, q) = core_closest(&point, body);
    ((q - p).length() - body.radius).max(0.0)
}

fn finite(v: DVec3) -> bool {
    v.is_finite()
}

/// Judges a contact of `a` and `b` by `rules`; returns what is wrong.
pub fn contact(
    report: &mut Report,
    what: &'static str,
    a: &Body,
    b: &Body,
    space: Space,
    got: &Answer,
    rules: Rules,
) -> Result<(), String> {
    report.judged += 1;
    let size = a.size().max(b.size());
    let tol = if rules.world {
        world_tolerance(&[a, b], rules.motion)
    } else {
        tolerance(&[a, b], rules.motion)
    };
    // Witness points are world coordinates in f32, whatever the rest.
    let world_tol = world_tolerance(&[a, b], rules.motion);
    let want = depth(a, b, space);
    let all_finite =
        got.depth.is_finite() && finite(got.normal) && finite(got.point_a) && finite(got.point_b);
    if !all_finite {
        return Err(format!("{what}: a value is not finite: {got:?}"));
    }
    let depth_error = (got.depth - want.depth).abs();
    report.note(what, depth_error, size, "depth");
    if depth_error > tol {
        return Err(format!(
            "{what}: depth {} where the exact depth is {} (off by {depth_error:.3e}, allowed {tol:.1e})",
            got.depth, want.depth
        ));
    }
    let length = got.normal.length();
    if (length - 1.0).abs() > 1e-5 {
        return Err(format!(
            "{what}: the normal {:?} is not a unit vector",
            got.normal
        ));
    }
    let n = got.normal / length;
    // Moving the second shape by the depth along the normal must clear the
    // first: the overlap along it is the depth (never less; more means a
    // wrong direction).
    let along = overlap(a, b, n);
    let normal_error = along - want.depth;
    report.note("contact normal (overlap)", normal_error.abs(), size, what);
    if normal_error > tol {
        return Err(format!(
            "{what}: along the normal {n:?} the shapes overlap by {along}, not the depth {}: moving by the minimum translation vector leaves them {normal_error:.3e} overlapping",
            want.depth
        ));
    }
    if let Some(unique) = want.normal {
        // Apart, the direction between the closest points is the one
        // answer: off by an angle, the closest points miss by the gap
        // times it.
        let miss = (n - unique).length() * want.gap;
        report.note("contact normal (apart)", miss, size, what);
        if miss > tol + 1e-6 * want.gap {
            return Err(format!(
                "{what}: the normal {n:?} where the shapes' closest points give {unique:?} ({miss:.3e} off at the gap {})",
                want.gap
            ));
        }
    }
    // The witnesses: the deepest points along the normal.
    let (wa, wb) = (
        got.point_a.dot(n) - a.support(n),
        got.point_b.dot(n) + b.support(-n),
    );
    let witness_error = wa.abs().max(wb.abs());
    report.note("contact witnesses", witness_error, size, what);
    if witness_error > world_tol {
        return Err(format!(
            "{what}: the witness points are not the deepest along the normal (off by {wa:.3e} and {wb:.3e})"
        ));
    }
    if rules.inside {
        let off = outside_by(got.point_a, a, space).max(outside_by(got.point_b, b, space));
        report.note("contact witnesses (on)", off, size, what);
        if off > world_tol {
            return Err(format!(
                "{what}: a witness point lies {off:.3e} outside its shape"
            ));
        }
    }
    Ok(())
}

/// Judges a distance between `a` and `b`.
pub fn distance(
    report: &mut Report,
    a: &Body,
    b: &Body,
    space: Space,
    got: f64,
) -> Result<(), String> {
    report.judged += 1;
    let want = (-depth(a, b, space).depth).max(0.0);
    let tol = tolerance(&[a, b], 0.0);
    let error = (got - want).abs();
    report.note("distance", error, a.size().max(b.size()), "distance");
    if !got.is_finite() || error > tol {
        return Err(format!("distance {got} where the exact distance is {want}"));
    }
    Ok(())
}

/// A ray cast as the library gave it.
#[derive(Clone, Copy, Debug)]
pub struct RayAnswer {
    pub t: f64,
    pub normal: DVec3,
    pub point: DVec3,
}

/// Judges a ray from `origin` along `direction` up to `max_t` against
/// `target`.
#[allow(clippy::too_many_arguments)]
pub fn ray(
    report: &mut Report,
    what: &'static str,
    target: &Body,
    origin: DVec3,
    direction: DVec3,
    max_t: f64,
    space: Space,
    got: Option<RayAnswer>,
) -> Result<(), String> {
    report.judged += 1;
    let start = point(origin, space);
    let speed = direction.length();
    let size = target.size();
    // Beyond this the ray is farther from the target than its size.
    let centre = target.points[0];
    let end = max_t.min(((origin - centre).length() + size) / speed.max(f64::MIN_POSITIVE));
    let want = first_touch(target, &start, direction, end, space);
    // As for casts: not below the rounding of the f32 coordinates given
    // (a ray grazing a shape much smaller than its distance from the
    // origin is placed no better than that).
    let magnitude = origin.abs().max_element().max(target.magnitude());
    let tol = tolerance(&[target, &start], end * speed) + 4.0 * f64::from(f32::EPSILON) * magnitude;
    let graze = || closest_approach(target, &start, direction, end, space).abs() <= tol;
    let (got, t) = match (got, want) {
        (None, None) => return Ok(()),
        (Some(got), Some(t)) => (got, t),
        (got, want) => {
            let at_end = want.is_some_and(|t| (end - t).abs() * speed <= tol)
                || got.is_some_and(|g| (end - g.t).abs() * speed <= tol);
            // A graze may be a hit or a miss, but a hit must lie on the
            // target (within the tolerance), where the ray grazes it.
            let off = got.map_or(0.0, |g| outside_by(origin + direction * g.t, target, space));
            if (graze() || at_end) && off <= tol {
                return Ok(());
            }
            return Err(format!(
                "{what}: hit {got:?} where the exact answer is a hit at {want:?} (the hit lies {off:.3e} from the target)"
            ));
        }
    };
    if !(got.t.is_finite() && finite(got.normal) && finite(got.point)) {
        return Err(format!("{what}: a value is not finite: {got:?}"));
    }
    if got.t == 0.0 && t == 0.0 {
        return Ok(()); // starting inside: the normal faces the ray
    }
    // An entry is right when inputs off by the tolerance would give it:
    // between the first time the ray comes within the tolerance of the
    // target and the first time it is that deep inside (a ray grazing a
    // curve meets it anywhere along a stretch).
    let (early, late) = (
        first_within(target, &start, direction, end, space, tol).unwrap_or(0.0),
        first_within(target, &start, direction, end, space, -tol),
    );
    let gap_then = signed_gap(target, &point(origin + direction * got.t, space), space);
    report.note(what, gap_then.abs(), size, "gap left at the entry");
    if got.t < early || late.is_some_and(|late| got.t > late) || gap_then > tol {
        if t == 0.0 && graze() {
            return Ok(()); // starting on the surface: inside or not
        }
        return Err(format!(
            "{what}: enters at t = {} where the exact entry is {t} (inputs off by {tol:.1e} give {early} to {late:?}; the gap there is {gap_then:.3e})",
            got.t
        ));
    }
    if got.t == 0.0 {
        return Ok(()); // starting inside: the normal faces the ray
    }
    let n = got.normal / got.normal.length();
    // The normal must be the target's where the answer enters (which a
    // grazing ray may put a little along from the exact entry): its plane
    // through the entry supports the target, facing the ray (within
    // rounding, for a ray that grazes).
    let entry = origin + direction * got.t;
    let off = (target.support(n) - n.dot(entry)).abs();
    report.note("ray normal (support)", off, size, what);
    if off > tol || n.dot(direction) > tol / size.max(tol) * speed {
        return Err(format!(
            "{what}: the normal {n:?} at the entry {entry:?} is not the target's (its plane misses by {off:.3e})"
        ));
    }
    if target.radius > 0.0 {
        // Rounded: the one normal, from the nearest core point.
        let (core, _) = core_closest(target, &point(entry, space));
        let unique = (entry - core).normalize();
        let miss = (n - unique).length() * target.radius;
        report.note("ray normal (rounded)", miss, size, what);
        if miss > tol {
            return Err(format!(
                "{what}: the normal {n:?} where the exact normal is {unique:?}"
            ));
        }
    }
    Ok(())
}

/// A shape cast as the library gave it.
#[derive(Clone, Copy, Debug)]
pub struct CastAnswer {
    pub t: f64,
    pub contact: Answer,
}

/// Judges a cast of `a` moving by `motion_a` against `b` moving by
/// `motion_b`.
#[allow(clippy::too_many_arguments)]
pub fn cast(
    report: &mut Report,
    what: &'static str,
    a: &Body,
    motion_a: DVec3,
    b: &Body,
    motion_b: DVec3,
    space: Space,
    got: Option<CastAnswer>,
) -> Result<(), String> {
    report.judged += 1;
    let relative = motion_b - motion_a;
    let speed = relative.length();
    let tol = tolerance(&[a, b], speed);
    // The library's own tolerance: a hundred-thousandth of the motion or
    // of the smaller shape, whichever is larger, and not below the
    // rounding of the coordinates.
    let magnitude = [a, b].iter().map(|x| x.magnitude()).fold(0.0, f64::max);
    let lenient = tol
        + 1e-5 * speed.max(a.size().min(b.size()))
        + 16.0 * f64::from(f32::EPSILON) * (magnitude + speed);
    let at = |t: f64| (a.moved(motion_a * t), b.moved(motion_b * t));
    // The contact where a cast stops is worked out at world poses in f32.
    let cast_rules = Rules {
        inside: true,
        world: true,
        motion: speed,
    };
    let at_start = depth(a, b, space);
    let start = at_start.depth;
    if start > -lenient {
        // Starting in contact: a hit at 0 must be the contact then; a
        // motion along it or out of it may go on. Overlapping, a motion
        // that pushes in along every way out (every direction whose
        // overlap is the depth) must stop at once.
        if let Some(g) = got.filter(|g| g.t == 0.0) {
            return contact(report, what, a, b, space, &g.contact, cast_rules);
        }
        // (the closest points' direction, where the cores are apart, and
        // every candidate within the tolerance of the depth: a centre a
        // hair off a capsule's axis may go out either side)
        let ways_out: Vec<DVec3> = at_start
            .normal
            .into_iter()
            .chain(candidates(a, b, space))
            .filter(|&n| overlap(a, b, n) <= start + tol)
            .collect();
        let pushes_in =
            start > lenient && ways_out.iter().all(|&n| -relative.dot(n) > 2e-5 * speed);
        if pushes_in {
            return Err(format!(
                "{what}: {got:?} where the shapes start {start} deep and the motion pushes in"
            ));
        }
        return Ok(());
    }
    let want = first_touch(a, b, relative, 1.0, space);
    let graze = || closest_approach(a, b, relative, 1.0, space).abs() <= lenient;
    let (got, t) = match (got, want) {
        (None, None) => return Ok(()),
        (Some(got), Some(t)) => (got, t),
        (got, want) => {
            let at_end = want.is_some_and(|t| (1.0 - t) * speed <= lenient)
                || got.is_some_and(|g| (1.0 - g.t) * speed <= lenient);
            // A graze may be a hit or a miss, but at a hit the shapes must
            // touch (within the tolerance).
            let gap = got.map_or(0.0, |g| {
                let (a_then, b_then) = at(g.t);
                signed_gap(&a_then, &b_then, space)
            });
            if (graze() || at_end) && gap <= lenient {
                return Ok(());
            }
            return Err(format!(
                "{what}: hit {got:?} where the exact answer is a hit at {want:?}"
            ));
        }
    };
    // Within the library's tolerance of the first touch, and never past it
    // by more than rounding: after the first time the shapes come within
    // the tolerance, before the first time they are the rounding deep.
    // (deep by at most the tolerance and the rounding of the f32 places:
    // the stop is an f32 time, the shapes at f32 positions)
    let rounding = 4.0 * f64::from(f32::EPSILON) * (magnitude + speed);
    let (early, late) = (
        first_within(a, b, relative, 1.0, space, lenient).unwrap_or(0.0),
        first_within(a, b, relative, 1.0, space, -(tol + rounding)),
    );
    let (a_then, b_then) = at(got.t);
    let gap_then = signed_gap(&a_then, &b_then, space);
    report.note(
        what,
        gap_then.abs(),
        a.size().max(b.size()),
        "gap left at the stop",
    );
    if got.t < early || late.is_some_and(|late| got.t > late) || gap_then > lenient {
        return Err(format!(
            "{what}: touches at t = {} where the exact first touch is {t} (the tolerance allows {early} to {late:?}; the gap there is {gap_then:.3e})",
            got.t
        ));
    }
    // The contact where the cast stopped.
    contact(
        report,
        what,
        &a_then,
        &b_then,
        space,
        &got.contact,
        cast_rules,
    )
}
