//! `collide`: the command-line tool of the collide crate.
//!
//! - `collide demo` (what `cargo run --release` runs): every structure
//!   compared on the built-in scenes, verified against brute force, with an HTML
//!   report.
//! - `collide replay TRACE`: replays a recorded trace through a structure.
//! - `collide record SCENE`: writes a built-in scene as a trace.
//! - `collide query TRACE --frame F ...`: one point, box, ray, swept-box or
//!   frustum query on a trace's objects at a frame.
//! - `collide bench`: our structures timed on chosen scenes, with a CSV file
//!   and an HTML page of charts.
//! - `collide advise TRACE`: every structure on a recorded game, ranked, beside
//!   what `auto`'s decision table picks.

#![forbid(unsafe_code)]

mod advise;
mod bench;
mod box_world;
mod cell_study;
mod character_demo;
mod chart;
mod demo;
mod fracture_demo;
mod game_demo;
mod hitbox_demo;
mod load;
mod measure;
mod projectile_demo;
mod query;
mod ragdoll_demo;
mod record;
mod replay;
mod report;
mod sand_demo;
mod sap_study;
mod swing_demo;
mod table;
mod vehicle_demo;
mod world_demo;

use clap::{Parser, Subcommand};
use std::io::{self, Write};
use std::process::ExitCode;

/// Counts the heap for the memory columns of `collide advise`.
#[global_allocator]
static ALLOCATOR: collide_scenes::alloc::CountingAlloc = collide_scenes::alloc::CountingAlloc;

/// Every structure's name, comma-separated, for messages.
pub(crate) fn structure_list() -> String {
    let names: Vec<&str> = collide::Structure::ALL.iter().map(|s| s.name()).collect();
    names.join(", ")
}

/// Collision detection for games: broad-phase structures, verified against
/// brute force, on built-in scenes and recorded traces.
#[derive(Parser, Debug)]
#[command(name = "collide", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Compare every structure on the built-in scenes and write an HTML
    /// report (the default when no command is given).
    Demo(demo::DemoArgs),
    /// Replay a trace file through a structure, or through all of them.
    Replay(replay::ReplayArgs),
    /// Write a built-in scene as a trace file.
    Record(record::RecordArgs),
    /// Query a trace's objects at a frame: a point, a box, a ray, a swept
    /// box or a frustum.
    Query(query::QueryArgs),
    /// Time our structures on chosen scenes (events checked on every
    /// frame), with a CSV file and an HTML page of charts.
    Bench(bench::BenchArgs),
    /// Replay a trace through every structure and say which suits it,
    /// beside what `auto`'s decision table would pick.
    Advise(advise::AdviseArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut stdout = io::stdout().lock();
    let result = match cli
        .command
        .unwrap_or(Command::Demo(demo::DemoArgs::default()))
    {
        Command::Demo(args) => demo::demo(&args, &mut stdout).map_err(|message| (message, 1)),
        Command::Replay(args) => {
            replay::replay(&args, &mut stdout).map_err(|f| (f.message, f.status))
        }
        Command::Record(args) => record::record(&args),
        Command::Query(args) => query::query(&args, &mut stdout).map_err(|f| (f.message, f.status)),
        Command::Bench(args) => bench::bench(&args, &mut stdout).map_err(|f| (f.message, f.status)),
        Command::Advise(args) => {
            advise::advise(&args, &mut stdout).map_err(|f| (f.message, f.status))
        }
    };
    let _ = stdout.flush();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err((message, status)) => {
            eprintln!("error: {message}");
            ExitCode::from(status)
        }
    }
}
