//! `broccoli` (2D only): the tree is rebuilt from every live box each frame
//! (`Tree::new`), then `find_colliding_pairs`.

use super::Dense;
use crate::contender::{Contender, filter_candidates};
use broccoli::aabb::BBox;
use collide_scenes::Record;
use glam::Vec2;

pub struct Broccoli {
    dense: Dense<Vec2>,
    bots: Vec<BBox<f32, u32>>,
    candidates: Vec<(u32, u32)>,
}

impl Broccoli {
    pub const NAME: &'static str = "broccoli";

    pub fn new() -> Self {
        Self {
            dense: Dense::default(),
            bots: Vec::new(),
            candidates: Vec::new(),
        }
    }
}

impl Contender<Vec2> for Broccoli {
    fn name(&self) -> &str {
        Self::NAME
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
        let candidates = &mut self.candidates;
        let mut tree = broccoli::Tree::new(&mut self.bots);
        tree.find_colliding_pairs(|a, b| candidates.push((a.inner, b.inner)));
    }

    fn pairs_by_id(&self, out: &mut Vec<(u64, u64)>) -> u64 {
        filter_candidates(&self.candidates, &self.dense.ids, &self.dense.boxes, out)
    }
}
