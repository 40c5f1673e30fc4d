//! Quadratic drag, solved exactly: a = −k v², with k = ρ C_d A / (2 m)
//! from the medium and the projectile. Over a time τ at speed s, the
//! speed becomes s / (1 + k s τ) and the distance covered is
//! ln(1 + k s τ) / k along the same direction: the exact solution, so no
//! step is too long (the explicit update v − k v² dt reverses a bullet in
//! water, where k s dt is far above 1) and the speed follows v₀ e^(−k x)
//! whatever the tick.

use crate::dim::{Dim, dot, length};
use crate::error::{GameError, non_negative, positive};
use collide::math;

/// A fluid a projectile moves through, by its density.
///
/// ```
/// use collide_game::projectile::Medium;
/// assert!(Medium::WATER.density() > 800.0 * Medium::AIR.density());
/// assert!(Medium::new(-1.0).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Medium {
    density: f32,
}

impl Medium {
    /// Air at sea level, 15 °C: 1.225 kg/m³.
    pub const AIR: Medium = Medium { density: 1.225 };
    /// Fresh water: 998 kg/m³.
    pub const WATER: Medium = Medium { density: 998.0 };
    /// A vacuum: no drag.
    pub const VACUUM: Medium = Medium { density: 0.0 };

    /// A medium of `density` kg/m³ (finite, not negative).
    pub fn new(density: f32) -> Result<Self, GameError> {
        let density = non_negative("medium density (kg/m3)", f64::from(density))? as f32;
        Ok(Medium { density })
    }

    /// The density, kg/m³.
    pub fn density(&self) -> f32 {
        self.density
    }
}

/// What drag depends on in the projectile: its mass, drag coefficient and
/// cross-section.
///
/// ```
/// use collide_game::projectile::{Body, Medium};
/// // A 9 mm pistol bullet: 8 g, drag coefficient about 0.3.
/// let bullet = Body::sphere(0.008, 0.3, 0.0045)?;
/// let (air, water) = (bullet.k(Medium::AIR), bullet.k(Medium::WATER));
/// // Nine tenths of the speed gone after ln(10)/k metres.
/// let (in_air, in_water) = (10f32.ln() / air, 10f32.ln() / water);
/// assert!(in_water > 1.5 && in_water < 3.0);
/// assert!(in_air > 1000.0);
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Body {
    mass: f32,
    drag_coefficient: f32,
    area: f32,
}

impl Body {
    /// A body of `mass` kg (above 0), drag coefficient `drag_coefficient`
    /// (not negative) and cross-section `area` m² (not negative).
    pub fn new(mass: f32, drag_coefficient: f32, area: f32) -> Result<Self, GameError> {
        Ok(Body {
            mass: positive("projectile mass (kg)", f64::from(mass))? as f32,
            drag_coefficient: non_negative("drag coefficient", f64::from(drag_coefficient))? as f32,
            area: non_negative("cross-section (m2)", f64::from(area))? as f32,
        })
    }

    /// A round body of `radius` m: cross-section π r².
    pub fn sphere(mass: f32, drag_coefficient: f32, radius: f32) -> Result<Self, GameError> {
        let r = non_negative("projectile radius (m)", f64::from(radius))? as f32;
        Self::new(mass, drag_coefficient, std::f32::consts::PI * r * r)
    }

    /// The drag constant k = ρ C_d A / (2 m) in `medium`, per metre.
    pub fn k(&self, medium: Medium) -> f32 {
        medium.density * self.drag_coefficient * self.area / (2.0 * self.mass)
    }
}

/// Drag alone for `tau` seconds from `velocity` with constant `k`: the new
/// velocity and the displacement, exactly.
pub(crate) fn drag<D: Dim>(velocity: D::V, k: f32, tau: f32) -> (D::V, D::V) {
    let speed = length(velocity);
    if speed == 0.0 {
        return (velocity, D::ZERO);
    }
    if k == 0.0 {
        return (velocity, velocity * tau);
    }
    let x = k * speed * tau;
    let distance = math::ln_1p(x) / k;
    (velocity * (1.0 / (1.0 + x)), velocity * (distance / speed))
}

/// The time drag alone takes to carry a body at `speed` over `distance`
/// with constant `k` (the inverse of [`drag`]'s distance).
pub(crate) fn time_to_cover(speed: f32, k: f32, distance: f32) -> f32 {
    if speed <= 0.0 {
        return f32::INFINITY;
    }
    if k == 0.0 {
        return distance / speed;
    }
    math::exp_m1(k * distance) / (k * speed)
}

/// The distance drag alone carries a body at `speed` in `tau` seconds.
pub(crate) fn distance_in(speed: f32, k: f32, tau: f32) -> f32 {
    if k == 0.0 {
        speed * tau
    } else {
        math::ln_1p(k * speed * tau) / k
    }
}

/// The unit direction of `v` (zero for zero).
pub(crate) fn direction<D: Dim>(v: D::V) -> D::V {
    let s = length(v);
    if s > 0.0 { v * (1.0 / s) } else { D::ZERO }
}

/// `v` reflected off a surface of unit `normal` (pointing against the
/// motion), keeping `restitution` of the part into it and `1 − friction`
/// of the part along it.
pub(crate) fn bounce<D: Dim>(v: D::V, normal: D::V, restitution: f32, friction: f32) -> D::V {
    let into = dot(v, normal);
    if into >= 0.0 {
        return v;
    }
    let along = v - normal * into;
    along * (1.0 - friction) - normal * (into * restitution)
}
