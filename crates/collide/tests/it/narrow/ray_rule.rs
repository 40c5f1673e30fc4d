//! The one rule of a ray hit, kept by every path: a ray hits a shape where
//! it passes into it (its interior, or across a flat shape); a ray that
//! only touches the boundary (along a face or an edge, tangent to a curve,
//! through a corner) misses. Each case asks the closed form, the general
//! cast on the same shape and the general cast on the shape as a polygon
//! or polyhedron, near the origin and 1e4 away.

use collide::geometry::Ray;
use collide::narrow::{d2, d3};
use collide_scenes::SceneRng;
use glam::{Vec2, Vec3};

/// Where the shapes sit: at the origin and far from it (coordinates whose
/// sums with the cases' small whole numbers are exact in f32).
const PLACES_2D: [Vec2; 2] = [Vec2::ZERO, Vec2::new(1e4, -1e4)];
const PLACES_3D: [Vec3; 2] = [Vec3::ZERO, Vec3::new(1e4, -1e4, 1e4)];

/// The answers of every 2D path for a ray given relative to the shapes'
/// place: (what, t or None).
fn paths_2d(origin: Vec2, direction: Vec2, at: Vec2) -> Vec<(&'static str, Option<f32>)> {
    let ray = Ray::new(at + origin, direction, 100.0).unwrap();
    let pose = d2::Pose::at(at).unwrap();
    let unit = d2::Cuboid::new(Vec2::ONE).unwrap();
    let square = unit.to_polygon();
    vec![
        (
            "cast_ray_cuboid",
            d2::cast_ray_cuboid(&ray, &unit, &pose).map(|h| h.t),
        ),
        (
            "cast_ray_polygon",
            d2::cast_ray_polygon(&ray, &square, &pose).map(|h| h.t),
        ),
        (
            "cast_ray on the box",
            d2::cast_ray(&ray, &unit, &pose).map(|h| h.t),
        ),
        (
            "cast_ray on the polygon",
            d2::cast_ray(&ray, &square, &pose).map(|h| h.t),
        ),
    ]
}

fn paths_3d(origin: Vec3, direction: Vec3, at: Vec3) -> Vec<(&'static str, Option<f32>)> {
    let ray = Ray::new(at + origin, direction, 100.0).unwrap();
    let pose = d3::Pose::at(at).unwrap();
    let unit = d3::Cuboid::new(Vec3::ONE).unwrap();
    let corners: Vec<Vec3> = (0..8)
        .map(|k| Vec3::new(sign(k, 0), sign(k, 1), sign(k, 2)))
        .collect();
    let cube = d3::Polyhedron::new(&corners).unwrap();
    vec![
        (
            "cast_ray_cuboid",
            d3::cast_ray_cuboid(&ray, &unit, &pose).map(|h| h.t),
        ),
        (
            "cast_ray on the box",
            d3::cast_ray(&ray, &unit, &pose).map(|h| h.t),
        ),
        (
            "cast_ray on the polyhedron",
            d3::cast_ray(&ray, &cube, &pose).map(|h| h.t),
        ),
    ]
}

/// -1 or 1: bit `axis` of `k`.
fn sign(k: usize, axis: usize) -> f32 {
    if k >> axis & 1 == 1 { 1.0 } else { -1.0 }
}

fn all_equal(answers: &[(&'static str, Option<f32>)], want: Option<f32>, case: &str) {
    for (what, got) in answers {
        let same = match (got, want) {
            (Some(g), Some(w)) => (g - w).abs() <= 1e-6 * w.max(1.0),
            (None, None) => true,
            _ => false,
        };
        assert!(
            same,
            "{case}: {what} gives {got:?} where the rule gives {want:?}"
        );
    }
}

#[test]
fn rays_along_a_box_face_miss_on_every_path_in_2d() {
    for at in PLACES_2D {
        for (origin, direction, case) in [
            (Vec2::new(-5.0, 1.0), Vec2::X, "along the top from the left"),
            (
                Vec2::new(5.0, -1.0),
                -Vec2::X,
                "along the bottom from the right",
            ),
            (
                Vec2::new(1.0, -5.0),
                Vec2::Y,
                "along the right side from below",
            ),
            (
                Vec2::new(0.0, 1.0),
                Vec2::X,
                "starting on the top, along it",
            ),
            (
                Vec2::new(-1.0, 0.0),
                -Vec2::Y,
                "starting on the left side, along it",
            ),
            (
                Vec2::new(-1.0, 3.0),
                Vec2::new(1.0, -1.0),
                "through the top left corner only",
            ),
            (Vec2::new(0.0, 1.0), Vec2::Y, "starting on the top, leaving"),
        ] {
            all_equal(&paths_2d(origin, direction, at), None, case);
        }
        // Controls: the same rays moved into the box hit it.
        all_equal(
            &paths_2d(Vec2::new(-5.0, 0.5), Vec2::X, at),
            Some(4.0),
            "through",
        );
        all_equal(
            &paths_2d(Vec2::new(0.0, 1.0), -Vec2::Y, at),
            Some(0.0),
            "on the top, in",
        );
    }
}

#[test]
fn rays_along_a_box_face_or_edge_miss_on_every_path_in_3d() {
    for at in PLACES_3D {
        for (origin, direction, case) in [
            (Vec3::new(-5.0, 1.0, 0.0), Vec3::X, "along the top face"),
            (Vec3::new(-5.0, 1.0, 1.0), Vec3::X, "along an edge"),
            (
                Vec3::new(0.5, -5.0, -1.0),
                Vec3::Y,
                "along the back face upward",
            ),
            (
                Vec3::new(0.0, 1.0, 0.5),
                Vec3::new(1.0, 0.0, 1.0),
                "starting on the top, along it",
            ),
            (
                Vec3::new(-1.0, 3.0, 0.0),
                Vec3::new(1.0, -1.0, 0.0),
                "through an edge only",
            ),
            (
                Vec3::new(-1.0, 5.0, 0.0),
                Vec3::new(1.0, -2.0, 0.5),
                "through a corner only",
            ),
        ] {
            all_equal(&paths_3d(origin, direction, at), None, case);
        }
        let through = paths_3d(Vec3::new(-5.0, 0.5, 0.5), Vec3::X, at);
        all_equal(&through, Some(4.0), "through");
    }
}

#[test]
fn rays_tangent_to_round_shapes_miss_in_closed_form_and_general_cast() {
    for at in PLACES_2D {
        let pose = d2::Pose::at(at).unwrap();
        let ball = d2::Circle::new(1.0).unwrap();
        let pole = d2::Capsule::new(1.0, 0.5).unwrap();
        let tangent = Ray::new(at + Vec2::new(-5.0, 1.0), Vec2::X, 100.0).unwrap();
        assert_eq!(d2::cast_ray_circle(&tangent, &ball, &pose), None);
        assert_eq!(d2::cast_ray(&tangent, &ball, &pose), None);
        let side = Ray::new(at + Vec2::new(0.5, -5.0), Vec2::Y, 100.0).unwrap();
        assert_eq!(d2::cast_ray_capsule(&side, &pole, &pose), None);
        assert_eq!(d2::cast_ray(&side, &pole, &pose), None);
    }
    for at in PLACES_3D {
        let pose = d3::Pose::at(at).unwrap();
        let ball = d3::Sphere::new(1.0).unwrap();
        let pole = d3::Capsule::new(1.0, 0.5).unwrap();
        let tangent = Ray::new(at + Vec3::new(-5.0, 1.0, 0.0), Vec3::X, 100.0).unwrap();
        assert_eq!(d3::cast_ray_sphere(&tangent, &ball, &pose), None);
        assert_eq!(d3::cast_ray(&tangent, &ball, &pose), None);
        let side = Ray::new(at + Vec3::new(0.0, -5.0, 0.5), Vec3::Y, 100.0).unwrap();
        assert_eq!(d3::cast_ray_capsule(&side, &pole, &pose), None);
        assert_eq!(d3::cast_ray(&side, &pole, &pose), None);
    }
}

#[test]
fn flat_shapes_are_hit_across_and_missed_along() {
    for at in PLACES_2D {
        let pose = d2::Pose::at(at).unwrap();
        let segment = d2::Capsule::between(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.0).unwrap();
        let flat_box = d2::Cuboid::new(Vec2::new(1.0, 0.0)).unwrap();
        let across = Ray::new(at + Vec2::new(0.5, -5.0), Vec2::Y, 100.0).unwrap();
        let slanted = Ray::new(at + Vec2::new(-4.5, -5.0), Vec2::new(1.0, 1.0), 100.0).unwrap();
        let along = Ray::new(at + Vec2::new(-5.0, 0.0), Vec2::X, 100.0).unwrap();
        for (ray, want, case) in [
            (across, Some(5.0), "across"),
            (slanted, Some(5.0), "slanted"),
            (along, None, "along"),
        ] {
            let got = [
                (
                    "segment, closed form",
                    d2::cast_ray_capsule(&ray, &segment, &pose),
                ),
                ("segment, general", d2::cast_ray(&ray, &segment, &pose)),
                (
                    "flat box, closed form",
                    d2::cast_ray_cuboid(&ray, &flat_box, &pose),
                ),
                ("flat box, general", d2::cast_ray(&ray, &flat_box, &pose)),
            ]
            .map(|(what, hit)| (what, hit.map(|h| h.t)));
            all_equal(&got, want, case);
        }
    }
    for at in PLACES_3D {
        let pose = d3::Pose::at(at).unwrap();
        let plate = d3::Cuboid::new(Vec3::new(1.0, 0.0, 1.0)).unwrap();
        let across = Ray::new(at + Vec3::new(0.5, -5.0, 0.5), Vec3::Y, 100.0).unwrap();
        let along = Ray::new(at + Vec3::new(-5.0, 0.0, 0.5), Vec3::X, 100.0).unwrap();
        for (ray, want, case) in [(across, Some(5.0), "across"), (along, None, "in its plane")] {
            let got = [
                (
                    "plate, closed form",
                    d3::cast_ray_cuboid(&ray, &plate, &pose),
                ),
                ("plate, general", d3::cast_ray(&ray, &plate, &pose)),
            ]
            .map(|(what, hit)| (what, hit.map(|h| h.t)));
            all_equal(&got, want, case);
        }
    }
}

/// A whole number in `[-4, 4]`.
fn small(rng: &mut SceneRng) -> f32 {
    rng.below(9) as f32 - 4.0
}

/// Random convex polygons on whole-number corners (so every line through
/// two corners, and every point on it at whole steps, is exact in f32):
/// a ray along any edge's line, from outside, misses on both paths, near
/// the origin and 1e4 away; a ray at the centre hits on both.
#[test]
fn random_polygons_are_missed_along_every_edge_line() {
    let mut rng = SceneRng::new(7);
    let mut lines = 0;
    for _ in 0..300 {
        let points: Vec<Vec2> = (0..7)
            .map(|_| Vec2::new(small(&mut rng), small(&mut rng)))
            .collect();
        let Ok(polygon) = d2::Polygon::new(&points) else {
            continue;
        };
        let corners = polygon.vertices();
        let area = (corners[1] - corners[0]).perp_dot(corners[2] - corners[0]);
        if corners.len() < 3 || area == 0.0 {
            continue;
        }
        for at in PLACES_2D {
            let pose = d2::Pose::at(at).unwrap();
            for (i, &p) in corners.iter().enumerate() {
                let q = corners[(i + 1) % corners.len()];
                for (origin, direction) in [(p - (q - p) * 3.0, q - p), (q + (q - p) * 2.0, p - q)]
                {
                    let ray = Ray::new(at + origin, direction, f32::INFINITY).unwrap();
                    let got = [
                        (
                            "cast_ray_polygon",
                            d2::cast_ray_polygon(&ray, &polygon, &pose),
                        ),
                        ("cast_ray", d2::cast_ray(&ray, &polygon, &pose)),
                    ];
                    for (what, hit) in got {
                        assert_eq!(hit, None, "{what} along {p} to {q} of {corners:?} at {at}");
                    }
                    lines += 1;
                }
            }
            let centre = corners.iter().copied().sum::<Vec2>() / corners.len() as f32;
            let ray = Ray::new(
                at + Vec2::new(-20.0, -13.0),
                centre - Vec2::new(-20.0, -13.0),
                1.0,
            )
            .unwrap();
            assert!(d2::cast_ray_polygon(&ray, &polygon, &pose).is_some());
            assert!(d2::cast_ray(&ray, &polygon, &pose).is_some());
        }
    }
    assert!(lines > 2000, "{lines} lines");
}

/// Random convex polyhedra on whole-number corners: every line through
/// two corners on a plane that supports the polyhedron (an edge, a
/// diagonal of a face, or a line across a face's plane) lies in that
/// plane, so the general cast misses it, near the origin and 1e4 away;
/// a ray at the centre hits.
#[test]
fn random_polyhedra_are_missed_along_every_supporting_plane() {
    let mut rng = SceneRng::new(11);
    let mut lines = 0;
    for _ in 0..60 {
        let points: Vec<Vec3> = (0..9)
            .map(|_| Vec3::new(small(&mut rng), small(&mut rng), small(&mut rng)))
            .collect();
        let Ok(hull) = d3::Polyhedron::new(&points) else {
            continue;
        };
        let corners = hull.points().to_vec();
        let centre = corners.iter().copied().sum::<Vec3>() / corners.len() as f32;
        for at in PLACES_3D {
            let pose = d3::Pose::at(at).unwrap();
            for (i, &p) in corners.iter().enumerate() {
                for (j, &q) in corners.iter().enumerate().skip(i + 1) {
                    for &s in &corners[j + 1..] {
                        let normal = (q - p).cross(s - p);
                        let offsets = corners.iter().map(|c| normal.dot(*c - p));
                        let supporting =
                            offsets.clone().all(|o| o <= 0.0) || offsets.clone().all(|o| o >= 0.0);
                        if normal == Vec3::ZERO || !supporting {
                            continue;
                        }
                        // Lines in the plane: along p-q, and across it
                        // through p toward q + s - p (both whole steps).
                        for direction in [q - p, (q - p) + (s - p), (s - p) * 2.0 - (q - p)] {
                            let origin = p - direction * 3.0;
                            let ray = Ray::new(at + origin, direction, f32::INFINITY).unwrap();
                            let hit = d3::cast_ray(&ray, &hull, &pose);
                            assert_eq!(
                                hit, None,
                                "along {direction} through {p} in the plane of {p}, {q}, {s} at {at}"
                            );
                            lines += 1;
                        }
                    }
                }
            }
            let ray = Ray::new(
                at + Vec3::new(-20.0, -13.0, 7.0),
                centre - Vec3::new(-20.0, -13.0, 7.0),
                1.0,
            )
            .unwrap();
            assert!(d3::cast_ray(&ray, &hull, &pose).is_some());
        }
    }
    assert!(lines > 2000, "{lines} lines");
}
