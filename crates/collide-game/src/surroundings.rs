//! What a game system moves through: the collision world (a
//! [`World`](collide::world::World), its snapshot, or either seen through
//! a filter), gravity and, for projectiles, the media (air, water). One
//! type for every system, built each tick over the world as it stands.

use crate::dim::Dim;
use crate::error::{GameError, finite_vector};
use crate::level::Level;
use crate::projectile::{Media, Medium};
use collide::Vector;
use collide::motion::Geometry;

/// Gravity, checked once where it enters (finite), so the surroundings
/// built from it every tick need no check.
///
/// ```
/// use collide_game::Gravity;
/// use collide_game::glam::Vec3;
/// assert_eq!(Gravity::<Vec3>::earth().vector(), Vec3::new(0.0, -9.81, 0.0));
/// assert_eq!(Gravity::new(Vec3::new(0.0, -1.62, 0.0))?.vector().y, -1.62); // the Moon
/// assert!(Gravity::new(Vec3::new(0.0, f32::NAN, 0.0)).is_err());
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gravity<V>(V);

impl<V: Vector> Gravity<V> {
    /// Standard gravity at the Earth's surface: 9.81 m/s² down (-y).
    pub fn earth() -> Self {
        Gravity(V::from_axes(|k| if k == 1 { -9.81 } else { 0.0 }))
    }

    /// No gravity: space, a top-down game.
    pub fn none() -> Self {
        Gravity(V::from_axes(|_| 0.0))
    }

    /// `acceleration` (m/s², every component finite).
    pub fn new(acceleration: V) -> Result<Self, GameError> {
        Ok(Gravity(finite_vector("gravity (m/s²)", acceleration)?))
    }

    /// The acceleration, m/s².
    pub fn vector(&self) -> V {
        self.0
    }
}

/// What a body moves through: the collision world, gravity and the media.
///
/// ```
/// use collide_game::prelude::*;
/// use collide_game::projectile::{Media, Medium};
/// use collide::world::World3;
///
/// let world: World3 = World3::new();
/// let sea = Media::<D3>::new(Medium::AIR);
/// let around = Surroundings::<D3>::new(&world, Gravity::earth()).with_media(&sea);
/// assert_eq!(around.gravity().y, -9.81);
/// ```
#[derive(Clone, Copy)]
pub struct Surroundings<'s, D: Dim> {
    pub(crate) level: &'s Level<'s, D>,
    pub(crate) gravity: D::V,
    pub(crate) media: Option<&'s Media<D>>,
}

impl<'s, D: Dim> Surroundings<'s, D> {
    /// The colliders of `world` (a world or snapshot at this tick's poses,
    /// or one seen through a filter) under `gravity`, with no media:
    /// projectiles fly as in a vacuum until [`Surroundings::with_media`]
    /// gives them air or water.
    pub fn new(world: &'s (dyn Geometry<D::V, D::Pose> + 's), gravity: Gravity<D::V>) -> Self {
        Surroundings {
            level: world,
            gravity: gravity.vector(),
            media: None,
        }
    }

    /// The same with `media`, which projectiles feel as drag.
    pub fn with_media(self, media: &'s Media<D>) -> Self {
        Surroundings {
            media: Some(media),
            ..self
        }
    }

    /// The world: its colliders' boxes, and their convex pieces by handle.
    pub fn world(&self) -> &'s (dyn Geometry<D::V, D::Pose> + 's) {
        self.level
    }

    /// Gravity, m/s².
    pub fn gravity(&self) -> D::V {
        self.gravity
    }

    /// The media, if given.
    pub fn media(&self) -> Option<&'s Media<D>> {
        self.media
    }

    /// The medium at `p`: a vacuum where no media were given.
    pub(crate) fn medium_at(&self, p: D::V) -> Medium {
        self.media.map_or(Medium::VACUUM, |m| m.at(p))
    }
}
