//! The pair hook: a game's say over which pairs touch. One-way platforms
//! and "a bullet does not hit its shooter" are built on it.

use super::space::Space;
use super::world::World;
use crate::narrow::Contact;
use crate::{Error, Handle};

/// A pair about to start or go on touching, as the pair hook sees it.
///
/// The hook is called during [`World::step`](super::World::step), once
/// for each pair that the narrow phase tested again this step (one of its
/// colliders moved or changed) and that would touch under the world's
/// rule, in handle-pair order, on the calling thread. Returning `false`
/// vetoes the pair for this step: it does not touch, and a pair that was
/// touching reports stopped. A pair neither of whose colliders moved
/// keeps its last answer without a call.
///
/// ```
/// use collide::narrow::d2::{Cuboid, Circle, Pose};
/// use collide::world::{Collider2, World2};
/// use glam::Vec2;
/// #[derive(PartialEq)]
/// enum Thing { OneWay, Player }
/// let mut world = World2::new();
/// let ledge = world.insert(Collider2::fixed(Cuboid::new(Vec2::new(2.0, 0.1))?, Pose::IDENTITY, Thing::OneWay))?;
/// let player = world.insert(Collider2::moving(Circle::new(0.5)?, Pose::at(Vec2::new(0.0, -0.3))?, Thing::Player))?;
/// // A one-way platform: it holds only what is above its top face.
/// world.set_pair_hook(|pair| {
///     let from_above = if *pair.value_a == Thing::OneWay { pair.contact.normal.y > 0.5 } else { pair.contact.normal.y < -0.5 };
///     from_above || (*pair.value_a != Thing::OneWay && *pair.value_b != Thing::OneWay)
/// });
/// assert!(world.step().started.is_empty()); // jumping up through it
/// world.set_pose(player, Pose::at(Vec2::new(0.0, 0.55))?)?;
/// assert_eq!(world.step().started, [(ledge, player)]); // landed on it
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Candidate<'a, V: Space, T> {
    /// The collider with the lower handle.
    pub a: Handle,
    /// The other.
    pub b: Handle,
    /// `a`'s value.
    pub value_a: &'a T,
    /// `b`'s value.
    pub value_b: &'a T,
    /// Their contact (normal from `a` toward `b`).
    pub contact: &'a Contact<V>,
    /// Whether one of them is a sensor (the pair would overlap rather
    /// than touch).
    pub sensor: bool,
}

/// The hook as the world keeps it.
pub(super) type PairHook<V, T> = Box<dyn FnMut(&Candidate<'_, V, T>) -> bool + Send>;

impl<V: Space, T> World<V, T> {
    /// Whether a pair hook is set.
    pub fn has_pair_hook(&self) -> bool {
        self.hook.is_some()
    }

    /// Asks the pair hook whether colliders `a` and `b` may touch, as a
    /// step would ask it (the lower handle first, their contact as they
    /// stand now, the normal from the lower toward the higher), whether or
    /// not they touch; true with no hook. For code that moves a collider
    /// itself and must honour the hook in between steps: a character
    /// meeting a one-way platform. A stale or foreign handle, or a handle
    /// given twice, is an error.
    ///
    /// ```
    /// use collide::narrow::d2::{Circle, Cuboid, Pose};
    /// use collide::world::{Collider2, World2};
    /// use glam::Vec2;
    /// let mut world = World2::new();
    /// let ledge = world.insert(Collider2::fixed(Cuboid::new(Vec2::new(2.0, 0.1))?, Pose::IDENTITY, true))?;
    /// let under = world.insert(Collider2::moving(Circle::new(0.5)?, Pose::at(Vec2::new(0.0, -1.0))?, false))?;
    /// let over = world.insert(Collider2::moving(Circle::new(0.5)?, Pose::at(Vec2::new(0.0, 1.0))?, false))?;
    /// assert!(world.pair_allowed(ledge, under)?); // no hook yet
    /// // One-way: a ledge holds only what is above it.
    /// world.set_pair_hook(|pair| !*pair.value_a || pair.contact.normal.y > 0.5);
    /// assert!(!world.pair_allowed(under, ledge)?);
    /// assert!(world.pair_allowed(ledge, over)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn pair_allowed(&mut self, a: Handle, b: Handle) -> Result<bool, Error> {
        self.entry(a)?;
        self.entry(b)?;
        if a == b {
            return Err(Error::SamePair(a));
        }
        if self.hook.is_none() {
            return Ok(true);
        }
        let (a, b) = (a.min(b), a.max(b));
        let contact = self.contact_now(a, b);
        let sensor = self.entry(a)?.sensor || self.entry(b)?.sensor;
        let value = |h: Handle| {
            self.values[h.index() as usize]
                .as_ref()
                .expect("a live collider has a value")
        };
        let candidate = Candidate {
            a,
            b,
            value_a: value(a),
            value_b: value(b),
            contact: &contact,
            sensor,
        };
        let hook = self.hook.as_mut().expect("checked above");
        Ok(hook(&candidate))
    }
}
