//! `collide-bench`: collide's broad-phase structures and the Rust peers,
//! side by side on the shared scenes, every frame checked against a
//! reference. See README.md for what is timed and how to run it.

mod case;
mod characters;
mod contender;
mod fracture;
mod peers;
mod projectiles;
mod queries;
mod report;
mod sand;
mod world;
mod world_parts;

use case::CaseRuns;
use clap::Parser;
use collide::Vector;
use collide_scenes::alloc::{self, CountingAlloc};
use collide_scenes::{Motion, Scene, SceneConfig, SceneKind, mean, percentile};
use contender::{Contender, Ours};
use glam::{Vec2, Vec3};
use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Counts each contender's heap memory: the bytes its construction and
/// frames allocate and free on this thread (the benchmark runs on one),
/// at their peak. The scene, the records and the check are not counted.
/// The counting sits inside the timed frame: a few atomic adds per
/// allocation and free, which costs the peers that rebuild every frame a
/// little more than ours, which allocate nothing per frame.
#[global_allocator]
static ALLOCATOR: CountingAlloc = CountingAlloc;

/// Above this many objects `brute` is not run.
const BRUTE_MAX_N: usize = 5_000;
/// Up to this many objects the reference is `brute`, above it `hashgrid`.
const BRUTE_REFERENCE_MAX_N: usize = 2_000;

/// Measures collide's broad-phase structures and the Rust peers side by side
/// on the shared scenes, checking every implementation's pairs against a
/// reference on every frame.
#[derive(Parser, Debug)]
#[command(name = "collide-bench", version)]
struct Args {
    /// Dimensions (2, 3); repeatable or comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [2, 3], value_parser = clap::value_parser!(u32).range(2..=3))]
    dim: Vec<u32>,
    /// Scene kinds (uniform, flat, clustered, large, elongated, huge,
    /// sparse, and those that change character: flattening, hotspot,
    /// walls, speeding).
    #[arg(long, value_delimiter = ',', default_values_t = [SceneKind::Uniform, SceneKind::Flat])]
    scene: Vec<SceneKind>,
    /// Motions (slow, fast, teleport, churn, resting).
    #[arg(long, value_delimiter = ',', default_values_t = [Motion::Slow, Motion::Fast])]
    motion: Vec<Motion>,
    /// Numbers of moving objects.
    #[arg(long, value_delimiter = ',', default_values_t = [1_000, 10_000])]
    n: Vec<usize>,
    /// Seed of the scene generator.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Thousandths of the objects that are the scene's odd ones, in place
    /// of its default: world-spanning ones in `large` and `walls` (20),
    /// rods in `elongated` (100), huge ones in `huge` (1). The tables do
    /// not show it: give it to runs of one proportion each.
    #[arg(long, value_parser = clap::value_parser!(u16).range(0..=1000))]
    odd_per_mille: Option<u16>,
    /// Frames per scene, frame 0 (the build) included.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(2..))]
    frames: u64,
    /// Run only these implementations (comma-separated names as the tables
    /// print them); the reference still runs, to check the others. The
    /// variants (sap-nospan, sap1-nospan, sap1-alongx, sap1-alongx-nospan)
    /// run only when named here.
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Leave out these implementations (comma-separated names), e.g.
    /// `rapier`, whose broad phase takes seconds per frame at 100,000
    /// teleporting objects; the reference still runs.
    #[arg(long, value_delimiter = ',')]
    skip: Vec<String>,
    /// Also write every row to this CSV file.
    #[arg(long)]
    csv: Option<PathBuf>,
    /// Measure queries instead of frames: this many box and ray probes per
    /// scene, on ours, parry's BVH (`parry-bvh`) and rstar (see
    /// src/queries.rs). `--motion` and `--frames` are ignored.
    #[arg(long)]
    queries: Option<usize>,
    /// Measure the character controller instead of frames: this many
    /// characters walking in a level of 10,000 boxes, ours against rapier's
    /// (see src/characters.rs). Other options are ignored.
    #[arg(long)]
    characters: Option<usize>,
    /// Measure projectiles instead of frames: this many flying one tick
    /// through 10,000 boxes, against as many ray queries (see
    /// src/projectiles.rs). Other options are ignored.
    #[arg(long)]
    projectiles: Option<usize>,
    /// Measure the falling-sand world instead of frames: a collapsing
    /// 512 by 512 world on one and two threads and a settled 2048 by 2048
    /// one (see src/sand.rs). Other options are ignored.
    #[arg(long)]
    sand: bool,
    /// Measure Voronoi fracture instead of frames: a plate broken by
    /// 1,000 sites (see src/fracture.rs). Other options are ignored.
    #[arg(long)]
    fracture: bool,
    /// Measure ray casts into the collision world instead of frames: this
    /// many rays into as many colliders, ours against rapier's query
    /// pipeline (see src/world.rs). Other options are ignored.
    #[arg(long)]
    world_rays: Option<usize>,
    /// Measure the collision world's step instead of frames: this many
    /// colliders on the uniform and clustered scenes, slow and fast, ours
    /// against rapier's collision pipeline (see src/world.rs). Other
    /// options are ignored.
    #[arg(long)]
    world_step: Option<usize>,
    /// Measure colliders made of parts instead of frames: a mesh floor of
    /// 100,352 triangles under this many movers, a compound of 1,000 boxes
    /// among a fifth as many balls, and ten times as many rays onto the
    /// floor, ours against rapier (see src/world_parts.rs). Other options
    /// are ignored.
    #[arg(long)]
    world_parts: Option<usize>,
    /// Threads: everything runs inside a rayon pool of this size, so our
    /// structures (all but `sap` and `brute`) split large steps across it (the peers run on one thread
    /// whatever this says). The default, 1, is the single-threaded
    /// comparison.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
    /// Runs of every implementation per scene, in rounds (each round runs
    /// them all once, starting one place further along the list than the
    /// round before); a row is the run with the median mean, which steadies
    /// comparisons on a noisy machine.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=99))]
    repeat: u32,
    /// With `--repeat`, run the rounds as passes over every scene (round 1
    /// of each scene, then round 2, ...) instead of one scene's rounds
    /// together, so that a stretch of noise on the machine falls on one
    /// round of several scenes, which the medians leave out, and not on
    /// every round of one scene. The tables come at the end.
    #[arg(long, requires = "repeat")]
    spread: bool,
}

impl Args {
    /// The implementations this run measures.
    fn selection(&self) -> Selection<'_> {
        Selection {
            only: &self.only,
            skip: &self.skip,
        }
    }
}

/// Which implementations a run measures, from `--only` and `--skip`.
#[derive(Clone, Copy)]
pub struct Selection<'a> {
    only: &'a [String],
    skip: &'a [String],
}

impl Selection<'_> {
    /// Whether `name` runs: named in `--only` (or `--only` empty) and not
    /// in `--skip`.
    pub fn includes(&self, name: &str) -> bool {
        (self.only.is_empty() || self.named(name)) && !self.skip.iter().any(|s| s == name)
    }

    /// Whether `--only` names `name` (the variants run only then).
    fn named(&self, name: &str) -> bool {
        self.only.iter().any(|o| o == name)
    }

    /// Whether `--skip` names `name`.
    fn skips(&self, name: &str) -> bool {
        self.skip.iter().any(|s| s == name)
    }
}

/// Names of the peers as the tables print them, 2D and 3D together.
const PEER_NAMES: &[&str] = &[
    peers::flat_spatial::FlatSpatial::NAME,
    peers::broccoli::Broccoli::NAME,
    peers::broccoli::Broccoli::PARALLEL_NAME,
    "rstar",
    "bvh-crate",
    "parry-refit",
    "parry-rebuild",
    peers::rapier::dim2::Rapier::NAME,
];

/// Each peer plus the events a game derives from its pairs (see
/// `peers/events.rs`): the sorted merge by default, the hash-set
/// difference (slower in every case measured) only when named in `--only`.
const EVENT_NAMES: &[&str] = &[
    "flat_spatial+sort",
    "broccoli+sort",
    "broccoli-par+sort",
    "rstar+sort",
    "bvh-crate+sort",
    "parry-refit+sort",
    "parry-rebuild+sort",
    "flat_spatial+hash",
    "broccoli+hash",
    "rstar+hash",
    "bvh-crate+hash",
    "parry-refit+hash",
    "parry-rebuild+hash",
];

/// Per dimension: which peers exist and how to build them.
trait Dim: Vector {
    fn peer(name: &str) -> Option<Box<dyn Contender<Self>>>;
}

impl Dim for Vec2 {
    fn peer(name: &str) -> Option<Box<dyn Contender<Self>>> {
        use peers::parry::{Mode, dim2::ParryBvh};
        Some(match name {
            "flat_spatial" => Box::new(peers::flat_spatial::FlatSpatial::new()),
            "broccoli" => Box::new(peers::broccoli::Broccoli::new()),
            "broccoli-par" => Box::new(peers::broccoli::Broccoli::with_threads(true)),
            "rstar" => Box::new(peers::rstar::Rstar::<Vec2, 2>::new()),
            "bvh-crate" => Box::new(peers::bvh_crate::BvhCrate::<Vec2, 2>::new()),
            "parry-refit" => Box::new(ParryBvh::new(Mode::Refit)),
            "parry-rebuild" => Box::new(ParryBvh::new(Mode::Rebuild)),
            "rapier" => Box::new(peers::rapier::dim2::Rapier::new()),
            _ => return None,
        })
    }
}

impl Dim for Vec3 {
    fn peer(name: &str) -> Option<Box<dyn Contender<Self>>> {
        use peers::parry::{Mode, dim3::ParryBvh};
        Some(match name {
            "rstar" => Box::new(peers::rstar::Rstar::<Vec3, 3>::new()),
            "bvh-crate" => Box::new(peers::bvh_crate::BvhCrate::<Vec3, 3>::new()),
            "parry-refit" => Box::new(ParryBvh::new(Mode::Refit)),
            "parry-rebuild" => Box::new(ParryBvh::new(Mode::Rebuild)),
            "rapier" => Box::new(peers::rapier::dim3::Rapier::new()),
            _ => return None,
        })
    }
}

/// Our structures with non-default settings, for comparing one setting
/// against its default; run only when named in `--only`.
const VARIANT_NAMES: &[&str] = &[
    "sap-nospan",
    "sap1-nospan",
    "sap1-alongx",
    "sap1-alongx-nospan",
];

/// A variant by name (see [`VARIANT_NAMES`]).
fn variant<V: Vector>(name: &str) -> Option<Box<dyn collide::BroadPhase<V, u64>>> {
    use collide::{BandSap, Sap, SapConfig, Spanners};
    let (structure, setting) = name.split_once('-')?;
    let one_axis = match structure {
        "sap" => false,
        "sap1" => true,
        _ => return None,
    };
    let default = SapConfig::default();
    let config = match setting {
        "nospan" => SapConfig {
            spanners: Spanners::Off,
            ..default
        },
        "alongx" => SapConfig {
            sweep_axis: Some(0),
            ..default
        },
        "alongx-nospan" => SapConfig {
            sweep_axis: Some(0),
            spanners: Spanners::Off,
            ..default
        },
        _ => return None,
    };
    let valid = "the variants' settings are valid";
    Some(if one_axis {
        Box::new(BandSap::<V, u64>::with_config(config).expect(valid))
    } else {
        Box::new(Sap::<V, u64>::with_config(config).expect(valid))
    })
}

fn is_ours(name: &str) -> bool {
    name.parse::<collide::Structure>().is_ok() || VARIANT_NAMES.contains(&name)
}

fn contender<V: Dim>(name: &str) -> Option<Box<dyn Contender<V>>> {
    if name.parse::<collide::Structure>().is_ok() {
        Some(Box::new(Ours::<V>::new(name)))
    } else if let Some(world) = variant::<V>(name) {
        Some(Box::new(Ours::with_world(name, world)))
    } else if let Some((peer, derive)) = peers::events::Derive::split(name) {
        let peer = V::peer(peer)?;
        Some(Box::new(peers::events::WithEvents::new(peer, derive)))
    } else {
        V::peer(name)
    }
}

/// One implementation on one scene.
#[derive(Clone, Debug)]
struct Row {
    dim: usize,
    scene: SceneKind,
    motion: Motion,
    n: usize,
    frames: u64,
    structure: String,
    ours: bool,
    reference: bool,
    build_us: f64,
    mean_us: f64,
    /// The fastest of the `--repeat` runs' means (the mean itself with one
    /// run): the least the noise of the machine can have added.
    best_mean_us: f64,
    p99_us: f64,
    /// The mean as a multiple of the floor (reading every box once).
    floor_multiple: f64,
    /// The most heap memory the contender held at once, in bytes.
    peak_bytes: usize,
    pairs_last: usize,
    frames_disagreeing: u64,
    filtered: u64,
    /// The first disagreement, described.
    first_disagreement: Option<String>,
}

/// What the per-frame check does with an implementation's pairs.
enum Check<'a> {
    /// The reference: keep them.
    Record(&'a mut Vec<Vec<(u64, u64)>>),
    /// Everyone else: compare them with the reference's.
    Compare(&'a [Vec<(u64, u64)>]),
}

/// The floor: the mean time per frame (frames 1 on) to read every box of
/// the frame's records once and copy it into an array by id, as any
/// structure must at least do. Each row's mean is reported as a multiple
/// of it.
fn floor<V: Dim>(config: SceneConfig, frames: u64) -> f64 {
    let mut scene = Scene::<V>::new(config);
    let mut records = Vec::new();
    let mut boxes: Vec<collide::Aabb<V>> = Vec::new();
    let mut micros = Vec::with_capacity(frames as usize);
    for _ in 0..frames {
        scene.next_frame(&mut records);
        // Room for every id first: growing the array is not the floor.
        let most = records.iter().map(|r| r.id()).max().unwrap_or(0) as usize;
        if boxes.len() <= most {
            boxes.resize(most + 1, collide::Aabb::default());
        }
        let start = Instant::now();
        for record in &records {
            if let collide_scenes::Record::Upsert { id, aabb } = *record {
                boxes[id as usize] = aabb;
            }
        }
        std::hint::black_box(&mut boxes);
        micros.push(start.elapsed().as_secs_f64() * 1e6);
    }
    mean(&micros[1..]).max(1e-3)
}

/// Builds the contender `name` and runs it over the scene `config` for
/// `frames` frames, timing each frame's `Contender::frame` only and
/// counting the heap memory it holds (its construction and frames).
fn measure<V: Dim>(
    name: &str,
    config: SceneConfig,
    frames: u64,
    floor_us: f64,
    mut check: Check<'_>,
) -> Row {
    alloc::reset_tracked();
    let mut c = alloc::track(|| contender::<V>(name).expect("listed names exist"));
    let mut scene = Scene::<V>::new(config);
    let (mut records, mut pairs) = (Vec::new(), Vec::new());
    let mut micros = Vec::with_capacity(frames as usize);
    let (mut disagreeing, mut filtered, mut first) = (0, 0, None);
    for frame in 0..frames as usize {
        scene.next_frame(&mut records);
        let start = Instant::now();
        alloc::track(|| c.frame(&records));
        micros.push(start.elapsed().as_secs_f64() * 1e6);
        filtered += c.pairs_by_id(&mut pairs);
        alloc::track(|| c.between_frames());
        match &mut check {
            Check::Record(all) => all.push(pairs.clone()),
            Check::Compare(reference) => {
                if pairs != reference[frame] {
                    disagreeing += 1;
                    if first.is_none() {
                        first = Some(describe_difference(frame, &pairs, &reference[frame]));
                    }
                }
            }
        }
    }
    let steady = &micros[1..];
    let mean_us = mean(steady);
    Row {
        dim: V::DIM,
        scene: config.kind,
        motion: config.motion,
        n: config.n,
        frames,
        structure: c.name().to_string(),
        ours: is_ours(c.name()),
        reference: matches!(check, Check::Record(_)),
        build_us: micros[0],
        mean_us,
        best_mean_us: mean_us,
        p99_us: percentile(steady, 0.99),
        floor_multiple: mean_us / floor_us,
        peak_bytes: alloc::tracked().peak_bytes.max(0) as usize,
        pairs_last: pairs.len(),
        frames_disagreeing: disagreeing,
        filtered,
        first_disagreement: first,
    }
}

/// The first missed and first invented pair of a frame, by a sorted merge.
fn describe_difference(frame: usize, got: &[(u64, u64)], want: &[(u64, u64)]) -> String {
    let (mut missed, mut invented) = (Vec::new(), Vec::new());
    let (mut i, mut j) = (0, 0);
    while i < got.len() || j < want.len() {
        match (got.get(i), want.get(j)) {
            (Some(g), Some(w)) if g == w => {
                i += 1;
                j += 1;
            }
            (Some(g), Some(w)) if g < w => {
                invented.push(*g);
                i += 1;
            }
            (Some(g), None) => {
                invented.push(*g);
                i += 1;
            }
            (_, Some(w)) => {
                missed.push(*w);
                j += 1;
            }
            (None, None) => unreachable!(),
        }
    }
    let show = |v: &[(u64, u64)]| match v.first() {
        Some((a, b)) => format!("{} (first: {a}-{b})", v.len()),
        None => "0".to_string(),
    };
    format!(
        "frame {frame}: {} pairs vs {} in the reference; missed {}, invented {}",
        got.len(),
        want.len(),
        show(&missed),
        show(&invented)
    )
}

/// Bytes in mebibytes.
fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

fn progress(line: &str) {
    let mut err = std::io::stderr();
    if err.is_terminal() {
        let _ = write!(err, "\r\x1b[2K{line}");
        let _ = err.flush();
    }
}

fn table(rows: &[Row]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| structure | build us | mean us/frame | p99 us/frame | mean / floor | peak memory MiB | pairs (last frame) | frames disagreeing | touching filtered |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in rows {
        let mut name = r.structure.clone();
        if r.reference {
            name.push_str(" (ref)");
        } else if !r.ours {
            name.push_str(" (peer)");
        }
        let disagree = if r.frames_disagreeing > 0 {
            format!("**{}**", r.frames_disagreeing)
        } else {
            "0".to_string()
        };
        let _ = writeln!(
            out,
            "| {name} | {:.1} | {:.1} | {:.1} | {:.0} | {:.2} | {} | {disagree} | {} |",
            r.build_us,
            r.mean_us,
            r.p99_us,
            r.floor_multiple,
            mib(r.peak_bytes),
            r.pairs_last,
            r.filtered
        );
    }
    out
}

fn csv(rows: &[Row]) -> String {
    let mut out = String::from(
        "dim,scene,motion,n,frames,structure,ours,reference,build_us,mean_us,p99_us,floor_multiple,peak_bytes,pairs_last_frame,frames_disagreeing,touching_filtered\n",
    );
    for r in rows {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{:.3},{:.3},{:.3},{:.2},{},{},{},{}",
            r.dim,
            r.scene,
            r.motion,
            r.n,
            r.frames,
            r.structure,
            r.ours,
            r.reference,
            r.build_us,
            r.mean_us,
            r.p99_us,
            r.floor_multiple,
            r.peak_bytes,
            r.pairs_last,
            r.frames_disagreeing,
            r.filtered
        );
    }
    out
}

/// `--queries`: one table per scene; fails when one of ours answered a
/// checked probe wrongly.
fn query_mode(args: &Args, count: usize) -> ExitCode {
    println!(
        "- timed: {count} probes of each kind, through each implementation's own query API; \
         microseconds per query; the first 300 of each kind are checked against brute force \
         under collide's strict rules\n"
    );
    let selection = args.selection();
    let mut wrong = false;
    for &dim in &args.dim {
        for &kind in &args.scene {
            for &n in &args.n {
                progress(&format!("queries {dim}D {kind} n={n}"));
                let rows = if dim == 2 {
                    queries::run_queries::<Vec2>(kind, n, count, selection, &|objects| {
                        vec![
                            Box::new(queries::parry2::ParryQuerier::new(objects)),
                            Box::new(queries::rstar_querier::RstarQuerier::<Vec2, 2>::new(
                                objects,
                            )),
                        ]
                    })
                } else {
                    queries::run_queries::<Vec3>(kind, n, count, selection, &|objects| {
                        vec![
                            Box::new(queries::parry3::ParryQuerier::new(objects)),
                            Box::new(queries::rstar_querier::RstarQuerier::<Vec3, 3>::new(
                                objects,
                            )),
                        ]
                    })
                };
                progress("");
                println!("## Queries, {dim}D {kind}, n = {n}\n");
                print!("{}", queries::query_table(&rows));
                println!();
                wrong |= rows.iter().any(|r| r.wrong > 0 && is_ours(&r.name));
            }
        }
    }
    if wrong {
        eprintln!("ERROR: one of ours answered a checked query wrongly (see the tables)");
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// The commit the run was built from, as `git` reports it for the
/// working tree ("commit abc1234", with "plus uncommitted changes" when
/// a tracked file outside `benchmarks/` differs), or "unknown commit"
/// without git.
fn code_version() -> String {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()
            .filter(|out| out.status.success())
            .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    match git(&["rev-parse", "--short", "HEAD"]) {
        Some(commit) => {
            // benchmarks/ aside: `regenerate.sh`'s runs write into it.
            let status = [
                "status",
                "--porcelain",
                "--untracked-files=no",
                "--",
                ":/",
                ":(top,exclude)benchmarks",
            ];
            let dirty = git(&status).is_some_and(|changes| !changes.is_empty());
            let changes = if dirty {
                " plus uncommitted changes"
            } else {
                ""
            };
            format!("commit {commit}{changes}")
        }
        None => "unknown commit".to_string(),
    }
}

/// "MODEL NAME, N cores" from /proc/cpuinfo.
fn machine() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = info
        .lines()
        .find_map(|l| {
            let (key, value) = l.split_once(':')?;
            (key.trim() == "model name").then(|| value.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string());
    let cores = info
        .lines()
        .filter(|l| l.split(':').next().map(str::trim) == Some("processor"))
        .count();
    let cores = if cores == 0 {
        std::thread::available_parallelism().map_or(0, |n| n.get())
    } else {
        cores
    };
    format!("{model}, {cores} cores")
}

fn main() -> ExitCode {
    let args = Args::parse();
    match rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads as usize)
        .build()
    {
        Ok(pool) => pool.install(|| run(args)),
        Err(e) => {
            eprintln!("error: cannot start {} threads: {e}", args.threads);
            ExitCode::from(2)
        }
    }
}

/// Everything, inside the pool of `--threads` threads.
fn run(args: Args) -> ExitCode {
    let known: Vec<&str> = collide::Structure::ALL
        .map(collide::Structure::name)
        .iter()
        .chain(PEER_NAMES)
        .chain(EVENT_NAMES)
        .chain(VARIANT_NAMES)
        .chain(&["parry-bvh"])
        .copied()
        .collect();
    for (option, names) in [("--only", &args.only), ("--skip", &args.skip)] {
        if let Some(bad) = names.iter().find(|o| !known.contains(&o.as_str())) {
            eprintln!(
                "error: unknown name `{bad}` in {option}; expected some of: {}",
                known.join(", ")
            );
            return ExitCode::from(2);
        }
    }
    let selection = args.selection();

    let arguments: Vec<String> = std::env::args().skip(1).collect();
    println!("# collide-bench\n");
    println!(
        "- command: `cargo run --release --manifest-path crates/collide-bench/Cargo.toml -- {}`",
        arguments.join(" ")
    );
    println!("- code: {}", code_version());
    println!("- machine: {}", machine());
    println!(
        "- threads: {} (ours step on a rayon pool of this size; the peers on one thread)",
        args.threads
    );
    println!("- peers: {}", env!("COLLIDE_BENCH_PEER_VERSIONS"));
    if let Some(count) = args.queries {
        return query_mode(&args, count);
    }
    if args.fracture {
        print!("{}", fracture::fracture_table(&fracture::run_fracture()));
        return ExitCode::SUCCESS;
    }
    if args.sand {
        let rows = [sand::run_active(1), sand::run_active(2)];
        print!("{}", sand::sand_table(&rows, sand::run_settled()));
        return ExitCode::SUCCESS;
    }
    if let Some(count) = args.projectiles {
        let row = projectiles::run_projectiles(count.max(1));
        print!("{}", projectiles::projectile_table(&row));
        return ExitCode::SUCCESS;
    }
    if let Some(count) = args.world_rays {
        let rows = world::run_rays(count.max(1));
        print!("{}", world::ray_table(count.max(1), &rows));
        if let Some(path) = &args.csv {
            std::fs::write(path, world::ray_csv(count.max(1), &rows)).expect("writing the CSV");
        }
        return ExitCode::SUCCESS;
    }
    if let Some(count) = args.world_step {
        let rows = world::run_steps(count.max(1));
        print!("{}", world::step_table(count.max(1), &rows));
        if let Some(path) = &args.csv {
            std::fs::write(path, world::step_csv(count.max(1), &rows)).expect("writing the CSV");
        }
        return ExitCode::SUCCESS;
    }
    if let Some(count) = args.world_parts {
        let n = count.max(1);
        let rows = world_parts::run_parts(n);
        let rays = world_parts::run_mesh_rays(10 * n);
        print!("{}", world_parts::parts_table(n, &rows, 10 * n, &rays));
        if let Some(path) = &args.csv {
            std::fs::write(path, world_parts::parts_csv(n, &rows, &rays)).expect("writing the CSV");
        }
        return ExitCode::SUCCESS;
    }
    if let Some(count) = args.characters {
        let rows = characters::run_characters(count.max(1));
        print!("{}", characters::character_table(count.max(1), &rows));
        return ExitCode::SUCCESS;
    }
    println!(
        "- timed per frame: applying the frame's records plus producing the full pair list; \
         build = frame 0; mean and p99 over frames 1..{} ({} frames); microseconds",
        args.frames - 1,
        args.frames - 1
    );
    println!(
        "- mean / floor: the mean over the time to read every box of a frame once (see the \
         notes under each table); peak memory: the most heap the implementation held at once, \
         from its construction through its frames (a counting allocator)"
    );
    println!(
        "- every frame's pairs (as sorted scene ids, peers' touching pairs filtered by \
         collide's strict rule) are compared with the reference's\n"
    );

    let mut all: Vec<Row> = Vec::new();
    let mut scenes = Vec::new();
    for &dim in &args.dim {
        for &kind in &args.scene {
            for &motion in &args.motion {
                for &n in &args.n {
                    let config = SceneConfig {
                        motion,
                        seed: args.seed,
                        odd_per_mille: args.odd_per_mille,
                        ..SceneConfig::new(kind, n)
                    };
                    scenes.push((dim, config));
                }
            }
        }
    }
    // With `--spread`, one pass per round; else one pass of every round.
    let passes = if args.spread { args.repeat } else { 1 };
    // On standard error, so tables on standard output stay clean; hidden
    // when standard error is not a terminal.
    let bar = indicatif::ProgressBar::new((scenes.len() as u64) * u64::from(passes)).with_style(
        indicatif::ProgressStyle::with_template(
            "{msg:>32} [{bar:30}] {pos}/{len} scene runs {elapsed}",
        )
        .expect("the template is valid")
        .progress_chars("=> "),
    );
    let mut cases: Vec<Option<CaseRuns>> = scenes.iter().map(|_| None).collect();
    for pass in 0..passes {
        let rounds = pass * args.repeat / passes..(pass + 1) * args.repeat / passes;
        for (&(dim, config), slot) in scenes.iter().zip(&mut cases) {
            bar.set_message(format!(
                "{dim}D {} {} n={}",
                config.kind, config.motion, config.n
            ));
            let case = slot.get_or_insert_with(|| match dim {
                2 => CaseRuns::plan::<Vec2>(config, args.frames, selection),
                _ => CaseRuns::plan::<Vec3>(config, args.frames, selection),
            });
            match dim {
                2 => case.run_rounds::<Vec2>(args.frames, rounds.clone(), args.repeat),
                _ => case.run_rounds::<Vec3>(args.frames, rounds.clone(), args.repeat),
            }
            bar.inc(1);
            if pass + 1 < passes {
                continue;
            }
            let case = slot.take().expect("planned above");
            let (rows, notes) = case.finish(args.repeat, args.spread);
            bar.suspend(|| write_case(dim, config, args.frames, &rows, &notes));
            all.extend(rows);
        }
    }
    bar.finish_and_clear();
    println!("## Targets: our fastest against the fastest peer\n");
    println!(
        "Our fastest structure in each case against the fastest peer and the peer with the \
         least peak memory (times are means per frame over frames 1 on):\n"
    );
    println!("{}", &report::targets(&all, args.threads));
    let auto = report::auto_target(&all);
    if !auto.is_empty() {
        println!("## Target: `auto` against our other structures\n");
        println!(
            "`auto` (which measures the scene and runs the structure it picks) against the \
             fastest of our other structures in each case, means per frame over frames 1 on:\n"
        );
        println!("{}", &auto);
    }

    if let Some(path) = &args.csv {
        if let Err(e) = std::fs::write(path, csv(&all)) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
        println!("Wrote {} rows to {}.", all.len(), path.display());
    }
    let wrong: Vec<&Row> = all
        .iter()
        .filter(|r| r.ours && r.frames_disagreeing > 0)
        .collect();
    if wrong.is_empty() {
        ExitCode::SUCCESS
    } else {
        eprintln!(
            "ERROR: {} of our runs disagreed with the reference (see the tables)",
            wrong.len()
        );
        ExitCode::FAILURE
    }
}

/// Puts one scene's table, its notes and any disagreement to standard output.
fn write_case(dim: u32, config: SceneConfig, frames: u64, rows: &[Row], notes: &[String]) {
    let (kind, motion, n) = (config.kind, config.motion, config.n);
    println!("## {dim}D {kind}, {motion}, n = {n} ({frames} frames)\n");
    print!("{}", &table(rows));
    println!();
    for note in notes {
        println!("- {note}");
    }
    for r in rows.iter().filter(|r| r.frames_disagreeing > 0) {
        let what = r.first_disagreement.as_deref().unwrap_or_default();
        if r.ours {
            println!(
                "- **ERROR: `{}` (ours) disagreed with the reference on {} frames; {what}**",
                r.structure, r.frames_disagreeing
            );
            eprintln!(
                "ERROR: {dim}D {kind} {motion} n={n}: `{}` (ours) disagreed with the reference on {} frames; {what}",
                r.structure, r.frames_disagreeing
            );
        } else {
            println!(
                "- `{}` (peer) disagreed on {} frames; {what}",
                r.structure, r.frames_disagreeing
            );
        }
    }
    println!();
    let _ = std::io::stdout().flush();
}
