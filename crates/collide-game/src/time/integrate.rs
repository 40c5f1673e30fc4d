//! Integrators: advance a state by one time step. The same two lines in a
//! different order leak energy or keep it, so the choice matters:
//!
//! - [`Integrator::ExplicitEuler`]: position by the old velocity, velocity
//!   by the old acceleration. Adds energy to springs and orbits every step
//!   (a 1 Hz spring at 30 ticks a second grows 2.6 times in 1.5 s); a
//!   reference, not for games.
//! - [`Integrator::SemiImplicitEuler`]: velocity first, then position by
//!   the new velocity. Same cost; its energy error rises and falls instead
//!   of growing. The usual choice for game physics.
//! - [`Verlet`]: positions only, velocity implied by the last two. Moving a
//!   point moves its velocity with it, which suits distance constraints
//!   (ropes, cloth, swings). Corrected for a step length that changes.
//! - [`Integrator::Rk4`] and [`rk4`]: four slopes a step, fourth order.
//!   Four times the force evaluations; pays off for smooth forces (orbits),
//!   not for contact.
//!
//! They work on any state the caller describes: a type with addition,
//! subtraction and scaling by the scalar ([`Space`]), such as `f32`,
//! glam's `Vec2` and `Vec3` (or `f64` and `DVec3`), or a struct of the
//! caller's own.

use crate::error::{GameError, positive};
use collide::glam;
use std::fmt::Debug;
use std::ops::{Add, Div, Mul, Sub};

/// The scalar of a state: `f32` (glam's `Vec2`, `Vec3`) or `f64`.
pub trait Real:
    Copy
    + Debug
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Send
    + Sync
    + 'static
{
    /// The value nearest to `value`.
    fn from_f64(value: f64) -> Self;
    /// The value as `f64`.
    fn to_f64(self) -> f64;
}

impl Real for f32 {
    fn from_f64(value: f64) -> Self {
        value as f32
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}

impl Real for f64 {
    fn from_f64(value: f64) -> Self {
        value
    }
    fn to_f64(self) -> f64 {
        self
    }
}

/// A state the integrators can advance: it adds, subtracts and scales by
/// its scalar. `f32`, `f64` and glam's vectors are states; a struct of the
/// caller's own becomes one with these three operations.
///
/// ```
/// use collide_game::time::{Integrator, PointState, Space, TimeStep};
/// use std::ops::{Add, Sub};
///
/// /// A wheel's angle and an arm's extension, advanced together.
/// #[derive(Clone, Copy, Debug, PartialEq)]
/// struct Rig { angle: f32, reach: f32 }
/// impl Add for Rig {
///     type Output = Rig;
///     fn add(self, o: Rig) -> Rig { Rig { angle: self.angle + o.angle, reach: self.reach + o.reach } }
/// }
/// impl Sub for Rig {
///     type Output = Rig;
///     fn sub(self, o: Rig) -> Rig { Rig { angle: self.angle - o.angle, reach: self.reach - o.reach } }
/// }
/// impl Space for Rig {
///     type Scalar = f32;
///     fn scale(self, by: f32) -> Rig { Rig { angle: self.angle * by, reach: self.reach * by } }
/// }
///
/// let zero = Rig { angle: 0.0, reach: 0.0 };
/// let start = PointState { position: zero, velocity: Rig { angle: 1.0, reach: 0.5 } };
/// let end = Integrator::SemiImplicitEuler.step(start, TimeStep::new(0.5)?, |_, _| zero);
/// assert_eq!(end.position, Rig { angle: 0.5, reach: 0.25 });
/// # Ok::<(), collide_game::GameError>(())
/// ```
pub trait Space: Copy + Add<Output = Self> + Sub<Output = Self> {
    /// The scalar the state scales by.
    type Scalar: Real;
    /// The state times `by`.
    fn scale(self, by: Self::Scalar) -> Self;
}

/// `Space` for types that multiply by their scalar.
macro_rules! space_by_mul {
    ($($ty:ty => $scalar:ty),* $(,)?) => {$(
        impl Space for $ty {
            type Scalar = $scalar;
            #[inline]
            fn scale(self, by: $scalar) -> Self {
                self * by
            }
        }
    )*};
}

space_by_mul!(
    f32 => f32,
    f64 => f64,
    glam::Vec2 => f32,
    glam::Vec3 => f32,
    glam::Vec3A => f32,
    glam::Vec4 => f32,
    glam::DVec2 => f64,
    glam::DVec3 => f64,
    glam::DVec4 => f64,
);

/// A time step: finite and above zero, checked once here so the
/// integrators need not check it every step.
///
/// ```
/// use collide_game::time::TimeStep;
/// assert_eq!(TimeStep::new(1.0f32 / 60.0)?.seconds(), 1.0 / 60.0);
/// assert!(TimeStep::new(0.0f32).is_err());
/// assert!(TimeStep::new(f64::NAN).is_err());
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct TimeStep<R: Real = f32>(R);

impl<R: Real> TimeStep<R> {
    /// A step of `seconds`, which must be finite and above zero.
    pub fn new(seconds: R) -> Result<Self, GameError> {
        positive("time step (seconds)", seconds.to_f64())?;
        Ok(TimeStep(seconds))
    }

    /// The step's length in seconds.
    pub fn seconds(self) -> R {
        self.0
    }
}

/// A position and a velocity: the state the second-order integrators
/// advance under an acceleration `a(position, velocity)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointState<S> {
    /// Where it is.
    pub position: S,
    /// How fast it moves, per second.
    pub velocity: S,
}

/// The integrators that advance a [`PointState`] in one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Integrator {
    /// Position by the old velocity, velocity by the old acceleration:
    /// gains energy every step; a reference.
    ExplicitEuler,
    /// Velocity by the acceleration, then position by the new velocity:
    /// bounded energy error at the same cost; the default for games.
    SemiImplicitEuler,
    /// Classic fourth-order Runge-Kutta: four accelerations a step.
    Rk4,
}

impl Integrator {
    /// Every integrator, cheapest first.
    pub const ALL: [Integrator; 3] = [
        Integrator::ExplicitEuler,
        Integrator::SemiImplicitEuler,
        Integrator::Rk4,
    ];

    /// Advances `state` by `dt` under `accel(position, velocity)`.
    ///
    /// ```
    /// use collide_game::time::{Integrator, PointState, TimeStep};
    /// let dt = TimeStep::new(0.5f32)?;
    /// let start = PointState { position: 0.0f32, velocity: 1.0 };
    /// let gravity = |_: f32, _: f32| -2.0f32;
    /// let explicit = Integrator::ExplicitEuler.step(start, dt, gravity);
    /// let semi = Integrator::SemiImplicitEuler.step(start, dt, gravity);
    /// assert_eq!((explicit.position, explicit.velocity), (0.5, 0.0));
    /// assert_eq!((semi.position, semi.velocity), (0.0, 0.0));
    /// // Under constant acceleration RK4 is exact: x = v t + a t² / 2.
    /// assert_eq!(Integrator::Rk4.step(start, dt, gravity).position, 0.25);
    /// # Ok::<(), collide_game::GameError>(())
    /// ```
    pub fn step<S: Space>(
        self,
        state: PointState<S>,
        dt: TimeStep<S::Scalar>,
        mut accel: impl FnMut(S, S) -> S,
    ) -> PointState<S> {
        let h = dt.seconds();
        let PointState { position, velocity } = state;
        match self {
            Integrator::ExplicitEuler => PointState {
                position: position + velocity.scale(h),
                velocity: velocity + accel(position, velocity).scale(h),
            },
            Integrator::SemiImplicitEuler => {
                let velocity = velocity + accel(position, velocity).scale(h);
                PointState {
                    position: position + velocity.scale(h),
                    velocity,
                }
            }
            Integrator::Rk4 => {
                let half = h * S::Scalar::from_f64(0.5);
                let (x1, v1) = (position, velocity);
                let a1 = accel(x1, v1);
                let (x2, v2) = (position + v1.scale(half), velocity + a1.scale(half));
                let a2 = accel(x2, v2);
                let (x3, v3) = (position + v2.scale(half), velocity + a2.scale(half));
                let a3 = accel(x3, v3);
                let (x4, v4) = (position + v3.scale(h), velocity + a3.scale(h));
                let a4 = accel(x4, v4);
                let sixth = h / S::Scalar::from_f64(6.0);
                let two = S::Scalar::from_f64(2.0);
                PointState {
                    position: position + (v1 + v2.scale(two) + v3.scale(two) + v4).scale(sixth),
                    velocity: velocity + (a1 + a2.scale(two) + a3.scale(two) + a4).scale(sixth),
                }
            }
        }
    }
}

/// One classic fourth-order Runge-Kutta step of a first-order system
/// `dy/dt = slope(t, y)` from time `t`: the general form, for a state that
/// is not a position and a velocity.
///
/// ```
/// use collide_game::time::{TimeStep, rk4};
/// // dy/dt = y from y = 1: e after one second.
/// let dt = TimeStep::new(0.1f64)?;
/// let mut y = 1.0f64;
/// for k in 0..10 {
///     y = rk4(y, k as f64 * 0.1, dt, |_, y| y);
/// }
/// assert!((y - std::f64::consts::E).abs() < 1e-5);
/// # Ok::<(), collide_game::GameError>(())
/// ```
pub fn rk4<S: Space>(
    y: S,
    t: S::Scalar,
    dt: TimeStep<S::Scalar>,
    mut slope: impl FnMut(S::Scalar, S) -> S,
) -> S {
    let h = dt.seconds();
    let half = h * S::Scalar::from_f64(0.5);
    let k1 = slope(t, y);
    let k2 = slope(t + half, y + k1.scale(half));
    let k3 = slope(t + half, y + k2.scale(half));
    let k4 = slope(t + h, y + k3.scale(h));
    let two = S::Scalar::from_f64(2.0);
    y + (k1 + k2.scale(two) + k3.scale(two) + k4).scale(h / S::Scalar::from_f64(6.0))
}

/// Position Verlet: the state is the position now and the position a step
/// ago; the velocity is implied by them. Each step adds the last step's
/// displacement, scaled by the ratio of the step lengths, and the
/// acceleration times `dt (dt + last dt) / 2`: exact under constant
/// acceleration whatever the steps' lengths (plain Verlet, which assumes
/// equal steps, is not).
///
/// ```
/// use collide_game::time::{TimeStep, Verlet};
/// let mut stone = Verlet::new(100.0f64, 0.0);
/// let mut t = 0.0;
/// for dt in [0.1, 0.05, 0.2, 0.01] {
///     stone.step(TimeStep::new(dt)?, |_| -9.81);
///     t += dt;
/// }
/// // Exact: 100 - g t² / 2, even with the step changing.
/// assert!((stone.position() - (100.0 - 9.81 * t * t / 2.0)).abs() < 1e-9);
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Verlet<S: Space> {
    position: S,
    /// The position a step ago and that step's length; before the first
    /// step, the starting velocity stands in for them.
    last: Last<S>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Last<S: Space> {
    Start { velocity: S },
    Step { previous: S, dt: S::Scalar },
}

impl<S: Space> Verlet<S> {
    /// Starts at `position` moving at `velocity`.
    pub fn new(position: S, velocity: S) -> Self {
        Verlet {
            position,
            last: Last::Start { velocity },
        }
    }

    /// The position now.
    pub fn position(&self) -> S {
        self.position
    }

    /// Moves the point without changing the previous position: the implied
    /// velocity changes with it, as a distance constraint wants.
    pub fn set_position(&mut self, position: S) {
        self.position = position;
    }

    /// The velocity over the last step (displacement over its length), or
    /// the starting velocity before the first step.
    pub fn velocity(&self) -> S {
        match self.last {
            Last::Start { velocity } => velocity,
            Last::Step { previous, dt } => {
                (self.position - previous).scale(S::Scalar::from_f64(1.0) / dt)
            }
        }
    }

    /// Advances one step of `dt` under `accel(position)`.
    pub fn step(&mut self, dt: TimeStep<S::Scalar>, mut accel: impl FnMut(S) -> S) {
        let h = dt.seconds();
        let a = accel(self.position);
        let half = S::Scalar::from_f64(0.5);
        let next = match self.last {
            Last::Start { velocity } => self.position + velocity.scale(h) + a.scale(h * h * half),
            Last::Step { previous, dt: last } => {
                self.position
                    + (self.position - previous).scale(h / last)
                    + a.scale(h * (h + last) * half)
            }
        };
        self.last = Last::Step {
            previous: self.position,
            dt: h,
        };
        self.position = next;
    }
}
