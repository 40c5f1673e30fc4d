//! The workloads that move through a level: characters, projectiles,
//! vehicles and swingers.

use crate::*;

use collide::math::{cos, sin};
use collide::world::Filter;
use collide_game::D3;
use collide_game::character::{Character, CharacterSettings};
use collide_game::glam::{Quat, Vec3};
use collide_game::projectile::{Ballistics, Body, Bounce, Media, Medium, OnHit, Projectile};
use collide_game::swing::{AnchorSettings, SwingSettings, Swinger, choose_anchor};
use collide_game::vehicle::WheelSettings;
use collide_game::vehicle::{Car, CarSettings, Controls, Tank, TankSettings, TrackControls};
use collide_scenes::SceneRng;

// ---------------------------------------------------------------- characters

pub const CHARACTERS: usize = 200;
pub const CHARACTER_TICKS: usize = 120;

pub struct Walkers {
    level: Level,
    characters: Vec<(Character<D3>, f32)>,
    /// Each character's walk velocity for each second of the run.
    walks: Vec<[Vec3; 3]>,
}

/// The collision group of the walkers, which they do not meet: they walk
/// through each other.
const WALKERS: u32 = 1 << 1;

/// 200 characters walking through 400 boxes (steps, ledges, walls) on a
/// floor 60 m square, turning every second (each stepped in handle order,
/// then the world's step, every tick).
pub fn characters() -> Run {
    let mut rng = SceneRng::new(2026);
    let side = 60.0;
    let mut boxes = vec![(
        Vec3::new(side / 2.0, -0.5, side / 2.0),
        Vec3::new(side / 2.0 + 5.0, 0.5, side / 2.0 + 5.0),
        Quat::IDENTITY,
    )];
    for _ in 0..400 {
        let at = Vec3::new(rng.range(0.0, side), 0.0, rng.range(0.0, side));
        let half = match rng.below(3) {
            0 => Vec3::new(
                rng.range(0.3, 1.5),
                rng.range(0.05, 0.3),
                rng.range(0.3, 1.5),
            ),
            1 => Vec3::new(
                rng.range(0.5, 2.0),
                rng.range(0.3, 1.0),
                rng.range(0.5, 2.0),
            ),
            _ => Vec3::new(rng.range(0.05, 2.5), 1.5, rng.range(0.05, 0.3)),
        };
        boxes.push((at + Vec3::Y * half.y, half, Quat::IDENTITY));
    }
    let settings = CharacterSettings::sized(1.8, 0.3)
        .and_then(|s| s.with_step_height(0.35))
        .and_then(|s| s.with_max_slope_degrees(45.0))
        .and_then(|s| s.with_snap_distance(0.2))
        .expect("valid settings")
        .with_filter(Filter::new(WALKERS, !WALKERS));
    let mut level = Level::new(&boxes);
    let characters = (0..CHARACTERS)
        .map(|_| {
            let at = Vec3::new(rng.range(0.0, side), 3.0, rng.range(0.0, side));
            let character = Character::new(settings, at, &mut level.world, ()).expect("finite");
            (character, 0.0)
        })
        .collect();
    level.world.step();
    let walks = (0..CHARACTERS)
        .map(|_| {
            [(); 3].map(|_| {
                let angle = rng.range(0.0, std::f32::consts::TAU);
                Vec3::new(cos(angle), 0.0, sin(angle)) * 3.0
            })
        })
        .collect();
    let mut walkers = Walkers {
        level,
        characters,
        walks,
    };
    timed(
        CHARACTERS * CHARACTER_TICKS,
        "character moves",
        &mut walkers,
        measured_characters,
    )
}

#[inline(never)]
fn measured_characters(w: &mut Walkers) -> u64 {
    let dt = tick_60();
    let step = dt.seconds();
    let world = &mut w.level.world;
    let mut digest = Digest::new();
    for tick in 0..CHARACTER_TICKS {
        for ((character, fall), walk) in w.characters.iter_mut().zip(&w.walks) {
            if character.ground().is_standing() {
                *fall = 0.0;
            }
            *fall -= 9.81 * step;
            let motion = walk[tick / 60 % 3] * step + Vec3::Y * (*fall * step);
            character.step(dt, motion, world).expect("finite motion");
        }
        world.step();
    }
    for (character, _) in &w.characters {
        digest.vec3(character.position());
    }
    digest.0
}

// --------------------------------------------------------------- projectiles

pub const BULLETS: usize = 2_000;
pub const GRENADES: usize = 200;
pub const PROJECTILE_TICKS: usize = 60;

pub struct Shots {
    level: Level,
    bullets: Vec<(Projectile<D3>, Projectile<D3>)>,
    grenades: Vec<(Projectile<D3>, Projectile<D3>)>,
}

/// 2,000 bullets (300 m/s, air drag) and 200 grenades (bouncing, drag)
/// through 1,000 boxes above a floor 100 m square; a bullet that stops
/// and a grenade that comes to rest are fired again from where they
/// started, so the load stays the same tick after tick.
pub fn projectiles() -> Run {
    let mut rng = SceneRng::new(4242);
    let side = 100.0;
    let mut boxes = vec![(
        Vec3::new(side / 2.0, -0.5, side / 2.0),
        Vec3::new(side / 2.0 + 20.0, 0.5, side / 2.0 + 20.0),
        Quat::IDENTITY,
    )];
    for _ in 0..1_000 {
        let half = Vec3::new(
            rng.range(0.25, 1.5),
            rng.range(0.25, 1.5),
            rng.range(0.25, 1.5),
        );
        let at = Vec3::new(
            rng.range(0.0, side),
            rng.range(0.0, 30.0),
            rng.range(0.0, side),
        );
        boxes.push((at, half, rotation(&mut rng)));
    }
    let bullet = Body::sphere(0.008, 0.3, 0.0045).expect("valid");
    let bullets = (0..BULLETS)
        .map(|_| {
            let at = Vec3::new(
                rng.range(0.0, side),
                rng.range(1.0, 30.0),
                rng.range(0.0, side),
            );
            let dir = Vec3::new(
                rng.range(-1.0, 1.0),
                rng.range(-0.3, 0.3),
                rng.range(-1.0, 1.0),
            )
            .normalize_or(Vec3::X);
            let p = Projectile::new(at, dir * 300.0, 0.0, 2.0, None, bullet).expect("valid");
            (p, p)
        })
        .collect();
    let grenade = Body::sphere(0.4, 0.5, 0.05).expect("valid");
    let grenades = (0..GRENADES)
        .map(|_| {
            let at = Vec3::new(rng.range(0.0, side), 1.5, rng.range(0.0, side));
            let v = Vec3::new(
                rng.range(-8.0, 8.0),
                rng.range(2.0, 6.0),
                rng.range(-8.0, 8.0),
            );
            let p = Projectile::new(at, v, 0.05, 4.0, None, grenade).expect("valid");
            (p, p)
        })
        .collect();
    let mut shots = Shots {
        level: Level::new(&boxes),
        bullets,
        grenades,
    };
    timed(
        (BULLETS + GRENADES) * PROJECTILE_TICKS,
        "projectile ticks",
        &mut shots,
        measured_projectiles,
    )
}

#[inline(never)]
fn measured_projectiles(s: &mut Shots) -> u64 {
    let dt = tick_60();
    let bounce = Bounce::new(0.4, 0.3).expect("valid");
    let media = Media::<D3>::new(Medium::AIR);
    let mut ballistics = Ballistics::<D3>::default();
    let mut digest = Digest::new();
    s.level.around(|around| {
        let around = around.with_media(&media);
        for _ in 0..PROJECTILE_TICKS {
            for (shot, start) in &mut s.bullets {
                let flight = ballistics.step(shot, &around, dt, |_| OnHit::Stop);
                digest.u64(flight as u64);
                if flight != collide_game::projectile::Flight::Flying {
                    *shot = *start;
                }
            }
            for (shot, start) in &mut s.grenades {
                let flight = ballistics.step(shot, &around, dt, |_| OnHit::Bounce(bounce));
                digest.u64(ballistics.hits().len() as u64);
                if flight != collide_game::projectile::Flight::Flying {
                    *shot = *start;
                }
            }
        }
    });
    for (shot, _) in s.bullets.iter().chain(&s.grenades) {
        digest.vec3(shot.position());
    }
    digest.0
}

// ------------------------------------------------------------------ vehicles

pub const VEHICLE_PAIRS: usize = 6;
pub const VEHICLE_TICKS: usize = 600;

pub struct Garage {
    level: Level,
    cars: Vec<Car>,
    tanks: Vec<Tank>,
}

/// Six cars weaving and six tanks turning (each driven on its own, in
/// its own lane) on a floor 400 m square with rows of low bumps.
pub fn vehicles() -> Run {
    let mut corners = vec![(
        Vec3::new(-200.0, -1.0, -200.0),
        Vec3::new(200.0, 0.0, 200.0),
    )];
    for i in 0..24 {
        for j in 0..24 {
            let (x, z) = (-138.0 + 12.0 * i as f32, -138.0 + 12.0 * j as f32);
            let h = 0.04 + 0.02 * ((i + j) % 4) as f32;
            corners.push((Vec3::new(x, 0.0, z), Vec3::new(x + 4.0, h, z + 0.6)));
        }
    }
    let wheel = WheelSettings::new(Vec3::ZERO, 0.33, 0.35).expect("valid");
    let car = CarSettings::four_wheels(1200.0, Vec3::new(0.9, 0.5, 2.2), 1.6, 2.6, -0.2, wheel)
        .expect("valid");
    let tank_wheel = WheelSettings::new(Vec3::ZERO, 0.35, 0.4)
        .and_then(|w| w.with_spring(220_000.0, 20_000.0, 30_000.0))
        .expect("valid");
    let tank = TankSettings::new(
        40_000.0,
        Vec3::new(1.7, 0.8, 3.5),
        6,
        2.8,
        5.6,
        -0.5,
        tank_wheel,
    )
    .expect("valid");
    let lane = |k: usize| -75.0 + 30.0 * k as f32;
    let mut level = Level::corners(&corners);
    let cars = (0..VEHICLE_PAIRS)
        .map(|k| {
            let at = Vec3::new(lane(k), 0.75, -30.0);
            Car::new(car.clone(), at, Quat::IDENTITY, level.world_mut(), ()).expect("valid")
        })
        .collect();
    let tanks = (0..VEHICLE_PAIRS)
        .map(|k| {
            let at = Vec3::new(lane(k), 1.2, 30.0);
            Tank::new(tank.clone(), at, Quat::IDENTITY, level.world_mut(), ()).expect("valid")
        })
        .collect();
    let mut garage = Garage { level, cars, tanks };
    timed(
        2 * VEHICLE_PAIRS * VEHICLE_TICKS,
        "vehicle steps",
        &mut garage,
        measured_vehicles,
    )
}

#[inline(never)]
fn measured_vehicles(g: &mut Garage) -> u64 {
    let dt = tick_60();
    let mut digest = Digest::new();
    let around = g.level.world_mut();
    {
        for tick in 0..VEHICLE_TICKS {
            for (k, car) in g.cars.iter_mut().enumerate() {
                let t = tick + 50 * k;
                let throttle = if t % 300 < 220 { 0.8 } else { 0.0 };
                let brake = if t % 300 >= 240 { 0.6 } else { 0.0 };
                let steer = 0.5 * sin(t as f32 * 0.03);
                let controls = Controls::new(throttle, brake, steer, false).expect("valid");
                car.step(dt, &controls, around).expect("finite");
            }
            for (k, tank) in g.tanks.iter_mut().enumerate() {
                let tracks = match (tick + 40 * k) % 600 {
                    0..60 => Ok(TrackControls::default()),
                    60..200 => TrackControls::new(0.5, -0.5, 0.0),
                    200..450 => TrackControls::new(0.9, 0.6, 0.0),
                    _ => TrackControls::new(0.3, 0.3, 0.5),
                }
                .expect("valid");
                tank.step(dt, &tracks, around).expect("finite");
            }
        }
    }
    for car in &g.cars {
        digest.vec3(car.body().position());
    }
    for tank in &g.tanks {
        digest.vec3(tank.body().position());
    }
    digest.0
}

// --------------------------------------------------------------------- swing

pub const SWINGERS: usize = 64;
pub const SWING_TICKS: usize = 600;

pub struct Street {
    level: Level,
    bodies: Vec<Swinger<D3>>,
    anchors: AnchorSettings,
}

/// 64 swingers (each on its own, from seeded starts) down a street 640 m
/// long between rows of buildings of seeded heights, each rope anchored
/// on them, let go past the pivot.
pub fn swing() -> Run {
    let mut rng = SceneRng::new(77);
    let mut corners = vec![(Vec3::new(-40.0, -1.0, -20.0), Vec3::new(40.0, 0.0, 660.0))];
    for k in 0..21 {
        let z = 30.0 * k as f32;
        let (left, right) = (rng.range(30.0, 60.0), rng.range(30.0, 60.0));
        corners.push((Vec3::new(-30.0, 0.0, z), Vec3::new(-8.0, left, z + 24.0)));
        corners.push((
            Vec3::new(8.0, 0.0, z + 12.0),
            Vec3::new(30.0, right, z + 36.0),
        ));
    }
    let settings = SwingSettings::new(0.4)
        .and_then(|s| s.with_pivot_drift(6.0, 6.0))
        .expect("valid");
    let bodies = (0..SWINGERS)
        .map(|_| {
            let at = Vec3::new(
                rng.range(-5.0, 5.0),
                rng.range(25.0, 35.0),
                rng.range(0.0, 300.0),
            );
            let v = Vec3::new(rng.range(-1.0, 1.0), 0.0, rng.range(12.0, 18.0));
            Swinger::<D3>::new(settings, at, v).expect("valid")
        })
        .collect();
    let mut street = Street {
        level: Level::corners(&corners),
        bodies,
        anchors: AnchorSettings::new(8.0, 30.0).expect("valid"),
    };
    timed(
        SWINGERS * SWING_TICKS,
        "swing steps",
        &mut street,
        measured_swing,
    )
}

#[inline(never)]
fn measured_swing(s: &mut Street) -> u64 {
    let dt = tick_60();
    let wish = Vec3::Z;
    let mut digest = Digest::new();
    let (bodies, anchors) = (&mut s.bodies, &s.anchors);
    s.level.around(|around| {
        for tick in 0..SWING_TICKS {
            for body in bodies.iter_mut() {
                match body.rope().copied() {
                    None if body.velocity().y < 0.0 => {
                        let anchor =
                            choose_anchor(body.position(), wish, anchors, around).expect("finite");
                        if let Some(anchor) = anchor {
                            body.attach(anchor.point(), anchor.pivot(), anchor.length())
                                .expect("valid");
                            digest.u64(tick as u64);
                        }
                    }
                    Some(rope) => {
                        let past = (body.position() - rope.pivot()).dot(wish) > 0.4 * rope.length();
                        if past && body.velocity().y > 0.0 {
                            body.release();
                            digest.u64(tick as u64);
                        }
                    }
                    None => {}
                }
                body.step(dt, wish, around).expect("finite");
            }
        }
    });
    for body in bodies.iter() {
        digest.vec3(body.position());
    }
    digest.0
}
