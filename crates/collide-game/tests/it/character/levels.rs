//! The character controller on generated levels: seeded random ramps,
//! stairs, ledges, thin walls, and platforms that slide, lift and turn,
//! with random walking and jumping. After every tick, brute force over
//! every object: the capsule is never inside anything by more than a
//! thousandth of its radius, unless the step reported it squeezed.
//!
//! 2,000 levels of 600 ticks; `COLLIDE_LEVELS=N` runs another number.

use collide::narrow::d3::{Capsule, Cuboid, Pose, contact};
use collide::world::{Collider3, World3};
use collide::{Aabb3, Handle};
use collide_game::D3;
use collide_game::character::{Character, CharacterSettings};
use collide_game::glam::{Quat, Vec3};
use collide_game::time::TimeStep;
use collide_scenes::SceneRng;
use rayon::prelude::*;

/// How a platform moves: along a line and back, up and down, or round.
#[derive(Clone, Copy, Debug)]
enum Motion {
    Slide { axis: Vec3, span: f32, period: f32 },
    Lift { span: f32, period: f32 },
    Turn { rate: f32 },
}

struct Level {
    world: World3,
    shapes: Vec<Option<(Cuboid, Pose)>>,
    movers: Vec<(Handle, Pose, Motion)>,
}

impl Level {
    fn add(&mut self, half: Vec3, pose: Pose) -> Handle {
        let shape = Cuboid::new(half).unwrap();
        let h = self
            .world
            .insert(Collider3::moving(shape, pose, ()))
            .unwrap();
        let i = h.index() as usize;
        self.shapes.resize(self.shapes.len().max(i + 1), None);
        self.shapes[i] = Some((shape, pose));
        h
    }

    fn generate(rng: &mut SceneRng) -> Self {
        let mut level = Level {
            world: World3::new(),
            shapes: Vec::new(),
            movers: Vec::new(),
        };
        level.add(
            Vec3::new(30.0, 0.5, 30.0),
            Pose::at(Vec3::new(0.0, -0.5, 0.0)).unwrap(),
        );
        for _ in 0..24 {
            let at = Vec3::new(rng.range(-12.0, 12.0), 0.0, rng.range(-12.0, 12.0));
            let yaw = Quat::from_rotation_y(rng.range(0.0, 6.3));
            match (rng.unit() * 4.0) as u32 {
                0 => {
                    // A step or a ledge.
                    let h = rng.range(0.05, 0.8);
                    let half = Vec3::new(rng.range(0.3, 2.0), h / 2.0, rng.range(0.3, 2.0));
                    level.add(half, Pose::new(at + Vec3::Y * (h / 2.0), yaw).unwrap());
                }
                1 => {
                    // A ramp from gentle to too steep.
                    let tilt = yaw * Quat::from_rotation_z(rng.range(5.0, 60.0).to_radians());
                    let half = Vec3::new(rng.range(1.0, 3.0), 0.2, rng.range(0.5, 2.0));
                    level.add(half, Pose::new(at, tilt).unwrap());
                }
                2 => {
                    // A thin wall.
                    let half = Vec3::new(rng.range(0.5, 3.0), 1.5, 0.01);
                    level.add(half, Pose::new(at + Vec3::Y * 1.5, yaw).unwrap());
                }
                _ => {
                    // A stair of four steps.
                    let rise = rng.range(0.1, 0.3);
                    for k in 0..4 {
                        let h = rise * (k + 1) as f32;
                        let step = yaw * Vec3::new(0.5 * k as f32, h / 2.0, 0.0);
                        level.add(
                            Vec3::new(0.25, h / 2.0, 1.0),
                            Pose::new(at + step, yaw).unwrap(),
                        );
                    }
                }
            }
        }
        let motions = [
            Motion::Slide {
                axis: Vec3::new(rng.range(-1.0, 1.0), 0.0, rng.range(-1.0, 1.0))
                    .normalize_or(Vec3::X),
                span: rng.range(1.0, 4.0),
                period: rng.range(2.0, 6.0),
            },
            Motion::Lift {
                span: rng.range(0.5, 3.0),
                period: rng.range(2.0, 6.0),
            },
            Motion::Turn {
                rate: rng.range(-2.0, 2.0),
            },
        ];
        for motion in motions {
            let at = Vec3::new(
                rng.range(-10.0, 10.0),
                rng.range(0.3, 1.5),
                rng.range(-10.0, 10.0),
            );
            let pose = Pose::at(at).unwrap();
            let h = level.add(Vec3::new(1.5, 0.1, 1.5), pose);
            level.movers.push((h, pose, motion));
        }
        level.world.step();
        level
    }

    /// Moves the platforms to time `t`.
    fn advance(&mut self, t: f32) {
        for &(h, home, motion) in &self.movers {
            let to = match motion {
                Motion::Slide { axis, span, period } => {
                    let s = span * (std::f32::consts::TAU * t / period).sin();
                    Pose::at(home.position() + axis * s).unwrap()
                }
                Motion::Lift { span, period } => {
                    let s = span * (0.5 - 0.5 * (std::f32::consts::TAU * t / period).cos());
                    Pose::at(home.position() + Vec3::Y * s).unwrap()
                }
                Motion::Turn { rate } => {
                    Pose::new(home.position(), Quat::from_rotation_y(rate * t)).unwrap()
                }
            };
            self.shapes[h.index() as usize].as_mut().unwrap().1 = to;
            self.world.set_pose(h, to).unwrap();
        }
    }
}

fn run_level(seed: u64, ticks: usize) -> (usize, usize, [u32; 3]) {
    let mut rng = SceneRng::new(seed);
    let mut level = Level::generate(&mut rng);
    let settings = CharacterSettings::sized(1.8, 0.3).unwrap();
    let radius = settings.radius();
    let body = Capsule::new(settings.half_height(), radius).unwrap();
    let start = Vec3::new(rng.range(-12.0, 12.0), 4.0, rng.range(-12.0, 12.0));
    let mut character: Character<D3> =
        Character::new(settings, start, &mut level.world, ()).unwrap();
    let dt = 1.0 / 60.0;
    let step = TimeStep::new(dt).unwrap();
    let (mut fall, mut walk, mut squeezes) = (0.0f32, Vec3::ZERO, 0);
    for tick in 0..ticks {
        if tick % 30 == 0 {
            let angle = rng.range(0.0, 6.3);
            walk = Vec3::new(angle.cos(), 0.0, angle.sin()) * rng.range(0.0, 5.0);
        }
        if character.ground().is_standing() {
            fall = if rng.unit() < 0.02 { 5.0 } else { 0.0 };
        }
        fall -= 9.81 * dt;
        level.advance((tick + 1) as f32 * dt);
        let motion = walk * dt + Vec3::Y * (fall * dt);
        let report = character.step(step, motion, &mut level.world).unwrap();
        level.world.step();
        let shapes = &level.shapes;
        squeezes += usize::from(report.squeezed);
        let at = Pose::at(character.position()).unwrap();
        // Only boxes whose bounds meet the capsule's (grown by the allowed
        // depth) can hold it deeper than that: the rest need no contact.
        let reach = body.aabb(&at);
        let margin = Vec3::splat(1e-3 * radius);
        let reach = Aabb3::new(reach.min() - margin, reach.max() + margin).unwrap();
        for (k, slot) in shapes.iter().enumerate() {
            let Some((shape, pose)) = slot else { continue };
            if !shape.aabb(pose).overlaps(&reach) {
                continue;
            }
            let depth = contact(&body, &at, shape, pose).depth;
            assert!(
                depth <= 1e-3 * radius || report.squeezed,
                "level {seed}, tick {tick}: {depth} m inside object {k} at {} ({:?})",
                character.position(),
                report.ground
            );
        }
    }
    (
        ticks,
        squeezes,
        character.position().to_array().map(f32::to_bits),
    )
}

#[test]
fn the_character_never_ends_a_tick_inside_generated_levels() {
    let levels: u64 = std::env::var("COLLIDE_LEVELS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000);
    // Levels are independent: spread them over rayon's pool.
    let (ticks, squeezes) = (0..levels)
        .into_par_iter()
        .map(|seed| {
            let (t, s, _) = run_level(seed, 600);
            (t, s)
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    eprintln!("{levels} levels, {ticks} ticks, {squeezes} squeezed");
    // Squeezes are rare: a platform pinning the character to a wall.
    assert!(
        squeezes * 100 < ticks,
        "{squeezes} squeezed ticks of {ticks}"
    );
}

#[test]
fn the_same_levels_end_in_the_same_bits_on_any_number_of_threads() {
    let ends = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            (0..6)
                .map(|seed| run_level(seed, 300).2)
                .collect::<Vec<_>>()
        })
    };
    let one = ends(1);
    assert_eq!(ends(2), one);
    assert_eq!(ends(4), one);
}
