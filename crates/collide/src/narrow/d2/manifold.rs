//! Contact manifolds of 2D shapes (see [`Manifold`]): up to two points.
//! Boxes and polygons give edges, capsules their core segment, circles a
//! point.

use super::{Pose, Shape};
use crate::narrow::Contact;
use crate::narrow::ShapeError;
use crate::narrow::Support;
use crate::narrow::manifold::{Face, Manifold, build, check_margin};
use glam::{Vec2, Vec3};

/// The manifold of `a` at `pose_a` and `b` at `pose_b` (normal from `a`
/// toward `b`): the points within `margin` (world units, 0 or more) of
/// touching, empty when the shapes are further apart. A negative or
/// non-finite margin is an error.
///
/// ```
/// use collide::narrow::d2::{Cuboid, Pose, Shape, manifold};
/// use glam::Vec2;
/// let floor = Shape::from(Cuboid::new(Vec2::new(10.0, 0.5))?);
/// let crate_box = Shape::from(Cuboid::new(Vec2::splat(0.5))?);
/// // Resting flat, 1 mm into the floor: both bottom corners, 1 mm deep.
/// let resting = Pose::at(Vec2::new(0.0, 0.999))?;
/// let m = manifold(&floor, &Pose::IDENTITY, &crate_box, &resting, 0.01)?;
/// assert!(manifold(&floor, &Pose::IDENTITY, &crate_box, &resting, -1.0).is_err());
/// assert_eq!(m.points().len(), 2);
/// assert!(m.points().iter().all(|p| (p.depth - 0.001).abs() < 1e-5));
/// assert_eq!(m.normal(), Vec2::Y);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn manifold(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: f32,
) -> Result<Manifold<Vec2>, ShapeError> {
    check_margin(margin)?;
    let contact = a.contact(pose_a, b, pose_b);
    Ok(manifold_from_contact(
        a, pose_a, b, pose_b, &contact, margin,
    ))
}

/// [`manifold`] from the pair's contact, already found (a margin checked
/// by the caller).
pub(crate) fn manifold_from_contact(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    c: &Contact<Vec2>,
    margin: f32,
) -> Manifold<Vec2> {
    let lifted = Contact {
        normal: c.normal.extend(0.0),
        depth: c.depth,
        point_a: c.point_a.extend(0.0),
        point_b: c.point_b.extend(0.0),
    };
    build(
        &lifted,
        |dir| face(a, pose_a, dir),
        |dir| face(b, pose_b, dir),
        margin,
    )
    .map(|v| v.truncate())
}

/// `shape`'s face toward `dir` (world, z = 0).
fn face(shape: &Shape, pose: &Pose, dir: Vec3) -> Face {
    let lift = |v: Vec2| v.extend(0.0);
    match shape {
        Shape::Circle(c) => Face::point(lift(pose.position()), c.radius()),
        Shape::Capsule(c) => {
            let (a, b) = (pose.apply(c.a()), pose.apply(c.b()));
            let mut f = Face::segment(lift(a), lift(b), [0, 1], dir, c.radius());
            // Its two sides: 0 to the left of a -> b, 1 to the right.
            f.id = u8::from((b - a).perp_dot(dir.truncate()) < 0.0);
            f
        }
        Shape::Cuboid(b) => {
            let h = b.half_extents();
            let vertices = [
                Vec2::new(-h.x, -h.y),
                Vec2::new(h.x, -h.y),
                Vec2::new(h.x, h.y),
                Vec2::new(-h.x, h.y),
            ];
            let normals = [-Vec2::Y, Vec2::X, Vec2::Y, -Vec2::X];
            edge_face(&vertices, &normals, b.radius(), pose, dir.truncate())
        }
        Shape::Polygon(p) => edge_face(p.vertices(), p.normals(), p.radius(), pose, dir.truncate()),
    }
}

/// The edge (from vertex i to i + 1, counter-clockwise) whose outward
/// normal is nearest `dir`, numbered i.
fn edge_face(vertices: &[Vec2], normals: &[Vec2], radius: f32, pose: &Pose, dir: Vec2) -> Face {
    let local = pose.unrotate(dir);
    let i = (1..normals.len()).fold(0, |best, k| {
        if normals[k].dot(local) > normals[best].dot(local) {
            k
        } else {
            best
        }
    });
    let j = (i + 1) % vertices.len();
    let lift = |v: Vec2| pose.apply(v).extend(0.0);
    let mut face = Face::segment(
        lift(vertices[i]),
        lift(vertices[j]),
        [i as u8, j as u8],
        Vec3::ZERO,
        radius,
    );
    face.normal = Some(pose.rotate(normals[i]).extend(0.0));
    face.id = i as u8;
    face
}
