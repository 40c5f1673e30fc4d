//! Fixed, single-threaded, deterministic workloads of the game layer and
//! the narrow phase, one per run, for measuring what a change to the
//! library costs (a new math routine, another glam feature): instruction
//! counts under callgrind, which are the same run to run, and the wall
//! time.
//!
//! Each workload builds its scene untimed, then runs its timed part in its
//! own `#[inline(never)] fn measured_<workload>`, so callgrind can count
//! just that with `--toggle-collect`. The inputs come from integer seeds
//! (`SceneRng`), integer loops and `collide::math`, never the platform's
//! trigonometry. Workloads: `characters`, `projectiles`, `ragdolls`,
//! `vehicles`, `swing`, `narrow`, `sand`, `fracture` (or `all`).
//!
//! ```sh
//! cargo run --release --manifest-path crates/collide-bench/Cargo.toml --example game_steps -- characters
//! cargo build --release --manifest-path crates/collide-bench/Cargo.toml --example game_steps
//! valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.%p --toggle-collect='*measured_*' \
//!     crates/collide-bench/target/release/examples/game_steps characters 2>&1 | grep Collected
//! ```

mod bodies;
mod movers;

use collide::Structure;
use collide::narrow::d3::{Cuboid, Pose};
use collide::world::{Collider3, World3, WorldSettings};
use collide_game::glam::{Quat, Vec3};
use collide_game::time::TimeStep;
use collide_game::{D3, Gravity, Surroundings};
use collide_scenes::SceneRng;
use std::hint::black_box;
use std::time::Instant;

pub const WORKLOADS: [&str; 8] = [
    "characters",
    "projectiles",
    "ragdolls",
    "vehicles",
    "swing",
    "narrow",
    "sand",
    "fracture",
];

fn main() {
    let name = std::env::args().nth(1).unwrap_or_default();
    let names: Vec<&str> = if name == "all" {
        WORKLOADS.to_vec()
    } else if WORKLOADS.contains(&name.as_str()) {
        vec![name.as_str()]
    } else {
        eprintln!("usage: game_steps <{}|all>", WORKLOADS.join("|"));
        std::process::exit(2);
    };
    for name in names {
        let run = match name {
            "characters" => movers::characters(),
            "projectiles" => movers::projectiles(),
            "ragdolls" => bodies::ragdolls(),
            "vehicles" => movers::vehicles(),
            "swing" => movers::swing(),
            "narrow" => bodies::narrow(),
            "sand" => bodies::sand(),
            _ => bodies::fracture_plates(),
        };
        println!(
            "{name}: {} {} in {:.1} ms, {:.3} us each (check {:016x})",
            run.ops,
            run.what,
            run.seconds * 1e3,
            run.seconds * 1e6 / run.ops as f64,
            run.check
        );
    }
}

/// One timed run: how many operations of which kind, the seconds they
/// took, and a digest of their results (which keeps them from being
/// optimised away, and shows whether two builds computed the same).
pub struct Run {
    ops: usize,
    what: &'static str,
    seconds: f64,
    check: u64,
}

/// Times `measured` on `input`.
pub fn timed<T>(ops: usize, what: &'static str, input: &mut T, measured: fn(&mut T) -> u64) -> Run {
    let start = Instant::now();
    let check = black_box(measured(black_box(input)));
    Run {
        ops,
        what,
        seconds: start.elapsed().as_secs_f64(),
        check,
    }
}

/// FNV-1a over the bits of what it is fed.
pub struct Digest(u64);

impl Default for Digest {
    fn default() -> Self {
        Self::new()
    }
}

impl Digest {
    pub fn new() -> Self {
        Digest(0xcbf2_9ce4_8422_2325)
    }

    pub fn u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x).wrapping_mul(0x0000_0100_0000_01b3);
    }

    pub fn f32(&mut self, x: f32) {
        self.u64(u64::from(x.to_bits()));
    }

    pub fn vec3(&mut self, v: Vec3) {
        v.to_array().into_iter().for_each(|x| self.f32(x));
    }
}

/// A tick of 60 Hz.
pub fn tick_60() -> TimeStep<f32> {
    TimeStep::new(1.0 / 60.0).expect("positive")
}

/// The rotation of the quaternion `q` (x, y, z, w) scaled to unit length
/// here in plain f32: no trigonometry, and the same bits with glam's SIMD
/// or scalar math.
pub fn unit_quat(q: [f32; 4]) -> Quat {
    let n = (q[0] * q[0] + q[1] * q[1] + (q[2] * q[2] + q[3] * q[3])).sqrt();
    if n < 0.1 {
        return Quat::IDENTITY;
    }
    Quat::from_xyzw(q[0] / n, q[1] / n, q[2] / n, q[3] / n)
}

/// A seeded rotation.
pub fn rotation(rng: &mut SceneRng) -> Quat {
    unit_quat([(); 4].map(|_| rng.range(-1.0, 1.0)))
}

/// A seeded vector in the cube of half side `r`.
pub fn within(rng: &mut SceneRng, r: f32) -> Vec3 {
    Vec3::new(rng.range(-r, r), rng.range(-r, r), rng.range(-r, r))
}

/// Boxes as fixed colliders of a world over a BVH.
pub struct Level {
    world: World3,
}

impl Level {
    /// Boxes by centre, half extents and rotation.
    pub fn new(boxes: &[(Vec3, Vec3, Quat)]) -> Self {
        let mut world =
            World3::with_settings(WorldSettings::default().with_structure(Structure::Bvh));
        for &(centre, half, turn) in boxes {
            let shape = Cuboid::new(half).expect("valid box");
            let pose = Pose::new(centre, turn).expect("finite");
            world
                .insert(Collider3::fixed(shape, pose, ()))
                .expect("valid box");
        }
        world.step();
        Level { world }
    }

    /// Axis-aligned boxes from their corners.
    pub fn corners(corners: &[(Vec3, Vec3)]) -> Self {
        let boxes: Vec<(Vec3, Vec3, Quat)> = corners
            .iter()
            .map(|&(lo, hi)| (0.5 * (lo + hi), 0.5 * (hi - lo), Quat::IDENTITY))
            .collect();
        Self::new(&boxes)
    }

    /// The world, for the systems that are colliders of it (vehicles).
    pub fn world_mut(&mut self) -> &mut World3 {
        &mut self.world
    }

    /// Runs `body` with the boxes as surroundings under standard gravity.
    pub fn around<R>(&self, body: impl FnOnce(&Surroundings<'_, D3>) -> R) -> R {
        body(&Surroundings::<D3>::new(&self.world, Gravity::earth()))
    }
}
