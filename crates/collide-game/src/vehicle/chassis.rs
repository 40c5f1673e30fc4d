//! The core a car and a tank share: a rigid chassis on raycast wheels.
//! Each tick: rays from the mounts find the ground and the springs push;
//! gravity and the springs change the velocity; each wheel's spin group
//! takes its drive and brake torque; the tires push from slip; the pose
//! moves (semi-implicit Euler).
//!
//! Every wheel's force in a phase is computed from the same state and the
//! impulses are applied in wheel order, so a mirrored vehicle in a
//! mirrored world computes mirrored numbers, bit for bit.

use super::tire::TireSettings;
use super::wheel::{WheelSettings, WheelTelemetry};
use crate::D3;
use crate::dynamics::RigidBody;
use crate::error::GameError;
use crate::level::{Level, first_hit};
use collide::glam::{Quat, Vec3};
use collide::narrow::d3::{Cuboid, Pose};
use collide::world::{Collider3, Filter, QueryFilter, World, WorldQuery};
use collide::{Handle, math};

/// Below this ground speed (m/s) slips are measured against it rather
/// than the speed itself, so they stay finite at rest.
const SLIP_SPEED_FLOOR: f32 = 0.5;

/// Rounds of the tires' joint solve a tick.
const GRIP_ROUNDS: usize = 16;

/// `value` kept between 0 and `cap` (either sign).
fn clamp_between(value: f32, cap: f32) -> f32 {
    if cap >= 0.0 {
        value.clamp(0.0, cap)
    } else {
        value.clamp(cap, 0.0)
    }
}

/// A grounded tire's frame and limits within one tick, and the impulses
/// it has given so far.
#[derive(Clone, Copy, Debug)]
struct Patch {
    contact: Vec3,
    /// Where the impulses act (raised by the anti-roll assist).
    lifted: Vec3,
    forward: Vec3,
    right: Vec3,
    radius: f32,
    group: usize,
    /// The curve's forces at this tick's slip, N: the most the tire gives
    /// along (forward positive) and across (rightward positive).
    cap_along: f32,
    cap_across: f32,
    /// How much an impulse changes the slip along and across, 1/kg.
    give_along: f32,
    give_across: f32,
    /// The impulses given so far, N s.
    along: f32,
    across: f32,
}

/// The arcade assists, each off at 0.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Assists {
    /// Share (0 to 1) by which the side forces' roll torque is cut: they
    /// act this share of the way up from the contact to the centre of
    /// mass's height.
    pub(crate) anti_roll: f32,
    /// Share (0 to 1) of the speed the side forces take while sliding
    /// that is given back along the direction of travel.
    pub(crate) drift_keep: f32,
}

/// Wheels that share one spin: one wheel on a car, a whole track on a
/// tank.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SpinGroup {
    pub(crate) spin: f32,
    pub(crate) inertia: f32,
}

/// One tick's commands, per spin group and per wheel.
pub(crate) struct Commands<'c> {
    /// Drive torque per group, N m (positive drives forward).
    pub(crate) drive: &'c [f32],
    /// Brake torque per group, N m (0 or more).
    pub(crate) brake: &'c [f32],
    /// Steering angle per wheel, radians (positive turns left).
    pub(crate) steer: &'c [f32],
}

/// A chassis on raycast wheels.
#[derive(Clone, Debug)]
pub(crate) struct Chassis {
    pub(crate) body: RigidBody,
    pub(crate) wheels: Vec<WheelSettings>,
    /// The spin group of each wheel.
    pub(crate) group_of: Vec<usize>,
    pub(crate) groups: Vec<SpinGroup>,
    pub(crate) tire: TireSettings,
    pub(crate) assists: Assists,
    /// The fastest a wheel may spin under drive, rad/s.
    pub(crate) max_spin: f32,
    pub(crate) telemetry: Vec<WheelTelemetry>,
    /// Per wheel, this tick: its tire's patch (none in the air) and the
    /// impulses of the current round; its spring's impulse and where it
    /// acts.
    patches: Vec<Option<Patch>>,
    impulses: Vec<(Vec3, Vec3)>,
    deltas: Vec<(f32, f32)>,
    /// Whether the rays were cast at the current pose and velocity.
    pub(crate) cast: bool,
    /// Per group, this tick: its spin, whether the brake holds it still,
    /// and its wheels down.
    scratch: Vec<GroupTick>,
}

/// A spin group's numbers within one tick.
#[derive(Clone, Copy, Debug, Default)]
struct GroupTick {
    spin: f32,
    held: bool,
    grounded: u32,
    /// For a held group: the torque impulse (N m s) its brake has left
    /// after stopping it, the most its tires can lean on it.
    hold: f32,
}

impl Chassis {
    pub(crate) fn new(
        body: RigidBody,
        wheels: Vec<WheelSettings>,
        group_of: Vec<usize>,
        groups: Vec<SpinGroup>,
        tire: TireSettings,
        assists: Assists,
        max_spin: f32,
    ) -> Self {
        let n = wheels.len();
        let g = groups.len();
        Self {
            body,
            wheels,
            group_of,
            groups,
            tire,
            assists,
            max_spin,
            telemetry: vec![WheelTelemetry::default(); n],
            patches: vec![None; n],
            impulses: vec![(Vec3::ZERO, Vec3::ZERO); n],
            deltas: vec![(0.0, 0.0); n],
            scratch: vec![GroupTick::default(); g],
            cast: false,
        }
    }

    /// Puts the body's box (`half_extents`) into `world` as a moving
    /// collider with `filter` and `value`.
    pub(crate) fn insert_into<T>(
        &self,
        half_extents: Vec3,
        filter: Filter,
        world: &mut World<Vec3, T>,
        value: T,
    ) -> Result<Handle, GameError> {
        let body = Collider3::moving(Cuboid::new(half_extents)?, self.pose()?, value);
        Ok(world.insert(body.with_filter(filter))?)
    }

    /// The body's pose.
    fn pose(&self) -> Result<Pose, GameError> {
        Ok(Pose::new(self.body.position(), self.body.orientation())?)
    }

    /// One tick of `dt` seconds under `gravity` in `world`, which it sees
    /// less its own collider `me` (through that collider's filter, sensors
    /// passed); then its collider moves to the new pose. A world without
    /// `me` is an error before anything moves.
    pub(crate) fn step_in<T>(
        &mut self,
        dt: f32,
        commands: &Commands<'_>,
        world: &mut World<Vec3, T>,
        me: Handle,
        gravity: Vec3,
    ) -> Result<(), GameError> {
        let skip = [me];
        let filter = world.filter(me)?;
        let seen = world.seen(QueryFilter::new().with_filter(filter).excluding(&skip));
        self.step(dt, commands, &seen, gravity);
        world.set_pose(me, self.pose()?)?;
        Ok(())
    }

    /// One tick of `dt` seconds.
    fn step(&mut self, dt: f32, commands: &Commands<'_>, level: &Level<'_, D3>, gravity: Vec3) {
        if !self.cast {
            self.cast_rays(level);
        }
        self.suspend(dt, gravity);
        self.turn_wheels(dt, commands);
        self.grip(dt, commands);
        self.body.advance(dt);
        // The rays at the new pose: for drawing the wheels where they are,
        // and for the next tick's springs.
        self.cast_rays(level);
    }

    /// Rays from the mounts: each wheel's contact, compression and load.
    fn cast_rays(&mut self, level: &Level<'_, D3>) {
        self.cast = true;
        let up = self.body.direction_to_world(Vec3::Y);
        for (wheel, t) in self.wheels.iter().zip(&mut self.telemetry) {
            let mount = self.body.to_world(wheel.mount());
            let reach = wheel.rest_length() + wheel.radius();
            let hit = first_hit::<D3>(level, &|_| false, mount, -up, reach);
            let speed = -self.body.velocity_at(mount).dot(up);
            *t = match hit {
                Some((_, distance, _)) => {
                    let compression = (reach - distance).clamp(0.0, wheel.rest_length());
                    WheelTelemetry {
                        contact: Some(mount - up * distance),
                        compression,
                        compression_speed: speed,
                        ..*t
                    }
                }
                None => WheelTelemetry {
                    contact: None,
                    compression: 0.0,
                    compression_speed: speed,
                    ..*t
                },
            };
        }
    }

    /// Gravity and the springs' impulses (with a bump stop that keeps a
    /// spring from closing past its travel).
    fn suspend(&mut self, dt: f32, gravity: Vec3) {
        let up = self.body.direction_to_world(Vec3::Y);
        self.body.add_velocity(gravity * dt);
        let grounded = self
            .telemetry
            .iter()
            .filter(|t| t.contact.is_some())
            .count() as f32;
        for (k, wheel) in self.wheels.iter().enumerate() {
            let t = &mut self.telemetry[k];
            let Some(contact) = t.contact else {
                t.load = 0.0;
                continue;
            };
            t.load = wheel.suspension_force(t.compression, t.compression_speed);
            let mut impulse = t.load * dt;
            // Closing faster than the travel left allows this tick: the
            // bump stop takes the excess at the mount (its share among the
            // wheels down).
            let mount = self.body.to_world(wheel.mount());
            let closing = -self.body.velocity_at(mount).dot(up);
            let allowed = (wheel.rest_length() - t.compression) / dt;
            if closing > allowed {
                impulse += (closing - allowed) / (grounded * self.body.inverse_mass_at(mount, up));
            }
            // Applied after every spring has read the same state.
            self.impulses[k] = (up * impulse, contact);
        }
        for (k, t) in self.telemetry.iter().enumerate() {
            if t.contact.is_some() {
                let (impulse, at) = self.impulses[k];
                self.body.add_impulse(impulse, at);
            }
        }
    }

    /// Drive and brake torques on each spin group; a brake that can stop
    /// its group this tick holds it still.
    fn turn_wheels(&mut self, dt: f32, commands: &Commands<'_>) {
        for (g, group) in self.groups.iter().enumerate() {
            let mut drive = commands.drive[g];
            // Past the top spin the drive gives nothing more that way.
            if drive * group.spin > 0.0 && group.spin.abs() >= self.max_spin {
                drive = 0.0;
            }
            let mut driven = group.spin + drive * dt / group.inertia;
            // The drive never pushes a spin past the cap.
            if drive != 0.0 && driven * drive > 0.0 {
                let cap = self.max_spin.max(group.spin.abs());
                driven = driven.clamp(-cap, cap);
            }
            let stop = commands.brake[g] * dt / group.inertia;
            let held = stop > 0.0 && driven.abs() <= stop;
            self.scratch[g] = GroupTick {
                spin: if held {
                    0.0
                } else {
                    driven - stop.copysign(driven)
                },
                held,
                grounded: 0,
                hold: (stop - driven.abs()).max(0.0) * group.inertia,
            };
        }
    }

    /// The tires' forces: each tire's curve at this tick's slip caps its
    /// force, and within that cap the tires push only as much as stops
    /// the slip (solved together over a few rounds: each round every
    /// tire computes its share from the same state, then all apply), so a
    /// parked car stays put and a spinning wheel settles at any tick
    /// rate. The groups' spins answer the forces along.
    fn grip(&mut self, dt: f32, commands: &Commands<'_>) {
        self.find_patches(commands);
        let grounded = self.patches.iter().filter(|p| p.is_some()).count() as f32;
        for _ in 0..GRIP_ROUNDS {
            for k in 0..self.wheels.len() {
                let Some(p) = self.patches[k] else {
                    continue;
                };
                let velocity = self.body.velocity_at(p.contact);
                let surface = self.scratch[p.group].spin * p.radius;
                let slip = surface - velocity.dot(p.forward);
                let slide = -velocity.dot(p.right);
                // Each tire takes its share of what would stop the slip; on a
                // held wheel, no more than its share of what the brake
                // has left.
                let mut along =
                    clamp_between(p.along + slip / (p.give_along * grounded), p.cap_along * dt);
                let tick = self.scratch[p.group];
                if tick.held {
                    let brake = tick.hold / (p.radius * tick.grounded.max(1) as f32);
                    along = along.clamp(-brake, brake);
                }
                let across = clamp_between(
                    p.across + slide / (p.give_across * grounded),
                    p.cap_across * dt,
                );
                self.deltas[k] = (along - p.along, across - p.across);
                if let Some(p) = &mut self.patches[k] {
                    p.along = along;
                    p.across = across;
                }
            }
            for k in 0..self.wheels.len() {
                let Some(p) = self.patches[k] else {
                    continue;
                };
                let (along, across) = self.deltas[k];
                self.body
                    .add_impulse(p.forward * along + p.right * across, p.lifted);
                let group = &mut self.scratch[p.group];
                if !group.held {
                    group.spin -= along * p.radius / self.groups[p.group].inertia;
                }
            }
        }
        let mut sides = Vec3::ZERO;
        let mut drifting = false;
        let drift_angle = self.tire.curves().1.peak_slip();
        for (t, p) in self.telemetry.iter_mut().zip(&self.patches) {
            let Some(p) = p else {
                t.force_along = 0.0;
                t.force_across = 0.0;
                continue;
            };
            t.force_along = p.along / dt;
            t.force_across = p.across / dt;
            sides += p.right * p.across;
            drifting |= t.slip_angle.abs() > drift_angle;
        }
        if drifting {
            self.keep_drift_speed(sides);
        }
        for (group, tick) in self.groups.iter_mut().zip(&self.scratch) {
            group.spin = if tick.held { 0.0 } else { tick.spin };
        }
        for (t, &g) in self.telemetry.iter_mut().zip(&self.group_of) {
            t.spin = self.groups[g].spin;
        }
    }

    /// Each grounded wheel's contact frame, slips and force caps from the
    /// velocity after gravity and the springs.
    fn find_patches(&mut self, commands: &Commands<'_>) {
        let up = self.body.direction_to_world(Vec3::Y);
        let centre = self.body.position();
        for (t, &g) in self.telemetry.iter().zip(&self.group_of) {
            if t.contact.is_some() {
                self.scratch[g].grounded += 1;
            }
        }
        for k in 0..self.wheels.len() {
            let wheel = self.wheels[k];
            let group = self.group_of[k];
            let t = &mut self.telemetry[k];
            t.steer = commands.steer[k];
            self.patches[k] = None;
            let Some(contact) = t.contact else {
                t.slip_ratio = 0.0;
                t.slip_angle = 0.0;
                continue;
            };
            let heading = self.body.orientation() * Quat::from_rotation_y(t.steer) * -Vec3::Z;
            let forward = (heading - up * heading.dot(up)).normalize_or_zero();
            let right = forward.cross(up);
            let velocity = self.body.velocity_at(contact);
            let (along, across) = (velocity.dot(forward), velocity.dot(right));
            let tick = self.scratch[group];
            let floor = along.abs().max(SLIP_SPEED_FLOOR);
            t.slip_ratio = (tick.spin * wheel.radius() - along) / floor;
            t.slip_angle = math::atan2(across, floor);
            let (cap_along, cap_across) = self.tire.forces(t.slip_ratio, t.slip_angle, t.load);
            let wheel_give = if tick.held {
                0.0
            } else {
                wheel.radius() * wheel.radius() / self.groups[group].inertia * tick.grounded as f32
            };
            // Side forces act part of the way up toward the centre of
            // mass, cutting their roll torque.
            let height = (centre - contact).dot(up);
            self.patches[k] = Some(Patch {
                contact,
                lifted: contact + up * (height * self.assists.anti_roll),
                forward,
                right,
                radius: wheel.radius(),
                group,
                cap_along,
                cap_across: -cap_across,
                give_along: self.body.inverse_mass_at(contact, forward) + wheel_give,
                give_across: self.body.inverse_mass_at(contact, right),
                along: 0.0,
                across: 0.0,
            });
        }
    }

    /// Gives back the drift-keep share of the speed the side forces took
    /// along the direction of travel this tick (`sides`: their total
    /// impulse).
    fn keep_drift_speed(&mut self, sides: Vec3) {
        let share = self.assists.drift_keep;
        let velocity = self.body.linear_velocity();
        if share <= 0.0 || velocity.length_squared() < 1e-6 {
            return;
        }
        let travel = velocity.normalize();
        let taken = sides.dot(travel);
        if taken < 0.0 {
            self.body
                .add_impulse(travel * (-taken * share), self.body.position());
        }
    }
}
