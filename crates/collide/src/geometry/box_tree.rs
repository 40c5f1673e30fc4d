//! [`BoxTree`]: a bounding-volume tree over a fixed list of boxes, built
//! once (a compound's parts, a mesh's triangles, a heightfield's cells),
//! so that a query costs what the boxes near it cost, not the whole list.
//!
//! Built top-down: each node's items are split at the median of their
//! centres along the axis where the centres spread most, down to leaves
//! of a few items. The median split keeps the depth at most
//! `log2(n) + 1`, so every walk fits a fixed stack. Nodes sit in one flat
//! array, the two children of a node next to each other.
//!
//! Boxes here are closed: two that share only a face overlap.

use super::{Aabb, Ray, Vector};
use std::ops::ControlFlow;

/// Items per leaf at most.
const LEAF: usize = 4;

/// Deep enough for any tree of up to 2^32 items (the median split halves
/// the items at each level).
const STACK: usize = 64;

/// A node: its box, and either its children (`count` 0: the left child
/// at `first`, the right at `first + 1`) or its items (`order[first..
/// first + count]`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Node<V: Vector> {
    aabb: Aabb<V>,
    first: u32,
    count: u32,
}

/// A static tree over boxes numbered from 0 (see the module).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BoxTree<V: Vector> {
    nodes: Vec<Node<V>>,
    /// The items, leaf by leaf.
    order: Vec<u32>,
    /// Their boxes, in the same order.
    boxes: Vec<Aabb<V>>,
}

/// Whether two closed boxes share a point.
#[inline]
pub(crate) fn closed_overlap<V: Vector>(a: &Aabb<V>, b: &Aabb<V>) -> bool {
    (0..V::DIM).all(|k| a.min().axis(k) <= b.max().axis(k) && b.min().axis(k) <= a.max().axis(k))
}

impl<V: Vector> BoxTree<V> {
    /// The tree over `boxes` (item `i` is `boxes[i]`); `None` for no boxes.
    pub(crate) fn new(boxes: &[Aabb<V>]) -> Option<Self> {
        if boxes.is_empty() {
            return None;
        }
        let mut tree = Self {
            nodes: Vec::with_capacity(2 * boxes.len() / LEAF + 2),
            order: (0..boxes.len() as u32).collect(),
            boxes: Vec::new(),
        };
        tree.nodes.push(Node {
            aabb: boxes[0],
            first: 0,
            count: 0,
        });
        tree.build(0, 0, boxes.len(), boxes);
        tree.boxes = tree.order.iter().map(|&i| boxes[i as usize]).collect();
        Some(tree)
    }

    /// Fills node `at` with the items `order[lo..hi]`.
    fn build(&mut self, at: usize, lo: usize, hi: usize, boxes: &[Aabb<V>]) {
        let items = &mut self.order[lo..hi];
        let aabb = items
            .iter()
            .map(|&i| boxes[i as usize])
            .reduce(|a, b| a.union(&b))
            .expect("a node has items");
        if items.len() <= LEAF {
            self.nodes[at] = Node {
                aabb,
                first: lo as u32,
                count: items.len() as u32,
            };
            return;
        }
        let centre = |i: u32| boxes[i as usize].center();
        let (mut low, mut high) = (centre(items[0]), centre(items[0]));
        for &i in items.iter() {
            (low, high) = (low.min_each(centre(i)), high.max_each(centre(i)));
        }
        let axis = (1..V::DIM).fold(0, |best, k| {
            if high.axis(k) - low.axis(k) > high.axis(best) - low.axis(best) {
                k
            } else {
                best
            }
        });
        let mid = items.len() / 2;
        // Ties by item number: the same tree from the same boxes.
        items.select_nth_unstable_by(mid, |&a, &b| {
            centre(a)
                .axis(axis)
                .total_cmp(&centre(b).axis(axis))
                .then(a.cmp(&b))
        });
        let left = self.nodes.len();
        let blank = self.nodes[at];
        self.nodes.extend([blank, blank]);
        self.nodes[at] = Node {
            aabb,
            first: left as u32,
            count: 0,
        };
        self.build(left, lo, lo + mid, boxes);
        self.build(left + 1, lo + mid, hi, boxes);
    }

    /// The box around every item.
    pub(crate) fn root(&self) -> Aabb<V> {
        self.nodes[0].aabb
    }

    /// Its memory in bytes, less the struct itself.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.nodes.capacity() * size_of::<Node<V>>()
            + self.order.capacity() * size_of::<u32>()
            + self.boxes.capacity() * size_of::<Aabb<V>>()
    }

    /// Each item whose box overlaps `aabb` (closed), until `visit` breaks.
    pub(crate) fn visit_aabb(
        &self,
        aabb: &Aabb<V>,
        visit: impl FnMut(u32) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.visit_where(|b| closed_overlap(b, aabb), visit)
    }

    /// Each item whose box, and every node box above it, pass `enter`,
    /// until `visit` breaks.
    pub(crate) fn visit_where(
        &self,
        enter: impl Fn(&Aabb<V>) -> bool,
        mut visit: impl FnMut(u32) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut stack = [0u32; STACK];
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let node = &self.nodes[stack[len] as usize];
            if !enter(&node.aabb) {
                continue;
            }
            if node.count > 0 {
                let (lo, hi) = (node.first as usize, (node.first + node.count) as usize);
                for (&i, b) in self.order[lo..hi].iter().zip(&self.boxes[lo..hi]) {
                    if enter(b) {
                        visit(i)?;
                    }
                }
            } else {
                stack[len] = node.first + 1;
                stack[len + 1] = node.first;
                len += 2;
            }
        }
        ControlFlow::Continue(())
    }

    /// The nearest item `ray` hits: `exact(item, best)` gives an item's
    /// hit `t` (or `None`), and is asked only of items in boxes the ray
    /// enters before the best hit so far, nearer boxes first. Ties go to
    /// the lower item.
    pub(crate) fn cast_ray(
        &self,
        ray: &Ray<V>,
        mut exact: impl FnMut(u32) -> Option<f32>,
    ) -> Option<(f32, u32)> {
        let slabs = Slabs::new(ray, &self.nodes[0].aabb);
        let mut best: Option<(f32, u32)> = None;
        let mut stack = [(0u32, 0.0f32); STACK];
        let t0 = slabs.entry(&self.nodes[0].aabb)?;
        stack[0] = (0, t0);
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let (at, t_box) = stack[len];
            if best.is_some_and(|(t, _)| t_box > t) {
                continue;
            }
            let node = &self.nodes[at as usize];
            if node.count > 0 {
                let (lo, hi) = (node.first as usize, (node.first + node.count) as usize);
                for (&i, b) in self.order[lo..hi].iter().zip(&self.boxes[lo..hi]) {
                    if slabs
                        .entry(b)
                        .is_none_or(|t| best.is_some_and(|(best, _)| t > best))
                    {
                        continue;
                    }
                    if let Some(t) = exact(i) {
                        if best.is_none_or(|b| (t, i) < b) {
                            best = Some((t, i));
                        }
                    }
                }
                continue;
            }
            let (l, r) = (node.first, node.first + 1);
            let tl = slabs.entry(&self.nodes[l as usize].aabb);
            let tr = slabs.entry(&self.nodes[r as usize].aabb);
            // The nearer child on top of the stack.
            let mut push = |n: u32, t: Option<f32>| {
                if let Some(t) = t {
                    stack[len] = (n, t);
                    len += 1;
                }
            };
            if tl.unwrap_or(f32::INFINITY) <= tr.unwrap_or(f32::INFINITY) {
                push(r, tr);
                push(l, tl);
            } else {
                push(l, tl);
                push(r, tr);
            }
        }
        best
    }

    /// The item nearest a point by `distance(item)` (0 or more), among
    /// those whose boxes lie within `max` of it (`box_distance` gives a
    /// box's distance from the point, never more than any of its items'),
    /// nearer boxes first; ties go to the lower item.
    pub(crate) fn nearest(
        &self,
        max: f32,
        box_distance: impl Fn(&Aabb<V>) -> f32,
        mut distance: impl FnMut(u32) -> f32,
    ) -> Option<(f32, u32)> {
        let mut best: Option<(f32, u32)> = None;
        let mut stack = [(0u32, 0.0f32); STACK];
        stack[0] = (0, box_distance(&self.nodes[0].aabb));
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let (at, d_box) = stack[len];
            if d_box > max || best.is_some_and(|(d, _)| d_box > d) {
                continue;
            }
            let node = &self.nodes[at as usize];
            if node.count > 0 {
                let (lo, hi) = (node.first as usize, (node.first + node.count) as usize);
                for (&i, b) in self.order[lo..hi].iter().zip(&self.boxes[lo..hi]) {
                    let d_item = box_distance(b);
                    if d_item > max || best.is_some_and(|(d, _)| d_item > d) {
                        continue;
                    }
                    let d = distance(i);
                    if d <= max && best.is_none_or(|b| (d, i) < b) {
                        best = Some((d, i));
                    }
                }
                continue;
            }
            let (l, r) = (node.first, node.first + 1);
            let (dl, dr) = (
                box_distance(&self.nodes[l as usize].aabb),
                box_distance(&self.nodes[r as usize].aabb),
            );
            if dl <= dr {
                stack[len] = (r, dr);
                stack[len + 1] = (l, dl);
            } else {
                stack[len] = (l, dl);
                stack[len + 1] = (r, dr);
            }
            len += 2;
        }
        best
    }
}

/// A ray made ready for many box tests of one tree: the reciprocal of its
/// direction taken once. Boxes are closed, so a box with no thickness (a
/// flat floor's triangle) is entered, and each is padded by a millionth
/// of the largest coordinate in play (the tree's and the origin's), so
/// that the rounding of a ray turned into a collider's frame never loses
/// a box whose item it hits.
struct Slabs<V: Vector> {
    inverse: V,
    /// Per axis, what to add to a box's low side: the pad less the origin.
    below: V,
    /// Per axis, what to add to a box's high side: the pad less the origin.
    above: V,
    max_t: f32,
}

/// The pad, relative to the largest coordinate in play.
const PAD: f32 = 1e-6;

/// The larger of two numbers, in one instruction (`f32::max` also sorts
/// out NaN, which costs more; see [`Slabs::entry`] for why NaN is fine).
#[inline]
fn larger(a: f32, b: f32) -> f32 {
    if a > b { a } else { b }
}

/// The smaller of two numbers, in one instruction.
#[inline]
fn smaller(a: f32, b: f32) -> f32 {
    if a < b { a } else { b }
}

impl<V: Vector> Slabs<V> {
    fn new(ray: &Ray<V>, root: &Aabb<V>) -> Self {
        let (d, o) = (ray.direction(), ray.origin());
        let pad = |a: usize| {
            let reach = larger(root.min().axis(a).abs(), root.max().axis(a).abs());
            PAD * larger(reach, o.axis(a).abs()) + f32::MIN_POSITIVE
        };
        Self {
            inverse: V::from_axes(|a| 1.0 / d.axis(a)),
            below: V::from_axes(|a| -pad(a) - o.axis(a)),
            above: V::from_axes(|a| pad(a) - o.axis(a)),
            max_t: ray.max_t(),
        }
    }

    /// The first `t` in `[0, max_t]` at which the ray is in the padded
    /// box, or `None`.
    ///
    /// Along an axis the ray does not move, the reciprocal is infinite:
    /// both ends are -inf and +inf inside the slab, and the same infinity
    /// outside it. Only a ray exactly on a padded face gives NaN (0 times
    /// infinity), and it lies outside the box by the pad, so whether NaN
    /// keeps the box or drops it, no hit is lost.
    #[inline]
    fn entry(&self, aabb: &Aabb<V>) -> Option<f32> {
        let (mut enter, mut exit) = (0.0f32, self.max_t);
        for a in 0..V::DIM {
            let inverse = self.inverse.axis(a);
            let t1 = (aabb.min().axis(a) + self.below.axis(a)) * inverse;
            let t2 = (aabb.max().axis(a) + self.above.axis(a)) * inverse;
            enter = larger(enter, smaller(t1, t2));
            exit = smaller(exit, larger(t1, t2));
        }
        (enter <= exit).then_some(enter)
    }
}

/// The distance from `point` to the closed box `aabb` (0 inside).
pub(crate) fn box_distance<V: Vector>(aabb: &Aabb<V>, point: V) -> f32 {
    (0..V::DIM)
        .map(|k| {
            let p = point.axis(k);
            let d = (aabb.min().axis(k) - p)
                .max(p - aabb.max().axis(k))
                .max(0.0);
            d * d
        })
        .sum::<f32>()
        .sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::TestRng as Rng;
    use glam::Vec3;

    fn random_boxes(n: usize, seed: u64) -> Vec<Aabb<Vec3>> {
        let mut rng = Rng::new(seed);
        (0..n)
            .map(|_| {
                let c = Vec3::new(
                    rng.range(-50.0, 50.0),
                    rng.range(-5.0, 5.0),
                    rng.range(-50.0, 50.0),
                );
                let h = Vec3::new(
                    rng.range(0.0, 2.0),
                    rng.range(0.0, 2.0),
                    rng.range(0.0, 2.0),
                );
                Aabb::new(c - h, c + h).unwrap()
            })
            .collect()
    }

    #[test]
    fn a_box_query_finds_exactly_the_boxes_a_scan_finds() {
        let boxes = random_boxes(1000, 7);
        let tree = BoxTree::new(&boxes).unwrap();
        for q in random_boxes(200, 8) {
            let mut found = Vec::new();
            let _ = tree.visit_aabb(&q, |i| {
                found.push(i);
                ControlFlow::Continue(())
            });
            found.sort_unstable();
            let scan: Vec<u32> = (0..boxes.len() as u32)
                .filter(|&i| closed_overlap(&boxes[i as usize], &q))
                .collect();
            assert_eq!(found, scan);
        }
    }

    #[test]
    fn a_ray_and_a_nearest_walk_find_what_a_scan_finds() {
        let boxes = random_boxes(1000, 9);
        let tree = BoxTree::new(&boxes).unwrap();
        let mut rng = Rng::new(10);
        for _ in 0..200 {
            let o = Vec3::new(
                rng.range(-60.0, 60.0),
                rng.range(-10.0, 10.0),
                rng.range(-60.0, 60.0),
            );
            let d = Vec3::new(
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
            );
            let Ok(ray) = Ray::new(o, d, 200.0) else {
                continue;
            };
            let got = tree.cast_ray(&ray, |i| ray.entry(&boxes[i as usize]));
            let scan = (0..boxes.len() as u32)
                .filter_map(|i| ray.entry(&boxes[i as usize]).map(|t| (t, i)))
                .reduce(|a, b| if b < a { b } else { a });
            assert_eq!(got, scan);
            let near = tree.nearest(
                30.0,
                |b| box_distance(b, o),
                |i| box_distance(&boxes[i as usize], o),
            );
            let scan = (0..boxes.len() as u32)
                .map(|i| (box_distance(&boxes[i as usize], o), i))
                .filter(|&(d, _)| d <= 30.0)
                .reduce(|a, b| if b < a { b } else { a });
            assert_eq!(near, scan);
        }
    }
}
