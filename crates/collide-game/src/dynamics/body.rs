//! A rigid body: mass and principal moments of inertia, a pose, linear
//! and angular velocity; impulses at points; the semi-implicit step.

use crate::error::{GameError, finite, finite_vector, positive};
use collide::glam::{Mat3, Quat, Vec3};

/// How hard the body is to push and to turn.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Mass {
    inverse_mass: f32,
    /// The inverse principal moments, about the body's own axes.
    inverse_inertia: Vec3,
}

impl Mass {
    /// The inverse inertia about the world's axes for an orientation.
    fn inverse_inertia_world(&self, orientation: Quat) -> Mat3 {
        let r = Mat3::from_quat(orientation);
        r * Mat3::from_diagonal(self.inverse_inertia) * r.transpose()
    }
}

/// Where the body is.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Placement {
    position: Vec3,
    orientation: Quat,
}

/// How the body moves.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Motion {
    linear: Vec3,
    angular: Vec3,
}

/// A rigid body: its centre of mass, orientation and velocities.
///
/// ```
/// use collide_game::dynamics::RigidBody;
/// use collide_game::glam::{Quat, Vec3};
/// // A 1,200 kg car body, 1.8 by 1.2 by 4.2 m.
/// let mut body = RigidBody::cuboid(1200.0, Vec3::new(0.9, 0.6, 2.1), Vec3::ZERO, Quat::IDENTITY)?;
/// // Pushed forward at its right front corner: it moves and turns.
/// body.apply_impulse_at(Vec3::new(0.0, 0.0, -1200.0), Vec3::new(0.9, 0.0, -2.1))?;
/// assert_eq!(body.linear_velocity(), Vec3::new(0.0, 0.0, -1.0));
/// assert!(body.angular_velocity().y > 0.0); // counter-clockwise seen from above
/// body.integrate(1.0 / 60.0)?;
/// assert!(body.position().z < 0.0);
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidBody {
    mass: Mass,
    placement: Placement,
    motion: Motion,
}

impl RigidBody {
    /// A body of `mass` kg with principal moments of inertia `inertia`
    /// (kg m², about its own x, y and z axes; all above zero), its centre
    /// of mass at `position`, turned by `orientation`, at rest.
    pub fn new(
        mass: f32,
        inertia: Vec3,
        position: Vec3,
        orientation: Quat,
    ) -> Result<Self, GameError> {
        let mass = positive("body mass (kg)", f64::from(mass))? as f32;
        for m in inertia.to_array() {
            positive("moment of inertia (kg m²)", f64::from(m))?;
        }
        finite_vector("body position", position)?;
        for q in orientation.to_array() {
            finite("body orientation", f64::from(q))?;
        }
        let length = orientation.length();
        if length < 1e-6 {
            return Err(GameError::NotPositive {
                what: "body orientation length",
                value: f64::from(length),
            });
        }
        let orientation = orientation / length;
        Ok(Self {
            mass: Mass {
                inverse_mass: 1.0 / mass,
                inverse_inertia: inertia.recip(),
            },
            placement: Placement {
                position,
                orientation,
            },
            motion: Motion {
                linear: Vec3::ZERO,
                angular: Vec3::ZERO,
            },
        })
    }

    /// A solid box of `mass` kg and `half_extents` metres (above zero),
    /// with the box's moments of inertia.
    pub fn cuboid(
        mass: f32,
        half_extents: Vec3,
        position: Vec3,
        orientation: Quat,
    ) -> Result<Self, GameError> {
        positive("body mass (kg)", f64::from(mass))?;
        for h in half_extents.to_array() {
            positive("box half extent (m)", f64::from(h))?;
        }
        let size = 2.0 * half_extents;
        let sq = size * size;
        let inertia = Vec3::new(sq.y + sq.z, sq.x + sq.z, sq.x + sq.y) * (mass / 12.0);
        Self::new(mass, inertia, position, orientation)
    }

    /// The mass, kg.
    pub fn mass(&self) -> f32 {
        1.0 / self.mass.inverse_mass
    }

    /// The centre of mass, metres.
    pub fn position(&self) -> Vec3 {
        self.placement.position
    }

    /// The orientation.
    pub fn orientation(&self) -> Quat {
        self.placement.orientation
    }

    /// The centre of mass's velocity, m/s.
    pub fn linear_velocity(&self) -> Vec3 {
        self.motion.linear
    }

    /// The angular velocity about the world's axes, rad/s.
    pub fn angular_velocity(&self) -> Vec3 {
        self.motion.angular
    }

    /// Sets the velocities (finite).
    pub fn set_velocity(&mut self, linear: Vec3, angular: Vec3) -> Result<(), GameError> {
        self.motion = Motion {
            linear: finite_vector("body velocity", linear)?,
            angular: finite_vector("body angular velocity", angular)?,
        };
        Ok(())
    }

    /// A point given in the body's frame, in the world's.
    pub fn to_world(&self, local: Vec3) -> Vec3 {
        self.placement.position + self.placement.orientation * local
    }

    /// A direction given in the body's frame, in the world's.
    pub fn direction_to_world(&self, local: Vec3) -> Vec3 {
        self.placement.orientation * local
    }

    /// The velocity of the body's material at the world point `point`.
    pub fn velocity_at(&self, point: Vec3) -> Vec3 {
        self.motion.linear + self.motion.angular.cross(point - self.placement.position)
    }

    /// How much an impulse of 1 N s along unit `direction` at `point`
    /// changes the velocity there along it (the inverse effective mass,
    /// 1/kg).
    pub fn inverse_mass_at(&self, point: Vec3, direction: Vec3) -> f32 {
        let r = point - self.placement.position;
        let arm = r.cross(direction);
        let inverse = self.mass.inverse_inertia_world(self.placement.orientation);
        self.mass.inverse_mass + arm.dot(inverse * arm)
    }

    /// Applies the impulse `impulse` (N s) at the world point `point`: the
    /// velocity and the angular velocity change at once.
    pub fn apply_impulse_at(&mut self, impulse: Vec3, point: Vec3) -> Result<(), GameError> {
        finite_vector("impulse", impulse)?;
        finite_vector("impulse point", point)?;
        self.add_impulse(impulse, point);
        Ok(())
    }

    /// [`RigidBody::apply_impulse_at`] for values already checked.
    pub(crate) fn add_impulse(&mut self, impulse: Vec3, point: Vec3) {
        let r = point - self.placement.position;
        let inverse = self.mass.inverse_inertia_world(self.placement.orientation);
        self.motion.linear += impulse * self.mass.inverse_mass;
        self.motion.angular += inverse * r.cross(impulse);
    }

    /// Adds `change` (m/s) to the velocity of the centre of mass: gravity
    /// over a tick, for one.
    pub(crate) fn add_velocity(&mut self, change: Vec3) {
        self.motion.linear += change;
    }

    /// Moves the pose by the velocities over `seconds` (above zero): the
    /// second half of the semi-implicit step, after the impulses of the
    /// tick. The gyroscopic term is left out, as game engines do: it only
    /// matters for bodies spinning fast about a wobbly axis.
    pub fn integrate(&mut self, seconds: f32) -> Result<(), GameError> {
        let dt = positive("time step (s)", f64::from(seconds))? as f32;
        self.advance(dt);
        Ok(())
    }

    /// [`RigidBody::integrate`] for a step already checked.
    pub(crate) fn advance(&mut self, dt: f32) {
        let Placement {
            position,
            orientation,
        } = self.placement;
        let w = self.motion.angular;
        let spin = Quat::from_xyzw(w.x, w.y, w.z, 0.0) * orientation;
        let turned = Quat::from_xyzw(
            orientation.x + 0.5 * dt * spin.x,
            orientation.y + 0.5 * dt * spin.y,
            orientation.z + 0.5 * dt * spin.z,
            orientation.w + 0.5 * dt * spin.w,
        );
        self.placement = Placement {
            position: position + self.motion.linear * dt,
            orientation: turned.normalize(),
        };
    }

    /// Kinetic energy, J.
    pub fn kinetic_energy(&self) -> f32 {
        let inverse = self.mass.inverse_inertia_world(self.placement.orientation);
        let inertia = inverse.inverse();
        0.5 * self.motion.linear.length_squared() / self.mass.inverse_mass
            + 0.5 * self.motion.angular.dot(inertia * self.motion.angular)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_impulse_through_the_centre_moves_without_turning_and_off_it_turns() {
        let mut body =
            RigidBody::cuboid(2.0, Vec3::new(1.0, 0.5, 0.25), Vec3::ZERO, Quat::IDENTITY).unwrap();
        body.apply_impulse_at(Vec3::X * 4.0, Vec3::ZERO).unwrap();
        assert_eq!(body.linear_velocity(), Vec3::X * 2.0);
        assert_eq!(body.angular_velocity(), Vec3::ZERO);
        // Momentum and angular momentum about the origin are those of the
        // impulse.
        let mut body =
            RigidBody::cuboid(2.0, Vec3::new(1.0, 0.5, 0.25), Vec3::ZERO, Quat::IDENTITY).unwrap();
        let (j, at) = (Vec3::new(0.0, 3.0, 1.0), Vec3::new(1.0, 0.2, -0.1));
        body.apply_impulse_at(j, at).unwrap();
        let inertia = Vec3::new(1.0 + 0.25, 4.0 + 0.25, 4.0 + 1.0) * (2.0 / 12.0);
        let l = Mat3::from_diagonal(inertia) * body.angular_velocity();
        assert!(
            (l - at.cross(j)).length() < 1e-5,
            "{l} against {}",
            at.cross(j)
        );
        // The effective mass at the point matches what the impulse did.
        let dir = j.normalize();
        let before = 0.0;
        let after = body.velocity_at(at).dot(dir);
        assert!(((after - before) / j.length() - body.inverse_mass_at(at, dir)).abs() < 1e-5);
    }

    #[test]
    fn a_free_spin_keeps_its_energy_and_a_unit_orientation() {
        let mut body =
            RigidBody::cuboid(5.0, Vec3::new(0.5, 0.5, 0.5), Vec3::ZERO, Quat::IDENTITY).unwrap();
        body.set_velocity(Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.0, 3.0, 0.0))
            .unwrap();
        let e0 = body.kinetic_energy();
        for _ in 0..600 {
            body.integrate(1.0 / 60.0).unwrap();
        }
        assert!((body.kinetic_energy() - e0).abs() < 1e-4 * e0);
        assert!((body.orientation().length() - 1.0).abs() < 1e-6);
        // Ten seconds at 3 rad/s about y.
        let (axis, angle) = body.orientation().to_axis_angle();
        let expected = (30.0f32).rem_euclid(std::f32::consts::TAU);
        let turned = if axis.y > 0.0 {
            angle
        } else {
            std::f32::consts::TAU - angle
        };
        assert!(
            (turned - expected).abs() < 1e-2,
            "{turned} against {expected}"
        );
        assert!((body.position() - Vec3::new(10.0, 0.0, 0.0)).length() < 1e-3);
        assert!(body.integrate(0.0).is_err());
        assert!(RigidBody::new(-1.0, Vec3::ONE, Vec3::ZERO, Quat::IDENTITY).is_err());
        assert!(RigidBody::new(1.0, Vec3::ONE, Vec3::NAN, Quat::IDENTITY).is_err());
    }
}
