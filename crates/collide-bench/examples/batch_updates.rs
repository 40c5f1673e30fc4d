//! What `update_many` costs against one `update` per move, with the moves
//! already in columns (handles, boxes) as a game that keeps its objects in
//! columns has them, on each thread count: one copy of the structure per
//! (thread count, way of updating), each updated and stepped inside its
//! own rayon pool on the same scene, frame by frame; every copy's events
//! are checked against the first copy's on every frame.
//!
//! ```sh
//! cargo run --release --manifest-path crates/collide-bench/Cargo.toml \
//!     --example batch_updates -- grid 1000000 slow uniform 8 2 1,2
//! ```
//!
//! Arguments: structure name, objects, motion (`slow`, `fast` or
//! `teleport`: every frame after the first only moves objects), scene,
//! frames, dimension (`2` or `3`) and the thread counts. Prints the median
//! time over frames 1 on of applying a frame's moves each way (the step is
//! not timed), and the batch's speed-up over the loop on the same thread
//! count and over the loop on the first thread count. Gathering the
//! columns from the scene's records is not timed.

use collide::{Aabb, BroadPhase, Handle, Vector};
use collide_scenes::{IdEvent, Motion, Record, Runner, Scene, SceneConfig, SceneKind};
use glam::{Vec2, Vec3};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |k: usize, default: &str| args.get(k).cloned().unwrap_or(default.to_string());
    let name = arg(0, "grid");
    let n: usize = arg(1, "1000000").parse().expect("objects: a number");
    let motion: Motion = arg(2, "slow").parse().unwrap_or_else(|e| panic!("{e}"));
    assert!(
        motion != Motion::Churn,
        "churn inserts and removes; pick a motion that only moves"
    );
    let kind: SceneKind = arg(3, "uniform").parse().unwrap_or_else(|e| panic!("{e}"));
    let frames: usize = arg(4, "8").parse().expect("frames: a number");
    let threads: Vec<usize> = arg(6, "1,2")
        .split(',')
        .map(|t| t.parse().expect("thread counts: numbers"))
        .collect();
    let config = SceneConfig {
        motion,
        ..SceneConfig::new(kind, n)
    };
    match arg(5, "2").as_str() {
        "2" => run::<Vec2>(&name, config, frames, &threads),
        "3" => run::<Vec3>(&name, config, frames, &threads),
        other => panic!("dimension `{other}`: 2 or 3"),
    }
}

/// One copy of the structure and how it is updated.
struct Contestant<V: Vector> {
    world: Box<dyn BroadPhase<V, u64> + Send>,
    runner: Runner<V>,
    batch: bool,
    pool: usize,
    handles: Vec<Handle>,
    boxes: Vec<Aabb<V>>,
    times: Vec<f64>,
    events: Vec<IdEvent>,
}

fn run<V: Vector>(name: &str, config: SceneConfig, frames: usize, threads: &[usize]) {
    let pools: Vec<rayon::ThreadPool> = threads
        .iter()
        .map(|&t| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .build()
                .expect("a thread pool")
        })
        .collect();
    let mut copies: Vec<Contestant<V>> = (0..threads.len())
        .flat_map(|pool| [false, true].map(|batch| (pool, batch)))
        .map(|(pool, batch)| Contestant {
            world: name
                .parse::<collide::Structure>()
                .ok()
                .map(|s| s.build::<V, u64>())
                .unwrap_or_else(|| panic!("unknown structure `{name}`")),
            runner: Runner::new(),
            batch,
            pool,
            handles: Vec::new(),
            boxes: Vec::new(),
            times: Vec::new(),
            events: Vec::new(),
        })
        .collect();
    println!(
        "# {name}, {}D {} {}, n = {}, threads {threads:?}",
        V::DIM,
        config.kind,
        config.motion,
        config.n
    );
    let mut scene = Scene::<V>::new(config);
    let mut records = Vec::new();
    for frame in 0..frames {
        scene.next_frame(&mut records);
        let count = copies.len();
        for k in 0..count {
            // Alternate which copy goes first.
            let k = if frame % 2 == 0 { k } else { count - 1 - k };
            let copy = &mut copies[k];
            if frame == 0 {
                pools[copy.pool].install(|| {
                    copy.runner
                        .apply(copy.world.as_mut(), &records)
                        .expect("scene records apply")
                });
            } else {
                copy.handles.clear();
                copy.boxes.clear();
                for record in &records {
                    let Record::Upsert { id, aabb } = *record else {
                        panic!("frame {frame} removes an object; pick a motion that only moves");
                    };
                    let handle = copy.runner.handle(id).unwrap_or_else(|| {
                        panic!("frame {frame} inserts object {id}; pick a motion that only moves")
                    });
                    copy.handles.push(handle);
                    copy.boxes.push(aabb);
                }
                let Contestant {
                    world,
                    batch,
                    handles,
                    boxes,
                    ..
                } = copy;
                let elapsed = pools[copy.pool].install(|| {
                    let start = Instant::now();
                    if *batch {
                        world.update_many(handles, boxes).expect("live handles");
                    } else {
                        for (&handle, &aabb) in handles.iter().zip(boxes.iter()) {
                            world.update(handle, aabb).expect("a live handle");
                        }
                    }
                    start.elapsed()
                });
                copy.times.push(elapsed.as_secs_f64() * 1e3);
            }
            pools[copy.pool].install(|| copy.world.step());
            copy.runner
                .collect_events(copy.world.as_ref(), &mut copy.events);
        }
        for k in 1..count {
            assert!(
                copies[k].events == copies[0].events,
                "frame {frame}: the copy on {} threads ({}) found other events than the first",
                threads[copies[k].pool],
                if copies[k].batch {
                    "update_many"
                } else {
                    "update"
                }
            );
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
    };
    let medians: Vec<f64> = copies.iter_mut().map(|c| median(&mut c.times)).collect();
    println!(
        "threads  update loop ms  update_many ms  speed-up  over loop on {} threads",
        threads[0]
    );
    for (pool, t) in threads.iter().enumerate() {
        let (looped, batched) = (medians[2 * pool], medians[2 * pool + 1]);
        println!(
            "{t:7} {looped:15.2} {batched:15.2} {:9.2} {:9.2}",
            looped / batched,
            medians[0] / batched
        );
    }
    println!("events (in scene ids) identical on every frame");
}
