//! Vehicles: a car driving a curve and a tank pivoting, each on a floor,
//! and both parked for ten minutes.
//!
//! Claims: positions agree within 1e-3 of the 100 m drive for the car and
//! 1e-4 for the tank in any frame (4 ulps far out), turns within as many
//! radians; both mirrored bit for bit (their mirrored settings put each
//! wheel on the other side, the tank's first track too); across tick
//! rates within 1e-2.

use super::{boxes, every, run_ticks};
use crate::common::Boxes;
use collide_game::Gravity;
use collide_game::glam::{Quat, Vec3};
use collide_game::time::TimeStep;
use collide_game::vehicle::{
    Car, CarSettings, Controls, Tank, TankSettings, TrackControls, WheelSettings,
};
use collide_scenes::invariance::{Claims, Frame, Invariance, Outcome, REST_TICKS, Rate, at_rest};

fn floor(frame: &Frame) -> Boxes {
    boxes(
        frame,
        &[(
            Vec3::new(0.0, -1.0, 0.0),
            Vec3::new(500.0, 1.0, 500.0),
            Quat::IDENTITY,
        )],
    )
}

fn car_settings(frame: &Frame) -> CarSettings {
    let wheel = WheelSettings::new(Vec3::ZERO, 0.33, 0.35)
        .unwrap()
        .with_spring(35_000.0, 3_000.0, 4_500.0)
        .unwrap();
    let car = CarSettings::four_wheels(1200.0, Vec3::new(0.9, 0.5, 2.2), 1.6, 2.6, -0.2, wheel)
        .unwrap()
        .with_gravity(Gravity::new(super::gravity(frame)).unwrap());
    if frame.is_mirrored() {
        car.mirrored()
    } else {
        car
    }
}

fn tank_settings(frame: &Frame) -> TankSettings {
    let wheel = WheelSettings::new(Vec3::ZERO, 0.35, 0.4)
        .unwrap()
        .with_spring(220_000.0, 20_000.0, 30_000.0)
        .unwrap();
    let tank = TankSettings::new(40_000.0, Vec3::new(1.7, 0.8, 3.5), 6, 2.8, 5.6, -0.5, wheel)
        .unwrap()
        .with_gravity(Gravity::new(super::gravity(frame)).unwrap());
    if frame.is_mirrored() {
        tank.mirrored()
    } else {
        tank
    }
}

/// A car settled for a second, then driven at half throttle steering
/// left for `seconds` (none: parked); records every `each` seconds.
fn drive_car(frame: &Frame, rate: &Rate, seconds: f64, ticks: u64, each: f64) -> Outcome {
    let mut ground = floor(frame);
    let mut car = Car::new(
        car_settings(frame),
        frame.point3(Vec3::new(3.0, 0.75, -2.0)),
        Quat::IDENTITY,
        &mut ground.world,
        (),
    )
    .unwrap();
    // A mirrored world steers the other way.
    let steer = frame.angle(0.3);
    let driving = Controls::new(0.5, 0.0, steer, false).unwrap();
    let mut outcome = Outcome::new();
    {
        let around = &mut ground.world;
        let settle = rate.ticks_in(1.0);
        run_ticks(rate, settle + ticks, |tick, dt| {
            let controls = if tick >= settle && seconds > 0.0 {
                &driving
            } else {
                &Controls::NONE
            };
            car.step(dt, controls, around).unwrap();
            if tick >= settle && every(rate, tick - settle, each) {
                outcome.point3("car", car.body().position());
                outcome.turn("car's turn", car.body().orientation());
                outcome.vector3("car's velocity", car.body().linear_velocity());
            }
        });
    }
    outcome
}

/// A tank settled for a second, then pivoting on the spot for `ticks`
/// (or parked); records every `each` seconds.
fn drive_tank(frame: &Frame, rate: &Rate, pivot: bool, ticks: u64, each: f64) -> Outcome {
    let mut ground = floor(frame);
    let mut tank = Tank::new(
        tank_settings(frame),
        frame.point3(Vec3::new(-4.0, 1.2, 6.0)),
        Quat::IDENTITY,
        &mut ground.world,
        (),
    )
    .unwrap();
    let turning = TrackControls::new(0.8, -0.8, 0.0).unwrap();
    let mut outcome = Outcome::new();
    {
        let around = &mut ground.world;
        let settle = rate.ticks_in(1.0);
        run_ticks(rate, settle + ticks, |tick, dt: TimeStep<f32>| {
            let controls = if tick >= settle && pivot {
                turning
            } else {
                TrackControls::default()
            };
            tank.step(dt, &controls, around).unwrap();
            if tick >= settle && every(rate, tick - settle, each) {
                outcome.point3("tank", tank.body().position());
                outcome.turn("tank's turn", tank.body().orientation());
            }
        });
    }
    outcome
}

fn car_claims() -> Claims {
    Claims::new(100.0, 1e-3).mirror_exact().across_rates(1e-2)
}

fn tank_claims() -> Claims {
    Claims::new(100.0, 1e-4).mirror_exact().across_rates(1e-2)
}

fn car() -> Invariance<impl Fn(&Frame, &Rate) -> Outcome> {
    Invariance::new(
        "a car driving a curve",
        car_claims(),
        |frame: &Frame, rate: &Rate| drive_car(frame, rate, 8.0, rate.ticks_in(8.0), 1.0),
    )
}

fn tank() -> Invariance<impl Fn(&Frame, &Rate) -> Outcome> {
    Invariance::new(
        "a tank pivoting",
        tank_claims(),
        |frame: &Frame, rate: &Rate| drive_tank(frame, rate, true, rate.ticks_in(5.0), 1.0),
    )
}

#[test]
fn a_car_holds_mirrored_and_in_jittered_frames() {
    car().mirrored().assert_holds();
    car().jittered().assert_holds();
}

#[test]
#[ignore = "a car far from the origin turns apart from the origin's in 8 s: 1.9e-3 rad at 1e4, 2.3e-2 at 1e5"]
fn a_car_holds_far_from_the_origin() {
    car().far_out().assert_holds();
}

#[test]
#[ignore = "a car's curve depends on the tick rate: 1.4 rad apart at 30 and 60 Hz after 5 s"]
fn a_car_holds_at_other_tick_rates() {
    car().rates().assert_holds();
}

#[test]
fn a_tank_holds_mirrored_and_in_jittered_frames() {
    tank().mirrored().assert_holds();
    tank().jittered().assert_holds();
}

#[test]
fn a_tank_holds_far_from_the_origin() {
    tank().far_out().assert_holds();
}

#[test]
#[ignore = "a tank's pivot depends on the tick rate: 2.8 rad apart at 30 and 60 Hz after 5 s"]
fn a_tank_holds_at_other_tick_rates() {
    tank().rates().assert_holds();
}

#[test]
fn a_parked_car_stays_for_ten_minutes() {
    let parked = |frame: &Frame, rate: &Rate, ticks: u64| drive_car(frame, rate, 0.0, ticks, 10.0);
    at_rest("a parked car", car_claims(), REST_TICKS, parked).assert_holds();
}

#[test]
#[ignore = "a parked tank creeps 1.8 cm in ten minutes"]
fn a_parked_tank_stays_for_ten_minutes() {
    let parked =
        |frame: &Frame, rate: &Rate, ticks: u64| drive_tank(frame, rate, false, ticks, 10.0);
    at_rest("a parked tank", tank_claims(), REST_TICKS, parked).assert_holds();
}
