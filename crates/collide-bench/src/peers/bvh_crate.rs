//! The `bvh` crate (2D and 3D; binned SAH build, made for ray tracing): the
//! tree is built from every live box each frame (`Bvh::build`, the crate's
//! default multithreaded build turned off, like every peer here), then
//! each object's box is used as a query (`traverse_iterator`), keeping the
//! pairs whose other index is higher. The crate's dynamic `rebuild` needs
//! the shapes' node indices kept across frames and reorders nothing we can
//! map back cheaply, so the per-frame build is the mode measured.

use super::Dense;
use crate::contender::Contender;
use bvh::aabb::{Aabb as BvhAabb, Bounded};
use bvh::bounding_hierarchy::BHShape;
use bvh::bvh::Bvh;
use collide::{Aabb, Vector};
use collide_scenes::Record;
use nalgebra::Point;

#[derive(Clone, Copy, Debug)]
struct Shape<const D: usize> {
    aabb: BvhAabb<f32, D>,
    index: u32,
    node: usize,
}

impl<const D: usize> Bounded<f32, D> for Shape<D> {
    fn aabb(&self) -> BvhAabb<f32, D> {
        self.aabb
    }
}

impl<const D: usize> BHShape<f32, D> for Shape<D> {
    fn set_bh_node_index(&mut self, index: usize) {
        self.node = index;
    }
    fn bh_node_index(&self) -> usize {
        self.node
    }
}

fn to_bvh<V: Vector, const D: usize>(aabb: &Aabb<V>) -> BvhAabb<f32, D> {
    let (lo, hi) = (aabb.min(), aabb.max());
    BvhAabb::with_bounds(
        Point::from(std::array::from_fn(|i| lo.axis(i))),
        Point::from(std::array::from_fn(|i| hi.axis(i))),
    )
}

/// `D` must equal `V::DIM`.
pub struct BvhCrate<V: Vector, const D: usize> {
    dense: Dense<V>,
    shapes: Vec<Shape<D>>,
    candidates: Vec<(u32, u32)>,
}

impl<V: Vector, const D: usize> BvhCrate<V, D> {
    pub const NAME: &'static str = "bvh-crate";

    pub fn new() -> Self {
        assert_eq!(
            V::DIM,
            D,
            "the bvh crate's dimension must match the scene's"
        );
        Self {
            dense: Dense::default(),
            shapes: Vec::new(),
            candidates: Vec::new(),
        }
    }
}

impl<V: Vector, const D: usize> Contender<V> for BvhCrate<V, D> {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn frame(&mut self, records: &[Record<V>]) {
        self.dense.apply(records);
        self.shapes.clear();
        self.shapes
            .extend(self.dense.boxes.iter().enumerate().map(|(i, aabb)| Shape {
                aabb: to_bvh::<V, D>(aabb),
                index: i as u32,
                node: 0,
            }));
        self.candidates.clear();
        if self.shapes.is_empty() {
            return;
        }
        let tree = Bvh::build(&mut self.shapes);
        for shape in &self.shapes {
            for other in tree.traverse_iterator(&shape.aabb, &self.shapes) {
                if other.index > shape.index {
                    self.candidates.push((shape.index, other.index));
                }
            }
        }
    }

    fn exact_pairs(&self, out: &mut Vec<(u64, u64)>, sorted: bool) -> u64 {
        self.dense.exact_pairs(&self.candidates, out, sorted)
    }
}
