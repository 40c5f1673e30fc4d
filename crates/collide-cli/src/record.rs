//! `collide record`: writes a built-in scene as a trace.

use clap::Args;
use collide::Vector;
use collide_scenes::trace::TraceWriter;
use collide_scenes::{Motion, Scene, SceneConfig, SceneKind};
use glam::{Vec2, Vec3};
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

/// Arguments of `collide record`.
#[derive(Args, Debug, Clone)]
pub struct RecordArgs {
    /// The scene: uniform, flat, clustered, large, elongated, huge or
    /// sparse, or one that changes character as it runs: flattening,
    /// hotspot, walls or speeding.
    pub scene: SceneKind,
    /// Number of objects.
    #[arg(long, default_value_t = 1000, value_parser = parse_count)]
    pub n: usize,
    /// Dimension: 2 or 3.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=3))]
    pub dim: u8,
    /// Motion: slow, fast, teleport, churn or resting.
    #[arg(long, default_value_t = Motion::Slow)]
    pub motion: Motion,
    /// Number of frames.
    #[arg(long, default_value_t = 120)]
    pub frames: usize,
    /// Seed of the scene generator.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write to this file instead of standard output.
    #[arg(long, short)]
    pub out: Option<PathBuf>,
}

impl RecordArgs {
    pub fn config(&self) -> SceneConfig {
        SceneConfig {
            kind: self.scene,
            motion: self.motion,
            n: self.n,
            seed: self.seed,
            odd_per_mille: None,
        }
    }
}

/// The most objects a built-in scene may have.
pub const MAX_OBJECTS: usize = 50_000_000;

/// Parses an object count in `1..=MAX_OBJECTS`.
pub fn parse_count(text: &str) -> Result<usize, String> {
    let n: usize = text
        .parse()
        .map_err(|_| format!("`{text}` is not a whole number"))?;
    if (1..=MAX_OBJECTS).contains(&n) {
        Ok(n)
    } else {
        Err(format!("the object count must be 1 to {MAX_OBJECTS}"))
    }
}

/// Runs `collide record`. Errors carry the exit status: 2 for a path that
/// cannot be created, 1 for a failed write.
pub fn record(args: &RecordArgs) -> Result<(), (String, u8)> {
    let out: Box<dyn Write> = match &args.out {
        Some(path) => Box::new(
            std::fs::File::create(path)
                .map_err(|e| (format!("cannot create `{}`: {e}", path.display()), 2))?,
        ),
        None => Box::new(io::stdout().lock()),
    };
    let out = BufWriter::new(out);
    let result = match args.dim {
        2 => write_scene::<Vec2>(out, args),
        _ => write_scene::<Vec3>(out, args),
    };
    result.map_err(|e| (format!("cannot write the trace: {e}"), 1))
}

/// Writes the scene of `args` as a trace to `out`.
pub fn write_scene<V: Vector>(out: impl Write, args: &RecordArgs) -> io::Result<()> {
    let mut writer = TraceWriter::new(out, V::DIM)?;
    let config = args.config();
    writer.comment(&format!(
        "collide record {} --n {} --dim {} --motion {} --frames {} --seed {}",
        config.kind, config.n, args.dim, config.motion, args.frames, config.seed
    ))?;
    let mut scene = Scene::<V>::new(config);
    let mut frame = Vec::new();
    for _ in 0..args.frames {
        scene.next_frame(&mut frame);
        writer.frame(&frame)?;
    }
    writer.finish()?;
    Ok(())
}
