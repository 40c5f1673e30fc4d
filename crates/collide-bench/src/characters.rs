//! `--characters N`: kinematic character moves per millisecond on one
//! core, ours (`collide_game::character::Character<D3>` in a
//! `collide::world::World3` over a BVH) against rapier's
//! `KinematicCharacterController::move_shape` over its `BroadPhaseBvh`
//! query pipeline, on the same level: 10,000 boxes (steps,
//! ledges, walls, crates) on a floor, and `N` capsules 1.8 m tall walking
//! at 3 m/s in directions that change every second, under gravity.
//!
//! Both controllers get the same settings where they have them: a 0.35 m
//! step, 45 degree slopes, snapping to ground, the same capsule. Timed:
//! the moves alone (the level is static and built before; our world's
//! step after each tick, which reports the characters' contacts, is left
//! out of the time, as rapier's pipeline step is). Our characters are in
//! a collision group of their own that they do not meet, so as on
//! rapier's side they walk through each other. Each side runs
//! three rounds of 120 ticks, alternating; the table gives the best round
//! and the mean of all three.

use collide::Structure;
use collide::narrow::d3::{Cuboid, Pose};
use collide::world::{Collider3, Filter, World3, WorldSettings};
use collide_game::D3;
use collide_game::character::{Character, CharacterSettings};
use collide_game::time::TimeStep;
use collide_scenes::SceneRng;
use glam::Vec3;
use std::time::{Duration, Instant};

/// Boxes in the level, ticks per round, rounds per side.
const BOXES: usize = 10_000;
const TICKS: usize = 120;
const ROUNDS: usize = 3;
const DT: f32 = 1.0 / 60.0;

/// A level: each box's centre and half extents, and where the characters
/// start.
struct Level {
    boxes: Vec<(Vec3, Vec3)>,
    starts: Vec<Vec3>,
}

impl Level {
    fn generate(characters: usize) -> Self {
        let mut rng = SceneRng::new(2026);
        // About one box per 9 square metres.
        let side = (BOXES as f32 * 9.0).sqrt();
        let mut boxes = vec![(
            Vec3::new(side / 2.0, -0.5, side / 2.0),
            Vec3::new(side / 2.0 + 5.0, 0.5, side / 2.0 + 5.0),
        )];
        for _ in 1..BOXES {
            let at = Vec3::new(rng.range(0.0, side), 0.0, rng.range(0.0, side));
            let half = match rng.range(0.0, 3.0) as u32 {
                0 => Vec3::new(
                    rng.range(0.3, 1.5),
                    rng.range(0.05, 0.3),
                    rng.range(0.3, 1.5),
                ), // steps
                1 => Vec3::new(
                    rng.range(0.5, 2.0),
                    rng.range(0.3, 1.0),
                    rng.range(0.5, 2.0),
                ), // ledges
                _ => Vec3::new(rng.range(0.05, 2.5), 1.5, rng.range(0.05, 0.3)), // walls
            };
            boxes.push((at + Vec3::Y * half.y, half));
        }
        let starts = (0..characters)
            .map(|_| Vec3::new(rng.range(0.0, side), 4.0, rng.range(0.0, side)))
            .collect();
        Level { boxes, starts }
    }

    /// Each character's walk direction for the second starting at `tick`.
    fn walk(&self, character: usize, tick: usize) -> Vec3 {
        let second = (tick / 60) as u64;
        let mut rng = SceneRng::new(character as u64 * 7919 + second);
        let angle = rng.range(0.0, std::f32::consts::TAU);
        Vec3::new(angle.cos(), 0.0, angle.sin()) * 3.0
    }
}

/// The collision group of our characters, which they do not meet.
const CHARACTERS: u32 = 1 << 1;

/// Ours: the level as fixed boxes in a world over a BVH, the characters
/// in it too, stepped one by one in handle order.
struct Ours {
    world: World3,
    characters: Vec<(Character<D3>, f32)>,
}

impl Ours {
    fn new(level: &Level) -> Self {
        let mut world =
            World3::with_settings(WorldSettings::default().with_structure(Structure::Bvh));
        for &(centre, half) in &level.boxes {
            let shape = Cuboid::new(half).expect("valid box");
            let pose = Pose::at(centre).expect("finite");
            world
                .insert(Collider3::fixed(shape, pose, ()))
                .expect("valid box");
        }
        world.step();
        let settings = CharacterSettings::sized(1.8, 0.3)
            .and_then(|s| s.with_step_height(0.35))
            .and_then(|s| s.with_max_slope_degrees(45.0))
            .and_then(|s| s.with_snap_distance(0.2))
            .expect("valid settings")
            .with_filter(Filter::new(CHARACTERS, !CHARACTERS));
        let characters = level
            .starts
            .iter()
            .map(|&at| {
                let character = Character::new(settings, at, &mut world, ()).expect("finite");
                (character, 0.0)
            })
            .collect();
        world.step();
        Ours { world, characters }
    }

    /// One tick: the characters' moves, then the world's step. Returns
    /// the time the moves took.
    fn tick(&mut self, level: &Level, tick: usize) -> Duration {
        let start = Instant::now();
        let dt = TimeStep::new(DT).expect("positive");
        for (k, (character, fall)) in self.characters.iter_mut().enumerate() {
            if character.ground().is_standing() {
                *fall = 0.0;
            }
            *fall -= 9.81 * DT;
            let motion = level.walk(k, tick) * DT + Vec3::Y * (*fall * DT);
            character
                .step(dt, motion, &mut self.world)
                .expect("finite motion");
        }
        let moves = start.elapsed();
        self.world.step();
        moves
    }

    fn grounded(&self) -> usize {
        self.characters
            .iter()
            .filter(|c| c.0.ground().is_standing())
            .count()
    }
}

/// rapier: the level as colliders in its broad phase, queried through its
/// query pipeline by its character controller.
struct Rapier {
    colliders: rapier3d::geometry::ColliderSet,
    bodies: rapier3d::dynamics::RigidBodySet,
    broad_phase: rapier3d::geometry::BroadPhaseBvh,
    controller: rapier3d::control::KinematicCharacterController,
    shape: rapier3d::parry::shape::Capsule,
    characters: Vec<(rapier3d::math::Pose, f32, bool)>,
}

impl Rapier {
    fn new(level: &Level) -> Self {
        use rapier3d::control::{CharacterAutostep, CharacterLength, KinematicCharacterController};
        use rapier3d::geometry::{BroadPhaseBvh, ColliderBuilder, ColliderSet};
        use rapier3d::math::Vector as V;
        let mut colliders = ColliderSet::new();
        let mut inserted = Vec::new();
        for &(c, h) in &level.boxes {
            let collider = ColliderBuilder::cuboid(h.x, h.y, h.z)
                .translation(V::new(c.x, c.y, c.z))
                .build();
            inserted.push(colliders.insert(collider));
        }
        let bodies = rapier3d::dynamics::RigidBodySet::new();
        let mut broad_phase = BroadPhaseBvh::new();
        let params = rapier3d::dynamics::IntegrationParameters::default();
        let mut events = Vec::new();
        broad_phase.update(&params, &colliders, &bodies, &inserted, &[], &mut events);
        let controller = KinematicCharacterController {
            autostep: Some(CharacterAutostep {
                max_height: CharacterLength::Absolute(0.35),
                min_width: CharacterLength::Absolute(0.2),
                include_dynamic_bodies: false,
            }),
            max_slope_climb_angle: 45f32.to_radians(),
            snap_to_ground: Some(CharacterLength::Absolute(0.2)),
            ..KinematicCharacterController::default()
        };
        let characters = level
            .starts
            .iter()
            .map(|s| {
                (
                    rapier3d::math::Pose::from_translation(V::new(s.x, s.y, s.z)),
                    0.0,
                    false,
                )
            })
            .collect();
        Rapier {
            colliders,
            bodies,
            broad_phase,
            controller,
            shape: rapier3d::parry::shape::Capsule::new_y(0.6, 0.3),
            characters,
        }
    }

    fn tick(&mut self, level: &Level, tick: usize) {
        use rapier3d::math::Vector as V;
        let dispatcher = rapier3d::parry::query::DefaultQueryDispatcher;
        let queries = self.broad_phase.as_query_pipeline(
            &dispatcher,
            &self.bodies,
            &self.colliders,
            rapier3d::pipeline::QueryFilter::default(),
        );
        for (k, (pose, fall, grounded)) in self.characters.iter_mut().enumerate() {
            if *grounded {
                *fall = 0.0;
            }
            *fall -= 9.81 * DT;
            let m = level.walk(k, tick) * DT + Vec3::Y * (*fall * DT);
            let moved = self.controller.move_shape(
                DT,
                &queries,
                &self.shape,
                pose,
                V::new(m.x, m.y, m.z),
                |_| {},
            );
            pose.translation += moved.translation;
            *grounded = moved.grounded;
        }
    }

    fn grounded(&self) -> usize {
        self.characters.iter().filter(|c| c.2).count()
    }
}

/// One side's figures.
pub struct CharacterRow {
    pub name: &'static str,
    /// Moves per millisecond: the best round, and the mean of the rounds.
    pub best: f64,
    pub mean: f64,
    /// Share of the characters standing at the end.
    pub grounded: f64,
}

/// Runs both sides on the level with `characters` characters.
pub fn run_characters(characters: usize) -> Vec<CharacterRow> {
    let level = Level::generate(characters);
    let (mut ours, mut rapier) = (Ours::new(&level), Rapier::new(&level));
    // Settle onto the ground first, untimed.
    for tick in 0..30 {
        ours.tick(&level, tick);
        rapier.tick(&level, tick);
    }
    let (mut ours_rates, mut rapier_rates) = (Vec::new(), Vec::new());
    let mut tick = 30;
    for _ in 0..ROUNDS {
        let moves: Duration = (0..TICKS).map(|t| ours.tick(&level, tick + t)).sum();
        ours_rates.push((characters * TICKS) as f64 / (moves.as_secs_f64() * 1e3));
        let start = Instant::now();
        for t in 0..TICKS {
            rapier.tick(&level, tick + t);
        }
        rapier_rates.push((characters * TICKS) as f64 / (start.elapsed().as_secs_f64() * 1e3));
        tick += TICKS;
    }
    let row = |name, rates: &[f64], grounded: usize| CharacterRow {
        name,
        best: rates.iter().copied().fold(0.0, f64::max),
        mean: rates.iter().sum::<f64>() / rates.len() as f64,
        grounded: grounded as f64 / characters as f64,
    };
    vec![
        row("collide", &ours_rates, ours.grounded()),
        row("rapier", &rapier_rates, rapier.grounded()),
    ]
}

/// The table of `--characters`.
pub fn character_table(characters: usize, rows: &[CharacterRow]) -> String {
    let mut out = format!(
        "\n## Character moves, {characters} characters in a level of {BOXES} boxes (one core)\n\n\
         | controller | moves/ms (best of {ROUNDS}) | moves/ms (mean) | standing at the end |\n|---|---|---|---|\n"
    );
    for r in rows {
        out.push_str(&format!(
            "| {} | {:.1} | {:.1} | {:.0}% |\n",
            r.name,
            r.best,
            r.mean,
            100.0 * r.grounded
        ));
    }
    out
}
