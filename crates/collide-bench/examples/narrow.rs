//! The narrow phase against parry, query by query, on the same random
//! shape pairs: contact (SAT boxes, GJK/EPA convex, closed-form capsules),
//! distance, ray casts and shape casts, 2D and 3D. Every pair's answer is
//! compared with parry's first (depth, distance, t within 1e-3); the
//! disagreements are counted and printed beside the times (with
//! `NARROW_DEBUG=1`, each one is listed on stderr). Times are the best of
//! 20 passes over 2,000 pairs, ours and parry's alternated pass by pass.
//!
//! ```sh
//! cargo run --release --manifest-path crates/collide-bench/Cargo.toml --example narrow
//! ```

use collide::geometry::Ray;
use collide::narrow::{d2, d3};
use collide_scenes::SceneRng;
use glam::{Quat, Vec2, Vec3};
use parry2d::math as p2;
use parry2d::query::RayCast as _;
use parry3d::math as p3;
use parry3d::query::RayCast as _;
use std::hint::black_box;
use std::time::Instant;

const PAIRS: usize = 2000;
const ROUNDS: usize = 20;

/// One timed pass of a query over its inputs, run when the row asks.
struct Timed<'a>(Box<dyn FnMut() -> f64 + 'a>);

/// A pass of `f` over `inputs` (each input once), in nanoseconds per call.
fn time<'a, T>(inputs: &'a [T], mut f: impl FnMut(&T) -> f32 + 'a) -> Timed<'a> {
    Timed(Box::new(move || {
        let start = Instant::now();
        let mut sink = 0.0f32;
        for x in inputs {
            sink += f(x);
        }
        black_box(sink);
        start.elapsed().as_secs_f64() * 1e9 / inputs.len() as f64
    }))
}

/// Prints a row: the best of `ROUNDS` passes each, ours and parry's
/// alternated pass by pass, so a slow spell of the machine falls on both.
fn row(query: &str, mut ours: Timed, mut parry: Timed, disagree: usize) {
    let (mut best_ours, mut best_parry) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..ROUNDS {
        best_ours = best_ours.min((ours.0)());
        best_parry = best_parry.min((parry.0)());
    }
    println!(
        "| {query} | {best_ours:.0} | {best_parry:.0} | {:.2} | {disagree} |",
        best_parry / best_ours
    );
}

/// Counts pairs where the two answers differ by more than 1e-3 (both
/// `None` agrees).
fn disagreements(a: &[Option<f32>], b: &[Option<f32>]) -> usize {
    if std::env::var("NARROW_DEBUG").is_ok() {
        for (k, (x, y)) in a.iter().zip(b).enumerate() {
            let differ = match (x, y) {
                (Some(x), Some(y)) => (x - y).abs() > 1e-3,
                (None, None) => false,
                _ => true,
            };
            if differ {
                eprintln!("pair {k}: collide {x:?}, parry {y:?}");
            }
        }
    }
    a.iter()
        .zip(b)
        .filter(|(x, y)| match (x, y) {
            (Some(x), Some(y)) => (x - y).abs() > 1e-3,
            (None, None) => false,
            _ => true,
        })
        .count()
}

fn main() {
    println!("| query | collide ns | parry ns | parry / collide | answers differing |");
    println!("|---|---:|---:|---:|---:|");
    two_d();
    three_d();
}

fn two_d() {
    let mut rng = SceneRng::new(1);
    let v = |rng: &mut SceneRng, r: f32| Vec2::new(rng.range(-r, r), rng.range(-r, r));
    struct Pair {
        pa: d2::Pose,
        pb: d2::Pose,
        qa: p2::Pose,
        qb: p2::Pose,
    }
    let pairs: Vec<Pair> = (0..PAIRS)
        .map(|_| {
            let (ta, tb) = (v(&mut rng, 1.5), v(&mut rng, 1.5));
            let (aa, ab) = (rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
            Pair {
                pa: d2::Pose::new(ta, aa).unwrap(),
                pb: d2::Pose::new(tb, ab).unwrap(),
                qa: p2::Pose::new(p2::Vector::new(ta.x, ta.y), aa),
                qb: p2::Pose::new(p2::Vector::new(tb.x, tb.y), ab),
            }
        })
        .collect();
    let half = Vec2::new(0.8, 0.5);
    let ours_box = d2::Cuboid::new(half).unwrap();
    let ours_poly = ours_box.to_polygon();
    let parry_box = parry2d::shape::Cuboid::new(p2::Vector::new(half.x, half.y));
    let hexagon: Vec<Vec2> = (0..6)
        .map(|k| Vec2::from_angle(k as f32 * 1.047) * 0.9)
        .collect();
    let ours_hex = d2::Polygon::new(&hexagon).unwrap();
    let parry_hex = parry2d::shape::ConvexPolygon::from_convex_hull(
        &hexagon
            .iter()
            .map(|p| p2::Vector::new(p.x, p.y))
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let ours_cap = d2::Capsule::new(0.6, 0.3).unwrap();
    let parry_cap = parry2d::shape::Capsule::new_y(0.6, 0.3);
    let ours_ball = d2::Circle::new(0.4).unwrap();
    let parry_ball = parry2d::shape::Ball::new(0.4);

    let depth_parry = |c: Option<parry2d::query::Contact>| c.map(|c| -c.dist);
    // Contact: boxes by SAT.
    let ours: Vec<Option<f32>> = pairs
        .iter()
        .map(|p| d2::contact_polygon_polygon(&ours_poly, &p.pa, &ours_poly, &p.pb).map(|c| c.depth))
        .collect();
    let theirs: Vec<Option<f32>> = pairs
        .iter()
        .map(|p| {
            depth_parry(parry2d::query::contact(&p.qa, &parry_box, &p.qb, &parry_box, 0.0).unwrap())
        })
        .collect();
    row(
        "2D contact, box-box (SAT)",
        time(&pairs, |p| {
            d2::contact_polygon_polygon(&ours_poly, &p.pa, &ours_poly, &p.pb)
                .map_or(0.0, |c| c.depth)
        }),
        time(&pairs, |p| {
            parry2d::query::contact(&p.qa, &parry_box, &p.qb, &parry_box, 0.0)
                .unwrap()
                .map_or(0.0, |c| c.dist)
        }),
        disagreements(&ours, &theirs),
    );
    // Contact: convex polygons by GJK/EPA.
    let ours: Vec<Option<f32>> = pairs
        .iter()
        .map(|p| {
            Some(d2::contact(&ours_hex, &p.pa, &ours_hex, &p.pb))
                .filter(|c| c.depth >= 0.0)
                .map(|c| c.depth)
        })
        .collect();
    let theirs: Vec<Option<f32>> = pairs
        .iter()
        .map(|p| {
            depth_parry(parry2d::query::contact(&p.qa, &parry_hex, &p.qb, &parry_hex, 0.0).unwrap())
        })
        .collect();
    row(
        "2D contact, hexagons (GJK/EPA)",
        time(&pairs, |p| {
            d2::contact(&ours_hex, &p.pa, &ours_hex, &p.pb).depth
        }),
        time(&pairs, |p| {
            parry2d::query::contact(&p.qa, &parry_hex, &p.qb, &parry_hex, 0.0)
                .unwrap()
                .map_or(0.0, |c| c.dist)
        }),
        disagreements(&ours, &theirs),
    );
    // Contact: capsules in closed form.
    let ours: Vec<Option<f32>> = pairs
        .iter()
        .map(|p| {
            Some(d2::contact_capsule_capsule(
                &ours_cap, &p.pa, &ours_cap, &p.pb,
            ))
            .filter(|c| c.depth >= 0.0)
            .map(|c| c.depth)
        })
        .collect();
    let theirs: Vec<Option<f32>> = pairs
        .iter()
        .map(|p| {
            depth_parry(parry2d::query::contact(&p.qa, &parry_cap, &p.qb, &parry_cap, 0.0).unwrap())
        })
        .collect();
    row(
        "2D contact, capsules",
        time(&pairs, |p| {
            d2::contact_capsule_capsule(&ours_cap, &p.pa, &ours_cap, &p.pb).depth
        }),
        time(&pairs, |p| {
            parry2d::query::contact(&p.qa, &parry_cap, &p.qb, &parry_cap, 0.0)
                .unwrap()
                .map_or(0.0, |c| c.dist)
        }),
        disagreements(&ours, &theirs),
    );
    // Distance between hexagons (0 when they overlap, for both).
    let ours: Vec<Option<f32>> = pairs
        .iter()
        .map(|p| Some(d2::distance(&ours_hex, &p.pa, &ours_hex, &p.pb)))
        .collect();
    let theirs: Vec<Option<f32>> = pairs
        .iter()
        .map(|p| {
            Some(
                parry2d::query::distance(&p.qa, &parry_hex, &p.qb, &parry_hex)
                    .unwrap()
                    .distance,
            )
        })
        .collect();
    row(
        "2D distance, hexagons (GJK)",
        time(&pairs, |p| d2::distance(&ours_hex, &p.pa, &ours_hex, &p.pb)),
        time(&pairs, |p| {
            parry2d::query::distance(&p.qa, &parry_hex, &p.qb, &parry_hex)
                .unwrap()
                .distance
        }),
        disagreements(&ours, &theirs),
    );
    // Rays: from a's position toward b's, against a box, a circle and a
    // capsule at b.
    let ray_of = |p: &Pair| {
        let d = (p.pb.position() - p.pa.position()) * 2.0 + Vec2::new(0.01, 0.0);
        (
            Ray::new(p.pa.position() - d, d, 3.0).unwrap(),
            parry2d::query::Ray::new(
                p2::Vector::new(p.pa.position().x - d.x, p.pa.position().y - d.y),
                p2::Vector::new(d.x, d.y),
            ),
        )
    };
    let rays: Vec<_> = pairs.iter().map(|p| (ray_of(p), p)).collect();
    macro_rules! ray_row {
        ($name:expr, $ours:expr, $shape:expr) => {{
            let ours: Vec<Option<f32>> = rays
                .iter()
                .map(|((r, _), p)| $ours(r, &p.pb).map(|h: collide::narrow::RayCast<Vec2>| h.t))
                .collect();
            let theirs: Vec<Option<f32>> = rays
                .iter()
                .map(|((_, q), p)| {
                    $shape
                        .cast_ray_and_get_normal(&p.qb, q, 3.0, true)
                        .map(|h| h.time_of_impact)
                })
                .collect();
            row(
                $name,
                time(&rays, |((r, _), p)| {
                    $ours(r, &p.pb).map_or(0.0, |h: collide::narrow::RayCast<Vec2>| h.t)
                }),
                time(&rays, |((_, q), p)| {
                    $shape
                        .cast_ray_and_get_normal(&p.qb, q, 3.0, true)
                        .map_or(0.0, |h| h.time_of_impact)
                }),
                disagreements(&ours, &theirs),
            );
        }};
    }
    ray_row!(
        "2D ray cast, box",
        |r: &Ray<Vec2>, pose: &d2::Pose| d2::cast_ray_cuboid(r, &ours_box, pose),
        parry_box
    );
    ray_row!(
        "2D ray cast, circle",
        |r: &Ray<Vec2>, pose: &d2::Pose| d2::cast_ray_circle(r, &ours_ball, pose),
        parry_ball
    );
    ray_row!(
        "2D ray cast, capsule",
        |r: &Ray<Vec2>, pose: &d2::Pose| d2::cast_ray_capsule(r, &ours_cap, pose),
        parry_cap
    );
    // Shape casts: a circle and a capsule from a's position, moving past b.
    let motion = |p: &Pair| (p.pb.position() - p.pa.position()) * 2.0;
    let options = parry2d::query::ShapeCastOptions {
        max_time_of_impact: 1.0,
        stop_at_penetration: true,
        ..Default::default()
    };
    let far = |p: &Pair| d2::Pose::at(p.pa.position() - motion(p)).unwrap();
    let far_q = |p: &Pair| {
        let at = p.pa.position() - motion(p);
        p2::Pose::new(p2::Vector::new(at.x, at.y), 0.0)
    };
    let mv = |p: &Pair| {
        let m = motion(p) * 1.5;
        (m, p2::Vector::new(m.x, m.y))
    };
    macro_rules! cast_row {
        ($name:expr, $ours_a:expr, $ours_b:expr, $parry_a:expr, $parry_b:expr) => {{
            let ours: Vec<Option<f32>> = pairs
                .iter()
                .map(|p| {
                    d2::cast_shape(&$ours_a, &far(p), mv(p).0, &$ours_b, &p.pb, Vec2::ZERO)
                        .map(|h| h.t)
                })
                .collect();
            let theirs: Vec<Option<f32>> = pairs
                .iter()
                .map(|p| {
                    parry2d::query::cast_shapes(
                        &far_q(p),
                        mv(p).1,
                        &$parry_a,
                        &p.qb,
                        p2::Vector::ZERO,
                        &$parry_b,
                        options,
                    )
                    .unwrap()
                    .map(|h| h.time_of_impact)
                })
                .collect();
            row(
                $name,
                time(&pairs, |p| {
                    d2::cast_shape(&$ours_a, &far(p), mv(p).0, &$ours_b, &p.pb, Vec2::ZERO)
                        .map_or(0.0, |h| h.t)
                }),
                time(&pairs, |p| {
                    parry2d::query::cast_shapes(
                        &far_q(p),
                        mv(p).1,
                        &$parry_a,
                        &p.qb,
                        p2::Vector::ZERO,
                        &$parry_b,
                        options,
                    )
                    .unwrap()
                    .map_or(0.0, |h| h.time_of_impact)
                }),
                disagreements(&ours, &theirs),
            );
        }};
    }
    cast_row!(
        "2D shape cast, circle to box",
        ours_ball,
        ours_box,
        parry_ball,
        parry_box
    );
    cast_row!(
        "2D shape cast, capsule to hexagon",
        ours_cap,
        ours_hex,
        parry_cap,
        parry_hex
    );
}

fn three_d() {
    let mut rng = SceneRng::new(2);
    let v = |rng: &mut SceneRng, r: f32| {
        Vec3::new(rng.range(-r, r), rng.range(-r, r), rng.range(-r, r))
    };
    struct Pair {
        pa: d3::Pose,
        pb: d3::Pose,
        qa: p3::Pose,
        qb: p3::Pose,
    }
    let quat = |rng: &mut SceneRng| {
        let axis = Vec3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        )
        .normalize_or(Vec3::X);
        Quat::from_axis_angle(axis, rng.range(-3.0, 3.0))
    };
    let to_q = |t: Vec3, r: Quat| {
        p3::Pose::from_parts(
            p3::Vector::new(t.x, t.y, t.z),
            p3::Rotation::from_xyzw(r.x, r.y, r.z, r.w),
        )
    };
    let pairs: Vec<Pair> = (0..PAIRS)
        .map(|_| {
            let (ta, tb) = (v(&mut rng, 1.5), v(&mut rng, 1.5));
            let (ra, rb) = (quat(&mut rng), quat(&mut rng));
            Pair {
                pa: d3::Pose::new(ta, ra).unwrap(),
                pb: d3::Pose::new(tb, rb).unwrap(),
                qa: to_q(ta, ra),
                qb: to_q(tb, rb),
            }
        })
        .collect();
    let half = Vec3::new(0.8, 0.5, 0.6);
    let ours_box = d3::Cuboid::new(half).unwrap();
    let parry_box = parry3d::shape::Cuboid::new(p3::Vector::new(half.x, half.y, half.z));
    // An octahedron stretched along y, with a few extra points.
    let points: Vec<Vec3> = [
        Vec3::X,
        -Vec3::X,
        Vec3::Y * 1.3,
        -Vec3::Y * 1.3,
        Vec3::Z,
        -Vec3::Z,
        Vec3::new(0.5, 0.5, 0.5),
        Vec3::new(-0.5, 0.5, -0.5),
    ]
    .into_iter()
    .map(|p| p * 0.8)
    .collect();
    let ours_poly = d3::Polyhedron::new(&points).unwrap();
    let parry_poly = parry3d::shape::ConvexPolyhedron::from_convex_hull(
        &points
            .iter()
            .map(|p| p3::Vector::new(p.x, p.y, p.z))
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let ours_cap = d3::Capsule::new(0.6, 0.3).unwrap();
    let parry_cap = parry3d::shape::Capsule::new_y(0.6, 0.3);
    let ours_ball = d3::Sphere::new(0.4).unwrap();
    let parry_ball = parry3d::shape::Ball::new(0.4);
    let depth_parry = |c: Option<parry3d::query::Contact>| c.map(|c| -c.dist);

    let ours: Vec<Option<f32>> = pairs
        .iter()
        .map(|p| d3::contact_cuboid_cuboid(&ours_box, &p.pa, &ours_box, &p.pb).map(|c| c.depth))
        .collect();
    let theirs: Vec<Option<f32>> = pairs
        .iter()
        .map(|p| {
            depth_parry(parry3d::query::contact(&p.qa, &parry_box, &p.qb, &parry_box, 0.0).unwrap())
        })
        .collect();
    row(
        "3D contact, box-box (SAT)",
        time(&pairs, |p| {
            d3::contact_cuboid_cuboid(&ours_box, &p.pa, &ours_box, &p.pb).map_or(0.0, |c| c.depth)
        }),
        time(&pairs, |p| {
            parry3d::query::contact(&p.qa, &parry_box, &p.qb, &parry_box, 0.0)
                .unwrap()
                .map_or(0.0, |c| c.dist)
        }),
        disagreements(&ours, &theirs),
    );
    let ours: Vec<Option<f32>> = pairs
        .iter()
        .map(|p| {
            Some(d3::contact(&ours_poly, &p.pa, &ours_poly, &p.pb))
                .filter(|c| c.depth >= 0.0)
                .map(|c| c.depth)
        })
        .collect();
    let theirs: Vec<Option<f32>> = pairs
        .iter()
        .map(|p| {
            depth_parry(
                parry3d::query::contact(&p.qa, &parry_poly, &p.qb, &parry_poly, 0.0).unwrap(),
            )
        })
        .collect();
    row(
        "3D contact, polyhedra (GJK/EPA)",
        time(&pairs, |p| {
            d3::contact(&ours_poly, &p.pa, &ours_poly, &p.pb).depth
        }),
        time(&pairs, |p| {
            parry3d::query::contact(&p.qa, &parry_poly, &p.qb, &parry_poly, 0.0)
                .unwrap()
                .map_or(0.0, |c| c.dist)
        }),
        disagreements(&ours, &theirs),
    );
    let ours: Vec<Option<f32>> = pairs
        .iter()
        .map(|p| {
            Some(d3::contact_capsule_capsule(
                &ours_cap, &p.pa, &ours_cap, &p.pb,
            ))
            .filter(|c| c.depth >= 0.0)
            .map(|c| c.depth)
        })
        .collect();
    let theirs: Vec<Option<f32>> = pairs
        .iter()
        .map(|p| {
            depth_parry(parry3d::query::contact(&p.qa, &parry_cap, &p.qb, &parry_cap, 0.0).unwrap())
        })
        .collect();
    row(
        "3D contact, capsules",
        time(&pairs, |p| {
            d3::contact_capsule_capsule(&ours_cap, &p.pa, &ours_cap, &p.pb).depth
        }),
        time(&pairs, |p| {
            parry3d::query::contact(&p.qa, &parry_cap, &p.qb, &parry_cap, 0.0)
                .unwrap()
                .map_or(0.0, |c| c.dist)
        }),
        disagreements(&ours, &theirs),
    );
    let ours: Vec<Option<f32>> = pairs
        .iter()
        .map(|p| Some(d3::distance(&ours_poly, &p.pa, &ours_poly, &p.pb)))
        .collect();
    let theirs: Vec<Option<f32>> = pairs
        .iter()
        .map(|p| {
            Some(
                parry3d::query::distance(&p.qa, &parry_poly, &p.qb, &parry_poly)
                    .unwrap()
                    .distance,
            )
        })
        .collect();
    row(
        "3D distance, polyhedra (GJK)",
        time(&pairs, |p| {
            d3::distance(&ours_poly, &p.pa, &ours_poly, &p.pb)
        }),
        time(&pairs, |p| {
            parry3d::query::distance(&p.qa, &parry_poly, &p.qb, &parry_poly)
                .unwrap()
                .distance
        }),
        disagreements(&ours, &theirs),
    );
    let ray_of = |p: &Pair| {
        let d = (p.pb.position() - p.pa.position()) * 2.0 + Vec3::new(0.01, 0.0, 0.0);
        let o = p.pa.position() - d;
        (
            Ray::new(o, d, 3.0).unwrap(),
            parry3d::query::Ray::new(
                p3::Vector::new(o.x, o.y, o.z),
                p3::Vector::new(d.x, d.y, d.z),
            ),
        )
    };
    let rays: Vec<_> = pairs.iter().map(|p| (ray_of(p), p)).collect();
    macro_rules! ray_row {
        ($name:expr, $ours:expr, $shape:expr) => {{
            let ours: Vec<Option<f32>> = rays
                .iter()
                .map(|((r, _), p)| $ours(r, &p.pb).map(|h: collide::narrow::RayCast<Vec3>| h.t))
                .collect();
            let theirs: Vec<Option<f32>> = rays
                .iter()
                .map(|((_, q), p)| {
                    $shape
                        .cast_ray_and_get_normal(&p.qb, q, 3.0, true)
                        .map(|h| h.time_of_impact)
                })
                .collect();
            row(
                $name,
                time(&rays, |((r, _), p)| {
                    $ours(r, &p.pb).map_or(0.0, |h: collide::narrow::RayCast<Vec3>| h.t)
                }),
                time(&rays, |((_, q), p)| {
                    $shape
                        .cast_ray_and_get_normal(&p.qb, q, 3.0, true)
                        .map_or(0.0, |h| h.time_of_impact)
                }),
                disagreements(&ours, &theirs),
            );
        }};
    }
    ray_row!(
        "3D ray cast, box",
        |r: &Ray<Vec3>, pose: &d3::Pose| d3::cast_ray_cuboid(r, &ours_box, pose),
        parry_box
    );
    ray_row!(
        "3D ray cast, sphere",
        |r: &Ray<Vec3>, pose: &d3::Pose| d3::cast_ray_sphere(r, &ours_ball, pose),
        parry_ball
    );
    ray_row!(
        "3D ray cast, capsule",
        |r: &Ray<Vec3>, pose: &d3::Pose| d3::cast_ray_capsule(r, &ours_cap, pose),
        parry_cap
    );
    ray_row!(
        "3D ray cast, polyhedron",
        |r: &Ray<Vec3>, pose: &d3::Pose| d3::cast_ray(r, &ours_poly, pose),
        parry_poly
    );
    let motion = |p: &Pair| (p.pb.position() - p.pa.position()) * 2.0;
    let options = parry3d::query::ShapeCastOptions {
        max_time_of_impact: 1.0,
        stop_at_penetration: true,
        ..Default::default()
    };
    let far = |p: &Pair| d3::Pose::at(p.pa.position() - motion(p)).unwrap();
    let far_q = |p: &Pair| {
        let at = p.pa.position() - motion(p);
        p3::Pose::from_translation(p3::Vector::new(at.x, at.y, at.z))
    };
    let mv = |p: &Pair| {
        let m = motion(p) * 1.5;
        (m, p3::Vector::new(m.x, m.y, m.z))
    };
    macro_rules! cast_row {
        ($name:expr, $ours_a:expr, $ours_b:expr, $parry_a:expr, $parry_b:expr) => {{
            let ours: Vec<Option<f32>> = pairs
                .iter()
                .map(|p| {
                    d3::cast_shape(&$ours_a, &far(p), mv(p).0, &$ours_b, &p.pb, Vec3::ZERO)
                        .map(|h| h.t)
                })
                .collect();
            let theirs: Vec<Option<f32>> = pairs
                .iter()
                .map(|p| {
                    parry3d::query::cast_shapes(
                        &far_q(p),
                        mv(p).1,
                        &$parry_a,
                        &p.qb,
                        p3::Vector::ZERO,
                        &$parry_b,
                        options,
                    )
                    .unwrap()
                    .map(|h| h.time_of_impact)
                })
                .collect();
            row(
                $name,
                time(&pairs, |p| {
                    d3::cast_shape(&$ours_a, &far(p), mv(p).0, &$ours_b, &p.pb, Vec3::ZERO)
                        .map_or(0.0, |h| h.t)
                }),
                time(&pairs, |p| {
                    parry3d::query::cast_shapes(
                        &far_q(p),
                        mv(p).1,
                        &$parry_a,
                        &p.qb,
                        p3::Vector::ZERO,
                        &$parry_b,
                        options,
                    )
                    .unwrap()
                    .map_or(0.0, |h| h.time_of_impact)
                }),
                disagreements(&ours, &theirs),
            );
        }};
    }
    cast_row!(
        "3D shape cast, sphere to box",
        ours_ball,
        ours_box,
        parry_ball,
        parry_box
    );
    cast_row!(
        "3D shape cast, capsule to polyhedron",
        ours_cap,
        ours_poly,
        parry_cap,
        parry_poly
    );
}
