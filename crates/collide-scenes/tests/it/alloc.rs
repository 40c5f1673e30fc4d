//! The counting allocator counts every path (allocate, zeroed, grow,
//! shrink, free). It is the project's only `unsafe` code (the library and
//! the command forbid it); Miri runs it through those paths:
//!
//! ```sh
//! cargo +nightly miri test -p collide-scenes --test it alloc
//! ```

use collide_scenes::alloc;

#[test]
fn tracked_counts_follow_every_allocation_path() {
    alloc::reset_tracked();
    let v = alloc::track(|| {
        let mut v: Vec<u64> = Vec::with_capacity(4);
        v.extend([1, 2, 3, 4]);
        assert_eq!(alloc::tracked().bytes, 32);
        v.push(5); // grows: a reallocation
        assert_eq!(alloc::tracked().allocations, 2);
        assert_eq!(alloc::tracked().bytes, 8 * v.capacity() as i64);
        let grown = alloc::tracked().bytes;
        v.shrink_to_fit();
        assert_eq!(alloc::tracked().bytes, 40);
        let zeroed = vec![0u8; 100]; // alloc_zeroed
        assert_eq!(alloc::tracked().bytes, 140);
        assert_eq!(alloc::tracked().peak_bytes, grown.max(140));
        drop(zeroed);
        v
    });
    // Outside `track`, nothing is counted on this thread.
    let untracked = vec![0u8; 1 << 16];
    assert_eq!(alloc::tracked().bytes, 40);
    assert_eq!(alloc::tracked().allocations, 4);
    alloc::track(|| drop(v));
    assert_eq!(alloc::tracked().bytes, 0);
    drop(untracked);
}

#[test]
fn the_process_peak_counts_from_its_reset() {
    // Other tests' threads may allocate at the same time: the peak is at
    // least what this thread held above the reset.
    alloc::reset_peak();
    let big = vec![1u8; 1 << 20];
    assert!(alloc::peak_bytes() >= 1 << 20);
    assert!(alloc::held().bytes >= 1 << 20);
    assert!(alloc::held().allocations >= 1);
    drop(big);
}
