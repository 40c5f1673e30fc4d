//! Voronoi fracture in 3D, checked by brute force: the pieces fill the
//! boxes exactly, every point of a box lies in exactly one piece, every
//! corner is nearest its own site, and no piece has more corners than the
//! narrow phase's polyhedra.

use collide::narrow::Support;
use collide_game::GameError;
use collide_game::fracture::d3;
use collide_game::glam::DVec3;
use collide_scenes::SceneRng;

/// The boxes as parts.
fn parts_of(boxes: &[(DVec3, DVec3)]) -> Vec<d3::Part> {
    boxes
        .iter()
        .map(|&(lo, hi)| d3::Part::cuboid(lo, hi).unwrap())
        .collect()
}

/// The test kit's seeded generator, read as f64 in [0, 1).
struct Rng(SceneRng);

impl Rng {
    fn new(seed: u64) -> Self {
        Self(SceneRng::new(seed))
    }

    fn unit(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn point(&mut self, lo: DVec3, hi: DVec3) -> DVec3 {
        DVec3::new(
            lo.x + (hi.x - lo.x) * self.unit(),
            lo.y + (hi.y - lo.y) * self.unit(),
            lo.z + (hi.z - lo.z) * self.unit(),
        )
    }
}

/// How far inside piece `p` the point is (negative: outside), by its faces.
fn depth(p: &d3::Piece, x: DVec3) -> f64 {
    p.faces()
        .iter()
        .map(|f| {
            let n = (f[1] - f[0]).cross(f[2] - f[0]).normalize();
            (f[0] - x).dot(n)
        })
        .fold(f64::INFINITY, f64::min)
}

fn check(parts: &[(DVec3, DVec3)], broken: &d3::Fracture, rng: &mut Rng) {
    let total: f64 = parts.iter().map(|(a, b)| (*b - *a).element_product()).sum();
    let sum: f64 = broken.pieces().iter().map(d3::Piece::volume).sum();
    assert!(
        ((sum - total) / total).abs() < 1e-6,
        "volumes {sum}, boxes {total}"
    );
    let sites = broken.sites();
    for (k, p) in broken.pieces().iter().enumerate() {
        assert!(
            p.corners().len() <= d3::MAX_CORNERS,
            "piece {k}: {} corners",
            p.corners().len()
        );
        // As a narrow-phase hull about its centroid: the same extremes.
        let hull = p.shape().unwrap();
        for d in [
            DVec3::X,
            DVec3::Y,
            DVec3::Z,
            -DVec3::X,
            -DVec3::Y,
            -DVec3::Z,
        ] {
            let far = p
                .corners()
                .iter()
                .map(|c| (*c - p.centroid()).dot(d))
                .fold(f64::MIN, f64::max);
            let got = f64::from(hull.support(d.as_vec3()).dot(d.as_vec3()));
            assert!(
                (got - far).abs() < 1e-5 * (1.0 + far.abs()),
                "piece {k}: {got} against {far}"
            );
        }
        for &c in p.corners() {
            let own = c.distance(sites[p.site()]);
            let nearest = sites
                .iter()
                .map(|s| c.distance(*s))
                .fold(f64::INFINITY, f64::min);
            assert!(
                own <= nearest + 1e-7,
                "piece {k}: corner {c} is nearer another site"
            );
        }
    }
    // Points of the boxes lie in exactly one piece (those within 1e-7 of a
    // face are skipped).
    for &(lo, hi) in parts {
        for _ in 0..400 {
            let x = rng.point(lo, hi);
            let depths: Vec<f64> = broken.pieces().iter().map(|p| depth(p, x)).collect();
            if depths.iter().any(|d| d.abs() < 1e-7) {
                continue;
            }
            let inside = depths.iter().filter(|d| **d > 0.0).count();
            assert_eq!(inside, 1, "point {x} lies in {inside} pieces");
        }
    }
}

#[test]
fn pieces_fill_boxes_exactly_and_each_point_lies_in_one() {
    let mut rng = Rng::new(17);
    for round in 0..10 {
        let lo = DVec3::new(rng.unit(), rng.unit(), rng.unit()) * 10.0 - 5.0;
        let hi = lo
            + DVec3::new(
                1.0 + 4.0 * rng.unit(),
                1.0 + 3.0 * rng.unit(),
                0.3 + rng.unit(),
            );
        let count = [1, 2, 7, 30, 100][round % 5];
        let sites: Vec<DVec3> = (0..count).map(|_| rng.point(lo - 0.5, hi + 0.5)).collect();
        let parts = [(lo, hi)];
        let broken = d3::fracture(&parts_of(&parts), &sites).unwrap();
        check(&parts, &broken, &mut rng);
    }
}

#[test]
fn two_boxes_break_along_the_same_cells() {
    let mut rng = Rng::new(5);
    let parts = [
        (DVec3::ZERO, DVec3::new(3.0, 1.0, 1.0)),
        (DVec3::new(0.0, 1.0, 0.0), DVec3::new(1.0, 3.0, 1.0)),
    ];
    let sites: Vec<DVec3> = (0..40)
        .map(|_| rng.point(DVec3::ZERO, DVec3::new(3.0, 3.0, 1.0)))
        .collect();
    let broken = d3::fracture(&parts_of(&parts), &sites).unwrap();
    check(&parts, &broken, &mut rng);
    assert!(broken.pieces().iter().any(|p| p.part() == 1));
}

#[test]
fn a_crowded_cell_is_cut_to_the_corner_limit() {
    // A site ringed by many close ones: its cell has many corners.
    let mut sites = vec![DVec3::splat(0.5)];
    for k in 0..60 {
        let t = k as f64 * 0.61803398875 * std::f64::consts::TAU;
        let z = 1.0 - 2.0 * (k as f64 + 0.5) / 60.0;
        let r = (1.0 - z * z).sqrt();
        sites.push(DVec3::splat(0.5) + DVec3::new(r * t.cos(), r * t.sin(), z) * 0.2);
    }
    let parts = [(DVec3::ZERO, DVec3::ONE)];
    let broken = d3::fracture(&parts_of(&parts), &sites).unwrap();
    let middle = broken.pieces().iter().filter(|p| p.site() == 0).count();
    assert!(middle >= 2, "the middle cell was cut into {middle} pieces");
    check(&parts, &broken, &mut Rng::new(3));
}

#[test]
fn bad_input_is_an_error_and_the_same_input_the_same_pieces() {
    let parts = [(DVec3::ZERO, DVec3::ONE)];
    assert!(matches!(
        d3::fracture(&parts_of(&parts), &[DVec3::new(f64::NAN, 0.0, 0.0)]),
        Err(GameError::NotFinite { .. })
    ));
    assert!(d3::fracture(&parts_of(&parts), &[]).is_err());
    assert!(d3::Part::cuboid(DVec3::ONE, DVec3::ZERO).is_err());
    assert!(d3::Part::from_planes(&[(DVec3::ZERO, 1.0)]).is_err());
    assert!(d3::Part::from_planes(&[(DVec3::X, 1.0), (-DVec3::X, -2.0)]).is_err());
    assert!(d3::fracture(&parts_of(&parts), &[DVec3::splat(1e13)]).is_err());
    let sites = [DVec3::splat(0.2), DVec3::splat(0.2), DVec3::splat(0.7)];
    let a = d3::fracture(&parts_of(&parts), &sites).unwrap();
    assert_eq!(a.sites().len(), 2, "exact duplicates go");
    assert_eq!(a, d3::fracture(&parts_of(&parts), &sites).unwrap());
}

#[test]
fn nothing_bonds_across_the_notch_of_a_3d_l() {
    for at in [DVec3::ZERO, DVec3::new(250.0, -40.0, 9.0)] {
        let l = [
            (at, at + DVec3::new(3.0, 1.0, 1.0)),
            (
                at + DVec3::new(0.0, 1.0, 0.0),
                at + DVec3::new(1.0, 3.0, 1.0),
            ),
        ];
        let sites = [
            at + DVec3::new(0.5, 2.5, 0.5),
            at + DVec3::new(2.5, 0.5, 0.5),
        ];
        let broken = d3::fracture(&parts_of(&l), &sites).unwrap();
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
        assert_eq!(broken.bonds(), &want[..], "at {at}");
        let stays = d3::islands(&broken, &[], |p| p.part() == 0).expect("a flag per piece");
        assert!(stays.falling().is_empty());
    }
}

#[test]
fn cutting_a_3d_bridge_twice_drops_the_middle() {
    let mut rng = Rng::new(21);
    let bridge = (DVec3::ZERO, DVec3::new(10.0, 1.0, 1.0));
    let sites: Vec<DVec3> = (0..80).map(|_| rng.point(bridge.0, bridge.1)).collect();
    let broken = d3::fracture(&parts_of(&[bridge]), &sites).unwrap();
    let span = |p: &d3::Piece| {
        let xs = p.corners().iter().map(|c| c.x);
        (
            xs.clone().fold(f64::INFINITY, f64::min),
            xs.fold(f64::NEG_INFINITY, f64::max),
        )
    };
    let on_pillar = |p: &d3::Piece| {
        let (lo, hi) = span(p);
        lo < 1e-9 || hi > 10.0 - 1e-9
    };
    assert!(
        d3::islands(&broken, &[], on_pillar)
            .expect("a flag per piece")
            .falling()
            .is_empty()
    );
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
    let result = d3::islands(&broken, &gone, on_pillar).expect("a flag per piece");
    assert_eq!(result.falling().len(), 1);
    for &k in result.falling()[0].pieces() {
        let (lo, hi) = span(&broken.pieces()[k as usize]);
        assert!(lo >= 3.5 - 1e-9 && hi <= 6.5 + 1e-9);
    }
    assert!((result.falling()[0].centroid().x - 5.0).abs() < 0.6);
    assert!(
        d3::islands(&broken, &cut(3.0, 3.5), on_pillar)
            .expect("a flag per piece")
            .falling()
            .is_empty()
    );
}

#[test]
fn a_tetrahedron_breaks_into_pieces_filling_it() {
    let tetrahedron = d3::Part::from_planes(&[
        (-DVec3::X, 0.0),
        (-DVec3::Y, 0.0),
        (-DVec3::Z, 0.0),
        (DVec3::ONE, 3.0),
    ])
    .unwrap();
    let mut rng = Rng::new(8);
    let sites: Vec<DVec3> = (0..40)
        .map(|_| rng.point(DVec3::ZERO, DVec3::splat(3.0)))
        .collect();
    let broken = d3::fracture(std::slice::from_ref(&tetrahedron), &sites).unwrap();
    let volume: f64 = broken.pieces().iter().map(d3::Piece::volume).sum();
    assert!((volume / 4.5 - 1.0).abs() < 1e-9, "{volume}");
    let mut tested = 0;
    while tested < 300 {
        let x = rng.point(DVec3::ZERO, DVec3::splat(3.0));
        if x.x + x.y + x.z >= 3.0 - 1e-6 {
            continue;
        }
        let depths: Vec<f64> = broken.pieces().iter().map(|p| depth(p, x)).collect();
        if depths.iter().any(|d| d.abs() < 1e-7) {
            continue;
        }
        assert_eq!(depths.iter().filter(|d| **d > 0.0).count(), 1, "point {x}");
        tested += 1;
    }
}
