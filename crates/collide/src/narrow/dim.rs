//! [`Dim`]: what the general algorithms need to know of a dimension beyond
//! [`Vector`]: its f64 point type (`DVec2`, `DVec3`), the exact widening
//! to it and back, and the one algorithm that differs by dimension, EPA
//! (`d2/epa.rs`, `d3/epa.rs`). Poses only place shapes (`placement.rs`).

use super::d2::epa as epa2;
use super::d3::epa as epa3;
use super::gjk::{MinkowskiSupport, Simplex};
use super::placement::Penetration;
use super::point::Point;
use crate::geometry::Vector;
use glam::{DVec2, DVec3, Vec2, Vec3};

/// A dimension, named by its f32 vector type.
pub(crate) trait Dim: Vector {
    /// The f64 point of the same dimension.
    type P: Point;
    /// This vector in f64 (exact: every f32 is an f64).
    fn wide(self) -> Self::P;
    /// An f64 point rounded to f32.
    fn narrow(p: Self::P) -> Self;
    /// EPA in this dimension, from GJK's last simplex; `None` when the
    /// difference has no volume (area in 2D): the cores touch without
    /// depth.
    fn penetration(
        shapes: &impl MinkowskiSupport<Self::P>,
        simplex: &Simplex<Self::P>,
    ) -> Option<Penetration<Self::P>>;
}

impl Dim for Vec2 {
    type P = DVec2;
    #[inline]
    fn wide(self) -> DVec2 {
        self.as_dvec2()
    }
    #[inline]
    fn narrow(p: DVec2) -> Self {
        p.as_vec2()
    }
    fn penetration(
        shapes: &impl MinkowskiSupport<DVec2>,
        simplex: &Simplex<DVec2>,
    ) -> Option<Penetration<DVec2>> {
        epa2::penetration(shapes, simplex)
    }
}

impl Dim for Vec3 {
    type P = DVec3;
    #[inline]
    fn wide(self) -> DVec3 {
        self.as_dvec3()
    }
    #[inline]
    fn narrow(p: DVec3) -> Self {
        p.as_vec3()
    }
    fn penetration(
        shapes: &impl MinkowskiSupport<DVec3>,
        simplex: &Simplex<DVec3>,
    ) -> Option<Penetration<DVec3>> {
        epa3::penetration(shapes, simplex)
    }
}
