//! Ledges: whether a contact under the capsule is ground it stands on, or
//! the edge of a ledge its centre has passed (it slides off), and the top
//! of a ledge whose edge it is climbing over. Each looks with one short
//! ray at the shape touched.

use super::controller::Character;
use crate::dim::{Dim, dot, length};
use crate::level::{Level, ray_on};
use collide::Handle;

/// The ray that looks past an edge starts this many radii from the
/// contact, and this share of that below (or above) it.
const LEDGE_INSET: f32 = 0.05;
const LEDGE_DROP: f32 = 0.01;

impl<D: Dim> Character<D> {
    /// Whether the capsule, centred at `centre`, can stand on a contact
    /// (the object, its normal, the touching point): the normal is
    /// walkable, and the contact is not on an edge the capsule overhangs.
    /// A contact under the bottom sphere with a tilted normal is either on
    /// a slope or on an edge with the centre past it; a short ray across
    /// toward the edge, from the centre's side and just below the contact,
    /// meets what lies beyond it: a slope (walkable: it stands), a ledge's
    /// side (steep, or nothing: it overhangs, and slides off), or the
    /// shape itself (the ray starts inside: ground goes on).
    pub(super) fn stands_on(
        &self,
        level: &Level<'_, D>,
        centre: D::V,
        (on, normal, point): (Handle, D::V, D::V),
    ) -> bool {
        let walkable = self.settings().max_slope_cos();
        if dot(normal, D::UP) < walkable {
            return false;
        }
        let Some(out) = self.tilted_below(centre, normal, point, 1e-3) else {
            return true; // flat under the centre
        };
        let inset = LEDGE_INSET * self.settings().radius();
        let origin = point + out * inset - D::UP * (LEDGE_DROP * inset);
        match ray_on::<D>(level, on, origin, -out, 2.0 * inset) {
            Some((0.0, _)) => true,
            Some((_, beyond)) => dot(beyond, D::UP) >= walkable,
            None => false,
        }
    }

    /// The walkable top of the ledge whose edge the capsule, centred at
    /// `centre`, touches (the object, the contact's normal and point): its
    /// normal, from a short ray down just inside the edge; `None` when the
    /// contact is not under the capsule, or the surface there is not
    /// walkable, or goes on rising (the ray starts inside: no edge).
    pub(super) fn top_beyond(
        &self,
        level: &Level<'_, D>,
        centre: D::V,
        (on, normal, point): (Handle, D::V, D::V),
    ) -> Option<D::V> {
        if dot(normal, D::UP) <= 0.0 {
            return None;
        }
        let out = self.tilted_below(centre, normal, point, 1e-6)?;
        let inset = LEDGE_INSET * self.settings().radius();
        let origin = point - out * inset + D::UP * inset;
        let (t, top) = ray_on::<D>(level, on, origin, -D::UP, 2.0 * inset)?;
        (t > 0.0 && dot(top, D::UP) >= self.settings().max_slope_cos()).then_some(top)
    }

    /// For a contact (its `normal` and `point`) under the bottom sphere of
    /// the capsule centred at `centre`, with a normal tilted by more than
    /// `flat` (the sine): the level unit vector from the contact toward
    /// the centre's side.
    fn tilted_below(&self, centre: D::V, normal: D::V, point: D::V, flat: f32) -> Option<D::V> {
        let bottom = centre - D::UP * self.settings().half_height();
        let level = normal - D::UP * dot(normal, D::UP);
        let size = length(level);
        (size > flat && dot(point - bottom, D::UP) < 0.0).then(|| level * (1.0 / size))
    }
}
