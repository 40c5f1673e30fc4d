//! The trace format: every error case names its line, and what is written
//! reads back exactly.

use collide_scenes::trace::{AnyTrace, TraceErrorKind, TraceWriter, parse, parse_str};
use collide_scenes::{Motion, Record, Scene, SceneConfig, SceneKind};
use glam::{Vec2, Vec3};

/// Parses `text`, expects an error, and returns (line, message).
fn error_of(text: &str) -> (Option<usize>, TraceErrorKind, String) {
    let e = parse_str(text).expect_err("the trace should be refused");
    (e.line, e.kind.clone(), e.to_string())
}

#[test]
fn every_error_names_its_line() {
    let cases: &[(&str, usize, &str)] = &[
        ("frame\n", 1, "`frame` comes before `dim`"),
        ("# c\n\nu 1 0 0 1 1\n", 3, "`u` comes before `dim`"),
        ("dim 4\n", 1, "`dim 4` is not supported"),
        (
            "dim\n",
            1,
            "`dim` takes 1 fields after the record name, found 0",
        ),
        ("dim 2\ndim 2\n", 2, "`dim` is given twice"),
        (
            "dim 2\nu 1 0 0 1 1\n",
            2,
            "`u` comes before the first `frame`",
        ),
        ("dim 2\nr 1\n", 2, "`r` comes before the first `frame`"),
        ("dim 2\nframe\nmove 1 0 0 1 1\n", 3, "unknown record `move`"),
        ("dim 2\nframe\nframe 3\n", 3, "`frame` takes 0 fields"),
        (
            "dim 2\nframe\nu 1 0 0 1\n",
            3,
            "`u` takes 5 fields after the record name, found 4",
        ),
        (
            "dim 3\nframe\nu 1 0 0 1 1\n",
            3,
            "`u` takes 7 fields after the record name, found 5",
        ),
        (
            "dim 2\nframe\nr\n",
            3,
            "`r` takes 1 fields after the record name, found 0",
        ),
        (
            "dim 2\nframe\nu x 0 0 1 1\n",
            3,
            "field 1 `x` is not an object id",
        ),
        (
            "dim 2\nframe\nu -1 0 0 1 1\n",
            3,
            "field 1 `-1` is not an object id",
        ),
        (
            "dim 2\nframe\nu 18446744073709551616 0 0 1 1\n",
            3,
            "is not an object id",
        ),
        (
            "dim 2\nframe\nu 1 0 zero 1 1\n",
            3,
            "field 3 `zero` is not a number",
        ),
        (
            "dim 2\nframe\nu 1 0 0 NaN 1\n",
            3,
            "invalid box for object 1: box max coordinate on axis 0 is NaN",
        ),
        (
            "dim 2\nframe\nu 1 0 -inf 1 1\n",
            3,
            "box min coordinate on axis 1 is -inf",
        ),
        (
            "dim 2\nframe\nu 1 0 0 1 1e39\n",
            3,
            "is inf, not a finite number",
        ),
        (
            "dim 2\nframe\nu 1 2 0 1 1\n",
            3,
            "box is inverted on axis 0: min 2 > max 1",
        ),
        (
            "dim 2\nframe\nr 5\n",
            3,
            "object 5 is not present, so it cannot be removed",
        ),
        (
            "dim 2\nframe\nu 5 0 0 1 1\nframe\nr 5\nr 5\n",
            6,
            "object 5 is named twice in frame 1",
        ),
        (
            "dim 2\nframe\nu 5 0 0 1 1\nu 5 0 0 2 2\n",
            4,
            "object 5 is named twice in frame 0",
        ),
        (
            "dim 2\nframe\nu 5 0 0 1 1\nframe\nr 5\nframe\nr 5\n",
            7,
            "object 5 is not present",
        ),
    ];
    for (text, line, message) in cases {
        let (got_line, _, got) = error_of(text);
        assert_eq!(got_line, Some(*line), "{text:?} gave {got}");
        assert!(
            got.starts_with(&format!("line {line}: ")),
            "{text:?} gave {got}"
        );
        assert!(
            got.contains(message),
            "{text:?} gave `{got}`, expected `{message}`"
        );
    }
}

#[test]
fn empty_and_comment_only_traces_are_refused() {
    for (text, line) in [("", 1), ("\n\n", 3), ("# only a comment\n", 2)] {
        let (got, kind, message) = error_of(text);
        assert_eq!((got, kind), (Some(line), TraceErrorKind::Empty));
        assert!(message.starts_with(&format!("line {line}: the trace ends before")));
        assert!(message.contains("`dim 2` or `dim 3`"));
    }
}

#[test]
fn unreadable_input_is_an_error_not_a_panic() {
    let bytes: &[u8] = b"dim 2\nframe\nu 1 0 0 1 1\n\xff\xfe\n";
    let e = parse(bytes).unwrap_err();
    assert_eq!(e.line, Some(4));
    assert!(matches!(e.kind, TraceErrorKind::Io(_)));
}

#[test]
fn comments_blank_lines_and_spacing_are_accepted() {
    let text = "# header\n\n dim 3 \nframe\n\t# inside\nu 1 0 0 0 1 1 1\n\nframe\nframe\nu 1 -1 -1 -1 0 0 0\nr 1\n";
    // `u 1` then `r 1` in one frame names the id twice.
    let e = parse_str(text).unwrap_err();
    assert_eq!(e.line, Some(11));
    assert_eq!(e.kind, TraceErrorKind::IdTwice { id: 1, frame: 2 });
    let text = "# header\n\n dim 3 \nframe\n\t# inside\nu 1 0 0 0 1 1 1\n\nframe\nframe\nu 1 -1 -1 -1 0 0 0\nframe\nr 1\n";
    let AnyTrace::D3(trace) = parse_str(text).unwrap() else {
        panic!("dim 3 gives a 3D trace")
    };
    assert_eq!(trace.frames.len(), 4);
    assert_eq!(trace.frames[1].len(), 0);
}

/// Writes `frames` as a trace text.
fn write<V: collide::Vector>(frames: &[Vec<Record<V>>]) -> Vec<u8> {
    let mut w = TraceWriter::new(Vec::new(), V::DIM).unwrap();
    for f in frames {
        w.frame(f).unwrap();
    }
    w.finish().unwrap()
}

#[test]
fn written_scenes_read_back_exactly() {
    for kind in SceneKind::ALL {
        let config = SceneConfig {
            motion: Motion::Churn,
            ..SceneConfig::new(kind, 120)
        };
        let frames2 = Scene::<Vec2>::new(config).take_frames(6);
        let AnyTrace::D2(back) = parse(&write(&frames2)[..]).unwrap() else {
            panic!("dim 2 gives a 2D trace")
        };
        assert_eq!(back.frames, frames2, "{kind}");

        let frames3 = Scene::<Vec3>::new(config).take_frames(4);
        let AnyTrace::D3(back) = parse(&write(&frames3)[..]).unwrap() else {
            panic!("dim 3 gives a 3D trace")
        };
        assert_eq!(back.frames, frames3, "{kind}");
    }
}

#[test]
fn extreme_coordinates_round_trip() {
    let frames = collide_scenes::lattice_scene::<Vec2>(3, 10, -3.0e37, 1.0e37);
    let AnyTrace::D2(back) = parse(&write(&frames)[..]).unwrap() else {
        panic!("dim 2 gives a 2D trace")
    };
    assert_eq!(back.frames, frames);
}

#[test]
fn the_writer_refuses_a_wrong_dimension() {
    assert!(TraceWriter::new(Vec::new(), 4).is_err());
    let mut w = TraceWriter::new(Vec::new(), 2).unwrap();
    let frames = Scene::<Vec3>::new(SceneConfig::new(SceneKind::Uniform, 5)).take_frames(1);
    let err = w.frame(&frames[0]).unwrap_err();
    assert!(
        err.to_string()
            .contains("3D records cannot go into a dim 2 trace")
    );
}
