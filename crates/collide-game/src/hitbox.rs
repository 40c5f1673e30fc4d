//! Hitboxes and hurtboxes with active frames, as fighting and action games
//! judge attacks. An attack has frame data (startup, active, recovery
//! ticks) and hitboxes placed on its owner; they exist only in the active
//! ticks. Each fighter has hurtboxes. A hitbox is swept from where it was
//! last tick to where it is now, turn included, so a fast swing does not
//! pass through a thin hurtbox. One attack hits each target at most once;
//! an owner and its team are never hit; hits come in the order of the
//! caller's keys, whatever the order things were added in.
//!
//! Boxes are capsules (spheres with no length), so the tolerances are
//! exact: hitboxes grow and hurtboxes shrink by changing radii, leaning
//! the judgement toward the attacker, as players prefer.
//!
//! **Tolerance.** Hits are exact: the same attacks hit the same targets on
//! the same ticks mirrored, scaled and 1e3 to 1e5 from the origin (a swing
//! counts as touching within a few ulps of its coordinates: 2.4 cm 1e5
//! out).
//!
//! **On the world.** Each hurtbox is a sensor collider of the collision
//! world, with the fight's own filter ([`Combat::with_filter`]): a shot
//! or a query that asks for sensors in that group meets a fighter's
//! hurtboxes, and motion passes them. A hitbox's sweep finds the hurtboxes
//! near it through the world's broad phase, then tests them exactly. A
//! fight counts ticks, not seconds (frame data is in ticks), so its step
//! takes no `dt`: `step(&mut world, &mut hits)`. Walls do not stop a
//! punch: the fight is judged apart from the level's solids.
//!
//! **The tick loop.** Place the fighters where their animation has them,
//! start attacks, then judge the tick: the step moves each fighter's
//! hurtboxes in the world to where it was placed, then judges.
//!
//! ```
//! use collide::narrow::d2::Pose;
//! use collide::world::World2;
//! use collide_game::D2;
//! use collide_game::glam::Vec2;
//! use collide_game::hitbox::{Combat, FrameData, Part, Tolerance};
//!
//! let body = || vec![Part::<D2>::new(0.5, 0.3, Pose::IDENTITY).unwrap()];
//! let mut world = World2::new();
//! let mut fight: Combat<D2> = Combat::new(Tolerance::default());
//! let hero = fight.add_fighter(1, 0, Pose::at(Vec2::new(0.0, 0.0))?, body(), &mut world, "hero")?;
//! let foe = fight.add_fighter(2, 1, Pose::at(Vec2::new(3.0, 0.0))?, body(), &mut world, "foe")?;
//! let fist = vec![Part::new(0.0, 0.1, Pose::at(Vec2::new(0.6, 0.0))?)?];
//! let mut hits = Vec::new();
//! for tick in 0..40 {
//!     // The hero walks in at 3 m/s and jabs on tick 20.
//!     fight.place(hero, Pose::at(Vec2::new((tick as f32 / 20.0).min(1.0) * 1.0, 0.0))?)?;
//!     fight.place(foe, Pose::at(Vec2::new(1.9, 0.0))?)?;
//!     if tick == 20 {
//!         fight.start_attack(7, hero, FrameData::new(3, 2, 8)?, fist.clone())?;
//!     }
//!     fight.step(&mut world, &mut hits)?;
//!     world.step();
//! }
//! assert_eq!(hits.len(), 1); // one hit per attack and target
//! assert_eq!((hits[0].attack, hits[0].target, hits[0].tick), (7, 2, 23));
//! // The foe's hurtbox is a collider where it stands.
//! let hurt = fight.hurtboxes(foe)?[0];
//! assert_eq!(fight.hurtbox_of(hurt), Some((2, 0)));
//! assert_eq!(world.pose(hurt)?.position(), Vec2::new(1.9, 0.0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::dim::{Dim, length};
use crate::error::{GameError, non_negative};
use crate::owner::Owner;
use collide::geometry::{Aabb, Vector};
use collide::narrow::{Capsule, ShapeError};
use collide::world::{Collider, Filter, World};
use collide::{Handle, Query};
use std::ops::ControlFlow;

/// An attack's timing, in ticks: wind-up, hitting, recovery.
///
/// ```
/// use collide_game::hitbox::{FrameData, Phase};
/// let jab = FrameData::new(3, 2, 6)?;
/// assert_eq!(jab.phase(2), Phase::Startup);
/// assert_eq!((jab.phase(3), jab.phase(4)), (Phase::Active, Phase::Active));
/// assert_eq!(jab.phase(5), Phase::Recovery);
/// assert_eq!(jab.phase(11), Phase::Done);
/// assert!(FrameData::new(3, 0, 6).is_err());
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FrameData {
    startup: u32,
    active: u32,
    recovery: u32,
}

/// Where an attack is in its frame data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Winding up: no hitboxes yet.
    Startup,
    /// Hitting: the hitboxes exist.
    Active,
    /// Recovering: no hitboxes any more.
    Recovery,
    /// Over.
    Done,
}

impl FrameData {
    /// `startup`, `active` (at least 1) and `recovery` ticks.
    pub fn new(startup: u32, active: u32, recovery: u32) -> Result<Self, GameError> {
        if active == 0 {
            return Err(GameError::NotPositive {
                what: "active ticks of an attack",
                value: 0.0,
            });
        }
        Ok(FrameData {
            startup,
            active,
            recovery,
        })
    }

    /// The phase `ticks` after the attack started (its first tick is 0).
    pub fn phase(&self, ticks: u64) -> Phase {
        let (s, a, r) = (
            u64::from(self.startup),
            u64::from(self.active),
            u64::from(self.recovery),
        );
        match ticks {
            t if t < s => Phase::Startup,
            t if t < s + a => Phase::Active,
            t if t < s + a + r => Phase::Recovery,
            _ => Phase::Done,
        }
    }
}

/// A capsule on a fighter, in the fighter's own coordinates, so that it
/// turns about the fighter (a blade swung by an arm sweeps an arc, not a
/// chord).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Part<D: Dim> {
    shape: Capsule<D::V>,
}

impl<D: Dim> Part<D> {
    /// A capsule of `half_length` (0 for a sphere) and `radius` along its
    /// local y, placed at `offset` on the fighter.
    pub fn new(half_length: f32, radius: f32, offset: D::Pose) -> Result<Self, ShapeError> {
        let local = Capsule::<D::V>::new(half_length, radius)?;
        Ok(Part {
            shape: Capsule::between(
                D::apply(&offset, local.a()),
                D::apply(&offset, local.b()),
                radius,
            )?,
        })
    }
}

/// A fighter: the caller's key for it, its team, where it is and its
/// hurtboxes.
#[derive(Clone, Debug)]
struct Fighter<D: Dim> {
    key: u64,
    team: u32,
    pose: D::Pose,
    /// Where it was at the last step.
    previous: D::Pose,
    hurtboxes: Vec<Part<D>>,
    /// Each hurtbox's collider in the world.
    colliders: Vec<Handle>,
}

/// An attack under way.
#[derive(Clone, Debug)]
struct Attack<D: Dim> {
    key: u64,
    owner: usize,
    frames: FrameData,
    started: u64,
    hitboxes: Vec<Part<D>>,
    /// Targets hit (fighter slots), each at most once.
    hit: Vec<usize>,
}

/// A fighter's handle in a [`Combat`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FighterId(usize, Owner);

/// One hit: which attack (by key) hit whom (by key), with which hitbox on
/// which hurtbox, at which tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HitEvent {
    /// The attack's key.
    pub attack: u64,
    /// The target's key.
    pub target: u64,
    /// The hitbox's index in the attack.
    pub hitbox: usize,
    /// The hurtbox's index on the target.
    pub hurtbox: usize,
    /// The tick of the hit.
    pub tick: u64,
}

/// How far hitboxes grow and hurtboxes shrink, metres.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tolerance {
    grow: f32,
    shrink: f32,
}

impl Tolerance {
    /// Hitboxes grown by `grow` and hurtboxes shrunk by `shrink` (both
    /// finite, not negative).
    pub fn new(grow: f32, shrink: f32) -> Result<Self, GameError> {
        Ok(Tolerance {
            grow: non_negative("hitbox growth (m)", f64::from(grow))? as f32,
            shrink: non_negative("hurtbox shrink (m)", f64::from(shrink))? as f32,
        })
    }
}

/// The fighters and attacks of a fight, judged tick by tick. A clone
/// shares the original's hurtbox colliders: judge one of the two in a
/// world.
#[derive(Clone, Debug)]
pub struct Combat<D: Dim> {
    fighters: Vec<Fighter<D>>,
    attacks: Vec<Attack<D>>,
    tolerance: Tolerance,
    filter: Filter,
    tick: u64,
    owner: Owner,
    lookup: Lookup,
}

/// Which hurtbox each collider is, and the hurtboxes near a sweep.
#[derive(Clone, Debug, Default)]
struct Lookup {
    /// (collider, fighter slot, hurtbox index), sorted by collider.
    by_handle: Vec<(Handle, usize, usize)>,
    /// (fighter slot, hurtbox index) near the sweep being judged.
    near: Vec<(usize, usize)>,
}

impl Lookup {
    fn add(&mut self, h: Handle, slot: usize, index: usize) {
        let at = self.by_handle.partition_point(|e| e.0 < h);
        self.by_handle.insert(at, (h, slot, index));
    }

    fn find(&self, h: Handle) -> Option<(usize, usize)> {
        let at = self.by_handle.binary_search_by(|e| e.0.cmp(&h)).ok()?;
        let (_, slot, index) = self.by_handle[at];
        Some((slot, index))
    }

    /// Fills `near` with the hurtboxes whose colliders' boxes in `world`
    /// overlap `area`, in fighter and hurtbox order.
    fn gather<V: collide::world::Space, T>(&mut self, world: &World<V, T>, area: &Aabb<V>) {
        self.near.clear();
        let (by_handle, near) = (&self.by_handle, &mut self.near);
        let _ = world.query_aabb(area, &mut |h| {
            if let Ok(at) = by_handle.binary_search_by(|e| e.0.cmp(&h)) {
                near.push((by_handle[at].1, by_handle[at].2));
            }
            ControlFlow::Continue(())
        });
        self.near.sort_unstable();
    }
}

impl<D: Dim> Combat<D> {
    /// An empty fight at tick 0.
    pub fn new(tolerance: Tolerance) -> Self {
        Combat {
            fighters: Vec::new(),
            attacks: Vec::new(),
            tolerance,
            filter: Filter::ALL,
            tick: 0,
            owner: Owner::new(),
            lookup: Lookup::default(),
        }
    }

    /// The same with `filter` for the hurtboxes' colliders (the groups
    /// they are in and those they meet) of the fighters added after: by
    /// default [`Filter::ALL`]. A group of their own keeps them out of
    /// what the level's solids meet.
    pub fn with_filter(mut self, filter: Filter) -> Self {
        self.filter = filter;
        self
    }

    /// The hurtboxes' colliders of `fighter`, in the order given. An error
    /// for a fighter of another fight.
    pub fn hurtboxes(&self, fighter: FighterId) -> Result<&[Handle], GameError> {
        self.owner.check(fighter.1, "fighter id")?;
        Ok(&self.fighters[fighter.0].colliders)
    }

    /// Whose hurtbox the collider `h` is: the fighter's key and the
    /// hurtbox's index, if it is one of this fight's.
    pub fn hurtbox_of(&self, h: Handle) -> Option<(u64, usize)> {
        let (slot, index) = self.lookup.find(h)?;
        Some((self.fighters[slot].key, index))
    }

    /// The tick the next [`Combat::step`] judges.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Adds a fighter with the caller's `key`, its `team`, its pose and
    /// its hurtboxes, each put in `world` as a moving sensor collider (the
    /// fight's filter) holding a clone of `value`. On an error none of its
    /// hurtboxes stays in the world.
    pub fn add_fighter<T: Clone>(
        &mut self,
        key: u64,
        team: u32,
        pose: D::Pose,
        hurtboxes: Vec<Part<D>>,
        world: &mut World<D::V, T>,
        value: T,
    ) -> Result<FighterId, GameError> {
        let mut colliders = Vec::with_capacity(hurtboxes.len());
        for hurt in &hurtboxes {
            let collider = Collider::moving(D::capsule_shape(&hurt.shape), pose, value.clone());
            match world.insert(collider.with_filter(self.filter).as_sensor()) {
                Ok(h) => colliders.push(h),
                Err(e) => {
                    for h in colliders {
                        let _ = world.remove(h);
                    }
                    return Err(e.into());
                }
            }
        }
        let slot = self.fighters.len();
        for (index, &h) in colliders.iter().enumerate() {
            self.lookup.add(h, slot, index);
        }
        self.fighters.push(Fighter {
            key,
            team,
            pose,
            previous: pose,
            hurtboxes,
            colliders,
        });
        Ok(FighterId(slot, self.owner))
    }

    /// Moves a fighter to where it is this tick. An error for a fighter of
    /// another fight.
    pub fn place(&mut self, fighter: FighterId, pose: D::Pose) -> Result<(), GameError> {
        self.owner.check(fighter.1, "fighter id")?;
        self.fighters[fighter.0].pose = pose;
        Ok(())
    }

    /// Starts an attack with the caller's `key` by `owner` now (this tick
    /// is its tick 0), with its frame data and hitboxes. An error for a
    /// fighter of another fight.
    pub fn start_attack(
        &mut self,
        key: u64,
        owner: FighterId,
        frames: FrameData,
        hitboxes: Vec<Part<D>>,
    ) -> Result<(), GameError> {
        self.owner.check(owner.1, "attacking fighter id")?;
        self.attacks.push(Attack {
            key,
            owner: owner.0,
            frames,
            started: self.tick,
            hitboxes,
            hit: Vec::new(),
        });
        Ok(())
    }

    /// Judges this tick in `world`: first each fighter's hurtboxes move
    /// there to where it was placed; then every active hitbox is swept
    /// from its last pose to its pose now against the hurtboxes near it
    /// of every fighter not on the owner's team and not yet hit by that
    /// attack. Appends the hits to `hits` ordered by attack key, target
    /// key, hitbox and hurtbox; then ends the tick (finished attacks are
    /// dropped, poses remembered). A world without a fighter's hurtboxes
    /// is an error, the fight unchanged.
    pub fn step<T>(
        &mut self,
        world: &mut World<D::V, T>,
        hits: &mut Vec<HitEvent>,
    ) -> Result<(), GameError> {
        for h in self.fighters.iter().flat_map(|f| &f.colliders) {
            world.kind(*h)?;
        }
        for f in &self.fighters {
            if f.pose != f.previous {
                for &h in &f.colliders {
                    world.set_pose(h, f.pose)?;
                }
            }
        }
        let first = hits.len();
        let (grow, shrink) = (self.tolerance.grow, self.tolerance.shrink);
        for attack in &mut self.attacks {
            if attack.frames.phase(self.tick - attack.started) != Phase::Active {
                continue;
            }
            let owner = &self.fighters[attack.owner];
            for (b, hitbox) in attack.hitboxes.iter().enumerate() {
                let blade = grown(&hitbox.shape, grow);
                let Some(area) = swept_bounds::<D>(&blade, &owner.previous, &owner.pose) else {
                    continue;
                };
                self.lookup.gather(world, &area);
                // In fighter and hurtbox order: the lowest hurtbox of a
                // target met is the one hit.
                for &(slot, h) in &self.lookup.near {
                    let target = &self.fighters[slot];
                    if target.team == owner.team || attack.hit.contains(&slot) {
                        continue;
                    }
                    let body = grown(&target.hurtboxes[h].shape, -shrink);
                    if D::meets_turning(&blade, &owner.previous, &owner.pose, &body, &target.pose) {
                        attack.hit.push(slot);
                        hits.push(HitEvent {
                            attack: attack.key,
                            target: target.key,
                            hitbox: b,
                            hurtbox: h,
                            tick: self.tick,
                        });
                    }
                }
            }
        }
        hits[first..].sort_unstable();
        let tick = self.tick;
        self.attacks
            .retain(|a| a.frames.phase(tick - a.started) != Phase::Done);
        for f in &mut self.fighters {
            f.previous = f.pose;
        }
        self.tick += 1;
        Ok(())
    }
}

/// A box holding `blade`, on a body moving and turning from `from` to
/// `to`: every point of the blade stays as far from the body's origin as
/// it is, and the origin moves along a segment, so the segment's box grown
/// by the blade's farthest reach holds the sweep.
fn swept_bounds<D: Dim>(blade: &Capsule<D::V>, from: &D::Pose, to: &D::Pose) -> Option<Aabb<D::V>> {
    let reach = length(blade.a()).max(length(blade.b())) + blade.radius();
    let (p, q) = (D::apply(from, D::ZERO), D::apply(to, D::ZERO));
    let lo = D::V::from_axes(|k| p.axis(k).min(q.axis(k)) - reach);
    let hi = D::V::from_axes(|k| p.axis(k).max(q.axis(k)) + reach);
    Aabb::new(lo, hi).ok()
}

/// The capsule with its radius changed by `by` (not below zero).
fn grown<V: collide::Vector>(shape: &Capsule<V>, by: f32) -> Capsule<V> {
    Capsule::between(shape.a(), shape.b(), (shape.radius() + by).max(0.0)).unwrap_or(*shape)
}
