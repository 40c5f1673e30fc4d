//! How a mesh's elements meet: for each side of an element (an edge of a
//! triangle, an end of a segment), whether a neighbour continues it flat,
//! folds it up into a valley or down into a ridge, or nothing does. A
//! contact on a flat or valley seam is internal: a shape sliding across
//! it would catch on its edge (see `part_contacts.rs`). Neighbours are
//! found by shared vertex numbers, once, when the mesh is built.

use super::space::Space;
use std::collections::HashMap;

/// How one side of an element meets its neighbour, seen from the
/// element's front (the side its normal points out of).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Seam {
    /// No neighbour: a real edge.
    Open,
    /// The neighbour goes on in the same plane (within a thousandth of a
    /// radian).
    Flat,
    /// The neighbour folds away from the front: a convex edge from there.
    Ridge,
    /// The neighbour folds toward the front: a concave edge from there.
    Valley,
}

impl Seam {
    /// Whether a contact on this seam, touching from the front (or the
    /// back), is internal: a flat seam from either side, a valley from
    /// the front, a ridge from the back.
    pub(crate) fn internal(self, front: bool) -> bool {
        match self {
            Seam::Open => false,
            Seam::Flat => true,
            Seam::Valley => front,
            Seam::Ridge => !front,
        }
    }
}

/// The unit normal of an element with these corners: a triangle's about
/// which they run counter-clockwise, a segment's to its left.
pub(crate) fn element_normal<V: Space>(corners: &[V]) -> V {
    let d = |i: usize, k: usize| f64::from(corners[i].axis(k)) - f64::from(corners[0].axis(k));
    let n: [f64; 3] = if V::DIM == 2 {
        [-d(1, 1), d(1, 0), 0.0]
    } else {
        [
            d(1, 1) * d(2, 2) - d(1, 2) * d(2, 1),
            d(1, 2) * d(2, 0) - d(1, 0) * d(2, 2),
            d(1, 0) * d(2, 1) - d(1, 1) * d(2, 0),
        ]
    };
    let len = n.iter().map(|x| x * x).sum::<f64>().sqrt();
    V::from_axes(|k| (n[k] / len) as f32)
}

/// The seams of every element: in 3D side `k` is the edge from corner `k`
/// to corner `k + 1`; in 2D side `k` is corner `k` (the third unused).
pub(crate) fn seams<V: Space>(vertices: &[V], elements: &[V::Element]) -> Vec<[Seam; 3]> {
    let corner = |e: usize, k: usize| elements[e].as_ref()[k % V::DIM];
    // Each side's key (its sorted vertex numbers) to the elements having it.
    let key = |e: usize, k: usize| {
        if V::DIM == 2 {
            (corner(e, k), u32::MAX)
        } else {
            let (a, b) = (corner(e, k), corner(e, k + 1));
            (a.min(b), a.max(b))
        }
    };
    let mut sides: HashMap<(u32, u32), Vec<(usize, usize)>> = HashMap::new();
    for e in 0..elements.len() {
        for k in 0..V::DIM {
            sides.entry(key(e, k)).or_default().push((e, k));
        }
    }
    let point = |i: u32| vertices[i as usize];
    (0..elements.len())
        .map(|e| {
            let corners: Vec<V> = elements[e].as_ref().iter().map(|&i| point(i)).collect();
            let n = element_normal(&corners);
            let mut out = [Seam::Open; 3];
            for (k, seam) in out.iter_mut().enumerate().take(V::DIM) {
                let Some(&(other, _)) = sides[&key(e, k)].iter().find(|(o, _)| *o != e) else {
                    continue;
                };
                // The neighbour's corner off this side, seen from it.
                let on: Vec<u32> = if V::DIM == 2 {
                    vec![corner(e, k)]
                } else {
                    vec![corner(e, k), corner(e, k + 1)]
                };
                let Some(&far) = elements[other].as_ref().iter().find(|i| !on.contains(i)) else {
                    continue;
                };
                let (v, w) = (point(on[0]), point(far));
                let off = V::from_axes(|i| w.axis(i) - v.axis(i));
                let along: f32 = (0..V::DIM).map(|i| off.axis(i) * n.axis(i)).sum();
                let length = (0..V::DIM)
                    .map(|i| off.axis(i) * off.axis(i))
                    .sum::<f32>()
                    .sqrt();
                *seam = if along.abs() <= 1e-3 * length {
                    Seam::Flat
                } else if along > 0.0 {
                    Seam::Valley
                } else {
                    Seam::Ridge
                };
            }
            out
        })
        .collect()
}
