//! What a game system moves through: the objects (a broad-phase structure
//! or snapshot, with each object's shape and pose), gravity and, for
//! projectiles, the media (air, water). One type for every system, built
//! each tick over the world as it stands.

use crate::dim::{Dim, ShapeOf};
use crate::error::{GameError, finite_vector};
use crate::projectile::{Media, Medium};
use collide::broad::Query;

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
/// let around = Surroundings::<D3>::new(&world, &shape_of, Vec3::new(0.0, -9.81, 0.0))?
///     .with_media(&sea);
/// assert_eq!(around.gravity().y, -9.81);
/// assert!(Surroundings::<D3>::new(&world, &shape_of, Vec3::NAN).is_err());
/// # Ok::<(), GameError>(())
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
    /// `gravity` (m/s², finite), with no media: projectiles fly as in a
    /// vacuum until [`Surroundings::with_media`] gives them air or water.
    pub fn new(
        objects: &'s dyn Query<D::V>,
        shape_of: ShapeOf<'s, 'a, D>,
        gravity: D::V,
    ) -> Result<Self, GameError> {
        finite_vector("gravity (m/s²)", gravity)?;
        Ok(Surroundings {
            objects,
            shape_of,
            gravity,
            media: None,
        })
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
