//! The ragdoll's part of the demo report: a stick figure pushed off the
//! top of a flight of stairs, tumbling down them, seen from the side as an
//! animation, with which way it came to lie.

use crate::box_world::BoxWorld;
use collide_game::glam::{Quat, Vec3};
use collide_game::ragdoll::{Lying, Ragdoll, RagdollSettings, Skeleton};
use collide_game::time::TimeStep;
use std::fmt::Write as _;

const RATE: f32 = 60.0;

/// The stairs' boxes: a landing 3 m up, ten 0.3 m steps down along -z
/// (each box reaching down into the floor, as solid stairs do), and the
/// floor.
fn stairs() -> Vec<(Vec3, Vec3)> {
    let mut boxes = vec![(Vec3::new(-20.0, -1.0, -20.0), Vec3::new(20.0, 0.0, 6.0))];
    for k in 0..10 {
        let top = 3.0 - 0.3 * k as f32;
        boxes.push((
            Vec3::new(-10.0, -1.0, -0.45 * k as f32 - 0.45),
            Vec3::new(10.0, top, 6.0),
        ));
    }
    boxes
}

/// The fall: each frame's particles (every second tick), the seconds it
/// took to come to rest, and how it lies.
fn fall() -> (Vec<Vec<Vec3>>, Option<f32>, Lying, Skeleton) {
    let valid = "the demo's ragdoll is valid";
    let mut world = BoxWorld::new(stairs());
    let body = Skeleton::humanoid(1.8, 75.0).expect(valid);
    // Standing at the top, leaning forward and pushed: it topples down
    // the stairs.
    let mut doll = Ragdoll::new(
        body.clone(),
        RagdollSettings::default(),
        Vec3::new(0.0, 3.0, -0.3),
        Quat::from_rotation_x(-0.8),
        Vec3::new(0.0, 0.0, -3.5),
        world.world_mut(),
        (),
    )
    .expect(valid);
    let dt = TimeStep::new(1.0 / RATE).expect(valid);
    let (mut frames, mut rested) = (Vec::new(), None);
    for tick in 0..(9.0 * RATE) as usize {
        doll.step(dt, world.world_mut()).expect(valid);
        if tick % 2 == 0 {
            frames.push(doll.positions().to_vec());
        }
        if rested.is_none() && doll.is_asleep() {
            rested = Some(tick as f32 / RATE);
        }
    }
    (frames, rested, doll.lying(), body)
}

/// The animation's data as a JavaScript object: the stairs' profile, the
/// parts, and per frame the particles' (z, y).
fn data(frames: &[Vec<Vec3>], body: &Skeleton) -> String {
    let mut out = String::from("{stairs:[");
    for (lo, hi) in stairs().iter().skip(1) {
        let _ = write!(out, "[{:.2},{:.2},{:.2}],", lo.z, hi.z.min(6.0), hi.y);
    }
    out.push_str("],parts:[");
    for &(a, b, r) in body.parts() {
        let _ = write!(out, "[{a},{b},{r:.3}],");
    }
    out.push_str("],frames:[");
    for f in frames {
        out.push('[');
        for p in f {
            let _ = write!(out, "{:.3},{:.3},", p.z, p.y);
        }
        out.push_str("],");
    }
    out.push_str("]}");
    out
}

/// The ragdoll section of the demo page.
pub fn ragdoll_section() -> String {
    let (frames, rested, lying, body) = fall();
    let lies = match lying {
        Lying::FaceDown => "face down",
        Lying::FaceUp => "face up",
        Lying::LeftSide => "on its left side",
        Lying::RightSide => "on its right side",
        Lying::Upright => "upright",
    };
    let rest = rested.map_or("had not come to rest after 9 s".to_string(), |t| {
        format!("came to rest after {t:.1} s")
    });
    format!(
        "<h3>Ragdoll</h3>\n<p>A 1.8 m, 75 kg ragdoll (16 particles at the joints, 13 capsules between them, swing cones, twist limits and hinged knees and elbows) tipped forward at 3.5 m/s off the top of a flight of ten 0.3 m steps, seen from the side. It {rest} and lies {lies}: the pose a game reads to choose the animation that gets it up.</p>\n<canvas id=\"doll\" width=\"720\" height=\"400\"></canvas>\n<div class=\"controls\"><button id=\"doll-play\">pause</button> <span id=\"doll-info\"></span></div>\n<script>const DOLL = {};</script>\n{}",
        data(&frames, &body),
        DOLL_PLAYER
    )
}

const DOLL_PLAYER: &str = r#"<script>
(() => {
  const canvas = document.getElementById('doll'), ctx = canvas.getContext('2d');
  const button = document.getElementById('doll-play'), info = document.getElementById('doll-info');
  const scale = canvas.width / 11.5, bottom = -0.3;
  // The stairs go down toward -z: draw -z to the right, from z = 1.5.
  const X = z => (1.5 - z) * scale, Y = y => canvas.height - (y - bottom) * scale;
  let frame = 0, playing = true;
  function draw() {
    const f = DOLL.frames[frame];
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = '#c9c9c4';
    ctx.fillRect(0, Y(0), canvas.width, canvas.height - Y(0));
    DOLL.stairs.forEach(([z0, z1, top]) => {
      ctx.fillRect(X(z1), Y(top), X(z0) - X(z1), Y(0) - Y(top));
    });
    ctx.lineCap = 'round';
    ctx.strokeStyle = '#3b6fb6';
    DOLL.parts.forEach(([a, b, r]) => {
      ctx.lineWidth = Math.max(2, 2 * r * scale * 0.6);
      ctx.beginPath(); ctx.moveTo(X(f[2 * a]), Y(f[2 * a + 1])); ctx.lineTo(X(f[2 * b]), Y(f[2 * b + 1])); ctx.stroke();
    });
    ctx.fillStyle = '#3b6fb6';
    ctx.beginPath(); ctx.arc(X(f[6]), Y(f[7]), 0.11 * scale, 0, 2 * Math.PI); ctx.fill();
    info.textContent = `t = ${(frame / 30).toFixed(1)} s`;
  }
  button.onclick = () => { playing = !playing; button.textContent = playing ? 'pause' : 'play'; };
  setInterval(() => { if (playing) { frame = (frame + 1) % DOLL.frames.length; draw(); } }, 33);
  draw();
})();
</script>
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ragdoll_goes_down_the_stairs_and_comes_to_rest() {
        let (frames, rested, _, _) = fall();
        let last = frames.last().unwrap();
        // It ended well down the stairs (the landing is 3 m up).
        let lowest = last.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
        assert!(lowest < 1.0, "it stayed up at {lowest} m");
        assert!(rested.is_some(), "it came to rest");
    }
}
