//! Trajectory prediction: the very same step as the flight, with the same
//! tick, run ahead into the future on a copy of the projectile. It is not
//! a parabola formula: it bounces off walls and crosses media as the shot
//! will, and its points are the shot's points bit for bit. A prediction
//! with a coarser tick would not be: the semi-implicit step falls
//! ½·g·dt·t below the parabola, so the aim line must share the tick.

use super::flight::{Ballistics, Flight, Hit, OnHit, Projectile};
use crate::dim::{Dim, dot};
use crate::error::{GameError, finite, positive};
use crate::surroundings::Surroundings;
use crate::time::TimeStep;

/// How a prediction ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ending<V> {
    /// Stopped by a hit (the response said stop).
    Hit(Hit<V>),
    /// Came to rest on a surface it bounced on.
    Rest,
    /// Its lifetime ran out.
    Expired,
    /// The cap on steps cut it short.
    Cap,
}

impl<D: Dim> Ballistics<D> {
    /// Runs a copy of `projectile` ahead for at most `steps` ticks of
    /// `dt`, exactly as [`Ballistics::step`] would, writing its position
    /// after every tick to `points` (cleared first); `respond` decides at
    /// each hit as it will in flight. Returns how it ended.
    ///
    /// ```
    /// use collide::world::World3;
    /// use collide_game::{D3, Gravity, Surroundings};
    /// use collide_game::glam::Vec3;
    /// use collide_game::projectile::{Ballistics, Body, Ending, Media, Medium, OnHit, Projectile};
    /// use collide_game::time::TimeStep;
    /// let world: World3 = World3::new();
    /// let air = Media::<D3>::new(Medium::VACUUM);
    /// let around = Surroundings::new(&world, Gravity::earth()).with_media(&air);
    /// let grenade = Projectile::<D3>::new(Vec3::ZERO, Vec3::new(4.0, 6.0, 0.0), 0.05, 3.0, None, Body::sphere(0.4, 0.5, 0.05)?)?;
    /// let mut ballistics = Ballistics::default();
    /// let mut path = Vec::new();
    /// let dt = TimeStep::new(1.0 / 60.0)?;
    /// let ending = ballistics.predict(&grenade, &around, dt, 120, |_| OnHit::Stop, &mut path);
    /// assert_eq!((ending, path.len()), (Ending::Cap, 120));
    /// # Ok::<(), collide_game::GameError>(())
    /// ```
    pub fn predict(
        &mut self,
        projectile: &Projectile<D>,
        around: &Surroundings<'_, D>,
        dt: TimeStep<f32>,
        steps: usize,
        mut respond: impl FnMut(&Hit<D::V>) -> OnHit,
        points: &mut Vec<D::V>,
    ) -> Ending<D::V> {
        points.clear();
        let mut copy = *projectile;
        for _ in 0..steps {
            let flight = self.step(&mut copy, around, dt, &mut respond);
            points.push(copy.position());
            match flight {
                Flight::Flying => {}
                Flight::Expired => return Ending::Expired,
                Flight::Resting => return Ending::Rest,
                Flight::Stopped => {
                    return match self.hits().last() {
                        Some(&hit) => Ending::Hit(hit),
                        None => Ending::Rest,
                    };
                }
            }
        }
        Ending::Cap
    }
}

/// The two launch velocities of a given speed that reach a target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arcs<V> {
    /// The flatter arc: the shorter flight.
    pub low: V,
    /// The steeper arc: the longer flight, over obstacles.
    pub high: V,
}

/// The launch velocities that carry a point from `from` to `to` at
/// `speed` under `gravity` (pointing down, m/s²) with no drag: the low
/// and the high arc, or `None` when `to` is out of reach (or straight
/// above or below). An error for a speed or gravity not above zero, or a
/// point not finite.
///
/// ```
/// use collide_game::D3;
/// use collide_game::glam::Vec3;
/// use collide_game::projectile::launch_velocity;
/// let far = Vec3::new(10.0, 0.0, 0.0);
/// let arcs = launch_velocity::<D3>(Vec3::ZERO, far, 12.0, 9.81)?.expect("in reach");
/// assert!(arcs.low.y < arcs.high.y && (arcs.low.length() - 12.0).abs() < 1e-4);
/// assert!(launch_velocity::<D3>(Vec3::ZERO, far * 10.0, 12.0, 9.81)?.is_none());
/// assert!(launch_velocity::<D3>(Vec3::ZERO, far, f32::NAN, 9.81).is_err());
/// # Ok::<(), collide_game::GameError>(())
/// ```
pub fn launch_velocity<D: Dim>(
    from: D::V,
    to: D::V,
    speed: f32,
    gravity: f32,
) -> Result<Option<Arcs<D::V>>, GameError> {
    positive("launch speed (m/s)", f64::from(speed))?;
    positive("gravity (m/s2)", f64::from(gravity))?;
    for k in 0..<D::V as collide::Vector>::DIM {
        finite("launch point", f64::from(collide::Vector::axis(from, k)))?;
        finite("target point", f64::from(collide::Vector::axis(to, k)))?;
    }
    let delta = to - from;
    let rise = dot(delta, D::UP);
    let level = delta - D::UP * rise;
    let x = dot(level, level).sqrt();
    let v2 = speed * speed;
    let disc = v2 * v2 - gravity * (gravity * x * x + 2.0 * rise * v2);
    if x <= 0.0 || disc < 0.0 {
        return Ok(None);
    }
    let root = disc.sqrt();
    let along = level * (1.0 / x);
    let velocity = |tan: f32| {
        let cos = 1.0 / (1.0 + tan * tan).sqrt();
        (along * cos + D::UP * (tan * cos)) * speed
    };
    Ok(Some(Arcs {
        low: velocity((v2 - root) / (gravity * x)),
        high: velocity((v2 + root) / (gravity * x)),
    }))
}
