//! Scenes that change character while they run, for `auto`: the kinds of
//! [`SceneKind::CHANGING`], built on the `uniform` scene.
//!
//! Each runs a cycle of four phases of [`PHASE_FRAMES`] frames: as
//! generated, turning, changed, turning back; then again. The movers move
//! as the scene's [`Motion`](super::Motion) says, and the change is laid
//! over where they are shown:
//!
//! - `flattening`: every axis but x squeezed towards the middle of the
//!   world, to 4% of its side (a uniform scene turning flat, like `flat`,
//!   and back);
//! - `hotspot`: 70% of the movers drawn towards one point, to a quarter of their
//!   distance from it (a hotspot forming and dissolving);
//! - `walls`: 2% of `n` world-spanning objects (floors and walls, as in
//!   `large`) inserted halfway through the turning phase and removed
//!   halfway through the turning back;
//! - `speeding`: slow motion, then eight times as fast, then slow with 5%
//!   of the movers teleporting each frame, then fast again.
//!
//! While a change runs, every object is named in every frame (its shown
//! box moves even when it does not).

use super::generate::SceneKind;
use collide::Vector;

/// Frames in each phase of a changing scene's cycle.
pub const PHASE_FRAMES: u64 = 60;

/// The share of the side the squeezed axes of `flattening` keep.
const FLAT_SQUEEZE: f32 = 0.04;
/// The share of `hotspot`'s movers drawn in (by id), and how close.
const GATHERED_TENTHS: u64 = 7;
const GATHERED_SPREAD: f32 = 0.25;
/// Where `hotspot` gathers, as a share of the side on every axis.
const HOTSPOT_AT: f32 = 0.3;

/// The phase (0 to 3) of `frame` in the cycle, and how far the change has
/// gone, 0 to 1.
pub(crate) fn phase(frame: u64) -> (u64, f32) {
    let phase = frame / PHASE_FRAMES % 4;
    let within = (frame % PHASE_FRAMES) as f32 / PHASE_FRAMES as f32;
    let amount = match phase {
        0 => 0.0,
        1 => within,
        2 => 1.0,
        _ => 1.0 - within,
    };
    (phase, amount)
}

/// Whether `walls` holds its world-spanning objects at `frame`.
pub(crate) fn walls_up(frame: u64) -> bool {
    phase(frame).1 >= 0.5
}

/// The speed factor and whether movers teleport in `speeding` at `frame`.
pub(crate) fn speeding(frame: u64) -> (f32, bool) {
    match phase(frame).0 {
        1 | 3 => (8.0, false),
        2 => (1.0, true),
        _ => (1.0, false),
    }
}

/// Where `kind` shows a mover of id `id` whose centre is `center`, in a
/// world of side `side`, at `frame`.
pub(crate) fn shown_center<V: Vector>(
    kind: SceneKind,
    frame: u64,
    side: f32,
    id: u64,
    center: V,
) -> V {
    let amount = phase(frame).1;
    if amount == 0.0 {
        return center;
    }
    match kind {
        SceneKind::Flattening => {
            let keep = 1.0 - amount * (1.0 - FLAT_SQUEEZE);
            let middle = 0.5 * side;
            V::from_axes(|i| {
                let c = center.axis(i);
                if i == 0 {
                    c
                } else {
                    middle + (c - middle) * keep
                }
            })
        }
        SceneKind::Hotspot if id % 10 < GATHERED_TENTHS => {
            let spot = HOTSPOT_AT * side;
            V::from_axes(|i| {
                let c = center.axis(i);
                let gathered = spot + (c - spot) * GATHERED_SPREAD;
                c + (gathered - c) * amount
            })
        }
        _ => center,
    }
}

/// Whether `kind` changes character ([`SceneKind::CHANGING`]).
pub(crate) fn is_changing(kind: SceneKind) -> bool {
    SceneKind::CHANGING.contains(&kind)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    #[test]
    fn the_cycle_turns_there_and_back() {
        assert_eq!(phase(0), (0, 0.0));
        assert_eq!(phase(PHASE_FRAMES + PHASE_FRAMES / 2), (1, 0.5));
        assert_eq!(phase(2 * PHASE_FRAMES), (2, 1.0));
        assert_eq!(phase(4 * PHASE_FRAMES), (0, 0.0));
        assert!(!walls_up(PHASE_FRAMES) && walls_up(2 * PHASE_FRAMES));
        assert_eq!(speeding(PHASE_FRAMES), (8.0, false));
        assert_eq!(speeding(2 * PHASE_FRAMES), (1.0, true));
    }

    #[test]
    fn flattening_squeezes_every_axis_but_x() {
        let c = Vec2::new(100.0, 900.0);
        let at = |frame| shown_center(SceneKind::Flattening, frame, 1000.0, 1, c);
        assert_eq!(at(0), c);
        let flat = at(2 * PHASE_FRAMES);
        assert_eq!(flat.x, 100.0);
        assert!((flat.y - (500.0 + 400.0 * FLAT_SQUEEZE)).abs() < 1e-3);
    }

    #[test]
    fn hotspot_gathers_seven_in_ten() {
        let c = Vec2::splat(1000.0);
        let at = |id| shown_center(SceneKind::Hotspot, 2 * PHASE_FRAMES, 1000.0, id, c);
        assert!((at(3).x - (300.0 + 700.0 * GATHERED_SPREAD)).abs() < 1e-3);
        assert_eq!(at(8), c);
    }
}
