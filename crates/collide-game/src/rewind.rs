//! Rewind for lag compensation: the world as it was at each of the last
//! few ticks, as broad-phase snapshots, so a server can test a shot
//! against the world the shooter saw (their view is a round trip behind).
//! Memory is bounded: the oldest tick goes when a new one comes. A tick no
//! longer kept (or never recorded) is an error, not the nearest world.
//!
//! **Tolerance.** A rewound query answers exactly as its snapshot did: the
//! same hits at distances within 1e-6 of the scene's size, moved up to 1e5,
//! scaled, and mirrored bit for bit, for as many ticks as it runs.

use crate::error::GameError;
use collide::{Snapshot, Vector};
use std::collections::VecDeque;

/// The last `capacity` ticks' snapshots, oldest first.
///
/// ```
/// use collide::{Aabb2, BroadPhase, Grid, Query};
/// use collide_game::glam::Vec2;
/// use collide_game::rewind::Rewind;
/// let mut world: Grid<Vec2> = Grid::hashed();
/// let target = world.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
/// let mut history = Rewind::new(8)?;
/// for tick in 0..20u64 {
///     let x = tick as f32;
///     world.update(target, Aabb2::new(Vec2::new(x, 0.0), Vec2::new(x + 1.0, 1.0))?)?;
///     world.step();
///     history.record(tick, world.snapshot())?;
/// }
/// // The shooter saw tick 15: the target was at x = 15 then.
/// let probe = Aabb2::new(Vec2::new(15.2, 0.2), Vec2::new(15.4, 0.4))?;
/// assert!(history.at(15)?.query_aabb_any(&probe));
/// assert!(!world.query_aabb_any(&probe)); // it has moved on since
/// assert!(history.at(3).is_err()); // no longer kept
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Rewind<V: Vector> {
    capacity: usize,
    ticks: VecDeque<(u64, Snapshot<V>)>,
}

impl<V: Vector> Rewind<V> {
    /// Keeps the last `ticks` ticks (at least 1).
    pub fn new(ticks: usize) -> Result<Self, GameError> {
        if ticks == 0 {
            return Err(GameError::NotPositive {
                what: "ticks kept for rewind",
                value: 0.0,
            });
        }
        Ok(Rewind {
            capacity: ticks,
            ticks: VecDeque::with_capacity(ticks),
        })
    }

    /// Records the world at `tick` (after the newest recorded one); the
    /// oldest is dropped when full. An error, and no change, for a tick at
    /// or before the newest.
    pub fn record(&mut self, tick: u64, snapshot: Snapshot<V>) -> Result<(), GameError> {
        if let Some(&(newest, _)) = self.ticks.back() {
            if tick <= newest {
                return Err(GameError::OutOfOrder { tick, newest });
            }
        }
        if self.ticks.len() == self.capacity {
            self.ticks.pop_front();
        }
        self.ticks.push_back((tick, snapshot));
        Ok(())
    }

    /// The world at `tick`, or an error naming the ticks kept.
    pub fn at(&self, tick: u64) -> Result<&Snapshot<V>, GameError> {
        let (oldest, newest) = match (self.ticks.front(), self.ticks.back()) {
            (Some(o), Some(n)) => (o.0, n.0),
            _ => return Err(GameError::NotKept { tick, kept: None }),
        };
        self.ticks
            .binary_search_by_key(&tick, |(t, _)| *t)
            .map(|k| &self.ticks[k].1)
            .map_err(|_| GameError::NotKept {
                tick,
                kept: Some((oldest, newest)),
            })
    }

    /// How many ticks are kept now (at most the capacity).
    pub fn len(&self) -> usize {
        self.ticks.len()
    }

    /// Whether no tick is kept yet.
    pub fn is_empty(&self) -> bool {
        self.ticks.is_empty()
    }

    /// The most ticks kept.
    pub fn capacity(&self) -> usize {
        self.capacity
    }
}
