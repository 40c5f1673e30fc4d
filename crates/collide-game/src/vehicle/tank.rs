//! The tank: the raycast chassis with a row of road wheels on each side,
//! each side's wheels locked to one track speed; skid steering.

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

/// The most road wheels a side.
const MAX_PER_SIDE: usize = 32;

/// A track of the tank, named by its side as built: the first track runs
/// along -x (the left, facing -z), the second along +x. On a tank built
/// from [`TankSettings::mirrored`] they trade sides: `Left` then names the
/// first track, on the +x side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The first track (-x, unless mirrored).
    Left,
    /// The second track (+x, unless mirrored).
    Right,
}

impl Side {
    fn index(self) -> usize {
        match self {
            Side::Left => 0,
            Side::Right => 1,
        }
    }
}

/// A tank's hull, road wheels and tracks, validated once.
///
/// ```
/// use collide_game::vehicle::{TankSettings, WheelSettings};
/// use collide_game::glam::Vec3;
/// let wheel = WheelSettings::new(Vec3::ZERO, 0.35, 0.4)?.with_spring(300_000.0, 20_000.0, 30_000.0)?;
/// let tank = TankSettings::new(40_000.0, Vec3::new(1.7, 0.8, 3.5), 6, 2.8, 5.6, -0.5, wheel)?;
/// assert_eq!(tank.wheels().len(), 12);
/// assert!(TankSettings::new(40_000.0, Vec3::ONE, 1, 2.8, 5.6, -0.5, wheel).is_err());
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct TankSettings {
    mass: f32,
    half_extents: Vec3,
    /// Left side's wheels front to back, then the right side's.
    wheels: Vec<WheelSettings>,
    track_torque: f32,
    brake_torque: f32,
    max_spin: f32,
    tire: TireSettings,
    gravity: Vec3,
    filter: Filter,
}

impl TankSettings {
    /// A tank of `mass` kg, its hull a box of `half_extents` metres around
    /// the centre of mass, with `per_side` copies of `wheel` (2 to 32) in a
    /// row on each side: the rows `track` metres apart, spread evenly over
    /// `length` metres, mounted `mount_height` metres above the centre of
    /// mass. Defaults: 40,000 N m per track at full throttle and
    /// as much brake, spin capped at 60 rad/s, tires with grip 1.
    pub fn new(
        mass: f32,
        half_extents: Vec3,
        per_side: usize,
        track: f32,
        length: f32,
        mount_height: f32,
        wheel: WheelSettings,
    ) -> Result<Self, GameError> {
        if !(2..=MAX_PER_SIDE).contains(&per_side) {
            return Err(GameError::OutOfRange {
                what: "road wheels per side",
                value: per_side as f64,
                min: 2.0,
                max: MAX_PER_SIDE as f64,
            });
        }
        for h in half_extents.to_array() {
            positive("hull half extent (m)", f64::from(h))?;
        }
        let x = 0.5 * positive("track spacing (m)", f64::from(track))? as f32;
        let length = positive("wheel row length (m)", f64::from(length))? as f32;
        let y = crate::error::finite("mount height (m)", f64::from(mount_height))? as f32;
        let mut wheels = Vec::with_capacity(2 * per_side);
        for side in [-x, x] {
            for k in 0..per_side {
                let z = -0.5 * length + length * k as f32 / (per_side - 1) as f32;
                wheels.push(wheel.at(Vec3::new(side, y, z))?);
            }
        }
        Ok(Self {
            mass: positive("tank mass (kg)", f64::from(mass))? as f32,
            half_extents,
            wheels,
            track_torque: 40_000.0,
            brake_torque: 40_000.0,
            max_spin: 60.0,
            tire: TireSettings::default(),
            gravity: Gravity::earth().vector(),
            filter: Filter::ALL,
        })
    }

    /// The torque on each track at full throttle and each track's brake,
    /// N m (0 or more).
    pub fn with_torques(mut self, track: f32, brake: f32) -> Result<Self, GameError> {
        self.track_torque = non_negative("track torque (N m)", f64::from(track))? as f32;
        self.brake_torque = non_negative("track brake (N m)", f64::from(brake))? as f32;
        Ok(self)
    }

    /// The fastest the drive spins the road wheels, rad/s (above zero).
    pub fn with_max_spin(mut self, rad_per_s: f32) -> Result<Self, GameError> {
        self.max_spin = positive("top wheel spin (rad/s)", f64::from(rad_per_s))? as f32;
        Ok(self)
    }

    /// The tires (the tracks' grip on the ground).
    pub fn with_tire(mut self, tire: TireSettings) -> Self {
        self.tire = tire;
        self
    }

    world_settings!();

    /// The same tank mirrored across its own x = 0 plane: what was on the
    /// left is on the right, and the first track drives the right side.
    pub fn mirrored(&self) -> Self {
        Self {
            wheels: self.wheels.iter().map(WheelSettings::mirrored).collect(),
            ..self.clone()
        }
    }

    /// The road wheels: the first track's front to back, then the
    /// second's.
    pub fn wheels(&self) -> &[WheelSettings] {
        &self.wheels
    }
}

/// A tick's track input, validated.
///
/// ```
/// use collide_game::vehicle::TrackControls;
/// let pivot = TrackControls::new(1.0, -1.0, 0.0)?;
/// assert_eq!(pivot.left(), 1.0);
/// assert!(TrackControls::new(0.0, 2.0, 0.0).is_err());
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TrackControls {
    left: f32,
    right: f32,
    brake: f32,
}

impl TrackControls {
    /// Throttle on the left (first) and right (second) tracks, each from
    /// -1 (full reverse) to 1, and the brake from 0 to 1.
    pub fn new(left: f32, right: f32, brake: f32) -> Result<Self, GameError> {
        Ok(Self {
            left: signed("left track throttle", left)?,
            right: signed("right track throttle", right)?,
            brake: unit_share("track brake", brake)?,
        })
    }

    /// The left track's throttle.
    pub fn left(&self) -> f32 {
        self.left
    }

    /// The right track's throttle.
    pub fn right(&self) -> f32 {
        self.right
    }

    /// The brake.
    pub fn brake(&self) -> f32 {
        self.brake
    }
}

/// A tank on raycast road wheels.
#[derive(Clone, Debug)]
pub struct Tank {
    chassis: Chassis,
    settings: TankSettings,
    broken: [bool; 2],
    steer: Vec<f32>,
    /// Its hull's box in the world.
    collider: Handle,
}

impl Tank {
    /// A tank with its centre of mass at `position`, turned by
    /// `orientation`, at rest, put in `world` as a moving collider (its
    /// hull's box, with the settings' filter) holding `value`.
    pub fn new<T>(
        settings: TankSettings,
        position: Vec3,
        orientation: Quat,
        world: &mut World<Vec3, T>,
        value: T,
    ) -> Result<Self, GameError> {
        let body = RigidBody::cuboid(settings.mass, settings.half_extents, position, orientation)?;
        let n = settings.wheels.len();
        let per_side = n / 2;
        let track_inertia = |range: std::ops::Range<usize>| {
            settings.wheels[range].iter().map(|w| w.inertia()).sum()
        };
        let groups = vec![
            SpinGroup {
                spin: 0.0,
                inertia: track_inertia(0..per_side),
            },
            SpinGroup {
                spin: 0.0,
                inertia: track_inertia(per_side..n),
            },
        ];
        let group_of = (0..n).map(|k| usize::from(k >= per_side)).collect();
        let chassis = Chassis::new(
            body,
            settings.wheels.clone(),
            group_of,
            groups,
            settings.tire,
            Assists::default(),
            settings.max_spin,
        );
        let collider = chassis.insert_into(settings.half_extents, settings.filter, world, value)?;
        Ok(Self {
            chassis,
            settings,
            broken: [false; 2],
            steer: vec![0.0; n],
            collider,
        })
    }

    /// Its collider in the world: the hull's box, where the tank is after
    /// each step.
    pub fn collider(&self) -> Handle {
        self.collider
    }

    /// One tick of `dt` with `controls` in `world`, as [`Car::step`](super::Car::step)
    /// does.
    pub fn step<T>(
        &mut self,
        dt: TimeStep<f32>,
        controls: &TrackControls,
        world: &mut World<Vec3, T>,
    ) -> Result<(), GameError> {
        let torque = self.settings.track_torque;
        let drive = [
            if self.broken[0] {
                0.0
            } else {
                controls.left * torque
            },
            if self.broken[1] {
                0.0
            } else {
                controls.right * torque
            },
        ];
        let brake = [controls.brake * self.settings.brake_torque; 2];
        let commands = Commands {
            drive: &drive,
            brake: &brake,
            steer: &self.steer,
        };
        let gravity = self.settings.gravity;
        self.chassis
            .step_in(dt.seconds(), &commands, world, self.collider, gravity)
    }

    /// Breaks a track: its side gets no drive until repaired.
    pub fn break_track(&mut self, side: Side) {
        self.broken[side.index()] = true;
    }

    /// Repairs a track.
    pub fn repair_track(&mut self, side: Side) {
        self.broken[side.index()] = false;
    }

    /// Whether a track is broken.
    pub fn is_broken(&self, side: Side) -> bool {
        self.broken[side.index()]
    }

    /// The tracks' surface speeds, m/s (left, right; positive forward).
    pub fn track_speeds(&self) -> (f32, f32) {
        let r = |k: usize| self.settings.wheels[k].radius();
        let n = self.settings.wheels.len();
        (
            self.chassis.groups[0].spin * r(0),
            self.chassis.groups[1].spin * r(n - 1),
        )
    }

    /// The hull.
    pub fn body(&self) -> &RigidBody {
        &self.chassis.body
    }

    /// Where the tank points: the hull's -z.
    pub fn forward(&self) -> Vec3 {
        self.chassis.body.direction_to_world(-Vec3::Z)
    }

    /// Each road wheel's last tick: the left track's front to back, then
    /// the right's.
    pub fn wheels(&self) -> &[WheelTelemetry] {
        &self.chassis.telemetry
    }

    /// The settings.
    pub fn settings(&self) -> &TankSettings {
        &self.settings
    }
}
