//! The kinematic character: a capsule moved by code, not by forces. Each
//! tick it first rides its base (the platform it stands on moved and
//! turned: the character is carried and turned with it, before its own
//! move, so it never lags a tick), then sweeps its own motion, sliding
//! along what it hits, stepping up ledges and refusing steep slopes, then
//! probes down from a little above its sole for ground to stand on or
//! snap to. Leaving a moving base hands back the base's velocity by the
//! [`Inherit`] rule.
//!
//! It stands only where its centre is over walkable ground: on a ledge's
//! edge with its centre past it, it slides off (unless it is walking on
//! over the edge, up a step or down off one, its bottom rolling over the
//! edge). Whatever rounding sinks it into (its f32 position, far from the
//! origin) it is pushed back out of.

use super::report::{Ground, Push, StepReport, push_into};
use super::settings::{CharacterSettings, Inherit};
use crate::dim::{Dim, dot, length};
use crate::error::{GameError, finite};
use crate::level::{Except, Level, overlap};
use crate::precise::{Precise, travelled};
use crate::time::TimeStep;
use collide::narrow::Capsule;
use collide::world::{Collider, QueryFilter, Space, World, WorldQuery};
use collide::{Filter, Handle, Query, Vector};

/// A kinematic character in dimension `D` ([`D2`](crate::D2) or
/// [`D3`](crate::D3)).
#[derive(Clone, Debug)]
pub struct Character<D: Dim> {
    settings: CharacterSettings,
    /// The capsule's centre, in f64 (far from the origin, each tick's
    /// move is kept whole).
    position: Precise<D>,
    /// The facing, radians about the up axis.
    facing: f32,
    ground: Ground<D::V>,
    /// The base's velocity at the last step (zero off a base).
    base_velocity: D::V,
    /// The capsule grown by the skin: sweeps stop it touching, so the real
    /// capsule keeps the skin's gap.
    hull: Capsule<D::V>,
    sweeper: D::Sweeper,
    /// Its collider in the world: the real capsule, which others stand
    /// on, bump into and shoot.
    collider: Handle,
    /// What a step leaves out: its own collider, and those the pair hook
    /// vetoes this tick; and the colliders near its move (kept lists, so
    /// a warm step allocates nothing).
    skip: Vec<Handle>,
    near: Vec<Handle>,
}

/// The longest motion [`Character::step`] takes in one tick, metres (60
/// km/s at 60 Hz): a longer one is a bug upstream (an unbounded velocity),
/// refused rather than teleporting the character.
pub const MAX_MOTION_PER_TICK: f32 = 1_000.0;

/// What the slides of a move did: the ledge it climbed and its top's
/// normal, and what it first pushed against.
struct Slid<V> {
    climbed: Option<(Handle, V)>,
    pushing: Option<Push<V>>,
}

/// Refuses a motion not finite or longer than [`MAX_MOTION_PER_TICK`].
fn check_motion<D: Dim>(motion: D::V) -> Result<(), GameError> {
    crate::error::finite_vector("character motion", motion)?;
    let distance = f64::from(length(motion));
    if distance > f64::from(MAX_MOTION_PER_TICK) {
        return Err(GameError::TooLarge {
            what: "character motion in one tick (m)",
            value: distance,
            limit: f64::from(MAX_MOTION_PER_TICK),
        });
    }
    Ok(())
}

/// Rounds of pushing out of overlapping objects before the character
/// counts as squeezed.
const PUSH_ROUNDS: usize = 4;

/// How far above the sole the ground probe starts, in skins: a probe
/// that starts touching the floor would miss it.
const PROBE_LIFT_SKINS: f32 = 2.0;

impl<D: Dim> Character<D> {
    /// A character with `settings` whose capsule is centred at `position`,
    /// put in `world` as a moving collider holding `value`, with the
    /// settings' filter; airborne until its first step finds ground.
    pub fn new<T>(
        settings: CharacterSettings,
        position: D::V,
        world: &mut World<D::V, T>,
        value: T,
    ) -> Result<Self, GameError> {
        crate::error::finite_vector("character position", position)?;
        let hull = Capsule::new(settings.half_height(), settings.radius() + settings.skin())?;
        let body = Capsule::new(settings.half_height(), settings.radius())?;
        let at = <D::V as Space>::at(position)?;
        let collider =
            Collider::moving(D::capsule_shape(&body), at, value).with_filter(settings.filter());
        let collider = world.insert(collider)?;
        Ok(Character {
            settings,
            position: Precise::new(position),
            facing: 0.0,
            ground: Ground::Airborne,
            base_velocity: D::ZERO,
            hull,
            sweeper: D::stopping_sweeper(),
            collider,
            skip: Vec::new(),
            near: Vec::new(),
        })
    }

    /// Its collider in the world (a capsule of the settings' size, kept at
    /// the character's position after each step).
    pub fn collider(&self) -> Handle {
        self.collider
    }

    /// The capsule's centre.
    pub fn position(&self) -> D::V {
        self.position.get()
    }

    /// Where the sole is: the bottom of the capsule.
    pub fn feet(&self) -> D::V {
        self.position() - D::UP * (self.settings.half_height() + self.settings.radius())
    }

    /// The facing, radians about the up axis (bases turn it).
    pub fn facing(&self) -> f32 {
        self.facing
    }

    /// Sets the facing, radians about the up axis.
    pub fn set_facing(&mut self, radians: f32) -> Result<(), GameError> {
        self.facing = finite("facing (radians)", f64::from(radians))? as f32;
        Ok(())
    }

    /// What the character stood on after the last step.
    pub fn ground(&self) -> Ground<D::V> {
        self.ground
    }

    /// The settings.
    pub fn settings(&self) -> &CharacterSettings {
        &self.settings
    }

    /// One tick in `world`: ride the base, get out of whatever moved into
    /// the character, move by `motion` (this tick's displacement, gravity
    /// included), find the ground, then put its collider where it ended.
    ///
    /// It meets the colliders its filter pairs with, solid ones only, its
    /// own left out, and those the world's pair hook allows: the hook is
    /// asked once a tick for each collider near the character's move, with
    /// their contact at the tick's start (so a one-way platform that holds
    /// only what is above it lets a character jump up through it and
    /// stand on it after); a base moved by its pose at the world's last step and
    /// now, so the game moves its platforms (and steps its characters)
    /// before each [`World::step`], once a tick. Characters stepped one
    /// after another each see the moves before them: step them in handle
    /// order for the same result every time. A motion that is not finite
    /// or longer than [`MAX_MOTION_PER_TICK`] is refused, as is a world
    /// without the character's collider.
    pub fn step<T>(
        &mut self,
        dt: TimeStep<f32>,
        motion: D::V,
        world: &mut World<D::V, T>,
    ) -> Result<StepReport<D::V>, GameError> {
        let (filter, skip) = self.left_out(motion, world)?;
        let report = {
            let seen = world.seen(QueryFilter::new().with_filter(filter).excluding(&skip));
            let moved = |h: Handle| {
                let (from, to) = (world.last_pose(h).ok()?, world.pose(h).ok()?);
                (from != to).then_some((from, to))
            };
            self.advance(&seen, &moved, motion, dt)
        };
        self.skip = skip;
        world.set_pose(self.collider, <D::V as Space>::at(self.position())?)?;
        Ok(report)
    }

    /// Moves the character by `motion` (another's push: a
    /// [`Push::motion`], or a share of it) in `world`, swept through the
    /// world less its own collider as its step sees it (what its filter
    /// meets and the pair hook allows, sensors passed), stopping at what it
    /// meets; its collider follows. Returns how far it went. Its ground
    /// stays until its next step finds it again. A motion not finite or
    /// longer than [`MAX_MOTION_PER_TICK`] is refused, as is a world
    /// without its collider, the character unmoved.
    pub fn shove<T>(
        &mut self,
        motion: D::V,
        world: &mut World<D::V, T>,
    ) -> Result<D::V, GameError> {
        let (filter, skip) = self.left_out(motion, world)?;
        let from = self.position.get();
        let seen = world.seen(QueryFilter::new().with_filter(filter).excluding(&skip));
        let swept = D::sweep(&mut self.sweeper, &seen, &self.hull, from, motion);
        let went = travelled::<D>(from, motion, &swept);
        self.skip = skip;
        self.position.shift(went);
        world.set_pose(self.collider, <D::V as Space>::at(self.position())?)?;
        Ok(went)
    }

    /// For a move of `motion` in `world` (refused when not finite or too
    /// long): its collider's filter, and what the move leaves out, its own
    /// collider and what the pair hook vetoes near it (the kept list, taken
    /// out of `self.skip` until the caller puts it back).
    fn left_out<T>(
        &mut self,
        motion: D::V,
        world: &mut World<D::V, T>,
    ) -> Result<(Filter, Vec<Handle>), GameError> {
        check_motion::<D>(motion)?;
        let filter = world.filter(self.collider)?;
        let mut skip = std::mem::take(&mut self.skip);
        skip.clear();
        skip.push(self.collider);
        if world.has_pair_hook() {
            if let Err(e) = self.vetoed(world, motion, filter, &mut skip) {
                self.skip = skip;
                return Err(e);
            }
        }
        Ok((filter, skip))
    }

    /// Adds to `skip` the colliders near this tick's move that the pair
    /// hook vetoes, in handle order.
    fn vetoed<T>(
        &mut self,
        world: &mut World<D::V, T>,
        motion: D::V,
        filter: Filter,
        skip: &mut Vec<Handle>,
    ) -> Result<(), GameError> {
        let s = &self.settings;
        let at = self.position.get();
        let reach =
            s.radius() + 2.0 * s.skin() + length(motion) + s.step_height() + s.snap_distance();
        let tall = reach + s.half_height();
        let grow = |k: usize| if k == 1 { tall } else { reach };
        let area = collide::Aabb::new(
            D::V::from_axes(|k| at.axis(k) - grow(k)),
            D::V::from_axes(|k| at.axis(k) + grow(k)),
        )?;
        self.near.clear();
        let _ = world.query_aabb(&area, &mut |h| {
            self.near.push(h);
            std::ops::ControlFlow::Continue(())
        });
        self.near.sort_unstable();
        for &h in &self.near {
            let solid =
                h != self.collider && !world.is_sensor(h)? && filter.allows(world.filter(h)?);
            if solid && !world.pair_allowed(self.collider, h)? {
                skip.push(h);
            }
        }
        Ok(())
    }

    /// The tick's work, through `level` (the world less the character),
    /// `moved` giving each object that moved this tick its poses at the
    /// last step and now.
    fn advance(
        &mut self,
        level: &Level<'_, D>,
        moved: &dyn Fn(Handle) -> Option<(D::Pose, D::Pose)>,
        motion: D::V,
        dt: TimeStep<f32>,
    ) -> StepReport<D::V> {
        let was = self.ground;
        let (carried, base_velocity) = self.ride(level, moved, dt);
        let squeezed = !self.push_out(level, moved);
        // It steps up from anything it stands or slides on (an edge it has
        // come down on, short of the floor), never in mid-air.
        let Slid { climbed, pushing } = self.slide(level, motion, was.on().is_some());
        let snap = was.on().is_some() && dot(motion, D::UP) <= 0.0;
        self.ground = self.probe(level, snap.then_some(motion));
        let mut stepped_up = false;
        if let Some((ledge, top)) = climbed {
            match self.ground {
                Ground::Standing { on, .. } if on == ledge => stepped_up = true,
                // Halfway over the ledge's edge, still climbing: it stands
                // on the ledge (stopping there, it slides back off).
                Ground::Sliding { on, .. } if on == ledge => {
                    self.ground = Ground::Standing { on, normal: top };
                }
                _ => {}
            }
        }
        let left = was.on().is_some() && self.ground.on() != was.on();
        // The base's velocity as the character leaves it: this tick's when
        // it moved this tick, else the last one's.
        let leaving = if carried == D::ZERO && base_velocity == D::ZERO {
            self.base_velocity
        } else {
            base_velocity
        };
        let inherited = if left {
            inherit::<D>(self.settings.inherit(), leaving)
        } else {
            D::ZERO
        };
        self.base_velocity = if self.ground.on().is_some() && self.ground.on() == was.on() {
            base_velocity
        } else {
            D::ZERO
        };
        StepReport {
            ground: self.ground,
            carried,
            inherited,
            stepped_up,
            squeezed,
            pushing,
        }
    }

    /// Carries the character with its base's motion this tick (sweeping,
    /// the base itself ignored, so a wall still stops it); returns the
    /// displacement and the base's velocity under the character.
    fn ride(
        &mut self,
        level: &Level<'_, D>,
        base_motion: &dyn Fn(Handle) -> Option<(D::Pose, D::Pose)>,
        dt: TimeStep<f32>,
    ) -> (D::V, D::V) {
        let Some(base) = self.ground.on() else {
            return (D::ZERO, D::ZERO);
        };
        let Some((from, to)) = base_motion(base) else {
            return (D::ZERO, D::ZERO);
        };
        let here = self.position.get();
        let target = D::carry(&from, &to, here);
        let want = target - here;
        self.facing += D::yaw_between(&from, &to);
        let others = Except::<D> {
            level,
            skip: &|h| h == base,
        };
        let swept = D::sweep(&mut self.sweeper, &others, &self.hull, here, want);
        let carried = travelled::<D>(here, want, &swept);
        self.position.shift(carried);
        (carried, want * (1.0 / dt.seconds()))
    }

    /// Gets out of whatever it is caught in: what moved into it this tick
    /// (a door, a platform from the side; `moved` names them), and what
    /// rounding sank it into (its position's f32 rounding, about 1e-3 m
    /// 1e4 m from the origin, leaves a slider a little deeper each tick,
    /// which no cast sees). Pushed out along the shortest way, by a sweep
    /// so it is not pushed into something else. False when something that
    /// moved keeps it caught.
    fn push_out(
        &mut self,
        level: &Level<'_, D>,
        moved: &dyn Fn(Handle) -> Option<(D::Pose, D::Pose)>,
    ) -> bool {
        let reach = self.settings.radius() + 2.0 * self.settings.skin();
        let tall = reach + self.settings.half_height();
        let mut last = None;
        for _ in 0..PUSH_ROUNDS {
            let at = self.position.get();
            // Deeper than a quarter skin, and than the rounding of the
            // coordinates (which far out is more than the skin).
            let far = (0..<D::V as Vector>::DIM)
                .map(|k| at.axis(k).abs())
                .fold(0.0f32, f32::max);
            let slack = (0.25 * self.settings.skin()).max(4.0 * f32::EPSILON * far);
            let Ok(bounds) = collide::Aabb::new(
                D::V::from_axes(|k| at.axis(k) - if k == 1 { tall } else { reach }),
                D::V::from_axes(|k| at.axis(k) + if k == 1 { tall } else { reach }),
            ) else {
                return false;
            };
            // The deepest overlap of the real capsule (ties by handle).
            let mut deepest: Option<(f32, Handle, D::V)> = None;
            let _ = level.query_aabb(&bounds, &mut |h| {
                if let Some((depth, out)) = overlap::<D>(level, h, &bounds, &self.hull, at) {
                    // The capsule itself nearer than its skin (rounding
                    // alone stays below, unless for many ticks).
                    let caught = depth > slack;
                    if caught && deepest.is_none_or(|(d, e, _)| (depth, e) > (d, h)) {
                        deepest = Some((depth, h, out));
                    }
                }
                std::ops::ControlFlow::Continue(())
            });
            let Some((depth, h, out)) = deepest else {
                return true;
            };
            last = Some(h);
            let others = Except::<D> {
                level,
                skip: &|o| o == h,
            };
            let swept = D::sweep(&mut self.sweeper, &others, &self.hull, at, out * depth);
            self.position.shift(travelled::<D>(at, out * depth, &swept));
            if swept.t < 1.0 {
                // Pushed against something else: caught, if what it is in
                // moved into it (rounding's sinking is left as it is).
                return moved(h).is_none();
            }
        }
        last.is_none_or(|h| moved(h).is_none())
    }

    /// The own move: sweep, slide along what is hit (steep surfaces are
    /// walls: no climbing them), step up ledges when `grounded` (onto one
    /// it meets, or on over the edge of one it is on). Returns the ledge it
    /// climbed and its top's normal, and the first thing it pushed
    /// against.
    fn slide(&mut self, level: &Level<'_, D>, motion: D::V, grounded: bool) -> Slid<D::V> {
        let settings = self.settings;
        let mut remaining = motion;
        let (mut climbed, mut pushing) = (None, None);
        for _ in 0..settings.max_slides() {
            if length(remaining) <= 1e-7 {
                break;
            }
            let from = self.position.get();
            let swept = D::sweep(&mut self.sweeper, level, &self.hull, from, remaining);
            self.position.shift(travelled::<D>(from, remaining, &swept));
            let Some(hit) = swept.hit else {
                break;
            };
            let (on, normal, _) = hit;
            remaining = remaining * (1.0 - swept.t);
            let up = dot(normal, D::UP);
            let walkable = self.stands_on(level, swept.end, hit);
            if !walkable && grounded && climbed.is_none() && up > -0.1 {
                if let Some((rest, top)) = self.step_up(level, remaining) {
                    climbed = Some((on, top));
                    remaining = rest;
                    continue;
                }
            }
            if !walkable && pushing.is_none() {
                pushing = push_into::<D>(on, remaining, normal);
            }
            remaining = along::<D>(remaining, normal, walkable);
        }
        Slid { climbed, pushing }
    }

    /// Tries to step onto a ledge: up by the step height, forward by the
    /// horizontal part of `remaining` (sliding along a wall it meets),
    /// down onto the ledge, no higher than the step: onto its top once its
    /// centre is over it, short of that onto its edge, its bottom rolling
    /// over the edge from tick to tick (so the climb follows the same path
    /// at any tick rate). On success the character is there, and the
    /// motion left and the top's normal are returned; otherwise nothing
    /// changes.
    fn step_up(&mut self, level: &Level<'_, D>, remaining: D::V) -> Option<(D::V, D::V)> {
        let height = self.settings.step_height();
        let ahead = remaining - D::UP * dot(remaining, D::UP);
        if height <= 0.0 || length(ahead) <= 1e-6 {
            return None;
        }
        let start = self.position.get();
        let rise = D::sweep(&mut self.sweeper, level, &self.hull, start, D::UP * height);
        let climbed = dot(rise.end - start, D::UP);
        let mut went = travelled::<D>(start, D::UP * height, &rise);
        let mut forward = D::sweep(&mut self.sweeper, level, &self.hull, rise.end, ahead);
        went = went + travelled::<D>(rise.end, ahead, &forward);
        let mut left = ahead * (1.0 - forward.t);
        if let Some((_, normal, _)) = forward.hit {
            // Along a wall met on the way: the rest of the way, less its
            // part into the wall.
            let along_wall = left - normal * dot(left, normal).min(0.0);
            let at = forward.end;
            forward = D::sweep(&mut self.sweeper, level, &self.hull, at, along_wall);
            went = went + travelled::<D>(at, along_wall, &forward);
            left = along_wall * (1.0 - forward.t);
        }
        if dot(forward.end - rise.end, ahead) <= 1e-4 * length(ahead) * length(ahead) {
            return None;
        }
        let drop = D::UP * -(climbed + self.settings.skin());
        let down = D::sweep(&mut self.sweeper, level, &self.hull, forward.end, drop);
        let hit = down.hit?;
        let top = if self.stands_on(level, down.end, hit) {
            hit.1
        } else {
            self.top_beyond(level, down.end, hit)?
        };
        // The ledge's height above the sole, where the capsule rests on it.
        let sole = start - D::UP * (self.settings.half_height() + self.settings.radius());
        let ledge = dot(hit.2 - sole, D::UP);
        if ledge > height || dot(down.end - start, D::UP) < 0.0 {
            return None;
        }
        self.position
            .shift(went + travelled::<D>(forward.end, drop, &down));
        Some((left, top))
    }

    /// Looks down from a little above the sole for ground: what the
    /// character touches, or (when `snap`) the ground within the snap
    /// distance, moved down onto.
    fn probe(&mut self, level: &Level<'_, D>, snap: Option<D::V>) -> Ground<D::V> {
        let skin = self.settings.skin();
        let lift = PROBE_LIFT_SKINS * skin;
        let reach = if snap.is_some() {
            self.settings.snap_distance().max(skin)
        } else {
            skin
        };
        let here = self.position.get();
        let start = here + D::UP * lift;
        let down = D::UP * -(lift + reach);
        let probe = D::sweep(&mut self.sweeper, level, &self.hull, start, down);
        let Some(hit) = probe.hit else {
            return Ground::Airborne;
        };
        let (on, normal, _) = hit;
        let standing = self.stands_on(level, probe.end, hit);
        // Walking off a ledge: the edge it overhangs, moving away from it,
        // its bottom rolling down over the edge (the climb's way back), so
        // the way down follows the same path at any tick rate. Stopped, it
        // slides off.
        let away = |motion: D::V| {
            let level = normal - D::UP * dot(normal, D::UP);
            dot(motion - D::UP * dot(motion, D::UP), level) > 0.0
        };
        let descending = match snap {
            Some(motion) if !standing && away(motion) => self.top_beyond(level, probe.end, hit),
            _ => None,
        };
        let fell = dot(here - probe.end, D::UP);
        if fell > 0.0 && (standing || descending.is_some() || snap.is_none()) {
            // Snapped down (or settled onto what it touched); not snapped
            // onto an edge it would only slide off.
            let moved = D::UP * lift + travelled::<D>(start, down, &probe);
            self.position.shift(moved);
        }
        match descending {
            _ if standing => Ground::Standing { on, normal },
            Some(top) => Ground::Standing { on, normal: top },
            None => Ground::Sliding { on, normal },
        }
    }
}

/// `motion` made to go along a surface of `normal`. On walkable ground
/// the downward part is dropped (standing on a slope does not slide down
/// it) and the rest follows the surface; on a steep surface, a wall or an
/// edge overhung the part into it is removed and so is any climb.
fn along<D: Dim>(motion: D::V, normal: D::V, walkable: bool) -> D::V {
    let up = dot(normal, D::UP);
    if walkable {
        let fall = dot(motion, D::UP).min(0.0);
        let flat = motion - D::UP * fall;
        return flat - normal * dot(flat, normal).min(0.0);
    }
    let mut m = motion - normal * dot(motion, normal).min(0.0);
    let rise = dot(m, D::UP);
    if up > -0.1 && rise > 0.0 {
        // No climbing: level the motion, then keep it off the surface's
        // horizontal normal.
        m = m - D::UP * rise;
        let level = normal - D::UP * up;
        let size = length(level);
        if size > 1e-6 {
            let level = level * (1.0 / size);
            m = m - level * dot(m, level).min(0.0);
        }
    }
    m
}

/// The part of a base's `velocity` kept by `rule`.
fn inherit<D: Dim>(rule: Inherit, velocity: D::V) -> D::V {
    match rule {
        Inherit::All => velocity,
        Inherit::UpOnly => D::UP * dot(velocity, D::UP).max(0.0),
        Inherit::Nothing => D::ZERO,
    }
}
