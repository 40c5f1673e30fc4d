//! Where the media are: water below a level, pools in boxes, air around
//! them. A projectile's tick is split where its path crosses from one
//! medium into another, each part under its own medium's drag.

use super::drag::Medium;
use crate::dim::Dim;
use collide::{Aabb, Vector};

/// A region of space a medium fills.
#[derive(Clone, Debug, PartialEq)]
pub enum Zone<V: Vector> {
    /// Everything below a height (y under `level`): a lake, the sea.
    Below {
        /// The surface's height, metres.
        level: f32,
    },
    /// Everything inside a box: a pool, a tank, a cloud of smoke.
    Inside(Aabb<V>),
}

impl<V: Vector> Zone<V> {
    fn contains(&self, p: V) -> bool {
        match self {
            Zone::Below { level } => p.axis(1) < *level,
            Zone::Inside(b) => {
                (0..V::DIM).all(|k| b.min().axis(k) <= p.axis(k) && p.axis(k) < b.max().axis(k))
            }
        }
    }

    /// The distances along the ray from `p` along unit `d` at which it
    /// crosses the region's boundary, pushed to `out` (those above 0).
    fn crossings(&self, p: V, d: V, out: &mut impl FnMut(f32)) {
        match self {
            Zone::Below { level } => {
                let (y, dy) = (p.axis(1), d.axis(1));
                if dy != 0.0 {
                    let t = (level - y) / dy;
                    if t > 0.0 {
                        out(t);
                    }
                }
            }
            Zone::Inside(b) => {
                // The slab entry and exit of the box.
                let (mut near, mut far) = (f32::NEG_INFINITY, f32::INFINITY);
                for k in 0..V::DIM {
                    let (lo, hi, o, dk) = (b.min().axis(k), b.max().axis(k), p.axis(k), d.axis(k));
                    if dk == 0.0 {
                        if o < lo || o >= hi {
                            return;
                        }
                        continue;
                    }
                    let (t0, t1) = ((lo - o) / dk, (hi - o) / dk);
                    near = near.max(t0.min(t1));
                    far = far.min(t0.max(t1));
                }
                if near <= far {
                    for t in [near, far] {
                        if t > 0.0 {
                            out(t);
                        }
                    }
                }
            }
        }
    }
}

/// The media of a world: the one outside every region, and regions with
/// their own (the first that holds a point is the point's medium).
///
/// ```
/// use collide_game::D3;
/// use collide_game::glam::Vec3;
/// use collide_game::projectile::{Media, Medium, Zone};
/// let sea: Media<D3> = Media::new(Medium::AIR).with(Zone::Below { level: 0.0 }, Medium::WATER);
/// assert_eq!(sea.at(Vec3::new(0.0, -1.0, 0.0)), Medium::WATER);
/// assert_eq!(sea.at(Vec3::new(0.0, 1.0, 0.0)), Medium::AIR);
/// ```
#[derive(Clone, Debug)]
pub struct Media<D: Dim> {
    outside: Medium,
    regions: Vec<(Zone<D::V>, Medium)>,
}

impl<D: Dim> Media<D> {
    /// Everywhere `outside`.
    pub fn new(outside: Medium) -> Self {
        Media {
            outside,
            regions: Vec::new(),
        }
    }

    /// With `medium` in `region` too (regions added first win where they
    /// overlap).
    pub fn with(mut self, region: Zone<D::V>, medium: Medium) -> Self {
        self.regions.push((region, medium));
        self
    }

    /// The medium at `p`.
    pub fn at(&self, p: D::V) -> Medium {
        self.regions
            .iter()
            .find(|(r, _)| r.contains(p))
            .map_or(self.outside, |&(_, m)| m)
    }

    /// The distance along unit `d` from `p` to the nearest boundary between
    /// media, if any.
    pub(crate) fn next_boundary(&self, p: D::V, d: D::V) -> Option<f32> {
        let mut nearest: Option<f32> = None;
        for (region, _) in &self.regions {
            region.crossings(p, d, &mut |t| {
                nearest = Some(nearest.map_or(t, |n: f32| n.min(t)));
            });
        }
        nearest
    }
}
