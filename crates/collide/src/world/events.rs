//! What a world's step reports: the pairs of colliders that started and
//! stopped touching, the contact of every pair touching now, and the
//! sensors' overlaps that started and stopped.

use super::part_contacts::PartContact;
use super::space::Space;
use crate::Handle;
use crate::narrow::{Contact, Manifold};

/// Two colliders touching, the lower handle first, and their contact
/// (normal from `a` toward `b`; depth above 0 overlapping, 0 touching,
/// below 0 apart by less than the contact margin).
///
/// Where either collider is made of parts (a compound, a mesh), `contact`
/// and `manifold` are those of the deepest part pair, and
/// [`WorldEvents::parts`] lists every part pair touching, each with its
/// own contact and manifold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Touching<V: Space> {
    /// The collider with the lower handle.
    pub a: Handle,
    /// The other.
    pub b: Handle,
    /// Their contact: the deepest point and the way out.
    pub contact: Contact<V>,
    /// Where they touch, for a solver: up to 2 points in 2D and 4 in 3D
    /// within the contact margin, each with a feature id that holds while
    /// the same features touch (see [`Manifold`]).
    pub manifold: Manifold<V>,
    /// For a pair found by continuous collision (a swept collider that
    /// passed into or through the other between the last step and this
    /// one, apart now by the discrete test): the share of the move done
    /// when they first touched, in `[0, 1]`, and `contact` and `manifold`
    /// are those of that moment (one point). `None` for a pair touching
    /// at the poses of this step.
    pub impact: Option<f32>,
    /// Its part pairs in [`WorldEvents::parts`] (none for two convex
    /// colliders).
    pub(super) parts: PartRange,
}

/// Where a pair's part contacts lie in a list of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) struct PartRange {
    pub(super) start: u32,
    pub(super) len: u32,
}

impl PartRange {
    pub(super) fn of<X>(list: &[X], start: usize) -> Self {
        Self {
            start: start as u32,
            len: (list.len() - start) as u32,
        }
    }

    pub(super) fn slice<X>(self, list: &[X]) -> &[X] {
        &list[self.start as usize..(self.start + self.len) as usize]
    }
}

/// A step's events, each list sorted by handle pair (lower handle first).
/// Held in an `Arc`, so the game may change the world while reading them.
#[derive(Clone, Debug, PartialEq)]
pub struct WorldEvents<V: Space> {
    /// Pairs that started touching this step.
    pub started: Vec<(Handle, Handle)>,
    /// Pairs that stopped touching this step (a removed collider's
    /// pairs included, with its old handle).
    pub stopped: Vec<(Handle, Handle)>,
    /// Every pair touching now, with its contact.
    pub touching: Vec<Touching<V>>,
    /// Pairs of a sensor and another collider that started overlapping
    /// (distance 0 or less) this step.
    pub sensor_started: Vec<(Handle, Handle)>,
    /// Pairs of a sensor and another collider that stopped overlapping
    /// (apart by more than the margin, or removed) this step.
    pub sensor_stopped: Vec<(Handle, Handle)>,
    /// The touching pairs' part contacts, pair after pair.
    pub(super) parts: Vec<PartContact<V>>,
}

impl<V: Space> WorldEvents<V> {
    /// Every part pair of `touching` within the margin, sorted by part
    /// pair, each with its own contact and manifold: where a capsule lies
    /// across two triangles of a mesh, one for each. Empty for two convex
    /// colliders (their one pair is `touching`'s own contact and
    /// manifold), and for a pair from another step's events.
    pub fn parts(&self, touching: &Touching<V>) -> &[PartContact<V>] {
        let r = touching.parts;
        self.parts
            .get(r.start as usize..(r.start + r.len) as usize)
            .unwrap_or(&[])
    }
}

impl<V: Space> Default for WorldEvents<V> {
    fn default() -> Self {
        Self {
            started: Vec::new(),
            stopped: Vec::new(),
            touching: Vec::new(),
            sensor_started: Vec::new(),
            sensor_stopped: Vec::new(),
            parts: Vec::new(),
        }
    }
}
