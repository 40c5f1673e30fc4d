//! Every world query against brute force over all colliders, with random
//! query filters (groups, sensors in or out, exclusions, a predicate on
//! the value), on every structure, on the live world (with moves since
//! the last step) and on a snapshot, near the origin and 1e4 away.

use super::{Live, Random, random_filter};
use crate::checks::world_ops::{cast, closest, first_ray_hit, insert, overlapping, ray_hits};
use collide::Structure;
use collide::geometry::Ray;
use collide::narrow::{d2, d3};
use collide::world::{Collider, QueryFilter, World, World2, WorldQuery, WorldSettings};
use collide::{Error, Handle};
use collide_scenes::SceneRng;
use glam::{Vec2, Vec3};
use std::ops::ControlFlow;

/// Every query of `queries` on `on` (the world or its snapshot) against
/// the brute force over `live`.
fn check<V: Random>(
    on: &impl WorldQuery<V, u32>,
    live: &[Live<V>],
    rng: &mut SceneRng,
    spread: f32,
    offset: f32,
    what: &str,
) -> [usize; 5] {
    let mut found = [0; 5];
    let point = |rng: &mut SceneRng| V::position(&V::shifted(&V::pose(rng, spread * 1.2), offset));
    for k in 0..150 {
        let groups = random_filter(rng);
        let sensors = rng.below(2) == 0;
        let exclude = [live[rng.below(live.len())].handle];
        let excluded = (rng.below(2) == 0).then_some(exclude[0]);
        let divisor = (rng.below(2) == 0).then(|| 2 + rng.below(3) as u32);
        let predicate = move |_: Handle, v: &u32| divisor.is_none_or(|d| !v.is_multiple_of(d));
        let mut filter = QueryFilter::new().with_filter(groups);
        if sensors {
            filter = filter.with_sensors();
        }
        if excluded.is_some() {
            filter = filter.excluding(&exclude);
        }
        if divisor.is_some() {
            filter = filter.with_predicate(&predicate);
        }
        let seen: Vec<&Live<V>> = live
            .iter()
            .filter(|c| {
                (sensors || !c.sensor)
                    && groups.allows(c.filter)
                    && excluded != Some(c.handle)
                    && divisor.is_none_or(|d| !c.value.is_multiple_of(d))
            })
            .collect();
        let what = format!("{what} query {k}");
        // Rays: the first hit and every hit.
        let (from, to) = (point(rng), point(rng));
        if let Ok(ray) = Ray::new(
            from,
            V::from_axes(|i| to.axis(i) - from.axis(i)),
            rng.range(0.2, 1.5),
        ) {
            let every = ray_hits(&seen, &ray);
            assert_eq!(
                on.cast_ray(&ray, &filter),
                first_ray_hit(&every),
                "{what}: ray"
            );
            let mut got = Vec::new();
            on.cast_ray_each(&ray, &filter, |h| {
                got.push(h);
                ControlFlow::Continue(())
            });
            got.sort_unstable_by_key(|h| h.handle);
            assert_eq!(got, every, "{what}: every ray hit");
            found[0] += every.len();
        }
        // A shape cast.
        let (shape, pose) = (V::shape(rng), V::shifted(&V::pose(rng, spread), offset));
        let motion = V::from_axes(|_| rng.range(-spread, spread));
        let got = on.cast_shape(&shape, &pose, motion, &filter).unwrap();
        assert_eq!(
            got,
            cast(&seen, &shape, &pose, motion),
            "{what}: shape cast"
        );
        found[1] += usize::from(got.is_some());
        // Overlaps.
        let over = on.overlap_shape_all(&shape, &pose, &filter);
        assert_eq!(
            over,
            overlapping(&seen, &shape, &pose),
            "{what}: shape overlap"
        );
        found[2] += over.len();
        // Half the points at a collider's origin, which its shape holds.
        let p = match rng.below(2) {
            0 => point(rng),
            _ => V::position(&live[rng.below(live.len())].pose),
        };
        let holding = on.overlap_point_all(p, &filter).unwrap();
        assert_eq!(
            holding,
            overlapping(&seen, &V::dot(), &V::at(p).unwrap()),
            "{what}: point"
        );
        found[3] += holding.len();
        // The closest point.
        let max = rng.range(0.0, spread * 0.5);
        let near = on.closest_point(p, max, &filter).unwrap();
        assert_eq!(near, closest(&seen, p, max), "{what}: closest point");
        found[4] += usize::from(near.is_some());
    }
    found
}

fn queries_against_brute_force<V: Random>(
    structure: Structure,
    seed: u64,
    spread: f32,
    offset: f32,
) {
    let settings = WorldSettings::default().with_structure(structure);
    let mut world: World<V, u32> = World::with_settings(settings);
    let mut rng = SceneRng::new(seed);
    let mut live = Vec::new();
    for _ in 0..120 {
        let (shape, pose) = (
            V::shape(&mut rng),
            V::shifted(&V::pose(&mut rng, spread), offset),
        );
        let (filter, sensor, value) = (
            random_filter(&mut rng),
            rng.below(6) == 0,
            rng.below(100) as u32,
        );
        live.push(insert(&mut world, shape, pose, false, filter, sensor, value).unwrap());
    }
    world.step();
    // Moves since the step are seen.
    for x in live.iter_mut().step_by(3) {
        x.pose = V::shifted(&V::pose(&mut rng, spread), offset);
        world.set_pose(x.handle, x.pose).unwrap();
    }
    let what = format!("{} at {offset}", structure.name());
    let found = check(&world, &live, &mut rng, spread, offset, &what);
    assert!(found.iter().all(|&n| n > 10), "{what}: {found:?}");
    // A snapshot answers as the world did, after the world moves on.
    let snapshot = world.snapshot();
    for x in &live {
        world.remove(x.handle).unwrap();
    }
    let mut again = SceneRng::new(seed + 1000);
    check(
        &snapshot,
        &live,
        &mut again,
        spread,
        offset,
        &format!("{what} snapshot"),
    );
}

#[test]
fn queries_on_every_structure_equal_brute_force_2d() {
    for (k, structure) in Structure::ALL.into_iter().enumerate() {
        queries_against_brute_force::<Vec2>(structure, 300 + k as u64, 10.0, 0.0);
    }
}

#[test]
fn queries_on_every_structure_equal_brute_force_3d() {
    for (k, structure) in Structure::ALL.into_iter().enumerate() {
        queries_against_brute_force::<Vec3>(structure, 400 + k as u64, 5.0, 0.0);
    }
}

#[test]
fn queries_equal_brute_force_far_from_the_origin() {
    for offset in [1e3, -1e4] {
        queries_against_brute_force::<Vec2>(Structure::Auto, 500, 10.0, offset);
        queries_against_brute_force::<Vec3>(Structure::Bvh, 501, 5.0, offset);
    }
}

#[test]
fn a_ray_from_inside_hits_at_zero_against_its_direction() {
    let mut world = World2::new();
    let room = world
        .insert(Collider::fixed(
            d2::Cuboid::new(Vec2::splat(5.0)).unwrap(),
            d2::Pose::IDENTITY,
            (),
        ))
        .unwrap();
    let ray = Ray::new(Vec2::ZERO, Vec2::new(0.0, 2.0), 10.0).unwrap();
    let hit = world.cast_ray(&ray, &QueryFilter::new()).unwrap();
    assert_eq!(
        (hit.handle, hit.t, hit.normal, hit.point),
        (room, 0.0, -Vec2::Y, Vec2::ZERO)
    );
}

#[test]
fn a_cast_starting_inside_hits_at_zero_with_the_way_out() {
    let mut world = World2::new();
    let wall = world
        .insert(Collider::fixed(
            d2::Cuboid::new(Vec2::new(0.5, 5.0)).unwrap(),
            d2::Pose::IDENTITY,
            (),
        ))
        .unwrap();
    let ball = d2::Circle::new(0.5).unwrap().into();
    let at = d2::Pose::at(Vec2::new(-0.8, 0.0)).unwrap();
    // Moving away does not matter: it starts 0.2 deep.
    let hit = world
        .cast_shape(&ball, &at, Vec2::new(-5.0, 0.0), &QueryFilter::new())
        .unwrap()
        .unwrap();
    assert_eq!((hit.handle, hit.t), (wall, 0.0));
    assert!((hit.contact.depth - 0.2).abs() < 1e-6 && hit.contact.normal == Vec2::X);
}

#[test]
fn bad_query_input_is_an_error() {
    let world = World2::<()>::new();
    let any = QueryFilter::new();
    let ball: d2::Shape = d2::Circle::new(0.5).unwrap().into();
    assert!(matches!(
        world.overlap_point_all(Vec2::NAN, &any),
        Err(Error::Shape(_))
    ));
    assert!(matches!(
        world.closest_point(Vec2::ZERO, -1.0, &any),
        Err(Error::Setting { .. })
    ));
    assert!(matches!(
        world.closest_point(Vec2::ZERO, f32::INFINITY, &any),
        Err(Error::Setting { .. })
    ));
    assert!(matches!(
        world.closest_point(Vec2::INFINITY, 1.0, &any),
        Err(Error::Shape(_))
    ));
    assert!(matches!(
        world.cast_shape(&ball, &d2::Pose::IDENTITY, Vec2::new(f32::NAN, 0.0), &any),
        Err(Error::Shape(_))
    ));
    let _ = d3::Pose::IDENTITY;
}

/// What a 2D sweep did: its end and each hit's collider, time and contact.
type SweepKey = (d2::Pose, Vec<(u32, f32, collide::narrow::Contact<Vec2>)>);

fn key(s: &collide::motion::Sweep<Vec2, d2::Pose>) -> SweepKey {
    let hits = s.hits.iter().map(|h| (h.handle.index(), h.t, h.contact));
    (s.end, hits.collect())
}

#[test]
fn a_sweep_through_the_world_equals_one_through_its_boxes_and_shapes() {
    use collide::motion::{Response, SweepLimits, d2::Sweeper};
    use collide::narrow::Support;
    use collide::{BroadPhase, Brute as Boxes, Query};
    let mut world: World<Vec2, u32> = World::new();
    let mut boxes: Boxes<Vec2> = Boxes::new();
    let mut rng = SceneRng::new(21);
    let mut shapes = Vec::new();
    for _ in 0..80 {
        let (shape, pose) = (Vec2::shape(&mut rng), Vec2::pose(&mut rng, 12.0));
        let h = world
            .insert(Collider::fixed(shape.clone(), pose, 0))
            .unwrap();
        assert_eq!(
            boxes.insert(shape.aabb(&pose), ()).unwrap().index(),
            h.index()
        );
        shapes.push((shape, pose));
    }
    world.step();
    boxes.step();
    let snapshot = world.snapshot();
    let shape_of = |h: Handle| {
        shapes
            .get(h.index() as usize)
            .map(|(s, p)| (s as &dyn Support<Vec2>, *p))
    };
    let mut sweeper = Sweeper::new(Response::Slide, SweepLimits::default());
    let mut hits = 0;
    for k in 0..200 {
        let mover = d2::Circle::new(rng.range(0.1, 0.5)).unwrap();
        let start = d2::Pose::at(Vec2::pose(&mut rng, 14.0).position()).unwrap();
        let motion = Vec2::new(rng.range(-9.0, 9.0), rng.range(-9.0, 9.0));
        let bare = sweeper
            .sweep(&boxes, shape_of, &mover, start, motion)
            .clone();
        assert_eq!(
            key(sweeper.sweep_in(&world, &mover, start, motion)),
            key(&bare),
            "sweep {k}"
        );
        assert_eq!(
            key(sweeper.sweep_in(&snapshot, &mover, start, motion)),
            key(&bare),
            "sweep {k} on the snapshot"
        );
        hits += bare.hits.len();
    }
    assert!(hits > 50, "{hits} hits");
    // The world's boxes are its colliders', by collider handle.
    let everything = collide::Aabb2::new(Vec2::splat(-100.0), Vec2::splat(100.0)).unwrap();
    let all = world.query_aabb_all(&everything);
    assert_eq!(all, world.handles().collect::<Vec<_>>());
    assert_eq!(snapshot.query_aabb_all(&everything), all);
    assert_eq!(Query::aabb(&snapshot, all[3]), Query::aabb(&world, all[3]));
}

#[test]
fn a_sweep_through_the_world_seen_through_a_filter_meets_only_what_it_sees() {
    use collide::motion::{Response, SweepLimits, d2::Sweeper};
    use collide::narrow::Support;
    use collide::{BroadPhase, Brute as Boxes};
    let mut world: World<Vec2, u32> = World::new();
    let mut boxes: Boxes<Vec2> = Boxes::new();
    let mut rng = SceneRng::new(22);
    let mut live = Vec::new();
    for value in 0..80u32 {
        let (shape, pose) = (Vec2::shape(&mut rng), Vec2::pose(&mut rng, 12.0));
        let filter = random_filter(&mut rng);
        let sensor = rng.below(4) == 0;
        let mut collider = Collider::fixed(shape.clone(), pose, value).with_filter(filter);
        if sensor {
            collider = collider.as_sensor();
        }
        let h = world.insert(collider).unwrap();
        assert_eq!(
            boxes.insert(shape.aabb(&pose), ()).unwrap().index(),
            h.index()
        );
        live.push((h, shape, pose, filter, sensor));
    }
    world.step();
    boxes.step();
    let snapshot = world.snapshot();
    let mut sweeper = Sweeper::new(Response::Slide, SweepLimits::default());
    let mut hits = 0;
    for k in 0..300 {
        let groups = random_filter(&mut rng);
        let sensors = rng.below(3) == 0;
        let skip = [live[rng.below(live.len())].0];
        let divisor = 2 + rng.below(3) as u32;
        let predicate = |_: Handle, v: &u32| !v.is_multiple_of(divisor);
        let mut filter = QueryFilter::new().with_filter(groups).excluding(&skip);
        if sensors {
            filter = filter.with_sensors();
        }
        if k % 2 == 0 {
            filter = filter.with_predicate(&predicate);
        }
        // The brute force: the shapes of the colliders the filter passes.
        let shape_of = |h: Handle| {
            let (_, shape, pose, f, sensor) = live.get(h.index() as usize)?;
            let seen = (sensors || !sensor)
                && groups.allows(*f)
                && h != skip[0]
                && (k % 2 == 1 || !(h.index()).is_multiple_of(divisor));
            seen.then_some((shape as &dyn Support<Vec2>, *pose))
        };
        let mover = d2::Circle::new(rng.range(0.1, 0.5)).unwrap();
        let start = d2::Pose::at(Vec2::pose(&mut rng, 14.0).position()).unwrap();
        let motion = Vec2::new(rng.range(-9.0, 9.0), rng.range(-9.0, 9.0));
        let bare = sweeper
            .sweep(&boxes, shape_of, &mover, start, motion)
            .clone();
        assert_eq!(
            key(sweeper.sweep_in(&world.seen(filter), &mover, start, motion)),
            key(&bare),
            "sweep {k}"
        );
        assert_eq!(
            key(sweeper.sweep_in(&snapshot.seen(filter), &mover, start, motion)),
            key(&bare),
            "sweep {k} on the snapshot"
        );
        hits += bare.hits.len();
    }
    assert!(hits > 50, "{hits} hits");
}
