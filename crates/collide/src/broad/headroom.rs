//! Growing reused buffers with headroom, so that a structure's steady state
//! makes no allocation.
//!
//! The structures keep their per-step buffers (pair lists, events, sort
//! scratch, registrations) from step to step. Their lengths wander a
//! little each step, so a buffer grown to exactly what one step needed
//! grows again at the next new high, and a small buffer (a handful of
//! events) regrows often. Buffers made room for through
//! [`reserve_headroom`] keep at least a quarter of the length plus 64
//! items free (half and 128 right after growing), so the wandering stays
//! inside the capacity once the scene has settled; the test
//! The `broad::allocation` tests check that no structure allocates then.
//!
//! The margin is a share of the length rather than a doubling: a grid
//! level's registrations, grown by doubling, touched megabytes of fresh
//! pages (measured: about 1,150 page faults in one step at 100,000
//! objects, 2D `uniform` fast).

/// Makes sure `buffer` can hold `len` items and a margin (a quarter of
/// `len`, plus 64) without growing. When it must grow, it takes twice that
/// margin, so growth stays geometric (amortised constant time) while the
/// unused memory stays within half of `len` plus 128 items.
pub(crate) fn reserve_headroom<T>(buffer: &mut Vec<T>, len: usize) {
    if buffer.capacity() < with_margin(len) {
        let target = len + len / 2 + 128;
        buffer.reserve_exact(target.saturating_sub(buffer.len()));
    }
}

/// [`reserve_headroom`] for the buffer's own length: room for the next
/// step to fill it as full again, and a little more.
pub(crate) fn keep_headroom<T>(buffer: &mut Vec<T>) {
    let len = buffer.len();
    reserve_headroom(buffer, len);
}

/// `len` and the margin [`reserve_headroom`] keeps free after it.
pub(crate) fn with_margin(len: usize) -> usize {
    len + len / 4 + 64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_leaves_a_margin_that_a_wandering_length_stays_inside() {
        let mut buffer: Vec<u64> = Vec::new();
        reserve_headroom(&mut buffer, 1000);
        let capacity = buffer.capacity();
        assert!(capacity >= 1000 + 500 + 128);
        // Wandering up to the margin regrows nothing.
        for len in [900, 1200, 1000, 1250] {
            reserve_headroom(&mut buffer, len);
            buffer.resize(len, 0);
            assert_eq!(buffer.capacity(), capacity);
        }
        // A new high past it grows once, with a margin again.
        reserve_headroom(&mut buffer, 1500);
        assert!(buffer.capacity() >= 1500 + 750 + 128);
    }

    #[test]
    fn small_buffers_get_a_floor() {
        let mut buffer: Vec<u8> = Vec::new();
        reserve_headroom(&mut buffer, 0);
        assert!(buffer.capacity() >= 128);
        let capacity = buffer.capacity();
        reserve_headroom(&mut buffer, 50);
        assert_eq!(buffer.capacity(), capacity);
    }
}
