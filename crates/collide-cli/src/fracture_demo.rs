//! The fracture part of the demo report: a plate fixed to a wall on its
//! left, shattered at an impact point by a radial pattern, its bonds
//! drawn, and the pieces destroyed around the impact taken out: the group
//! still joined to the wall stays (grey), each group cut off falls as one
//! body (its own colour).

use collide_game::fracture::{FractureSettings, Pattern, d2};
use collide_game::glam::DVec2;
use std::fmt::Write as _;

/// Pieces whose centre is this near the impact are destroyed.
const DESTROYED: f64 = 3.3;

const FALLING: [&str; 6] = [
    "#c2453d", "#3b6fb6", "#2e8b57", "#d9822b", "#8e5bb5", "#b5a13b",
];

/// The SVG of the shattered plate.
fn plate_svg() -> (String, usize, usize, usize) {
    let valid = "the demo's fracture is valid";
    // A plate 16 by 6, fixed to a wall along its left edge.
    let plate = vec![
        DVec2::new(0.0, 0.0),
        DVec2::new(16.0, 0.0),
        DVec2::new(16.0, 6.0),
        DVec2::new(0.0, 6.0),
    ];
    let impact = DVec2::new(8.0, 3.0);
    let sites = Pattern::radial(260, 8.0, 2.0, 17)
        .expect(valid)
        .placed(impact, 0.4);
    let broken = d2::fracture(&[plate], &sites, &FractureSettings::default()).expect(valid);
    let gone: Vec<bool> = broken
        .pieces()
        .iter()
        .map(|p| p.centroid().distance(impact) < DESTROYED)
        .collect();
    let on_wall = |p: &d2::Piece| p.corners().iter().any(|c| c.x < 1e-9);
    let result = d2::islands(&broken, &gone, on_wall).expect("a flag per piece");
    let mut colour = vec!["#c9c9c4"; broken.pieces().len()];
    for (k, island) in result.falling().iter().enumerate() {
        for &p in island.pieces() {
            colour[p as usize] = FALLING[k % FALLING.len()];
        }
    }
    let s = 50.0;
    let (w, h) = (16.0 * s + 20.0, 6.0 * s + 60.0);
    let sx = |x: f64| 10.0 + x * s;
    let sy = |y: f64| 10.0 + (6.0 - y) * s;
    let mut svg = format!(
        "<figure><svg viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" style=\"max-width:100%;height:auto\" role=\"img\">\n"
    );
    for (k, p) in broken.pieces().iter().enumerate() {
        if gone[k] {
            continue;
        }
        let points: Vec<String> = p
            .corners()
            .iter()
            .map(|c| format!("{:.1},{:.1}", sx(c.x), sy(c.y)))
            .collect();
        let _ = writeln!(
            svg,
            "<polygon points=\"{}\" fill=\"{}\" stroke=\"#ffffff\" stroke-width=\"1\"/>",
            points.join(" "),
            colour[k]
        );
    }
    for &(a, b) in broken.bonds() {
        if gone[a as usize] || gone[b as usize] {
            continue;
        }
        let (pa, pb) = (
            broken.pieces()[a as usize].centroid(),
            broken.pieces()[b as usize].centroid(),
        );
        let _ = writeln!(
            svg,
            "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#333\" stroke-width=\"0.6\" opacity=\"0.6\"/>",
            sx(pa.x),
            sy(pa.y),
            sx(pb.x),
            sy(pb.y)
        );
    }
    let _ = writeln!(
        svg,
        "<rect x=\"0\" y=\"0\" width=\"10\" height=\"{h}\" fill=\"#6d6d68\"/>"
    );
    let _ = writeln!(
        svg,
        "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\"/>",
        sx(impact.x),
        sy(impact.y)
    );
    svg.push_str("</svg></figure>\n");
    let destroyed = gone.iter().filter(|g| **g).count();
    (
        svg,
        broken.pieces().len(),
        destroyed,
        result.falling().len(),
    )
}

/// The fracture section of the demo page.
pub fn fracture_section() -> String {
    let (svg, pieces, destroyed, falling) = plate_svg();
    format!(
        "<h3>Voronoi fracture</h3>\n<p>A 16 by 6 plate fixed to a wall on its left (dark) is hit at the circle. A radial pattern of 260 sites, dense near the impact, cuts it into {pieces} convex pieces (cells with more than 8 corners are cut in two). Lines join the centres of bonded pieces, those sharing an edge. The {destroyed} pieces centred within {DESTROYED} of the impact are destroyed: the group still joined to the wall stays (grey), and what is cut off from it falls, each group as one body in a colour of its own ({falling} here).</p>\n{svg}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plate_breaks_and_something_falls() {
        let (_, pieces, destroyed, falling) = plate_svg();
        assert!(pieces >= 150, "{pieces} pieces");
        assert!(destroyed > 10);
        assert!(falling >= 1, "the part cut off above the impact falls");
    }
}
