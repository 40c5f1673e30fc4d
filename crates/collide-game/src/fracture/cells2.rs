//! Voronoi cells in 2D by clipping: a site's cell is the object's bounds
//! cut by the bisector of each nearby site, nearest first, until no site
//! left can reach it (none closer than twice the cell's radius).

use collide::glam::DVec2;

/// Keeps the part of the convex polygon `poly` where `(p - origin) .
/// normal <= 0`, into `out` (cleared first); fewer than 3 corners means
/// nothing is left.
pub(crate) fn clip(poly: &[DVec2], origin: DVec2, normal: DVec2, out: &mut Vec<DVec2>) {
    out.clear();
    let n = poly.len();
    for k in 0..n {
        let (a, b) = (poly[k], poly[(k + 1) % n]);
        let (da, db) = ((a - origin).dot(normal), (b - origin).dot(normal));
        if da <= 0.0 {
            out.push(a);
        }
        if (da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0) {
            out.push(a + (b - a) * (da / (da - db)));
        }
    }
    if out.len() < 3 {
        out.clear();
    }
}

/// [`clip`] of `poly` in place (`scratch` is reused memory); a plane that
/// leaves every corner inside changes nothing and writes nothing.
#[inline]
pub(crate) fn clip_in_place(
    poly: &mut Vec<DVec2>,
    origin: DVec2,
    normal: DVec2,
    scratch: &mut Vec<DVec2>,
) {
    if poly.iter().all(|&p| (p - origin).dot(normal) <= 0.0) {
        return;
    }
    clip(poly, origin, normal, scratch);
    std::mem::swap(poly, scratch);
}

/// Area and centroid of a counter-clockwise polygon (shoelace).
pub(crate) fn area_centroid(poly: &[DVec2]) -> (f64, DVec2) {
    let (mut twice, mut sum) = (0.0, DVec2::ZERO);
    let origin = poly.first().copied().unwrap_or_default();
    for k in 1..poly.len().saturating_sub(1) {
        let (a, b) = (poly[k] - origin, poly[k + 1] - origin);
        let cross = a.perp_dot(b);
        twice += cross;
        sum += (a + b) * cross;
    }
    if twice == 0.0 {
        return (0.0, origin);
    }
    (0.5 * twice, origin + sum / (3.0 * twice))
}

/// Each site's Voronoi neighbours: the sites it shares an edge with in
/// the Delaunay triangulation (`delaunator`), as `(starts, list)` where
/// site `i`'s neighbours are `list[starts[i]..starts[i + 1]]`; sites in a
/// line are neighbours in their order along it. `None` when some site
/// has no neighbour (the triangulation skipped it as a near-duplicate).
pub(crate) fn delaunay_neighbours(sites: &[DVec2]) -> Option<(Vec<u32>, Vec<u32>)> {
    let points: Vec<delaunator::Point> = sites
        .iter()
        .map(|s| delaunator::Point { x: s.x, y: s.y })
        .collect();
    let t = delaunator::triangulate(&points);
    let mut pairs: Vec<(u32, u32)> = Vec::with_capacity(t.triangles.len() + sites.len());
    if t.triangles.is_empty() {
        for w in t.hull.windows(2) {
            pairs.push((w[0] as u32, w[1] as u32));
        }
    } else {
        for e in 0..t.triangles.len() {
            let twin = t.halfedges[e];
            // Each edge once: from its lower half-edge, or its only one.
            if twin != delaunator::EMPTY && twin < e {
                continue;
            }
            let next = if e % 3 == 2 { e - 2 } else { e + 1 };
            pairs.push((t.triangles[e] as u32, t.triangles[next] as u32));
        }
    }
    let (starts, list) = super::bonds::neighbour_lists(sites.len(), &pairs);
    if sites.len() > 1 && (0..sites.len()).any(|k| starts[k] == starts[k + 1]) {
        return None;
    }
    Some((starts, list))
}

/// Site `site`'s cell within the convex polygon `bounds`: cut by the
/// bisector with each of its `neighbours`.
pub(crate) fn cell_of_neighbours(
    sites: &[DVec2],
    site: usize,
    neighbours: &[u32],
    bounds: &[DVec2],
    cell: &mut Vec<DVec2>,
    scratch: &mut Vec<DVec2>,
) {
    let s = sites[site];
    cell.clear();
    cell.extend_from_slice(bounds);
    for &j in neighbours {
        let other = sites[j as usize];
        clip_in_place(cell, 0.5 * (s + other), other - s, scratch);
        if cell.is_empty() {
            return;
        }
    }
}

/// Sites bucketed in a uniform grid over their bounds, for visiting them
/// nearest first.
pub(crate) struct SiteGrid<'a> {
    sites: &'a [DVec2],
    lo: DVec2,
    cell: f64,
    across: i64,
    down: i64,
    /// Per grid cell: where its sites start in `order` (cells + 1).
    starts: Vec<u32>,
    order: Vec<u32>,
}

impl<'a> SiteGrid<'a> {
    pub(crate) fn new(sites: &'a [DVec2]) -> Self {
        let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
        for &s in sites {
            lo = lo.min(s);
            hi = hi.max(s);
        }
        let size = (hi - lo).max(DVec2::splat(1e-9));
        // About two sites a cell.
        let cell = (size.x * size.y / (sites.len().max(1) as f64 / 2.0))
            .sqrt()
            .max(1e-9);
        let across = ((size.x / cell).ceil() as i64).clamp(1, 4096);
        let down = ((size.y / cell).ceil() as i64).clamp(1, 4096);
        let mut grid = Self {
            sites,
            lo,
            cell,
            across,
            down,
            starts: vec![0; (across * down + 1) as usize],
            order: vec![0; sites.len()],
        };
        for &s in sites {
            let c = grid.cell_of(s);
            grid.starts[c + 1] += 1;
        }
        for c in 1..grid.starts.len() {
            grid.starts[c] += grid.starts[c - 1];
        }
        let mut fill = grid.starts.clone();
        for (i, &s) in sites.iter().enumerate() {
            let c = grid.cell_of(s);
            grid.order[fill[c] as usize] = i as u32;
            fill[c] += 1;
        }
        grid
    }

    fn coords(&self, s: DVec2) -> (i64, i64) {
        let q = (s - self.lo) / self.cell;
        (
            (q.x.floor() as i64).clamp(0, self.across - 1),
            (q.y.floor() as i64).clamp(0, self.down - 1),
        )
    }

    fn cell_of(&self, s: DVec2) -> usize {
        let (x, y) = self.coords(s);
        (y * self.across + x) as usize
    }

    /// Site `i`'s cell within the convex polygon `bounds`, into `cell`;
    /// `scratch` is reused memory.
    pub(crate) fn cell(
        &self,
        i: usize,
        bounds: &[DVec2],
        cell: &mut Vec<DVec2>,
        scratch: &mut Vec<DVec2>,
    ) {
        let site = self.sites[i];
        cell.clear();
        cell.extend_from_slice(bounds);
        let (cx, cy) = self.coords(site);
        let rings = self.across.max(self.down);
        // The cell's squared radius around the site: a site twice as far
        // cannot cut it.
        let radius = |cell: &[DVec2]| {
            cell.iter()
                .map(|v| v.distance_squared(site))
                .fold(0.0, f64::max)
        };
        let mut reach = radius(cell);
        for ring in 0..=rings {
            // Every site in this ring is at least (ring - 1) cells away.
            let near = (ring - 1).max(0) as f64 * self.cell;
            if cell.is_empty() || near * near > 4.0 * reach {
                return;
            }
            for y in cy - ring..=cy + ring {
                if y < 0 || y >= self.down {
                    continue;
                }
                let on_edge = y == cy - ring || y == cy + ring;
                let step = if on_edge { 1 } else { (2 * ring).max(1) };
                let mut x = cx - ring;
                while x <= cx + ring {
                    if x >= 0 && x < self.across {
                        let c = (y * self.across + x) as usize;
                        for &j in &self.order[self.starts[c] as usize..self.starts[c + 1] as usize]
                        {
                            if j as usize == i {
                                continue;
                            }
                            let other = self.sites[j as usize];
                            if other.distance_squared(site) >= 4.0 * reach {
                                continue;
                            }
                            clip_in_place(cell, 0.5 * (site + other), other - site, scratch);
                            if cell.is_empty() {
                                return;
                            }
                            reach = radius(cell);
                        }
                    }
                    x += step;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping_a_square_in_half_keeps_half_its_area() {
        let square = [
            DVec2::new(0.0, 0.0),
            DVec2::new(2.0, 0.0),
            DVec2::new(2.0, 2.0),
            DVec2::new(0.0, 2.0),
        ];
        let mut out = Vec::new();
        clip(&square, DVec2::new(1.0, 0.0), DVec2::X, &mut out);
        let (area, centroid) = area_centroid(&out);
        assert!((area - 2.0).abs() < 1e-12);
        assert!(centroid.distance(DVec2::new(0.5, 1.0)) < 1e-12);
        clip(&square, DVec2::new(5.0, 0.0), -DVec2::X, &mut out);
        assert!(out.is_empty(), "the square lies wholly outside");
    }

    #[test]
    fn cells_match_brute_force_nearest_sites() {
        let mut rng = collide_scenes::SceneRng::new(3);
        let mut unit = || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let sites: Vec<DVec2> = (0..300)
            .map(|_| DVec2::new(unit() * 10.0, unit() * 6.0))
            .collect();
        let bounds = [
            DVec2::new(-1.0, -1.0),
            DVec2::new(11.0, -1.0),
            DVec2::new(11.0, 7.0),
            DVec2::new(-1.0, 7.0),
        ];
        let grid = SiteGrid::new(&sites);
        let (mut cell, mut scratch) = (Vec::new(), Vec::new());
        let mut total = 0.0;
        for i in 0..sites.len() {
            grid.cell(i, &bounds, &mut cell, &mut scratch);
            total += area_centroid(&cell).0;
            // Every corner is as near to the site as to any other site.
            for v in &cell {
                let own = v.distance(sites[i]);
                let nearest = sites
                    .iter()
                    .map(|s| v.distance(*s))
                    .fold(f64::INFINITY, f64::min);
                assert!(
                    own <= nearest + 1e-9,
                    "site {i}: corner {v} is nearer another site"
                );
            }
        }
        assert!((total - 96.0).abs() < 1e-9, "{total}");
    }
}
