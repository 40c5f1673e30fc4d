//! [`Pose`]: where a 2D shape is (a position and a rotation).

use crate::narrow::error::{ShapeError, finite};
use crate::narrow::placement::{Frame, Placement};
use glam::{DVec2, Vec2};

/// A rigid placement in 2D: rotate by `rotation`, then move by `position`.
///
/// ```
/// use collide::narrow::d2::Pose;
/// use glam::Vec2;
/// let pose = Pose::new(Vec2::new(5.0, 0.0), std::f32::consts::FRAC_PI_2)?;
/// let p = pose.apply(Vec2::X); // (1, 0) turned a quarter, then moved
/// assert!((p - Vec2::new(5.0, 1.0)).length() < 1e-6);
/// assert!((pose.apply_inverse(p) - Vec2::X).length() < 1e-6);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// Where the shape's origin goes, in world units.
    pub(crate) position: Vec2,
    /// The rotation as a unit complex number `(cos, sin)` of the angle
    /// (counter-clockwise, radians).
    pub(crate) rotation: Vec2,
}

impl Default for Pose {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Pose {
    /// No move, no turn.
    pub const IDENTITY: Self = Self {
        position: Vec2::ZERO,
        rotation: Vec2::X,
    };

    /// A pose at `position` turned by `angle` radians counter-clockwise;
    /// an error for a non-finite value.
    pub fn new(position: Vec2, angle: f32) -> Result<Self, ShapeError> {
        finite("position", position.x)?;
        finite("position", position.y)?;
        finite("angle", angle)?;
        Ok(Self {
            position,
            rotation: Vec2::from_angle(angle),
        })
    }

    /// A pose at `position`, not turned; an error for a non-finite value.
    ///
    /// ```
    /// use collide::narrow::d2::Pose;
    /// use glam::Vec2;
    /// assert_eq!(Pose::at(Vec2::ONE)?.apply(Vec2::ZERO), Vec2::ONE);
    /// assert!(Pose::at(Vec2::new(f32::NAN, 0.0)).is_err());
    /// # Ok::<(), collide::narrow::ShapeError>(())
    /// ```
    pub fn at(position: Vec2) -> Result<Self, ShapeError> {
        Self::new(position, 0.0)
    }

    /// Where the shape's origin goes, in world units.
    pub fn position(&self) -> Vec2 {
        self.position
    }

    /// The rotation as a unit complex number `(cos, sin)` of the angle.
    pub fn rotation(&self) -> Vec2 {
        self.rotation
    }

    /// The angle turned, radians counter-clockwise, in `[-pi, pi]`.
    pub fn angle(&self) -> f32 {
        self.rotation.to_angle()
    }

    /// Moves the pose to `position`; an error (and no change) for a
    /// non-finite value.
    ///
    /// ```
    /// use collide::narrow::d2::Pose;
    /// use glam::Vec2;
    /// let mut pose = Pose::new(Vec2::ZERO, 1.0)?;
    /// pose.set_position(Vec2::new(3.0, 4.0))?;
    /// assert!(pose.set_position(Vec2::new(f32::INFINITY, 0.0)).is_err());
    /// assert_eq!(pose.position(), Vec2::new(3.0, 4.0));
    /// assert!((pose.angle() - 1.0).abs() < 1e-6);
    /// # Ok::<(), collide::narrow::ShapeError>(())
    /// ```
    pub fn set_position(&mut self, position: Vec2) -> Result<(), ShapeError> {
        *self = Self::new(position, 0.0)?.with_turn(self.rotation);
        Ok(())
    }

    /// Turns the pose to `angle` radians counter-clockwise; an error (and
    /// no change) for a non-finite value.
    pub fn set_angle(&mut self, angle: f32) -> Result<(), ShapeError> {
        *self = Self::new(self.position, angle)?;
        Ok(())
    }

    /// The same position with the unit complex `rotation`.
    fn with_turn(self, rotation: Vec2) -> Self {
        Self { rotation, ..self }
    }

    /// A local point in world coordinates.
    pub fn apply(&self, local: Vec2) -> Vec2 {
        self.position + self.rotation.rotate(local)
    }

    /// A local direction in world coordinates (rotated, not moved).
    pub fn rotate(&self, local: Vec2) -> Vec2 {
        self.rotation.rotate(local)
    }

    /// A world point in local coordinates.
    pub fn apply_inverse(&self, world: Vec2) -> Vec2 {
        self.unrotate(world - self.position)
    }

    /// A world direction in local coordinates.
    pub fn unrotate(&self, world: Vec2) -> Vec2 {
        Vec2::new(self.rotation.x, -self.rotation.y).rotate(world)
    }

    /// The pose of something placed at `local` in this pose's frame (a
    /// compound's part): `local` first, then this pose. An error where
    /// the position leaves the f32 range.
    ///
    /// ```
    /// use collide::narrow::d2::Pose;
    /// use glam::Vec2;
    /// let body = Pose::new(Vec2::new(5.0, 0.0), std::f32::consts::FRAC_PI_2)?;
    /// let part = body.compose(&Pose::at(Vec2::X)?)?;
    /// assert!((part.position() - Vec2::new(5.0, 1.0)).length() < 1e-6);
    /// # Ok::<(), collide::narrow::ShapeError>(())
    /// ```
    pub fn compose(&self, local: &Pose) -> Result<Pose, ShapeError> {
        let position = self.apply(local.position);
        for v in position.to_array() {
            finite("position", v)?;
        }
        let turn = self.rotation.rotate(local.rotation);
        Ok(Self {
            position,
            rotation: turn / turn.length(),
        })
    }
}

impl Placement for Pose {
    type V = Vec2;
    fn position(&self) -> Vec2 {
        self.position
    }
    fn with_position(&self, position: Vec2) -> Self {
        Self { position, ..*self }
    }
    fn at(position: Vec2) -> Self {
        Self {
            position,
            rotation: Vec2::X,
        }
    }
    #[inline]
    fn apply(&self, local: Vec2) -> Vec2 {
        Pose::apply(self, local)
    }
    #[inline]
    fn rotate(&self, local: Vec2) -> Vec2 {
        Pose::rotate(self, local)
    }
    #[inline]
    fn unrotate(&self, world: Vec2) -> Vec2 {
        Pose::unrotate(self, world)
    }
    fn unrotate_wide(&self, world: DVec2) -> DVec2 {
        let r = self.rotation.as_dvec2();
        DVec2::new(r.x * world.x + r.y * world.y, r.x * world.y - r.y * world.x)
    }
    fn rotate_wide(&self, local: DVec2) -> DVec2 {
        let r = self.rotation.as_dvec2();
        DVec2::new(r.x * local.x - r.y * local.y, r.y * local.x + r.x * local.y)
    }
    type Frame = Pose;
    fn frame(&self) -> Pose {
        *self
    }
    fn relative(&self, other: &Self) -> Pose {
        // The offset in f64 (the difference of two f32 values is exact
        // there), rounded once in this pose's frame.
        let offset = other.position.as_dvec2() - self.position.as_dvec2();
        let position = self.unrotate_wide(offset);
        let q = other.rotation;
        let rotation = Vec2::new(
            self.rotation.x * q.x + self.rotation.y * q.y,
            self.rotation.x * q.y - self.rotation.y * q.x,
        );
        Pose {
            position: position.as_vec2(),
            rotation,
        }
    }
}

impl Frame for Pose {
    type V = Vec2;
    #[inline]
    fn apply(&self, local: Vec2) -> Vec2 {
        Pose::apply(self, local)
    }
    #[inline]
    fn unrotate(&self, target: Vec2) -> Vec2 {
        Pose::unrotate(self, target)
    }
    fn origin(&self) -> Vec2 {
        self.position
    }
}
