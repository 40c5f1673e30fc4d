//! Contact manifolds: every point on both surfaces, the deepest as deep as
//! the contact, feature ids that hold while a box rests and while it
//! slides, on seeded random pairs of every kind in 2D and 3D.

use collide::narrow::{Contact, FeatureId, Manifold, d2, d3};
use collide_scenes::SceneRng;
use glam::{Quat, Vec2, Vec3};

/// How far a manifold point may be off a surface, or its depth off the
/// contact's: relative to the shapes' size (about 1), as f32 holds it.
const TOLERANCE: f32 = 2e-4;

/// The signed depth of `p` inside a 3D shape (below 0 outside).
fn inside3(shape: &d3::Shape, pose: &d3::Pose, p: Vec3) -> f32 {
    let dot = d3::Shape::from(d3::Sphere::new(0.0).unwrap());
    shape.contact(pose, &dot, &d3::Pose::at(p).unwrap()).depth
}

fn ids<V: collide::Vector>(m: &Manifold<V>) -> Vec<FeatureId> {
    m.points().iter().map(|p| p.id).collect()
}

/// One dimension's side of the random oracle: its shapes, poses and
/// queries.
trait Kit: collide::Vector {
    type Shape: std::fmt::Debug;
    type Pose: std::fmt::Debug + Copy;
    /// The most points of its manifolds.
    const MOST: usize;
    fn shape(rng: &mut SceneRng, k: usize) -> Self::Shape;
    fn pose(rng: &mut SceneRng) -> Self::Pose;
    /// `pose` turned as `like` is.
    fn turned_as(pose: Self::Pose, like: &Self::Pose) -> Self::Pose;
    /// `pose` moved by `by` along `along`.
    fn moved(pose: Self::Pose, along: Self, by: f32) -> Self::Pose;
    fn contact(a: &Self::Shape, pa: &Self::Pose, b: &Self::Shape, pb: &Self::Pose)
    -> Contact<Self>;
    fn manifold(
        a: &Self::Shape,
        pa: &Self::Pose,
        b: &Self::Shape,
        pb: &Self::Pose,
        margin: f32,
    ) -> Manifold<Self>;
    /// The signed depth of `p` inside `shape` (below 0 outside).
    fn inside(shape: &Self::Shape, pose: &Self::Pose, p: Self) -> f32;
}

impl Kit for Vec3 {
    type Shape = d3::Shape;
    type Pose = d3::Pose;
    const MOST: usize = 4;
    fn shape(rng: &mut SceneRng, k: usize) -> d3::Shape {
        super::d3::any_shape(rng, k)
    }
    fn pose(rng: &mut SceneRng) -> d3::Pose {
        super::d3::pose(rng, 1.0)
    }
    fn turned_as(pose: d3::Pose, like: &d3::Pose) -> d3::Pose {
        d3::Pose::new(pose.position(), like.rotation()).unwrap()
    }
    fn moved(pose: d3::Pose, along: Vec3, by: f32) -> d3::Pose {
        d3::Pose::new(pose.position() + along * by, pose.rotation()).unwrap()
    }
    fn contact(a: &d3::Shape, pa: &d3::Pose, b: &d3::Shape, pb: &d3::Pose) -> Contact<Vec3> {
        a.contact(pa, b, pb)
    }
    fn manifold(
        a: &d3::Shape,
        pa: &d3::Pose,
        b: &d3::Shape,
        pb: &d3::Pose,
        margin: f32,
    ) -> Manifold<Vec3> {
        d3::manifold(a, pa, b, pb, margin).unwrap()
    }
    fn inside(shape: &d3::Shape, pose: &d3::Pose, p: Vec3) -> f32 {
        inside3(shape, pose, p)
    }
}

impl Kit for Vec2 {
    type Shape = d2::Shape;
    type Pose = d2::Pose;
    const MOST: usize = 2;
    fn shape(rng: &mut SceneRng, k: usize) -> d2::Shape {
        super::d2::any_shape(rng, k)
    }
    fn pose(rng: &mut SceneRng) -> d2::Pose {
        super::d2::pose(rng, 1.0)
    }
    fn turned_as(pose: d2::Pose, like: &d2::Pose) -> d2::Pose {
        d2::Pose::new(pose.position(), like.angle()).unwrap()
    }
    fn moved(pose: d2::Pose, along: Vec2, by: f32) -> d2::Pose {
        d2::Pose::new(pose.position() + along * by, pose.angle()).unwrap()
    }
    fn contact(a: &d2::Shape, pa: &d2::Pose, b: &d2::Shape, pb: &d2::Pose) -> Contact<Vec2> {
        a.contact(pa, b, pb)
    }
    fn manifold(
        a: &d2::Shape,
        pa: &d2::Pose,
        b: &d2::Shape,
        pb: &d2::Pose,
        margin: f32,
    ) -> Manifold<Vec2> {
        d2::manifold(a, pa, b, pb, margin).unwrap()
    }
    fn inside(shape: &d2::Shape, pose: &d2::Pose, p: Vec2) -> f32 {
        let dot = d2::Shape::from(d2::Circle::new(0.0).unwrap());
        shape.contact(pose, &dot, &d2::Pose::at(p).unwrap()).depth
    }
}

/// The dot product, axis by axis.
fn dot<V: collide::Vector>(a: V, b: V) -> f32 {
    (0..V::DIM).map(|i| a.axis(i) * b.axis(i)).sum()
}

/// 3,000 seeded pairs of every kind (a third turned alike, so faces
/// meet), moved along the contact normal to a depth a solver sees (from
/// apart beyond the margin to 2 cm deep): every manifold point on both
/// surfaces, its depth along the normal, the deepest as deep as the
/// contact, and no points exactly when the contact is beyond the margin.
fn random_pairs_hold<V: Kit>(seed: u64) {
    let mut rng = SceneRng::new(seed);
    let (mut many, mut single, mut empty) = (0, 0, 0);
    let margin = 0.05;
    for k in 0..3000 {
        let (a, b) = (V::shape(&mut rng, k), V::shape(&mut rng, k / 4));
        let (pa, mut pb) = (V::pose(&mut rng), V::pose(&mut rng));
        if k % 3 == 0 {
            pb = V::turned_as(pb, &pa);
        }
        let c = V::contact(&a, &pa, &b, &pb);
        let target = rng.range(-1.5 * margin, 0.02);
        pb = V::moved(pb, c.normal, c.depth - target);
        let m = V::manifold(&a, &pa, &b, &pb, margin);
        let c = V::contact(&a, &pa, &b, &pb);
        if c.depth < -margin {
            assert!(m.points().is_empty(), "case {k}: {m:?} for {c:?}");
            empty += 1;
            continue;
        }
        let count = m.points().len();
        assert!(count >= 1 && count <= V::MOST, "case {k}: {m:?} for {c:?}");
        for p in m.points() {
            let what = format!("case {k}: {a:?} at {pa:?}, {b:?} at {pb:?}: {p:?} of {m:?}");
            let (ea, eb) = (V::inside(&a, &pa, p.point_a), V::inside(&b, &pb, p.point_b));
            assert!(ea.abs() < TOLERANCE, "{what}: a off its surface by {ea}");
            assert!(eb.abs() < TOLERANCE, "{what}: b off its surface by {eb}");
            let along = dot(p.point_a, m.normal()) - dot(p.point_b, m.normal());
            assert!((along - p.depth).abs() < TOLERANCE, "{what}: depth {along}");
            assert!(
                p.depth >= -margin - TOLERANCE && p.depth <= c.depth + TOLERANCE,
                "{what}"
            );
        }
        let deepest = m.deepest().unwrap().depth;
        assert!(
            (deepest - c.depth).abs() < TOLERANCE,
            "case {k}: deepest {deepest}, contact {c:?}, {m:?}; {a:?} at {pa:?}, {b:?} at {pb:?}"
        );
        if count > 1 {
            many += 1;
        } else {
            single += 1;
        }
    }
    assert!(
        many > 30 && single > 300 && empty > 300,
        "{many} {single} {empty}"
    );
}

#[test]
fn manifold_points_lie_on_both_surfaces_and_the_deepest_is_the_contacts_in_3d() {
    random_pairs_hold::<Vec3>(404);
}

#[test]
fn manifold_points_lie_on_both_surfaces_and_the_deepest_is_the_contacts_in_2d() {
    random_pairs_hold::<Vec2>(405);
}

/// A box of half size 0.5 on a 20-wide floor whose top is at y = 0, at
/// `x` along it, `sink` into it, tilted by `tilt` about z.
fn box_on_floor_3d(x: f32, sink: f32, tilt: f32) -> Manifold<Vec3> {
    let floor = d3::Shape::from(d3::Cuboid::new(Vec3::new(10.0, 1.0, 10.0)).unwrap());
    let crate_box = d3::Shape::from(d3::Cuboid::new(Vec3::splat(0.5)).unwrap());
    let on = d3::Pose::new(
        Vec3::new(x, 0.5 - sink, 0.3),
        Quat::from_rotation_z(tilt) * Quat::from_rotation_y(0.4),
    )
    .unwrap();
    d3::manifold(
        &floor,
        &d3::Pose::at(Vec3::new(0.0, -1.0, 0.0)).unwrap(),
        &crate_box,
        &on,
        0.01,
    )
    .unwrap()
}

fn box_on_floor_2d(x: f32, sink: f32, tilt: f32) -> Manifold<Vec2> {
    let floor = d2::Shape::from(d2::Cuboid::new(Vec2::new(10.0, 1.0)).unwrap());
    let crate_box = d2::Shape::from(d2::Cuboid::new(Vec2::splat(0.5)).unwrap());
    let on = d2::Pose::new(Vec2::new(x, 0.5 - sink), tilt).unwrap();
    d2::manifold(
        &floor,
        &d2::Pose::at(Vec2::new(0.0, -1.0)).unwrap(),
        &crate_box,
        &on,
        0.01,
    )
    .unwrap()
}

#[test]
fn a_resting_box_keeps_its_feature_ids_for_a_thousand_ticks_and_while_it_slides() {
    let mut rng = SceneRng::new(7);
    let (first3, first2) = (
        box_on_floor_3d(0.0, 1e-3, 0.0),
        box_on_floor_2d(0.0, 1e-3, 0.0),
    );
    assert_eq!((first3.points().len(), first2.points().len()), (4, 2));
    for m in first3.points() {
        assert!((m.depth - 1e-3).abs() < 1e-5, "{first3:?}");
    }
    // Resting: each tick a solver leaves it a little differently.
    for tick in 0..1000 {
        let (sink, tilt) = (1e-3 + rng.range(-2e-4, 2e-4), rng.range(-1e-4, 1e-4));
        assert_eq!(
            ids(&box_on_floor_3d(0.0, sink, tilt)),
            ids(&first3),
            "tick {tick}"
        );
        assert_eq!(
            ids(&box_on_floor_2d(0.0, sink, tilt)),
            ids(&first2),
            "tick {tick}"
        );
    }
    // Sliding along the floor, short of its edge.
    for step in 0..1000 {
        let x = -8.0 + 16.0 * step as f32 / 1000.0;
        assert_eq!(ids(&box_on_floor_3d(x, 1e-3, 0.0)), ids(&first3), "at {x}");
        assert_eq!(ids(&box_on_floor_2d(x, 1e-3, 0.0)), ids(&first2), "at {x}");
    }
    // Tilted onto an edge, it touches along that edge only.
    assert_eq!(box_on_floor_3d(0.0, 1e-3, 0.2).points().len(), 2);
    assert_eq!(box_on_floor_2d(0.0, 1e-3, 0.2).points().len(), 1);
}

#[test]
fn lying_capsules_touch_at_both_ends_and_balls_at_one_point() {
    let floor = d3::Shape::from(d3::Cuboid::new(Vec3::new(10.0, 1.0, 10.0)).unwrap());
    let under = d3::Pose::at(Vec3::new(0.0, -1.0, 0.0)).unwrap();
    let rod = d3::Shape::from(d3::Capsule::between(-Vec3::X, Vec3::X, 0.25).unwrap());
    let lying = d3::Pose::at(Vec3::new(0.0, 0.24, 0.0)).unwrap();
    let m = d3::manifold(&floor, &under, &rod, &lying, 0.0).unwrap();
    assert_eq!(m.points().len(), 2, "{m:?}");
    for p in m.points() {
        assert!(
            (p.depth - 0.01).abs() < 1e-5 && p.point_b.x.abs() > 0.99,
            "{m:?}"
        );
    }
    // Two parallel capsules side by side: along their shared length.
    let beside = d3::Pose::at(Vec3::new(0.5, 0.45, 0.0)).unwrap();
    let m = d3::manifold(&rod, &lying, &rod, &beside, 0.0).unwrap();
    assert_eq!(m.points().len(), 2, "{m:?}");
    let xs: Vec<f32> = m.points().iter().map(|p| p.point_a.x).collect();
    assert!(
        (xs[0] + 0.5).abs() < 1e-5 && (xs[1] - 1.0).abs() < 1e-5,
        "{xs:?}"
    );
    // Standing on its end: one point.
    let standing =
        d3::Pose::new(Vec3::new(0.0, 1.24, 0.0), Quat::from_rotation_z(1.5707964)).unwrap();
    assert_eq!(
        d3::manifold(&floor, &under, &rod, &standing, 0.0)
            .unwrap()
            .points()
            .len(),
        1
    );
    let ball = d3::Shape::from(d3::Sphere::new(0.5).unwrap());
    let m = d3::manifold(
        &floor,
        &under,
        &ball,
        &d3::Pose::at(Vec3::new(0.0, 0.4, 0.0)).unwrap(),
        0.0,
    )
    .unwrap();
    assert_eq!(m.points().len(), 1);
    assert!((m.points()[0].depth - 0.1).abs() < 1e-5);
}

#[test]
fn shapes_beyond_the_margin_have_no_points_and_within_it_speculative_ones() {
    let (near, far) = (
        box_on_floor_3d(0.0, -0.005, 0.0),
        box_on_floor_3d(0.0, -0.02, 0.0),
    );
    assert_eq!(near.points().len(), 4);
    assert!(near.points().iter().all(|p| (p.depth + 0.005).abs() < 1e-5));
    assert!(far.points().is_empty());
    assert!(box_on_floor_2d(0.0, -0.02, 0.0).points().is_empty());
}

#[test]
fn a_bad_margin_is_an_error_that_names_it() {
    let ball = d3::Shape::from(d3::Sphere::new(1.0).unwrap());
    let at = d3::Pose::IDENTITY;
    for margin in [-1e-3, f32::NAN, f32::INFINITY] {
        let err = d3::manifold(&ball, &at, &ball, &at, margin).unwrap_err();
        assert!(
            matches!(err, collide::narrow::ShapeError::Margin { .. }),
            "{err}"
        );
        assert!(err.to_string().contains("margin"));
    }
    let disc = d2::Shape::from(d2::Circle::new(1.0).unwrap());
    assert!(d2::manifold(&disc, &d2::Pose::IDENTITY, &disc, &d2::Pose::IDENTITY, -1.0).is_err());
}

/// A box and a capsule resting on a turned floor, and a box across a
/// capsule, moved by `offset` and mirrored across x when `mirror`.
fn resting_scene(offset: Vec3, mirror: bool) -> Vec<Manifold<Vec3>> {
    // A function, not a closure: rustc 1.95 miscompiles a closure that
    // rebuilds its by-pointer argument in place when the caller passes the
    // same variable again (rust-lang/rust#155241): at opt-level 2 and 3
    // every other placing of `yaw` came back unmirrored.
    fn placed(at: Vec3, q: Quat, offset: Vec3, mirror: bool) -> d3::Pose {
        let (at, q) = if mirror {
            (
                Vec3::new(-at.x, at.y, at.z),
                Quat::from_xyzw(q.x, -q.y, -q.z, q.w),
            )
        } else {
            (at, q)
        };
        d3::Pose::new(at + offset, q).unwrap()
    }
    let place = |at: Vec3, q: &Quat| placed(at, *q, offset, mirror);
    let yaw = Quat::from_rotation_y(0.6);
    let floor = d3::Shape::from(d3::Cuboid::new(Vec3::new(10.0, 1.0, 10.0)).unwrap());
    let under = place(Vec3::new(0.3, -1.0, 0.2), &yaw);
    let crate_box = d3::Shape::from(d3::Cuboid::new(Vec3::new(0.5, 0.4, 0.3)).unwrap());
    let rod = d3::Shape::from(d3::Capsule::between(-Vec3::X, Vec3::X, 0.2).unwrap());
    let pairs = [
        (
            &floor,
            under,
            &crate_box,
            place(
                Vec3::new(1.0, 0.399, 0.5),
                &(yaw * Quat::from_rotation_y(0.3)),
            ),
        ),
        (
            &floor,
            under,
            &rod,
            place(Vec3::new(-2.0, 0.198, 1.0), &yaw),
        ),
        (
            &rod,
            place(Vec3::new(-2.0, 0.198, 1.0), &yaw),
            &crate_box,
            place(Vec3::new(-2.0, 0.797, 1.0), &yaw),
        ),
    ];
    pairs
        .iter()
        .map(|(a, pa, b, pb)| d3::manifold(a, pa, b, pb, 0.01).unwrap())
        .collect()
}

#[test]
fn manifolds_hold_far_from_the_origin_and_mirrored() {
    let origin = resting_scene(Vec3::ZERO, false);
    assert_eq!(
        origin.iter().map(|m| m.points().len()).collect::<Vec<_>>(),
        [4, 2, 2]
    );
    for (offset, mirror) in [
        (Vec3::ZERO, true),
        (Vec3::new(1e3, -4e2, 7e2), false),
        (Vec3::new(-1e4, 3e3, 1e4), false),
        (Vec3::new(1e5, 2e4, -1e5), true),
    ] {
        // Within 4 ulps of the coordinates.
        let ulps = 4.0 * f32::EPSILON * (offset.abs().max_element() + 12.0);
        let far = resting_scene(offset, mirror);
        for (k, (m, o)) in far.iter().zip(&origin).enumerate() {
            let what = format!("pair {k} at {offset} mirrored {mirror}: {m:?} against {o:?}");
            assert_eq!(m.points().len(), o.points().len(), "{what}");
            if !mirror {
                let ids = |m: &Manifold<Vec3>| m.points().iter().map(|p| p.id).collect::<Vec<_>>();
                assert_eq!(ids(m), ids(o), "{what}");
            }
            let back = |v: Vec3| {
                let v = v - offset;
                if mirror { Vec3::new(-v.x, v.y, v.z) } else { v }
            };
            for p in m.points() {
                assert!(
                    o.points()
                        .iter()
                        .any(
                            |q| (back(p.point_b) - q.point_b).abs().max_element() <= 2.0 * ulps
                                && (p.depth - q.depth).abs() <= 2.0 * ulps
                        ),
                    "{what}: {p:?}"
                );
            }
        }
    }
}

#[test]
fn a_hull_resting_on_a_floor_touches_at_its_face_corners() {
    let floor = d3::Shape::from(d3::Cuboid::new(Vec3::new(10.0, 1.0, 10.0)).unwrap());
    let under = d3::Pose::at(Vec3::new(0.0, -1.0, 0.0)).unwrap();
    // A hexagonal prism 0.4 tall, resting on a hexagon 1 mm into the floor.
    let mut points = Vec::new();
    for k in 0..6 {
        let angle = k as f32 * std::f32::consts::FRAC_PI_3;
        let (s, c) = (collide::math::sin(angle), collide::math::cos(angle));
        points.push(Vec3::new(c, -0.2, s));
        points.push(Vec3::new(c, 0.2, s));
    }
    let prism = d3::Shape::from(d3::Polyhedron::new(&points).unwrap());
    let on = d3::Pose::new(Vec3::new(0.0, 0.199, 0.0), Quat::from_rotation_y(0.3)).unwrap();
    let m = d3::manifold(&floor, &under, &prism, &on, 0.01).unwrap();
    assert_eq!(m.points().len(), 4, "{m:?}");
    assert!(
        m.points().iter().all(|p| (p.depth - 1e-3).abs() < 1e-5),
        "{m:?}"
    );
    // On its side: a rectangular side face, four corners.
    let side = d3::Pose::new(
        Vec3::new(0.0, 0.865, 0.0),
        Quat::from_rotation_x(std::f32::consts::FRAC_PI_2),
    )
    .unwrap();
    let m = d3::manifold(&floor, &under, &prism, &side, 0.01).unwrap();
    assert_eq!(m.points().len(), 4, "{m:?}");
}
