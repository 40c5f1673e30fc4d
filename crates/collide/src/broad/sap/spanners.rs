//! The world-spanning objects' index: the spanners grouped by the axis on
//! which each is thinnest, each group sorted by its minimum on that axis.
//!
//! A floor spans the world along x but is thin along y, so the objects that
//! can touch it are found by its y interval alone. Every other object asks
//! each group for the spanners whose interval on the group's axis can
//! overlap its own: a binary search, then the few candidates, each given a
//! box test. Cost per step: O(s log s) to rebuild the index, then
//! O(n (log s + hits)) for everyone against it, instead of the s n of
//! testing every spanner against every object.

use crate::broad::headroom::keep_headroom;
use crate::geometry::{Aabb, Vector};

/// Spanners thin along one axis.
#[derive(Clone, Debug, Default)]
struct Group {
    /// (minimum on the axis, proxy), sorted.
    entries: Vec<(f32, u32)>,
    /// The largest extent on the axis among the group.
    max_extent: f32,
}

/// See the module documentation.
#[derive(Clone, Debug, Default)]
pub(crate) struct SpannerIndex {
    groups: [Group; 3],
}

impl SpannerIndex {
    /// Rebuilds the index from the spanners' current boxes.
    pub(crate) fn rebuild<V: Vector>(&mut self, spanners: &[u32], boxes: &[Aabb<V>]) {
        for group in &mut self.groups {
            group.entries.clear();
            group.max_extent = 0.0;
        }
        for &s in spanners {
            let aabb = &boxes[s as usize];
            let size = aabb.size();
            let axis = (0..V::DIM)
                .min_by(|&x, &y| size.axis(x).total_cmp(&size.axis(y)))
                .unwrap_or(0);
            let group = &mut self.groups[axis];
            group.entries.push((aabb.min().axis(axis), s));
            group.max_extent = group.max_extent.max(size.axis(axis));
        }
        for group in &mut self.groups {
            group
                .entries
                .sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        }
    }

    /// Leaves room for the next rebuild's wandering group sizes (see
    /// `headroom.rs`).
    pub(crate) fn make_room(&mut self) {
        for group in &mut self.groups {
            keep_headroom(&mut group.entries);
        }
    }

    /// Calls `on_candidate(s)` for every spanner whose interval on its
    /// group's axis can overlap `aabb`'s (a superset of the spanners
    /// overlapping `aabb`). Returns the number of candidates.
    pub(crate) fn candidates<V: Vector>(
        &self,
        aabb: &Aabb<V>,
        mut on_candidate: impl FnMut(u32),
    ) -> u64 {
        let mut count = 0;
        for (axis, group) in self.groups.iter().enumerate().take(V::DIM) {
            if group.entries.is_empty() {
                continue;
            }
            // A spanner overlaps on the axis only if its minimum lies in
            // (min - its extent, max); twice the largest extent, in f64, so
            // rounding never cuts one off.
            let from =
                (f64::from(aabb.min().axis(axis)) - 2.0 * f64::from(group.max_extent)) as f32;
            let until = aabb.max().axis(axis);
            let first = group.entries.partition_point(|e| e.0 < from);
            for &(_, s) in group.entries[first..].iter().take_while(|e| e.0 < until) {
                count += 1;
                on_candidate(s);
            }
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    #[test]
    fn candidates_include_every_overlapping_spanner() {
        let boxes = vec![
            // A floor (thin in y) and a wall (thin in x).
            Aabb::new(Vec2::new(0.0, 10.0), Vec2::new(1000.0, 12.0)).unwrap(),
            Aabb::new(Vec2::new(500.0, 0.0), Vec2::new(503.0, 1000.0)).unwrap(),
        ];
        let mut index = SpannerIndex::default();
        index.rebuild(&[0, 1], &boxes);
        let probe = |min: Vec2, max: Vec2| {
            let mut found = Vec::new();
            index.candidates(&Aabb::new(min, max).unwrap(), |s| found.push(s));
            found.sort();
            found
        };
        assert_eq!(
            probe(Vec2::new(490.0, 5.0), Vec2::new(510.0, 15.0)),
            vec![0, 1]
        );
        assert_eq!(
            probe(Vec2::new(10.0, 500.0), Vec2::new(20.0, 510.0)),
            Vec::<u32>::new()
        );
        assert_eq!(probe(Vec2::new(10.0, 11.0), Vec2::new(20.0, 11.5)), vec![0]);
    }
}
