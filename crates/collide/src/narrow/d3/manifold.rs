//! Contact manifolds of 3D shapes (see [`Manifold`]): up to four points.
//! Boxes, hulls and triangles give faces (a hull's found once when it is
//! built; a triangle's two sides),
//! capsules their core segment, spheres a point.

use super::{Cuboid, Polyhedron, Pose, Shape, Triangle};
use crate::narrow::ShapeError;
use crate::narrow::manifold::{FACE_MAX, Face, Manifold, build, check_margin};
use crate::narrow::{Contact, Support};
use glam::Vec3;

/// The manifold of `a` at `pose_a` and `b` at `pose_b` (normal from `a`
/// toward `b`): the points within `margin` (world units, 0 or more) of
/// touching, empty when the shapes are further apart. A negative or
/// non-finite margin is an error.
///
/// ```
/// use collide::narrow::d3::{Cuboid, Pose, Shape, manifold};
/// use glam::Vec3;
/// let floor = Shape::from(Cuboid::new(Vec3::new(10.0, 0.5, 10.0))?);
/// let crate_box = Shape::from(Cuboid::new(Vec3::splat(0.5))?);
/// // Resting flat, 1 mm into the floor: four corners, each 1 mm deep.
/// let resting = Pose::at(Vec3::new(0.0, 0.999, 0.0))?;
/// let m = manifold(&floor, &Pose::IDENTITY, &crate_box, &resting, 0.01)?;
/// assert!(manifold(&floor, &Pose::IDENTITY, &crate_box, &resting, -1.0).is_err());
/// assert_eq!(m.points().len(), 4);
/// assert!(m.points().iter().all(|p| (p.depth - 0.001).abs() < 1e-5));
/// assert_eq!(m.normal(), Vec3::Y);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
pub fn manifold(
    a: &Shape,
    pose_a: &Pose,
    b: &Shape,
    pose_b: &Pose,
    margin: f32,
) -> Result<Manifold<Vec3>, ShapeError> {
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
    contact: &Contact<Vec3>,
    margin: f32,
) -> Manifold<Vec3> {
    build(
        contact,
        |dir| face(a, pose_a, dir),
        |dir| face(b, pose_b, dir),
        margin,
    )
}

/// `shape`'s face toward `dir` (world).
fn face(shape: &Shape, pose: &Pose, dir: Vec3) -> Face {
    match shape {
        Shape::Sphere(s) => Face::point(pose.position(), s.radius()),
        Shape::Capsule(c) => Face::segment(
            pose.apply(c.a()),
            pose.apply(c.b()),
            [0, 1],
            dir,
            c.radius(),
        ),
        Shape::Cuboid(b) => cuboid_face(b, pose, dir),
        Shape::Polyhedron(p) => hull_face(p, pose, dir),
        Shape::Triangle(t) => triangle_face(t, pose, dir),
    }
}

/// The box's face whose normal is nearest `dir`: four corners counter-
/// clockwise about it, numbered by their signs (bit k set for +k); faces
/// numbered 2k for +k and 2k + 1 for -k.
fn cuboid_face(b: &Cuboid, pose: &Pose, dir: Vec3) -> Face {
    let local = pose.unrotate(dir);
    let k = (1..3).fold(0, |best, a| {
        if local[a].abs() > local[best].abs() {
            a
        } else {
            best
        }
    });
    let s = if local[k] >= 0.0 { 1.0 } else { -1.0 };
    let (u, v) = ((k + 1) % 3, (k + 2) % 3);
    let h = b.half_extents();
    // Counter-clockwise about +k in (u, v), the other way about -k.
    let corners: [(f32, f32); 4] = if s > 0.0 {
        [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)]
    } else {
        [(1.0, 1.0), (1.0, -1.0), (-1.0, -1.0), (-1.0, 1.0)]
    };
    let mut points = [Vec3::ZERO; FACE_MAX];
    let mut ids = [0u8; FACE_MAX];
    for (i, (cu, cv)) in corners.into_iter().enumerate() {
        let mut p = Vec3::ZERO;
        p[k] = s * h[k];
        p[u] = cu * h[u];
        p[v] = cv * h[v];
        points[i] = pose.apply(p);
        ids[i] = (0..3).map(|a| u8::from(p[a] > 0.0) << a).sum();
    }
    let mut axis = Vec3::ZERO;
    axis[k] = s;
    Face {
        points,
        ids,
        count: 4,
        normal: Some(pose.rotate(axis)),
        id: (2 * k + usize::from(s < 0.0)) as u8,
        radius: b.radius(),
    }
}

/// The hull's face whose normal is nearest `dir`, its corners numbered as
/// the polyhedron's points; a face of more than [`FACE_MAX`] corners gives
/// its support point (a manifold of one point there).
fn hull_face(p: &Polyhedron, pose: &Pose, dir: Vec3) -> Face {
    let local = pose.unrotate(dir);
    let faces = p.faces();
    let k = faces.toward(local);
    let corners = faces.corners(k);
    if corners.len() > FACE_MAX {
        return Face::point(pose.apply(p.support(local)), p.radius());
    }
    let mut face = Face::point(Vec3::ZERO, p.radius());
    for (slot, &c) in corners.iter().enumerate() {
        face.points[slot] = pose.apply(p.points()[usize::from(c)]);
        face.ids[slot] = c;
    }
    face.count = corners.len();
    face.normal = Some(pose.rotate(faces.normal(k)));
    face.id = k as u8;
    face
}

/// The triangle's side facing `dir`: its corners numbered 0 to 2,
/// counter-clockwise about that side's normal; side 0 is the one its
/// [`Triangle::normal`] points out of.
fn triangle_face(t: &Triangle, pose: &Pose, dir: Vec3) -> Face {
    let n = pose.rotate(t.normal());
    let [a, b, c] = t.points().map(|p| pose.apply(p));
    let front = n.dot(dir) >= 0.0;
    let mut face = Face::point(Vec3::ZERO, 0.0);
    let (points, ids) = if front {
        ([a, b, c], [0, 1, 2])
    } else {
        ([a, c, b], [0, 2, 1])
    };
    face.points[..3].copy_from_slice(&points);
    face.ids[..3].copy_from_slice(&ids);
    face.count = 3;
    face.normal = Some(if front { n } else { -n });
    face.id = u8::from(!front);
    face
}
