//! The collision world's part of the demo report: a floor with things
//! resting on it, stepped once, drawn with each touching pair's contact
//! manifold (its points and normal).

use collide::narrow::d2::{Capsule, Circle, Cuboid, Polygon, Pose, Shape};
use collide::world::{Collider2, World2};
use glam::Vec2;
use std::fmt::Write as _;

/// What rests on the floor: a stack of two boxes, a box tipped onto its
/// corner, a capsule lying down, a ball and a triangle on its side; each
/// 2 mm into what holds it.
fn scene() -> Vec<(Shape, Pose, bool)> {
    let valid = "the demo's shapes are valid";
    let at = |x: f32, y: f32| Pose::at(Vec2::new(x, y)).expect(valid);
    let sink = 0.002;
    let tipped = 0.35f32;
    // The tipped box's lowest corner 2 mm into the floor.
    let (hx, hy) = (0.5, 0.3);
    let low = hx * tipped.sin() + hy * tipped.cos();
    vec![
        (
            Cuboid::new(Vec2::new(8.0, 0.5)).expect(valid).into(),
            at(0.0, -0.5),
            true,
        ),
        (
            Cuboid::new(Vec2::splat(0.5)).expect(valid).into(),
            at(-5.0, 0.5 - sink),
            false,
        ),
        (
            Cuboid::new(Vec2::new(0.4, 0.3)).expect(valid).into(),
            at(-4.8, 1.3 - 2.0 * sink),
            false,
        ),
        (
            Cuboid::new(Vec2::new(hx, hy)).expect(valid).into(),
            Pose::new(Vec2::new(-2.5, low - sink), tipped).expect(valid),
            false,
        ),
        (
            Capsule::new(0.8, 0.25).expect(valid).into(),
            Pose::new(Vec2::new(0.3, 0.25 - sink), std::f32::consts::FRAC_PI_2).expect(valid),
            false,
        ),
        (
            Circle::new(0.4).expect(valid).into(),
            at(2.6, 0.4 - sink),
            false,
        ),
        (
            Polygon::new(&[
                Vec2::new(-0.6, 0.0),
                Vec2::new(0.6, 0.0),
                Vec2::new(0.0, 0.9),
            ])
            .expect(valid)
            .into(),
            at(5.0, -sink),
            false,
        ),
    ]
}

/// The world of the scene after one step: each collider's shape and pose,
/// and each touching pair's manifold points and normal.
struct Stepped {
    shapes: Vec<(Shape, Pose)>,
    /// Per touching pair: its points (midway between the surfaces) and
    /// normal.
    contacts: Vec<(Vec<Vec2>, Vec2)>,
}

fn stepped() -> Stepped {
    let valid = "the demo's colliders are valid";
    let mut world = World2::<()>::new();
    let mut shapes = Vec::new();
    for (shape, pose, fixed) in scene() {
        let collider = if fixed {
            Collider2::fixed(shape.clone(), pose, ())
        } else {
            Collider2::moving(shape.clone(), pose, ())
        };
        world.insert(collider).expect(valid);
        shapes.push((shape, pose));
    }
    let events = world.step();
    let contacts = events
        .touching
        .iter()
        .map(|t| {
            let m = &t.manifold;
            let points = m
                .points()
                .iter()
                .map(|p| 0.5 * (p.point_a + p.point_b))
                .collect();
            (points, m.normal())
        })
        .collect();
    Stepped { shapes, contacts }
}

/// Pixels per metre, and the drawing's window in metres.
const SCALE: f32 = 56.0;
const LEFT: f32 = -7.0;
const TOP: f32 = 2.2;
const WIDTH: f32 = 14.0;
const HEIGHT: f32 = 3.2;

/// A point in the drawing (y down).
fn px(p: Vec2) -> (f32, f32) {
    ((p.x - LEFT) * SCALE, (TOP - p.y) * SCALE)
}

/// One shape, outlined.
fn draw_shape(svg: &mut String, shape: &Shape, pose: &Pose) {
    let style = "fill=\"#dfe6ee\" stroke=\"#54606e\" stroke-width=\"1.5\"";
    let polygon = |svg: &mut String, corners: &[Vec2]| {
        let points: Vec<String> = corners
            .iter()
            .map(|&c| {
                let (x, y) = px(pose.apply(c));
                format!("{x:.1},{y:.1}")
            })
            .collect();
        let _ = writeln!(svg, "<polygon points=\"{}\" {style}/>", points.join(" "));
    };
    match shape {
        Shape::Cuboid(b) => {
            let h = b.half_extents();
            polygon(
                svg,
                &[
                    Vec2::new(-h.x, -h.y),
                    Vec2::new(h.x, -h.y),
                    Vec2::new(h.x, h.y),
                    Vec2::new(-h.x, h.y),
                ],
            );
        }
        Shape::Polygon(p) => polygon(svg, p.vertices()),
        Shape::Circle(c) => {
            let (x, y) = px(pose.position());
            let _ = writeln!(
                svg,
                "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{:.1}\" {style}/>",
                c.radius() * SCALE
            );
        }
        Shape::Capsule(c) => {
            let ((x1, y1), (x2, y2)) = (px(pose.apply(c.a())), px(pose.apply(c.b())));
            let width = 2.0 * c.radius() * SCALE;
            let _ = writeln!(
                svg,
                "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" stroke=\"#54606e\" stroke-width=\"{:.1}\" stroke-linecap=\"round\"/><line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" stroke=\"#dfe6ee\" stroke-width=\"{:.1}\" stroke-linecap=\"round\"/>",
                width,
                width - 3.0
            );
        }
    }
}

/// The scene with every manifold point (red) and its normal (an arrow
/// from the first collider toward the second).
fn world_svg(s: &Stepped) -> String {
    let mut svg = format!(
        "<figure><svg viewBox=\"0 0 {:.0} {:.0}\" width=\"{:.0}\" height=\"{:.0}\" role=\"img\" aria-label=\"contact manifolds\">\n",
        WIDTH * SCALE,
        HEIGHT * SCALE,
        WIDTH * SCALE,
        HEIGHT * SCALE
    );
    for (shape, pose) in &s.shapes {
        draw_shape(&mut svg, shape, pose);
    }
    for (points, normal) in &s.contacts {
        for &p in points {
            let (x, y) = px(p);
            let (tx, ty) = px(p + *normal * 0.35);
            let _ = writeln!(
                svg,
                "<line x1=\"{x:.1}\" y1=\"{y:.1}\" x2=\"{tx:.1}\" y2=\"{ty:.1}\" stroke=\"#3b6fb6\" stroke-width=\"2\"/><circle cx=\"{tx:.1}\" cy=\"{ty:.1}\" r=\"2.5\" fill=\"#3b6fb6\"/><circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"4\" fill=\"#c2453d\"/>"
            );
        }
    }
    svg.push_str("</svg><figcaption>Red: manifold points; blue: each pair's normal, from the collider with the lower handle toward the other.</figcaption></figure>\n");
    svg
}

/// The collision world's section of the demo page.
pub fn world_section() -> String {
    let s = stepped();
    let points: usize = s.contacts.iter().map(|c| c.0.len()).sum();
    let mut html = String::from("<h2>The collision world</h2>\n");
    let _ = writeln!(
        html,
        "<p>Colliders on a floor, each 2 mm into what holds it, after one step: {} touching pairs with {points} manifold points. A box resting flat touches at both bottom corners, so a solver cannot rock it on one; the box tipped onto its corner touches at that corner; the lying capsule at both ends of its core; the ball at one point; the triangle along its bottom edge. Each point keeps its feature id while the same features touch.</p>",
        s.contacts.len()
    );
    html.push_str(&world_svg(&s));
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_resting_thing_touches_where_its_faces_meet() {
        let s = stepped();
        let mut counts: Vec<usize> = s.contacts.iter().map(|c| c.0.len()).collect();
        counts.sort_unstable();
        // Ball and tipped box: one; the boxes (floor and stack), the
        // capsule and the triangle: two.
        assert_eq!(counts, [1, 1, 2, 2, 2, 2], "{:?}", s.contacts);
        assert!(world_section().contains("6 touching pairs with 10 manifold points"));
    }
}
