//! Every game system under the test kit's invariance harness
//! (`collide_scenes::invariance`): each builds its scenario through a
//! frame of reference and a tick rate, and the harness runs it far from
//! the origin, mirrored, scaled (where the units allow), at other tick
//! rates and in jittered frames, and at rest for ten minutes of ticks.
//!
//! The runs that fail today are `#[ignore]`d with the name of what they
//! catch; run them with `cargo test -p collide-game --test it invariance
//! -- --include-ignored --nocapture` to see every figure.

mod character;
mod clock;
mod fracture;
mod hitbox;
mod projectile;
mod ragdoll;
mod rewind;
mod swing;
mod vehicle;

use crate::common::Boxes;
use collide_game::glam::{Quat, Vec3};
use collide_game::time::{ClockSettings, FixedClock, TimeStep};
use collide_scenes::invariance::{Frame, Rate};

/// Standard gravity, m/s², in the scenario's frame.
pub fn gravity(frame: &Frame) -> Vec3 {
    frame.vector3(crate::common::GRAVITY)
}

/// Runs `ticks` ticks of the rate through a fixed-step clock fed with the
/// rate's frames (steady or jittered), calling `tick` with each tick's
/// index and length.
pub fn run_ticks(rate: &Rate, ticks: u64, mut tick: impl FnMut(u64, TimeStep<f32>)) {
    let settings = ClockSettings::hz(f64::from(rate.hz())).unwrap();
    let mut clock = FixedClock::new(settings);
    let mut frames = rate.frames();
    let mut done = 0;
    while done < ticks {
        let frame = clock.advance(frames.next().unwrap()).unwrap();
        assert_eq!(
            frame.dropped_ticks(),
            0,
            "the harness's frames are never stalls"
        );
        for t in frame {
            if done == ticks {
                break;
            }
            tick(t.index(), t.step());
            done += 1;
        }
    }
}

/// Whether `tick` (counting from 0) ends a whole number of `seconds`.
pub fn every(rate: &Rate, tick: u64, seconds: f64) -> bool {
    (tick + 1).is_multiple_of(rate.ticks_in(seconds).max(1))
}

/// Boxes given by centre, half extents and turn in the scenario, placed
/// in `frame`.
pub fn boxes(frame: &Frame, local: &[(Vec3, Vec3, Quat)]) -> Boxes {
    let placed: Vec<(Vec3, Vec3, Quat)> = local
        .iter()
        .map(|&(centre, half, turn)| {
            (
                frame.point3(centre),
                half.map(|l| frame.length(l)),
                frame.turn(turn),
            )
        })
        .collect();
    Boxes::turned(&placed)
}
