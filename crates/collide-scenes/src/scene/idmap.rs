//! [`IdMap`]: the caller's 64-bit object ids to values, fast for the common
//! case of small, dense ids.

use rustc_hash::FxHashMap;

/// A map from 64-bit ids to values: ids that are small and dense (as games
/// and the shared scenes number their objects) live in a flat vector, the
/// rest in a hash map. Lookups in id order then read memory in order, far
/// faster than hashing every id (figures: BENCHMARKS.md).
///
/// ```
/// use collide_scenes::IdMap;
/// let mut map = IdMap::default();
/// map.insert(3, 'a');
/// map.insert(u64::MAX, 'b'); // far away: goes to the hash map
/// assert_eq!(map.get(3), Some(&'a'));
/// assert_eq!(map.remove(u64::MAX), Some('b'));
/// assert_eq!(map.len(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct IdMap<T> {
    dense: Vec<Option<T>>,
    sparse: FxHashMap<u64, T>,
    len: usize,
}

impl<T> Default for IdMap<T> {
    fn default() -> Self {
        Self {
            dense: Vec::new(),
            sparse: FxHashMap::default(),
            len: 0,
        }
    }
}

impl<T> IdMap<T> {
    /// The value of `id`, if present.
    #[inline]
    pub fn get(&self, id: u64) -> Option<&T> {
        match usize::try_from(id).ok().and_then(|i| self.dense.get(i)) {
            Some(Some(value)) => Some(value),
            _ => self.sparse.get(&id),
        }
    }

    /// Sets the value of `id`, returning the old one.
    pub fn insert(&mut self, id: u64, value: T) -> Option<T> {
        if let Some(present) = self.sparse.get_mut(&id) {
            return Some(std::mem::replace(present, value));
        }
        let old = if let Some(slot) = self.dense_slot(id) {
            slot.replace(value)
        } else {
            self.sparse.insert(id, value)
        };
        if old.is_none() {
            self.len += 1;
        }
        old
    }

    /// Removes `id`, returning its value.
    pub fn remove(&mut self, id: u64) -> Option<T> {
        let dense = usize::try_from(id)
            .ok()
            .and_then(|i| self.dense.get_mut(i))
            .and_then(Option::take);
        let old = dense.or_else(|| self.sparse.remove(&id));
        if old.is_some() {
            self.len -= 1;
        }
        old
    }

    /// Number of ids present.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no id is present.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The dense slot for `id`, growing the vector when `id` is near the
    /// ids already present (at most twice the count, plus 1024); `None`
    /// sends the id to the hash map.
    fn dense_slot(&mut self, id: u64) -> Option<&mut Option<T>> {
        let index = usize::try_from(id).ok()?;
        if index >= self.dense.len() {
            if index > 2 * self.len + 1024 {
                return None;
            }
            self.dense.resize_with(index + 1, || None);
        }
        Some(&mut self.dense[index])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn behaves_like_a_map_for_dense_sparse_and_mixed_ids() {
        let mut rng = crate::SceneRng::new(9);
        let mut map = IdMap::default();
        let mut model = BTreeMap::new();
        for step in 0..20_000u64 {
            let id = match rng.below(4) {
                0 => rng.next_u64(),
                1 => rng.below(5000) as u64,
                _ => step / 2,
            };
            if rng.below(3) == 0 {
                assert_eq!(map.remove(id), model.remove(&id), "remove {id}");
            } else {
                assert_eq!(map.insert(id, step), model.insert(id, step), "insert {id}");
            }
            assert_eq!(map.len(), model.len());
        }
        for (id, v) in &model {
            assert_eq!(map.get(*id), Some(v));
        }
    }
}
