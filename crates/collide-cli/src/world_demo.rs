//! The collision world's part of the demo report: a mesh floor (a height
//! line of 1 m segments, flat with a valley at its right end) with things
//! resting on it, stepped once, drawn with each touching part pair's
//! contact manifold (its points and normal).

use collide::narrow::d2::{Capsule, Circle, Cuboid, Polygon, Pose, Shape};
use collide::world::{Collider2, ColliderShape, Mesh2, World2};
use glam::Vec2;
use std::fmt::Write as _;

/// The floor's heights, one a metre from x = -8: flat, then a valley
/// 0.4 m deep between x = 6 and 8.
const FLOOR: [f32; 17] = [
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.4, 0.0,
];

/// What rests on the floor: a stack of two boxes, a box tipped onto its
/// corner, a capsule lying down, a ball and a triangle on its side, and a
/// ball in the valley; each 2 mm into what holds it.
fn scene() -> Vec<(ColliderShape<Vec2>, Pose, bool)> {
    let valid = "the demo's shapes are valid";
    let at = |x: f32, y: f32| Pose::at(Vec2::new(x, y)).expect(valid);
    let sink = 0.002;
    let tipped = 0.35f32;
    // The tipped box's lowest corner 2 mm into the floor.
    let (hx, hy) = (0.5, 0.3);
    let low = hx * tipped.sin() + hy * tipped.cos();
    // The valley ball 2 mm into both slopes (rising 0.4 in 1 m).
    let slope = Vec2::new(0.4, 1.0).length();
    let valley_y = (0.3 - sink) * slope - 0.4;
    let convex = |s: Shape| ColliderShape::Convex(s);
    vec![
        (
            Mesh2::from_heights(&FLOOR, 1.0).expect(valid).into(),
            at(-8.0, 0.0),
            true,
        ),
        (
            convex(Cuboid::new(Vec2::splat(0.5)).expect(valid).into()),
            at(-5.0, 0.5 - sink),
            false,
        ),
        (
            convex(Cuboid::new(Vec2::new(0.4, 0.3)).expect(valid).into()),
            at(-4.8, 1.3 - 2.0 * sink),
            false,
        ),
        (
            convex(Cuboid::new(Vec2::new(hx, hy)).expect(valid).into()),
            Pose::new(Vec2::new(-2.5, low - sink), tipped).expect(valid),
            false,
        ),
        (
            convex(Capsule::new(0.8, 0.25).expect(valid).into()),
            Pose::new(Vec2::new(0.3, 0.25 - sink), std::f32::consts::FRAC_PI_2).expect(valid),
            false,
        ),
        (
            convex(Circle::new(0.4).expect(valid).into()),
            at(2.6, 0.4 - sink),
            false,
        ),
        (
            convex(
                Polygon::new(&[
                    Vec2::new(-0.6, 0.0),
                    Vec2::new(0.6, 0.0),
                    Vec2::new(0.0, 0.9),
                ])
                .expect(valid)
                .into(),
            ),
            at(4.7, -sink),
            false,
        ),
        (
            convex(Circle::new(0.3).expect(valid).into()),
            at(7.0, valley_y),
            false,
        ),
    ]
}

/// The world of the scene after one step: each collider's shape and pose,
/// and each touching part pair's manifold points and normal.
struct Stepped {
    shapes: Vec<(ColliderShape<Vec2>, Pose)>,
    /// Touching pairs.
    pairs: usize,
    /// Per touching part pair: its points (midway between the surfaces)
    /// and normal.
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
    let drawn = |m: &collide::narrow::Manifold<Vec2>| {
        let points = m
            .points()
            .iter()
            .map(|p| 0.5 * (p.point_a + p.point_b))
            .collect();
        (points, m.normal())
    };
    let mut contacts = Vec::new();
    for t in &events.touching {
        let parts = events.parts(t);
        if parts.is_empty() {
            contacts.push(drawn(&t.manifold));
        }
        contacts.extend(parts.iter().map(|p| drawn(&p.manifold)));
    }
    Stepped {
        shapes,
        pairs: events.touching.len(),
        contacts,
    }
}

/// Pixels per metre, and the drawing's window in metres.
const SCALE: f32 = 56.0;
const LEFT: f32 = -6.5;
const TOP: f32 = 2.2;
const WIDTH: f32 = 15.0;
const HEIGHT: f32 = 3.4;

/// A point in the drawing (y down).
fn px(p: Vec2) -> (f32, f32) {
    ((p.x - LEFT) * SCALE, (TOP - p.y) * SCALE)
}

/// One collider: a mesh as its line, filled below; a convex shape
/// outlined.
fn draw_collider(svg: &mut String, shape: &ColliderShape<Vec2>, pose: &Pose) {
    match shape {
        ColliderShape::Convex(s) => draw_shape(svg, s, pose),
        ColliderShape::Mesh(m) => {
            let line: Vec<Vec2> = m.vertices().iter().map(|&v| pose.apply(v)).collect();
            let bottom = TOP - HEIGHT;
            let (first, last) = (line[0], line[line.len() - 1]);
            let mut points: Vec<String> = line
                .iter()
                .chain(&[Vec2::new(last.x, bottom), Vec2::new(first.x, bottom)])
                .map(|&p| {
                    let (x, y) = px(p);
                    format!("{x:.1},{y:.1}")
                })
                .collect();
            points.dedup();
            let _ = writeln!(
                svg,
                "<polygon points=\"{}\" fill=\"#dfe6ee\" stroke=\"none\"/>",
                points.join(" ")
            );
            let ticks: Vec<String> = line
                .iter()
                .map(|&p| {
                    let (x, y) = px(p);
                    format!("{x:.1},{y:.1}")
                })
                .collect();
            let _ = writeln!(
                svg,
                "<polyline points=\"{}\" fill=\"none\" stroke=\"#54606e\" stroke-width=\"1.5\"/>",
                ticks.join(" ")
            );
            for &p in &line {
                let (x, y) = px(p);
                let _ = writeln!(
                    svg,
                    "<line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#54606e\" stroke-width=\"1\"/>",
                    y - 4.0,
                    y + 4.0
                );
            }
        }
        ColliderShape::Compound(c) => {
            for (s, local) in c.parts() {
                if let Ok(at) = pose.compose(local) {
                    draw_shape(svg, s, &at);
                }
            }
        }
    }
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
        draw_collider(&mut svg, shape, pose);
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
    svg.push_str("</svg><figcaption>The floor is a mesh of 1 m segments (ticks at the vertices). Red: manifold points, one manifold per touching part pair; blue: each point's normal, from the collider with the lower handle toward the other.</figcaption></figure>\n");
    svg
}

/// The collision world's section of the demo page.
pub fn world_section() -> String {
    let s = stepped();
    let points: usize = s.contacts.iter().map(|c| c.0.len()).sum();
    let mut html = String::from("<h2>The collision world</h2>\n");
    let _ = writeln!(
        html,
        "<p>Colliders on a mesh floor, each 2 mm into what holds it, after one step: {} touching pairs, {} touching part pairs, {points} manifold points. Each part pair has its own manifold: the box resting across a seam of the floor touches both segments, each at two points, so a solver cannot rock it; the tipped box touches at its corner; the lying capsule along each segment under it; the ball at one point; the ball in the valley on both slopes. No normal leans at a seam. Each point keeps its feature id, which names the two parts, while the same features touch.</p>",
        s.pairs,
        s.contacts.len()
    );
    html.push_str(&world_svg(&s));
    html
}

#[cfg(test)]
mod tests {
    /// Points per touching part pair, fewest first.
    const COUNTS: [usize; 12] = [1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2];

    use super::*;

    #[test]
    fn each_resting_thing_touches_where_its_faces_meet() {
        let s = stepped();
        let mut counts: Vec<usize> = s.contacts.iter().map(|c| c.0.len()).collect();
        counts.sort_unstable();
        assert_eq!(counts, COUNTS, "{:?}", s.contacts);
        // Every normal of the floor's part pairs points up, or along a
        // slope of the valley.
        for (_, n) in &s.contacts {
            assert!(n.y.abs() > 0.9, "{n}");
        }
        assert_eq!(s.pairs, 7);
    }
}
