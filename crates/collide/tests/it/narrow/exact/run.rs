//! The cases, run once for both dimensions: every contact, distance, ray
//! and shape cast of a [`Dimension`] judged against the reference.

use crate::narrow::exact::judge::{self, Report, Rules};
use crate::narrow::exact::reference::{self, Body};
use crate::narrow::exact::{Dimension, KINDS, Kind, cases, finish, graze_cases, skip};
use collide_scenes::SceneRng;
use glam::DVec3;

/// A case's shapes, placed, and what its failures say about it.
struct Case<D: Dimension> {
    k: usize,
    kind: Kind,
    a: D::Shape,
    pa: D::Pose,
    b: D::Shape,
    pb: D::Pose,
    body_a: Body,
    body_b: Body,
}

impl<D: Dimension> Case<D> {
    /// Case `k`, drawn from `rng`; the report learns what it is.
    fn draw(rng: &mut SceneRng, k: usize, report: &mut Report) -> Self {
        let kind = KINDS[k % KINDS.len()];
        let (a, pa, b, pb) = D::case(rng, kind);
        let (body_a, body_b) = (D::body(&a, &pa), D::body(&b, &pb));
        report.far = matches!(kind, Kind::Far).then(|| D::wide(D::position(&pa)).length());
        report.apart = (body_a.points[0] - body_b.points[0]).length();
        report.case = k;
        Self {
            k,
            kind,
            a,
            pa,
            b,
            pb,
            body_a,
            body_b,
        }
    }

    /// A problem, with the case that showed it.
    fn label(&self, what: String) -> String {
        format!(
            "case {} ({:?}): {what}\n  {:?} at {:?}\n  {:?} at {:?}",
            self.k, self.kind, self.a, self.pa, self.b, self.pb
        )
    }
}

/// Contacts and distances, both ways round, and SAT where it applies.
pub fn contacts<D: Dimension>(seed: u64) {
    let mut rng = SceneRng::new(seed);
    let mut report = Report::default();
    let mut problems = Vec::new();
    for k in 0..cases() {
        let c = Case::<D>::draw(&mut rng, k, &mut report);
        if skip(k) {
            continue;
        }
        let ab = (&c.a, &c.pa, &c.b, &c.pb, &c.body_a, &c.body_b);
        let ba = (&c.b, &c.pb, &c.a, &c.pa, &c.body_b, &c.body_a);
        let mut general = Vec::new();
        for (swapped, (x, px, y, py, bx, by)) in [(false, ab), (true, ba)] {
            let answers = D::contacts(x, px, y, py);
            general.push(answers[0].1.depth);
            for (what, got) in answers {
                let rules = Rules::RELATIVE;
                if let Err(e) = judge::contact(&mut report, what, bx, by, D::SPACE, &got, rules) {
                    problems.push(c.label(format!("{e} (swapped: {swapped})")));
                }
            }
            let got = f64::from(D::distance(x, px, y, py));
            if let Err(e) = judge::distance(&mut report, bx, by, D::SPACE, got) {
                problems.push(c.label(e));
            }
            let Some((what, bp, bq, got)) = D::sat(x, px, y, py) else {
                continue;
            };
            let want = reference::depth(&bp, &bq, D::SPACE).depth;
            let verdict = match got {
                Some(got) => {
                    judge::contact(&mut report, what, &bp, &bq, D::SPACE, &got, Rules::SAT)
                }
                None if want > judge::world_tolerance(&[&bp, &bq], 0.0) => {
                    Err(format!("{what}: none where the exact depth is {want}"))
                }
                None => Ok(()),
            };
            if let Err(e) = verdict {
                problems.push(c.label(format!("{e} (swapped: {swapped})")));
            }
        }
        // Swapped, the same depth.
        let tol = judge::tolerance(&[&c.body_a, &c.body_b], 0.0);
        if (general[0] - general[1]).abs() > tol {
            problems.push(c.label(format!(
                "swapped, the depth {} becomes {}",
                general[0], general[1]
            )));
        }
    }
    finish(problems, &report);
}

/// Rays at the second shape; the first shape cast from afar into the
/// second, which moves a little, both ways round; and a short cast from
/// where they are (often in contact).
pub fn casts<D: Dimension>(seed: u64) {
    let mut rng = SceneRng::new(seed);
    let mut report = Report::default();
    let mut problems = Vec::new();
    for k in 0..cases() / 2 {
        let c = Case::<D>::draw(&mut rng, k, &mut report);
        let far = matches!(c.kind, Kind::Far);
        let reach = 10f32.powf(rng.range(0.0, if far { 3.5 } else { 1.5 }));
        let target = D::position(&c.pb);
        let origin = target + D::direction(&mut rng) * reach;
        let toward = target + D::around(&mut rng, 0.5) - origin;
        let max_t = if rng.below(4) == 0 {
            f32::INFINITY
        } else {
            rng.range(0.5, 1.5)
        };
        let start = D::at(&c.pa, origin);
        let motion_a = (target - origin) * rng.range(0.5, 2.0) + D::around(&mut rng, 0.5);
        let motion_b = D::around(&mut rng, 0.3);
        if skip(k) {
            continue;
        }
        let (origin_w, toward_w) = (D::wide(origin), D::wide(toward));
        for (what, got) in D::rays(origin, toward, max_t, &c.b, &c.pb) {
            let (max, space) = (f64::from(max_t), D::SPACE);
            let verdict = judge::ray(
                &mut report,
                what,
                &c.body_b,
                origin_w,
                toward_w,
                max,
                space,
                got,
            );
            if let Err(e) = verdict {
                problems.push(c.label(format!(
                    "{e}\n  ray from {origin:?} along {toward:?} up to {max_t}"
                )));
            }
        }
        let body_start = D::body(&c.a, &start);
        let (ma, mb) = (D::wide(motion_a), D::wide(motion_b));
        let name = if D::NAME == "2D" {
            "2D cast_shape"
        } else {
            "3D cast_shape"
        };
        for swapped in [false, true] {
            let verdict = if swapped {
                let got = D::cast(&c.b, &c.pb, motion_b, &c.a, &start, motion_a);
                judge::cast(
                    &mut report,
                    name,
                    &c.body_b,
                    mb,
                    &body_start,
                    ma,
                    D::SPACE,
                    got,
                )
            } else {
                let got = D::cast(&c.a, &start, motion_a, &c.b, &c.pb, motion_b);
                judge::cast(
                    &mut report,
                    name,
                    &body_start,
                    ma,
                    &c.body_b,
                    mb,
                    D::SPACE,
                    got,
                )
            };
            if let Err(e) = verdict {
                problems.push(c.label(format!(
                    "{e} (swapped: {swapped})\n  from {start:?} by {motion_a:?}, the other by {motion_b:?}"
                )));
            }
        }
        let short = motion_a * 0.1;
        let got = D::cast(&c.a, &c.pa, short, &c.b, &c.pb, motion_b);
        let name = if D::NAME == "2D" {
            "2D cast_shape (near)"
        } else {
            "3D cast_shape (near)"
        };
        let (body_a, body_b) = (&c.body_a, &c.body_b);
        if let Err(e) = judge::cast(
            &mut report,
            name,
            body_a,
            D::wide(short),
            body_b,
            mb,
            D::SPACE,
            got,
        ) {
            problems.push(c.label(format!(
                "{e}\n  by {short:?}, the other by {motion_b:?}: {got:?}"
            )));
        }
    }
    finish(problems, &report);
}

/// The point of `body` farthest along unit `n` (its core's farthest
/// point, out by the radius).
pub fn extreme(body: &Body, n: DVec3) -> DVec3 {
    let core = body
        .points
        .iter()
        .copied()
        .max_by(|p, q| p.dot(n).total_cmp(&q.dot(n)))
        .expect("a body has a point");
    core + n * body.radius
}

/// `10^u` for `u` drawn from `[lo, hi)`, with a random sign when `signed`.
fn scale(rng: &mut SceneRng, lo: f32, hi: f32, signed: bool) -> f64 {
    let sign = if signed && rng.below(2) == 0 {
        -1.0
    } else {
        1.0
    };
    sign * 10f64.powf(f64::from(rng.range(lo, hi)))
}

/// Rays and shape casts that graze the second shape: through a point
/// `offset` out from (or, negative, in from) its farthest point along a
/// random direction `n` (a corner, an edge, a segment's end, a face, a
/// cap), offsets from 1e-7 to 1e-3 of its size (a tenth of them 0),
/// along a tangent tipped toward or away from it by 1e-8 to 1e-3 (a
/// tenth of them not at all); the first shape cast so that its own
/// farthest point toward the target runs along the same line. A hit must
/// lie on the target within the tolerance, wherever the exact answer is
/// a graze.
pub fn grazes<D: Dimension>(seed: u64) {
    let mut rng = SceneRng::new(seed);
    let mut report = Report::default();
    let mut problems = Vec::new();
    for k in 0..graze_cases() {
        let c = Case::<D>::draw(&mut rng, k, &mut report);
        let n = D::wide(D::direction(&mut rng)).normalize();
        let side = D::wide(D::direction(&mut rng));
        let tangent = (side - n * side.dot(n)).normalize_or(DVec3::ZERO);
        let size = c.body_b.size().max(1e-6);
        let offset = if rng.below(10) == 0 {
            0.0
        } else {
            scale(&mut rng, -7.0, -3.0, true) * size
        };
        let tip = if rng.below(10) == 0 {
            0.0
        } else {
            scale(&mut rng, -8.0, -3.0, true)
        };
        let through = extreme(&c.body_b, n) + n * offset;
        let along = tangent - n * tip;
        let run = size * f64::from(rng.range(2.0, 10.0));
        let origin = D::narrow(through - along * run);
        let toward = D::narrow(along);
        let max_t = if rng.below(2) == 0 {
            f32::INFINITY
        } else {
            (run * f64::from(rng.range(1.0, 3.0))) as f32
        };
        let stretch = f64::from(rng.range(1.2, 3.0));
        if skip(k) {
            continue;
        }
        let (origin_w, toward_w) = (D::wide(origin), D::wide(toward));
        for (what, got) in D::rays(origin, toward, max_t, &c.b, &c.pb) {
            let verdict = judge::ray(
                &mut report,
                what,
                &c.body_b,
                origin_w,
                toward_w,
                f64::from(max_t),
                D::SPACE,
                got,
            );
            if let Err(e) = verdict {
                problems.push(c.label(format!(
                    "{e}\n  grazing ray from {origin:?} along {toward:?} up to {max_t}"
                )));
            }
        }
        // The mover's point nearest the target, on the grazing line.
        let lead = extreme(&c.body_a, -n) - D::wide(D::position(&c.pa));
        let start = D::at(&c.pa, D::narrow(through - along * run - lead));
        let motion = D::narrow(along * run * stretch);
        let got = D::cast(&c.a, &start, motion, &c.b, &c.pb, D::narrow(DVec3::ZERO));
        let name = if D::NAME == "2D" {
            "2D cast_shape (grazing)"
        } else {
            "3D cast_shape (grazing)"
        };
        let body_start = D::body(&c.a, &start);
        if let Err(e) = judge::cast(
            &mut report,
            name,
            &body_start,
            D::wide(motion),
            &c.body_b,
            DVec3::ZERO,
            D::SPACE,
            got,
        ) {
            problems.push(c.label(format!(
                "{e}\n  grazing from {start:?} by {motion:?}: {got:?}"
            )));
        }
    }
    finish(problems, &report);
}
