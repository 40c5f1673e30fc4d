//! `auto` (issue 10): the structure it runs changes, the events do not.
//! Every frame's events and pairs equal brute force's across switches made
//! by hand (to every structure, every few frames) and by its own reviews
//! on a scene that changes character.

use collide::scene::{IdEvent, Motion, Record, Runner, Scene, SceneConfig, SceneKind};
use collide::{
    Aabb, Auto, AutoConfig, BroadPhase, Brute, STRUCTURE_NAMES, SceneProfile, Vector,
    choose_structure,
};
use glam::{Vec2, Vec3};

/// The structures `auto` can run: all but itself.
const INNER: [&str; 9] = [
    "brute", "sap", "sap1", "grid", "hashgrid", "hgrid", "tree", "loose", "bvh",
];

#[test]
fn auto_runs_every_other_structure() {
    let others: Vec<&str> = STRUCTURE_NAMES
        .iter()
        .copied()
        .filter(|n| *n != "auto")
        .collect();
    assert_eq!(others, INNER);
}

/// The pairs of `world` as sorted (lower id, higher id).
fn pair_ids<V: Vector>(world: &dyn BroadPhase<V, u64>) -> Vec<(u64, u64)> {
    let mut v: Vec<(u64, u64)> = world
        .pairs()
        .iter()
        .map(|p| {
            let (x, y) = (*world.value(p.a()).unwrap(), *world.value(p.b()).unwrap());
            (x.min(y), x.max(y))
        })
        .collect();
    v.sort_unstable();
    v
}

/// Runs `frames` through `auto` and brute force side by side, calling
/// `before_step` before each step; panics at the first frame whose events
/// or pairs differ.
fn beside_brute<V: Vector>(
    auto: &mut Auto<V, u64>,
    frames: &[Vec<Record<V>>],
    mut before_step: impl FnMut(usize, &mut Auto<V, u64>),
    what: &str,
) {
    let mut brute = Brute::<V, u64>::new();
    let (mut ra, mut rb) = (Runner::new(), Runner::new());
    let (mut ea, mut eb): (Vec<IdEvent>, Vec<IdEvent>) = (Vec::new(), Vec::new());
    for (f, records) in frames.iter().enumerate() {
        ra.apply(auto, records).unwrap();
        rb.apply(&mut brute, records).unwrap();
        before_step(f, auto);
        let running = auto.current().to_string();
        ra.step(auto, &mut ea);
        rb.step(&mut brute, &mut eb);
        assert!(
            ea == eb,
            "{what}: frame {f} ({running}): {} events against brute force's {}",
            ea.len(),
            eb.len()
        );
        assert_eq!(
            pair_ids::<V>(auto),
            pair_ids::<V>(&brute),
            "{what}: frame {f}"
        );
    }
}

fn scene_frames<V: Vector>(
    kind: SceneKind,
    motion: Motion,
    n: usize,
    frames: usize,
) -> Vec<Vec<Record<V>>> {
    let mut scene = Scene::<V>::new(SceneConfig {
        motion,
        ..SceneConfig::new(kind, n)
    });
    (0..frames)
        .map(|_| {
            let mut records = Vec::new();
            scene.next_frame(&mut records);
            records
        })
        .collect()
}

#[test]
fn switching_by_hand_to_every_structure_loses_no_event() {
    for kind in SceneKind::ALL {
        for motion in [Motion::Slow, Motion::Teleport, Motion::Churn] {
            let frames = scene_frames::<Vec2>(kind, motion, 600, 40);
            let mut auto = Auto::<Vec2, u64>::new();
            let mut k = 0;
            beside_brute(
                &mut auto,
                &frames,
                |f, auto| {
                    if f % 3 == 2 {
                        k = (k + 1) % INNER.len();
                        auto.switch_to(INNER[k]).unwrap();
                    }
                },
                &format!("2D {kind} {motion}"),
            );
            assert!(
                auto.switches() >= 12,
                "{kind} {motion}: {} switches",
                auto.switches()
            );
        }
    }
    let frames = scene_frames::<Vec3>(SceneKind::Clustered, Motion::Fast, 600, 30);
    let mut auto = Auto::<Vec3, u64>::new();
    beside_brute(
        &mut auto,
        &frames,
        |f, auto| auto.switch_to(INNER[f % INNER.len()]).unwrap(),
        "3D clustered fast",
    );
}

/// A 2D scene of `n` boxes on a jittered lattice whose height shrinks from
/// `height_from` to `height_to` over the frames (uniform turning flat when
/// it shrinks, flat turning uniform when it grows), every box moving a
/// little each frame.
fn squashing_scene(
    n: usize,
    frames: usize,
    height_from: f32,
    height_to: f32,
) -> Vec<Vec<Record<Vec2>>> {
    let side = (n as f32).sqrt().ceil() as usize;
    (0..frames)
        .map(|f| {
            let t = f as f32 / (frames - 1) as f32;
            let height = height_from + (height_to - height_from) * t;
            (0..n)
                .map(|i| {
                    let (col, row) = ((i % side) as f32, (i / side) as f32);
                    let wobble = ((i * 7 + f * 3) % 11) as f32 * 0.05;
                    let x = col * 10.0 + wobble;
                    let y = row / side as f32 * height + wobble;
                    Record::Upsert {
                        id: i as u64,
                        aabb: Aabb::new(Vec2::new(x, y), Vec2::new(x + 12.0, y + 3.0)).unwrap(),
                    }
                })
                .collect()
        })
        .collect()
}

#[test]
fn a_scene_turning_flat_switches_from_grid_to_sweep_and_prune_and_back_losing_nothing() {
    let config = AutoConfig {
        review_every: 5,
        confirm: 2,
    };
    let mut auto = Auto::<Vec2, u64>::with_config(config).unwrap();
    let mut seen = Vec::new();
    let mut frames = squashing_scene(900, 60, 300.0, 1.0);
    frames.extend(squashing_scene(900, 60, 1.0, 300.0));
    beside_brute(
        &mut auto,
        &frames,
        |_, auto| {
            if seen.last().map(String::as_str) != Some(auto.current()) {
                seen.push(auto.current().to_string());
            }
        },
        "squashed and stretched",
    );
    assert_eq!(
        seen,
        ["brute", "grid", "sap1", "grid"],
        "the structures auto ran, in order"
    );
}

#[test]
fn hysteresis_waits_for_agreeing_reviews() {
    // A flat scene: the first review picks sap1 at once; a scene that then
    // turns uniform for a single review does not switch back.
    let config = AutoConfig {
        review_every: 1,
        confirm: 3,
    };
    let mut auto = Auto::<Vec2, u64>::with_config(config).unwrap();
    let flat = squashing_scene(400, 2, 1.0, 1.0);
    let uniform = squashing_scene(400, 2, 300.0, 300.0);
    let mut frames = vec![flat[0].clone(), flat[1].clone()];
    frames.push(uniform[0].clone()); // one review sees it uniform
    frames.extend(std::iter::repeat_n(flat[1].clone(), 3));
    let mut runs = Vec::new();
    beside_brute(
        &mut auto,
        &frames,
        |_, a| runs.push(a.current().to_string()),
        "flicker",
    );
    assert!(runs[1..].iter().all(|r| r == "sap1"), "{runs:?}");
    assert_eq!(auto.switches(), 1);
}

#[test]
fn the_decision_table() {
    let p = |objects, flatness, size_spread| SceneProfile {
        objects,
        flatness,
        size_spread,
    };
    assert_eq!(choose_structure(&p(10, 1.0, 1.0)), "brute");
    assert_eq!(choose_structure(&p(5_000, 1.0, 1.5)), "grid");
    assert_eq!(choose_structure(&p(5_000, 500.0, 1.5)), "sap1");
    assert_eq!(choose_structure(&p(5_000, 1.0, 40.0)), "hgrid");
    assert_eq!(choose_structure(&p(5_000, 500.0, 40.0)), "hgrid");
}

#[test]
fn bad_settings_and_names_are_errors() {
    let zero = AutoConfig {
        confirm: 0,
        ..AutoConfig::default()
    };
    assert!(Auto::<Vec2>::with_config(zero).is_err());
    let mut auto = Auto::<Vec2>::new();
    let h = auto
        .insert(Aabb::new(Vec2::ZERO, Vec2::ONE).unwrap(), ())
        .unwrap();
    assert!(auto.switch_to("octree-of-dreams").is_err());
    assert!(auto.switch_to("auto").is_err());
    // Still working, on what it ran before.
    assert_eq!(auto.current(), "brute");
    auto.remove(h).unwrap();
    assert!(auto.remove(h).is_err());
}
