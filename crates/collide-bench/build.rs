//! Reads the peers' resolved versions from Cargo.lock so that the report
//! names exactly what was measured (the versions this crate depends on
//! directly, not those of the peers' own dependencies).

use std::collections::HashMap;
use std::fs;

const PEERS: &[&str] = &[
    "flat_spatial",
    "broccoli",
    "rstar",
    "bvh",
    "parry2d",
    "parry3d",
    "rapier2d",
    "rapier3d",
];

fn main() {
    println!("cargo:rerun-if-changed=Cargo.lock");
    let lock = fs::read_to_string("Cargo.lock").unwrap_or_default();
    // name -> every locked version, and our own dependency list.
    let mut versions: HashMap<String, Vec<String>> = HashMap::new();
    let mut ours: Vec<String> = Vec::new();
    for block in lock.split("[[package]]").skip(1) {
        let field = |key: &str| {
            block.lines().find_map(|l| {
                l.strip_prefix(key)
                    .and_then(|r| r.strip_prefix(" = "))
                    .map(|v| v.trim_matches('"').to_string())
            })
        };
        let (Some(name), Some(version)) = (field("name"), field("version")) else {
            continue;
        };
        if name == env!("CARGO_PKG_NAME") {
            if let Some(deps) = block.split("dependencies = [").nth(1) {
                let deps = deps.split(']').next().unwrap_or_default();
                ours = deps
                    .split(',')
                    .map(|d| d.trim().trim_matches('"').to_string())
                    .filter(|d| !d.is_empty())
                    .collect();
            }
        }
        versions.entry(name).or_default().push(version);
    }
    let mut found = Vec::new();
    for peer in PEERS {
        // A dependency entry is "name" when one version is locked, else
        // "name version".
        let version = ours.iter().find_map(|d| match d.split_once(' ') {
            Some((n, v)) if n == *peer => Some(v.to_string()),
            None if d == peer => versions.get(*peer).and_then(|v| v.first().cloned()),
            _ => None,
        });
        if let Some(v) = version {
            found.push(format!("{peer} {v}"));
        }
    }
    let text = if found.is_empty() {
        "unknown (no Cargo.lock at build time)".to_string()
    } else {
        found.join(", ")
    };
    println!("cargo:rustc-env=COLLIDE_BENCH_PEER_VERSIONS={text}");
}
