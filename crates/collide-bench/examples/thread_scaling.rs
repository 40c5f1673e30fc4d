//! How a structure's step scales with threads: one copy of the structure
//! per thread count, each stepped inside its own rayon pool on the same
//! scene, frame by frame in alternating order (so a slow moment of the
//! machine hits every thread count alike), with every copy's events checked
//! against the first copy's on every frame.
//!
//! ```sh
//! cargo run --release --manifest-path crates/collide-bench/Cargo.toml \
//!     --example thread_scaling -- grid 1000000 slow uniform 12 2 1,2
//! ```
//!
//! Arguments: structure name, objects, motion, scene, frames, dimension
//! (`2` or `3`) and the thread counts (comma-separated; the first is the
//! baseline). Prints the median step time over frames 1 on per thread
//! count and the speed-up over the baseline, the same for applying the
//! frame's records (`Runner::apply`: an `update` per move, or with `batch`
//! as an eighth argument `Runner::batching`'s `update_many` per run of
//! moves; and any inserts and removes), and Amdahl's law fitted to the
//! step times on the
//! first two counts: the share of the step that ran in parallel and the
//! speed-up it predicts for more threads (an upper bound: memory bandwidth
//! is shared).

use collide::{BroadPhase, Vector};
use collide_scenes::{IdEvent, Motion, Runner, Scene, SceneConfig, SceneKind};
use glam::{Vec2, Vec3};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |k: usize, default: &str| args.get(k).cloned().unwrap_or(default.to_string());
    let name = arg(0, "grid");
    let n: usize = arg(1, "1000000").parse().expect("objects: a number");
    let motion: Motion = arg(2, "slow").parse().unwrap_or_else(|e| panic!("{e}"));
    let kind: SceneKind = arg(3, "uniform").parse().unwrap_or_else(|e| panic!("{e}"));
    let frames: usize = arg(4, "12").parse().expect("frames: a number");
    let threads: Vec<usize> = arg(6, "1,2")
        .split(',')
        .map(|t| t.parse().expect("thread counts: numbers"))
        .collect();
    let config = SceneConfig {
        motion,
        ..SceneConfig::new(kind, n)
    };
    let batching = match arg(7, "").as_str() {
        "" => false,
        "batch" => true,
        other => panic!("`{other}`: the eighth argument is `batch` or nothing"),
    };
    match arg(5, "2").as_str() {
        "2" => run::<Vec2>(&name, config, frames, &threads, batching),
        "3" => run::<Vec3>(&name, config, frames, &threads, batching),
        other => panic!("dimension `{other}`: 2 or 3"),
    }
}

fn run<V: Vector>(
    name: &str,
    config: SceneConfig,
    frames: usize,
    threads: &[usize],
    batching: bool,
) {
    let pools: Vec<rayon::ThreadPool> = threads
        .iter()
        .map(|&t| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .build()
                .expect("a thread pool")
        })
        .collect();
    let mut worlds: Vec<Box<dyn BroadPhase<V, u64> + Send>> = threads
        .iter()
        .map(|_| {
            name.parse::<collide::Structure>()
                .ok()
                .map(|s| s.build::<V, u64>())
                .unwrap_or_else(|| panic!("unknown `{name}`"))
        })
        .collect();
    let runner = || {
        if batching {
            Runner::batching()
        } else {
            Runner::new()
        }
    };
    let mut runners: Vec<Runner<V>> = threads.iter().map(|_| runner()).collect();
    let mut times: Vec<Vec<f64>> = threads.iter().map(|_| Vec::new()).collect();
    let mut apply_times: Vec<Vec<f64>> = threads.iter().map(|_| Vec::new()).collect();
    let mut events: Vec<Vec<IdEvent>> = threads.iter().map(|_| Vec::new()).collect();
    let mut scene = Scene::<V>::new(config);
    let mut records = Vec::new();
    println!(
        "# {name}, {}D {} {}, n = {}, threads {threads:?}",
        V::DIM,
        config.kind,
        config.motion,
        config.n
    );
    for frame in 0..frames {
        scene.next_frame(&mut records);
        let count = threads.len();
        for k in 0..count {
            // Alternate which copy goes first.
            let k = if frame % 2 == 0 { k } else { count - 1 - k };
            let (world, runner, records) = (&mut worlds[k], &mut runners[k], &records);
            // The updates run in the pool too, as in a game whose frame runs
            // there: the step then starts on the core whose cache holds
            // what the updates touched.
            let (applying, stepping) = pools[k].install(|| {
                let start = Instant::now();
                runner
                    .apply(world.as_mut(), records)
                    .expect("scene records apply");
                let applied = Instant::now();
                world.step();
                (applied - start, applied.elapsed())
            });
            if frame > 0 {
                times[k].push(stepping.as_secs_f64() * 1e3);
                apply_times[k].push(applying.as_secs_f64() * 1e3);
            }
            // Untimed: the events in the scene's ids (handles differ
            // between copies).
            runners[k].collect_events(worlds[k].as_ref(), &mut events[k]);
        }
        for k in 1..count {
            assert!(
                events[k] == events[0] && worlds[k].pairs().len() == worlds[0].pairs().len(),
                "frame {frame}: {} threads found other pairs or events than {}",
                threads[k],
                threads[0]
            );
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
    };
    let medians: Vec<f64> = times.iter_mut().map(median).collect();
    let apply_medians: Vec<f64> = apply_times.iter_mut().map(median).collect();
    println!("threads  median step ms  speed-up  median apply ms  speed-up");
    for ((t, m), a) in threads.iter().zip(&medians).zip(&apply_medians) {
        println!(
            "{t:7} {m:15.2} {:9.2} {a:16.2} {:9.2}",
            medians[0] / m,
            apply_medians[0] / a
        );
    }
    println!("events (in scene ids) and pair counts identical on every frame");
    if threads.len() >= 2 && threads[1] > threads[0] {
        // Amdahl: T(t) = s + p / t, fitted to the first two counts.
        let (t0, t1) = (threads[0] as f64, threads[1] as f64);
        let p = (medians[0] - medians[1]) / (1.0 / t0 - 1.0 / t1);
        let s = medians[0] - p / t0;
        let share = p / (s + p);
        println!(
            "Amdahl fit: {:.0}% of the one-thread step parallel; predicted speed-up over 1 thread: 4 threads {:.2}, 8 {:.2}, 16 {:.2}, limit {:.2}",
            100.0 * share,
            1.0 / (1.0 - share + share / 4.0),
            1.0 / (1.0 - share + share / 8.0),
            1.0 / (1.0 - share + share / 16.0),
            1.0 / (1.0 - share).max(1e-9)
        );
    }
}
