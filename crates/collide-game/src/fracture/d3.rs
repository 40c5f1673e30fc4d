//! Voronoi fracture in 3D, first step: boxes broken into the convex
//! Voronoi cells of a set of sites, each cell clipped to the box, with
//! its volume and centroid; cells over [`MAX_CORNERS`] corners are cut in
//! two through their centroid. Pieces whose faces lie on one plane facing
//! each other and overlap over a positive area are bonded, and
//! [`islands`] finds what stays on an anchor and what falls.

use super::cells3::{Clipper, Hull};
use crate::error::GameError;
use collide::glam::DVec3;
use collide::math;
use collide::narrow::d3::Polyhedron;

/// The most corners a piece keeps: the narrow phase's polyhedron limit.
pub const MAX_CORNERS: usize = 32;

/// One convex piece of a 3D fracture.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    site: usize,
    part: usize,
    faces: Vec<Vec<DVec3>>,
    corners: Vec<DVec3>,
    volume: f64,
    centroid: DVec3,
}

impl Piece {
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
        &self.faces
    }

    /// Its volume.
    pub fn volume(&self) -> f64 {
        self.volume
    }

    /// Its centroid.
    pub fn centroid(&self) -> DVec3 {
        self.centroid
    }

    /// The piece as a narrow-phase shape, its corners relative to its
    /// centroid (place it at [`Piece::centroid`]).
    pub fn shape(&self) -> Result<Polyhedron, collide::narrow::ShapeError> {
        let local: Vec<collide::glam::Vec3> = self
            .corners
            .iter()
            .map(|&c| (c - self.centroid).as_vec3())
            .collect();
        Polyhedron::new(&local)
    }
}

/// The pieces of a 3D fracture.
#[derive(Clone, Debug, PartialEq)]
pub struct Fracture {
    sites: Vec<DVec3>,
    pieces: Vec<Piece>,
    bonds: Vec<(u32, u32)>,
}

impl Fracture {
    /// The sites kept (exact duplicates dropped), in the order given.
    pub fn sites(&self) -> &[DVec3] {
        &self.sites
    }

    /// The pieces, by site, then by box.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// Pairs of pieces (lower index first) with faces on one plane, facing
    /// each other, overlapping over a positive area; sorted.
    pub fn bonds(&self) -> &[(u32, u32)] {
        &self.bonds
    }
}

/// A group of 3D pieces joined by bonds.
#[derive(Clone, Debug, PartialEq)]
pub struct Island {
    pieces: Vec<u32>,
    volume: f64,
    centroid: DVec3,
}

impl Island {
    /// Its pieces' indices, ascending.
    pub fn pieces(&self) -> &[u32] {
        &self.pieces
    }

    /// Its volume (the mass, at unit density).
    pub fn volume(&self) -> f64 {
        self.volume
    }

    /// Its centroid.
    pub fn centroid(&self) -> DVec3 {
        self.centroid
    }
}

/// What stays and what falls, in 3D.
#[derive(Clone, Debug, PartialEq)]
pub struct Islands {
    anchored: Vec<u32>,
    falling: Vec<Island>,
}

impl Islands {
    /// The pieces still joined to an anchor, ascending.
    pub fn anchored(&self) -> &[u32] {
        &self.anchored
    }

    /// The groups cut off from every anchor, each to fall as one body.
    pub fn falling(&self) -> &[Island] {
        &self.falling
    }
}

/// [`super::d2::islands`] for 3D: the pieces not `gone` split by their bonds
/// into the groups joined to a piece `anchored` says is fixed, and the
/// groups that fall.
pub fn islands(
    fracture: &Fracture,
    gone: &[bool],
    anchored: impl Fn(&Piece) -> bool,
) -> Result<Islands, GameError> {
    let pieces = &fracture.pieces;
    let gone = super::bonds::gone_flags(gone, pieces.len())?;
    let (kept, groups) = super::bonds::components(pieces.len(), &fracture.bonds, gone, |k| {
        anchored(&pieces[k])
    });
    let falling = groups
        .into_iter()
        .map(|group| {
            let volume: f64 = group.iter().map(|&k| pieces[k as usize].volume).sum();
            let moment: DVec3 = group
                .iter()
                .map(|&k| pieces[k as usize].centroid * pieces[k as usize].volume)
                .sum();
            Island {
                pieces: group,
                volume,
                centroid: moment / volume,
            }
        })
        .collect();
    Ok(Islands {
        anchored: kept,
        falling,
    })
}

/// The bonds of `pieces` (moved by `centre` from the origin, coordinates
/// within `scale` of it): candidates from the sites' neighbours, then
/// faces tested for lying on one plane, facing each other, and
/// overlapping.
fn bonds_of(
    pieces: &[Piece],
    neighbours: (&[u32], &[u32]),
    centre: DVec3,
    scale: f64,
) -> Vec<(u32, u32)> {
    let tolerance = 1e-9 * scale;
    // Each face's plane, once: unit normal and offset from `centre`.
    let planes: Vec<Vec<(DVec3, f64)>> = pieces
        .iter()
        .map(|p| p.faces.iter().map(|f| plane_of(f, centre)).collect())
        .collect();
    super::bonds::pairs_by_sites(pieces.iter().map(|p| p.site), neighbours, |a, b| {
        let (p, q) = (&pieces[a as usize], &pieces[b as usize]);
        let (pp, pq) = (&planes[a as usize], &planes[b as usize]);
        p.faces.iter().zip(pp).any(|(f, &(nf, df))| {
            q.faces.iter().zip(pq).any(|(g, &(ng, dg))| {
                // Facing each other on one plane: opposite normals,
                // opposite offsets.
                nf.dot(ng) <= -1.0 + 1e-9
                    && (df + dg).abs() <= tolerance
                    && faces_overlap(f, g, tolerance)
            })
        })
    })
}

/// The plane of a face: its unit normal (outward) and offset from
/// `centre`.
fn plane_of(face: &[DVec3], centre: DVec3) -> (DVec3, f64) {
    let mut n = DVec3::ZERO;
    for k in 1..face.len() - 1 {
        n += (face[k] - face[0]).cross(face[k + 1] - face[0]);
    }
    let n = n.normalize_or_zero();
    (n, n.dot(face[0] - centre))
}

/// Whether faces `f` and `g` lie on one plane with opposite normals and
/// overlap over more than `tolerance` squared.
fn faces_overlap(f: &[DVec3], g: &[DVec3], tolerance: f64) -> bool {
    let normal = |face: &[DVec3]| {
        let mut n = DVec3::ZERO;
        for k in 1..face.len() - 1 {
            n += (face[k] - face[0]).cross(face[k + 1] - face[0]);
        }
        n.normalize_or_zero()
    };
    let (nf, ng) = (normal(f), normal(g));
    if nf.dot(ng) > -1.0 + 1e-9 || g.iter().any(|&p| (p - f[0]).dot(nf).abs() > tolerance) {
        return false;
    }
    // In the plane's own axes: f as seen from outside, g reversed to match.
    let u = (f[1] - f[0]).normalize_or_zero();
    let v = nf.cross(u);
    let flat = |p: DVec3| collide::glam::DVec2::new((p - f[0]).dot(u), (p - f[0]).dot(v));
    let a: Vec<_> = f.iter().map(|&p| flat(p)).collect();
    let mut b: Vec<_> = g.iter().rev().map(|&p| flat(p)).collect();
    let mut scratch = Vec::new();
    let n = a.len();
    for k in 0..n {
        let (p, q) = (a[k], a[(k + 1) % n]);
        let d = q - p;
        super::cells2::clip_in_place(
            &mut b,
            p,
            collide::glam::DVec2::new(d.y, -d.x),
            &mut scratch,
        );
        if b.is_empty() {
            return false;
        }
    }
    super::cells2::area_centroid(&b).0 > tolerance * tolerance
}

/// `p` if its coordinates are finite and within the 1e12 limit.
fn coordinate3(what: &'static str, p: DVec3) -> Result<DVec3, GameError> {
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

/// A convex part of a 3D object: the points on the inner side of every one
/// of its planes.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// Each plane as `(normal, offset)`: inside where `normal . x <= offset`.
    planes: Vec<(DVec3, f64)>,
    hull: Hull,
}

impl Part {
    /// The box from `min` to `max` (finite, `min` below `max` on every
    /// axis).
    pub fn cuboid(min: DVec3, max: DVec3) -> Result<Self, GameError> {
        coordinate3("box corner", min)?;
        coordinate3("box corner", max)?;
        if !(min.x < max.x && min.y < max.y && min.z < max.z) {
            return Err(GameError::NotConvex {
                what: "box",
                index: 0,
            });
        }
        Self::from_planes(&[
            (-DVec3::X, -min.x),
            (-DVec3::Y, -min.y),
            (-DVec3::Z, -min.z),
            (DVec3::X, max.x),
            (DVec3::Y, max.y),
            (DVec3::Z, max.z),
        ])
    }

    /// The convex polyhedron inside every plane `(normal, offset)`
    /// (`normal . x <= offset`; normals finite and not zero). It must be
    /// bounded, within the coordinate limit (1e12), and have a volume.
    ///
    /// ```
    /// use collide_game::fracture::d3::Part;
    /// use collide_game::glam::DVec3;
    /// // The corner of the unit cube cut off by x + y + z <= 1.
    /// let tetrahedron = Part::from_planes(&[
    ///     (-DVec3::X, 0.0), (-DVec3::Y, 0.0), (-DVec3::Z, 0.0), (DVec3::ONE, 1.0),
    /// ])?;
    /// assert!((tetrahedron.volume() - 1.0 / 6.0).abs() < 1e-12);
    /// assert!(Part::from_planes(&[(DVec3::X, 1.0)]).is_err()); // unbounded
    /// # Ok::<(), collide_game::GameError>(())
    /// ```
    pub fn from_planes(planes: &[(DVec3, f64)]) -> Result<Self, GameError> {
        for &(normal, offset) in planes {
            coordinate3("plane normal", normal)?;
            crate::error::finite("plane offset", offset)?;
            crate::error::positive("plane normal length", normal.length())?;
        }
        // Cut from a cube at the coordinate limit, then again from a box
        // just around that result: where edges cross a plane is only as
        // exact as the box cut is small.
        let mut clipper = Clipper::default();
        let rough = Self::cut_box(
            DVec3::splat(-LIMIT),
            DVec3::splat(LIMIT),
            planes,
            &mut clipper,
        )?;
        let (mut lo, mut hi) = (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY));
        for c in rough.used_points() {
            lo = lo.min(c);
            hi = hi.max(c);
        }
        let reach = lo.abs().max(hi.abs()).max_element();
        if reach >= 0.5 * LIMIT {
            return Err(GameError::TooLarge {
                what: "part extent",
                value: reach,
                limit: 0.5 * LIMIT,
            });
        }
        // Past the rough box's own error (a ten-thousandth at the limit).
        let margin = 0.01 * (hi - lo).max_element() + 1e-3;
        let hull = Self::cut_box(lo - margin, hi + margin, planes, &mut clipper)?;
        if hull.volume_centroid().0 <= 0.0 {
            return Err(GameError::Empty {
                what: "the part's inside",
            });
        }
        Ok(Self {
            planes: planes.to_vec(),
            hull,
        })
    }

    /// The box from `lo` to `hi` clipped by each of `planes`.
    fn cut_box(
        lo: DVec3,
        hi: DVec3,
        planes: &[(DVec3, f64)],
        clipper: &mut Clipper,
    ) -> Result<Hull, GameError> {
        let mut hull = Hull::cuboid(lo, hi);
        for &(normal, offset) in planes {
            hull.clip_in_place(normal * (offset / normal.length_squared()), normal, clipper);
            if hull.is_empty() {
                return Err(GameError::Empty {
                    what: "the part's inside",
                });
            }
        }
        Ok(hull)
    }

    /// Its volume.
    pub fn volume(&self) -> f64 {
        self.hull.volume_centroid().0
    }
}

/// How many of the nearest sites are sorted before a cell is cut.
const NEAREST_FIRST: usize = 48;

/// The coordinate limit of 3D fracture.
const LIMIT: f64 = 1e12;

/// Breaks the convex `parts` (not overlapping) into the Voronoi cells of
/// `sites`. A site's cell is cut
/// by the bisectors of the other sites nearest first, until the next is
/// more than twice the cell's radius away: O(n^2 log n) for n sites, meant
/// for the tens to hundreds of pieces a wall breaks into.
///
/// ```
/// use collide_game::fracture::d3::fracture;
/// use collide_game::glam::DVec3;
/// use collide_game::fracture::d3::Part;
/// let wall = Part::cuboid(DVec3::ZERO, DVec3::new(4.0, 3.0, 0.5))?;
/// let sites: Vec<DVec3> = (0..20).map(|k| DVec3::new(0.2 * k as f64, 0.15 * k as f64 % 3.0, 0.25)).collect();
/// let broken = fracture(std::slice::from_ref(&wall), &sites)?;
/// let volume: f64 = broken.pieces().iter().map(|p| p.volume()).sum();
/// assert!((volume - 6.0).abs() < 1e-9);
/// # Ok::<(), collide_game::GameError>(())
/// ```
pub fn fracture(parts: &[Part], sites: &[DVec3]) -> Result<Fracture, GameError> {
    if parts.is_empty() {
        return Err(GameError::Empty { what: "parts" });
    }
    if sites.is_empty() {
        return Err(GameError::Empty { what: "sites" });
    }
    let (mut lo, mut hi) = (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY));
    for c in parts.iter().flat_map(|p| p.hull.used_points()) {
        lo = lo.min(c);
        hi = hi.max(c);
    }
    let mut kept: Vec<DVec3> = Vec::with_capacity(sites.len());
    for &s in sites {
        coordinate3("site coordinate", s)?;
        if !kept.contains(&s) {
            kept.push(s);
        }
    }
    // Around the boxes' centre, moved back at the end.
    let centre = 0.5 * (lo + hi);
    let local: Vec<DVec3> = kept.iter().map(|&s| s - centre).collect();
    let margin = 1e-3 * (hi - lo).max_element();
    // Every cell starts as the box around the parts, or as the part itself
    // when there is one (nothing is left to clip after).
    let single = parts.len() == 1;
    let bounds = if single {
        parts[0].hull.translated(-centre)
    } else {
        Hull::cuboid(lo - centre - margin, hi - centre + margin)
    };
    let scale = (hi - lo).max_element();
    let mut order: Vec<(f64, usize)> = Vec::with_capacity(local.len());
    let mut pieces = Vec::new();
    let mut clipper = Clipper::default();
    // The pairs of sites whose bisector cut one's cell: every pair of
    // Voronoi neighbours is among them.
    let mut cut_by: Vec<(u32, u32)> = Vec::new();
    for (i, &site) in local.iter().enumerate() {
        order.clear();
        order.extend(
            local
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(j, &o)| (o.distance_squared(site), j)),
        );
        // Nearest first, ties by index. Most cells close within the
        // nearest few dozen, so those are sorted first and the rest only
        // when reached.
        let nearest = |a: &(f64, usize), b: &(f64, usize)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        let head = order.len().min(NEAREST_FIRST);
        if head < order.len() {
            order.select_nth_unstable_by(head, nearest);
        }
        order[..head].sort_unstable_by(nearest);
        let mut cell = bounds.clone();
        let radius = |cell: &Hull| {
            cell.used_points()
                .map(|p| p.distance_squared(site))
                .fold(0.0, f64::max)
        };
        let mut reach = radius(&cell);
        for k in 0..order.len() {
            if k == head {
                order[head..].sort_unstable_by(nearest);
            }
            let (d2, j) = order[k];
            if cell.is_empty() || d2 > 4.0 * reach {
                break;
            }
            let other = local[j];
            if cell.clip_in_place(0.5 * (site + other), other - site, &mut clipper) {
                cut_by.push(((i.min(j)) as u32, (i.max(j)) as u32));
                reach = radius(&cell);
            }
        }
        for (p, part) in parts.iter().enumerate() {
            if single {
                let (volume, _) = cell.volume_centroid();
                if !cell.is_empty() && volume > 1e-12 * math::powi(scale, 3) {
                    split_into(cell, i, p, scale, centre, &mut clipper, &mut pieces);
                }
                break;
            }
            let mut piece = cell.clone();
            for &(normal, offset) in &part.planes {
                let origin = normal * (offset / normal.length_squared()) - centre;
                piece.clip_in_place(origin, normal, &mut clipper);
                if piece.is_empty() {
                    break;
                }
            }
            let (volume, _) = piece.volume_centroid();
            if piece.is_empty() || volume <= 1e-12 * math::powi(scale, 3) {
                continue;
            }
            split_into(piece, i, p, scale, centre, &mut clipper, &mut pieces);
        }
    }
    cut_by.sort_unstable();
    cut_by.dedup();
    let (starts, list) = super::bonds::neighbour_lists(local.len(), &cut_by);
    let bonds = bonds_of(&pieces, (&starts, &list), centre, scale);
    Ok(Fracture {
        sites: kept,
        pieces,
        bonds,
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
    clipper: &mut Clipper,
    out: &mut Vec<Piece>,
) {
    let (volume, centroid) = hull.volume_centroid();
    let corners = hull.distinct_corners(1e-12 * scale);
    if corners.len() <= MAX_CORNERS {
        out.push(Piece {
            site,
            part,
            faces: hull.face_polygons(centre),
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
    let halves = [
        hull.clip(centroid, normal, clipper),
        hull.clip(centroid, -normal, clipper),
    ];
    for half in halves {
        if !half.is_empty() {
            split_into(half, site, part, scale, centre, clipper, out);
        }
    }
}
