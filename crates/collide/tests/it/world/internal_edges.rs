//! Internal edges: a capsule slid at constant speed across the seams of
//! a hundred abutting boxes of one compound, of a flat heightfield, and
//! of a flat mesh of irregular triangles, settled each tick by every part
//! contact the world reports (position by position, as a simple solver
//! would): its vertical speed stays below 1e-4 m/s and every contact
//! normal within 1 degree of up. Upright and lying along its way, at 60
//! and 240 Hz, near the origin and 1e4 away. A real edge (a step down)
//! still reports its leaning normal.

use collide::narrow::d3::{Capsule, Cuboid, Pose};
use collide::world::{Collider3, ColliderShape, Compound3, Mesh3, World3};
use collide_scenes::SceneRng;
use glam::{Quat, Vec2, Vec3};

/// What a slide measured.
#[derive(Debug, Default)]
struct Slide {
    /// The largest vertical speed after the first tick, m/s.
    vertical: f32,
    /// The largest angle of a contact normal from up, radians.
    lean: f32,
    /// Ticks in contact.
    touching: usize,
}

/// Slides a capsule (half height 0.5, radius 0.3) turned by `turn`,
/// resting on y = 0 (moved by `offset` along x and -z), along +x from x = 1
/// to 99 at 5 m/s, ticking at `hz`: each tick it sinks by 1 mm, then is
/// pushed out by each part contact the world reports in turn.
fn slide(floor: ColliderShape<Vec3>, turn: Quat, hz: f32, offset: f32) -> Slide {
    let capsule = Capsule::new(0.5, 0.3).unwrap();
    let lowest = -(turn * Vec3::Y).abs().y * 0.5 - 0.3;
    let shift = Vec3::new(offset, 0.0, -offset);
    let mut world = World3::new();
    let ground = world
        .insert(Collider3::fixed(floor, Pose::at(shift).unwrap(), ()))
        .unwrap();
    let mut at = Vec3::new(1.0, -lowest, 1.0);
    let body = world
        .insert(Collider3::moving(
            capsule,
            Pose::new(at + shift, turn).unwrap(),
            (),
        ))
        .unwrap();
    let (dt, speed, sink) = (1.0 / hz, 5.0, 1e-3);
    let mut out = Slide::default();
    let mut tick = 0;
    while at.x < 99.0 {
        let start_y = at.y;
        at.x += speed * dt;
        at.y -= sink;
        world
            .set_pose(body, Pose::new(at + shift, turn).unwrap())
            .unwrap();
        let events = world.step();
        let mut push = Vec3::ZERO;
        for t in &events.touching {
            assert_eq!((t.a, t.b), (ground, body));
            out.touching += 1;
            for p in events.parts(t) {
                let n = p.contact.normal;
                out.lean = out.lean.max(n.angle_between(Vec3::Y));
                // Gauss-Seidel on positions: what is left of this depth.
                let left = p.contact.depth - n.dot(push);
                if left > 0.0 {
                    push += n * left;
                }
            }
        }
        at += push;
        if tick > 0 {
            out.vertical = out.vertical.max(((at.y - start_y) / dt).abs());
        }
        tick += 1;
    }
    out
}

/// A hundred boxes 1 m wide, 4 m deep, tops at y = 0, abutting along x.
fn row_of_boxes() -> ColliderShape<Vec3> {
    let half = Cuboid::new(Vec3::new(0.5, 0.5, 2.0)).unwrap();
    let parts = (0..100).map(|i| {
        (
            half.into(),
            Pose::at(Vec3::new(i as f32 + 0.5, -0.5, 1.0)).unwrap(),
        )
    });
    Compound3::new(parts).unwrap().into()
}

/// A flat heightfield 100 m by 2 m at y = 0, cells of 0.5 m.
fn flat_heightfield() -> ColliderShape<Vec3> {
    let (columns, rows) = (201, 5);
    Mesh3::from_heights(columns, rows, &vec![0.0; columns * rows], Vec2::splat(0.5))
        .unwrap()
        .into()
}

/// A flat mesh 100 m by 2 m at y = 0 of irregular triangles: a grid of
/// 0.7 m cells whose inner vertices are jittered, split along random
/// diagonals.
fn flat_irregular_mesh() -> ColliderShape<Vec3> {
    let mut rng = SceneRng::new(11);
    let (nx, nz) = (144, 4);
    let (sx, sz) = (100.0 / nx as f32, 2.0 / nz as f32);
    let mut vertices = Vec::new();
    for j in 0..=nz {
        for i in 0..=nx {
            let inner = i > 0 && i < nx && j > 0 && j < nz;
            let jitter = if inner { 0.3 } else { 0.0 };
            let x = (i as f32 + rng.range(-jitter, jitter)) * sx;
            let z = (j as f32 + rng.range(-jitter, jitter)) * sz;
            vertices.push(Vec3::new(x, 0.0, z));
        }
    }
    let at = |i: usize, j: usize| (j * (nx + 1) + i) as u32;
    let mut elements = Vec::new();
    for j in 0..nz {
        for i in 0..nx {
            let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i, j + 1), at(i + 1, j + 1));
            if rng.below(2) == 0 {
                elements.extend([[a, c, d], [a, d, b]]);
            } else {
                elements.extend([[a, c, b], [b, c, d]]);
            }
        }
    }
    Mesh3::new(&vertices, &elements).unwrap().into()
}

fn check(name: &str, floor: impl Fn() -> ColliderShape<Vec3>) {
    let lying = Quat::from_rotation_z(std::f32::consts::FRAC_PI_2);
    for (turn, how) in [(Quat::IDENTITY, "upright"), (lying, "lying")] {
        for hz in [60.0, 240.0] {
            for offset in [0.0, 1e4] {
                let s = slide(floor(), turn, hz, offset);
                let what = format!("{name}, {how}, {hz} Hz, offset {offset}: {s:?}");
                assert!(s.touching > 1000, "{what}: it touches all the way");
                assert!(s.vertical < 1e-4, "{what}: vertical speed");
                assert!(s.lean < 1f32.to_radians(), "{what}: normals");
            }
        }
    }
}

#[test]
fn a_capsule_slides_over_a_hundred_abutting_boxes_without_catching() {
    check("boxes", row_of_boxes);
}

#[test]
fn a_capsule_slides_over_a_flat_heightfield_without_catching() {
    check("heightfield", flat_heightfield);
}

#[test]
fn a_capsule_slides_over_a_flat_irregular_mesh_without_catching() {
    check("mesh", flat_irregular_mesh);
}

#[test]
fn a_real_step_down_still_leans_the_normal() {
    // Boxes whose tops step down by 0.2 m halfway: a capsule at the rim
    // touches a convex edge, which is no internal edge.
    let half = Cuboid::new(Vec3::new(0.5, 0.5, 2.0)).unwrap();
    let parts = (0..10).map(|i| {
        let y = if i < 5 { -0.5 } else { -0.7 };
        (
            half.into(),
            Pose::at(Vec3::new(i as f32 + 0.5, y, 1.0)).unwrap(),
        )
    });
    let steps: ColliderShape<Vec3> = Compound3::new(parts).unwrap().into();
    let mut world = World3::new();
    world
        .insert(Collider3::fixed(steps, Pose::IDENTITY, ()))
        .unwrap();
    // A ball beyond the rim at x = 5, lower than the top, against its edge.
    let ball = collide::narrow::d3::Sphere::new(0.3).unwrap();
    world
        .insert(Collider3::moving(
            ball,
            Pose::at(Vec3::new(5.2, 0.1, 1.0)).unwrap(),
            (),
        ))
        .unwrap();
    let events = world.step();
    let t = &events.touching[0];
    let lean = t.contact.normal.angle_between(Vec3::Y);
    assert!(lean > 0.3, "the rim's normal leans: {:?}", t.contact);
}
