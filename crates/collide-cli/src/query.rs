//! `collide query`: one query on a structure holding a trace's objects as
//! they are at a given frame.
//!
//! Prints one line per hit: the trace id, and for rays `ID T`; rays in the
//! order they enter the boxes (by `t`, then id), the other queries by id.
//! With `--stats`, a last line `# visited V tested T hits H truncated yes|no`.
//! A query cut short by `--budget` also says so on standard error, so that
//! a short list is never mistaken for the answer.

use crate::replay::{Failure, open_trace};
use clap::{ArgGroup, Args};
use collide::geometry::{Frustum, Plane, Ray, Region, SweptAabb};
use collide::{Aabb, BroadPhase, QueryBudget, QueryStats, Structure, Vector};
use collide_scenes::trace::AnyTrace;
use collide_scenes::{Record, Runner};
use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// Arguments of `collide query`.
#[derive(Args, Debug, Clone)]
#[command(group(ArgGroup::new("region").required(true).multiple(false)))]
pub struct QueryArgs {
    /// The trace file.
    pub trace: PathBuf,
    /// The frame whose objects are queried (0 is the first).
    #[arg(long)]
    pub frame: usize,
    /// The structure that answers.
    #[arg(long, short, default_value = Structure::DEFAULT.name())]
    pub structure: String,
    /// Objects holding a point strictly inside: `--point X Y [Z]`.
    #[arg(long, group = "region", num_args = 2..=3, allow_negative_numbers = true,
          value_names = ["X", "Y"])]
    pub point: Option<Vec<f32>>,
    /// Objects overlapping a box: `--aabb MINX MINY [MINZ] MAXX MAXY [MAXZ]`.
    #[arg(long, group = "region", num_args = 4..=6, allow_negative_numbers = true,
          value_names = ["MIN", "MAX"])]
    pub aabb: Option<Vec<f32>>,
    /// Objects a ray enters: `--ray OX OY [OZ] DX DY [DZ]`, up to `--tmax`.
    #[arg(long, group = "region", num_args = 4..=6, allow_negative_numbers = true,
          value_names = ["ORIGIN", "DIRECTION"])]
    pub ray: Option<Vec<f32>>,
    /// The ray's largest t, in lengths of its direction (default: no end).
    #[arg(long, requires = "ray", allow_negative_numbers = true)]
    pub tmax: Option<f32>,
    /// Objects a box moving along a displacement may touch:
    /// `--swept MIN.. MAX.. D..` (2D: 6 numbers, 3D: 9).
    #[arg(long, group = "region", num_args = 6..=9, allow_negative_numbers = true,
          value_names = ["MIN", "MAX"])]
    pub swept: Option<Vec<f32>>,
    /// Objects not wholly outside any plane of a frustum file: one plane
    /// per line, `NX NY [NZ] OFFSET`, keeping `N . x < OFFSET`; `#`
    /// starts a comment.
    #[arg(long, group = "region")]
    pub frustum: Option<PathBuf>,
    /// Test at most this many candidates; the query then says truncated.
    #[arg(long)]
    pub budget: Option<u64>,
    /// Print the query's statistics after the hits.
    #[arg(long)]
    pub stats: bool,
}

/// Runs `collide query`; `out` receives the hits and statistics.
pub fn query(args: &QueryArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let Ok(structure) = args.structure.parse::<Structure>() else {
        return Err(Failure::input(format!(
            "unknown structure `{}`; expected one of: {}",
            args.structure,
            crate::structure_list()
        )));
    };
    match open_trace(&args.trace)? {
        AnyTrace::D2(t) => query_frames(&t.frames, structure, args, out),
        AnyTrace::D3(t) => query_frames(&t.frames, structure, args, out),
    }
}

fn query_frames<V: Vector>(
    frames: &[Vec<Record<V>>],
    structure: Structure,
    args: &QueryArgs,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    if args.frame >= frames.len() {
        return Err(Failure::input(format!(
            "--frame {} is past the trace's end: it has {} frames (0 to {})",
            args.frame,
            frames.len(),
            frames.len().saturating_sub(1)
        )));
    }
    let region = region_of::<V>(args)?;
    let mut world = structure.build::<V, u64>();
    let mut runner = Runner::new();
    let mut events = Vec::new();
    for records in &frames[..=args.frame] {
        runner
            .apply(&mut world, records)
            .map_err(|e| Failure::input(format!("{}: {e}", args.trace.display())))?;
        runner.step(&mut world, &mut events);
    }
    let budget = QueryBudget {
        max_tested: args.budget,
        ..QueryBudget::default()
    };
    let id = |world: &dyn BroadPhase<V, u64>, h| *world.value(h).expect("hits are live");
    let mut lines = Vec::new();
    let stats: QueryStats = match &region {
        Query::Ray(ray) => world.query_ray(ray, budget, &mut |hit| {
            lines.push(format!("{} {}", id(&*world, hit.handle), hit.t));
            ControlFlow::Continue(())
        }),
        Query::Other(region) => {
            let mut ids = Vec::new();
            let stats = world.query_region(region.as_ref(), budget, &mut |h| {
                ids.push(id(&*world, h));
                ControlFlow::Continue(())
            });
            ids.sort_unstable();
            lines.extend(ids.iter().map(u64::to_string));
            stats
        }
    };
    let io = |e: std::io::Error| Failure {
        message: format!("cannot write output: {e}"),
        status: 1,
    };
    for line in &lines {
        writeln!(out, "{line}").map_err(io)?;
    }
    if args.stats {
        writeln!(
            out,
            "# visited {} tested {} hits {} truncated {}",
            stats.visited,
            stats.tested,
            stats.hits,
            if stats.truncated { "yes" } else { "no" }
        )
        .map_err(io)?;
    }
    if stats.truncated {
        eprintln!(
            "warning: the query stopped after testing {} candidates (--budget): \
             the list is incomplete",
            stats.tested
        );
    }
    Ok(())
}

enum Query<V: Vector> {
    Ray(Ray<V>),
    Other(Box<dyn Region<V>>),
}

/// The query the arguments name, checked against the trace's dimension.
fn region_of<V: Vector>(args: &QueryArgs) -> Result<Query<V>, Failure> {
    let d = V::DIM;
    let count = |what: &str, numbers: &[f32], vectors: usize| {
        if numbers.len() != vectors * d {
            return Err(Failure::input(format!(
                "--{what} takes {} numbers for this {d}D trace, got {}",
                vectors * d,
                numbers.len()
            )));
        }
        Ok(())
    };
    let vector = |numbers: &[f32], k: usize| V::from_axes(|a| numbers[k * d + a]);
    let aabb = |what: &str, numbers: &[f32]| {
        Aabb::new(vector(numbers, 0), vector(numbers, 1))
            .map_err(|e| Failure::input(format!("--{what}: {e}")))
    };
    if let Some(p) = &args.point {
        count("point", p, 1)?;
        let point =
            Aabb::from_point(vector(p, 0)).map_err(|e| Failure::input(format!("--point: {e}")))?;
        return Ok(Query::Other(Box::new(point)));
    }
    if let Some(b) = &args.aabb {
        count("aabb", b, 2)?;
        return Ok(Query::Other(Box::new(aabb("aabb", b)?)));
    }
    if let Some(r) = &args.ray {
        count("ray", r, 2)?;
        let ray = Ray::new(
            vector(r, 0),
            vector(r, 1),
            args.tmax.unwrap_or(f32::INFINITY),
        )
        .map_err(|e| Failure::input(format!("--ray: {e}")))?;
        return Ok(Query::Ray(ray));
    }
    if let Some(s) = &args.swept {
        count("swept", s, 3)?;
        let swept = SweptAabb::new(aabb("swept", s)?, vector(s, 2))
            .map_err(|e| Failure::input(format!("--swept: {e}")))?;
        return Ok(Query::Other(Box::new(swept)));
    }
    let path = args.frustum.as_ref().expect("clap requires one query");
    Ok(Query::Other(Box::new(read_frustum::<V>(path)?)))
}

/// Reads a frustum file: one plane per line, `NX NY [NZ] OFFSET`.
fn read_frustum<V: Vector>(path: &Path) -> Result<Frustum<V>, Failure> {
    let shown = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::input(format!("cannot open frustum `{shown}`: {e}")))?;
    let mut planes = Vec::new();
    let mut lines_of = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line_no = k + 1;
        let content = line.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let numbers: Vec<f32> = content
            .split_whitespace()
            .map(|w| {
                w.parse::<f32>().map_err(|_| {
                    Failure::input(format!("{shown}:{line_no}: `{w}` is not a number"))
                })
            })
            .collect::<Result<_, _>>()?;
        if numbers.len() != V::DIM + 1 {
            return Err(Failure::input(format!(
                "{shown}:{line_no}: a plane is {} numbers (normal, then offset), got {}",
                V::DIM + 1,
                numbers.len()
            )));
        }
        planes.push(Plane::new(V::from_axes(|a| numbers[a]), numbers[V::DIM]));
        lines_of.push(line_no);
    }
    Frustum::new(&planes).map_err(|e| {
        use collide::geometry::FrustumError as E;
        let at = match e {
            E::Normal { index } | E::Offset { index, .. } => format!(":{}", lines_of[index]),
            E::Inverted { second, .. } => format!(":{}", lines_of[second]),
            E::NoPlanes | E::Empty => String::new(),
        };
        Failure::input(format!("{shown}{at}: {e}"))
    })
}
