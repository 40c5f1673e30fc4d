//! The ragdoll: particles moved by Verlet steps, held together by
//! distance constraints and joint limits (position-based), colliding
//! with the world and with themselves, blended toward an animated pose.

use super::colliders::PartColliders;
use super::contacts::{
    Touch, bounds, candidates, deepest_core, push_out_of_world, rub, separate_parts,
};
use super::limits::{DepthAt, Fix, Frame, enforce, excess};
use super::skeleton::{Skeleton, check_pose, weight};
use crate::error::{GameError, finite_vector, positive};
use crate::time::TimeStep;
use crate::world_settings::world_settings;
use crate::{D3, Gravity, Surroundings};
use collide::Handle;
use collide::glam::{Quat, Vec3};
use collide::math;
use collide::motion::Geometry;
use collide::narrow::d3::Pose;
use collide::world::{Filter, QueryFilter, World, WorldQuery};

/// How a ragdoll is solved, validated once.
///
/// ```
/// use collide_game::ragdoll::RagdollSettings;
/// let settings = RagdollSettings::default().with_iterations(12)?.with_friction(0.8)?;
/// assert_eq!(settings.iterations(), 12);
/// assert!(settings.with_friction(2.0).is_err());
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RagdollSettings {
    iterations: u32,
    friction: f32,
    sleep_speed: f32,
    sleep_after: f32,
    gravity: Vec3,
    filter: Filter,
}

impl Default for RagdollSettings {
    /// 10 rounds of the constraints a tick, friction 0.6, asleep after half
    /// a second touching something with no particle faster than 5 cm/s;
    /// the Earth's gravity; parts in every group, meeting every group.
    fn default() -> Self {
        Self {
            iterations: 10,
            friction: 0.6,
            sleep_speed: 0.05,
            sleep_after: 0.5,
            gravity: Gravity::earth().vector(),
            filter: Filter::ALL,
        }
    }
}

impl RagdollSettings {
    /// Rounds of the constraints a tick (1 to 100): more hold bones to
    /// their length more stiffly.
    pub fn with_iterations(mut self, rounds: u32) -> Result<Self, GameError> {
        if !(1..=100).contains(&rounds) {
            return Err(GameError::OutOfRange {
                what: "constraint rounds",
                value: f64::from(rounds),
                min: 1.0,
                max: 100.0,
            });
        }
        self.iterations = rounds;
        Ok(self)
    }

    /// The share (0 to 1) of a sliding speed along a surface lost in a
    /// tick of contact.
    pub fn with_friction(mut self, share: f32) -> Result<Self, GameError> {
        self.friction = crate::error::unit_share("ragdoll friction", share)?;
        Ok(self)
    }

    /// A ragdoll touching something whose particles all stay slower than
    /// `speed` m/s (0 or more; 0 never sleeps) for `seconds` (above zero)
    /// falls asleep: it stops moving, costs one box query a tick, and wakes
    /// when nothing is under it any more, when the animation takes hold of
    /// it, or when told to.
    pub fn with_sleep(mut self, speed: f32, seconds: f32) -> Result<Self, GameError> {
        self.sleep_speed =
            crate::error::non_negative("sleep speed (m/s)", f64::from(speed))? as f32;
        self.sleep_after = positive("time still before sleeping (s)", f64::from(seconds))? as f32;
        Ok(self)
    }

    /// Rounds a tick.
    pub fn iterations(&self) -> u32 {
        self.iterations
    }

    /// Friction.
    pub fn friction(&self) -> f32 {
        self.friction
    }

    world_settings!();
}

/// Rounds of the bones alone at the end of a step.
const BONE_ROUNDS: usize = 4;

/// A part's core (its segment) may end a step this far inside the world
/// (m) before the whole body is moved out.
const LIFT_SLOP: f32 = 1e-3;

/// The most times a step moves the body out, each along the way out of the
/// part deepest in then.
const LIFT_TRIES: usize = 4;

/// The most steps a tick is cut into for a fast ragdoll.
const MAX_SUBSTEPS: usize = 8;

/// Which way a ragdoll lies, for choosing the animation that gets it up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lying {
    /// Its chest faces the ground.
    FaceDown,
    /// Its chest faces the sky.
    FaceUp,
    /// On its left side (its right shoulder up).
    LeftSide,
    /// On its right side.
    RightSide,
    /// Its spine is closer to upright than lying.
    Upright,
}

/// The particles' state.
#[derive(Clone, Debug)]
struct Particles {
    now: Vec<Vec3>,
    before: Vec<Vec3>,
    mass: Vec<f32>,
    /// Inverse masses this tick (0 where the animation holds a particle).
    inverse: Vec<f32>,
}

/// The animated pose and how much each particle follows it.
#[derive(Clone, Debug)]
struct Blend {
    target: Vec<Vec3>,
    /// Per part.
    part_weight: Vec<f32>,
    /// Per particle: the largest weight of its parts.
    weight: Vec<f32>,
}

/// Memory reused from tick to tick.
#[derive(Clone, Debug, Default)]
struct Scratch {
    near: Vec<Handle>,
    touches: Vec<Touch>,
    /// Positions to try pushes on without moving the ragdoll.
    probe: Vec<Vec3>,
    /// Where each particle began the step.
    start: Vec<Vec3>,
}

/// A ragdoll. A clone shares the original's part colliders: give it
/// colliders of its own (a new ragdoll) before stepping both.
///
/// ```
/// use collide_game::ragdoll::{Lying, Ragdoll, RagdollSettings, Skeleton};
/// use collide_game::time::TimeStep;
/// use collide::world::World3;
/// use collide_game::glam::{Quat, Vec3};
/// // Falling through empty space: it keeps its shape.
/// let mut world = World3::new();
/// let body = Skeleton::humanoid(1.8, 75.0)?;
/// let (at, run) = (Vec3::new(0.0, 20.0, 0.0), Vec3::new(5.0, 0.0, 0.0));
/// let mut doll = Ragdoll::new(body, RagdollSettings::default(), at, Quat::IDENTITY, run, &mut world, ())?;
/// let dt = TimeStep::new(1.0 / 60.0)?;
/// for _ in 0..60 {
///     doll.step(dt, &mut world)?;
/// }
/// assert!((doll.momentum().x - 5.0 * 75.0).abs() < 0.01 * 5.0 * 75.0);
/// assert_eq!(doll.lying(), Lying::Upright);
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Ragdoll {
    skeleton: Skeleton,
    settings: RagdollSettings,
    links: Vec<(usize, usize, f32)>,
    particles: Particles,
    blend: Blend,
    scratch: Scratch,
    clock: Clock,
    colliders: PartColliders,
}

/// The Verlet step's memory of time: the last tick's length, or before
/// the first tick the velocity to start with; and how long the ragdoll
/// has been still, or that it sleeps.
#[derive(Clone, Copy, Debug)]
enum Clock {
    Starting { velocity: Vec3 },
    Running { last_dt: f32, still: f32 },
    Asleep,
}

impl Ragdoll {
    /// The skeleton's rest pose turned by `orientation` about its feet and
    /// moved to `position`, every particle moving at `velocity` m/s; each
    /// part put in `world` as a moving capsule collider (the settings'
    /// filter) holding a clone of `value`.
    pub fn new<T: Clone>(
        skeleton: Skeleton,
        settings: RagdollSettings,
        position: Vec3,
        orientation: Quat,
        velocity: Vec3,
        world: &mut World<Vec3, T>,
        value: T,
    ) -> Result<Self, GameError> {
        finite_vector("ragdoll position", position)?;
        finite_vector("ragdoll velocity", velocity)?;
        for q in orientation.to_array() {
            crate::error::finite("ragdoll orientation", f64::from(q))?;
        }
        positive(
            "ragdoll orientation length",
            f64::from(orientation.length()),
        )?;
        let turn = orientation.normalize();
        let pose: Vec<Vec3> = skeleton.rest.iter().map(|&r| position + turn * r).collect();
        let n = pose.len();
        let links = skeleton.links().collect();
        let mass = skeleton.masses.clone();
        let inverse = mass.iter().map(|m| 1.0 / m).collect();
        let parts = skeleton.parts.len();
        let colliders = PartColliders::insert(&skeleton, &pose, settings.filter, world, value)?;
        Ok(Self {
            settings,
            links,
            particles: Particles {
                before: pose.clone(),
                now: pose.clone(),
                mass,
                inverse,
            },
            blend: Blend {
                target: pose,
                part_weight: vec![0.0; parts],
                weight: vec![0.0; n],
            },
            scratch: Scratch {
                near: Vec::with_capacity(32),
                touches: vec![Touch::default(); n],
                probe: Vec::with_capacity(n),
                start: vec![Vec3::ZERO; n],
            },
            skeleton,
            clock: Clock::Starting { velocity },
            colliders,
        })
    }

    /// Its parts' colliders, in the skeleton's part order: capsules of the
    /// parts' rest lengths, set between their particles after each step.
    /// Joined parts overlap, so the world reports them touching each other;
    /// [`part_of`](Self::part_of) tells a game's events and hook which are
    /// its own.
    pub fn colliders(&self) -> &[Handle] {
        self.colliders.handles()
    }

    /// Which part (an index into the skeleton's parts) the collider `h`
    /// is, if it is one of this ragdoll's.
    pub fn part_of(&self, h: Handle) -> Option<usize> {
        self.colliders.handles().iter().position(|&c| c == h)
    }

    /// One tick of `dt` in `world`: the ragdoll reads the world less its
    /// own parts (what its filter meets, sensors passed; other ragdolls'
    /// parts are met where they stand), then sets its parts' colliders
    /// where it ends. A world without one of its parts is an error, the
    /// ragdoll unmoved.
    ///
    /// Ragdolls stepped one after another each see the moves of those
    /// before. To step many on threads, step each with
    /// [`step_reading`](Self::step_reading) a snapshot of the world, then
    /// [`place_colliders`](Self::place_colliders) each: every ragdoll sees
    /// the others where the last tick left them, whatever the threads.
    pub fn step<T>(
        &mut self,
        dt: TimeStep<f32>,
        world: &mut World<Vec3, T>,
    ) -> Result<(), GameError> {
        self.colliders.check(world)?;
        // A body that slept through the tick has not moved.
        if self.read_world(dt, &*world)? {
            self.place_colliders(world)?;
        }
        Ok(())
    }

    /// One tick of `dt` reading `world` (a [`World`] or its snapshot) less
    /// its own parts, leaving its colliders where they were: for stepping
    /// ragdolls on threads, each followed by
    /// [`place_colliders`](Self::place_colliders).
    pub fn step_reading<T, L>(&mut self, dt: TimeStep<f32>, world: &L) -> Result<(), GameError>
    where
        L: WorldQuery<Vec3, T> + Geometry<Vec3, Pose>,
    {
        self.read_world(dt, world).map(|_| ())
    }

    /// [`step_reading`](Self::step_reading); false when it slept through
    /// the tick without moving.
    fn read_world<T, L>(&mut self, dt: TimeStep<f32>, world: &L) -> Result<bool, GameError>
    where
        L: WorldQuery<Vec3, T> + Geometry<Vec3, Pose>,
    {
        // Its own handles, held apart while it moves (no copy made).
        let own = std::mem::take(&mut self.colliders);
        let seen = world.seen(
            QueryFilter::new()
                .with_filter(self.settings.filter)
                .excluding(own.handles()),
        );
        let gravity = Gravity::new(self.settings.gravity)?;
        let done = self.advance(dt, &Surroundings::new(&seen, gravity));
        self.colliders = own;
        done
    }

    /// Sets its parts' colliders in `world` where its parts are now.
    pub fn place_colliders<T>(&self, world: &mut World<Vec3, T>) -> Result<(), GameError> {
        self.colliders
            .place(&self.skeleton, &self.particles.now, world)
    }

    /// One tick of `dt` through `around`: a Verlet step under gravity, the
    /// pull toward the animated pose, rounds of bones, self-contact and
    /// joint limits (the centre of mass kept where the step put it), the
    /// world's contacts, and the limits once more. False when it slept
    /// through the tick without moving.
    fn advance(
        &mut self,
        dt: TimeStep<f32>,
        around: &Surroundings<'_, D3>,
    ) -> Result<bool, GameError> {
        finite_vector("gravity", around.gravity)?;
        let dt = dt.seconds();
        if matches!(self.clock, Clock::Asleep) {
            if self.still_resting(around) {
                return Ok(false);
            }
            self.wake();
        }
        // Fast bodies take the tick in shorter steps, none moving further
        // than half its thinnest part's radius in one.
        let thinnest = self
            .skeleton
            .parts
            .iter()
            .map(|p| p.2)
            .fold(f32::INFINITY, f32::min);
        let fastest = (0..self.particles.now.len())
            .map(|k| self.velocity_of(k).length())
            .fold(0.0, f32::max)
            + around.gravity.length() * dt;
        let steps = ((fastest * dt / (0.5 * thinnest)).ceil() as usize).clamp(1, MAX_SUBSTEPS);
        let sub = dt / steps as f32;
        let mut touched = false;
        let portion = 1.0 / steps as f32;
        for _ in 0..steps {
            touched = self.substep(sub, portion, around);
        }
        self.settle(dt, sub, touched);
        Ok(true)
    }

    /// One step of `dt`: Verlet, the pull toward the animated pose, rounds
    /// of the constraints with the world's contacts, friction. Returns
    /// whether anything was touched.
    fn substep(&mut self, dt: f32, portion: f32, around: &Surroundings<'_, D3>) -> bool {
        let energy = self.energy(around.gravity);
        self.integrate(dt, around.gravity);
        self.scratch.start.clone_from(&self.particles.before);
        self.follow_target(portion);
        let animated = self.blend.weight.iter().any(|&w| w > 0.0);
        let centre = self.centre_of_mass();
        self.find_near(around);
        self.scratch.touches.fill(Touch::default());
        for _ in 0..self.settings.iterations {
            separate_parts(
                &self.skeleton,
                &mut self.particles.now,
                &self.particles.inverse,
            );
            self.push_out(around);
            // Halfway each round, so the limits give and take with the
            // contacts; the bones last, so each round ends with them whole.
            self.solve_limits(0.5, false, None);
            self.solve_links();
        }
        let touched = self.scratch.touches.iter().any(|t| t.normal != Vec3::ZERO);
        // The bones back to length after the last contacts, then no joint
        // ends the step past its limit: what is left to fix turns the
        // velocity with it rather than adding to it.
        for _ in 0..BONE_ROUNDS {
            self.solve_links();
        }
        let before = mass_centre(&self.particles.before, &self.particles.mass);
        self.solve_limits(1.0, true, Some(around));
        if !animated {
            self.lift_out(around);
        }
        // In the air the constraints are inner forces: they do not move the
        // centre of mass, nor its velocity (unless the animation moves the
        // body).
        if !animated && !touched {
            let p = &mut self.particles;
            let (shift, back) = (
                centre - mass_centre(&p.now, &p.mass),
                before - mass_centre(&p.before, &p.mass),
            );
            for (now, last) in p.now.iter_mut().zip(&mut p.before) {
                *now += shift;
                *last += back;
            }
        }
        // Friction is a share a tick: this step's part of it.
        let friction = 1.0 - math::powf(1.0 - self.settings.friction, portion);
        rub(
            &self.particles.now,
            &mut self.particles.before,
            &self.scratch.touches,
            friction,
        );
        if !animated {
            let unpaid = self.keep_passive(energy, dt, around.gravity);
            if unpaid > 0.0 {
                self.settle_unpaid(unpaid, around);
            }
        }
        self.clock = match self.clock {
            Clock::Running { still, .. } => Clock::Running { last_dt: dt, still },
            _ => Clock::Running {
                last_dt: dt,
                still: 0.0,
            },
        };
        touched
    }

    /// Moves the whole body out of the world where the last limit pass
    /// left a part's core inside it (a limb turned back within its limit
    /// into the floor): along the way out of the deepest part, by its
    /// depth, up to [`LIFT_TRIES`] times. A move of the whole body keeps
    /// every bone and joint as it is, and its last positions move with it,
    /// so it adds no speed; what it adds in height the energy guard after
    /// it takes from the motion.
    fn lift_out(&mut self, around: &Surroundings<'_, D3>) {
        if self.scratch.near.is_empty() {
            return;
        }
        for _ in 0..LIFT_TRIES {
            let Some((depth, out)) = deepest_core(
                &self.skeleton,
                &self.particles.now,
                around,
                &self.scratch.near,
            ) else {
                return;
            };
            if depth <= LIFT_SLOP {
                return;
            }
            let p = &mut self.particles;
            for (now, before) in p.now.iter_mut().zip(&mut p.before) {
                *now += out * depth;
                *before += out * depth;
            }
        }
    }

    /// Kinetic plus potential energy (J, potential zero at the origin) at
    /// the velocities of the last step.
    fn energy(&self, gravity: Vec3) -> f32 {
        self.kinetic_energy() + potential(&self.particles, gravity)
    }

    /// The joints, bones and contacts are passive: they may take energy
    /// out, never put it in. Where a step's corrections came out with more
    /// energy than the step began with (rounding in the projections when
    /// limits and contacts press against each other), the motion about the
    /// centre of mass is slowed until they do not, keeping the momentum;
    /// and if that is not enough (a contact pushed the whole body), all of
    /// it. Returns the energy (J) the corrections raised the body by
    /// beyond what it had, which stopping it cannot pay back.
    fn keep_passive(&mut self, energy: f32, dt: f32, gravity: Vec3) -> f32 {
        let p = &mut self.particles;
        let mass: f32 = p.mass.iter().sum();
        let unpaid = (potential(p, gravity) - energy).max(0.0);
        let allowed = (energy - potential(p, gravity)).max(0.0);
        let velocity = |p: &Particles, k: usize| (p.now[k] - p.before[k]) / dt;
        let centre: Vec3 = (0..p.now.len())
            .map(|k| velocity(p, k) * p.mass[k])
            .sum::<Vec3>()
            / mass;
        let whole = 0.5 * mass * centre.length_squared();
        let own: f32 = (0..p.now.len())
            .map(|k| 0.5 * p.mass[k] * (velocity(p, k) - centre).length_squared())
            .sum();
        if whole + own <= allowed * (1.0 + 1e-4) + 1e-6 {
            return unpaid;
        }
        let (keep_centre, keep_own) = if whole <= allowed {
            (1.0, ((allowed - whole) / own.max(1e-12)).sqrt())
        } else {
            let all = (allowed / (whole + own)).sqrt();
            (all, all)
        };
        for k in 0..p.now.len() {
            let v = centre * keep_centre + (velocity(p, k) - centre) * keep_own;
            p.before[k] = p.now[k] - v * dt;
        }
        unpaid
    }

    /// Lowers the whole body along gravity by the height whose energy
    /// (`unpaid` J) the step's corrections put in with no motion to pay
    /// for it (a body at rest pushed out of a crate's corner would creep
    /// up), then moves it out again as far as a part's core would be
    /// inside the world: the depth bound comes first.
    fn settle_unpaid(&mut self, unpaid: f32, around: &Surroundings<'_, D3>) {
        let g = around.gravity;
        let weight = self.skeleton.mass() * g.length();
        if weight <= 0.0 {
            return;
        }
        let drop = g.normalize() * (unpaid / weight);
        let p = &mut self.particles;
        for (now, before) in p.now.iter_mut().zip(&mut p.before) {
            *now += drop;
            *before += drop;
        }
        self.lift_out(around);
    }

    /// Counts how long (`dt` a tick) the ragdoll has been still while
    /// touching something over its last step (of `step` seconds), and
    /// puts it to sleep after long enough.
    fn settle(&mut self, dt: f32, step: f32, touched: bool) {
        let slow = self.settings.sleep_speed * step;
        let still = touched
            && self.blend.weight.iter().all(|&w| w == 0.0)
            && self
                .particles
                .now
                .iter()
                .zip(&self.particles.before)
                .all(|(a, b)| a.distance(*b) < slow);
        let before = match self.clock {
            Clock::Running { still, .. } => still,
            _ => 0.0,
        };
        let still = if still { before + dt } else { 0.0 };
        let last_dt = step;
        self.clock = if self.settings.sleep_speed > 0.0 && still >= self.settings.sleep_after {
            self.particles.before.copy_from_slice(&self.particles.now);
            Clock::Asleep
        } else {
            Clock::Running { last_dt, still }
        };
    }

    /// Whether a sleeping ragdoll still rests on something: some part
    /// within touching distance of a nearby object.
    fn still_resting(&mut self, around: &Surroundings<'_, D3>) -> bool {
        self.find_near(around);
        if self.scratch.near.is_empty() {
            return false;
        }
        self.scratch.touches.fill(Touch::default());
        self.scratch.probe.clear();
        self.scratch.probe.extend_from_slice(&self.particles.now);
        push_out_of_world(
            &self.skeleton,
            &mut self.scratch.probe,
            &self.particles.inverse,
            around,
            &self.scratch.near,
            None,
            &mut self.scratch.touches,
        );
        // Resting on something, and nothing pressed into it since.
        let touching = self.scratch.touches.iter().any(|t| t.normal != Vec3::ZERO);
        let pressed = self.scratch.touches.iter().any(|t| t.pushed > 0.01);
        touching && !pressed
    }

    /// Wakes a sleeping ragdoll: it moves again from rest.
    pub fn wake(&mut self) {
        if matches!(self.clock, Clock::Asleep) {
            self.clock = Clock::Starting {
                velocity: Vec3::ZERO,
            };
        }
    }

    /// Whether it sleeps.
    pub fn is_asleep(&self) -> bool {
        matches!(self.clock, Clock::Asleep)
    }

    /// The Verlet step: each particle keeps its velocity (scaled to this
    /// tick's length) and falls.
    fn integrate(&mut self, dt: f32, gravity: Vec3) {
        let p = &mut self.particles;
        for k in 0..p.now.len() {
            let carried = match self.clock {
                Clock::Starting { velocity } => velocity * dt,
                Clock::Running { last_dt, .. } => (p.now[k] - p.before[k]) * (dt / last_dt),
                Clock::Asleep => Vec3::ZERO,
            };
            p.before[k] = p.now[k];
            p.now[k] += carried + gravity * (dt * dt);
        }
    }

    /// Moves each particle toward the animated pose by this step's part
    /// (`portion` of a tick) of its weight a tick; a particle of weight 1
    /// is held there (no inverse mass).
    fn follow_target(&mut self, portion: f32) {
        let p = &mut self.particles;
        for k in 0..p.now.len() {
            let w = self.blend.weight[k];
            let w = if w >= 1.0 {
                1.0
            } else {
                1.0 - math::powf(1.0 - w, portion)
            };
            p.now[k] = p.now[k].lerp(self.blend.target[k], w);
            p.inverse[k] = (1.0 - w) / p.mass[k];
        }
    }

    /// One round of the bones' and the torso's distance constraints.
    fn solve_links(&mut self) {
        let p = &mut self.particles;
        for &(a, b, length) in &self.links {
            let (wa, wb) = (p.inverse[a], p.inverse[b]);
            if wa + wb <= 0.0 {
                continue;
            }
            let d = p.now[b] - p.now[a];
            let l = d.length();
            // Within the rounding of the ends' coordinates (at most 1e-4
            // of the bone, so far out where they round coarsely the bones
            // stay stiff) the bone has its length: a fix that small would
            // only turn rounding into speed (a body at rest at a turned
            // pose gained energy tick by tick).
            let coordinates = p.now[a].abs().max(p.now[b].abs()).max_element();
            let rounding = (4.0 * f32::EPSILON * coordinates).min(1e-4 * length);
            if l <= 1e-9 || (l - length).abs() <= rounding {
                continue;
            }
            let fix = d * ((l - length) / (l * (wa + wb)));
            p.now[a] += fix * wa;
            p.now[b] -= fix * wb;
        }
    }

    /// Every joint brought `share` of the way back within its limit, the
    /// spine first; `carry` turns the last positions too, so the fix
    /// adds no speed. With `around`, a limit that can be fixed two ways
    /// takes the one that leaves the body less deep in the world.
    fn solve_limits(&mut self, share: f32, carry: bool, around: Option<&Surroundings<'_, D3>>) {
        let p = &mut self.particles;
        let (skeleton, near, probe) = (&self.skeleton, &self.scratch.near, &mut self.scratch.probe);
        let depth_at = |q: &[Vec3]| {
            around
                .and_then(|w| deepest_core(skeleton, q, w, near))
                .map_or(0.0, |d| d.0)
        };
        let mut fix = if carry {
            Fix::Rigid {
                before: p.before.as_mut_slice(),
                depth: around.map(|_| &depth_at as &DepthAt<'_>),
                probe,
            }
        } else {
            Fix::Local {
                share,
                inverse: &p.inverse,
            }
        };
        for joint in &self.skeleton.joints {
            enforce(&self.skeleton, joint, &mut p.now, &p.inverse, &mut fix);
        }
    }

    /// The objects near enough to touch this tick.
    fn find_near(&mut self, around: &Surroundings<'_, D3>) {
        let reach = self.skeleton.parts.iter().map(|p| p.2).fold(0.0, f32::max) + 0.05;
        match bounds(&self.particles.now, reach) {
            Some(area) => candidates(around, &area, &mut self.scratch.near),
            None => self.scratch.near.clear(),
        }
    }

    /// The parts pushed out of the nearby objects.
    fn push_out(&mut self, around: &Surroundings<'_, D3>) {
        if self.scratch.near.is_empty() {
            return;
        }
        push_out_of_world(
            &self.skeleton,
            &mut self.particles.now,
            &self.particles.inverse,
            around,
            &self.scratch.near,
            Some(&self.scratch.start),
            &mut self.scratch.touches,
        );
    }

    /// The animated pose to follow (one point per particle), and how much
    /// each part follows it: 0 (ragdoll) to 1 (held to the pose).
    pub fn set_target(&mut self, pose: &[Vec3]) -> Result<(), GameError> {
        check_pose(&self.skeleton, pose)?;
        self.blend.target.copy_from_slice(pose);
        self.wake();
        Ok(())
    }

    /// How much part `part` (an index into the skeleton's parts) follows
    /// the animated pose, 0 to 1; each particle follows as much as the
    /// most of its parts.
    pub fn set_part_weight(&mut self, part: usize, w: f32) -> Result<(), GameError> {
        let w = weight(w)?;
        let count = self.skeleton.parts.len();
        let slot = self
            .blend
            .part_weight
            .get_mut(part)
            .ok_or(GameError::WrongLength {
                what: "part index (below the part count)",
                expected: count,
                got: part,
            })?;
        *slot = w;
        self.wake();
        self.blend.weight.fill(0.0);
        for (k, &(a, b, _)) in self.skeleton.parts.iter().enumerate() {
            let w = self.blend.part_weight[k];
            self.blend.weight[a] = self.blend.weight[a].max(w);
            self.blend.weight[b] = self.blend.weight[b].max(w);
        }
        Ok(())
    }

    /// Sets every part's weight.
    pub fn set_weight(&mut self, w: f32) -> Result<(), GameError> {
        for part in 0..self.skeleton.parts.len() {
            self.set_part_weight(part, w)?;
        }
        Ok(())
    }

    /// The particles' positions.
    pub fn positions(&self) -> &[Vec3] {
        &self.particles.now
    }

    /// The skeleton.
    pub fn skeleton(&self) -> &Skeleton {
        &self.skeleton
    }

    /// A particle's velocity over the last step, m/s (`None` past the
    /// particle count).
    pub fn velocity(&self, particle: usize) -> Option<Vec3> {
        (particle < self.particles.now.len()).then(|| self.velocity_of(particle))
    }

    /// [`Ragdoll::velocity`] for an index in range.
    fn velocity_of(&self, particle: usize) -> Vec3 {
        match self.clock {
            Clock::Starting { velocity } => velocity,
            Clock::Running { last_dt, .. } => {
                (self.particles.now[particle] - self.particles.before[particle]) / last_dt
            }
            Clock::Asleep => Vec3::ZERO,
        }
    }

    /// The total momentum, kg m/s.
    pub fn momentum(&self) -> Vec3 {
        (0..self.particles.now.len())
            .map(|k| self.velocity_of(k) * self.particles.mass[k])
            .sum()
    }

    /// The kinetic energy, J.
    pub fn kinetic_energy(&self) -> f32 {
        (0..self.particles.now.len())
            .map(|k| 0.5 * self.particles.mass[k] * self.velocity_of(k).length_squared())
            .sum()
    }

    /// The centre of mass.
    pub fn centre_of_mass(&self) -> Vec3 {
        mass_centre(&self.particles.now, &self.particles.mass)
    }

    /// How far the joints are past their limits: the largest excess,
    /// radians (0 when all are within).
    pub fn limit_excess(&self) -> f32 {
        self.skeleton
            .joints
            .iter()
            .map(|j| excess(&self.particles.now, j))
            .fold(0.0, f32::max)
    }

    /// Which way it lies, read from its chest.
    pub fn lying(&self) -> Lying {
        let Some(chest) = Frame::read(&self.particles.now, self.skeleton.torso) else {
            return Lying::Upright;
        };
        if chest.up.y > 0.7 {
            return Lying::Upright;
        }
        // The chest faces -back.
        let facing = -chest.back;
        if facing.y < -0.5 {
            Lying::FaceDown
        } else if facing.y > 0.5 {
            Lying::FaceUp
        } else if chest.right.y > 0.0 {
            Lying::LeftSide
        } else {
            Lying::RightSide
        }
    }

    /// A hash of the particles' positions and last positions, bit for bit.
    pub fn state_hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for v in self.particles.now.iter().chain(&self.particles.before) {
            for x in v.to_array() {
                h = (h ^ u64::from(x.to_bits())).wrapping_mul(0x0100_0000_01b3);
            }
        }
        h
    }
}

/// The centre of mass of points `at` with `mass`.
fn mass_centre(at: &[Vec3], mass: &[f32]) -> Vec3 {
    let total: f32 = mass.iter().sum();
    at.iter().zip(mass).map(|(x, m)| *x * *m).sum::<Vec3>() / total
}

/// The particles' potential energy under `gravity` (J, zero at the
/// origin).
fn potential(p: &Particles, gravity: Vec3) -> f32 {
    p.now
        .iter()
        .zip(&p.mass)
        .map(|(x, m)| -m * gravity.dot(*x))
        .sum()
}
