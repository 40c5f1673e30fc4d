//! The settings every system with colliders has for the world it moves
//! in (gravity and its colliders' filter), written once for the vehicles
//! and the ragdoll.

/// Builder methods and accessors for a settings type with `gravity: Vec3`
/// and `filter: Filter` fields.
macro_rules! world_settings {
    () => {
        /// Gravity on it (m/s², by default the Earth's, 9.81 down -y).
        pub fn with_gravity(mut self, gravity: $crate::Gravity<Vec3>) -> Self {
            self.gravity = gravity.vector();
            self
        }

        /// The collision filter of its colliders: the groups they are in
        /// and those they meet (what it reads of the world passes the
        /// rest). By default [`Filter::ALL`](collide::world::Filter::ALL).
        pub fn with_filter(mut self, filter: collide::world::Filter) -> Self {
            self.filter = filter;
            self
        }

        /// Gravity on it, m/s².
        pub fn gravity(&self) -> Vec3 {
            self.gravity
        }

        /// Its colliders' filter.
        pub fn filter(&self) -> collide::world::Filter {
            self.filter
        }
    };
}
pub(crate) use world_settings;
