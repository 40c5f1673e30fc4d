//! The BVH's candidate cache: the pairs of objects whose leaves overlap,
//! kept from one step to the next, so a step finds pairs only for the
//! objects whose leaf changed (Box2D's pair management).
//!
//! A leaf holds its object's fat box (moving tree) or exact box (resting
//! tree), and every object's box lies inside its leaf after the step has
//! settled the escaped ones. So two boxes overlap only if their leaves do,
//! and the exact pairs are the candidates that pass the box test. Two
//! leaves can start to overlap only when one of them changes (an insert, an
//! escape, a wake), so only those objects ("fresh") need a query; the
//! candidates of the others stay valid. Pairs of two resting objects are
//! not kept here: the resting tree lists them itself.
//!
//! Cost per step: one pass over the candidates (the box test) plus a query
//! of the trees per fresh object, or one traversal of the trees against
//! themselves (on the leaves) when many objects are fresh. When that
//! happens step after step (fast motion) the cache is dropped and the
//! traversal tests the boxes at the leaves directly, until motion calms.

use super::pairs::{PairScratch, all_pairs};
use super::tree::{Arena, NONE};
use crate::broad::events::pair_key;
use crate::broad::headroom::{keep_headroom, reserve_headroom};
use crate::broad::parallel::{for_each_part, parts_for};
use crate::broad::radix::sort_keys;
use crate::broad::split_sort::{SplitSort, pair_key_bits};
use crate::geometry::{Aabb, Vector};

/// More fresh objects than one in this many object slots: find every
/// candidate again by traversals rather than query per fresh object: 4 and
/// 8 cost the same, 16 and always traversing more (figures: BENCHMARKS.md).
const REFIND_SHARE: usize = 4;

/// What the cache did in a step.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Refresh {
    /// Candidates given the exact box test.
    pub(super) tested: u64,
    /// Node visits of the fresh objects' queries, and the queries made
    /// (both 0 when every candidate was found again by traversals).
    pub(super) query_visits: u64,
    pub(super) queries: u64,
}

/// The candidate pairs, and the objects whose leaves changed since the
/// last step.
#[derive(Clone, Debug, Default)]
pub(super) struct Candidates {
    /// Sorted keys of every pair, not both resting, whose leaves overlap
    /// (and maybe some whose leaves no longer do), except pairs with a
    /// fresh object.
    keys: Vec<u64>,
    /// The next step's keys, built beside the old ones.
    next: Vec<u64>,
    /// New candidates of the fresh objects (sorted before the merge).
    found: Vec<u64>,
    /// Objects whose leaf changed, was added or went since the last step.
    fresh: Vec<u32>,
    fresh_mark: Vec<bool>,
    /// Fresh objects to query, keyed by leaf (tree order).
    order: Vec<u64>,
    /// Whether `keys` holds the candidates (not after a step that found
    /// its pairs directly).
    valid: bool,
    /// Whether the last step had more fresh objects than one in
    /// [`REFIND_SHARE`].
    many_last: bool,
    /// The fresh objects' queries: one part on the calling thread, or
    /// several on the thread pool.
    query_parts: Vec<QueryPart>,
    pair_scratch: PairScratch,
    /// The radix sorts' scratch.
    sort_scratch: Vec<u64>,
    /// The traversals' sort of their keys (split across threads when they
    /// are many).
    split_sort: SplitSort,
    /// Per object: the leaves its leaf overlapped at its last query (see
    /// [`Candidates::crowd`]), [`CROWD_UNKNOWN`] if none since its insert.
    crowd: Vec<u8>,
}

/// One part's queries of fresh objects (see [`Candidates::query_fresh`]):
/// its stack, the pairs it found, each object's crowd, its node visits.
#[derive(Clone, Debug, Default)]
struct QueryPart {
    stack: Vec<u32>,
    found: Vec<u64>,
    crowds: Vec<(u32, u8)>,
    visits: u64,
}

/// A fresh object's query counts as this many items against
/// `PARALLEL_MIN` when deciding whether to split the queries: it walks a
/// few dozen nodes, where the grids' items are a registration each.
const QUERY_ITEMS: usize = 8;

/// Pushes onto `part.found` the key of every object in `arena` whose leaf
/// overlaps `bound` (object `i`'s leaf), other than `i`, once per pair: a
/// fresh other object (`fresh[j]`) finds the pair itself when it has the
/// smaller index. Returns the nodes visited and the leaves overlapped.
fn query<V: Vector>(
    arena: &Arena<V>,
    bound: &Aabb<V>,
    i: u32,
    fresh: &[bool],
    part: &mut QueryPart,
) -> (u64, u32) {
    let (mut visits, mut hits) = (0, 0);
    let stack = &mut part.stack;
    stack.clear();
    if arena.root != NONE && arena.nodes[arena.root as usize].bound.overlaps(bound) {
        stack.push(arena.root);
    }
    // Children are tested before they are stacked (one read of each
    // while its parent's links are at hand).
    while let Some(n) = stack.pop() {
        visits += 1;
        let node = &arena.nodes[n as usize];
        if node.is_leaf() {
            let j = node.object;
            if j != i {
                hits += 1;
                if i < j || fresh.get(j as usize) != Some(&true) {
                    part.found.push(pair_key(i, j));
                }
            }
            continue;
        }
        for child in [node.left, node.right] {
            if arena.nodes[child as usize].bound.overlaps(bound) {
                stack.push(child);
            }
        }
    }
    (visits, hits)
}

/// `crowd` of an object not queried since it was inserted.
const CROWD_UNKNOWN: u8 = u8::MAX;

impl Candidates {
    /// Notes that object `i`'s leaf changed, was added or was removed.
    pub(super) fn mark(&mut self, i: u32) {
        let k = i as usize;
        if self.fresh_mark.len() <= k {
            self.fresh_mark.resize(k + 1, false);
        }
        if !self.fresh_mark[k] {
            self.fresh_mark[k] = true;
            self.fresh.push(i);
        }
    }

    /// Whether object `i` is marked fresh.
    pub(super) fn is_fresh(&self, i: u32) -> bool {
        self.fresh_mark.get(i as usize) == Some(&true)
    }

    /// Brings the candidates up to date with the trees and pushes the key
    /// of every pair, not both resting, whose boxes overlap onto `keys`
    /// (sorted). `moving_at[i]` is `NONE` for objects not in the moving
    /// tree; `leaf_of[i]` is `NONE` for removed objects.
    pub(super) fn refresh<V: Vector>(
        &mut self,
        moving: &Arena<V>,
        resting: &Arena<V>,
        leaf_of: &[u32],
        moving_at: &[u32],
        boxes: &[Aabb<V>],
        keys: &mut Vec<u64>,
    ) -> Refresh {
        let mut done = Refresh::default();
        let live = leaf_of.len();
        let many = self.fresh.len() * REFIND_SHARE > live.max(64);
        if many && self.many_last {
            // Most leaves change step after step (fast motion): keeping the
            // candidates would not pay. Find the pairs by a traversal with
            // the box test at the leaves, and the candidates again once the
            // motion calms down.
            keys.clear();
            let found = all_pairs(moving, resting, Some(boxes), &mut self.pair_scratch, keys);
            self.split_sort.sort(keys, pair_key_bits(live));
            self.keys.clear();
            self.valid = false;
            self.clear_fresh();
            done.tested = found.tested;
            return done;
        }
        self.many_last = many;
        if many || !self.valid {
            self.keys.clear();
            all_pairs(
                moving,
                resting,
                None,
                &mut self.pair_scratch,
                &mut self.keys,
            );
            self.split_sort.sort(&mut self.keys, pair_key_bits(live));
            self.valid = true;
            self.clear_fresh();
        } else {
            self.found.clear();
            // In tree order, so that one query finds the nodes the last one
            // read still in the cache.
            self.order.clear();
            for &i in &self.fresh {
                let leaf = leaf_of.get(i as usize).copied().unwrap_or(NONE);
                if leaf != NONE && moving_at[i as usize] != NONE {
                    self.order.push((u64::from(leaf) << 32) | u64::from(i));
                } // else removed (a fresh object is never resting)
            }
            sort_keys(&mut self.order, &mut self.sort_scratch);
            self.query_fresh(moving, resting, &mut done);
            sort_keys(&mut self.found, &mut self.sort_scratch);
            self.merge_old_and_found();
            self.clear_fresh();
        }
        // The box test, dropping pairs that both rest now (the resting
        // tree lists those).
        keys.clear();
        self.keys.retain(|&key| {
            let (i, j) = ((key >> 32) as usize, (key & 0xffff_ffff) as usize);
            if moving_at[i] == NONE && moving_at[j] == NONE {
                return false;
            }
            if boxes[i].overlaps(&boxes[j]) {
                keys.push(key);
            }
            true
        });
        done.tested = self.keys.len() as u64;
        done
    }

    /// Leaves room in the lists for the next step's wandering counts, so
    /// that a steady state allocates nothing (see `headroom.rs`): the
    /// candidates, the list they are merged into, the fresh objects' finds
    /// and order, the sort's scratch, and the step's `output` (the pair
    /// keys; a traversal's sort may trade them with its own scratch, which
    /// it makes room in itself).
    pub(super) fn make_room(&mut self, output: &mut Vec<u64>) {
        keep_headroom(&mut self.fresh);
        // The sorts (radix ones past 2,048 keys) may trade any of these
        // with the scratch: all get room for the largest.
        let sorted = [&self.keys, &self.next, &self.found, &self.order, output]
            .iter()
            .map(|list| list.len())
            .max()
            .unwrap_or(0);
        for list in [
            &mut self.keys,
            &mut self.next,
            &mut self.found,
            &mut self.order,
            &mut self.sort_scratch,
            output,
        ] {
            reserve_headroom(list, sorted);
        }
    }

    /// Every candidate in `self.keys` without a fresh object, merged with
    /// `self.found`, into `self.keys`.
    fn merge_old_and_found(&mut self) {
        let fresh = &self.fresh_mark;
        let stale = |key: u64| {
            fresh.get((key >> 32) as usize) == Some(&true)
                || fresh.get((key & 0xffff_ffff) as usize) == Some(&true)
        };
        self.next.clear();
        reserve_headroom(&mut self.next, self.keys.len() + self.found.len());
        let mut found = self.found.iter().copied().peekable();
        for &key in &self.keys {
            if stale(key) {
                continue;
            }
            while let Some(&new) = found.peek() {
                if new >= key {
                    break;
                }
                self.next.push(new);
                found.next();
            }
            self.next.push(key);
        }
        self.next.extend(found);
        std::mem::swap(&mut self.keys, &mut self.next);
    }

    /// Queries the trees for every object in `self.order`, pushing the
    /// pairs found onto `self.found` and noting each object's crowd. With
    /// many queries (each counted as [`QUERY_ITEMS`] items against
    /// `PARALLEL_MIN`) and more than one thread, the queries are cut into
    /// parts that run on the thread pool, each into its own list, appended
    /// in part order.
    fn query_fresh<V: Vector>(
        &mut self,
        moving: &Arena<V>,
        resting: &Arena<V>,
        done: &mut Refresh,
    ) {
        let order = &self.order[..];
        let fresh = &self.fresh_mark[..];
        let query_range = |range: std::ops::Range<usize>, part: &mut QueryPart| {
            for &entry in &order[range] {
                let (leaf, i) = ((entry >> 32) as u32, entry as u32);
                let bound = moving.nodes[leaf as usize].bound;
                let (own_visits, own_hits) = query(moving, &bound, i, fresh, part);
                let (cross_visits, cross_hits) = query(resting, &bound, i, fresh, part);
                part.visits += own_visits + cross_visits;
                part.crowds
                    .push((i, (own_hits + cross_hits).min(254) as u8));
            }
        };
        let split = parts_for(order.len() * QUERY_ITEMS);
        if self.query_parts.len() < split {
            self.query_parts.resize_with(split, Default::default);
        }
        let parts = &mut self.query_parts[..split];
        for part in parts.iter_mut() {
            part.found.clear();
            part.crowds.clear();
            part.visits = 0;
            // Room for a deep walk from the first step (see `headroom.rs`).
            reserve_headroom(&mut part.stack, 0);
        }
        if split <= 1 {
            // Straight into `found`, without a copy.
            std::mem::swap(&mut parts[0].found, &mut self.found);
            query_range(0..order.len(), &mut parts[0]);
            std::mem::swap(&mut parts[0].found, &mut self.found);
        } else {
            let len = order.len();
            for_each_part(parts, |k, part| {
                query_range(len * k / split..len * (k + 1) / split, part)
            });
            let found: usize = parts.iter().map(|part| part.found.len()).sum();
            let have = self.found.len();
            reserve_headroom(&mut self.found, have + found);
            for part in parts.iter() {
                self.found.extend_from_slice(&part.found);
            }
        }
        done.queries += order.len() as u64;
        for part in self.query_parts[..split].iter_mut() {
            done.query_visits += part.visits;
            for &(i, crowd) in &part.crowds {
                if self.crowd.len() <= i as usize {
                    self.crowd.resize(i as usize + 1, CROWD_UNKNOWN);
                }
                self.crowd[i as usize] = crowd;
            }
            keep_headroom(&mut part.crowds);
            if split > 1 {
                keep_headroom(&mut part.found);
            }
        }
    }

    /// How many other objects' leaves object `i`'s leaf overlapped when it
    /// was last queried (at most 254), or `None` if it has not been since
    /// it was inserted (its candidates were found by traversals).
    pub(super) fn crowd(&self, i: u32) -> Option<u8> {
        self.crowd
            .get(i as usize)
            .copied()
            .filter(|&c| c != CROWD_UNKNOWN)
    }

    /// Forgets object `i`'s crowd (its slot holds a new object).
    pub(super) fn forget_crowd(&mut self, i: u32) {
        if let Some(c) = self.crowd.get_mut(i as usize) {
            *c = CROWD_UNKNOWN;
        }
    }

    fn clear_fresh(&mut self) {
        for &i in &self.fresh {
            self.fresh_mark[i as usize] = false;
        }
        self.fresh.clear();
    }

    /// The candidate keys (sorted), for the invariant check; `None` while
    /// the pairs are found without them (see [`Candidates::refresh`]).
    pub(super) fn keys(&self) -> Option<&[u64]> {
        self.valid.then_some(&self.keys[..])
    }
}
