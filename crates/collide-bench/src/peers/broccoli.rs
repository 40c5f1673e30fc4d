//! `broccoli` (2D only): the tree is rebuilt from every live box each frame
//! (`Tree::new`), then `find_colliding_pairs`. `broccoli-par` does both on
//! rayon's current pool with `broccoli-rayon` (`par_new`, and the pairs
//! gathered per task and appended), for runs with `--threads` above 1.

use super::Dense;
use crate::contender::Contender;
use broccoli::aabb::BBox;
use broccoli_rayon::build::RayonBuildPar;
use broccoli_rayon::queries::colfind::RayonQueryPar;
use collide_scenes::Record;
use glam::Vec2;

pub struct Broccoli {
    parallel: bool,
    dense: Dense<Vec2>,
    bots: Vec<BBox<f32, u32>>,
    candidates: Vec<(u32, u32)>,
}

impl Broccoli {
    pub const NAME: &'static str = "broccoli";
    pub const PARALLEL_NAME: &'static str = "broccoli-par";

    pub fn new() -> Self {
        Self::with_threads(false)
    }

    /// `parallel`: build and find pairs on rayon's current pool.
    pub fn with_threads(parallel: bool) -> Self {
        Self {
            parallel,
            dense: Dense::default(),
            bots: Vec::new(),
            candidates: Vec::new(),
        }
    }
}

impl Contender<Vec2> for Broccoli {
    fn name(&self) -> &str {
        if self.parallel {
            Self::PARALLEL_NAME
        } else {
            Self::NAME
        }
    }

    fn frame(&mut self, records: &[Record<Vec2>]) {
        self.dense.apply(records);
        self.bots.clear();
        self.bots
            .extend(self.dense.boxes.iter().enumerate().map(|(i, aabb)| {
                let (lo, hi) = (aabb.min(), aabb.max());
                BBox::new(broccoli::rect(lo.x, hi.x, lo.y, hi.y), i as u32)
            }));
        self.candidates.clear();
        if self.parallel {
            let mut tree = broccoli::Tree::par_new(&mut self.bots);
            let found = tree.par_find_colliding_pairs_acc_closure(
                std::mem::take(&mut self.candidates),
                |_| Vec::new(),
                |all: &mut Vec<(u32, u32)>, part| all.extend(part),
                |found: &mut Vec<(u32, u32)>, a, b| found.push((a.inner, b.inner)),
            );
            self.candidates = found;
        } else {
            let candidates = &mut self.candidates;
            let mut tree = broccoli::Tree::new(&mut self.bots);
            tree.find_colliding_pairs(|a, b| candidates.push((a.inner, b.inner)));
        }
    }

    fn exact_pairs(&self, out: &mut Vec<(u64, u64)>, sorted: bool) -> u64 {
        self.dense.exact_pairs(&self.candidates, out, sorted)
    }
}
