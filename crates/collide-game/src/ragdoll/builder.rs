//! Building a skeleton for any body plan: joints with their rest places
//! and masses, the capsule parts between them, ties that hold clusters
//! rigid, frames read from three or four joints, and each joint's limit.

use super::limits::Frame;
use super::skeleton::{FrameOf, Joint, Limit, Skeleton};
use crate::error::{GameError, finite_vector, positive, within};
use crate::owner::Owner;
use collide::glam::Vec3;

/// A joint of a skeleton being built (an index into its joints).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JointId(pub(crate) usize, Owner);

impl JointId {
    /// Its index among the skeleton's particles.
    pub fn index(self) -> usize {
        self.0
    }
}

/// A frame of a skeleton being built: right from one joint to another,
/// up from a third toward a fourth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FrameId(usize, Owner);

/// A skeleton description, checked when built. The first joint is the
/// root: a joint's limit turns what hangs below it, away from the root
/// along the parts and ties.
///
/// ```
/// use collide_game::ragdoll::SkeletonBuilder;
/// use collide_game::glam::Vec3;
/// // A tail: a base cluster and two segments, the last bending one way.
/// let mut tail = SkeletonBuilder::new();
/// let base = tail.joint(Vec3::new(0.0, 1.0, 0.0), 2.0)?;
/// let left = tail.joint(Vec3::new(-0.1, 1.0, 0.0), 1.0)?;
/// let right = tail.joint(Vec3::new(0.1, 1.0, 0.0), 1.0)?;
/// let top = tail.joint(Vec3::new(0.0, 1.1, 0.05), 1.0)?;
/// let mid = tail.joint(Vec3::new(0.0, 1.0, 0.5), 0.5)?;
/// let tip = tail.joint(Vec3::new(0.0, 1.0, 1.0), 0.2)?;
/// tail.part(left, right, 0.08)?;
/// tail.part(base, mid, 0.05)?;
/// tail.part(mid, tip, 0.04)?;
/// for (a, b) in [(base, left), (base, right), (base, top), (left, top), (right, top)] {
///     tail.tie(a, b)?;
/// }
/// let frame = tail.frame(left, top, left, right)?;
/// tail.cone(frame, base, mid, Vec3::Z, 40f32.to_radians())?;
/// tail.hinge(frame, base, mid, tip, 90f32.to_radians())?;
/// let skeleton = tail.build()?;
/// assert_eq!(skeleton.particle_count(), 6);
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SkeletonBuilder {
    rest: Vec<Vec3>,
    masses: Vec<f32>,
    parts: Vec<(usize, usize, f32)>,
    ties: Vec<(usize, usize)>,
    frames: Vec<FrameOf>,
    joints: Vec<Joint>,
    torso: Option<usize>,
    owner: Owner,
}

/// `angle` if it is from 0 to pi radians.
fn angle(what: &'static str, angle: f32) -> Result<f32, GameError> {
    within(what, f64::from(angle), 0.0, std::f64::consts::PI)?;
    Ok(angle)
}

/// `v` if it is finite and not zero, made unit.
fn direction(what: &'static str, v: Vec3) -> Result<Vec3, GameError> {
    finite_vector(what, v)?;
    v.try_normalize().ok_or(GameError::NotPositive {
        what,
        value: f64::from(v.length()),
    })
}

impl SkeletonBuilder {
    /// An empty description.
    pub fn new() -> Self {
        Self::default()
    }

    /// A joint (a particle) at `rest` in the rest pose, of `mass` kg (above
    /// zero).
    pub fn joint(&mut self, rest: Vec3, mass: f32) -> Result<JointId, GameError> {
        let rest = finite_vector("joint rest place", rest)?;
        let mass = positive("joint mass (kg)", f64::from(mass))? as f32;
        self.rest.push(rest);
        self.masses.push(mass);
        Ok(JointId(self.rest.len() - 1, self.owner))
    }

    fn check(&self, j: JointId) -> Result<usize, GameError> {
        self.owner.check(j.1, "joint id")?;
        if j.0 < self.rest.len() {
            Ok(j.0)
        } else {
            Err(GameError::WrongLength {
                what: "joint index (below the joint count)",
                expected: self.rest.len(),
                got: j.0,
            })
        }
    }

    /// A capsule part of `radius` metres (above zero) between two joints,
    /// held to its rest length; parts collide with the world and with the
    /// parts they are not joined to.
    pub fn part(&mut self, a: JointId, b: JointId, radius: f32) -> Result<(), GameError> {
        let (a, b) = (self.check(a)?, self.check(b)?);
        let radius = positive("part radius (m)", f64::from(radius))? as f32;
        self.parts.push((a, b, radius));
        Ok(())
    }

    /// A tie: two joints held at their rest distance, with no part between
    /// them (to make clusters rigid, like a torso's).
    pub fn tie(&mut self, a: JointId, b: JointId) -> Result<(), GameError> {
        let (a, b) = (self.check(a)?, self.check(b)?);
        self.ties.push((a, b));
        Ok(())
    }

    /// A frame: right from `left` to `right`, up from `origin` toward
    /// `up_to` (square to right). Limits are measured in frames; give the
    /// frame's joints a rigid cluster (ties) and keep them off one line.
    pub fn frame(
        &mut self,
        origin: JointId,
        up_to: JointId,
        left: JointId,
        right: JointId,
    ) -> Result<FrameId, GameError> {
        let f = FrameOf {
            origin: self.check(origin)?,
            up_to: self.check(up_to)?,
            left: self.check(left)?,
            right: self.check(right)?,
        };
        if Frame::read(&self.rest, f).is_none() {
            return Err(GameError::NotPositive {
                what: "frame span at rest (its joints lie on one line)",
                value: 0.0,
            });
        }
        self.frames.push(f);
        Ok(FrameId(self.frames.len() - 1, self.owner))
    }

    fn frame_of(&self, f: FrameId) -> Result<FrameOf, GameError> {
        self.owner.check(f.1, "frame id")?;
        Ok(self.frames[f.0])
    }

    /// Which frame says how the body lies (its back is the frame's right
    /// cross its up); the first frame if not set. An error for a frame of
    /// another description.
    pub fn torso(&mut self, frame: FrameId) -> Result<(), GameError> {
        self.frame_of(frame)?;
        self.torso = Some(frame.0);
        Ok(())
    }

    fn push(
        &mut self,
        frame: FrameId,
        pivot: usize,
        child: usize,
        limit: Limit,
    ) -> Result<(), GameError> {
        let frame = self.frame_of(frame)?;
        self.joints.push(Joint {
            pivot,
            child,
            below: None,
            above: None,
            frame,
            upper: None,
            limit,
        });
        Ok(())
    }

    /// The part from `pivot` to `child` stays within `half_angle` radians
    /// (0 to pi) of `axis` (a direction in the rest pose's world axes).
    pub fn cone(
        &mut self,
        frame: FrameId,
        pivot: JointId,
        child: JointId,
        axis: Vec3,
        half_angle: f32,
    ) -> Result<(), GameError> {
        let (pivot, child) = (self.check(pivot)?, self.check(child)?);
        let limit = Limit::Cone {
            axis: direction("cone axis", axis)?,
            half_angle: angle("cone half angle (radians)", half_angle)?,
        };
        self.push(frame, pivot, child, limit)?;
        Ok(())
    }

    /// A limb at a shoulder or hip: the part from `pivot` to `child` within
    /// `half_angle` of `axis`, and the plane it bends in at `child` (toward
    /// `below`) within `twist` radians of the plane it bends in at rest
    /// toward `bend` (directions in the rest pose's world axes; angles 0 to
    /// pi).
    #[allow(clippy::too_many_arguments)]
    pub fn limb(
        &mut self,
        frame: FrameId,
        pivot: JointId,
        child: JointId,
        below: JointId,
        axis: Vec3,
        half_angle: f32,
        twist: f32,
        bend: Vec3,
    ) -> Result<(), GameError> {
        let (pivot, child, below) = (self.check(pivot)?, self.check(child)?, self.check(below)?);
        let limit = Limit::Limb {
            axis: direction("limb axis", axis)?,
            half_angle: angle("limb half angle (radians)", half_angle)?,
            twist: angle("limb twist (radians)", twist)?,
            bend: direction("limb bend", bend)?,
        };
        self.push(frame, pivot, child, limit)?;
        if let Some(j) = self.joints.last_mut() {
            j.below = Some(below);
        }
        Ok(())
    }

    /// A hinge (an elbow, a knee) at `pivot`: the part from `pivot` to
    /// `child` bends from straight with the part from `above` by up to
    /// `max_bend` radians (0 to pi). Which way it bends is the limb's twist
    /// limit above it.
    pub fn hinge(
        &mut self,
        frame: FrameId,
        above: JointId,
        pivot: JointId,
        child: JointId,
        max_bend: f32,
    ) -> Result<(), GameError> {
        let (above, pivot, child) = (self.check(above)?, self.check(pivot)?, self.check(child)?);
        let limit = Limit::Hinge {
            max_bend: angle("hinge bend (radians)", max_bend)?,
        };
        self.push(frame, pivot, child, limit)?;
        if let Some(j) = self.joints.last_mut() {
            j.above = Some(above);
        }
        Ok(())
    }

    /// A spine from `pivot` (in the `lower` frame's cluster) to `child`
    /// (the `upper` frame's origin): the bone within `swing` radians of its
    /// rest direction, and the upper frame's right turned at most `twist`
    /// radians from the lower's (both 0 to pi).
    pub fn spine(
        &mut self,
        lower: FrameId,
        upper: FrameId,
        pivot: JointId,
        child: JointId,
        swing: f32,
        twist: f32,
    ) -> Result<(), GameError> {
        let (pivot, child) = (self.check(pivot)?, self.check(child)?);
        let rest = self.rest[child] - self.rest[pivot];
        let limit = Limit::Spine {
            axis: direction("spine at rest", rest)?,
            swing: angle("spine swing (radians)", swing)?,
            twist: angle("spine twist (radians)", twist)?,
        };
        self.push(lower, pivot, child, limit)?;
        let upper = self.frame_of(upper)?;
        if let Some(j) = self.joints.last_mut() {
            j.upper = Some(upper);
        }
        Ok(())
    }

    /// The skeleton: at least two joints and a frame, every joint reached
    /// from the first along parts and ties.
    pub fn build(self) -> Result<Skeleton, GameError> {
        let n = self.rest.len();
        if n < 2 {
            return Err(GameError::Empty {
                what: "skeleton joints (two or more)",
            });
        }
        if self.parts.is_empty() {
            return Err(GameError::Empty {
                what: "skeleton parts",
            });
        }
        let torso = match self.torso.or((!self.frames.is_empty()).then_some(0)) {
            Some(t) => self.frames[t],
            None => {
                return Err(GameError::Empty {
                    what: "skeleton frames",
                });
            }
        };
        let mut links: Vec<(usize, usize)> = self.parts.iter().map(|&(a, b, _)| (a, b)).collect();
        links.extend(&self.ties);
        for &(a, b) in &links {
            if a == b || self.rest[a].distance(self.rest[b]) <= 1e-6 {
                return Err(GameError::NotPositive {
                    what: "distance between tied joints at rest (m)",
                    value: f64::from(self.rest[a].distance(self.rest[b])),
                });
            }
        }
        // The tree from the root along parts and ties, breadth first in
        // the order they were given.
        let mut parent = vec![usize::MAX; n];
        let mut order = vec![0usize];
        parent[0] = 0;
        let mut at = 0;
        while at < order.len() {
            let k = order[at];
            at += 1;
            for &(a, b) in &links {
                for (x, y) in [(a, b), (b, a)] {
                    if x == k && parent[y] == usize::MAX {
                        parent[y] = k;
                        order.push(y);
                    }
                }
            }
        }
        if order.len() < n {
            return Err(GameError::WrongLength {
                what: "joints reached from the first along parts and ties",
                expected: n,
                got: order.len(),
            });
        }
        // What hangs below each joint: itself and its descendants, in
        // index order.
        let mut below: Vec<Vec<usize>> = vec![Vec::new(); n];
        for k in 0..n {
            let mut x = k;
            loop {
                below[x].push(k);
                if x == 0 {
                    break;
                }
                x = parent[x];
            }
        }
        let mut joints = self.joints;
        // The limits' axes, given in the world at rest, in each frame's own.
        for joint in &mut joints {
            let Some(frame) = Frame::read(&self.rest, joint.frame) else {
                continue;
            };
            let local = |v: Vec3| Vec3::new(v.dot(frame.right), v.dot(frame.up), v.dot(frame.back));
            joint.limit = match joint.limit {
                Limit::Cone { axis, half_angle } => Limit::Cone {
                    axis: local(axis),
                    half_angle,
                },
                Limit::Limb {
                    axis,
                    half_angle,
                    twist,
                    bend,
                } => Limit::Limb {
                    axis: local(axis),
                    half_angle,
                    twist,
                    bend: local(bend),
                },
                Limit::Spine { axis, swing, twist } => Limit::Spine {
                    axis: local(axis),
                    swing,
                    twist,
                },
                other => other,
            };
        }
        let contact_pairs = super::skeleton::contact_pairs(&self.parts, &links);
        Ok(Skeleton {
            contact_pairs,
            rest: self.rest,
            masses: self.masses,
            parts: self.parts,
            links,
            joints,
            below,
            torso,
        })
    }
}
