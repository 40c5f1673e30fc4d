//! The narrow phase's general algorithms, written once for 2D and 3D over
//! [`Placement`]: the contact of any two convex shapes (GJK, then EPA),
//! casts of shapes and rays by conservative advancement, and bounding
//! boxes from supports.

use super::cast::{RayCast, ShapeCast, advance};
use super::contact::Contact;
use super::gjk::{Gjk, P, Simplex, Vertex, add, cross, dot, gjk, nearest_any, neg, scale, sub};
use super::placement::{Frame, Placement, from_p, to_p};
use super::support::Support;
use crate::geometry::{Aabb, Ray, Vector};

/// The support of `A - B` for two placed shapes' cores, in A's frame
/// (`b_in_a` places B there, see [`Placement::relative`]): A's supports
/// need no transform and B's one. The difference is in f64, where the f32
/// points are exact, so a gap far smaller than the coordinates keeps its
/// digits.
pub(crate) fn minkowski<'s, F: Frame + 's>(
    a: &'s (impl Support<F::V> + ?Sized),
    b: &'s (impl Support<F::V> + ?Sized),
    b_in_a: F,
) -> impl Fn(P) -> Vertex + 's {
    move |d: P| {
        let d: F::V = from_p(d);
        let back = F::V::from_axes(|k| -d.axis(k));
        let pa = to_p(a.support(d));
        let pb = to_p(b_in_a.apply(b.support(b_in_a.unrotate(back))));
        Vertex {
            w: sub(pa, pb),
            a: pa,
            b: pb,
        }
    }
}

/// The contact of any two convex shapes: GJK on the cores, EPA when they
/// overlap, then the radii. Worked out in A's frame, answered in the
/// world's.
pub(crate) fn contact<L: Placement>(
    a: &(impl Support<L::V> + ?Sized),
    pose_a: &L,
    b: &(impl Support<L::V> + ?Sized),
    pose_b: &L,
) -> Contact<L::V> {
    let b_in_a = pose_a.relative(pose_b);
    let shapes = minkowski(a, b, b_in_a);
    let (ra, rb) = (f64::from(a.radius()), f64::from(b.radius()));
    // From A's origin toward B's, in A's frame.
    let between = to_p(b_in_a.origin());
    let (depth, normal, pa, pb) = match gjk(L::V::DIM, &shapes, neg(between)) {
        Gjk::Separated(simplex) => {
            let p = simplex.point();
            let gap = sub(p.b, p.a);
            let d = dot(gap, gap).sqrt();
            if d > 0.0 {
                (-d, scale(gap, 1.0 / d), p.a, p.b)
            } else {
                overlapping::<L>(&shapes, &simplex, between)
            }
        }
        Gjk::Overlapping(simplex) => overlapping::<L>(&shapes, &simplex, between),
    };
    Contact {
        normal: pose_a.rotate(from_p(normal)),
        depth: (depth + ra + rb) as f32,
        point_a: pose_a.apply(from_p(add(pa, scale(normal, ra)))),
        point_b: pose_a.apply(from_p(sub(pb, scale(normal, rb)))),
    }
}

/// The distance between two convex shapes (0 when they touch or
/// overlap): GJK only, no EPA.
pub(crate) fn distance<L: Placement>(
    a: &(impl Support<L::V> + ?Sized),
    pose_a: &L,
    b: &(impl Support<L::V> + ?Sized),
    pose_b: &L,
) -> f32 {
    let b_in_a = pose_a.relative(pose_b);
    let shapes = minkowski(a, b, b_in_a);
    match gjk(L::V::DIM, &shapes, neg(to_p(b_in_a.origin()))) {
        Gjk::Separated(simplex) => {
            let p = simplex.point();
            let between = sub(p.b, p.a);
            let gap = dot(between, between).sqrt() - f64::from(a.radius()) - f64::from(b.radius());
            gap.max(0.0) as f32
        }
        Gjk::Overlapping(_) => 0.0,
    }
}

/// Depth (negative: separation), normal and witnesses of overlapping
/// cores, by EPA, in the frame of `shapes` (`between`: from A's origin
/// toward B's there); cores whose difference has no volume (area in 2D: two
/// segments that meet, a point on a segment) touch with depth 0 along the
/// normal of the difference's flat span, turned toward B.
fn overlapping<L: Placement>(
    shapes: &impl Fn(P) -> Vertex,
    simplex: &Simplex,
    between: P,
) -> (f64, P, P, P) {
    if let Some(pen) = L::penetration(shapes, simplex) {
        return (pen.depth, pen.normal, pen.a, pen.b);
    }
    let normal = flat_normal(L::V::DIM, shapes, between);
    let v = shapes(normal);
    (0.0, normal, v.a, v.b)
}

/// A unit normal to a difference without volume: across its plane (3D),
/// or across its line, leaning toward `between` (the poses' offset); the
/// sign makes it point along `between` when that has a part across.
fn flat_normal(dim: usize, shapes: &impl Fn(P) -> Vertex, between: P) -> P {
    let unit = |v: P| {
        let len = dot(v, v).sqrt();
        (len > 0.0).then(|| scale(v, 1.0 / len))
    };
    // The span, from supports along the axes and the diagonals.
    let mut points: Vec<P> = Vec::new();
    for k in 0..dim {
        for sign in [1.0, -1.0] {
            let mut d = [0.0; 3];
            d[k] = sign;
            points.push(shapes(d).w);
        }
    }
    points.push(shapes([1.0, 1.0, if dim == 3 { 1.0 } else { 0.0 }]).w);
    points.push(shapes([-1.0, 1.0, if dim == 3 { -1.0 } else { 0.0 }]).w);
    let p0 = points[0];
    let far = |score: &dyn Fn(P) -> f64| {
        points
            .iter()
            .copied()
            .max_by(|a, b| score(*a).total_cmp(&score(*b)))
            .unwrap_or(p0)
    };
    let p1 = far(&|p| dot(sub(p, p0), sub(p, p0)));
    let line = unit(sub(p1, p0));
    let across = |v: P, u: P| sub(v, scale(u, dot(v, u)));
    let candidate = match line {
        None => unit(between),
        Some(u) => {
            let p2 = far(&|p| {
                let a = across(sub(p, p0), u);
                dot(a, a)
            });
            let width = across(sub(p2, p0), u);
            let length = dot(sub(p1, p0), sub(p1, p0)).sqrt();
            if dim == 3 && dot(width, width).sqrt() > 1e-9 * length {
                unit(cross(u, width))
            } else if dim == 2 {
                Some([-u[1], u[0], 0.0])
            } else {
                // A line in 3D: across it toward B, or any direction across.
                unit(across(between, u))
                    .or_else(|| unit(cross(u, [1.0, 0.0, 0.0])))
                    .or_else(|| unit(cross(u, [0.0, 1.0, 0.0])))
            }
        }
    };
    let n = candidate.unwrap_or([0.0, 1.0, 0.0]);
    if dot(n, between) < 0.0 {
        scale(n, -1.0)
    } else {
        n
    }
}

/// When shape `a`, moving by `motion_a`, first touches `b`, moving by
/// `motion_b`: conservative advancement on [`contact`], with a tolerance
/// of a hundred-thousandth of the relative motion or of the smaller shape
/// (whichever is larger), never of the larger one.
pub(crate) fn cast_shape<L: Placement>(
    a: &(impl Support<L::V> + ?Sized),
    pose_a: &L,
    motion_a: L::V,
    b: &(impl Support<L::V> + ?Sized),
    pose_b: &L,
    motion_b: L::V,
) -> Option<ShapeCast<L::V>> {
    let relative = L::V::from_axes(|k| motion_b.axis(k) - motion_a.axis(k));
    let size = |bounds: Aabb<L::V>| {
        (0..L::V::DIM)
            .map(|k| bounds.max().axis(k) - bounds.min().axis(k))
            .fold(0.0f32, f32::max)
    };
    let smaller = size(bounds(a, pose_a)).min(size(bounds(b, pose_b)));
    let largest = |v: L::V| {
        (0..L::V::DIM)
            .map(|k| v.axis(k).abs())
            .fold(0.0f32, f32::max)
    };
    let moved = |pose: &L, motion: L::V, t: f32| {
        let p = pose.position();
        pose.with_position(L::V::from_axes(|k| p.axis(k) + motion.axis(k) * t))
    };
    let magnitude = [
        pose_a.position(),
        pose_b.position(),
        moved(pose_a, motion_a, 1.0).position(),
        moved(pose_b, motion_b, 1.0).position(),
    ]
    .into_iter()
    .map(largest)
    .fold(0.0f32, f32::max);
    let length = dot(to_p(relative), to_p(relative)).sqrt() as f32;
    let tolerance = (1e-5 * length.max(smaller))
        .max(16.0 * f32::EPSILON * magnitude)
        .max(f32::MIN_POSITIVE);
    advance(relative, tolerance, |t| {
        contact(
            a,
            &moved(pose_a, motion_a, t),
            b,
            &moved(pose_b, motion_b, t),
        )
    })
}

/// A ray against any convex shape: a point cast along it, up to where the
/// ray leaves the shape's bounds.
pub(crate) fn cast_ray<L: Placement>(
    ray: &Ray<L::V>,
    shape: &(impl Support<L::V> + ?Sized),
    pose: &L,
) -> Option<RayCast<L::V>> {
    if shape.radius() == 0.0 {
        if let Some(answer) = gjk_ray(ray, shape, pose) {
            return answer;
        }
    }
    let point = Point;
    let start = L::at(ray.origin());
    if contact(&point, &start, shape, pose).depth > 0.0 {
        return Some(started_inside(ray));
    }
    let reach = ray.max_t().min(exit_of_bounds(ray, &bounds(shape, pose))?);
    let d = ray.direction();
    let motion = L::V::from_axes(|k| d.axis(k) * reach);
    let zero = L::V::from_axes(|_| 0.0);
    let hit = cast_shape(&point, &start, motion, shape, pose, zero)?;
    let t = hit.t * reach;
    let n = hit.contact.normal;
    Some(RayCast {
        t,
        normal: L::V::from_axes(|k| -n.axis(k)),
        point: ray.at(t),
    })
}

/// A ray against a sharp convex shape by the GJK ray cast (van den Bergen,
/// "Ray Casting against General Convex Objects"): a point `x` walks along
/// the ray to the plane of each support that separates it from the shape,
/// while GJK keeps the shape's point nearest `x`; when they meet, `x` is
/// the entry. `Some(answer)`, or `None` when it did not settle within its
/// iterations (the caller then advances conservatively).
fn gjk_ray<L: Placement>(
    ray: &Ray<L::V>,
    shape: &(impl Support<L::V> + ?Sized),
    pose: &L,
) -> Option<Option<RayCast<L::V>>> {
    // In the shape's frame, where its supports need no transform: the ray's
    // origin there (offset in f64, rounded once) and its direction.
    let support = |d: P| -> P { to_p(shape.support(from_p(d))) };
    let offset = sub(to_p(ray.origin()), to_p(pose.position()));
    let s = to_p(pose.unrotate(from_p(offset)));
    let r = to_p(pose.unrotate(ray.direction()));
    let max_t = f64::from(ray.max_t());
    let (mut lambda, mut x, mut n) = (0.0f64, s, [0.0f64; 3]);
    let first = support(r);
    let mut simplex = Simplex::default();
    let mut v = sub(x, first);
    let size_sq = dot(first, first).max(dot(s, s)).max(1e-30);
    let epsilon_sq = 1e-14 * size_sq;
    for _ in 0..64 {
        if dot(v, v) <= epsilon_sq {
            if lambda > max_t {
                return Some(None);
            }
            if lambda == 0.0 {
                return Some(Some(started_inside(ray)));
            }
            let len = dot(n, n).sqrt();
            if len == 0.0 {
                return None;
            }
            let t = lambda as f32;
            return Some(Some(RayCast {
                t,
                normal: pose.rotate(from_p(scale(n, 1.0 / len))),
                point: ray.at(t),
            }));
        }
        let p = support(v);
        let w = sub(x, p);
        let vw = dot(v, w);
        if vw > 0.0 {
            let vr = dot(v, r);
            if vr >= 0.0 {
                return Some(None);
            }
            lambda -= vw / vr;
            if lambda > max_t {
                return Some(None);
            }
            x = add(s, scale(r, lambda));
            n = v;
        }
        // The simplex holds shape points; its differences from x move with x.
        if simplex.vertices().iter().any(|q| q.a == p) {
            if vw <= 0.0 {
                // No new point and no progress: x is as near as rounding
                // allows.
                let shrunk = dot(v, v);
                if shrunk <= epsilon_sq * 1e6 {
                    v = [0.0; 3];
                    continue;
                }
                return None;
            }
        } else {
            if simplex.len == 4 {
                return None;
            }
            simplex.vertices[simplex.len] = Vertex {
                w: [0.0; 3],
                a: p,
                b: [0.0; 3],
            };
            simplex.len += 1;
        }
        for q in &mut simplex.vertices[..simplex.len] {
            q.w = sub(x, q.a);
        }
        let face = nearest_any(&simplex)?;
        simplex = simplex.picked(&face);
        if face.len == L::V::DIM + 1 {
            // x is inside the shape's hull of these points: on the ray at
            // lambda, where it entered (or inside from the start).
            v = [0.0; 3];
            continue;
        }
        v = simplex.nearest_w();
    }
    None
}

/// A ray against a box of half extents `half` at `pose`: the slabs of its
/// axes in its own frame (f64). A ray along a face misses; one starting
/// inside enters at 0.
pub(crate) fn cast_ray_box<L: Placement>(
    ray: &Ray<L::V>,
    half: L::V,
    pose: &L,
) -> Option<RayCast<L::V>> {
    let p = pose.position();
    let local_origin = pose.unrotate(L::V::from_axes(|k| ray.origin().axis(k) - p.axis(k)));
    let (o, d, h) = (
        to_p(local_origin),
        to_p(pose.unrotate(ray.direction())),
        to_p(half),
    );
    let (mut enter, mut exit) = (f64::NEG_INFINITY, f64::INFINITY);
    let mut entry_normal = [0.0; 3];
    for k in 0..L::V::DIM {
        if d[k] == 0.0 {
            // Parallel: strictly between the slab's planes, or a miss.
            if !(o[k] > -h[k] && o[k] < h[k]) {
                return None;
            }
            continue;
        }
        let (t0, t1) = ((-h[k] - o[k]) / d[k], (h[k] - o[k]) / d[k]);
        let (near, far) = if t0 < t1 { (t0, t1) } else { (t1, t0) };
        if near > enter {
            enter = near;
            entry_normal = [0.0; 3];
            entry_normal[k] = -d[k].signum();
        }
        exit = exit.min(far);
    }
    if enter >= exit || exit <= 0.0 {
        return None;
    }
    if enter < 0.0 {
        return Some(started_inside(ray));
    }
    let t = enter as f32;
    if t > ray.max_t() {
        return None;
    }
    Some(RayCast {
        t,
        normal: pose.rotate(from_p(entry_normal)),
        point: ray.at(t),
    })
}

/// A point: the core of a ray's cast.
struct Point;

impl<V: Vector> Support<V> for Point {
    fn support(&self, _direction: V) -> V {
        V::from_axes(|_| 0.0)
    }
}

/// Where the ray leaves `aabb` (`None` if it is never inside it).
fn exit_of_bounds<V: Vector>(ray: &Ray<V>, aabb: &Aabb<V>) -> Option<f32> {
    let (o, d) = (ray.origin(), ray.direction());
    let mut exit = f32::INFINITY;
    for k in 0..V::DIM {
        let (ok, dk) = (o.axis(k), d.axis(k));
        if dk > 0.0 {
            exit = exit.min((aabb.max().axis(k) - ok) / dk);
        } else if dk < 0.0 {
            exit = exit.min((aabb.min().axis(k) - ok) / dk);
        } else if !(aabb.min().axis(k) <= ok && ok <= aabb.max().axis(k)) {
            return None;
        }
    }
    (exit.is_finite() && exit >= 0.0).then_some(exit)
}

/// The answer for a ray that starts inside the shape: t = 0, the normal
/// against the ray.
pub(crate) fn started_inside<V: Vector>(ray: &Ray<V>) -> RayCast<V> {
    let d = to_p(ray.direction());
    let len = dot(d, d).sqrt();
    let back = if len > 0.0 {
        scale(d, -1.0 / len)
    } else {
        [0.0; 3]
    };
    RayCast {
        t: 0.0,
        normal: from_p(back),
        point: ray.origin(),
    }
}

/// The bounding box of any shape at `pose`, from its supports along the
/// axes, grown by its radius and widened by a little rounding slack so it
/// never cuts the shape.
pub(crate) fn bounds<L: Placement>(shape: &(impl Support<L::V> + ?Sized), pose: &L) -> Aabb<L::V> {
    let r = shape.radius();
    let unit = |k: usize, sign: f32| L::V::from_axes(|j| if j == k { sign } else { 0.0 });
    let along = |k: usize, sign: f32| {
        let p = pose.apply(shape.support(pose.unrotate(unit(k, sign))));
        sign * p.axis(k)
    };
    let hi: [f32; 3] = std::array::from_fn(|k| {
        if k < L::V::DIM {
            along(k, 1.0) + r
        } else {
            0.0
        }
    });
    let lo: [f32; 3] = std::array::from_fn(|k| {
        if k < L::V::DIM {
            -along(k, -1.0) - r
        } else {
            0.0
        }
    });
    let slack = |k: usize| (hi[k].abs().max(lo[k].abs()) + r) * (4.0 * f32::EPSILON);
    // Shapes near the ends of the f32 range overflow: saturate (a NaN, from
    // infinities meeting, widens to the whole range).
    let low = |k: usize| {
        let x = lo[k] - slack(k);
        if x.is_nan() {
            f32::MIN
        } else {
            x.max(f32::MIN)
        }
    };
    let high = |k: usize| {
        let x = hi[k] + slack(k);
        if x.is_nan() {
            f32::MAX
        } else {
            x.min(f32::MAX)
        }
    };
    let (min, max) = (L::V::from_axes(low), L::V::from_axes(high));
    Aabb::new(min, max).unwrap_or_else(|_| {
        Aabb::new(L::V::from_axes(|_| f32::MIN), L::V::from_axes(|_| f32::MAX))
            .expect("the f32 range is a valid box")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::narrow::d2::{Cuboid, Polygon, Pose, cast_ray_polygon};
    use crate::scene::SceneRng;
    use glam::Vec2;

    #[test]
    fn the_gjk_ray_cast_settles_and_agrees_with_the_polygon_clip() {
        let mut rng = SceneRng::new(89);
        let (mut settled, mut hits) = (0, 0);
        for k in 0..2000 {
            let points: Vec<Vec2> = (0..6)
                .map(|_| Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)))
                .collect();
            let Ok(polygon) = Polygon::new(&points) else {
                continue;
            };
            let pose = Pose::new(
                Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)),
                rng.range(-3.0, 3.0),
            )
            .unwrap();
            let origin = Vec2::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0));
            let toward = Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)) - origin;
            let ray = Ray::new(origin, toward, rng.range(0.3, 2.0)).unwrap();
            let Some(answer) = gjk_ray(&ray, &polygon, &pose) else {
                continue;
            };
            settled += 1;
            let clip = cast_ray_polygon(&ray, &polygon, &pose);
            match (answer, clip) {
                (Some(x), Some(y)) => {
                    assert!((x.t - y.t).abs() < 1e-4, "ray {k}: {x:?} / {y:?}");
                    if x.t > 0.0 {
                        assert!(x.normal.dot(y.normal) > 0.99, "ray {k}: {x:?} / {y:?}");
                    }
                    hits += 1;
                }
                (None, None) => {}
                (x, y) => {
                    // Only a graze or the ray's very end may differ.
                    let h = x.or(y).unwrap();
                    let len = toward.length();
                    assert!(
                        (h.t - ray.max_t()).abs() * len < 1e-4
                            || h.normal.dot(toward).abs() < 1e-3 * len,
                        "ray {k}: gjk {x:?}, clip {y:?}"
                    );
                }
            }
        }
        assert!(
            settled > 1900 && hits > 500,
            "{settled} settled, {hits} hits"
        );
        // A box: the same through the general entry point.
        let unit = Cuboid::new(Vec2::ONE).unwrap();
        let ray = Ray::new(Vec2::new(-3.0, 0.5), Vec2::X, 10.0).unwrap();
        let hit = cast_ray(&ray, &unit, &Pose::IDENTITY).unwrap();
        assert!((hit.t - 2.0).abs() < 1e-6 && (hit.normal + Vec2::X).length() < 1e-6);
    }
}
