//! What it costs this machine to hand work to another thread: two equal
//! spins run by `rayon::join` in a pool of two threads, for spins of
//! 50 us to 2 ms, after an idle gap (the pool's threads asleep) and back to
//! back. Where the pair takes twice one spin, the second thread did not
//! start in time to help; the spin length where it first takes about one
//! spin is the smallest piece of work worth splitting here (see the
//! scaling model in BENCHMARKS.md at commit 36a3a50).
//!
//! ```sh
//! cargo run --release --manifest-path crates/collide-bench/Cargo.toml --example wake_latency
//! ```

use std::time::{Duration, Instant};

fn spin(length: Duration) {
    let start = Instant::now();
    while start.elapsed() < length {
        std::hint::spin_loop();
    }
}

/// The median and the least of `runs` timings of `f`, in microseconds.
fn timings(runs: usize, mut f: impl FnMut() -> Duration) -> (u128, u128) {
    let mut times: Vec<u128> = (0..runs).map(|_| f().as_micros()).collect();
    times.sort_unstable();
    (times[runs / 2], times[0])
}

fn main() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a pool of two threads");
    println!("spin us  after idle: median, least us  back to back: median us");
    for micros in [50u64, 200, 500, 1000, 2000] {
        let length = Duration::from_micros(micros);
        let pair = || {
            let start = Instant::now();
            pool.install(|| rayon::join(|| spin(length), || spin(length)));
            start.elapsed()
        };
        let idle = timings(21, || {
            std::thread::sleep(Duration::from_millis(3));
            pair()
        });
        let busy = timings(21, pair);
        println!("{micros:7}  {:10} {:6}  {:10}", idle.0, idle.1, busy.0);
    }
}
