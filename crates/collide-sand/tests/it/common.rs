//! What several tests share: a table of the usual materials.

use collide_sand::{Burning, Material, MaterialId, Materials, Motion};

/// Stone, sand, water, smoke, wood and fire, with their ids.
pub struct Table {
    pub materials: Materials,
    pub stone: MaterialId,
    pub sand: MaterialId,
    pub water: MaterialId,
    pub smoke: MaterialId,
    pub wood: MaterialId,
    pub fire: MaterialId,
}

pub fn table() -> Table {
    let mut materials = Materials::new();
    let stone = materials
        .add(Material::new("stone", 30.0, Motion::Static).unwrap())
        .unwrap();
    let sand = materials
        .add(Material::new("sand", 16.0, Motion::Powder).unwrap())
        .unwrap();
    let water = materials
        .add(Material::new("water", 10.0, Motion::Liquid).unwrap())
        .unwrap();
    let smoke = materials
        .add(Material::new("smoke", 0.3, Motion::Gas).unwrap())
        .unwrap();
    let wood = materials
        .add(
            Material::new("wood", 8.0, Motion::Static)
                .unwrap()
                .flammable(),
        )
        .unwrap();
    let fire = materials
        .add(
            Material::new("fire", 0.5, Motion::Static)
                .unwrap()
                .burning(Burning {
                    spread: 0.2,
                    burn_out: 0.05,
                    leaves: smoke,
                })
                .unwrap(),
        )
        .unwrap();
    Table {
        materials,
        stone,
        sand,
        water,
        smoke,
        wood,
        fire,
    }
}

/// Runs `f` inside a rayon pool of `threads` threads.
pub fn on_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}
