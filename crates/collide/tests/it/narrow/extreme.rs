//! Extreme finite inputs for every narrow-phase function: sizes, places,
//! motions and turns drawn from 0, the tiniest normal numbers, ordinary
//! values and up to `f32::MAX`, in both signs. Every function must return
//! (no panic); a ray or cast that reports a hit reports a time in its
//! range; `cast_turning` answers with a finite time or an error.

use collide::geometry::Ray;
use collide::narrow::{d2, d3};
use collide_scenes::SceneRng;
use glam::{Quat, Vec2, Vec3};

/// Cases per dimension.
const CASES: usize = 3_000;

/// A magnitude from the extremes and the ordinary, with a random sign.
fn extreme(rng: &mut SceneRng) -> f32 {
    const LADDER: [f32; 9] = [
        0.0,
        f32::MIN_POSITIVE,
        1e-30,
        1e-7,
        1.0,
        1e10,
        1e30,
        f32::MAX / 4.0,
        f32::MAX,
    ];
    let v = LADDER[rng.below(LADDER.len())];
    if rng.below(2) == 0 { v } else { -v }
}

fn size(rng: &mut SceneRng) -> f32 {
    extreme(rng).abs()
}

fn v2(rng: &mut SceneRng) -> Vec2 {
    Vec2::new(extreme(rng), extreme(rng))
}

fn v3(rng: &mut SceneRng) -> Vec3 {
    Vec3::new(extreme(rng), extreme(rng), extreme(rng))
}

/// A hit's time lies in its range (or the answer is `None`).
fn in_range(t: Option<f32>, max: f32, what: &str) {
    if let Some(t) = t {
        assert!(
            (0.0..=max).contains(&t),
            "{what}: t = {t} outside [0, {max}]"
        );
    }
}

fn shapes_2d(rng: &mut SceneRng) -> Vec<Box<dyn collide::narrow::Support<Vec2>>> {
    let mut out: Vec<Box<dyn collide::narrow::Support<Vec2>>> = Vec::new();
    if let Ok(s) = d2::Circle::new(size(rng)) {
        out.push(Box::new(s));
    }
    if let Ok(s) = d2::Cuboid::new(Vec2::new(size(rng), size(rng))) {
        out.push(Box::new(s));
    }
    if let Ok(s) = d2::Capsule::new(size(rng), size(rng)) {
        out.push(Box::new(s));
    }
    out
}

fn shapes_3d(rng: &mut SceneRng) -> Vec<Box<dyn collide::narrow::Support<Vec3>>> {
    let mut out: Vec<Box<dyn collide::narrow::Support<Vec3>>> = Vec::new();
    if let Ok(s) = d3::Sphere::new(size(rng)) {
        out.push(Box::new(s));
    }
    if let Ok(s) = d3::Cuboid::new(Vec3::new(size(rng), size(rng), size(rng))) {
        out.push(Box::new(s));
    }
    if let Ok(s) = d3::Capsule::new(size(rng), size(rng)) {
        out.push(Box::new(s));
    }
    out
}

#[test]
fn every_2d_function_returns_on_extreme_finite_input() {
    let mut calls = 0usize;
    let mut rng = SceneRng::new(71);
    for _ in 0..CASES {
        let (a, b) = (shapes_2d(&mut rng), shapes_2d(&mut rng));
        let (Ok(pa), Ok(pb)) = (
            d2::Pose::new(v2(&mut rng), extreme(&mut rng)),
            d2::Pose::new(v2(&mut rng), extreme(&mut rng)),
        ) else {
            continue;
        };
        let (motion_a, motion_b, turn) = (v2(&mut rng), v2(&mut rng), extreme(&mut rng));
        let max_t = size(&mut rng);
        let ray = Ray::new(pa.position(), v2(&mut rng), max_t).ok();
        for x in &a {
            for y in &b {
                calls += 1;
                let _ = d2::contact(x.as_ref(), &pa, y.as_ref(), &pb);
                let _ = d2::distance(x.as_ref(), &pa, y.as_ref(), &pb);
                let cast = d2::cast_shape(x.as_ref(), &pa, motion_a, y.as_ref(), &pb, motion_b);
                in_range(cast.map(|c| c.t), 1.0, "cast_shape");
                if let Ok(Some(hit)) =
                    d2::cast_turning(x.as_ref(), &pa, motion_a, turn, y.as_ref(), &pb)
                {
                    assert!(hit.t.is_finite() && (0.0..=1.0).contains(&hit.t), "{hit:?}");
                }
            }
            if let Some(ray) = &ray {
                let hit = d2::cast_ray(ray, x.as_ref(), &pb);
                in_range(hit.map(|h| h.t), ray.max_t(), "cast_ray");
            }
        }
        if let Some(ray) = &ray {
            if let Ok(c) = d2::Cuboid::new(Vec2::new(size(&mut rng), size(&mut rng))) {
                in_range(
                    d2::cast_ray_cuboid(ray, &c, &pb).map(|h| h.t),
                    max_t,
                    "cuboid",
                );
                in_range(
                    d2::cast_ray_polygon(ray, &c.to_polygon(), &pb).map(|h| h.t),
                    max_t,
                    "polygon",
                );
            }
            if let Ok(c) = d2::Capsule::new(size(&mut rng), size(&mut rng)) {
                in_range(
                    d2::cast_ray_capsule(ray, &c, &pb).map(|h| h.t),
                    max_t,
                    "capsule",
                );
            }
            if let Ok(c) = d2::Circle::new(size(&mut rng)) {
                in_range(
                    d2::cast_ray_circle(ray, &c, &pb).map(|h| h.t),
                    max_t,
                    "circle",
                );
            }
        }
    }
    assert!(calls > CASES, "only {calls} pairs were built");
}

#[test]
fn every_3d_function_returns_on_extreme_finite_input() {
    let mut calls = 0usize;
    let mut rng = SceneRng::new(73);
    for _ in 0..CASES {
        let (a, b) = (shapes_3d(&mut rng), shapes_3d(&mut rng));
        // Any rotation, its quaternion scaled by a tiny or huge factor
        // (poses normalise it).
        let turned = |rng: &mut SceneRng| {
            let scale = [1.0, 1e-10, 1e10][rng.below(3)];
            let mut c = || rng.range(-1.0, 1.0) * scale;
            Quat::from_xyzw(c(), c(), c(), c())
        };
        let (Ok(pa), Ok(pb)) = (
            d3::Pose::new(v3(&mut rng), turned(&mut rng)),
            d3::Pose::new(v3(&mut rng), turned(&mut rng)),
        ) else {
            continue;
        };
        let (motion_a, motion_b, turn) = (v3(&mut rng), v3(&mut rng), v3(&mut rng));
        let max_t = size(&mut rng);
        let ray = Ray::new(pa.position(), v3(&mut rng), max_t).ok();
        for x in &a {
            for y in &b {
                calls += 1;
                let _ = d3::contact(x.as_ref(), &pa, y.as_ref(), &pb);
                let _ = d3::distance(x.as_ref(), &pa, y.as_ref(), &pb);
                let cast = d3::cast_shape(x.as_ref(), &pa, motion_a, y.as_ref(), &pb, motion_b);
                in_range(cast.map(|c| c.t), 1.0, "cast_shape");
                if let Ok(Some(hit)) =
                    d3::cast_turning(x.as_ref(), &pa, motion_a, turn, y.as_ref(), &pb)
                {
                    assert!(hit.t.is_finite() && (0.0..=1.0).contains(&hit.t), "{hit:?}");
                }
            }
            if let Some(ray) = &ray {
                let hit = d3::cast_ray(ray, x.as_ref(), &pb);
                in_range(hit.map(|h| h.t), ray.max_t(), "cast_ray");
            }
        }
        if let Some(ray) = &ray {
            if let Ok(c) =
                d3::Cuboid::new(Vec3::new(size(&mut rng), size(&mut rng), size(&mut rng)))
            {
                in_range(
                    d3::cast_ray_cuboid(ray, &c, &pb).map(|h| h.t),
                    max_t,
                    "cuboid",
                );
            }
            if let Ok(c) = d3::Capsule::new(size(&mut rng), size(&mut rng)) {
                in_range(
                    d3::cast_ray_capsule(ray, &c, &pb).map(|h| h.t),
                    max_t,
                    "capsule",
                );
            }
            if let Ok(c) = d3::Sphere::new(size(&mut rng)) {
                in_range(
                    d3::cast_ray_sphere(ray, &c, &pb).map(|h| h.t),
                    max_t,
                    "sphere",
                );
            }
        }
    }
    assert!(calls > CASES, "only {calls} pairs were built");
}
