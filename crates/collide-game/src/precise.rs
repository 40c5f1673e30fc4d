//! Positions kept in f64. A body far from the origin, moved a little
//! each tick, keeps every move whole: an f32 position 1e4 m out lies on
//! a 1 mm grid, so each tick's move rounds, and a walk of ten seconds
//! parts from the same walk at the origin by centimetres. The world (its
//! shapes, poses and sweeps) stays f32; only the sum of the moves is
//! wide, and each sweep starts from its nearest f32 point.

use crate::dim::{Dim, Swept};

/// A position in f64 (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Precise<D: Dim> {
    wide: D::Wide,
}

impl<D: Dim> Precise<D> {
    /// At `at` (exact).
    pub(crate) fn new(at: D::V) -> Self {
        Precise { wide: D::widen(at) }
    }

    /// The nearest f32 point.
    pub(crate) fn get(&self) -> D::V {
        D::narrow(self.wide)
    }

    /// How far it lies from its nearest f32 point, [`Precise::get`]
    /// (within half an ulp of its coordinates): a sweep from that point
    /// that meets a surface meets it this much nearer or farther.
    pub(crate) fn rounding(&self) -> D::V {
        D::narrow(self.wide - D::widen(self.get()))
    }

    /// Moved by `by`, added in f64.
    pub(crate) fn shift(&mut self, by: D::V) {
        self.wide = self.wide + D::widen(by);
    }
}

/// How far a sweep from `start` by `motion` moved: the share of the
/// motion it did, which an f32 end position would round; for a sweep a
/// limit cut short, its end less its start.
pub(crate) fn travelled<D: Dim>(start: D::V, motion: D::V, swept: &Swept<D::V>) -> D::V {
    if swept.truncated {
        swept.end - start
    } else {
        motion * swept.t
    }
}
