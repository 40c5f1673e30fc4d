//! A peer plus what a game must add to it to do our structures' work: the
//! exact pairs (the peer's candidates filtered by collide's strict rule)
//! and the started and stopped events, derived from the pairs inside the
//! timed frame. Two ways a game would derive them:
//!
//! - [`Derive::Sort`]: sort the frame's pairs as `(lower id, higher id)`
//!   and merge them with the last frame's sorted list;
//! - [`Derive::Hash`]: put the frame's pairs in a hash set (rustc's Fx
//!   hash) and take the differences with the last frame's set.
//!
//! The rows are named `<peer>+sort` and `<peer>+hash`; BENCHMARKS.md keeps
//! the faster of the two beside each peer's native row.

use crate::contender::Contender;
use collide::Vector;
use collide_scenes::Record;
use rustc_hash::FxHashSet;
use std::cmp::Ordering;

/// Pairs of scene ids, lower first.
#[cfg(test)]
type Pairs = [(u64, u64)];

/// How events are derived from a peer's pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Derive {
    /// Sorted pair lists, merged.
    Sort,
    /// Hash sets, differenced.
    Hash,
}

impl Derive {
    /// The suffix of the row's name.
    pub fn suffix(self) -> &'static str {
        match self {
            Self::Sort => "+sort",
            Self::Hash => "+hash",
        }
    }

    /// The way a row's name asks for, and the peer's name before it.
    pub fn split(name: &str) -> Option<(&str, Self)> {
        [Self::Sort, Self::Hash]
            .into_iter()
            .find_map(|d| name.strip_suffix(d.suffix()).map(|peer| (peer, d)))
    }
}

/// A peer whose timed frame also derives events.
pub struct WithEvents<V: Vector> {
    name: String,
    peer: Box<dyn Contender<V>>,
    derive: Derive,
    now: Vec<(u64, u64)>,
    before: Vec<(u64, u64)>,
    set_now: FxHashSet<(u64, u64)>,
    set_before: FxHashSet<(u64, u64)>,
    started: Vec<(u64, u64)>,
    stopped: Vec<(u64, u64)>,
}

impl<V: Vector> WithEvents<V> {
    pub fn new(peer: Box<dyn Contender<V>>, derive: Derive) -> Self {
        Self {
            name: format!("{}{}", peer.name(), derive.suffix()),
            peer,
            derive,
            now: Vec::new(),
            before: Vec::new(),
            set_now: FxHashSet::default(),
            set_before: FxHashSet::default(),
            started: Vec::new(),
            stopped: Vec::new(),
        }
    }

    /// The last frame's events, started then stopped.
    #[cfg(test)]
    fn events(&self) -> (&Pairs, &Pairs) {
        (&self.started, &self.stopped)
    }

    fn merge_sorted(&mut self) {
        let (now, before) = (&self.now, &self.before);
        let (mut i, mut j) = (0, 0);
        while i < now.len() && j < before.len() {
            match now[i].cmp(&before[j]) {
                Ordering::Less => {
                    self.started.push(now[i]);
                    i += 1;
                }
                Ordering::Greater => {
                    self.stopped.push(before[j]);
                    j += 1;
                }
                Ordering::Equal => (i, j) = (i + 1, j + 1),
            }
        }
        self.started.extend_from_slice(&now[i..]);
        self.stopped.extend_from_slice(&before[j..]);
    }

    fn difference_hashed(&mut self) {
        self.set_now.clear();
        self.set_now.extend(self.now.iter().copied());
        self.started.extend(
            self.now
                .iter()
                .filter(|p| !self.set_before.contains(p))
                .copied(),
        );
        self.stopped.extend(
            self.set_before
                .iter()
                .filter(|p| !self.set_now.contains(p))
                .copied(),
        );
        std::mem::swap(&mut self.set_now, &mut self.set_before);
    }
}

impl<V: Vector> Contender<V> for WithEvents<V> {
    fn name(&self) -> &str {
        &self.name
    }

    fn frame(&mut self, records: &[Record<V>]) {
        self.peer.frame(records);
        self.started.clear();
        self.stopped.clear();
        match self.derive {
            Derive::Sort => {
                self.peer.exact_pairs(&mut self.now, true);
                self.merge_sorted();
                std::mem::swap(&mut self.now, &mut self.before);
            }
            Derive::Hash => {
                self.peer.exact_pairs(&mut self.now, false);
                self.difference_hashed();
            }
        }
    }

    fn exact_pairs(&self, out: &mut Vec<(u64, u64)>, sorted: bool) -> u64 {
        self.peer.exact_pairs(out, sorted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::peers::Dense;
    use collide::Aabb2;
    use glam::Vec2;

    /// Every pair of live boxes that overlap, as a peer would find them.
    struct AllPairs(Dense<Vec2>);

    impl Contender<Vec2> for AllPairs {
        fn name(&self) -> &str {
            "all"
        }
        fn frame(&mut self, records: &[Record<Vec2>]) {
            self.0.apply(records);
        }
        fn exact_pairs(&self, out: &mut Vec<(u64, u64)>, sorted: bool) -> u64 {
            out.clear();
            let (ids, boxes) = (&self.0.ids, &self.0.boxes);
            for i in 0..ids.len() {
                for j in i + 1..ids.len() {
                    if boxes[i].overlaps(&boxes[j]) {
                        out.push((ids[i].min(ids[j]), ids[i].max(ids[j])));
                    }
                }
            }
            if sorted {
                out.sort_unstable();
            }
            0
        }
    }

    fn at(x: f32) -> Aabb2 {
        Aabb2::new(Vec2::new(x, 0.0), Vec2::new(x + 1.0, 1.0)).unwrap()
    }

    #[test]
    fn both_ways_derive_the_same_events() {
        for derive in [Derive::Sort, Derive::Hash] {
            let mut peer = WithEvents::new(Box::new(AllPairs(Dense::default())), derive);
            let upsert = |id, x| Record::Upsert { id, aabb: at(x) };
            peer.frame(&[upsert(1, 0.0), upsert(2, 0.5), upsert(3, 5.0)]);
            assert_eq!(peer.events(), (&[(1, 2)][..], &[][..]), "{derive:?}");
            peer.frame(&[upsert(3, 0.9)]);
            let (started, stopped) = peer.events();
            let mut started = started.to_vec();
            started.sort_unstable();
            assert_eq!((&started[..], stopped), (&[(1, 3), (2, 3)][..], &[][..]));
            peer.frame(&[upsert(1, 9.0), Record::Remove { id: 3 }]);
            let mut stopped = peer.events().1.to_vec();
            stopped.sort_unstable();
            assert_eq!(peer.events().0, &[]);
            assert_eq!(stopped, [(1, 2), (1, 3), (2, 3)], "{derive:?}");
        }
    }
}
