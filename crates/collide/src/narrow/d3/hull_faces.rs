//! A polyhedron's faces, found once when it is built: each plane that has
//! every point on one side, with the points on it in order round its
//! outward normal. The manifold reads them (a hull resting on a floor
//! touches at its face's corners); the other queries need only supports.
//!
//! How: every three points span a candidate plane, kept when no point lies
//! beyond it by more than a millionth of the hull's size; points on a kept
//! plane are ordered by a convex hull of their own in that plane (so
//! points inside a face are left out). In f64. Cost O(n^4) for n points,
//! at most 32: once, at construction.

use glam::{DVec2, DVec3, Vec3};

/// The most faces a hull of 32 points has (triangulated: 2n - 4).
const MAX_FACES: usize = 60;

/// The most corners of all faces together (twice the edges, at most
/// 3n - 6 of them).
const MAX_CORNERS: usize = 180;

/// A hull's faces, as plain data (the polyhedron stays `Copy`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct HullFaces {
    normals: [Vec3; MAX_FACES],
    /// Face k's corners are `corners[starts[k]..starts[k + 1]]`, indices
    /// of the polyhedron's points.
    starts: [u8; MAX_FACES + 1],
    corners: [u8; MAX_CORNERS],
    count: u8,
}

impl HullFaces {
    /// The faces of the hull of `points` (which span a volume).
    pub(crate) fn new(points: &[Vec3]) -> Self {
        let mut out = HullFaces {
            normals: [Vec3::ZERO; MAX_FACES],
            starts: [0; MAX_FACES + 1],
            corners: [0; MAX_CORNERS],
            count: 0,
        };
        let p: Vec<DVec3> = points.iter().map(|v| v.as_dvec3()).collect();
        let centre = p.iter().copied().sum::<DVec3>() / p.len().max(1) as f64;
        let size = p.iter().fold(0.0f64, |m, q| m.max((*q - centre).length()));
        let eps = 1e-6 * size;
        let mut planes: Vec<(DVec3, f64)> = Vec::new();
        let n = p.len();
        for i in 0..n {
            for j in i + 1..n {
                for k in j + 1..n {
                    let Some(normal) = (p[j] - p[i]).cross(p[k] - p[i]).try_normalize() else {
                        continue;
                    };
                    let offset = normal.dot(p[i]);
                    let (mut above, mut below) = (false, false);
                    for q in &p {
                        let d = normal.dot(*q) - offset;
                        above |= d > eps;
                        below |= d < -eps;
                    }
                    let (normal, offset) = match (above, below) {
                        (false, true) => (normal, offset),
                        (true, false) => (-normal, -offset),
                        _ => continue,
                    };
                    let known = planes
                        .iter()
                        .any(|(m, o)| m.dot(normal) > 1.0 - 1e-9 && (o - offset).abs() <= eps);
                    if !known {
                        planes.push((normal, offset));
                    }
                }
            }
        }
        for (normal, offset) in planes {
            let on: Vec<usize> = (0..n)
                .filter(|&q| (normal.dot(p[q]) - offset).abs() <= eps)
                .collect();
            let ring = ring_about(&p, &on, normal);
            let start = usize::from(out.starts[usize::from(out.count)]);
            if out.count as usize == MAX_FACES || start + ring.len() > MAX_CORNERS || ring.len() < 3
            {
                continue;
            }
            for (slot, &q) in ring.iter().enumerate() {
                out.corners[start + slot] = q as u8;
            }
            out.normals[usize::from(out.count)] = normal.as_vec3();
            out.count += 1;
            out.starts[usize::from(out.count)] = (start + ring.len()) as u8;
        }
        out
    }

    /// How many faces.
    pub(crate) fn len(&self) -> usize {
        usize::from(self.count)
    }

    /// Face `k`'s outward unit normal.
    pub(crate) fn normal(&self, k: usize) -> Vec3 {
        self.normals[k]
    }

    /// Face `k`'s corners, counter-clockwise about its normal.
    pub(crate) fn corners(&self, k: usize) -> &[u8] {
        &self.corners[usize::from(self.starts[k])..usize::from(self.starts[k + 1])]
    }

    /// The face whose normal is nearest `dir` (the first of equals).
    pub(crate) fn toward(&self, dir: Vec3) -> usize {
        (1..self.len()).fold(0, |best, k| {
            if self.normals[k].dot(dir) > self.normals[best].dot(dir) {
                k
            } else {
                best
            }
        })
    }
}

/// The points `on` (indices into `p`, all in one plane of normal `normal`)
/// that are corners of their own convex hull, counter-clockwise about
/// `normal`; repeated points once.
fn ring_about(p: &[DVec3], on: &[usize], normal: DVec3) -> Vec<usize> {
    let u = normal.any_orthonormal_vector();
    let v = normal.cross(u);
    let mut flat: Vec<(DVec2, usize)> = on
        .iter()
        .map(|&q| (DVec2::new(p[q].dot(u), p[q].dot(v)), q))
        .collect();
    flat.sort_by(|a, b| {
        a.0.x
            .total_cmp(&b.0.x)
            .then(a.0.y.total_cmp(&b.0.y))
            .then(a.1.cmp(&b.1))
    });
    flat.dedup_by(|a, b| a.0 == b.0);
    if flat.len() < 3 {
        return flat.iter().map(|f| f.1).collect();
    }
    // Andrew's monotone chain: lower then upper hull, counter-clockwise in
    // (u, v), which is counter-clockwise about u x v = normal.
    let turn = |o: DVec2, a: DVec2, b: DVec2| (a - o).perp_dot(b - o);
    let mut hull: Vec<(DVec2, usize)> = Vec::new();
    let mut chain = |points: &mut dyn Iterator<Item = &(DVec2, usize)>| {
        let start = hull.len();
        for &q in points {
            while hull.len() >= start + 2
                && turn(hull[hull.len() - 2].0, hull[hull.len() - 1].0, q.0) <= 0.0
            {
                hull.pop();
            }
            hull.push(q);
        }
        hull.pop();
    };
    chain(&mut flat.iter());
    chain(&mut flat.iter().rev());
    hull.iter().map(|h| h.1).collect()
}

#[cfg(test)]
mod tests {
    use super::HullFaces;
    use glam::Vec3;

    fn cube() -> Vec<Vec3> {
        (0..8)
            .map(|k| Vec3::new((k & 1) as f32, ((k >> 1) & 1) as f32, ((k >> 2) & 1) as f32))
            .collect()
    }

    #[test]
    fn a_cube_has_six_square_faces_counter_clockwise_about_their_normals() {
        // With a point inside it and one in the middle of a face, which
        // are no corners.
        let mut points = cube();
        points.push(Vec3::splat(0.5));
        points.push(Vec3::new(0.5, 1.0, 0.5));
        let faces = HullFaces::new(&points);
        assert_eq!(faces.len(), 6);
        for k in 0..faces.len() {
            let (n, c) = (faces.normal(k), faces.corners(k));
            assert_eq!(c.len(), 4, "face {k}: {c:?}");
            assert!(c.iter().all(|&i| i < 8));
            let p = |i: usize| points[usize::from(c[i])];
            // Counter-clockwise about the outward normal.
            assert!((p(1) - p(0)).cross(p(2) - p(1)).dot(n) > 0.0, "face {k}");
            assert!((p(0) - Vec3::splat(0.5)).dot(n) > 0.0, "face {k} outward");
        }
        assert_eq!(
            faces.toward(Vec3::new(0.1, 0.9, 0.0)),
            faces.toward(Vec3::Y)
        );
    }

    #[test]
    fn a_tetrahedron_has_four_triangles() {
        let faces = HullFaces::new(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z]);
        assert_eq!(faces.len(), 4);
        assert!((0..4).all(|k| faces.corners(k).len() == 3));
    }
}
