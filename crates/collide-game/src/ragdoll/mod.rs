//! Ragdolls on position-based dynamics: particles at the joints, bones as
//! distance constraints, joint limits (swing cones, twist limits, hinged
//! knees and elbows that bend one way), each part a capsule colliding with
//! the world and with the parts it is not joined to.
//!
//! A body plan is a [`Skeleton`]: [`Skeleton::humanoid`] for people, or
//! any other built with [`SkeletonBuilder`] (joints, capsule parts, ties
//! that hold clusters rigid, frames, and each joint's limit).
//!
//! What it is for: bodies that fall down stairs and over railings without
//! an animation for each, and hit reactions: each part follows an
//! animated pose by a weight, so a walking character can let one arm go
//! limp and take it back. When it comes to rest, [`Ragdoll::lying`] says
//! whether it lies face down, face up or on a side, to pick the animation
//! that gets it up.
//!
//! How: a Verlet step under gravity and the pull toward the animated pose,
//! then rounds of self contact, the world's contacts (through the broad
//! phase and the narrow phase), joint limits and bones. In the rounds a
//! limit moves the limited particle and its pivot by inverse mass; a last
//! pass turns the part below each joint rigidly about it (with its last
//! positions), so no joint ends a step past its limit and no bone is
//! stretched by it. Where a limit can be fixed two ways (a limb twisted
//! past its limit is straightened or turned back), that pass takes the one
//! that leaves the body less deep in the world; and where it still leaves
//! a part's core inside something, the whole body moves out along that
//! part's way out, which keeps every joint and bone. In the air the centre
//! of mass keeps the Verlet step's motion: a ragdoll launched from a run
//! keeps its momentum until it touches something. The constraints are
//! passive: a step that came out with more energy than it began with is
//! slowed back, and lowered back where slowing it is not enough. A fast
//! body takes the tick in up to 8 shorter steps; a body at rest sleeps.
//!
//! Costs: per step, the rounds (10 by default) over the humanoid's 19
//! distance constraints, 10 joints and its pairs of parts that may touch,
//! one box query and a contact test per part and nearby object.
//!
//! **On the world.** Each part is a moving capsule collider of the world
//! ([`Ragdoll::colliders`]). Shots and rays hit the body part by part,
//! and ragdolls land on each other. `step(dt, &mut world)` reads the
//! world less the ragdoll's own parts, then sets them where it ends.
//! Gravity and the parts' filter are in [`RagdollSettings`]; the step
//! takes no input beyond the tick (the animated pose and its weights are
//! set on it).
//!
//! Ragdolls stepped one after another each see the moves before. To step
//! them on threads, give each [`Ragdoll::step_reading`] a
//! [`WorldSnapshot`](collide::world::WorldSnapshot), then call
//! [`Ragdoll::place_colliders`] on each: every ragdoll sees the others
//! where the last tick left them, the same bits on any number of threads.
//!
//! ```
//! use collide::narrow::d3::{Cuboid, Pose};
//! use collide::world::WorldQuery;
//! use collide::geometry::Ray;
//! use collide_game::prelude::*;
//! use collide_game::ragdoll::{Ragdoll, RagdollSettings, Skeleton};
//!
//! #[derive(Clone, PartialEq)]
//! enum Thing { Floor, Body }
//! let mut world = World3::new();
//! let slab = Cuboid::new(Vec3::new(20.0, 0.5, 20.0))?;
//! world.insert(Collider3::fixed(slab, Pose::at(Vec3::new(0.0, -0.5, 0.0))?, Thing::Floor))?;
//! let body = Skeleton::humanoid(1.8, 75.0)?;
//! let (at, turn) = (Vec3::new(0.0, 2.0, 0.0), Quat::IDENTITY);
//! let mut doll = Ragdoll::new(body, RagdollSettings::default(), at, turn, Vec3::ZERO, &mut world, Thing::Body)?;
//! let dt = TimeStep::new(1.0 / 60.0)?;
//! for _ in 0..240 {
//!     doll.step(dt, &mut world)?;
//!     world.step();
//! }
//! assert!(doll.kinetic_energy() < 1.0); // fallen, at rest on the floor
//! // A shot down from above meets a part of the body on the floor.
//! let centre = doll.centre_of_mass();
//! let ray = Ray::new(centre + Vec3::Y * 5.0, -Vec3::Y, 10.0)?;
//! let hit = world.cast_ray(&ray, &QueryFilter::new()).expect("the body or the floor");
//! assert!(*world.value(hit.handle)? == Thing::Body && doll.part_of(hit.handle).is_some());
//! # Ok::<(), GameError>(())
//! ```
//!
//! **Tolerance.** No joint ends a tick beyond its limit by more than 1e-3
//! rad (far from the origin, or the angle a few units in the last place
//! of the coordinates make over the shortest bone) and no part's core
//! more than 5 mm inside the world, on hard landings too; a tumble,
//! chaotic as it is, lands with its centre of mass within 2% of the
//! drop's height of the origin's, moved up to 1e5 or mirrored, and a body
//! lying on the ground stays for minutes; a body at rest in empty space,
//! at any orientation, stays at rest (bones within the rounding of their
//! ends' coordinates, at most 1e-4 of their length, count as whole, so
//! rounding turns into no speed). The centre of mass never rises in a
//! tick that begins and ends at rest: height the corrections add with no
//! motion to pay for it is taken back.

mod body;
mod builder;
mod colliders;
mod contacts;
mod limits;
mod skeleton;

pub use body::{Lying, Ragdoll, RagdollSettings};
pub use builder::{FrameId, JointId, SkeletonBuilder};
pub use skeleton::{Limit, Skeleton};
