//! The 3D half: spheres, capsules, boxes and polyhedra, their cases, and
//! every 3D contact, distance, ray and shape cast judged.

use crate::narrow::exact::judge::{Answer, CastAnswer, RayAnswer};
use crate::narrow::exact::reference::{Body, Space};
use crate::narrow::exact::{Dimension, Kind};
use collide::geometry::Ray;
use collide::narrow::{Contact, RayCast, ShapeCast, Support, d3};
use collide_scenes::SceneRng;
use glam::{DQuat, DVec3, Quat, Vec3};

/// 3D, for the runs.
pub struct Volume;

impl Dimension for Volume {
    const NAME: &'static str = "3D";
    const SPACE: Space = Space::Volume;
    type V = Vec3;
    type Shape = Shape3;
    type Pose = d3::Pose;

    fn case(rng: &mut SceneRng, kind: Kind) -> (Shape3, d3::Pose, Shape3, d3::Pose) {
        case3(rng, kind)
    }
    fn body(shape: &Shape3, pose: &d3::Pose) -> Body {
        shape.body(pose)
    }
    fn position(pose: &d3::Pose) -> Vec3 {
        pose.position()
    }
    fn at(pose: &d3::Pose, position: Vec3) -> d3::Pose {
        let mut moved = *pose;
        moved.set_position(position).expect("a finite position");
        moved
    }
    fn wide(v: Vec3) -> DVec3 {
        v.as_dvec3()
    }
    fn narrow(v: DVec3) -> Vec3 {
        v.as_vec3()
    }
    fn around(rng: &mut SceneRng, r: f32) -> Vec3 {
        around3(rng, r)
    }
    fn direction(rng: &mut SceneRng) -> Vec3 {
        around3(rng, 1.0).normalize_or(Vec3::X)
    }
    fn contacts(
        a: &Shape3,
        pa: &d3::Pose,
        b: &Shape3,
        pb: &d3::Pose,
    ) -> Vec<(&'static str, Answer)> {
        contacts3(a, pa, b, pb)
            .into_iter()
            .map(|(what, c)| (what, answer3(&c)))
            .collect()
    }
    fn sat(
        a: &Shape3,
        pa: &d3::Pose,
        b: &Shape3,
        pb: &d3::Pose,
    ) -> Option<(&'static str, Body, Body, Option<Answer>)> {
        let (Shape3::Cuboid(p), Shape3::Cuboid(q)) = (a, b) else {
            return None;
        };
        let got = d3::contact_cuboid_cuboid(p, pa, q, pb).map(|c| answer3(&c));
        Some(("contact_cuboid_cuboid", a.body(pa), b.body(pb), got))
    }
    fn distance(a: &Shape3, pa: &d3::Pose, b: &Shape3, pb: &d3::Pose) -> f32 {
        d3::distance(a.support(), pa, b.support(), pb)
    }
    fn rays(
        origin: Vec3,
        toward: Vec3,
        max_t: f32,
        shape: &Shape3,
        pose: &d3::Pose,
    ) -> Vec<(&'static str, Option<RayAnswer>)> {
        let ray = Ray::new(origin, toward, max_t).expect("a finite ray");
        rays3(&ray, shape, pose)
            .into_iter()
            .map(|(what, got)| (what, got.map(ray3)))
            .collect()
    }
    fn cast(
        a: &Shape3,
        pa: &d3::Pose,
        ma: Vec3,
        b: &Shape3,
        pb: &d3::Pose,
        mb: Vec3,
    ) -> Option<CastAnswer> {
        d3::cast_shape(a.support(), pa, ma, b.support(), pb, mb).map(cast3)
    }
}

/// A 3D shape of any kind (the polyhedron is the big one; a case holds
/// two).
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug)]
pub enum Shape3 {
    Sphere(d3::Sphere),
    Capsule(d3::Capsule),
    Cuboid(d3::Cuboid),
    Polyhedron(d3::Polyhedron),
}

impl Shape3 {
    fn support(&self) -> &dyn Support<Vec3> {
        match self {
            Shape3::Sphere(s) => s,
            Shape3::Capsule(s) => s,
            Shape3::Cuboid(s) => s,
            Shape3::Polyhedron(s) => s,
        }
    }

    /// Its core's points in its own frame, and its radius.
    fn core(&self) -> (Vec<Vec3>, f32) {
        match self {
            Shape3::Sphere(s) => (vec![Vec3::ZERO], s.radius()),
            Shape3::Capsule(s) => (vec![s.a(), s.b()], s.radius()),
            Shape3::Cuboid(s) => {
                let h = s.half_extents();
                let corners = (0..8)
                    .map(|i| {
                        let sign = |bit: usize| if i & bit == 0 { -1.0 } else { 1.0 };
                        Vec3::new(sign(1) * h.x, sign(2) * h.y, sign(4) * h.z)
                    })
                    .collect();
                (corners, 0.0)
            }
            Shape3::Polyhedron(s) => (s.points().to_vec(), s.radius()),
        }
    }

    fn body(&self, pose: &d3::Pose) -> Body {
        let r = pose.rotation();
        // The rotation the f32 quaternion stands for (normalised in f64;
        // the library's own rounding of it is within the tolerance).
        let q = DQuat::from_xyzw(r.x.into(), r.y.into(), r.z.into(), r.w.into()).normalize();
        let at = pose.position().as_dvec3();
        let (points, radius) = self.core();
        let mut placed: Vec<DVec3> = points.iter().map(|p| at + q * p.as_dvec3()).collect();
        placed.dedup();
        Body::new(placed, f64::from(radius), Space::Volume)
    }
}

fn answer3(c: &Contact<Vec3>) -> Answer {
    Answer {
        depth: f64::from(c.depth),
        normal: c.normal.as_dvec3(),
        point_a: c.point_a.as_dvec3(),
        point_b: c.point_b.as_dvec3(),
    }
}

fn ray3(r: RayCast<Vec3>) -> RayAnswer {
    RayAnswer {
        t: f64::from(r.t),
        normal: r.normal.as_dvec3(),
        point: r.point.as_dvec3(),
    }
}

fn cast3(c: ShapeCast<Vec3>) -> CastAnswer {
    CastAnswer {
        t: f64::from(c.t),
        contact: answer3(&c.contact),
    }
}

fn around3(rng: &mut SceneRng, r: f32) -> Vec3 {
    Vec3::new(rng.range(-r, r), rng.range(-r, r), rng.range(-r, r))
}

fn turn(rng: &mut SceneRng) -> Quat {
    let axis = around3(rng, 1.0).normalize_or(Vec3::X);
    Quat::from_axis_angle(axis, rng.range(-3.2, 3.2))
}

/// A random shape of about `size`.
fn shape3(rng: &mut SceneRng, size: f32) -> Shape3 {
    let radius = |rng: &mut SceneRng| {
        if rng.below(4) == 0 {
            0.0
        } else {
            rng.range(0.0, 0.5 * size)
        }
    };
    match rng.below(4) {
        0 => Shape3::Sphere(d3::Sphere::new(rng.range(0.0, size)).unwrap()),
        1 => Shape3::Capsule(
            d3::Capsule::between(around3(rng, size), around3(rng, size), radius(rng)).unwrap(),
        ),
        2 => Shape3::Cuboid(d3::Cuboid::new(around3(rng, size).abs()).unwrap()),
        _ => loop {
            let points: Vec<Vec3> = (0..4 + rng.below(5)).map(|_| around3(rng, size)).collect();
            if let Ok(p) = d3::Polyhedron::rounded(&points, radius(rng)) {
                break Shape3::Polyhedron(p);
            }
        },
    }
}

/// Two shapes and their poses, of `kind`.
fn case3(rng: &mut SceneRng, kind: Kind) -> (Shape3, d3::Pose, Shape3, d3::Pose) {
    // A pose within `spread` of `centre`, turned at random.
    let pose = |rng: &mut SceneRng, centre: Vec3, spread: f32| {
        let at = centre + around3(rng, spread);
        d3::Pose::new(at, turn(rng)).unwrap()
    };
    match kind {
        Kind::Random | Kind::Far => {
            let offset = if matches!(kind, Kind::Far) {
                around3(rng, 1.0).normalize_or(Vec3::X) * 10f32.powf(rng.range(3.0, 5.0))
            } else {
                Vec3::ZERO
            };
            let (a, b) = (shape3(rng, 1.0), shape3(rng, 1.0));
            (a, pose(rng, offset, 1.0), b, pose(rng, offset, 1.0))
        }
        Kind::Crossing => {
            let thin = |rng: &mut SceneRng| {
                let half = rng.range(0.3, 3.0);
                if rng.below(2) == 0 {
                    // Thin, or as thick as long.
                    let radius = if rng.below(3) == 0 {
                        rng.range(0.0, half)
                    } else {
                        rng.range(0.0, 0.02)
                    };
                    Shape3::Capsule(d3::Capsule::new(half, radius).unwrap())
                } else {
                    let width = if rng.below(2) == 0 {
                        0.0
                    } else {
                        rng.range(0.0, 0.01)
                    };
                    let depth = if rng.below(2) == 0 {
                        width
                    } else {
                        rng.range(0.0, 1.0)
                    };
                    Shape3::Cuboid(d3::Cuboid::new(Vec3::new(width, half, depth)).unwrap())
                }
            };
            let (a, b) = (thin(rng), thin(rng));
            let pa = pose(rng, Vec3::ZERO, 0.3);
            // A third of them share their centre (no direction between).
            let spread = if rng.below(3) == 0 { 0.0 } else { 0.3 };
            (a, pa, b, pose(rng, pa.position(), spread))
        }
        Kind::LongThin => {
            let half = rng.range(1.0, 20.0);
            let long = Shape3::Capsule(d3::Capsule::new(half, half * 1e-3).unwrap());
            let pa = pose(rng, Vec3::ZERO, 1.0);
            let small = shape3(rng, half * 2e-3);
            let along = pa.apply(Vec3::new(0.0, rng.range(-half, half), 0.0));
            (long, pa, small, pose(rng, along, half * 3e-3))
        }
        Kind::OnAxis => {
            let a = shape3(rng, 1.0);
            let pa = pose(rng, Vec3::ZERO, 1.0);
            let (core, _) = a.core();
            let pick = |rng: &mut SceneRng| core[rng.below(core.len())];
            let (p, q, r) = (pick(rng), pick(rng), pick(rng));
            // A point on a core's segment or face (exactly, before the
            // pose rounds it).
            let (u, v) = (rng.range(0.0, 1.0), rng.range(0.0, 1.0));
            let on = if rng.below(2) == 0 {
                p.lerp(q, u)
            } else {
                p.lerp(q, u).lerp(r, v * 0.5)
            };
            let b = if rng.below(2) == 0 {
                Shape3::Sphere(d3::Sphere::new(rng.range(0.0, 1.0)).unwrap())
            } else {
                shape3(rng, 1.0)
            };
            let pb = d3::Pose::new(pa.apply(on), turn(rng)).unwrap();
            (a, pa, b, pb)
        }
        Kind::Degenerate => {
            let degenerate = |rng: &mut SceneRng| match rng.below(5) {
                0 => Shape3::Cuboid(d3::Cuboid::new(Vec3::ZERO).unwrap()),
                1 => {
                    let mut h = around3(rng, 1.0).abs();
                    h[rng.below(3)] = 0.0;
                    Shape3::Cuboid(d3::Cuboid::new(h).unwrap())
                }
                2 => Shape3::Sphere(d3::Sphere::new(0.0).unwrap()),
                3 => {
                    let p = around3(rng, 1.0);
                    Shape3::Capsule(d3::Capsule::between(p, p, rng.range(0.0, 0.5)).unwrap())
                }
                _ => shape3(rng, 1.0),
            };
            let (a, b) = (degenerate(rng), degenerate(rng));
            (a, pose(rng, Vec3::ZERO, 1.0), b, pose(rng, Vec3::ZERO, 1.0))
        }
    }
}

/// Every contact function that takes this pair, by name.
fn contacts3(
    a: &Shape3,
    pa: &d3::Pose,
    b: &Shape3,
    pb: &d3::Pose,
) -> Vec<(&'static str, Contact<Vec3>)> {
    let mut out = vec![("3D contact", d3::contact(a.support(), pa, b.support(), pb))];
    match (a, b) {
        (Shape3::Sphere(x), Shape3::Sphere(y)) => {
            out.push((
                "contact_sphere_sphere",
                d3::contact_sphere_sphere(x, pa, y, pb),
            ));
        }
        (Shape3::Sphere(x), Shape3::Capsule(y)) => {
            out.push((
                "contact_sphere_capsule",
                d3::contact_sphere_capsule(x, pa, y, pb),
            ));
        }
        (Shape3::Capsule(x), Shape3::Capsule(y)) => {
            out.push((
                "3D contact_capsule_capsule",
                d3::contact_capsule_capsule(x, pa, y, pb),
            ));
        }
        _ => {}
    }
    out
}

/// Every ray cast function that takes this shape, by name.
fn rays3(
    ray: &Ray<Vec3>,
    shape: &Shape3,
    pose: &d3::Pose,
) -> Vec<(&'static str, Option<RayCast<Vec3>>)> {
    let mut out = vec![("3D cast_ray", d3::cast_ray(ray, shape.support(), pose))];
    match shape {
        Shape3::Sphere(s) => out.push(("cast_ray_sphere", d3::cast_ray_sphere(ray, s, pose))),
        Shape3::Capsule(s) => out.push(("3D cast_ray_capsule", d3::cast_ray_capsule(ray, s, pose))),
        Shape3::Cuboid(s) => out.push(("3D cast_ray_cuboid", d3::cast_ray_cuboid(ray, s, pose))),
        Shape3::Polyhedron(_) => {}
    }
    out
}
