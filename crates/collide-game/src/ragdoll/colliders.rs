//! A ragdoll's parts as colliders of the world: one moving capsule a part,
//! of the part's rest length and radius, set each tick between the part's
//! two particles, so shots, rays and other bodies meet the body where it
//! lies.

use super::skeleton::Skeleton;
use crate::error::GameError;
use collide::Handle;
use collide::glam::{Quat, Vec3};
use collide::narrow::d3::{Capsule, Pose};
use collide::world::{Collider3, Filter, World};

/// The handles of a ragdoll's part colliders, in the skeleton's part
/// order.
#[derive(Clone, Debug, Default)]
pub(super) struct PartColliders {
    handles: Vec<Handle>,
}

impl PartColliders {
    /// Puts each part of `skeleton`, its particles at `p`, into `world`
    /// as a moving capsule with `filter` and a clone of `value`. On an
    /// error the parts put in so far are taken out again.
    pub(super) fn insert<T: Clone>(
        skeleton: &Skeleton,
        p: &[Vec3],
        filter: Filter,
        world: &mut World<Vec3, T>,
        value: T,
    ) -> Result<Self, GameError> {
        let mut handles = Vec::with_capacity(skeleton.parts.len());
        for &(a, b, radius) in &skeleton.parts {
            let half = 0.5 * skeleton.rest[a].distance(skeleton.rest[b]);
            let made = Capsule::new(half, radius)
                .map_err(GameError::from)
                .and_then(|capsule| {
                    let collider =
                        Collider3::moving(capsule, part_pose(p[a], p[b])?, value.clone());
                    Ok(world.insert(collider.with_filter(filter))?)
                });
            match made {
                Ok(h) => handles.push(h),
                Err(e) => {
                    for h in handles {
                        let _ = world.remove(h);
                    }
                    return Err(e);
                }
            }
        }
        Ok(Self { handles })
    }

    /// The handles, one a part.
    pub(super) fn handles(&self) -> &[Handle] {
        &self.handles
    }

    /// Fails, changing nothing, when `world` lacks one of the parts.
    pub(super) fn check<T>(&self, world: &World<Vec3, T>) -> Result<(), GameError> {
        for &h in &self.handles {
            world.kind(h)?;
        }
        Ok(())
    }

    /// Sets each part's collider between its particles at `p`.
    pub(super) fn place<T>(
        &self,
        skeleton: &Skeleton,
        p: &[Vec3],
        world: &mut World<Vec3, T>,
    ) -> Result<(), GameError> {
        self.check(world)?;
        for (&h, &(a, b, _)) in self.handles.iter().zip(&skeleton.parts) {
            world.set_pose(h, part_pose(p[a], p[b])?)?;
        }
        Ok(())
    }
}

/// The pose of a part's capsule (upright in its own frame) from particle
/// `a` to particle `b`: at their middle, its axis turned onto theirs.
fn part_pose(a: Vec3, b: Vec3) -> Result<Pose, GameError> {
    let along = b - a;
    let turn = match along.try_normalize() {
        Some(axis) => Quat::from_rotation_arc(Vec3::Y, axis),
        None => Quat::IDENTITY,
    };
    Ok(Pose::new(a + 0.5 * along, turn)?)
}
