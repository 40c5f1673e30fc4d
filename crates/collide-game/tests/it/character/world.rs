//! The character as a collider of the world: another stands on it and
//! rides it, walkers block each other, rays and shots see it, its filter
//! and sensors let it through, and meshes and compounds are ground like
//! boxes.

use collide::geometry::Ray;
use collide::narrow::d3::{Cuboid, Pose};
use collide::world::{Collider3, Compound3, Filter, Mesh3, QueryFilter, World3, WorldQuery};
use collide_game::D3;
use collide_game::character::{Character, CharacterSettings, StepReport};
use collide_game::glam::{Quat, Vec2, Vec3};
use collide_game::time::TimeStep;

const DT: f32 = 1.0 / 60.0;

fn settings() -> CharacterSettings {
    CharacterSettings::sized(1.8, 0.3).unwrap()
}

/// A world with a 100 m floor whose top is at y = 0.
fn floored() -> World3 {
    let mut world = World3::new();
    let floor = Cuboid::new(Vec3::new(50.0, 0.5, 50.0)).unwrap();
    world
        .insert(Collider3::fixed(
            floor,
            Pose::at(Vec3::new(0.0, -0.5, 0.0)).unwrap(),
            (),
        ))
        .unwrap();
    world.step();
    world
}

/// A walker's tick: `walk` (m/s) and gravity, its fall reset while it
/// stands.
fn tick(c: &mut Character<D3>, fall: &mut f32, walk: Vec3, world: &mut World3) -> StepReport<Vec3> {
    if c.ground().is_standing() {
        *fall = 0.0;
    }
    *fall -= 9.81 * DT;
    let motion = walk * DT + Vec3::Y * (*fall * DT);
    c.step(TimeStep::new(DT).unwrap(), motion, world).unwrap()
}

#[test]
fn a_character_stands_on_another_and_rides_it_as_it_walks() {
    let mut world = floored();
    let mut below =
        Character::<D3>::new(settings(), Vec3::new(0.0, 0.95, 0.0), &mut world, ()).unwrap();
    let mut above =
        Character::<D3>::new(settings(), Vec3::new(0.0, 3.0, 0.0), &mut world, ()).unwrap();
    assert!(below.collider() < above.collider());
    let (mut fall_below, mut fall_above) = (0.0, 0.0);
    // Settle: the upper one lands on the lower one's head.
    for _ in 0..120 {
        tick(&mut below, &mut fall_below, Vec3::ZERO, &mut world);
        tick(&mut above, &mut fall_above, Vec3::ZERO, &mut world);
        world.step();
    }
    assert_eq!(
        above.ground().on(),
        Some(below.collider()),
        "{:?}",
        above.ground()
    );
    assert!(above.ground().is_standing());
    let gap = above.feet().y - (below.position().y + 0.9);
    assert!((0.0..0.02).contains(&gap), "{gap} m above the head");
    // The lower one walks 2 s at 1.5 m/s along x; the upper one, standing
    // still, is carried by each of its moves, in handle order.
    for _ in 0..120 {
        tick(
            &mut below,
            &mut fall_below,
            Vec3::new(1.5, 0.0, 0.0),
            &mut world,
        );
        let report = tick(&mut above, &mut fall_above, Vec3::ZERO, &mut world);
        world.step();
        assert_eq!(report.ground.on(), Some(below.collider()));
        let lag = (above.position() - below.position()) * Vec3::new(1.0, 0.0, 1.0);
        assert!(lag.length() < 1e-3, "the rider lags by {lag}");
    }
    assert!(
        (below.position().x - 3.0).abs() < 1e-3,
        "at {}",
        below.position()
    );
    // The world holds both where they are.
    assert_eq!(
        world.pose(above.collider()).unwrap().position(),
        above.position()
    );
}

#[test]
fn walkers_block_each_other_and_rays_see_them() {
    let mut world = floored();
    let mut still =
        Character::<D3>::new(settings(), Vec3::new(3.0, 0.95, 0.0), &mut world, ()).unwrap();
    let mut walker =
        Character::<D3>::new(settings(), Vec3::new(0.0, 0.95, 0.0), &mut world, ()).unwrap();
    let (mut a, mut b) = (0.0, 0.0);
    for _ in 0..180 {
        tick(&mut still, &mut a, Vec3::ZERO, &mut world);
        tick(&mut walker, &mut b, Vec3::new(2.0, 0.0, 0.0), &mut world);
        world.step();
        let apart = still.position().x - walker.position().x;
        assert!(apart >= 0.6, "inside the other: {apart} m apart");
    }
    let apart = still.position().x - walker.position().x;
    assert!(apart < 0.62, "stopped {apart} m apart, short of the other");
    assert_eq!(still.position().x, 3.0);
    // A shot from the side meets the one standing still at its surface.
    let shot = Ray::new(Vec3::new(3.0, 1.0, -10.0), Vec3::Z, 20.0).unwrap();
    let hit = world.cast_ray(&shot, &QueryFilter::new()).unwrap();
    assert_eq!(hit.handle, still.collider());
    assert!((hit.t - 9.7).abs() < 1e-4, "hit at {}", hit.t);
}

#[test]
fn a_character_passes_what_its_filter_does_not_meet_and_sensors() {
    const PLAYER: u32 = 1;
    const GHOST_WALL: u32 = 2;
    let wall = Cuboid::new(Vec3::new(0.1, 2.0, 5.0)).unwrap();
    let at = |x: f32| Pose::at(Vec3::new(x, 2.0, 0.0)).unwrap();
    let mut world = floored();
    world
        .insert(Collider3::fixed(wall, at(2.0), ()).with_filter(Filter::new(GHOST_WALL, u32::MAX)))
        .unwrap();
    world
        .insert(Collider3::fixed(wall, at(4.0), ()).as_sensor())
        .unwrap();
    let solid = world.insert(Collider3::fixed(wall, at(6.0), ())).unwrap();
    let player = settings().with_filter(Filter::new(PLAYER, !GHOST_WALL));
    let mut c = Character::<D3>::new(player, Vec3::new(0.0, 0.95, 0.0), &mut world, ()).unwrap();
    assert_eq!(world.filter(c.collider()).unwrap(), player.filter());
    let mut fall = 0.0;
    for _ in 0..240 {
        tick(&mut c, &mut fall, Vec3::new(2.0, 0.0, 0.0), &mut world);
        world.step();
    }
    // Through the ghost wall and the sensor, stopped by the solid one.
    let x = c.position().x;
    assert!((5.55..5.6).contains(&x), "stopped at {x}");
    assert_eq!(world.pose(solid).unwrap().position().x, 6.0);
}

/// The same walk over a box floor, a heightfield, a triangle soup and a
/// compound of tiles: the same end within 1e-4 m, standing all the way.
#[test]
fn meshes_and_compounds_are_ground_like_boxes() {
    let walk = |ground: Option<collide::world::ColliderShape<Vec3>>, slope: f32| -> Vec3 {
        let mut world = World3::new();
        let tilt = Quat::from_rotation_z(slope.to_radians());
        match ground {
            None => {
                let floor = Cuboid::new(Vec3::new(20.0, 0.5, 20.0)).unwrap();
                let pose = Pose::new(tilt * Vec3::new(0.0, -0.5, 0.0), tilt).unwrap();
                world.insert(Collider3::fixed(floor, pose, ())).unwrap();
            }
            Some(shape) => {
                let pose = Pose::new(Vec3::ZERO, tilt).unwrap();
                world.insert(Collider3::fixed(shape, pose, ())).unwrap();
            }
        }
        world.step();
        let start = tilt * Vec3::new(-2.0, 0.0, 0.3) + Vec3::Y * 0.95;
        let mut c = Character::<D3>::new(settings(), start, &mut world, ()).unwrap();
        let mut fall = 0.0;
        for k in 0..240 {
            let report = tick(&mut c, &mut fall, Vec3::new(1.5, 0.0, 0.4), &mut world);
            world.step();
            if k > 30 {
                assert!(report.ground.is_standing(), "tick {k}: {:?}", report.ground);
            }
        }
        c.position()
    };
    let heights = vec![0.0f32; 41 * 41];
    let field = || Mesh3::from_heights(41, 41, &heights, Vec2::ONE).unwrap();
    for slope in [0.0, 10.0, -20.0] {
        let boxed = walk(None, slope);
        let mesh = field();
        let shifted = Mesh3::new(
            &mesh
                .vertices()
                .iter()
                .map(|v| *v - Vec3::new(20.0, 0.0, 20.0))
                .collect::<Vec<_>>(),
            mesh.elements(),
        )
        .unwrap();
        let on_mesh = walk(Some(shifted.into()), slope);
        assert!(
            (on_mesh - boxed).length() < 1e-4,
            "{slope} degrees: on the mesh {on_mesh}, on the box {boxed}"
        );
        let tile = Cuboid::new(Vec3::new(2.5, 0.5, 2.5)).unwrap();
        let tiles = Compound3::new((0..64).map(|k| {
            let at = Vec3::new(
                (k % 8) as f32 * 5.0 - 17.5,
                -0.5,
                (k / 8) as f32 * 5.0 - 17.5,
            );
            (tile.into(), Pose::at(at).unwrap())
        }))
        .unwrap();
        let on_tiles = walk(Some(tiles.into()), slope);
        assert!(
            (on_tiles - boxed).length() < 1e-4,
            "{slope} degrees: on the tiles {on_tiles}, on the box {boxed}"
        );
    }
}

/// What the colliders of the one-way test are.
#[derive(Clone, Copy, PartialEq)]
enum Thing {
    Solid,
    OneWay,
    Player,
}

/// A 6 m plank 0.1 m thick, its top 2.3 m up; with `one_way`, a pair hook
/// lets it hold only what is above it (the normal from it points up).
fn plank_above(world: &mut World3<Thing>, one_way: bool) -> collide::Handle {
    let plank = Cuboid::new(Vec3::new(3.0, 0.05, 3.0)).unwrap();
    let at = Pose::at(Vec3::new(0.0, 2.25, 0.0)).unwrap();
    let platform = world
        .insert(Collider3::fixed(plank, at, Thing::OneWay))
        .unwrap();
    if one_way {
        world.set_pair_hook(|pair| match (*pair.value_a, *pair.value_b) {
            (Thing::OneWay, _) => pair.contact.normal.y > 0.5,
            (_, Thing::OneWay) => pair.contact.normal.y < -0.5,
            _ => true,
        });
    }
    platform
}

/// A one-way platform through the world's pair hook: jumping up from
/// under it, the character passes through; falling onto it, it stands.
/// With the hook cleared the same jump bumps its head and falls back.
#[test]
fn a_character_jumps_up_through_a_one_way_platform_and_lands_on_it() {
    let run = |one_way: bool| {
        let mut world: World3<Thing> = World3::new();
        let floor = Cuboid::new(Vec3::new(20.0, 0.5, 20.0)).unwrap();
        let at = Pose::at(Vec3::new(0.0, -0.5, 0.0)).unwrap();
        world
            .insert(Collider3::fixed(floor, at, Thing::Solid))
            .unwrap();
        // Its top 2.3 m up: the head (1.8 m) meets it in a jump.
        let platform = plank_above(&mut world, one_way);
        let start = Vec3::new(0.0, 0.95, 0.0);
        let mut c = Character::<D3>::new(settings(), start, &mut world, Thing::Player).unwrap();
        let mut fall = 0.0f32;
        let mut highest = 0.0f32;
        for k in 0..180 {
            if c.ground().is_standing() {
                fall = if k == 10 { 8.0 } else { 0.0 };
            }
            fall -= 9.81 * DT;
            let motion = Vec3::Y * (fall * DT);
            c.step(TimeStep::new(DT).unwrap(), motion, &mut world)
                .unwrap();
            world.step();
            highest = highest.max(c.feet().y);
        }
        (c.ground().on() == Some(platform), c.feet().y, highest)
    };
    let (on, feet, _) = run(true);
    assert!(on, "not on the platform: feet at {feet}");
    assert!((feet - 2.3).abs() < 0.02, "feet at {feet}");
    let (on, feet, highest) = run(false);
    assert!(!on && feet < 0.01, "feet at {feet}");
    assert!(highest < 0.51, "rose {highest} m: through the platform");
}

#[test]
fn a_walker_pushes_another_along_until_a_wall_stops_both() {
    let mut world = floored();
    // A wall whose face is at x = 5.
    let wall = Cuboid::new(Vec3::new(0.5, 2.0, 5.0)).unwrap();
    let face = world
        .insert(Collider3::fixed(
            wall,
            Pose::at(Vec3::new(5.5, 2.0, 0.0)).unwrap(),
            (),
        ))
        .unwrap();
    let mut pusher =
        Character::<D3>::new(settings(), Vec3::new(0.0, 0.95, 0.0), &mut world, ()).unwrap();
    let mut pushed =
        Character::<D3>::new(settings(), Vec3::new(1.0, 0.95, 0.0), &mut world, ()).unwrap();
    let (mut fall_a, mut fall_b) = (0.0, 0.0);
    let mut walls = 0;
    for k in 0..240 {
        // The pusher walks along x at 2 m/s; what it runs into, if it is
        // the other character, is shoved by the part of the move into it,
        // and the pusher follows as far as that one went.
        let report = tick(
            &mut pusher,
            &mut fall_a,
            Vec3::new(2.0, 0.0, 0.0),
            &mut world,
        );
        match report.pushing {
            Some(push) if push.against == pushed.collider() => {
                assert!(push.motion.x > 0.0 && push.motion.y == 0.0, "{push:?}");
                let went = pushed.shove(push.motion, &mut world).unwrap();
                assert!(went.x <= push.motion.x + 1e-6);
                pusher.shove(went, &mut world).unwrap();
            }
            Some(push) => walls += usize::from(push.against == face),
            None => {}
        }
        tick(&mut pushed, &mut fall_b, Vec3::ZERO, &mut world);
        world.step();
        let apart = pushed.position().x - pusher.position().x;
        assert!(apart > 0.6, "tick {k}: {apart} m apart");
        if k == 90 {
            // A second and a half in: pushed along at the walk, the gap of
            // 0.4 m closed in the first fifth of a second.
            let x = pushed.position().x;
            assert!((3.5..4.0).contains(&x), "pushed to {x}");
        }
    }
    // Both stopped: the pushed one against the wall, the pusher against it.
    let x = pushed.position().x;
    assert!((x - 4.7).abs() < 0.02, "pushed one at {x}");
    let apart = x - pusher.position().x;
    assert!(apart < 0.62, "{apart} m apart at the end");
    assert_eq!(walls, 0, "the pusher never touched the wall");
    assert!(pushed.ground().is_standing() && pusher.ground().is_standing());
}

#[test]
fn a_shove_passes_what_the_pair_hook_lets_the_character_through() {
    let run = |one_way: bool| {
        let mut world: World3<Thing> = World3::new();
        // A plank, its underside 2.2 m up.
        plank_above(&mut world, one_way);
        // Its head 0.3 m below the plank, shoved 0.6 m up into it.
        let start = Vec3::new(0.0, 1.0, 0.0);
        let mut c = Character::<D3>::new(settings(), start, &mut world, Thing::Player).unwrap();
        world.step();
        c.shove(Vec3::new(0.0, 0.6, 0.0), &mut world).unwrap().y
    };
    // Up through the plank when the hook lets it pass; stopped under it
    // (a skin short of 0.3 m) otherwise.
    assert!((run(true) - 0.6).abs() < 1e-6, "{}", run(true));
    let held = run(false);
    assert!(held < 0.3 && held > 0.25, "{held}");
}
