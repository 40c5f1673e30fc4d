//! Joint limits on particles: frames read from the torso's particles, and
//! each limit measured there and fixed by turning the part below the
//! joint (and everything hanging from it) rigidly about the joint, which
//! keeps every bone's length.

use super::skeleton::{FrameOf, Joint, Limit, Skeleton};
use collide::glam::{Quat, Vec3};
use collide::math;

/// A frame read from particles: right, up and back (right x up).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    pub(crate) right: Vec3,
    pub(crate) up: Vec3,
    pub(crate) back: Vec3,
}

impl Frame {
    /// The frame `f` of the particles `p`: right from its left particle to
    /// its right one, up from its origin to its top square to that;
    /// `None` when degenerate.
    pub(crate) fn read(p: &[Vec3], f: FrameOf) -> Option<Self> {
        let right = (p[f.right] - p[f.left]).try_normalize()?;
        let rise = p[f.up_to] - p[f.origin];
        let up = (rise - right * rise.dot(right)).try_normalize()?;
        Some(Self {
            right,
            up,
            back: right.cross(up),
        })
    }

    /// A direction given in the frame's rest coordinates, in the world's.
    pub(crate) fn to_world(self, v: Vec3) -> Vec3 {
        self.right * v.x + self.up * v.y + self.back * v.z
    }
}

/// Smallest angles below this (radians) are left alone: directions there
/// are too short to turn about.
const TINY: f32 = 1e-6;

/// Below this bend (radians) a limb counts as straight: the plane it bends
/// in, and so its twist, is not defined.
pub(crate) const STRAIGHT: f32 = 0.26;

/// The angle between unit vectors.
fn angle(a: Vec3, b: Vec3) -> f32 {
    math::acos(a.dot(b).clamp(-1.0, 1.0))
}

/// The signed angle from `a` to `b` about unit `axis`.
fn signed_angle(a: Vec3, b: Vec3, axis: Vec3) -> f32 {
    math::atan2(a.cross(b).dot(axis), a.dot(b))
}

/// How deep a body's cores are in the world with its particles at some
/// positions (m; 0 when none is inside anything).
pub(crate) type DepthAt<'a> = dyn Fn(&[Vec3]) -> f32 + 'a;

/// How a limit is fixed.
pub(crate) enum Fix<'a> {
    /// In the rounds: only the particle whose direction is limited moves,
    /// `share` of the way, and the one it turns about moves back, each by
    /// its inverse mass, so the momentum stays and the other constraints
    /// carry the fix through the body over the rounds.
    Local { share: f32, inverse: &'a [f32] },
    /// Last: the part below the joint turns whole, and its last positions
    /// with it, so no joint ends a step past its limit and the fix carries
    /// the velocity along instead of adding to it.
    Rigid {
        before: &'a mut [Vec3],
        /// How deep the body's cores are in the world at some positions:
        /// where a limit can be fixed two ways, the shallower is taken.
        depth: Option<&'a DepthAt<'a>>,
        /// Positions to try a fix on.
        probe: &'a mut Vec<Vec3>,
    },
}

impl Fix<'_> {
    /// How deep in the world the body would be with `set` turned by
    /// `angle` about `axis` through `at`; `None` without a depth to ask.
    fn depth_after(
        &mut self,
        p: &[Vec3],
        set: &[usize],
        at: Vec3,
        axis: Vec3,
        angle: f32,
    ) -> Option<f32> {
        let Fix::Rigid {
            depth: Some(depth),
            probe,
            ..
        } = self
        else {
            return None;
        };
        probe.clear();
        probe.extend_from_slice(p);
        let turn = Quat::from_axis_angle(axis, angle);
        for &i in set {
            probe[i] = at + turn * (probe[i] - at);
        }
        Some(depth(probe))
    }

    /// Turns by `angle` about `axis` through `pivot`: locally, particle
    /// `lead` (against `anchor`); rigidly, all of `set`.
    #[allow(clippy::too_many_arguments)]
    fn turn(
        &mut self,
        p: &mut [Vec3],
        set: &[usize],
        lead: usize,
        anchor: Option<usize>,
        pivot: Vec3,
        axis: Vec3,
        angle: f32,
    ) {
        match self {
            Fix::Local { share, inverse } => {
                let target =
                    pivot + Quat::from_axis_angle(axis, angle * *share) * (p[lead] - pivot);
                let shift = target - p[lead];
                let (wl, wa) = (inverse[lead], anchor.map_or(0.0, |a| inverse[a]));
                if wl + wa <= 0.0 {
                    return;
                }
                p[lead] += shift * (wl / (wl + wa));
                if let Some(a) = anchor {
                    p[a] -= shift * (wa / (wl + wa));
                }
            }
            Fix::Rigid { before, .. } => {
                let turn = Quat::from_axis_angle(axis, angle);
                for &i in set {
                    p[i] = pivot + turn * (p[i] - pivot);
                    before[i] = pivot + turn * (before[i] - pivot);
                }
            }
        }
    }
}

/// The axis that turns unit `from` toward unit `to` (their cross product,
/// or `fallback` when they are opposite).
fn toward(from: Vec3, to: Vec3, fallback: Vec3) -> Vec3 {
    from.cross(to).try_normalize().unwrap_or(fallback)
}

/// A limb's twist: the plane it bends in (upper part x lower part)
/// against the plane it bends in at rest, carried along by the swing from
/// the rest direction; `None` while it is straight.
pub(crate) fn limb_twist(
    p: &[Vec3],
    joint: &Joint,
    frame: Frame,
    axis: Vec3,
    bend: Vec3,
) -> Option<f32> {
    let below = joint.below?;
    let upper = (p[joint.child] - p[joint.pivot]).try_normalize()?;
    let lower = (p[below] - p[joint.child]).try_normalize()?;
    if angle(upper, lower) < STRAIGHT {
        return None;
    }
    let normal = upper.cross(lower).try_normalize()?;
    let rest = frame.to_world(axis);
    let reference = frame.to_world(axis.cross(bend)).try_normalize()?;
    let carried = Quat::from_rotation_arc(rest, upper) * reference;
    Some(signed_angle(carried, normal, upper))
}

/// The spine's lean and twist: the chest frame's up against the pelvis
/// frame's, and its right against the pelvis's right carried along by the
/// lean.
pub(crate) fn spine_angles(lower: Frame, upper: Frame) -> (f32, f32) {
    let lean = angle(lower.up, upper.up);
    let carried = Quat::from_rotation_arc(lower.up, upper.up) * lower.right;
    (lean, signed_angle(carried, upper.right, upper.up))
}

/// A hinge's bend: the angle between the part above and the part below.
pub(crate) fn hinge_bend(p: &[Vec3], joint: &Joint) -> Option<f32> {
    let above = joint.above?;
    let upper = (p[joint.pivot] - p[above]).try_normalize()?;
    let lower = (p[joint.child] - p[joint.pivot]).try_normalize()?;
    Some(angle(upper, lower))
}

/// Whether any particle of `set` is held by the animation (no inverse
/// mass): the joint is then the animation's to keep.
fn held(set: &[usize], inverse_mass: &[f32]) -> bool {
    set.iter().any(|&i| inverse_mass[i] == 0.0)
}

/// Brings `joint` back within its limit; returns whether it moved
/// anything.
pub(crate) fn enforce(
    skeleton: &Skeleton,
    joint: &Joint,
    p: &mut [Vec3],
    inverse_mass: &[f32],
    fix: &mut Fix<'_>,
) -> bool {
    let set = &skeleton.below[joint.child];
    if held(set, inverse_mass) {
        return false;
    }
    let Some(frame) = Frame::read(p, joint.frame) else {
        return false;
    };
    let pivot = p[joint.pivot];
    let mut moved = false;
    match joint.limit {
        Limit::Cone { axis, half_angle }
        | Limit::Limb {
            axis, half_angle, ..
        } => {
            let a = frame.to_world(axis);
            if let Some(d) = (p[joint.child] - pivot).try_normalize() {
                let off = angle(a, d);
                if off > half_angle + TINY {
                    let axis = toward(d, a, frame.right);
                    let (lead, anchor) = (joint.child, Some(joint.pivot));
                    fix.turn(p, set, lead, anchor, pivot, axis, off - half_angle);
                    moved = true;
                }
            }
            if let Limit::Limb { twist, bend, .. } = joint.limit {
                if let Some(t) = limb_twist(p, joint, frame, axis, bend) {
                    let excess = t - t.clamp(-twist, twist);
                    if excess.abs() > TINY {
                        let elbow = p[joint.child];
                        let upper = (elbow - pivot).normalize();
                        let below = joint.below.expect("a limb has a part below");
                        let hanging = &skeleton.below[below];
                        let lower = (p[below] - elbow).normalize();
                        let bent = angle(upper, lower);
                        // Either turn the lower part back about the upper
                        // one, or straighten it until its twist no longer
                        // counts: whichever moves it less (a knee bent the
                        // wrong way a little is straightened, not swung
                        // round).
                        let straighten = bent - 0.9 * STRAIGHT;
                        let bend_axis = toward(lower, upper, frame.right);
                        let deeper = (
                            fix.depth_after(p, hanging, elbow, bend_axis, straighten),
                            fix.depth_after(p, hanging, pivot, upper, -excess),
                        );
                        let straighter = match deeper {
                            (Some(a), Some(b)) if a != b => a < b,
                            _ => straighten < excess.abs() * math::sin(bent),
                        };
                        if straighter {
                            let anchor = Some(joint.child);
                            fix.turn(p, hanging, below, anchor, elbow, bend_axis, straighten);
                        } else {
                            fix.turn(p, hanging, below, None, pivot, upper, -excess);
                        }
                        moved = true;
                    }
                }
            }
        }
        Limit::Hinge { max_bend } => {
            let Some(bend) = hinge_bend(p, joint) else {
                return false;
            };
            if bend > max_bend + TINY {
                let above = joint.above.expect("a hinge has a part above");
                let upper = (pivot - p[above]).normalize();
                let lower = (p[joint.child] - pivot).normalize();
                let axis = toward(lower, upper, frame.right);
                let (lead, anchor) = (joint.child, Some(joint.pivot));
                fix.turn(p, set, lead, anchor, pivot, axis, bend - max_bend);
                moved = true;
            }
        }
        Limit::Spine { axis, swing, twist } => {
            let Some(upper_of) = joint.upper else {
                return false;
            };
            // The lean: the spine against its rest direction.
            let rest = frame.to_world(axis);
            if let Some(spine) = (p[joint.child] - pivot).try_normalize() {
                let lean = angle(rest, spine);
                if lean > swing + TINY {
                    let axis = toward(spine, rest, frame.right);
                    let (lead, anchor) = (joint.child, Some(joint.pivot));
                    fix.turn(p, set, lead, anchor, pivot, axis, lean - swing);
                    moved = true;
                }
            }
            let Some(upper) = Frame::read(p, upper_of) else {
                return moved;
            };
            let (_, t) = spine_angles(frame, upper);
            let excess = t - t.clamp(-twist, twist);
            if excess.abs() > TINY {
                // About the chest's up, through the chest: the shoulders
                // turn back (all above the spine, when fixing rigidly).
                let at = p[upper_of.origin];
                let shoulders = [upper_of.left, upper_of.right];
                match fix {
                    Fix::Local { .. } => {
                        for s in shoulders {
                            fix.turn(p, set, s, None, at, upper.up, -excess);
                        }
                    }
                    Fix::Rigid { .. } => fix.turn(p, set, joint.child, None, at, upper.up, -excess),
                }
                moved = true;
            }
        }
    }
    moved
}

/// How far `joint` is past its limit, radians (0 within it): for checks.
pub(crate) fn excess(p: &[Vec3], joint: &Joint) -> f32 {
    let Some(frame) = Frame::read(p, joint.frame) else {
        return 0.0;
    };
    let pivot = p[joint.pivot];
    match joint.limit {
        Limit::Cone { axis, half_angle } => {
            (p[joint.child] - pivot).try_normalize().map_or(0.0, |d| {
                (angle(frame.to_world(axis), d) - half_angle).max(0.0)
            })
        }
        Limit::Limb {
            axis,
            half_angle,
            twist,
            bend,
        } => {
            let cone = (p[joint.child] - pivot).try_normalize().map_or(0.0, |d| {
                (angle(frame.to_world(axis), d) - half_angle).max(0.0)
            });
            let turned =
                limb_twist(p, joint, frame, axis, bend).map_or(0.0, |t| (t.abs() - twist).max(0.0));
            cone.max(turned)
        }
        Limit::Hinge { max_bend } => hinge_bend(p, joint).map_or(0.0, |b| (b - max_bend).max(0.0)),
        Limit::Spine { axis, swing, twist } => {
            let Some(upper) = joint.upper.and_then(|u| Frame::read(p, u)) else {
                return 0.0;
            };
            let lean = (p[joint.child] - pivot)
                .try_normalize()
                .map_or(0.0, |spine| angle(frame.to_world(axis), spine));
            let (_, t) = spine_angles(frame, upper);
            (lean - swing).max(0.0).max((t.abs() - twist).max(0.0))
        }
    }
}
