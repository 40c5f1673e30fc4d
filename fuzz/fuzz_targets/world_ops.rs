//! Operation sequences on the collision world against brute force: the
//! bytes pick a structure, a dimension, a lattice offset, the pair hook
//! and the operations (`crates/collide/tests/it/checks/world_ops.rs`,
//! `decode`). Any difference from brute force, and any panic, is a
//! finding.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/collide/tests/it/checks/mod.rs"]
mod harness;

fuzz_target!(|bytes: &[u8]| {
    if let Err(difference) = harness::world_ops::check_bytes(bytes, None) {
        panic!("{difference}");
    }
});
