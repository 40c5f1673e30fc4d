//! [`Pose`]: where a 3D shape is (a position and a rotation).

use crate::narrow::error::{ShapeError, finite};
use crate::narrow::placement::{Frame, Placement};
use glam::{DVec3, Mat3, Quat, Vec3};

/// A rigid placement in 3D: rotate by `rotation`, then move by `position`.
///
/// ```
/// use collide::narrow::d3::Pose;
/// use glam::{Quat, Vec3};
/// let pose = Pose::new(Vec3::new(0.0, 2.0, 0.0), Quat::from_rotation_z(std::f32::consts::FRAC_PI_2))?;
/// let p = pose.apply(Vec3::X); // (1, 0, 0) turned a quarter about z, then moved
/// assert!((p - Vec3::new(0.0, 3.0, 0.0)).length() < 1e-6);
/// assert!((pose.apply_inverse(p) - Vec3::X).length() < 1e-6);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// Where the shape's origin goes, in world units.
    pub(crate) position: Vec3,
    /// The rotation, a unit quaternion.
    pub(crate) rotation: Quat,
}

impl Default for Pose {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Pose {
    /// No move, no turn.
    pub const IDENTITY: Self = Self {
        position: Vec3::ZERO,
        rotation: Quat::IDENTITY,
    };

    /// A pose at `position` turned by `rotation` (normalized here); an
    /// error for a non-finite value or a zero quaternion.
    pub fn new(position: Vec3, rotation: Quat) -> Result<Self, ShapeError> {
        for v in position.to_array() {
            finite("position", v)?;
        }
        for v in rotation.to_array() {
            finite("rotation", v)?;
        }
        let length = rotation.length();
        if !(length > 0.0 && length.is_finite()) {
            return Err(ShapeError::Rotation { length });
        }
        let rotation = rotation / length;
        Ok(Self { position, rotation })
    }

    /// A pose at `position`, not turned; an error for a non-finite value.
    ///
    /// ```
    /// use collide::narrow::d3::Pose;
    /// use glam::Vec3;
    /// assert_eq!(Pose::at(Vec3::ONE)?.apply(Vec3::ZERO), Vec3::ONE);
    /// assert!(Pose::at(Vec3::new(0.0, f32::NAN, 0.0)).is_err());
    /// # Ok::<(), collide::narrow::ShapeError>(())
    /// ```
    pub fn at(position: Vec3) -> Result<Self, ShapeError> {
        Self::new(position, Quat::IDENTITY)
    }

    /// Where the shape's origin goes, in world units.
    pub fn position(&self) -> Vec3 {
        self.position
    }

    /// The rotation, a unit quaternion.
    pub fn rotation(&self) -> Quat {
        self.rotation
    }

    /// Moves the pose to `position`; an error (and no change) for a
    /// non-finite value.
    ///
    /// ```
    /// use collide::narrow::d3::Pose;
    /// use glam::{Quat, Vec3};
    /// let mut pose = Pose::at(Vec3::ZERO)?;
    /// pose.set_rotation(Quat::from_rotation_y(0.5) * 2.0)?; // normalized
    /// pose.set_position(Vec3::ONE)?;
    /// assert!(pose.set_rotation(Quat::from_xyzw(0.0, 0.0, 0.0, 0.0)).is_err());
    /// assert!(pose.set_position(Vec3::NAN).is_err());
    /// assert_eq!(pose.position(), Vec3::ONE);
    /// assert!((pose.rotation().length() - 1.0).abs() < 1e-6);
    /// # Ok::<(), collide::narrow::ShapeError>(())
    /// ```
    pub fn set_position(&mut self, position: Vec3) -> Result<(), ShapeError> {
        *self = Self::new(position, self.rotation)?;
        Ok(())
    }

    /// Turns the pose to `rotation` (normalized here); an error (and no
    /// change) for a non-finite value or a zero quaternion.
    pub fn set_rotation(&mut self, rotation: Quat) -> Result<(), ShapeError> {
        *self = Self::new(self.position, rotation)?;
        Ok(())
    }

    /// A local point in world coordinates.
    pub fn apply(&self, local: Vec3) -> Vec3 {
        self.position + self.rotation * local
    }

    /// A local direction in world coordinates (rotated, not moved).
    pub fn rotate(&self, local: Vec3) -> Vec3 {
        self.rotation * local
    }

    /// A world point in local coordinates.
    pub fn apply_inverse(&self, world: Vec3) -> Vec3 {
        self.unrotate(world - self.position)
    }

    /// A world direction in local coordinates.
    pub fn unrotate(&self, world: Vec3) -> Vec3 {
        self.rotation.inverse() * world
    }

    /// The pose of something placed at `local` in this pose's frame (a
    /// compound's part): `local` first, then this pose. An error where
    /// the position leaves the f32 range.
    ///
    /// ```
    /// use collide::narrow::d3::Pose;
    /// use glam::{Quat, Vec3};
    /// let body = Pose::new(Vec3::new(5.0, 0.0, 0.0), Quat::from_rotation_y(std::f32::consts::FRAC_PI_2))?;
    /// let part = body.compose(&Pose::at(Vec3::X)?)?;
    /// assert!((part.position() - Vec3::new(5.0, 0.0, -1.0)).length() < 1e-6);
    /// # Ok::<(), collide::narrow::ShapeError>(())
    /// ```
    pub fn compose(&self, local: &Pose) -> Result<Pose, ShapeError> {
        Pose::new(self.apply(local.position), self.rotation * local.rotation)
    }
}

impl Placement for Pose {
    type V = Vec3;
    fn position(&self) -> Vec3 {
        self.position
    }
    fn with_position(&self, position: Vec3) -> Self {
        Self { position, ..*self }
    }
    fn at(position: Vec3) -> Self {
        Self {
            position,
            rotation: Quat::IDENTITY,
        }
    }
    #[inline]
    fn apply(&self, local: Vec3) -> Vec3 {
        Pose::apply(self, local)
    }
    #[inline]
    fn rotate(&self, local: Vec3) -> Vec3 {
        Pose::rotate(self, local)
    }
    #[inline]
    fn unrotate(&self, world: Vec3) -> Vec3 {
        Pose::unrotate(self, world)
    }
    fn unrotate_wide(&self, world: DVec3) -> DVec3 {
        self.rotation.as_dquat().conjugate() * world
    }
    fn rotate_wide(&self, local: DVec3) -> DVec3 {
        self.rotation.as_dquat() * local
    }
    type Frame = MatrixFrame;
    fn frame(&self) -> MatrixFrame {
        MatrixFrame {
            matrix: Mat3::from_quat(self.rotation),
            position: self.position,
        }
    }
    fn relative(&self, other: &Self) -> MatrixFrame {
        // The offset in f64 (the difference of two f32 values is exact
        // there), rounded once in this pose's frame.
        let offset = other.position.as_dvec3() - self.position.as_dvec3();
        MatrixFrame {
            matrix: Mat3::from_quat(self.rotation.conjugate() * other.rotation),
            position: self.unrotate_wide(offset).as_vec3(),
        }
    }
}

/// A 3D rigid transform as a rotation matrix and an offset: about half the
/// arithmetic of a quaternion per point, for the supports of one query.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MatrixFrame {
    matrix: Mat3,
    position: Vec3,
}

impl Frame for MatrixFrame {
    type V = Vec3;
    #[inline]
    fn apply(&self, local: Vec3) -> Vec3 {
        self.matrix * local + self.position
    }
    #[inline]
    fn unrotate(&self, target: Vec3) -> Vec3 {
        // The transpose's product: the columns' dot products.
        Vec3::new(
            self.matrix.x_axis.dot(target),
            self.matrix.y_axis.dot(target),
            self.matrix.z_axis.dot(target),
        )
    }
    fn origin(&self) -> Vec3 {
        self.position
    }
}
