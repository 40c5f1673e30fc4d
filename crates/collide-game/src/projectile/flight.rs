//! A projectile's tick: gravity, then quadratic drag solved exactly along
//! the straight path it gives, split where the path crosses into another
//! medium, and swept through the world so nothing is skipped at any speed:
//! a ray for a point, a sphere (circle) for a radius. What happens at a
//! hit is the caller's choice per hit.

use super::drag::{Body, bounce, direction, distance_in, drag, time_to_cover};
use crate::dim::{Dim, dot, length};
use crate::error::{GameError, finite, positive};
use crate::level::{Except, first_hit, overlap, span};
use crate::precise::Precise;
use crate::surroundings::Surroundings;
use crate::time::TimeStep;
use collide::Handle;
use collide::narrow::Capsule;

/// What a projectile does at a hit, chosen per hit by the caller.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OnHit {
    /// Stop there (embed).
    Stop,
    /// Bounce, keeping the shares of [`Bounce`].
    Bounce(Bounce),
    /// Go through, and not hit the same object again this tick.
    Pass,
}

/// How a projectile bounces: the share of its speed into the surface it
/// keeps (restitution) and the share of its speed along the surface it
/// loses (friction), each checked to lie from 0 to 1 where it is made.
/// Once a bounce is too slow to leave the surface (gravity brings it back
/// within the tick), it slides, and friction is Coulomb's: the speed
/// along the surface drops by `friction` times the speed into it, so it
/// slows by `friction` g a second whatever the tick, and rests when that
/// stops it (on a slope steeper than the friction holds, it slides on).
///
/// ```
/// use collide_game::projectile::{Bounce, OnHit};
/// let grenade = OnHit::Bounce(Bounce::new(0.4, 0.3)?);
/// assert!(Bounce::new(f32::NAN, 0.3).is_err());
/// assert!(Bounce::new(1.5, 0.3).is_err());
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounce {
    restitution: f32,
    friction: f32,
}

impl Bounce {
    /// Keep `restitution` (0 to 1) of the speed into the surface and lose
    /// `friction` (0 to 1) of the speed along it.
    pub fn new(restitution: f32, friction: f32) -> Result<Self, GameError> {
        Ok(Bounce {
            restitution: crate::error::unit_share("bounce restitution", restitution)?,
            friction: crate::error::unit_share("bounce friction", friction)?,
        })
    }

    /// The share of the speed into the surface kept, 0 to 1.
    pub fn restitution(&self) -> f32 {
        self.restitution
    }

    /// The share of the speed along the surface lost, 0 to 1.
    pub fn friction(&self) -> f32 {
        self.friction
    }
}

/// One hit of a tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit<V> {
    /// The object hit.
    pub handle: Handle,
    /// Where the projectile's centre was at the hit.
    pub point: V,
    /// The surface's normal there, pointing out of the object.
    pub normal: V,
    /// When, as a share of the tick (0 to 1).
    pub fraction: f32,
    /// The velocity at the hit, before the response.
    pub velocity: V,
}

/// How a projectile stands after a tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flight {
    /// Still flying.
    Flying,
    /// Stopped by a hit whose response said stop.
    Stopped,
    /// Come to rest on a surface it bounced on: too slow, after the
    /// bounce, to leave it against gravity or to slide a tick's worth.
    Resting,
    /// Its lifetime ran out.
    Expired,
}

/// A projectile: a few values, not a rigid body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Projectile<D: Dim> {
    /// In f64: far from the origin, each part of a tick's path is kept
    /// whole.
    position: Precise<D>,
    velocity: D::V,
    radius: f32,
    lifetime: f32,
    owner: Option<Handle>,
    /// The objects it is inside and goes through without a hit until it
    /// has left them: its owner at first, then those it passed.
    inside: [Option<Handle>; 4],
    body: Body,
    ticks: u64,
    flight: Flight,
}

/// How far a bounce sets the projectile off the surface, metres.
const SURFACE_GAP: f32 = 1e-4;

/// Most parts a tick is split into (media crossings plus hits) before the
/// rest of the tick is dropped.
const MAX_PARTS: usize = 16;

impl<D: Dim> Projectile<D> {
    /// A projectile at `position` moving at `velocity` (m/s), of `radius`
    /// (0 for a point), living `lifetime` seconds, fired by `owner` (not
    /// hit until the projectile has left it), with `body` for its drag.
    pub fn new(
        position: D::V,
        velocity: D::V,
        radius: f32,
        lifetime: f32,
        owner: Option<Handle>,
        body: Body,
    ) -> Result<Self, GameError> {
        for k in 0..<D::V as collide::Vector>::DIM {
            finite(
                "projectile position",
                f64::from(collide::Vector::axis(position, k)),
            )?;
            finite(
                "projectile velocity",
                f64::from(collide::Vector::axis(velocity, k)),
            )?;
        }
        let radius = crate::error::non_negative("projectile radius (m)", f64::from(radius))? as f32;
        let lifetime = positive("projectile lifetime (s)", f64::from(lifetime))? as f32;
        Ok(Projectile {
            position: Precise::new(position),
            velocity,
            radius,
            lifetime,
            owner,
            inside: [owner, None, None, None],
            body,
            ticks: 0,
            flight: Flight::Flying,
        })
    }

    /// Where it is.
    pub fn position(&self) -> D::V {
        self.position.get()
    }
    /// How fast it moves, m/s.
    pub fn velocity(&self) -> D::V {
        self.velocity
    }
    /// Seconds left to live.
    pub fn lifetime(&self) -> f32 {
        self.lifetime
    }
    /// Flying, stopped or expired.
    pub fn flight(&self) -> Flight {
        self.flight
    }
    /// Its drag properties.
    pub fn body(&self) -> &Body {
        &self.body
    }
}

/// Steps projectiles, keeping the memory the sweeps and hits use from
/// tick to tick: one per thread.
#[derive(Clone, Debug)]
pub struct Ballistics<D: Dim> {
    sweeper: D::Sweeper,
    hits: Vec<Hit<D::V>>,
}

impl<D: Dim> Default for Ballistics<D> {
    fn default() -> Self {
        Ballistics {
            sweeper: D::stopping_sweeper(),
            hits: Vec::new(),
        }
    }
}

impl<D: Dim> Ballistics<D> {
    /// The hits of the last [`Ballistics::step`], in time order.
    pub fn hits(&self) -> &[Hit<D::V>] {
        &self.hits
    }

    /// One tick of `dt` for `projectile` through `around`: gravity, then
    /// drag along the path (split at media boundaries), swept for hits;
    /// `respond` says what to do at each hit. Does nothing once the
    /// projectile stopped or expired.
    pub fn step(
        &mut self,
        projectile: &mut Projectile<D>,
        around: &Surroundings<'_, D>,
        dt: TimeStep<f32>,
        mut respond: impl FnMut(&Hit<D::V>) -> OnHit,
    ) -> Flight {
        self.hits.clear();
        projectile.fly(around, dt, &mut self.sweeper, &mut respond, &mut self.hits)
    }
}

impl<D: Dim> Projectile<D> {
    /// The tick behind [`Ballistics::step`].
    fn fly(
        &mut self,
        around: &Surroundings<'_, D>,
        dt: TimeStep<f32>,
        sweeper: &mut D::Sweeper,
        respond: &mut dyn FnMut(&Hit<D::V>) -> OnHit,
        hits: &mut Vec<Hit<D::V>>,
    ) -> Flight {
        let (level, gravity) = (around.level, around.gravity);
        if self.flight != Flight::Flying {
            return self.flight;
        }
        let tick = dt.seconds();
        // The part of the tick it lives: a lifetime that ends mid-tick ends
        // the flight there, before anything later in the tick.
        let lived = tick.min(self.lifetime);
        self.ticks += 1;
        // Semi-implicit: gravity first, then the path along the new velocity.
        self.velocity = self.velocity + gravity * lived;
        let mut left = lived;
        let mover = Capsule::new(0.0, self.radius.max(1e-6)).ok();
        // Out of the objects it was inside (its owner, those it passed),
        // it may hit them again.
        let here = self.position.get();
        for slot in &mut self.inside {
            let still = slot.zip(mover.as_ref()).is_some_and(|(h, m)| {
                span(here, here).is_some_and(|near| {
                    overlap::<D>(level, h, &near, m, here).is_some_and(|(depth, _)| depth > 0.0)
                })
            });
            if !still {
                *slot = None;
            }
        }
        // Passed this tick: the latest few kept (once full, a new one
        // replaces the oldest, which lies behind the path).
        let mut passes = 0usize;
        for _ in 0..MAX_PARTS {
            let speed = length(self.velocity);
            if left <= 0.0 || speed == 0.0 {
                break;
            }
            let d = direction::<D>(self.velocity);
            let here = self.position.get();
            // A step that tells which medium lies ahead: a hundred-
            // thousandth of the tick's travel, and past the rounding of
            // the position (a millimetre 10 km out), so a boundary just
            // crossed, to rounding, counts as crossed.
            let far = (0..<D::V as collide::Vector>::DIM)
                .map(|k| collide::Vector::axis(here, k).abs())
                .fold(0.0f32, f32::max);
            let nudge = 1e-5 * (1.0 + speed * tick) + 8.0 * f32::EPSILON * far;
            let ahead = here + d * nudge;
            let k = self.body.k(around.medium_at(ahead));
            // This part ends at the next medium boundary or the tick's end.
            let reach = distance_in(speed, k, left);
            let boundary = around
                .media
                .and_then(|media| media.next_boundary(here, d))
                .filter(|&b| b > nudge && b < reach);
            let part = boundary.unwrap_or(reach);
            // Sweep the part for the first object.
            let inside = self.inside;
            let skip = |h: Handle| inside.contains(&Some(h));
            let hit = match &mover {
                Some(m) if self.radius > 0.0 => {
                    let others = Except::<D> { level, skip: &skip };
                    let swept = D::sweep(sweeper, &others, m, here, d * part);
                    swept.hit.map(|(h, n, _)| (h, swept.t * part, n))
                }
                _ => first_hit::<D>(level, &skip, here, d, part),
            };
            // The hit found from the f32 point nearest the position, moved
            // to the position itself: along the path, as far as the
            // surface's plane lies from it.
            let hit = hit.map(|(handle, at, normal)| {
                let across = dot(normal, d);
                let shift = if across < -1e-3 {
                    dot(normal, self.position.rounding()) / across
                } else {
                    0.0
                };
                (handle, (at - shift).clamp(0.0, part), normal)
            });
            match hit {
                None if boundary.is_none() => {
                    // The rest of the tick in this medium, the displacement
                    // straight from the velocity (exact in free flight).
                    let (v, moved) = drag::<D>(self.velocity, k, left);
                    self.position.shift(moved);
                    self.velocity = v;
                    left = 0.0;
                }
                None => {
                    let tau = time_to_cover(speed, k, part).min(left);
                    let (v, _) = drag::<D>(self.velocity, k, tau);
                    self.position.shift(d * part);
                    self.velocity = v;
                    left -= tau;
                }
                Some((handle, at, normal)) => {
                    let tau = time_to_cover(speed, k, at).min(left);
                    let (v, _) = drag::<D>(self.velocity, k, tau);
                    self.position.shift(d * at);
                    self.velocity = v;
                    left -= tau;
                    let found = Hit {
                        handle,
                        point: self.position.get(),
                        normal,
                        fraction: (lived - left) / tick,
                        velocity: v,
                    };
                    hits.push(found);
                    match respond(&found) {
                        OnHit::Stop => {
                            self.velocity = D::ZERO;
                            self.flight = Flight::Stopped;
                            return self.flight;
                        }
                        OnHit::Bounce(shares) => {
                            let incoming = self.velocity;
                            self.velocity =
                                bounce::<D>(incoming, normal, shares.restitution, shares.friction);
                            // The speed gravity gives it into the surface in
                            // a tick: a bounce slower than that falls back
                            // at once (it would hop forever by rounding),
                            // so it stays on the surface and slides.
                            let pull = -dot(gravity, normal) * tick;
                            let away = dot(self.velocity, normal);
                            if pull > 0.0 && away < pull {
                                match slide::<D>(incoming, normal, shares.friction) {
                                    Some(v) => self.velocity = v,
                                    None => {
                                        self.velocity = D::ZERO;
                                        self.flight = Flight::Resting;
                                        return self.flight;
                                    }
                                }
                            }
                            // Off the surface, so the rest of the tick
                            // starts outside it.
                            self.position.shift(normal * SURFACE_GAP);
                        }
                        OnHit::Pass => {
                            let free = self.inside.iter().position(Option::is_none);
                            let slot = free.unwrap_or(passes % self.inside.len());
                            self.inside[slot] = Some(handle);
                            passes += 1;
                        }
                    }
                    if dot(self.velocity, self.velocity) == 0.0 {
                        self.flight = Flight::Stopped;
                        return self.flight;
                    }
                }
            }
        }
        self.lifetime -= tick;
        if self.lifetime <= 0.0 {
            self.flight = Flight::Expired;
        }
        self.flight
    }
}

/// Sliding on a surface of unit `normal` (too slow to leave it), met at
/// `velocity`: the part along it, slowed by `friction` times the speed
/// into it (Coulomb's friction, so it slows by `friction` g a second
/// whatever the tick); `None` once that stops it (at rest).
fn slide<D: Dim>(velocity: D::V, normal: D::V, friction: f32) -> Option<D::V> {
    let into = -dot(velocity, normal).min(0.0);
    let along = velocity - normal * dot(velocity, normal);
    let speed = length(along);
    let slowed = speed - friction * into;
    (slowed > 0.0).then(|| along * (slowed / speed))
}
