//! [`WorldQuery`]: exact queries on a world or its snapshot: ray and shape
//! casts, point and shape overlaps, the closest point. Each reads the
//! broad phase for candidates and the narrow phase for the answer, and
//! sees only the colliders its [`QueryFilter`] lets through.

use super::collider_shape::ColliderShape;
use super::filter::QueryFilter;
use super::space::Space;
use crate::broad::Filter;
use crate::broad::QueryBudget;
use crate::geometry::{Aabb, Ray};
use crate::narrow::Contact;
use crate::narrow::error::finite;
use crate::{Error, Handle};
use std::ops::ControlFlow;

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
    /// The shape's outward normal there; for a ray that starts inside,
    /// the ray's reversed direction.
    pub normal: V,
    /// The part it enters (0 for a convex collider; a mesh's element, a
    /// compound's part).
    pub part: u32,
}

/// When a cast shape first touches a collider.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldShapeHit<V: Space> {
    /// The collider.
    pub handle: Handle,
    /// The share of the motion done at the first touch, in `[0, 1]`; 0
    /// when the shape starts overlapping it.
    pub t: f32,
    /// The contact then, the normal from the cast shape toward the
    /// collider (for a start overlapping, the depth and the direction to
    /// push the collider out).
    pub contact: Contact<V>,
    /// The collider's part it touches (0 for a convex collider).
    pub part: u32,
}

/// The point of the world nearest a point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldClosest<V: Space> {
    /// The collider it lies on.
    pub handle: Handle,
    /// The nearest point of that collider (the query point itself when it
    /// lies inside).
    pub point: V,
    /// Its distance from the query point (0 inside).
    pub distance: f32,
    /// The part it lies on (0 for a convex collider).
    pub part: u32,
}

pub(crate) mod sealed {
    use super::{ColliderShape, Filter, Handle, Space};
    use crate::Query;

    /// A collider as a query reads it.
    pub struct View<'a, V: Space, T> {
        pub handle: Handle,
        pub shape: &'a ColliderShape<V>,
        pub pose: &'a V::Pose,
        pub filter: Filter,
        pub sensor: bool,
        pub value: &'a T,
    }

    /// What the queries read: the colliders' boxes by collider handle
    /// ([`Query`]) and each collider. The world and its snapshot give it;
    /// no one else can.
    pub trait Lookup<V: Space, T>: Query<V> {
        /// The collider `handle`, if live.
        fn view(&self, handle: Handle) -> Option<View<'_, V, T>>;
    }
}

use super::seen::Seen;
use sealed::{Lookup, View};

/// Each collider whose box overlaps `aabb`, until `visit` breaks.
fn boxes<'s, V: Space, T: 's, L: Lookup<V, T> + ?Sized>(
    world: &'s L,
    aabb: &Aabb<V>,
    mut visit: impl FnMut(View<'s, V, T>) -> ControlFlow<()>,
) {
    let _ = world.query_aabb(aabb, &mut |h| match world.view(h) {
        Some(c) => visit(c),
        None => ControlFlow::Continue(()),
    });
}

/// Each collider whose box `ray` enters, in the order it enters them
/// (with where), until `visit` breaks.
fn boxes_along<'s, V: Space, T: 's, L: Lookup<V, T> + ?Sized>(
    world: &'s L,
    ray: &Ray<V>,
    mut visit: impl FnMut(f32, View<'s, V, T>) -> ControlFlow<()>,
) {
    world.query_ray(
        ray,
        QueryBudget::default(),
        &mut |hit| match world.view(hit.handle) {
            Some(c) => visit(hit.t, c),
            None => ControlFlow::Continue(()),
        },
    );
}

/// The exact queries, the same on a [`World`](super::World) and on a
/// [`WorldSnapshot`](super::WorldSnapshot). Every query sees the colliders
/// as they are now (moves since the last step included) and only those
/// its [`QueryFilter`] lets through; ties go to the lower handle.
pub trait WorldQuery<V: Space, T>: Lookup<V, T> {
    /// The first collider `ray` enters, as the shapes' own ray casts find
    /// it: a ray that starts inside a shape hits it at `t` 0 with the
    /// ray's reversed direction as the normal. Boxes entered beyond the
    /// best hit so far are never tried
    /// ([`Query::query_ray_first`](crate::Query::query_ray_first)).
    ///
    /// ```
    /// use collide::geometry::Ray;
    /// use collide::narrow::d2::{Circle, Pose};
    /// use collide::world::{Collider2, QueryFilter, World2, WorldQuery};
    /// use glam::Vec2;
    /// let mut world = World2::new();
    /// let near = world.insert(Collider2::moving(Circle::new(1.0)?, Pose::at(Vec2::new(5.0, 0.0))?, ()))?;
    /// world.insert(Collider2::moving(Circle::new(1.0)?, Pose::at(Vec2::new(9.0, 0.0))?, ()))?;
    /// let ray = Ray::new(Vec2::ZERO, Vec2::X, 20.0)?;
    /// let hit = world.cast_ray(&ray, &QueryFilter::new()).unwrap();
    /// assert_eq!((hit.handle, hit.t), (near, 4.0));
    /// let skip = [near];
    /// assert_eq!(world.cast_ray(&ray, &QueryFilter::new().excluding(&skip)).unwrap().t, 8.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn cast_ray(&self, ray: &Ray<V>, filter: &QueryFilter<'_, T>) -> Option<WorldRayHit<V>> {
        let mut best: Option<WorldRayHit<V>> = None;
        self.query_ray_first(ray, &mut |h, _| {
            let hit = ray_hit(ray, filter, &self.view(h)?)?;
            if best.is_none_or(|b| (hit.t, hit.handle) < (b.t, b.handle)) {
                best = Some(hit);
            }
            Some(hit.t)
        });
        best
    }

    /// Every collider `ray` enters, to `visit` until it breaks: in the
    /// order the ray enters their boxes, which is not always the order of
    /// the hits' `t`.
    ///
    /// ```
    /// use collide::geometry::Ray;
    /// use collide::narrow::d3::{Pose, Sphere};
    /// use collide::world::{Collider3, QueryFilter, World3, WorldQuery};
    /// use glam::Vec3;
    /// use std::ops::ControlFlow;
    /// let mut world = World3::new();
    /// for x in [3.0, 6.0, 9.0] {
    ///     world.insert(Collider3::moving(Sphere::new(1.0)?, Pose::at(Vec3::new(x, 0.0, 0.0))?, ()))?;
    /// }
    /// let mut pierced = 0;
    /// world.cast_ray_each(&Ray::new(Vec3::ZERO, Vec3::X, 7.0)?, &QueryFilter::new(), |_| {
    ///     pierced += 1;
    ///     ControlFlow::Continue(())
    /// });
    /// assert_eq!(pierced, 2); // the third begins at 8
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn cast_ray_each(
        &self,
        ray: &Ray<V>,
        filter: &QueryFilter<'_, T>,
        mut visit: impl FnMut(WorldRayHit<V>) -> ControlFlow<()>,
    ) {
        boxes_along(self, ray, |_, c| match ray_hit(ray, filter, &c) {
            Some(hit) => visit(hit),
            None => ControlFlow::Continue(()),
        });
    }

    /// The first collider `shape`, at `pose` and moving by `motion`
    /// (straight, not turning), touches; `t` is the share of the motion
    /// done then. A shape that starts overlapping a collider (depth above
    /// 0) hits it at `t` 0 with the contact's normal and depth, whatever
    /// the motion; one that starts just touching goes on as
    /// [`ShapeCast`](crate::narrow::ShapeCast) describes (it hits at 0
    /// only when the motion presses in). An error for a non-finite motion.
    ///
    /// ```
    /// use collide::narrow::d2::{Circle, Cuboid, Pose};
    /// use collide::world::{Collider2, QueryFilter, World2, WorldQuery};
    /// use glam::Vec2;
    /// let mut world = World2::new();
    /// let wall = world.insert(Collider2::fixed(Cuboid::new(Vec2::new(0.5, 5.0))?, Pose::at(Vec2::new(10.0, 0.0))?, ()))?;
    /// let ball = Circle::new(0.5)?.into();
    /// let hit = world.cast_shape(&ball, &Pose::IDENTITY, Vec2::new(20.0, 0.0), &QueryFilter::new())?.unwrap();
    /// assert_eq!(hit.handle, wall);
    /// assert!((hit.t - 0.45).abs() < 1e-5); // 9 of 20 units
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn cast_shape(
        &self,
        shape: &V::Shape,
        pose: &V::Pose,
        motion: V,
        filter: &QueryFilter<'_, T>,
    ) -> Result<Option<WorldShapeHit<V>>, Error> {
        for i in 0..V::DIM {
            finite("motion", motion.axis(i))?;
        }
        // The swept box, grown by what the casts count as touching (a
        // hundred-thousandth of the motion or of the smaller shape).
        let start = V::aabb(shape, pose);
        let length = (0..V::DIM)
            .map(|i| motion.axis(i) * motion.axis(i))
            .sum::<f32>()
            .sqrt();
        let grow = 2e-5 * length.max(V::reach(shape));
        let swept = Aabb::new(
            V::from_axes(|i| start.min().axis(i) + motion.axis(i).min(0.0) - grow),
            V::from_axes(|i| start.max().axis(i) + motion.axis(i).max(0.0) + grow),
        )?;
        let mut best: Option<WorldShapeHit<V>> = None;
        boxes(self, &swept, |c| {
            if !filter.sees(c.handle, &c.filter, c.sensor, c.value) {
                return ControlFlow::Continue(());
            }
            c.shape.visit_near(c.pose, &swept, |part, s, p| {
                let now = V::contact(shape, pose, s, p);
                let hit = if now.depth > 0.0 {
                    Some((0.0, now))
                } else {
                    V::cast_shape(shape, pose, motion, s, p).map(|h| (h.t, h.contact))
                };
                if let Some((t, contact)) = hit {
                    let better = best.is_none_or(|b| (t, c.handle, part) < (b.t, b.handle, b.part));
                    if better {
                        best = Some(WorldShapeHit {
                            handle: c.handle,
                            t,
                            contact,
                            part,
                        });
                    }
                }
                ControlFlow::Continue(())
            })
        });
        Ok(best)
    }

    /// Each collider that holds `point` (its boundary included), to
    /// `visit` until it breaks, in no set order. An error for a
    /// non-finite point.
    fn overlap_point(
        &self,
        point: V,
        filter: &QueryFilter<'_, T>,
        visit: impl FnMut(Handle) -> ControlFlow<()>,
    ) -> Result<(), Error> {
        self.overlap_shape(&V::dot(), &V::at(point)?, filter, visit);
        Ok(())
    }

    /// The colliders that hold `point`, in handle order.
    ///
    /// ```
    /// use collide::narrow::d2::{Circle, Cuboid, Pose};
    /// use collide::world::{Collider2, QueryFilter, World2, WorldQuery};
    /// use glam::Vec2;
    /// let mut world = World2::new();
    /// let room = world.insert(Collider2::fixed(Cuboid::new(Vec2::splat(5.0))?, Pose::IDENTITY, ()))?;
    /// let zone = world.insert(Collider2::fixed(Circle::new(1.0)?, Pose::IDENTITY, ()).as_sensor())?;
    /// let inside = world.overlap_point_all(Vec2::new(0.5, 0.0), &QueryFilter::new().with_sensors())?;
    /// assert_eq!(inside, [room, zone]);
    /// assert_eq!(world.overlap_point_all(Vec2::new(0.5, 0.0), &QueryFilter::new())?, [room]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn overlap_point_all(
        &self,
        point: V,
        filter: &QueryFilter<'_, T>,
    ) -> Result<Vec<Handle>, Error> {
        let mut out = Vec::new();
        self.overlap_point(point, filter, |h| {
            out.push(h);
            ControlFlow::Continue(())
        })?;
        out.sort_unstable();
        Ok(out)
    }

    /// Each collider that `shape` at `pose` touches or overlaps (distance
    /// 0 or less), to `visit` until it breaks, in no set order.
    fn overlap_shape(
        &self,
        shape: &V::Shape,
        pose: &V::Pose,
        filter: &QueryFilter<'_, T>,
        mut visit: impl FnMut(Handle) -> ControlFlow<()>,
    ) {
        boxes(self, &V::aabb(shape, pose), |c| {
            let near = V::aabb(shape, pose);
            let touches = filter.sees(c.handle, &c.filter, c.sensor, c.value)
                && c.shape
                    .visit_near(c.pose, &near, |_, s, p| {
                        if V::contact(shape, pose, s, p).depth >= 0.0 {
                            ControlFlow::Break(())
                        } else {
                            ControlFlow::Continue(())
                        }
                    })
                    .is_break();
            if touches {
                return visit(c.handle);
            }
            ControlFlow::Continue(())
        });
    }

    /// The colliders that `shape` at `pose` touches or overlaps, in handle
    /// order.
    ///
    /// ```
    /// use collide::narrow::d3::{Cuboid, Pose, Sphere};
    /// use collide::world::{Collider3, QueryFilter, World3, WorldQuery};
    /// use glam::Vec3;
    /// let mut world = World3::new();
    /// let crate_ = world.insert(Collider3::fixed(Cuboid::new(Vec3::splat(0.5))?, Pose::at(Vec3::new(2.0, 0.0, 0.0))?, ()))?;
    /// let blast = Sphere::new(1.6)?.into();
    /// assert_eq!(world.overlap_shape_all(&blast, &Pose::IDENTITY, &QueryFilter::new()), [crate_]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn overlap_shape_all(
        &self,
        shape: &V::Shape,
        pose: &V::Pose,
        filter: &QueryFilter<'_, T>,
    ) -> Vec<Handle> {
        let mut out = Vec::new();
        self.overlap_shape(shape, pose, filter, |h| {
            out.push(h);
            ControlFlow::Continue(())
        });
        out.sort_unstable();
        out
    }

    /// The point of the world nearest `point`, within `max_distance`
    /// (finite, 0 or more); ties go to the lower handle. A point inside a
    /// collider is its own nearest point, at distance 0. An error for a
    /// non-finite point or a bad distance.
    ///
    /// ```
    /// use collide::narrow::d2::{Cuboid, Pose};
    /// use collide::world::{Collider2, QueryFilter, World2, WorldQuery};
    /// use glam::Vec2;
    /// let mut world = World2::new();
    /// let wall = world.insert(Collider2::fixed(Cuboid::new(Vec2::new(0.5, 5.0))?, Pose::at(Vec2::new(3.0, 0.0))?, ()))?;
    /// let near = world.closest_point(Vec2::ZERO, 10.0, &QueryFilter::new())?.unwrap();
    /// assert_eq!(near.handle, wall);
    /// assert!((near.distance - 2.5).abs() < 1e-5 && (near.point - Vec2::new(2.5, 0.0)).length() < 1e-5);
    /// assert!(world.closest_point(Vec2::ZERO, 2.0, &QueryFilter::new())?.is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn closest_point(
        &self,
        point: V,
        max_distance: f32,
        filter: &QueryFilter<'_, T>,
    ) -> Result<Option<WorldClosest<V>>, Error> {
        if !(max_distance.is_finite() && max_distance >= 0.0) {
            return Err(Error::Setting {
                name: "max_distance",
                value: f64::from(max_distance),
                expected: "a finite distance of 0 or more",
            });
        }
        V::at(point)?;
        let around = Aabb::new(
            V::from_axes(|i| point.axis(i) - max_distance),
            V::from_axes(|i| point.axis(i) + max_distance),
        )?;
        let mut best: Option<WorldClosest<V>> = None;
        boxes(self, &around, |c| {
            if !filter.sees(c.handle, &c.filter, c.sensor, c.value) {
                return ControlFlow::Continue(());
            }
            let Some((near, distance, part)) = c.shape.closest(c.pose, point, max_distance) else {
                return ControlFlow::Continue(());
            };
            let better = best.is_none_or(|b| {
                distance < b.distance || (distance == b.distance && c.handle < b.handle)
            });
            if better {
                best = Some(WorldClosest {
                    handle: c.handle,
                    point: near,
                    distance,
                    part,
                });
            }
            ControlFlow::Continue(())
        });
        Ok(best)
    }

    /// The world as `filter` sees it, for motion: a sweep through it
    /// ([`Sweeper::sweep_in`](crate::motion::d3::Sweeper::sweep_in))
    /// meets only the colliders the filter lets through. See [`Seen`].
    fn seen<'a>(&'a self, filter: QueryFilter<'a, T>) -> Seen<'a, Self, T>
    where
        Self: Sized,
    {
        Seen::new(self, filter)
    }
}

impl<V: Space, T, L: Lookup<V, T>> WorldQuery<V, T> for L {}

/// `c`'s ray hit, if the filter sees it and the ray enters it.
fn ray_hit<V: Space, T>(
    ray: &Ray<V>,
    filter: &QueryFilter<'_, T>,
    c: &View<'_, V, T>,
) -> Option<WorldRayHit<V>> {
    if !filter.sees(c.handle, &c.filter, c.sensor, c.value) {
        return None;
    }
    c.shape
        .cast_ray(ray, c.pose)
        .map(|(hit, part)| WorldRayHit {
            handle: c.handle,
            t: hit.t,
            point: hit.point,
            normal: hit.normal,
            part,
        })
}
