//! The trace parser on arbitrary bytes: a trace or a typed error with a
//! line number, never a panic; a trace it accepts writes and parses back
//! to itself (`crates/collide/tests/it/checks/trace.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/collide/tests/it/checks/mod.rs"]
mod harness;

fuzz_target!(|bytes: &[u8]| {
    if let Err(problem) = harness::trace::check(bytes) {
        panic!("{problem}");
    }
});
