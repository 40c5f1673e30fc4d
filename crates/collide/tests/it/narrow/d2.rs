//! The 2D narrow phase checked against itself: SAT against GJK/EPA, closed
//! forms against GJK, casts against stepping the motion finely, on
//! thousands of seeded random shape pairs; and the edge cases by name.

use collide::geometry::Ray;
use collide::narrow::d2::{
    Capsule, Circle, Cuboid, Polygon, Pose, Shape, cast_ray, cast_ray_capsule, cast_ray_circle,
    cast_ray_cuboid, cast_ray_polygon, cast_shape, contact, contact_capsule_capsule,
    contact_circle_capsule, contact_circle_circle, contact_circle_cuboid, contact_polygon_polygon,
    distance,
};
use collide::narrow::{Contact, ShapeError, Support};
use collide_scenes::SceneRng;
use glam::Vec2;

pub(super) fn pose(rng: &mut SceneRng, spread: f32) -> Pose {
    let at = Vec2::new(rng.range(-spread, spread), rng.range(-spread, spread));
    Pose::new(at, rng.range(-3.2, 3.2)).unwrap()
}

fn polygon(rng: &mut SceneRng) -> Polygon {
    loop {
        let n = 3 + rng.below(6);
        let size = rng.range(0.3, 2.0);
        let points: Vec<Vec2> = (0..n)
            .map(|_| Vec2::new(rng.range(-size, size), rng.range(-size, size)))
            .collect();
        if let Ok(p) = Polygon::new(&points) {
            return p;
        }
    }
}

fn capsule(rng: &mut SceneRng) -> Capsule {
    let a = Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
    let b = Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
    Capsule::between(a, b, rng.range(0.05, 0.8)).unwrap()
}

/// Moving the second shape by the contact's MTV leaves them just touching.
fn assert_mtv_separates(
    a: &impl Support<Vec2>,
    pa: &Pose,
    b: &impl Support<Vec2>,
    pb: &Pose,
    c: &Contact<Vec2>,
    what: &str,
) {
    let moved = {
        let mut q = *pb;
        q.set_position(pb.position() + c.mtv()).unwrap();
        q
    };
    let after = contact(a, pa, b, &moved);
    assert!(
        after.depth.abs() < 2e-4,
        "{what}: after the MTV the depth is {} ({c:?})",
        after.depth
    );
}

#[test]
fn sat_agrees_with_gjk_and_epa_on_random_polygon_pairs() {
    let mut rng = SceneRng::new(7);
    let (mut overlapping, mut apart) = (0, 0);
    for k in 0..3000 {
        let (a, b) = (polygon(&mut rng), polygon(&mut rng));
        let (pa, pb) = (pose(&mut rng, 2.0), pose(&mut rng, 2.0));
        let general = contact(&a, &pa, &b, &pb);
        match contact_polygon_polygon(&a, &pa, &b, &pb) {
            None => {
                assert!(
                    general.depth < 1e-5,
                    "pair {k}: SAT separates, GJK says {general:?}"
                );
                apart += 1;
            }
            Some(sat) => {
                assert!(
                    general.depth > -1e-5,
                    "pair {k}: SAT overlaps, GJK says {general:?}"
                );
                assert!(
                    (sat.depth - general.depth).abs() < 1e-4,
                    "pair {k}: SAT depth {} against EPA {}",
                    sat.depth,
                    general.depth
                );
                assert_mtv_separates(&a, &pa, &b, &pb, &sat, "SAT");
                assert_mtv_separates(&a, &pa, &b, &pb, &general, "EPA");
                // The witness points lie on the shapes' boundaries, one
                // depth apart along the normal.
                let along = (sat.point_a - sat.point_b).dot(sat.normal);
                assert!(
                    (along - sat.depth).abs() < 1e-4,
                    "pair {k}: witnesses {sat:?}"
                );
                overlapping += 1;
            }
        }
    }
    assert!(
        overlapping > 500 && apart > 500,
        "both cases covered: {overlapping} / {apart}"
    );
}

#[test]
fn closed_forms_agree_with_gjk() {
    let mut rng = SceneRng::new(11);
    let close = |x: &Contact<Vec2>, y: &Contact<Vec2>, what: &str| {
        assert!(
            (x.depth - y.depth).abs() < 1e-4,
            "{what}: {x:?} against GJK {y:?}"
        );
        if x.depth.abs() > 1e-3 || x.depth < 0.0 {
            assert!(
                (x.normal - y.normal).length() < 1e-3,
                "{what}: {x:?} against GJK {y:?}"
            );
            assert!(
                (x.point_a - y.point_a).length() < 1e-3,
                "{what}: {x:?} against GJK {y:?}"
            );
            assert!(
                (x.point_b - y.point_b).length() < 1e-3,
                "{what}: {x:?} against GJK {y:?}"
            );
        }
    };
    for _ in 0..2000 {
        let (c1, c2) = (
            Circle::new(rng.range(0.1, 2.0)).unwrap(),
            Circle::new(rng.range(0.1, 2.0)).unwrap(),
        );
        let (k1, k2) = (capsule(&mut rng), capsule(&mut rng));
        let (pa, pb) = (pose(&mut rng, 2.5), pose(&mut rng, 2.5));
        close(
            &contact_circle_circle(&c1, &pa, &c2, &pb),
            &contact(&c1, &pa, &c2, &pb),
            "circles",
        );
        close(
            &contact_circle_capsule(&c1, &pa, &k2, &pb),
            &contact(&c1, &pa, &k2, &pb),
            "circle-capsule",
        );
        let plank =
            collide::narrow::d2::Cuboid::new(Vec2::new(rng.range(0.1, 2.0), rng.range(0.1, 2.0)))
                .unwrap();
        close(
            &contact_circle_cuboid(&c1, &pa, &plank, &pb),
            &contact(&c1, &pa, &plank, &pb),
            "circle-box",
        );
        let closed = contact_capsule_capsule(&k1, &pa, &k2, &pb);
        let general = contact(&k1, &pa, &k2, &pb);
        assert!(
            (closed.depth - general.depth).abs() < 1e-4,
            "capsules: {closed:?} against {general:?}"
        );
        if closed.depth > 0.0 {
            assert_mtv_separates(&k1, &pa, &k2, &pb, &closed, "capsules");
        } else {
            close(&closed, &general, "capsules");
        }
    }
}

#[test]
fn swapping_the_shapes_flips_the_normal_and_nothing_else() {
    let mut rng = SceneRng::new(13);
    for k in 0..2000 {
        let (a, b) = (polygon(&mut rng), capsule(&mut rng));
        let (pa, pb) = (pose(&mut rng, 2.0), pose(&mut rng, 2.0));
        let ab = contact(&a, &pa, &b, &pb);
        let ba = contact(&b, &pb, &a, &pa).flipped();
        assert!(
            (ab.depth - ba.depth).abs() < 1e-5,
            "pair {k}: {ab:?} / {ba:?}"
        );
        assert!(
            (ab.normal - ba.normal).length() < 1e-3,
            "pair {k}: {ab:?} / {ba:?}"
        );
        assert!(
            (ab.point_a - ba.point_a).length() < 1e-3,
            "pair {k}: {ab:?} / {ba:?}"
        );
        assert!(
            (ab.point_b - ba.point_b).length() < 1e-3,
            "pair {k}: {ab:?} / {ba:?}"
        );
        let sat_ab = contact_polygon_polygon(&a, &pa, &a, &pb);
        let sat_ba = contact_polygon_polygon(&a, &pb, &a, &pa);
        assert_eq!(sat_ab.is_some(), sat_ba.is_some(), "pair {k}");
        if let (Some(x), Some(y)) = (sat_ab, sat_ba) {
            assert!((x.depth - y.depth).abs() < 1e-5, "pair {k}: {x:?} / {y:?}");
        }
    }
}

#[test]
fn moving_both_shapes_changes_nothing_but_the_points() {
    let mut rng = SceneRng::new(17);
    for shift in [Vec2::new(1000.0, -2000.0), Vec2::new(-1e4, 3e4)] {
        for _ in 0..500 {
            let (a, b) = (polygon(&mut rng), polygon(&mut rng));
            let (pa, pb) = (pose(&mut rng, 2.0), pose(&mut rng, 2.0));
            let moved = |p: &Pose| {
                let mut q = *p;
                q.set_position(p.position() + shift).unwrap();
                q
            };
            let here = contact(&a, &pa, &b, &pb);
            let there = contact(&a, &moved(&pa), &b, &moved(&pb));
            // f32 positions far out keep about 1e-3 of their digits.
            let slack = 8.0 * f32::EPSILON * shift.abs().max_element();
            assert!(
                (here.depth - there.depth).abs() < 1e-4 + slack,
                "{here:?} / {there:?}"
            );
            // The points may slide along a face (a face contact has many);
            // across it they may not.
            let across = ((here.point_a + shift) - there.point_a).dot(here.normal);
            assert!(across.abs() < 1e-3 + slack, "{here:?} / {there:?}");
        }
    }
}

#[test]
fn edge_cases_by_name() {
    let unit = Cuboid::new(Vec2::ONE).unwrap();
    let square = unit.to_polygon();
    let at = |x: f32, y: f32| Pose::at(Vec2::new(x, y)).unwrap();
    // Identical boxes offset along one axis only.
    for (offset, axis) in [
        (Vec2::new(1.5, 0.0), Vec2::X),
        (Vec2::new(0.0, -0.5), -Vec2::Y),
    ] {
        let c = contact_polygon_polygon(&square, &Pose::IDENTITY, &square, &at(offset.x, offset.y))
            .unwrap();
        assert_eq!(c.normal, axis);
        assert!((c.depth - (2.0 - offset.length())).abs() < 1e-6);
        let g = contact(&unit, &Pose::IDENTITY, &unit, &at(offset.x, offset.y));
        assert!(
            (g.normal - axis).length() < 1e-6 && (g.depth - c.depth).abs() < 1e-6,
            "{g:?}"
        );
    }
    // Touching face to face, and at one corner: depth 0.
    let face = contact(&unit, &Pose::IDENTITY, &unit, &at(2.0, 0.5));
    assert!(face.depth.abs() < 1e-6 && face.touching() == (face.depth >= 0.0));
    let corner = contact(&unit, &Pose::IDENTITY, &unit, &at(2.0, 2.0));
    assert!(corner.depth.abs() < 1e-6, "{corner:?}");
    let sat_corner = contact_polygon_polygon(&square, &Pose::IDENTITY, &square, &at(2.0, 2.0));
    assert!(sat_corner.is_some_and(|c| c.depth.abs() < 1e-6));
    // Parallel edges, one box turned a half turn.
    let turned = Pose::new(Vec2::new(1.0, 0.3), std::f32::consts::PI).unwrap();
    let c = contact(&unit, &Pose::IDENTITY, &unit, &turned);
    assert!(
        (c.depth - 1.0).abs() < 1e-5 && (c.normal - Vec2::X).length() < 1e-5,
        "{c:?}"
    );
    // Deep penetration: nearly concentric boxes of different sizes (up:
    // 2 - (-0.9) = 2.9; down 3.1; sideways 4).
    let big = Cuboid::new(Vec2::new(3.0, 2.0)).unwrap();
    let c = contact(&big, &Pose::IDENTITY, &unit, &at(0.0, 0.1));
    assert!(
        (c.depth - 2.9).abs() < 1e-5 && (c.normal - Vec2::Y).length() < 1e-5,
        "{c:?}"
    );
    // Very small and very large shapes.
    for s in [1e-3f32, 1e4] {
        let box_s = Cuboid::new(Vec2::splat(s)).unwrap();
        let c = contact(&box_s, &Pose::IDENTITY, &box_s, &at(1.5 * s, 0.0));
        assert!((c.depth - 0.5 * s).abs() < 1e-5 * s, "size {s}: {c:?}");
        let d = contact(&box_s, &Pose::IDENTITY, &box_s, &at(3.0 * s, 0.0));
        assert!((d.depth + s).abs() < 1e-5 * s, "size {s}: {d:?}");
    }
    // Coincident circles push along +y.
    let ball = Circle::new(1.0).unwrap();
    let c = contact_circle_circle(&ball, &Pose::IDENTITY, &ball, &Pose::IDENTITY);
    assert_eq!((c.normal, c.depth), (Vec2::Y, 2.0));
}

#[test]
fn ray_casts_agree_with_the_general_cast_and_with_the_shapes() {
    let mut rng = SceneRng::new(19);
    let mut hits = 0;
    for k in 0..1500 {
        let p = pose(&mut rng, 1.0);
        let origin = Vec2::new(rng.range(-6.0, 6.0), rng.range(-6.0, 6.0));
        let toward = Vec2::new(rng.range(-1.5, 1.5), rng.range(-1.5, 1.5)) - origin;
        let ray = Ray::new(origin, toward, rng.range(0.5, 2.0)).unwrap();
        let circle = Circle::new(rng.range(0.2, 1.5)).unwrap();
        let cuboid = Cuboid::new(Vec2::new(rng.range(0.1, 1.5), rng.range(0.1, 1.5))).unwrap();
        let poly = polygon(&mut rng);
        let cap = capsule(&mut rng);
        let cases: [(&str, Option<_>, Option<_>); 4] = [
            (
                "circle",
                cast_ray_circle(&ray, &circle, &p),
                cast_ray(&ray, &circle, &p),
            ),
            (
                "cuboid",
                cast_ray_cuboid(&ray, &cuboid, &p),
                cast_ray(&ray, &cuboid, &p),
            ),
            (
                "polygon",
                cast_ray_polygon(&ray, &poly, &p),
                cast_ray(&ray, &poly, &p),
            ),
            (
                "capsule",
                cast_ray_capsule(&ray, &cap, &p),
                cast_ray(&ray, &cap, &p),
            ),
        ];
        let len = ray.direction().length();
        for (what, closed, general) in cases {
            match (closed, general) {
                (Some(x), Some(y)) => {
                    assert!(
                        (x.t - y.t).abs() * len < 1e-3,
                        "ray {k} {what}: {x:?} / {y:?}"
                    );
                    if x.t > 0.0 {
                        assert!(
                            (x.normal - y.normal).length() < 1e-2,
                            "ray {k} {what}: {x:?} / {y:?}"
                        );
                    }
                    hits += 1;
                }
                (None, None) => {}
                // A near-graze may fall either way within the tolerance.
                (x, y) => {
                    let t = x.or(y).unwrap().t;
                    let grazing = (t - ray.max_t()).abs() * len < 1e-3;
                    assert!(
                        grazing || x.or(y).unwrap().normal.dot(ray.direction()).abs() < 1e-2 * len,
                        "ray {k} {what}: closed {x:?}, general {y:?}"
                    );
                }
            }
        }
    }
    assert!(hits > 1000, "hits: {hits}");
}

#[test]
fn rays_start_inside_along_faces_and_with_zero_direction() {
    let unit = Cuboid::new(Vec2::ONE).unwrap();
    let inside = Ray::new(Vec2::ZERO, Vec2::X, 5.0).unwrap();
    let hit = cast_ray_cuboid(&inside, &unit, &Pose::IDENTITY).unwrap();
    assert_eq!((hit.t, hit.normal), (0.0, -Vec2::X));
    let along_face = Ray::new(Vec2::new(-3.0, 1.0), Vec2::X, 10.0).unwrap();
    assert!(cast_ray_cuboid(&along_face, &unit, &Pose::IDENTITY).is_none());
    let still = Ray::new(Vec2::new(0.5, 0.5), Vec2::ZERO, 1.0).unwrap();
    assert_eq!(
        cast_ray_cuboid(&still, &unit, &Pose::IDENTITY).map(|h| h.t),
        Some(0.0)
    );
    let still_outside = Ray::new(Vec2::new(5.0, 0.5), Vec2::ZERO, 1.0).unwrap();
    assert!(cast_ray_cuboid(&still_outside, &unit, &Pose::IDENTITY).is_none());
    let ball = Circle::new(1.0).unwrap();
    assert!(cast_ray_circle(&still_outside, &ball, &Pose::IDENTITY).is_none());
    let tangent = Ray::new(Vec2::new(-3.0, 1.0), Vec2::X, 10.0).unwrap();
    assert!(cast_ray_circle(&tangent, &ball, &Pose::IDENTITY).is_none());
}

/// The first `t` in 2000 equal steps at which the moved shapes overlap by
/// more than 1e-3.
fn first_overlap_by_stepping(
    a: &impl Support<Vec2>,
    pa: &Pose,
    ma: Vec2,
    b: &impl Support<Vec2>,
    pb: &Pose,
    mb: Vec2,
) -> Option<f32> {
    let (steps, slack) = (2000, 1e-3);
    (0..=steps).map(|i| i as f32 / steps as f32).find(|&t| {
        let at = |p: &Pose, m: Vec2| {
            let mut q = *p;
            q.set_position(p.position() + m * t).unwrap();
            q
        };
        contact(a, &at(pa, ma), b, &at(pb, mb)).depth > slack
    })
}

#[test]
fn shape_casts_agree_with_stepping_the_motion_finely() {
    let mut rng = SceneRng::new(23);
    let (mut hit, mut missed) = (0, 0);
    for k in 0..400 {
        let (a, b) = (polygon(&mut rng), capsule(&mut rng));
        let pa = Pose::new(
            Vec2::new(rng.range(-8.0, -4.0), rng.range(-3.0, 3.0)),
            rng.range(-3.0, 3.0),
        )
        .unwrap();
        let pb = pose(&mut rng, 1.0);
        let ma = Vec2::new(rng.range(6.0, 14.0), rng.range(-4.0, 4.0));
        let mb = Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
        if contact(&a, &pa, &b, &pb).depth > -1e-3 {
            continue; // starts touching: covered below
        }
        let cast = cast_shape(&a, &pa, ma, &b, &pb, mb);
        let stepped = first_overlap_by_stepping(&a, &pa, ma, &b, &pb, mb);
        match (cast, stepped) {
            (Some(c), Some(t)) => {
                assert!(
                    c.t <= t + 1e-6,
                    "case {k}: cast {} after the first overlap {t}",
                    c.t
                );
                assert!(c.contact.depth.abs() < 1e-3, "case {k}: {c:?}");
                hit += 1;
            }
            (None, None) => missed += 1,
            (Some(c), None) => assert!(c.contact.depth.abs() < 1e-3, "case {k}: a graze {c:?}"),
            (None, Some(t)) => panic!("case {k}: stepping overlaps at {t}, the cast missed"),
        }
    }
    assert!(hit > 100 && missed > 50, "{hit} hits, {missed} misses");
}

#[test]
fn a_cast_starting_in_contact_stops_only_when_pushing_in() {
    let ball = Circle::new(0.5).unwrap();
    let wall = Cuboid::new(Vec2::new(0.5, 5.0)).unwrap();
    let wall_at = Pose::at(Vec2::new(1.0, 0.0)).unwrap(); // face at x = 0.5
    let pressed = Pose::at(Vec2::ZERO).unwrap(); // the ball touches it
    let into = cast_shape(
        &ball,
        &pressed,
        Vec2::new(1.0, 1.0),
        &wall,
        &wall_at,
        Vec2::ZERO,
    )
    .unwrap();
    assert_eq!(into.t, 0.0);
    assert!((into.contact.normal - Vec2::X).length() < 1e-5);
    // Slide: the motion without its normal part goes free.
    let slide =
        Vec2::new(1.0, 1.0) - into.contact.normal * Vec2::new(1.0, 1.0).dot(into.contact.normal);
    assert!(cast_shape(&ball, &pressed, slide, &wall, &wall_at, Vec2::ZERO).is_none());
    assert!(
        cast_shape(
            &ball,
            &pressed,
            Vec2::new(-1.0, 0.0),
            &wall,
            &wall_at,
            Vec2::ZERO
        )
        .is_none()
    );
    // Overlapping and pushing in: t = 0 with the depth and a separating normal.
    let sunk = Pose::at(Vec2::new(0.2, 0.0)).unwrap();
    let deep = cast_shape(&ball, &sunk, Vec2::X, &wall, &wall_at, Vec2::ZERO).unwrap();
    assert_eq!(deep.t, 0.0);
    assert!(
        (deep.contact.depth - 0.2).abs() < 1e-5 && (deep.contact.normal - Vec2::X).length() < 1e-5
    );
    // Moving to a cast's t and casting the rest again does not stick.
    let start = Pose::at(Vec2::new(-5.0, 0.0)).unwrap();
    let first = cast_shape(
        &ball,
        &start,
        Vec2::new(10.0, 3.0),
        &wall,
        &wall_at,
        Vec2::ZERO,
    )
    .unwrap();
    let there = Pose::at(start.position() + Vec2::new(10.0, 3.0) * first.t).unwrap();
    let rest = Vec2::new(10.0, 3.0) * (1.0 - first.t);
    let n = first.contact.normal;
    let slide = rest - n * rest.dot(n);
    assert!(cast_shape(&ball, &there, slide, &wall, &wall_at, Vec2::ZERO).is_none());
}

#[test]
fn a_900_metre_per_second_bullet_at_60_hz_hits_a_1_cm_plate() {
    let bullet = Circle::new(0.0045).unwrap(); // 9 mm
    let plate = Cuboid::new(Vec2::new(0.005, 1.0)).unwrap(); // 1 cm thick
    let plate_at = Pose::at(Vec2::new(7.0, 0.0)).unwrap();
    let start = Pose::at(Vec2::ZERO).unwrap();
    let step = Vec2::new(900.0 / 60.0, 0.0); // 15 m per frame
    let end = Pose::at(step).unwrap();
    // The discrete test at the frame's two ends misses it...
    assert!(contact(&bullet, &start, &plate, &plate_at).depth < 0.0);
    assert!(contact(&bullet, &end, &plate, &plate_at).depth < 0.0);
    // ...the cast catches it where the bullet meets the near face.
    let hit = cast_shape(&bullet, &start, step, &plate, &plate_at, Vec2::ZERO).expect("caught");
    let expected = (7.0 - 0.005 - 0.0045) / 15.0;
    assert!(
        (hit.t - expected).abs() * 15.0 < 1e-4,
        "t = {} against {expected}",
        hit.t
    );
    // A ray does too.
    let ray = Ray::new(Vec2::ZERO, step, 1.0).unwrap();
    let t = cast_ray_cuboid(&ray, &plate, &plate_at).unwrap().t;
    assert!((t - 6.995 / 15.0).abs() < 1e-6);
}

#[test]
fn a_large_target_does_not_blur_the_time_of_impact() {
    // A small ball falling onto a floor thousands of times its size.
    let ball = Circle::new(0.1).unwrap();
    for half in [10.0f32, 1e3, 1e5] {
        let floor = Cuboid::new(Vec2::new(half, half)).unwrap();
        let floor_at = Pose::at(Vec2::new(0.0, -half)).unwrap(); // top face at y = 0
        let start = Pose::at(Vec2::new(0.3, 2.0)).unwrap();
        let hit = cast_shape(
            &ball,
            &start,
            Vec2::new(0.0, -4.0),
            &floor,
            &floor_at,
            Vec2::ZERO,
        )
        .unwrap();
        let expected = (2.0 - 0.1) / 4.0;
        // f32 positions near a 1e5 box keep about 1e-2 of absolute digits;
        // the cast itself adds no more than its tolerance.
        let slack = 16.0 * f32::EPSILON * half / 4.0;
        assert!(
            (hit.t - expected).abs() < 1e-5 + slack,
            "half {half}: t = {}",
            hit.t
        );
    }
}

#[test]
fn bad_shapes_and_poses_are_errors_that_say_what_to_do() {
    assert!(matches!(
        Circle::new(f32::NAN),
        Err(ShapeError::Radius { .. })
    ));
    assert!(matches!(
        Capsule::new(-1.0, 0.5),
        Err(ShapeError::HalfExtent { .. })
    ));
    assert!(matches!(
        Cuboid::new(Vec2::new(1.0, -1.0)),
        Err(ShapeError::HalfExtent { axis: 1, .. })
    ));
    assert!(matches!(
        Polygon::new(&[Vec2::ZERO, Vec2::X]),
        Err(ShapeError::Degenerate { points: 2 })
    ));
    let nan = Polygon::new(&[Vec2::ZERO, Vec2::X, Vec2::new(f32::NAN, 1.0)]).unwrap_err();
    assert!(nan.to_string().contains("finite"), "{nan}");
    let circle: Vec<Vec2> = (0..12).map(|k| Vec2::from_angle(k as f32 * 0.5)).collect();
    let err = Polygon::new(&circle).unwrap_err();
    assert!(
        matches!(err, ShapeError::TooManyVertices { max: 8, .. }),
        "{err}"
    );
    assert!(Pose::new(Vec2::ZERO, f32::INFINITY).is_err());
    assert!(Capsule::between(Vec2::ZERO, Vec2::new(f32::NAN, 0.0), 1.0).is_err());
}

#[test]
fn bounding_boxes_hold_their_shapes() {
    let mut rng = SceneRng::new(29);
    for _ in 0..500 {
        let p = pose(&mut rng, 100.0);
        let poly = Polygon::rounded(polygon(&mut rng).vertices(), rng.range(0.0, 0.5)).unwrap();
        let cap = capsule(&mut rng);
        let boxes = [
            (poly.aabb(&p), &poly as &dyn Support<Vec2>),
            (cap.aabb(&p), &cap),
        ];
        for (bounds, shape) in boxes {
            for k in 0..32 {
                let d = Vec2::from_angle(k as f32 * std::f32::consts::TAU / 32.0);
                // The shape's farthest point along d: the core's support
                // plus the radius.
                let far = p.apply(shape.support(p.unrotate(d))) + d * shape.radius();
                let inside = (0..2).all(|a| bounds.min()[a] <= far[a] && far[a] <= bounds.max()[a]);
                assert!(inside, "{far:?} outside {bounds:?}");
            }
        }
    }
}

#[test]
fn distance_is_the_contact_gap_without_epa() {
    let mut rng = SceneRng::new(61);
    for k in 0..1000 {
        let (a, b) = (polygon(&mut rng), capsule(&mut rng));
        let (pa, pb) = (pose(&mut rng, 2.0), pose(&mut rng, 2.0));
        let gap = contact(&a, &pa, &b, &pb).distance();
        let d = distance(&a, &pa, &b, &pb);
        assert!(
            (gap - d).abs() < 1e-5,
            "pair {k}: contact says {gap}, distance {d}"
        );
    }
}

#[test]
fn extreme_values_give_answers_never_panics() {
    let big = [0.0f32, 1e-30, 1.0, 1e20, 1e38, f32::MAX];
    for &size in &big {
        for &at in &big {
            let poly =
                Polygon::new(&[Vec2::ZERO, Vec2::X * size.max(1.0), Vec2::Y * size.max(1.0)])
                    .unwrap();
            let shapes: [&dyn Support<Vec2>; 4] = [
                &Circle::new(size).unwrap(),
                &Cuboid::new(Vec2::splat(size)).unwrap(),
                &Capsule::new(size, size).unwrap(),
                &poly,
            ];
            let pa = Pose::at(Vec2::new(-at, 0.0)).unwrap();
            let pb = Pose::new(Vec2::new(at, -at), 0.3).unwrap();
            for a in shapes {
                for b in shapes {
                    let c = contact(a, &pa, b, &pb);
                    assert!(!c.depth.is_nan(), "size {size} at {at}: {c:?}");
                    let _ = distance(a, &pa, b, &pb);
                    let _ = cast_shape(
                        a,
                        &pa,
                        Vec2::new(at, f32::MAX),
                        b,
                        &pb,
                        Vec2::new(-f32::MAX, 0.0),
                    );
                    let ray =
                        Ray::new(pa.position(), Vec2::new(1.0, f32::MAX), f32::INFINITY).unwrap();
                    let _ = cast_ray(&ray, b, &pb);
                }
            }
            let ray = Ray::new(Vec2::splat(-at), Vec2::ONE, f32::INFINITY).unwrap();
            let cube = Cuboid::new(Vec2::splat(size)).unwrap();
            let _ = (
                cube.aabb(&pb),
                cast_ray_cuboid(&ray, &cube, &pb),
                cast_ray_polygon(&ray, &poly, &pb),
            );
            let _ = cast_ray_circle(&ray, &Circle::new(size).unwrap(), &pb);
            let _ = cast_ray_capsule(&ray, &Capsule::new(size, size).unwrap(), &pb);
            let _ = contact_polygon_polygon(&poly, &pa, &cube.to_polygon(), &pb);
            let _ = contact_capsule_capsule(
                &Capsule::new(size, size).unwrap(),
                &pa,
                &Capsule::new(size, 1.0).unwrap(),
                &pb,
            );
        }
    }
}

#[test]
fn cores_that_meet_get_a_normal_that_separates() {
    // Regression (review): touching cores (a T, an end on the other's
    // middle, capsules in line, a centre on the core) were pushed along +y.
    let bar = Capsule::new(1.0, 0.25).unwrap();
    let tee = Pose::new(Vec2::new(0.0, -2.0), std::f32::consts::FRAC_PI_2).unwrap(); // from (1,-2) to (-1,-2)
    let lying = Pose::new(Vec2::new(0.0, -1.0), std::f32::consts::FRAC_PI_2).unwrap(); // through (0,-1)
    for (p, what) in [(tee, "apart"), (lying, "tee")] {
        let c = contact_capsule_capsule(&bar, &Pose::IDENTITY, &bar, &p);
        if c.depth > 0.0 {
            assert_mtv_separates(&bar, &Pose::IDENTITY, &bar, &p, &c, what);
        }
    }
    let c = contact_capsule_capsule(&bar, &Pose::IDENTITY, &bar, &lying);
    assert!((c.normal + Vec2::Y).length() < 1e-5, "{c:?}");
    let above = Pose::at(Vec2::new(0.0, 1.5)).unwrap();
    let c = contact_capsule_capsule(&bar, &Pose::IDENTITY, &bar, &above);
    assert_mtv_separates(&bar, &Pose::IDENTITY, &bar, &above, &c, "in line");
    let ball = Circle::new(0.3).unwrap();
    let on_axis = Pose::at(Vec2::new(0.0, 0.5)).unwrap();
    let c = contact_circle_capsule(&ball, &on_axis, &bar, &Pose::IDENTITY);
    assert!((c.depth - 0.55).abs() < 1e-5, "{c:?}");
    assert_mtv_separates(&ball, &on_axis, &bar, &Pose::IDENTITY, &c, "on the axis");
}

#[test]
fn review_regressions_flat_boxes_far_polygons_and_bad_fields() {
    // A flat box (zero height) as a polygon: no zero normal reaches the
    // SAT, and its contact agrees with GJK.
    let flat = Cuboid::new(Vec2::new(1.0, 0.0)).unwrap();
    let square = Cuboid::new(Vec2::ONE).unwrap();
    let at = Pose::at(Vec2::new(0.3, 0.8)).unwrap();
    let sat = contact_polygon_polygon(
        &flat.to_polygon(),
        &at,
        &square.to_polygon(),
        &Pose::IDENTITY,
    )
    .unwrap();
    assert!(sat.normal.length() > 0.99, "{sat:?}");
    let gjk = contact(&flat, &at, &square, &Pose::IDENTITY);
    assert!((sat.depth - gjk.depth).abs() < 1e-5, "{sat:?} / {gjk:?}");
    // A small triangle far from the origin is a polygon, not degenerate.
    let far = [
        Vec2::new(100.0, 0.0),
        Vec2::new(100.1, 0.0),
        Vec2::new(100.0, 0.1),
    ];
    assert_eq!(Polygon::new(&far).unwrap().vertices().len(), 3);
    let far = far.map(|p| p + Vec2::new(1000.0, 0.0));
    assert_eq!(Polygon::new(&far).unwrap().vertices().len(), 3);
}

/// Caught in review: the GJK ray cast stopped at once for an origin inside
/// a box within rounding of the diagonal its support points spanned, and
/// read that as "just outside, heading away": a miss.
#[test]
fn rays_starting_inside_a_box_near_its_diagonal_start_inside() {
    let unit = Cuboid::new(Vec2::ONE).unwrap();
    let rounded = Polygon::rounded(
        &[Vec2::new(-1.0, -1.0), Vec2::new(1.0, -1.0), Vec2::ONE],
        0.25,
    )
    .unwrap();
    let mut rng = SceneRng::new(41);
    for k in 0..2000 {
        let along = rng.range(-0.9, 0.9);
        let off = if k % 2 == 0 {
            1e-8
        } else {
            rng.range(-1e-6, 1e-6)
        };
        let origin = if k % 3 == 0 {
            Vec2::new(off, 0.0)
        } else {
            Vec2::new(along, along + off)
        };
        let direction = Vec2::from_angle(rng.range(-3.2, 3.2)) * rng.range(0.0, 2.0);
        let ray = Ray::new(origin, direction, 5.0).unwrap();
        for (what, hit) in [
            ("box", cast_ray(&ray, &unit, &Pose::IDENTITY)),
            (
                "rounded triangle",
                cast_ray(&ray, &rounded, &Pose::IDENTITY),
            ),
        ] {
            // Every origin is inside the box, and within 1e-6 of the
            // rounded triangle's hypotenuse (y = x), well inside its radius.
            assert_eq!(
                hit.map(|h| h.t),
                Some(0.0),
                "ray {k} from {origin} along {direction} in the {what}"
            );
        }
    }
}

/// A shape of another crate with far more vertices than a [`Polygon`]:
/// a regular polygon of `sides` vertices, radius 1, one vertex at the top.
struct ManySided {
    sides: usize,
}

impl Support<Vec2> for ManySided {
    fn support(&self, direction: Vec2) -> Vec2 {
        (0..self.sides)
            .map(|k| {
                let angle = std::f32::consts::FRAC_PI_2
                    + k as f32 * std::f32::consts::TAU / self.sides as f32;
                Vec2::from_angle(angle)
            })
            .max_by(|p, q| p.dot(direction).total_cmp(&q.dot(direction)))
            .unwrap_or(Vec2::ZERO)
    }
}

/// EPA's polygon lives on the stack with room for two polygons'
/// differences; a user shape of 200 vertices still gets its depth (the
/// growth stops near the nearest edge long before the room runs out), at
/// every turn of the box pressed into it.
#[test]
fn epa_finds_the_depth_against_a_shape_with_many_vertices() {
    let shape = ManySided { sides: 200 };
    let slab = Cuboid::new(Vec2::new(2.0, 0.5)).unwrap();
    for k in 0..64 {
        let angle = k as f32 * std::f32::consts::TAU / 64.0;
        // The slab's near face 0.3 inside the shape's rim, seen along
        // `angle` (the rim there is within 1.3e-4 of radius 1).
        let toward = Vec2::from_angle(angle);
        let slab_pose = Pose::new(toward * 1.2, angle - std::f32::consts::FRAC_PI_2).unwrap();
        let c = contact(&shape, &Pose::IDENTITY, &slab, &slab_pose);
        assert!(
            (c.depth - 0.3).abs() < 2e-4,
            "turn {k}: depth {} ({c:?})",
            c.depth
        );
        assert!((c.normal - toward).length() < 0.05, "turn {k}: {c:?}");
        assert_mtv_separates(&shape, &Pose::IDENTITY, &slab, &slab_pose, &c, "many sides");
    }
}

/// A seeded shape of kind `kind` (0 to 3: ball, box, capsule, hull).
pub(super) fn any_shape(rng: &mut SceneRng, kind: usize) -> Shape {
    match kind % 4 {
        0 => Circle::new(rng.range(0.1, 1.2)).unwrap().into(),
        1 => Cuboid::new(Vec2::new(rng.range(0.2, 1.5), rng.range(0.2, 1.5)))
            .unwrap()
            .into(),
        2 => capsule(rng).into(),
        _ => polygon(rng).into(),
    }
}

#[test]
fn a_shape_answers_as_the_general_queries_for_every_pair_of_kinds() {
    let mut rng = SceneRng::new(91);
    let (mut apart, mut overlapping, mut hits) = (0, 0, 0);
    for k in 0..4000 {
        let (a, b) = (any_shape(&mut rng, k), any_shape(&mut rng, k / 4));
        let (pa, pb) = (pose(&mut rng, 1.5), pose(&mut rng, 1.5));
        let (fast, general) = (a.contact(&pa, &b, &pb), contact(&a, &pa, &b, &pb));
        let what = format!("pair {k} ({} and {})", k % 4, (k / 4) % 4);
        assert!(
            (fast.depth - general.depth).abs() < 1e-4,
            "{what}: {fast:?} against {general:?}"
        );
        // Seen from the other shape: the same depth.
        let back = b.contact(&pb, &a, &pa);
        assert!(
            (back.depth - fast.depth).abs() < 1e-4,
            "{what}: {back:?} back"
        );
        if fast.depth < -1e-3 {
            // Apart, the closest direction is unique: both agree, and the
            // other way round it points back.
            assert!(
                fast.normal.dot(general.normal) > 0.999,
                "{what}: {fast:?} against {general:?}"
            );
            assert!(
                back.normal.dot(fast.normal) < -0.999,
                "{what}: {back:?} back"
            );
            apart += 1;
        } else if fast.depth > 1e-3 {
            assert_mtv_separates(&a, &pa, &b, &pb, &fast, &what);
            overlapping += 1;
        }
        assert_eq!(a.distance(&pa, &b, &pb), distance(&a, &pa, &b, &pb));

        let from = Vec2::new(rng.range(-4.0, 4.0), rng.range(-4.0, 4.0));
        let ray = Ray::new(
            from,
            pb.position() - from + Vec2::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5)),
            2.0,
        )
        .unwrap();
        let len = ray.direction().length();
        match (b.cast_ray(&ray, &pb), cast_ray(&ray, &b, &pb)) {
            (Some(x), Some(y)) => {
                assert!((x.t - y.t).abs() * len < 1e-3, "ray {k}: {x:?} / {y:?}");
                hits += 1;
            }
            (None, None) => {}
            (x, y) => {
                // A graze or an end of the ray within the tolerance.
                let h = x.or(y).unwrap();
                let grazing = (h.t - ray.max_t()).abs() * len < 1e-3
                    || h.normal.dot(ray.direction()).abs() < 1e-2 * len;
                assert!(grazing, "ray {k}: shape {x:?}, general {y:?}");
            }
        }
    }
    assert!(
        apart > 500 && overlapping > 500 && hits > 500,
        "{apart} {overlapping} {hits}"
    );
}

#[test]
fn cloning_a_shape_shares_its_hull() {
    let mut rng = SceneRng::new(5);
    let hull = any_shape(&mut rng, 3);
    let copy = hull.clone();
    match (&hull, &copy) {
        (Shape::Polygon(a), Shape::Polygon(b)) => assert!(std::sync::Arc::ptr_eq(a, b)),
        _ => panic!("a hull"),
    }
}
