//! `--queries Q`: queries per second on a scene at rest (frame 3 of slow
//! motion), ours against parry's `Bvh` (binned build) and rstar's R*-tree
//! (bulk load), on the same probes:
//!
//! - **box**: every object overlapping a box about twice an object's size;
//! - **ray, all**: every object a segment a tenth of the world long enters;
//! - **ray, closest**: the first object that segment enters.
//!
//! Timed: the queries alone, each implementation through its own API
//! (parry's `intersect_aabb`, `leaves` with `Aabb::intersects_local_ray`
//! and `cast_ray`; rstar's `locate_in_envelope_intersecting` and
//! `locate_with_selection_function` with collide's ray rule; ours through
//! `BroadPhase`). Checked, untimed: the answers to the first 300 probes of
//! each kind, under collide's strict rules, against a brute-force model.

use collide::geometry::{Ray, Region};
use collide::{Aabb, BroadPhase, Vector};
use collide_scenes::{Motion, Record, Runner, Scene, SceneConfig, SceneRng};
use std::ops::ControlFlow;
use std::time::Instant;

/// Probes checked against the model, per kind.
const CHECKED: usize = 300;

/// One implementation answering queries on a fixed set of boxes.
pub trait Querier<V: Vector> {
    fn name(&self) -> &str;
    /// Timed: answers every box probe; returns the hits reported.
    fn boxes(&self, probes: &[Aabb<V>]) -> usize;
    /// Timed: every object each ray enters; returns the hits reported.
    fn rays_all(&self, rays: &[Ray<V>]) -> usize;
    /// Timed: the first object each ray enters; returns how many rays hit.
    fn rays_closest(&self, rays: &[Ray<V>]) -> usize;
    /// Untimed: the ids a box probe hits, under collide's strict rule.
    fn box_ids(&self, probe: &Aabb<V>) -> Vec<u64>;
    /// Untimed: the ids a ray enters, under collide's rule.
    fn ray_ids(&self, ray: &Ray<V>) -> Vec<u64>;
    /// Untimed: where the closest hit is entered.
    fn closest_t(&self, ray: &Ray<V>) -> Option<f32>;
}

/// One of collide's structures, filled by the scene's records and stepped.
pub struct OurQuerier<V: Vector> {
    name: String,
    world: Box<dyn BroadPhase<V, u64>>,
}

impl<V: Vector> OurQuerier<V> {
    pub fn new(name: &str, frames: &[Vec<Record<V>>]) -> Self {
        let mut world = name
            .parse::<collide::Structure>()
            .ok()
            .map(|s| s.build::<V, u64>())
            .expect("a structure name");
        let mut runner = Runner::new();
        let mut events = Vec::new();
        for records in frames {
            runner
                .apply(&mut world, records)
                .expect("scene records apply");
            runner.step(&mut world, &mut events);
        }
        Self {
            name: name.to_string(),
            world,
        }
    }

    fn ids(&self, region: &dyn Region<V>) -> Vec<u64> {
        let (hits, _) = self
            .world
            .query_region_all(region, collide::QueryBudget::default());
        let mut ids: Vec<u64> = hits
            .iter()
            .map(|h| *self.world.value(*h).unwrap())
            .collect();
        ids.sort_unstable();
        ids
    }
}

impl<V: Vector> Querier<V> for OurQuerier<V> {
    fn name(&self) -> &str {
        &self.name
    }

    fn boxes(&self, probes: &[Aabb<V>]) -> usize {
        let mut hits = 0;
        for p in probes {
            let _ = self.world.query_aabb(p, &mut |_| {
                hits += 1;
                ControlFlow::Continue(())
            });
        }
        hits
    }

    fn rays_all(&self, rays: &[Ray<V>]) -> usize {
        let mut hits = 0;
        for r in rays {
            self.world
                .query_region(r, collide::QueryBudget::default(), &mut |_| {
                    hits += 1;
                    ControlFlow::Continue(())
                });
        }
        hits
    }

    fn rays_closest(&self, rays: &[Ray<V>]) -> usize {
        rays.iter()
            .filter(|r| self.world.query_ray_closest(r).is_some())
            .count()
    }

    fn box_ids(&self, probe: &Aabb<V>) -> Vec<u64> {
        self.ids(probe)
    }

    fn ray_ids(&self, ray: &Ray<V>) -> Vec<u64> {
        self.ids(ray)
    }

    fn closest_t(&self, ray: &Ray<V>) -> Option<f32> {
        self.world.query_ray_closest(ray).map(|h| h.t)
    }
}

/// The scene's objects at the measured frame, by id, and the frames that
/// lead there.
pub struct Fixture<V: Vector> {
    pub frames: Vec<Vec<Record<V>>>,
    pub objects: Vec<(u64, Aabb<V>)>,
    pub boxes: Vec<Aabb<V>>,
    pub rays: Vec<Ray<V>>,
}

impl<V: Vector> Fixture<V> {
    /// Frame 3 of `kind` at slow motion, and `count` probes of each kind.
    pub fn new(kind: collide_scenes::SceneKind, n: usize, count: usize) -> Self {
        let config = SceneConfig {
            motion: Motion::Slow,
            ..SceneConfig::new(kind, n)
        };
        let mut scene = Scene::<V>::new(config);
        let frames = scene.take_frames(4);
        let objects: Vec<(u64, Aabb<V>)> = scene.objects().collect();
        let side = scene.world_side();
        let mut rng = SceneRng::new(77);
        let boxes = (0..count)
            .map(|_| {
                let c = V::from_axes(|_| rng.range(0.0, side));
                Aabb::from_center_half_extents(c, V::from_axes(|_| rng.range(5.0, 20.0)))
                    .expect("finite")
            })
            .collect();
        let rays = (0..count)
            .map(|_| {
                let o = V::from_axes(|_| rng.range(0.0, side));
                let d = V::from_axes(|_| rng.range(-1.0, 1.0));
                let len = (0..V::DIM)
                    .map(|a| d.axis(a) * d.axis(a))
                    .sum::<f32>()
                    .sqrt();
                let d = V::from_axes(|a| d.axis(a) / len.max(1e-6));
                Ray::new(o, d, side / 10.0).expect("finite")
            })
            .collect();
        Self {
            frames,
            objects,
            boxes,
            rays,
        }
    }

    fn model_ids(&self, region: &dyn Region<V>) -> Vec<u64> {
        let mut ids: Vec<u64> = self
            .objects
            .iter()
            .filter(|(_, b)| region.hits(b))
            .map(|(id, _)| *id)
            .collect();
        ids.sort_unstable();
        ids
    }

    fn model_closest(&self, ray: &Ray<V>) -> Option<f32> {
        self.objects
            .iter()
            .filter_map(|(_, b)| ray.entry(b))
            .min_by(f32::total_cmp)
    }
}

/// One implementation's figures on one scene.
pub struct QueryRow {
    pub name: String,
    /// Microseconds per query: box, ray all, ray closest.
    pub us: [f64; 3],
    /// Hits reported in the timed runs (peers' include touching boxes).
    pub hits: [usize; 3],
    /// Checked probes whose answer differed from the model's.
    pub wrong: usize,
}

/// Times `q` on the fixture's probes and checks its answers.
pub fn measure<V: Vector>(q: &dyn Querier<V>, fx: &Fixture<V>) -> QueryRow {
    let mut us = [0.0; 3];
    let mut hits = [0; 3];
    let per = |start: Instant, count: usize| start.elapsed().as_secs_f64() * 1e6 / count as f64;
    let start = Instant::now();
    hits[0] = q.boxes(&fx.boxes);
    us[0] = per(start, fx.boxes.len());
    let start = Instant::now();
    hits[1] = q.rays_all(&fx.rays);
    us[1] = per(start, fx.rays.len());
    let start = Instant::now();
    hits[2] = q.rays_closest(&fx.rays);
    us[2] = per(start, fx.rays.len());
    let mut wrong = 0;
    for p in fx.boxes.iter().take(CHECKED) {
        wrong += usize::from(q.box_ids(p) != fx.model_ids(p));
    }
    for r in fx.rays.iter().take(CHECKED) {
        wrong += usize::from(q.ray_ids(r) != fx.model_ids(r));
        // Closest: the same entry t, up to rounding of the peers' own
        // ray-box arithmetic.
        let (got, want) = (q.closest_t(r), fx.model_closest(r));
        let same = match (got, want) {
            (Some(a), Some(b)) => (a - b).abs() <= 1e-3 * b.abs().max(1.0),
            (None, None) => true,
            _ => false,
        };
        wrong += usize::from(!same);
    }
    QueryRow {
        name: q.name().to_string(),
        us,
        hits,
        wrong,
    }
}

macro_rules! parry_querier {
    ($module:ident, $parry:ident, $vec:ty, $($axis:ident),+) => {
        pub mod $module {
            use super::Querier;
            use collide::geometry::Ray;
            use collide::Aabb;
            use $parry::bounding_volume::Aabb as ParryAabb;
            use $parry::math::Vector as ParryVector;
            use $parry::partitioning::{Bvh, BvhBuildStrategy};
            use $parry::query::{Ray as ParryRay, RayCast};

            fn to_parry(aabb: &Aabb<$vec>) -> ParryAabb {
                let (lo, hi) = (aabb.min(), aabb.max());
                ParryAabb::new(ParryVector::new($(lo.$axis),+), ParryVector::new($(hi.$axis),+))
            }

            fn ray_of(ray: &Ray<$vec>) -> ParryRay {
                let (o, d) = (ray.origin(), ray.direction());
                ParryRay::new(ParryVector::new($(o.$axis),+), ParryVector::new($(d.$axis),+))
            }

            /// parry's `Bvh` over the objects, built by binned SAH.
            pub struct ParryQuerier {
                bvh: Bvh,
                parry_boxes: Vec<ParryAabb>,
                ids: Vec<u64>,
                boxes: Vec<Aabb<$vec>>,
            }

            impl ParryQuerier {
                pub fn new(objects: &[(u64, Aabb<$vec>)]) -> Self {
                    let parry_boxes: Vec<ParryAabb> = objects.iter().map(|(_, b)| to_parry(b)).collect();
                    let bvh = Bvh::from_iter(
                        BvhBuildStrategy::Binned,
                        parry_boxes.iter().copied().enumerate(),
                    );
                    Self {
                        bvh,
                        parry_boxes,
                        ids: objects.iter().map(|(id, _)| *id).collect(),
                        boxes: objects.iter().map(|(_, b)| *b).collect(),
                    }
                }

                fn all_on_ray(&self, ray: &Ray<$vec>) -> impl Iterator<Item = u32> + '_ {
                    let r = ray_of(ray);
                    let max = ray.max_t();
                    self.bvh.leaves(move |node| node.aabb().intersects_local_ray(&r, max))
                }
            }

            impl Querier<$vec> for ParryQuerier {
                fn name(&self) -> &str {
                    "parry-bvh"
                }

                fn boxes(&self, probes: &[Aabb<$vec>]) -> usize {
                    probes
                        .iter()
                        .map(|p| self.bvh.intersect_aabb(&to_parry(p)).count())
                        .sum()
                }

                fn rays_all(&self, rays: &[Ray<$vec>]) -> usize {
                    rays.iter().map(|r| self.all_on_ray(r).count()).sum()
                }

                fn rays_closest(&self, rays: &[Ray<$vec>]) -> usize {
                    rays.iter()
                        .filter(|ray| {
                            let r = ray_of(ray);
                            self.bvh
                                .cast_ray(&r, ray.max_t(), |leaf, best| {
                                    self.parry_boxes[leaf as usize].cast_local_ray(&r, best, true)
                                })
                                .is_some()
                        })
                        .count()
                }

                fn box_ids(&self, probe: &Aabb<$vec>) -> Vec<u64> {
                    let mut ids: Vec<u64> = self
                        .bvh
                        .intersect_aabb(&to_parry(probe))
                        .filter(|&i| self.boxes[i as usize].overlaps(probe))
                        .map(|i| self.ids[i as usize])
                        .collect();
                    ids.sort_unstable();
                    ids
                }

                fn ray_ids(&self, ray: &Ray<$vec>) -> Vec<u64> {
                    let mut ids: Vec<u64> = self
                        .all_on_ray(ray)
                        .filter(|&i| ray.entry(&self.boxes[i as usize]).is_some())
                        .map(|i| self.ids[i as usize])
                        .collect();
                    ids.sort_unstable();
                    ids
                }

                fn closest_t(&self, ray: &Ray<$vec>) -> Option<f32> {
                    let r = ray_of(ray);
                    self.bvh
                        .cast_ray(&r, ray.max_t(), |leaf, best| {
                            self.parry_boxes[leaf as usize].cast_local_ray(&r, best, true)
                        })
                        .map(|(_, t)| t)
                }
            }
        }
    };
}

parry_querier!(parry2, parry2d, glam::Vec2, x, y);
parry_querier!(parry3, parry3d, glam::Vec3, x, y, z);

/// rstar's R*-tree over the objects, bulk-loaded.
pub mod rstar_querier {
    use super::Querier;
    use crate::peers::rstar::{Item, envelope};
    use collide::geometry::Ray;
    use collide::{Aabb, Vector};
    use rstar::{AABB, RTree, SelectionFunction};

    /// Selects by collide's ray rule (monotone, so it prunes parents).
    struct OnRay<'a, V: Vector>(&'a Ray<V>);

    impl<V: Vector, const D: usize> SelectionFunction<Item<D>> for OnRay<'_, V> {
        fn should_unpack_parent(&self, envelope: &AABB<[f32; D]>) -> bool {
            let (lo, hi) = (envelope.lower(), envelope.upper());
            Aabb::new(V::from_axes(|a| lo[a]), V::from_axes(|a| hi[a]))
                .is_ok_and(|b| self.0.entry(&b).is_some())
        }

        fn should_unpack_leaf(&self, leaf: &Item<D>) -> bool {
            self.should_unpack_parent(&leaf.envelope)
        }
    }

    pub struct RstarQuerier<V: Vector, const D: usize> {
        tree: RTree<Item<D>>,
        ids: Vec<u64>,
        boxes: Vec<Aabb<V>>,
    }

    impl<V: Vector, const D: usize> RstarQuerier<V, D> {
        pub fn new(objects: &[(u64, Aabb<V>)]) -> Self {
            let items = objects
                .iter()
                .enumerate()
                .map(|(k, (_, b))| Item {
                    envelope: envelope(b),
                    index: k as u32,
                })
                .collect();
            Self {
                tree: RTree::bulk_load(items),
                ids: objects.iter().map(|(id, _)| *id).collect(),
                boxes: objects.iter().map(|(_, b)| *b).collect(),
            }
        }

        fn on_ray<'a>(&'a self, ray: &'a Ray<V>) -> impl Iterator<Item = u32> + 'a {
            self.tree
                .locate_with_selection_function(OnRay(ray))
                .map(|item| item.index)
        }
    }

    impl<V: Vector, const D: usize> Querier<V> for RstarQuerier<V, D> {
        fn name(&self) -> &str {
            "rstar"
        }

        fn boxes(&self, probes: &[Aabb<V>]) -> usize {
            probes
                .iter()
                .map(|p| {
                    self.tree
                        .locate_in_envelope_intersecting(envelope(p))
                        .count()
                })
                .sum()
        }

        fn rays_all(&self, rays: &[Ray<V>]) -> usize {
            rays.iter().map(|r| self.on_ray(r).count()).sum()
        }

        /// rstar has no ray cast: all hits, then the nearest.
        fn rays_closest(&self, rays: &[Ray<V>]) -> usize {
            rays.iter()
                .filter(|r| {
                    self.on_ray(r)
                        .filter_map(|i| r.entry(&self.boxes[i as usize]))
                        .min_by(f32::total_cmp)
                        .is_some()
                })
                .count()
        }

        fn box_ids(&self, probe: &Aabb<V>) -> Vec<u64> {
            let mut ids: Vec<u64> = self
                .tree
                .locate_in_envelope_intersecting(envelope(probe))
                .filter(|item| self.boxes[item.index as usize].overlaps(probe))
                .map(|item| self.ids[item.index as usize])
                .collect();
            ids.sort_unstable();
            ids
        }

        fn ray_ids(&self, ray: &Ray<V>) -> Vec<u64> {
            let mut ids: Vec<u64> = self.on_ray(ray).map(|i| self.ids[i as usize]).collect();
            ids.sort_unstable();
            ids
        }

        fn closest_t(&self, ray: &Ray<V>) -> Option<f32> {
            self.on_ray(ray)
                .filter_map(|i| ray.entry(&self.boxes[i as usize]))
                .min_by(f32::total_cmp)
        }
    }
}

/// Builds the peers over a scene's objects (id, box).
pub type PeerBuilder<'a, V> = &'a dyn Fn(&[(u64, Aabb<V>)]) -> Vec<Box<dyn Querier<V>>>;

/// Our structures and the two tree peers, on one scene: one table.
pub fn run_queries<V: Vector>(
    kind: collide_scenes::SceneKind,
    n: usize,
    count: usize,
    selection: crate::Selection<'_>,
    peers: PeerBuilder<'_, V>,
) -> Vec<QueryRow> {
    let fx = Fixture::<V>::new(kind, n, count);
    let selected = |name: &str| selection.includes(name);
    let mut rows = Vec::new();
    for &name in &collide::Structure::ALL.map(collide::Structure::name) {
        if !selected(name) || (name == "brute" && n > 5_000) {
            continue;
        }
        rows.push(measure(&OurQuerier::new(name, &fx.frames), &fx));
    }
    for peer in peers(&fx.objects) {
        if selected(peer.name()) {
            rows.push(measure(peer.as_ref(), &fx));
        }
    }
    rows.sort_by(|a, b| a.us[0].total_cmp(&b.us[0]));
    rows
}

/// The table of [`run_queries`]'s rows.
pub fn query_table(rows: &[QueryRow]) -> String {
    use std::fmt::Write as _;
    let mut out = String::from(
        "| structure | box us/query | ray (all hits) us/query | ray (closest) us/query | hits: box / ray all / rays hitting | checked answers wrong |\n|---|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let wrong = if r.wrong > 0 {
            format!("**{}**", r.wrong)
        } else {
            "0".into()
        };
        let _ = writeln!(
            out,
            "| {} | {:.2} | {:.2} | {:.2} | {} / {} / {} | {wrong} |",
            r.name, r.us[0], r.us[1], r.us[2], r.hits[0], r.hits[1], r.hits[2]
        );
    }
    out
}
