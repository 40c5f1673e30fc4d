//! The character controller against geometry: ramps it must not drift on,
//! slopes it must not climb, steps it must and must not take, platforms it
//! must ride without lag or overlap, and frame-rate independence.

use collide::Handle;
use collide::narrow::d3::{Cuboid, Pose};
use collide::world::{Collider3, World3};
use collide_game::character::{Character, CharacterSettings, Ground, Inherit};
use collide_game::glam::{Quat, Vec2, Vec3};
use collide_game::time::TimeStep;
use collide_game::{D2, D3};

/// A level of boxes in a world, each with its shape and pose.
struct Level {
    world: World3,
    shapes: Vec<Option<(Cuboid, Pose)>>,
}

impl Level {
    fn new() -> Self {
        Level {
            world: World3::new(),
            shapes: Vec::new(),
        }
    }

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

    fn move_to(&mut self, h: Handle, pose: Pose) {
        self.shapes[h.index() as usize].as_mut().unwrap().1 = pose;
        self.world.set_pose(h, pose).unwrap();
    }

    /// Moves `h` on from `pose` by `by`.
    fn carry(&mut self, h: Handle, pose: &mut Pose, by: Vec3) {
        let to = Pose::at(pose.position() + by).unwrap();
        self.move_to(h, to);
        *pose = to;
    }

    fn pose(&self, h: Handle) -> Pose {
        self.shapes[h.index() as usize].unwrap().1
    }

    fn floor() -> Self {
        let mut level = Level::new();
        level.add(
            Vec3::new(50.0, 0.5, 50.0),
            Pose::at(Vec3::new(0.0, -0.5, 0.0)).unwrap(),
        );
        level
    }
}

/// Runs one step of `character` in `level` with this tick's `motion`
/// (the platforms moved before it), then the world's step.
fn step(
    character: &mut Character<D3>,
    level: &mut Level,
    motion: Vec3,
    dt: f32,
) -> collide_game::character::StepReport<Vec3> {
    let report = character
        .step(TimeStep::new(dt).unwrap(), motion, &mut level.world)
        .unwrap();
    level.world.step();
    report
}

const G: f32 = 9.81;

/// The caller's side of a walk: its vertical speed under gravity, reset
/// while standing, and a horizontal velocity.
struct Walker {
    character: Character<D3>,
    fall: f32,
}

impl Walker {
    fn new(level: &mut Level, settings: CharacterSettings, at: Vec3) -> Self {
        Walker {
            character: Character::new(settings, at, &mut level.world, ()).unwrap(),
            fall: 0.0,
        }
    }

    fn tick(
        &mut self,
        level: &mut Level,
        walk: Vec3,
        dt: f32,
    ) -> collide_game::character::StepReport<Vec3> {
        if self.character.ground().is_standing() {
            self.fall = 0.0;
        }
        self.fall -= G * dt;
        let motion = walk * dt + Vec3::Y * (self.fall * dt);
        step(&mut self.character, level, motion, dt)
    }
}

fn settings() -> CharacterSettings {
    CharacterSettings::sized(1.8, 0.3)
        .unwrap()
        .with_max_slope_degrees(45.0)
        .unwrap()
        .with_step_height(0.35)
        .unwrap()
}

/// A ramp rising along +x at `degrees`, its top face through the origin.
fn ramp(level: &mut Level, degrees: f32) -> Handle {
    let tilt = Quat::from_rotation_z(degrees.to_radians());
    let centre = tilt * Vec3::new(0.0, -1.0, 0.0);
    level.add(Vec3::new(20.0, 1.0, 5.0), Pose::new(centre, tilt).unwrap())
}

#[test]
fn standing_on_a_30_degree_ramp_drifts_less_than_a_tenth_of_a_millimetre_in_10_s() {
    let mut level = Level::new();
    ramp(&mut level, 30.0);
    let mut walker = Walker::new(&mut level, settings(), Vec3::new(0.0, 2.0, 0.0));
    let dt = 1.0 / 60.0;
    for _ in 0..60 {
        walker.tick(&mut level, Vec3::ZERO, dt);
    }
    assert!(
        walker.character.ground().is_standing(),
        "{:?}",
        walker.character.ground()
    );
    let settled = walker.character.position();
    for _ in 0..600 {
        walker.tick(&mut level, Vec3::ZERO, dt);
        let drift = walker.character.position() - settled;
        assert!(drift.length() < 1e-4, "drifted {drift}");
    }
}

#[test]
fn pushing_up_a_60_degree_slope_with_a_45_degree_limit_never_gains_height() {
    let mut level = Level::floor();
    let tilt = Quat::from_rotation_z(60f32.to_radians());
    level.add(
        Vec3::new(3.0, 0.2, 5.0),
        Pose::new(Vec3::new(3.0, 0.0, 0.0), tilt).unwrap(),
    );
    let mut walker = Walker::new(&mut level, settings(), Vec3::new(0.0, 1.0, 0.0));
    let dt = 1.0 / 60.0;
    for _ in 0..30 {
        walker.tick(&mut level, Vec3::ZERO, dt);
    }
    let start = walker.character.position().y;
    for _ in 0..600 {
        walker.tick(&mut level, Vec3::new(4.0, 0.0, 0.0), dt);
        assert!(
            walker.character.position().y <= start + 1e-4,
            "climbed to {} from {start}",
            walker.character.position().y
        );
    }
}

/// Walks 3 s at 2 m/s toward a step of `height` and returns how far along
/// x the character got.
fn walk_at_step(height: f32) -> f32 {
    let mut level = Level::floor();
    level.add(
        Vec3::new(2.0, height / 2.0, 5.0),
        Pose::at(Vec3::new(3.0, height / 2.0, 0.0)).unwrap(),
    );
    let mut walker = Walker::new(&mut level, settings(), Vec3::new(0.0, 0.95, 0.0));
    for _ in 0..180 {
        walker.tick(&mut level, Vec3::new(2.0, 0.0, 0.0), 1.0 / 60.0);
    }
    walker.character.position().x
}

#[test]
fn a_0_30_m_step_is_climbed_and_a_0_40_m_one_is_not_with_a_0_35_m_limit() {
    // The step's face is at x = 1; the character's radius is 0.3.
    assert!(
        walk_at_step(0.30) > 3.0,
        "did not climb 0.30: {}",
        walk_at_step(0.30)
    );
    assert!(
        walk_at_step(0.40) < 0.71,
        "climbed 0.40: {}",
        walk_at_step(0.40)
    );
}

#[test]
fn riding_a_platform_at_2_m_s_keeps_the_offset_within_a_millimetre_for_10_s() {
    let (mut level, platform, start, mut walker) = on_a_platform(Vec3::new(0.2, 2.5, 0.3));
    let dt = 1.0 / 60.0;
    assert_eq!(walker.character.ground().on(), Some(platform));
    let offset = walker.character.position() - level.pose(platform).position();
    for k in 1..=600 {
        let to = Pose::at(start.position() + Vec3::new(2.0 * k as f32 * dt, 0.0, 0.0)).unwrap();
        level.move_to(platform, to);
        walker.tick(&mut level, Vec3::ZERO, dt);
        let now = walker.character.position() - to.position();
        assert!(
            (now - offset).length() < 1e-3,
            "tick {k}: offset {now} against {offset}"
        );
    }
}

#[test]
fn on_a_turntable_the_character_turns_with_it() {
    let mut level = Level::floor();
    let centre = Vec3::new(0.0, 0.5, 0.0);
    let platform = level.add(Vec3::new(3.0, 0.1, 3.0), Pose::at(centre).unwrap());
    let mut walker = Walker::new(&mut level, settings(), Vec3::new(1.5, 2.0, 0.0));
    let dt = 1.0 / 60.0;
    for _ in 0..60 {
        walker.tick(&mut level, Vec3::ZERO, dt);
    }
    let radius = (walker.character.position() - centre).with_y(0.0).length();
    let spin = 1.0; // rad/s
    for k in 1..=120 {
        let to = Pose::new(centre, Quat::from_rotation_y(spin * k as f32 * dt)).unwrap();
        level.move_to(platform, to);
        walker.tick(&mut level, Vec3::ZERO, dt);
    }
    let turned = 2.0 * spin;
    assert!(
        (walker.character.facing() - turned).abs() < 1e-3,
        "facing {}",
        walker.character.facing()
    );
    let at = (walker.character.position() - centre).with_y(0.0);
    assert!(
        (at.length() - radius).abs() < 1e-3,
        "left its circle: {}",
        at.length()
    );
    let expected = Quat::from_rotation_y(turned) * Vec3::new(radius, 0.0, 0.0);
    assert!(
        (at - expected).length() < 5e-3,
        "at {at}, expected {expected}"
    );
}

#[test]
fn on_a_lift_at_3_m_s_the_character_never_overlaps_it() {
    use collide::narrow::d3::{Capsule, contact};
    let mut level = Level::floor();
    let start = Pose::at(Vec3::new(0.0, 0.2, 0.0)).unwrap();
    let lift = level.add(Vec3::new(1.5, 0.1, 1.5), start);
    let mut walker = Walker::new(&mut level, settings(), Vec3::new(0.0, 1.5, 0.0));
    let dt = 1.0 / 60.0;
    for _ in 0..30 {
        walker.tick(&mut level, Vec3::ZERO, dt);
    }
    let body = Capsule::new(0.6, 0.3).unwrap();
    let mut y = start.position().y;
    for k in 0..300 {
        let speed = if k < 150 { 3.0 } else { -3.0 };
        y += speed * dt;
        let to = Pose::at(Vec3::new(0.0, y, 0.0)).unwrap();
        level.move_to(lift, to);
        let report = walker.tick(&mut level, Vec3::ZERO, dt);
        let at = Pose::at(walker.character.position()).unwrap();
        let (shape, pose) = level.shapes[lift.index() as usize].unwrap();
        let depth = contact(&body, &at, &shape, &pose).depth;
        assert!(depth < 0.3e-3, "tick {k}: {depth} m into the lift");
        assert_eq!(report.ground.on(), Some(lift), "tick {k}: lost the lift");
    }
}

#[test]
fn leaving_a_base_hands_back_its_velocity_by_the_rule() {
    for (rule, expected) in [
        (Inherit::All, Vec3::new(2.0, -1.0, 0.0)),
        (Inherit::UpOnly, Vec3::ZERO),
        (Inherit::Nothing, Vec3::ZERO),
    ] {
        let mut level = Level::floor();
        let start = Pose::at(Vec3::new(0.0, 3.0, 0.0)).unwrap();
        let platform = level.add(Vec3::new(1.5, 0.1, 1.5), start);
        let mut walker = Walker::new(
            &mut level,
            settings().with_inherit(rule),
            Vec3::new(0.0, 4.5, 0.0),
        );
        let dt = 1.0 / 60.0;
        for _ in 0..60 {
            walker.tick(&mut level, Vec3::ZERO, dt);
        }
        let velocity = Vec3::new(2.0, -1.0, 0.0);
        let mut pose = start;
        let mut inherited = None;
        for _ in 0..30 {
            let to = Pose::at(pose.position() + velocity * dt).unwrap();
            level.move_to(platform, to);
            pose = to;
            // A jump: 6 m/s up for one tick.
            walker.fall = 0.0;
            let jump = if walker.character.ground().is_standing() {
                6.0
            } else {
                0.0
            };
            let motion = Vec3::Y * jump * dt;
            let report = step(&mut walker.character, &mut level, motion, dt);
            if report.ground == Ground::Airborne {
                inherited = Some(report.inherited);
                break;
            }
        }
        let inherited = inherited.expect("the jump left the platform");
        assert!(
            (inherited - expected).length() < 1e-3,
            "{rule:?}: {inherited}"
        );
    }
}

/// Walks a fixed route (4 s at 1.5 m/s along x, over a 20 degree ramp)
/// at `rate` ticks a second; returns where it ends.
fn walk_at_rate(rate: u32) -> Vec3 {
    let mut level = Level::floor();
    let tilt = Quat::from_rotation_z(20f32.to_radians());
    level.add(
        Vec3::new(2.0, 0.3, 5.0),
        Pose::new(Vec3::new(3.0, -0.3, 0.0), tilt).unwrap(),
    );
    let mut walker = Walker::new(&mut level, settings(), Vec3::new(0.0, 0.95, 0.0));
    let dt = 1.0 / rate as f32;
    for _ in 0..rate * 4 {
        walker.tick(&mut level, Vec3::new(1.5, 0.0, 0.0), dt);
    }
    walker.character.position()
}

#[test]
fn the_same_walk_at_30_60_and_120_ticks_a_second_ends_within_1_percent() {
    let reference = walk_at_rate(60);
    for rate in [30, 120] {
        let end = walk_at_rate(rate);
        let travelled = reference.x;
        assert!(
            (end - reference).length() < 0.01 * travelled,
            "{rate} Hz ends at {end}, 60 Hz at {reference}"
        );
    }
}

#[test]
fn the_same_controller_runs_in_2d() {
    use collide::narrow::d2::{Cuboid as Box2, Pose as Pose2};
    use collide::world::{Collider2, World2};
    let mut world = World2::new();
    let floor = Box2::new(Vec2::new(50.0, 0.5)).unwrap();
    let floor_at = Pose2::at(Vec2::new(0.0, -0.5)).unwrap();
    let step_box = Box2::new(Vec2::new(2.0, 0.15)).unwrap();
    let step_at = Pose2::at(Vec2::new(3.0, 0.15)).unwrap();
    world.insert(Collider2::fixed(floor, floor_at, ())).unwrap();
    let b = world
        .insert(Collider2::fixed(step_box, step_at, ()))
        .unwrap();
    world.step();
    let mut character: Character<D2> =
        Character::new(settings(), Vec2::new(0.0, 1.2), &mut world, ()).unwrap();
    let dt = TimeStep::new(1.0 / 60.0).unwrap();
    let mut fall = 0.0;
    // 1.5 s at 2 m/s: onto the step (its face at x = 1, its far end at 5).
    for _ in 0..90 {
        if character.ground().is_standing() {
            fall = 0.0;
        }
        fall -= G / 60.0;
        let motion = Vec2::new(2.0 / 60.0, fall / 60.0);
        character.step(dt, motion, &mut world).unwrap();
        world.step();
    }
    assert_eq!(
        character.ground().on(),
        Some(b),
        "on the step: {:?}",
        character.ground()
    );
    assert!(character.position().x > 2.5, "at {}", character.position());
    assert!(character.step(dt, Vec2::NAN, &mut world).is_err());
}

#[test]
fn a_door_sliding_into_the_character_pushes_it_and_two_squeeze_it() {
    use collide::narrow::d3::{Capsule, contact};
    let mut level = Level::floor();
    let door_start = Pose::at(Vec3::new(-2.0, 1.2, 0.0)).unwrap();
    let door = level.add(Vec3::new(0.1, 1.2, 1.5), door_start);
    let mut walker = Walker::new(&mut level, settings(), Vec3::new(0.0, 0.95, 0.0));
    let dt = 1.0 / 60.0;
    for _ in 0..30 {
        walker.tick(&mut level, Vec3::ZERO, dt);
    }
    let body = Capsule::new(0.6, 0.3).unwrap();
    // The door slides along +x at 2 m/s for 2 s: the character goes ahead of it.
    let mut x = door_start.position().x;
    for k in 0..120 {
        x += 2.0 * dt;
        let to = Pose::at(Vec3::new(x, 1.2, 0.0)).unwrap();
        level.move_to(door, to);
        let report = walker.tick(&mut level, Vec3::ZERO, dt);
        assert!(!report.squeezed, "tick {k}: nothing to be squeezed against");
        let at = Pose::at(walker.character.position()).unwrap();
        let depth = contact(
            &body,
            &at,
            &Cuboid::new(Vec3::new(0.1, 1.2, 1.5)).unwrap(),
            &to,
        )
        .depth;
        assert!(depth <= 3e-4, "tick {k}: {depth} m into the door");
    }
    assert!(
        walker.character.position().x > 1.5,
        "pushed to {}",
        walker.character.position()
    );
    // A wall ahead: the door pins the character against it and says so.
    level.add(
        Vec3::new(0.1, 1.5, 3.0),
        Pose::at(Vec3::new(x + 1.2, 1.5, 0.0)).unwrap(),
    );
    let mut squeezed = false;
    for _ in 0..60 {
        x += 2.0 * dt;
        let to = Pose::at(Vec3::new(x, 1.2, 0.0)).unwrap();
        level.move_to(door, to);
        let report = walker.tick(&mut level, Vec3::ZERO, dt);
        squeezed |= report.squeezed;
    }
    assert!(
        squeezed,
        "the door closing on the wall squeezed the character"
    );
}

/// The README's level: a floor and a 0.3 m step whose face is at x = 1.
fn readme_level() -> Level {
    let mut level = Level::floor();
    level.add(
        Vec3::new(2.0, 0.15, 2.0),
        Pose::at(Vec3::new(3.0, 0.15, 0.0)).unwrap(),
    );
    level
}

/// The README's walk (`speed` m/s ahead, a little down), stopped on the
/// tick the character steps up; then `ticks` ticks of the downward part
/// alone. Returns the character and the feet's height after each tick
/// standing still.
fn stop_on_the_step(speed: f32, ticks: usize) -> (Character<D3>, Vec<(f32, bool)>) {
    let mut level = readme_level();
    let settings = CharacterSettings::sized(1.8, 0.3)
        .unwrap()
        .with_step_height(0.35)
        .unwrap();
    let mut hero =
        Character::<D3>::new(settings, Vec3::new(0.0, 0.95, 0.0), &mut level.world, ()).unwrap();
    let dt = 1.0 / 60.0;
    let mut stepped = false;
    for _ in 0..240 {
        let report = step(&mut hero, &mut level, Vec3::new(speed, -0.1, 0.0) * dt, dt);
        if report.stepped_up {
            stepped = true;
            break;
        }
    }
    assert!(stepped, "never stepped up");
    let feet = (0..ticks)
        .map(|_| {
            step(&mut hero, &mut level, Vec3::new(0.0, -0.1, 0.0) * dt, dt);
            (hero.feet().y, hero.ground().is_standing())
        })
        .collect();
    (hero, feet)
}

#[test]
fn a_character_stopped_on_the_tick_it_steps_up_stays_on_the_step() {
    // At the README's 2 m/s and at 1 m/s (which reached the floor again
    // in 75 ticks, reported standing throughout).
    for speed in [2.0, 1.0] {
        let (hero, feet) = stop_on_the_step(speed, 600);
        // The feet keep the skin's gap above the step's top.
        let top = 0.3 + hero.settings().skin();
        for (tick, (y, standing)) in feet.iter().enumerate() {
            assert!(
                (y - top).abs() <= 1e-3 && *standing,
                "{speed} m/s, tick {tick}: feet at {y}, standing {standing}"
            );
        }
        assert_eq!(hero.ground().on().map(|h| h.index()), Some(1));
    }
}

#[test]
fn a_character_stopped_with_its_centre_past_a_ledge_falls() {
    // Standing on the step, then walking back off its edge at x = 1 and
    // stopping with the centre 0.1 m past it (over the floor below).
    let mut level = readme_level();
    let mut walker = Walker::new(&mut level, settings(), Vec3::new(2.0, 1.25, 0.0));
    let dt = 1.0 / 60.0;
    for _ in 0..30 {
        walker.tick(&mut level, Vec3::ZERO, dt);
    }
    let skin = walker.character.settings().skin();
    assert!(walker.character.ground().is_standing());
    assert!((walker.character.feet().y - 0.3 - skin).abs() < 1e-3);
    while walker.character.position().x > 0.9 {
        walker.tick(&mut level, Vec3::new(-1.0, 0.0, 0.0), dt);
    }
    let mut fell = false;
    for _ in 0..120 {
        walker.tick(&mut level, Vec3::ZERO, dt);
        if !walker.character.ground().is_standing() {
            fell = true;
        }
    }
    assert!(fell, "never reported falling");
    let feet = walker.character.feet().y;
    assert!(
        (feet - skin).abs() < 1e-3,
        "feet at {feet}: still on the ledge"
    );
    assert!(walker.character.ground().is_standing());
}

/// A floor and a 3 m platform 1 m up, the character dropped at `at` and
/// settled for a second: the level, the platform, its pose, the walker.
fn on_a_platform(at: Vec3) -> (Level, Handle, Pose, Walker) {
    let mut level = Level::floor();
    let start = Pose::at(Vec3::new(0.0, 1.0, 0.0)).unwrap();
    let platform = level.add(Vec3::new(1.5, 0.1, 1.5), start);
    let mut walker = Walker::new(&mut level, settings(), at);
    for _ in 0..60 {
        walker.tick(&mut level, Vec3::ZERO, 1.0 / 60.0);
    }
    (level, platform, start, walker)
}

/// A platform moving at 1.5 m/s along x, the character standing near its
/// trailing edge (centre 0.05 m inside it): it rides without leaving.
#[test]
fn a_character_near_a_moving_platforms_edge_rides_without_reboarding() {
    let (mut level, platform, start, mut walker) = on_a_platform(Vec3::new(-1.45, 2.5, 0.0));
    let dt = 1.0 / 60.0;
    assert_eq!(walker.character.ground().on(), Some(platform));
    let velocity = Vec3::new(1.5, 0.0, 0.0);
    let mut pose = start;
    for tick in 0..300 {
        level.carry(platform, &mut pose, velocity * dt);
        let report = walker.tick(&mut level, Vec3::ZERO, dt);
        assert_eq!(report.ground.on(), Some(platform), "tick {tick}: left");
        assert_eq!(report.inherited, Vec3::ZERO, "tick {tick}");
    }
}

/// Walking off a moving platform's edge: it leaves once, is not carried
/// back on, and inherits the platform's velocity.
#[test]
fn walking_off_a_moving_platform_leaves_it_once_with_its_velocity() {
    let (mut level, platform, start, mut walker) = on_a_platform(Vec3::new(1.0, 2.5, 0.0));
    let dt = 1.0 / 60.0;
    let velocity = Vec3::new(0.0, 0.0, 0.5);
    let mut pose = start;
    let mut leaves = Vec::new();
    let mut on = true;
    for tick in 0..120 {
        level.carry(platform, &mut pose, velocity * dt);
        let report = walker.tick(&mut level, Vec3::new(1.0, 0.0, 0.0), dt);
        let now = report.ground.on() == Some(platform);
        if on && !now {
            leaves.push((tick, report.inherited));
        }
        assert!(on || !now, "tick {tick}: boarded again");
        on = now;
    }
    assert_eq!(leaves.len(), 1, "{leaves:?}");
    let inherited = leaves[0].1;
    assert!((inherited - velocity).length() < 1e-4, "{inherited}");
}

/// The default character walking ten seconds into a turned wall and along
/// it, 1e4 from the origin: it ended 0.306 m inside the wall, rounding
/// sinking it a little each tick. The real capsule stays out of the wall
/// (within a thousandth of its radius, or 4 ulps of its coordinates).
#[test]
fn a_character_walking_along_a_wall_far_from_the_origin_stays_out_of_it() {
    for (o, yaw) in [
        (Vec3::new(1e4, 0.0, -1e4), -0.7f32),
        (Vec3::new(3e3, 0.0, -3e3), 0.3),
        (Vec3::ZERO, -0.7),
    ] {
        let turn = Quat::from_rotation_y(yaw);
        let mut level = Level::new();
        level.add(
            Vec3::new(60.0, 0.5, 60.0),
            Pose::at(o + Vec3::new(0.0, -0.5, 0.0)).unwrap(),
        );
        let wall_shape = Cuboid::new(Vec3::new(30.0, 1.5, 0.08)).unwrap();
        let wall_pose = Pose::new(o + turn * Vec3::new(25.0, 1.4, -1.4), turn).unwrap();
        level.add(Vec3::new(30.0, 1.5, 0.08), wall_pose);
        let settings = CharacterSettings::sized(1.8, 0.3).unwrap();
        let body =
            collide::narrow::d3::Capsule::new(settings.half_height(), settings.radius()).unwrap();
        let mut walker = Walker::new(
            &mut level,
            settings,
            o + turn * Vec3::new(2.0, 0.906, -1.004),
        );
        let velocity = turn * Vec3::new(3.5, 0.0, -1.5);
        let dt = 1.0 / 60.0;
        let ulp = 4.0 * f32::EPSILON * o.abs().max_element();
        let allowed = (1e-3 * settings.radius()).max(ulp);
        for tick in 0..600 {
            walker.tick(&mut level, velocity, dt);
            let at = Pose::at(walker.character.position()).unwrap();
            let depth = collide::narrow::d3::contact(&body, &at, &wall_shape, &wall_pose).depth;
            assert!(
                depth <= allowed,
                "at {o}, tick {tick}: {depth} m inside the wall (allowed {allowed})"
            );
        }
    }
}

/// A character that stops with its centre just past a moving platform's
/// edge slides off once (it re-boarded it four times in 70 ticks, with
/// inherited velocities of -0.36 to +0.62 m/s), and hands back the
/// platform's velocity as it leaves.
#[test]
fn a_character_stopped_past_a_moving_platforms_edge_leaves_it_once() {
    let (mut level, platform, start, mut walker) = on_a_platform(Vec3::new(1.3, 2.5, 0.0));
    let dt = 1.0 / 60.0;
    assert_eq!(walker.character.ground().on(), Some(platform));
    let velocity = Vec3::new(0.0, 0.0, 0.5);
    let mut pose = start;
    let mut changes = Vec::new();
    let mut on = true;
    for tick in 0..200 {
        level.carry(platform, &mut pose, velocity * dt);
        // Walk until the centre is 0.1 m past the edge at x = 1.5, then stop.
        let walk = if walker.character.position().x < 1.6 {
            Vec3::new(0.5, 0.0, 0.0)
        } else {
            Vec3::ZERO
        };
        let report = walker.tick(&mut level, walk, dt);
        let now = report.ground.on() == Some(platform);
        if now != on {
            changes.push((tick, now, report.inherited));
        }
        on = now;
    }
    assert_eq!(changes.len(), 1, "left and boarded: {changes:?}");
    let (_, boarded, inherited) = changes[0];
    assert!(!boarded);
    assert!((inherited - velocity).length() < 1e-4, "{inherited}");
}
