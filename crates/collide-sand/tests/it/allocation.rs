//! No allocation per tick once warm: a sand world pouring and flowing,
//! its solids refreshed every tick, makes no heap allocation (counted by
//! the test kit's counting allocator on the one thread of a one-thread
//! pool).

use collide_sand::{
    Burning, Material, MaterialId, Materials, Motion, SandSettings, SandWorld, Solids,
};
use collide_scenes::alloc;

#[test]
fn a_warm_sand_world_allocates_nothing_per_tick() {
    let mut table = Materials::new();
    let stone = table
        .add(Material::new("stone", 30.0, Motion::Static).unwrap())
        .unwrap();
    let sand = table
        .add(Material::new("sand", 16.0, Motion::Powder).unwrap())
        .unwrap();
    let water = table
        .add(Material::new("water", 10.0, Motion::Liquid).unwrap())
        .unwrap();
    let smoke = table
        .add(Material::new("smoke", 0.5, Motion::Gas).unwrap())
        .unwrap();
    let wood = table
        .add(
            Material::new("wood", 20.0, Motion::Static)
                .unwrap()
                .flammable(),
        )
        .unwrap();
    let fire = table
        .add(
            Material::new("fire", 0.5, Motion::Static)
                .unwrap()
                .burning(Burning {
                    spread: 0.3,
                    burn_out: 0.05,
                    leaves: smoke,
                })
                .unwrap(),
        )
        .unwrap();
    let mut world =
        SandWorld::new(SandSettings::new(256, 128).unwrap().with_seed(3), table).unwrap();
    for x in 0..256 {
        world.set(x, 0, stone).unwrap();
    }
    for x in 60..200 {
        world.set(x, 40, wood).unwrap();
    }
    let mut solids = Solids::new(0.25).unwrap();
    let mut rebuilt = Vec::new();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    pool.install(|| {
        let mut pour = |world: &mut SandWorld, tick: u32| {
            if tick.is_multiple_of(2) {
                world.set(40 + i64::from(tick % 7), 120, sand).unwrap();
                world.set(220 - i64::from(tick % 5), 120, water).unwrap();
            }
            // The shelf burns while warming up: a chunk's box list grows
            // when its static cells split into more boxes than before.
            if tick == 100 {
                world.set(100, 40, fire).unwrap();
            }
            world.tick();
            world.refresh_solids(&mut solids, &mut rebuilt);
        };
        for tick in 0..400 {
            pour(&mut world, tick);
        }
        let before = alloc::tracked().allocations;
        alloc::track(|| {
            for tick in 400..700 {
                pour(&mut world, tick);
            }
        });
        let allocations = alloc::tracked().allocations - before;
        assert_eq!(
            allocations, 0,
            "{allocations} allocations in 300 warm ticks"
        );
    });
    // The run was busy: cells moving, the shelf burnt.
    assert!(world.scanned() > 1000, "{} cells scanned", world.scanned());
    let wood_left = world.counts()[usize::from(wood.index())];
    assert!(
        wood_left < 135,
        "the shelf did not burn: {wood_left}, fire {}, smoke {}",
        world.counts()[usize::from(fire.index())],
        world.counts()[usize::from(smoke.index())]
    );
    let _ = MaterialId::EMPTY;
}
