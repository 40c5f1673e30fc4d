//! The shared scenes: seeded, deterministic generators of moving boxes in 2D
//! and 3D, used by tests, benchmarks and the demo alike.

use super::changing;
use super::record::Record;
use super::rng::SceneRng;
use collide::{Aabb, Vector, math};
use std::fmt;
use std::str::FromStr;

/// Where the boxes are. See [`SceneConfig`].
///
/// ```
/// use collide_scenes::SceneKind;
/// let kind: SceneKind = "clustered".parse()?;
/// assert_eq!(kind, SceneKind::Clustered);
/// assert_eq!(kind.to_string(), "clustered");
/// assert!("scattered".parse::<SceneKind>().is_err());
/// # Ok::<(), collide_scenes::UnknownName>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SceneKind {
    /// The reference experiment's setting at constant density: centres uniform in the world.
    Uniform,
    /// Centres in a thin band along x (4% of the world side on the other
    /// axes): a 2.5D side-scroller.
    Flat,
    /// 90% of objects in 10 gaussian hotspots, 10% uniform.
    Clustered,
    /// `Uniform` with `n` movers, plus `2% of n` more static objects that
    /// span the world along x (floors and walls): 1000 objects and 20
    /// spanning ones.
    Large,
    /// `Uniform` turning flat and back: every axis but x squeezed to 4%
    /// of the side and released, in a cycle (see [`PHASE_FRAMES`](super::PHASE_FRAMES)).
    Flattening,
    /// `Uniform` with 70% of the movers gathering into one hotspot and
    /// spreading out again, in a cycle.
    Hotspot,
    /// `Uniform` with 2% of `n` world-spanning objects appearing and going
    /// again, in a cycle.
    Walls,
    /// `Uniform` whose motion turns fast, then teleporting, then fast and
    /// slow again, in a cycle (whatever [`SceneConfig::motion`] says).
    Speeding,
    /// `Uniform` with 10% of the movers rods 1,000 times longer than they
    /// are thick (200 by 0.2 units), each along a random axis.
    Elongated,
    /// Many small movers (half extents 0.5 to 2) and among them 0.1% of
    /// `n` huge ones (at least one; half extents 2.5% of the world side),
    /// all moving alike.
    Huge,
    /// Tight clusters of up to 1,000 movers each at `uniform`'s density,
    /// far apart: the world side is 8 times `uniform`'s, and in 2D the
    /// clusters cover about 1.5% of it.
    Sparse,
}

impl SceneKind {
    /// Every kind, in table order.
    ///
    /// ```
    /// use collide_scenes::SceneKind;
    /// let names = SceneKind::ALL.map(SceneKind::name);
    /// assert_eq!(
    ///     names,
    ///     ["uniform", "flat", "clustered", "large", "elongated", "huge", "sparse"]
    /// );
    /// ```
    pub const ALL: [SceneKind; 7] = [
        Self::Uniform,
        Self::Flat,
        Self::Clustered,
        Self::Large,
        Self::Elongated,
        Self::Huge,
        Self::Sparse,
    ];

    /// The scenes that change character while they run, for `auto`, each
    /// a cycle of four phases of [`PHASE_FRAMES`](super::PHASE_FRAMES) frames: as generated,
    /// turning, changed, turning back. Not in [`SceneKind::ALL`]: the
    /// tests and benchmarks of every structure run the steady kinds, and
    /// these where a structure's choice or its memory of the scene
    /// matters.
    ///
    /// ```
    /// use collide_scenes::SceneKind;
    /// let names = SceneKind::CHANGING.map(SceneKind::name);
    /// assert_eq!(names, ["flattening", "hotspot", "walls", "speeding"]);
    /// assert_eq!("walls".parse::<SceneKind>()?, SceneKind::Walls);
    /// # Ok::<(), collide_scenes::UnknownName>(())
    /// ```
    pub const CHANGING: [SceneKind; 4] =
        [Self::Flattening, Self::Hotspot, Self::Walls, Self::Speeding];

    /// Every kind a name parses to: [`SceneKind::ALL`], then
    /// [`SceneKind::CHANGING`].
    pub const NAMED: [SceneKind; 11] = [
        Self::Uniform,
        Self::Flat,
        Self::Clustered,
        Self::Large,
        Self::Elongated,
        Self::Huge,
        Self::Sparse,
        Self::Flattening,
        Self::Hotspot,
        Self::Walls,
        Self::Speeding,
    ];

    /// The name used on the command line.
    ///
    /// ```
    /// use collide_scenes::SceneKind;
    /// assert_eq!(SceneKind::Large.name(), "large");
    /// assert_eq!("large".parse::<SceneKind>()?, SceneKind::Large);
    /// # Ok::<(), collide_scenes::UnknownName>(())
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Self::Uniform => "uniform",
            Self::Flat => "flat",
            Self::Clustered => "clustered",
            Self::Large => "large",
            Self::Flattening => "flattening",
            Self::Hotspot => "hotspot",
            Self::Walls => "walls",
            Self::Speeding => "speeding",
            Self::Elongated => "elongated",
            Self::Huge => "huge",
            Self::Sparse => "sparse",
        }
    }
}

/// How the boxes move each frame. See [`SceneConfig`].
///
/// ```
/// use collide_scenes::{Motion, Scene, SceneConfig, SceneKind};
/// use glam::Vec2;
/// let config = SceneConfig {
///     motion: "churn".parse()?,
///     ..SceneConfig::new(SceneKind::Uniform, 300)
/// };
/// assert_eq!(config.motion, Motion::Churn);
/// let frames = Scene::<Vec2>::new(config).take_frames(2);
/// // Churn: 1% of 300 movers removed and as many inserted, then 297 moved.
/// assert_eq!(frames[1].len(), 3 + 3 + 297);
/// # Ok::<(), collide_scenes::UnknownName>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Motion {
    /// 1 world unit per frame, constant velocity, bouncing off the walls.
    Slow,
    /// 8 units per frame, otherwise as `Slow`.
    Fast,
    /// `Slow`, and each frame 5% of the movers jump anywhere.
    Teleport,
    /// `Slow`, and each frame 1% of the movers (at least one) are removed
    /// and as many new objects are inserted.
    Churn,
    /// `Slow` for the awake movers only, as in a game where most bodies
    /// sleep: each frame a sleeping mover wakes with probability 1% and an
    /// awake one falls asleep with probability 10%, so about one in 11
    /// moves at a time (one in 11 starts awake). Sleeping movers are not
    /// named in the frame.
    Resting,
}

impl Motion {
    /// Every motion, in table order.
    ///
    /// ```
    /// use collide_scenes::Motion;
    /// let names = Motion::ALL.map(Motion::name);
    /// assert_eq!(names, ["slow", "fast", "teleport", "churn", "resting"]);
    /// ```
    pub const ALL: [Motion; 5] = [
        Self::Slow,
        Self::Fast,
        Self::Teleport,
        Self::Churn,
        Self::Resting,
    ];

    /// Every motion a name parses to: [`Motion::ALL`].
    pub const NAMED: [Motion; 5] = Self::ALL;

    /// The name used on the command line.
    ///
    /// ```
    /// use collide_scenes::Motion;
    /// assert_eq!(Motion::Teleport.name(), "teleport");
    /// assert_eq!(Motion::Teleport.to_string(), "teleport");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Self::Slow => "slow",
            Self::Fast => "fast",
            Self::Teleport => "teleport",
            Self::Churn => "churn",
            Self::Resting => "resting",
        }
    }

    fn speed(self) -> f32 {
        match self {
            Self::Fast => 8.0,
            _ => 1.0,
        }
    }
}

/// An unknown scene or motion name.
///
/// ```
/// use collide_scenes::Motion;
/// let err = "sideways".parse::<Motion>().unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "unknown motion `sideways`; expected one of: slow, fast, teleport, churn, resting"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} `{given}`; expected one of: {expected}")]
pub struct UnknownName {
    what: &'static str,
    given: String,
    expected: String,
}

macro_rules! named_enum {
    ($ty:ident, $what:literal) => {
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $ty {
            type Err = UnknownName;
            fn from_str(s: &str) -> Result<Self, UnknownName> {
                Self::NAMED
                    .into_iter()
                    .find(|k| k.name() == s)
                    .ok_or_else(|| UnknownName {
                        what: $what,
                        given: s.to_string(),
                        expected: Self::NAMED.map(|k| k.name()).join(", "),
                    })
            }
        }
    };
}

named_enum!(SceneKind, "scene");
named_enum!(Motion, "motion");

/// What to generate: a scene kind, a motion, a number of objects and a seed.
///
/// The world is a square (cube) of side `L = 1000 * (n / 1000)^(1 / D)`, so
/// the density is constant as `n` grows. Half extents are uniform in
/// `[2.5, 10]` per axis. Movers have constant velocity and bounce off the
/// world's walls. At `n = 1000` in 2D, `uniform` has about 320 overlapping
/// pairs and about 12,800 pairs overlapping on x alone.
///
/// ```
/// use collide_scenes::{Motion, Scene, SceneConfig, SceneKind};
/// use glam::Vec2;
/// let config = SceneConfig { motion: Motion::Fast, ..SceneConfig::new(SceneKind::Flat, 500) };
/// let mut scene = Scene::<Vec2>::new(config);
/// let mut frame = Vec::new();
/// scene.next_frame(&mut frame); // frame 0 inserts every object
/// assert_eq!(frame.len(), 500);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SceneConfig {
    /// Where the boxes are.
    pub kind: SceneKind,
    /// How they move.
    pub motion: Motion,
    /// Number of moving objects (kept constant under churn); `Large` adds
    /// 2% of `n` static world-spanning objects to them.
    pub n: usize,
    /// Seed of the generator; equal configs give equal scenes.
    pub seed: u64,
    /// Thousandths of `n` that are the kind's odd objects, in place of its
    /// default: world-spanning ones in `large` and `walls` (20), rods in
    /// `elongated` (100), huge ones in `huge` (1); the other kinds ignore
    /// it. `None`: the default. For scenes unlike the ones a choice was
    /// tuned on.
    pub odd_per_mille: Option<u16>,
}

impl SceneConfig {
    /// `n` objects of `kind`, slow motion, seed 1.
    ///
    /// ```
    /// use collide_scenes::{Motion, SceneConfig, SceneKind};
    /// let config = SceneConfig::new(SceneKind::Uniform, 1000);
    /// assert_eq!((config.motion, config.n, config.seed), (Motion::Slow, 1000, 1));
    /// ```
    pub fn new(kind: SceneKind, n: usize) -> Self {
        Self {
            kind,
            motion: Motion::Slow,
            n,
            seed: 1,
            odd_per_mille: None,
        }
    }

    /// The world side `L` for dimension `dim`, in world units: `sparse`
    /// spreads its clusters over 8 times the side of the other kinds.
    ///
    /// ```
    /// use collide_scenes::{SceneConfig, SceneKind};
    /// assert_eq!(SceneConfig::new(SceneKind::Uniform, 1000).world_side(2), 1000.0);
    /// // Four times the objects on twice the side: the density stays constant.
    /// assert_eq!(SceneConfig::new(SceneKind::Uniform, 4000).world_side(2), 2000.0);
    /// ```
    pub fn world_side(&self, dim: usize) -> f32 {
        let spread = if self.kind == SceneKind::Sparse {
            SPARSE_SPREAD
        } else {
            1.0
        };
        spread * uniform_side(self.n, dim)
    }

    /// The share of `n`, 0 to 1, that is the kind's odd objects.
    fn odd_share(&self) -> f32 {
        let default = match self.kind {
            SceneKind::Large | SceneKind::Walls => SPANNING_SHARE,
            SceneKind::Elongated => ROD_SHARE,
            SceneKind::Huge => HUGE_SHARE,
            _ => 0.0,
        };
        self.odd_per_mille
            .map_or(default, |m| (f32::from(m) / 1000.0).min(1.0))
    }
}

/// The side of a world holding `n` objects at `uniform`'s density.
fn uniform_side(n: usize, dim: usize) -> f32 {
    1000.0 * math::powf(n as f32 / 1000.0, 1.0 / dim as f32)
}

const MIN_HALF_EXTENT: f32 = 2.5;
const MAX_HALF_EXTENT: f32 = 10.0;
const FLAT_BAND_SHARE: f32 = 0.04;
const HOTSPOTS: usize = 10;
const HOTSPOT_SIGMA_SHARE: f32 = 0.03;
const SPANNING_SHARE: f32 = 0.02;
/// `elongated`: the share of rods, their half length and half thickness.
const ROD_SHARE: f32 = 0.1;
const ROD_HALF_LENGTH: f32 = 100.0;
const ROD_HALF_THICKNESS: f32 = 0.1;
/// `huge`: the share of huge movers, their half extent as a share of the
/// world side, and the small movers' half extents.
const HUGE_SHARE: f32 = 0.001;
const HUGE_HALF_SHARE: f32 = 0.025;
const SMALL_HALF_EXTENTS: (f32, f32) = (0.5, 2.0);
/// `sparse`: the world side over `uniform`'s, and the most movers a
/// cluster holds.
const SPARSE_SPREAD: f32 = 8.0;
const SPARSE_CLUSTER: usize = 1000;
const TELEPORT_SHARE: f32 = 0.05;
const CHURN_SHARE: f32 = 0.01;
/// `Resting`: the chance per frame that a sleeping mover wakes, and that an
/// awake one falls asleep.
const WAKE_CHANCE: f32 = 0.01;
const SLEEP_CHANCE: f32 = 0.10;

#[derive(Clone, Debug)]
struct Body<V> {
    id: u64,
    center: V,
    half: V,
    velocity: V,
    /// `Resting` motion: whether the body moves this frame.
    awake: bool,
    /// The region of [`Scene::regions`] it moves in.
    home: usize,
}

/// A running scene: call [`Scene::next_frame`] once per frame. Frame 0
/// inserts every object; later frames move (and under churn remove and
/// insert) them. Objects that do not move are not named again.
///
/// Equal configurations give equal scenes, frame for frame:
///
/// ```
/// use collide_scenes::{Motion, Scene, SceneConfig, SceneKind};
/// use glam::Vec3;
/// let config = SceneConfig {
///     motion: Motion::Teleport,
///     seed: 42,
///     ..SceneConfig::new(SceneKind::Clustered, 100)
/// };
/// let mut a = Scene::<Vec3>::new(config);
/// let mut b = Scene::<Vec3>::new(config);
/// assert_eq!(a.take_frames(5), b.take_frames(5));
/// ```
#[derive(Clone, Debug)]
pub struct Scene<V: Vector> {
    config: SceneConfig,
    side: f32,
    lo: V,
    hi: V,
    /// Boxes the movers bounce in: the world (the band for `flat`), or
    /// the clusters of `sparse`.
    regions: Vec<(V, V)>,
    hotspots: Vec<V>,
    rng: SceneRng,
    movers: Vec<Body<V>>,
    fixed: Vec<Body<V>>,
    next_id: u64,
    frame: u64,
}

/// The number of the kind's odd objects: world-spanning ones in `large`
/// (and `walls` while they are up), huge ones in `huge` (at least one).
fn odd_count(config: &SceneConfig) -> usize {
    let count = (config.n as f32 * config.odd_share()).round() as usize;
    match config.kind {
        SceneKind::Huge => count.max(1).min(config.n),
        _ => count,
    }
}

/// `sparse`: clusters of up to [`SPARSE_CLUSTER`] movers at `uniform`'s
/// density, placed at random in the world; one region otherwise.
fn regions<V: Vector>(
    config: &SceneConfig,
    side: f32,
    (lo, hi): (V, V),
    rng: &mut SceneRng,
) -> Vec<(V, V)> {
    if config.kind != SceneKind::Sparse {
        return vec![(lo, hi)];
    }
    let clusters = config.n.div_ceil(SPARSE_CLUSTER).max(1);
    let cluster_side = uniform_side(config.n.div_ceil(clusters).max(1), V::DIM);
    (0..clusters)
        .map(|_| {
            let at = V::from_axes(|_| rng.range(0.0, side - cluster_side));
            (at, V::from_axes(|i| at.axis(i) + cluster_side))
        })
        .collect()
}

impl<V: Vector> Scene<V> {
    /// Generates the initial objects of `config`.
    ///
    /// ```
    /// use collide_scenes::{Scene, SceneConfig, SceneKind};
    /// use glam::Vec2;
    /// let scene = Scene::<Vec2>::new(SceneConfig::new(SceneKind::Large, 1000));
    /// assert_eq!(scene.objects().count(), 1000 + 20); // 2% more spanning objects
    /// assert_eq!(scene.frame(), 0);
    /// ```
    pub fn new(config: SceneConfig) -> Self {
        let side = config.world_side(V::DIM);
        let (lo, hi) = match config.kind {
            SceneKind::Flat => {
                let band = 0.5 * FLAT_BAND_SHARE * side;
                (
                    V::from_axes(|i| if i == 0 { 0.0 } else { 0.5 * side - band }),
                    V::from_axes(|i| if i == 0 { side } else { 0.5 * side + band }),
                )
            }
            _ => (V::from_axes(|_| 0.0), V::from_axes(|_| side)),
        };
        let mut rng = SceneRng::new(config.seed);
        let regions = regions(&config, side, (lo, hi), &mut rng);
        let hotspots = match config.kind {
            SceneKind::Clustered => (0..HOTSPOTS)
                .map(|_| V::from_axes(|_| rng.range(0.1 * side, 0.9 * side)))
                .collect(),
            _ => Vec::new(),
        };
        let mut scene = Self {
            config,
            side,
            lo,
            hi,
            regions,
            hotspots,
            rng,
            movers: Vec::new(),
            fixed: Vec::new(),
            next_id: 0,
            frame: 0,
        };
        if config.kind == SceneKind::Large {
            for _ in 0..odd_count(&config) {
                let body = scene.spanning_body();
                scene.fixed.push(body);
            }
        }
        let huge = match config.kind {
            SceneKind::Huge => odd_count(&config),
            _ => 0,
        };
        for index in 0..config.n {
            let mut body = scene.new_mover();
            if index < huge {
                body.half = V::from_axes(|_| HUGE_HALF_SHARE * side);
            }
            scene.movers.push(body);
        }
        scene
    }

    /// The configuration.
    ///
    /// ```
    /// use collide_scenes::{Scene, SceneConfig, SceneKind};
    /// use glam::Vec2;
    /// let config = SceneConfig::new(SceneKind::Flat, 50);
    /// assert_eq!(Scene::<Vec2>::new(config).config(), &config);
    /// ```
    pub fn config(&self) -> &SceneConfig {
        &self.config
    }

    /// The world side `L`, in world units.
    ///
    /// ```
    /// use collide_scenes::{Scene, SceneConfig, SceneKind};
    /// use glam::Vec2;
    /// let config = SceneConfig::new(SceneKind::Uniform, 250);
    /// let scene = Scene::<Vec2>::new(config);
    /// assert_eq!(scene.world_side(), config.world_side(2));
    /// assert_eq!(scene.world_side(), 500.0);
    /// ```
    pub fn world_side(&self) -> f32 {
        self.side
    }

    /// The world box `[0, L]^D` that movers' centres stay in.
    ///
    /// ```
    /// use collide::Aabb2;
    /// use collide_scenes::{Scene, SceneConfig, SceneKind};
    /// use glam::Vec2;
    /// let mut scene = Scene::<Vec2>::new(SceneConfig::new(SceneKind::Uniform, 100));
    /// assert_eq!(scene.world().max(), Vec2::splat(scene.world_side()));
    /// scene.take_frames(20);
    /// for (_, aabb) in scene.objects() {
    ///     assert!(scene.world().contains(&Aabb2::from_point(aabb.center())?));
    /// }
    /// # Ok::<(), collide::AabbError>(())
    /// ```
    pub fn world(&self) -> Aabb<V> {
        Aabb::new(V::from_axes(|_| 0.0), V::from_axes(|_| self.side))
            .expect("the world side is finite and positive")
    }

    /// The index of the next frame [`Scene::next_frame`] writes.
    ///
    /// ```
    /// use collide_scenes::{Scene, SceneConfig, SceneKind};
    /// use glam::Vec2;
    /// let mut scene = Scene::<Vec2>::new(SceneConfig::new(SceneKind::Uniform, 10));
    /// scene.take_frames(3);
    /// assert_eq!(scene.frame(), 3);
    /// ```
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// Every live object's id and box, fixed objects first.
    ///
    /// ```
    /// use collide_scenes::{Scene, SceneConfig, SceneKind};
    /// use glam::Vec2;
    /// let scene = Scene::<Vec2>::new(SceneConfig::new(SceneKind::Large, 100));
    /// let (id, floor) = scene.objects().next().unwrap();
    /// assert_eq!(id, 0);
    /// assert_eq!(floor.size().x, scene.world_side()); // spans the world along x
    /// ```
    pub fn objects(&self) -> impl Iterator<Item = (u64, Aabb<V>)> + '_ {
        self.fixed
            .iter()
            .chain(&self.movers)
            .map(|b| (b.id, self.shown(b)))
    }

    /// A body's box as the scene shows it at the current frame (a
    /// changing scene lays its change over where the body is).
    fn shown(&self, body: &Body<V>) -> Aabb<V> {
        let center = changing::shown_center(
            self.config.kind,
            self.frame,
            self.side,
            body.id,
            body.center,
        );
        Aabb::from_center_half_extents(center, body.half)
            .expect("scene boxes are finite with non-negative half extents")
    }

    /// `walls`: puts the world-spanning objects up or takes them down as
    /// the cycle says, writing the records.
    fn raise_or_lower_walls(&mut self, out: &mut Vec<Record<V>>) {
        let up = changing::walls_up(self.frame);
        if up && self.fixed.is_empty() {
            for _ in 0..odd_count(&self.config) {
                let body = self.spanning_body();
                out.push(Record::Upsert {
                    id: body.id,
                    aabb: body.aabb(),
                });
                self.fixed.push(body);
            }
        } else if !up {
            out.extend(self.fixed.drain(..).map(|b| Record::Remove { id: b.id }));
        }
    }

    /// Writes the next frame's records into `out` (cleared first).
    ///
    /// ```
    /// use collide_scenes::{Record, Scene, SceneConfig, SceneKind};
    /// use glam::Vec2;
    /// let mut scene = Scene::<Vec2>::new(SceneConfig::new(SceneKind::Uniform, 100));
    /// let mut frame = Vec::new();
    /// scene.next_frame(&mut frame); // frame 0: every object is inserted
    /// assert_eq!(frame.len(), 100);
    /// scene.next_frame(&mut frame); // frame 1: slow motion moves all of them
    /// assert_eq!(frame.len(), 100);
    /// assert!(frame.iter().all(|r| matches!(r, Record::Upsert { .. })));
    /// ```
    pub fn next_frame(&mut self, out: &mut Vec<Record<V>>) {
        out.clear();
        if self.frame == 0 {
            out.extend(self.objects().map(|(id, aabb)| Record::Upsert { id, aabb }));
        } else {
            self.advance(out);
        }
        self.frame += 1;
    }

    /// The next `frames` frames (from frame 0 on a new scene) as a vector
    /// of frames.
    ///
    /// ```
    /// use collide_scenes::{Scene, SceneConfig, SceneKind};
    /// use glam::Vec2;
    /// let mut scene = Scene::<Vec2>::new(SceneConfig::new(SceneKind::Flat, 40));
    /// let frames = scene.take_frames(3);
    /// assert_eq!(frames.len(), 3);
    /// assert_eq!(frames[0].len(), 40);
    /// ```
    pub fn take_frames(&mut self, frames: usize) -> Vec<Vec<Record<V>>> {
        (0..frames)
            .map(|_| {
                let mut out = Vec::new();
                self.next_frame(&mut out);
                out
            })
            .collect()
    }

    fn advance(&mut self, out: &mut Vec<Record<V>>) {
        let kind = self.config.kind;
        if kind == SceneKind::Walls {
            self.raise_or_lower_walls(out);
        }
        let (speed, teleports) = match kind {
            SceneKind::Speeding => changing::speeding(self.frame),
            _ => (1.0, self.config.motion == Motion::Teleport),
        };
        // A changing scene names every object each frame: its shown box
        // moves even when the body does not.
        let name_all = changing::is_changing(kind) && kind != SceneKind::Walls;
        let mut born = 0;
        if self.config.motion == Motion::Churn && !self.movers.is_empty() {
            let count = ((self.movers.len() as f32 * CHURN_SHARE) as usize).max(1);
            born = count;
            for _ in 0..count {
                let gone = self.movers.swap_remove(self.rng.below(self.movers.len()));
                out.push(Record::Remove { id: gone.id });
            }
            for _ in 0..count {
                let mut body = self.new_mover();
                if kind == SceneKind::Huge && self.rng.unit() < self.config.odd_share() {
                    body.half = V::from_axes(|_| HUGE_HALF_SHARE * self.side);
                }
                out.push(Record::Upsert {
                    id: body.id,
                    aabb: self.shown(&body),
                });
                self.movers.push(body);
            }
        }
        // The last `born` movers were just inserted with their boxes.
        let old = self.movers.len() - born;
        for index in 0..old {
            if self.config.motion == Motion::Resting {
                let body = &mut self.movers[index];
                let flip = if body.awake {
                    SLEEP_CHANCE
                } else {
                    WAKE_CHANCE
                };
                if self.rng.unit() < flip {
                    body.awake = !body.awake;
                }
                if !body.awake {
                    if name_all {
                        let aabb = self.shown(&self.movers[index]);
                        out.push(Record::Upsert {
                            id: self.movers[index].id,
                            aabb,
                        });
                    }
                    continue;
                }
            }
            let teleport = teleports && self.rng.unit() < TELEPORT_SHARE;
            let jump = teleport.then(|| self.anywhere());
            let body = &mut self.movers[index];
            match jump {
                Some((home, c)) => (body.home, body.center) = (home, c),
                None => {
                    let (lo, hi) = self.regions[body.home];
                    body.bounce(lo, hi, speed);
                }
            }
            let aabb = self.shown(&self.movers[index]);
            out.push(Record::Upsert {
                id: self.movers[index].id,
                aabb,
            });
        }
    }

    fn half_extents(&mut self) -> V {
        let (min, max) = match self.config.kind {
            SceneKind::Huge => SMALL_HALF_EXTENTS,
            _ => (MIN_HALF_EXTENT, MAX_HALF_EXTENT),
        };
        V::from_axes(|_| self.rng.range(min, max))
    }

    /// A random region and a point in it (a teleport's landing).
    fn anywhere(&mut self) -> (usize, V) {
        let home = match self.regions.len() {
            1 => 0,
            count => self.rng.below(count),
        };
        let (lo, hi) = self.regions[home];
        (
            home,
            V::from_axes(|i| self.rng.range(lo.axis(i), hi.axis(i))),
        )
    }

    fn take_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id - 1
    }

    fn spanning_body(&mut self) -> Body<V> {
        let half = self.half_extents();
        let y = V::from_axes(|_| self.rng.range(0.0, self.side));
        let side = self.side;
        Body {
            id: self.take_id(),
            center: V::from_axes(|i| if i == 0 { 0.5 * side } else { y.axis(i) }),
            half: V::from_axes(|i| if i == 0 { 0.5 * side } else { half.axis(i) }),
            velocity: V::default(),
            awake: false,
            home: 0,
        }
    }

    fn new_mover(&mut self) -> Body<V> {
        let (lo, hi) = (self.lo, self.hi);
        let (home, center) = match self.config.kind {
            SceneKind::Clustered if self.rng.unit() < 0.9 => {
                let spot = self.hotspots[self.rng.below(self.hotspots.len())];
                let sigma = HOTSPOT_SIGMA_SHARE * self.side;
                let c = V::from_axes(|i| {
                    (spot.axis(i) + sigma * self.rng.normal()).clamp(lo.axis(i), hi.axis(i))
                });
                (0, c)
            }
            _ => self.anywhere(),
        };
        let half = match self.config.kind {
            SceneKind::Elongated if self.rng.unit() < self.config.odd_share() => {
                let long = self.rng.below(V::DIM);
                V::from_axes(|i| {
                    if i == long {
                        ROD_HALF_LENGTH
                    } else {
                        ROD_HALF_THICKNESS
                    }
                })
            }
            _ => self.half_extents(),
        };
        let velocity = self.direction() * self.config.motion.speed();
        let id = self.take_id();
        Body {
            id,
            center,
            half,
            velocity,
            // `Resting`: one in 11 starts awake (the share it settles at).
            awake: id.is_multiple_of(11),
            home,
        }
    }

    /// A uniformly random unit vector.
    fn direction(&mut self) -> Direction<V> {
        if V::DIM == 2 {
            let angle = self.rng.range(0.0, std::f32::consts::TAU);
            Direction(V::from_axes(|i| {
                if i == 0 {
                    math::cos(angle)
                } else {
                    math::sin(angle)
                }
            }))
        } else {
            let z = self.rng.range(-1.0, 1.0);
            let angle = self.rng.range(0.0, std::f32::consts::TAU);
            let r = (1.0 - z * z).max(0.0).sqrt();
            Direction(V::from_axes(|i| match i {
                0 => r * math::cos(angle),
                1 => r * math::sin(angle),
                _ => z,
            }))
        }
    }
}

struct Direction<V>(V);

impl<V: Vector> std::ops::Mul<f32> for Direction<V> {
    type Output = V;
    fn mul(self, speed: f32) -> V {
        V::from_axes(|i| self.0.axis(i) * speed)
    }
}

impl<V: Vector> Body<V> {
    fn aabb(&self) -> Aabb<V> {
        Aabb::from_center_half_extents(self.center, self.half)
            .expect("scene boxes are finite with non-negative half extents")
    }

    /// One frame of constant velocity (times `speed`), reflected off the
    /// walls `[lo, hi]`.
    fn bounce(&mut self, lo: V, hi: V, speed: f32) {
        let (mut c, mut v) = (self.center, self.velocity);
        for i in 0..V::DIM {
            let (mut ci, mut vi) = (c.axis(i) + v.axis(i) * speed, v.axis(i));
            if ci < lo.axis(i) {
                ci = 2.0 * lo.axis(i) - ci;
                vi = -vi;
            } else if ci > hi.axis(i) {
                ci = 2.0 * hi.axis(i) - ci;
                vi = -vi;
            }
            c = set_axis(c, i, ci.clamp(lo.axis(i), hi.axis(i)));
            v = set_axis(v, i, vi);
        }
        self.center = c;
        self.velocity = v;
    }
}

fn set_axis<V: Vector>(v: V, axis: usize, value: f32) -> V {
    V::from_axes(|i| if i == axis { value } else { v.axis(i) })
}
