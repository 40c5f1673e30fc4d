//! A world at rest and under load: a stack resting for 10,000 ticks
//! reports nothing after its first step, the same at the origin, 1e4 away
//! and mirrored; a warm world's step allocates nothing; a large scene's
//! events (the narrow phase split across threads) are the same on 1, 2
//! and 3 threads.

use super::Random;
use collide::Handle;
use collide::Structure;
use collide::narrow::d3::{self, Sphere};
use collide::narrow::{Cuboid, d2};
use collide::world::{Collider, Space, World, WorldEvents, WorldSettings};
use collide_scenes::SceneRng;
use collide_scenes::alloc::{reset_tracked, track, tracked};
use glam::{Vec2, Vec3};

/// Where a scene is placed: moved by `offset` on every axis, `x`
/// mirrored when `mirror`.
#[derive(Clone, Copy, Debug)]
struct Place {
    offset: f32,
    mirror: bool,
}

/// A dimension's stack: boxes on boxes on a floor.
trait Stack: Space {
    /// A box of half extents `half` at `at` (x, up) in `place`.
    fn block(half: Vec2, at: Vec2, place: Place) -> (Self::Shape, Self::Pose);
}

impl Stack for Vec2 {
    fn block(half: Vec2, at: Vec2, place: Place) -> (d2::Shape, d2::Pose) {
        let x = if place.mirror { -at.x } else { at.x };
        let pose = d2::Pose::at(Vec2::new(x, at.y) + place.offset).unwrap();
        (Cuboid::new(half).unwrap().into(), pose)
    }
}

impl Stack for Vec3 {
    fn block(half: Vec2, at: Vec2, place: Place) -> (d3::Shape, d3::Pose) {
        let x = if place.mirror { -at.x } else { at.x };
        let pose = d3::Pose::at(Vec3::new(x, at.y, 0.3 * at.x) + place.offset).unwrap();
        (
            Cuboid::new(Vec3::new(half.x, half.y, half.x))
                .unwrap()
                .into(),
            pose,
        )
    }
}

/// Three columns of five unit boxes on a floor, each box sunk 1% of its
/// height into the one below (as a solver leaves a stack), in `place`;
/// each tick every box is set again to its pose, or jittered by `jitter`
/// of its size. Returns the touching pairs after the first step (by
/// index, which does not depend on the world), and
/// asserts no event after it for `ticks` ticks.
fn rest<V: Stack>(
    place: Place,
    jitter: f32,
    ticks: usize,
    structure: Structure,
) -> Vec<(u32, u32)> {
    let mut world: World<V, ()> =
        World::with_settings(WorldSettings::default().with_structure(structure));
    let (floor, at) = V::block(Vec2::new(20.0, 0.5), Vec2::new(0.0, -0.5), place);
    world.insert(Collider::fixed(floor, at, ())).unwrap();
    let mut blocks = Vec::new();
    for column in 0..3 {
        for level in 0..5 {
            let centre = Vec2::new(3.0 * column as f32 - 3.0, 0.5 + 0.99 * level as f32 - 0.01);
            let (shape, pose) = V::block(Vec2::splat(0.5), centre, place);
            blocks.push((
                world.insert(Collider::moving(shape, pose, ())).unwrap(),
                centre,
            ));
        }
    }
    let first = world.step();
    assert_eq!(
        first.started.len(),
        15,
        "{place:?}: every box on the one below"
    );
    let touching: Vec<_> = first
        .touching
        .iter()
        .map(|t| (t.a.index(), t.b.index()))
        .collect();
    drop(first);
    let mut rng = SceneRng::new(7);
    for tick in 0..ticks {
        for &(h, centre) in &blocks {
            let shake = Vec2::new(rng.range(-jitter, jitter), rng.range(-jitter, jitter));
            world
                .set_pose(h, V::block(Vec2::splat(0.5), centre + shake, place).1)
                .unwrap();
        }
        let events = world.step();
        assert!(
            events.started.is_empty() && events.stopped.is_empty() && events.touching.len() == 15,
            "{place:?} jitter {jitter} tick {tick}: {events:?}"
        );
    }
    touching
}

#[test]
fn a_resting_stack_reports_nothing_for_ten_thousand_ticks_anywhere() {
    let origin = Place {
        offset: 0.0,
        mirror: false,
    };
    for jitter in [0.0, 1e-6] {
        let at_origin = (
            rest::<Vec2>(origin, jitter, 10_000, Structure::Auto),
            rest::<Vec3>(origin, jitter, 10_000, Structure::Auto),
        );
        for place in [
            Place {
                offset: 1e3,
                mirror: false,
            },
            Place {
                offset: 1e4,
                mirror: false,
            },
            Place {
                offset: 0.0,
                mirror: true,
            },
            Place {
                offset: -1e4,
                mirror: true,
            },
        ] {
            let there = (
                rest::<Vec2>(place, jitter, 2_000, Structure::Auto),
                rest::<Vec3>(place, jitter, 2_000, Structure::Auto),
            );
            assert_eq!(there, at_origin, "{place:?} jitter {jitter}");
        }
    }
}

#[test]
fn a_warm_step_allocates_nothing() {
    for structure in Structure::ALL {
        let place = Place {
            offset: 0.0,
            mirror: false,
        };
        let mut world: World<Vec3, ()> =
            World::with_settings(WorldSettings::default().with_structure(structure));
        let (floor, at) = Vec3::block(Vec2::new(20.0, 0.5), Vec2::new(0.0, -0.5), place);
        world.insert(Collider::fixed(floor, at, ())).unwrap();
        let mut rng = SceneRng::new(11);
        let balls: Vec<Handle> = (0..200)
            .map(|_| {
                world
                    .insert(Collider::moving(
                        Sphere::new(0.5).unwrap(),
                        Vec3::pose(&mut rng, 8.0),
                        (),
                    ))
                    .unwrap()
            })
            .collect();
        let tick = |rng: &mut SceneRng, world: &mut World<Vec3, ()>| {
            for &h in &balls {
                world.set_pose(h, Vec3::pose(rng, 8.0)).unwrap();
            }
            let events = world.step();
            events.touching.len()
        };
        for _ in 0..50 {
            tick(&mut rng, &mut world);
        }
        reset_tracked();
        let touching: usize = track(|| (0..20).map(|_| tick(&mut rng, &mut world)).sum());
        assert!(touching > 100);
        assert_eq!(
            tracked().allocations,
            0,
            "{}: a warm step allocated",
            structure.name()
        );
    }
}

/// A hash of a step's events, contacts' bits included.
fn hash<V: Space>(events: &WorldEvents<V>, into: &mut u64) {
    let mut words = Vec::new();
    let pair = |a: Handle, b: Handle, words: &mut Vec<u64>| {
        words.push(u64::from(a.index()) << 32 | u64::from(a.generation()));
        words.push(u64::from(b.index()) << 32 | u64::from(b.generation()));
    };
    for &(a, b) in events.started.iter().chain(&events.stopped) {
        pair(a, b, &mut words);
    }
    let mut add = |x: u64| words.push(x);
    for t in &events.touching {
        let (a, b) = (t.a, t.b);
        add(u64::from(a.index()) << 32 | u64::from(b.index()));
        add(u64::from(t.contact.depth.to_bits()));
        for i in 0..V::DIM {
            add(u64::from(t.contact.normal.axis(i).to_bits()));
            add(u64::from(t.contact.point_a.axis(i).to_bits()));
        }
    }
    for w in words {
        *into = (*into ^ w).wrapping_mul(0x100_0000_01b3);
    }
}

/// 3,000 colliders of every kind, all moved each step for 8 steps, in a
/// pool of `threads`: the events' hash.
fn crowd(threads: usize) -> (u64, usize) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let mut world: World<Vec3, ()> = World::new();
        let mut rng = SceneRng::new(5);
        let handles: Vec<Handle> = (0..3000)
            .map(|_| {
                world
                    .insert(Collider::moving(
                        Vec3::shape(&mut rng),
                        Vec3::pose(&mut rng, 14.0),
                        (),
                    ))
                    .unwrap()
            })
            .collect();
        let (mut h, mut touching) = (0xcbf2_9ce4_8422_2325, 0);
        for _ in 0..8 {
            for &c in &handles {
                world.set_pose(c, Vec3::pose(&mut rng, 14.0)).unwrap();
            }
            let events = world.step();
            touching += events.touching.len();
            hash(&events, &mut h);
        }
        (h, touching)
    })
}

#[test]
fn events_are_the_same_on_one_two_and_three_threads() {
    let one = crowd(1);
    assert!(
        one.1 > 8 * 600,
        "{} touching: too few to split the narrow phase",
        one.1
    );
    assert_eq!(crowd(2), one);
    assert_eq!(crowd(3), one);
}
