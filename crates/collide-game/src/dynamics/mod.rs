//! A small dynamics core for the game systems that need one: a rigid body
//! ([`RigidBody`]) for vehicles and tanks, integrated with the
//! semi-implicit Euler step (velocity first, then the pose with the new
//! velocity) that [`crate::time`] recommends for bodies.
//!
//! It is not a general physics engine: there are no contacts between
//! bodies and no joints. The systems built on it (the raycast vehicle,
//! the tank) compute their own forces from rays into the world and apply
//! them as impulses.

mod body;

pub use body::RigidBody;
