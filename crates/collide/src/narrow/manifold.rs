//! [`Manifold`]: the points where two shapes touch, for a solver that
//! needs more than one (a box resting flat on another touches at its four
//! corners; one point would let it rock). Box2D's contact manifolds are
//! the model; the construction here starts from the exact [`Contact`] and
//! clips.
//!
//! How: of the two shapes' faces (a polygon's edge, a box's face, a
//! capsule's side) that look along the contact normal, the one better
//! aligned with it is the reference; the other shape's face that looks
//! most against it is the incident face, clipped by the planes through the
//! reference face's edges. Each clipped point is kept while it is within
//! the margin of the reference face. Where neither face is aligned with
//! the normal (a ball, two rounded corners, crossed box edges), the
//! manifold is the contact's single point.
//!
//! Written once in 3D: 2D shapes are lifted to the plane z = 0 and the
//! results dropped back, which rounds the same (every z is 0).
//!
//! Cost: one contact query, then a few dozen dot products.

use super::contact::Contact;
use super::error::ShapeError;
use crate::geometry::Vector;
use glam::Vec3;

/// Which features of two shapes meet at a manifold point: equal from one
/// step to the next while the same features touch (a box resting, or
/// sliding along another without reaching its edge), so a solver can carry
/// what it learned about a point (its impulse) to the next step. Between
/// colliders made of parts (a compound, a mesh) it also names the two
/// parts; between two convex shapes both parts are 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct FeatureId {
    features: u32,
    parts: [u32; 2],
}

impl FeatureId {
    /// The one point of a manifold built from the contact alone.
    pub const SINGLE: FeatureId = FeatureId {
        features: u32::MAX,
        parts: [0; 2],
    };

    /// The features within the two parts, as bits, for hashing or
    /// storing beside a point.
    pub fn bits(self) -> u32 {
        self.features
    }

    /// The first shape's part and the second's (0 for a convex shape).
    pub fn parts(self) -> (u32, u32) {
        (self.parts[0], self.parts[1])
    }

    /// The same features, between parts `a` and `b`.
    pub(crate) fn in_parts(self, a: u32, b: u32) -> Self {
        Self {
            parts: [a, b],
            ..self
        }
    }
}

/// One point of a [`Manifold`], with [`Contact`]'s conventions: moving the
/// second shape by `normal * depth` makes the two just touch there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ManifoldPoint<V: Vector> {
    /// On the first shape's surface: its point deepest into the second
    /// here.
    pub point_a: V,
    /// On the second shape's surface, opposite `point_a`.
    pub point_b: V,
    /// Overlap along the manifold's normal, world units: above 0
    /// overlapping, below 0 apart (down to minus the margin).
    pub depth: f32,
    /// Which features meet here.
    pub id: FeatureId,
}

/// The most points a manifold holds: 2 in 2D, 4 in 3D.
const CAPACITY: usize = 4;

/// Where two shapes touch: a normal and up to 2 points in 2D, 4 in 3D.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Manifold<V: Vector> {
    normal: V,
    points: [ManifoldPoint<V>; CAPACITY],
    count: usize,
}

impl<V: Vector> Manifold<V> {
    /// No points: the shapes are further apart than the margin.
    pub(crate) fn empty(normal: V) -> Self {
        let zero = V::from_axes(|_| 0.0);
        let point = ManifoldPoint {
            point_a: zero,
            point_b: zero,
            depth: 0.0,
            id: FeatureId::SINGLE,
        };
        Self {
            normal,
            points: [point; CAPACITY],
            count: 0,
        }
    }

    /// Unit normal from the first shape toward the second.
    pub fn normal(&self) -> V {
        self.normal
    }

    /// The points, none when the shapes are further apart than the margin.
    pub fn points(&self) -> &[ManifoldPoint<V>] {
        &self.points[..self.count]
    }

    /// The deepest point (the first of equally deep ones).
    pub fn deepest(&self) -> Option<&ManifoldPoint<V>> {
        self.points()
            .iter()
            .reduce(|best, p| if p.depth > best.depth { p } else { best })
    }

    /// The one point of `contact`.
    pub(crate) fn single(contact: &Contact<V>) -> Self {
        let mut m = Manifold::empty(contact.normal);
        m.points[0] = ManifoldPoint {
            point_a: contact.point_a,
            point_b: contact.point_b,
            depth: contact.depth,
            id: FeatureId::SINGLE,
        };
        m.count = 1;
        m
    }

    /// The same manifold between parts `a` and `b` (their numbers in the
    /// points' feature ids).
    pub(crate) fn in_parts(mut self, a: u32, b: u32) -> Self {
        for p in &mut self.points {
            p.id = p.id.in_parts(a, b);
        }
        self
    }

    /// The same manifold in another vector type (2D results from the 3D
    /// construction).
    pub(crate) fn map<W: Vector>(&self, f: impl Fn(V) -> W) -> Manifold<W> {
        let mut out = Manifold::empty(f(self.normal));
        for (o, p) in out.points.iter_mut().zip(self.points()) {
            *o = ManifoldPoint {
                point_a: f(p.point_a),
                point_b: f(p.point_b),
                depth: p.depth,
                id: p.id,
            };
        }
        out.count = self.count;
        out
    }
}

/// The most corners a face gives (a hull's bigger faces give their
/// support point instead).
pub(crate) const FACE_MAX: usize = 8;

/// The most points clipping a face by another's sides leaves: each side
/// plane adds at most one.
const CLIPPED_MAX: usize = 2 * FACE_MAX;

/// A shape's face toward some direction, in the world (2D shapes at z =
/// 0): its core points (the surface lies `radius` beyond them), counter-
/// clockwise about the outward normal where there are three or more.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Face {
    pub(crate) points: [Vec3; FACE_MAX],
    /// Each point's vertex number on its shape.
    pub(crate) ids: [u8; FACE_MAX],
    pub(crate) count: usize,
    /// The outward unit normal; `None` for a point, or a segment lying
    /// along the direction asked for.
    pub(crate) normal: Option<Vec3>,
    /// The face's number on its shape.
    pub(crate) id: u8,
    pub(crate) radius: f32,
}

impl Face {
    /// A single core point (a ball's centre; a hull's support point).
    pub(crate) fn point(at: Vec3, radius: f32) -> Self {
        Face {
            points: [at; FACE_MAX],
            ids: [0; FACE_MAX],
            count: 1,
            normal: None,
            id: 0,
            radius,
        }
    }

    /// A segment from `a` to `b` (a capsule's core, a polygon's edge)
    /// whose face looks along `dir`: the normal is `dir` without its part
    /// along the segment.
    pub(crate) fn segment(a: Vec3, b: Vec3, ids: [u8; 2], dir: Vec3, radius: f32) -> Self {
        let Some(along) = (b - a).try_normalize() else {
            return Face::point(a, radius);
        };
        let normal = (dir - along * along.dot(dir)).try_normalize();
        Face {
            points: [a, b, b, b, b, b, b, b],
            ids: [ids[0], ids[1], 0, 0, 0, 0, 0, 0],
            count: 2,
            normal,
            id: 0,
            radius,
        }
    }
}

impl Face {
    /// This face as the incident one, looking along `dir` toward the
    /// reference: a rounded face (a capsule's side, a rounded polygon's
    /// edge) that does not look along `dir` is only its point deepest that
    /// way, rounded (a tilted capsule touches with its end's cap; its side
    /// would be neither on its surface nor as deep).
    fn facing(self, dir: Vec3) -> Face {
        let looks = self.normal.is_some_and(|m| m.dot(dir) >= FACING);
        if self.radius == 0.0 || self.count < 2 || looks {
            return self;
        }
        let k = (1..self.count).fold(0, |best, k| {
            if self.points[k].dot(dir) > self.points[best].dot(dir) {
                k
            } else {
                best
            }
        });
        Face {
            ids: [self.ids[k]; FACE_MAX],
            ..Face::point(self.points[k], self.radius)
        }
    }
}

/// How far from the contact normal (its cosine) a face may look and still
/// be the reference: 1e-3 rad, the rounding of the closed forms' and
/// GJK's normals, so that the manifold's normal is the contact's.
const ALIGNED: f32 = 0.999_999_5;

/// How far from the reference's normal (its cosine) a rounded incident
/// face may look and still give its points: about 1.1 degrees, where its
/// surface points are within 2e-4 of its radius of the surface.
const FACING: f32 = 0.9998;

/// A face of the first shape stays the reference against one of the
/// second that is better aligned by less than this (cosine, about 6e-4
/// rad), so rounding does not swap them from step to step.
const TIE: f32 = 2e-7;

/// How far beside a segment reference, as a share of its radius, a point
/// may be and still be on its side: there its surface is within 2e-4 of
/// the radius of the point given.
const LINE_WIDTH: f32 = 0.02;

/// A clipped point of the incident face: where it came from.
#[derive(Clone, Copy, Debug)]
struct Clipped {
    at: Vec3,
    /// The incident vertex, or (`CLIPPED` | plane << 8 | edge).
    feature: u32,
}

const CLIPPED: u32 = 1 << 23;

/// An edge of the clipped polygon that runs along a side plane.
const PLANE_EDGE: u32 = 0x80;

/// A margin must be finite and 0 or more.
pub(crate) fn check_margin(margin: f32) -> Result<(), ShapeError> {
    if margin.is_finite() && margin >= 0.0 {
        Ok(())
    } else {
        Err(ShapeError::Margin { margin })
    }
}

/// The manifold of two shapes whose exact contact is `contact` (lifted to
/// 3D), with `face_a(dir)` and `face_b(dir)` each shape's face toward a
/// direction: points within `margin` of touching.
pub(crate) fn build(
    contact: &Contact<Vec3>,
    face_a: impl Fn(Vec3) -> Face,
    face_b: impl Fn(Vec3) -> Face,
    margin: f32,
) -> Manifold<Vec3> {
    let n = contact.normal;
    // Apart beyond the margin, or a NaN depth.
    if contact.depth < -margin || contact.depth.is_nan() {
        return Manifold::empty(n);
    }
    let single = || Manifold::single(contact);
    let (fa, fb) = (face_a(n), face_b(-n));
    let aligned = |f: &Face, dir: Vec3| {
        f.normal
            .filter(|_| f.count >= 2)
            .map_or(f32::NEG_INFINITY, |m| m.dot(dir))
    };
    let (align_a, align_b) = (aligned(&fa, n), aligned(&fb, -n));
    let reference_is_a = match (align_a >= ALIGNED, align_b >= ALIGNED) {
        (false, false) => return single(),
        (a, b) if a != b => a,
        // Both: a face over a capsule's line (a box lying across a rod
        // touches it where the rod crosses the box's face), then the
        // first, unless the second is better by more than rounding.
        _ if fa.count != fb.count => fa.count > fb.count,
        _ => align_a >= align_b - TIE,
    };
    let (reference, incident, flip) = if reference_is_a {
        let normal = fa.normal.expect("aligned");
        (fa, face_b(-normal).facing(-normal), false)
    } else {
        let normal = fb.normal.expect("aligned");
        (fb, face_a(-normal).facing(-normal), true)
    };
    let out = clip_and_keep(&reference, &incident, flip, margin);
    if out.count == 0 { single() } else { out }
}

/// The planes through the reference face's edges, pointing inward: a
/// segment's two ends, or a polygon's edges.
fn side_planes(f: &Face, normal: Vec3) -> ([(Vec3, Vec3); FACE_MAX], usize) {
    let mut planes = [(Vec3::ZERO, Vec3::ZERO); FACE_MAX];
    if f.count == 2 {
        let along = (f.points[1] - f.points[0]).normalize_or_zero();
        planes[0] = (f.points[0], along);
        planes[1] = (f.points[1], -along);
        return (planes, 2);
    }
    for (i, plane) in planes.iter_mut().enumerate().take(f.count) {
        let edge = f.points[(i + 1) % f.count] - f.points[i];
        *plane = (f.points[i], normal.cross(edge).normalize_or_zero());
    }
    (planes, f.count)
}

/// The incident face clipped by the reference face's side planes, each
/// point kept while within `margin` of touching; at most four, reduced by
/// area in 3D.
fn clip_and_keep(reference: &Face, incident: &Face, flip: bool, margin: f32) -> Manifold<Vec3> {
    let normal = reference.normal.expect("a reference face has a normal");
    let (planes, count) = side_planes(reference, normal);
    let mut points = [Clipped {
        at: Vec3::ZERO,
        feature: 0,
    }; CLIPPED_MAX];
    let mut n = incident.count;
    for (k, point) in points.iter_mut().enumerate().take(n) {
        *point = Clipped {
            at: incident.points[k],
            feature: u32::from(incident.ids[k]),
        };
    }
    // Edge k of the polygon in hand runs from point k to point k + 1 and
    // carries the incident edge it lies on (or, once a plane cut it, that
    // plane).
    let mut edges: [u32; CLIPPED_MAX] = std::array::from_fn(|k| k as u32);
    for (p, &(origin, inward)) in planes[..count].iter().enumerate() {
        (n, points, edges) = clip(&points[..n], &edges[..n], origin, inward, p as u32);
        if n == 0 {
            return Manifold::empty(if flip { -normal } else { normal });
        }
    }
    let face_id = (u32::from(flip) << 31) | (u32::from(reference.id) << 24);
    let mut kept = [ManifoldPoint {
        point_a: Vec3::ZERO,
        point_b: Vec3::ZERO,
        depth: 0.0,
        id: FeatureId::SINGLE,
    }; CLIPPED_MAX];
    let mut m = 0;
    // A segment's side (a capsule's, in 3D) is a line, not a face: points
    // beside it, where an edge crosses it, are not on it.
    let beside = if reference.count == 2 {
        let along = (reference.points[1] - reference.points[0]).normalize_or_zero();
        normal.cross(along)
    } else {
        Vec3::ZERO
    };
    for c in &points[..n] {
        let offset = (c.at - reference.points[0]).dot(beside);
        if offset.abs() > LINE_WIDTH * reference.radius {
            continue;
        }
        let above = (c.at - reference.points[0]).dot(normal);
        // On each surface: the reference's straight across its face; the
        // incident's out along its own face's normal (a tilted capsule's
        // side, a ball toward the face).
        let on_reference = c.at - normal * (above - reference.radius);
        let on_incident = c.at + incident.normal.unwrap_or(-normal) * incident.radius;
        let depth = (on_reference - on_incident).dot(normal);
        if depth < -margin || depth.is_nan() {
            continue;
        }
        let (point_a, point_b) = if flip {
            (on_incident, on_reference)
        } else {
            (on_reference, on_incident)
        };
        kept[m] = ManifoldPoint {
            point_a,
            point_b,
            depth,
            id: FeatureId {
                features: face_id | c.feature,
                parts: [0; 2],
            },
        };
        m += 1;
    }
    let mut out = Manifold::empty(if flip { -normal } else { normal });
    let chosen = reduce(&kept[..m], normal);
    for (slot, &k) in chosen.iter().enumerate() {
        out.points[slot] = kept[k];
    }
    out.count = chosen.len();
    out
}

/// One Sutherland–Hodgman pass: the polygon (or segment, or point)
/// `points`, edge `k` from point `k` to `k + 1` carrying `edges[k]`, cut
/// by the plane through `origin` keeping the side `inward` points to.
#[allow(clippy::type_complexity)]
fn clip(
    points: &[Clipped],
    edges: &[u32],
    origin: Vec3,
    inward: Vec3,
    plane: u32,
) -> (usize, [Clipped; CLIPPED_MAX], [u32; CLIPPED_MAX]) {
    let mut out = [points[0]; CLIPPED_MAX];
    let mut out_edges = [0u32; CLIPPED_MAX];
    let mut n = 0;
    let inside = |p: Vec3| (p - origin).dot(inward);
    let cut = |a: &Clipped, b: &Clipped, da: f32, db: f32, edge: u32| Clipped {
        at: a.at + (b.at - a.at) * (da / (da - db)),
        feature: CLIPPED | (plane << 8) | (edge & 0xff),
    };
    match points.len() {
        1 => {
            if inside(points[0].at) >= 0.0 {
                out[0] = points[0];
                n = 1;
            }
        }
        2 => {
            // A segment: its ends moved in to the plane.
            let (a, b) = (&points[0], &points[1]);
            let (da, db) = (inside(a.at), inside(b.at));
            if da < 0.0 && db < 0.0 {
                return (0, out, out_edges);
            }
            out[0] = if da < 0.0 {
                cut(a, b, da, db, edges[0])
            } else {
                *a
            };
            out[1] = if db < 0.0 {
                cut(a, b, da, db, edges[0])
            } else {
                *b
            };
            out_edges[0] = edges[0];
            n = 2;
        }
        len => {
            for k in 0..len {
                let (a, b) = (&points[k], &points[(k + 1) % len]);
                let (da, db) = (inside(a.at), inside(b.at));
                if da >= 0.0 && n < CLIPPED_MAX {
                    out[n] = *a;
                    out_edges[n] = edges[k];
                    n += 1;
                }
                if (da >= 0.0) != (db >= 0.0) && n < CLIPPED_MAX {
                    out[n] = cut(a, b, da, db, edges[k]);
                    // Past a point entering the plane's side the polygon
                    // goes on along the incident edge; past one leaving
                    // it, along the plane.
                    out_edges[n] = if da >= 0.0 {
                        PLANE_EDGE | plane
                    } else {
                        edges[k]
                    };
                    n += 1;
                }
            }
        }
    }
    (n, out, out_edges)
}

/// Up to four of `points` that keep the contact area: the deepest, the
/// one farthest from it, the one making the largest triangle with those,
/// and the one adding the most area beyond that triangle. Indices into
/// `points`, in that order; all of them when four or fewer.
fn reduce(points: &[ManifoldPoint<Vec3>], normal: Vec3) -> Vec4Indices {
    let mut chosen = Vec4Indices::default();
    if points.len() <= CAPACITY {
        for k in 0..points.len() {
            chosen.push(k);
        }
        return chosen;
    }
    let at = |k: usize| points[k].point_b;
    let best = |score: &dyn Fn(usize) -> f32| {
        (0..points.len()).fold((0, f32::NEG_INFINITY), |(bk, bs), k| {
            let s = score(k);
            if s > bs { (k, s) } else { (bk, bs) }
        })
    };
    let first = best(&|k| points[k].depth).0;
    let second = best(&|k| (at(k) - at(first)).length_squared()).0;
    let area = |a: usize, b: usize, c: usize| (at(b) - at(a)).cross(at(c) - at(a)).dot(normal);
    let third = best(&|k| area(first, second, k).abs()).0;
    // The triangle counter-clockwise about the normal; the fourth point
    // the one furthest outside one of its edges.
    let (p, q, r) = if area(first, second, third) >= 0.0 {
        (first, second, third)
    } else {
        (first, third, second)
    };
    let fourth = best(&|k| {
        let outside = [area(p, k, q), area(q, k, r), area(r, k, p)];
        outside.into_iter().fold(f32::NEG_INFINITY, f32::max)
    });
    for k in [first, second, third] {
        chosen.push(k);
    }
    if fourth.1 > 0.0 {
        chosen.push(fourth.0);
    }
    chosen
}

/// Up to four indices, without allocating.
#[derive(Default)]
struct Vec4Indices {
    items: [usize; CAPACITY],
    len: usize,
}

impl Vec4Indices {
    fn push(&mut self, k: usize) {
        self.items[self.len] = k;
        self.len += 1;
    }

    fn len(&self) -> usize {
        self.len
    }

    fn iter(&self) -> impl Iterator<Item = &usize> {
        self.items[..self.len].iter()
    }
}
