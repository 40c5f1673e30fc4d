//! Casts in 3D: rays against spheres, boxes and capsules in closed form
//! (or, for any shape, by the GJK ray cast), and shapes moving against
//! shapes.

use super::pose::Pose;
use super::shapes::{Capsule, Cuboid, Sphere};
use crate::geometry::Ray;
use crate::narrow::cast::{RayCast, ShapeCast};
use crate::narrow::general;
use crate::narrow::ray as rays;
use crate::narrow::support::Support;
use glam::{DVec3, Vec3};

/// A ray against a sphere: the nearer root of the sphere's quadratic (a
/// grazing ray, one root, misses).
///
/// ```
/// use collide::geometry::Ray;
/// use collide::narrow::d3::{Pose, Sphere, cast_ray_sphere};
/// use glam::Vec3;
/// let ball = Sphere::new(1.0)?;
/// let ray = Ray::new(Vec3::new(0.0, 0.0, -5.0), Vec3::Z, 10.0).unwrap();
/// let hit = cast_ray_sphere(&ray, &ball, &Pose::IDENTITY).unwrap();
/// assert_eq!((hit.t, hit.normal), (4.0, -Vec3::Z));
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn cast_ray_sphere(ray: &Ray<Vec3>, sphere: &Sphere, pose: &Pose) -> Option<RayCast<Vec3>> {
    ball_entry(ray, pose.position.as_dvec3(), f64::from(sphere.radius))
}

/// The entry of a ray into the ball at `centre` (f64 so a far origin keeps
/// its digits): the nearer root of the quadratic; a grazing ray misses, a
/// ray starting inside enters at 0. In glam's `DVec3`: a version generic
/// over the dimension on f64 arrays was clearly slower (figures:
/// BENCHMARKS.md).
fn ball_entry(ray: &Ray<Vec3>, centre: DVec3, radius: f64) -> Option<RayCast<Vec3>> {
    let (o, d) = (ray.origin().as_dvec3(), ray.direction().as_dvec3());
    let m = o - centre;
    let c = m.length_squared() - radius * radius;
    if c < 0.0 {
        return Some(rays::started_inside(ray));
    }
    let a = d.length_squared();
    if a == 0.0 {
        return None;
    }
    let b = m.dot(d);
    let disc = b * b - a * c;
    if disc <= 0.0 {
        return None;
    }
    let t = ((-b - disc.sqrt()) / a) as f32;
    if !(t >= 0.0 && t <= ray.max_t()) {
        return None;
    }
    let point = ray.at(t);
    let normal = ((o + d * f64::from(t)) - centre)
        .normalize_or_zero()
        .as_vec3();
    Some(RayCast { t, normal, point })
}

/// A ray against a box: the slabs of its three axes in its own frame. A
/// ray along a face misses; a flat box (a half extent of 0) is hit by a
/// ray crossing it (the general cast answers).
///
/// ```
/// use collide::geometry::Ray;
/// use collide::narrow::d3::{Cuboid, Pose, cast_ray_cuboid};
/// use glam::Vec3;
/// let crate_box = Cuboid::new(Vec3::ONE)?;
/// let ray = Ray::new(Vec3::new(0.5, 5.0, 0.0), -Vec3::Y, 10.0).unwrap();
/// let hit = cast_ray_cuboid(&ray, &crate_box, &Pose::IDENTITY).unwrap();
/// assert_eq!((hit.t, hit.normal), (4.0, Vec3::Y));
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn cast_ray_cuboid(ray: &Ray<Vec3>, cuboid: &Cuboid, pose: &Pose) -> Option<RayCast<Vec3>> {
    rays::cast_ray_box(ray, cuboid, pose)
}

/// A ray against a capsule, in one closed form: the capsule lies inside
/// the infinite cylinder around its axis, so the ray enters the capsule
/// where it enters that cylinder when that point lies between the ends;
/// otherwise it can only enter through the end sphere on that side (a ray
/// along the axis: the nearer end sphere). In f64; a capsule of radius 0
/// (a segment) goes through [`cast_ray`].
///
/// ```
/// use collide::geometry::Ray;
/// use collide::narrow::d3::{Capsule, Pose, cast_ray_capsule};
/// use glam::Vec3;
/// let pole = Capsule::new(2.0, 0.5)?;
/// let side = Ray::new(Vec3::new(-5.0, 1.0, 0.0), Vec3::X, 10.0).unwrap();
/// let hit = cast_ray_capsule(&side, &pole, &Pose::IDENTITY).unwrap();
/// assert!((hit.t - 4.5).abs() < 1e-6 && (hit.normal + Vec3::X).length() < 1e-6);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn cast_ray_capsule(ray: &Ray<Vec3>, capsule: &Capsule, pose: &Pose) -> Option<RayCast<Vec3>> {
    if capsule.radius == 0.0 {
        return segment_ray(ray, capsule, pose);
    }
    let r = f64::from(capsule.radius);
    // Relative to the capsule's position, in f64: the origin's offset is
    // exact there, and the ends turned in f32 keep their digits (a far
    // capsule's world ends would not).
    let at = pose.position.as_dvec3();
    let (pa, pb) = (
        pose.rotate(capsule.a).as_dvec3(),
        pose.rotate(capsule.b).as_dvec3(),
    );
    let (o, d) = (ray.origin().as_dvec3() - at, ray.direction().as_dvec3());
    let (axis, from_a) = (pb - pa, o - pa);
    let axis_sq = axis.length_squared();
    let (axis_d, axis_o) = (axis.dot(d), axis.dot(from_a));
    // The cylinder: |(o + d t - pa) x axis|^2 = r^2 |axis|^2, as
    // k2 t^2 + 2 k1 t + k0 = 0; k0 < 0 when the origin is inside it.
    let k0 = axis_sq * (from_a.length_squared() - r * r) - axis_o * axis_o;
    // Inside: the origin nearer the axis segment than the radius (beside
    // the segment, inside the cylinder; beyond an end, inside its sphere).
    let inside = if axis_o <= 0.0 {
        from_a.length_squared() < r * r
    } else if axis_o >= axis_sq {
        (o - pb).length_squared() < r * r
    } else {
        k0 < 0.0
    };
    if inside {
        return Some(rays::started_inside(ray));
    }
    let k2 = axis_sq * d.length_squared() - axis_d * axis_d;
    if axis_sq > 0.0 && k2 > 0.0 {
        let k1 = axis_sq * from_a.dot(d) - axis_o * axis_d;
        let disc = k1 * k1 - k2 * k0;
        if disc <= 0.0 {
            return None; // misses (or grazes) the cylinder, so the capsule
        }
        let t = (-k1 - disc.sqrt()) / k2;
        // Where along the axis the entry lies (0 at a, axis_sq at b).
        let along = axis_o + t * axis_d;
        if along > 0.0 && along < axis_sq {
            if !(t >= 0.0 && t as f32 <= ray.max_t()) {
                return None;
            }
            // From the axis to the entry, near the capsule (its
            // difference of far coordinates would keep few digits).
            let normal = (from_a + d * t - axis * (along / axis_sq))
                .as_vec3()
                .normalize_or_zero();
            let t = t as f32;
            return Some(RayCast {
                t,
                normal,
                point: ray.at(t),
            });
        }
        return ball_entry(ray, at + if along <= 0.0 { pa } else { pb }, r);
    }
    // Along the axis, or a capsule without length: the nearer end sphere.
    match (ball_entry(ray, at + pa, r), ball_entry(ray, at + pb, r)) {
        (Some(x), Some(y)) => Some(if y.t < x.t { y } else { x }),
        (x, y) => x.or(y),
    }
}

/// A ray against a capsule of radius 0, a segment: the cylinder of
/// [`cast_ray_capsule`] has no width, every crossing a graze of it and its
/// normal rounding, so the general cast answers.
#[cold]
fn segment_ray(ray: &Ray<Vec3>, capsule: &Capsule, pose: &Pose) -> Option<RayCast<Vec3>> {
    rays::cast_ray(ray, capsule, pose)
}

/// A ray against any convex shape (a [`Polyhedron`](super::Polyhedron),
/// a rounded one): the GJK ray cast on its core, with its radius as a
/// margin, settled at the end by a distance query onto the surface (the
/// entry and its normal exact to rounding, however far the ray starts).
/// A ray along a face or an edge, or tangent, misses, as in the closed
/// forms (the rule: [`RayCast`]); one that grazes the shape (comes within
/// a millionth of the numbers involved) either misses or hits at a point
/// within that of the surface, never beyond it.
///
/// ```
/// use collide::geometry::Ray;
/// use collide::narrow::d3::{Polyhedron, Pose, cast_ray};
/// use glam::Vec3;
/// let tetra = Polyhedron::new(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z])?;
/// let down = Ray::new(Vec3::new(0.1, 5.0, 0.1), -Vec3::Y, 10.0).unwrap();
/// let hit = cast_ray(&down, &tetra, &Pose::IDENTITY).unwrap();
/// assert!((hit.t - 4.2).abs() < 1e-4); // the slanted face at y = 0.8
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn cast_ray(
    ray: &Ray<Vec3>,
    shape: &(impl Support<Vec3> + ?Sized),
    pose: &Pose,
) -> Option<RayCast<Vec3>> {
    rays::cast_ray(ray, shape, pose)
}

/// When shape `a`, moving by `motion_a`, first touches shape `b`, moving by
/// `motion_b` (both straight, without turning, over `t` in `[0, 1]`); see
/// [`ShapeCast`] for the rules at contact. One GJK ray cast on the
/// difference of the shapes' cores, the radii as its margin, settled at
/// the end by a distance query and conservative advancement on it: the
/// shapes then touch to rounding and the normal is the touch's. A gap of
/// a hundred-thousandth of the relative motion or of the smaller shape,
/// whichever is larger (never of the larger, so a large target does not
/// blur the answer), counts as touching at the start and in a graze.
///
/// ```
/// use collide::narrow::d3::{Capsule, Cuboid, Pose, cast_shape};
/// use glam::Vec3;
/// let body = Capsule::new(0.9, 0.3)?;
/// let wall = Cuboid::new(Vec3::new(0.5, 3.0, 5.0))?;
/// let wall_at = Pose::at(Vec3::new(5.0, 0.0, 0.0))?; // face at x = 4.5
/// let hit = cast_shape(&body, &Pose::IDENTITY, Vec3::new(10.0, 0.0, 0.0), &wall, &wall_at, Vec3::ZERO)
///     .expect("it walks into the wall");
/// assert!((hit.t - 0.42).abs() < 1e-4); // 4.2 of 10 units
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn cast_shape(
    a: &(impl Support<Vec3> + ?Sized),
    pose_a: &Pose,
    motion_a: Vec3,
    b: &(impl Support<Vec3> + ?Sized),
    pose_b: &Pose,
    motion_b: Vec3,
) -> Option<ShapeCast<Vec3>> {
    general::cast_shape(a, pose_a, motion_a, b, pose_b, motion_b)
}

/// The first touch of `mover`, starting at `start` and moving by `motion`
/// while turning by the rotation vector `turn` (axis times radians) over
/// the same time, against `target` at rest at `target_pose`. See the 2D
/// [`cast_turning`](crate::narrow::d2::cast_turning).
///
/// ```
/// use collide::narrow::d3::{Cuboid, Pose, cast_turning};
/// use glam::Vec3;
/// let plank = Cuboid::new(Vec3::new(1.0, 0.02, 0.1))?;
/// let post = Cuboid::new(Vec3::splat(0.005))?;
/// let post_at = Pose::at(Vec3::new(0.0, 0.0, -0.8))?; // a quarter turn about y away
/// let turn = Vec3::Y * 170f32.to_radians();
/// let hit = cast_turning(&plank, &Pose::IDENTITY, Vec3::ZERO, turn, &post, &post_at)?;
/// assert!(hit.is_some_and(|h| h.t > 0.4 && h.t < 0.55));
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn cast_turning(
    mover: &(impl Support<Vec3> + ?Sized),
    start: &Pose,
    motion: Vec3,
    turn: Vec3,
    target: &(impl Support<Vec3> + ?Sized),
    target_pose: &Pose,
) -> Result<Option<ShapeCast<Vec3>>, crate::narrow::ShapeError> {
    let (p0, q0) = (start.position(), start.rotation());
    for v in turn.to_array() {
        crate::narrow::error::finite("turn", v)?;
    }
    Pose::new(p0 + motion, glam::Quat::from_scaled_axis(turn) * q0)?;
    let pose_at = |t: f32| Pose::new(p0 + motion * t, glam::Quat::from_scaled_axis(turn * t) * q0);
    crate::narrow::turning::cast_turning(mover, pose_at, motion, turn.length(), target, target_pose)
}
