//! With the `mint` feature, vectors from other math libraries reach
//! collide through the `mint` crate's types (run with
//! `cargo test -p collide --features mint --test it mint`).

use collide::glam::{Vec2, Vec3};
use collide::{Aabb2, Aabb3, BroadPhase, Brute, Query};

#[test]
fn mint_vectors_become_boxes_and_come_back() {
    let (lo, hi) = (
        mint::Vector2 { x: 0.0f32, y: 0.0 },
        mint::Vector2 { x: 2.0f32, y: 1.0 },
    );
    let unit = Aabb2::new(Vec2::from(lo), Vec2::from(hi)).unwrap();
    let mut world: Brute<Vec2> = Brute::new();
    let h = world.insert(unit, ()).unwrap();
    let back: mint::Vector2<f32> = world.aabb(h).unwrap().max().into();
    assert_eq!((back.x, back.y), (2.0, 1.0));

    let corner = mint::Point3 {
        x: 1.0f32,
        y: 2.0,
        z: 3.0,
    };
    let point = Aabb3::from_point(Vec3::from(corner)).unwrap();
    let out: mint::Point3<f32> = point.min().into();
    assert_eq!((out.x, out.y, out.z), (1.0, 2.0, 3.0));
}
