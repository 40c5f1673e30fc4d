//! Which container an id came from: each container (a fight, a skeleton
//! description) takes a number of its own when it is made, the ids it
//! gives carry it, and an id from another container is refused with
//! [`GameError::ForeignId`] instead of indexing the wrong list.

use crate::error::GameError;
use std::sync::atomic::{AtomicU32, Ordering};

/// The next container's number (0 is never given).
static NEXT: AtomicU32 = AtomicU32::new(1);

/// A container's number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Owner(u32);

impl Owner {
    /// A number no other container has.
    pub(crate) fn new() -> Self {
        Owner(NEXT.fetch_add(1, Ordering::Relaxed))
    }

    /// Ok when `id_owner` is this container; else the error naming `what`.
    pub(crate) fn check(self, id_owner: Owner, what: &'static str) -> Result<(), GameError> {
        if self == id_owner {
            Ok(())
        } else {
            Err(GameError::ForeignId { what })
        }
    }
}

impl Default for Owner {
    fn default() -> Self {
        Owner::new()
    }
}
