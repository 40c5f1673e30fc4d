//! The description a ragdoll is built from: joints (particles) in a rest
//! pose, the parts between them (capsules that collide), the rigid
//! clusters of the torso, and each joint's limits.

use super::builder::SkeletonBuilder;
use crate::error::{GameError, finite_vector, unit_share, within};
use collide::glam::Vec3;
use collide::math;

/// How a joint limits the part below it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// The part's direction stays within `half_angle` radians of `axis`
    /// (given in the parent frame's rest coordinates).
    Cone {
        /// The cone's axis, unit, in the parent frame at rest.
        axis: Vec3,
        /// The cone's half angle, radians.
        half_angle: f32,
    },
    /// A shoulder or hip: a cone, and a twist limit read from the hinge
    /// below (the plane the limb bends in, against the plane it bends in
    /// at rest, toward `bend`).
    Limb {
        /// The cone's axis, unit, in the parent frame at rest.
        axis: Vec3,
        /// The cone's half angle, radians.
        half_angle: f32,
        /// The twist limit either way, radians.
        twist: f32,
        /// Which way the hinge below bends at rest, in the parent frame.
        bend: Vec3,
    },
    /// An elbow or knee: bends from straight up to `max_bend` radians (its
    /// direction is kept by the limb's twist limit above it).
    Hinge {
        /// The largest bend, radians.
        max_bend: f32,
    },
    /// The spine: the bone from the pelvis to the chest within `swing`
    /// radians of its rest direction in the pelvis's frame (`axis`), and
    /// the chest's right turned at most `twist` radians about the chest's
    /// up from the pelvis's.
    Spine {
        /// The spine's rest direction, unit, in the pelvis's frame at rest.
        axis: Vec3,
        /// The largest lean, radians.
        swing: f32,
        /// The largest twist either way, radians.
        twist: f32,
    },
}

/// A frame read from particles: up from `origin` to `up_to`, right from
/// `left` to `right`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FrameOf {
    pub(crate) origin: usize,
    pub(crate) up_to: usize,
    pub(crate) left: usize,
    pub(crate) right: usize,
}

/// A limited joint: the part from `pivot` to `child`, its limit, and the
/// frame it is measured in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Joint {
    pub(crate) pivot: usize,
    pub(crate) child: usize,
    /// For limbs: the particle below the hinge (the hand, the foot).
    pub(crate) below: Option<usize>,
    /// For hinges: the particle above (the shoulder, the hip).
    pub(crate) above: Option<usize>,
    pub(crate) frame: FrameOf,
    /// For the spine: the upper frame.
    pub(crate) upper: Option<FrameOf>,
    pub(crate) limit: Limit,
}

/// A ragdoll's body plan.
///
/// ```
/// use collide_game::ragdoll::Skeleton;
/// let body = Skeleton::humanoid(1.8, 75.0)?;
/// assert_eq!(body.particle_count(), 16);
/// assert!(Skeleton::humanoid(-1.0, 75.0).is_err());
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Skeleton {
    pub(crate) rest: Vec<Vec3>,
    pub(crate) masses: Vec<f32>,
    /// Parts: (a, b, radius).
    pub(crate) parts: Vec<(usize, usize, f32)>,
    /// Distance constraints: (a, b), rest length from the rest pose.
    pub(crate) links: Vec<(usize, usize)>,
    pub(crate) joints: Vec<Joint>,
    /// Per particle, the particles that move with it when its joint turns
    /// (itself and all below it).
    pub(crate) below: Vec<Vec<usize>>,
    /// The frame that says how the body lies.
    pub(crate) torso: FrameOf,
    /// The pairs of parts that collide with each other (see
    /// [`contact_pairs`]).
    pub(crate) contact_pairs: Vec<(usize, usize)>,
}

// The humanoid's particles.
const PELVIS: usize = 0;
const CHEST: usize = 1;
const NECK: usize = 2;
const HEAD: usize = 3;
const L_SHOULDER: usize = 4;
const L_ELBOW: usize = 5;
const L_HAND: usize = 6;
const R_SHOULDER: usize = 7;
const R_ELBOW: usize = 8;
const R_HAND: usize = 9;
const L_HIP: usize = 10;
const L_KNEE: usize = 11;
const L_FOOT: usize = 12;
const R_HIP: usize = 13;
const R_KNEE: usize = 14;
const R_FOOT: usize = 15;

impl Skeleton {
    /// A human `height` metres tall (0.1 to 10) weighing `mass` kg (1 to
    /// 1,000),
    /// standing with arms hanging, facing -z (x to its right, y up), its
    /// feet at the origin's height: 16 particles at the joints, 13 parts
    /// (spine, neck, head, hips, shoulders, upper and lower arms and
    /// legs), with limits of a supple adult: the spine leans 45 degrees and
    /// twists 35, the head tips 50, arms swing 110 degrees from hanging
    /// and twist 60, legs swing 75 degrees about a line 35 degrees forward
    /// of straight down and twist 35, elbows and knees bend up to 150
    /// degrees, the elbows forward and the knees back.
    pub fn humanoid(height: f32, mass: f32) -> Result<Self, GameError> {
        let s = within("ragdoll height (m)", f64::from(height), 0.1, 10.0)? as f32 / 1.8;
        let mass = within("ragdoll mass (kg)", f64::from(mass), 1.0, 1000.0)? as f32;
        let p = |x: f32, y: f32| Vec3::new(x * s, y * s, 0.0);
        // Rest places and shares of the mass, in the particle order above.
        let joints = [
            (p(0.0, 1.02), 0.16),                        // pelvis
            (Vec3::new(0.0, 1.38 * s, -0.06 * s), 0.16), // chest, ahead of the shoulders
            (p(0.0, 1.52), 0.04),                        // neck
            (p(0.0, 1.70), 0.06),                        // head
            (p(-0.2, 1.45), 0.05),                       // left shoulder
            (p(-0.25, 1.17), 0.03),                      // left elbow
            (p(-0.28, 0.92), 0.01),                      // left hand
            (p(0.2, 1.45), 0.05),                        // right shoulder
            (p(0.25, 1.17), 0.03),                       // right elbow
            (p(0.28, 0.92), 0.01),                       // right hand
            (p(-0.1, 0.92), 0.08),                       // left hip
            (p(-0.11, 0.52), 0.05),                      // left knee
            (p(-0.12, 0.08), 0.02),                      // left foot
            (p(0.1, 0.92), 0.08),                        // right hip
            (p(0.11, 0.52), 0.05),                       // right knee
            (p(0.12, 0.08), 0.02),                       // right foot
        ];
        let total: f32 = joints.iter().map(|j| j.1).sum();
        let mut b = SkeletonBuilder::new();
        let mut id = Vec::with_capacity(joints.len());
        for (rest, share) in joints {
            id.push(b.joint(rest, share * mass / total)?);
        }
        let j = |k: usize| id[k];
        let r = |x: f32| x * s;
        for (a, c, radius) in [
            (PELVIS, CHEST, 0.12),
            (CHEST, NECK, 0.06),
            (NECK, HEAD, 0.1),
            (L_HIP, R_HIP, 0.12),
            (L_SHOULDER, R_SHOULDER, 0.07),
            (L_SHOULDER, L_ELBOW, 0.05),
            (L_ELBOW, L_HAND, 0.045),
            (R_SHOULDER, R_ELBOW, 0.05),
            (R_ELBOW, R_HAND, 0.045),
            (L_HIP, L_KNEE, 0.07),
            (L_KNEE, L_FOOT, 0.055),
            (R_HIP, R_KNEE, 0.07),
            (R_KNEE, R_FOOT, 0.055),
        ] {
            b.part(j(a), j(c), r(radius))?;
        }
        // The rigid clusters: the hips round the pelvis, the shoulders
        // round the chest and neck.
        for (a, c) in [
            (PELVIS, L_HIP),
            (PELVIS, R_HIP),
            (CHEST, L_SHOULDER),
            (CHEST, R_SHOULDER),
            (NECK, L_SHOULDER),
            (NECK, R_SHOULDER),
        ] {
            b.tie(j(a), j(c))?;
        }
        // The pelvis's frame from its own cluster (the hips and the pelvis
        // above them), so turning the spine does not move it.
        let pelvis = b.frame(j(L_HIP), j(PELVIS), j(L_HIP), j(R_HIP))?;
        let chest = b.frame(j(CHEST), j(NECK), j(L_SHOULDER), j(R_SHOULDER))?;
        b.torso(chest)?;
        let deg = |d: f32| d.to_radians();
        let rest = |k: usize| joints[k].0;
        let forward_down = Vec3::new(
            0.0,
            -math::cos(35f32.to_radians()),
            -math::sin(35f32.to_radians()),
        );
        b.spine(pelvis, chest, j(PELVIS), j(CHEST), deg(45.0), deg(35.0))?;
        b.cone(chest, j(NECK), j(HEAD), Vec3::Y, deg(50.0))?;
        for (shoulder, elbow, hand) in
            [(L_SHOULDER, L_ELBOW, L_HAND), (R_SHOULDER, R_ELBOW, R_HAND)]
        {
            let hanging = rest(elbow) - rest(shoulder);
            b.limb(
                chest,
                j(shoulder),
                j(elbow),
                j(hand),
                hanging,
                deg(110.0),
                deg(60.0),
                -Vec3::Z,
            )?;
            b.hinge(chest, j(shoulder), j(elbow), j(hand), deg(150.0))?;
        }
        for (hip, knee, foot) in [(L_HIP, L_KNEE, L_FOOT), (R_HIP, R_KNEE, R_FOOT)] {
            b.limb(
                pelvis,
                j(hip),
                j(knee),
                j(foot),
                forward_down,
                deg(75.0),
                deg(35.0),
                Vec3::Z,
            )?;
            b.hinge(pelvis, j(hip), j(knee), j(foot), deg(150.0))?;
        }
        b.build()
    }

    /// The number of particles (joints).
    pub fn particle_count(&self) -> usize {
        self.rest.len()
    }

    /// The rest pose, standing on the origin's height, facing -z.
    pub fn rest_pose(&self) -> &[Vec3] {
        &self.rest
    }

    /// The parts as `(particle, particle, radius)`.
    pub fn parts(&self) -> &[(usize, usize, f32)] {
        &self.parts
    }

    /// The total mass, kg.
    pub fn mass(&self) -> f32 {
        self.masses.iter().sum()
    }

    /// Each particle's mass, kg.
    pub fn masses(&self) -> &[f32] {
        &self.masses
    }

    /// The rest lengths of the distance constraints, as `(a, b, length)`.
    pub fn links(&self) -> impl Iterator<Item = (usize, usize, f32)> + '_ {
        self.links
            .iter()
            .map(|&(a, b)| (a, b, self.rest[a].distance(self.rest[b])))
    }
}

/// The pairs of parts (lower index first) that collide with each other:
/// those not joined. Parts are joined when they share a particle or a
/// particle of one is tied to a particle of the other (the torso's
/// clusters): joined parts overlap at the joint by design.
pub(crate) fn contact_pairs(
    parts: &[(usize, usize, f32)],
    links: &[(usize, usize)],
) -> Vec<(usize, usize)> {
    let tied = |x: usize, y: usize| {
        x == y
            || links
                .iter()
                .any(|&(u, v)| (u, v) == (x, y) || (v, u) == (x, y))
    };
    let joined = |p: (usize, usize, f32), q: (usize, usize, f32)| {
        [p.0, p.1]
            .iter()
            .any(|&x| [q.0, q.1].iter().any(|&y| tied(x, y)))
    };
    let mut pairs = Vec::new();
    for i in 0..parts.len() {
        for j in i + 1..parts.len() {
            if !joined(parts[i], parts[j]) {
                pairs.push((i, j));
            }
        }
    }
    pairs
}

/// Checks a pose: as many finite points as particles.
pub(crate) fn check_pose(skeleton: &Skeleton, pose: &[Vec3]) -> Result<(), GameError> {
    if pose.len() != skeleton.rest.len() {
        return Err(GameError::WrongLength {
            what: "pose points (one per particle)",
            expected: skeleton.rest.len(),
            got: pose.len(),
        });
    }
    for &p in pose {
        finite_vector("pose point", p)?;
    }
    Ok(())
}

/// `value` if it is a finite weight from 0 to 1.
pub(crate) fn weight(value: f32) -> Result<f32, GameError> {
    unit_share("blend weight", value)
}
