//! Property tests: every structure against brute force on random operation
//! sequences (shrunk to a minimal failing sequence by proptest, see
//! `tests/it/checks/ops.rs`), the overlap rule's symmetry and translation
//! invariance, and no panic on arbitrary trace text.
//!
//! A failure prints the minimal sequence; proptest also records its seed
//! in `properties.proptest-regressions` (replayed first on every run).
//! Once fixed, keep the sequence as a named test in `broad/regressions.rs`.

use crate::checks::ops;

use collide::{Aabb2, Aabb3, Structure};
use collide_scenes::trace::parse_str;
use glam::{Vec2, Vec3};
use proptest::prelude::*;

fn lattice_box2() -> impl Strategy<Value = Aabb2> {
    (-8i32..8, -8i32..8, 0i32..4, 0i32..4).prop_map(|(x, y, w, h)| {
        Aabb2::new(
            Vec2::new(x as f32, y as f32),
            Vec2::new((x + w) as f32, (y + h) as f32),
        )
        .unwrap()
    })
}

fn any_box3() -> impl Strategy<Value = Aabb3> {
    (
        prop::array::uniform3(-1.0e6f32..1.0e6),
        prop::array::uniform3(0.0f32..100.0),
    )
        .prop_map(|(min, size)| {
            let min = Vec3::from(min);
            Aabb3::new(min, min + Vec3::from(size)).unwrap()
        })
}

fn corner() -> impl Strategy<Value = [i8; 3]> {
    prop::array::uniform3(-8i8..8)
}

fn size() -> impl Strategy<Value = [u8; 3]> {
    prop::array::uniform3(0u8..4)
}

/// Operation sequences: mostly inserts, moves and steps, with removes,
/// teleports, bad handles, batches and queries among them.
fn op_sequence() -> impl Strategy<Value = Vec<ops::Op>> {
    use ops::Op;
    let op = prop_oneof![
        6 => (corner(), size()).prop_map(|(at, size)| Op::Insert { at, size }),
        1 => (1u8..12, corner(), size()).prop_map(|(count, at, size)| Op::MassInsert { count, at, size }),
        8 => (any::<u8>(), corner(), size()).prop_map(|(slot, at, size)| Op::Update { slot, at, size }),
        1 => (any::<u8>(), any::<u8>()).prop_map(|(slot, far)| Op::Teleport { slot, far }),
        2 => any::<u8>().prop_map(|slot| Op::Remove { slot }),
        1 => (any::<u8>(), any::<bool>()).prop_map(|(slot, move_it)| Op::Stale { slot, move_it }),
        1 => any::<bool>().prop_map(|move_it| Op::Foreign { move_it }),
        1 => (any::<u8>(), 0u8..24, corner(), 0u8..40, prop::bool::weighted(0.2))
            .prop_map(|(slot, count, shift, stale_at, short)| Op::Batch { slot, count, shift, stale_at, short }),
        4 => Just(Op::Step),
        1 => (corner(), size()).prop_map(|(at, size)| Op::QueryBox { at, size }),
        1 => corner().prop_map(|at| Op::QueryPoint { at }),
        1 => (corner(), corner(), any::<u8>())
            .prop_map(|(from, direction, max_t)| Op::QueryRay { from, direction, max_t }),
        1 => (corner(), size()).prop_map(|(at, size)| Op::Snapshot { at, size }),
    ];
    prop::collection::vec(op, 1..120)
}

/// Sequences per structure and dimension: 200, or `PROPTEST_CASES` for a
/// longer search (`PROPTEST_CASES=20000 cargo test -p collide --test it
/// broad::properties`).
fn sequences_per_test() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(200)
}

/// One property test per structure, dimension and settings (the defaults,
/// or every setting away from its default: `ops::build`): random
/// sequences on every placement of the lattice (small, negative and huge
/// coordinates).
macro_rules! matches_brute_force {
    ($($test:ident: $structure:ident, $v:ty, $settings:ident;)*) => {
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(sequences_per_test()))]
            $(
                #[test]
                fn $test(placement in 0..ops::PLACEMENTS.len(), sequence in op_sequence()) {
                    let (structure, settings) = (Structure::$structure, ops::Settings::$settings);
                    if let Err(e) = ops::check_with::<$v>(structure, settings, placement, &sequence) {
                        prop_assert!(false, "{}", e);
                    }
                }
            )*
        }

        /// Every (structure, dimension, settings) above.
        const COVERED: &[(Structure, usize, ops::Settings)] = &[
            $((Structure::$structure, <$v as collide::Vector>::DIM, ops::Settings::$settings),)*
        ];
    };
}

matches_brute_force! {
    sap_2d: Sap, Vec2, Default;
    sap_3d: Sap, Vec3, Default;
    sap1_2d: Sap1, Vec2, Default;
    sap1_3d: Sap1, Vec3, Default;
    grid_2d: Grid, Vec2, Default;
    grid_3d: Grid, Vec3, Default;
    hashgrid_2d: HashGrid, Vec2, Default;
    hashgrid_3d: HashGrid, Vec3, Default;
    hgrid_2d: HGrid, Vec2, Default;
    hgrid_3d: HGrid, Vec3, Default;
    tree_2d: Tree, Vec2, Default;
    tree_3d: Tree, Vec3, Default;
    loose_2d: Loose, Vec2, Default;
    loose_3d: Loose, Vec3, Default;
    bvh_2d: Bvh, Vec2, Default;
    bvh_3d: Bvh, Vec3, Default;
    auto_2d: Auto, Vec2, Default;
    auto_3d: Auto, Vec3, Default;
    sap_2d_configured: Sap, Vec2, Configured;
    sap_3d_configured: Sap, Vec3, Configured;
    sap1_2d_configured: Sap1, Vec2, Configured;
    sap1_3d_configured: Sap1, Vec3, Configured;
    grid_2d_configured: Grid, Vec2, Configured;
    grid_3d_configured: Grid, Vec3, Configured;
    hashgrid_2d_configured: HashGrid, Vec2, Configured;
    hashgrid_3d_configured: HashGrid, Vec3, Configured;
    hgrid_2d_configured: HGrid, Vec2, Configured;
    hgrid_3d_configured: HGrid, Vec3, Configured;
    tree_2d_configured: Tree, Vec2, Configured;
    tree_3d_configured: Tree, Vec3, Configured;
    loose_2d_configured: Loose, Vec2, Configured;
    loose_3d_configured: Loose, Vec3, Configured;
    auto_2d_configured: Auto, Vec2, Configured;
    auto_3d_configured: Auto, Vec3, Configured;
}

#[test]
fn the_property_tests_cover_every_structure() {
    // A structure added to `Structure` needs its lines above: both
    // dimensions with its defaults, and configured where it has settings.
    for structure in Structure::ALL {
        let (tested, settings) = match structure {
            Structure::Brute => (false, false), // the reference itself
            Structure::Bvh => (true, false),
            Structure::Sap
            | Structure::Sap1
            | Structure::Grid
            | Structure::HashGrid
            | Structure::HGrid
            | Structure::Tree
            | Structure::Loose
            | Structure::Auto => (true, true),
        };
        for dim in [2, 3] {
            let has = |s| COVERED.contains(&(structure, dim, s));
            assert_eq!(has(ops::Settings::Default), tested, "{structure} {dim}D");
            assert_eq!(
                has(ops::Settings::Configured),
                settings,
                "{structure} {dim}D configured"
            );
        }
    }
}

proptest! {
    #[test]
    fn overlap_is_symmetric(a in lattice_box2(), b in lattice_box2(), c in any_box3(), d in any_box3()) {
        prop_assert_eq!(a.overlaps(&b), b.overlaps(&a));
        prop_assert_eq!(c.overlaps(&d), d.overlaps(&c));
    }

    #[test]
    fn overlap_is_invariant_under_exact_translation(
        a in lattice_box2(), b in lattice_box2(), dx in -1000i32..1000, dy in -1000i32..1000
    ) {
        // Integer offsets on an integer lattice are exact in f32.
        let offset = Vec2::new(dx as f32 * 64.0, dy as f32 * 64.0);
        let (ta, tb) = (a.translated(offset).unwrap(), b.translated(offset).unwrap());
        prop_assert_eq!(a.overlaps(&b), ta.overlaps(&tb));
    }

    #[test]
    fn overlap_means_no_separating_axis(a in lattice_box2(), b in lattice_box2()) {
        // The overlap rule stated as its negation: boxes are apart iff on
        // some axis one ends at or before the other starts.
        let separated = (0..2).any(|i| b.max()[i] <= a.min()[i] || a.max()[i] <= b.min()[i]);
        prop_assert_eq!(a.overlaps(&b), !separated);
        prop_assert!(a.union(&b).contains(&a) && a.union(&b).contains(&b));
    }

    #[test]
    fn parsing_never_panics(text in "(dim [0-9]\n|frame\n|[ur] [-0-9a-z.e]{0,6}( [-0-9.eainf]{0,5}){0,7}\n|#.*\n|\n){0,12}") {
        let _ = parse_str(&text);
    }

    #[test]
    fn parsing_arbitrary_bytes_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = collide_scenes::trace::parse(&bytes[..]);
    }
}
