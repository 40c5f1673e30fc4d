//! A wheel's settings (where it hangs, its spring and damper, its size and
//! spin inertia) and what it reports each tick.

use crate::error::{GameError, finite_vector, non_negative, positive};
use collide::glam::Vec3;

/// A wheel on a spring: where its suspension is mounted on the chassis,
/// its size, and the spring and damper.
///
/// ```
/// use collide_game::vehicle::WheelSettings;
/// use collide_game::glam::Vec3;
/// let wheel = WheelSettings::new(Vec3::new(0.8, -0.2, -1.3), 0.33, 0.3)?
///     .with_spring(40_000.0, 3_000.0, 4_500.0)?;
/// assert_eq!(wheel.stiffness(), 40_000.0);
/// assert!(WheelSettings::new(Vec3::ZERO, -0.3, 0.3).is_err());
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WheelSettings {
    mount: Vec3,
    radius: f32,
    rest_length: f32,
    stiffness: f32,
    bump: f32,
    rebound: f32,
    inertia: f32,
}

impl WheelSettings {
    /// A wheel of `radius` metres whose suspension hangs from `mount` (in
    /// the chassis's frame: x right, y up, -z forward) and is
    /// `rest_length` metres long unloaded (both above zero); with the
    /// defaults: a 35,000 N/m spring, damping 3,000 N s/m in bump and 4,500
    /// in rebound, and 1.2 kg m² of spin inertia.
    pub fn new(mount: Vec3, radius: f32, rest_length: f32) -> Result<Self, GameError> {
        Ok(Self {
            mount: finite_vector("wheel mount", mount)?,
            radius: positive("wheel radius (m)", f64::from(radius))? as f32,
            rest_length: positive("suspension length (m)", f64::from(rest_length))? as f32,
            stiffness: 35_000.0,
            bump: 3_000.0,
            rebound: 4_500.0,
            inertia: 1.2,
        })
    }

    /// The spring's stiffness (N/m, above zero) and the damping while the
    /// spring compresses (bump) and extends (rebound), N s/m, 0 or more.
    pub fn with_spring(
        mut self,
        stiffness: f32,
        bump: f32,
        rebound: f32,
    ) -> Result<Self, GameError> {
        self.stiffness = positive("spring stiffness (N/m)", f64::from(stiffness))? as f32;
        self.bump = non_negative("bump damping (N s/m)", f64::from(bump))? as f32;
        self.rebound = non_negative("rebound damping (N s/m)", f64::from(rebound))? as f32;
        Ok(self)
    }

    /// The wheel's moment of inertia about its axle, kg m² (above zero).
    pub fn with_inertia(mut self, inertia: f32) -> Result<Self, GameError> {
        self.inertia = positive("wheel inertia (kg m²)", f64::from(inertia))? as f32;
        Ok(self)
    }

    /// The same wheel mounted at `mount` (finite, in the chassis's frame).
    pub fn at(self, mount: Vec3) -> Result<Self, GameError> {
        Ok(Self {
            mount: finite_vector("wheel mount", mount)?,
            ..self
        })
    }

    /// The damping in bump and in rebound, N s/m.
    pub fn damping(&self) -> (f32, f32) {
        (self.bump, self.rebound)
    }

    /// The mount, in the chassis's frame.
    pub fn mount(&self) -> Vec3 {
        self.mount
    }

    /// The radius, metres.
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// The suspension's unloaded length, metres.
    pub fn rest_length(&self) -> f32 {
        self.rest_length
    }

    /// The spring's stiffness, N/m.
    pub fn stiffness(&self) -> f32 {
        self.stiffness
    }

    /// The wheel's spin inertia, kg m².
    pub fn inertia(&self) -> f32 {
        self.inertia
    }

    /// The spring and damper's push (N, never pulling) at `compression`
    /// metres, compressing at `speed` m/s (negative: extending).
    pub(crate) fn suspension_force(&self, compression: f32, speed: f32) -> f32 {
        let damping = if speed > 0.0 { self.bump } else { self.rebound };
        (self.stiffness * compression + damping * speed).max(0.0)
    }

    /// A copy mirrored across the chassis's x = 0 plane.
    pub(crate) fn mirrored(&self) -> Self {
        Self {
            mount: Vec3::new(-self.mount.x, self.mount.y, self.mount.z),
            ..*self
        }
    }
}

/// What a wheel did in the last tick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WheelTelemetry {
    /// Where the wheel touches the ground, if it does.
    pub contact: Option<Vec3>,
    /// How far the spring is compressed, metres (0 to its rest length).
    pub compression: f32,
    /// How fast it compresses, m/s (negative: extending).
    pub compression_speed: f32,
    /// The suspension's push, which is the wheel's load, N (never below 0).
    pub load: f32,
    /// Slip ratio: (surface speed minus ground speed) over ground speed.
    pub slip_ratio: f32,
    /// Slip angle, radians: between where the wheel points and where it
    /// goes.
    pub slip_angle: f32,
    /// The tire's force along the wheel, N (forward positive).
    pub force_along: f32,
    /// The tire's force across the wheel, N (toward the wheel's right
    /// positive).
    pub force_across: f32,
    /// The wheel's spin, rad/s (positive rolls it forward).
    pub spin: f32,
    /// Its steering angle, radians (positive turns left).
    pub steer: f32,
}
