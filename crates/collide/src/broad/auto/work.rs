//! When `Auto` reviews before its time: the running structure's candidate
//! tests per step, watched for a sudden change (a scene squeezed flat
//! within a few frames shows there first, long before a scheduled review).

/// Candidate tests a step must come to, this many times those of the
/// step before the last review (or the first step of a new structure),
/// up or down, beyond [`WORK_SLACK`] per object, to call a review at the
/// next step instead of waiting for the next scheduled one: a scene that
/// changes fast (a level squeezed flat within a few frames) shows first in
/// the work of the structure that runs.
const WORK_CHANGE: u64 = 4;
/// Candidate tests per object a change must exceed to count.
const WORK_SLACK: u64 = 2;

/// The running structure's candidate tests per step, watched (see
/// [`WORK_CHANGE`]).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Work {
    /// The tests the change is measured from; `None` until a step gives
    /// them.
    baseline: Option<u64>,
    /// Set when a step's tests changed [`WORK_CHANGE`] times: the next
    /// step reviews.
    pub(super) changed: bool,
}

impl Work {
    /// Watching from `tests`, with no change seen.
    pub(super) fn watching(tests: u64) -> Self {
        Self {
            baseline: Some(tests),
            changed: false,
        }
    }

    /// Takes a step's `tests` among `objects`.
    pub(super) fn watch(&mut self, tests: u64, objects: usize) {
        let Some(baseline) = self.baseline else {
            self.baseline = Some(tests);
            return;
        };
        let slack = WORK_SLACK * objects as u64;
        self.changed |= tests > WORK_CHANGE.saturating_mul(baseline).saturating_add(slack)
            || baseline > WORK_CHANGE.saturating_mul(tests).saturating_add(slack);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_calls_a_review_when_it_changes_fourfold_beyond_the_slack() {
        let objects = 1_000; // slack: 2,000 tests
        let mut work = Work::watching(10_000);
        work.watch(40_000, objects);
        work.watch(2_500, objects);
        assert!(!work.changed, "within four times and the slack");
        work.watch(42_001, objects);
        assert!(work.changed, "up");
        let mut work = Work::watching(10_000);
        work.watch(1_999, objects);
        assert!(work.changed, "down");
        // Few tests either way: the slack keeps it quiet.
        let mut work = Work::watching(10);
        work.watch(1_500, objects);
        assert!(!work.changed);
    }

    #[test]
    fn work_takes_its_baseline_from_the_first_step_it_sees() {
        let mut work = Work::default();
        work.watch(100_000, 1_000);
        assert!(!work.changed);
        work.watch(20_000, 1_000);
        assert!(work.changed);
    }
}
