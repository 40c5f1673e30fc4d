//! Rays against any convex shape, and the rule of a hit that every ray
//! cast in the narrow phase keeps, closed forms and general cast alike.
//!
//! **The hit rule.** A ray hits a shape where it first passes into it: a
//! shape with area (2D) or volume (3D) when the ray reaches its interior,
//! a flat one (a segment, a flat polygon or box) when the ray crosses it
//! from one side to the other. A ray that only touches the boundary misses:
//! one running along a face or an edge, tangent to a curved side, or
//! through a corner only. This is the broad phase's rule for a ray and a
//! box (see [`Ray`]), and the rule of shape casts that slide along a
//! contact. Within rounding (a millionth of the shape's size) a graze may
//! go either way, but a hit always lies on the shape.
//!
//! The general cast finds the first touch by the GJK ray cast
//! (`gjk_cast.rs`); whether the ray passes in there is one more cast, back
//! from beyond the shape, and a depth query halfway between the two
//! touches: the points between where a ray enters and leaves a convex
//! shape are all inside it, or all on its boundary.

use super::cast::RayCast;
use super::dim::Dim;
use super::general::{at_most, bounds, cast_by_advancement, contact};
use super::gjk::{MinkowskiSupport, Point, Vertex};
use super::gjk_cast::{Feature, gjk_cast};
use super::placement::Placement;
use super::point::{Wide, from_p, normalized, to_p};
use super::shapes::Cuboid;
use super::support::Support;
use crate::geometry::{Aabb, Ray, Vector};

/// A ray against any convex shape: the GJK ray cast with the shape's
/// radius as its margin, or, when that does not settle, a point cast
/// along the ray by conservative advancement, up to where the ray leaves
/// the shape's bounds.
pub(crate) fn cast_ray<L: Placement>(
    ray: &Ray<L::V>,
    shape: &(impl Support<L::V> + ?Sized),
    pose: &L,
) -> Option<RayCast<L::V>> {
    if let Some(answer) = ray_by_gjk(ray, shape, pose) {
        return answer;
    }
    let point = PointCore;
    let start = L::at(ray.origin());
    if contact(&point, &start, shape, pose).depth > 0.0 {
        return Some(started_inside(ray));
    }
    let reach = ray.max_t().min(exit_of_bounds(ray, &bounds(shape, pose))?);
    let d = ray.direction();
    let motion = L::V::from_axes(|k| d.axis(k) * reach);
    let zero = L::V::from_axes(|_| 0.0);
    let hit = cast_by_advancement(&point, &start, motion, shape, pose, zero)?;
    let t = hit.t * reach;
    let n = hit.contact.normal;
    // Along the boundary is a miss here too (see the module's rule).
    let support = core_support(shape);
    let local = LocalRay::new(ray, shape, pose, &support);
    let facing = pose.unrotate_wide(to_p(n)) * (-1.0);
    let depth_at = |m: Wide<L::V>| point_depth::<L>(shape, from_p(m));
    let unknown = Feature::Unknown;
    if local.passes_into(&support, f64::from(t), Some(facing), unknown, depth_at) == Some(false) {
        return None;
    }
    Some(RayCast {
        t,
        normal: L::V::from_axes(|k| -n.axis(k)),
        point: ray.at(t),
    })
}

/// A ray against a convex shape by the GJK ray cast (`gjk_cast.rs`) in the
/// shape's frame, its radius the margin. `Some(answer)`, or `None` when it
/// did not settle.
fn ray_by_gjk<L: Placement>(
    ray: &Ray<L::V>,
    shape: &(impl Support<L::V> + ?Sized),
    pose: &L,
) -> Option<Option<RayCast<L::V>>> {
    let support = core_support(shape);
    let local = LocalRay::new(ray, shape, pose, &support);
    let (s, r, margin, tolerance) = (local.start, local.direction, local.margin, local.tolerance);
    let max_t = f64::from(ray.max_t());
    let Some(stop) = gjk_cast(&support, s, r, max_t, margin, tolerance)? else {
        return Some(None);
    };
    let depth_at = |m: Wide<L::V>| point_depth::<L>(shape, from_p(m));
    if stop.lambda == 0.0 {
        // The origin is within the tolerance of the core's hull of the
        // cast's support points (a sharp core: inside it, or touching);
        // within the margin of a rounded core, inside. Just outside the
        // margin, or a hull estimate not yet tight, is left to the contact
        // query (`cast_ray`'s fallback): a point inside a sharp core can be
        // as near a line of its support points, so `distance` alone cannot
        // say that it is outside. On a sharp core's boundary, the ray must
        // still pass in (not along a face, nor out).
        if margin > 0.0 {
            return (stop.distance <= margin).then(|| Some(started_inside(ray)));
        }
        let enters = local.passes_into(&support, 0.0, None, Feature::Unknown, depth_at)?;
        return Some(enters.then(|| started_inside(ray)));
    }
    if !stop.touched {
        // A graze: the ray came within the tolerance of the shape and left
        // without reaching it. A miss, as in the closed forms.
        return Some(None);
    }
    if local.passes_into(
        &support,
        stop.lambda,
        Some(stop.normal),
        stop.feature,
        depth_at,
    ) == Some(false)
    {
        return Some(None); // along the boundary (see the module's rule)
    }
    let t = at_most(stop.lambda);
    Some(Some(RayCast {
        t,
        normal: pose.rotate(from_p(stop.normal)),
        point: ray.at(t),
    }))
}

/// How far the local point `p` lies inside `shape` at rest at the origin
/// (negative: outside).
fn point_depth<L: Placement>(shape: &(impl Support<L::V> + ?Sized), p: L::V) -> f64 {
    let zero = L::V::from_axes(|_| 0.0);
    f64::from(contact(&PointCore, &L::at(p), shape, &L::at(zero)).depth)
}

/// A ray in a shape's frame, in f64: `start + lambda direction`, against
/// the shape's core grown by `margin`, cast to `tolerance` (0: the cast's
/// own floor).
struct LocalRay<P> {
    start: P,
    direction: P,
    margin: f64,
    tolerance: f64,
}

/// The supports of a shape's core in its own frame, in f64.
fn core_support<V: Dim>(
    shape: &(impl Support<V> + ?Sized),
) -> impl Fn(Wide<V>) -> Vertex<Wide<V>> + '_ {
    |d: Wide<V>| {
        let p = to_p(shape.support(from_p(d)));
        Vertex {
            w: p,
            a: p,
            b: Point::ZERO,
        }
    }
}

impl<P: Point> LocalRay<P> {
    /// `ray` in the frame of `shape` at `pose` (its core's supports
    /// `support`), in f64, where its supports need no transform (a far
    /// origin keeps its digits). The tolerance: for a sharp shape the
    /// cast's own floor (1e-7 of the numbers involved); for a rounded one
    /// a millionth of the radius and the origin's distance from the core
    /// (not from the shape's own origin, which may lie far from its core),
    /// as a margin met at a grazing angle converges slowly.
    fn new<L: Placement<V: Dim<P = P>>>(
        ray: &Ray<L::V>,
        shape: &(impl Support<L::V> + ?Sized),
        pose: &L,
        support: &impl MinkowskiSupport<P>,
    ) -> Self {
        let offset = (to_p(ray.origin())) - (to_p(pose.position()));
        let start = pose.unrotate_wide(offset);
        let margin = f64::from(shape.radius());
        let tolerance = if margin > 0.0 {
            let apart = start - support.support(start).w;
            1e-6 * (margin + apart.dot(apart).sqrt())
        } else {
            0.0
        };
        LocalRay {
            start,
            direction: pose.unrotate_wide(to_p(ray.direction())),
            margin,
            tolerance,
        }
    }

    /// Whether the ray, which first meets the shape at `lambda_in` (with
    /// `normal_in`, from the shape toward the ray's start, and the core's
    /// `feature` there; neither for a ray that starts on the shape),
    /// passes into it rather than only along its boundary (see the
    /// module's rule). The ray misses the interior exactly when a plane
    /// that supports the shape at the touch holds the ray. Where the
    /// normal is the only one (a rounded surface, a face's inside), that
    /// plane is the normal's; across an edge, the plane through the edge
    /// along the ray; in 2D, one of the two lines along the ray. Within a
    /// billionth of the numbers involved a plane counts as supporting. A
    /// corner in 3D, or a ray starting on the shape, is settled by
    /// [`LocalRay::through`]; `None` when that did not settle.
    fn passes_into(
        &self,
        support: &impl MinkowskiSupport<P>,
        lambda_in: f64,
        normal_in: Option<P>,
        feature: Feature<P>,
        depth_at: impl Fn(P) -> f64,
    ) -> Option<bool> {
        let Some(r) = normalized(self.direction) else {
            return Some(true); // a point: touching is all it can do
        };
        let Some(normal) = normal_in else {
            return self.through(support, lambda_in, None, depth_at);
        };
        let entry = self.start + (self.direction * lambda_in);
        // The numbers involved. Across the ray (where the planes below are
        // measured) the entry is exact to f64's rounding of them, wherever
        // along the ray the cast stopped.
        let entry_size = entry.dot(entry).sqrt() + self.start.dot(self.start).sqrt() + self.margin;
        // Whether the plane across `m` through the entry supports the shape
        // (within a billionth of the numbers involved).
        let holds = |m: P| {
            normalized(m).is_some_and(|m| {
                let p = support.support(m).w;
                let gap = m.dot(p) + self.margin - m.dot(entry);
                gap <= 1e-9 * (p.dot(p).sqrt() + entry_size)
            })
        };
        if P::DIM == 2 {
            // The two lines along the ray through the entry.
            let side = P::from_axes(|k| match k {
                0 => -r.axis(1),
                1 => r.axis(0),
                _ => 0.0,
            });
            return Some(!(holds(side) || holds(side * (-1.0))));
        }
        // The only plane along the ray that can hold it where the normal
        // there is one (a rounded surface, a face's inside): the normal's.
        let tangent = || normal.dot(r) > -1e-3 && holds(normal - (r * normal.dot(r)));
        if self.margin > 0.0 {
            return Some(!tangent());
        }
        match feature {
            Feature::Face => Some(!tangent()),
            Feature::Edge(e) => {
                let beside = e.cross(r);
                if beside.dot(beside) <= 1e-12 * e.dot(e) {
                    return Some(false); // along the edge itself
                }
                Some(!(holds(beside) || holds(beside * (-1.0))))
            }
            Feature::Vertex | Feature::Unknown => {
                // A corner's normals span a cone: the planes along the ray
                // through the normal and across it find the usual cases;
                // the chord settles the rest.
                let across = normal.cross(r);
                let along = normal - (r * normal.dot(r));
                if holds(along) || holds(across) || holds(across * (-1.0)) {
                    return Some(false);
                }
                self.through(support, lambda_in, Some(normal), depth_at)
            }
        }
    }

    /// [`LocalRay::passes_into`] by the chord: the ray cast back from
    /// beyond the shape finds where it leaves; between the two, a point
    /// deeper than a millionth of the shape's reach is inside, and two
    /// opposite normals across which the shape has no width (within that)
    /// are a crossing of a flat shape. `None` when the cast back did not
    /// settle.
    fn through(
        &self,
        support: &impl MinkowskiSupport<P>,
        lambda_in: f64,
        normal_in: Option<P>,
        depth_at: impl Fn(P) -> f64,
    ) -> Option<bool> {
        let length = self.direction.dot(self.direction).sqrt();
        let radius = self.reach_of(support);
        let threshold = 1e-6 * radius;
        let entry = self.start + (self.direction * lambda_in);
        // Beyond the shape: farther from its origin than any of its points.
        let beyond = 2.0 * (radius + entry.dot(entry).sqrt()) / length;
        let far = entry + (self.direction * beyond);
        let back = gjk_cast(
            support,
            far,
            self.direction * (-1.0),
            2.0 * beyond,
            self.margin,
            self.tolerance,
        )?;
        let (lambda_out, normal_out) = match back {
            Some(stop) if stop.lambda > 0.0 => (
                lambda_in + (beyond - stop.lambda).max(0.0),
                Some(stop.normal),
            ),
            _ => (lambda_in, None),
        };
        let flat = |n: P| {
            let across = n.dot(support.support(n).w) - n.dot(support.support(n * (-1.0)).w);
            across + 2.0 * self.margin <= threshold
        };
        let crossed = match (normal_in, normal_out) {
            (Some(a), Some(b)) => a.dot(b) < 0.0 && flat(a) && flat(b),
            (None, Some(b)) => b.dot(self.direction) > 0.0 && flat(b),
            (Some(a), None) => flat(a),
            (None, None) => false,
        };
        if crossed {
            return Some(true);
        }
        let middle = self.start + (self.direction * (0.5 * (lambda_in + lambda_out)));
        Some(depth_at(middle) > threshold)
    }

    /// A bound on the distance of the grown core's points from the local
    /// origin, from its supports along the axes.
    fn reach_of(&self, support: &impl MinkowskiSupport<P>) -> f64 {
        let corner = P::from_axes(|k| {
            let axis = P::from_axes(|j| if j == k { 1.0 } else { 0.0 });
            let high = support.support(axis).w.axis(k);
            let low = support.support(axis * (-1.0)).w.axis(k);
            high.abs().max(low.abs())
        });
        corner.dot(corner).sqrt() + self.margin
    }
}

/// A ray against a box at `pose`: the slabs of its axes in its own frame
/// (f64). A ray along a face misses; one starting inside enters at 0. A
/// flat box (a half extent of 0) has no slab to enter: the general cast
/// answers whether the ray crosses it.
pub(crate) fn cast_ray_box<L: Placement>(
    ray: &Ray<L::V>,
    cuboid: &Cuboid<L::V>,
    pose: &L,
) -> Option<RayCast<L::V>> {
    let half = cuboid.half_extents;
    if (0..L::V::DIM).any(|k| half.axis(k) == 0.0) {
        return cast_ray(ray, cuboid, pose);
    }
    // In the box's frame: the origin's offset in f64 (exact, however far
    // both lie from the world's origin), then turned in f32 (good to the
    // offset's own digits).
    let offset = (to_p(ray.origin())) - pose.position_wide();
    let local_origin = pose.unrotate(from_p(offset));
    let coordinates = |v: L::V| -> [f64; 3] {
        std::array::from_fn(|k| {
            if k < L::V::DIM {
                f64::from(v.axis(k))
            } else {
                0.0
            }
        })
    };
    let (o, d, h) = (
        coordinates(local_origin),
        coordinates(pose.unrotate(ray.direction())),
        coordinates(half),
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
        normal: pose.rotate(L::V::from_axes(|k| entry_normal[k] as f32)),
        point: ray.at(t),
    })
}

/// A point: the core of a ray's cast.
struct PointCore;

impl<V: Vector> Support<V> for PointCore {
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
pub(crate) fn started_inside<V: Dim>(ray: &Ray<V>) -> RayCast<V> {
    let d = to_p(ray.direction());
    let len = d.dot(d).sqrt();
    let back = if len > 0.0 {
        d * (-1.0 / len)
    } else {
        Point::ZERO
    };
    RayCast {
        t: 0.0,
        normal: from_p(back),
        point: ray.origin(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::narrow::d2::{Cuboid, Polygon, Pose, cast_ray_polygon};
    use crate::test_rng::TestRng;
    use glam::Vec2;

    #[test]
    fn the_gjk_ray_cast_settles_and_agrees_with_the_polygon_clip() {
        let mut rng = TestRng::new(89);
        let (mut settled, mut hits) = (0, 0);
        for k in 0..2000 {
            let points: Vec<Vec2> = (0..6).map(|_| rng.in_square()).collect();
            let Ok(polygon) = Polygon::new(&points) else {
                continue;
            };
            let pose = Pose::new(rng.in_square(), rng.range(-3.0, 3.0)).unwrap();
            let origin = Vec2::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0));
            let toward = rng.in_square() - origin;
            let ray = Ray::new(origin, toward, rng.range(0.3, 2.0)).unwrap();
            let Some(answer) = ray_by_gjk(&ray, &polygon, &pose) else {
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
