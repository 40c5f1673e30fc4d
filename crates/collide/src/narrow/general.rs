//! The narrow phase's general algorithms, written once for 2D and 3D over
//! [`Placement`]: the contact of any two convex shapes (GJK, then EPA),
//! casts of shapes and rays (the GJK ray cast, conservative advancement
//! as its fallback), and bounding boxes from supports.

use super::cast::{ShapeCast, advance};
use super::contact::Contact;
use super::dim::Dim;
use super::gjk::{Gjk, Point, Simplex, Vertex, gjk};
use super::gjk_cast::gjk_cast;
use super::placement::{Frame, Penetration, Placement};
use super::point::{TRUSTED_GAP, Wide, from_p, normalized, to_p, unit};
use super::support::Support;
use crate::geometry::{Aabb, Vector};

/// The support of `A - B` for two placed shapes' cores, in A's frame
/// (`b_in_a` places B there, see [`Placement::relative`]): A's supports
/// need no transform and B's one. The difference is in f64, where the f32
/// points are exact, so a gap far smaller than the coordinates keeps its
/// digits.
pub(crate) fn minkowski<'s, F: Frame + 's>(
    a: &'s (impl Support<F::V> + ?Sized),
    b: &'s (impl Support<F::V> + ?Sized),
    b_in_a: F,
) -> impl Fn(Wide<F::V>) -> Vertex<Wide<F::V>> + 's {
    move |d: Wide<F::V>| {
        let d: F::V = from_p(d);
        let back = F::V::from_axes(|k| -d.axis(k));
        let pa = to_p(a.support(d));
        let pb = to_p(b_in_a.apply(b.support(b_in_a.unrotate(back))));
        Vertex {
            w: (pa - pb),
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
    let mut simplex = Simplex::default();
    let found = match gjk(&shapes, -between, &mut simplex) {
        Gjk::Separated => {
            let p = simplex.point();
            let gap = p.b - p.a;
            let d = gap.dot(gap).sqrt();
            // Below a trusted gap the cores meet as far as a normal can
            // tell, and EPA (or the flat span of the difference) gives one
            // from the shapes' faces.
            let size = simplex
                .vertices()
                .iter()
                .fold(0.0f64, |m, v| m.max(v.a.dot(v.a)).max(v.b.dot(v.b)))
                .sqrt();
            if d > TRUSTED_GAP * size {
                Penetration {
                    depth: -d,
                    normal: (gap * (1.0 / d)),
                    a: p.a,
                    b: p.b,
                }
            } else {
                overlapping::<L>(&shapes, &simplex, between)
            }
        }
        Gjk::Overlapping => overlapping::<L>(&shapes, &simplex, between),
    };
    let normal = found.normal;
    Contact {
        normal: pose_a.rotate(from_p(normal)),
        depth: (found.depth + ra + rb) as f32,
        point_a: pose_a.apply(from_p(found.a + (normal * ra))),
        point_b: pose_a.apply(from_p(found.b - (normal * rb))),
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
    let mut simplex = Simplex::default();
    match gjk(&shapes, -(to_p(b_in_a.origin())), &mut simplex) {
        Gjk::Separated => {
            let p = simplex.point();
            let between = p.b - p.a;
            let gap = between.dot(between).sqrt() - f64::from(a.radius()) - f64::from(b.radius());
            gap.max(0.0) as f32
        }
        Gjk::Overlapping => 0.0,
    }
}

/// Depth (negative: separation), normal and witnesses of overlapping
/// cores, or cores apart by less than a trusted gap, by EPA, in the frame
/// of `shapes` (`between`: from A's origin toward B's there); cores whose
/// difference has no volume (area in 2D: two segments that meet, a point
/// on a segment) touch with depth 0 along the normal of the difference's
/// flat span, turned toward B.
fn overlapping<L: Placement>(
    shapes: &impl Fn(Wide<L::V>) -> Vertex<Wide<L::V>>,
    simplex: &Simplex<Wide<L::V>>,
    between: Wide<L::V>,
) -> Penetration<Wide<L::V>> {
    if let Some(pen) = L::V::penetration(shapes, simplex) {
        return pen;
    }
    let normal = flat_normal(shapes, between);
    let v = shapes(normal);
    Penetration {
        depth: 0.0,
        normal,
        a: v.a,
        b: v.b,
    }
}

/// A unit normal to a difference without volume: across its plane (3D),
/// or across its line, leaning toward `between` (the poses' offset); the
/// sign makes it point along `between` when that has a part across.
fn flat_normal<P: Point>(shapes: &impl Fn(P) -> Vertex<P>, between: P) -> P {
    let dim = P::DIM;
    // The span, from supports along the axes and the diagonals (at most
    // 2 x 3 + 2 points: a list on the stack).
    let mut list = [P::from_axes(|_| 0.0); 8];
    let mut count = 0;
    for k in 0..dim {
        for sign in [1.0, -1.0] {
            list[count] = shapes(unit::<P>(k) * sign).w;
            count += 1;
        }
    }
    list[count] = shapes(P::from_axes(|_| 1.0)).w;
    list[count + 1] = shapes(P::from_axes(|k| if k == 1 { 1.0 } else { -1.0 })).w;
    let points = &list[..count + 2];
    let p0 = points[0];
    let far = |score: &dyn Fn(P) -> f64| {
        points
            .iter()
            .copied()
            .max_by(|a, b| score(*a).total_cmp(&score(*b)))
            .unwrap_or(p0)
    };
    let p1 = far(&|p| (p - p0).dot(p - p0));
    let line = normalized(p1 - p0);
    let across = |v: P, u: P| v - (u * v.dot(u));
    let candidate = match line {
        None => normalized(between),
        Some(u) => {
            let p2 = far(&|p| {
                let a = across(p - p0, u);
                a.dot(a)
            });
            let width = across(p2 - p0, u);
            let length = (p1 - p0).dot(p1 - p0).sqrt();
            if dim == 3 && width.dot(width).sqrt() > 1e-9 * length {
                normalized(u.cross(width))
            } else if dim == 2 {
                Some(P::from_axes(|k| match k {
                    0 => -u.axis(1),
                    1 => u.axis(0),
                    _ => 0.0,
                }))
            } else {
                // A line in 3D: across it toward B, or any direction across.
                normalized(across(between, u))
                    .or_else(|| normalized(u.cross(unit(0))))
                    .or_else(|| normalized(u.cross(unit(1))))
            }
        }
    };
    let n = candidate.unwrap_or(unit(1));
    if n.dot(between) < 0.0 { n * (-1.0) } else { n }
}

/// When shape `a`, moving by `motion_a`, first touches `b`, moving by
/// `motion_b`: one GJK ray cast on the difference of the cores, in A's
/// frame, with the radii as its margin (`gjk_cast.rs`). A cast starting
/// within the tolerance, or one that did not settle, goes to
/// [`cast_by_advancement`], whose contact query decides whether the motion
/// pushes in.
pub(crate) fn cast_shape<L: Placement>(
    a: &(impl Support<L::V> + ?Sized),
    pose_a: &L,
    motion_a: L::V,
    b: &(impl Support<L::V> + ?Sized),
    pose_b: &L,
    motion_b: L::V,
) -> Option<ShapeCast<L::V>> {
    let relative = L::V::from_axes(|k| motion_b.axis(k) - motion_a.axis(k));
    let tolerance = cast_tolerance(a, pose_a, motion_a, b, pose_b, motion_b);
    let b_in_a = pose_a.relative(pose_b);
    let shapes = minkowski(a, b, b_in_a);
    let (ra, rb) = (f64::from(a.radius()), f64::from(b.radius()));
    let r = to_p(pose_a.unrotate(relative));
    let cast = gjk_cast(
        &shapes,
        <Wide<L::V> as Point>::ZERO,
        r,
        1.0,
        ra + rb,
        f64::from(tolerance.gjk),
    );
    match cast {
        Some(None) => None,
        Some(Some(stop)) if stop.lambda > 0.0 => {
            let t = at_most(stop.lambda);
            let at = moved(pose_a, motion_a, t);
            let n = stop.normal;
            // B's core point, moved with B by t r: by the time the answer
            // gives (rounded down from lambda), as A's frame is.
            let b_point = stop.b + (r * (f64::from(t)));
            Some(ShapeCast {
                t,
                contact: Contact {
                    normal: pose_a.rotate(from_p(n)),
                    depth: (ra + rb - stop.distance) as f32,
                    point_a: at.apply(from_p(stop.a + (n * ra))),
                    point_b: at.apply(from_p(b_point - (n * rb))),
                },
            })
        }
        _ => advance_with(
            a,
            pose_a,
            motion_a,
            b,
            pose_b,
            motion_b,
            tolerance.advancing,
        ),
    }
}

/// [`cast_shape`] by conservative advancement alone (`cast.rs`): a
/// contact query per step. The fallback, and the reference the tests hold
/// the GJK cast to.
pub(crate) fn cast_by_advancement<L: Placement>(
    a: &(impl Support<L::V> + ?Sized),
    pose_a: &L,
    motion_a: L::V,
    b: &(impl Support<L::V> + ?Sized),
    pose_b: &L,
    motion_b: L::V,
) -> Option<ShapeCast<L::V>> {
    let tolerance = cast_tolerance(a, pose_a, motion_a, b, pose_b, motion_b);
    advance_with(
        a,
        pose_a,
        motion_a,
        b,
        pose_b,
        motion_b,
        tolerance.advancing,
    )
}

/// Conservative advancement with the cast's `tolerance` already worked out.
fn advance_with<L: Placement>(
    a: &(impl Support<L::V> + ?Sized),
    pose_a: &L,
    motion_a: L::V,
    b: &(impl Support<L::V> + ?Sized),
    pose_b: &L,
    motion_b: L::V,
    tolerance: f32,
) -> Option<ShapeCast<L::V>> {
    let relative = L::V::from_axes(|k| motion_b.axis(k) - motion_a.axis(k));
    advance(relative, tolerance, |t| {
        contact(
            a,
            &moved(pose_a, motion_a, t),
            b,
            &moved(pose_b, motion_b, t),
        )
    })
}

/// `pose` moved by `t` times `motion`.
fn moved<L: Placement>(pose: &L, motion: L::V, t: f32) -> L {
    let p = pose.position();
    pose.with_position(L::V::from_axes(|k| p.axis(k) + motion.axis(k) * t))
}

/// The f32 nearest `lambda` from below (a cast's time never rounds past
/// the touch).
pub(crate) fn at_most(lambda: f64) -> f32 {
    let t = lambda as f32;
    if f64::from(t) > lambda {
        t.next_down()
    } else {
        t
    }
}

/// The gaps that count as touching in a cast.
#[derive(Clone, Copy, Debug)]
struct CastTolerance {
    /// The GJK cast's.
    gjk: f32,
    /// Conservative advancement's.
    advancing: f32,
}

/// The gaps that count as touching in a cast. The GJK cast's is a
/// hundred-thousandth of the relative motion or of the
/// smaller shape (whichever is larger), never of the larger one (a
/// limitation reported against parry, dimforge/parry#429); it works in f64 in the first shape's frame, where the
/// world's coordinates do not round it. Conservative advancement queries
/// contacts at poses rounded to f32 in the world, so its gap is also not
/// below the rounding of the coordinates involved.
fn cast_tolerance<L: Placement>(
    a: &(impl Support<L::V> + ?Sized),
    pose_a: &L,
    motion_a: L::V,
    b: &(impl Support<L::V> + ?Sized),
    pose_b: &L,
    motion_b: L::V,
) -> CastTolerance {
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
    let magnitude = [
        pose_a.position(),
        pose_b.position(),
        moved(pose_a, motion_a, 1.0).position(),
        moved(pose_b, motion_b, 1.0).position(),
    ]
    .into_iter()
    .map(largest)
    .fold(0.0f32, f32::max);
    let length = to_p(relative).dot(to_p(relative)).sqrt() as f32;
    let gjk = (1e-5 * length.max(smaller)).max(f32::MIN_POSITIVE);
    CastTolerance {
        gjk,
        advancing: gjk.max(16.0 * f32::EPSILON * magnitude),
    }
}

/// The bounding box of any shape at `pose`, from its supports along the
/// axes, grown by its radius and widened by a little rounding slack so it
/// never cuts the shape.
pub(crate) fn bounds<L: Placement>(shape: &(impl Support<L::V> + ?Sized), pose: &L) -> Aabb<L::V> {
    let r = shape.radius();
    // As a matrix in 3D: six directions in and six points out for one
    // conversion from the quaternion.
    let frame = pose.frame();
    let unit = |k: usize, sign: f32| L::V::from_axes(|j| if j == k { sign } else { 0.0 });
    let along = |k: usize, sign: f32| {
        let p = frame.apply(shape.support(frame.unrotate(unit(k, sign))));
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
    use crate::narrow::d2::{Polygon, Pose};
    use crate::test_rng::TestRng;
    use glam::Vec2;

    /// The GJK cast `gjk` and conservative advancement's `slow` agree
    /// (pair `k`, the second shape moving by `relative` against the
    /// first): the same time within 2e-4, or, later than that, no later
    /// than where advancement's gap closes (it stops up to its tolerance
    /// short of the touch, which the GJK cast settles onto); the same
    /// normal and first witness; a graze may hit in one and miss in the
    /// other. True for a hit.
    fn same_cast<V: Vector>(
        k: usize,
        relative: V,
        gjk: Option<ShapeCast<V>>,
        slow: Option<ShapeCast<V>>,
    ) -> bool {
        let dot = |a: V, b: V| (0..V::DIM).map(|i| a.axis(i) * b.axis(i)).sum::<f32>();
        match (gjk, slow) {
            (Some(x), Some(y)) => {
                let (c, d) = (x.contact, y.contact);
                let apart = V::from_axes(|i| c.point_a.axis(i) - d.point_a.axis(i));
                // (a graze, closing slower than a thousandth of the motion,
                // is allowed no more than that)
                let closing = (-dot(d.normal, relative)).max(1e-3 * dot(relative, relative).sqrt());
                let short = (-d.depth).max(0.0) / closing;
                assert!(
                    x.t - y.t > -2e-4 && x.t - y.t < 2e-4 + 1.01 * short,
                    "pair {k}: {x:?} / {y:?}"
                );
                assert!(c.depth.abs() < 1e-3, "pair {k}: {x:?}");
                assert!(dot(c.normal, d.normal) > 0.99, "pair {k}: {x:?} / {y:?}");
                assert!(dot(apart, apart) < 4e-4, "pair {k}: {x:?} / {y:?}");
                true
            }
            (None, None) => false,
            (x, y) => {
                let h = x.or(y).expect("one hit");
                assert!(
                    h.contact.depth.abs() < 1e-3,
                    "pair {k}: gjk {x:?}, advancing {y:?}"
                );
                false
            }
        }
    }

    /// The GJK shape cast against conservative advancement (its fallback,
    /// one contact query per step) on rounded and sharp 2D and 3D pairs:
    /// the same hits at the same times (within the tolerance, over the
    /// closing speed), the same normals; and it settles by itself on
    /// nearly every pair.
    #[test]
    fn the_gjk_shape_cast_agrees_with_conservative_advancement() {
        use crate::narrow::{Capsule, d3};
        use glam::Vec3;
        let mut rng = TestRng::new(131);
        let (mut hits, mut unsettled) = (0, 0);
        for k in 0..3000 {
            let points: Vec<Vec2> = (0..5).map(|_| rng.in_square()).collect();
            let radius = if k % 2 == 0 {
                0.0
            } else {
                rng.range(0.01, 0.5)
            };
            let Ok(a) = Polygon::rounded(&points, radius) else {
                continue;
            };
            let b = Capsule::between(
                Vec2::new(rng.range(-1.0, 1.0), 0.0),
                Vec2::new(0.0, rng.range(-1.0, 1.0)),
                rng.range(0.0, 0.5),
            )
            .unwrap();
            let pa = Pose::new(
                Vec2::new(rng.range(-9.0, -5.0), rng.range(-3.0, 3.0)),
                rng.range(-3.0, 3.0),
            )
            .unwrap();
            let pb = Pose::new(rng.in_square(), rng.range(-3.0, 3.0)).unwrap();
            let ma = Vec2::new(rng.range(4.0, 12.0), rng.range(-4.0, 4.0));
            let mb = rng.in_square();
            if contact(&a, &pa, &b, &pb).depth > -1e-3 {
                continue;
            }
            let relative = mb - ma;
            let shapes = minkowski(&a, &b, pa.relative(&pb));
            let r = to_p(pa.unrotate(relative));
            let tolerance = f64::from(cast_tolerance(&a, &pa, ma, &b, &pb, mb).gjk);
            let margin = f64::from(a.radius() + b.radius());
            if gjk_cast(&shapes, glam::DVec2::ZERO, r, 1.0, margin, tolerance).is_none() {
                unsettled += 1;
            }
            hits += usize::from(same_cast(
                k,
                relative,
                cast_shape(&a, &pa, ma, &b, &pb, mb),
                cast_by_advancement(&a, &pa, ma, &b, &pb, mb),
            ));
        }
        assert!(
            hits > 500 && unsettled < 10,
            "{hits} hits, {unsettled} unsettled"
        );
        // 3D: capsules against a rounded tetrahedron.
        let tetra = d3::Polyhedron::rounded(
            &[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z].map(|p| p * 1.5),
            0.1,
        )
        .unwrap();
        let mut hits3 = 0;
        for k in 0..1000 {
            let cap = Capsule::<Vec3>::new(rng.range(0.0, 1.0), rng.range(0.0, 0.6)).unwrap();
            let turn = glam::Quat::from_euler(
                glam::EulerRot::XYZ,
                rng.range(-3.0, 3.0),
                rng.range(-3.0, 3.0),
                rng.range(-3.0, 3.0),
            );
            let pa = d3::Pose::new(
                Vec3::new(-6.0, rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)),
                turn,
            )
            .unwrap();
            let pb = d3::Pose::new(Vec3::ZERO, turn.inverse()).unwrap();
            let ma = Vec3::new(
                rng.range(4.0, 10.0),
                rng.range(-2.0, 2.0),
                rng.range(-2.0, 2.0),
            );
            if contact(&cap, &pa, &tetra, &pb).depth > -1e-3 {
                continue;
            }
            let gjk = cast_shape(&cap, &pa, ma, &tetra, &pb, Vec3::ZERO);
            let slow = cast_by_advancement(&cap, &pa, ma, &tetra, &pb, Vec3::ZERO);
            hits3 += usize::from(same_cast(k, -ma, gjk, slow));
        }
        assert!(hits3 > 200, "{hits3} 3D hits");
    }
}
