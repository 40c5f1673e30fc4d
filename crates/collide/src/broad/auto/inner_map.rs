//! `Auto`'s handle for each handle of the structure running inside it.

use crate::handle::Handle;

/// Maps the inner structure's handles to `Auto`'s own.
///
/// By inner slot index it holds the inner handle living there and its
/// `Auto` handle. A removed object's entry stays until its index is taken
/// again, since the inner structure's next step still reports its stopped
/// pairs; when an insert takes the index before that step, the old entry
/// moves to `retired`, which the step reads and then forgets.
#[derive(Debug, Default)]
pub(super) struct InnerMap {
    entries: Vec<Option<(Handle, Handle)>>,
    /// Entries replaced since the last step, sorted by inner handle when
    /// read.
    retired: Vec<(Handle, Handle)>,
    retired_sorted: bool,
}

impl InnerMap {
    /// Records that `inner` is `Auto`'s `outer`.
    pub(super) fn insert(&mut self, inner: Handle, outer: Handle) {
        let i = inner.index() as usize;
        if self.entries.len() <= i {
            self.entries.resize(i + 1, None);
        }
        if let Some(old) = self.entries[i].replace((inner, outer)) {
            self.retired.push(old);
            self.retired_sorted = false;
        }
    }

    /// Sorts the retired entries for [`InnerMap::get`] (a binary search
    /// instead of a scan); call before reading a step's events.
    pub(super) fn prepare(&mut self) {
        if !self.retired_sorted {
            self.retired.sort_unstable_by_key(|e| e.0);
            self.retired_sorted = true;
        }
    }

    /// `Auto`'s handle of `inner`, a handle the inner structure issued
    /// and reported since the last [`InnerMap::forget_retired`].
    #[inline]
    pub(super) fn get(&self, inner: Handle) -> Handle {
        match self.entries.get(inner.index() as usize) {
            Some(Some((now, outer))) if *now == inner => *outer,
            _ => self.get_retired(inner),
        }
    }

    #[cold]
    fn get_retired(&self, inner: Handle) -> Handle {
        // Unsorted only between steps (inserts since the last one), when
        // `Auto::pairs` maps the last step's pairs: a scan then.
        let found = if self.retired_sorted {
            self.retired
                .binary_search_by_key(&inner, |e| e.0)
                .ok()
                .map(|at| self.retired[at])
        } else {
            self.retired.iter().rev().find(|e| e.0 == inner).copied()
        };
        match found {
            Some((_, outer)) => outer,
            None => panic!("auto: the inner structure reported {inner:?}, which it never issued"),
        }
    }

    /// Forgets the replaced entries: after a step, no event or pair of
    /// the inner structure names them.
    pub(super) fn forget_retired(&mut self) {
        self.retired.clear();
        self.retired_sorted = true;
    }

    /// Forgets everything (the inner structure was replaced).
    pub(super) fn clear(&mut self) {
        self.entries.clear();
        self.forget_retired();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::handle::Slots;

    #[test]
    fn a_reused_inner_index_still_maps_the_removed_object_until_the_step() {
        let (mut inner, mut outer) = (Slots::new(), Slots::new());
        let mut map = InnerMap::default();
        let (i0, o0) = (inner.insert(()).unwrap(), outer.insert(()).unwrap());
        map.insert(i0, o0);
        inner.remove(i0).unwrap();
        let (i1, o1) = (inner.insert(()).unwrap(), outer.insert(()).unwrap());
        assert_eq!(i1.index(), i0.index());
        map.insert(i1, o1);
        map.prepare();
        assert_eq!((map.get(i0), map.get(i1)), (o0, o1));
        map.forget_retired();
        assert_eq!(map.get(i1), o1);
    }
}
