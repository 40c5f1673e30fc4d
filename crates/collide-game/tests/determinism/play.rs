//! The game systems that move things through a level: the clock and
//! the integrators, the character, projectiles, hitboxes and rewind, each
//! run for a fixed number of ticks, with what it reported tick by tick and
//! its state's bits.

use crate::common::{Boxes, with_surroundings};
use crate::{Entry, Hash, handle, tick_60};
use collide::math;
use collide::narrow::d3::Pose;
use collide::{Aabb3, BroadPhase, Bvh, Handle, Query};
use collide_game::D3;
use collide_game::character::{Character, CharacterSettings, Ground};
use collide_game::glam::{Quat, Vec3};
use collide_game::hitbox::{Combat, FrameData, Part, Tolerance};
use collide_game::projectile::{
    Ballistics, Body, Bounce, Ending, Hit, Media, Medium, OnHit, Projectile, Zone, launch_velocity,
};
use collide_game::rewind::Rewind;
use collide_game::time::{ClockSettings, FixedClock, Integrator, PointState, TimeStep, Verlet};

/// The scenes, in order.
pub fn scenes(out: &mut Vec<Entry>) {
    clock_and_integrators(out);
    character_walk(out);
    bullet_and_grenade(out);
    sword_swing(out);
    rewound_shots(out);
}

/// A projectile's hit.
fn hit(hash: &mut Hash, hit: &Hit<Vec3>) {
    handle(hash, hit.handle);
    hash.vec3(hit.point);
    hash.vec3(hit.normal);
    hash.f32(hit.fraction);
    hash.vec3(hit.velocity);
}

/// The clock fed irregular frames, and each integrator on a 1 Hz spring
/// ticked by it (plus Verlet stepped by the frames themselves).
fn clock_and_integrators(out: &mut Vec<Entry>) {
    let frames = [
        0.016, 0.017, 0.033, 0.0, 0.004, 0.050, 0.0166, 0.021, 0.2, 0.008, 0.012, 0.0167, 0.029,
        0.001, 0.045, 0.016, 0.017, 0.018, 0.3, 0.015,
    ];
    let omega2 = 4.0 * std::f64::consts::PI * std::f64::consts::PI;
    let spring = |x: f64, _v: f64| -omega2 * x;
    let spring3 = |x: Vec3, v: Vec3| -(omega2 as f32) * x - 0.1 * v;
    let mut clock = FixedClock::new(ClockSettings::new(1.0 / 60.0, 6).unwrap());
    let start = PointState {
        position: 1.0f64,
        velocity: 0.0,
    };
    let mut states = [start; 3];
    let mut states3 = [PointState {
        position: Vec3::new(1.0, -0.5, 0.25),
        velocity: Vec3::new(0.0, 0.3, -0.2),
    }; 3];
    let mut verlet = Verlet::new(1.0f64, 0.0);
    let mut verlet3 = Verlet::new(Vec3::new(0.5, 2.0, -1.0), Vec3::new(1.0, 3.0, 0.0));
    let (mut events, mut state) = (Hash::new(), Hash::new());
    for (f, &seconds) in frames.iter().enumerate() {
        let frame = clock.advance(seconds).unwrap();
        events.u64(f as u64);
        events.u64(u64::from(frame.ticks()));
        events.u64(frame.dropped_ticks());
        events.f64(frame.dropped_seconds());
        for tick in frame {
            events.u64(tick.index());
            events.f64(tick.time());
            for (k, integrator) in Integrator::ALL.into_iter().enumerate() {
                states[k] = integrator.step(states[k], tick.step(), spring);
                states3[k] = integrator.step(states3[k], tick.step(), spring3);
                state.f64(states[k].position);
                state.f64(states[k].velocity);
                state.vec3(states3[k].position);
                state.vec3(states3[k].velocity);
            }
            verlet.step(tick.step(), |x| -omega2 * x);
            state.f64(verlet.position());
            state.f64(verlet.velocity());
        }
        if seconds > 0.0 {
            verlet3.step(TimeStep::new(seconds as f32).unwrap(), |_| {
                Vec3::new(0.0, -9.81, 0.0)
            });
        }
        state.vec3(verlet3.position());
        state.vec3(verlet3.velocity());
        state.u64(clock.tick());
        state.f64(clock.time());
        state.f64(clock.alpha());
        state.u64(clock.dropped_ticks());
    }
    out.push(Entry::new(
        "a spring through each integrator, ticked by a clock fed uneven frames",
        &events,
        &state,
    ));
}

/// A character walking over a floor, up a step and a ramp, jumping once,
/// into a wall.
fn character_walk(out: &mut Vec<Entry>) {
    let tilt = Quat::from_rotation_z(0.3);
    let mut level = Boxes::turned(&[
        (
            Vec3::new(10.0, -0.5, 0.0),
            Vec3::new(20.0, 0.5, 6.0),
            Quat::IDENTITY,
        ),
        (
            Vec3::new(3.0, 0.125, 0.0),
            Vec3::new(1.0, 0.125, 6.0),
            Quat::IDENTITY,
        ),
        (Vec3::new(7.0, 0.0, 0.0), Vec3::new(2.0, 0.3, 6.0), tilt),
        (
            Vec3::new(10.25, 1.5, 0.0),
            Vec3::new(0.25, 1.5, 6.0),
            Quat::IDENTITY,
        ),
    ]);
    let settings = CharacterSettings::sized(1.8, 0.3)
        .and_then(|s| s.with_step_height(0.3))
        .and_then(|s| s.with_max_slope_degrees(40.0))
        .unwrap();
    let mut hero: Character<D3> =
        Character::new(settings, Vec3::new(0.0, 1.1, 0.0), &mut level.world, ()).unwrap();
    let dt = tick_60();
    let mut fall = 0.0f32;
    let (mut events, mut state) = (Hash::new(), Hash::new());
    {
        for tick in 0..120u32 {
            if hero.ground().is_standing() {
                fall = if (40..44).contains(&tick) { 4.5 } else { 0.0 };
            }
            fall -= 9.81 / 60.0;
            let side = 0.8 * math::sin(tick as f32 * 0.07);
            let motion = Vec3::new(5.0, fall, side) / 60.0;
            let report = hero.step(dt, motion, &mut level.world).unwrap();
            level.world.step();
            events.u64(u64::from(tick));
            match report.ground {
                Ground::Airborne => events.u64(0),
                Ground::Standing { on, normal } => {
                    events.u64(1);
                    handle(&mut events, on);
                    events.vec3(normal);
                }
                Ground::Sliding { on, normal } => {
                    events.u64(2);
                    handle(&mut events, on);
                    events.vec3(normal);
                }
            }
            events.vec3(report.carried);
            events.vec3(report.inherited);
            events.bool(report.stepped_up);
            events.bool(report.squeezed);
            state.vec3(hero.position());
            state.vec3(hero.feet());
            state.f32(fall);
        }
    }
    out.push(Entry::new(
        "character walking up a step and a ramp, jumping, into a wall",
        &events,
        &state,
    ));
}

/// A bullet through a thin plate into a wall, past a pool, and a grenade
/// bouncing among the same boxes, with its predicted path and the arcs
/// that reach a target.
fn bullet_and_grenade(out: &mut Vec<Entry>) {
    let level = Boxes::new(&[
        (Vec3::new(-5.0, -1.0, -5.0), Vec3::new(40.0, 0.0, 5.0)),
        (Vec3::new(10.0, 0.0, -3.0), Vec3::new(10.05, 4.0, 3.0)),
        (Vec3::new(25.0, 0.0, -5.0), Vec3::new(26.0, 6.0, 5.0)),
        (Vec3::new(5.0, 0.0, -1.0), Vec3::new(6.0, 1.0, 1.0)),
    ]);
    let plate = level.handle(1);
    let pool = Aabb3::new(Vec3::new(14.0, 0.0, -5.0), Vec3::new(20.0, 1.2, 5.0)).unwrap();
    let media = Media::<D3>::new(Medium::AIR).with(Zone::Inside(pool), Medium::WATER);
    let bounce = Bounce::new(0.5, 0.3).unwrap();
    let dt = tick_60();
    let (mut events, mut state) = (Hash::new(), Hash::new());
    with_surroundings(&level, |around| {
        let around = around.with_media(&media);
        let mut ballistics = Ballistics::<D3>::default();
        // The bullet passes the plate, dips into the pool, stops at the wall.
        let body = Body::sphere(0.008, 0.3, 0.0045).unwrap();
        let mut bullet = Projectile::<D3>::new(
            Vec3::new(0.0, 1.6, 0.0),
            Vec3::new(340.0, -20.0, 0.6),
            0.0,
            2.0,
            None,
            body,
        )
        .unwrap();
        for tick in 0..30u64 {
            let flight = ballistics.step(&mut bullet, &around, dt, |h| {
                if h.handle == plate {
                    OnHit::Pass
                } else {
                    OnHit::Stop
                }
            });
            events.u64(tick);
            events.u64(flight as u64);
            events.u64(ballistics.hits().len() as u64);
            ballistics.hits().iter().for_each(|h| hit(&mut events, h));
            state.vec3(bullet.position());
            state.vec3(bullet.velocity());
            state.f32(bullet.lifetime());
        }
        // The grenade bounces off the plate, the crate and the floor.
        let body = Body::sphere(0.4, 0.5, 0.05).unwrap();
        let grenade = Projectile::<D3>::new(
            Vec3::new(0.0, 1.5, 0.3),
            Vec3::new(7.0, 5.0, 0.4),
            0.05,
            4.0,
            None,
            body,
        )
        .unwrap();
        let mut shot = grenade;
        for tick in 0..150u64 {
            let flight = ballistics.step(&mut shot, &around, dt, |_| OnHit::Bounce(bounce));
            events.u64(tick);
            events.u64(flight as u64);
            ballistics.hits().iter().for_each(|h| hit(&mut events, h));
            state.vec3(shot.position());
            state.vec3(shot.velocity());
            state.f32(shot.lifetime());
        }
        let mut path = Vec::new();
        let ending = ballistics.predict(
            &grenade,
            &around,
            dt,
            150,
            |_| OnHit::Bounce(bounce),
            &mut path,
        );
        match ending {
            Ending::Hit(h) => {
                events.u64(1);
                hit(&mut events, &h);
            }
            Ending::Rest => events.u64(2),
            Ending::Expired => events.u64(3),
            Ending::Cap => events.u64(4),
        }
        events.u64(path.len() as u64);
        path.iter().for_each(|&p| state.vec3(p));
        let arcs = launch_velocity::<D3>(
            Vec3::new(0.0, 1.5, 0.0),
            Vec3::new(12.0, 0.5, 2.0),
            14.0,
            9.81,
        )
        .unwrap();
        events.bool(arcs.is_some());
        if let Some(arcs) = arcs {
            state.vec3(arcs.low);
            state.vec3(arcs.high);
        }
    });
    out.push(Entry::new(
        "bullet through a plate and a pool into a wall, and a grenade bouncing",
        &events,
        &state,
    ));
}

/// A turning sword swing and a kick with frame data against two fighters
/// stepping in and a teammate.
fn sword_swing(out: &mut Vec<Entry>) {
    let at = |x: f32, y: f32, z: f32| Pose::at(Vec3::new(x, y, z)).unwrap();
    let mut fight_world = collide::world::World3::new();
    let mut combat = Combat::<D3>::new(Tolerance::new(0.05, 0.02).unwrap());
    let body = || {
        vec![
            Part::new(0.6, 0.3, at(0.0, 1.0, 0.0)).unwrap(),
            Part::new(0.0, 0.15, at(0.0, 1.85, 0.0)).unwrap(),
        ]
    };
    let attacker = combat
        .add_fighter(1, 0, at(0.0, 0.0, 0.0), body(), &mut fight_world, ())
        .unwrap();
    let friend = combat
        .add_fighter(2, 0, at(1.2, 0.0, -0.4), body(), &mut fight_world, ())
        .unwrap();
    let targets = [
        combat
            .add_fighter(10, 1, at(1.6, 0.0, 0.6), body(), &mut fight_world, ())
            .unwrap(),
        combat
            .add_fighter(11, 1, at(1.0, 0.0, -3.0), body(), &mut fight_world, ())
            .unwrap(),
        combat
            .add_fighter(12, 2, at(-0.4, 0.0, -1.0), body(), &mut fight_world, ())
            .unwrap(),
    ];
    let blade = Pose::new(Vec3::new(1.0, 1.3, 0.0), Quat::from_rotation_z(1.5)).unwrap();
    let sword = FrameData::new(3, 5, 4).unwrap();
    let kick = FrameData::new(2, 2, 3).unwrap();
    let (mut events, mut state) = (Hash::new(), Hash::new());
    let mut hits = Vec::new();
    for tick in 0..18u64 {
        if tick == 0 {
            let parts = vec![Part::new(0.5, 0.08, blade).unwrap()];
            combat.start_attack(100, attacker, sword, parts).unwrap();
        }
        if tick == 9 {
            let parts = vec![Part::new(0.0, 0.2, at(0.8, 0.5, 0.0)).unwrap()];
            combat.start_attack(101, attacker, kick, parts).unwrap();
        }
        // The attacker turns through the swing; the fighters step in.
        let turn = Quat::from_rotation_y(-1.2 + 0.3 * tick as f32);
        combat
            .place(attacker, Pose::new(Vec3::ZERO, turn).unwrap())
            .unwrap();
        let step = tick as f32 * 0.12;
        let poses = [
            at(1.6 - 0.4 * step, 0.0, 0.6),
            at(1.0, 0.0, -3.0 + 3.0 * step),
            at(-0.4, 0.0, -1.0 + 0.1 * step),
        ];
        for (&t, &pose) in targets.iter().zip(&poses) {
            combat.place(t, pose).unwrap();
            state.vec3(pose.position());
        }
        combat
            .place(friend, at(1.2, 0.0, -0.4 + 0.05 * step))
            .unwrap();
        state.quat(turn);
        hits.clear();
        combat.step(&mut fight_world, &mut hits).unwrap();
        events.u64(tick);
        events.u64(sword.phase(tick) as u64);
        events.u64(kick.phase(tick.saturating_sub(9)) as u64);
        events.u64(hits.len() as u64);
        for h in &hits {
            events.u64(h.attack);
            events.u64(h.target);
            events.u64(h.hitbox as u64);
            events.u64(h.hurtbox as u64);
            events.u64(h.tick);
        }
        state.u64(combat.tick());
    }
    out.push(Entry::new(
        "sword swing and kick against fighters stepping in",
        &events,
        &state,
    ));
}

/// Moving boxes recorded tick by tick, shots tested against the ticks
/// kept and the ticks gone.
fn rewound_shots(out: &mut Vec<Entry>) {
    let mut world: Bvh<Vec3> = Bvh::new();
    let place = |k: usize, tick: u64| {
        let t = tick as f32;
        let centre = match k {
            0 => Vec3::new(0.3 * t, 1.0, 0.0),
            1 => Vec3::new(4.0, 1.0 + 0.1 * t, 2.0),
            2 => Vec3::new(3.0 * math::cos(0.2 * t), 1.0, 3.0 * math::sin(0.2 * t)),
            _ => Vec3::new(-2.0, 0.5, -2.0 + 0.25 * t),
        };
        Aabb3::new(centre - Vec3::splat(0.5), centre + Vec3::splat(0.5)).unwrap()
    };
    let movers: Vec<Handle> = (0..4)
        .map(|k| world.insert(place(k, 0), ()).unwrap())
        .collect();
    let mut history = Rewind::new(6).unwrap();
    let area = Aabb3::new(Vec3::splat(-10.0), Vec3::splat(10.0)).unwrap();
    let probe = Aabb3::new(Vec3::new(1.5, 0.0, -1.0), Vec3::new(4.5, 2.0, 3.0)).unwrap();
    let shot = collide::geometry::Ray::new(Vec3::new(-6.0, 1.0, 0.2), Vec3::X, 20.0).unwrap();
    let (mut events, mut state) = (Hash::new(), Hash::new());
    let ask = |hash: &mut Hash, history: &Rewind<collide::Snapshot<Vec3>>, tick: u64| {
        hash.u64(tick);
        match history.at(tick) {
            Err(_) => hash.u64(0),
            Ok(past) => {
                hash.u64(1);
                let mut inside = past.query_aabb_all(&probe);
                inside.sort_unstable();
                hash.u64(inside.len() as u64);
                inside.into_iter().for_each(|h| handle(hash, h));
                for ray_hit in past.query_ray_all(&shot) {
                    handle(hash, ray_hit.handle);
                    hash.f32(ray_hit.t);
                }
            }
        }
    };
    for tick in 0..20u64 {
        for (k, &h) in movers.iter().enumerate() {
            world.update(h, place(k, tick)).unwrap();
        }
        world.step();
        history.record(tick, world.snapshot()).unwrap();
        events.u64(history.len() as u64);
        // A shooter three ticks behind.
        ask(&mut events, &history, tick.saturating_sub(3));
        let past = history.at(tick.saturating_sub(5)).unwrap();
        let mut all = past.query_aabb_all(&area);
        all.sort_unstable();
        for h in all {
            handle(&mut state, h);
            let aabb = past.aabb(h).unwrap();
            state.vec3(aabb.min());
            state.vec3(aabb.max());
        }
    }
    for tick in 0..22u64 {
        ask(&mut events, &history, tick);
    }
    out.push(Entry::new(
        "shots against moving boxes as they were a few ticks ago",
        &events,
        &state,
    ));
}
