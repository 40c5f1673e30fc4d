//! The character's shape and the rules of its movement, validated once.

use crate::error::{GameError, non_negative, positive};
use collide::Filter;
use collide::math;

/// What a character keeps of its base's velocity when it leaves it
/// (jumping off, walking off a moving platform).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Inherit {
    /// All of it: a jump from a train keeps the train's speed.
    #[default]
    All,
    /// Only its upward part: a jump from a descending lift is not dragged
    /// down, one from a rising lift goes higher.
    UpOnly,
    /// None: the character leaves with its own velocity only.
    Nothing,
}

/// A kinematic character's capsule and movement rules.
///
/// ```
/// use collide_game::character::{CharacterSettings, Inherit};
/// let settings = CharacterSettings::sized(1.8, 0.3)?
///     .with_max_slope_degrees(45.0)?
///     .with_step_height(0.35)?
///     .with_inherit(Inherit::UpOnly);
/// assert_eq!(settings.radius(), 0.3);
/// assert!(CharacterSettings::sized(0.5, 0.3).is_err()); // shorter than its width
/// assert!(settings.with_max_slope_degrees(95.0).is_err());
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterSettings {
    radius: f32,
    half_height: f32,
    skin: f32,
    max_slope_cos: f32,
    step_height: f32,
    snap_distance: f32,
    max_slides: u32,
    inherit: Inherit,
    filter: Filter,
}

impl CharacterSettings {
    /// A capsule `height` tall (end to end, metres) with `radius` (metres),
    /// in the order every shape takes its sizes (length, then radius, as
    /// [`Capsule::new`](collide::narrow::Capsule::new)), with the
    /// defaults: a skin of 2% of the radius, slopes up to 45 degrees
    /// walkable, steps up to a quarter of the height, snapping down to
    /// ground within half the step height, 4 slides a move, all of a
    /// base's velocity inherited, meeting every collider
    /// ([`Filter::ALL`]).
    pub fn sized(height: f32, radius: f32) -> Result<Self, GameError> {
        let radius = positive("character radius (m)", f64::from(radius))? as f32;
        let height = positive("character height (m)", f64::from(height))? as f32;
        if height < 2.0 * radius {
            return Err(GameError::NotPositive {
                what: "character height minus its width (m)",
                value: f64::from(height - 2.0 * radius),
            });
        }
        Ok(CharacterSettings {
            radius,
            half_height: height / 2.0 - radius,
            skin: 0.02 * radius,
            max_slope_cos: math::cos(45f32.to_radians()),
            step_height: height / 4.0,
            snap_distance: height / 8.0,
            max_slides: 4,
            inherit: Inherit::All,
            filter: Filter::ALL,
        })
    }

    /// The steepest walkable slope, in degrees (0 to 89.9): steeper ones
    /// are walls the character slides down and cannot climb.
    pub fn with_max_slope_degrees(mut self, degrees: f32) -> Result<Self, GameError> {
        let d = non_negative("maximum slope (degrees)", f64::from(degrees))?;
        if d >= 90.0 {
            return Err(GameError::NotPositive {
                what: "90 degrees minus the maximum slope",
                value: 90.0 - d,
            });
        }
        self.max_slope_cos = math::cos(degrees.to_radians());
        Ok(self)
    }

    /// The highest ledge the character steps up onto, in metres (0 for
    /// none).
    pub fn with_step_height(mut self, metres: f32) -> Result<Self, GameError> {
        self.step_height = non_negative("step height (m)", f64::from(metres))? as f32;
        Ok(self)
    }

    /// How far below its feet the character still finds ground to stay
    /// on when walking down (0: never snaps).
    pub fn with_snap_distance(mut self, metres: f32) -> Result<Self, GameError> {
        self.snap_distance = non_negative("snap distance (m)", f64::from(metres))? as f32;
        Ok(self)
    }

    /// The gap kept between the capsule and everything, in metres (above
    /// zero, under the radius).
    pub fn with_skin(mut self, metres: f32) -> Result<Self, GameError> {
        let skin = positive("skin width (m)", f64::from(metres))? as f32;
        if skin >= self.radius {
            return Err(GameError::NotPositive {
                what: "character radius minus the skin width (m)",
                value: f64::from(self.radius - skin),
            });
        }
        self.skin = skin;
        Ok(self)
    }

    /// Slides along surfaces in one move before it stops (at least 1).
    pub fn with_max_slides(mut self, slides: u32) -> Result<Self, GameError> {
        if slides == 0 {
            return Err(GameError::NotPositive {
                what: "slides per move",
                value: 0.0,
            });
        }
        self.max_slides = slides;
        Ok(self)
    }

    /// What the character keeps of its base's velocity when it leaves it.
    pub fn with_inherit(mut self, inherit: Inherit) -> Self {
        self.inherit = inherit;
        self
    }

    /// The collision filter of the character's collider: the groups it is
    /// in and the groups it meets (it passes through the rest). By
    /// default [`Filter::ALL`].
    pub fn with_filter(mut self, filter: Filter) -> Self {
        self.filter = filter;
        self
    }

    /// The capsule's radius, in metres.
    pub fn radius(&self) -> f32 {
        self.radius
    }
    /// Half the length of the capsule's core segment, in metres.
    pub fn half_height(&self) -> f32 {
        self.half_height
    }
    /// The gap kept to surfaces, in metres.
    pub fn skin(&self) -> f32 {
        self.skin
    }
    /// The cosine of the steepest walkable slope.
    pub fn max_slope_cos(&self) -> f32 {
        self.max_slope_cos
    }
    /// The highest ledge stepped onto, in metres.
    pub fn step_height(&self) -> f32 {
        self.step_height
    }
    /// How far down ground is still snapped to, in metres.
    pub fn snap_distance(&self) -> f32 {
        self.snap_distance
    }
    /// Slides per move at most.
    pub fn max_slides(&self) -> u32 {
        self.max_slides
    }
    /// The rule for a base's velocity on leaving it.
    pub fn inherit(&self) -> Inherit {
        self.inherit
    }
    /// The collider's filter.
    pub fn filter(&self) -> Filter {
        self.filter
    }
}
