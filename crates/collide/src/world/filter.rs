//! [`QueryFilter`]: which colliders a query sees. Colliders carry the
//! broad phase's [`Filter`] of collision groups.

use crate::Handle;
use crate::broad::Filter;

/// A query's test on a collider's handle and value.
type Predicate<'a, T> = &'a dyn Fn(Handle, &T) -> bool;

/// Which colliders a query sees: those whose [`Filter`] allows the query's,
/// solid ones only unless sensors are asked for, less the handles
/// excluded, and only those the predicate accepts (called last, with the
/// collider's handle and value, once for each collider the query tests).
///
/// ```
/// use collide::world::{Filter, QueryFilter};
/// use collide::Handle;
/// fn heavy_things_but_me(me: &[Handle]) {
///     let heavy = |_: Handle, mass: &f32| *mass > 10.0;
///     let filter = QueryFilter::new()
///         .with_filter(Filter::new(1, 0b10))
///         .with_sensors()
///         .excluding(me)
///         .with_predicate(&heavy);
///     assert!(filter.sees_sensors());
/// }
/// ```
pub struct QueryFilter<'a, T> {
    filter: Filter,
    sensors: bool,
    exclude: &'a [Handle],
    predicate: Option<Predicate<'a, T>>,
}

impl<T> Clone for QueryFilter<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for QueryFilter<'_, T> {}

impl<T> std::fmt::Debug for QueryFilter<'_, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QueryFilter")
            .field("filter", &self.filter)
            .field("sensors", &self.sensors)
            .field("exclude", &self.exclude)
            .field("predicate", &self.predicate.is_some())
            .finish()
    }
}

impl<T> Default for QueryFilter<'_, T> {
    /// Every solid collider.
    fn default() -> Self {
        Self {
            filter: Filter::ALL,
            sensors: false,
            exclude: &[],
            predicate: None,
        }
    }
}

impl<'a, T> QueryFilter<'a, T> {
    /// Every solid collider (sensors left out).
    pub fn new() -> Self {
        Self::default()
    }

    /// Only colliders whose filter allows `filter`.
    pub fn with_filter(mut self, filter: Filter) -> Self {
        self.filter = filter;
        self
    }

    /// Sensors too.
    pub fn with_sensors(mut self) -> Self {
        self.sensors = true;
        self
    }

    /// Not these colliders (the caller's own, say).
    pub fn excluding(mut self, handles: &'a [Handle]) -> Self {
        self.exclude = handles;
        self
    }

    /// Only colliders `predicate` accepts, given the handle and value.
    pub fn with_predicate(mut self, predicate: &'a dyn Fn(Handle, &T) -> bool) -> Self {
        self.predicate = Some(predicate);
        self
    }

    /// Whether sensors are seen.
    pub fn sees_sensors(&self) -> bool {
        self.sensors
    }

    /// Whether a collider with this handle, filter, sensor flag and value
    /// is seen.
    pub(crate) fn sees(&self, handle: Handle, filter: &Filter, sensor: bool, value: &T) -> bool {
        (self.sensors || !sensor)
            && self.filter.allows(*filter)
            && !self.exclude.contains(&handle)
            && self.predicate.is_none_or(|p| p(handle, value))
    }
}
