//! [`World`]: colliders kept in a broad-phase structure. This file holds
//! the colliders and their changes; `step.rs` turns them into events,
//! `query.rs` answers queries.

use super::collider::{Collider, Kind};
use super::collider_shape::ColliderShape;
use super::events::WorldEvents;
use super::hook::{Candidate, PairHook};
use super::settings::WorldSettings;
use super::space::Space;
use super::step::Scratch;
use crate::broad::Filter;
use crate::broad::{BroadPhase, Structure};
use crate::geometry::Aabb;
use crate::{Error, Handle, HandleError, Slots};
use std::sync::Arc;

/// A collider in the world, less the game's value (kept apart, so that
/// the narrow phase can share the geometry between threads whatever the
/// value is).
#[derive(Debug)]
pub(super) struct Entry<V: Space> {
    pub(super) shape: ColliderShape<V>,
    pub(super) pose: V::Pose,
    pub(super) last_pose: V::Pose,
    pub(super) kind: Kind,
    pub(super) filter: Filter,
    pub(super) sensor: bool,
    /// Swept between steps.
    pub(super) continuous: bool,
    /// Its box in the broad phase.
    pub(super) proxy: Option<Handle>,
    /// Its size, for the margin.
    pub(super) reach: f32,
    /// Moved or changed since the last step.
    pub(super) changed: bool,
}

impl<V: Space> Entry<V> {
    /// Its box in the broad phase.
    pub(super) fn proxy(&self) -> Handle {
        self.proxy.expect("every collider in the world has a box")
    }
}

/// The collision world: colliders over any broad-phase structure.
///
/// ```
/// use collide::narrow::d3::{Cuboid, Pose, Sphere};
/// use collide::world::{Collider3, World3};
/// use glam::Vec3;
/// let mut world = World3::new();
/// let floor = world.insert(Collider3::fixed(Cuboid::new(Vec3::new(10.0, 0.5, 10.0))?, Pose::IDENTITY, "floor"))?;
/// let ball = world.insert(Collider3::moving(Sphere::new(0.5)?, Pose::at(Vec3::new(0.0, 2.0, 0.0))?, "ball"))?;
/// assert!(world.step().started.is_empty());
/// world.set_pose(ball, Pose::at(Vec3::new(0.0, 0.9, 0.0))?)?;
/// let events = world.step();
/// assert_eq!(events.started, [(floor, ball)]);
/// assert!((events.touching[0].contact.depth - 0.1).abs() < 1e-6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct World<V: Space, T> {
    pub(super) colliders: Slots<Entry<V>>,
    /// The game's values, by collider index.
    pub(super) values: Vec<Option<T>>,
    pub(super) broad: Box<dyn BroadPhase<V, Handle> + Send>,
    pub(super) settings: WorldSettings,
    pub(super) hook: Option<PairHook<V, T>>,
    /// Colliders moved or changed since the last step.
    pub(super) changed: Vec<Handle>,
    pub(super) scratch: Scratch<V>,
    pub(super) events: Arc<WorldEvents<V>>,
}

impl<V: Space, T> Default for World<V, T> {
    fn default() -> Self {
        Self::with_settings(WorldSettings::default())
    }
}

impl<V: Space, T> std::fmt::Debug for World<V, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("World")
            .field("structure", &self.broad.name())
            .field("colliders", &self.colliders.len())
            .field("settings", &self.settings)
            .field("hook", &self.hook.is_some())
            .finish_non_exhaustive()
    }
}

impl<V: Space, T> World<V, T> {
    /// An empty world with the default settings.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty world with `settings`.
    pub fn with_settings(settings: WorldSettings) -> Self {
        Self {
            colliders: Slots::new(),
            values: Vec::new(),
            broad: settings.structure().build(),
            settings,
            hook: None,
            changed: Vec::new(),
            scratch: Scratch::default(),
            events: Arc::new(WorldEvents::default()),
        }
    }

    /// The box the broad phase keeps: the shape's, grown by its share of
    /// the margin (at least a few units in the last place of where it is),
    /// so two shapes within the margin always pair.
    pub(super) fn proxy_box(
        &self,
        shape: &ColliderShape<V>,
        pose: &V::Pose,
        reach: f32,
    ) -> Result<Aabb<V>, Error> {
        let b = shape.aabb(pose);
        let grow = (self.settings.margin() * reach).max(8.0 * f32::EPSILON * V::far(pose));
        let (lo, hi) = (b.min(), b.max());
        Ok(Aabb::new(
            V::from_axes(|i| lo.axis(i) - grow),
            V::from_axes(|i| hi.axis(i) + grow),
        )?)
    }

    /// A live collider's entry: a foreign handle is `Foreign`, a removed
    /// one `Stale`.
    pub(super) fn entry(&self, h: Handle) -> Result<&Entry<V>, Error> {
        self.colliders.check(h)?;
        Ok(self.colliders.get(h).ok_or(HandleError::Stale(h))?)
    }

    /// Puts a collider in the world; it pairs from the next step. An
    /// error for a box past the f32 range, or a mesh marked continuous.
    pub fn insert(&mut self, collider: Collider<V, T>) -> Result<Handle, Error> {
        if collider.continuous && collider.shape.is_mesh() {
            return Err(Error::Continuous {
                parts: collider.shape.part_count(),
            });
        }
        let entry = Entry {
            reach: collider.shape.reach(),
            shape: collider.shape,
            pose: collider.pose,
            last_pose: collider.pose,
            kind: collider.kind,
            filter: collider.filter,
            sensor: collider.sensor,
            continuous: collider.continuous,
            proxy: None,
            changed: true,
        };
        let proxy_box = self.proxy_box(&entry.shape, &entry.pose, entry.reach)?;
        let h = self.colliders.insert(entry)?;
        match self.broad.insert(proxy_box, h) {
            Ok(proxy) => {
                self.colliders.get_mut(h)?.proxy = Some(proxy);
                let i = h.index() as usize;
                if self.values.len() <= i {
                    self.values.resize_with(i + 1, || None);
                }
                self.values[i] = Some(collider.value);
                self.changed.push(h);
                Ok(h)
            }
            Err(e) => {
                let _ = self.colliders.remove(h);
                Err(e)
            }
        }
    }

    /// Marks a collider for the next step's narrow phase.
    fn mark(&mut self, h: Handle) -> Result<(), Error> {
        let e = self.colliders.get_mut(h)?;
        if !e.changed {
            e.changed = true;
            self.changed.push(h);
        }
        Ok(())
    }

    /// Moves a collider (its pose at the last step is kept beside it; a
    /// continuous one's box in the broad phase covers both). On an error
    /// (a box past the f32 range) nothing changes.
    pub fn set_pose(&mut self, h: Handle, pose: V::Pose) -> Result<(), Error> {
        let e = self.entry(h)?;
        let mut proxy_box = self.proxy_box(&e.shape, &pose, e.reach)?;
        if e.continuous {
            proxy_box = proxy_box.union(&self.proxy_box(&e.shape, &e.last_pose, e.reach)?);
        }
        self.broad.update(e.proxy(), proxy_box)?;
        self.colliders.get_mut(h)?.pose = pose;
        self.mark(h)
    }

    /// Gives a collider another shape; on an error nothing changes.
    pub fn set_shape(
        &mut self,
        h: Handle,
        shape: impl Into<ColliderShape<V>>,
    ) -> Result<(), Error> {
        let shape = shape.into();
        let e = self.entry(h)?;
        if e.continuous && shape.is_mesh() {
            return Err(Error::Continuous {
                parts: shape.part_count(),
            });
        }
        let reach = shape.reach();
        let proxy_box = self.proxy_box(&shape, &e.pose, reach)?;
        self.broad.update(e.proxy(), proxy_box)?;
        let e = self.colliders.get_mut(h)?;
        (e.shape, e.reach) = (shape, reach);
        self.mark(h)
    }

    /// Gives a collider another filter; pairs it no longer meets report
    /// stopped at the next step.
    pub fn set_filter(&mut self, h: Handle, filter: Filter) -> Result<(), Error> {
        self.entry(h)?;
        self.colliders.get_mut(h)?.filter = filter;
        self.mark(h)
    }

    /// Makes a collider a sensor or a solid one; its pairs move between
    /// the touching and the sensor lists at the next step.
    pub fn set_sensor(&mut self, h: Handle, sensor: bool) -> Result<(), Error> {
        self.entry(h)?;
        self.colliders.get_mut(h)?.sensor = sensor;
        self.mark(h)
    }

    /// Sweeps a collider between steps, or stops (see
    /// [`Collider::as_continuous`]); an error for a mesh.
    pub fn set_continuous(&mut self, h: Handle, continuous: bool) -> Result<(), Error> {
        let e = self.entry(h)?;
        if continuous && e.shape.is_mesh() {
            return Err(Error::Continuous {
                parts: e.shape.part_count(),
            });
        }
        self.colliders.get_mut(h)?.continuous = continuous;
        self.mark(h)
    }

    /// Whether a collider is swept between steps.
    pub fn is_continuous(&self, h: Handle) -> Result<bool, Error> {
        Ok(self.entry(h)?.continuous)
    }

    /// Takes a collider out, returning its value; its touching pairs
    /// report stopped at the next step.
    pub fn remove(&mut self, h: Handle) -> Result<T, Error> {
        self.entry(h)?;
        let e = self.colliders.remove(h)?;
        self.broad.remove(e.proxy())?;
        Ok(self.values[h.index() as usize]
            .take()
            .expect("a live collider has a value"))
    }

    /// A collider's value.
    pub fn value(&self, h: Handle) -> Result<&T, Error> {
        self.entry(h)?;
        Ok(self.values[h.index() as usize]
            .as_ref()
            .expect("a live collider has a value"))
    }

    /// A collider's value, to change.
    pub fn value_mut(&mut self, h: Handle) -> Result<&mut T, Error> {
        self.entry(h)?;
        Ok(self.values[h.index() as usize]
            .as_mut()
            .expect("a live collider has a value"))
    }

    /// A collider's pose now.
    pub fn pose(&self, h: Handle) -> Result<V::Pose, Error> {
        Ok(self.entry(h)?.pose)
    }

    /// A collider's pose at the last step (how it moved over the tick).
    pub fn last_pose(&self, h: Handle) -> Result<V::Pose, Error> {
        Ok(self.entry(h)?.last_pose)
    }

    /// A collider's shape.
    pub fn shape(&self, h: Handle) -> Result<&ColliderShape<V>, Error> {
        Ok(&self.entry(h)?.shape)
    }

    /// A collider's filter.
    pub fn filter(&self, h: Handle) -> Result<Filter, Error> {
        Ok(self.entry(h)?.filter)
    }

    /// Whether a collider is a sensor.
    pub fn is_sensor(&self, h: Handle) -> Result<bool, Error> {
        Ok(self.entry(h)?.sensor)
    }

    /// A collider's kind.
    pub fn kind(&self, h: Handle) -> Result<Kind, Error> {
        Ok(self.entry(h)?.kind)
    }

    /// How many colliders it holds.
    pub fn len(&self) -> usize {
        self.colliders.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.colliders.is_empty()
    }

    /// Every collider's handle, in handle order.
    pub fn handles(&self) -> impl Iterator<Item = Handle> + '_ {
        self.colliders.iter().map(|(h, _)| h)
    }

    /// The settings.
    pub fn settings(&self) -> &WorldSettings {
        &self.settings
    }

    /// The name of the structure underneath now (`auto` while `auto`
    /// runs, whatever it picked).
    pub fn structure(&self) -> &str {
        self.broad.name()
    }

    /// Moves every collider onto another broad-phase structure, keeping
    /// what touches: the next step reports only what changed, as it would
    /// have on the old structure. On an error the world is as it was.
    ///
    /// ```
    /// use collide::Structure;
    /// use collide::narrow::d2::{Circle, Pose};
    /// use collide::world::{Collider2, World2};
    /// use glam::Vec2;
    /// let mut world = World2::new();
    /// world.insert(Collider2::moving(Circle::new(1.0)?, Pose::IDENTITY, ()))?;
    /// world.insert(Collider2::moving(Circle::new(1.0)?, Pose::at(Vec2::X)?, ()))?;
    /// assert_eq!(world.step().started.len(), 1);
    /// world.set_structure(Structure::Sap)?;
    /// assert_eq!(world.structure(), "sap");
    /// let events = world.step();
    /// assert!(events.started.is_empty() && events.touching.len() == 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_structure(&mut self, structure: Structure) -> Result<(), Error> {
        let mut broad = structure.build();
        let mut proxies = Vec::with_capacity(self.colliders.len());
        for (h, e) in self.colliders.iter() {
            let proxy_box = self.proxy_box(&e.shape, &e.pose, e.reach)?;
            proxies.push((h, broad.insert(proxy_box, h)?));
        }
        for (h, proxy) in proxies {
            self.colliders.get_mut(h)?.proxy = Some(proxy);
        }
        self.broad = broad;
        Ok(())
    }

    /// Sets the pair hook, which may veto pairs as they are tested (see
    /// [`Candidate`] for when it is called); it replaces any earlier one.
    pub fn set_pair_hook(
        &mut self,
        hook: impl FnMut(&Candidate<'_, V, T>) -> bool + Send + 'static,
    ) {
        self.hook = Some(Box::new(hook));
    }

    /// Removes the pair hook: every pair the rule finds touches.
    pub fn clear_pair_hook(&mut self) {
        self.hook = None;
    }
}
