//! Tire forces: a curve from slip to a share of the grip, scaled by the
//! load, with the two slips combined so the forces stay inside the
//! friction ellipse (a wheel spinning on the throttle keeps little side
//! grip).

use crate::error::{GameError, positive, unit_share};
use collide::math;

/// The shape of a tire curve.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
    Simple { peak: f32, slide: f32 },
    Pacejka { b: f32, c: f32, d: f32, e: f32 },
}

/// A curve from slip (a slip ratio, or a slip angle in radians) to the
/// share of the tire's grip it uses, from -1 to 1, odd in the slip.
///
/// ```
/// use collide_game::vehicle::TireCurve;
/// let curve = TireCurve::simple(0.1, 0.7)?;
/// assert_eq!(curve.share(0.05), 0.5);
/// assert_eq!(curve.share(0.1), 1.0);
/// assert!((curve.share(-1.0) + 0.7).abs() < 1e-6); // sliding
/// let magic = TireCurve::pacejka(10.0, 1.9, 1.0, 0.97)?;
/// assert!(magic.share(0.1) > 0.9);
/// assert!(TireCurve::simple(0.0, 0.7).is_err());
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TireCurve {
    shape: Shape,
}

impl TireCurve {
    /// The hand-tunable curve: up in a straight line to the full grip at
    /// `peak` slip (above zero), down in a straight line to `slide` (0 to
    /// 1) at twice the peak, and flat after.
    pub fn simple(peak: f32, slide: f32) -> Result<Self, GameError> {
        let peak = positive("tire curve peak slip", f64::from(peak))? as f32;
        let slide = unit_share("tire curve sliding share", slide)?;
        Ok(Self {
            shape: Shape::Simple { peak, slide },
        })
    }

    /// Pacejka's magic formula, `d sin(c atan(b s - e (b s - atan(b s))))`:
    /// stiffness `b` (above zero), shape `c` (above zero, at most 2),
    /// peak `d` (above zero, at most 1) and curvature `e` (at most 1).
    pub fn pacejka(b: f32, c: f32, d: f32, e: f32) -> Result<Self, GameError> {
        let b = positive("Pacejka stiffness b", f64::from(b))? as f32;
        let c = positive("Pacejka shape c", f64::from(c))? as f32;
        let d = positive("Pacejka peak d", f64::from(d))? as f32;
        let c = crate::error::within("Pacejka shape c", f64::from(c), 0.0, 2.0)? as f32;
        let d = crate::error::within("Pacejka peak d", f64::from(d), 0.0, 1.0)? as f32;
        let e = crate::error::within("Pacejka curvature e", f64::from(e), f64::MIN, 1.0)? as f32;
        Ok(Self {
            shape: Shape::Pacejka { b, c, d, e },
        })
    }

    /// The share of the grip used at `slip`, -1 to 1.
    pub fn share(&self, slip: f32) -> f32 {
        let s = slip.abs();
        let value = match self.shape {
            Shape::Simple { peak, slide } => {
                if s <= peak {
                    s / peak
                } else if s <= 2.0 * peak {
                    1.0 - (1.0 - slide) * (s - peak) / peak
                } else {
                    slide
                }
            }
            Shape::Pacejka { b, c, d, e } => {
                let bs = b * s;
                (d * math::sin(c * math::atan(bs - e * (bs - math::atan(bs))))).clamp(0.0, 1.0)
            }
        };
        value.copysign(slip)
    }

    /// The slip where the curve peaks (for Pacejka's, where
    /// `c atan(b s)` reaches a right angle; its largest slip when it
    /// never does).
    pub fn peak_slip(&self) -> f32 {
        match self.shape {
            Shape::Simple { peak, .. } => peak,
            Shape::Pacejka { b, c, .. } => {
                if c > 1.0 {
                    math::tan(std::f32::consts::FRAC_PI_2 / c) / b
                } else {
                    10.0 / b
                }
            }
        }
    }
}

/// `value` if it is finite and from -1 to 1: a throttle or a steering
/// input.
pub(crate) fn signed(what: &'static str, value: f32) -> Result<f32, GameError> {
    crate::error::within(what, f64::from(value), -1.0, 1.0)?;
    Ok(value)
}

/// A tire: its curves for slip ratio and slip angle, and its grip along
/// and across (the friction ellipse's half axes, as friction
/// coefficients).
///
/// ```
/// use collide_game::vehicle::{TireCurve, TireSettings};
/// let tire = TireSettings::default().with_grip(1.1, 0.9)?;
/// // Full throttle spin and a slide at once: the ellipse caps the sum.
/// let (along, across) = tire.forces(0.5, 0.3, 4000.0);
/// assert!((along / (1.1 * 4000.0)).powi(2) + (across / (0.9 * 4000.0)).powi(2) <= 1.0 + 1e-5);
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TireSettings {
    longitudinal: TireCurve,
    lateral: TireCurve,
    grip_along: f32,
    grip_across: f32,
}

impl Default for TireSettings {
    /// Simple curves peaking at a slip ratio of 0.1 and a slip angle of 0.14
    /// rad (8 degrees), sliding at 0.75 of the grip; grip 1.0 both ways.
    fn default() -> Self {
        Self {
            longitudinal: TireCurve {
                shape: Shape::Simple {
                    peak: 0.1,
                    slide: 0.75,
                },
            },
            lateral: TireCurve {
                shape: Shape::Simple {
                    peak: 0.14,
                    slide: 0.75,
                },
            },
            grip_along: 1.0,
            grip_across: 1.0,
        }
    }
}

impl TireSettings {
    /// The curves for slip ratio (`longitudinal`) and slip angle in
    /// radians (`lateral`).
    pub fn with_curves(mut self, longitudinal: TireCurve, lateral: TireCurve) -> Self {
        self.longitudinal = longitudinal;
        self.lateral = lateral;
        self
    }

    /// The friction coefficients along and across the wheel (above zero).
    pub fn with_grip(mut self, along: f32, across: f32) -> Result<Self, GameError> {
        self.grip_along = positive("tire grip along", f64::from(along))? as f32;
        self.grip_across = positive("tire grip across", f64::from(across))? as f32;
        Ok(self)
    }

    /// The friction coefficients along and across.
    pub fn grip(&self) -> (f32, f32) {
        (self.grip_along, self.grip_across)
    }

    /// The curves: slip ratio, slip angle.
    pub fn curves(&self) -> (TireCurve, TireCurve) {
        (self.longitudinal, self.lateral)
    }

    /// The forces along and across the wheel (N, in the directions of
    /// the slips) for a slip ratio and a slip angle (radians) under `load`
    /// N (0 or more; all finite, or the forces are not). The slips, each
    /// divided by its curve's peak slip, combine into one; each direction
    /// takes its part of what its curve gives at the combined slip, times
    /// its grip and the load. Alone, a slip reads its curve as it is;
    /// together, the forces stay inside the friction ellipse (grip times
    /// load along and across), and a large slip one way leaves little
    /// force the other.
    pub fn forces(&self, slip_ratio: f32, slip_angle: f32, load: f32) -> (f32, f32) {
        let (peak_ratio, peak_angle) = (self.longitudinal.peak_slip(), self.lateral.peak_slip());
        let (ratio, angle) = (slip_ratio / peak_ratio, slip_angle / peak_angle);
        let combined = (ratio * ratio + angle * angle).sqrt();
        if combined == 0.0 || load <= 0.0 {
            return (0.0, 0.0);
        }
        let along = self.grip_along
            * load
            * self.longitudinal.share(combined * peak_ratio)
            * (ratio / combined);
        let across = self.grip_across
            * load
            * self.lateral.share(combined * peak_angle)
            * (angle / combined);
        limit_to_ellipse(
            along,
            across,
            self.grip_along * load,
            self.grip_across * load,
        )
    }
}

/// `(along, across)` scaled down together onto the ellipse with half axes
/// `max_along` and `max_across` when outside it.
pub(crate) fn limit_to_ellipse(
    along: f32,
    across: f32,
    max_along: f32,
    max_across: f32,
) -> (f32, f32) {
    if max_along <= 0.0 || max_across <= 0.0 {
        return (0.0, 0.0);
    }
    let used = math::powi(along / max_along, 2) + math::powi(across / max_across, 2);
    if used <= 1.0 {
        (along, across)
    } else {
        let scale = 1.0 / used.sqrt();
        (along * scale, across * scale)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_slip_and_load_ever_give_more_than_the_grip_times_the_load() {
        let tire = TireSettings::default().with_grip(1.2, 0.9).unwrap();
        let magic = tire.with_curves(
            TireCurve::pacejka(10.0, 1.65, 1.0, 0.97).unwrap(),
            TireCurve::pacejka(8.0, 1.3, 1.0, -0.5).unwrap(),
        );
        let mut rng = collide_scenes::SceneRng::new(7);
        let mut unit = || rng.unit();
        for t in [tire, magic] {
            for _ in 0..10_000 {
                let (ratio, angle, load) =
                    (unit() * 8.0 - 4.0, unit() * 3.0 - 1.5, unit() * 9000.0);
                let (along, across) = t.forces(ratio, angle, load);
                let total = (along * along + across * across).sqrt();
                assert!(total <= 1.2 * load * (1.0 + 1e-5), "{total} over {load}");
                assert!(
                    math::powi(along / (1.2 * load), 2) + math::powi(across / (0.9 * load), 2)
                        <= 1.0 + 1e-4
                );
            }
        }
        // A wheel spinning at full slip keeps less side grip than one
        // rolling: the ellipse at work.
        let (_, rolling) = tire.forces(0.0, 0.1, 4000.0);
        let (_, spinning) = tire.forces(0.5, 0.1, 4000.0);
        assert!(spinning < 0.8 * rolling, "{spinning} against {rolling}");
    }
}
