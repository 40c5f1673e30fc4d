//! Voronoi fracture in 3D, first step: boxes broken into the convex
//! Voronoi cells of a set of sites, each cell clipped to the box, with
//! its volume and centroid; cells over [`MAX_CORNERS`] corners are cut in
//! two through their centroid. Bonds and islands are 2D only for now.

use super::cells3::Hull;
use crate::error::GameError;
use collide::glam::DVec3;

/// The most corners a piece keeps: the narrow phase's polyhedron limit.
pub const MAX_CORNERS: usize = 32;

/// One convex piece of a 3D fracture.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece3 {
    site: usize,
    part: usize,
    hull: Hull,
    corners: Vec<DVec3>,
    volume: f64,
    centroid: DVec3,
}

impl Piece3 {
    /// The index of its site among the sites kept.
    pub fn site(&self) -> usize {
        self.site
    }

    /// The index of the box it lies in.
    pub fn part(&self) -> usize {
        self.part
    }

    /// Its distinct corners (at most [`MAX_CORNERS`]).
    pub fn corners(&self) -> &[DVec3] {
        &self.corners
    }

    /// Its faces, each a polygon counter-clockwise seen from outside.
    pub fn faces(&self) -> &[Vec<DVec3>] {
        &self.hull.faces
    }

    /// Its volume.
    pub fn volume(&self) -> f64 {
        self.volume
    }

    /// Its centroid.
    pub fn centroid(&self) -> DVec3 {
        self.centroid
    }
}

/// The pieces of a 3D fracture.
#[derive(Clone, Debug, PartialEq)]
pub struct Fracture3 {
    sites: Vec<DVec3>,
    pieces: Vec<Piece3>,
}

impl Fracture3 {
    /// The sites kept (exact duplicates dropped), in the order given.
    pub fn sites(&self) -> &[DVec3] {
        &self.sites
    }

    /// The pieces, by site, then by box.
    pub fn pieces(&self) -> &[Piece3] {
        &self.pieces
    }
}

fn finite3(what: &'static str, p: DVec3) -> Result<DVec3, GameError> {
    for v in p.to_array() {
        crate::error::finite(what, v)?;
        if v.abs() > 1e12 {
            return Err(GameError::TooLarge {
                what,
                value: v,
                limit: 1e12,
            });
        }
    }
    Ok(p)
}

/// Breaks the boxes `parts` (each `(min, max)`, with a volume, not
/// overlapping) into the Voronoi cells of `sites`. A site's cell is cut
/// by the bisectors of the other sites nearest first, until the next is
/// more than twice the cell's radius away: O(n^2 log n) for n sites, meant
/// for the tens to hundreds of pieces a wall breaks into.
///
/// ```
/// use collide_game::fracture::fracture_3d;
/// use collide_game::glam::DVec3;
/// let wall = (DVec3::ZERO, DVec3::new(4.0, 3.0, 0.5));
/// let sites: Vec<DVec3> = (0..20).map(|k| DVec3::new(0.2 * k as f64, 0.15 * k as f64 % 3.0, 0.25)).collect();
/// let broken = fracture_3d(&[wall], &sites)?;
/// let volume: f64 = broken.pieces().iter().map(|p| p.volume()).sum();
/// assert!((volume - 6.0).abs() < 1e-9);
/// # Ok::<(), collide_game::GameError>(())
/// ```
pub fn fracture_3d(parts: &[(DVec3, DVec3)], sites: &[DVec3]) -> Result<Fracture3, GameError> {
    if parts.is_empty() {
        return Err(GameError::Empty { what: "parts" });
    }
    if sites.is_empty() {
        return Err(GameError::Empty { what: "sites" });
    }
    let (mut lo, mut hi) = (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY));
    for (index, &(a, b)) in parts.iter().enumerate() {
        finite3("box corner", a)?;
        finite3("box corner", b)?;
        if !(a.x < b.x && a.y < b.y && a.z < b.z) {
            return Err(GameError::NotConvex { what: "box", index });
        }
        lo = lo.min(a);
        hi = hi.max(b);
    }
    let mut kept: Vec<DVec3> = Vec::with_capacity(sites.len());
    for &s in sites {
        finite3("site coordinate", s)?;
        if !kept.contains(&s) {
            kept.push(s);
        }
    }
    // Around the boxes' centre, moved back at the end.
    let centre = 0.5 * (lo + hi);
    let local: Vec<DVec3> = kept.iter().map(|&s| s - centre).collect();
    let margin = 1e-3 * (hi - lo).max_element();
    let bounds = Hull::cuboid(lo - centre - margin, hi - centre + margin);
    let scale = (hi - lo).max_element();
    let mut order: Vec<(f64, usize)> = Vec::with_capacity(local.len());
    let mut pieces = Vec::new();
    for (i, &site) in local.iter().enumerate() {
        order.clear();
        order.extend(
            local
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(j, &o)| (o.distance_squared(site), j)),
        );
        order.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut cell = bounds.clone();
        for &(d2, j) in &order {
            let reach = cell
                .faces
                .iter()
                .flatten()
                .map(|p| p.distance_squared(site))
                .fold(0.0, f64::max);
            if cell.is_empty() || d2 > 4.0 * reach {
                break;
            }
            let other = local[j];
            cell = cell.clip(0.5 * (site + other), other - site);
        }
        for (p, &(a, b)) in parts.iter().enumerate() {
            let (a, b) = (a - centre, b - centre);
            let mut piece = cell.clone();
            for (origin, normal) in [
                (a, -DVec3::X),
                (a, -DVec3::Y),
                (a, -DVec3::Z),
                (b, DVec3::X),
                (b, DVec3::Y),
                (b, DVec3::Z),
            ] {
                piece = piece.clip(origin, normal);
                if piece.is_empty() {
                    break;
                }
            }
            let (volume, _) = piece.volume_centroid();
            if piece.is_empty() || volume <= 1e-12 * scale.powi(3) {
                continue;
            }
            split_into(piece, i, p, scale, centre, &mut pieces);
        }
    }
    Ok(Fracture3 {
        sites: kept,
        pieces,
    })
}

/// Pushes `hull` as pieces of at most [`MAX_CORNERS`] corners, cut through
/// the centroid across the farthest corner as often as needed, moved back
/// by `centre`.
fn split_into(
    hull: Hull,
    site: usize,
    part: usize,
    scale: f64,
    centre: DVec3,
    out: &mut Vec<Piece3>,
) {
    let (volume, centroid) = hull.volume_centroid();
    let corners = hull.corners(1e-12 * scale);
    if corners.len() <= MAX_CORNERS {
        let hull = Hull {
            faces: hull
                .faces
                .into_iter()
                .map(|f| f.into_iter().map(|c| c + centre).collect())
                .collect(),
        };
        out.push(Piece3 {
            site,
            part,
            hull,
            corners: corners.into_iter().map(|c| c + centre).collect(),
            volume,
            centroid: centroid + centre,
        });
        return;
    }
    let far = corners
        .iter()
        .copied()
        .max_by(|a, b| {
            a.distance_squared(centroid)
                .total_cmp(&b.distance_squared(centroid))
        })
        .expect("a hull has corners");
    let normal = far - centroid;
    for half in [hull.clip(centroid, normal), hull.clip(centroid, -normal)] {
        if !half.is_empty() {
            split_into(half, site, part, scale, centre, out);
        }
    }
}
