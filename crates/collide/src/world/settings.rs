//! [`WorldSettings`]: how a world decides touching, and what runs under it.

use crate::Error;
use crate::broad::Structure;

/// How a world decides touching, validated once.
///
/// ```
/// use collide::Structure;
/// use collide::world::WorldSettings;
/// let settings = WorldSettings::default()
///     .with_margin(0.02)?
///     .with_structure(Structure::Grid)
///     .with_sensor_pairs(true);
/// assert_eq!((settings.margin(), settings.sensor_pairs()), (0.02, true));
/// assert!(WorldSettings::default().with_margin(-1.0).is_err());
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldSettings {
    margin: f32,
    structure: Structure,
    sensor_pairs: bool,
}

impl Default for WorldSettings {
    /// A margin of 1% of the smaller shape's size; `auto` underneath;
    /// sensors do not meet sensors.
    fn default() -> Self {
        Self {
            margin: 0.01,
            structure: Structure::Auto,
            sensor_pairs: false,
        }
    }
}

impl WorldSettings {
    /// Two touching shapes stop touching once apart by more than `share`
    /// (above 0, at most 1) of the smaller one's size (half its box's
    /// diagonal), so a resting shape does not flicker.
    pub fn with_margin(mut self, share: f32) -> Result<Self, Error> {
        if !(share > 0.0 && share <= 1.0) {
            return Err(Error::Setting {
                name: "with_margin",
                value: f64::from(share),
                expected: "a share of the smaller shape's size above 0 and at most 1",
            });
        }
        self.margin = share;
        Ok(self)
    }

    /// The broad-phase structure underneath at the start
    /// ([`World::set_structure`](super::World::set_structure) changes it
    /// while running).
    pub fn with_structure(mut self, structure: Structure) -> Self {
        self.structure = structure;
        self
    }

    /// Whether two sensors report overlapping each other (off by
    /// default).
    pub fn with_sensor_pairs(mut self, on: bool) -> Self {
        self.sensor_pairs = on;
        self
    }

    /// The contact margin, a share of the smaller shape's size.
    pub fn margin(&self) -> f32 {
        self.margin
    }

    /// The structure the world started on.
    pub fn structure(&self) -> Structure {
        self.structure
    }

    /// Whether sensors meet sensors.
    pub fn sensor_pairs(&self) -> bool {
        self.sensor_pairs
    }
}
