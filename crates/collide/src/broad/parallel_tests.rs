//! Structures split across threads find what brute force finds, with the
//! same events whatever the thread count. Unit tests see a low
//! `PARALLEL_MIN` (see `broad/parallel.rs`), so these scenes of a couple of
//! thousand objects take the split paths: the grids' pair kernel, probes of
//! coarser levels, box gather and merge of re-registrations; `sap1`'s
//! repair and scan of its bands; the BVH's traversals and queries; the
//! trees' nodes' pairs; the split sort of pair keys; the tracker's merge
//! of pair keys; and the grids' batch updates (each frame's moves go to
//! `update_many`).

use crate::broad::brute::Brute;
use crate::broad::bvh::Bvh;
use crate::broad::contract::BroadPhase;
use crate::broad::events::Pair;
use crate::broad::grid::Grid;
use crate::broad::structure::Structure;
use crate::broad::tree::Tree;
use crate::geometry::Aabb;
use crate::geometry::Vector;
use crate::handle::Handle;
use crate::test_rng::TestRng;
use glam::{Vec2, Vec3};

/// Where a test scene puts its boxes.
#[derive(Clone, Copy, Debug)]
enum Layout {
    /// Boxes of 1 to 9 units spread evenly.
    Uniform,
    /// Boxes around eight centres, crowded there and absent elsewhere.
    Clustered,
    /// One box in twenty 10 to 30 times larger than the rest.
    MixedSizes,
    /// Every box in a band 10 units thick along the first axis.
    Flat,
}

/// How a test scene moves from frame to frame.
#[derive(Clone, Copy, Debug)]
enum Moves {
    /// Every box shifts by up to one unit.
    Slow,
    /// Every box shifts by up to twenty units.
    Fast,
    /// A third of the boxes jump to a new place.
    Teleport,
    /// One box in twenty is removed and as many new ones inserted.
    Churn,
}

/// A small seeded scene (its boxes by caller id) for the split paths.
struct TestScene<V: Vector> {
    layout: Layout,
    rng: TestRng,
    centres: Vec<V>,
    boxes: Vec<(u64, Aabb<V>)>,
    next_id: u64,
}

impl<V: Vector> TestScene<V> {
    fn new(layout: Layout, n: usize) -> Self {
        let mut rng = TestRng::new(17);
        let centres = (0..8)
            .map(|_| V::from_axes(|_| rng.range(0.0, 300.0)))
            .collect();
        let mut scene = Self {
            layout,
            rng,
            centres,
            boxes: Vec::new(),
            next_id: 0,
        };
        for _ in 0..n {
            let (id, b) = (scene.next_id, scene.fresh_box());
            scene.boxes.push((id, b));
            scene.next_id += 1;
        }
        scene
    }

    fn fresh_box(&mut self) -> Aabb<V> {
        let rng = &mut self.rng;
        let scale = match self.layout {
            Layout::MixedSizes if rng.below(20) == 0 => rng.range(10.0, 30.0),
            _ => 1.0,
        };
        let centre = match self.layout {
            Layout::Clustered => {
                let c = self.centres[rng.below(self.centres.len())];
                V::from_axes(|a| c.axis(a) + 12.0 * rng.normal())
            }
            Layout::Flat => V::from_axes(|a| {
                if a == 0 {
                    rng.range(0.0, 1_200.0)
                } else {
                    rng.range(0.0, 10.0)
                }
            }),
            _ => V::from_axes(|_| rng.range(0.0, 300.0)),
        };
        let half = V::from_axes(|_| scale * rng.range(0.5, 4.5));
        Aabb::from_center_half_extents(centre, half).expect("a valid box")
    }

    /// Moves the scene one frame; returns the ids removed and inserted.
    fn next_frame(&mut self, moves: Moves) -> (Vec<u64>, Vec<u64>) {
        let (mut removed, mut inserted) = (Vec::new(), Vec::new());
        match moves {
            Moves::Slow | Moves::Fast => {
                let reach = if matches!(moves, Moves::Slow) {
                    1.0
                } else {
                    20.0
                };
                for (_, b) in &mut self.boxes {
                    let shift: Vec<f32> =
                        (0..V::DIM).map(|_| self.rng.range(-reach, reach)).collect();
                    let (lo, hi) = (b.min(), b.max());
                    *b = Aabb::new(
                        V::from_axes(|a| lo.axis(a) + shift[a]),
                        V::from_axes(|a| hi.axis(a) + shift[a]),
                    )
                    .expect("a valid box");
                }
            }
            Moves::Teleport => {
                for k in (0..self.boxes.len()).step_by(3) {
                    self.boxes[k].1 = self.fresh_box();
                }
            }
            Moves::Churn => {
                let n = self.boxes.len() / 20;
                for _ in 0..n {
                    let k = self.rng.below(self.boxes.len());
                    removed.push(self.boxes.swap_remove(k).0);
                }
                for _ in 0..n {
                    let (id, b) = (self.next_id, self.fresh_box());
                    self.boxes.push((id, b));
                    inserted.push(id);
                    self.next_id += 1;
                }
            }
        }
        (removed, inserted)
    }
}

/// A frame's pairs (sorted id pairs) and its started and stopped counts.
type FrameSeen = (Vec<(u64, u64)>, usize, usize);

/// Every frame's pairs (as sorted id pairs) and event counts of `world`
/// on a scene, stepped inside a pool of `threads` threads.
fn pairs_per_frame<V: Vector>(
    world: &mut (dyn BroadPhase<V, u64> + Send),
    layout: Layout,
    moves: Moves,
    threads: usize,
) -> Vec<FrameSeen> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    let mut scene = TestScene::<V>::new(layout, 1_500);
    let mut handles = rustc_hash::FxHashMap::default();
    for &(id, b) in &scene.boxes {
        handles.insert(id, world.insert(b, id).expect("inserted"));
    }
    let mut frames = Vec::new();
    for _ in 0..8 {
        let (counts, mut pairs) = pool.install(|| {
            let e = world.step();
            let counts = (e.started.len(), e.stopped.len());
            let value = |h| *world.value(h).expect("a live pair");
            let pairs: Vec<(u64, u64)> = world
                .pairs()
                .iter()
                .map(|p| {
                    let (a, b) = (value(p.a()), value(p.b()));
                    (a.min(b), a.max(b))
                })
                .collect();
            (counts, pairs)
        });
        pairs.sort_unstable();
        frames.push((pairs, counts.0, counts.1));
        let (removed, inserted) = scene.next_frame(moves);
        for id in removed {
            world
                .remove(handles.remove(&id).expect("a live id"))
                .expect("removed");
        }
        let now: rustc_hash::FxHashMap<u64, Aabb<V>> = scene.boxes.iter().copied().collect();
        for id in inserted {
            handles.insert(id, world.insert(now[&id], id).expect("inserted"));
        }
        let mut ids: Vec<u64> = handles.keys().copied().collect();
        ids.sort_unstable();
        let batch: Vec<(Handle, Aabb<V>)> = ids.iter().map(|id| (handles[id], now[id])).collect();
        let (hs, bs): (Vec<Handle>, Vec<Aabb<V>>) = batch.into_iter().unzip();
        pool.install(|| world.update_many(&hs, &bs))
            .expect("live handles");
    }
    frames
}

/// The structures whose steps split.
const SPLIT_STRUCTURES: [Structure; 7] = [
    Structure::Grid,
    Structure::HashGrid,
    Structure::HGrid,
    Structure::Sap1,
    Structure::Bvh,
    Structure::Tree,
    Structure::Loose,
];

fn structures_agree_with_brute_force_on_any_thread_count<V: Vector>() {
    let layouts = [
        Layout::Uniform,
        Layout::Clustered,
        Layout::MixedSizes,
        Layout::Flat,
    ];
    let moves = [Moves::Slow, Moves::Fast, Moves::Teleport, Moves::Churn];
    for layout in layouts {
        for motion in moves {
            let expected = pairs_per_frame(&mut Brute::<V, u64>::new(), layout, motion, 1);
            for structure in SPLIT_STRUCTURES {
                for threads in [1, 2, 3, 5] {
                    let mut world = structure.build::<V, u64>();
                    let found = pairs_per_frame(world.as_mut(), layout, motion, threads);
                    for (frame, (found, expected)) in found.iter().zip(&expected).enumerate() {
                        assert!(
                            found == expected,
                            "{structure} on {}D {layout:?} {motion:?}, {threads} threads, frame \
                             {frame}: {} pairs, {} started, {} stopped; brute force {}, {}, {}",
                            V::DIM,
                            found.0.len(),
                            found.1,
                            found.2,
                            expected.0.len(),
                            expected.1,
                            expected.2
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn structures_agree_with_brute_force_on_any_thread_count_2d() {
    structures_agree_with_brute_force_on_any_thread_count::<Vec2>();
}

#[test]
fn structures_agree_with_brute_force_on_any_thread_count_3d() {
    structures_agree_with_brute_force_on_any_thread_count::<Vec3>();
}

/// Regression: a step that finds no pairs after many, on more than one
/// thread, ended every pair without a stopped event (the tracker's split
/// merge gave its parts no old pairs when there were no keys).
#[test]
fn removing_everything_stops_every_pair_on_any_thread_count() {
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        let mut grid = Grid::<Vec2, ()>::hashed();
        let boxes = (0..100).map(|i| {
            let x = (i % 10) as f32 * 0.1;
            Aabb::new(Vec2::new(x, 0.0), Vec2::new(x + 2.0, 2.0)).expect("a valid box")
        });
        let handles: Vec<_> = boxes
            .map(|b| grid.insert(b, ()).expect("inserted"))
            .collect();
        let started = pool.install(|| grid.step().started.len());
        assert_eq!(started, 100 * 99 / 2, "{threads} threads");
        for h in handles {
            grid.remove(h).expect("removed");
        }
        let stopped = pool.install(|| grid.step().stopped.len());
        assert_eq!(stopped, 100 * 99 / 2, "{threads} threads");
        assert!(grid.pairs().is_empty());
    }
}

/// Inserts 2,000 boxes into `world` and brute force, then steps both 20
/// times on a pool of `threads` threads, moving every third object to a
/// box from `moved` at each step from step 12 on; checks the events and
/// pairs against brute force on every step.
fn script_against_brute_force(
    world: &mut (dyn BroadPhase<Vec2, ()> + Send),
    threads: usize,
    moved: fn(&mut TestRng) -> Aabb<Vec2>,
) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    let mut brute = Brute::<Vec2, ()>::new();
    let mut rng = TestRng::new(5);
    let handles: Vec<_> = (0..2_000)
        .map(|_| {
            let b = boxed(&mut rng, 0.0, 300.0);
            let h = world.insert(b, ()).expect("inserted");
            let g = brute.insert(b, ()).expect("inserted");
            (h, g)
        })
        .collect();
    let keys = |pairs: &[Pair]| -> Vec<(u32, u32)> {
        pairs
            .iter()
            .map(|p| (p.a().index(), p.b().index()))
            .collect()
    };
    for step in 0..20 {
        if step >= 12 {
            for &(h, g) in handles.iter().step_by(3) {
                let b = moved(&mut rng);
                world.update(h, b).expect("updated");
                brute.update(g, b).expect("updated");
            }
        }
        let counts = pool.install(|| {
            let e = world.step();
            (e.started.len(), e.stopped.len())
        });
        let e = brute.step();
        let name = world.name().to_string();
        assert_eq!(
            counts,
            (e.started.len(), e.stopped.len()),
            "{name}, {threads} threads, step {step}: started and stopped events"
        );
        assert!(
            keys(world.pairs()) == keys(brute.pairs()),
            "{name}, {threads} threads, step {step}: {} pairs, brute force {}",
            world.pairs().len(),
            brute.pairs().len()
        );
    }
}

/// A box of 1 to 9 units a side with its corner in `lo..hi` on each axis.
fn boxed(rng: &mut TestRng, lo: f32, hi: f32) -> Aabb<Vec2> {
    let (x, y) = (rng.range(lo, hi), rng.range(lo, hi));
    let (w, h) = (rng.range(1.0, 9.0), rng.range(1.0, 9.0));
    Aabb::new(Vec2::new(x, y), Vec2::new(x + w, y + h)).expect("a valid box")
}

/// The BVH's split traversal of moving objects against resting ones: most
/// objects rest while a third teleports step after step (so every step
/// finds its pairs by traversals rather than the candidate cache).
#[test]
fn bvh_traversals_against_resting_objects_on_any_thread_count() {
    for threads in [1, 2, 3] {
        let mut bvh = Bvh::<Vec2, ()>::new();
        script_against_brute_force(&mut bvh, threads, |rng| boxed(rng, 0.0, 300.0));
        assert!(bvh.resting() > 1_000, "most objects rest");
    }
}

/// The trees' split probes of overflow objects: a third of the objects
/// move to a strip across the edge of the root's bound (fixed at the first
/// step), where many of those outside overlap those still inside.
#[test]
fn trees_probe_overflow_objects_on_any_thread_count() {
    for threads in [1, 2, 3] {
        let mut tight = Tree::<Vec2, ()>::tight();
        script_against_brute_force(&mut tight, threads, |rng| boxed(rng, 270.0, 350.0));
        assert!(tight.overflow_objects() > 100, "many objects overflow");
        // A loose root's bound reaches half its cell further.
        let mut loose = Tree::<Vec2, ()>::loose();
        script_against_brute_force(&mut loose, threads, |rng| boxed(rng, 420.0, 520.0));
        assert!(loose.overflow_objects() > 100, "many objects overflow");
    }
}
