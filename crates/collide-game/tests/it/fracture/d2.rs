//! Voronoi fracture in 2D against geometry checked by brute force: the
//! pieces tile the object exactly, never overlap, are convex and small
//! enough for the narrow phase, hold their sites, bond only where they
//! touch along an edge, and fall in the right islands.

use collide_game::GameError;
use collide_game::fracture::{FractureSettings, Pattern, d2};
use collide_game::glam::DVec2;

fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<DVec2> {
    vec![
        DVec2::new(x0, y0),
        DVec2::new(x1, y0),
        DVec2::new(x1, y1),
        DVec2::new(x0, y1),
    ]
}

/// A random convex polygon: points on an ellipse at sorted angles.
fn blob(seed: u64, corners: usize) -> Vec<DVec2> {
    let mut rng = collide_scenes::SceneRng::new(seed);
    let mut unit = || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let mut angles: Vec<f64> = (0..corners)
        .map(|_| unit() * std::f64::consts::TAU)
        .collect();
    angles.sort_by(f64::total_cmp);
    let (a, b) = (2.0 + 3.0 * unit(), 1.0 + 2.0 * unit());
    angles
        .iter()
        .map(|t| DVec2::new(a * t.cos(), b * t.sin()))
        .collect()
}

fn area(poly: &[DVec2]) -> f64 {
    let n = poly.len();
    0.5 * (0..n)
        .map(|k| poly[k].perp_dot(poly[(k + 1) % n]))
        .sum::<f64>()
}

/// The part of convex `a` inside convex `b` (both counter-clockwise).
fn intersection(a: &[DVec2], b: &[DVec2]) -> Vec<DVec2> {
    let mut poly = a.to_vec();
    let n = b.len();
    for k in 0..n {
        let (p, q) = (b[k], b[(k + 1) % n]);
        let mut out = Vec::new();
        let m = poly.len();
        for i in 0..m {
            let (s, e) = (poly[i], poly[(i + 1) % m]);
            let (ds, de) = ((q - p).perp_dot(s - p), (q - p).perp_dot(e - p));
            if ds >= 0.0 {
                out.push(s);
            }
            if (ds > 0.0 && de < 0.0) || (ds < 0.0 && de > 0.0) {
                out.push(s + (e - s) * (ds / (ds - de)));
            }
        }
        poly = out;
        if poly.len() < 3 {
            return Vec::new();
        }
    }
    poly
}

fn inside(poly: &[DVec2], p: DVec2, tolerance: f64) -> bool {
    let n = poly.len();
    (0..n).all(|k| {
        let (a, b) = (poly[k], poly[(k + 1) % n]);
        (b - a).perp_dot(p - a) >= -tolerance * (b - a).length()
    })
}

fn check(parts: &[Vec<DVec2>], broken: &d2::Fracture) {
    let total: f64 = parts.iter().map(|p| area(p)).sum();
    let pieces = broken.pieces();
    let sum: f64 = pieces.iter().map(d2::Piece::area).sum();
    assert!(
        ((sum - total) / total).abs() < 1e-6,
        "areas sum to {sum}, the object is {total}"
    );
    for (k, p) in pieces.iter().enumerate() {
        let c = p.corners();
        assert!(
            c.len() >= 3 && c.len() <= 8,
            "piece {k}: {} corners",
            c.len()
        );
        assert!(p.shape().is_ok(), "piece {k} is a narrow-phase polygon");
        let n = c.len();
        for i in 0..n {
            let turn = (c[(i + 1) % n] - c[i]).perp_dot(c[(i + 2) % n] - c[(i + 1) % n]);
            assert!(turn >= -1e-9, "piece {k} is not convex");
        }
        assert!((area(c) - p.area()).abs() < 1e-9 * total);
    }
    for i in 0..pieces.len() {
        for j in i + 1..pieces.len() {
            let shared = area(&intersection(pieces[i].corners(), pieces[j].corners()));
            assert!(
                shared < 1e-9 * total,
                "pieces {i} and {j} overlap by {shared}"
            );
        }
    }
    // A site inside the object lies in one of its pieces.
    for (s, &site) in broken.sites().iter().enumerate() {
        if parts.iter().any(|part| inside(part, site, -1e-9)) {
            let own = pieces.iter().filter(|p| p.site() == s);
            assert!(
                own.clone().any(|p| inside(p.corners(), site, 1e-9)),
                "site {s} at {site} is in none of its pieces"
            );
        }
    }
}

#[test]
fn pieces_tile_random_objects_without_overlap_and_hold_their_sites() {
    for seed in 0..12 {
        let part = blob(seed, 5 + (seed as usize % 6));
        let count = [3, 10, 40, 120][seed as usize % 4];
        let sites = match seed % 3 {
            0 => Pattern::uniform(count, 4.0, seed).unwrap(),
            1 => Pattern::radial(count, 4.0, 2.0, seed).unwrap(),
            _ => Pattern::clustered(4, count / 4 + 1, 3.0, 0.8, seed).unwrap(),
        }
        .placed(DVec2::new(0.3, -0.2), seed as f64);
        let broken = d2::fracture(
            std::slice::from_ref(&part),
            &sites,
            &FractureSettings::default(),
        )
        .unwrap();
        check(&[part], &broken);
    }
}

#[test]
fn a_thousand_sites_tile_a_plate() {
    let plate = rect(0.0, 0.0, 20.0, 20.0);
    let sites = Pattern::uniform(1000, 10.0, 5)
        .unwrap()
        .placed(DVec2::new(10.0, 10.0), 0.0);
    let broken = d2::fracture(&[plate], &sites, &FractureSettings::default()).unwrap();
    assert!(broken.pieces().len() >= 1000);
    let sum: f64 = broken.pieces().iter().map(d2::Piece::area).sum();
    assert!((sum / 400.0 - 1.0).abs() < 1e-9, "{sum}");
}

#[test]
fn cells_too_big_for_the_narrow_phase_are_cut_in_two() {
    // Sites on a circle around one in the middle: the middle cell has as
    // many sides as there are sites around it.
    let mut sites = vec![DVec2::ZERO];
    sites.extend((0..14).map(|k| DVec2::from_angle(k as f64 * std::f64::consts::TAU / 14.0)));
    let part = rect(-3.0, -3.0, 3.0, 3.0);
    let broken = d2::fracture(
        std::slice::from_ref(&part),
        &sites,
        &FractureSettings::default(),
    )
    .unwrap();
    let middle: Vec<&d2::Piece> = broken.pieces().iter().filter(|p| p.site() == 0).collect();
    assert!(
        middle.len() >= 2,
        "a 14-gon is cut into parts of at most 8 corners"
    );
    let bonded = broken
        .bonds()
        .iter()
        .filter(|(a, b)| {
            broken.pieces()[*a as usize].site() == 0 && broken.pieces()[*b as usize].site() == 0
        })
        .count();
    assert!(bonded >= 1, "the parts of one cell are bonded");
    check(&[part], &broken);
}

#[test]
fn close_sites_merge_and_bad_input_is_an_error() {
    let part = rect(0.0, 0.0, 4.0, 4.0);
    let sites = [
        DVec2::new(1.0, 1.0),
        DVec2::new(1.0, 1.0 + 1e-9),
        DVec2::new(3.0, 3.0),
    ];
    let broken = d2::fracture(
        std::slice::from_ref(&part),
        &sites,
        &FractureSettings::default(),
    )
    .unwrap();
    assert_eq!(broken.sites().len(), 2);
    assert_eq!(broken.pieces().len(), 2);
    // With no merge distance, exact duplicates still go (their cells would
    // be the same).
    let exact = FractureSettings::with_merge_distance(0.0).unwrap();
    let twice = [
        DVec2::new(1.0, 1.0),
        DVec2::new(1.0, 1.0),
        DVec2::new(3.0, 3.0),
    ];
    let broken = d2::fracture(std::slice::from_ref(&part), &twice, &exact).unwrap();
    assert_eq!(broken.sites().len(), 2);
    check(std::slice::from_ref(&part), &broken);
    let nan = [DVec2::new(f64::NAN, 1.0)];
    assert!(matches!(
        d2::fracture(
            std::slice::from_ref(&part),
            &nan,
            &FractureSettings::default()
        ),
        Err(GameError::NotFinite { .. })
    ));
    let clockwise: Vec<DVec2> = part.iter().rev().copied().collect();
    assert!(matches!(
        d2::fracture(&[clockwise], &sites, &FractureSettings::default()),
        Err(GameError::NotConvex { index: 0, .. })
    ));
    let dented = vec![
        DVec2::new(0.0, 0.0),
        DVec2::new(4.0, 0.0),
        DVec2::new(2.0, 1.0),
        DVec2::new(4.0, 4.0),
        DVec2::new(0.0, 4.0),
    ];
    assert!(d2::fracture(&[part, dented], &sites, &FractureSettings::default()).is_err());
    assert!(FractureSettings::with_merge_distance(-1.0).is_err());
    assert!(Pattern::uniform(5, f64::NAN, 1).is_err());
}

#[test]
fn nothing_bonds_across_the_notch_of_an_l() {
    // An L: a bar along the bottom and one up the left, the notch above
    // the bottom bar's right end. Two sites whose bisector runs through
    // the notch's corner.
    let l = [rect(0.0, 0.0, 3.0, 1.0), rect(0.0, 1.0, 1.0, 3.0)];
    let sites = [DVec2::new(0.5, 2.5), DVec2::new(2.5, 0.5)];
    let broken = d2::fracture(&l, &sites, &FractureSettings::default()).unwrap();
    check(&l, &broken);
    let piece = |site: usize, part: usize| {
        broken
            .pieces()
            .iter()
            .position(|p| p.site() == site && p.part() == part)
            .expect("the piece exists") as u32
    };
    let (up, corner, right) = (piece(0, 1), piece(0, 0), piece(1, 0));
    let mut want = [
        (corner.min(up), corner.max(up)),
        (corner.min(right), corner.max(right)),
    ];
    want.sort_unstable();
    // The upright and the right end touch only at the notch's corner.
    assert_eq!(broken.bonds(), &want[..]);
    // Many sites: every bond's shared edge lies in the L, none in the notch.
    let sites = Pattern::uniform(200, 1.5, 3)
        .unwrap()
        .placed(DVec2::new(1.5, 1.5), 0.0);
    let broken = d2::fracture(&l, &sites, &FractureSettings::default()).unwrap();
    check(&l, &broken);
    for &(a, b) in broken.bonds() {
        let (pa, pb) = (&broken.pieces()[a as usize], &broken.pieces()[b as usize]);
        let both_right = pa.centroid().x > 1.0 && pb.centroid().x > 1.0;
        let above = pa.centroid().y > 1.0 || pb.centroid().y > 1.0;
        assert!(!(both_right && above), "bond {a}-{b} crosses the notch");
    }
}

#[test]
fn cutting_a_bridge_drops_only_the_part_between_the_cuts() {
    let bridge = rect(0.0, 0.0, 10.0, 1.0);
    let sites = Pattern::uniform(120, 5.0, 11)
        .unwrap()
        .placed(DVec2::new(5.0, 0.5), 0.0);
    let broken = d2::fracture(&[bridge], &sites, &FractureSettings::default()).unwrap();
    let span = |p: &d2::Piece| {
        let xs = p.corners().iter().map(|c| c.x);
        (
            xs.clone().fold(f64::INFINITY, f64::min),
            xs.fold(f64::NEG_INFINITY, f64::max),
        )
    };
    let on_pillar = |p: &d2::Piece| {
        let (lo, hi) = span(p);
        lo < 0.5 || hi > 9.5
    };
    // Whole: everything rests on the pillars.
    let whole = d2::islands(&broken, &[], on_pillar).expect("a flag per piece");
    assert!(whole.falling().is_empty());
    assert_eq!(whole.anchored().len(), broken.pieces().len());
    // Cut at 3 to 3.5 and at 6.5 to 7: the middle falls as one body.
    let cut = |lo: f64, hi: f64| -> Vec<bool> {
        broken
            .pieces()
            .iter()
            .map(|p| {
                let (a, b) = span(p);
                a < hi && b > lo
            })
            .collect()
    };
    let gone: Vec<bool> = cut(3.0, 3.5)
        .iter()
        .zip(cut(6.5, 7.0))
        .map(|(a, b)| *a || b)
        .collect();
    let result = d2::islands(&broken, &gone, on_pillar).expect("a flag per piece");
    assert_eq!(result.falling().len(), 1);
    let middle = &result.falling()[0];
    for &k in middle.pieces() {
        let (lo, hi) = span(&broken.pieces()[k as usize]);
        assert!(
            lo >= 3.5 - 1e-9 && hi <= 6.5 + 1e-9,
            "piece {k} spans {lo} to {hi}"
        );
    }
    assert!((middle.centroid().x - 5.0).abs() < 0.5);
    for &k in result.anchored() {
        let (lo, hi) = span(&broken.pieces()[k as usize]);
        assert!(hi <= 3.0 + 1e-9 || lo >= 7.0 - 1e-9);
    }
    // Only one cut: nothing falls.
    assert!(
        d2::islands(&broken, &cut(3.0, 3.5), on_pillar)
            .expect("a flag per piece")
            .falling()
            .is_empty()
    );
    // A flag list of the wrong length is an error, not pieces silently
    // kept.
    let short = &gone[..gone.len() - 1];
    assert!(matches!(
        d2::islands(&broken, short, on_pillar),
        Err(GameError::WrongLength { got, expected, .. }) if got + 1 == expected
    ));
}

#[test]
fn the_same_sites_give_bit_identical_pieces() {
    let part = blob(9, 7);
    let sites = Pattern::radial(300, 4.0, 1.5, 2)
        .unwrap()
        .placed(DVec2::ZERO, 1.0);
    let bits = |f: &d2::Fracture| -> Vec<u64> {
        f.pieces()
            .iter()
            .flat_map(|p| {
                p.corners()
                    .iter()
                    .flat_map(|c| [c.x.to_bits(), c.y.to_bits()])
            })
            .collect()
    };
    let a = d2::fracture(
        std::slice::from_ref(&part),
        &sites,
        &FractureSettings::default(),
    )
    .unwrap();
    let b = d2::fracture(&[part], &sites, &FractureSettings::default()).unwrap();
    assert_eq!(bits(&a), bits(&b));
    assert_eq!(a.bonds(), b.bonds());
}

#[test]
fn a_radial_pattern_breaks_finer_near_the_impact() {
    let plate = rect(-10.0, -10.0, 10.0, 10.0);
    let sites = Pattern::radial(400, 10.0, 2.5, 4)
        .unwrap()
        .placed(DVec2::ZERO, 0.0);
    let broken = d2::fracture(&[plate], &sites, &FractureSettings::default()).unwrap();
    let mean = |near: bool| {
        let chosen: Vec<f64> = broken
            .pieces()
            .iter()
            .filter(|p| (p.centroid().length() < 2.0) == near)
            .map(d2::Piece::area)
            .collect();
        chosen.iter().sum::<f64>() / chosen.len() as f64
    };
    assert!(
        mean(true) * 10.0 < mean(false),
        "{} near, {} far",
        mean(true),
        mean(false)
    );
}

#[test]
fn an_l_far_from_the_origin_bonds_as_at_the_origin() {
    // Regression: boxes grown too little for f32 at x = 100 lost the bond
    // along the L's inner edge, and the upright fell.
    for at in [DVec2::ZERO, DVec2::new(100.0, 100.0), DVec2::new(-3e6, 7e5)] {
        let l = [
            rect(at.x, at.y, at.x + 3.0, at.y + 1.0),
            rect(at.x, at.y + 1.0, at.x + 1.0, at.y + 3.0),
        ];
        let sites = [at + DVec2::new(0.5, 2.5), at + DVec2::new(2.5, 0.5)];
        let broken = d2::fracture(&l, &sites, &FractureSettings::default()).unwrap();
        assert_eq!(broken.bonds().len(), 2, "at {at}");
        let result = d2::islands(&broken, &[], |p| p.part() == 0).expect("a flag per piece");
        assert!(result.falling().is_empty(), "at {at}: the upright falls");
    }
}

#[test]
fn shapes_that_are_not_convex_and_coordinates_out_of_range_are_errors() {
    let star: Vec<DVec2> = [0, 2, 4, 1, 3]
        .iter()
        .map(|&k| DVec2::from_angle(k as f64 * std::f64::consts::TAU / 5.0))
        .collect();
    let settings = FractureSettings::default();
    let one = [DVec2::ZERO];
    assert!(matches!(
        d2::fracture(&[star], &one, &settings),
        Err(GameError::NotConvex { .. })
    ));
    let back = vec![
        DVec2::new(0.0, 0.0),
        DVec2::new(2.0, 0.0),
        DVec2::new(1.0, 0.0),
        DVec2::new(1.5, 0.0),
        DVec2::new(1.0, 1.0),
    ];
    assert!(d2::fracture(&[back], &one, &settings).is_err());
    let square = rect(0.0, 0.0, 1.0, 1.0);
    let huge = [DVec2::new(1e39, 0.0)];
    assert!(matches!(
        d2::fracture(std::slice::from_ref(&square), &huge, &settings),
        Err(GameError::TooLarge { .. })
    ));
    assert!(matches!(
        d2::fracture(std::slice::from_ref(&square), &[], &settings),
        Err(GameError::Empty { .. })
    ));
    assert!(d2::fracture(&[], &one, &settings).is_err());
    // A tiny merge distance beside large coordinates merges nothing and
    // does not overflow.
    let tiny = FractureSettings::with_merge_distance(1e-300).unwrap();
    let far = [DVec2::new(0.5, 0.5), DVec2::new(1e11, 0.0)];
    assert_eq!(
        d2::fracture(&[square], &far, &tiny).unwrap().sites().len(),
        2
    );
}
