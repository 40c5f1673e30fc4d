//! [`ColliderShape`]: what a collider is made of: one convex shape, a
//! [`Compound`] of convex parts, or a [`Mesh`] of triangles (segments in
//! 2D). Every answer about a collider goes through its parts: a convex
//! shape is one part, numbered 0; the others reach theirs through their
//! trees, so only the parts near a query are tested.

use super::compound::Compound;
use super::mesh::Mesh;
use super::space::Space;
use crate::geometry::box_tree::{BoxTree, box_distance};
use crate::geometry::{Aabb, Ray, Vector};
use crate::narrow::{RayCast, d2, d3};
use glam::{Vec2, Vec3};
use std::borrow::Cow;
use std::ops::ControlFlow;
use std::sync::Arc;

/// A collider's shape: convex, or made of convex parts.
///
/// ```
/// use collide::narrow::d3::{Pose, Sphere};
/// use collide::world::{ColliderShape, Mesh3};
/// use glam::Vec3;
/// let ball: ColliderShape<Vec3> = Sphere::new(0.5)?.into();
/// assert_eq!(ball.part_count(), 1);
/// let ramp = Mesh3::new(&[Vec3::ZERO, Vec3::new(0.0, 1.0, 4.0), Vec3::new(4.0, 0.0, 0.0)], &[[0, 1, 2]])?;
/// let ramp: ColliderShape<Vec3> = ramp.into();
/// assert!((ramp.aabb(&Pose::IDENTITY).max() - Vec3::new(4.0, 1.0, 4.0)).length() < 1e-6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum ColliderShape<V: Space> {
    /// One convex shape: part 0.
    Convex(V::Shape),
    /// Convex parts with their own poses, shared.
    Compound(Arc<Compound<V>>),
    /// Triangles (segments in 2D) over shared vertices, shared.
    Mesh(Arc<Mesh<V>>),
}

impl<V: Space> From<Compound<V>> for ColliderShape<V> {
    fn from(c: Compound<V>) -> Self {
        Self::Compound(Arc::new(c))
    }
}

impl<V: Space> From<Arc<Compound<V>>> for ColliderShape<V> {
    fn from(c: Arc<Compound<V>>) -> Self {
        Self::Compound(c)
    }
}

impl<V: Space> From<Mesh<V>> for ColliderShape<V> {
    fn from(m: Mesh<V>) -> Self {
        Self::Mesh(Arc::new(m))
    }
}

impl<V: Space> From<Arc<Mesh<V>>> for ColliderShape<V> {
    fn from(m: Arc<Mesh<V>>) -> Self {
        Self::Mesh(m)
    }
}

/// `From` each convex kind of a dimension.
macro_rules! convex_from {
    ($v:ty, $($kind:ty),*) => {
        $(
            impl From<$kind> for ColliderShape<$v> {
                fn from(s: $kind) -> Self {
                    Self::Convex(s.into())
                }
            }
        )*
    };
}

convex_from!(
    Vec2,
    d2::Shape,
    d2::Circle,
    d2::Cuboid,
    d2::Capsule,
    d2::Polygon
);
convex_from!(
    Vec3,
    d3::Shape,
    d3::Sphere,
    d3::Cuboid,
    d3::Capsule,
    d3::Polyhedron,
    d3::Triangle
);

/// The box around `aabb` moved into another frame: `place` takes a point
/// there and `turn` a direction. The centre is placed and the half sizes
/// summed over the turned axes (the same box as the turned corners', for
/// a turn of 1 + `V::DIM` vectors rather than `2^DIM` points), padded by
/// `pad` of its coordinates (a query box padded so that rounding never
/// leaves a part out).
fn turned_box<V: Vector>(
    aabb: &Aabb<V>,
    place: impl Fn(V) -> V,
    turn: impl Fn(V) -> V,
    pad: f32,
) -> Aabb<V> {
    let (lo, hi) = (aabb.min(), aabb.max());
    let centre = place(V::from_axes(|k| 0.5 * (lo.axis(k) + hi.axis(k))));
    let mut half = [0.0f32; 3];
    for j in 0..V::DIM {
        let h = 0.5 * (hi.axis(j) - lo.axis(j));
        let axis = turn(V::from_axes(|k| if k == j { 1.0 } else { 0.0 }));
        for (k, sum) in half.iter_mut().enumerate().take(V::DIM) {
            *sum += axis.axis(k).abs() * h;
        }
    }
    let reach = |k: usize| {
        let (c, h) = (centre.axis(k), half[k]);
        h + pad * (c.abs() + h)
    };
    Aabb::new(
        V::from_axes(|k| centre.axis(k) - reach(k)),
        V::from_axes(|k| centre.axis(k) + reach(k)),
    )
    .expect("a finite box turned stays finite")
}

impl<V: Space> ColliderShape<V> {
    /// Its bounding box at `pose` (for parts, the box around its tree's
    /// root box turned by the pose).
    pub fn aabb(&self, pose: &V::Pose) -> Aabb<V> {
        match self {
            Self::Convex(s) => V::aabb(s, pose),
            _ => {
                let tree = self.tree().expect("parts have a tree");
                turned_box(
                    &tree.root(),
                    |p| V::apply(pose, p),
                    |d| V::rotate(pose, d),
                    0.0,
                )
            }
        }
    }

    /// How many parts it has (1 for a convex shape).
    pub fn part_count(&self) -> usize {
        match self {
            Self::Convex(_) => 1,
            Self::Compound(c) => c.len(),
            Self::Mesh(m) => m.len(),
        }
    }

    /// Part `i` and its pose in the collider's frame.
    pub fn part(&self, i: u32) -> Option<(V::Shape, V::Pose)> {
        let identity = || V::at(V::from_axes(|_| 0.0)).expect("the origin is finite");
        match self {
            Self::Convex(s) => (i == 0).then(|| (s.clone(), identity())),
            Self::Compound(c) => c.parts().get(i as usize).cloned(),
            Self::Mesh(m) => Some((m.element(i as usize)?, identity())),
        }
    }

    /// Whether it is one convex shape.
    pub(crate) fn is_convex(&self) -> bool {
        matches!(self, Self::Convex(_))
    }

    /// Whether it is a mesh (level geometry, never swept).
    pub(crate) fn is_mesh(&self) -> bool {
        matches!(self, Self::Mesh(_))
    }

    /// The tree over its parts, if it has parts.
    fn tree(&self) -> Option<&BoxTree<V>> {
        match self {
            Self::Convex(_) => None,
            Self::Compound(c) => Some(c.tree()),
            Self::Mesh(m) => Some(m.tree()),
        }
    }

    /// Half the diagonal of its box in its own frame: the size the
    /// contact margin is relative to.
    pub(crate) fn reach(&self) -> f32 {
        match self {
            Self::Convex(s) => V::reach(s),
            _ => {
                let b = self.tree().expect("parts have a tree").root();
                let d = V::from_axes(|k| b.max().axis(k) - b.min().axis(k));
                0.5 * (0..V::DIM)
                    .map(|k| d.axis(k) * d.axis(k))
                    .sum::<f32>()
                    .sqrt()
            }
        }
    }

    /// Part `i` placed in the world with the collider at `pose`.
    pub(crate) fn part_at(&self, i: u32, pose: &V::Pose) -> Option<(Cow<'_, V::Shape>, V::Pose)> {
        match self {
            Self::Convex(s) => (i == 0).then_some((Cow::Borrowed(s), *pose)),
            Self::Compound(c) => {
                let (s, local) = c.parts().get(i as usize)?;
                Some((Cow::Borrowed(s), V::compose(pose, local).ok()?))
            }
            Self::Mesh(m) => Some((Cow::Owned(m.element(i as usize)?), *pose)),
        }
    }

    /// Each part whose box (placed with the collider at `pose`) may meet
    /// `near` (world), with its shape and world pose, until `visit`
    /// breaks.
    pub(crate) fn visit_near(
        &self,
        pose: &V::Pose,
        near: &Aabb<V>,
        mut visit: impl FnMut(u32, &V::Shape, &V::Pose) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.visit_near_parts(pose, near, |i| match self.part_at(i, pose) {
            Some((s, p)) => visit(i, &s, &p),
            None => ControlFlow::Continue(()),
        })
    }

    /// The number of each part [`ColliderShape::visit_near`] would visit,
    /// in the same order, its shape not made.
    pub(crate) fn visit_near_parts(
        &self,
        pose: &V::Pose,
        near: &Aabb<V>,
        mut visit: impl FnMut(u32) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let Some(tree) = self.tree() else {
            return visit(0);
        };
        let local = turned_box(
            near,
            |p| V::apply_inverse(pose, p),
            |d| V::unrotate(pose, d),
            1e-6,
        );
        tree.visit_aabb(&local, visit)
    }

    /// Where `ray` first enters it at `pose`, and the part it enters.
    pub(crate) fn cast_ray(&self, ray: &Ray<V>, pose: &V::Pose) -> Option<(RayCast<V>, u32)> {
        let Some(tree) = self.tree() else {
            let Self::Convex(s) = self else {
                unreachable!("only a convex shape has no tree")
            };
            return V::cast_ray(s, ray, pose).map(|hit| (hit, 0));
        };
        let local = Ray::new(
            V::apply_inverse(pose, ray.origin()),
            V::unrotate(pose, ray.direction()),
            ray.max_t(),
        )
        .ok()?;
        let mesh_ray = V::local_ray(ray, pose);
        let hit_of = |i: u32| match self {
            Self::Mesh(m) => m.cast_ray_local(i as usize, ray, &mesh_ray, pose),
            _ => {
                let (s, p) = self.part_at(i, pose)?;
                V::cast_ray(&s, ray, &p)
            }
        };
        let (_, part) = tree.cast_ray(&local, |i| hit_of(i).map(|h| h.t))?;
        Some((hit_of(part)?, part))
    }

    /// Its point nearest `point` within `max` with the collider at
    /// `pose`: the point (the query point itself inside), its distance,
    /// and the part; ties go to the lower part.
    pub(crate) fn closest(&self, pose: &V::Pose, point: V, max: f32) -> Option<(V, f32, u32)> {
        let at = V::at(point).ok()?;
        let dot = V::dot();
        let answer = |i: u32| -> Option<(V, f32)> {
            let (s, p) = self.part_at(i, pose)?;
            let c = V::contact(&s, &p, &dot, &at);
            Some(if c.depth >= 0.0 {
                (point, 0.0)
            } else {
                (c.point_a, -c.depth)
            })
        };
        let (distance, part) = match self.tree() {
            None => (answer(0)?.1, 0),
            Some(tree) => {
                let local = V::apply_inverse(pose, point);
                tree.nearest(
                    max,
                    |b| box_distance(b, local),
                    |i| answer(i).map_or(f32::INFINITY, |a| a.1),
                )?
            }
        };
        let (near, _) = answer(part)?;
        (distance <= max).then_some((near, distance, part))
    }
}
