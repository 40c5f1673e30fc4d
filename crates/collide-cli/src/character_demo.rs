//! The character controller's part of the demo report: a side-view level
//! with stairs, a ramp, a too-steep slope, a lift, a conveyor belt and a tilting
//! platform, and a character run through it by a simple script, drawn as
//! an animation with its path coloured by what it stood on.

use collide::Handle;
use collide::narrow::d2::{Cuboid, Pose};
use collide::world::{Collider2, World2};
use collide_game::D2;
use collide_game::character::{Character, CharacterSettings, Ground};
use collide_game::time::TimeStep;
use glam::Vec2;
use std::fmt::Write as _;

/// Ticks a second, and seconds the run lasts.
const RATE: f32 = 60.0;
const SECONDS: f32 = 24.0;

/// How a platform moves over time `t`.
#[derive(Clone, Copy)]
enum Motion {
    /// Up and down between its home and `rise` above it, over `period`.
    Lift { rise: f32, period: f32 },
    /// Tilting by up to `angle` radians, over `period`.
    Tilt { angle: f32, period: f32 },
}

impl Motion {
    fn pose(self, home: Vec2, t: f32) -> Pose {
        let phase = std::f32::consts::TAU * t;
        let result = match self {
            Motion::Lift { rise, period } => {
                Pose::at(home + Vec2::Y * rise * (0.5 - 0.5 * (phase / period).cos()))
            }
            Motion::Tilt { angle, period } => Pose::new(home, angle * (phase / period).sin()),
        };
        result.expect("the demo's poses are finite")
    }
}

struct Level {
    world: World2,
    /// Each box's collider, shape and pose (a belt's at its home).
    shapes: Vec<(Handle, Cuboid, Pose)>,
    movers: Vec<(usize, Vec2, Motion)>,
    /// Conveyor belts: the box stays, its surface carries what stands on
    /// it at this speed along x (m/s). The world tells the character so
    /// by the belt's move: each tick it is put the speed times the tick
    /// ahead before the characters step, and back home after them, before
    /// the world's step.
    belts: Vec<(usize, f32)>,
}

impl Level {
    /// A fixed box.
    fn add(&mut self, half: Vec2, pose: Pose) -> usize {
        let shape = Cuboid::new(half).expect("the demo's boxes are valid");
        self.put(Collider2::fixed(shape, pose, ()), shape, pose)
    }

    /// A box that moves: a platform or a belt.
    fn add_moving(&mut self, half: Vec2, pose: Pose) -> usize {
        let shape = Cuboid::new(half).expect("the demo's boxes are valid");
        self.put(Collider2::moving(shape, pose, ()), shape, pose)
    }

    fn put(&mut self, collider: Collider2, shape: Cuboid, pose: Pose) -> usize {
        let h = self.world.insert(collider).expect("a valid box");
        self.shapes.push((h, shape, pose));
        self.shapes.len() - 1
    }

    fn build() -> Self {
        let mut level = Level {
            world: World2::new(),
            shapes: Vec::new(),
            movers: Vec::new(),
            belts: Vec::new(),
        };
        let at = |x: f32, y: f32| Pose::at(Vec2::new(x, y)).expect("finite");
        level.add(Vec2::new(24.0, 0.5), at(22.0, -0.5)); // the ground
        for k in 0..4 {
            // Stairs of 0.25 m steps.
            let h = 0.25 * (k + 1) as f32;
            level.add(Vec2::new(0.3, h / 2.0), at(3.3 + 0.6 * k as f32, h / 2.0));
        }
        level.add(Vec2::new(1.5, 0.5), at(7.0, 0.5)); // the landing, 1 m up
        let ramp = Pose::new(Vec2::new(10.2, 0.45), -25f32.to_radians()).expect("finite");
        level.add(Vec2::new(2.2, 0.1), ramp); // a ramp down
        let steep = Pose::new(Vec2::new(15.5, 0.9), 60f32.to_radians()).expect("finite");
        level.add(Vec2::new(1.2, 0.1), steep); // too steep to climb
        level.add(Vec2::new(1.0, 2.0), at(19.5, 2.0)); // a tower, 4 m
        let lift = level.add_moving(Vec2::new(0.8, 0.1), at(17.6, 0.1));
        level.movers.push((
            lift,
            Vec2::new(17.6, 0.1),
            Motion::Lift {
                rise: 3.9,
                period: 6.0,
            },
        ));
        let belt = level.add_moving(Vec2::new(3.0, 0.1), at(24.0, 3.9));
        level.belts.push((belt, 1.5));
        let tilt = level.add_moving(Vec2::new(1.5, 0.1), at(31.0, 2.0));
        level.movers.push((
            tilt,
            Vec2::new(31.0, 2.0),
            Motion::Tilt {
                angle: 0.2,
                period: 4.0,
            },
        ));
        level.world.step();
        level
    }

    /// Moves the platforms to time `t`, and the belts a tick ahead of
    /// home: before the characters step.
    fn advance(&mut self, t: f32) {
        for &(k, home, motion) in &self.movers {
            let to = motion.pose(home, t);
            let (h, _, pose) = &mut self.shapes[k];
            *pose = to;
            self.world.set_pose(*h, to).expect("a live platform");
        }
        for &(k, speed) in &self.belts {
            let (h, _, pose) = self.shapes[k];
            let ahead = Pose::at(pose.position() + Vec2::X * (speed / RATE)).expect("finite");
            self.world.set_pose(h, ahead).expect("a live belt");
        }
    }

    /// Puts the belts back home and steps the world: after the
    /// characters stepped.
    fn settle(&mut self) {
        for &(k, _) in &self.belts {
            let (h, _, pose) = self.shapes[k];
            self.world.set_pose(h, pose).expect("a live belt");
        }
        self.world.step();
    }
}

/// The four corners of a box at a pose, x then y each.
fn corners(shape: &Cuboid, pose: &Pose) -> [f32; 8] {
    let half = shape.half_extents();
    let mut out = [0.0; 8];
    for (k, (sx, sy)) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        .into_iter()
        .enumerate()
    {
        let p = pose.apply(Vec2::new(sx * half.x, sy * half.y));
        out[2 * k] = p.x;
        out[2 * k + 1] = p.y;
    }
    out
}

/// Runs the character through the level and returns the animation's data
/// as a JavaScript object literal: the static boxes, then per frame the
/// moving boxes, the character's centre and its ground (0 airborne, 1
/// standing, 2 sliding).
pub fn character_run() -> String {
    let mut level = Level::build();
    let settings = CharacterSettings::sized(1.6, 0.3)
        .and_then(|s| s.with_step_height(0.3))
        .and_then(|s| s.with_max_slope_degrees(45.0))
        .expect("valid settings");
    let radius = settings.radius();
    let half = settings.half_height();
    let mut hero: Character<D2> =
        Character::new(settings, Vec2::new(0.0, 0.85), &mut level.world, ())
            .expect("a finite start");
    let dt = TimeStep::new(1.0 / RATE).expect("a positive step");
    let (mut fall, mut heading, mut stuck) = (0.0f32, 1.0f32, 0);
    let mut last_x = hero.position().x;
    let mut data = String::from("{static:[");
    let moving: Vec<usize> = level.movers.iter().map(|m| m.0).collect();
    for (k, (_, shape, pose)) in level.shapes.iter().enumerate() {
        if !moving.contains(&k) {
            let _ = write!(data, "{:?},", corners(shape, pose));
        }
    }
    let _ = write!(data, "],radius:{radius},half:{half},frames:[");
    let ticks = (SECONDS * RATE) as usize;
    for tick in 0..ticks {
        level.advance((tick + 1) as f32 / RATE);
        if hero.ground().on().is_some() {
            // On the ground: no fall; jump when stuck against something
            // (or on a slope too steep to climb) for a third of a second.
            fall = if stuck > 20 { 6.5 } else { fall.max(0.0) };
            if stuck > 20 {
                stuck = 0;
            }
        }
        fall -= 9.81 / RATE;
        let x = hero.position().x;
        if !(-1.0..=33.0).contains(&x) {
            heading = -heading;
        }
        stuck = if (x - last_x).abs() < 0.2 / RATE {
            stuck + 1
        } else {
            0
        };
        last_x = x;
        let motion = Vec2::new(heading * 3.0, fall) / RATE;
        let report = hero
            .step(dt, motion, &mut level.world)
            .expect("finite motion");
        level.settle();
        // A lift's upward speed goes with a jump off it.
        fall += report.inherited.y;
        if tick % 2 == 0 {
            let ground = match hero.ground() {
                Ground::Airborne => 0,
                Ground::Standing { .. } => 1,
                Ground::Sliding { .. } => 2,
            };
            let p = hero.position();
            let _ = write!(data, "{{m:[");
            for &k in &moving {
                let (_, shape, pose) = &level.shapes[k];
                let _ = write!(data, "{:?},", corners(shape, pose));
            }
            let _ = write!(data, "],x:{:.3},y:{:.3},g:{ground}}},", p.x, p.y);
        }
    }
    data.push_str("]}");
    data
}

/// The character section of the demo page: the animation and its legend.
pub fn character_section() -> String {
    format!(
        "<h3>Character controller</h3>\n<p>A capsule 1.6 m tall walks at 3 m/s through a level seen from the side, jumping when it is stuck: up the stairs (0.25 m steps, 0.3 m allowed), down a ramp, against a slope too steep to climb (it jumps), onto a lift that carries it up over a tower to a conveyor belt that carries it faster, then to a tilting platform, and back. Its path is green where it stood, orange where it slid, blue in the air; moving platforms are orange.</p>\n<canvas id=\"hero\" width=\"960\" height=\"380\"></canvas>\n<div class=\"controls\"><button id=\"hero-play\">pause</button> <span id=\"hero-info\"></span></div>\n<script>const HERO = {};</script>\n{}{}",
        character_run(),
        HERO_PLAYER,
        turntable_section()
    )
}

const HERO_PLAYER: &str = r#"<script>
(() => {
  const canvas = document.getElementById('hero'), ctx = canvas.getContext('2d');
  const button = document.getElementById('hero-play'), info = document.getElementById('hero-info');
  const scale = canvas.width / 36, left = -2, bottom = -0.6;
  const X = x => (x - left) * scale, Y = y => canvas.height - (y - bottom) * scale;
  const colours = ['#3b6fb6', '#2e8b57', '#d9822b'], names = ['in the air', 'standing', 'sliding'];
  let frame = 0, playing = true;
  function poly(c, fill) {
    ctx.beginPath(); ctx.moveTo(X(c[0]), Y(c[1]));
    for (let k = 2; k < 8; k += 2) ctx.lineTo(X(c[k]), Y(c[k + 1]));
    ctx.closePath(); ctx.fillStyle = fill; ctx.fill();
  }
  function draw() {
    const f = HERO.frames[frame];
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    HERO.static.forEach(c => poly(c, '#9a9a94'));
    f.m.forEach(c => poly(c, '#e0a060'));
    ctx.lineWidth = 2.5;
    for (let k = 1; k <= frame; k++) {
      const a = HERO.frames[k - 1], b = HERO.frames[k];
      ctx.strokeStyle = colours[b.g]; ctx.beginPath();
      ctx.moveTo(X(a.x), Y(a.y)); ctx.lineTo(X(b.x), Y(b.y)); ctx.stroke();
    }
    const r = HERO.radius * scale, h = HERO.half * scale;
    ctx.fillStyle = colours[f.g]; ctx.globalAlpha = 0.8;
    ctx.beginPath(); ctx.arc(X(f.x), Y(f.y) - h, r, Math.PI, 0); ctx.arc(X(f.x), Y(f.y) + h, r, 0, Math.PI);
    ctx.closePath(); ctx.fill(); ctx.globalAlpha = 1;
    info.textContent = `t = ${(frame / 30).toFixed(1)} s · ${names[f.g]}`;
  }
  button.onclick = () => { playing = !playing; button.textContent = playing ? 'pause' : 'play'; };
  setInterval(() => { if (playing) { frame = (frame + 1) % HERO.frames.length; draw(); } }, 33);
  draw();
})();
</script>
"#;

/// A turntable seen from above: a 3D character stands on a disc-shaped
/// platform (a box) turning at 0.8 rad/s while it walks slowly toward the
/// rim and back. Per frame: the platform's angle, the character's x and z,
/// and its facing. As a JavaScript array literal.
pub fn turntable_run() -> String {
    use collide::narrow::d3::{Cuboid as Box3, Pose as Pose3};
    use collide::world::{Collider3, World3};
    use collide_game::D3;
    use glam::{Quat, Vec3};
    let mut world: World3 = World3::new();
    let floor = Box3::new(Vec3::new(10.0, 0.5, 10.0)).expect("valid");
    let floor_at = Pose3::at(Vec3::new(0.0, -0.5, 0.0)).expect("finite");
    let table = Box3::new(Vec3::new(3.0, 0.1, 3.0)).expect("valid");
    let table_at = Pose3::at(Vec3::new(0.0, 0.1, 0.0)).expect("finite");
    world
        .insert(Collider3::fixed(floor, floor_at, ()))
        .expect("valid");
    let table_id = world
        .insert(Collider3::moving(table, table_at, ()))
        .expect("valid");
    world.step();
    let settings = CharacterSettings::sized(1.6, 0.3).expect("valid");
    let mut hero: Character<D3> =
        Character::new(settings, Vec3::new(1.0, 1.2, 0.0), &mut world, ()).expect("finite");
    let dt = TimeStep::new(1.0 / RATE).expect("positive");
    let (mut fall, mut out) = (0.0f32, String::from("["));
    let ticks = (12.0 * RATE) as usize;
    for tick in 0..ticks {
        let angle = 0.8 * (tick + 1) as f32 / RATE;
        let to = Pose3::new(table_at.position(), Quat::from_rotation_y(angle)).expect("finite");
        world.set_pose(table_id, to).expect("live");
        if hero.ground().is_standing() {
            fall = 0.0;
        }
        fall -= 9.81 / RATE;
        // Along its facing, out toward the rim for 3 s, back for 3 s.
        let facing = hero.facing();
        let sign = if (tick / (3 * RATE as usize)).is_multiple_of(2) {
            1.0
        } else {
            -1.0
        };
        let ahead = Vec3::new(facing.cos(), 0.0, -facing.sin()) * (0.5 * sign);
        let motion = (ahead + Vec3::Y * fall) / RATE;
        hero.step(dt, motion, &mut world).expect("finite motion");
        world.step();
        if tick % 2 == 0 {
            let p = hero.position();
            let _ = write!(
                out,
                "[{angle:.4},{:.3},{:.3},{:.4}],",
                p.x,
                p.z,
                hero.facing()
            );
        }
    }
    out.push(']');
    out
}

/// The turntable panel: the disc seen from above, the character's path
/// and its facing.
pub fn turntable_section() -> String {
    format!(
        "<p>The same controller in 3D on a turntable, seen from above: the platform turns at 0.8 rad/s; the character walks along its facing toward the rim and back. The platform's turn is applied before the character's own move each tick, so it rides without lag and its facing (the arrow) turns with the platform.</p>\n<canvas id=\"table\" width=\"360\" height=\"360\"></canvas>\n<script>const TABLE = {};</script>\n{}",
        turntable_run(),
        TABLE_PLAYER
    )
}

const TABLE_PLAYER: &str = r#"<script>
(() => {
  const canvas = document.getElementById('table'), ctx = canvas.getContext('2d');
  const c = canvas.width / 2, s = canvas.width / 8;
  let frame = 0;
  function draw() {
    const [angle, x, z, facing] = TABLE[frame];
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.save(); ctx.translate(c, c); ctx.rotate(-angle);
    ctx.fillStyle = '#e0a060'; ctx.fillRect(-3 * s, -3 * s, 6 * s, 6 * s);
    ctx.strokeStyle = '#a86a30'; ctx.beginPath(); ctx.moveTo(0, 0); ctx.lineTo(3 * s, 0); ctx.stroke();
    ctx.restore();
    ctx.strokeStyle = '#2e8b57'; ctx.lineWidth = 2; ctx.beginPath();
    for (let k = 0; k <= frame; k++) {
      const p = TABLE[k];
      if (k === 0) ctx.moveTo(c + p[1] * s, c + p[2] * s); else ctx.lineTo(c + p[1] * s, c + p[2] * s);
    }
    ctx.stroke();
    const px = c + x * s, pz = c + z * s;
    ctx.fillStyle = '#2e8b57'; ctx.beginPath(); ctx.arc(px, pz, 0.3 * s, 0, 2 * Math.PI); ctx.fill();
    ctx.strokeStyle = '#222'; ctx.beginPath(); ctx.moveTo(px, pz);
    ctx.lineTo(px + Math.cos(facing) * 0.8 * s, pz - Math.sin(facing) * 0.8 * s); ctx.stroke();
  }
  setInterval(() => { frame = (frame + 1) % TABLE.length; draw(); }, 33);
  draw();
})();
</script>
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_run_covers_every_ground_state_and_stays_finite() {
        let data = character_run();
        for ground in ["g:0", "g:1", "g:2"] {
            assert!(data.contains(ground), "no {ground} in the run");
        }
        assert!(!data.contains("NaN") && !data.contains("inf"));
    }
}
