//! [`WorldSnapshot`]: the world frozen for readers on other threads, and
//! the world's own reading of itself for queries.

use super::collider_shape::ColliderShape;
use super::query::sealed::{Lookup, View};
use super::space::Space;
use super::world::World;
use crate::broad::Filter;
use crate::broad::Snapshot;
use crate::{Handle, Query};
use std::sync::Arc;

/// A collider as a snapshot keeps it.
#[derive(Debug)]
struct Frozen<V: Space, T> {
    handle: Handle,
    /// Its box in the snapshot's broad phase.
    proxy: Handle,
    shape: ColliderShape<V>,
    pose: V::Pose,
    filter: Filter,
    sensor: bool,
    value: T,
}

/// The world as it was when taken, for queries on other threads while
/// the world moves on: every [`WorldQuery`](super::WorldQuery) answers as
/// on the world then. Cloning one shares it; taking one copies the broad
/// phase's query arrays, the poses and the values, and shares the shapes'
/// points.
///
/// ```
/// use collide::geometry::Ray;
/// use collide::narrow::d2::{Circle, Pose};
/// use collide::world::{Collider2, QueryFilter, World2, WorldQuery};
/// use glam::Vec2;
/// let mut world = World2::new();
/// let target = world.insert(Collider2::moving(Circle::new(1.0)?, Pose::at(Vec2::new(5.0, 0.0))?, "target"))?;
/// let snapshot = world.snapshot();
/// world.remove(target)?; // the world moves on
/// let ai = std::thread::spawn(move || {
///     let ray = Ray::new(Vec2::ZERO, Vec2::X, 10.0).unwrap();
///     snapshot.cast_ray(&ray, &QueryFilter::new()).map(|hit| hit.handle)
/// });
/// assert_eq!(ai.join().unwrap(), Some(target)); // as it was
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct WorldSnapshot<V: Space, T> {
    broad: Snapshot<V>,
    colliders: Arc<Colliders<V, T>>,
}

/// The colliders of a snapshot.
#[derive(Debug)]
struct Colliders<V: Space, T> {
    /// By collider index.
    frozen: Vec<Option<Frozen<V, T>>>,
    /// The collider of each broad-phase box, by the box's index.
    of_proxy: Vec<Option<(Handle, Handle)>>,
}

impl<V: Space, T> Clone for WorldSnapshot<V, T> {
    fn clone(&self) -> Self {
        Self {
            broad: self.broad.clone(),
            colliders: Arc::clone(&self.colliders),
        }
    }
}

/// `list[i] = value`, growing `list` with `None`s as needed.
fn put<X>(list: &mut Vec<Option<X>>, i: u32, value: X) {
    let i = i as usize;
    if list.len() <= i {
        list.resize_with(i + 1, || None);
    }
    list[i] = Some(value);
}

impl<V: Space, T> std::fmt::Debug for WorldSnapshot<V, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorldSnapshot")
            .field("structure", &self.broad.name())
            .field("colliders", &self.len())
            .finish_non_exhaustive()
    }
}

impl<V: Space, T> WorldSnapshot<V, T> {
    /// How many colliders it holds.
    pub fn len(&self) -> usize {
        self.broad.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.broad.is_empty()
    }

    /// A collider as it was, or `None` for a handle it did not hold.
    fn collider(&self, h: Handle) -> Option<&Frozen<V, T>> {
        self.colliders
            .frozen
            .get(h.index() as usize)?
            .as_ref()
            .filter(|c| c.handle == h)
    }

    /// A collider's value as it was, or `None` for a handle it did not
    /// hold.
    pub fn value(&self, h: Handle) -> Option<&T> {
        self.collider(h).map(|c| &c.value)
    }

    /// A collider's pose as it was.
    pub fn pose(&self, h: Handle) -> Option<V::Pose> {
        self.collider(h).map(|c| c.pose)
    }

    /// A collider's shape.
    pub fn shape(&self, h: Handle) -> Option<&ColliderShape<V>> {
        self.collider(h).map(|c| &c.shape)
    }

    /// The handle of the collider behind a broad-phase box.
    pub(super) fn handle_of(&self, proxy: Handle) -> Option<Handle> {
        let &(p, h) = self
            .colliders
            .of_proxy
            .get(proxy.index() as usize)?
            .as_ref()?;
        (p == proxy).then_some(h)
    }

    /// A collider's box in the broad phase.
    pub(super) fn proxy_of(&self, h: Handle) -> Option<Handle> {
        self.collider(h).map(|c| c.proxy)
    }

    /// The broad phase as it was.
    pub(super) fn broad(&self) -> &Snapshot<V> {
        &self.broad
    }
}

impl<V: Space, T: Clone> World<V, T> {
    /// The world as it is now, to query from other threads.
    pub fn snapshot(&self) -> WorldSnapshot<V, T> {
        let mut colliders = Colliders {
            frozen: Vec::with_capacity(self.values.len()),
            of_proxy: Vec::with_capacity(self.colliders.len()),
        };
        for (h, e) in self.colliders.iter() {
            put(&mut colliders.of_proxy, e.proxy().index(), (e.proxy(), h));
            let frozen = Frozen {
                handle: h,
                proxy: e.proxy(),
                shape: e.shape.clone(),
                pose: e.pose,
                filter: e.filter,
                sensor: e.sensor,
                value: self.values[h.index() as usize]
                    .clone()
                    .expect("a live collider has a value"),
            };
            put(&mut colliders.frozen, h.index(), frozen);
        }
        WorldSnapshot {
            broad: self.broad.snapshot(),
            colliders: Arc::new(colliders),
        }
    }
}

impl<V: Space, T> Lookup<V, T> for WorldSnapshot<V, T> {
    fn view(&self, handle: Handle) -> Option<View<'_, V, T>> {
        let c = self.collider(handle)?;
        Some(View {
            handle: c.handle,
            shape: &c.shape,
            pose: &c.pose,
            filter: c.filter,
            sensor: c.sensor,
            value: &c.value,
        })
    }
}

impl<V: Space, T> Lookup<V, T> for World<V, T> {
    fn view(&self, handle: Handle) -> Option<View<'_, V, T>> {
        let e = self.colliders.get(handle)?;
        Some(View {
            handle,
            shape: &e.shape,
            pose: &e.pose,
            filter: e.filter,
            sensor: e.sensor,
            value: self.values[handle.index() as usize].as_ref()?,
        })
    }
}
