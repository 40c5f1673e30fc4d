//! The `collide` command end to end: record, replay, errors, the demo and
//! the benchmark.

use collide::{Brute, Query, Structure, Vector};
use collide_scenes::{Motion, Runner, Scene, SceneConfig, SceneKind};

/// Every structure's name.
const NAMES: [&str; Structure::ALL.len()] = {
    let mut names = [""; Structure::ALL.len()];
    let mut k = 0;
    while k < names.len() {
        names[k] = Structure::ALL[k].name();
        k += 1;
    }
    names
};
use glam::{Vec2, Vec3};
use std::path::Path;
use std::process::{Command, Output};

fn collide(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_collide"))
        .args(args)
        .output()
        .expect("the collide binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The events of a scene from the library API, in `--events` format.
fn library_events<V: Vector>(config: SceneConfig, frames: usize) -> String {
    let mut scene = Scene::<V>::new(config);
    let mut world = Brute::<V, u64>::new();
    let mut runner = Runner::new();
    let (mut records, mut events, mut out) = (Vec::new(), Vec::new(), String::new());
    for frame in 0..frames {
        scene.next_frame(&mut records);
        runner.apply(&mut world, &records).unwrap();
        runner.step(&mut world, &mut events);
        for e in &events {
            let sign = if e.started { '+' } else { '-' };
            out.push_str(&format!("{frame} {sign} {} {}\n", e.a, e.b));
        }
    }
    out
}

#[test]
fn record_then_replay_gives_the_library_events() {
    let dir = tempfile::tempdir().unwrap();
    for (dim, kind, motion) in [
        ("2", SceneKind::Uniform, Motion::Churn),
        ("3", SceneKind::Clustered, Motion::Teleport),
        ("2", SceneKind::Large, Motion::Fast),
    ] {
        let trace = dir.path().join(format!("{kind}-{dim}.trace"));
        let events = dir.path().join(format!("{kind}-{dim}.events"));
        let out = collide(&[
            "record",
            kind.name(),
            "--n",
            "300",
            "--dim",
            dim,
            "--motion",
            motion.name(),
            "--frames",
            "25",
            "--seed",
            "9",
            "--out",
            trace.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let out = collide(&[
            "replay",
            trace.to_str().unwrap(),
            "--structure",
            "brute",
            "--events",
            events.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stdout).starts_with("replayed 25 frames through brute"));
        let config = SceneConfig {
            motion,
            seed: 9,
            ..SceneConfig::new(kind, 300)
        };
        let expected = match dim {
            "2" => library_events::<Vec2>(config, 25),
            _ => library_events::<Vec3>(config, 25),
        };
        let got = std::fs::read_to_string(&events).unwrap();
        assert!(!expected.is_empty());
        assert_eq!(got, expected, "{kind} {dim}D {motion}");
    }
}

#[test]
fn events_to_standard_output_and_ordering() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("t.trace");
    std::fs::write(
        &trace,
        "dim 2\nframe\nu 9 0 0 2 2\nu 3 1 1 3 3\nu 5 1.5 0 2.5 1\nframe\nr 9\nframe\n",
    )
    .unwrap();
    let out = collide(&["replay", trace.to_str().unwrap(), "--events", "-"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "0 + 3 9\n0 + 5 9\n1 - 3 9\n1 - 5 9\n",
        "3 and 5 only touch (y 1..3 against 0..1)"
    );
    assert!(
        text(&out.stderr).contains("replayed 3 frames"),
        "summary goes to stderr"
    );
}

#[test]
fn replay_all_compares_structures_and_prints_stats() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("t.trace");
    let out = collide(&[
        "record",
        "flat",
        "--n",
        "200",
        "--frames",
        "10",
        "-o",
        trace.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let out = collide(&["replay", trace.to_str().unwrap(), "--structure", "all"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for name in NAMES {
        assert!(stdout.contains(name), "{stdout}");
    }
    assert!(stdout.contains("agree on every event"), "{stdout}");
    let out = collide(&["replay", trace.to_str().unwrap(), "--stats"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let header = stdout.lines().next().unwrap();
    for column in [
        "frames",
        "peak objects",
        "started",
        "stopped",
        "pairs at end",
        "mean us/step",
        "p99 us/step",
    ] {
        assert!(header.contains(column), "{column} missing from\n{stdout}");
    }
    assert!(
        stdout.contains("one run per structure; means and p99 over its"),
        "{stdout}"
    );
    let row: Vec<&str> = stdout.lines().nth(2).unwrap().split_whitespace().collect();
    assert_eq!(
        &row[..3],
        &[Structure::DEFAULT.name(), "10", "200"],
        "structure, frames, peak objects: {stdout}"
    );
}

fn assert_input_error(args: &[&str], message: &str) {
    let out = collide(args);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{args:?}: {}",
        text(&out.stderr)
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(message),
        "{args:?}: `{stderr}` lacks `{message}`"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn malformed_traces_exit_with_status_2_and_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("frame\n", "line 1: `frame` comes before `dim`"),
        (
            "dim 2\nu 1 0 0 1 1\n",
            "line 2: `u` comes before the first `frame`",
        ),
        ("dim 2\nframe\nx\n", "line 3: unknown record `x`"),
        ("dim 2\nframe\nu 1 0 0 1\n", "line 3: `u` takes 5 fields"),
        (
            "dim 2\nframe\nu one 0 0 1 1\n",
            "line 3: field 1 `one` is not an object id",
        ),
        (
            "dim 2\nframe\nu 1 0 0 1 y\n",
            "line 3: field 5 `y` is not a number",
        ),
        (
            "dim 2\nframe\nu 1 0 0 inf 1\n",
            "line 3: invalid box for object 1",
        ),
        (
            "dim 2\nframe\nu 1 0 0 -1 1\n",
            "line 3: invalid box for object 1: box is inverted",
        ),
        ("dim 2\nframe\nr 1\n", "line 3: object 1 is not present"),
        (
            "dim 2\nframe\nu 1 0 0 1 1\nu 1 0 0 1 1\n",
            "line 4: object 1 is named twice in frame 0",
        ),
        ("", "line 1: the trace ends before its first record"),
    ];
    for (k, (content, message)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("bad{k}.trace"));
        std::fs::write(&path, content).unwrap();
        assert_input_error(&["replay", path.to_str().unwrap()], message);
        assert_input_error(
            &["replay", path.to_str().unwrap(), "--structure", "all"],
            message,
        );
    }
}

#[test]
fn missing_file_and_unknown_structure_are_clear_errors() {
    assert_input_error(
        &["replay", "/nonexistent/x.trace"],
        "cannot open trace `/nonexistent/x.trace`",
    );
    let dir = tempfile::tempdir().unwrap();
    assert_input_error(
        &["replay", dir.path().to_str().unwrap()],
        "is a directory, not a trace file",
    );
    let path = dir.path().join("ok.trace");
    std::fs::write(&path, "dim 2\nframe\n").unwrap();
    assert_input_error(
        &["replay", path.to_str().unwrap(), "--structure", "octopus"],
        "unknown structure `octopus`",
    );
    assert_input_error(&["record", "spiral"], "unknown scene `spiral`");
    assert_input_error(&["record", "flat", "--dim", "4"], "4");
    assert_input_error(
        &["record", "flat", "--motion", "warp"],
        "unknown motion `warp`",
    );
}

#[test]
fn demo_runs_at_a_small_size_and_writes_a_self_contained_report() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("nested/report.html");
    let out = collide(&[
        "demo",
        "--n",
        "150",
        "--frames",
        "8",
        "--out",
        report.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for scene in [
        "uniform 2D slow",
        "flat 2D slow",
        "clustered 2D slow",
        "large 2D slow",
        "uniform 2D fast",
        "uniform 2D teleport",
        "uniform 2D churn",
        "uniform 3D slow",
        "clustered 3D slow",
    ] {
        assert!(
            stdout.contains(&format!("== {scene} (world side")),
            "{scene}: {stdout}"
        );
    }
    assert!(stdout.contains("== cell size"), "{stdout}");
    let study = &stdout[stdout.find("== cell size").unwrap()..];
    let study = &study[..study.find("== sweep and prune").unwrap_or(study.len())];
    let factors: Vec<&str> = study
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<f64>().is_ok())
        })
        .filter_map(|l| l.split_whitespace().nth(1))
        .collect();
    assert_eq!(
        factors,
        ["0.125", "0.25", "0.5", "1", "2", "4", "8", "16"],
        "{study}"
    );
    assert_eq!(
        stdout.matches("pairs overlapping on x alone").count(),
        9,
        "{stdout}"
    );
    assert!(stdout.contains("centre variance x"), "{stdout}");
    // The reference experiment's figures beside ours.
    let sap = &stdout[stdout
        .find("== sweep and prune")
        .expect("the sweep-and-prune study")..];
    for measure in [
        "one-axis (x) candidates per frame",
        "true pairs per frame",
        "sweeping x (good) / y (bad)",
        "uniform slow: swaps per frame",
        "uniform fast: swaps per frame",
        "pair changes per frame, all axes",
        "spanning objects: candidates per frame, list / none",
    ] {
        assert!(sap.contains(measure), "{measure}: {sap}");
    }
    for column in [
        "candidates/frame",
        "true pairs",
        "maintenance/frame",
        "pair changes/frame",
        "us/step",
        "verified",
    ] {
        assert!(stdout.contains(column), "{column}: {stdout}");
    }
    let verified_rows = stdout
        .lines()
        .filter(|l| l.ends_with("every frame") && NAMES.iter().any(|n| l.starts_with(n)))
        .count();
    assert_eq!(verified_rows, 9 * NAMES.len(), "{stdout}");
    for name in NAMES {
        assert!(stdout.contains(name));
    }
    assert!(
        stdout.contains(&format!("report: {}", report.display())),
        "{stdout}"
    );
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(html.contains("<canvas") && html.contains("<svg") && html.contains("const SCENES"));
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no network needed"
    );
    assert!(Path::new(&report).is_file());
}

/// The answer of `collide query` computed with the library: brute force
/// over the scene's objects at `frame`, in the command's output format.
fn library_query<V: Vector>(
    config: SceneConfig,
    frame: usize,
    region: &dyn collide::geometry::Region<V>,
    ray: Option<&collide::geometry::Ray<V>>,
) -> String {
    use collide::BroadPhase;
    let mut scene = Scene::<V>::new(config);
    let mut world = Brute::<V, u64>::new();
    let mut runner = Runner::new();
    let (mut records, mut events) = (Vec::new(), Vec::new());
    for _ in 0..=frame {
        scene.next_frame(&mut records);
        runner.apply(&mut world, &records).unwrap();
        runner.step(&mut world, &mut events);
    }
    let mut out = String::new();
    if let Some(ray) = ray {
        let mut hits: Vec<(f32, u64)> = world
            .query_ray_all(ray)
            .iter()
            .map(|h| (h.t, *world.value(h.handle).unwrap()))
            .collect();
        hits.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (t, id) in hits {
            out.push_str(&format!("{id} {t}\n"));
        }
    } else {
        let (hits, _) = world.query_region_all(region, collide::QueryBudget::default());
        let mut ids: Vec<u64> = hits.iter().map(|h| *world.value(*h).unwrap()).collect();
        ids.sort_unstable();
        for id in ids {
            out.push_str(&format!("{id}\n"));
        }
    }
    out
}

#[test]
fn query_answers_like_the_library_on_every_structure() {
    use collide::geometry::{Frustum, Plane, Ray, SweptAabb};
    use collide::{Aabb2, Aabb3};
    let dir = tempfile::tempdir().unwrap();
    let config = SceneConfig {
        motion: Motion::Teleport,
        seed: 4,
        ..SceneConfig::new(SceneKind::Clustered, 300)
    };
    let (t2, t3) = (dir.path().join("q2.trace"), dir.path().join("q3.trace"));
    for (dim, path) in [("2", &t2), ("3", &t3)] {
        let out = collide(&[
            "record",
            "clustered",
            "--n",
            "300",
            "--dim",
            dim,
            "--motion",
            "teleport",
            "--frames",
            "6",
            "--seed",
            "4",
            "--out",
            path.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let frustum_file = dir.path().join("view.txt");
    std::fs::write(
        &frustum_file,
        "# x > 100 and x + y < 600\n-1 0 -100\n1 1 600\n",
    )
    .unwrap();
    let frustum = Frustum::new(&[
        Plane::new(Vec2::new(-1.0, 0.0), -100.0),
        Plane::new(Vec2::new(1.0, 1.0), 600.0),
    ])
    .unwrap();
    let ray2 = Ray::new(Vec2::new(0.0, 300.0), Vec2::new(1.0, 0.2), 500.0).unwrap();
    // The 3D ray starts at the centre of an object of frame 4 (so it hits).
    let mut scene = Scene::<Vec3>::new(config);
    scene.take_frames(5);
    let start = scene.objects().next().unwrap().1.center();
    let ray3 = Ray::new(start, Vec3::new(1.0, 0.1, 0.3), f32::INFINITY).unwrap();
    let (sx, sy, sz) = (
        start.x.to_string(),
        start.y.to_string(),
        start.z.to_string(),
    );
    let aabb = Aabb2::new(Vec2::new(100.0, 100.0), Vec2::new(250.0, 400.0)).unwrap();
    let swept = SweptAabb::new(
        Aabb3::new(Vec3::splat(50.0), Vec3::splat(60.0)).unwrap(),
        Vec3::new(200.0, 100.0, 0.0),
    )
    .unwrap();
    // The point is the centre of an object of frame 4 (so it hits).
    let mut scene2 = Scene::<Vec2>::new(config);
    scene2.take_frames(5);
    let centre = scene2.objects().next().unwrap().1.center();
    let point = Aabb2::from_point(centre).unwrap();
    let (cx, cy) = (centre.x.to_string(), centre.y.to_string());
    let p2 = t2.to_str().unwrap();
    let p3 = t3.to_str().unwrap();
    let f = frustum_file.to_str().unwrap();
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec![p2, "--ray", "0", "300", "1", "0.2", "--tmax", "500"],
            library_query::<Vec2>(config, 4, &ray2, Some(&ray2)),
        ),
        (
            vec![p3, "--ray", &sx, &sy, &sz, "1", "0.1", "0.3"],
            library_query::<Vec3>(config, 4, &ray3, Some(&ray3)),
        ),
        (
            vec![p2, "--aabb", "100", "100", "250", "400"],
            library_query::<Vec2>(config, 4, &aabb, None),
        ),
        (
            vec![
                p3, "--swept", "50", "50", "50", "60", "60", "60", "200", "100", "0",
            ],
            library_query::<Vec3>(config, 4, &swept, None),
        ),
        (
            vec![p2, "--frustum", f],
            library_query::<Vec2>(config, 4, &frustum, None),
        ),
        (
            vec![p2, "--point", &cx, &cy],
            library_query::<Vec2>(config, 4, &point, None),
        ),
    ];
    for (args, expected) in &cases {
        assert!(expected.lines().count() > 0, "{args:?} must hit something");
        for name in NAMES {
            let mut full = vec!["query", args[0], "--frame", "4", "--structure", name];
            full.extend_from_slice(&args[1..]);
            let out = collide(&full);
            assert!(out.status.success(), "{full:?}: {}", text(&out.stderr));
            assert_eq!(&text(&out.stdout), expected, "{full:?}");
        }
    }
    // Statistics, and a budget that cuts the query short says so.
    let out = collide(&[
        "query",
        p2,
        "--frame",
        "4",
        "--aabb",
        "0",
        "0",
        "1000",
        "1000",
        "--budget",
        "3",
        "--stats",
        "--structure",
        "bvh",
    ]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 4, "{stdout}");
    assert!(
        stdout.ends_with("tested 3 hits 3 truncated yes\n"),
        "{stdout}"
    );
    assert!(text(&out.stderr).contains("incomplete"));
}

#[test]
fn bad_query_arguments_exit_with_status_2_and_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("q.trace");
    let path = trace.to_str().unwrap();
    let out = collide(&[
        "record", "uniform", "--n", "50", "--frames", "3", "--out", path,
    ]);
    assert!(out.status.success());
    let frustum = |name: &str, body: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, body).unwrap();
        p.to_str().unwrap().to_string()
    };
    let inverted = frustum("inverted.txt", "1 0 10\n# near and far swapped\n-1 0 -20\n");
    let garbled = frustum("garbled.txt", "1 0 10\n1 zero 3\n");
    let short = frustum("short.txt", "1 10\n");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--frame", "3", "--point", "1", "2"],
            "past the trace's end",
        ),
        (
            vec!["--frame", "0", "--point", "1", "2", "3"],
            "takes 2 numbers",
        ),
        (
            vec!["--frame", "0", "--aabb", "5", "5", "1", "1"],
            "inverted on axis 0",
        ),
        (
            vec!["--frame", "0", "--ray", "0", "0", "nan", "1"],
            "finite",
        ),
        (
            vec!["--frame", "0", "--ray", "0", "0", "1", "1", "--tmax", "-1"],
            "0 or more",
        ),
        (
            vec!["--frame", "0", "--swept", "0", "0", "1", "1", "inf", "0"],
            "finite",
        ),
        (
            vec!["--frame", "0", "--frustum", &inverted],
            "inverted.txt:3",
        ),
        (vec!["--frame", "0", "--frustum", &garbled], "garbled.txt:2"),
        (vec!["--frame", "0", "--frustum", &short], "short.txt:1"),
        (
            vec!["--frame", "0", "--point", "1", "2", "-s", "octopus"],
            "unknown structure",
        ),
        (
            vec![
                "--frame", "0", "--point", "1", "2", "--aabb", "0", "0", "1", "1",
            ],
            "cannot be used",
        ),
        (vec!["--frame", "0"], "required"),
    ];
    for (args, message) in cases {
        let mut full = vec!["query", path];
        full.extend_from_slice(&args);
        assert_input_error(&full, message);
    }
}

#[test]
fn bench_times_a_subset_checks_it_and_writes_csv_and_charts() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, html) = (dir.path().join("runs.csv"), dir.path().join("bench.html"));
    let out = collide(&[
        "bench",
        "--dim",
        "2,3",
        "--scene",
        "uniform",
        "--motion",
        "fast",
        "--n",
        "300",
        "--frames",
        "6",
        "--only",
        "grid,sap,bvh",
        "--threads",
        "2",
        "--csv",
        csv.to_str().unwrap(),
        "--out",
        html.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("sap, grid, bvh, 2 thread(s)"), "{stdout}");
    assert!(
        stdout.contains(
            "each figure is one run per structure and scene, its mean and p99 over the 5 frames"
        ),
        "{stdout}"
    );
    for dim in [2, 3] {
        assert!(
            stdout.contains(&format!(
                "== {dim}D uniform fast, n = 300: events checked against `brute` on every frame =="
            )),
            "{stdout}"
        );
    }
    let csv = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("dim,scene,motion,n,frames,structure,reference,"));
    assert_eq!(lines.len(), 1 + 2 * 3, "{csv}");
    for name in ["grid", "sap", "bvh"] {
        let runs = lines
            .iter()
            .filter(|l| l.contains(&format!(",6,{name},brute,")))
            .count();
        assert_eq!(runs, 2, "{name} in {csv}");
    }
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<h1>collide bench</h1>"));
    assert_eq!(page.matches("<svg").count(), 3, "three charts");
    assert!(page.contains("2D uniform fast n=300") && page.contains("3D uniform fast n=300"));
}

#[test]
fn bench_refuses_an_unknown_structure_with_status_2() {
    let out = collide(&["bench", "--only", "grid,octopus", "--no-report"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("unknown structure `octopus` in --only"),
        "{stderr}"
    );
    assert!(stderr.contains("hashgrid"), "{stderr}");
}

#[test]
fn advise_ranks_every_structure_beside_autos_pick() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("flat.trace");
    let trace = trace.to_str().unwrap();
    let page = dir.path().join("charts").join("advise.html");
    let out = collide(&[
        "record", "flat", "--n", "400", "--frames", "12", "--dim", "2", "--out", trace,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = collide(&["advise", trace, "--out", page.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("agree on the events of every frame"),
        "{stdout}"
    );
    // Every structure ranked (brute force too, at 400 objects), with its
    // mean, p99 and memory.
    assert!(
        stdout.contains("p99 us/frame") && stdout.contains("peak heap MiB"),
        "{stdout}"
    );
    for name in NAMES {
        assert!(
            stdout.lines().any(|l| l.starts_with(&format!("{name} "))),
            "{name} missing:\n{stdout}"
        );
    }
    // The flat scene's profile, and the table's pick.
    assert!(stdout.contains("auto's table picks"), "{stdout}");
    assert!(stdout.contains("coherence"), "{stdout}");
    assert!(
        stdout.lines().filter(|l| l.ends_with("sap1")).count() >= 1,
        "{stdout}"
    );
    // The paragraph of advice, in words.
    assert!(
        stdout.contains("This game has 400 objects in 2D"),
        "{stdout}"
    );
    assert!(stdout.contains("thin band"), "{stdout}");
    assert!(stdout.contains("Use `"), "{stdout}");
    assert!(stdout.contains("auto's decision table"), "{stdout}");
    // The charts, in the page named.
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("<svg") && html.contains("Peak heap"),
        "{html}"
    );
    assert!(html.contains("frame by frame"), "{html}");
}

#[test]
fn advise_on_a_bad_trace_exits_with_status_2() {
    assert_input_error(&["advise", "/nonexistent/game.trace"], "cannot open trace");
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.trace");
    std::fs::write(&empty, "dim 2\n").unwrap();
    assert_input_error(
        &["advise", empty.to_str().unwrap()],
        "the trace has no frames",
    );
    // One frame only builds: nothing to time, so no "NaN times".
    let one = dir.path().join("one.trace");
    std::fs::write(&one, "dim 2\nframe\nu 1 0 0 1 1\n").unwrap();
    assert_input_error(
        &["advise", one.to_str().unwrap()],
        "record at least two to compare their frame times",
    );
}

#[test]
fn an_events_file_that_cannot_be_written_is_named_with_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("t.trace");
    std::fs::write(&trace, "dim 2\nframe\nu 1 0 0 1 1\n").unwrap();
    let target = dir.path().join("no such folder").join("events.txt");
    let target = target.to_str().unwrap();
    assert_input_error(
        &["replay", trace.to_str().unwrap(), "--events", target],
        &format!("cannot write the events to `{target}`"),
    );
}

#[test]
fn replaying_through_auto_says_what_it_ran_from_which_step_and_why() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("flat.trace");
    let out = collide(&[
        "record",
        "flat",
        "--n",
        "500",
        "--frames",
        "5",
        "-o",
        trace.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = collide(&["replay", trace.to_str().unwrap(), "--structure", "auto"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("auto ran:"), "{stdout}");
    assert!(
        stdout.contains("sap1 from step 0: a flat scene"),
        "a flat scene of 500 objects sweeps from the first step:\n{stdout}"
    );
    assert!(
        stdout.contains("0 switches after the first pick, 0 rebuilds"),
        "{stdout}"
    );
}
