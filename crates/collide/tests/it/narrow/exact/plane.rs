//! The 2D half: circles, capsules, boxes and polygons, their cases, and
//! every 2D contact, distance, ray and shape cast judged.

use crate::narrow::exact::judge::{Answer, CastAnswer, RayAnswer};
use crate::narrow::exact::reference::{Body, Space};
use crate::narrow::exact::{Dimension, Kind};
use collide::geometry::Ray;
use collide::narrow::{Contact, RayCast, ShapeCast, Support, d2};
use collide_scenes::SceneRng;
use glam::{DVec3, Vec2};

/// 2D, for the runs.
pub struct Plane;

impl Dimension for Plane {
    const NAME: &'static str = "2D";
    const SPACE: Space = Space::Plane;
    type V = Vec2;
    type Shape = Shape2;
    type Pose = d2::Pose;

    fn case(rng: &mut SceneRng, kind: Kind) -> (Shape2, d2::Pose, Shape2, d2::Pose) {
        case2(rng, kind)
    }
    fn body(shape: &Shape2, pose: &d2::Pose) -> Body {
        shape.body(pose)
    }
    fn position(pose: &d2::Pose) -> Vec2 {
        pose.position()
    }
    fn at(pose: &d2::Pose, position: Vec2) -> d2::Pose {
        let mut moved = *pose;
        moved.set_position(position).expect("a finite position");
        moved
    }
    fn wide(v: Vec2) -> DVec3 {
        v2(v)
    }
    fn narrow(v: DVec3) -> Vec2 {
        v.truncate().as_vec2()
    }
    fn around(rng: &mut SceneRng, r: f32) -> Vec2 {
        around2(rng, r)
    }
    fn direction(rng: &mut SceneRng) -> Vec2 {
        Vec2::from_angle(rng.range(-3.2, 3.2))
    }
    fn contacts(
        a: &Shape2,
        pa: &d2::Pose,
        b: &Shape2,
        pb: &d2::Pose,
    ) -> Vec<(&'static str, Answer)> {
        contacts2(a, pa, b, pb)
            .into_iter()
            .map(|(what, c)| (what, answer2(&c)))
            .collect()
    }
    fn sat(
        a: &Shape2,
        pa: &d2::Pose,
        b: &Shape2,
        pb: &d2::Pose,
    ) -> Option<(&'static str, Body, Body, Option<Answer>)> {
        let (p, q) = (sharp_polygon(a)?, sharp_polygon(b)?);
        let (bp, bq) = (Shape2::Polygon(p).body(pa), Shape2::Polygon(q).body(pb));
        let got = d2::contact_polygon_polygon(&p, pa, &q, pb).map(|c| answer2(&c));
        Some(("contact_polygon_polygon", bp, bq, got))
    }
    fn distance(a: &Shape2, pa: &d2::Pose, b: &Shape2, pb: &d2::Pose) -> f32 {
        d2::distance(a.support(), pa, b.support(), pb)
    }
    fn rays(
        origin: Vec2,
        toward: Vec2,
        max_t: f32,
        shape: &Shape2,
        pose: &d2::Pose,
    ) -> Vec<(&'static str, Option<RayAnswer>)> {
        let ray = Ray::new(origin, toward, max_t).expect("a finite ray");
        rays2(&ray, shape, pose)
            .into_iter()
            .map(|(what, got)| (what, got.map(ray2)))
            .collect()
    }
    fn cast(
        a: &Shape2,
        pa: &d2::Pose,
        ma: Vec2,
        b: &Shape2,
        pb: &d2::Pose,
        mb: Vec2,
    ) -> Option<CastAnswer> {
        d2::cast_shape(a.support(), pa, ma, b.support(), pb, mb).map(cast2)
    }
}

/// A 2D shape of any kind.
#[derive(Clone, Copy, Debug)]
pub enum Shape2 {
    Circle(d2::Circle),
    Capsule(d2::Capsule),
    Cuboid(d2::Cuboid),
    Polygon(d2::Polygon),
}

impl Shape2 {
    fn support(&self) -> &dyn Support<Vec2> {
        match self {
            Shape2::Circle(s) => s,
            Shape2::Capsule(s) => s,
            Shape2::Cuboid(s) => s,
            Shape2::Polygon(s) => s,
        }
    }

    /// Its core's points in its own frame, and its radius.
    fn core(&self) -> (Vec<Vec2>, f32) {
        match self {
            Shape2::Circle(s) => (vec![Vec2::ZERO], s.radius()),
            Shape2::Capsule(s) => (vec![s.a(), s.b()], s.radius()),
            Shape2::Cuboid(s) => (s.to_polygon().vertices().to_vec(), 0.0),
            Shape2::Polygon(s) => (s.vertices().to_vec(), s.radius()),
        }
    }

    fn body(&self, pose: &d2::Pose) -> Body {
        let (c, s) = (f64::from(pose.rotation().x), f64::from(pose.rotation().y));
        let (px, py) = (f64::from(pose.position().x), f64::from(pose.position().y));
        let (points, radius) = self.core();
        let placed = points
            .iter()
            .map(|p| {
                let (x, y) = (f64::from(p.x), f64::from(p.y));
                DVec3::new(px + c * x - s * y, py + s * x + c * y, 0.0)
            })
            .collect();
        Body::new(placed, f64::from(radius), Space::Plane)
    }
}

fn v2(v: Vec2) -> DVec3 {
    DVec3::new(f64::from(v.x), f64::from(v.y), 0.0)
}

fn answer2(c: &Contact<Vec2>) -> Answer {
    Answer {
        depth: f64::from(c.depth),
        normal: v2(c.normal),
        point_a: v2(c.point_a),
        point_b: v2(c.point_b),
    }
}

fn ray2(r: RayCast<Vec2>) -> RayAnswer {
    RayAnswer {
        t: f64::from(r.t),
        normal: v2(r.normal),
        point: v2(r.point),
    }
}

fn cast2(c: ShapeCast<Vec2>) -> CastAnswer {
    CastAnswer {
        t: f64::from(c.t),
        contact: answer2(&c.contact),
    }
}

fn around2(rng: &mut SceneRng, r: f32) -> Vec2 {
    Vec2::new(rng.range(-r, r), rng.range(-r, r))
}

/// A random shape of about `size`.
fn shape2(rng: &mut SceneRng, size: f32) -> Shape2 {
    let radius = |rng: &mut SceneRng| {
        if rng.below(4) == 0 {
            0.0
        } else {
            rng.range(0.0, 0.5 * size)
        }
    };
    match rng.below(4) {
        0 => Shape2::Circle(d2::Circle::new(rng.range(0.0, size)).unwrap()),
        1 => Shape2::Capsule(
            d2::Capsule::between(around2(rng, size), around2(rng, size), radius(rng)).unwrap(),
        ),
        2 => Shape2::Cuboid(
            d2::Cuboid::new(Vec2::new(rng.range(0.0, size), rng.range(0.0, size))).unwrap(),
        ),
        _ => loop {
            let points: Vec<Vec2> = (0..3 + rng.below(6)).map(|_| around2(rng, size)).collect();
            if let Ok(p) = d2::Polygon::rounded(&points, radius(rng)) {
                break Shape2::Polygon(p);
            }
        },
    }
}

/// Two shapes and their poses, of `kind`.
fn case2(rng: &mut SceneRng, kind: Kind) -> (Shape2, d2::Pose, Shape2, d2::Pose) {
    // A pose within `spread` of `centre`, turned at random.
    let pose = |rng: &mut SceneRng, centre: Vec2, spread: f32| {
        let at = centre + around2(rng, spread);
        d2::Pose::new(at, rng.range(-3.2, 3.2)).unwrap()
    };
    match kind {
        Kind::Random | Kind::Far => {
            let offset = if matches!(kind, Kind::Far) {
                let far = 10f32.powf(rng.range(3.0, 5.0));
                Vec2::from_angle(rng.range(-3.2, 3.2)) * far
            } else {
                Vec2::ZERO
            };
            let (a, b) = (shape2(rng, 1.0), shape2(rng, 1.0));
            let pa = pose(rng, offset, 1.0);
            let pb = pose(rng, offset, 1.0);
            (a, pa, b, pb)
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
                    Shape2::Capsule(d2::Capsule::new(half, radius).unwrap())
                } else {
                    let width = if rng.below(2) == 0 {
                        0.0
                    } else {
                        rng.range(0.0, 0.01)
                    };
                    Shape2::Cuboid(d2::Cuboid::new(Vec2::new(half, width)).unwrap())
                }
            };
            let (a, b) = (thin(rng), thin(rng));
            let pa = pose(rng, Vec2::ZERO, 0.3);
            // A third of them share their centre (no direction between).
            let spread = if rng.below(3) == 0 { 0.0 } else { 0.3 };
            let pb = pose(rng, pa.position(), spread);
            (a, pa, b, pb)
        }
        Kind::LongThin => {
            let half = rng.range(1.0, 20.0);
            let long = Shape2::Capsule(d2::Capsule::new(half, half * 1e-3).unwrap());
            let pa = pose(rng, Vec2::ZERO, 1.0);
            let small = shape2(rng, half * 2e-3);
            let along = pa.apply(Vec2::new(0.0, rng.range(-half, half)));
            let pb = pose(rng, along, half * 3e-3);
            (long, pa, small, pb)
        }
        Kind::OnAxis => {
            let a = shape2(rng, 1.0);
            let pa = pose(rng, Vec2::ZERO, 1.0);
            let (core, _) = a.core();
            let (p, q) = (core[rng.below(core.len())], core[rng.below(core.len())]);
            // A point on a core's segment or face (exactly, before the
            // pose rounds it), or the core's centre.
            let on = p.lerp(q, rng.range(0.0, 1.0));
            let b = if rng.below(2) == 0 {
                Shape2::Circle(d2::Circle::new(rng.range(0.0, 1.0)).unwrap())
            } else {
                shape2(rng, 1.0)
            };
            let mut pb = pose(rng, Vec2::ZERO, 0.0);
            pb.set_position(pa.apply(on)).expect("a finite position");
            (a, pa, b, pb)
        }
        Kind::Degenerate => {
            let degenerate = |rng: &mut SceneRng| match rng.below(5) {
                0 => Shape2::Cuboid(d2::Cuboid::new(Vec2::ZERO).unwrap()),
                1 => Shape2::Cuboid(d2::Cuboid::new(Vec2::new(rng.range(0.0, 1.0), 0.0)).unwrap()),
                2 => Shape2::Circle(d2::Circle::new(0.0).unwrap()),
                3 => {
                    let p = around2(rng, 1.0);
                    Shape2::Capsule(d2::Capsule::between(p, p, rng.range(0.0, 0.5)).unwrap())
                }
                _ => shape2(rng, 1.0),
            };
            let (a, b) = (degenerate(rng), degenerate(rng));
            (a, pose(rng, Vec2::ZERO, 1.0), b, pose(rng, Vec2::ZERO, 1.0))
        }
    }
}

/// Every contact function that takes this pair, by name.
fn contacts2(
    a: &Shape2,
    pa: &d2::Pose,
    b: &Shape2,
    pb: &d2::Pose,
) -> Vec<(&'static str, Contact<Vec2>)> {
    let mut out = vec![("2D contact", d2::contact(a.support(), pa, b.support(), pb))];
    match (a, b) {
        (Shape2::Circle(x), Shape2::Circle(y)) => {
            out.push((
                "contact_circle_circle",
                d2::contact_circle_circle(x, pa, y, pb),
            ));
        }
        (Shape2::Circle(x), Shape2::Capsule(y)) => {
            out.push((
                "contact_circle_capsule",
                d2::contact_circle_capsule(x, pa, y, pb),
            ));
        }
        (Shape2::Capsule(x), Shape2::Capsule(y)) => {
            out.push((
                "contact_capsule_capsule",
                d2::contact_capsule_capsule(x, pa, y, pb),
            ));
        }
        _ => {}
    }
    out
}

/// A polygon for SAT, when the shape is a sharp one.
fn sharp_polygon(shape: &Shape2) -> Option<d2::Polygon> {
    match shape {
        Shape2::Cuboid(c) => Some(c.to_polygon()),
        Shape2::Polygon(p) if p.radius() == 0.0 => Some(*p),
        _ => None,
    }
}

/// Every ray cast function that takes this shape, by name (the polygon
/// clip ignores a rounding radius, so it sees only sharp polygons).
fn rays2(
    ray: &Ray<Vec2>,
    shape: &Shape2,
    pose: &d2::Pose,
) -> Vec<(&'static str, Option<RayCast<Vec2>>)> {
    let mut out = vec![("2D cast_ray", d2::cast_ray(ray, shape.support(), pose))];
    match shape {
        Shape2::Circle(s) => out.push(("cast_ray_circle", d2::cast_ray_circle(ray, s, pose))),
        Shape2::Capsule(s) => out.push(("cast_ray_capsule", d2::cast_ray_capsule(ray, s, pose))),
        Shape2::Cuboid(s) => {
            out.push(("cast_ray_cuboid", d2::cast_ray_cuboid(ray, s, pose)));
            out.push((
                "cast_ray_polygon",
                d2::cast_ray_polygon(ray, &s.to_polygon(), pose),
            ));
        }
        Shape2::Polygon(s) if s.radius() == 0.0 => {
            out.push(("cast_ray_polygon", d2::cast_ray_polygon(ray, s, pose)));
        }
        Shape2::Polygon(_) => {}
    }
    out
}
