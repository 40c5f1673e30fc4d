//! The sweep-and-prunes' invariants, for tests and debugging.

use super::all_axes::Sap;
use super::band_sap::BandSap;
use super::base::{ALIVE, IN_AXES, SPANNER, SweepBase, swept_extent};
use super::endpoints::{is_start, key, proxy};
use super::one_axis::in_first_band;
use crate::broad::BroadPhase;
use crate::broad::events::pair_key;
use crate::geometry::{Aabb, Vector};

/// What a sorted array must hold of one proxy: 0x1 per start key, 0x10 per
/// other key.
type Expected<'a> = &'a dyn Fn(usize, u32) -> u8;

impl<V: Vector, T> SweepBase<V, T> {
    /// The checks both kinds share: no object is both in the arrays and in
    /// the spanning list, and none in the arrays is longer than the
    /// spanning threshold along the sweep axis. Returns the proxies in the
    /// arrays.
    fn validate_lists(&self) -> Result<Vec<u32>, String> {
        let in_axes: Vec<u32> = (0..self.proxies.status.len() as u32)
            .filter(|&p| self.proxies.status[p as usize] & IN_AXES != 0)
            .collect();
        for &p in &in_axes {
            let s = self.proxies.status[p as usize];
            if s & SPANNER != 0 {
                return Err(format!("proxy {p} is both in the axes and a spanner"));
            }
            if !self.proxies.dirty
                && s & ALIVE != 0
                && swept_extent(&self.proxies.boxes[p as usize], self.measures.sweep_axis)
                    > self.measures.span_extent
            {
                return Err(format!(
                    "proxy {p} in the axes is larger than the spanning threshold {}",
                    self.measures.span_extent
                ));
            }
        }
        Ok(in_axes)
    }

    /// Every sorted array is strictly increasing and holds `expected` keys
    /// of each proxy in the arrays and none of others; between a step and
    /// the next change, every key matches its object's box along
    /// `axis_of(array)` (its min only when `mins_only`), and `stale(p,
    /// box)` holds for none.
    fn validate_arrays(
        &self,
        in_axes: &[u32],
        expected: Expected<'_>,
        axis_of: &dyn Fn(usize) -> usize,
        mins_only: bool,
        stale: &dyn Fn(u32, &Aabb<V>) -> bool,
    ) -> Result<(), String> {
        for (array, keys) in self.sorted.arrays.iter().enumerate() {
            if let Some(w) = keys.windows(2).position(|w| w[0] >= w[1]) {
                return Err(format!("axis array {array} is out of order at {w}"));
            }
            let mut seen = vec![0u8; self.proxies.status.len()];
            for &k in keys {
                let p = proxy(k) as usize;
                if p >= seen.len() || self.proxies.status[p] & IN_AXES == 0 {
                    return Err(format!(
                        "axis array {array} holds proxy {p}, not in the axes"
                    ));
                }
                seen[p] += if is_start(k) { 1 } else { 16 };
            }
            if let Some(&p) = in_axes
                .iter()
                .find(|&&p| seen[p as usize] != expected(array, p))
            {
                return Err(format!(
                    "axis array {array} holds proxy {p}'s keys {:#x} times (starts 0x1, others 0x10)",
                    seen[p as usize]
                ));
            }
            if !self.proxies.dirty {
                let axis = axis_of(array);
                for &k in keys {
                    let aabb = &self.proxies.boxes[proxy(k) as usize];
                    if stale(proxy(k), aabb) {
                        return Err(format!("proxy {}'s bands are stale", proxy(k)));
                    }
                    let value = if is_start(k) || mins_only {
                        aabb.min().axis(axis)
                    } else {
                        aabb.max().axis(axis)
                    };
                    if key(value, is_start(k), proxy(k)) != k {
                        return Err(format!("a key of proxy {} is stale", proxy(k)));
                    }
                }
            }
        }
        Ok(())
    }
}

impl<V: Vector, T> Sap<V, T> {
    /// Checks the invariants and names the first one broken: every axis's
    /// array is strictly increasing and holds exactly the start and end of
    /// each object in the axes; no object is both in the axes and in the
    /// spanning list; no object in the axes is longer than the spanning
    /// threshold along the sweep axis; the pair set is the pair list.
    /// Between a step and the next change, every key also matches its
    /// object's box.
    ///
    /// ```
    /// use collide::{Aabb2, BroadPhase, Sap};
    /// use glam::Vec2;
    /// let mut sap: Sap<Vec2> = Sap::new();
    /// for i in 0..20 {
    ///     let p = Vec2::splat(i as f32);
    ///     sap.insert(Aabb2::new(p, p + Vec2::splat(3.0))?, ())?;
    /// }
    /// sap.step();
    /// assert_eq!(sap.validate(), Ok(()));
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn validate(&self) -> Result<(), String> {
        let base = &self.base;
        if !base.sorted.built {
            return Ok(());
        }
        let in_axes = base.validate_lists()?;
        base.validate_arrays(&in_axes, &|_, _| 17, &|array| array, false, &|_, _| false)?;
        if self.set.len() != self.pairs().len() {
            return Err(format!(
                "the pair set has {} pairs, the list {}",
                self.set.len(),
                self.pairs().len()
            ));
        }
        for pair in self.pairs() {
            let (a, b) = (pair.a().index() as usize, pair.b().index() as usize);
            let (pa, pb) = (base.proxies.proxy_of[a], base.proxies.proxy_of[b]);
            let live = |h: crate::Handle, p: u32| base.proxies.handle_of[p as usize] == h;
            if live(pair.a(), pa) && live(pair.b(), pb) && !self.set.contains(pair_key(pa, pb)) {
                return Err(format!("pair {pair} is listed but not in the set"));
            }
        }
        Ok(())
    }
}

impl<V: Vector, T> BandSap<V, T> {
    /// Checks the invariants and names the first one broken: every band's
    /// array is strictly increasing and holds one key per object in the
    /// bands it covers only, marked in its first band; no object is both
    /// in the bands and in the spanning list; no object in the bands is
    /// longer than the spanning threshold along the sweep axis; the kept
    /// pairs are in order. Between a step and the next change, every key
    /// and band also matches its object's box, and the kept pairs are the
    /// pairs the bands hold.
    ///
    /// ```
    /// use collide::{Aabb2, BandSap, BroadPhase};
    /// use glam::Vec2;
    /// let mut sap: BandSap<Vec2> = BandSap::new();
    /// for i in 0..20 {
    ///     let p = Vec2::splat(i as f32);
    ///     sap.insert(Aabb2::new(p, p + Vec2::splat(3.0))?, ())?;
    /// }
    /// sap.step();
    /// assert_eq!(sap.validate(), Ok(()));
    /// # Ok::<(), collide::Error>(())
    /// ```
    pub fn validate(&self) -> Result<(), String> {
        let base = &self.base;
        if !base.sorted.built {
            return Ok(());
        }
        let in_axes = base.validate_lists()?;
        if base.sorted.arrays.len() != self.bands.count as usize {
            return Err(format!(
                "{} band arrays for {} bands",
                base.sorted.arrays.len(),
                self.bands.count
            ));
        }
        let expected = |array: usize, p: u32| {
            let (lo, hi) = (self.band_lo[p as usize], self.band_hi[p as usize]);
            match array as u32 {
                a if a == lo => 1,
                a if lo < a && a <= hi => 16,
                _ => 0,
            }
        };
        let stale = |p: u32, aabb: &Aabb<V>| {
            self.bands.range_of(aabb) != (self.band_lo[p as usize], self.band_hi[p as usize])
        };
        let axis = base.measures.sweep_axis;
        base.validate_arrays(&in_axes, &expected, &|_| axis, true, &stale)?;
        self.validate_band_pairs(&in_axes)
    }

    /// The kept pairs: in order, and, between steps, exactly the
    /// pairs found anew from the bands' keys (each key against the next
    /// ones that start before its box ends, counted in the home band; the
    /// keys were checked against the boxes above), in O(n + candidates);
    /// and no object in the bands longer along the sweep axis than the
    /// recorded longest (when it is kept).
    fn validate_band_pairs(&self, in_axes: &[u32]) -> Result<(), String> {
        if let Some(w) = self.band_pairs.windows(2).position(|w| w[0] >= w[1]) {
            return Err(format!("the kept pairs are out of order at {w}"));
        }
        if self.base.proxies.dirty {
            return Ok(());
        }
        let axis = self.base.measures.sweep_axis;
        if !self.max_extent_stale {
            let longer = |&&p: &&u32| {
                swept_extent(&self.base.proxies.boxes[p as usize], axis) > self.max_extent
            };
            if let Some(p) = in_axes.iter().find(longer) {
                return Err(format!(
                    "proxy {p} is longer than the recorded longest {}",
                    self.max_extent
                ));
            }
        }
        let slot = |p: usize| self.base.proxies.handle_of[p].index();
        let mut want = Vec::new();
        for keys in &self.base.sorted.arrays {
            for (i, &k) in keys.iter().enumerate() {
                let p = proxy(k) as usize;
                let aabb = &self.base.proxies.boxes[p];
                let until = key(aabb.max().axis(axis), false, 0);
                for &kq in keys[i + 1..].iter().take_while(|&&kq| kq < until) {
                    let q = proxy(kq) as usize;
                    let home = in_first_band(k) || in_first_band(kq);
                    if home && aabb.overlaps(&self.base.proxies.boxes[q]) {
                        want.push(pair_key(slot(p), slot(q)));
                    }
                }
            }
        }
        want.sort_unstable();
        if want != self.band_pairs {
            return Err(format!(
                "{} kept pairs, but the bands hold {} overlapping pairs",
                self.band_pairs.len(),
                want.len()
            ));
        }
        Ok(())
    }
}
