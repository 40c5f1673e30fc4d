//! Every contact, distance, ray cast and shape cast of the narrow phase,
//! 2D and 3D, against an exact f64 reference built from the shapes'
//! support functions and closed-form feature distances (`reference.rs`;
//! `judge.rs` has the rules an answer is held to), on seeded random cases
//! of kinds chosen to break things: crossing thin shapes, capsules 1,000
//! times longer than wide, centres exactly on axes and faces, zero-size
//! and flat shapes, far coordinates (10^3 to 10^5 from the origin), and
//! every pair both ways round (each way judged on its own, and the general
//! contact's depth the same both ways). Every answer must be finite.
//! `run.rs` runs the cases once for both dimensions, over [`Dimension`];
//! `plane.rs` has the 2D shapes, cases and functions, `volume.rs` the 3D
//! ones.
//!
//! A third run grazes: rays and shape casts through points 1e-7 to 1e-3
//! of the target's size outside or inside its farthest point along a
//! random direction (a corner, an edge, a segment's end, a face, a cap),
//! tipped toward or away from it by 1e-8 to 1e-3; where the exact answer
//! is a graze, a reported hit must still lie on the target.
//!
//! The suite runs 2,000 contact cases, 1,000 cast cases and 2,000 grazing
//! cases per dimension (a few seconds optimised); set `NARROW_EXACT_CASES`
//! and `NARROW_GRAZE_CASES` for a longer run, which prints the worst error
//! per kind of answer (run with `--nocapture`), `NARROW_EXACT_CASE` to
//! judge one case alone and `NARROW_EXACT_SHOW` for how many failures to
//! print (8):
//! `NARROW_EXACT_CASES=300000 NARROW_GRAZE_CASES=500000 cargo test -p collide --release --test it narrow::exact -- --nocapture`.

mod judge;
mod plane;
mod reference;
mod run;
mod volume;

use collide_scenes::SceneRng;
use glam::DVec3;
use judge::{Answer, CastAnswer, RayAnswer, Report};
use reference::{Body, Space};
use std::fmt::Debug;
use std::ops::{Add, Mul, Sub};

/// Cases per dimension: the suite's, or `NARROW_EXACT_CASES`.
fn cases() -> usize {
    std::env::var("NARROW_EXACT_CASES")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(2000)
}

/// The kinds of case, in turn.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// Random shapes near each other.
    Random,
    /// Thin capsules and flat boxes crossing.
    Crossing,
    /// A capsule 1,000 times longer than wide and a small shape by it.
    LongThin,
    /// A centre placed exactly on another shape's axis or face.
    OnAxis,
    /// Zero-size and flat shapes.
    Degenerate,
    /// Random shapes 10^3 to 10^5 from the origin.
    Far,
}

const KINDS: [Kind; 6] = [
    Kind::Random,
    Kind::Crossing,
    Kind::LongThin,
    Kind::OnAxis,
    Kind::Degenerate,
    Kind::Far,
];

/// Grazing cases per dimension: the suite's, or `NARROW_GRAZE_CASES`.
fn graze_cases() -> usize {
    std::env::var("NARROW_GRAZE_CASES")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(2000)
}

/// Only this case is judged, when `NARROW_EXACT_CASE` names one (to look
/// at a failure alone).
fn skip(k: usize) -> bool {
    std::env::var("NARROW_EXACT_CASE")
        .ok()
        .and_then(|text| text.parse::<usize>().ok())
        .is_some_and(|only| only != k)
}

/// Fails with every problem found (up to a few), the report beside.
fn finish(problems: Vec<String>, report: &Report) {
    println!("{}", report.summary());
    assert!(
        problems.is_empty(),
        "{} wrong answers; the first:\n{}",
        problems.len(),
        problems[..problems.len().min(
            std::env::var("NARROW_EXACT_SHOW")
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(8)
        )]
            .join("\n")
    );
}

/// One dimension's shapes, poses and narrow-phase functions, as the runs
/// (`run.rs`) need them: `plane::Plane` (2D), `volume::Volume` (3D).
trait Dimension {
    /// "2D" or "3D".
    const NAME: &'static str;
    /// The reference's space.
    const SPACE: Space;
    /// The library's vector.
    type V: Copy
        + Debug
        + Add<Output = Self::V>
        + Sub<Output = Self::V>
        + Mul<f32, Output = Self::V>;
    /// A shape of any kind.
    type Shape: Copy + Debug;
    /// The library's pose.
    type Pose: Copy + Debug;

    /// Two shapes and their poses, of `kind`.
    fn case(rng: &mut SceneRng, kind: Kind) -> (Self::Shape, Self::Pose, Self::Shape, Self::Pose);
    /// The shape placed by the pose, for the reference.
    fn body(shape: &Self::Shape, pose: &Self::Pose) -> Body;
    /// Where the pose puts the shape's origin.
    fn position(pose: &Self::Pose) -> Self::V;
    /// The same turn at another position.
    fn at(pose: &Self::Pose, position: Self::V) -> Self::Pose;
    /// A vector in f64 (2D in the plane z = 0).
    fn wide(v: Self::V) -> DVec3;
    /// The library's vector nearest an f64 one (2D: its x and y).
    fn narrow(v: DVec3) -> Self::V;
    /// A random vector with coordinates in `[-r, r)`.
    fn around(rng: &mut SceneRng, r: f32) -> Self::V;
    /// A random unit vector.
    fn direction(rng: &mut SceneRng) -> Self::V;
    /// Every contact function that takes this pair, by name; the first is
    /// the general one.
    fn contacts(
        a: &Self::Shape,
        pa: &Self::Pose,
        b: &Self::Shape,
        pb: &Self::Pose,
    ) -> Vec<(&'static str, Answer)>;
    /// The separating-axis contact, when the pair has one: its name, the
    /// shapes as it sees them, and its answer (`None`: apart).
    fn sat(
        a: &Self::Shape,
        pa: &Self::Pose,
        b: &Self::Shape,
        pb: &Self::Pose,
    ) -> Option<(&'static str, Body, Body, Option<Answer>)>;
    /// The general distance.
    fn distance(a: &Self::Shape, pa: &Self::Pose, b: &Self::Shape, pb: &Self::Pose) -> f32;
    /// Every ray cast function that takes this shape, by name.
    fn rays(
        origin: Self::V,
        toward: Self::V,
        max_t: f32,
        shape: &Self::Shape,
        pose: &Self::Pose,
    ) -> Vec<(&'static str, Option<RayAnswer>)>;
    /// The shape cast.
    fn cast(
        a: &Self::Shape,
        pa: &Self::Pose,
        motion_a: Self::V,
        b: &Self::Shape,
        pb: &Self::Pose,
        motion_b: Self::V,
    ) -> Option<CastAnswer>;
}

#[test]
fn contacts_2d_match_the_exact_reference() {
    run::contacts::<plane::Plane>(43);
}

#[test]
fn casts_2d_match_the_exact_reference() {
    run::casts::<plane::Plane>(47);
}

#[test]
fn contacts_3d_match_the_exact_reference() {
    run::contacts::<volume::Volume>(53);
}

#[test]
fn casts_3d_match_the_exact_reference() {
    run::casts::<volume::Volume>(59);
}

#[test]
fn grazing_rays_and_casts_2d_match_the_exact_reference() {
    run::grazes::<plane::Plane>(61);
}

#[test]
fn grazing_rays_and_casts_3d_match_the_exact_reference() {
    run::grazes::<volume::Volume>(67);
}
