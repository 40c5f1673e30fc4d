//! Continuous collision: a 0.1 m ball shot at a 1 cm wall at 200 speeds
//! from 1 to 10,000 m/s always reports started, with the time of impact
//! the closed form gives, where a discrete test at the ticks' poses
//! misses most of them. At 60 Hz and 240 Hz, near the origin, 1e4 away
//! and mirrored; against a box wall and a mesh wall; in 2D and 3D.

use collide::Structure;
use collide::narrow::d2;
use collide::narrow::d3::{Cuboid, Pose, Sphere};
use collide::world::{Collider2, Collider3, Compound3, Mesh3, World2, World3, WorldSettings};
use collide::{Error, Handle};
use glam::{Vec2, Vec3};

/// The ball's radius and the wall's half thickness, metres.
const RADIUS: f32 = 0.05;
const HALF: f32 = 0.005;

/// The 200 speeds, 1 to 10,000 m/s, evenly on a log scale.
fn speeds() -> impl Iterator<Item = f32> {
    (0..200).map(|i| 10f32.powf(4.0 * i as f32 / 199.0))
}

/// What one shot saw: whether it reported started, the impact reported
/// against the closed form's, and whether the ball's pose at some tick
/// overlapped the wall (what a discrete test would see).
struct Shot {
    started: bool,
    impact: Option<(f32, f32)>,
    seen_discretely: bool,
}

/// A ball starting 1 m before the wall's near face at `x = -HALF`
/// (moved by `offset`, and mirrored in x when `mirror`), shot along +x
/// at `speed`, ticking at `hz` until it is 2 m past the wall.
fn shoot_3d(wall_is_mesh: bool, speed: f32, hz: f32, offset: f32, mirror: bool) -> Shot {
    shoot_3d_with(wall_is_mesh, false, speed, hz, offset, mirror)
}

/// As [`shoot_3d`], the shot a ball or, when `dumbbell`, a compound of a
/// box, a ball beside it, and 0.3 m in front of them that ball (at the
/// collider's origin).
fn shoot_3d_with(
    wall_is_mesh: bool,
    dumbbell: bool,
    speed: f32,
    hz: f32,
    offset: f32,
    mirror: bool,
) -> Shot {
    let s = if mirror { -1.0 } else { 1.0 };
    let at = |x: f32| Vec3::new(s * x + offset, 0.3 + offset, offset);
    // Every structure underneath, in turn by speed.
    let structure = Structure::ALL[(speed.to_bits() % Structure::ALL.len() as u32) as usize];
    let mut world = World3::with_settings(WorldSettings::default().with_structure(structure));
    let wall = if wall_is_mesh {
        // Two triangles facing the ball, and two facing away: a 1 cm slab.
        let mut v = Vec::new();
        for x in [-HALF, HALF] {
            v.extend(
                [-1.0f32, 1.0]
                    .iter()
                    .flat_map(|&y| [-1.0f32, 1.0].map(|z| Vec3::new(s * x, y, z))),
            );
        }
        let slab = Mesh3::new(&v, &[[0, 1, 3], [0, 3, 2], [4, 7, 5], [4, 6, 7]]).unwrap();
        world
            .insert(Collider3::fixed(
                slab,
                Pose::at(Vec3::splat(offset)).unwrap(),
                (),
            ))
            .unwrap()
    } else {
        let slab = Cuboid::new(Vec3::new(HALF, 1.0, 1.0)).unwrap();
        world
            .insert(Collider3::fixed(
                slab,
                Pose::at(Vec3::splat(offset)).unwrap(),
                (),
            ))
            .unwrap()
    };
    let ball_at = |x: f32| Pose::at(at(x)).unwrap();
    let mut x = -HALF - RADIUS - 1.0;
    let ball = Sphere::new(RADIUS).unwrap();
    let mover = if dumbbell {
        let behind = |x: f32, y: f32| Pose::at(Vec3::new(-s * x, y, 0.0)).unwrap();
        // The front part last, so that every part is swept.
        let parts = [
            (
                Cuboid::new(Vec3::splat(0.04)).unwrap().into(),
                behind(0.3, 0.0),
            ),
            (ball.into(), behind(0.3, 0.2)),
            (ball.into(), Pose::IDENTITY),
        ];
        Collider3::moving(Compound3::new(parts).unwrap(), ball_at(x), ())
    } else {
        Collider3::moving(ball, ball_at(x), ())
    };
    let ball = world.insert(mover.as_continuous()).unwrap();
    world.step();
    run(&mut world, wall, ball, speed, hz, &mut x, |w, x| {
        w.set_pose(ball, ball_at(x)).unwrap()
    })
}

/// Steps `world` moving the ball by `speed / hz` a tick through `place`.
fn run<V: collide::world::Space>(
    world: &mut collide::world::World<V, ()>,
    wall: Handle,
    ball: Handle,
    speed: f32,
    hz: f32,
    x: &mut f32,
    place: impl Fn(&mut collide::world::World<V, ()>, f32),
) -> Shot {
    let mut shot = Shot {
        started: false,
        impact: None,
        seen_discretely: false,
    };
    let step = speed / hz;
    while *x < HALF + RADIUS + 2.0 {
        let from = *x;
        *x += step;
        place(world, *x);
        let events = world.step();
        if (*x - 0.0).abs() < HALF + RADIUS {
            shot.seen_discretely = true;
        }
        // The first start: a compound's later parts may start again.
        if !shot.started && events.started.contains(&(wall, ball)) {
            shot.started = true;
            let t = events
                .touching
                .iter()
                .find(|t| (t.a, t.b) == (wall, ball))
                .unwrap();
            if let Some(impact) = t.impact {
                let exact = (-HALF - RADIUS - from) / step;
                shot.impact = Some((impact, exact));
            }
        }
    }
    shot
}

fn check(name: &str, shoot: impl Fn(f32, f32, f32, bool) -> Shot, offsets: &[f32]) {
    for hz in [60.0, 240.0] {
        for &offset in offsets {
            for mirror in [false, true] {
                let (mut missed_discretely, mut swept) = (0, 0);
                for speed in speeds() {
                    let shot = shoot(speed, hz, offset, mirror);
                    let what = format!(
                        "{name} {speed} m/s at {hz} Hz, offset {offset}, mirrored {mirror}"
                    );
                    assert!(shot.started, "{what}: no start reported");
                    missed_discretely += usize::from(!shot.seen_discretely);
                    if let Some((impact, exact)) = shot.impact {
                        swept += 1;
                        // Within 4 ulps of the coordinates over the step.
                        let ulps = 4.0 * f32::EPSILON * (offset.abs() + 3.0) * hz / speed;
                        assert!(
                            (impact - exact).abs() <= 1e-4 + ulps,
                            "{what}: impact {impact} against {exact}"
                        );
                    }
                }
                assert!(
                    missed_discretely > 100,
                    "{name}: the discrete test misses most: {missed_discretely}"
                );
                assert!(swept > 100, "{name}: most are found by the sweep: {swept}");
            }
        }
    }
}

#[test]
fn a_fast_ball_always_reports_hitting_a_thin_box_wall() {
    check(
        "3D box",
        |v, hz, o, m| shoot_3d(false, v, hz, o, m),
        &[0.0, 1e4],
    );
}

#[test]
fn a_fast_compound_always_reports_hitting_a_thin_wall_with_its_front_part() {
    for wall_is_mesh in [false, true] {
        check(
            "3D compound",
            |v, hz, o, m| shoot_3d_with(wall_is_mesh, true, v, hz, o, m),
            &[0.0, 1e4],
        );
    }
}

#[test]
fn a_fast_ball_always_reports_hitting_a_thin_mesh_wall() {
    check(
        "3D mesh",
        |v, hz, o, m| shoot_3d(true, v, hz, o, m),
        &[0.0, 1e4],
    );
}

#[test]
fn a_fast_ball_always_reports_hitting_a_thin_wall_in_2d() {
    let shoot = |speed: f32, hz: f32, offset: f32, mirror: bool| {
        let s = if mirror { -1.0 } else { 1.0 };
        let mut world = World2::new();
        let slab = d2::Cuboid::new(Vec2::new(HALF, 1.0)).unwrap();
        let wall = world
            .insert(Collider2::fixed(
                slab,
                d2::Pose::at(Vec2::splat(offset)).unwrap(),
                (),
            ))
            .unwrap();
        let ball_at = |x: f32| d2::Pose::at(Vec2::new(s * x + offset, 0.3 + offset)).unwrap();
        let mut x = -HALF - RADIUS - 1.0;
        let c = Collider2::moving(d2::Circle::new(RADIUS).unwrap(), ball_at(x), ()).as_continuous();
        let ball = world.insert(c).unwrap();
        world.step();
        run(&mut world, wall, ball, speed, hz, &mut x, |w, x| {
            w.set_pose(ball, ball_at(x)).unwrap()
        })
    };
    check("2D box", shoot, &[0.0, 1e4]);
}

#[test]
fn without_the_mark_a_fast_ball_passes_unseen() {
    let mut world = World3::new();
    let slab = Cuboid::new(Vec3::new(HALF, 1.0, 1.0)).unwrap();
    world
        .insert(Collider3::fixed(slab, Pose::IDENTITY, ()))
        .unwrap();
    let ball = world
        .insert(Collider3::moving(
            Sphere::new(RADIUS).unwrap(),
            Pose::at(Vec3::new(-1.0, 0.0, 0.0)).unwrap(),
            (),
        ))
        .unwrap();
    world.step();
    world
        .set_pose(ball, Pose::at(Vec3::new(1.0, 0.0, 0.0)).unwrap())
        .unwrap();
    assert!(world.step().started.is_empty());
    // Marked, the same move is seen.
    world.set_continuous(ball, true).unwrap();
    world.step();
    world
        .set_pose(ball, Pose::at(Vec3::new(-1.0, 0.0, 0.0)).unwrap())
        .unwrap();
    assert_eq!(world.step().started.len(), 1);
}

#[test]
fn meshes_are_never_swept() {
    let ground = Mesh3::from_heights(2, 2, &[0.0; 4], Vec2::ONE).unwrap();
    let mut world = World3::<()>::new();
    let err = world.insert(Collider3::moving(ground.clone(), Pose::IDENTITY, ()).as_continuous());
    assert!(matches!(err, Err(Error::Continuous { parts: 2 })));
    let h = world
        .insert(Collider3::moving(ground, Pose::IDENTITY, ()))
        .unwrap();
    assert!(matches!(
        world.set_continuous(h, true),
        Err(Error::Continuous { parts: 2 })
    ));
    assert!(!world.is_continuous(h).unwrap());
}
