//! The contacts of two colliders part by part, and the internal edges
//! taken out of them.
//!
//! Two colliders touch where any of their parts do: each part of one near
//! the other's box is tested against each part of the other near it, and
//! every part pair within the margin is kept with its own contact and
//! manifold ([`PartContact`]).
//!
//! **Internal edges.** A shape sliding across the seam between two
//! triangles, or between two abutting boxes of a compound, touches the
//! edge of the one it is leaving: that contact's normal leans toward the
//! seam and would stop or lift the shape.
//!
//! - On a mesh, where neighbours are known (`seams.rs`), a contact on an
//!   element's edge or corner whose seams are flat, or a valley seen from
//!   the contact's side, takes the element's face normal, keeping its
//!   depth. A ridge (a cliff's rim) or an open edge keeps its own.
//! - In a compound, whose parts only touch, a contact on a part's edge or
//!   corner is dropped when every corner of that feature is a face corner
//!   of another part touching the shape flat (Terdiman's rule, as Jolt
//!   keeps it): contacts whose normal is a face normal of their part are
//!   kept first and void their face's corners; then each edge or corner
//!   contact, deepest first, is dropped if all its corners are voided and
//!   kept (voiding its own) otherwise. A real convex edge is no face
//!   corner of a part touched flat, so its contact is kept.
//!
//! Features are told within a thousandth of the part's size (about 1e-3
//! rad of normal), corners matched within a ten-thousandth, both in the
//! collider's own frame.

use super::collider_shape::ColliderShape;
use super::mesh::Mesh;
use super::seams::element_normal;
use super::space::Space;
use crate::geometry::{Aabb, Vector};
use crate::narrow::{Contact, Manifold};
use std::ops::ControlFlow;

/// Two parts touching: the first collider's part, the second's, their
/// contact and their manifold (normal from the first toward the second).
///
/// Internal edges are taken out: on a mesh, a contact on an edge or
/// corner where the neighbouring triangles go on flat (or fold into a
/// valley, seen from the contact's side) takes the triangle's face normal
/// and keeps its depth; in a compound, a contact on a part's edge whose
/// corners are face corners of another part touching flat is dropped. So
/// a shape sliding across seams keeps normals within about 1e-3 rad of
/// the faces', while a real edge (a rim, a step) keeps its own normal.
/// Neighbours in a mesh are found by shared vertex numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PartContact<V: Space> {
    /// The first collider's part (0 for a convex shape).
    pub part_a: u32,
    /// The second collider's part.
    pub part_b: u32,
    /// Their contact.
    pub contact: Contact<V>,
    /// Their manifold; its points' feature ids name the two parts.
    pub manifold: Manifold<V>,
}

/// What the internal-edge rule knows of one part contact.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Feature {
    /// Its place in the list.
    at: usize,
    /// Its part.
    part: u32,
    /// A face contact (its normal a face normal of the part).
    face: bool,
    depth: f32,
    /// Its corners: `corners[first..first + count]` of the scratch.
    first: usize,
    count: usize,
    /// How close two corners must be to match.
    tolerance: f32,
    keep: bool,
}

/// What the rule reuses from pair to pair.
#[derive(Debug)]
pub(crate) struct EdgeScratch<V> {
    features: Vec<Feature>,
    corners: Vec<V>,
    /// Corners voided, with the part whose face voided them.
    voided: Vec<(u32, V)>,
}

impl<V> Default for EdgeScratch<V> {
    fn default() -> Self {
        Self {
            features: Vec::new(),
            corners: Vec::new(),
            voided: Vec::new(),
        }
    }
}

/// `aabb` grown by `by` on every side.
fn grown<V: Vector>(aabb: &Aabb<V>, by: f32) -> Aabb<V> {
    Aabb::new(
        V::from_axes(|k| aabb.min().axis(k) - by),
        V::from_axes(|k| aabb.max().axis(k) + by),
    )
    .unwrap_or(*aabb)
}

/// The part pairs of `a` at `pa` and `b` at `pb` within `margin`, less
/// internal edges, onto `out` sorted by part pair (manifolds empty: built
/// later for the pairs held); their deepest contact, or `None` when no
/// part pair is within the margin.
pub(crate) fn part_contacts<V: Space>(
    a: &ColliderShape<V>,
    pa: &V::Pose,
    b: &ColliderShape<V>,
    pb: &V::Pose,
    margin: f32,
    out: &mut Vec<PartContact<V>>,
    scratch: &mut EdgeScratch<V>,
) -> Option<Contact<V>> {
    let start = out.len();
    let b_box = grown(&b.aabb(pb), margin);
    let _ = a.visit_near(pa, &b_box, |i, sa, pai| {
        // A convex `b` is its one part, whatever the box.
        let near = if b.is_convex() {
            b_box
        } else {
            grown(&V::aabb(sa, pai), margin)
        };
        b.visit_near(pb, &near, |j, sb, pbj| {
            let contact = V::contact(sa, pai, sb, pbj);
            if contact.depth >= -margin {
                out.push(PartContact {
                    part_a: i,
                    part_b: j,
                    contact,
                    manifold: Manifold::empty(contact.normal),
                });
            }
            ControlFlow::Continue(())
        })
    });
    // One contact has no seam to share: whatever edge it touches, a
    // neighbour across it would be as near.
    let several = out.len() - start > 1;
    for (shape, pose, first) in [(a, pa, true), (b, pb, false)]
        .into_iter()
        .filter(|_| several)
    {
        match shape {
            ColliderShape::Convex(_) => {}
            ColliderShape::Compound(_) => {
                remove_internal_edges(shape, pose, first, start, out, scratch)
            }
            ColliderShape::Mesh(mesh) => fix_seams(mesh, pose, first, start, out),
        }
    }
    out[start..].sort_unstable_by_key(|p| (p.part_a, p.part_b));
    out[start..]
        .iter()
        .map(|p| p.contact)
        .reduce(|best, c| if c.depth > best.depth { c } else { best })
}

/// The mesh's rule (see the module) over `out[start..]`, for the elements
/// of `mesh` at `pose`, the first collider's when `first`: a contact on an
/// element's edge or corner where its seams are internal takes the
/// element's face normal (on the side the contact was), keeping its depth.
fn fix_seams<V: Space>(
    mesh: &Mesh<V>,
    pose: &V::Pose,
    first: bool,
    start: usize,
    out: &mut [PartContact<V>],
) {
    let identity = V::at(V::from_axes(|_| 0.0)).expect("the origin is finite");
    let sign = if first { 1.0 } else { -1.0 };
    for p in &mut out[start..] {
        let part = if first { p.part_a } else { p.part_b };
        let Some(element) = mesh.element(part as usize) else {
            continue;
        };
        // In the mesh's frame, where its coordinates are small.
        let mut corners = [V::from_axes(|_| 0.0); 32];
        let n = V::corners(&element, &identity, &mut corners);
        let corners = &corners[..n];
        let m = V::unrotate(pose, V::from_axes(|k| sign * p.contact.normal.axis(k)));
        let touched = Touched::of(corners, m);
        if touched.count >= V::DIM {
            continue;
        }
        let mut on = [0usize; 3];
        for (slot, k) in on.iter_mut().zip((0..n).filter(|&k| touched.has(k))) {
            *slot = k;
        }
        let face = element_normal(corners);
        let front = dot(face, m) >= 0.0;
        let seams = mesh.seams(part);
        let internal = match (V::DIM, &on[..touched.count]) {
            (2, &[k]) => seams[k].internal(front),
            (3, &[k]) => seams[k].internal(front) && seams[(k + 2) % 3].internal(front),
            (3, &[i, j]) => {
                // The edge from corner k to k + 1.
                let k = if (i + 1) % 3 == j { i } else { j };
                seams[k].internal(front)
            }
            _ => false,
        };
        if internal {
            let side = if front { sign } else { -sign };
            let world = V::rotate(pose, face);
            p.contact.normal = V::from_axes(|k| side * world.axis(k));
        }
    }
}

/// The compound's rule (see the module) over `out[start..]`, for the
/// parts of `shape` at `pose`, the first collider's when `first`.
fn remove_internal_edges<V: Space>(
    shape: &ColliderShape<V>,
    pose: &V::Pose,
    first: bool,
    start: usize,
    out: &mut Vec<PartContact<V>>,
    s: &mut EdgeScratch<V>,
) {
    s.features.clear();
    s.corners.clear();
    s.voided.clear();
    let mut all = [V::from_axes(|_| 0.0); 32];
    for (at, p) in out.iter().enumerate().skip(start) {
        let part = if first { p.part_a } else { p.part_b };
        // In the compound's frame, where its coordinates are small.
        let Some((part_shape, part_pose)) = shape.part(part) else {
            continue;
        };
        let n = V::corners(&part_shape, &part_pose, &mut all);
        let first_corner = s.corners.len();
        if n == 0 {
            // A rounded part has no edges to catch on.
            s.features.push(Feature {
                at,
                part,
                face: true,
                depth: p.contact.depth,
                first: first_corner,
                count: 0,
                tolerance: 0.0,
                keep: true,
            });
            continue;
        }
        // The part's outward normal toward the other shape.
        let sign = if first { 1.0 } else { -1.0 };
        let m = V::unrotate(pose, V::from_axes(|k| sign * p.contact.normal.axis(k)));
        let touched = Touched::of(&all[..n], m);
        s.corners
            .extend((0..n).filter(|&k| touched.has(k)).map(|k| all[k]));
        let count = touched.count;
        s.features.push(Feature {
            at,
            part,
            face: count >= V::DIM,
            depth: p.contact.depth,
            first: first_corner,
            count,
            tolerance: touched.match_within,
            keep: false,
        });
    }
    // Faces first, then deeper first; ties by place (part order).
    s.features.sort_unstable_by(|x, y| {
        y.face
            .cmp(&x.face)
            .then(y.depth.total_cmp(&x.depth))
            .then(x.at.cmp(&y.at))
    });
    for f in &mut s.features {
        let corners = &s.corners[f.first..f.first + f.count];
        // Only another part's face voids a corner.
        let voided = |c: &V| {
            s.voided
                .iter()
                .any(|(part, v)| *part != f.part && distance(*v, *c) <= f.tolerance)
        };
        if f.face || f.keep || !corners.iter().all(voided) {
            f.keep = true;
            s.voided.extend(corners.iter().map(|&c| (f.part, c)));
        }
    }
    s.features.sort_unstable_by_key(|f| f.at);
    let mut drop = s
        .features
        .iter()
        .filter(|f| !f.keep)
        .map(|f| f.at)
        .peekable();
    let mut at = 0;
    out.retain(|_| {
        let here = at;
        at += 1;
        if here >= start && drop.peek() == Some(&here) {
            drop.next();
            return false;
        }
        true
    });
}

/// The corners of a part a contact touches: those within a thousandth
/// of the part's size (plus rounding) of its farthest along the part's
/// outward normal `m`; all of a face's for a face contact.
struct Touched {
    /// Bit `k` set for corner `k`.
    corners: u32,
    count: usize,
    /// How close another part's corner must be to be the same corner.
    match_within: f32,
}

impl Touched {
    fn of<V: Vector>(corners: &[V], m: V) -> Self {
        let size = corners[1..]
            .iter()
            .map(|c| distance(*c, corners[0]))
            .fold(0.0f32, f32::max);
        let far = corners
            .iter()
            .flat_map(|c| (0..V::DIM).map(move |k| c.axis(k).abs()))
            .fold(0.0f32, f32::max);
        let rounding = 8.0 * f32::EPSILON * far;
        let top = corners
            .iter()
            .map(|&c| dot(c, m))
            .fold(f32::NEG_INFINITY, f32::max);
        let bits = corners
            .iter()
            .enumerate()
            .filter(|&(_, &c)| dot(c, m) >= top - (1e-3 * size + rounding))
            .fold(0u32, |bits, (k, _)| bits | 1 << k);
        Self {
            corners: bits,
            count: bits.count_ones() as usize,
            match_within: 1e-4 * size + rounding,
        }
    }

    fn has(&self, k: usize) -> bool {
        self.corners >> k & 1 == 1
    }
}

/// The dot product.
fn dot<V: Vector>(a: V, b: V) -> f32 {
    (0..V::DIM).map(|k| a.axis(k) * b.axis(k)).sum()
}

/// The distance between two points.
fn distance<V: Vector>(a: V, b: V) -> f32 {
    (0..V::DIM)
        .map(|k| (a.axis(k) - b.axis(k)) * (a.axis(k) - b.axis(k)))
        .sum::<f32>()
        .sqrt()
}
