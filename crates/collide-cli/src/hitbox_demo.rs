//! The hitboxes' part of the demo report: a frame-data strip of an attack
//! (startup, active and recovery ticks) with the ticks its hits landed on,
//! computed by running the attack against three fighters that step into
//! reach at different ticks.

use collide::narrow::d2::Pose;
use collide_game::D2;
use collide_game::hitbox::{Combat, FrameData, Part, Phase, Tolerance};
use glam::Vec2;
use std::fmt::Write as _;

/// The attack's timing, and when each of the three fighters steps in.
const FRAMES: (u32, u32, u32) = (3, 3, 4);
const ARRIVALS: [u64; 3] = [0, 4, 7];

/// Each tick's phase and the keys of the fighters hit on it.
fn strip() -> Vec<(Phase, Vec<u64>)> {
    let at = |x: f32, y: f32| Pose::at(Vec2::new(x, y)).expect("finite");
    let mut world = collide::world::World2::new();
    let mut combat: Combat<D2> = Combat::new(Tolerance::default());
    let attacker = combat
        .add_fighter(1, 0, at(0.0, 0.0), vec![], &mut world, ())
        .expect("the demo's fighters are valid");
    let body = || vec![Part::new(0.5, 0.3, Pose::IDENTITY).expect("valid")];
    let targets: Vec<_> = (0..3)
        .map(|k| {
            combat
                .add_fighter(10 + k, 1, at(5.0, k as f32), body(), &mut world, ())
                .expect("the demo's fighters are valid")
        })
        .collect();
    let frames = FrameData::new(FRAMES.0, FRAMES.1, FRAMES.2).expect("valid");
    let fist = vec![Part::new(0.0, 0.15, at(0.6, 0.0)).expect("valid")];
    combat
        .start_attack(100, attacker, frames, fist)
        .expect("a fighter of this fight");
    let total = FRAMES.0 + FRAMES.1 + FRAMES.2;
    let mut out = Vec::new();
    let mut hits = Vec::new();
    for tick in 0..u64::from(total) {
        for (k, &t) in targets.iter().enumerate() {
            let x = if tick >= ARRIVALS[k] { 0.9 } else { 5.0 };
            combat
                .place(t, at(x, 0.7 * k as f32))
                .expect("a fighter of this fight");
        }
        hits.clear();
        combat
            .step(&mut world, &mut hits)
            .expect("the demo's fighters are in its world");
        out.push((frames.phase(tick), hits.iter().map(|h| h.target).collect()));
    }
    out
}

/// The frame-data section of the demo page.
pub fn hitbox_section() -> String {
    let cells = strip();
    let (w, h, left) = (56.0, 40.0, 10.0);
    let width = left * 2.0 + w * cells.len() as f64;
    let mut svg = format!(
        "<h3>Frame data</h3>\n<p>A jab with 3 startup, 3 active and 4 recovery ticks against three fighters that step into reach at ticks 0, 4 and 7. Its hitbox exists only in the active ticks and hits each fighter once: the first on tick 3, when the jab becomes active, the second on tick 4, when it steps in; the third arrives in recovery and is not hit.</p>\n<figure><svg viewBox=\"0 0 {width} 90\" width=\"{width}\" height=\"90\" style=\"max-width:100%;height:auto\" role=\"img\">\n"
    );
    for (k, (phase, hit)) in cells.iter().enumerate() {
        let (fill, name) = match phase {
            Phase::Startup => ("#c9c9c4", "startup"),
            Phase::Active => ("#c2453d", "active"),
            Phase::Recovery => ("#7fb2e5", "recovery"),
            Phase::Done => ("#ffffff", "done"),
        };
        let x = left + w * k as f64;
        let _ = writeln!(
            svg,
            "<rect x=\"{x}\" y=\"10\" width=\"{}\" height=\"{h}\" fill=\"{fill}\" stroke=\"#fff\"><title>tick {k}: {name}</title></rect><text x=\"{}\" y=\"66\" class=\"label\" text-anchor=\"middle\">{k}</text>",
            w - 2.0,
            x + w / 2.0
        );
        for (n, target) in hit.iter().enumerate() {
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"12\" font-weight=\"700\" fill=\"#fff\">hit {}</text>",
                x + w / 2.0,
                30.0 + 14.0 * n as f64,
                target - 9
            );
        }
    }
    svg.push_str("<text x=\"10\" y=\"84\" class=\"label\">tick</text></svg><div class=\"legend\"><span><i style=\"background:#c9c9c4\"></i>startup</span><span><i style=\"background:#c2453d\"></i>active</span><span><i style=\"background:#7fb2e5\"></i>recovery</span></div></figure>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_strip_shows_hits_on_ticks_3_and_4_only() {
        let hit_ticks: Vec<(usize, u64)> = strip()
            .iter()
            .enumerate()
            .flat_map(|(k, (_, hit))| hit.iter().map(move |&t| (k, t)))
            .collect();
        assert_eq!(hit_ticks, vec![(3, 10), (4, 11)]);
    }
}
