//! The rope and the body on it: a distance constraint while taut, the
//! simulated pivot's drift, the rope's shortening, and the swept move.

use crate::Surroundings;
use crate::dim::{Dim, dot, length};
use crate::error::{GameError, finite_vector, non_negative, positive};
use crate::level::first_hit;
use crate::time::TimeStep;
use collide::narrow::Capsule;

/// How a taut rope treats the body's velocity after pulling it back onto
/// the rope's sphere.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RopeStep {
    /// A rope taut at the start of the tick turns the velocity with it,
    /// by the rotation that took the rope from its old direction to its
    /// new one, and then drops any outward part: the symplectic Euler step
    /// of a pendulum, whose energy wavers within about 1% at 60 ticks a
    /// second but does not drain. A rope that goes taut this tick loses
    /// its outward speed (the jerk of a rope snapping tight).
    #[default]
    TurnWithRope,
    /// The plain step: the outward part of the velocity is deleted every
    /// tick. It loses energy at every turn of the arc (about two thirds of
    /// a 10 m swing's in a minute at 60 ticks a second).
    DeleteOutward,
}

/// The body's size and the rope's rules, validated once.
///
/// ```
/// use collide_game::swing::{RopeStep, SwingSettings};
/// let settings = SwingSettings::new(0.3)?
///     .with_pivot_drift(4.0, 3.0)?
///     .with_clearance(0.5)?
///     .with_step(RopeStep::TurnWithRope);
/// assert_eq!(settings.pivot_speed(), 4.0);
/// assert!(SwingSettings::new(-1.0).is_err());
/// assert!(settings.with_min_length(f32::NAN).is_err());
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwingSettings {
    radius: f32,
    step: RopeStep,
    pivot_speed: f32,
    pivot_reach: f32,
    clearance: f32,
    min_length: f32,
    reel_speed: f32,
}

impl SwingSettings {
    /// A body of `radius` metres (above zero), with the defaults: the
    /// turning step, the pivot drifting at up to 3 m/s and 4 m from
    /// where it was attached, 0.5 m kept between the arc's low point and
    /// the ground, the rope reeled in at up to 12 m/s and never below 2 m.
    pub fn new(radius: f32) -> Result<Self, GameError> {
        Ok(Self {
            radius: positive("swing body radius (m)", f64::from(radius))? as f32,
            step: RopeStep::TurnWithRope,
            pivot_speed: 3.0,
            pivot_reach: 4.0,
            clearance: 0.5,
            min_length: 2.0,
            reel_speed: 12.0,
        })
    }

    /// How the rope treats the velocity.
    pub fn with_step(mut self, step: RopeStep) -> Self {
        self.step = step;
        self
    }

    /// The simulated pivot moves at most `speed` m/s, and at most `reach`
    /// metres across the travel direction from where it was attached (the
    /// anchor, or above it on a roof line); both 0 or more, 0 keeping it
    /// where it was attached.
    pub fn with_pivot_drift(mut self, speed: f32, reach: f32) -> Result<Self, GameError> {
        self.pivot_speed = non_negative("pivot speed (m/s)", f64::from(speed))? as f32;
        self.pivot_reach = non_negative("pivot reach (m)", f64::from(reach))? as f32;
        Ok(self)
    }

    /// Metres (0 or more) kept between the body at the bottom of the arc
    /// and the ground or a roof below the pivot.
    pub fn with_clearance(mut self, metres: f32) -> Result<Self, GameError> {
        self.clearance = non_negative("rope clearance (m)", f64::from(metres))? as f32;
        Ok(self)
    }

    /// How fast the rope may shorten, m/s (above zero).
    pub fn with_reel_speed(mut self, metres_per_second: f32) -> Result<Self, GameError> {
        self.reel_speed = positive("rope reel speed (m/s)", f64::from(metres_per_second))? as f32;
        Ok(self)
    }

    /// The shortest rope, in metres (above zero), that shortening leaves.
    pub fn with_min_length(mut self, metres: f32) -> Result<Self, GameError> {
        self.min_length = positive("shortest rope (m)", f64::from(metres))? as f32;
        Ok(self)
    }

    /// The body's radius, metres.
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// How the rope treats the velocity.
    pub fn step(&self) -> RopeStep {
        self.step
    }

    /// The pivot's top speed, m/s.
    pub fn pivot_speed(&self) -> f32 {
        self.pivot_speed
    }

    /// How far the pivot may drift from the anchor, metres.
    pub fn pivot_reach(&self) -> f32 {
        self.pivot_reach
    }

    /// The gap kept under the arc, metres.
    pub fn clearance(&self) -> f32 {
        self.clearance
    }

    /// The shortest rope shortening leaves, metres.
    pub fn min_length(&self) -> f32 {
        self.min_length
    }
}

/// A rope: where it is drawn stuck, the pivot the swing turns about, and
/// its length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rope<D: Dim> {
    anchor: D::V,
    pivot: D::V,
    length: f32,
    /// Where the body was when it took the rope: the wished line runs
    /// through it.
    start: D::V,
    /// The pivot's offset from the anchor when attached (a roof line's
    /// lift): the drift keeps it.
    lift: D::V,
}

impl<D: Dim> Rope<D> {
    /// Where the rope is drawn stuck: it never moves.
    pub fn anchor(&self) -> D::V {
        self.anchor
    }

    /// The point the swing turns about.
    pub fn pivot(&self) -> D::V {
        self.pivot
    }

    /// The rope's length, metres.
    pub fn length(&self) -> f32 {
        self.length
    }
}

/// A body that swings on a rope, or flies free without one.
#[derive(Clone, Debug)]
pub struct Swinger<D: Dim> {
    settings: SwingSettings,
    position: D::V,
    velocity: D::V,
    rope: Option<Rope<D>>,
    body: Capsule<D::V>,
    sweeper: D::Sweeper,
}

/// The most of the pendulum's angular frequency a part of a tick spans,
/// radians: a 10 m rope at 60 Hz spans 0.0165 a tick, and keeps one part.
const MAX_PHASE: f32 = 0.018;

/// The most parts a tick is split into (a 0.1 m rope at 30 Hz asks for
/// 19, a 5 cm one at 10 Hz for 78).
const MAX_PARTS: usize = 64;

/// `v` turned by the smallest rotation that takes unit `a` to unit `b`
/// (in the plane of the two; any dimension).
fn turned<D: Dim>(a: D::V, b: D::V, v: D::V) -> D::V {
    let c = dot(a, b);
    if c <= -1.0 + 1e-6 {
        return v;
    }
    let sum = a + b;
    v + b * (2.0 * dot(a, v)) - sum * (dot(sum, v) / (1.0 + c))
}

impl<D: Dim> Swinger<D> {
    /// A body at `position` (metres) moving at `velocity` (m/s), with no
    /// rope.
    pub fn new(settings: SwingSettings, position: D::V, velocity: D::V) -> Result<Self, GameError> {
        let body = Capsule::new(0.0, settings.radius).map_err(|_| GameError::NotPositive {
            what: "swing body radius (m)",
            value: f64::from(settings.radius),
        })?;
        Ok(Self {
            settings,
            position: finite_vector("swing position", position)?,
            velocity: finite_vector("swing velocity", velocity)?,
            rope: None,
            body,
            sweeper: D::stopping_sweeper(),
        })
    }

    /// Sticks a rope of `length` metres (above zero) drawn at `anchor`,
    /// turning about `pivot`. A body further than `length` from the pivot
    /// is pulled onto the rope at the next tick.
    pub fn attach(&mut self, anchor: D::V, pivot: D::V, length: f32) -> Result<(), GameError> {
        let anchor = finite_vector("rope anchor", anchor)?;
        let pivot = finite_vector("rope pivot", pivot)?;
        self.rope = Some(Rope {
            anchor,
            pivot,
            length: positive("rope length (m)", f64::from(length))? as f32,
            start: self.position,
            lift: pivot - anchor,
        });
        Ok(())
    }

    /// Lets go of the rope; the body flies on with its velocity.
    pub fn release(&mut self) {
        self.rope = None;
    }

    /// The rope, if one is attached.
    pub fn rope(&self) -> Option<&Rope<D>> {
        self.rope.as_ref()
    }

    /// The body's centre, metres.
    pub fn position(&self) -> D::V {
        self.position
    }

    /// The body's velocity, m/s.
    pub fn velocity(&self) -> D::V {
        self.velocity
    }

    /// The settings.
    pub fn settings(&self) -> &SwingSettings {
        &self.settings
    }

    /// Kinetic plus potential energy per kilogram, J/kg, zero at rest at
    /// the origin: `|v|² / 2 - gravity . position`.
    pub fn energy(&self, gravity: D::V) -> f32 {
        0.5 * dot(self.velocity, self.velocity) - dot(gravity, self.position)
    }

    /// One tick of `dt`: the pivot drifts toward the wished line, through
    /// where the body took the rope along `wish` (the direction the player
    /// wants to travel; zero for none, and then back toward the anchor), the rope shortens if the
    /// arc's low point would touch what is below the pivot, gravity acts,
    /// a taut rope pulls the body back onto its sphere, and the move is
    /// swept so the body stops at (and slides along) what it meets.
    pub fn step(
        &mut self,
        dt: TimeStep<f32>,
        wish: D::V,
        around: &Surroundings<'_, D>,
    ) -> Result<(), GameError> {
        finite_vector("swing wish", wish)?;
        finite_vector("gravity", around.gravity)?;
        let dt = dt.seconds();
        if let Some(mut rope) = self.rope {
            self.drift_pivot(&mut rope, wish, dt);
            self.shorten(&mut rope, around, dt);
            self.rope = Some(rope);
        }
        // In parts where the rope is short for the tick: each part at most
        // `MAX_PHASE` of the pendulum's own angular frequency, √(g/L). The
        // step is symplectic, its energy wavering by about half that share
        // (a 1 m rope at 30 Hz, 0.1 rad a tick, swung by 6%); the parts
        // depend on the rope alone, not on the speed, or the wavering
        // would no longer cancel over a swing.
        let parts = self.rope.map_or(1, |rope| {
            let omega = (length(around.gravity) / rope.length).sqrt();
            ((omega * dt / MAX_PHASE).ceil() as usize).clamp(1, MAX_PARTS)
        });
        let h = dt / parts as f32;
        let (mut at, mut velocity) = (self.position, self.velocity);
        for _ in 0..parts {
            (at, velocity) = self.rope_part(at, velocity, around.gravity, h);
        }
        self.velocity = velocity;
        self.move_to(at, around);
        Ok(())
    }

    /// One part of a tick, `h` seconds, from `at` at `velocity`: gravity,
    /// then a taut rope pulls the body back onto its sphere (turning its
    /// velocity with the rope, by the settings' step). Where it would be,
    /// and its velocity.
    fn rope_part(&self, at: D::V, velocity: D::V, gravity: D::V, h: f32) -> (D::V, D::V) {
        let was_taut = self
            .rope
            .is_some_and(|r| length(at - r.pivot) >= r.length * (1.0 - 1e-4));
        let mut velocity = velocity + gravity * h;
        let mut target = at + velocity * h;
        if let Some(rope) = self.rope {
            let out = target - rope.pivot;
            let distance = length(out);
            if distance > rope.length {
                let n = out * (1.0 / distance);
                target = rope.pivot + n * rope.length;
                let from = at - rope.pivot;
                if self.settings.step == RopeStep::TurnWithRope && was_taut && length(from) > 0.0 {
                    // The velocity turns with the rope, as a tangent does.
                    velocity = turned::<D>(from * (1.0 / length(from)), n, velocity);
                }
                velocity = velocity - n * dot(velocity, n).max(0.0);
            }
        }
        (target, velocity)
    }

    /// Moves the simulated pivot toward the wished line (or back to where
    /// it was attached, the anchor or above it), at most the pivot speed
    /// times `dt`, within the reach.
    fn drift_pivot(&self, rope: &mut Rope<D>, wish: D::V, dt: f32) {
        let up = D::UP;
        let flat = wish - up * dot(wish, up);
        let goal = if length(flat) > 1e-6 {
            // The anchor moved across to the vertical plane through the
            // rope's start along the wish.
            let along = flat * (1.0 / length(flat));
            let home = rope.anchor + rope.lift;
            let rel = home - rope.start;
            let across = rel - along * dot(rel, along) - up * dot(rel, up);
            let shift = -across;
            let reach = length(shift);
            if reach > self.settings.pivot_reach {
                home + shift * (self.settings.pivot_reach / reach)
            } else {
                home + shift
            }
        } else {
            rope.anchor + rope.lift
        };
        let to_go = goal - rope.pivot;
        let max = self.settings.pivot_speed * dt;
        let distance = length(to_go);
        rope.pivot = if distance > max {
            rope.pivot + to_go * (max / distance)
        } else {
            goal
        };
    }

    /// Shortens the rope, at most the reel speed times `dt`, so the bottom
    /// of the arc stays the clearance above whatever is below the pivot.
    /// The ray looks down from beside the pivot on the body's side, a
    /// body's width out, so it does not meet the wall or roof edge the
    /// rope hangs from.
    fn shorten(&self, rope: &mut Rope<D>, around: &Surroundings<'_, D>, dt: f32) {
        let up = D::UP;
        let out = self.position - rope.pivot;
        let flat = out - up * dot(out, up);
        let side = if length(flat) > 1e-6 {
            flat * ((self.settings.radius + 0.05) / length(flat))
        } else {
            D::ZERO
        };
        let reach = rope.length + self.settings.radius + self.settings.clearance;
        let below = first_hit::<D>(around.level, &|_| false, rope.pivot + side, -up, reach);
        // A ray that starts inside something (t = 0) says nothing about
        // the room below.
        if let Some((_, t, _)) = below.filter(|&(_, t, _)| t > 0.0) {
            let room =
                (t - self.settings.radius - self.settings.clearance).max(self.settings.min_length);
            let reeled = rope.length - self.settings.reel_speed * dt;
            rope.length = rope.length.min(room.max(reeled));
        }
    }

    /// Sweeps the body toward `target`, sliding along what it meets (up to
    /// three times); velocity into a surface is removed.
    fn move_to(&mut self, target: D::V, around: &Surroundings<'_, D>) {
        let mut remaining = target - self.position;
        for _ in 0..3 {
            if length(remaining) <= 1e-7 {
                break;
            }
            let swept = D::sweep(
                &mut self.sweeper,
                around.level,
                &self.body,
                self.position,
                remaining,
            );
            self.position = swept.end;
            let Some((_, normal, _)) = swept.hit else {
                break;
            };
            remaining = remaining * (1.0 - swept.t);
            remaining = remaining - normal * dot(remaining, normal).min(0.0);
            self.velocity = self.velocity - normal * dot(self.velocity, normal).min(0.0);
        }
    }
}
