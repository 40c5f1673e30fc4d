//! The 3D narrow phase checked against itself: SAT (15 axes) against
//! GJK/EPA, closed forms against GJK, casts against stepping the motion
//! finely, on thousands of seeded random shape pairs; and the edge cases by
//! name.

use collide::geometry::Ray;
use collide::narrow::d3::{
    Capsule, Cuboid, Polyhedron, Pose, Shape, Sphere, Triangle, cast_ray, cast_ray_capsule,
    cast_ray_cuboid, cast_ray_sphere, cast_shape, contact, contact_capsule_capsule,
    contact_capsule_triangle, contact_cuboid_cuboid, contact_sphere_capsule, contact_sphere_cuboid,
    contact_sphere_sphere, contact_sphere_triangle, distance,
};
use collide::narrow::{Contact, ShapeError, Support};
use collide_scenes::SceneRng;
use glam::{Quat, Vec3};

fn v3(rng: &mut SceneRng, r: f32) -> Vec3 {
    Vec3::new(rng.range(-r, r), rng.range(-r, r), rng.range(-r, r))
}

pub(super) fn pose(rng: &mut SceneRng, spread: f32) -> Pose {
    let axis = v3(rng, 1.0).normalize_or(Vec3::X);
    Pose::new(
        v3(rng, spread),
        Quat::from_axis_angle(axis, rng.range(-3.2, 3.2)),
    )
    .unwrap()
}

fn cuboid(rng: &mut SceneRng) -> Cuboid {
    Cuboid::new(Vec3::new(
        rng.range(0.2, 1.5),
        rng.range(0.2, 1.5),
        rng.range(0.2, 1.5),
    ))
    .unwrap()
}

fn polyhedron(rng: &mut SceneRng) -> Polyhedron {
    loop {
        let n = 4 + rng.below(12);
        let size = rng.range(0.3, 1.5);
        let points: Vec<Vec3> = (0..n).map(|_| v3(rng, size)).collect();
        if let Ok(p) = Polyhedron::new(&points) {
            return p;
        }
    }
}

fn capsule(rng: &mut SceneRng) -> Capsule {
    Capsule::between(v3(rng, 1.0), v3(rng, 1.0), rng.range(0.05, 0.8)).unwrap()
}

fn assert_mtv_separates(
    a: &impl Support<Vec3>,
    pa: &Pose,
    b: &impl Support<Vec3>,
    pb: &Pose,
    c: &Contact<Vec3>,
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
fn sat_agrees_with_gjk_and_epa_on_random_box_pairs() {
    let mut rng = SceneRng::new(31);
    let (mut overlapping, mut apart) = (0, 0);
    for k in 0..2000 {
        let (a, b) = (cuboid(&mut rng), cuboid(&mut rng));
        let (pa, pb) = (pose(&mut rng, 1.5), pose(&mut rng, 1.5));
        let general = contact(&a, &pa, &b, &pb);
        match contact_cuboid_cuboid(&a, &pa, &b, &pb) {
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
        overlapping > 400 && apart > 400,
        "both cases covered: {overlapping} / {apart}"
    );
}

#[test]
fn epa_depth_is_the_minimum_translation_on_random_polyhedra() {
    let mut rng = SceneRng::new(37);
    let mut deep = 0;
    for k in 0..1500 {
        let (a, b) = (polyhedron(&mut rng), polyhedron(&mut rng));
        let (pa, pb) = (pose(&mut rng, 0.8), pose(&mut rng, 0.8));
        let c = contact(&a, &pa, &b, &pb);
        if c.depth > 1e-3 {
            assert_mtv_separates(&a, &pa, &b, &pb, &c, &format!("pair {k}"));
            // No shorter move along other directions separates them: a
            // move of 0.98 depth along the normal leaves them overlapping.
            let short = {
                let mut q = pb;
                q.set_position(pb.position() + c.normal * (0.98 * c.depth))
                    .unwrap();
                q
            };
            assert!(contact(&a, &pa, &b, &short).depth > 0.0, "pair {k}: {c:?}");
            deep += 1;
        }
    }
    assert!(deep > 300, "deep pairs: {deep}");
}

#[test]
fn closed_forms_agree_with_gjk() {
    let mut rng = SceneRng::new(41);
    let close = |x: &Contact<Vec3>, y: &Contact<Vec3>, what: &str| {
        assert!(
            (x.depth - y.depth).abs() < 1e-4,
            "{what}: {x:?} against GJK {y:?}"
        );
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
    };
    for _ in 0..2000 {
        let (s1, s2) = (
            Sphere::new(rng.range(0.1, 2.0)).unwrap(),
            Sphere::new(rng.range(0.1, 2.0)).unwrap(),
        );
        let (k1, k2) = (capsule(&mut rng), capsule(&mut rng));
        let (pa, pb) = (pose(&mut rng, 2.5), pose(&mut rng, 2.5));
        close(
            &contact_sphere_sphere(&s1, &pa, &s2, &pb),
            &contact(&s1, &pa, &s2, &pb),
            "spheres",
        );
        close(
            &contact_sphere_capsule(&s1, &pa, &k2, &pb),
            &contact(&s1, &pa, &k2, &pb),
            "sphere-capsule",
        );
        let crate_box = cuboid(&mut rng);
        close(
            &contact_sphere_cuboid(&s1, &pa, &crate_box, &pb),
            &contact(&s1, &pa, &crate_box, &pb),
            "sphere-box",
        );
        let closed = contact_capsule_capsule(&k1, &pa, &k2, &pb);
        let general = contact(&k1, &pa, &k2, &pb);
        assert!(
            (closed.depth - general.depth).abs() < 1e-4,
            "capsules: {closed:?} against {general:?}"
        );
        assert_mtv_separates(&k1, &pa, &k2, &pb, &closed, "capsules");
        let ground = loop {
            let [a, b, c] = [(); 3].map(|_| v3(&mut rng, 2.0));
            if let Ok(t) = Triangle::new(a, b, c) {
                break t;
            }
        };
        close(
            &contact_sphere_triangle(&s1, &pa, &ground, &pb),
            &contact(&s1, &pa, &ground, &pb),
            "sphere-triangle",
        );
        let closed = contact_capsule_triangle(&k1, &pa, &ground, &pb);
        let general = contact(&k1, &pa, &ground, &pb);
        assert!(
            (closed.depth - general.depth).abs() < 1e-4,
            "capsule-triangle: {closed:?} against {general:?}"
        );
        if closed.depth < k1.radius() {
            // The cores apart: the closed form answered.
            close(&closed, &general, "capsule-triangle");
        }
    }
}

#[test]
fn swapping_the_shapes_flips_the_normal_and_nothing_else() {
    let mut rng = SceneRng::new(43);
    for k in 0..1500 {
        let (a, b) = (polyhedron(&mut rng), capsule(&mut rng));
        let (pa, pb) = (pose(&mut rng, 1.5), pose(&mut rng, 1.5));
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
        let (c, d) = (cuboid(&mut rng), cuboid(&mut rng));
        let x = contact_cuboid_cuboid(&c, &pa, &d, &pb);
        let y = contact_cuboid_cuboid(&d, &pb, &c, &pa);
        assert_eq!(x.is_some(), y.is_some(), "pair {k}");
        if let (Some(x), Some(y)) = (x, y) {
            assert!((x.depth - y.depth).abs() < 1e-5, "pair {k}: {x:?} / {y:?}");
        }
    }
}

#[test]
fn edge_cases_by_name() {
    let unit = Cuboid::new(Vec3::ONE).unwrap();
    let at = |x: f32, y: f32, z: f32| Pose::at(Vec3::new(x, y, z)).unwrap();
    // Identical boxes offset along one axis only: SAT, EPA, both ways.
    for (offset, axis) in [
        (Vec3::new(1.5, 0.0, 0.0), Vec3::X),
        (Vec3::new(0.0, 0.0, -0.5), -Vec3::Z),
    ] {
        let p = at(offset.x, offset.y, offset.z);
        let c = contact_cuboid_cuboid(&unit, &Pose::IDENTITY, &unit, &p).unwrap();
        assert_eq!(c.normal, axis);
        assert!((c.depth - (2.0 - offset.length())).abs() < 1e-6);
        let g = contact(&unit, &Pose::IDENTITY, &unit, &p);
        assert!(
            (g.normal - axis).length() < 1e-5 && (g.depth - c.depth).abs() < 1e-5,
            "{g:?}"
        );
    }
    // Identical boxes on the same spot: depth 2 along some face normal.
    let same = contact(&unit, &Pose::IDENTITY, &unit, &Pose::IDENTITY);
    assert!((same.depth - 2.0).abs() < 1e-5, "{same:?}");
    // Face to face, edge to edge, corner to corner: depth 0.
    for p in [at(2.0, 0.3, 0.2), at(2.0, 2.0, 0.5), at(2.0, 2.0, 2.0)] {
        let c = contact(&unit, &Pose::IDENTITY, &unit, &p);
        assert!(c.depth.abs() < 1e-5, "{p:?}: {c:?}");
        let s = contact_cuboid_cuboid(&unit, &Pose::IDENTITY, &unit, &p);
        assert!(s.is_some_and(|s| s.depth.abs() < 1e-5), "{p:?}: {s:?}");
    }
    // Parallel faces: one box turned a quarter about y.
    let turned = Pose::new(
        Vec3::new(0.0, 1.8, 0.0),
        Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
    )
    .unwrap();
    let c = contact_cuboid_cuboid(&unit, &Pose::IDENTITY, &unit, &turned).unwrap();
    assert!(
        (c.depth - 0.2).abs() < 1e-5 && (c.normal - Vec3::Y).length() < 1e-5,
        "{c:?}"
    );
    // Edge against edge: a box turned 45 degrees about x and about z,
    // meeting the other along an edge cross product.
    let edgy = Pose::new(
        Vec3::new(0.0, 2.2, 0.0),
        Quat::from_rotation_x(std::f32::consts::FRAC_PI_4)
            * Quat::from_rotation_z(std::f32::consts::FRAC_PI_4),
    )
    .unwrap();
    let s = contact_cuboid_cuboid(&unit, &Pose::IDENTITY, &unit, &edgy);
    let g = contact(&unit, &Pose::IDENTITY, &unit, &edgy);
    match s {
        Some(s) => assert!((s.depth - g.depth).abs() < 1e-4, "{s:?} / {g:?}"),
        None => assert!(g.depth < 1e-5, "{g:?}"),
    }
    // Deep penetration: a small box in the middle of a big one.
    let big = Cuboid::new(Vec3::new(3.0, 2.0, 4.0)).unwrap();
    let c = contact(&big, &Pose::IDENTITY, &unit, &at(0.0, 0.1, 0.0));
    assert!(
        (c.depth - 2.9).abs() < 1e-5 && (c.normal - Vec3::Y).length() < 1e-5,
        "{c:?}"
    );
    // Very small and very large.
    for s in [1e-3f32, 1e4] {
        let b = Cuboid::new(Vec3::splat(s)).unwrap();
        let c = contact(&b, &Pose::IDENTITY, &b, &at(0.0, 1.5 * s, 0.0));
        assert!((c.depth - 0.5 * s).abs() < 1e-5 * s, "size {s}: {c:?}");
        let d = contact(&b, &Pose::IDENTITY, &b, &at(0.0, 0.0, 3.0 * s));
        assert!((d.depth + s).abs() < 1e-5 * s, "size {s}: {d:?}");
    }
}

#[test]
fn ray_casts_agree_with_the_general_cast() {
    let mut rng = SceneRng::new(47);
    let mut hits = 0;
    for k in 0..1200 {
        let p = pose(&mut rng, 1.0);
        let origin = v3(&mut rng, 6.0);
        let toward = v3(&mut rng, 1.5) - origin;
        let ray = Ray::new(origin, toward, rng.range(0.5, 2.0)).unwrap();
        let sphere = Sphere::new(rng.range(0.2, 1.5)).unwrap();
        let cube = cuboid(&mut rng);
        let cap = capsule(&mut rng);
        let cases: [(&str, Option<_>, Option<_>); 3] = [
            (
                "sphere",
                cast_ray_sphere(&ray, &sphere, &p),
                cast_ray(&ray, &sphere, &p),
            ),
            (
                "cuboid",
                cast_ray_cuboid(&ray, &cube, &p),
                cast_ray(&ray, &cube, &p),
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
                    hits += 1;
                }
                (None, None) => {}
                (x, y) => {
                    // A graze or an end of the ray within the tolerance.
                    let h = x.or(y).unwrap();
                    let grazing = (h.t - ray.max_t()).abs() * len < 1e-3
                        || h.normal.dot(ray.direction()).abs() < 1e-2 * len;
                    assert!(grazing, "ray {k} {what}: closed {x:?}, general {y:?}");
                }
            }
        }
    }
    assert!(hits > 600, "hits: {hits}");
}

#[test]
fn shape_casts_agree_with_stepping_the_motion_finely() {
    let mut rng = SceneRng::new(53);
    let (mut hit, mut missed) = (0, 0);
    for k in 0..300 {
        let (a, b) = (polyhedron(&mut rng), capsule(&mut rng));
        let pa = Pose::new(
            Vec3::new(
                rng.range(-8.0, -4.0),
                rng.range(-2.0, 2.0),
                rng.range(-2.0, 2.0),
            ),
            Quat::from_rotation_y(rng.range(-3.0, 3.0)),
        )
        .unwrap();
        let pb = pose(&mut rng, 1.0);
        let ma = Vec3::new(
            rng.range(6.0, 14.0),
            rng.range(-3.0, 3.0),
            rng.range(-3.0, 3.0),
        );
        let mb = v3(&mut rng, 1.0);
        if contact(&a, &pa, &b, &pb).depth > -1e-3 {
            continue;
        }
        let cast = cast_shape(&a, &pa, ma, &b, &pb, mb);
        let stepped = (0..=1000).map(|i| i as f32 / 1000.0).find(|&t| {
            let at = |p: &Pose, m: Vec3| {
                let mut q = *p;
                q.set_position(p.position() + m * t).unwrap();
                q
            };
            contact(&a, &at(&pa, ma), &b, &at(&pb, mb)).depth > 1e-3
        });
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
    assert!(hit > 60 && missed > 30, "{hit} hits, {missed} misses");
}

#[test]
fn a_character_pressed_against_a_wall_can_slide() {
    let body = Capsule::new(0.9, 0.3).unwrap();
    let wall = Cuboid::new(Vec3::new(0.5, 3.0, 5.0)).unwrap();
    let wall_at = Pose::at(Vec3::new(0.8, 0.0, 0.0)).unwrap(); // face at x = 0.3
    let pressed = Pose::IDENTITY; // the body touches it
    let walk = Vec3::new(1.0, 0.0, 1.0);
    let into = cast_shape(&body, &pressed, walk, &wall, &wall_at, Vec3::ZERO).unwrap();
    assert_eq!(into.t, 0.0);
    let n = into.contact.normal;
    assert!((n - Vec3::X).length() < 1e-5, "{into:?}");
    let slide = walk - n * walk.dot(n);
    assert!(cast_shape(&body, &pressed, slide, &wall, &wall_at, Vec3::ZERO).is_none());
}

#[test]
fn a_900_metre_per_second_bullet_at_60_hz_hits_a_1_cm_plate() {
    let bullet = Sphere::new(0.0045).unwrap();
    let plate = Cuboid::new(Vec3::new(1.0, 1.0, 0.005)).unwrap();
    let plate_at = Pose::at(Vec3::new(0.0, 0.0, 7.0)).unwrap();
    let step = Vec3::new(0.0, 0.0, 15.0);
    assert!(contact(&bullet, &Pose::IDENTITY, &plate, &plate_at).depth < 0.0);
    assert!(contact(&bullet, &Pose::at(step).unwrap(), &plate, &plate_at).depth < 0.0);
    let hit = cast_shape(
        &bullet,
        &Pose::IDENTITY,
        step,
        &plate,
        &plate_at,
        Vec3::ZERO,
    )
    .expect("caught");
    let expected = (7.0 - 0.005 - 0.0045) / 15.0;
    assert!(
        (hit.t - expected).abs() * 15.0 < 1e-4,
        "t = {} against {expected}",
        hit.t
    );
    let ray = Ray::new(Vec3::ZERO, step, 1.0).unwrap();
    assert!((cast_ray_cuboid(&ray, &plate, &plate_at).unwrap().t - 6.995 / 15.0).abs() < 1e-6);
}

#[test]
fn a_large_target_does_not_blur_the_time_of_impact() {
    let ball = Sphere::new(0.1).unwrap();
    for half in [10.0f32, 1e3, 1e5] {
        let floor = Cuboid::new(Vec3::splat(half)).unwrap();
        let floor_at = Pose::at(Vec3::new(0.0, -half, 0.0)).unwrap();
        let start = Pose::at(Vec3::new(0.3, 2.0, -0.2)).unwrap();
        let hit = cast_shape(
            &ball,
            &start,
            Vec3::new(0.0, -4.0, 0.0),
            &floor,
            &floor_at,
            Vec3::ZERO,
        )
        .unwrap();
        let slack = 16.0 * f32::EPSILON * half / 4.0;
        assert!(
            (hit.t - 0.475).abs() < 1e-5 + slack,
            "half {half}: t = {}",
            hit.t
        );
    }
}

#[test]
fn bounding_boxes_hold_their_shapes() {
    let mut rng = SceneRng::new(59);
    for _ in 0..300 {
        let p = pose(&mut rng, 100.0);
        let poly = Polyhedron::rounded(polyhedron(&mut rng).points(), rng.range(0.0, 0.5)).unwrap();
        let cap = capsule(&mut rng);
        let cube = cuboid(&mut rng);
        let boxes = [
            (poly.aabb(&p), &poly as &dyn Support<Vec3>),
            (cap.aabb(&p), &cap),
            (cube.aabb(&p), &cube),
        ];
        for (bounds, shape) in boxes {
            for _ in 0..32 {
                let d = v3(&mut rng, 1.0).normalize_or(Vec3::Y);
                let far = p.apply(shape.support(p.unrotate(d))) + d * shape.radius();
                let inside = (0..3).all(|a| bounds.min()[a] <= far[a] && far[a] <= bounds.max()[a]);
                assert!(inside, "{far:?} outside {bounds:?}");
            }
        }
    }
}

#[test]
fn bad_shapes_and_poses_are_errors_that_say_what_to_do() {
    assert!(matches!(Sphere::new(-0.1), Err(ShapeError::Radius { .. })));
    assert!(matches!(
        Cuboid::new(Vec3::new(1.0, 1.0, f32::NAN)),
        Err(ShapeError::NonFinite { .. })
    ));
    let flat = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::new(1.0, 1.0, 0.0)];
    assert!(matches!(
        Polyhedron::new(&flat),
        Err(ShapeError::Degenerate { points: 4 })
    ));
    let many: Vec<Vec3> = (0..40)
        .map(|k| Vec3::new(k as f32, (k * k) as f32, (k % 7) as f32))
        .collect();
    assert!(matches!(
        Polyhedron::new(&many),
        Err(ShapeError::TooManyVertices { max: 32, .. })
    ));
    assert!(Pose::new(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)).is_err());
    assert!(Pose::new(Vec3::new(f32::INFINITY, 0.0, 0.0), Quat::IDENTITY).is_err());
    let err = Capsule::between(Vec3::ZERO, Vec3::NAN, 1.0).unwrap_err();
    assert!(err.to_string().contains("finite"), "{err}");
}

#[test]
fn distance_is_the_contact_gap_without_epa() {
    let mut rng = SceneRng::new(61);
    for k in 0..1000 {
        let (a, b) = (polyhedron(&mut rng), capsule(&mut rng));
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
            let shapes: [&dyn Support<Vec3>; 4] = [
                &Sphere::new(size).unwrap(),
                &Cuboid::new(Vec3::splat(size)).unwrap(),
                &Capsule::new(size, size).unwrap(),
                &Polyhedron::new(&[
                    Vec3::ZERO,
                    Vec3::X * size.max(1.0),
                    Vec3::Y * size.max(1.0),
                    Vec3::Z * size.max(1.0),
                ])
                .unwrap(),
            ];
            let pa = Pose::at(Vec3::new(-at, 0.0, 0.0)).unwrap();
            let pb = Pose::new(Vec3::new(at, at, -at), Quat::from_rotation_y(0.3)).unwrap();
            for a in shapes {
                for b in shapes {
                    let c = contact(a, &pa, b, &pb);
                    assert!(!c.depth.is_nan(), "size {size} at {at}: {c:?}");
                    let _ = collide::narrow::d3::distance(a, &pa, b, &pb);
                    let _ = cast_shape(
                        a,
                        &pa,
                        Vec3::new(at, -at, f32::MAX),
                        b,
                        &pb,
                        Vec3::new(-f32::MAX, 0.0, 0.0),
                    );
                    let ray =
                        Ray::new(pa.position(), Vec3::new(1.0, f32::MAX, -1.0), f32::INFINITY)
                            .unwrap();
                    let _ = cast_ray(&ray, b, &pb);
                }
            }
            let cube = Cuboid::new(Vec3::splat(size)).unwrap();
            let _ = cube.aabb(&pb);
            let ray = Ray::new(Vec3::splat(-at), Vec3::ONE, f32::INFINITY).unwrap();
            let _ = (
                cast_ray_cuboid(&ray, &cube, &pb),
                cast_ray_sphere(&ray, &Sphere::new(size).unwrap(), &pb),
            );
            let _ = cast_ray_capsule(&ray, &Capsule::new(size, size).unwrap(), &pb);
            let _ = contact_cuboid_cuboid(&cube, &pa, &cube, &pb);
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
    // Regression (review): cores meeting in a difference without volume
    // were pushed along the line between the poses, or +y, which left them
    // crossing.
    let bar = Capsule::new(1.0, 0.25).unwrap();
    let plus = Pose::new(
        Vec3::ZERO,
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
    )
    .unwrap();
    let c = contact_capsule_capsule(&bar, &Pose::IDENTITY, &bar, &plus);
    assert!(
        (c.depth - 0.5).abs() < 1e-5 && c.normal.z.abs() > 0.999,
        "{c:?}"
    );
    assert_mtv_separates(&bar, &Pose::IDENTITY, &bar, &plus, &c, "plus sign");
    // A T: one end on the other's middle.
    let tee = Pose::new(
        Vec3::new(1.0, 1.0, 0.0),
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
    )
    .unwrap();
    let c = contact_capsule_capsule(&bar, &Pose::IDENTITY, &bar, &tee);
    assert_mtv_separates(&bar, &Pose::IDENTITY, &bar, &tee, &c, "tee");
    // Stacked in line, and a ball centred on a pole's axis.
    let above = Pose::at(Vec3::new(0.0, 1.5, 0.0)).unwrap();
    let c = contact_capsule_capsule(&bar, &Pose::IDENTITY, &bar, &above);
    assert_mtv_separates(&bar, &Pose::IDENTITY, &bar, &above, &c, "in line");
    let ball = Sphere::new(0.3).unwrap();
    let on_axis = Pose::at(Vec3::new(0.0, 0.5, 0.0)).unwrap();
    let c = contact_sphere_capsule(&ball, &on_axis, &bar, &Pose::IDENTITY);
    assert!((c.depth - 0.55).abs() < 1e-5, "{c:?}");
    assert_mtv_separates(&ball, &on_axis, &bar, &Pose::IDENTITY, &c, "on the axis");
}

/// The 3D twin of narrow2d's `rays_starting_inside_a_box_near_its_diagonal_start_inside`:
/// origins inside a polyhedral box near the planes and lines its support
/// points span start inside, whatever the direction.
#[test]
fn rays_starting_inside_a_polyhedral_box_near_its_diagonals_start_inside() {
    let corners: Vec<Vec3> = (0..8)
        .map(|k| {
            Vec3::new(
                if k & 1 == 0 { -1.0 } else { 1.0 },
                if k & 2 == 0 { -1.0 } else { 1.0 },
                if k & 4 == 0 { -1.0 } else { 1.0 },
            )
        })
        .collect();
    let cube = Polyhedron::new(&corners).unwrap();
    let mut rng = SceneRng::new(43);
    for k in 0..2000 {
        let along = rng.range(-0.9, 0.9);
        let off = rng.range(-1e-6, 1e-6);
        let origin = match k % 3 {
            0 => Vec3::new(off, 0.0, 0.0),
            1 => Vec3::new(along, along + off, along),
            _ => Vec3::new(along, along + off, rng.range(-0.9, 0.9)),
        };
        let direction = Vec3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        );
        let ray = Ray::new(origin, direction, 5.0).unwrap();
        let hit = cast_ray(&ray, &cube, &Pose::IDENTITY);
        assert_eq!(
            hit.map(|h| h.t),
            Some(0.0),
            "ray {k} from {origin} along {direction}"
        );
    }
}

/// A seeded shape of kind `kind` (0 to 3: ball, box, capsule, hull).
pub(super) fn any_shape(rng: &mut SceneRng, kind: usize) -> Shape {
    match kind % 4 {
        0 => Sphere::new(rng.range(0.1, 1.2)).unwrap().into(),
        1 => cuboid(rng).into(),
        2 => capsule(rng).into(),
        _ => polyhedron(rng).into(),
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

        let from = v3(&mut rng, 4.0);
        let ray = Ray::new(from, pb.position() - from + v3(&mut rng, 0.5), 2.0).unwrap();
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
        (Shape::Polyhedron(a), Shape::Polyhedron(b)) => assert!(std::sync::Arc::ptr_eq(a, b)),
        _ => panic!("a hull"),
    }
}
