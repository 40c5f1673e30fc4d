//! The k-d tree against brute force: random, clustered and degenerate point
//! sets, huge and negative coordinates, moving points, bad input.

use collide::{KdTree, Neighbour, Vector};
use collide_scenes::SceneRng;
use glam::{Vec2, Vec3};

/// Brute-force answers, in the tree's order (distance, then index).
fn brute<V: Vector>(points: &[V], q: V) -> Vec<Neighbour> {
    let mut all: Vec<Neighbour> = points
        .iter()
        .enumerate()
        .map(|(i, p)| Neighbour {
            index: i as u32,
            distance_sq: (0..V::DIM)
                .map(|a| (f64::from(p.axis(a)) - f64::from(q.axis(a))).powi(2))
                .sum(),
        })
        .collect();
    all.sort_by(|a, b| {
        a.distance_sq
            .total_cmp(&b.distance_sq)
            .then(a.index.cmp(&b.index))
    });
    all
}

fn check<V: Vector>(tree: &KdTree<V>, points: &[V], queries: &[V], what: &str) {
    for (k, q) in queries.iter().enumerate() {
        let all = brute(points, *q);
        assert_eq!(
            tree.nearest(*q),
            all.first().copied(),
            "{what}: nearest, query {k}"
        );
        for count in [1, 3, 10, points.len() + 5] {
            let want: Vec<_> = all.iter().take(count).copied().collect();
            assert_eq!(
                tree.k_nearest(*q, count),
                want,
                "{what}: {count} nearest, query {k}"
            );
        }
        for radius in [0.0f32, 0.5, 3.0, 40.0] {
            let r_sq = f64::from(radius) * f64::from(radius);
            let want: Vec<_> = all
                .iter()
                .filter(|n| n.distance_sq < r_sq)
                .copied()
                .collect();
            assert_eq!(
                tree.within(*q, radius),
                want,
                "{what}: within {radius}, query {k}"
            );
        }
    }
}

fn random_points<V: Vector>(rng: &mut SceneRng, n: usize, spread: f32, offset: f32) -> Vec<V> {
    (0..n)
        .map(|_| V::from_axes(|_| offset + rng.range(-spread, spread)))
        .collect()
}

#[test]
fn queries_match_brute_force_on_random_and_clustered_points() {
    let mut rng = SceneRng::new(17);
    for n in [0, 1, 2, 9, 100, 2000] {
        let points: Vec<Vec2> = random_points(&mut rng, n, 100.0, 0.0);
        let queries: Vec<Vec2> = random_points(&mut rng, 25, 120.0, 0.0);
        check(
            &KdTree::build(&points).unwrap(),
            &points,
            &queries,
            &format!("2D n={n}"),
        );
        let points: Vec<Vec3> = random_points(&mut rng, n, 30.0, 0.0);
        let queries: Vec<Vec3> = random_points(&mut rng, 25, 40.0, 0.0);
        check(
            &KdTree::build(&points).unwrap(),
            &points,
            &queries,
            &format!("3D n={n}"),
        );
    }
    // Hotspots: most points in two tight clusters.
    let mut points: Vec<Vec2> = random_points(&mut rng, 1500, 0.5, 10.0);
    points.extend(random_points::<Vec2>(&mut rng, 500, 100.0, 0.0));
    let queries: Vec<Vec2> = random_points(&mut rng, 30, 20.0, 5.0);
    check(
        &KdTree::build(&points).unwrap(),
        &points,
        &queries,
        "hotspot",
    );
}

#[test]
fn a_thousand_points_at_one_place_and_lattices_with_ties() {
    let same = vec![Vec3::splat(7.0); 1000];
    let tree = KdTree::build(&same).unwrap();
    check(&tree, &same, &[Vec3::splat(7.0), Vec3::ZERO], "one place");
    assert_eq!(
        tree.nearest(Vec3::ZERO).unwrap().index,
        0,
        "ties go to the lower index"
    );
    let lattice: Vec<Vec2> = (0..400)
        .map(|i| Vec2::new((i % 20) as f32, (i / 20) as f32))
        .collect();
    let queries: Vec<Vec2> = (0..30).map(|i| Vec2::new(i as f32 * 0.5, 3.5)).collect();
    check(
        &KdTree::build(&lattice).unwrap(),
        &lattice,
        &queries,
        "lattice",
    );
}

#[test]
fn huge_and_negative_coordinates() {
    let mut rng = SceneRng::new(5);
    for (spread, offset) in [(1.0e6f32, -3.0e7f32), (1.0e37, 0.0), (50.0, -1.0e30)] {
        let points: Vec<Vec2> = random_points(&mut rng, 300, spread, offset);
        let queries: Vec<Vec2> = random_points(&mut rng, 20, spread, offset);
        check(
            &KdTree::build(&points).unwrap(),
            &points,
            &queries,
            &format!("offset {offset}"),
        );
    }
}

#[test]
fn moved_points_are_exact_at_once_and_trigger_rebuilds() {
    let mut rng = SceneRng::new(8);
    let mut points: Vec<Vec2> = random_points(&mut rng, 500, 100.0, 0.0);
    let mut tree = KdTree::build(&points).unwrap();
    assert_eq!(tree.rebuilds(), 1);
    for step in 0..400 {
        let i = rng.below(points.len());
        points[i] = Vec2::new(rng.range(-150.0, 150.0), rng.range(-150.0, 150.0));
        tree.update(i as u32, points[i]).unwrap();
        if step % 20 == 0 {
            let queries: Vec<Vec2> = random_points(&mut rng, 5, 120.0, 0.0);
            check(&tree, &points, &queries, &format!("after {step} moves"));
        }
        assert!(tree.stale_points() as f32 <= 0.1 * 500.0);
    }
    assert!(
        tree.rebuilds() > 3,
        "moving 400 of 500 points rebuilds several times"
    );
}

#[test]
fn bad_input_is_an_error_or_an_empty_answer_never_a_panic() {
    assert!(KdTree::build(&[Vec2::ZERO, Vec2::new(f32::NAN, 0.0)]).is_err());
    let mut tree = KdTree::build(&[Vec2::ZERO, Vec2::ONE]).unwrap();
    assert!(tree.update(2, Vec2::ZERO).is_err(), "index out of range");
    assert!(tree.update(0, Vec2::new(0.0, f32::INFINITY)).is_err());
    assert_eq!(
        tree.point(0),
        Some(Vec2::ZERO),
        "a refused update changes nothing"
    );
    assert!(tree.nearest(Vec2::new(f32::NAN, 0.0)).is_none());
    assert!(tree.within(Vec2::ZERO, -1.0).is_empty());
    assert!(tree.within(Vec2::ZERO, f32::NAN).is_empty());
    assert!(tree.k_nearest(Vec2::ZERO, 0).is_empty());
    assert!(tree.set_rebuild_share(f32::NAN).is_err());
    let empty: KdTree<Vec3> = KdTree::build(&[]).unwrap();
    assert!(empty.nearest(Vec3::ZERO).is_none() && empty.is_empty());
}
