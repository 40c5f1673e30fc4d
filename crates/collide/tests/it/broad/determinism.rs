//! Determinism: a hash of the event stream of each shared scene, the same on
//! every run, on every structure, whatever runs beside it on other threads
//! and whatever the size of the thread pool a step runs in.

use collide::{Structure, Vector};
use collide_scenes::{Motion, Runner, Scene, SceneConfig, SceneKind};
use glam::{Vec2, Vec3};

/// FNV-1a over the event stream (frame, a, b, started) of `structure`.
fn event_hash<V: Vector>(structure: Structure, config: SceneConfig, frames: usize) -> u64 {
    event_hash_on::<V>(structure, config, frames, None)
}

/// [`event_hash`], every frame applied (in batches) and stepped inside a
/// rayon pool of `threads` threads when given.
fn event_hash_on<V: Vector>(
    structure: Structure,
    config: SceneConfig,
    frames: usize,
    threads: Option<usize>,
) -> u64 {
    let pool = threads.map(|n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    });
    let mut world = structure.build::<V, u64>();
    let mut scene = Scene::<V>::new(config);
    let mut runner = if threads.is_some() {
        Runner::batching()
    } else {
        Runner::new()
    };
    let (mut records, mut events) = (Vec::new(), Vec::new());
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |x: u64| {
        for byte in x.to_le_bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01B3);
        }
    };
    for frame in 0..frames {
        scene.next_frame(&mut records);
        let mut frame_work = || {
            runner.apply(&mut world, &records).unwrap();
            runner.step(&mut world, &mut events);
        };
        match &pool {
            Some(pool) => pool.install(frame_work),
            None => frame_work(),
        }
        for e in &events {
            eat(frame as u64);
            eat(e.a);
            eat(e.b);
            eat(u64::from(e.started));
        }
    }
    hash
}

fn all_hashes(structure: Structure) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    for kind in SceneKind::ALL {
        for motion in Motion::ALL {
            let config = SceneConfig {
                motion,
                seed: 2026,
                ..SceneConfig::new(kind, 400)
            };
            out.push((
                format!("2D {kind} {motion}"),
                event_hash::<Vec2>(structure, config, 30),
            ));
            out.push((
                format!("3D {kind} {motion}"),
                event_hash::<Vec3>(structure, config, 30),
            ));
        }
    }
    out
}

/// The expected hashes, from brute force (40 streams: 4 scenes, 5 motions,
/// 2D and 3D). A change to the scenes, the
/// generator or the event order changes them. (Scene motion uses `sin`,
/// `cos` and `ln`, so a platform whose libm rounds differently could differ
/// too; CI runs on the same machine kind as development.)
const EXPECTED: &[(&str, u64)] = &[
    ("2D uniform slow", 0x402f5e60b66e738e),
    ("3D uniform slow", 0xd96c91683c71d16d),
    ("2D uniform fast", 0x528cbcda92966182),
    ("3D uniform fast", 0xc7de0d75e62f9a7a),
    ("2D uniform teleport", 0x0c395a1e97ec7917),
    ("3D uniform teleport", 0xf2bacaa5136f3ac7),
    ("2D uniform churn", 0x4e8629e63fda5b8b),
    ("3D uniform churn", 0xd3572ed795cd212d),
    ("2D uniform resting", 0x16d5620b561bba96),
    ("3D uniform resting", 0xd6e4bf373a4b10e8),
    ("2D flat slow", 0x97e5c904bbeb425b),
    ("3D flat slow", 0x1c016e8d9d58c40d),
    ("2D flat fast", 0xb59cdb6128411c66),
    ("3D flat fast", 0xffc408e34f1835db),
    ("2D flat teleport", 0x5a8dbe8447858629),
    ("3D flat teleport", 0xd890d4ef06ca675d),
    ("2D flat churn", 0xf211b0edfabcde28),
    ("3D flat churn", 0xbaa80bae71ed69fe),
    ("2D flat resting", 0xdf743849a80b91aa),
    ("3D flat resting", 0x64965a4bc91320ce),
    ("2D clustered slow", 0xb3723be5147e5b3b),
    ("3D clustered slow", 0xa597882824f7f982),
    ("2D clustered fast", 0x6cd4784a980abd25),
    ("3D clustered fast", 0xab659aacbd490581),
    ("2D clustered teleport", 0x983479fcdac0c824),
    ("3D clustered teleport", 0xef6854b7499585d1),
    ("2D clustered churn", 0x99722de37d718b81),
    ("3D clustered churn", 0xbeb0ad771288813b),
    ("2D clustered resting", 0xe942300a46ac9eba),
    ("3D clustered resting", 0xfc46a103c9d4dd7b),
    ("2D large slow", 0x03cf622c2bf26f6c),
    ("3D large slow", 0x681f9797bfb5f9e1),
    ("2D large fast", 0xf0f543c8a065dd75),
    ("3D large fast", 0xf4e74879e1267189),
    ("2D large teleport", 0x7dfc82e02063eebf),
    ("3D large teleport", 0x717f8a64ce991add),
    ("2D large churn", 0x2c34fff3d9038169),
    ("3D large churn", 0x0050d1c5d05d5c74),
    ("2D large resting", 0x5d4f20c4f9adba6e),
    ("3D large resting", 0xe11004560b11991b),
    ("2D elongated slow", 0xb0036088d6e91af0),
    ("3D elongated slow", 0x1e0cd78dd51e41e2),
    ("2D elongated fast", 0x0b7d3e53dee00fd8),
    ("3D elongated fast", 0xd3082c6b178d4947),
    ("2D elongated teleport", 0xeb6ebe9ee61a5596),
    ("3D elongated teleport", 0x3e16bcd95257c752),
    ("2D elongated churn", 0xe282e92d1e153336),
    ("3D elongated churn", 0x994841fc31849566),
    ("2D elongated resting", 0x158d91469df52a7e),
    ("3D elongated resting", 0x6b3e37650fc517b3),
    ("2D huge slow", 0x6f503473481887fa),
    ("3D huge slow", 0xcbf29ce484222325),
    ("2D huge fast", 0xfb86fa0494e83a0a),
    ("3D huge fast", 0xcbf29ce484222325),
    ("2D huge teleport", 0xddc9d5b9e9260a4c),
    ("3D huge teleport", 0xcbf29ce484222325),
    ("2D huge churn", 0xd97ce772e533e1de),
    ("3D huge churn", 0xcbf29ce484222325),
    ("2D huge resting", 0x8e0e8f22493e24d8),
    ("3D huge resting", 0xcbf29ce484222325),
    ("2D sparse slow", 0x717d98f7c7502361),
    ("3D sparse slow", 0x1a53f382dad5b251),
    ("2D sparse fast", 0xaa92b7025d65fd75),
    ("3D sparse fast", 0x6c9711fafb45a82b),
    ("2D sparse teleport", 0x5915f38994c2c4f9),
    ("3D sparse teleport", 0xc7f235eb895d2834),
    ("2D sparse churn", 0xdfbb3e88df6849a4),
    ("3D sparse churn", 0x5569ff8976cff578),
    ("2D sparse resting", 0xdffe55a56e2b3e6c),
    ("3D sparse resting", 0x990dce6b03c8fdc5),
];

#[test]
fn event_streams_match_the_recorded_hashes() {
    let got = all_hashes(Structure::Brute);
    let table: String = got
        .iter()
        .map(|(name, hash)| format!("    (\"{name}\", 0x{hash:016x}),\n"))
        .collect();
    let expected: Vec<(String, u64)> = EXPECTED.iter().map(|(n, h)| (n.to_string(), *h)).collect();
    assert!(
        got == expected,
        "the event streams of the shared scenes changed.\n\
         If the change is intended (a new scene generator, a new event order), \
         replace EXPECTED in crates/collide/tests/it/broad/determinism.rs with:\n{table}\
         and say why in the commit message. If it is not intended, a structure, \
         the runner or the scene generator has become nondeterministic."
    );
}

#[test]
fn every_structure_gives_brute_forces_stream_whatever_runs_beside_it() {
    let reference = all_hashes(Structure::Brute);
    std::thread::scope(|s| {
        let runs: Vec<_> = Structure::ALL
            .into_iter()
            .flat_map(|name| [name, name])
            .map(|name| s.spawn(move || (name, all_hashes(name))))
            .collect();
        for run in runs {
            let (name, hashes) = run.join().unwrap();
            assert_eq!(hashes, reference, "{name} differs from brute force");
        }
    });
}

/// The shared scenes at this many objects: above every structure's
/// threshold for splitting a step or a batch across threads.
const LARGE_N: usize = 25_000;

/// The large scenes, a motion each, 2D and 3D.
fn large_scenes() -> Vec<(String, usize, SceneConfig)> {
    let mut out = Vec::new();
    for (kind, motion) in [
        (SceneKind::Uniform, Motion::Slow),
        (SceneKind::Flat, Motion::Fast),
        (SceneKind::Clustered, Motion::Churn),
        (SceneKind::Large, Motion::Teleport),
    ] {
        for dim in [2, 3] {
            let config = SceneConfig {
                motion,
                seed: 2026,
                ..SceneConfig::new(kind, LARGE_N)
            };
            out.push((format!("{dim}D {kind} {motion}"), dim, config));
        }
    }
    out
}

fn large_hash(structure: Structure, dim: usize, config: SceneConfig, threads: usize) -> u64 {
    let frames = 4;
    match dim {
        2 => event_hash_on::<Vec2>(structure, config, frames, Some(threads)),
        _ => event_hash_on::<Vec3>(structure, config, frames, Some(threads)),
    }
}

/// The expected hashes of the large scenes (4 frames at 25,000 objects),
/// from `hashgrid` on one thread.
const EXPECTED_LARGE: &[(&str, u64)] = &[
    ("2D uniform slow", 0x02965f2c66e4b090),
    ("3D uniform slow", 0x307f8f406e55980e),
    ("2D flat fast", 0x019cb2c6d4a63df9),
    ("3D flat fast", 0xa1a5747673724e7e),
    ("2D clustered churn", 0x2000219ac4b221b8),
    ("3D clustered churn", 0xfa1a35cff99d95ca),
    ("2D large teleport", 0x801823d426927f91),
    ("3D large teleport", 0xea1a98519c3c1ee7),
];

#[test]
fn large_scenes_hash_the_same_on_every_structure_and_thread_count() {
    let scenes = large_scenes();
    let got: Vec<(String, u64)> = scenes
        .iter()
        .map(|(name, dim, config)| {
            (
                name.clone(),
                large_hash(Structure::HashGrid, *dim, *config, 1),
            )
        })
        .collect();
    let table: String = got
        .iter()
        .map(|(name, hash)| format!("    (\"{name}\", 0x{hash:016x}),\n"))
        .collect();
    let expected: Vec<(String, u64)> = EXPECTED_LARGE
        .iter()
        .map(|(n, h)| (n.to_string(), *h))
        .collect();
    assert!(
        got == expected,
        "the event streams of the large shared scenes changed.\n\
         If the change is intended (a new scene generator, a new event order), \
         replace EXPECTED_LARGE in crates/collide/tests/it/broad/determinism.rs with:\n{table}\
         and say why in the commit message. If it is not intended, a structure, \
         the runner or the scene generator has become nondeterministic."
    );
    // Every structure but brute force (quadratic at this size), on one,
    // two and three threads (hashgrid's one-thread run is the above).
    for name in Structure::ALL
        .into_iter()
        .filter(|&n| n != Structure::Brute)
    {
        for ((scene, dim, config), (_, want)) in scenes.iter().zip(&got) {
            let first = if name == Structure::HashGrid { 2 } else { 1 };
            for threads in first..=3 {
                assert_eq!(
                    large_hash(name, *dim, *config, threads),
                    *want,
                    "{name} on {threads} thread(s), {scene}: the event stream differs from \
                     hashgrid's on one thread"
                );
            }
        }
    }
}
