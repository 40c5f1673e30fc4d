//! No allocation per tick once warm: a character walking a level with
//! moving platforms, the clock and integrators, projectiles, a swing, a
//! car, a tank and a ragdoll make no heap allocation in their per-tick
//! calls (counted by the test kit's counting global allocator on this
//! thread).

use collide::narrow::d3::{Cuboid, Pose};
use collide::world::{Collider3, World3};
use collide_game::D3;
use collide_game::character::{Character, CharacterSettings};
use collide_game::glam::{Quat, Vec3};
use collide_game::projectile::{Ballistics, Body, Bounce, Media, Medium, OnHit, Projectile, Zone};
use collide_game::time::{ClockSettings, FixedClock, Integrator, PointState, TimeStep};
use collide_game::{Gravity, Surroundings};
use collide_scenes::alloc;

fn counted<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let before = alloc::tracked().allocations;
    let result = alloc::track(f);
    (result, alloc::tracked().allocations - before)
}

#[test]
fn a_warm_character_and_clock_allocate_nothing_per_tick() {
    let mut world = World3::new();
    let add = |world: &mut World3, half: Vec3, pose: Pose| {
        let shape = Cuboid::new(half).unwrap();
        world.insert(Collider3::moving(shape, pose, ())).unwrap()
    };
    add(
        &mut world,
        Vec3::new(30.0, 0.5, 30.0),
        Pose::at(Vec3::new(0.0, -0.5, 0.0)).unwrap(),
    );
    for k in 0..40 {
        let at = Vec3::new(
            (k % 8) as f32 * 3.0 - 12.0,
            0.15,
            (k / 8) as f32 * 3.0 - 6.0,
        );
        add(&mut world, Vec3::new(0.6, 0.15, 0.6), Pose::at(at).unwrap());
    }
    let turntable = Vec3::new(0.0, 0.1, 8.0);
    let table = add(
        &mut world,
        Vec3::new(2.0, 0.1, 2.0),
        Pose::at(turntable).unwrap(),
    );
    world.step();
    let settings = CharacterSettings::sized(1.8, 0.3).unwrap();
    let mut character: Character<D3> =
        Character::new(settings, Vec3::new(-10.0, 1.0, -5.0), &mut world, ()).unwrap();
    let mut clock = FixedClock::new(ClockSettings::hz(60.0).unwrap());
    let dt = TimeStep::new(1.0 / 60.0).unwrap();
    let (mut made, mut fall) = (0, 0.0f32);
    let mut body = PointState {
        position: Vec3::ZERO,
        velocity: Vec3::X,
    };
    for tick in 0..600 {
        let to = Pose::new(turntable, Quat::from_rotation_y(tick as f32 * 0.02)).unwrap();
        world.set_pose(table, to).unwrap();
        if character.ground().is_standing() {
            fall = 0.0;
        }
        fall -= 9.81 / 60.0;
        let angle = tick as f32 * 0.013;
        let motion =
            Vec3::new(angle.cos(), 0.0, angle.sin()) * (4.0 / 60.0) + Vec3::Y * (fall / 60.0);
        let (result, n) = counted(|| {
            let report = character.step(dt, motion, &mut world);
            let frame = clock.advance(1.0 / 60.0);
            for tick in frame.unwrap() {
                body = Integrator::SemiImplicitEuler.step(body, tick.step(), |_, _| Vec3::NEG_Y);
            }
            report
        });
        result.unwrap();
        world.step();
        if tick >= 120 {
            made += n;
        }
    }
    assert_eq!(made, 0, "allocations after the warm-up");
}

#[test]
fn warm_projectiles_allocate_nothing_per_tick() {
    let mut world = World3::new();
    for k in 0..200 {
        let at = Pose::at(Vec3::new(
            (k % 20) as f32 * 3.0,
            (k / 20) as f32 * 3.0,
            10.0,
        ))
        .unwrap();
        let shape = Cuboid::new(Vec3::splat(0.8)).unwrap();
        world.insert(Collider3::fixed(shape, at, ())).unwrap();
    }
    world.step();
    let media = Media::<D3>::new(Medium::AIR).with(Zone::Below { level: 5.0 }, Medium::WATER);
    let around = Surroundings::new(&world, Gravity::earth()).with_media(&media);
    let body = Body::sphere(0.4, 0.5, 0.05).unwrap();
    let dt = TimeStep::new(1.0 / 60.0).unwrap();
    let mut ballistics = Ballistics::<D3>::default();
    let mut made = 0;
    for round in 0..2 {
        for k in 0..100 {
            let radius = if k % 2 == 0 { 0.0 } else { 0.05 };
            let at = Vec3::new((k % 20) as f32 * 3.0 + 1.5, 8.0, 0.0);
            let mut shot =
                Projectile::<D3>::new(at, Vec3::new(0.0, -2.0, 30.0), radius, 2.0, None, body)
                    .unwrap();
            for _ in 0..30 {
                let (_, n) = counted(|| {
                    ballistics.step(&mut shot, &around, dt, |_| {
                        OnHit::Bounce(Bounce::new(0.5, 0.1).unwrap())
                    })
                });
                if round == 1 {
                    made += n;
                }
            }
        }
    }
    assert_eq!(made, 0, "allocations after the warm-up");
}

#[test]
fn warm_swings_vehicles_tanks_and_ragdolls_allocate_nothing_per_tick() {
    use crate::common::{Boxes, GRAVITY};
    use collide_game::ragdoll::{Ragdoll, RagdollSettings, Skeleton};
    use collide_game::swing::{SwingSettings, Swinger};
    use collide_game::vehicle::{
        Car, CarSettings, Controls, Tank, TankSettings, TrackControls, WheelSettings,
    };
    let mut boxes = vec![(
        Vec3::new(-100.0, -1.0, -100.0),
        Vec3::new(100.0, 0.0, 100.0),
    )];
    for k in 0..6 {
        let top = 1.8 - 0.3 * k as f32;
        boxes.push((
            Vec3::new(20.0, -1.0, -0.4 * k as f32 - 0.4),
            Vec3::new(24.0, top, 4.0),
        ));
    }
    let mut world = Boxes::new(&boxes);
    let dt = TimeStep::new(1.0 / 60.0).unwrap();
    let wheel = WheelSettings::new(Vec3::ZERO, 0.33, 0.35).unwrap();
    let mut car = Car::new(
        CarSettings::four_wheels(1200.0, Vec3::new(0.9, 0.5, 2.2), 1.6, 2.6, -0.2, wheel).unwrap(),
        Vec3::new(-20.0, 0.75, 0.0),
        Quat::IDENTITY,
        &mut world.world,
        (),
    )
    .unwrap();
    let road = WheelSettings::new(Vec3::ZERO, 0.35, 0.4)
        .unwrap()
        .with_spring(220_000.0, 20_000.0, 30_000.0)
        .unwrap();
    let mut tank = Tank::new(
        TankSettings::new(40_000.0, Vec3::new(1.7, 0.8, 3.5), 6, 2.8, 5.6, -0.5, road).unwrap(),
        Vec3::new(0.0, 1.2, 30.0),
        Quat::IDENTITY,
        &mut world.world,
        (),
    )
    .unwrap();
    let pivot = Vec3::new(-40.0, 30.0, 0.0);
    let mut swinger = Swinger::<D3>::new(
        SwingSettings::new(0.3).unwrap(),
        Vec3::new(-32.0, 24.0, 0.0),
        Vec3::ZERO,
    )
    .unwrap();
    swinger.attach(pivot, pivot, 10.0).unwrap();
    let mut doll = Ragdoll::new(
        Skeleton::humanoid(1.8, 75.0).unwrap(),
        RagdollSettings::default(),
        Vec3::new(22.0, 2.0, 1.0),
        Quat::from_rotation_x(0.5),
        Vec3::new(0.0, 0.0, -2.0),
        &mut world.world,
        (),
    )
    .unwrap();
    let drive = Controls::new(0.6, 0.0, 0.3, false).unwrap();
    let tracks = TrackControls::new(0.8, 0.4, 0.0).unwrap();
    let gravity = Gravity::new(GRAVITY).unwrap();
    let mut tick = |n: usize| {
        for _ in 0..n {
            car.step(dt, &drive, &mut world.world).unwrap();
            tank.step(dt, &tracks, &mut world.world).unwrap();
            let around = Surroundings::new(&world.world, gravity);
            swinger.step(dt, Vec3::Z, &around).unwrap();
            doll.step(dt, &mut world.world).unwrap();
        }
    };
    // Warm: the ragdoll has landed (its first deep contact sets up this
    // thread's lists for the narrow phase).
    tick(240);
    let ((), allocations) = counted(|| tick(240));
    assert_eq!(
        allocations, 0,
        "{allocations} allocations in 240 warm ticks"
    );
}
