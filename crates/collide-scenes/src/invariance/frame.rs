//! Where and how fast a scenario runs: its frame of reference ([`Frame`]:
//! moved, mirrored, scaled) and its tick rate ([`Rate`]: ticks a second,
//! and frames of fixed or jittered length).

use crate::SceneRng;
use collide::math;
use glam::{DVec2, DVec3, Quat, Vec2, Vec3};

/// A frame of reference: a point `p` of the scenario (given as at the
/// origin) is placed in the world at `offset + scale × mirror(p)`,
/// computed in `f64` and rounded to `f32` once. Mirroring takes x to -x.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    offset: DVec3,
    mirrored: bool,
    scale: f64,
}

impl Frame {
    /// The scenario as written: at the origin, unmirrored, at scale 1.
    pub const ORIGIN: Frame = Frame {
        offset: DVec3::ZERO,
        mirrored: false,
        scale: 1.0,
    };

    /// Moved by `offset` (world units).
    pub fn translated(offset: DVec3) -> Frame {
        Frame {
            offset,
            ..Frame::ORIGIN
        }
    }

    /// Mirrored: x to -x.
    pub fn mirrored() -> Frame {
        Frame {
            mirrored: true,
            ..Frame::ORIGIN
        }
    }

    /// Every length times `scale`.
    pub fn scaled(scale: f64) -> Frame {
        Frame {
            scale,
            ..Frame::ORIGIN
        }
    }

    /// How far the scenario is moved (world units).
    pub fn offset(&self) -> DVec3 {
        self.offset
    }

    /// Whether x is mirrored.
    pub fn is_mirrored(&self) -> bool {
        self.mirrored
    }

    /// What every length is multiplied by.
    pub fn scale(&self) -> f64 {
        self.scale
    }

    /// A 3D point of the scenario, in the world.
    pub fn point3(&self, p: Vec3) -> Vec3 {
        (self.offset + self.vector(p.as_dvec3(), 1)).as_vec3()
    }

    /// A 2D point of the scenario, in the world (the offset's x and y).
    pub fn point2(&self, p: Vec2) -> Vec2 {
        self.point3(p.extend(0.0)).truncate()
    }

    /// A 3D point of an `f64` scenario, in the world.
    pub fn dpoint3(&self, p: DVec3) -> DVec3 {
        self.offset + self.vector(p, 1)
    }

    /// A 2D point of an `f64` scenario, in the world.
    pub fn dpoint2(&self, p: DVec2) -> DVec2 {
        self.dpoint3(p.extend(0.0)).truncate()
    }

    /// A 3D length, velocity or acceleration of the scenario, in the world:
    /// mirrored and scaled.
    pub fn vector3(&self, v: Vec3) -> Vec3 {
        self.vector(v.as_dvec3(), 1).as_vec3()
    }

    /// A 2D length, velocity or acceleration of the scenario, in the world.
    pub fn vector2(&self, v: Vec2) -> Vec2 {
        self.vector3(v.extend(0.0)).truncate()
    }

    /// A length (a radius, a distance), in the world.
    pub fn length(&self, length: f32) -> f32 {
        (f64::from(length) * self.scale) as f32
    }

    /// A 3D orientation of the scenario, in the world: a turn about an axis
    /// becomes the opposite turn about the mirrored axis.
    pub fn turn(&self, q: Quat) -> Quat {
        if self.mirrored {
            Quat::from_xyzw(q.x, -q.y, -q.z, q.w)
        } else {
            q
        }
    }

    /// A turn in the plane (2D) or about the up axis (3D yaw), in radians.
    pub fn angle(&self, radians: f32) -> f32 {
        if self.mirrored { -radians } else { radians }
    }

    /// `v`, mirrored and times `scale` to the `power`.
    pub(crate) fn vector(&self, v: DVec3, power: i32) -> DVec3 {
        let v = if self.mirrored {
            DVec3::new(-v.x, v.y, v.z)
        } else {
            v
        };
        v * math::powi(self.scale, power)
    }

    /// A world point (its first `dims` axes), back in the scenario's
    /// coordinates.
    pub(crate) fn point_back(&self, p: DVec3, dims: usize) -> DVec3 {
        let mut offset = self.offset;
        if dims == 2 {
            offset.z = 0.0;
        }
        self.vector(p - offset, 0) / self.scale
    }

    /// A world quantity of length to the `power`, back in the scenario's
    /// units (mirroring is its own inverse).
    pub(crate) fn vector_back(&self, v: DVec3, power: i32) -> DVec3 {
        self.vector(v, 0) / math::powi(self.scale, power)
    }

    /// The largest coordinate the frame puts a scenario `size` across at.
    pub(crate) fn coordinate_size(&self, size: f64) -> f64 {
        self.offset.abs().max_element() + size * self.scale
    }

    /// A short name for reports.
    pub(crate) fn describe(&self) -> String {
        if self.offset != DVec3::ZERO {
            let d = self.offset.length();
            let u = self.offset / d;
            format!("moved {d:.0e} along ({:.2}, {:.2}, {:.2})", u.x, u.y, u.z)
        } else if self.mirrored {
            "mirrored".to_owned()
        } else if self.scale != 1.0 {
            format!("scaled by {}", self.scale)
        } else {
            "at the origin".to_owned()
        }
    }
}

/// How frames arrive: each one tick long, or of random lengths that a
/// fixed-step clock turns into the same ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pacing {
    /// Every frame one tick long.
    Fixed,
    /// Frames from a quarter of a tick to two and a half ticks long, drawn
    /// from this seed.
    Jittered(u64),
}

/// A tick rate and the pacing of the frames that bring the ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    hz: u32,
    pacing: Pacing,
}

impl Rate {
    /// 60 ticks a second, one a frame: the rate every other is compared to.
    pub const REFERENCE: Rate = Rate {
        hz: 60,
        pacing: Pacing::Fixed,
    };

    /// `hz` ticks a second (above zero), one a frame.
    pub fn fixed(hz: u32) -> Rate {
        Rate {
            hz: hz.max(1),
            pacing: Pacing::Fixed,
        }
    }

    /// `hz` ticks a second, in frames of random length drawn from `seed`.
    pub fn jittered(hz: u32, seed: u64) -> Rate {
        Rate {
            hz: hz.max(1),
            pacing: Pacing::Jittered(seed),
        }
    }

    /// Ticks a second.
    pub fn hz(&self) -> u32 {
        self.hz
    }

    /// How frames arrive.
    pub fn pacing(&self) -> Pacing {
        self.pacing
    }

    /// The length of a tick, in seconds.
    pub fn tick_seconds(&self) -> f64 {
        1.0 / f64::from(self.hz)
    }

    /// The length of a tick, in seconds, as `f32`.
    pub fn tick_seconds_f32(&self) -> f32 {
        self.tick_seconds() as f32
    }

    /// The whole ticks in `seconds` of game time (rounded to the nearest).
    pub fn ticks_in(&self, seconds: f64) -> u64 {
        (seconds * f64::from(self.hz)).round() as u64
    }

    /// The lengths of the frames, in seconds, without end: one tick each
    /// when fixed, random when jittered.
    pub fn frames(&self) -> impl Iterator<Item = f64> + use<> {
        let tick = self.tick_seconds();
        let mut rng = match self.pacing {
            Pacing::Fixed => None,
            Pacing::Jittered(seed) => Some(SceneRng::new(seed)),
        };
        std::iter::from_fn(move || {
            Some(match rng.as_mut() {
                None => tick,
                Some(rng) => tick * f64::from(rng.range(0.25, 2.5)),
            })
        })
    }

    /// A short name for reports.
    pub(crate) fn describe(&self) -> String {
        match self.pacing {
            Pacing::Fixed => format!("{} Hz", self.hz),
            Pacing::Jittered(_) => format!("{} Hz in jittered frames", self.hz),
        }
    }
}

/// The size of one unit in the last place near `x` of an `f32`, or of
/// an `f64` when `double`.
pub(crate) fn ulp(x: f64, double: bool) -> f64 {
    if double {
        let x = x.abs().max(f64::MIN_POSITIVE);
        return x.next_up() - x;
    }
    let x = (x.abs() as f32).max(f32::MIN_POSITIVE);
    f64::from(x.next_up()) - f64::from(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_go_out_and_come_back() {
        let frame = Frame {
            offset: DVec3::new(1e4, -2e3, 5e2),
            mirrored: true,
            scale: 2.0,
        };
        let p = Vec3::new(1.5, -2.0, 3.25);
        let world = frame.point3(p);
        assert_eq!(world, Vec3::new(1e4 - 3.0, -2e3 - 4.0, 5e2 + 6.5));
        let back = frame.point_back(world.as_dvec3(), 3);
        assert_eq!(back, p.as_dvec3());
        let p2 = Vec2::new(1.5, -2.0);
        assert_eq!(
            frame.point_back(frame.point2(p2).extend(0.0).as_dvec3(), 2),
            p2.extend(0.0).as_dvec3()
        );
    }

    #[test]
    fn a_mirrored_turn_turns_the_mirrored_way() {
        let q = Quat::from_axis_angle(Vec3::new(0.3, 0.8, -0.5).normalize(), 0.9);
        let frame = Frame::mirrored();
        let mirror = |v: Vec3| Vec3::new(-v.x, v.y, v.z);
        let v = Vec3::new(0.2, -1.0, 0.7);
        let turned = frame.turn(q) * mirror(v);
        assert!((turned - mirror(q * v)).length() < 1e-6);
    }

    #[test]
    fn jittered_frames_average_a_tick_and_fixed_ones_are_a_tick() {
        let fixed = Rate::fixed(144);
        assert!(fixed.frames().take(10).all(|f| f == 1.0 / 144.0));
        let jittered = Rate::jittered(60, 7);
        let mean = jittered.frames().take(10_000).sum::<f64>() / 10_000.0;
        assert!((mean * 60.0 - 1.375).abs() < 0.02, "{}", mean * 60.0);
    }

    #[test]
    fn ulps_grow_with_the_coordinate() {
        assert_eq!(ulp(1.0, false), f64::from(f32::EPSILON));
        assert_eq!(ulp(1e5, false), 0.0078125);
        assert_eq!(ulp(-1e4, false), 0.0009765625);
        assert_eq!(ulp(1.0, true), f64::EPSILON);
    }
}
