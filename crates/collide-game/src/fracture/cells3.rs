//! Convex polyhedra for 3D fracture: each a list of faces (corners
//! counter-clockwise seen from outside), clipped by planes, with volume
//! and centroid.

use collide::glam::DVec3;

/// A convex polyhedron as its faces.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Hull {
    pub(crate) faces: Vec<Vec<DVec3>>,
}

impl Hull {
    /// The box from `lo` to `hi`.
    pub(crate) fn cuboid(lo: DVec3, hi: DVec3) -> Self {
        let c = |x: bool, y: bool, z: bool| {
            DVec3::new(
                if x { hi.x } else { lo.x },
                if y { hi.y } else { lo.y },
                if z { hi.z } else { lo.z },
            )
        };
        let (f, t) = (false, true);
        Self {
            faces: vec![
                vec![c(f, f, f), c(f, t, f), c(t, t, f), c(t, f, f)], // z low
                vec![c(f, f, t), c(t, f, t), c(t, t, t), c(f, t, t)], // z high
                vec![c(f, f, f), c(t, f, f), c(t, f, t), c(f, f, t)], // y low
                vec![c(f, t, f), c(f, t, t), c(t, t, t), c(t, t, f)], // y high
                vec![c(f, f, f), c(f, f, t), c(f, t, t), c(f, t, f)], // x low
                vec![c(t, f, f), c(t, t, f), c(t, t, t), c(t, f, t)], // x high
            ],
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.faces.len() < 4
    }

    /// The distinct corners (equal within `tolerance`).
    pub(crate) fn corners(&self, tolerance: f64) -> Vec<DVec3> {
        let mut out: Vec<DVec3> = Vec::new();
        for &p in self.faces.iter().flatten() {
            if !out
                .iter()
                .any(|q| q.distance_squared(p) <= tolerance * tolerance)
            {
                out.push(p);
            }
        }
        out
    }

    /// Keeps the part where `(p - origin) . normal <= 0`, in place: each
    /// face clipped, and a cap face on the plane from the points where
    /// edges crossed it. A plane that cuts nothing changes nothing.
    pub(crate) fn clip_in_place(&mut self, origin: DVec3, normal: DVec3) {
        if let Some(cut) = self.cut(origin, normal) {
            *self = cut;
        }
    }

    /// [`Hull::clip_in_place`] into a new hull.
    pub(crate) fn clip(&self, origin: DVec3, normal: DVec3) -> Hull {
        self.cut(origin, normal).unwrap_or_else(|| self.clone())
    }

    /// The part where `(p - origin) . normal <= 0`, or `None` when that is
    /// all of it.
    fn cut(&self, origin: DVec3, normal: DVec3) -> Option<Hull> {
        let side = |p: DVec3| (p - origin).dot(normal);
        if self.faces.iter().flatten().all(|&p| side(p) <= 0.0) {
            return None;
        }
        let mut faces = Vec::with_capacity(self.faces.len() + 1);
        let mut cap: Vec<DVec3> = Vec::new();
        for face in &self.faces {
            let mut out = Vec::with_capacity(face.len() + 1);
            let n = face.len();
            for k in 0..n {
                let (a, b) = (face[k], face[(k + 1) % n]);
                let (da, db) = (side(a), side(b));
                if da <= 0.0 {
                    out.push(a);
                }
                if da == 0.0 {
                    cap.push(a);
                }
                if (da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0) {
                    let p = a + (b - a) * (da / (da - db));
                    out.push(p);
                    cap.push(p);
                }
            }
            if out.len() >= 3 {
                faces.push(out);
            }
        }
        if cap.len() >= 3 {
            // Order the cap's points around their centre, counter-clockwise
            // seen from outside (along `normal`).
            let centre = cap.iter().copied().sum::<DVec3>() / cap.len() as f64;
            let u = (cap[0] - centre).normalize_or_zero();
            let v = normal.normalize().cross(u);
            let mut keyed: Vec<(f64, DVec3)> = cap
                .iter()
                .map(|&p| ((p - centre).dot(v).atan2((p - centre).dot(u)), p))
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut ring: Vec<DVec3> = Vec::with_capacity(keyed.len());
            let scale = cap.iter().map(|p| p.distance(centre)).fold(0.0, f64::max);
            for (_, p) in keyed {
                if ring
                    .last()
                    .is_none_or(|q: &DVec3| q.distance(p) > 1e-12 * scale)
                {
                    ring.push(p);
                }
            }
            while ring.len() > 1 && ring[0].distance(ring[ring.len() - 1]) <= 1e-12 * scale {
                ring.pop();
            }
            if ring.len() >= 3 {
                faces.push(ring);
            }
        }
        Some(Hull { faces })
    }

    /// Volume and centroid, by tetrahedra from the first corner to each
    /// face's fan.
    pub(crate) fn volume_centroid(&self) -> (f64, DVec3) {
        let Some(&apex) = self.faces.first().and_then(|f| f.first()) else {
            return (0.0, DVec3::ZERO);
        };
        let (mut volume, mut sum) = (0.0, DVec3::ZERO);
        for face in &self.faces {
            for k in 1..face.len().saturating_sub(1) {
                let (a, b, c) = (face[0] - apex, face[k] - apex, face[k + 1] - apex);
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
}
