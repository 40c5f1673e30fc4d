//! The game systems with bodies of their own: vehicles, the swing,
//! fracture, the ragdoll and sand, each run for a fixed number of ticks,
//! with what it reported tick by tick and its state's bits.

use crate::common::{Boxes, with_surroundings};
use crate::{Entry, Hash, handle, tick_60};
use collide::math;
use collide_game::D3;
use collide_game::fracture::{FractureSettings, Pattern, d2, d3};
use collide_game::glam::{DVec2, DVec3, Quat, Vec3};
use collide_game::ragdoll::{Ragdoll, RagdollSettings, Skeleton};
use collide_game::swing::{AnchorSettings, SwingSettings, Swinger, choose_anchor};
use collide_game::vehicle::{
    Car, CarSettings, Controls, Side, Tank, TankSettings, TrackControls, WheelSettings,
};
use collide_sand::{Material, Materials, Motion, SandSettings, SandWorld};

/// The scenes, in order.
pub fn scenes(out: &mut Vec<Entry>) {
    car_drive(out);
    tank_pivot(out);
    street_swing(out);
    plate_fracture(out);
    block_fracture(out);
    ragdoll_on_stairs(out);
    sand_and_water(out);
}

/// A rigid body's bits.
fn body_state(hash: &mut Hash, body: &collide_game::dynamics::RigidBody) {
    hash.vec3(body.position());
    hash.quat(body.orientation());
    hash.vec3(body.linear_velocity());
    hash.vec3(body.angular_velocity());
}

/// Each wheel's report.
fn wheels(hash: &mut Hash, wheels: &[collide_game::vehicle::WheelTelemetry]) {
    for w in wheels {
        hash.bool(w.contact.is_some());
        if let Some(c) = w.contact {
            hash.vec3(c);
        }
        hash.f32(w.compression);
        hash.f32(w.compression_speed);
        hash.f32(w.load);
        hash.f32(w.slip_ratio);
        hash.f32(w.slip_angle);
        hash.f32(w.force_along);
        hash.f32(w.force_across);
        hash.f32(w.spin);
        hash.f32(w.steer);
    }
}

/// A car accelerating, weaving over a bump and braking.
fn car_drive(out: &mut Vec<Entry>) {
    let mut ground = Boxes::new(&[
        (Vec3::new(-60.0, -1.0, -60.0), Vec3::new(60.0, 0.0, 60.0)),
        (Vec3::new(-2.0, 0.0, -4.2), Vec3::new(2.0, 0.08, -3.2)),
    ]);
    let wheel = WheelSettings::new(Vec3::ZERO, 0.33, 0.35).unwrap();
    let settings =
        CarSettings::four_wheels(1200.0, Vec3::new(0.9, 0.5, 2.2), 1.6, 2.6, -0.2, wheel).unwrap();
    let at = Vec3::new(0.0, 0.75, 0.0);
    let mut car = Car::new(settings, at, Quat::IDENTITY, &mut ground.world, ()).unwrap();
    let dt = tick_60();
    let (mut events, mut state) = (Hash::new(), Hash::new());
    {
        let around = &mut ground.world;
        for tick in 0..120u32 {
            let throttle = if tick < 80 { 1.0 } else { 0.0 };
            let brake = if tick >= 95 { 0.8 } else { 0.0 };
            let steer = 0.6 * math::sin(tick as f32 * 0.06);
            let controls = Controls::new(throttle, brake, steer, tick >= 110).unwrap();
            car.step(dt, &controls, around).unwrap();
            events.u64(u64::from(tick));
            wheels(&mut events, car.wheels());
            body_state(&mut state, car.body());
            state.vec3(car.forward());
        }
    }
    out.push(Entry::new(
        "car accelerating, weaving over a bump and braking",
        &events,
        &state,
    ));
}

/// A tank settling, pivoting on the spot, then driving on with a broken
/// track.
fn tank_pivot(out: &mut Vec<Entry>) {
    let mut ground = Boxes::new(&[(Vec3::new(-60.0, -1.0, -60.0), Vec3::new(60.0, 0.0, 60.0))]);
    let wheel = WheelSettings::new(Vec3::ZERO, 0.35, 0.4)
        .and_then(|w| w.with_spring(220_000.0, 20_000.0, 30_000.0))
        .unwrap();
    let settings =
        TankSettings::new(40_000.0, Vec3::new(1.7, 0.8, 3.5), 6, 2.8, 5.6, -0.5, wheel).unwrap();
    let at = Vec3::new(0.0, 1.2, 0.0);
    let mut tank = Tank::new(settings, at, Quat::IDENTITY, &mut ground.world, ()).unwrap();
    let dt = tick_60();
    let (mut events, mut state) = (Hash::new(), Hash::new());
    {
        let around = &mut ground.world;
        for tick in 0..130u32 {
            if tick == 100 {
                tank.break_track(Side::Left);
            }
            let controls = match tick {
                0..40 => TrackControls::default(),
                40..100 => TrackControls::new(0.5, -0.5, 0.0).unwrap(),
                _ => TrackControls::new(0.8, 0.8, 0.0).unwrap(),
            };
            tank.step(dt, &controls, around).unwrap();
            events.u64(u64::from(tick));
            events.bool(tank.is_broken(Side::Left));
            events.bool(tank.is_broken(Side::Right));
            wheels(&mut events, tank.wheels());
            let (left, right) = tank.track_speeds();
            state.f32(left);
            state.f32(right);
            body_state(&mut state, tank.body());
        }
    }
    out.push(Entry::new(
        "tank pivoting on the spot, then driving with a broken track",
        &events,
        &state,
    ));
}

/// A swing down a street of buildings, each rope's anchor chosen on
/// them, let go past the pivot.
fn street_swing(out: &mut Vec<Entry>) {
    let city = Boxes::new(&[
        (Vec3::new(-40.0, -1.0, -20.0), Vec3::new(40.0, 0.0, 200.0)),
        (Vec3::new(-30.0, 0.0, 0.0), Vec3::new(-8.0, 38.0, 30.0)),
        (Vec3::new(8.0, 0.0, 12.0), Vec3::new(30.0, 52.0, 42.0)),
        (Vec3::new(-30.0, 0.0, 36.0), Vec3::new(-8.0, 44.0, 66.0)),
        (Vec3::new(8.0, 0.0, 48.0), Vec3::new(30.0, 41.0, 78.0)),
    ]);
    let settings = SwingSettings::new(0.4)
        .and_then(|s| s.with_pivot_drift(6.0, 6.0))
        .unwrap();
    let anchors = AnchorSettings::new(8.0, 30.0).unwrap();
    let mut body = Swinger::<D3>::new(
        settings,
        Vec3::new(0.0, 30.0, 0.0),
        Vec3::new(0.0, 0.0, 16.0),
    )
    .unwrap();
    let wish = Vec3::Z;
    let dt = tick_60();
    let (mut events, mut state) = (Hash::new(), Hash::new());
    with_surroundings(&city, |around| {
        for tick in 0..180u64 {
            match body.rope().copied() {
                None if body.velocity().y < 0.0 => {
                    let anchor = choose_anchor(body.position(), wish, &anchors, around).unwrap();
                    if let Some(anchor) = anchor {
                        body.attach(anchor.point(), anchor.pivot(), anchor.length())
                            .unwrap();
                        events.u64(tick);
                        events.u64(1);
                        events.vec3(anchor.point());
                        events.vec3(anchor.pivot());
                        events.f32(anchor.length());
                        handle(&mut events, anchor.building());
                        events.f32(anchor.score());
                    }
                }
                Some(rope) => {
                    let past = (body.position() - rope.pivot()).dot(wish) > 0.4 * rope.length();
                    if past && body.velocity().y > 0.0 {
                        body.release();
                        events.u64(tick);
                        events.u64(2);
                    }
                }
                None => {}
            }
            body.step(dt, wish, around).unwrap();
            state.vec3(body.position());
            state.vec3(body.velocity());
            if let Some(rope) = body.rope() {
                state.vec3(rope.anchor());
                state.vec3(rope.pivot());
                state.f32(rope.length());
            }
        }
    });
    out.push(Entry::new(
        "swing down a street, ropes anchored on the buildings",
        &events,
        &state,
    ));
}

/// A plate fixed to a wall on its left, shattered at an impact point,
/// the pieces near it destroyed and the groups cut off found.
fn plate_fracture(out: &mut Vec<Entry>) {
    let plate = vec![
        DVec2::new(0.0, 0.0),
        DVec2::new(8.0, 0.0),
        DVec2::new(8.0, 3.0),
        DVec2::new(0.0, 3.0),
    ];
    let impact = DVec2::new(5.0, 1.5);
    let sites = Pattern::radial(60, 4.0, 2.0, 11)
        .unwrap()
        .placed(impact, 0.3);
    let broken = d2::fracture(&[plate], &sites, &FractureSettings::default()).unwrap();
    let gone: Vec<bool> = broken
        .pieces()
        .iter()
        .map(|p| p.centroid().distance(impact) < 1.6)
        .collect();
    let result = d2::islands(&broken, &gone, |p| p.corners().iter().any(|c| c.x < 1e-9)).unwrap();
    let (mut events, mut state) = (Hash::new(), Hash::new());
    events.u64(broken.pieces().len() as u64);
    for &(a, b) in broken.bonds() {
        events.u64(u64::from(a) << 32 | u64::from(b));
    }
    events.u64(result.anchored().len() as u64);
    result
        .anchored()
        .iter()
        .for_each(|&p| events.u64(u64::from(p)));
    for island in result.falling() {
        events.u64(island.pieces().len() as u64);
        island
            .pieces()
            .iter()
            .for_each(|&p| events.u64(u64::from(p)));
        state.f64(island.area());
        state.f64(island.centroid().x);
        state.f64(island.centroid().y);
    }
    for p in broken.pieces() {
        state.u64(p.site() as u64);
        state.u64(p.part() as u64);
        for c in p.corners() {
            state.f64(c.x);
            state.f64(c.y);
        }
        state.f64(p.area());
        state.f64(p.centroid().x);
        state.f64(p.centroid().y);
    }
    out.push(Entry::new(
        "plate fixed on its left shattered at an impact point",
        &events,
        &state,
    ));
}

/// A block fixed on its left broken into 3D cells around sites from an
/// integer sequence, the cells near the impact destroyed.
fn block_fracture(out: &mut Vec<Entry>) {
    let block = d3::Part::cuboid(DVec3::ZERO, DVec3::new(2.0, 1.0, 0.5)).unwrap();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut unit = || {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (x >> 11) as f64 / (1u64 << 53) as f64
    };
    let sites: Vec<DVec3> = (0..24)
        .map(|_| DVec3::new(2.0 * unit(), unit(), 0.5 * unit()))
        .collect();
    let impact = DVec3::new(1.4, 0.5, 0.25);
    let broken = d3::fracture(&[block], &sites).unwrap();
    let gone: Vec<bool> = broken
        .pieces()
        .iter()
        .map(|p| p.centroid().distance(impact) < 0.55)
        .collect();
    let result = d3::islands(&broken, &gone, |p| p.corners().iter().any(|c| c.x < 1e-9)).unwrap();
    let (mut events, mut state) = (Hash::new(), Hash::new());
    events.u64(broken.pieces().len() as u64);
    for &(a, b) in broken.bonds() {
        events.u64(u64::from(a) << 32 | u64::from(b));
    }
    result
        .anchored()
        .iter()
        .for_each(|&p| events.u64(u64::from(p)));
    for island in result.falling() {
        events.u64(island.pieces().len() as u64);
        island
            .pieces()
            .iter()
            .for_each(|&p| events.u64(u64::from(p)));
        state.f64(island.volume());
        island
            .centroid()
            .to_array()
            .into_iter()
            .for_each(|c| state.f64(c));
    }
    for p in broken.pieces() {
        state.u64(p.site() as u64);
        state.u64(p.part() as u64);
        for c in p.corners() {
            c.to_array().into_iter().for_each(|v| state.f64(v));
        }
        state.u64(p.faces().len() as u64);
        state.f64(p.volume());
        p.centroid()
            .to_array()
            .into_iter()
            .for_each(|c| state.f64(c));
    }
    out.push(Entry::new(
        "block fixed on its left broken into cells at an impact point",
        &events,
        &state,
    ));
}

/// A humanoid ragdoll dropped turned onto a flight of stairs.
fn ragdoll_on_stairs(out: &mut Vec<Entry>) {
    let mut corners = vec![(Vec3::new(-10.0, -1.0, -10.0), Vec3::new(10.0, 0.0, 4.0))];
    for k in 0..5 {
        let top = 1.5 - 0.3 * k as f32;
        corners.push((
            Vec3::new(-5.0, -1.0, -0.45 * k as f32 - 0.45),
            Vec3::new(5.0, top, 4.0),
        ));
    }
    let mut stairs = Boxes::new(&corners);
    let turn = Quat::from_rotation_y(0.9) * Quat::from_rotation_x(-1.1);
    let mut doll = Ragdoll::new(
        Skeleton::humanoid(1.8, 75.0).unwrap(),
        RagdollSettings::default(),
        Vec3::new(0.2, 2.6, 0.3),
        turn,
        Vec3::new(0.4, 0.0, -1.5),
        &mut stairs.world,
        (),
    )
    .unwrap();
    let dt = tick_60();
    let (mut events, mut state) = (Hash::new(), Hash::new());
    for tick in 0..180u64 {
        doll.step(dt, &mut stairs.world).unwrap();
        stairs.world.step();
        events.u64(tick);
        events.bool(doll.is_asleep());
        events.u64(doll.lying() as u64);
        state.u64(doll.state_hash());
        state.vec3(doll.centre_of_mass());
        state.vec3(doll.momentum());
        state.f32(doll.limit_excess());
    }
    out.push(Entry::new(
        "ragdoll dropped turned onto stairs",
        &events,
        &state,
    ));
}

/// Sand and water poured into a stone basin with a ledge, ticked on a
/// pool of two threads.
fn sand_and_water(out: &mut Vec<Entry>) {
    let mut table = Materials::new();
    let stone = table
        .add(Material::new("stone", 30.0, Motion::Static).unwrap())
        .unwrap();
    let sand = table
        .add(Material::new("sand", 16.0, Motion::Powder).unwrap())
        .unwrap();
    let water = table
        .add(Material::new("water", 10.0, Motion::Liquid).unwrap())
        .unwrap();
    let settings = SandSettings::new(64, 48)
        .and_then(|s| s.with_chunk(16))
        .unwrap()
        .with_seed(3);
    let mut world = SandWorld::new(settings, table).unwrap();
    for x in 0..64 {
        world.set(x, 0, stone).unwrap();
    }
    for y in 0..20 {
        world.set(0, y, stone).unwrap();
        world.set(63, y, stone).unwrap();
    }
    for x in 24..40 {
        world.set(x, 14, stone).unwrap();
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let (mut events, mut state) = (Hash::new(), Hash::new());
    pool.install(|| {
        for tick in 0..100u32 {
            if tick < 60 {
                let k = i64::from(tick);
                world.set(26 + k % 5, 44, sand).unwrap();
                world.set(30 + k % 3, 45, sand).unwrap();
                world.set(36 + k % 7, 44, water).unwrap();
            }
            world.tick();
            events.u64(u64::from(tick));
            events.u64(world.scanned());
            world.counts().into_iter().for_each(|c| events.u64(c));
            for r in world.dirty_rects() {
                for v in [r.x0, r.y0, r.x1, r.y1] {
                    events.u64(u64::from(v as u32));
                }
            }
            state.u64(u64::from(world.ticks()));
            state.u64(world.state_hash());
        }
    });
    out.push(Entry::new(
        "sand and water poured onto a ledge in a basin",
        &events,
        &state,
    ));
}
