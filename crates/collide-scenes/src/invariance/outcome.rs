//! What a scenario records: points, vectors, measures, turns and exact
//! values to compare between runs, and limits each run must keep. The same
//! name recorded again makes a series, compared entry by entry.

use glam::{DQuat, DVec2, DVec3, Quat, Vec2, Vec3};

/// One recorded value, in world units as the run saw it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Quantity {
    /// A position; its first `dims` axes are moved by the frame.
    Point { at: DVec3, dims: usize },
    /// A direction-like value of length to the `power` (1: a velocity).
    Vector { value: DVec3, power: i32 },
    /// A number of length to the `power` (0: seconds, ratios).
    Measure { value: f64, power: i32 },
    /// A kinetic or potential energy per unit mass (length squared over
    /// time squared): at rest it may fall, never rise.
    Energy(f64),
    /// A turn in the plane or about the up axis, radians.
    Angle(f64),
    /// A 3D orientation.
    Turn(DQuat),
    /// A count, a flag, an event: the same in every run.
    Exact(i64),
    /// A bound the run must keep: `value` at most `allowed` (in the
    /// scenario's units, at scale 1), or far out what the coordinates'
    /// rounding allows it (`far`).
    Limit {
        value: f64,
        allowed: f64,
        power: i32,
        far: Far,
    },
}

/// What a limit is also allowed far from the origin, where coordinates
/// round coarsely.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Far {
    /// Nothing more: a ratio, a share of energy.
    Nothing,
    /// A length (a depth, a gap): the frame's few ulps of the coordinates.
    Coordinates,
    /// An angle between points at least this far apart (scenario units):
    /// those few ulps over that length, radians.
    AngleOver(f64),
}

/// A scenario's record of one run: named values in the order recorded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    pub(crate) entries: Vec<(String, Quantity)>,
}

impl Outcome {
    /// An empty record.
    pub fn new() -> Self {
        Self::default()
    }

    fn push(&mut self, name: &str, quantity: Quantity) {
        self.entries.push((name.to_owned(), quantity));
    }

    /// A 3D position in the world.
    pub fn point3(&mut self, name: &str, at: Vec3) {
        let at = at.as_dvec3();
        self.push(name, Quantity::Point { at, dims: 3 });
    }

    /// A 2D position in the world.
    pub fn point2(&mut self, name: &str, at: Vec2) {
        let at = at.extend(0.0).as_dvec3();
        self.push(name, Quantity::Point { at, dims: 2 });
    }

    /// A 3D position of an `f64` system in the world.
    pub fn dpoint3(&mut self, name: &str, at: DVec3) {
        self.push(name, Quantity::Point { at, dims: 3 });
    }

    /// A 2D position of an `f64` system in the world.
    pub fn dpoint2(&mut self, name: &str, at: DVec2) {
        let at = at.extend(0.0);
        self.push(name, Quantity::Point { at, dims: 2 });
    }

    /// A 3D velocity (or any vector of length to the first power).
    pub fn vector3(&mut self, name: &str, value: Vec3) {
        let value = value.as_dvec3();
        self.push(name, Quantity::Vector { value, power: 1 });
    }

    /// A 2D velocity (or any vector of length to the first power).
    pub fn vector2(&mut self, name: &str, value: Vec2) {
        let value = value.extend(0.0).as_dvec3();
        self.push(name, Quantity::Vector { value, power: 1 });
    }

    /// A number of length to the `power`: 0 for seconds and ratios, 1 for
    /// lengths and speeds, 2 for areas, 3 for volumes.
    pub fn measure(&mut self, name: &str, value: f64, power: i32) {
        self.push(name, Quantity::Measure { value, power });
    }

    /// An energy per unit mass (J/kg): compared as a measure of length
    /// squared, and at rest allowed to fall but not to rise.
    pub fn energy(&mut self, name: &str, joules_per_kg: f64) {
        self.push(name, Quantity::Energy(joules_per_kg));
    }

    /// A turn in the plane, or about the up axis, in radians.
    pub fn angle(&mut self, name: &str, radians: f64) {
        self.push(name, Quantity::Angle(radians));
    }

    /// A 3D orientation.
    pub fn turn(&mut self, name: &str, turn: Quat) {
        self.push(name, Quantity::Turn(turn.as_dquat()));
    }

    /// A count, flag or event that every run must give alike.
    pub fn exact(&mut self, name: &str, value: i64) {
        self.push(name, Quantity::Exact(value));
    }

    /// A length the run must keep under `allowed` (metres at scale 1): a
    /// depth inside a wall, a gap. Far out, the allowance is the larger of
    /// `allowed` and the frame's few ulps of the coordinates.
    pub fn depth_limit(&mut self, name: &str, depth: f64, allowed: f64) {
        self.push(
            name,
            Quantity::Limit {
                value: depth,
                allowed,
                power: 1,
                far: Far::Coordinates,
            },
        );
    }

    /// A number the run must keep under `allowed`: a ratio, an excess in
    /// radians, a share of energy gained. Not moved by the frame.
    pub fn limit(&mut self, name: &str, value: f64, allowed: f64) {
        self.push(
            name,
            Quantity::Limit {
                value,
                allowed,
                power: 0,
                far: Far::Nothing,
            },
        );
    }

    /// An angle the run must keep under `allowed` radians, measured
    /// between points at least `length` apart (metres at scale 1): a
    /// joint past its limit. Far out, the allowance is the larger of
    /// `allowed` and the angle the frame's few ulps of the coordinates
    /// make over `length`.
    pub fn angle_limit(&mut self, name: &str, radians: f64, allowed: f64, length: f64) {
        self.push(
            name,
            Quantity::Limit {
                value: radians,
                allowed,
                power: 0,
                far: Far::AngleOver(length),
            },
        );
    }

    /// Whether anything was recorded.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl Quantity {
    /// The power of length the quantity's unit has.
    pub(crate) fn power(&self) -> i32 {
        match *self {
            Quantity::Point { .. } => 1,
            Quantity::Vector { power, .. }
            | Quantity::Measure { power, .. }
            | Quantity::Limit { power, .. } => power,
            Quantity::Energy(_) => 2,
            Quantity::Angle(_) | Quantity::Turn(_) | Quantity::Exact(_) => 0,
        }
    }

    /// A short name of the kind, for reports.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Quantity::Point { .. } => "point",
            Quantity::Vector { .. } => "vector",
            Quantity::Measure { .. } => "measure",
            Quantity::Energy(_) => "energy",
            Quantity::Angle(_) => "angle",
            Quantity::Turn(_) => "turn",
            Quantity::Exact(_) => "exact value",
            Quantity::Limit { .. } => "limit",
        }
    }
}
