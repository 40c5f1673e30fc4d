//! [`Structure`]: every broad-phase structure collide has, as a type. Its
//! name is what `collide replay --structure NAME` and the tables spell;
//! [`Structure::build`] makes an empty one of any of them.
//!
//! Adding a structure is one variant here and one arm in each `match` the
//! compiler then points at (this file's, `Auto`'s, the tests').

use super::auto::Auto;
use super::brute::Brute;
use super::bvh::Bvh;
use super::contract::BroadPhase;
use super::grid::Grid;
use super::sap::{BandSap, Sap};
use super::tree::Tree;
use crate::geometry::Vector;
use std::fmt;
use std::str::FromStr;

/// A broad-phase structure, by kind (see the README's table for which to
/// pick).
///
/// ```
/// use collide::Structure;
/// use glam::Vec2;
/// let picked: Structure = "sap1".parse()?;
/// assert_eq!(picked, Structure::Sap1);
/// let world = picked.build::<Vec2, u32>();
/// assert_eq!(world.name(), "sap1");
/// let err = "gird".parse::<Structure>().unwrap_err();
/// assert!(err.to_string().contains("brute, sap, sap1, grid"));
/// # Ok::<(), collide::UnknownStructure>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Structure {
    /// Every pair tested: the reference ([`Brute`]).
    Brute,
    /// Sweep and prune on every axis ([`Sap`]).
    Sap,
    /// Sweep and prune on one axis, in bands ([`BandSap`]).
    Sap1,
    /// The dense grid ([`Grid::dense`]).
    Grid,
    /// The hashed grid ([`Grid::hashed`]).
    HashGrid,
    /// The hierarchical grid ([`Grid::hierarchical`]).
    HGrid,
    /// The tight quadtree or octree ([`Tree::tight`]).
    Tree,
    /// The loose quadtree or octree ([`Tree::loose`]).
    Loose,
    /// The dynamic bounding volume hierarchy ([`Bvh`]).
    Bvh,
    /// The structure that picks one of the others by measurement
    /// ([`Auto`]).
    Auto,
}

impl Structure {
    /// Every structure, in the order tables list them.
    ///
    /// ```
    /// use collide::Structure;
    /// use glam::Vec3;
    /// for structure in Structure::ALL {
    ///     assert_eq!(structure.build::<Vec3, ()>().name(), structure.name());
    /// }
    /// ```
    pub const ALL: [Structure; 10] = [
        Structure::Brute,
        Structure::Sap,
        Structure::Sap1,
        Structure::Grid,
        Structure::HashGrid,
        Structure::HGrid,
        Structure::Tree,
        Structure::Loose,
        Structure::Bvh,
        Structure::Auto,
    ];

    /// The structure `collide replay` uses when none is named: the fastest
    /// of ours on the shared scenes that needs no settings and no bounds
    /// (see BENCHMARKS.md; `grid` is as fast but needs bounds).
    pub const DEFAULT: Structure = Structure::HashGrid;

    /// Its name, as the command line and the tables spell it.
    pub const fn name(self) -> &'static str {
        match self {
            Structure::Brute => "brute",
            Structure::Sap => "sap",
            Structure::Sap1 => "sap1",
            Structure::Grid => "grid",
            Structure::HashGrid => "hashgrid",
            Structure::HGrid => "hgrid",
            Structure::Tree => "tree",
            Structure::Loose => "loose",
            Structure::Bvh => "bvh",
            Structure::Auto => "auto",
        }
    }

    /// A new, empty structure of this kind with its default settings. It
    /// is `Send`, so it can be stepped on another thread or inside a
    /// rayon pool of the caller's choosing.
    pub fn build<V: Vector, T: Send + 'static>(self) -> Box<dyn BroadPhase<V, T> + Send> {
        match self {
            Structure::Brute => Box::new(Brute::<V, T>::new()),
            Structure::Sap => Box::new(Sap::<V, T>::new()),
            Structure::Sap1 => Box::new(BandSap::<V, T>::new()),
            Structure::Grid => Box::new(Grid::<V, T>::dense()),
            Structure::HashGrid => Box::new(Grid::<V, T>::hashed()),
            Structure::HGrid => Box::new(Grid::<V, T>::hierarchical()),
            Structure::Tree => Box::new(Tree::<V, T>::tight()),
            Structure::Loose => Box::new(Tree::<V, T>::loose()),
            Structure::Bvh => Box::new(Bvh::<V, T>::new()),
            Structure::Auto => Box::new(Auto::<V, T>::new()),
        }
    }
}

impl fmt::Display for Structure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Structure {
    type Err = UnknownStructure;

    /// The structure of this name (as [`Structure::name`] spells it).
    fn from_str(name: &str) -> Result<Self, UnknownStructure> {
        Structure::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| UnknownStructure {
                name: name.to_owned(),
            })
    }
}

/// A name that is not a structure's; its message lists the names there
/// are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownStructure {
    /// The name given.
    pub name: String,
}

impl fmt::Display for UnknownStructure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "there is no structure {:?}; the structures are ",
            self.name
        )?;
        for (k, s) in Structure::ALL.iter().enumerate() {
            let gap = if k == 0 { "" } else { ", " };
            write!(f, "{gap}{s}")?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownStructure {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_back_to_its_structure() {
        for s in Structure::ALL {
            assert_eq!(s.name().parse::<Structure>(), Ok(s));
            assert_eq!(s.to_string(), s.name());
        }
        let err = "gird".parse::<Structure>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "there is no structure \"gird\"; the structures are brute, sap, sap1, grid, hashgrid, hgrid, tree, loose, bvh, auto"
        );
    }
}
