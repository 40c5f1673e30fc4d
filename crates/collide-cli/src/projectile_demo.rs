//! The projectiles' part of the demo report: bullets entering water, their
//! speed against distance beside the exact law, and a thrown grenade's
//! predicted path over its real one as it bounces off a wall and the floor.

use crate::chart::{Mark, MarkAt, Scale, Series, Stroke, line_chart};
use collide::narrow::d2::{Cuboid, Pose};
use collide::world::{Collider2, World2};
use collide_game::D2;
use collide_game::projectile::{
    Ballistics, Body, Bounce, Flight, Media, Medium, OnHit, Projectile, Zone,
};
use collide_game::time::TimeStep;
use collide_game::{Gravity, Surroundings};
use glam::Vec2;

/// A 9 mm bullet fired at 350 m/s, 20 degrees down, from 1 m above water,
/// at 60 ticks a second: its speed against the distance it travelled, and
/// the exact law v₀ e^(−k_air d − k_water (x − d)) with the surface at d.
fn bullet_series() -> Vec<Series> {
    let mut world: World2 = World2::new();
    world.step();
    let sea: Media<D2> = Media::new(Medium::AIR).with(Zone::Below { level: 0.0 }, Medium::WATER);
    let around = Surroundings::<D2>::new(&world, Gravity::none()).with_media(&sea);
    let bullet = Body::sphere(0.008, 0.3, 0.0045).expect("valid");
    let (k_air, k_water) = (
        f64::from(bullet.k(Medium::AIR)),
        f64::from(bullet.k(Medium::WATER)),
    );
    let dir = Vec2::new(20f32.to_radians().cos(), -(20f32.to_radians().sin()));
    let start = Vec2::new(0.0, 1.0);
    let v0 = 350.0f32;
    let surface = f64::from(1.0 / 20f32.to_radians().sin());
    let mut shot = Projectile::<D2>::new(start, dir * v0, 0.0, 10.0, None, bullet).expect("valid");
    let mut ballistics = Ballistics::default();
    let dt = TimeStep::new(1.0 / 600.0).expect("positive");
    let mut simulated = vec![(0.0, f64::from(v0))];
    while shot.velocity().length() > 5.0 && simulated.len() < 2_000 {
        ballistics.step(&mut shot, &around, dt, |_| OnHit::Stop);
        let x = f64::from((shot.position() - start).length());
        simulated.push((x, f64::from(shot.velocity().length())));
    }
    let end = simulated.last().map_or(1.0, |p| p.0);
    let exact = (0..=200)
        .map(|k| {
            let x = end * k as f64 / 200.0;
            let v = if x <= surface {
                f64::from(v0) * (-k_air * x).exp()
            } else {
                f64::from(v0) * (-k_air * surface - k_water * (x - surface)).exp()
            };
            (x, v)
        })
        .collect();
    vec![
        Series {
            name: "exact law".to_string(),
            colour: "#8c8c8c",
            points: exact,
            stroke: Stroke::Band,
        },
        Series {
            name: "simulated, 600 ticks a second".to_string(),
            colour: "#3b6fb6",
            points: simulated,
            stroke: Stroke::Line,
        },
    ]
}

/// The grenade's wall: its centre's x and half its thickness, metres.
const WALL_X: f32 = 9.0;
const WALL_HALF_WIDTH: f32 = 0.2;

/// A grenade thrown at a wall from the left, in a side view: its real
/// path, the prediction with the same tick (the same points), and one
/// with a tick twice as long, which misses.
fn grenade_series() -> Vec<Series> {
    let mut world = World2::new();
    let floor = Collider2::fixed(
        Cuboid::new(Vec2::new(20.0, 0.5)).expect("valid"),
        Pose::at(Vec2::new(5.0, -0.5)).expect("finite"),
        (),
    );
    let wall = Collider2::fixed(
        Cuboid::new(Vec2::new(WALL_HALF_WIDTH, 2.5)).expect("valid"),
        Pose::at(Vec2::new(WALL_X, 2.5)).expect("finite"),
        (),
    );
    world.insert(floor).expect("valid");
    world.insert(wall).expect("valid");
    world.step();
    let air: Media<D2> = Media::new(Medium::AIR);
    let around = Surroundings::<D2>::new(&world, Gravity::earth()).with_media(&air);
    let body = Body::sphere(0.4, 0.5, 0.05).expect("valid");
    let grenade = Projectile::<D2>::new(
        Vec2::new(0.0, 1.5),
        Vec2::new(9.0, 6.0),
        0.05,
        3.0,
        None,
        body,
    )
    .expect("valid");
    let mut bounce = |_: &collide_game::projectile::Hit<Vec2>| {
        OnHit::Bounce(Bounce::new(0.5, 0.2).expect("shares from 0 to 1"))
    };
    let mut ballistics = Ballistics::default();
    let dt = TimeStep::new(1.0 / 60.0).expect("positive");
    let mut real = vec![grenade.position()];
    let mut shot = grenade;
    for _ in 0..150 {
        let flight = ballistics.step(&mut shot, &around, dt, &mut bounce);
        real.push(shot.position());
        if flight != Flight::Flying {
            break;
        }
    }
    let mut predicted = Vec::new();
    ballistics.predict(&grenade, &around, dt, 150, &mut bounce, &mut predicted);
    predicted.insert(0, grenade.position());
    let mut coarse = Vec::new();
    let long = TimeStep::new(1.0 / 30.0).expect("positive");
    ballistics.predict(&grenade, &around, long, 75, &mut bounce, &mut coarse);
    coarse.insert(0, grenade.position());
    let points = |path: &[Vec2]| {
        path.iter()
            .map(|p| (f64::from(p.x), f64::from(p.y)))
            .collect()
    };
    vec![
        Series {
            name: "predicted with a tick twice as long".to_string(),
            colour: "#d9822b",
            points: points(&coarse),
            stroke: Stroke::Line,
        },
        Series {
            name: "real flight".to_string(),
            colour: "#3b6fb6",
            points: points(&real),
            stroke: Stroke::Band,
        },
        Series {
            name: "predicted, same tick (on the real path)".to_string(),
            colour: "#c2453d",
            points: points(&predicted),
            stroke: Stroke::Dashed,
        },
    ]
}

/// The projectiles' section of the demo page.
pub fn projectile_section() -> String {
    let mut html = String::from(
        "<h3>Projectiles</h3>\n<p>A 9 mm pistol bullet fired at 350 m/s, 20 degrees down, from 1 m above water. Quadratic drag is solved exactly each tick and the tick is split at the surface, so the simulated speed (the thin line) lies on the exact law (the pale band under it): about 3 m of air cost it a little, the first 2 m of water nine tenths.</p>\n",
    );
    html.push_str(&line_chart(
        "Bullet speed (m/s) against distance travelled (m)",
        "distance travelled (m)",
        &bullet_series(),
        &[Mark {
            at: MarkAt::X(f64::from(1.0 / 20f32.to_radians().sin())),
            label: "water surface".to_string(),
        }],
        Scale::Fit,
    ));
    html.push_str("<p>A grenade thrown at a wall, seen from the side: a 0.4 m wall at x = 9 m and the floor bounce it. Prediction runs the same step with the same tick, so its points are the flight's (dashed, over the flight's pale band); a prediction with a tick twice as long falls ½·g·dt·t lower and meets the wall elsewhere.</p>\n");
    html.push_str(&line_chart(
        "Grenade height (m) against x (m)",
        "x (m)",
        &grenade_series(),
        &[
            Mark {
                at: MarkAt::X(f64::from(WALL_X - WALL_HALF_WIDTH)),
                label: "wall".to_string(),
            },
            Mark {
                at: MarkAt::Y(0.0),
                label: "floor".to_string(),
            },
        ],
        Scale::Linear,
    ));
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prediction_lies_on_the_flight_and_the_coarse_one_does_not() {
        let series = grenade_series();
        let (coarse, real, predicted) = (&series[0].points, &series[1].points, &series[2].points);
        assert_eq!(real, predicted);
        assert_ne!(coarse, real);
    }
}
