//! Bad input is an error, never a value: NaN, infinite and negative
//! numbers through every public constructor and setter that takes a
//! number, in 2D and 3D. (Fields that could hold such values are private,
//! so these are the only ways in.)

use collide::geometry::{Frustum, Plane, Ray, SweptAabb};
use collide::narrow::{Ball, Capsule, Cuboid, d2, d3};
use collide::{
    Aabb, Aabb2, Aabb3, BandSap, Grid, GridConfig, GridKind, KdTree, Sap, SapConfig, Spanners,
    Vector,
};
use glam::{Quat, Vec2, Vec3};

/// NaN and both infinities.
const NON_FINITE: [f32; 3] = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY];

/// `v` with `bad` on axis `axis`.
fn with<V: Vector>(v: V, axis: usize, bad: f32) -> V {
    V::from_axes(|a| if a == axis { bad } else { v.axis(a) })
}

fn boxes_and_queries<V: Vector>() {
    let zero = V::from_axes(|_| 0.0);
    let one = V::from_axes(|_| 1.0);
    let unit = Aabb::new(zero, one).unwrap();
    for axis in 0..V::DIM {
        for bad in NON_FINITE {
            let what = format!("{}D axis {axis} = {bad}", V::DIM);
            assert!(Aabb::new(with(zero, axis, bad), one).is_err(), "{what}");
            assert!(Aabb::new(zero, with(one, axis, bad)).is_err(), "{what}");
            assert!(
                Aabb::from_center_half_extents(with(zero, axis, bad), one).is_err(),
                "{what}"
            );
            assert!(
                Aabb::from_center_half_extents(zero, with(one, axis, bad)).is_err(),
                "{what}"
            );
            assert!(Aabb::from_point(with(zero, axis, bad)).is_err(), "{what}");
            assert!(Ray::new(with(zero, axis, bad), one, 1.0).is_err(), "{what}");
            assert!(Ray::new(zero, with(one, axis, bad), 1.0).is_err(), "{what}");
            assert!(
                SweptAabb::new(unit, with(one, axis, bad)).is_err(),
                "{what}"
            );
            let plane = Plane::new(with(one, axis, bad), 0.0);
            assert!(Frustum::new(&[plane]).is_err(), "{what}");
            assert!(
                KdTree::build(&[zero, with(one, axis, bad)]).is_err(),
                "{what}"
            );
        }
        // Negative sizes and min above max.
        assert!(Aabb::from_center_half_extents(zero, with(one, axis, -1.0)).is_err());
        assert!(Aabb::new(one, with(one, axis, 0.0)).is_err());
    }
    for bad in [f32::NAN, -1.0, f32::NEG_INFINITY] {
        assert!(Ray::new(zero, one, bad).is_err(), "max_t {bad}");
    }
    for bad in NON_FINITE {
        assert!(
            Frustum::new(&[Plane::new(one, bad)]).is_err(),
            "offset {bad}"
        );
    }
    let mut points = KdTree::build(&[zero, one]).unwrap();
    assert!(points.set_rebuild_share(f32::NAN).is_err());
}

#[test]
fn boxes_rays_regions_and_points_refuse_bad_numbers() {
    boxes_and_queries::<Vec2>();
    boxes_and_queries::<Vec3>();
}

#[test]
fn structure_settings_refuse_bad_numbers() {
    for bad in [f32::NAN, f32::INFINITY, -1.0, 0.0] {
        let config = GridConfig::<Vec2> {
            cell_size: Some(bad),
            ..GridConfig::default()
        };
        assert!(
            Grid::<Vec2>::with_config(GridKind::Hashed, config).is_err(),
            "cell {bad}"
        );
        let config = SapConfig {
            spanners: Spanners::Extent(bad),
            ..SapConfig::default()
        };
        assert!(
            BandSap::<Vec2>::with_config(config).is_err(),
            "extent {bad}"
        );
    }
    for bad in [f32::NAN, f32::INFINITY, 0.5] {
        let config = SapConfig {
            spanners: Spanners::Relative { factor: bad },
            ..SapConfig::default()
        };
        assert!(Sap::<Vec3>::with_config(config).is_err(), "factor {bad}");
    }
    for bad in [f32::NAN, f32::INFINITY, -0.5] {
        let config = GridConfig::<Vec3> {
            demote_ratio: bad,
            ..GridConfig::default()
        };
        let grid = Grid::<Vec3>::with_config(GridKind::Hierarchical, config);
        assert!(grid.is_err(), "demote ratio {bad}");
    }
}

fn shapes_refuse_bad_numbers<V: Vector>() {
    let one = V::from_axes(|_| 1.0);
    for bad in NON_FINITE.into_iter().chain([-1.0]) {
        assert!(Ball::<V>::new(bad).is_err(), "ball radius {bad}");
        assert!(
            Capsule::<V>::new(bad, 0.5).is_err(),
            "capsule half height {bad}"
        );
        assert!(Capsule::<V>::new(1.0, bad).is_err(), "capsule radius {bad}");
        assert!(
            Capsule::<V>::between(one, one, bad).is_err(),
            "capsule radius {bad}"
        );
        for axis in 0..V::DIM {
            assert!(
                Cuboid::new(with(one, axis, bad)).is_err(),
                "half extent {bad}"
            );
        }
    }
    for bad in NON_FINITE {
        for axis in 0..V::DIM {
            assert!(
                Capsule::between(with(one, axis, bad), one, 0.5).is_err(),
                "end {bad}"
            );
            assert!(
                Capsule::between(one, with(one, axis, bad), 0.5).is_err(),
                "end {bad}"
            );
        }
    }
}

#[test]
fn shapes_refuse_bad_numbers_2d_and_3d() {
    shapes_refuse_bad_numbers::<Vec2>();
    shapes_refuse_bad_numbers::<Vec3>();
    let triangle = [Vec2::ZERO, Vec2::X, Vec2::Y];
    let tetra = [Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z];
    for bad in NON_FINITE {
        let mut points = triangle;
        points[1].x = bad;
        assert!(d2::Polygon::new(&points).is_err(), "polygon point {bad}");
        let mut points = tetra;
        points[2].z = bad;
        assert!(
            d3::Polyhedron::new(&points).is_err(),
            "polyhedron point {bad}"
        );
    }
    for bad in NON_FINITE.into_iter().chain([-0.5]) {
        assert!(
            d2::Polygon::rounded(&triangle, bad).is_err(),
            "rounding {bad}"
        );
        assert!(
            d3::Polyhedron::rounded(&tetra, bad).is_err(),
            "rounding {bad}"
        );
    }
}

#[test]
fn poses_refuse_bad_numbers_and_keep_their_value() {
    for bad in NON_FINITE {
        assert!(d2::Pose::new(Vec2::new(bad, 0.0), 0.0).is_err());
        assert!(d2::Pose::new(Vec2::ZERO, bad).is_err());
        assert!(d2::Pose::at(Vec2::new(0.0, bad)).is_err());
        assert!(d3::Pose::new(Vec3::new(0.0, 0.0, bad), Quat::IDENTITY).is_err());
        assert!(d3::Pose::new(Vec3::ZERO, Quat::from_xyzw(bad, 0.0, 0.0, 1.0)).is_err());
        assert!(d3::Pose::at(Vec3::new(bad, 0.0, 0.0)).is_err());

        let mut flat = d2::Pose::new(Vec2::ONE, 0.5).unwrap();
        let before = flat;
        assert!(flat.set_position(Vec2::new(bad, 1.0)).is_err());
        assert!(flat.set_angle(bad).is_err());
        assert_eq!(flat, before, "a refused setter changes nothing");

        let mut solid = d3::Pose::new(Vec3::ONE, Quat::from_rotation_x(0.5)).unwrap();
        let before = solid;
        assert!(solid.set_position(Vec3::new(1.0, bad, 1.0)).is_err());
        assert!(
            solid
                .set_rotation(Quat::from_xyzw(0.0, bad, 0.0, 1.0))
                .is_err()
        );
        assert_eq!(solid, before, "a refused setter changes nothing");
    }
    let zero = Quat::from_xyzw(0.0, 0.0, 0.0, 0.0);
    assert!(
        d3::Pose::new(Vec3::ZERO, zero).is_err(),
        "a zero quaternion"
    );
    let mut solid = d3::Pose::IDENTITY;
    assert!(solid.set_rotation(zero).is_err());
    // A box of a shape at a good pose is always finite.
    let body = d3::Capsule::new(1.0, 0.5).unwrap();
    let at = d3::Pose::new(Vec3::splat(1e30), Quat::from_rotation_y(1.0)).unwrap();
    let bound: Aabb3 = body.aabb(&at);
    assert!(bound.min().is_finite() && bound.max().is_finite());
    let coin = d2::Circle::new(0.5).unwrap();
    let bound: Aabb2 = coin.aabb(&d2::Pose::at(Vec2::splat(-1e30)).unwrap());
    assert!(bound.min().is_finite() && bound.max().is_finite());
}
