//! The raycast car: a chassis on wheels grouped in two axles, engine
//! torque to the driven axle(s), brakes, a handbrake on the rear, steering
//! on the front.

use super::chassis::{Assists, Chassis, Commands, SpinGroup};
use super::tire::{TireSettings, signed};
use super::wheel::{WheelSettings, WheelTelemetry};
use crate::Gravity;
use crate::dynamics::RigidBody;
use crate::error::{GameError, non_negative, positive, unit_share};
use crate::time::TimeStep;
use crate::world_settings::world_settings;
use collide::Handle;
use collide::glam::{Quat, Vec3};
use collide::world::{Filter, World};

/// Which end of the car a wheel is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Axle {
    /// Steered.
    Front,
    /// Held by the handbrake.
    Rear,
}

/// Which wheels the engine drives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Drive {
    /// The front wheels: at full throttle in a turn the front slides wide
    /// (understeer).
    Front,
    /// The rear wheels: at full throttle in a turn the rear steps out
    /// (oversteer).
    #[default]
    Rear,
    /// All wheels, the torque split evenly.
    All,
}

impl Drive {
    fn drives(self, axle: Axle) -> bool {
        matches!(
            (self, axle),
            (Drive::All, _) | (Drive::Front, Axle::Front) | (Drive::Rear, Axle::Rear)
        )
    }
}

/// A car's body, wheels, drivetrain and assists, validated once.
///
/// ```
/// use collide_game::vehicle::{CarSettings, Drive, WheelSettings};
/// use collide_game::glam::Vec3;
/// let wheel = WheelSettings::new(Vec3::ZERO, 0.33, 0.35)?;
/// let car = CarSettings::four_wheels(1200.0, Vec3::new(0.9, 0.5, 2.2), 1.6, 2.6, -0.3, wheel)?
///     .with_drive(Drive::Front)
///     .with_torques(1800.0, 2500.0, 4000.0)?
///     .with_assists(0.5, 0.0)?;
/// assert_eq!(car.drive(), Drive::Front);
/// assert!(car.with_assists(1.5, 0.0).is_err());
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct CarSettings {
    mass: f32,
    half_extents: Vec3,
    wheels: Vec<(WheelSettings, Axle)>,
    drive: Drive,
    engine_torque: f32,
    brake_torque: f32,
    handbrake_torque: f32,
    max_steer: f32,
    max_spin: f32,
    tire: TireSettings,
    assists: Assists,
    gravity: Vec3,
    filter: Filter,
}

impl CarSettings {
    /// A car of `mass` kg whose body is a box of `half_extents` metres
    /// around its centre of mass (for its inertia), on `wheels` (at least
    /// one, each with its axle); with the defaults: rear drive, 1,600 N m
    /// of engine torque at the wheels, 2,500 N m of brake per wheel and
    /// 4,000 N m of handbrake per rear wheel, 35 degrees of steering,
    /// spin capped at 250 rad/s, the default tire, assists off.
    pub fn new(
        mass: f32,
        half_extents: Vec3,
        wheels: &[(WheelSettings, Axle)],
    ) -> Result<Self, GameError> {
        if wheels.is_empty() {
            return Err(GameError::Empty { what: "wheels" });
        }
        for h in half_extents.to_array() {
            positive("body half extent (m)", f64::from(h))?;
        }
        Ok(Self {
            mass: positive("car mass (kg)", f64::from(mass))? as f32,
            half_extents,
            wheels: wheels.to_vec(),
            drive: Drive::Rear,
            engine_torque: 1600.0,
            brake_torque: 2500.0,
            handbrake_torque: 4000.0,
            max_steer: 35f32.to_radians(),
            max_spin: 250.0,
            tire: TireSettings::default(),
            assists: Assists::default(),
            gravity: Gravity::earth().vector(),
            filter: Filter::ALL,
        })
    }

    /// Four copies of `wheel` at the corners: `track` metres apart side to
    /// side, `wheelbase` metres front to back, mounted `mount_height`
    /// metres above the centre of mass (negative: below). Front left,
    /// front right, rear left, rear right.
    pub fn four_wheels(
        mass: f32,
        half_extents: Vec3,
        track: f32,
        wheelbase: f32,
        mount_height: f32,
        wheel: WheelSettings,
    ) -> Result<Self, GameError> {
        let track = positive("track width (m)", f64::from(track))? as f32;
        let base = positive("wheelbase (m)", f64::from(wheelbase))? as f32;
        let (x, z) = (0.5 * track, 0.5 * base);
        let y = crate::error::finite("mount height (m)", f64::from(mount_height))? as f32;
        let wheels = [
            (wheel.at(Vec3::new(-x, y, -z))?, Axle::Front),
            (wheel.at(Vec3::new(x, y, -z))?, Axle::Front),
            (wheel.at(Vec3::new(-x, y, z))?, Axle::Rear),
            (wheel.at(Vec3::new(x, y, z))?, Axle::Rear),
        ];
        Self::new(mass, half_extents, &wheels)
    }

    world_settings!();

    /// Which wheels the engine drives.
    pub fn with_drive(mut self, drive: Drive) -> Self {
        self.drive = drive;
        self
    }

    /// The engine's torque at full throttle (N m, shared among the driven
    /// wheels), the brake's per wheel and the handbrake's per rear wheel
    /// (N m, all 0 or more).
    pub fn with_torques(
        mut self,
        engine: f32,
        brake: f32,
        handbrake: f32,
    ) -> Result<Self, GameError> {
        self.engine_torque = non_negative("engine torque (N m)", f64::from(engine))? as f32;
        self.brake_torque = non_negative("brake torque (N m)", f64::from(brake))? as f32;
        self.handbrake_torque =
            non_negative("handbrake torque (N m)", f64::from(handbrake))? as f32;
        Ok(self)
    }

    /// The front wheels' angle at full lock, degrees (0 to 80).
    pub fn with_max_steer_degrees(mut self, degrees: f32) -> Result<Self, GameError> {
        let d = crate::error::within("steering lock (degrees)", f64::from(degrees), 0.0, 80.0)?;
        self.max_steer = (d as f32).to_radians();
        Ok(self)
    }

    /// The fastest the engine spins a wheel, rad/s (above zero).
    pub fn with_max_spin(mut self, rad_per_s: f32) -> Result<Self, GameError> {
        self.max_spin = positive("top wheel spin (rad/s)", f64::from(rad_per_s))? as f32;
        Ok(self)
    }

    /// The tires.
    pub fn with_tire(mut self, tire: TireSettings) -> Self {
        self.tire = tire;
        self
    }

    /// The arcade assists, shares from 0 (off) to 1: `anti_roll` cuts the
    /// roll the tires' side forces cause (they act that share of the way
    /// up to the centre of mass); `drift_keep` gives back that share of
    /// the speed the side forces take while the car slides.
    pub fn with_assists(mut self, anti_roll: f32, drift_keep: f32) -> Result<Self, GameError> {
        self.assists = Assists {
            anti_roll: unit_share("anti-roll assist", anti_roll)?,
            drift_keep: unit_share("drift speed assist", drift_keep)?,
        };
        Ok(self)
    }

    /// Which wheels the engine drives.
    pub fn drive(&self) -> Drive {
        self.drive
    }

    /// The mass, kg.
    pub fn mass(&self) -> f32 {
        self.mass
    }

    /// The wheels and their axles.
    pub fn wheels(&self) -> &[(WheelSettings, Axle)] {
        &self.wheels
    }

    /// The same car mirrored across its own x = 0 plane: each wheel's
    /// mount on the other side, in the same order, so a mirrored world
    /// driven with mirrored steering gives the mirrored path bit for bit.
    pub fn mirrored(&self) -> Self {
        Self {
            wheels: self
                .wheels
                .iter()
                .map(|(wheel, axle)| (wheel.mirrored(), *axle))
                .collect(),
            ..self.clone()
        }
    }
}

/// A tick's driver input, validated.
///
/// ```
/// use collide_game::vehicle::Controls;
/// let launch = Controls::new(1.0, 0.0, -0.2, false)?;
/// assert_eq!(launch.throttle(), 1.0);
/// assert!(Controls::new(1.5, 0.0, 0.0, false).is_err());
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Controls {
    throttle: f32,
    brake: f32,
    steer: f32,
    handbrake: bool,
}

impl Controls {
    /// No input: coasting, wheels straight.
    pub const NONE: Self = Self {
        throttle: 0.0,
        brake: 0.0,
        steer: 0.0,
        handbrake: false,
    };

    /// `throttle` from -1 (full reverse) to 1, `brake` from 0 to 1,
    /// `steer` from -1 (full right) to 1 (full left), and the handbrake.
    pub fn new(throttle: f32, brake: f32, steer: f32, handbrake: bool) -> Result<Self, GameError> {
        Ok(Self {
            throttle: signed("throttle", throttle)?,
            brake: unit_share("brake", brake)?,
            steer: signed("steering", steer)?,
            handbrake,
        })
    }

    /// Throttle, -1 to 1.
    pub fn throttle(&self) -> f32 {
        self.throttle
    }

    /// Brake, 0 to 1.
    pub fn brake(&self) -> f32 {
        self.brake
    }

    /// Steering, -1 (right) to 1 (left).
    pub fn steer(&self) -> f32 {
        self.steer
    }

    /// Whether the handbrake is on.
    pub fn handbrake(&self) -> bool {
        self.handbrake
    }
}

/// A raycast car.
#[derive(Clone, Debug)]
pub struct Car {
    chassis: Chassis,
    settings: CarSettings,
    drive: Vec<f32>,
    brake: Vec<f32>,
    steer: Vec<f32>,
    /// Its body's box in the world.
    collider: Handle,
}

impl Car {
    /// A car with its centre of mass at `position`, turned by
    /// `orientation`, at rest, put in `world` as a moving collider (its
    /// body's box, with the settings' filter) holding `value`.
    pub fn new<T>(
        settings: CarSettings,
        position: Vec3,
        orientation: Quat,
        world: &mut World<Vec3, T>,
        value: T,
    ) -> Result<Self, GameError> {
        let body = RigidBody::cuboid(settings.mass, settings.half_extents, position, orientation)?;
        let n = settings.wheels.len();
        let wheels: Vec<WheelSettings> = settings.wheels.iter().map(|w| w.0).collect();
        let groups = wheels
            .iter()
            .map(|w| SpinGroup {
                spin: 0.0,
                inertia: w.inertia(),
            })
            .collect();
        let chassis = Chassis::new(
            body,
            wheels,
            (0..n).collect(),
            groups,
            settings.tire,
            settings.assists,
            settings.max_spin,
        );
        let collider = chassis.insert_into(settings.half_extents, settings.filter, world, value)?;
        Ok(Self {
            chassis,
            settings,
            drive: vec![0.0; n],
            brake: vec![0.0; n],
            steer: vec![0.0; n],
            collider,
        })
    }

    /// Its collider in the world: the body's box, where the car is after
    /// each step, which shots hit and other wheels stand on.
    pub fn collider(&self) -> Handle {
        self.collider
    }

    /// One tick of `dt` with `controls` in `world`: its wheels' rays see
    /// the world less its own collider (what its filter meets, sensors
    /// passed), then its collider moves with it. A world without its
    /// collider is an error, the car unmoved.
    pub fn step<T>(
        &mut self,
        dt: TimeStep<f32>,
        controls: &Controls,
        world: &mut World<Vec3, T>,
    ) -> Result<(), GameError> {
        let s = &self.settings;
        let driven = s
            .wheels
            .iter()
            .filter(|w| s.drive.drives(w.1))
            .count()
            .max(1) as f32;
        for (k, &(_, axle)) in s.wheels.iter().enumerate() {
            self.drive[k] = if s.drive.drives(axle) {
                controls.throttle * s.engine_torque / driven
            } else {
                0.0
            };
            let handbrake = if controls.handbrake && axle == Axle::Rear {
                s.handbrake_torque
            } else {
                0.0
            };
            self.brake[k] = controls.brake * s.brake_torque + handbrake;
            self.steer[k] = if axle == Axle::Front {
                controls.steer * s.max_steer
            } else {
                0.0
            };
        }
        let commands = Commands {
            drive: &self.drive,
            brake: &self.brake,
            steer: &self.steer,
        };
        let gravity = self.settings.gravity;
        self.chassis
            .step_in(dt.seconds(), &commands, world, self.collider, gravity)
    }

    /// The chassis.
    pub fn body(&self) -> &RigidBody {
        &self.chassis.body
    }

    /// Sets the chassis's velocities (finite).
    pub fn set_velocity(&mut self, linear: Vec3, angular: Vec3) -> Result<(), GameError> {
        self.chassis.body.set_velocity(linear, angular)?;
        // The springs' damping reads the new velocity at the next tick.
        self.chassis.cast = false;
        Ok(())
    }

    /// Spins every wheel at `rad_per_s` (finite): to start a car rolling.
    pub fn set_wheel_spin(&mut self, rad_per_s: f32) -> Result<(), GameError> {
        let spin = crate::error::finite("wheel spin (rad/s)", f64::from(rad_per_s))? as f32;
        for g in &mut self.chassis.groups {
            g.spin = spin;
        }
        Ok(())
    }

    /// Where the car points: the chassis's -z.
    pub fn forward(&self) -> Vec3 {
        self.chassis.body.direction_to_world(-Vec3::Z)
    }

    /// Each wheel's last tick, in the order of the settings.
    pub fn wheels(&self) -> &[WheelTelemetry] {
        &self.chassis.telemetry
    }

    /// The settings.
    pub fn settings(&self) -> &CarSettings {
        &self.settings
    }
}
