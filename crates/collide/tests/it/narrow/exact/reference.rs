//! An exact reference for the narrow phase, in f64 and by construction,
//! sharing no code with the library: what every contact, distance, ray
//! cast and shape cast is held to.
//!
//! A shape is a [`Body`]: a convex core (the hull of a few points: a
//! point, a segment, a polygon or a polyhedron) rounded by a radius, its
//! points placed in the world in f64 from the f32 values the library was
//! given. Everything follows from two facts about convex sets:
//!
//! - **Overlap along a direction** is exact: how far the second body must
//!   move along a unit `n` to clear the first is `h_A(n) + h_B(-n)`, from
//!   the support functions (the farthest point along `n`, plus the
//!   radius). The penetration depth is its minimum over all directions,
//!   and for polytopes that minimum is reached on a face normal of the
//!   difference `A - B`: a face normal of either core or the cross product
//!   of an edge of each. [`candidates`] lists a superset of those (and, for
//!   cores without area or volume, their edges and the axes), so the
//!   minimum over the list is the depth, and a negative overlap along one
//!   of them proves the cores apart (the separating axis theorem).
//! - **Distance between separated cores** is the smallest distance between
//!   a feature of one (point, edge, facet) and a feature of the other, each
//!   in closed form ([`core_closest`]).
//!
//! Casts (a ray, or one body moving relative to another) find the first
//! time the distance falls to the radii: sharp cores by clipping the
//! linear overlaps along every candidate (exact), rounded ones by
//! bisection on the distance, which is convex in time.

use glam::DVec3;

/// A convex core (the hull of `points`) rounded by `radius`, in the world,
/// in f64. 2D bodies lie in the plane z = 0.
#[derive(Clone, Debug)]
pub struct Body {
    pub points: Vec<DVec3>,
    pub radius: f64,
    /// Index pairs of the hull's edges (a superset: coplanar facets add
    /// their diagonals; a core without area gives every pair).
    edges: Vec<(usize, usize)>,
    /// Index triples of the hull's facets (3D only).
    facets: Vec<[usize; 3]>,
}

/// 2D (bodies in the plane z = 0, directions in it) or 3D.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    Plane,
    Volume,
}

impl Body {
    /// The body of these world points and radius.
    pub fn new(points: Vec<DVec3>, radius: f64, space: Space) -> Self {
        let scale = points
            .iter()
            .flat_map(|p| points.iter().map(move |q| (*p - *q).length()))
            .fold(0.0f64, f64::max);
        let flat = 1e-12 * scale.max(f64::MIN_POSITIVE);
        let n = points.len();
        let mut facets = Vec::new();
        if space == Space::Volume {
            for i in 0..n {
                for j in i + 1..n {
                    for k in j + 1..n {
                        let normal = (points[j] - points[i]).cross(points[k] - points[i]);
                        let len = normal.length();
                        if len <= flat * scale {
                            continue;
                        }
                        let u = normal / len;
                        let side = |p: &DVec3| u.dot(*p - points[i]);
                        let above = points.iter().all(|p| side(p) <= flat);
                        let below = points.iter().all(|p| side(p) >= -flat);
                        if above || below {
                            facets.push([i, j, k]);
                        }
                    }
                }
            }
        }
        let mut edges = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if points[i] == points[j] {
                    continue;
                }
                let on_hull = match space {
                    Space::Volume if !facets.is_empty() => {
                        facets.iter().any(|f| f.contains(&i) && f.contains(&j))
                    }
                    Space::Volume => true,
                    Space::Plane => {
                        let e = points[j] - points[i];
                        let side =
                            |p: &DVec3| e.x * (p.y - points[i].y) - e.y * (p.x - points[i].x);
                        let tol = flat * e.length();
                        points.iter().all(|p| side(p) <= tol)
                            || points.iter().all(|p| side(p) >= -tol)
                    }
                };
                if on_hull {
                    edges.push((i, j));
                }
            }
        }
        Self {
            points,
            radius,
            edges,
            facets,
        }
    }

    /// The same body moved by `offset`.
    pub fn moved(&self, offset: DVec3) -> Self {
        Self {
            points: self.points.iter().map(|p| *p + offset).collect(),
            ..self.clone()
        }
    }

    /// The core's farthest extent along `n` (no radius).
    pub fn core_support(&self, n: DVec3) -> f64 {
        self.points
            .iter()
            .map(|p| p.dot(n))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// The body's farthest extent along the unit `n`, radius included.
    pub fn support(&self, n: DVec3) -> f64 {
        self.core_support(n) + self.radius
    }

    /// The largest distance between two of its points, plus twice the
    /// radius: its size.
    pub fn size(&self) -> f64 {
        let mut d = 0.0f64;
        for p in &self.points {
            for q in &self.points {
                d = d.max((*p - *q).length());
            }
        }
        d + 2.0 * self.radius
    }

    /// The largest coordinate of its points.
    pub fn magnitude(&self) -> f64 {
        self.points
            .iter()
            .map(|p| p.abs().max_element())
            .fold(0.0, f64::max)
    }

    fn edge_vectors(&self) -> impl Iterator<Item = DVec3> + '_ {
        self.edges
            .iter()
            .map(|&(i, j)| self.points[j] - self.points[i])
    }

    fn facet_normals(&self) -> impl Iterator<Item = DVec3> + '_ {
        self.facets.iter().map(|f| {
            let [a, b, c] = f.map(|i| self.points[i]);
            (b - a).cross(c - a)
        })
    }
}

/// Unit directions among which the overlap of `a` and `b` is smallest
/// (see the module docs), both signs of each.
pub fn candidates(a: &Body, b: &Body, space: Space) -> Vec<DVec3> {
    let axes = match space {
        Space::Plane => vec![DVec3::X, DVec3::Y],
        Space::Volume => vec![DVec3::X, DVec3::Y, DVec3::Z],
    };
    let edges: Vec<DVec3> = a.edge_vectors().chain(b.edge_vectors()).collect();
    let mut raw: Vec<DVec3> = axes.clone();
    raw.extend(edges.iter().copied());
    match space {
        Space::Plane => raw.extend(edges.iter().map(|e| DVec3::new(-e.y, e.x, 0.0))),
        Space::Volume => {
            raw.extend(a.facet_normals().chain(b.facet_normals()));
            for (i, e) in edges.iter().enumerate() {
                for f in &edges[i + 1..] {
                    raw.push(e.cross(*f));
                }
                for x in &axes {
                    raw.push(e.cross(*x));
                }
            }
        }
    }
    let mut out = Vec::with_capacity(2 * raw.len());
    for v in raw {
        let len = v.length();
        if len > 0.0 && len.is_finite() {
            out.push(v / len);
            out.push(-v / len);
        }
    }
    out
}

/// How far `b` must move along the unit `n` to clear `a`: negative when
/// `n` separates them (by that much, at least).
pub fn overlap(a: &Body, b: &Body, n: DVec3) -> f64 {
    a.support(n) + b.support(-n)
}

/// The same without the radii: the cores' overlap.
fn core_overlap(a: &Body, b: &Body, n: DVec3) -> f64 {
    a.core_support(n) + b.core_support(-n)
}

/// The closest points of segments `[p0, p1]` and `[q0, q1]`: the best of
/// the four ends projected on the other segment and, when the lines are
/// not parallel and it lies inside both, the pair of the lines' closest
/// points.
fn segment_segment(p0: DVec3, p1: DVec3, q0: DVec3, q1: DVec3) -> (DVec3, DVec3) {
    let mut best = (p0, point_segment(p0, q0, q1));
    let mut keep = |x: DVec3, y: DVec3| {
        if (x - y).length_squared() < (best.0 - best.1).length_squared() {
            best = (x, y);
        }
    };
    keep(p1, point_segment(p1, q0, q1));
    keep(point_segment(q0, p0, p1), q0);
    keep(point_segment(q1, p0, p1), q1);
    let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, e, b) = (d1.dot(d1), d2.dot(d2), d1.dot(d2));
    let denom = a * e - b * b;
    if denom > 1e-14 * a * e {
        let (c, f) = (d1.dot(r), d2.dot(r));
        let s = (b * f - c * e) / denom;
        let t = (a * f - b * c) / denom;
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) {
            keep(p0 + d1 * s, q0 + d2 * t);
        }
    }
    best
}

/// The point of segment `[a, b]` nearest `p`.
fn point_segment(p: DVec3, a: DVec3, b: DVec3) -> DVec3 {
    let ab = b - a;
    let len_sq = ab.length_squared();
    if len_sq == 0.0 {
        return a;
    }
    a + ab * ((p - a).dot(ab) / len_sq).clamp(0.0, 1.0)
}

/// The point of triangle `abc` nearest `p`, when it lies inside the
/// triangle (the edges answer otherwise).
fn point_triangle_inside(p: DVec3, a: DVec3, b: DVec3, c: DVec3) -> Option<DVec3> {
    let n = (b - a).cross(c - a);
    let nn = n.length_squared();
    if nn == 0.0 {
        return None;
    }
    let q = p - n * ((p - a).dot(n) / nn);
    let inside = [(a, b), (b, c), (c, a)]
        .iter()
        .all(|&(x, y)| (y - x).cross(q - x).dot(n) >= 0.0);
    inside.then_some(q)
}

/// Whether the cores overlap or touch: no candidate separates them.
pub fn cores_meet(a: &Body, b: &Body, space: Space) -> bool {
    candidates(a, b, space)
        .iter()
        .all(|&n| core_overlap(a, b, n) >= 0.0)
}

/// The closest points of two cores that do not meet: the best over pairs
/// of features (point against point, edge and facet; edge against edge).
pub fn core_closest(a: &Body, b: &Body) -> (DVec3, DVec3) {
    core_closest_moved(a, b, DVec3::ZERO)
}

/// [`core_closest`] with `b` moved by `offset`.
fn core_closest_moved(a: &Body, b: &Body, offset: DVec3) -> (DVec3, DVec3) {
    let bp = |i: usize| b.points[i] + offset;
    let mut best = (a.points[0], bp(0));
    let mut keep = |x: DVec3, y: DVec3| {
        if (x - y).length_squared() < (best.0 - best.1).length_squared() {
            best = (x, y);
        }
    };
    for &p in &a.points {
        for k in 0..b.points.len() {
            keep(p, bp(k));
        }
        for &(i, j) in &b.edges {
            keep(p, point_segment(p, bp(i), bp(j)));
        }
        for f in &b.facets {
            let [x, y, z] = f.map(bp);
            if let Some(q) = point_triangle_inside(p, x, y, z) {
                keep(p, q);
            }
        }
    }
    for k in 0..b.points.len() {
        let q = bp(k);
        for &(i, j) in &a.edges {
            keep(point_segment(q, a.points[i], a.points[j]), q);
        }
        for f in &a.facets {
            let [x, y, z] = f.map(|i| a.points[i]);
            if let Some(p) = point_triangle_inside(q, x, y, z) {
                keep(p, q);
            }
        }
    }
    for &(i, j) in &a.edges {
        for &(k, l) in &b.edges {
            let (p, q) = segment_segment(a.points[i], a.points[j], bp(k), bp(l));
            keep(p, q);
        }
    }
    best
}

/// The exact answer to a contact query.
#[derive(Clone, Copy, Debug)]
pub struct Depth {
    /// Penetration depth (negative: minus the distance).
    pub depth: f64,
    /// The one right normal, where only one is (the shapes' closest
    /// points apart); `None` where several may be (then a normal is right
    /// when the overlap along it is the depth).
    pub normal: Option<DVec3>,
    /// The cores' gap (0 when they meet): how well the normal is
    /// determined.
    pub gap: f64,
}

/// The depth of `a` and `b` and, where unique, its normal.
pub fn depth(a: &Body, b: &Body, space: Space) -> Depth {
    let radii = a.radius + b.radius;
    let list = candidates(a, b, space);
    if list.iter().all(|&n| core_overlap(a, b, n) >= 0.0) {
        let depth = list
            .iter()
            .map(|&n| overlap(a, b, n))
            .fold(f64::INFINITY, f64::min);
        return Depth {
            depth,
            normal: None,
            gap: 0.0,
        };
    }
    let (p, q) = core_closest(a, b);
    let gap = (q - p).length();
    Depth {
        depth: radii - gap,
        // (no direction for cores that touch, which rounding called apart)
        normal: (gap > 0.0).then(|| (q - p) / gap),
        gap,
    }
}

/// Golden-section search for the minimum of the convex `f` over
/// `[lo, hi]`: (where, value).
fn convex_minimum(f: &dyn Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> (f64, f64) {
    let g = (5.0f64.sqrt() - 1.0) / 2.0;
    let (mut x1, mut x2) = (hi - g * (hi - lo), lo + g * (hi - lo));
    let (mut f1, mut f2) = (f(x1), f(x2));
    for _ in 0..90 {
        if f1 <= f2 {
            hi = x2;
            (x2, f2) = (x1, f1);
            x1 = hi - g * (hi - lo);
            f1 = f(x1);
        } else {
            lo = x1;
            (x1, f1) = (x2, f2);
            x2 = lo + g * (hi - lo);
            f2 = f(x2);
        }
    }
    let ends = [(lo, f(lo)), (hi, f(hi)), (x1, f1), (x2, f2)];
    ends.into_iter()
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .expect("four")
}

/// The first time in `[0, end]` at which the convex `f` is 0 or below.
fn first_root(f: &dyn Fn(f64) -> f64, end: f64) -> Option<f64> {
    if f(0.0) <= 0.0 {
        return Some(0.0);
    }
    let (at, lowest) = convex_minimum(f, 0.0, end);
    if lowest > 0.0 {
        return None;
    }
    let (mut outside, mut inside) = (0.0, at);
    for _ in 0..80 {
        let mid = 0.5 * (outside + inside);
        if f(mid) > 0.0 {
            outside = mid;
        } else {
            inside = mid;
        }
    }
    Some(0.5 * (outside + inside))
}

/// When `b`, moving by `motion` relative to `a` over `t` in `[0, end]`,
/// first touches it (`None`: never).
pub fn first_touch(a: &Body, b: &Body, motion: DVec3, end: f64, space: Space) -> Option<f64> {
    let list = candidates(a, b, space);
    if a.radius + b.radius > 0.0 {
        let sweep = Sweep::new(a, b, motion, &list);
        return first_root(&|t| sweep.gap(t), end);
    }
    // Sharp cores: each candidate's overlap is linear in time, and the
    // cores meet while every one is 0 or more.
    let (mut enter, mut exit) = (0.0f64, end);
    for &n in &list {
        let (c, rate) = (core_overlap(a, b, n), -motion.dot(n));
        // c + rate t >= 0
        if rate == 0.0 {
            if c < 0.0 {
                (enter, exit) = (f64::INFINITY, f64::NEG_INFINITY);
            }
        } else if rate > 0.0 {
            enter = enter.max(-c / rate);
        } else {
            exit = exit.min(-c / rate);
        }
    }
    (enter <= exit).then_some(enter)
}

/// The first time in `[0, end]` at which `b`, moving by `motion`
/// relative to `a`, comes within `level` of it (a negative `level`: that
/// deep into it); `None`: never. The first touch is level 0; the levels
/// either side bound the answers of inputs off by that much (a ray moved
/// sideways by `level` meets the surface within these times).
pub fn first_within(
    a: &Body,
    b: &Body,
    motion: DVec3,
    end: f64,
    space: Space,
    level: f64,
) -> Option<f64> {
    let list = candidates(a, b, space);
    let sweep = Sweep::new(a, b, motion, &list);
    first_root(&|t| sweep.gap(t) - level, end)
}

/// `b` moving by `motion` relative to `a`, with each candidate's overlap
/// at the start and how fast it changes (linear in time).
struct Sweep<'a> {
    a: &'a Body,
    b: &'a Body,
    motion: DVec3,
    /// Per candidate: the cores' overlap at time 0, the bodies' (with
    /// the radii), and the rate both change at.
    lines: Vec<(f64, f64, f64)>,
}

impl<'a> Sweep<'a> {
    fn new(a: &'a Body, b: &'a Body, motion: DVec3, list: &[DVec3]) -> Self {
        let lines = list
            .iter()
            .map(|&n| (core_overlap(a, b, n), overlap(a, b, n), -motion.dot(n)))
            .collect();
        Self {
            a,
            b,
            motion,
            lines,
        }
    }

    /// The signed gap at time `t` (minus the depth when they overlap):
    /// convex in `t`.
    fn gap(&self, t: f64) -> f64 {
        if self
            .lines
            .iter()
            .all(|&(core, _, rate)| core + rate * t >= 0.0)
        {
            return -self
                .lines
                .iter()
                .map(|&(_, whole, rate)| whole + rate * t)
                .fold(f64::INFINITY, f64::min);
        }
        let (p, q) = core_closest_moved(self.a, self.b, self.motion * t);
        (q - p).length() - self.a.radius - self.b.radius
    }
}

/// The smallest gap between `a` and `b` while `b` moves by `motion` over
/// `[0, end]` (negative when they overlap): near 0, a graze, which a cast
/// may count as a hit or a miss.
pub fn closest_approach(a: &Body, b: &Body, motion: DVec3, end: f64, space: Space) -> f64 {
    let list = candidates(a, b, space);
    let sweep = Sweep::new(a, b, motion, &list);
    convex_minimum(&|t| sweep.gap(t), 0.0, end).1
}

/// A single point, as a body (a ray's origin, a circle's centre).
pub fn point(p: DVec3, space: Space) -> Body {
    Body::new(vec![p], 0.0, space)
}
