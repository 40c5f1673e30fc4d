//! What a game system moves through: the objects (a broad-phase structure
//! or snapshot, with each object's shape and pose), gravity and, for
//! projectiles, the media (air, water). One type for every system, built
//! each tick over the world as it stands.

use crate::dim::{Dim, ShapeOf};
use crate::error::{GameError, finite_vector};
use crate::projectile::{Media, Medium};
use collide::Vector;
use collide::broad::Query;

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

/// What a body moves through: the objects (a broad-phase structure or
/// snapshot, and their shapes), gravity and the media.
///
/// ```
/// use collide::narrow::Support;
/// use collide_game::prelude::*;
/// use collide_game::projectile::{Media, Medium};
///
/// let world: Brute<Vec3> = Brute::new();
/// let shape_of = |_: Handle| -> Option<(&dyn Support<Vec3>, collide::narrow::d3::Pose)> { None };
/// let sea = Media::<D3>::new(Medium::AIR);
/// let around = Surroundings::<D3>::new(&world, &shape_of, Gravity::earth()).with_media(&sea);
/// assert_eq!(around.gravity().y, -9.81);
/// ```
#[derive(Clone, Copy)]
pub struct Surroundings<'s, 'a, D: Dim> {
    pub(crate) objects: &'s dyn Query<D::V>,
    pub(crate) shape_of: ShapeOf<'s, 'a, D>,
    pub(crate) gravity: D::V,
    pub(crate) media: Option<&'s Media<D>>,
}

impl<'s, 'a, D: Dim> Surroundings<'s, 'a, D> {
    /// The objects in `objects` (a structure or snapshot holding them at
    /// this tick's poses), each one's shape and pose by `shape_of`, under
    /// `gravity`, with no media: projectiles fly as in a vacuum until
    /// [`Surroundings::with_media`] gives them air or water.
    pub fn new(
        objects: &'s dyn Query<D::V>,
        shape_of: ShapeOf<'s, 'a, D>,
        gravity: Gravity<D::V>,
    ) -> Self {
        Surroundings {
            objects,
            shape_of,
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

    /// The objects' boxes.
    pub fn objects(&self) -> &'s dyn Query<D::V> {
        self.objects
    }

    /// Each object's shape and pose.
    pub fn shape_of(&self) -> ShapeOf<'s, 'a, D> {
        self.shape_of
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
