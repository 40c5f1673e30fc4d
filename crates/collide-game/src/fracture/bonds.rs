//! Bonds between pieces that share an edge, and the islands left when some
//! pieces are gone: those still joined to an anchor stay, every other
//! group falls as one body.

use super::d2::{Fracture, Piece};
use crate::error::GameError;
use collide::glam::{DVec2, Vec2};
use collide::{Aabb2, BroadPhase, Grid};

/// The tolerance of the shared-edge test, scaled to the object: `reach`
/// is the largest coordinate magnitude (the pieces are around the origin).
fn scale(total_area: f64, reach: f64) -> f64 {
    total_area.sqrt().max(reach).max(f64::MIN_POSITIVE)
}

/// Each of `count` sites' neighbours as `(starts, list)`, site `i`'s being
/// `list[starts[i]..starts[i + 1]]`, from `pairs` (each pair once, either
/// way round) in their order.
pub(crate) fn neighbour_lists(count: usize, pairs: &[(u32, u32)]) -> (Vec<u32>, Vec<u32>) {
    let mut starts = vec![0u32; count + 1];
    for &(a, b) in pairs {
        starts[a as usize + 1] += 1;
        starts[b as usize + 1] += 1;
    }
    for k in 1..starts.len() {
        starts[k] += starts[k - 1];
    }
    let mut list = vec![0u32; starts[count] as usize];
    let mut fill = starts.clone();
    for &(a, b) in pairs {
        list[fill[a as usize] as usize] = b;
        fill[a as usize] += 1;
        list[fill[b as usize] as usize] = a;
        fill[b as usize] += 1;
    }
    (starts, list)
}

/// Pairs of pieces (lower first, sorted) that `touch` says are bonded,
/// with the candidates taken from the sites' neighbours: a shared edge or
/// face lies in both sites' cells, so the two sites are one or Voronoi
/// neighbours. `sites` gives each site's neighbours as `(starts, list)`
/// (see [`neighbour_lists`]), and `site_of` each piece's site, the
/// pieces in order of their site.
pub(crate) fn pairs_by_sites(
    site_of: impl Iterator<Item = usize>,
    sites: (&[u32], &[u32]),
    mut touch: impl FnMut(u32, u32) -> bool,
) -> Vec<(u32, u32)> {
    let (starts, list) = sites;
    let count = starts.len() - 1;
    // Per site, where its pieces start (count + 1 entries).
    let mut first = vec![0u32; count + 1];
    for site in site_of {
        first[site + 1] += 1;
    }
    for k in 1..first.len() {
        first[k] += first[k - 1];
    }
    let of = |site: usize| first[site]..first[site + 1];
    let mut bonds = Vec::new();
    for site in 0..count {
        let own = of(site);
        for a in own.clone() {
            for b in a + 1..own.end {
                if touch(a, b) {
                    bonds.push((a, b));
                }
            }
        }
        for &other in &list[starts[site] as usize..starts[site + 1] as usize] {
            // Each pair of sites once, from the lower.
            if (other as usize) <= site {
                continue;
            }
            for a in own.clone() {
                for b in of(other as usize) {
                    if touch(a, b) {
                        bonds.push((a.min(b), a.max(b)));
                    }
                }
            }
        }
    }
    bonds.sort_unstable();
    bonds.dedup();
    bonds
}

/// Pairs of pieces sharing an edge of positive length, sorted, with the
/// candidates from the sites' neighbours (see [`pairs_by_sites`]).
pub(crate) fn find_by_sites(
    pieces: &[Piece],
    sites: (&[u32], &[u32]),
    total_area: f64,
    reach: f64,
) -> Vec<(u32, u32)> {
    let tolerance = 1e-9 * scale(total_area, reach);
    pairs_by_sites(pieces.iter().map(|p| p.site), sites, |a, b| {
        share_edge(&pieces[a as usize], &pieces[b as usize], tolerance)
    })
}

/// Pairs of pieces sharing an edge of positive length, sorted: candidates
/// from collide's grid over the pieces' boxes (grown a little), then each
/// pair of edges tested for lying on one line with overlapping extents.
/// For when the sites' neighbours are not known.
pub(crate) fn find(pieces: &[Piece], total_area: f64, reach: f64) -> Vec<(u32, u32)> {
    let scale = scale(total_area, reach);
    let tolerance = 1e-9 * scale;
    let mut grid: Grid<Vec2, u32> = Grid::dense();
    for (k, p) in pieces.iter().enumerate() {
        let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
        for &c in &p.corners {
            lo = lo.min(c);
            hi = hi.max(c);
        }
        // Widened by a step of f32 each way after rounding, so pieces that
        // touch always overlap.
        let (lo, hi) = ((lo - 1e-6 * scale).as_vec2(), (hi + 1e-6 * scale).as_vec2());
        let aabb = Aabb2::new(
            Vec2::new(lo.x.next_down(), lo.y.next_down()),
            Vec2::new(hi.x.next_up(), hi.y.next_up()),
        )
        .expect("corners within the coordinate limit are finite in f32");
        grid.insert(aabb, k as u32).expect("finite boxes");
    }
    grid.step();
    let mut bonds: Vec<(u32, u32)> = grid
        .pairs()
        .iter()
        .filter_map(|pair| {
            let (a, b) = (
                *grid.value(pair.a()).expect("live"),
                *grid.value(pair.b()).expect("live"),
            );
            share_edge(&pieces[a as usize], &pieces[b as usize], tolerance)
                .then_some((a.min(b), a.max(b)))
        })
        .collect();
    bonds.sort_unstable();
    bonds
}

/// The edges of a polygon, as corner pairs.
fn edges(poly: &[DVec2]) -> impl Iterator<Item = (DVec2, DVec2)> + '_ {
    let n = poly.len();
    (0..n).map(move |k| (poly[k], poly[(k + 1) % n]))
}

/// Whether an edge of `p` and an edge of `q` lie on one line (within
/// `tolerance`) and overlap along it by more than `tolerance`.
fn share_edge(p: &Piece, q: &Piece, tolerance: f64) -> bool {
    for (a, b) in edges(&p.corners) {
        let along = b - a;
        let length_squared = along.length_squared();
        if length_squared <= tolerance * tolerance {
            continue;
        }
        // Off the line by more than the tolerance: |along x (x - a)| over
        // |along|, compared squared.
        let limit = tolerance * tolerance * length_squared;
        let off = |x: DVec2| {
            let cross = along.perp_dot(x - a);
            cross * cross > limit
        };
        for (c, d) in edges(&q.corners) {
            if off(c) || off(d) {
                continue;
            }
            let length = length_squared.sqrt();
            let dir = along / length;
            let (tc, td) = ((c - a).dot(dir), (d - a).dot(dir));
            let overlap = tc.max(td).min(length) - tc.min(td).max(0.0);
            if overlap > tolerance {
                return true;
            }
        }
    }
    false
}

/// A group of pieces joined by bonds.
#[derive(Clone, Debug, PartialEq)]
pub struct Island {
    pieces: Vec<u32>,
    area: f64,
    centroid: DVec2,
}

impl Island {
    /// Its pieces' indices, ascending.
    pub fn pieces(&self) -> &[u32] {
        &self.pieces
    }

    /// Its area (the mass, at unit density).
    pub fn area(&self) -> f64 {
        self.area
    }

    /// Its centroid (the centre of mass, at unit density).
    pub fn centroid(&self) -> DVec2 {
        self.centroid
    }
}

/// What stays and what falls.
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

    /// The groups cut off from every anchor, each to fall as one body, in
    /// order of their lowest piece.
    pub fn falling(&self) -> &[Island] {
        &self.falling
    }
}

fn root(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        parent[x as usize] = parent[parent[x as usize] as usize];
        x = parent[x as usize];
    }
    x
}

/// `gone` if it has a flag per piece (`n`) or none at all.
pub(crate) fn gone_flags(gone: &[bool], n: usize) -> Result<&[bool], GameError> {
    if gone.is_empty() || gone.len() == n {
        Ok(gone)
    } else {
        Err(GameError::WrongLength {
            what: "gone flags (one per piece, or none)",
            expected: n,
            got: gone.len(),
        })
    }
}

/// The pieces not `gone` (one flag per piece, or none) split by the
/// surviving `bonds`: those in a group with a piece `anchored` says is
/// fixed, ascending, and the other groups in order of their lowest piece,
/// each ascending.
pub(crate) fn components(
    n: usize,
    bonds: &[(u32, u32)],
    gone: &[bool],
    anchored: impl Fn(usize) -> bool,
) -> (Vec<u32>, Vec<Vec<u32>>) {
    let is_gone = |k: usize| !gone.is_empty() && gone[k];
    let mut parent: Vec<u32> = (0..n as u32).collect();
    for &(a, b) in bonds {
        if is_gone(a as usize) || is_gone(b as usize) {
            continue;
        }
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        if ra != rb {
            parent[ra.max(rb) as usize] = ra.min(rb);
        }
    }
    let mut fixed = vec![false; n];
    for k in 0..n {
        if !is_gone(k) && anchored(k) {
            let r = root(&mut parent, k as u32);
            fixed[r as usize] = true;
        }
    }
    let (mut kept, mut groups) = (Vec::new(), Vec::<Vec<u32>>::new());
    let mut group_of: Vec<Option<usize>> = vec![None; n];
    for k in 0..n {
        if is_gone(k) {
            continue;
        }
        let r = root(&mut parent, k as u32) as usize;
        if fixed[r] {
            kept.push(k as u32);
            continue;
        }
        let at = *group_of[r].get_or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[at].push(k as u32);
    }
    (kept, groups)
}

/// Splits the pieces not `gone` (one flag per piece, or none for none
/// gone) into the groups their bonds join; a group with a piece `anchored`
/// says is fixed (it rests on the floor or a pillar), the others fall.
/// Flags of another length are an error.
pub fn islands(
    fracture: &Fracture,
    gone: &[bool],
    anchored: impl Fn(&Piece) -> bool,
) -> Result<Islands, GameError> {
    let pieces = &fracture.pieces;
    let gone = gone_flags(gone, pieces.len())?;
    let (kept, groups) = components(pieces.len(), &fracture.bonds, gone, |k| {
        anchored(&pieces[k])
    });
    let falling = groups
        .into_iter()
        .map(|group| {
            let area: f64 = group.iter().map(|&k| pieces[k as usize].area).sum();
            let moment: DVec2 = group
                .iter()
                .map(|&k| pieces[k as usize].centroid * pieces[k as usize].area)
                .sum();
            Island {
                pieces: group,
                area,
                centroid: moment / area,
            }
        })
        .collect();
    Ok(Islands {
        anchored: kept,
        falling,
    })
}

#[cfg(test)]
mod tests {
    use super::super::d2::fracture;
    use super::super::{FractureSettings, Pattern};
    use super::*;

    #[test]
    fn bonds_from_site_neighbours_match_bonds_from_a_grid() {
        // Two parts, so bonds also cross the line between them.
        let left = vec![
            DVec2::new(-5.0, -3.0),
            DVec2::new(0.0, -3.0),
            DVec2::new(0.0, 3.0),
            DVec2::new(-5.0, 3.0),
        ];
        let right = vec![
            DVec2::new(0.0, -3.0),
            DVec2::new(5.0, -3.0),
            DVec2::new(5.0, 3.0),
            DVec2::new(0.0, 3.0),
        ];
        for seed in 0..6 {
            let sites = Pattern::uniform(150, 5.0, seed)
                .expect("a valid pattern")
                .placed(DVec2::ZERO, 0.3 * seed as f64);
            let broken = fracture(
                &[left.clone(), right.clone()],
                &sites,
                &FractureSettings::default(),
            )
            .expect("valid input");
            assert!(broken.bonds().len() > broken.pieces().len(), "seed {seed}");
            assert_eq!(
                broken.bonds(),
                find(broken.pieces(), 60.0, 5.0),
                "seed {seed}"
            );
        }
    }
}
