//! Voronoi fracture: break an object made of convex parts into convex
//! pieces around a pattern of sites, bond the pieces that share a side,
//! and find which groups still hang on an anchor once some pieces are
//! gone. The same names in each dimension: [`d2`] breaks convex polygons,
//! [`d3`] convex polyhedra, each with `fracture`, `islands`, `Fracture`,
//! `Piece`, `Island` and `Islands`.
//!
//! What it is for: walls and plates that shatter where they are hit, with
//! small pieces near the impact (a [`Pattern`] dense there) and large ones
//! further away, every piece convex (a cheap collider: in 2D at most
//! [`Polygon::MAX_VERTICES`](collide::narrow::d2::Polygon::MAX_VERTICES)
//! corners, larger cells cut in two through their centroid; in 3D at most
//! [`d3::MAX_CORNERS`]), and no piece left floating after the base is
//! destroyed (`islands`). Each site's cell is the object's bounds cut by
//! the bisectors of its Delaunay neighbours (the `delaunator` crate in
//! 2D), then clipped to each convex part: O(n log n) for n sites in 2D.
//! Computed in f64 around the object's centre, deterministic: the same
//! sites give bit-identical pieces. Coordinates are limited to 1e12 in
//! magnitude.
//!
//! **On the world.** Fracture reads no world and has no tick: it is
//! computed once, when something breaks. Each piece's `shape()` is its
//! narrow-phase polygon or hull about its centroid, ready to be a
//! collider: a game replaces the broken collider with the pieces that
//! stay (fixed, or one compound) and makes each falling island a moving
//! compound of its pieces (the `shatter` example in the command-line
//! crate does this in 3D, the islands falling as rigid bodies).
//!
//! **Tolerance.** Cells are computed in `f64`: moved up to 1e5, mirrored or
//! scaled, every piece's centroid agrees within 1e-9 of the object's size
//! (4 `f64` ulps far out), its area or volume within 1e-9 of the size
//! squared or cubed, with the same pieces and bonds.
//!
//! ```
//! use collide_game::fracture::{FractureSettings, Pattern, d2::{fracture, islands}};
//! use collide_game::glam::DVec2;
//! // A 10 by 1 bridge, shattered by 60 sites around its middle.
//! let bridge = vec![DVec2::new(0.0, 0.0), DVec2::new(10.0, 0.0), DVec2::new(10.0, 1.0), DVec2::new(0.0, 1.0)];
//! let sites = Pattern::uniform(60, 5.0, 1)?.placed(DVec2::new(5.0, 0.5), 0.0);
//! let broken = fracture(&[bridge], &sites, &FractureSettings::default())?;
//! let area: f64 = broken.pieces().iter().map(|p| p.area()).sum();
//! assert!((area - 10.0).abs() < 1e-9);
//! // Pillars under both ends; the pieces in the middle are destroyed.
//! let gone: Vec<bool> = broken.pieces().iter().map(|p| (p.centroid().x - 5.0).abs() < 1.0).collect();
//! let result = islands(&broken, &gone, |p| p.centroid().x < 0.5 || p.centroid().x > 9.5)?;
//! assert_eq!(result.falling().len(), 0); // both halves still rest on a pillar
//! # Ok::<(), collide_game::GameError>(())
//! ```

mod bonds;
mod cells2;
mod cells3;
pub mod d2;
pub mod d3;
mod pattern;

pub use pattern::Pattern;

use crate::error::{GameError, non_negative};

/// How a fracture is computed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FractureSettings {
    merge_distance: f64,
}

impl Default for FractureSettings {
    /// Sites closer than 1e-6 world units merge.
    fn default() -> Self {
        Self {
            merge_distance: 1e-6,
        }
    }
}

impl FractureSettings {
    /// Sites closer than `distance` (world units, finite, not negative) to
    /// an earlier site are dropped: their cells would be slivers.
    pub fn with_merge_distance(distance: f64) -> Result<Self, GameError> {
        Ok(Self {
            merge_distance: non_negative("merge distance", distance)?,
        })
    }
}
