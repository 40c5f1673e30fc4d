//! Fracture in 2D: an object made of convex polygons broken into convex
//! [`Piece`]s, bonded where they share an edge (see the [module
//! above](super)).

pub use super::bonds::{Island, Islands, islands};

use super::FractureSettings;
use super::bonds;
use super::cells2::{self, SiteGrid, area_centroid, clip};
use crate::error::GameError;
use collide::glam::DVec2;
use collide::narrow::d2::Polygon;

/// One convex piece.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    pub(super) site: usize,
    pub(super) part: usize,
    pub(super) corners: Vec<DVec2>,
    pub(super) area: f64,
    pub(super) centroid: DVec2,
}

impl Piece {
    /// The index of its site among the sites kept (see
    /// [`Fracture::sites`]).
    pub fn site(&self) -> usize {
        self.site
    }

    /// The index of the object's convex part it lies in.
    pub fn part(&self) -> usize {
        self.part
    }

    /// Its corners, counter-clockwise (at most
    /// [`Polygon::MAX_VERTICES`]).
    pub fn corners(&self) -> &[DVec2] {
        &self.corners
    }

    /// Its area.
    pub fn area(&self) -> f64 {
        self.area
    }

    /// Its centroid.
    pub fn centroid(&self) -> DVec2 {
        self.centroid
    }

    /// The piece as a narrow-phase shape, its corners relative to its
    /// centroid (place it at [`Piece::centroid`]).
    pub fn shape(&self) -> Result<Polygon, collide::narrow::ShapeError> {
        let local: Vec<collide::glam::Vec2> = self
            .corners
            .iter()
            .map(|&c| (c - self.centroid).as_vec2())
            .collect();
        Polygon::new(&local)
    }
}

/// The pieces of a fractured object and the bonds between them.
#[derive(Clone, Debug, PartialEq)]
pub struct Fracture {
    pub(super) sites: Vec<DVec2>,
    pub(super) pieces: Vec<Piece>,
    pub(super) bonds: Vec<(u32, u32)>,
}

impl Fracture {
    /// The sites kept (after merging close ones), in the order given.
    pub fn sites(&self) -> &[DVec2] {
        &self.sites
    }

    /// The pieces, by site, then by part.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// Pairs of pieces (lower index first) that share an edge of positive
    /// length, sorted.
    pub fn bonds(&self) -> &[(u32, u32)] {
        &self.bonds
    }
}

/// The largest coordinate magnitude accepted: far enough for any level,
/// near enough that f64 keeps a millionth of a unit and the grid keys of
/// the merge stay in range.
const COORDINATE_LIMIT: f64 = 1e12;

/// `c` if both coordinates are finite and within [`COORDINATE_LIMIT`].
fn coordinate(what: &'static str, c: DVec2) -> Result<DVec2, GameError> {
    for value in [c.x, c.y] {
        crate::error::finite(what, value)?;
        if value.abs() > COORDINATE_LIMIT {
            return Err(GameError::TooLarge {
                what,
                value,
                limit: COORDINATE_LIMIT,
            });
        }
    }
    Ok(c)
}

/// Checks that `part` is a convex counter-clockwise polygon with an area:
/// every corner on the left of (or on) every edge, and no edge turning
/// back along the one before it.
fn convex(part: &[DVec2], index: usize) -> Result<f64, GameError> {
    let bad = GameError::NotConvex {
        what: "part",
        index,
    };
    if part.len() < 3 {
        return Err(bad);
    }
    for &c in part {
        coordinate("part corner", c)?;
    }
    let (area, _) = area_centroid(part);
    let n = part.len();
    let size = part.iter().map(|c| c.length()).fold(1.0, f64::max);
    let tolerance = 1e-12 * size;
    for k in 0..n {
        let (a, b, c) = (part[k], part[(k + 1) % n], part[(k + 2) % n]);
        let edge = b - a;
        if (b - a).perp_dot(c - b) <= tolerance * edge.length() && edge.dot(c - b) < 0.0 {
            return Err(bad);
        }
        let length = edge.length();
        if part
            .iter()
            .any(|&p| edge.perp_dot(p - a) < -tolerance * length)
        {
            return Err(bad);
        }
    }
    if area > 0.0 { Ok(area) } else { Err(bad) }
}

/// Breaks the object made of the convex `parts` (counter-clockwise, not
/// overlapping) into the Voronoi cells of `sites` clipped to each part.
/// Sites may lie outside the object; those whose cell misses it give no
/// piece.
pub fn fracture(
    parts: &[Vec<DVec2>],
    sites: &[DVec2],
    settings: &FractureSettings,
) -> Result<Fracture, GameError> {
    if parts.is_empty() {
        return Err(GameError::Empty { what: "parts" });
    }
    if sites.is_empty() {
        return Err(GameError::Empty { what: "sites" });
    }
    let mut total = 0.0;
    for (index, part) in parts.iter().enumerate() {
        total += convex(part, index)?;
    }
    for &s in sites {
        coordinate("site coordinate", s)?;
    }
    // Everything is computed around the parts' centre, where f64 (and the
    // f32 boxes of the bond search) are finest, and moved back after.
    let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
    for c in parts.iter().flatten() {
        lo = lo.min(*c);
        hi = hi.max(*c);
    }
    let centre = 0.5 * (lo + hi);
    let (lo, hi) = (lo - centre, hi - centre);
    let parts: Vec<Vec<DVec2>> = parts
        .iter()
        .map(|part| part.iter().map(|&c| c - centre).collect())
        .collect();
    let local: Vec<DVec2> = sites.iter().map(|&s| s - centre).collect();
    let kept = merged(&local, settings.merge_distance);
    // The bounds every cell starts from: the parts' box (a cell beyond it
    // has no piece), grown a little.
    let margin = 1e-3 * (hi - lo).max_element();
    let (lo, hi) = (lo - margin, hi + margin);
    let bounds = [lo, DVec2::new(hi.x, lo.y), hi, DVec2::new(lo.x, hi.y)];
    // Each cell from its Delaunay neighbours; where the triangulation
    // dropped a site, from every site near enough, through a grid.
    let neighbours = cells2::delaunay_neighbours(&kept);
    let grid = neighbours.is_none().then(|| SiteGrid::new(&kept));
    let (mut cell, mut scratch, mut piece) = (Vec::new(), Vec::new(), Vec::new());
    let mut pieces = Vec::new();
    for site in 0..kept.len() {
        match (&neighbours, &grid) {
            (Some((starts, list)), _) => {
                let near = &list[starts[site] as usize..starts[site + 1] as usize];
                cells2::cell_of_neighbours(&kept, site, near, &bounds, &mut cell, &mut scratch);
            }
            (None, Some(grid)) => grid.cell(site, &bounds, &mut cell, &mut scratch),
            (None, None) => unreachable!("a grid is built whenever neighbours are not"),
        }
        for (p, part) in parts.iter().enumerate() {
            piece.clear();
            piece.extend_from_slice(&cell);
            let n = part.len();
            for k in 0..n {
                let (a, b) = (part[k], part[(k + 1) % n]);
                let d = b - a;
                cells2::clip_in_place(&mut piece, a, DVec2::new(d.y, -d.x), &mut scratch);
                if piece.is_empty() {
                    break;
                }
            }
            let (area, _) = area_centroid(&piece);
            // Slivers below a billionth of the object are rounding.
            if piece.is_empty() || area <= 1e-12 * total {
                continue;
            }
            split_into(&piece, site, p, &mut pieces);
        }
    }
    let reach = hi.max(-lo).max_element();
    let bonds = match &neighbours {
        Some((starts, list)) => bonds::find_by_sites(&pieces, (starts, list), total, reach),
        None => bonds::find(&pieces, total, reach),
    };
    for piece in &mut pieces {
        piece.centroid += centre;
        for c in &mut piece.corners {
            *c += centre;
        }
    }
    Ok(Fracture {
        sites: kept.iter().map(|&s| s + centre).collect(),
        pieces,
        bonds,
    })
}

/// The sites, each dropped when within `distance` of an earlier one kept.
fn merged(sites: &[DVec2], distance: f64) -> Vec<DVec2> {
    let mut kept: Vec<DVec2> = Vec::with_capacity(sites.len());
    if distance == 0.0 {
        // Only exact duplicates (0 and -0 alike) go.
        let mut seen: rustc_hash::FxHashSet<(u64, u64)> = Default::default();
        for &s in sites {
            if seen.insert(((s.x + 0.0).to_bits(), (s.y + 0.0).to_bits())) {
                kept.push(s);
            }
        }
        return kept;
    }
    // A grid of cells `distance` wide: a close site is in a neighbouring
    // cell. Per cell, the last site kept there, and per kept site the one
    // kept there before it.
    let mut last: rustc_hash::FxHashMap<(i64, i64), usize> = Default::default();
    let mut before: Vec<usize> = Vec::with_capacity(sites.len());
    // Keys clamped well inside i64, so their neighbours never overflow
    // (clamped far sites only share a key: the distance test decides).
    let key = |s: DVec2| {
        let k = |v: f64| ((v / distance).floor()).clamp(-1e15, 1e15) as i64;
        (k(s.x), k(s.y))
    };
    for &s in sites {
        let (x, y) = key(s);
        let close = (x - 1..=x + 1).any(|cx| {
            (y - 1..=y + 1).any(|cy| {
                let mut at = last.get(&(cx, cy)).copied();
                while let Some(k) = at {
                    if kept[k].distance(s) < distance {
                        return true;
                    }
                    at = (before[k] != usize::MAX).then_some(before[k]);
                }
                false
            })
        });
        if !close {
            before.push(last.insert((x, y), kept.len()).unwrap_or(usize::MAX));
            kept.push(s);
        }
    }
    kept
}

/// Pushes `poly` as pieces of at most [`Polygon::MAX_VERTICES`] corners,
/// cut in two through its centroid, across its longest reach, as often as
/// needed.
fn split_into(poly: &[DVec2], site: usize, part: usize, out: &mut Vec<Piece>) {
    let (area, centroid) = area_centroid(poly);
    if poly.len() <= Polygon::MAX_VERTICES {
        out.push(Piece {
            site,
            part,
            corners: poly.to_vec(),
            area,
            centroid,
        });
        return;
    }
    let far = poly
        .iter()
        .copied()
        .max_by(|a, b| {
            a.distance_squared(centroid)
                .total_cmp(&b.distance_squared(centroid))
        })
        .expect("a polygon has corners");
    let normal = far - centroid;
    let (mut one, mut other) = (Vec::new(), Vec::new());
    clip(poly, centroid, normal, &mut one);
    clip(poly, centroid, -normal, &mut other);
    for half in [one, other] {
        if !half.is_empty() {
            split_into(&half, site, part, out);
        }
    }
}
