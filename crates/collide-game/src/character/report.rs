//! What a character's step reports: the ground it ends on, what carried
//! it, and what its own move pushed against.

use crate::dim::{Dim, dot, length};
use collide::Handle;

/// What the character stands on after a step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ground<V> {
    /// Nothing within reach below.
    Airborne,
    /// On a walkable surface of `on`, whose normal there is `normal`.
    Standing {
        /// The object stood on (the base, when it moves).
        on: Handle,
        /// The surface's normal, pointing up out of it.
        normal: V,
    },
    /// On a surface too steep to stand on: it slides down.
    Sliding {
        /// The object slid on.
        on: Handle,
        /// The surface's normal.
        normal: V,
    },
}

impl<V: Copy> Ground<V> {
    /// The object under the character, standing or sliding.
    pub fn on(&self) -> Option<Handle> {
        match *self {
            Ground::Airborne => None,
            Ground::Standing { on, .. } | Ground::Sliding { on, .. } => Some(on),
        }
    }

    /// Whether the character stands on walkable ground.
    pub fn is_standing(&self) -> bool {
        matches!(self, Ground::Standing { .. })
    }
}

/// What one step did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepReport<V> {
    /// The ground after the step.
    pub ground: Ground<V>,
    /// How far the base carried the character before its own move.
    pub carried: V,
    /// The base's velocity to add to the character's, by the
    /// [`Inherit`](super::Inherit) rule, on the step it left the base;
    /// zero otherwise.
    pub inherited: V,
    /// The character got onto a ledge this tick: it stepped or climbed
    /// up, and now stands on the ledge's top with its centre over it.
    /// (Climbing over a high step's edge takes a few ticks, the bottom
    /// rolling over the edge; the character stands on the ledge then, and
    /// slides back off if it stops short.)
    pub stepped_up: bool,
    /// Something moved into the character and it could not get out of the
    /// way (caught between two moving things, or a moving thing and a
    /// wall): it may end the step inside one of them.
    pub squeezed: bool,
    /// The first thing its own move ran into and pushed against, if any.
    pub pushing: Option<Push<V>>,
}

/// What a character's own move ran into and could not walk on or step
/// onto (a wall, another character's side), and the part of the move
/// that went into it, level (nothing up or down). Where `against` is
/// another character, a game that lets characters push each other hands
/// `motion` (or a share of it) to that character's
/// [`Character::shove`](super::Character::shove), then shoves the pusher
/// as far as the other went, so it follows in the same tick.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Push<V> {
    /// What it ran into.
    pub against: Handle,
    /// The level part of its move into it, world units.
    pub motion: V,
}

/// The push of `motion` into `against`, whose surface there has
/// `normal`: none when the move goes along or away from it.
pub(super) fn push_into<D: Dim>(against: Handle, motion: D::V, normal: D::V) -> Option<Push<D::V>> {
    let level = normal - D::UP * dot(normal, D::UP);
    let size = length(level);
    if size <= 1e-6 {
        return None;
    }
    let level = level * (1.0 / size);
    let into = -dot(motion, level);
    (into > 0.0).then(|| Push {
        against,
        motion: level * -into,
    })
}
