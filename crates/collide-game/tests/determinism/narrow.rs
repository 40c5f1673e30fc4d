//! The narrow phase and motion: seeded pairs of every shape at seeded
//! poses (contacts, distances, ray and shape casts, turning casts), and
//! movers swept through a small level with each response.

use crate::{Entry, Hash};
use collide::geometry::Ray;
use collide::motion::{Response, SweepLimits, d2 as motion2, d3 as motion3};
use collide::narrow::d2::{self, Circle, Polygon};
use collide::narrow::d3::{self, Polyhedron, Sphere};
use collide::narrow::{Capsule, Contact, Cuboid, Support};
use collide::{BroadPhase, Bvh, Handle, Vector, math};
use collide_game::glam::{EulerRot, Quat, Vec2, Vec3};
use collide_scenes::SceneRng;

/// Pairs of shapes each dimension tries.
const PAIRS: usize = 200;

pub(crate) fn contact<V: Vector>(hash: &mut Hash, c: &Contact<V>) {
    hash.f32(c.depth);
    for v in [c.normal, c.point_a, c.point_b] {
        (0..V::DIM).for_each(|i| hash.f32(v.axis(i)));
    }
}

/// The 2D shapes: a circle, a box, a capsule, a pentagon and a rounded
/// triangle.
fn shapes_2d() -> Vec<Box<dyn Support<Vec2>>> {
    let pentagon: Vec<Vec2> = (0..5)
        .map(|k| {
            let a = k as f32 * 1.2566371;
            Vec2::new(math::cos(a), math::sin(a)) * 0.8
        })
        .collect();
    let triangle = [Vec2::ZERO, Vec2::new(1.0, 0.1), Vec2::new(0.2, 0.9)];
    vec![
        Box::new(Circle::new(0.5).unwrap()),
        Box::new(Cuboid::new(Vec2::new(0.7, 0.3)).unwrap()),
        Box::new(Capsule::<Vec2>::new(0.6, 0.25).unwrap()),
        Box::new(Polygon::new(&pentagon).unwrap()),
        Box::new(Polygon::rounded(&triangle, 0.1).unwrap()),
    ]
}

/// The 3D shapes: a sphere, a box, a capsule, a tetrahedron and a
/// rounded wedge.
fn shapes_3d() -> Vec<Box<dyn Support<Vec3>>> {
    let tetra = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
    let wedge = [
        Vec3::ZERO,
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(0.0, 0.6, 0.0),
        Vec3::new(0.0, 0.0, 0.8),
        Vec3::new(1.0, 0.0, 0.8),
        Vec3::new(0.0, 0.6, 0.8),
    ];
    vec![
        Box::new(Sphere::new(0.5).unwrap()),
        Box::new(Cuboid::new(Vec3::new(0.7, 0.3, 0.4)).unwrap()),
        Box::new(Capsule::<Vec3>::new(0.6, 0.25).unwrap()),
        Box::new(Polyhedron::new(&tetra).unwrap()),
        Box::new(Polyhedron::rounded(&wedge, 0.1).unwrap()),
    ]
}

pub(crate) fn pose_2d(rng: &mut SceneRng, reach: f32) -> d2::Pose {
    let at = Vec2::new(rng.range(-reach, reach), rng.range(-reach, reach));
    d2::Pose::new(at, rng.range(-3.2, 3.2)).unwrap()
}

pub(crate) fn pose_3d(rng: &mut SceneRng, reach: f32) -> d3::Pose {
    let mut r = || rng.range(-reach, reach);
    let at = Vec3::new(r(), r(), r());
    let mut a = || rng.range(-3.2, 3.2);
    d3::Pose::new(at, Quat::from_euler(EulerRot::XYZ, a(), a(), a())).unwrap()
}

fn narrow_2d() -> (Hash, Hash) {
    let shapes = shapes_2d();
    let mut rng = SceneRng::new(21);
    let (mut found, mut state) = (Hash::new(), Hash::new());
    for _ in 0..PAIRS {
        let (i, j) = (rng.below(shapes.len()), rng.below(shapes.len()));
        let (a, b) = (&*shapes[i], &*shapes[j]);
        let (pa, pb) = (pose_2d(&mut rng, 1.0), pose_2d(&mut rng, 1.0));
        let c = d2::contact(a, &pa, b, &pb);
        found.bool(c.depth >= 0.0);
        contact(&mut state, &c);
        state.f32(d2::distance(a, &pa, b, &pb));
        let motion = Vec2::new(rng.range(-4.0, 4.0), rng.range(-4.0, 4.0));
        let far = d2::Pose::at(pa.position() - motion * 0.5).unwrap();
        if let Some(hit) = d2::cast_shape(a, &far, motion, b, &pb, Vec2::ZERO) {
            found.u64(1);
            state.f32(hit.t);
            contact(&mut state, &hit.contact);
        }
        let turn = rng.range(-3.0, 3.0);
        if let Ok(Some(hit)) = d2::cast_turning(a, &far, motion, turn, b, &pb) {
            found.u64(2);
            state.f32(hit.t);
        }
        let from = Vec2::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0));
        let ray = Ray::new(from, pb.position() - from, 2.0).unwrap();
        if let Some(hit) = d2::cast_ray(&ray, b, &pb) {
            found.u64(3);
            state.f32(hit.t);
            state.vec2(hit.normal);
        }
    }
    (found, state)
}

fn narrow_3d() -> (Hash, Hash) {
    let shapes = shapes_3d();
    let mut rng = SceneRng::new(31);
    let (mut found, mut state) = (Hash::new(), Hash::new());
    for _ in 0..PAIRS {
        let (i, j) = (rng.below(shapes.len()), rng.below(shapes.len()));
        let (a, b) = (&*shapes[i], &*shapes[j]);
        let (pa, pb) = (pose_3d(&mut rng, 1.0), pose_3d(&mut rng, 1.0));
        let c = d3::contact(a, &pa, b, &pb);
        found.bool(c.depth >= 0.0);
        contact(&mut state, &c);
        state.f32(d3::distance(a, &pa, b, &pb));
        let mut m = || rng.range(-4.0, 4.0);
        let motion = Vec3::new(m(), m(), m());
        let far = d3::Pose::new(pa.position() - motion * 0.5, pa.rotation()).unwrap();
        if let Some(hit) = d3::cast_shape(a, &far, motion, b, &pb, Vec3::ZERO) {
            found.u64(1);
            state.f32(hit.t);
            contact(&mut state, &hit.contact);
        }
        let mut t = || rng.range(-2.0, 2.0);
        let turn = Vec3::new(t(), t(), t());
        if let Ok(Some(hit)) = d3::cast_turning(a, &far, motion, turn, b, &pb) {
            found.u64(2);
            state.f32(hit.t);
        }
        let mut f = || rng.range(-5.0, 5.0);
        let from = Vec3::new(f(), f(), f());
        let ray = Ray::new(from, pb.position() - from, 2.0).unwrap();
        if let Some(hit) = d3::cast_ray(&ray, b, &pb) {
            found.u64(3);
            state.f32(hit.t);
            state.vec3(hit.normal);
        }
    }
    (found, state)
}

/// The closed forms and SAT on seeded poses: balls, capsules, boxes and
/// polygons.
fn closed_forms() -> (Hash, Hash) {
    let mut rng = SceneRng::new(41);
    let (mut found, mut state) = (Hash::new(), Hash::new());
    let (circle, capsule2) = (
        Circle::new(0.5).unwrap(),
        Capsule::<Vec2>::new(0.6, 0.25).unwrap(),
    );
    let square = Polygon::new(&[Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y]).unwrap();
    let (sphere, capsule3) = (
        Sphere::new(0.5).unwrap(),
        Capsule::<Vec3>::new(0.6, 0.25).unwrap(),
    );
    let cuboid = Cuboid::new(Vec3::new(0.7, 0.3, 0.4)).unwrap();
    for _ in 0..PAIRS {
        let (pa, pb) = (pose_2d(&mut rng, 0.8), pose_2d(&mut rng, 0.8));
        contact(
            &mut state,
            &d2::contact_circle_circle(&circle, &pa, &circle, &pb),
        );
        contact(
            &mut state,
            &d2::contact_circle_capsule(&circle, &pa, &capsule2, &pb),
        );
        contact(
            &mut state,
            &d2::contact_capsule_capsule(&capsule2, &pa, &capsule2, &pb),
        );
        let sat = d2::contact_polygon_polygon(&square, &pa, &square, &pb);
        found.bool(sat.is_some());
        if let Some(c) = sat {
            contact(&mut state, &c);
        }
        let (pa, pb) = (pose_3d(&mut rng, 0.8), pose_3d(&mut rng, 0.8));
        contact(
            &mut state,
            &d3::contact_sphere_sphere(&sphere, &pa, &sphere, &pb),
        );
        contact(
            &mut state,
            &d3::contact_sphere_capsule(&sphere, &pa, &capsule3, &pb),
        );
        contact(
            &mut state,
            &d3::contact_capsule_capsule(&capsule3, &pa, &capsule3, &pb),
        );
        let sat = d3::contact_cuboid_cuboid(&cuboid, &pa, &cuboid, &pb);
        found.bool(sat.is_some());
        if let Some(c) = sat {
            contact(&mut state, &c);
        }
    }
    (found, state)
}

/// The responses a mover is swept with.
const RESPONSES: [Response; 3] = [
    Response::Stop,
    Response::Slide,
    Response::Bounce { restitution: 0.5 },
];

fn motion_2d() -> (Hash, Hash) {
    let boxes: Vec<(Cuboid<Vec2>, d2::Pose)> = (0..12)
        .map(|k| {
            let a = k as f32 * std::f32::consts::FRAC_PI_6;
            let at = Vec2::new(math::cos(a), math::sin(a)) * 6.0;
            (
                Cuboid::new(Vec2::new(1.0, 0.4)).unwrap(),
                d2::Pose::new(at, a).unwrap(),
            )
        })
        .collect();
    let mut world: Bvh<Vec2> = Bvh::new();
    let ids: Vec<Handle> = boxes
        .iter()
        .map(|(s, p)| world.insert(s.aabb(p), ()).unwrap())
        .collect();
    world.step();
    let shape_of = |h: Handle| {
        let k = ids.iter().position(|&i| i == h)?;
        Some((&boxes[k].0 as &dyn Support<Vec2>, boxes[k].1))
    };
    let mover = Capsule::<Vec2>::new(0.3, 0.2).unwrap();
    let (mut found, mut state) = (Hash::new(), Hash::new());
    for (r, response) in RESPONSES.into_iter().enumerate() {
        let mut at = d2::Pose::IDENTITY;
        for tick in 0..60 {
            let a = tick as f32 * 0.21 + r as f32;
            let motion = Vec2::new(math::cos(a), math::sin(a)) * 1.5;
            let done = motion2::sweep(
                &world,
                shape_of,
                &mover,
                at,
                motion,
                response,
                SweepLimits::default(),
            );
            for hit in &done.hits {
                found.u64(u64::from(hit.handle.index()));
                found.f32(hit.t);
            }
            at = done.end;
            state.vec2(at.position());
            state.vec2(done.moved);
            let turned = motion2::sweep_turning(&world, shape_of, &mover, at, motion, 1.0);
            if let Ok(Some(hit)) = turned {
                found.u64(u64::from(hit.handle.index()));
                state.f32(hit.t);
            }
            let stepped = motion2::substep(&world, shape_of, &mover, at, motion, 4);
            state.vec2(stepped.end.position());
        }
    }
    (found, state)
}

fn motion_3d() -> (Hash, Hash) {
    let boxes: Vec<(Cuboid<Vec3>, d3::Pose)> = (0..12)
        .map(|k| {
            let a = k as f32 * std::f32::consts::FRAC_PI_6;
            let at = Vec3::new(math::cos(a) * 6.0, (k % 3) as f32 - 1.0, math::sin(a) * 6.0);
            let turn = Quat::from_rotation_y(a) * Quat::from_rotation_x(0.3);
            (
                Cuboid::new(Vec3::new(1.0, 0.4, 0.8)).unwrap(),
                d3::Pose::new(at, turn).unwrap(),
            )
        })
        .collect();
    let mut world: Bvh<Vec3> = Bvh::new();
    let ids: Vec<Handle> = boxes
        .iter()
        .map(|(s, p)| world.insert(s.aabb(p), ()).unwrap())
        .collect();
    world.step();
    let shape_of = |h: Handle| {
        let k = ids.iter().position(|&i| i == h)?;
        Some((&boxes[k].0 as &dyn Support<Vec3>, boxes[k].1))
    };
    let mover = Capsule::<Vec3>::new(0.3, 0.2).unwrap();
    let (mut found, mut state) = (Hash::new(), Hash::new());
    for (r, response) in RESPONSES.into_iter().enumerate() {
        let mut at = d3::Pose::IDENTITY;
        for tick in 0..60 {
            let a = tick as f32 * 0.21 + r as f32;
            let motion = Vec3::new(math::cos(a), math::sin(a * 0.5) * 0.3, math::sin(a)) * 1.5;
            let done = motion3::sweep(
                &world,
                shape_of,
                &mover,
                at,
                motion,
                response,
                SweepLimits::default(),
            );
            for hit in &done.hits {
                found.u64(u64::from(hit.handle.index()));
                found.f32(hit.t);
            }
            at = done.end;
            state.vec3(at.position());
            state.vec3(done.moved);
            let turned = motion3::sweep_turning(
                &world,
                shape_of,
                &mover,
                at,
                motion,
                Vec3::new(0.2, 1.0, 0.1),
            );
            if let Ok(Some(hit)) = turned {
                found.u64(u64::from(hit.handle.index()));
                state.f32(hit.t);
            }
            let stepped = motion3::substep(&world, shape_of, &mover, at, motion, 4);
            state.vec3(stepped.end.position());
        }
    }
    (found, state)
}

pub fn scenes(out: &mut Vec<Entry>) {
    let (found, state) = narrow_2d();
    out.push(Entry::new(
        "2D shape pairs: contacts, distances, casts",
        &found,
        &state,
    ));
    let (found, state) = narrow_3d();
    out.push(Entry::new(
        "3D shape pairs: contacts, distances, casts",
        &found,
        &state,
    ));
    let (found, state) = closed_forms();
    out.push(Entry::new(
        "closed forms and SAT: balls, capsules, boxes, squares",
        &found,
        &state,
    ));
    let (found, state) = motion_2d();
    out.push(Entry::new(
        "2D capsule swept round a ring of boxes",
        &found,
        &state,
    ));
    let (found, state) = motion_3d();
    out.push(Entry::new(
        "3D capsule swept round a ring of boxes",
        &found,
        &state,
    ));
}
