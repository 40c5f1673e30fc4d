//! Property tests: the overlap rule's symmetry and translation invariance,
//! and no panic on arbitrary trace text.

use collide::trace::parse_str;
use collide::{Aabb2, Aabb3};
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
        let _ = collide::trace::parse(&bytes[..]);
    }
}
