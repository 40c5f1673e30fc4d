//! The world against brute force: random colliders of every kind moving,
//! reshaped, inserted and removed, on every structure underneath; at every
//! step the events equal those of a brute force that tests every pair with
//! the same contact and the same rule.

use collide::Structure;
use collide::narrow::d2::{self, Circle, Polygon};
use collide::narrow::d3::{self, Polyhedron, Sphere};
use collide::narrow::{Capsule, Cuboid};
use collide::world::{Collider, Space, World, World3, WorldSettings};
use collide::{Error, Handle, HandleError};
use collide_scenes::SceneRng;
use glam::{EulerRot, Quat, Vec2, Vec3};

/// What a dimension's random scene needs.
trait Random: Space {
    fn shape(rng: &mut SceneRng) -> Self::Shape;
    fn pose(rng: &mut SceneRng, spread: f32) -> Self::Pose;
    fn position(pose: &Self::Pose) -> Self;
}

impl Random for Vec2 {
    fn shape(rng: &mut SceneRng) -> d2::Shape {
        match rng.below(4) {
            0 => Circle::new(rng.range(0.1, 1.0)).unwrap().into(),
            1 => Cuboid::new(Vec2::new(rng.range(0.1, 1.0), rng.range(0.1, 1.0)))
                .unwrap()
                .into(),
            2 => Capsule::<Vec2>::new(rng.range(0.1, 0.8), rng.range(0.1, 0.5))
                .unwrap()
                .into(),
            _ => {
                let s = rng.range(0.3, 1.0);
                Polygon::new(&[Vec2::new(-s, -s), Vec2::new(s, -s), Vec2::new(0.0, s)])
                    .unwrap()
                    .into()
            }
        }
    }
    fn position(pose: &d2::Pose) -> Vec2 {
        pose.position()
    }
    fn pose(rng: &mut SceneRng, spread: f32) -> d2::Pose {
        let at = Vec2::new(rng.range(-spread, spread), rng.range(-spread, spread));
        d2::Pose::new(at, rng.range(-3.2, 3.2)).unwrap()
    }
}

impl Random for Vec3 {
    fn shape(rng: &mut SceneRng) -> d3::Shape {
        let mut r = |lo, hi| rng.range(lo, hi);
        match (r(0.0, 4.0)) as usize {
            0 => Sphere::new(r(0.1, 1.0)).unwrap().into(),
            1 => Cuboid::new(Vec3::new(r(0.1, 1.0), r(0.1, 1.0), r(0.1, 1.0)))
                .unwrap()
                .into(),
            2 => Capsule::<Vec3>::new(r(0.1, 0.8), r(0.1, 0.5))
                .unwrap()
                .into(),
            _ => {
                let s = r(0.3, 1.0);
                Polyhedron::new(&[Vec3::ZERO, Vec3::X * s, Vec3::Y * s, Vec3::Z * s])
                    .unwrap()
                    .into()
            }
        }
    }
    fn position(pose: &d3::Pose) -> Vec3 {
        pose.position()
    }
    fn pose(rng: &mut SceneRng, spread: f32) -> d3::Pose {
        let mut r = |s: f32| rng.range(-s, s);
        let at = Vec3::new(r(spread), r(spread), r(spread));
        let turn = Quat::from_euler(EulerRot::XYZ, r(3.2), r(3.2), r(3.2));
        d3::Pose::new(at, turn).unwrap()
    }
}

/// A collider as the test keeps it.
struct Live<V: Space> {
    handle: Handle,
    shape: V::Shape,
    pose: V::Pose,
    fixed: bool,
    reach: f32,
}

/// The brute force: every pair of live colliders (not both static) with
/// the world's own contact and rule.
struct Brute<V: Space> {
    touching: Vec<(Handle, Handle)>,
    _v: std::marker::PhantomData<V>,
}

impl<V: Space> Brute<V> {
    /// Finds the pairs touching now, from `live` and the pairs touching
    /// at the last step (which it returns).
    fn step(
        &mut self,
        live: &[Live<V>],
        margin: f32,
        contact: impl Fn(&V::Shape, &V::Pose, &V::Shape, &V::Pose) -> collide::narrow::Contact<V>,
    ) -> Vec<(Handle, Handle)> {
        let mut now = Vec::new();
        for (i, x) in live.iter().enumerate() {
            for y in &live[i + 1..] {
                let (p, q) = if x.handle < y.handle { (x, y) } else { (y, x) };
                if p.fixed && q.fixed {
                    continue;
                }
                let c = contact(&p.shape, &p.pose, &q.shape, &q.pose);
                let was = self.touching.binary_search(&(p.handle, q.handle)).is_ok();
                if c.depth >= 0.0 || (was && -c.depth <= margin * p.reach.min(q.reach)) {
                    now.push((p.handle, q.handle));
                }
            }
        }
        now.sort_unstable();
        std::mem::replace(&mut self.touching, now)
    }
}

/// Sorted `now` minus sorted `before`.
fn minus(now: &[(Handle, Handle)], before: &[(Handle, Handle)]) -> Vec<(Handle, Handle)> {
    now.iter()
        .filter(|p| before.binary_search(p).is_err())
        .copied()
        .collect()
}

/// A seeded scene of `n` colliders (a fifth static) in a box of side
/// `spread`, moved, reshaped, added and removed for 40 steps on
/// `structure`: every step's events against the brute force.
fn against_brute_force<V: Random>(structure: Structure, seed: u64, spread: f32) {
    let settings = WorldSettings::default().with_structure(structure);
    let mut world: World<V, u32> = World::with_settings(settings);
    let mut rng = SceneRng::new(seed);
    let mut live: Vec<Live<V>> = Vec::new();
    let add = |world: &mut World<V, u32>, rng: &mut SceneRng, live: &mut Vec<Live<V>>| {
        let (shape, pose) = (V::shape(rng), V::pose(rng, spread));
        let fixed = rng.below(5) == 0;
        let collider = if fixed {
            Collider::fixed(shape.clone(), pose, 0)
        } else {
            Collider::moving(shape.clone(), pose, 0)
        };
        let handle = world.insert(collider).unwrap();
        let reach = V::reach(&shape);
        live.push(Live {
            handle,
            shape,
            pose,
            fixed,
            reach,
        });
    };
    for _ in 0..60 {
        add(&mut world, &mut rng, &mut live);
    }
    let (mut started, mut stopped) = (0, 0);
    let mut brute = Brute::<V> {
        touching: Vec::new(),
        _v: std::marker::PhantomData,
    };
    for step in 0..40 {
        for x in &mut live {
            if x.fixed || rng.below(3) != 0 {
                continue;
            }
            x.pose = V::pose(&mut rng, spread);
            world.set_pose(x.handle, x.pose).unwrap();
        }
        if rng.below(2) == 0 {
            let k = rng.below(live.len());
            let shape = V::shape(&mut rng);
            world.set_shape(live[k].handle, shape.clone()).unwrap();
            live[k].reach = V::reach(&shape);
            live[k].shape = shape;
        }
        if rng.below(2) == 0 {
            let k = rng.below(live.len());
            world.remove(live.swap_remove(k).handle).unwrap();
        }
        if rng.below(2) == 0 {
            add(&mut world, &mut rng, &mut live);
        }
        let events = world.step();
        let before = brute.step(&live, settings.margin(), V::contact);
        let now = &brute.touching;
        let what = format!("{} step {step}", structure.name());
        assert_eq!(events.started, minus(now, &before), "{what}: started");
        assert_eq!(events.stopped, minus(&before, now), "{what}: stopped");
        let touching: Vec<(Handle, Handle)> = events.touching.iter().map(|t| (t.a, t.b)).collect();
        assert_eq!(&touching, now, "{what}: touching");
        (started, stopped) = (
            started + events.started.len(),
            stopped + events.stopped.len(),
        );
        for t in &events.touching {
            let find = |h: Handle| live.iter().find(|x| x.handle == h).unwrap();
            let (a, b) = (find(t.a), find(t.b));
            let c = V::contact(&a.shape, &a.pose, &b.shape, &b.pose);
            assert_eq!(t.contact, c, "{what}: contact");
        }
    }
    assert!(
        started > 40 && stopped > 40,
        "{started} started, {stopped} stopped"
    );
}

#[test]
fn every_step_on_every_structure_equals_brute_force_2d() {
    for structure in Structure::ALL {
        against_brute_force::<Vec2>(structure, 3, 8.0);
    }
}

#[test]
fn every_step_on_every_structure_equals_brute_force_3d() {
    for structure in Structure::ALL {
        against_brute_force::<Vec3>(structure, 4, 5.0);
    }
}

#[test]
fn a_resting_pair_touches_once_and_stays_within_the_margin() {
    let mut world = World3::new();
    let floor = world
        .insert(Collider::fixed(
            Cuboid::new(Vec3::new(5.0, 0.5, 5.0)).unwrap(),
            d3::Pose::IDENTITY,
            (),
        ))
        .unwrap();
    let at = |y: f32| d3::Pose::at(Vec3::new(0.0, y, 0.0)).unwrap();
    let ball = world
        .insert(Collider::moving(Sphere::new(0.5).unwrap(), at(1.0), ()))
        .unwrap();
    assert_eq!(world.step().started, [(floor, ball)]);
    // Lifted by half the margin (1% of the ball's size) and back: still
    // touching, no event.
    for k in 0..100 {
        world
            .set_pose(ball, at(if k % 2 == 0 { 1.0025 } else { 1.0 }))
            .unwrap();
        let events = world.step();
        assert!(
            events.started.is_empty() && events.stopped.is_empty(),
            "tick {k}"
        );
        assert_eq!(events.touching.len(), 1);
    }
    // Lifted past the margin: stopped.
    world.set_pose(ball, at(1.01)).unwrap();
    assert_eq!(world.step().stopped, [(floor, ball)]);
    assert_eq!(world.last_pose(ball).unwrap(), at(1.01));
}

#[test]
fn stale_and_foreign_handles_are_errors_and_change_nothing() {
    let mut world = World3::<u8>::new();
    let mut other = World3::<u8>::new();
    let ball = || Collider::moving(Sphere::new(0.5).unwrap(), d3::Pose::IDENTITY, 7);
    let h = world.insert(ball()).unwrap();
    let foreign = other.insert(ball()).unwrap();
    assert_eq!(world.remove(h).unwrap(), 7);
    assert!(matches!(
        world.set_pose(h, d3::Pose::IDENTITY),
        Err(Error::Handle(HandleError::Stale(_)))
    ));
    assert!(matches!(
        world.value(foreign),
        Err(Error::Handle(HandleError::Foreign { .. }))
    ));
    assert!(matches!(
        world.set_pose(foreign, d3::Pose::IDENTITY),
        Err(Error::Handle(HandleError::Foreign { .. }))
    ));
    assert!(matches!(
        world.remove(foreign),
        Err(Error::Handle(HandleError::Foreign { .. }))
    ));
    assert!(WorldSettings::default().with_margin(0.0).is_err());
    assert!(WorldSettings::default().with_margin(f32::NAN).is_err());
    assert_eq!(other.len(), 1);
}

/// A seeded world of 150 colliders on `structure`, 400 seeded rays: each
/// cast equals the brute force's first hit over every collider (the
/// smallest t, ties to the lower handle), bit for bit.
fn rays_against_brute_force<V: Random>(structure: Structure, seed: u64, spread: f32) {
    let mut world: World<V, ()> =
        World::with_settings(WorldSettings::default().with_structure(structure));
    let mut rng = SceneRng::new(seed);
    let mut live = Vec::new();
    for _ in 0..150 {
        let (shape, pose) = (V::shape(&mut rng), V::pose(&mut rng, spread));
        let h = world
            .insert(Collider::moving(shape.clone(), pose, ()))
            .unwrap();
        live.push((h, shape, pose));
    }
    world.step();
    let mut hits = 0;
    for k in 0..400 {
        let (from, to) = (
            V::pose(&mut rng, spread * 1.2),
            V::pose(&mut rng, spread * 1.2),
        );
        let (from, to) = (V::position(&from), V::position(&to));
        let direction = V::from_axes(|i| to.axis(i) - from.axis(i));
        let Ok(ray) = collide::geometry::Ray::new(from, direction, rng.range(0.2, 1.5)) else {
            continue;
        };
        let mut best: Option<(Handle, collide::narrow::RayCast<V>)> = None;
        for (h, shape, pose) in &live {
            if let Some(hit) = V::cast_ray(shape, &ray, pose) {
                if best.is_none_or(|(bh, b)| hit.t < b.t || (hit.t == b.t && *h < bh)) {
                    best = Some((*h, hit));
                }
            }
        }
        let got = world.cast_ray(&ray);
        match (got, best) {
            (None, None) => {}
            (Some(g), Some((h, b))) => {
                assert_eq!(
                    (g.handle, g.t, g.point, g.normal),
                    (h, b.t, b.point, b.normal),
                    "{} ray {k}",
                    structure.name()
                );
                hits += 1;
            }
            (g, b) => panic!(
                "{} ray {k}: world {g:?}, brute force {b:?}",
                structure.name()
            ),
        }
    }
    assert!(hits > 100, "{hits} hits");
}

#[test]
fn ray_casts_on_every_structure_equal_brute_force_2d() {
    for structure in Structure::ALL {
        rays_against_brute_force::<Vec2>(structure, 8, 12.0);
    }
}

#[test]
fn ray_casts_on_every_structure_equal_brute_force_3d() {
    for structure in Structure::ALL {
        rays_against_brute_force::<Vec3>(structure, 9, 6.0);
    }
}
