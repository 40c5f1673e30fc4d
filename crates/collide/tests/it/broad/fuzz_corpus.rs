//! Replays the fuzz corpus (`fuzz/corpus/`, kept by `fuzz/run.sh`): every
//! input the fuzzer found interesting, through the same checks as its
//! targets. `broad_ops` inputs run on every structure, with its default
//! settings and configured, not only the one they pick; `world_ops`
//! inputs run on the structure they pick, on brute force and on the BVH.

use std::path::PathBuf;

fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read the corpus {}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).unwrap();
            (path, bytes)
        })
        .collect()
}

#[test]
fn the_trace_parser_handles_its_corpus() {
    let inputs = corpus("trace_parse");
    assert!(inputs.len() >= 20, "the trace_parse corpus is missing");
    for (path, bytes) in inputs {
        if let Err(problem) = crate::checks::trace::check(&bytes) {
            panic!("{}: {problem}", path.display());
        }
    }
}

#[test]
fn every_structure_matches_brute_force_on_the_operations_corpus() {
    let inputs = corpus("broad_ops");
    assert!(inputs.len() >= 20, "the broad_ops corpus is missing");
    for (path, bytes) in inputs {
        let settings = [
            crate::checks::ops::Settings::Default,
            crate::checks::ops::Settings::Configured,
        ];
        for (name, settings) in collide::Structure::ALL
            .into_iter()
            .flat_map(|name| settings.map(|s| (name, s)))
        {
            if let Err(difference) = crate::checks::ops::check_bytes(&bytes, Some((name, settings)))
            {
                panic!(
                    "{}: {difference}\n(replay it alone with: cargo +nightly fuzz run broad_ops {} in fuzz/)",
                    path.display(),
                    path.display()
                );
            }
        }
    }
}

#[test]
fn the_world_matches_brute_force_on_its_operations_corpus() {
    let inputs = corpus("world_ops");
    assert!(inputs.len() >= 20, "the world_ops corpus is missing");
    for (path, bytes) in inputs {
        for structure in [
            None,
            Some(collide::Structure::Brute),
            Some(collide::Structure::Bvh),
        ] {
            if let Err(difference) = crate::checks::world_ops::check_bytes(&bytes, structure) {
                panic!(
                    "{}: {difference}\n(replay it alone with: cargo +nightly fuzz run world_ops {} in fuzz/)",
                    path.display(),
                    path.display()
                );
            }
        }
    }
}
