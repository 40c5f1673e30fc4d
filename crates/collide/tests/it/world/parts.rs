//! Colliders made of parts (compounds, meshes, heightfields) against a
//! brute force over every part: random scenes of a heightfield, a mesh of
//! loose triangles (segments in 2D), moving compounds and convex movers,
//! near the origin and 1e4 away. Every step the touching pairs agree with
//! the deepest contact over all part pairs, every part contact and
//! manifold is the narrow phase's for those two parts, and every query
//! answers as a scan over all parts does. Mirrored, a level touches the
//! same pairs as deep, with mirrored normals.

use super::Random;
use collide::Handle;
use collide::geometry::Ray;
use collide::narrow::Contact;
use collide::world::{
    Collider, ColliderShape, Compound, Mesh, Mesh2, Mesh3, QueryFilter, Space, World, WorldQuery,
};
use collide_scenes::SceneRng;
use glam::{Vec2, Vec3};

/// What a dimension's level needs: a heightfield and a loose mesh.
pub(crate) trait Level: Random {
    /// A heightfield about `size` wide in its own frame, from its corner.
    fn ground(rng: &mut SceneRng, size: usize) -> Mesh<Self>;
    /// `n` loose elements within `spread` of the origin.
    fn soup(rng: &mut SceneRng, n: usize, spread: f32) -> Mesh<Self>;
    /// The pose at `at`, unturned.
    fn unturned(at: Self) -> Self::Pose {
        Self::at(at).unwrap()
    }
}

impl Level for Vec2 {
    fn ground(rng: &mut SceneRng, size: usize) -> Mesh2 {
        let heights: Vec<f32> = (0..=size).map(|_| rng.range(-0.5, 0.5)).collect();
        Mesh2::from_heights(&heights, 1.0).unwrap()
    }
    fn soup(rng: &mut SceneRng, n: usize, spread: f32) -> Mesh2 {
        let mut vertices = Vec::new();
        let mut elements = Vec::new();
        for _ in 0..n {
            let a = Vec2::new(rng.range(-spread, spread), rng.range(-spread, spread));
            let b = a + Vec2::new(rng.range(-1.5, 1.5), rng.range(-1.5, 1.5));
            let k = vertices.len() as u32;
            vertices.extend([a, b]);
            elements.push([k, k + 1]);
        }
        Mesh2::new(&vertices, &elements).unwrap()
    }
}

impl Level for Vec3 {
    fn ground(rng: &mut SceneRng, size: usize) -> Mesh3 {
        let n = size + 1;
        let heights: Vec<f32> = (0..n * n).map(|_| rng.range(-0.5, 0.5)).collect();
        Mesh3::from_heights(n, n, &heights, Vec2::ONE).unwrap()
    }
    fn soup(rng: &mut SceneRng, n: usize, spread: f32) -> Mesh3 {
        let mut vertices = Vec::new();
        let mut elements = Vec::new();
        let mut r = |s: f32| Vec3::new(rng.range(-s, s), rng.range(-s, s), rng.range(-s, s));
        for _ in 0..n {
            let a = r(spread);
            let (b, c) = (a + r(1.5), a + r(1.5));
            let k = vertices.len() as u32;
            vertices.extend([a, b, c]);
            elements.push([k, k + 1, k + 2]);
        }
        Mesh3::new(&vertices, &elements).unwrap()
    }
}

/// Part `i` of `shape` placed with its collider at `pose`: a compound's
/// part by its own pose, the others at the collider's.
fn place<V: Space>(shape: &ColliderShape<V>, pose: &V::Pose, i: u32) -> (V::Shape, V::Pose) {
    let (s, local) = shape.part(i).unwrap();
    match shape {
        ColliderShape::Compound(_) => (s, V::compose(pose, &local).unwrap()),
        _ => (s, *pose),
    }
}

/// Every part of `shape` placed with its collider at `pose`.
fn placed<V: Space>(shape: &ColliderShape<V>, pose: &V::Pose) -> Vec<(u32, V::Shape, V::Pose)> {
    (0..shape.part_count() as u32)
        .map(|i| {
            let (s, p) = place(shape, pose, i);
            (i, s, p)
        })
        .collect()
}

/// A collider as the brute force keeps it.
struct Kept<V: Space> {
    handle: Handle,
    fixed: bool,
    shape: ColliderShape<V>,
    pose: V::Pose,
}

/// The deepest contact over every part pair of `a` and `b`.
fn brute_deepest<V: Space>(a: &Kept<V>, b: &Kept<V>) -> f32 {
    let mut deepest = f32::NEG_INFINITY;
    for (_, sa, pa) in placed(&a.shape, &a.pose) {
        for (_, sb, pb) in placed(&b.shape, &b.pose) {
            deepest = deepest.max(V::contact(&sa, &pa, &sb, &pb).depth);
        }
    }
    deepest
}

/// Half the diagonal of a collider's box: above its size, so 1% of it
/// bounds the contact margin from above.
fn size_bound<V: Space>(k: &Kept<V>) -> f32 {
    let b = k.shape.aabb(&k.pose);
    0.5 * (0..V::DIM)
        .map(|i| (b.max().axis(i) - b.min().axis(i)).powi(2))
        .sum::<f32>()
        .sqrt()
}

/// A seeded level (a heightfield, a loose mesh, two compounds, convex
/// movers) stepped 30 times with the movers and compounds moving: the
/// events and every query against the brute force over all parts.
fn against_brute_force<V: Level>(seed: u64, offset: f32) -> [usize; 4] {
    let mut rng = SceneRng::new(seed);
    let spread = 6.0;
    let shift = |p: V| V::from_axes(|i| p.axis(i) + offset);
    let mut world: World<V, u32> = World::new();
    let mut kept: Vec<Kept<V>> = Vec::new();
    let mut add =
        |world: &mut World<V, u32>, shape: ColliderShape<V>, pose: V::Pose, fixed: bool| {
            let c = if fixed {
                Collider::fixed(shape.clone(), pose, 0)
            } else {
                Collider::moving(shape.clone(), pose, 0)
            };
            let handle = world.insert(c).unwrap();
            kept.push(Kept {
                handle,
                fixed,
                shape,
                pose,
            });
        };
    let corner = V::from_axes(|i| if i == 1 { -1.5 } else { -8.0 });
    add(
        &mut world,
        V::ground(&mut rng, 16).into(),
        V::unturned(shift(corner)),
        true,
    );
    let soup_at = V::from_axes(|i| if i == 1 { 2.0 } else { 0.0 });
    add(
        &mut world,
        V::soup(&mut rng, 24, spread).into(),
        V::unturned(shift(soup_at)),
        true,
    );
    for _ in 0..2 {
        let parts: Vec<_> = (0..4)
            .map(|_| (V::shape(&mut rng), V::pose(&mut rng, 1.2)))
            .collect();
        let compound = Compound::new(parts).unwrap();
        let pose = V::shifted(&V::pose(&mut rng, spread), offset);
        add(&mut world, compound.into(), pose, false);
    }
    for _ in 0..40 {
        let shape = V::shape(&mut rng);
        let pose = V::shifted(&V::pose(&mut rng, spread), offset);
        add(&mut world, shape.into(), pose, false);
    }
    let mut held: Vec<(Handle, Handle)> = Vec::new();
    let mut counts = [0; 4];
    for step in 0..30 {
        for k in kept.iter_mut().filter(|k| !k.fixed) {
            if rng.below(3) == 0 {
                k.pose = V::shifted(&V::pose(&mut rng, spread), offset);
                world.set_pose(k.handle, k.pose).unwrap();
            }
        }
        let events = world.step();
        let what = format!("seed {seed} offset {offset} step {step}");
        let touching: Vec<(Handle, Handle)> = events.touching.iter().map(|t| (t.a, t.b)).collect();
        for (i, a) in kept.iter().enumerate() {
            for b in &kept[i + 1..] {
                if a.fixed && b.fixed {
                    continue;
                }
                let key = (a.handle.min(b.handle), a.handle.max(b.handle));
                let deepest = brute_deepest(a, b);
                let margin = 0.01 * size_bound(a).min(size_bound(b));
                let is = touching.contains(&key);
                if deepest > 1e-4 {
                    assert!(
                        is,
                        "{what}: {key:?} overlaps by {deepest} and is not touching"
                    );
                }
                if is {
                    assert!(
                        deepest >= -margin - 1e-4,
                        "{what}: {key:?} touches though apart by {}",
                        -deepest
                    );
                } else if held.contains(&key) {
                    assert!(deepest < 1e-4, "{what}: {key:?} stopped at depth {deepest}");
                }
            }
        }
        for t in &events.touching {
            let (a, b) = (
                kept.iter().find(|k| k.handle == t.a).unwrap(),
                kept.iter().find(|k| k.handle == t.b).unwrap(),
            );
            let parts = events.parts(t);
            if a.shape.part_count() == 1 && b.shape.part_count() == 1 {
                assert!(parts.is_empty());
                continue;
            }
            counts[0] += 1;
            counts[1] += parts.len();
            assert!(
                !parts.is_empty(),
                "{what}: a touching pair of parts lists its parts"
            );
            let deepest = parts
                .iter()
                .map(|p| p.contact.depth)
                .fold(f32::NEG_INFINITY, f32::max);
            assert_eq!(
                t.contact.depth, deepest,
                "{what}: the pair's contact is its deepest part's"
            );
            for p in parts {
                let (sa, pa) = part_at(a, p.part_a);
                let (sb, pb) = part_at(b, p.part_b);
                let c: Contact<V> = V::contact(&sa, &pa, &sb, &pb);
                if c != p.contact {
                    // An internal edge of a mesh: the element's face
                    // normal, on the contact's side, the depth kept.
                    let face = |k: &Kept<V>, part: u32| match &k.shape {
                        ColliderShape::Mesh(m) => Some(face_normal(m, part, &k.pose)),
                        _ => None,
                    };
                    let corrected =
                        [face(a, p.part_a), face(b, p.part_b)]
                            .iter()
                            .flatten()
                            .any(|f| {
                                let d: f32 = (0..V::DIM)
                                    .map(|k| f.axis(k) * p.contact.normal.axis(k))
                                    .sum();
                                d.abs() > 1.0 - 1e-5
                            });
                    assert!(
                        corrected && c.depth == p.contact.depth,
                        "{what}: part contact {} {}: {c:?} reported as {:?}",
                        p.part_a,
                        p.part_b,
                        p.contact
                    );
                }
                assert!(
                    p.manifold
                        .points()
                        .iter()
                        .all(|m| m.id.parts() == (p.part_a, p.part_b))
                );
                let margin = p.manifold.points().len();
                assert!(
                    margin >= 1 || p.contact.depth < 0.0,
                    "{what}: a touching part pair has points"
                );
            }
        }
        held = touching;
        counts[2] += queries(&world, &kept, &mut rng, spread, offset, &what);
    }
    counts[3] = held.len();
    counts
}

/// Element `i`'s unit normal with the mesh at `pose`.
fn face_normal<V: Space>(m: &Mesh<V>, i: u32, pose: &V::Pose) -> V {
    let corners: Vec<V> = m.elements()[i as usize]
        .as_ref()
        .iter()
        .map(|&v| V::apply(pose, m.vertices()[v as usize]))
        .collect();
    let d = |j: usize, k: usize| corners[j].axis(k) - corners[0].axis(k);
    let n = if V::DIM == 2 {
        [-d(1, 1), d(1, 0), 0.0]
    } else {
        [
            d(1, 1) * d(2, 2) - d(1, 2) * d(2, 1),
            d(1, 2) * d(2, 0) - d(1, 0) * d(2, 2),
            d(1, 0) * d(2, 1) - d(1, 1) * d(2, 0),
        ]
    };
    let len = n.iter().map(|x| x * x).sum::<f32>().sqrt();
    V::from_axes(|k| n[k] / len)
}

/// Part `i` of `k`, placed.
fn part_at<V: Space>(k: &Kept<V>, i: u32) -> (V::Shape, V::Pose) {
    place(&k.shape, &k.pose, i)
}

/// Rays, closest points and overlaps on `world` against a scan of every
/// part; how many rays hit.
fn queries<V: Level>(
    world: &World<V, u32>,
    kept: &[Kept<V>],
    rng: &mut SceneRng,
    spread: f32,
    offset: f32,
    what: &str,
) -> usize {
    let all = QueryFilter::new();
    let mut hits = 0;
    let point = |rng: &mut SceneRng| V::position(&V::shifted(&V::pose(rng, spread * 1.3), offset));
    for q in 0..20 {
        let (from, to) = (point(rng), point(rng));
        let what = format!("{what} query {q}");
        if let Ok(ray) = Ray::new(from, V::from_axes(|i| to.axis(i) - from.axis(i)), 1.0) {
            let mut best: Option<(f32, Handle, u32)> = None;
            for k in kept {
                for (i, s, p) in placed(&k.shape, &k.pose) {
                    // A mesh's elements are closed: seams are crossed.
                    let hit = match &k.shape {
                        ColliderShape::Mesh(m) => m.cast_ray_element(i as usize, &ray, &k.pose),
                        _ => V::cast_ray(&s, &ray, &p),
                    };
                    if let Some(h) = hit {
                        if best.is_none_or(|b| (h.t, k.handle, i) < b) {
                            best = Some((h.t, k.handle, i));
                        }
                    }
                }
            }
            let got = world.cast_ray(&ray, &all).map(|h| (h.t, h.handle, h.part));
            assert_eq!(got, best, "{what}: first ray hit");
            hits += usize::from(got.is_some());
        }
        let p = point(rng);
        let mut near: Option<f32> = None;
        for k in kept {
            for (_, s, pose) in placed(&k.shape, &k.pose) {
                let c = V::contact(&s, &pose, &V::dot(), &V::unturned(p));
                let d = (-c.depth).max(0.0);
                near = Some(near.map_or(d, |n: f32| n.min(d)));
            }
        }
        let got = world
            .closest_point(p, 100.0, &all)
            .unwrap()
            .map(|c| c.distance);
        assert_eq!(got, near.filter(|&d| d <= 100.0), "{what}: closest point");
        let probe = V::shape(rng);
        let at = V::shifted(&V::pose(rng, spread), offset);
        let mut over: Vec<Handle> = kept
            .iter()
            .filter(|k| {
                placed(&k.shape, &k.pose)
                    .iter()
                    .any(|(_, s, pose)| V::contact(&probe, &at, s, pose).depth >= 0.0)
            })
            .map(|k| k.handle)
            .collect();
        over.sort_unstable();
        assert_eq!(
            world.overlap_shape_all(&probe, &at, &all),
            over,
            "{what}: overlap"
        );
    }
    hits
}

#[test]
fn parts_2d_match_a_brute_force_over_every_part() {
    for (seed, offset) in [(1, 0.0), (2, 0.0), (3, 1e4)] {
        let counts = against_brute_force::<Vec2>(seed, offset);
        assert!(
            counts[0] > 20 && counts[2] > 50,
            "the scene exercises parts: {counts:?}"
        );
    }
}

#[test]
fn parts_3d_match_a_brute_force_over_every_part() {
    for (seed, offset) in [(1, 0.0), (2, 0.0), (3, 1e4)] {
        let counts = against_brute_force::<Vec3>(seed, offset);
        assert!(
            counts[0] > 20 && counts[2] > 50,
            "the scene exercises parts: {counts:?}"
        );
    }
}

#[test]
fn bad_meshes_grids_and_compounds_are_errors_that_say_where() {
    use collide::narrow::ShapeError;
    use collide::narrow::d3::Triangle;
    use collide::world::{Compound3, PartsError};
    let square = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, 1.0), Vec3::Z];
    let nan = [Vec3::ZERO, Vec3::new(1.0, f32::NAN, 0.0), Vec3::Z];
    assert!(matches!(
        Mesh3::new(&nan, &[[0, 1, 2]]),
        Err(PartsError::Vertex { vertex: 1, .. })
    ));
    let inf = [Vec3::ZERO, Vec3::X, Vec3::new(0.0, 0.0, f32::INFINITY)];
    assert!(matches!(
        Mesh3::new(&inf, &[[0, 1, 2]]),
        Err(PartsError::Vertex { vertex: 2, .. })
    ));
    assert_eq!(
        Mesh3::new(&square, &[[0, 2, 1], [0, 3, 4]]),
        Err(PartsError::Index {
            element: 1,
            index: 4,
            vertices: 4
        })
    );
    // Corners on one line, or twice the same corner: refused, not dropped.
    let line = [Vec3::ZERO, Vec3::X, 2.0 * Vec3::X];
    assert_eq!(
        Mesh3::new(&line, &[[0, 1, 2]]),
        Err(PartsError::Degenerate { element: 0 })
    );
    assert_eq!(
        Mesh3::new(&square, &[[0, 2, 1], [0, 0, 3]]),
        Err(PartsError::Degenerate { element: 1 })
    );
    assert_eq!(
        Mesh2::new(&[Vec2::ZERO, Vec2::X], &[[0, 1], [1, 1]]),
        Err(PartsError::Degenerate { element: 1 })
    );
    assert_eq!(
        Mesh3::new(&square, &[]),
        Err(PartsError::Empty { what: "mesh" })
    );
    assert_eq!(
        Mesh3::from_heights(3, 3, &[0.0; 8], Vec2::ONE),
        Err(PartsError::GridSize {
            columns: 3,
            rows: 3,
            heights: 8
        })
    );
    assert_eq!(
        Mesh3::from_heights(1, 3, &[0.0; 3], Vec2::ONE),
        Err(PartsError::GridTooSmall {
            columns: 1,
            rows: 3
        })
    );
    let mut heights = [0.0; 9];
    heights[5] = f32::NAN;
    assert!(matches!(
        Mesh3::from_heights(3, 3, &heights, Vec2::ONE),
        Err(PartsError::Height { index: 5, .. })
    ));
    assert_eq!(
        Mesh3::from_heights(3, 3, &[0.0; 9], Vec2::new(1.0, -2.0)),
        Err(PartsError::CellSize {
            axis: 2,
            value: -2.0
        })
    );
    assert!(matches!(
        Mesh2::from_heights(&[0.0, 1.0], f32::NAN),
        Err(PartsError::CellSize { axis: 0, .. })
    ));
    assert_eq!(
        Mesh2::from_heights(&[0.0], 1.0),
        Err(PartsError::GridTooSmall {
            columns: 1,
            rows: 1
        })
    );
    assert_eq!(
        Compound3::new([]),
        Err(PartsError::Empty { what: "compound" })
    );
    assert_eq!(
        Triangle::new(Vec3::ZERO, Vec3::X, Vec3::new(0.5, 0.0, 0.0)),
        Err(ShapeError::Degenerate { points: 3 })
    );
    assert!(matches!(
        Triangle::new(Vec3::ZERO, Vec3::X, Vec3::new(0.0, f32::NAN, 1.0)),
        Err(ShapeError::NonFinite { .. })
    ));
    // Each message says what to do.
    let text = PartsError::Index {
        element: 1,
        index: 4,
        vertices: 4,
    }
    .to_string();
    assert!(
        text.contains("element 1") && text.contains("below 4"),
        "{text}"
    );
}

#[test]
fn a_warm_world_of_meshes_and_compounds_steps_without_allocating() {
    use collide::narrow::d3::{Cuboid, Pose, Sphere};
    use collide::world::{Collider3, Compound3, World3};
    use collide_scenes::alloc::{reset_tracked, track, tracked};
    let mut rng = SceneRng::new(5);
    let mut world = World3::new();
    let n = 31;
    let heights: Vec<f32> = (0..n * n).map(|_| rng.range(-0.3, 0.3)).collect();
    let ground = Mesh3::from_heights(n, n, &heights, Vec2::ONE).unwrap();
    world
        .insert(Collider3::fixed(
            ground,
            Pose::at(Vec3::new(-15.0, 0.0, -15.0)).unwrap(),
            (),
        ))
        .unwrap();
    let brick = Cuboid::new(Vec3::new(0.5, 0.25, 0.25)).unwrap();
    let wall = Compound3::new((0..10).map(|i| {
        let at = Vec3::new((i % 5) as f32 - 2.0, 0.5 * (i / 5) as f32, 0.0);
        (brick.into(), Pose::at(at).unwrap())
    }))
    .unwrap();
    let wall = world
        .insert(Collider3::moving(wall, Pose::IDENTITY, ()))
        .unwrap();
    let balls: Vec<Handle> = (0..100)
        .map(|_| {
            world
                .insert(Collider3::moving(
                    Sphere::new(0.5).unwrap(),
                    Pose::IDENTITY,
                    (),
                ))
                .unwrap()
        })
        .collect();
    let tick = |rng: &mut SceneRng, world: &mut World3| {
        let mut place = |h: Handle, rng: &mut SceneRng| {
            let at = Vec3::new(
                rng.range(-12.0, 12.0),
                rng.range(-0.2, 0.8),
                rng.range(-12.0, 12.0),
            );
            world.set_pose(h, Pose::at(at).unwrap()).unwrap();
        };
        for &h in &balls {
            place(h, rng);
        }
        place(wall, rng);
        let events = world.step();
        events
            .touching
            .iter()
            .map(|t| events.parts(t).len())
            .sum::<usize>()
    };
    for _ in 0..50 {
        tick(&mut rng, &mut world);
    }
    reset_tracked();
    let parts: usize = track(|| (0..20).map(|_| tick(&mut rng, &mut world)).sum());
    assert!(parts > 500, "the scene touches parts: {parts}");
    assert_eq!(tracked().allocations, 0, "a warm step allocated");
}

/// A dimension's mirror in x (the plane or line x = 0).
trait Mirror: Level {
    /// A pose mirrored.
    fn mirror_pose(pose: &Self::Pose) -> Self::Pose;
    /// A convex shape mirrored in its own x (boxes, balls and capsules
    /// along y are their own mirrors).
    fn mirror_convex(shape: &Self::Shape) -> Self::Shape;
    /// A mesh's elements with their windings reversed.
    fn reversed(elements: &[Self::Element]) -> Vec<Self::Element>;
    /// A point or direction mirrored.
    fn mirror(v: Self) -> Self {
        Self::from_axes(|k| if k == 0 { -v.axis(0) } else { v.axis(k) })
    }
}

impl Mirror for Vec2 {
    fn mirror_pose(pose: &collide::narrow::d2::Pose) -> collide::narrow::d2::Pose {
        collide::narrow::d2::Pose::new(Self::mirror(pose.position()), -pose.angle()).unwrap()
    }
    fn mirror_convex(shape: &collide::narrow::d2::Shape) -> collide::narrow::d2::Shape {
        use collide::narrow::d2::{Polygon, Shape};
        match shape {
            Shape::Polygon(p) => {
                let points: Vec<Vec2> = p
                    .vertices()
                    .iter()
                    .rev()
                    .map(|&v| Self::mirror(v))
                    .collect();
                Polygon::rounded(&points, p.radius()).unwrap().into()
            }
            other => other.clone(),
        }
    }
    fn reversed(elements: &[[u32; 2]]) -> Vec<[u32; 2]> {
        elements.iter().map(|&[a, b]| [b, a]).collect()
    }
}

impl Mirror for Vec3 {
    fn mirror_pose(pose: &collide::narrow::d3::Pose) -> collide::narrow::d3::Pose {
        let q = pose.rotation();
        collide::narrow::d3::Pose::new(
            Self::mirror(pose.position()),
            glam::Quat::from_xyzw(q.x, -q.y, -q.z, q.w),
        )
        .unwrap()
    }
    fn mirror_convex(shape: &collide::narrow::d3::Shape) -> collide::narrow::d3::Shape {
        use collide::narrow::d3::{Polyhedron, Shape, Triangle};
        match shape {
            Shape::Polyhedron(p) => {
                let points: Vec<Vec3> = p.points().iter().map(|&v| Self::mirror(v)).collect();
                Polyhedron::new(&points).unwrap().into()
            }
            Shape::Triangle(t) => {
                let [a, b, c] = t.points().map(Self::mirror);
                Triangle::new(a, c, b).unwrap().into()
            }
            other => other.clone(),
        }
    }
    fn reversed(elements: &[[u32; 3]]) -> Vec<[u32; 3]> {
        elements.iter().map(|&[a, b, c]| [a, c, b]).collect()
    }
}

/// A collider's shape mirrored in its own x.
fn mirror_shape<V: Mirror>(shape: &ColliderShape<V>) -> ColliderShape<V> {
    match shape {
        ColliderShape::Convex(s) => ColliderShape::Convex(V::mirror_convex(s)),
        ColliderShape::Compound(c) => Compound::new(
            c.parts()
                .iter()
                .map(|(s, p)| (V::mirror_convex(s), V::mirror_pose(p))),
        )
        .unwrap()
        .into(),
        ColliderShape::Mesh(m) => {
            let v: Vec<V> = m.vertices().iter().map(|&p| V::mirror(p)).collect();
            Mesh::new(&v, &V::reversed(m.elements())).unwrap().into()
        }
    }
}

/// The random level (a heightfield, a loose mesh, two moving compounds,
/// 40 convex movers) and its mirror in x, 30 steps of the same moves:
/// every pair touching deeper than 1e-4 in one touches in the other, as
/// deep within 1e-4, its normal mirrored within 1e-3. How many pairs it
/// compared.
fn mirrored_level<V: Mirror>(seed: u64) -> usize {
    let mut rng = SceneRng::new(seed);
    let (mut world, mut mirrored) = (World::<V, u32>::new(), World::<V, u32>::new());
    let mut movers = Vec::new();
    let mut add = |shape: ColliderShape<V>,
                   pose: V::Pose,
                   fixed: bool,
                   movers: &mut Vec<(Handle, Handle)>| {
        let make = |s: ColliderShape<V>, p: V::Pose| {
            if fixed {
                Collider::fixed(s, p, 0)
            } else {
                Collider::moving(s, p, 0)
            }
        };
        let a = world.insert(make(shape.clone(), pose)).unwrap();
        let b = mirrored
            .insert(make(mirror_shape(&shape), V::mirror_pose(&pose)))
            .unwrap();
        if !fixed {
            movers.push((a, b));
        }
    };
    let ground = V::ground(&mut rng, 16);
    let corner = V::from_axes(|k| if k == 1 { -1.5 } else { -8.0 });
    add(ground.into(), V::unturned(corner), true, &mut movers);
    let above = V::from_axes(|k| if k == 1 { 2.0 } else { 0.0 });
    add(
        V::soup(&mut rng, 24, 6.0).into(),
        V::unturned(above),
        true,
        &mut movers,
    );
    for _ in 0..2 {
        let parts: Vec<_> = (0..4)
            .map(|_| (V::shape(&mut rng), V::pose(&mut rng, 1.2)))
            .collect();
        add(
            Compound::new(parts).unwrap().into(),
            V::pose(&mut rng, 6.0),
            false,
            &mut movers,
        );
    }
    for _ in 0..40 {
        add(
            V::shape(&mut rng).into(),
            V::pose(&mut rng, 6.0),
            false,
            &mut movers,
        );
    }
    let mut compared = 0;
    for step in 0..30 {
        for &(a, b) in &movers {
            if rng.below(3) == 0 {
                let p = V::pose(&mut rng, 6.0);
                world.set_pose(a, p).unwrap();
                mirrored.set_pose(b, V::mirror_pose(&p)).unwrap();
            }
        }
        let (x, y) = (world.step(), mirrored.step());
        let depth = |e: &collide::world::WorldEvents<V>, a: Handle, b: Handle| {
            e.touching
                .iter()
                .find(|t| (t.a.index(), t.b.index()) == (a.index(), b.index()))
                .map(|t| t.contact)
        };
        // Both worlds got the same inserts in order: the same slots (each
        // world's handles carry its own owner).
        for t in &x.touching {
            match depth(&y, t.a, t.b) {
                Some(c) => {
                    compared += 1;
                    assert!(
                        (c.depth - t.contact.depth).abs() < 1e-4,
                        "step {step}: {t:?} mirrored {c:?}"
                    );
                    let n = V::mirror(t.contact.normal);
                    let off = (0..V::DIM)
                        .map(|k| (c.normal.axis(k) - n.axis(k)).powi(2))
                        .sum::<f32>()
                        .sqrt();
                    assert!(off < 1e-3, "step {step}: {t:?} mirrored {c:?}");
                }
                None => assert!(
                    t.contact.depth < 1e-4,
                    "step {step}: {t:?} not in the mirror"
                ),
            }
        }
        for t in &y.touching {
            if depth(&x, t.a, t.b).is_none() {
                assert!(t.contact.depth < 1e-4, "step {step}: mirrored {t:?} alone");
            }
        }
    }
    compared
}

#[test]
fn a_level_of_parts_mirrored_touches_the_same_parts_as_deep() {
    let compared = mirrored_level::<Vec3>(31);
    assert!(compared > 200, "the 3D level touches: {compared}");
    let compared = mirrored_level::<Vec2>(33);
    assert!(compared > 200, "the 2D level touches: {compared}");
}

/// A flat floor's triangles (and so its tree's boxes) have no height: a
/// ray straight down must still find them, in 3D and 2D, turned or not.
#[test]
fn a_ray_straight_down_hits_a_flat_floor() {
    let all = QueryFilter::default();
    let floor = Mesh3::from_heights(4, 4, &[0.0; 16], Vec2::ONE).unwrap();
    for pose in [
        collide::narrow::d3::Pose::IDENTITY,
        collide::narrow::d3::Pose::at(Vec3::new(1e4, 0.0, -1e4)).unwrap(),
    ] {
        let mut world = World::<Vec3, u32>::new();
        let h = world
            .insert(Collider::fixed(floor.clone(), pose, 0))
            .unwrap();
        world.step();
        for (x, z) in [(0.5, 0.5), (1.0, 1.0), (2.25, 1.75), (0.0, 0.0), (3.0, 3.0)] {
            let from = pose.position() + Vec3::new(x, 2.0, z);
            let ray = Ray::new(from, Vec3::NEG_Y, 10.0).unwrap();
            let hit = world.cast_ray(&ray, &all);
            assert_eq!(
                hit.map(|h| (h.handle, h.t)),
                Some((h, 2.0)),
                "3D at {x}, {z}"
            );
        }
    }
    let line = Mesh2::from_heights(&[0.0; 5], 1.0).unwrap();
    let mut world = World::<Vec2, u32>::new();
    let h = world
        .insert(Collider::fixed(
            line,
            collide::narrow::d2::Pose::IDENTITY,
            0,
        ))
        .unwrap();
    world.step();
    for x in [0.5, 1.0, 3.75] {
        let ray = Ray::new(Vec2::new(x, 2.0), Vec2::NEG_Y, 10.0).unwrap();
        let hit = world.cast_ray(&ray, &all);
        assert_eq!(hit.map(|h| (h.handle, h.t)), Some((h, 2.0)), "2D at {x}");
    }
}

/// A sweep through a world of parts (a heightfield, a loose mesh, fixed
/// compounds) stops where one through every part as an object of its own
/// stops, at the same hit on the same part (ties to the lower part), on
/// the world and on its snapshot; in 2D and 3D, near the origin and 1e4
/// away.
#[test]
fn a_sweep_meets_meshes_and_compounds_part_by_part() {
    use collide::geometry::Vector;
    use collide::motion::{Response, SweepLimits};
    use collide::narrow::Support;
    use collide::{BroadPhase, Brute};
    macro_rules! check {
        ($v:ty, $d:ident, $seed:expr, $offset:expr) => {{
            let offset: f32 = $offset;
            let mut rng = SceneRng::new($seed);
            let mut world = World::<$v, u32>::new();
            let mut parts: Brute<$v> = Brute::new();
            // Each part's shape and pose, and the collider it belongs to.
            let mut pieces = Vec::new();
            let mut add = |world: &mut World<$v, u32>, shape: ColliderShape<$v>, pose| {
                let h = world
                    .insert(Collider::fixed(shape.clone(), pose, 0))
                    .unwrap();
                for (i, s, p) in placed(&shape, &pose) {
                    let k = parts.insert(<$v as Space>::aabb(&s, &p), ()).unwrap();
                    assert_eq!(k.index() as usize, pieces.len());
                    pieces.push((s, p, (h, i)));
                }
            };
            let corner = <$v>::from_axes(|k| if k == 1 { -1.5 } else { -8.0 } + offset);
            add(
                &mut world,
                <$v>::ground(&mut rng, 16).into(),
                <$v>::unturned(corner),
            );
            let above = <$v>::from_axes(|k| if k == 1 { 2.0 } else { 0.0 } + offset);
            add(
                &mut world,
                <$v>::soup(&mut rng, 24, 6.0).into(),
                <$v>::unturned(above),
            );
            for _ in 0..3 {
                let bits: Vec<_> = (0..4)
                    .map(|_| (<$v>::shape(&mut rng), <$v>::pose(&mut rng, 1.2)))
                    .collect();
                let at = <$v>::shifted(&<$v>::pose(&mut rng, 6.0), offset);
                add(&mut world, Compound::new(bits).unwrap().into(), at);
            }
            world.step();
            parts.step();
            let snapshot = world.snapshot();
            let shape_of = |h: Handle| {
                pieces
                    .get(h.index() as usize)
                    .map(|(s, p, _)| (s as &dyn Support<$v>, *p))
            };
            let mut hits = 0;
            for k in 0..300 {
                let mover = <$v>::shape(&mut rng);
                let start = <$v>::shifted(&<$v>::pose(&mut rng, 7.0), offset);
                let motion = <$v>::from_axes(|_| rng.range(-9.0, 9.0));
                // A slider starting inside pieces first moves out of them one
                // after another, each found near where it started: which it
                // finds depends on how loosely the boxes are drawn, so
                // sliders start clear.
                let clear = pieces
                    .iter()
                    .all(|(s, p, _)| <$v as Space>::contact(&mover, &start, s, p).depth <= 0.0);
                let responses = [
                    Response::Stop,
                    Response::Bounce { restitution: 0.5 },
                    Response::Slide,
                ];
                for response in &responses[..if clear { 3 } else { 2 }] {
                    let mut sweeper =
                        collide::motion::$d::Sweeper::new(*response, SweepLimits::default());
                    let bare = sweeper
                        .sweep(&parts, shape_of, <$v>::support(&mover), start, motion)
                        .clone();
                    let want = (
                        bare.end,
                        bare.hits
                            .iter()
                            .map(|h| (pieces[h.handle.index() as usize].2, h.t, h.contact))
                            .collect::<Vec<_>>(),
                    );
                    let key = |s: &collide::motion::Sweep<$v, <$v as Space>::Pose>| {
                        let hits = s.hits.iter().map(|h| ((h.handle, h.part), h.t, h.contact));
                        (s.end, hits.collect::<Vec<_>>())
                    };
                    let what = format!("{} sweep {k} at {offset}, {response:?}", stringify!($v));
                    let got = key(sweeper.sweep_in(&world, <$v>::support(&mover), start, motion));
                    assert_eq!(got, want, "{what}");
                    let got =
                        key(sweeper.sweep_in(&snapshot, <$v>::support(&mover), start, motion));
                    assert_eq!(got, want, "{what} on the snapshot");
                    hits += want.1.len();
                }
            }
            assert!(hits > 300, "{} at {offset}: {hits} hits", stringify!($v));
        }};
    }
    for offset in [0.0, 1e4] {
        check!(Vec2, d2, 41, offset);
        check!(Vec3, d3, 43, offset);
    }
}
