//! Voronoi fracture, 2D and 3D: a plate and a wall broken by the same
//! sites wherever they are.
//!
//! The cells are computed in `f64`. Claims: every piece's centroid within
//! 1e-9 of the 4 m object (4 `f64` ulps far out), its area or volume
//! within 1e-9 of the size's square or cube, the same number of pieces
//! and bonds; mirrored within the tolerance (the corners' order turns
//! over). d2::Fracture has no ticks.

use collide_game::fracture::{FractureSettings, Pattern, d2, d3};
use collide_game::glam::{DVec2, DVec3};
use collide_scenes::SceneRng;
use collide_scenes::invariance::{Claims, Frame, Invariance, Outcome, Rate};

/// A convex polygon of the scenario, placed in the frame, counter-clockwise.
fn polygon(frame: &Frame, corners: &[DVec2]) -> Vec<DVec2> {
    let mut placed: Vec<DVec2> = corners.iter().map(|&c| frame.dpoint2(c)).collect();
    if frame.is_mirrored() {
        placed.reverse();
    }
    placed
}

fn plate(frame: &Frame, _: &Rate) -> Outcome {
    let corners = [
        DVec2::new(-2.0, -1.0),
        DVec2::new(2.0, -1.0),
        DVec2::new(2.5, 1.0),
        DVec2::new(-1.5, 1.2),
    ];
    let sites: Vec<DVec2> = Pattern::radial(60, 2.0, 2.0, 7)
        .unwrap()
        .placed(DVec2::new(0.3, 0.1), 0.4)
        .into_iter()
        .map(|s| frame.dpoint2(s))
        .collect();
    let broken = d2::fracture(
        &[polygon(frame, &corners)],
        &sites,
        &FractureSettings::default(),
    )
    .unwrap();
    let mut outcome = Outcome::new();
    outcome.exact("pieces", broken.pieces().len() as i64);
    outcome.exact("bonds", broken.bonds().len() as i64);
    for piece in broken.pieces() {
        outcome.exact("piece's site", piece.site() as i64);
        outcome.dpoint2("piece's centroid", piece.centroid());
        outcome.measure("piece's area", piece.area(), 2);
    }
    outcome
}

fn wall(frame: &Frame, _: &Rate) -> Outcome {
    let (a, b) = (
        frame.dpoint3(DVec3::new(-2.0, 0.0, -0.25)),
        frame.dpoint3(DVec3::new(2.0, 3.0, 0.25)),
    );
    let part = d3::Part::cuboid(a.min(b), a.max(b)).unwrap();
    let mut rng = SceneRng::new(11);
    let mut unit = || f64::from(rng.unit());
    let sites: Vec<DVec3> = (0..40)
        .map(|_| {
            frame.dpoint3(DVec3::new(
                4.0 * unit() - 2.0,
                3.0 * unit(),
                0.5 * unit() - 0.25,
            ))
        })
        .collect();
    let broken = d3::fracture(std::slice::from_ref(&part), &sites).unwrap();
    let mut outcome = Outcome::new();
    outcome.exact("pieces", broken.pieces().len() as i64);
    outcome.exact("bonds", broken.bonds().len() as i64);
    for piece in broken.pieces() {
        outcome.exact("piece's site", piece.site() as i64);
        outcome.dpoint3("piece's centroid", piece.centroid());
        outcome.measure("piece's volume", piece.volume(), 3);
    }
    outcome
}

fn claims() -> Claims {
    Claims::new(4.0, 1e-9).in_f64()
}

#[test]
fn a_plate_breaks_alike_mirrored_and_scaled() {
    let run = Invariance::new("a plate broken in 2D", claims(), plate);
    run.mirrored().assert_holds();
    run.scaled().assert_holds();
}

#[test]
fn a_wall_breaks_alike_mirrored_and_scaled() {
    let run = Invariance::new("a wall broken in 3D", claims(), wall);
    run.mirrored().assert_holds();
    run.scaled().assert_holds();
}

#[test]
fn fracture_holds_far_from_the_origin() {
    Invariance::new("a plate broken in 2D", claims(), plate)
        .far_out()
        .assert_holds();
    Invariance::new("a wall broken in 3D", claims(), wall)
        .far_out()
        .assert_holds();
}
