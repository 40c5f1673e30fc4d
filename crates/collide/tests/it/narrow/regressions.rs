//! Wrong answers of the narrow phase that an independent check found
//! (comparing with parry and an exact f64 computation), each kept as a
//! named test of its reproduction. `tests/it/narrow/exact/` now searches
//! for this kind of error on its own.

use collide::geometry::Ray;
use collide::narrow::{d2, d3};
use glam::{Quat, Vec2, Vec3};

/// Two crossing capsules centred on one point: GJK ended on a segment
/// through the origin and EPA's start, the supports in eight directions,
/// found only the two ends of the long thin difference, so it called the
/// difference flat and the depth 0 (plus the radii: 1.01 where the depth
/// is 1.158).
#[test]
fn capsules_crossing_at_their_centres_get_the_full_depth() {
    let thick = d2::Capsule::new(2.0, 1.0).unwrap();
    let thin = d2::Capsule::new(0.5, 0.01).unwrap();
    let turned = d2::Pose::new(Vec2::ZERO, 0.3).unwrap();
    // The thin core must move across the thick one's axis: its half
    // width there, 0.5 sin 0.3, and the radii.
    let want = 0.5 * 0.3f32.sin() + 1.01;
    for c in [
        d2::contact_capsule_capsule(&thick, &d2::Pose::IDENTITY, &thin, &turned),
        d2::contact(&thick, &d2::Pose::IDENTITY, &thin, &turned),
    ] {
        assert!((c.depth - want).abs() < 1e-5, "{c:?}");
        assert!(c.normal.x.abs() > 1.0 - 1e-6, "{c:?}");
    }
}

/// Two boxes of no height crossing at 0.5 rad: depth 0 one way round,
/// the right 0.479 the other (the same flat start of EPA).
#[test]
fn flat_boxes_crossing_get_the_same_depth_both_ways() {
    let short = d2::Cuboid::new(Vec2::new(1.0, 0.0)).unwrap();
    let long = d2::Cuboid::new(Vec2::new(2.0, 0.0)).unwrap();
    let turned = d2::Pose::new(Vec2::ZERO, 0.5).unwrap();
    let id = d2::Pose::IDENTITY;
    let want = 0.5f32.sin();
    let answers = [
        d2::contact(&short, &id, &long, &turned),
        d2::contact(&long, &turned, &short, &id),
        d2::contact_polygon_polygon(&short.to_polygon(), &id, &long.to_polygon(), &turned)
            .expect("they cross"),
        d2::contact_polygon_polygon(&long.to_polygon(), &turned, &short.to_polygon(), &id)
            .expect("they cross"),
    ];
    for c in answers {
        assert!((c.depth - want).abs() < 1e-5, "{c:?}");
    }
}

/// A small box on a capsule 1,330 times longer than wide: GJK's
/// tetrahedron around the origin, long and thin, counted as flat (its
/// volume was tested against the square of the longest edge cubed), so
/// GJK called the cores apart, 0.0072 deep where the depth is 0.0101.
#[test]
fn a_small_box_on_a_long_thin_capsule_gets_the_full_depth() {
    let small = d3::Cuboid::new(Vec3::new(0.003, 0.006, 0.0065)).unwrap();
    let at = d3::Pose::new(Vec3::new(0.001, 0.3, 0.002), Quat::from_rotation_y(0.3)).unwrap();
    let id = d3::Pose::IDENTITY;
    for half_height in [10.0, 1.0] {
        let long = d3::Capsule::new(half_height, 0.0075).unwrap();
        // Across the axis (a line here), the box is a rectangle of half
        // sides 0.003 and 0.0065 turned 0.3 about its centre (0.001,
        // 0.002); the axis lies inside it, nearest its -x side, which in
        // the box's frame is 0.003 minus the axis' offset along x there.
        let (c, s) = (0.3f32.cos(), 0.3f32.sin());
        let want = 0.003 - 0.001 * c + 0.002 * s + 0.0075;
        for c in [
            d3::contact(&small, &at, &long, &id),
            d3::contact(&long, &id, &small, &at),
        ] {
            assert!(
                (c.depth - want).abs() < 1e-6,
                "half height {half_height}: {c:?}"
            );
        }
    }
}

/// A circle (sphere) centred exactly on a capsule's turned axis, and a
/// capsule's end on another's: the closed forms tested `==` for a centre
/// on the axis, rounding made them miss it by a hair, and the normal came
/// from that hair: (0.447, -0.894), nearly along the axis, leaving about
/// 1.0 of overlap after the minimum translation.
#[test]
fn a_centre_on_a_capsule_axis_gets_a_normal_across_it() {
    let capsule = d2::Capsule::new(1.0, 0.5).unwrap();
    let pose = d2::Pose::new(Vec2::ZERO, 0.5).unwrap();
    let axis = pose.rotate(Vec2::Y);
    let ball = d2::Circle::new(0.5).unwrap();
    let on_axis = d2::Pose::at(pose.apply(Vec2::new(0.0, 0.3))).unwrap();
    let c = d2::contact_circle_capsule(&ball, &on_axis, &capsule, &pose);
    assert!((c.depth - 1.0).abs() < 1e-5, "{c:?}");
    assert!(c.normal.dot(axis).abs() < 1e-5, "{c:?}");
    // A capsule standing on the other's axis, its end there: out the way
    // it points, by the radii.
    let post = d2::Capsule::new(0.3, 0.2).unwrap();
    let standing = d2::Pose::new(
        pose.apply(Vec2::new(0.0, 0.4)) + pose.rotate(Vec2::X) * 0.3,
        0.5 + std::f32::consts::FRAC_PI_2,
    )
    .unwrap();
    let c = d2::contact_capsule_capsule(&capsule, &pose, &post, &standing);
    assert!((c.depth - 0.7).abs() < 1e-5, "{c:?}");
    assert!((c.normal - pose.rotate(Vec2::X)).length() < 1e-5, "{c:?}");
    // 3D: a sphere on a turned capsule's axis.
    let capsule = d3::Capsule::new(1.0, 0.5).unwrap();
    let pose = d3::Pose::new(Vec3::ZERO, Quat::from_rotation_z(0.5)).unwrap();
    let ball = d3::Sphere::new(0.5).unwrap();
    let on_axis = d3::Pose::at(pose.apply(Vec3::new(0.0, 0.3, 0.0))).unwrap();
    let c = d3::contact_sphere_capsule(&ball, &on_axis, &capsule, &pose);
    assert!((c.depth - 1.0).abs() < 1e-5, "{c:?}");
    assert!(c.normal.dot(pose.rotate(Vec3::Y)).abs() < 1e-5, "{c:?}");
}

/// A thin capsule cast from 333 units away into a thin plate: the cast
/// stopped once its simplex's nearest point came within reach, and took
/// the normal from that point, which is not the core's nearest: 7.3
/// degrees off the plate's face.
#[test]
fn a_cast_from_far_away_gets_the_face_normal() {
    let plate = d3::Cuboid::new(Vec3::new(0.00022, 0.22, 0.22)).unwrap();
    let thin = d3::Capsule::new(0.05, 0.00022).unwrap();
    let start = d3::Pose::new(Vec3::new(-333.0, 0.0, 0.0), Quat::from_rotation_z(0.5)).unwrap();
    let id = d3::Pose::IDENTITY;
    let hit = d3::cast_shape(
        &thin,
        &start,
        Vec3::new(666.0, 0.0, 0.0),
        &plate,
        &id,
        Vec3::ZERO,
    )
    .expect("it hits the plate");
    assert!(hit.contact.normal.angle_between(Vec3::X) < 1e-4, "{hit:?}");
    // The capsule's lower end, 0.05 sin 0.5 ahead of its centre, meets
    // the face at -0.00022.
    let travel = 333.0 - 0.00022 - 0.05 * 0.5f32.sin() - 0.00022;
    assert!((hit.t * 666.0 - travel).abs() < 1e-3, "{hit:?}");
}

/// A ray from 3,000 units away near a capsule's cap: the GJK ray cast's
/// normal, from its simplex where it stopped, was 1.8 degrees off the
/// cap's.
#[test]
fn a_ray_from_far_away_gets_the_cap_normal() {
    let capsule = d3::Capsule::new(1.0, 0.5).unwrap();
    let id = d3::Pose::IDENTITY;
    let ray = Ray::new(Vec3::new(-3000.0, 1.497749, 0.0), Vec3::X, 4000.0).unwrap();
    let gjk = d3::cast_ray(&ray, &capsule, &id).expect("it hits the cap");
    let closed = d3::cast_ray_capsule(&ray, &capsule, &id).expect("it hits the cap");
    // On the cap (centre (0, 1), radius 0.5) at height 1.497749.
    let x = -(0.25f64 - (0.497749f64).powi(2)).sqrt();
    let want = Vec3::new((x / 0.5) as f32, (0.497749 / 0.5) as f32, 0.0);
    for hit in [gjk, closed] {
        assert!(
            hit.normal.angle_between(want) < 2e-3,
            "{hit:?} against {want}"
        );
    }
    assert!(
        gjk.normal.angle_between(closed.normal) < 2e-3,
        "{gjk:?} / {closed:?}"
    );
}

/// Two boxes of zero size five units apart, as polygons: SAT had no edge
/// normals to test and answered depth infinity, a zero normal and a NaN
/// point.
#[test]
fn zero_size_boxes_get_a_finite_answer() {
    let point = d2::Cuboid::new(Vec2::ZERO).unwrap().to_polygon();
    let id = d2::Pose::IDENTITY;
    let apart = d2::Pose::at(Vec2::new(5.0, 0.0)).unwrap();
    assert!(d2::contact_polygon_polygon(&point, &id, &point, &apart).is_none());
    let c = d2::contact(&point, &id, &point, &apart);
    assert_eq!((c.depth, c.normal), (-5.0, Vec2::X));
    let touching = d2::contact_polygon_polygon(&point, &id, &point, &id).expect("one point");
    assert_eq!(touching.depth, 0.0);
    assert!(touching.normal.is_finite() && touching.point_a.is_finite());
    // A flat box along the x axis and another beyond its end, in line:
    // apart, though no edge normal of either shows it.
    let flat = d2::Cuboid::new(Vec2::new(1.0, 0.0)).unwrap().to_polygon();
    let beyond = d2::Pose::at(Vec2::new(3.0, 0.0)).unwrap();
    assert!(d2::contact_polygon_polygon(&flat, &id, &flat, &beyond).is_none());
    let ray = Ray::new(Vec2::new(-5.0, 1.0), Vec2::X, 10.0).unwrap();
    assert!(d2::cast_ray_polygon(&ray, &point, &id).is_none());
}

/// The distance from `point` to the box of half extents `half` at the
/// origin (0 inside).
fn outside_box_2d(point: Vec2, half: Vec2) -> f32 {
    (point.abs() - half).max(Vec2::ZERO).length()
}

/// A ray 1e-7 above a box's top face, falling 1e-8 per unit: it never
/// touches the box, but the general cast walked to where the ray crosses
/// the face's plane, 5.9 units past the box, and called that a hit.
#[test]
fn a_ray_grazing_a_face_is_not_hit_past_the_box() {
    let ray = Ray::new(
        Vec2::new(-5.0, 1.0000001),
        Vec2::new(1.0, -1e-8),
        f32::INFINITY,
    )
    .unwrap();
    let square = d2::Cuboid::new(Vec2::ONE).unwrap();
    assert_eq!(
        d2::cast_ray_cuboid(&ray, &square, &d2::Pose::IDENTITY),
        None
    );
    if let Some(hit) = d2::cast_ray(&ray, &square, &d2::Pose::IDENTITY) {
        let off = outside_box_2d(hit.point, Vec2::ONE);
        assert!(off < 1e-6, "hit {hit:?} lies {off} from the box");
    }
    let ray3 = Ray::new(
        Vec3::new(-5.0, 1.0000001, 0.0),
        Vec3::new(1.0, -1e-8, 0.0),
        f32::INFINITY,
    )
    .unwrap();
    let cube = d3::Cuboid::new(Vec3::ONE).unwrap();
    if let Some(hit) = d3::cast_ray(&ray3, &cube, &d3::Pose::IDENTITY) {
        let off = (hit.point.abs() - Vec3::ONE).max(Vec3::ZERO).length();
        assert!(off < 1e-6, "hit {hit:?} lies {off} from the cube");
    }
}

/// A segment (a capsule of radius 0) and a ray 1e-7 above it, falling
/// 1e-8 per unit: the general cast answered t = 10 at (5, 0), 4 units
/// past the segment's end.
#[test]
fn a_ray_grazing_a_segment_is_not_hit_past_its_end() {
    let segment = d2::Capsule::between(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.0).unwrap();
    let ray = Ray::new(Vec2::new(-5.0, 1e-7), Vec2::new(1.0, -1e-8), f32::INFINITY).unwrap();
    for hit in [
        d2::cast_ray(&ray, &segment, &d2::Pose::IDENTITY),
        d2::cast_ray_capsule(&ray, &segment, &d2::Pose::IDENTITY),
    ]
    .into_iter()
    .flatten()
    {
        let along = hit.point.x.abs() - 1.0;
        assert!(
            along < 1e-6 && hit.point.y.abs() < 1e-6,
            "hit {hit:?} is off the segment"
        );
    }
}

/// A turned cube and a ray along its top face, within 1e-7 of it: the
/// general cast answered 16.25494, far past the cube, which the closed
/// form (rounding the ray just inside) enters at 1.6750057 and leaves by
/// 4.11.
#[test]
fn a_ray_through_a_turned_cube_enters_where_the_closed_form_says() {
    let cube = d3::Cuboid::new(Vec3::splat(0.86178374)).unwrap();
    let turned = d3::Pose::new(
        Vec3::ZERO,
        Quat::from_xyzw(-0.17954692, 0.6420371, 0.23569359, 0.7071069),
    )
    .unwrap();
    let ray = Ray::new(
        Vec3::new(1.0668513, 1.6390278, 2.3004098),
        Vec3::new(-0.5366001, -0.3208823, -0.7804453),
        1e6,
    )
    .unwrap();
    let closed = d3::cast_ray_cuboid(&ray, &cube, &turned).expect("it goes through");
    assert!((closed.t - 1.6750057).abs() < 1e-4, "{closed:?}");
    // The ray runs along the cube's top face, 1e-7 from it (the rounding
    // of the turned cube's f32 corners): a graze, which may miss, but a
    // hit must be the entry.
    if let Some(general) = d3::cast_ray(&ray, &cube, &turned) {
        assert!(
            (general.t - closed.t).abs() < 1e-4,
            "{general:?} against {closed:?}"
        );
    }
}

/// A ball and a box cast past another box's top face, 1e-7 above it and
/// falling 2e-7 over the motion: the cast answered t = 0.596, where the
/// shapes are then 5.44 (2D) and 5.67 (3D) apart.
#[test]
fn shapes_cast_grazing_a_face_are_not_hit_far_from_it() {
    let ball = d2::Circle::new(0.5).unwrap();
    let square = d2::Cuboid::new(Vec2::ONE).unwrap();
    let start = d2::Pose::at(Vec2::new(-5.0, 1.5000001)).unwrap();
    let motion = Vec2::new(20.0, -2e-7);
    if let Some(hit) = d2::cast_shape(
        &ball,
        &start,
        motion,
        &square,
        &d2::Pose::IDENTITY,
        Vec2::ZERO,
    ) {
        let at = d2::Pose::at(start.position() + motion * hit.t).unwrap();
        let gap = d2::distance(&ball, &at, &square, &d2::Pose::IDENTITY);
        assert!(gap < 1e-4, "{hit:?}: the shapes are {gap} apart then");
    }
    let small = d3::Cuboid::new(Vec3::splat(0.25)).unwrap();
    let cube = d3::Cuboid::new(Vec3::ONE).unwrap();
    let start3 = d3::Pose::at(Vec3::new(-5.0, 1.2500001, 0.0)).unwrap();
    let motion3 = Vec3::new(20.0, -2e-7, 0.0);
    if let Some(hit) = d3::cast_shape(
        &small,
        &start3,
        motion3,
        &cube,
        &d3::Pose::IDENTITY,
        Vec3::ZERO,
    ) {
        let at = d3::Pose::at(start3.position() + motion3 * hit.t).unwrap();
        let gap = d3::distance(&small, &at, &cube, &d3::Pose::IDENTITY);
        assert!(gap < 1e-4, "{hit:?}: the shapes are {gap} apart then");
    }
}

/// A sphere of radius `f32::MAX` at `f32::MAX`: `cast_turning` panicked
/// on a NaN position (its bound on the mover's speed overflowed), where
/// `cast_shape`, `contact` and `distance` answer. It must answer or
/// return an error.
#[test]
fn cast_turning_with_extreme_sizes_answers_or_refuses_without_panicking() {
    let huge = d3::Sphere::new(f32::MAX).unwrap();
    let dot = d3::Sphere::new(0.0).unwrap();
    let far = d3::Pose::at(Vec3::splat(f32::MAX)).unwrap();
    let answer = d3::cast_turning(
        &huge,
        &far,
        Vec3::ZERO,
        Vec3::ZERO,
        &dot,
        &d3::Pose::IDENTITY,
    );
    if let Ok(Some(hit)) = answer {
        assert!(hit.t.is_finite(), "{hit:?}");
    }
    let huge2 = d2::Circle::new(f32::MAX).unwrap();
    let dot2 = d2::Circle::new(0.0).unwrap();
    let far2 = d2::Pose::at(Vec2::splat(f32::MAX)).unwrap();
    let answer = d2::cast_turning(&huge2, &far2, Vec2::ZERO, 0.0, &dot2, &d2::Pose::IDENTITY);
    if let Ok(Some(hit)) = answer {
        assert!(hit.t.is_finite(), "{hit:?}");
    }
}

/// A user's shape whose radius is NaN: `cast_turning` panicked.
#[test]
fn cast_turning_with_a_nan_radius_answers_or_refuses_without_panicking() {
    struct Fuzzy;
    impl collide::narrow::Support<Vec2> for Fuzzy {
        fn support(&self, direction: Vec2) -> Vec2 {
            direction.signum()
        }
        fn radius(&self) -> f32 {
            f32::NAN
        }
    }
    let post = d2::Cuboid::new(Vec2::splat(0.1)).unwrap();
    let post_at = d2::Pose::at(Vec2::new(0.0, 3.0)).unwrap();
    let answer = d2::cast_turning(&Fuzzy, &d2::Pose::IDENTITY, Vec2::Y, 1.0, &post, &post_at);
    if let Ok(Some(hit)) = answer {
        assert!(hit.t.is_finite(), "{hit:?}");
    }
}

/// A fist and a body 0.26 m apart, 1e5 from the origin, neither moving:
/// the turning cast counted them touching (its tolerance was 16 ulps of
/// the two positions summed, 0.38 m there), so a fighter's jab hit a
/// target out of reach. Its tolerance is now a few ulps of the mover's
/// coordinates.
#[test]
fn a_turning_cast_far_from_the_origin_does_not_touch_what_is_out_of_reach() {
    let fist = d2::Circle::new(0.12).unwrap();
    let body = d2::Capsule::new(0.5, 0.29).unwrap();
    for far in [0.0f32, 1e3, 1e4, 1e5] {
        let at = Vec2::new(far, -far);
        let (fist_at, body_at) = (
            d2::Pose::at(at + Vec2::new(0.6, 0.0)).unwrap(),
            d2::Pose::at(at + Vec2::new(1.27, 0.05)).unwrap(),
        );
        let still = d2::cast_turning(&fist, &fist_at, Vec2::ZERO, 0.0, &body, &body_at).unwrap();
        assert_eq!(still, None, "at {far}");
        // Moving 0.3 m toward it, it touches after the gap, 0.26 m.
        let hit = d2::cast_turning(&fist, &fist_at, Vec2::new(0.3, 0.0), 0.0, &body, &body_at)
            .unwrap()
            .expect("it reaches the body");
        // (Within the cast's tolerance: a few ulps of its coordinates.)
        let gap = 1.27 - 0.29 - 0.6 - 0.12;
        let allowed = 1e-4 + 4.0 * f32::EPSILON * far;
        assert!((hit.t * 0.3 - gap).abs() <= allowed, "at {far}: {hit:?}");
    }
}
