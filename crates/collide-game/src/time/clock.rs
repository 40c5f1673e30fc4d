//! The fixed-step clock: frame times in, whole ticks of one fixed length
//! out. Game logic that only ever advances by whole ticks gives the same
//! results at 30, 60 or 144 frames per second; drawing blends the last two
//! ticks' states by [`FixedClock::alpha`].
//!
//! Time is counted as `tick × tick length`, never summed tick by tick, so
//! it does not drift. A frame that brings more ticks than the cap (a stall,
//! a breakpoint) runs the cap and reports the rest as dropped, rather than
//! spiralling into ever longer frames.

use super::integrate::{Real, TimeStep};
use crate::error::{GameError, non_negative, positive, within};

/// Accumulated time within this share of a tick short of a whole tick
/// counts as reaching it: frame times that add up to whole ticks in decimal
/// but not quite in binary then run their tick on time, not a frame late.
const TICK_TOLERANCE: f64 = 1e-6;

/// The clock's tick length and its cap on ticks per frame.
///
/// ```
/// use collide_game::time::ClockSettings;
/// let settings = ClockSettings::hz(60.0)?;
/// assert_eq!(settings.tick_seconds(), 1.0 / 60.0);
/// assert_eq!(settings.max_ticks_per_frame(), 8);
/// assert!(ClockSettings::new(f64::NAN, 8).is_err());
/// assert!(ClockSettings::new(0.01, 0).is_err());
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClockSettings {
    tick_seconds: f64,
    max_ticks_per_frame: u32,
}

impl ClockSettings {
    /// Ticks per frame at most, by default: a frame that brings more (a
    /// stall) drops the rest.
    pub const DEFAULT_MAX_TICKS_PER_FRAME: u32 = 8;

    /// The shortest tick, seconds: a million ticks a second.
    pub const MIN_TICK_SECONDS: f64 = 1e-6;
    /// The longest tick, seconds: an hour.
    pub const MAX_TICK_SECONDS: f64 = 3600.0;

    /// A tick of `tick_seconds` (from [`Self::MIN_TICK_SECONDS`] to
    /// [`Self::MAX_TICK_SECONDS`]) and at most `max_ticks_per_frame` ticks
    /// per frame (at least 1).
    pub fn new(tick_seconds: f64, max_ticks_per_frame: u32) -> Result<Self, GameError> {
        positive("tick length (seconds)", tick_seconds)?;
        within(
            "tick length (seconds)",
            tick_seconds,
            Self::MIN_TICK_SECONDS,
            Self::MAX_TICK_SECONDS,
        )?;
        if max_ticks_per_frame == 0 {
            return Err(GameError::NotPositive {
                what: "ticks per frame at most",
                value: 0.0,
            });
        }
        Ok(ClockSettings {
            tick_seconds,
            max_ticks_per_frame,
        })
    }

    /// `ticks_per_second` ticks a second, with the default cap.
    pub fn hz(ticks_per_second: f64) -> Result<Self, GameError> {
        let rate = positive("ticks per second", ticks_per_second)?;
        Self::new(1.0 / rate, Self::DEFAULT_MAX_TICKS_PER_FRAME)
    }

    /// The length of a tick, in seconds.
    pub fn tick_seconds(&self) -> f64 {
        self.tick_seconds
    }

    /// The most ticks one frame runs.
    pub fn max_ticks_per_frame(&self) -> u32 {
        self.max_ticks_per_frame
    }
}

impl Default for ClockSettings {
    /// 60 ticks a second, at most 8 a frame.
    fn default() -> Self {
        Self::hz(60.0).expect("60 Hz is a valid rate")
    }
}

/// One tick to run: its number, its start time and its length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tick {
    index: u64,
    seconds: f64,
}

impl Tick {
    /// The tick's number, counting from 0.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The game time at the tick's start, in seconds: `index × length`.
    pub fn time(&self) -> f64 {
        self.index as f64 * self.seconds
    }

    /// The tick's length as an integrator's step (`f32` or `f64`).
    pub fn step<R: Real>(&self) -> TimeStep<R> {
        TimeStep::new(R::from_f64(self.seconds)).expect("the clock's tick length was validated")
    }
}

/// What one frame brought: the ticks to run now and what was dropped.
/// Iterate it for the ticks, in order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    first: u64,
    ticks: u32,
    dropped_ticks: u64,
    tick_seconds: f64,
}

impl Frame {
    /// How many ticks to run this frame.
    pub fn ticks(&self) -> u32 {
        self.ticks
    }

    /// Whole ticks beyond the cap that this frame dropped.
    pub fn dropped_ticks(&self) -> u64 {
        self.dropped_ticks
    }

    /// The time this frame dropped, in seconds.
    pub fn dropped_seconds(&self) -> f64 {
        self.dropped_ticks as f64 * self.tick_seconds
    }
}

impl IntoIterator for Frame {
    type Item = Tick;
    type IntoIter = FrameTicks;

    fn into_iter(self) -> FrameTicks {
        FrameTicks {
            next: self.first,
            end: self.first + u64::from(self.ticks),
            seconds: self.tick_seconds,
        }
    }
}

/// The ticks of a [`Frame`], in order.
#[derive(Clone, Debug)]
pub struct FrameTicks {
    next: u64,
    end: u64,
    seconds: f64,
}

impl Iterator for FrameTicks {
    type Item = Tick;

    fn next(&mut self) -> Option<Tick> {
        (self.next < self.end).then(|| {
            self.next += 1;
            Tick {
                index: self.next - 1,
                seconds: self.seconds,
            }
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.end - self.next) as usize;
        (left, Some(left))
    }
}

impl ExactSizeIterator for FrameTicks {}

/// A fixed-step clock with an accumulator.
///
/// ```
/// use collide_game::time::{ClockSettings, FixedClock};
/// let mut clock = FixedClock::new(ClockSettings::new(0.01, 8)?);
/// let frame = clock.advance(0.025)?;
/// assert_eq!(frame.ticks(), 2); // 20 ms of ticks, 5 ms left over
/// assert!((clock.alpha() - 0.5).abs() < 1e-9); // draw halfway to the next tick
/// let stall = clock.advance(1.0)?; // a one-second stall
/// assert_eq!((stall.ticks(), stall.dropped_ticks()), (8, 92));
/// assert!(clock.advance(f64::NAN).is_err());
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Debug)]
pub struct FixedClock {
    settings: ClockSettings,
    tick: u64,
    /// Time brought by frames and not yet run, under one tick.
    accumulator: f64,
    dropped_ticks: u64,
}

impl FixedClock {
    /// A clock at tick 0 with nothing accumulated.
    pub fn new(settings: ClockSettings) -> Self {
        FixedClock {
            settings,
            tick: 0,
            accumulator: 0.0,
            dropped_ticks: 0,
        }
    }

    /// The clock's settings.
    pub fn settings(&self) -> &ClockSettings {
        &self.settings
    }

    /// The longest frame [`FixedClock::advance`] takes, seconds (about
    /// eleven and a half days): a longer one is a broken timer, refused.
    pub const MAX_FRAME_SECONDS: f64 = 1e6;

    /// Takes a frame's length in seconds (finite, from 0 to
    /// [`Self::MAX_FRAME_SECONDS`]) and returns the ticks to run now: every
    /// whole tick accumulated, up to the cap, the rest of the whole ticks
    /// dropped.
    pub fn advance(&mut self, frame_seconds: f64) -> Result<Frame, GameError> {
        non_negative("frame time (seconds)", frame_seconds)?;
        if frame_seconds > Self::MAX_FRAME_SECONDS {
            return Err(GameError::TooLarge {
                what: "frame time (seconds)",
                value: frame_seconds,
                limit: Self::MAX_FRAME_SECONDS,
            });
        }
        let dt = self.settings.tick_seconds;
        let total = self.accumulator + frame_seconds;
        let mut rest = total % dt;
        let mut whole = ((total - rest) / dt).round();
        if dt - rest <= dt * TICK_TOLERANCE {
            whole += 1.0;
            rest = 0.0;
        }
        // At most 1e12 ticks (the longest frame over the shortest tick).
        let whole = whole as u64;
        let ticks = whole.min(u64::from(self.settings.max_ticks_per_frame)) as u32;
        let frame = Frame {
            first: self.tick,
            ticks,
            dropped_ticks: whole - u64::from(ticks),
            tick_seconds: dt,
        };
        self.accumulator = rest;
        self.tick += u64::from(ticks);
        self.dropped_ticks = self.dropped_ticks.saturating_add(frame.dropped_ticks);
        Ok(frame)
    }

    /// Ticks run so far: the number of the next tick.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Game time in seconds: ticks run × tick length (never summed, so it
    /// does not drift).
    pub fn time(&self) -> f64 {
        self.tick as f64 * self.settings.tick_seconds
    }

    /// How far the frame's time lies between the last tick and the next,
    /// in [0, 1): draw `previous.lerp(current, alpha)`.
    pub fn alpha(&self) -> f64 {
        (self.accumulator / self.settings.tick_seconds).clamp(0.0, 1.0 - f64::EPSILON)
    }

    /// Whole ticks dropped by the cap since the clock started.
    pub fn dropped_ticks(&self) -> u64 {
        self.dropped_ticks
    }
}
