//! Rewind for lag compensation: the world as it was at each of the last
//! few ticks, so a server can test a shot against the world the shooter
//! saw (their view is a round trip behind). It keeps any snapshot: the
//! collision world's ([`WorldSnapshot`](collide::world::WorldSnapshot),
//! for exact shapes: a ray meets a capsule where it was, not its box), or
//! a broad phase's ([`Snapshot`](collide::Snapshot), boxes only). Memory
//! is bounded: the oldest tick goes when a new one comes. A tick no longer
//! kept (or never recorded) is an error, not the nearest world.
//!
//! **On the world.** Record the world's snapshot after each step; a shot
//! fired now asks the snapshot of the tick its shooter saw. Rewind reads
//! no geometry itself and has no step.
//!
//! **Tolerance.** A rewound query answers exactly as its snapshot did: the
//! same hits at distances within 1e-6 of the scene's size, moved up to 1e5,
//! scaled, and mirrored bit for bit, for as many ticks as it runs.

use crate::error::GameError;
use std::collections::VecDeque;

/// The last `capacity` ticks' snapshots `S`, oldest first.
///
/// ```
/// use collide::geometry::Ray;
/// use collide::narrow::d2::{Capsule, Pose};
/// use collide::world::{Collider2, QueryFilter, World2, WorldQuery};
/// use collide_game::glam::Vec2;
/// use collide_game::rewind::Rewind;
/// let mut world = World2::new();
/// let runner = Capsule::new(0.6, 0.3)?;
/// let target = world.insert(Collider2::moving(runner, Pose::IDENTITY, "runner"))?;
/// let mut history = Rewind::new(8)?;
/// for tick in 0..20u64 {
///     world.set_pose(target, Pose::at(Vec2::new(tick as f32, 0.0))?)?;
///     world.step();
///     history.record(tick, world.snapshot())?;
/// }
/// // The shooter saw tick 15: the runner stood at x = 15 then.
/// let shot = Ray::new(Vec2::new(15.0, -5.0), Vec2::Y, 10.0)?;
/// let hit = history.at(15)?.cast_ray(&shot, &QueryFilter::new()).expect("hit then");
/// assert_eq!((hit.handle, hit.t), (target, 4.1)); // its capsule's foot
/// assert!(world.cast_ray(&shot, &QueryFilter::new()).is_none()); // it ran on
/// assert!(history.at(3).is_err()); // no longer kept
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Rewind<S> {
    capacity: usize,
    ticks: VecDeque<(u64, S)>,
}

impl<S> Rewind<S> {
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
    pub fn record(&mut self, tick: u64, snapshot: S) -> Result<(), GameError> {
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
    pub fn at(&self, tick: u64) -> Result<&S, GameError> {
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
