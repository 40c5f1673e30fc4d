//! [`World`]: colliders kept in a broad-phase structure, stepped into
//! touching events under one rule.

use super::collider::{Collider, Kind};
use super::events::{Touching, WorldEvents};
use super::space::Space;
use crate::broad::{BroadPhase, QueryBudget, Structure};
use crate::geometry::{Aabb, Ray};
use crate::{Error, Handle, HandleError, Slots};
use std::ops::ControlFlow;
use std::sync::Arc;

/// How a world decides touching, validated once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldSettings {
    margin: f32,
    structure: Structure,
}

impl Default for WorldSettings {
    /// A margin of 1% of the smaller shape's size; `auto` underneath.
    fn default() -> Self {
        Self {
            margin: 0.01,
            structure: Structure::Auto,
        }
    }
}

impl WorldSettings {
    /// Two touching shapes stop touching once apart by more than `share`
    /// (above 0, at most 1) of the smaller one's size (half its box's
    /// diagonal), so a resting shape does not flicker.
    pub fn with_margin(mut self, share: f32) -> Result<Self, Error> {
        if !(share > 0.0 && share <= 1.0) {
            return Err(Error::Setting {
                name: "with_margin",
                value: f64::from(share),
                expected: "a share of the smaller shape's size above 0 and at most 1",
            });
        }
        self.margin = share;
        Ok(self)
    }

    /// The broad-phase structure underneath.
    pub fn with_structure(mut self, structure: Structure) -> Self {
        self.structure = structure;
        self
    }

    /// The contact margin, a share of the smaller shape's size.
    pub fn margin(&self) -> f32 {
        self.margin
    }
}

/// Where a ray first enters a collider.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldRayHit<V: Space> {
    /// The collider.
    pub handle: Handle,
    /// Where the ray enters, in lengths of its direction (0 when it starts
    /// inside).
    pub t: f32,
    /// The entry point.
    pub point: V,
    /// The shape's outward normal there (against the ray when it starts
    /// inside).
    pub normal: V,
}

/// A collider in the world.
#[derive(Debug)]
struct Entry<V: Space, T> {
    shape: V::Shape,
    pose: V::Pose,
    last_pose: V::Pose,
    kind: Kind,
    value: T,
    /// Its box in the broad phase.
    proxy: Option<Handle>,
    /// Its size, for the margin.
    reach: f32,
    /// Moved or changed since the last step.
    changed: bool,
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
    colliders: Slots<Entry<V, T>>,
    broad: Box<dyn BroadPhase<V, Handle> + Send>,
    settings: WorldSettings,
    /// Colliders moved or changed since the last step.
    changed: Vec<Handle>,
    /// The pairs touching after the last step, sorted.
    touching: Vec<Touching<V>>,
    /// The next step's touching pairs, built beside the last.
    next: Vec<Touching<V>>,
    /// The broad phase's pairs as collider handles, reused.
    pairs: Vec<(Handle, Handle)>,
    events: Arc<WorldEvents<V>>,
}

impl<V: Space, T> Default for World<V, T> {
    fn default() -> Self {
        Self::with_settings(WorldSettings::default())
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
            broad: settings.structure.build(),
            settings,
            changed: Vec::new(),
            touching: Vec::new(),
            next: Vec::new(),
            pairs: Vec::new(),
            events: Arc::new(WorldEvents::default()),
        }
    }

    /// The box the broad phase keeps: the shape's, grown by its share of
    /// the margin (at least a few units in the last place of where it is),
    /// so two shapes within the margin always pair.
    fn proxy_box(&self, shape: &V::Shape, pose: &V::Pose, reach: f32) -> Result<Aabb<V>, Error> {
        let b = V::aabb(shape, pose);
        let grow = (self.settings.margin * reach).max(8.0 * f32::EPSILON * V::far(pose));
        let (lo, hi) = (b.min(), b.max());
        Ok(Aabb::new(
            V::from_axes(|i| lo.axis(i) - grow),
            V::from_axes(|i| hi.axis(i) + grow),
        )?)
    }

    /// A live collider's entry: a foreign handle is `Foreign`, a removed
    /// one `Stale`.
    fn entry(&self, h: Handle) -> Result<&Entry<V, T>, Error> {
        self.colliders.check(h)?;
        Ok(self.colliders.get(h).ok_or(HandleError::Stale(h))?)
    }

    /// Puts a collider in the world; it pairs from the next step.
    pub fn insert(&mut self, collider: Collider<V, T>) -> Result<Handle, Error> {
        let reach = V::reach(&collider.shape);
        let proxy_box = self.proxy_box(&collider.shape, &collider.pose, reach)?;
        let h = self.colliders.insert(Entry {
            shape: collider.shape,
            pose: collider.pose,
            last_pose: collider.pose,
            kind: collider.kind,
            value: collider.value,
            proxy: None,
            reach,
            changed: true,
        })?;
        match self.broad.insert(proxy_box, h) {
            Ok(proxy) => {
                self.colliders.get_mut(h)?.proxy = Some(proxy);
                self.changed.push(h);
                Ok(h)
            }
            Err(e) => {
                let _ = self.colliders.remove(h);
                Err(e)
            }
        }
    }

    /// Moves a collider (its pose at the last step is kept beside it).
    pub fn set_pose(&mut self, h: Handle, pose: V::Pose) -> Result<(), Error> {
        let e = self.entry(h)?;
        let proxy_box = self.proxy_box(&e.shape, &pose, e.reach)?;
        let proxy = e.proxy.expect("every collider has a box");
        self.broad.update(proxy, proxy_box)?;
        let e = self.colliders.get_mut(h)?;
        e.pose = pose;
        if !e.changed {
            e.changed = true;
            self.changed.push(h);
        }
        Ok(())
    }

    /// Gives a collider another shape.
    pub fn set_shape(&mut self, h: Handle, shape: impl Into<V::Shape>) -> Result<(), Error> {
        let shape = shape.into();
        let e = self.entry(h)?;
        let reach = V::reach(&shape);
        let proxy_box = self.proxy_box(&shape, &e.pose, reach)?;
        self.broad
            .update(e.proxy.expect("every collider has a box"), proxy_box)?;
        let e = self.colliders.get_mut(h)?;
        (e.shape, e.reach) = (shape, reach);
        if !e.changed {
            e.changed = true;
            self.changed.push(h);
        }
        Ok(())
    }

    /// Takes a collider out, returning its value; its touching pairs
    /// report stopped at the next step.
    pub fn remove(&mut self, h: Handle) -> Result<T, Error> {
        self.colliders.check(h)?;
        let e = self.colliders.remove(h)?;
        self.broad
            .remove(e.proxy.expect("every collider has a box"))?;
        Ok(e.value)
    }

    /// A collider's value.
    pub fn value(&self, h: Handle) -> Result<&T, Error> {
        Ok(&self.entry(h)?.value)
    }

    /// A collider's value, to change.
    pub fn value_mut(&mut self, h: Handle) -> Result<&mut T, Error> {
        Ok(&mut self.colliders.get_mut(h)?.value)
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
    pub fn shape(&self, h: Handle) -> Result<&V::Shape, Error> {
        Ok(&self.entry(h)?.shape)
    }

    /// How many colliders it holds.
    pub fn len(&self) -> usize {
        self.colliders.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.colliders.is_empty()
    }

    /// The first collider `ray` enters (ties to the lower handle), as
    /// the shapes' own ray casts find it: a ray that starts inside a shape
    /// hits it at `t` 0 with the normal against the ray. Boxes are tried
    /// in the order the ray enters them, and the search stops at the
    /// first box entered beyond the best hit.
    ///
    /// ```
    /// use collide::geometry::Ray;
    /// use collide::narrow::d2::{Circle, Pose};
    /// use collide::world::{Collider2, World2};
    /// use glam::Vec2;
    /// let mut world = World2::new();
    /// let near = world.insert(Collider2::moving(Circle::new(1.0)?, Pose::at(Vec2::new(5.0, 0.0))?, ()))?;
    /// world.insert(Collider2::moving(Circle::new(1.0)?, Pose::at(Vec2::new(9.0, 0.0))?, ()))?;
    /// let hit = world.cast_ray(&Ray::new(Vec2::ZERO, Vec2::X, 20.0)?).unwrap();
    /// assert_eq!((hit.handle, hit.t), (near, 4.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cast_ray(&self, ray: &Ray<V>) -> Option<WorldRayHit<V>> {
        let mut best: Option<WorldRayHit<V>> = None;
        self.broad
            .query_ray(ray, QueryBudget::default(), &mut |boxed| {
                if best.is_some_and(|b| boxed.t > b.t) {
                    return ControlFlow::Break(());
                }
                let Some(&h) = self.broad.value(boxed.handle) else {
                    return ControlFlow::Continue(());
                };
                let Some(e) = self.colliders.get(h) else {
                    return ControlFlow::Continue(());
                };
                if let Some(hit) = V::cast_ray(&e.shape, ray, &e.pose) {
                    let better = best.is_none_or(|b| hit.t < b.t || (hit.t == b.t && h < b.handle));
                    if better {
                        best = Some(WorldRayHit {
                            handle: h,
                            t: hit.t,
                            point: hit.point,
                            normal: hit.normal,
                        });
                    }
                }
                ControlFlow::Continue(())
            });
        best
    }

    /// The settings.
    pub fn settings(&self) -> &WorldSettings {
        &self.settings
    }

    /// Steps the broad phase and tests its pairs: the pairs that started
    /// and stopped touching, and every pair touching now with its
    /// contact. Two shapes start touching when their distance is 0 or
    /// less, and stop once it exceeds the margin; two static colliders
    /// never pair; a pair neither of whose colliders moved or changed
    /// keeps its last answer.
    pub fn step(&mut self) -> Arc<WorldEvents<V>> {
        self.broad.step();
        self.next.clear();
        let mut pairs = std::mem::take(&mut self.pairs);
        pairs.clear();
        pairs.extend(self.broad.pairs().iter().filter_map(|p| {
            let (a, b) = (*self.broad.value(p.a())?, *self.broad.value(p.b())?);
            Some((a.min(b), a.max(b)))
        }));
        pairs.sort_unstable();
        let mut old = 0;
        for &(a, b) in &pairs {
            let (Some(ea), Some(eb)) = (self.colliders.get(a), self.colliders.get(b)) else {
                continue;
            };
            if ea.kind == Kind::Static && eb.kind == Kind::Static {
                continue;
            }
            while old < self.touching.len() && (self.touching[old].a, self.touching[old].b) < (a, b)
            {
                old += 1;
            }
            let was = self
                .touching
                .get(old)
                .filter(|t| (t.a, t.b) == (a, b))
                .copied();
            if !ea.changed && !eb.changed {
                // Nothing moved: the last answer stands.
                if let Some(t) = was {
                    self.next.push(t);
                }
                continue;
            }
            let contact = V::contact(&ea.shape, &ea.pose, &eb.shape, &eb.pose);
            let margin = self.settings.margin * ea.reach.min(eb.reach);
            if contact.depth >= 0.0 || (was.is_some() && -contact.depth <= margin) {
                self.next.push(Touching { a, b, contact });
            }
        }
        self.pairs = pairs;
        for h in self.changed.drain(..) {
            if let Ok(e) = self.colliders.get_mut(h) {
                e.changed = false;
                e.last_pose = e.pose;
            }
        }
        let events = match Arc::get_mut(&mut self.events) {
            Some(events) => events,
            None => {
                self.events = Arc::new(WorldEvents::default());
                Arc::get_mut(&mut self.events).expect("a new Arc is unique")
            }
        };
        events.started.clear();
        events.stopped.clear();
        diff(
            &self.touching,
            &self.next,
            &mut events.started,
            &mut events.stopped,
        );
        events.touching.clone_from(&self.next);
        std::mem::swap(&mut self.touching, &mut self.next);
        Arc::clone(&self.events)
    }
}

/// The pairs in `now` and not `before` (started) and the other way
/// (stopped), both lists sorted.
fn diff<V: Space>(
    before: &[Touching<V>],
    now: &[Touching<V>],
    started: &mut Vec<(Handle, Handle)>,
    stopped: &mut Vec<(Handle, Handle)>,
) {
    let (mut i, mut j) = (0, 0);
    while i < before.len() || j < now.len() {
        let x = before.get(i).map(|t| (t.a, t.b));
        let y = now.get(j).map(|t| (t.a, t.b));
        match (x, y) {
            (Some(x), Some(y)) if x == y => (i, j) = (i + 1, j + 1),
            (Some(x), Some(y)) if x < y => {
                stopped.push(x);
                i += 1;
            }
            (Some(x), None) => {
                stopped.push(x);
                i += 1;
            }
            (_, Some(y)) => {
                started.push(y);
                j += 1;
            }
            (None, None) => unreachable!("the loop runs while either has pairs"),
        }
    }
}
