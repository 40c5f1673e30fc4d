//! The sand world beside the collision world: its stone as fixed boxes,
//! rebuilt chunk by chunk, and the walker pushing grains out of its
//! capsule.

use super::{CELL, HEIGHT};
use collide::Handle;
use collide::narrow::d2::{Cuboid, Pose};
use collide::world::{Collider2, World2};
use collide_sand::{MaterialId, SandError, SandWorld, Solids};
use glam::Vec2;

pub fn is_empty(m: MaterialId) -> bool {
    m.index() == 0
}

/// Sets the cells of `(x0, x1, y0, y1)` to `material`; returns how many.
pub fn fill(
    cells: &mut SandWorld,
    (x0, x1, y0, y1): (i64, i64, i64, i64),
    material: MaterialId,
) -> Result<u64, SandError> {
    for x in x0..x1 {
        for y in y0..y1 {
            cells.set(x, y, material)?;
        }
    }
    Ok(((x1 - x0) * (y1 - y0)) as u64)
}

/// The sand world's stone as fixed boxes of the collision world, chunk
/// by chunk: each tick only the chunks whose cells changed are rebuilt.
pub struct StoneBoxes {
    solids: Solids,
    rebuilt: Vec<usize>,
    chunks: Vec<Vec<Handle>>,
    pub refreshes: usize,
}

impl StoneBoxes {
    pub fn new() -> Result<Self, SandError> {
        let solids = Solids::new(CELL)?;
        Ok(Self {
            solids,
            rebuilt: Vec::new(),
            chunks: Vec::new(),
            refreshes: 0,
        })
    }

    pub fn refresh(
        &mut self,
        cells: &SandWorld,
        world: &mut World2<()>,
    ) -> Result<(), Box<dyn std::error::Error>> {
        cells.refresh_solids(&mut self.solids, &mut self.rebuilt);
        for &c in &self.rebuilt {
            self.chunks
                .resize_with(self.chunks.len().max(c + 1), Vec::new);
            for h in self.chunks[c].drain(..) {
                world.remove(h)?;
            }
            for b in self.solids.chunk(c) {
                let shape = Cuboid::new(0.5 * (b.max() - b.min()))?;
                let at = Pose::at(0.5 * (b.min() + b.max()))?;
                self.chunks[c].push(world.insert(Collider2::fixed(shape, at, ()))?);
            }
            self.refreshes += 1;
        }
        Ok(())
    }
}

/// Moves each grain of `sand` inside the walker's capsule (1.8 m tall,
/// 0.3 m radius, centred at `centre`) to the nearest empty cell beside
/// the capsule on its row, on the grain's side (so sand falling on the
/// head slides off), or else above the capsule. Returns how many moved.
pub fn push_out(
    cells: &mut SandWorld,
    centre: Vec2,
    sand: MaterialId,
) -> Result<u64, Box<dyn std::error::Error>> {
    let (half, radius) = (0.6, 0.3);
    let cell = |v: f32| (v / CELL).floor() as i64;
    let mut moved = 0;
    for x in cell(centre.x - radius)..=cell(centre.x + radius) {
        let top = cell(centre.y + half + radius) + 1;
        for y in cell(centre.y - half - radius)..top {
            let at = Vec2::new(x as f32 + 0.5, y as f32 + 0.5) * CELL;
            let axis_y = at.y.clamp(centre.y - half, centre.y + half);
            if at.distance(Vec2::new(centre.x, axis_y)) >= radius || cells.get(x, y)? != sand {
                continue;
            }
            let side = if at.x < centre.x { -1 } else { 1 };
            let beside = (1..8)
                .map(|k| (cell(centre.x + side as f32 * radius) + side * k, y))
                .find(|&(bx, by)| cells.get(bx, by).is_ok_and(is_empty));
            let above = || {
                (top..HEIGHT)
                    .map(|up| (x, up))
                    .find(|&(ux, uy)| cells.get(ux, uy).is_ok_and(is_empty))
            };
            let Some((fx, fy)) = beside.or_else(above) else {
                continue;
            };
            cells.set(x, y, MaterialId::EMPTY)?;
            cells.set(fx, fy, sand)?;
            moved += 1;
        }
    }
    Ok(moved)
}
