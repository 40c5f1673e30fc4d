//! Convex polyhedra for 3D fracture: shared corners and faces that index
//! them (counter-clockwise seen from outside), clipped by planes, with
//! volume and centroid. Each corner's side of a plane is computed once, so
//! faces that share an edge agree on where it is cut, and the cap face is
//! chained from the cut edges rather than sorted by angle.

use collide::glam::DVec3;

/// A convex polyhedron as corners and the faces around them.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Hull {
    points: Vec<DVec3>,
    /// Face `k`'s corners are `corners[starts[k]..starts[k + 1]]`.
    corners: Vec<u32>,
    starts: Vec<u32>,
}

/// Reused memory for [`Hull::clip_in_place`].
#[derive(Debug, Default)]
pub(crate) struct Clipper {
    side: Vec<f64>,
    /// Each old corner's index in the clipped hull, for those kept.
    remap: Vec<u32>,
    /// Edges cut so far, `(lower corner, higher corner, new corner)`.
    cut_edges: Vec<(u32, u32, u32)>,
    /// The cap's edges, `(from, to)`, and whether each is used.
    cap: Vec<(u32, u32, bool)>,
    out: Hull,
}

impl Hull {
    /// The box from `lo` to `hi`.
    pub(crate) fn cuboid(lo: DVec3, hi: DVec3) -> Self {
        let points = (0..8)
            .map(|k| {
                DVec3::new(
                    if k & 1 == 0 { lo.x } else { hi.x },
                    if k & 2 == 0 { lo.y } else { hi.y },
                    if k & 4 == 0 { lo.z } else { hi.z },
                )
            })
            .collect();
        #[rustfmt::skip]
        let corners = vec![
            0, 2, 3, 1, // z low
            4, 5, 7, 6, // z high
            0, 1, 5, 4, // y low
            2, 6, 7, 3, // y high
            0, 4, 6, 2, // x low
            1, 3, 7, 5, // x high
        ];
        Self {
            points,
            corners,
            starts: vec![0, 4, 8, 12, 16, 20, 24],
        }
    }

    /// Fewer than four faces: nothing with a volume is left.
    pub(crate) fn is_empty(&self) -> bool {
        self.starts.len() < 5
    }

    /// The number of faces.
    pub(crate) fn face_count(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// Face `k`'s corners, in order.
    pub(crate) fn face(&self, k: usize) -> impl ExactSizeIterator<Item = DVec3> + '_ {
        self.corners[self.starts[k] as usize..self.starts[k + 1] as usize]
            .iter()
            .map(|&c| self.points[c as usize])
    }

    /// Every corner a face uses (with repeats).
    pub(crate) fn used_points(&self) -> impl Iterator<Item = DVec3> + '_ {
        self.corners.iter().map(|&c| self.points[c as usize])
    }

    /// The distinct corners faces use (equal within `tolerance`).
    pub(crate) fn distinct_corners(&self, tolerance: f64) -> Vec<DVec3> {
        let mut out: Vec<DVec3> = Vec::new();
        for p in self.used_points() {
            if !out
                .iter()
                .any(|q| q.distance_squared(p) <= tolerance * tolerance)
            {
                out.push(p);
            }
        }
        out
    }

    /// Keeps the part where `(p - origin) . normal <= 0`, in place: faces
    /// clipped, and cap faces on the plane from the edges cut. Returns
    /// whether anything was cut away.
    pub(crate) fn clip_in_place(
        &mut self,
        origin: DVec3,
        normal: DVec3,
        clipper: &mut Clipper,
    ) -> bool {
        clipper.side.clear();
        clipper
            .side
            .extend(self.points.iter().map(|&p| (p - origin).dot(normal)));
        // Unused corners do not count: only those faces reach.
        if self
            .corners
            .iter()
            .all(|&c| clipper.side[c as usize] <= 0.0)
        {
            return false;
        }
        clipper.cut(self);
        std::mem::swap(self, &mut clipper.out);
        true
    }

    /// [`Hull::clip_in_place`] into a new hull.
    pub(crate) fn clip(&self, origin: DVec3, normal: DVec3, clipper: &mut Clipper) -> Hull {
        let mut hull = self.clone();
        hull.clip_in_place(origin, normal, clipper);
        hull
    }

    /// Volume and centroid, by tetrahedra from the first corner to each
    /// face's fan.
    pub(crate) fn volume_centroid(&self) -> (f64, DVec3) {
        let Some(&first) = self.corners.first() else {
            return (0.0, DVec3::ZERO);
        };
        let apex = self.points[first as usize];
        let (mut volume, mut sum) = (0.0, DVec3::ZERO);
        for k in 0..self.face_count() {
            let face = &self.corners[self.starts[k] as usize..self.starts[k + 1] as usize];
            let at = |i: usize| self.points[face[i] as usize] - apex;
            for i in 1..face.len().saturating_sub(1) {
                let (a, b, c) = (at(0), at(i), at(i + 1));
                let v = a.dot(b.cross(c)) / 6.0;
                volume += v;
                sum += (a + b + c) * (v / 4.0);
            }
        }
        if volume == 0.0 {
            return (0.0, apex);
        }
        (volume, apex + sum / volume)
    }

    /// The hull moved by `offset`.
    pub(crate) fn translated(&self, offset: DVec3) -> Hull {
        Hull {
            points: self.points.iter().map(|&p| p + offset).collect(),
            ..self.clone()
        }
    }

    /// Its faces as separate polygons, each corner moved by `offset`.
    pub(crate) fn face_polygons(&self, offset: DVec3) -> Vec<Vec<DVec3>> {
        (0..self.face_count())
            .map(|k| self.face(k).map(|p| p + offset).collect())
            .collect()
    }
}

impl Clipper {
    /// The new corner where the edge from `a` to `b` crosses the plane,
    /// made once per edge whichever face asks first.
    fn crossing(&mut self, hull: &Hull, a: u32, b: u32) -> u32 {
        let (lo, hi) = (a.min(b), a.max(b));
        if let Some(&(_, _, c)) = self.cut_edges.iter().find(|&&(x, y, _)| x == lo && y == hi) {
            return c;
        }
        // From the lower corner, so both faces would compute the same point.
        let (dl, dh) = (self.side[lo as usize], self.side[hi as usize]);
        let (pl, ph) = (hull.points[lo as usize], hull.points[hi as usize]);
        let at = self.out.points.len() as u32;
        self.out.points.push(pl + (ph - pl) * (dl / (dl - dh)));
        self.cut_edges.push((lo, hi, at));
        at
    }

    /// Writes `hull` clipped by the plane (sides already in `self.side`,
    /// some corner outside) into `self.out`.
    fn cut(&mut self, hull: &Hull) {
        self.out.points.clear();
        self.out.corners.clear();
        self.out.starts.clear();
        self.out.starts.push(0);
        self.cut_edges.clear();
        self.cap.clear();
        self.remap.clear();
        for (k, &p) in hull.points.iter().enumerate() {
            if self.side[k] <= 0.0 {
                self.remap.push(self.out.points.len() as u32);
                self.out.points.push(p);
            } else {
                self.remap.push(u32::MAX);
            }
        }
        let inside = |side: &[f64], c: u32| side[c as usize] <= 0.0;
        for f in 0..hull.face_count() {
            let face = &hull.corners[hull.starts[f] as usize..hull.starts[f + 1] as usize];
            let begin = self.out.corners.len();
            let (mut entry, mut exit) = (None, None);
            let n = face.len();
            for i in 0..n {
                let (a, b) = (face[i], face[(i + 1) % n]);
                let (a_in, b_in) = (inside(&self.side, a), inside(&self.side, b));
                if a_in {
                    self.out.corners.push(self.remap[a as usize]);
                }
                if a_in && !b_in {
                    // Leaving: at `a` itself when it lies on the plane.
                    let c = if self.side[a as usize] == 0.0 {
                        self.remap[a as usize]
                    } else {
                        let c = self.crossing(hull, a, b);
                        self.out.corners.push(c);
                        c
                    };
                    exit = Some(c);
                } else if !a_in && b_in {
                    let c = if self.side[b as usize] == 0.0 {
                        self.remap[b as usize]
                    } else {
                        let c = self.crossing(hull, a, b);
                        self.out.corners.push(c);
                        c
                    };
                    entry = Some(c);
                }
            }
            // The face runs exit to entry along the plane; the cap, on the
            // other side of that edge, runs entry to exit.
            if let (Some(from), Some(to)) = (entry, exit) {
                if from != to {
                    self.cap.push((from, to, false));
                }
            }
            if self.out.corners.len() - begin >= 3 {
                self.out.starts.push(self.out.corners.len() as u32);
            } else {
                self.out.corners.truncate(begin);
            }
        }
        // Chain the cap's edges into rings, one face each.
        for first in 0..self.cap.len() {
            if self.cap[first].2 {
                continue;
            }
            let begin = self.out.corners.len();
            let start = self.cap[first].0;
            let mut at = first;
            loop {
                self.cap[at].2 = true;
                let (from, to, _) = self.cap[at];
                self.out.corners.push(from);
                if to == start {
                    break;
                }
                match self.cap.iter().position(|&(f, _, used)| f == to && !used) {
                    Some(next) => at = next,
                    None => break,
                }
            }
            if self.out.corners.len() - begin >= 3 {
                self.out.starts.push(self.out.corners.len() as u32);
            } else {
                self.out.corners.truncate(begin);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cube_cut_through_a_corner_keeps_the_rest_of_its_volume() {
        let mut cube = Hull::cuboid(DVec3::ZERO, DVec3::ONE);
        assert!((cube.volume_centroid().0 - 1.0).abs() < 1e-15);
        let mut clipper = Clipper::default();
        // Cuts off the tetrahedron x + y + z >= 2.5 at the (1, 1, 1) corner.
        assert!(cube.clip_in_place(DVec3::splat(2.5 / 3.0), DVec3::ONE, &mut clipper));
        let (volume, _) = cube.volume_centroid();
        let corner = collide::math::powi(0.5f64, 3) / 6.0;
        assert!((volume - (1.0 - corner)).abs() < 1e-12, "{volume}");
        assert_eq!(cube.face_count(), 7);
        // Through two opposite edges, where corners lie on the plane.
        let mut cube = Hull::cuboid(DVec3::ZERO, DVec3::ONE);
        assert!(cube.clip_in_place(DVec3::ZERO, DVec3::new(1.0, -1.0, 0.0), &mut clipper));
        let (volume, centroid) = cube.volume_centroid();
        assert!((volume - 0.5).abs() < 1e-12, "{volume}");
        assert!(centroid.distance(DVec3::new(1.0 / 3.0, 2.0 / 3.0, 0.5)) < 1e-12);
        assert_eq!(cube.face_count(), 5, "a prism");
        // A plane that misses changes nothing.
        let before = cube.clone();
        assert!(!cube.clip_in_place(DVec3::splat(5.0), DVec3::X, &mut clipper));
        assert_eq!(cube, before);
    }
}
