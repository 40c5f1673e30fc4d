//! The scenes that change character while they run: a uniform
//! scene turning flat and back, a hotspot forming and dissolving, floors
//! and walls appearing and going, motion turning fast and teleporting.
//! Every structure's events and pair count equal brute force's on every
//! frame of a whole cycle, in 2D and 3D.

use collide::{Structure, Vector};
use collide_scenes::{
    IdEvent, Motion, PHASE_FRAMES, Record, Runner, Scene, SceneConfig, SceneKind,
};
use glam::{Vec2, Vec3};

/// A whole cycle and a little more.
const FRAMES: usize = (4 * PHASE_FRAMES + 10) as usize;

/// Each frame's events and pair count from `name`.
fn run<V: Vector>(name: Structure, frames: &[Vec<Record<V>>]) -> Vec<(Vec<IdEvent>, usize)> {
    let mut world = name.build::<V, u64>();
    let mut runner = Runner::new();
    frames
        .iter()
        .map(|records| {
            runner
                .apply(world.as_mut(), records)
                .expect("scene records are valid");
            let mut events = Vec::new();
            runner.step(world.as_mut(), &mut events);
            (events, world.pairs().len())
        })
        .collect()
}

fn every_structure_on<V: Vector>(kind: SceneKind, motion: Motion) {
    let frames = Scene::<V>::new(SceneConfig {
        motion,
        ..SceneConfig::new(kind, 400)
    })
    .take_frames(FRAMES);
    let reference = run::<V>(Structure::Brute, &frames);
    for name in Structure::ALL
        .into_iter()
        .filter(|&n| n != Structure::Brute)
    {
        let got = run::<V>(name, &frames);
        if let Some(f) = (0..FRAMES).find(|&f| got[f] != reference[f]) {
            panic!(
                "{name} on {}D {kind} {motion}, frame {f}: {} events and {} pairs against \
                 brute force's {} and {}",
                V::DIM,
                got[f].0.len(),
                got[f].1,
                reference[f].0.len(),
                reference[f].1
            );
        }
    }
}

#[test]
fn every_structure_matches_brute_force_on_scenes_that_change_character() {
    for kind in SceneKind::CHANGING {
        every_structure_on::<Vec2>(kind, Motion::Slow);
        every_structure_on::<Vec3>(kind, Motion::Slow);
    }
    // Churn across the changes too: objects removed and inserted while the
    // scene turns.
    every_structure_on::<Vec2>(SceneKind::Walls, Motion::Churn);
    every_structure_on::<Vec3>(SceneKind::Hotspot, Motion::Churn);
}

#[test]
fn the_changes_happen() {
    use collide::SceneProfile;
    let profile_at = |kind: SceneKind, frame: usize| {
        let mut scene = Scene::<Vec2>::new(SceneConfig::new(kind, 2_000));
        scene.take_frames(frame + 1);
        let boxes: Vec<_> = scene.objects().map(|(_, b)| b).collect();
        SceneProfile::of(&boxes)
    };
    let (start, changed) = (0, (2 * PHASE_FRAMES + 5) as usize);
    let (even, flat) = (
        profile_at(SceneKind::Flattening, start),
        profile_at(SceneKind::Flattening, changed),
    );
    assert!(
        even.flatness < 2.0 && flat.flatness > 100.0,
        "{even} / {flat}"
    );
    let (even, hot) = (
        profile_at(SceneKind::Hotspot, start),
        profile_at(SceneKind::Hotspot, changed),
    );
    assert!(hot.clustering > 4.0 * even.clustering, "{even} / {hot}");
    let (bare, walled) = (
        profile_at(SceneKind::Walls, start),
        profile_at(SceneKind::Walls, changed),
    );
    assert!(
        bare.spanning_share == 0.0 && walled.spanning_share > 0.01,
        "{bare} / {walled}"
    );
    // Speeding: the same boxes move eight times as far in the fast phase.
    let step = |frame: u64| {
        let mut scene = Scene::<Vec2>::new(SceneConfig::new(SceneKind::Speeding, 100));
        scene.take_frames(frame as usize);
        let before: Vec<_> = scene.objects().map(|(_, b)| b.center()).collect();
        scene.take_frames(1);
        let after: Vec<_> = scene.objects().map(|(_, b)| b.center()).collect();
        before
            .iter()
            .zip(&after)
            .map(|(a, b)| a.distance(*b))
            .sum::<f32>()
    };
    let (slow, fast) = (step(10), step(PHASE_FRAMES + 10));
    assert!(fast > 6.0 * slow, "moved {slow} then {fast}");
}
