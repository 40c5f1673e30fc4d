//! [`World::step`]: the broad phase's pairs, filtered, tested by the
//! narrow phase where something moved (on rayon's pool for many pairs),
//! judged by the touch rule and the pair hook in handle-pair order, and
//! compared with the last step's into events.

use super::collider::Kind;
use super::collider_shape::ColliderShape;
use super::events::{PartRange, Touching, WorldEvents};
use super::hook::Candidate;
use super::part_contacts::{EdgeScratch, PartContact, part_contacts};
use super::space::Space;
use super::world::{Entry, World};
use crate::geometry::Aabb;
use crate::narrow::{Contact, Manifold};
use crate::{Handle, Slots};
use std::sync::Arc;

/// Below this many pairs to test, the narrow phase runs on the calling
/// thread (a contact costs far more than a broad-phase item, so the bar
/// is lower than the broad phase's).
const PARALLEL_TESTS: usize = 512;

/// A pair touching (or a sensor's pair overlapping) after a step.
#[derive(Clone, Copy, Debug)]
pub(super) struct Held<V: Space> {
    touching: Touching<V>,
    sensor: bool,
}

impl<V: Space> Held<V> {
    fn key(&self) -> (Handle, Handle) {
        (self.touching.a, self.touching.b)
    }
}

/// A candidate pair of this step.
#[derive(Clone, Copy, Debug)]
struct Job {
    a: Handle,
    b: Handle,
    sensor: bool,
    /// Its place in the last step's held list, if it was held (as the
    /// same kind of pair).
    was: Option<usize>,
    /// Whether the narrow phase tests it again (one of them changed).
    test: bool,
}

/// The step's lists, kept from step to step so a warm world allocates
/// nothing.
#[derive(Debug)]
pub(super) struct Scratch<V: Space> {
    /// The pairs held after the last step, sorted.
    held: Vec<Held<V>>,
    /// The next step's, built beside them.
    next: Vec<Held<V>>,
    /// The broad phase's pairs as collider handles.
    pairs: Vec<(Handle, Handle)>,
    jobs: Vec<Job>,
    /// The pairs the narrow phase tests, and their contacts.
    tests: Vec<(Handle, Handle)>,
    contacts: Vec<Contact<V>>,
    /// The part contacts of the pairs tested with parts (a compound, a
    /// mesh), test by test, and where each test's lie.
    tested_parts: Vec<PartContact<V>>,
    tested_ranges: Vec<PartRange>,
    /// Each test's time of impact, where a sweep found it.
    impacts: Vec<Option<f32>>,
    /// The part contacts of the held pairs, and of the next held.
    held_parts: Vec<PartContact<V>>,
    next_parts: Vec<PartContact<V>>,
    edges: EdgeScratch<V>,
    /// Solid pairs tested this step and touching: their place in `next`
    /// and their margin; then their manifolds, in the same order.
    fresh: Vec<(usize, f32)>,
    manifolds: Vec<Manifold<V>>,
}

impl<V: Space> Default for Scratch<V> {
    fn default() -> Self {
        Self {
            held: Vec::new(),
            next: Vec::new(),
            pairs: Vec::new(),
            jobs: Vec::new(),
            tests: Vec::new(),
            contacts: Vec::new(),
            tested_parts: Vec::new(),
            tested_ranges: Vec::new(),
            impacts: Vec::new(),
            held_parts: Vec::new(),
            next_parts: Vec::new(),
            edges: EdgeScratch::default(),
            fresh: Vec::new(),
            manifolds: Vec::new(),
        }
    }
}

impl<V: Space, T> World<V, T> {
    /// Steps the broad phase and tests its pairs: the pairs that started
    /// and stopped touching, every pair touching now with its contact,
    /// and the sensors' overlaps that started and stopped.
    ///
    /// Two solid shapes start touching when their distance is 0 or less,
    /// and stop once it exceeds the margin; a sensor's pairs follow the
    /// same rule. Two static colliders never pair, nor two colliders whose
    /// filters do not meet, nor two sensors unless the settings ask. A
    /// pair neither of whose colliders moved or changed keeps its last
    /// answer; the others are tested again (in parallel for many pairs;
    /// the answer does not depend on the thread count) and offered to the
    /// pair hook in handle-pair order.
    pub fn step(&mut self) -> Arc<WorldEvents<V>> {
        self.broad.step();
        self.collect_jobs();
        test_pairs(&self.colliders, &mut self.scratch);
        test_parts(&self.colliders, self.settings.margin(), &mut self.scratch);
        sweep_pairs(&self.colliders, &mut self.scratch);
        self.judge();
        build_manifolds(&self.colliders, &mut self.scratch);
        for h in self.changed.drain(..) {
            if let Ok(e) = self.colliders.get_mut(h) {
                e.changed = false;
                e.last_pose = e.pose;
            }
        }
        let s = &mut self.scratch;
        let events = match Arc::get_mut(&mut self.events) {
            Some(events) => events,
            None => {
                self.events = Arc::new(WorldEvents::default());
                Arc::get_mut(&mut self.events).expect("a new Arc is unique")
            }
        };
        diff(&s.held, &s.next, events);
        events.touching.clear();
        events
            .touching
            .extend(s.next.iter().filter(|h| !h.sensor).map(|h| h.touching));
        events.parts.clone_from(&s.next_parts);
        std::mem::swap(&mut s.held, &mut s.next);
        std::mem::swap(&mut s.held_parts, &mut s.next_parts);
        Arc::clone(&self.events)
    }

    /// The broad phase's pairs, sorted by handle pair, less those the
    /// rules leave out, each marked to test again or to keep.
    fn collect_jobs(&mut self) {
        let s = &mut self.scratch;
        s.pairs.clear();
        let broad = &self.broad;
        s.pairs.extend(broad.pairs().iter().filter_map(|p| {
            let (a, b) = (*broad.value(p.a())?, *broad.value(p.b())?);
            Some((a.min(b), a.max(b)))
        }));
        s.pairs.sort_unstable();
        s.jobs.clear();
        s.tests.clear();
        let mut old = 0;
        for &(a, b) in &s.pairs {
            let (Some(ea), Some(eb)) = (self.colliders.get(a), self.colliders.get(b)) else {
                continue;
            };
            let sensor = ea.sensor || eb.sensor;
            if (ea.kind == Kind::Static && eb.kind == Kind::Static)
                || (ea.sensor && eb.sensor && !self.settings.sensor_pairs())
                || !ea.filter.allows(eb.filter)
            {
                continue;
            }
            while old < s.held.len() && s.held[old].key() < (a, b) {
                old += 1;
            }
            let was = s
                .held
                .get(old)
                .filter(|h| h.key() == (a, b) && h.sensor == sensor)
                .map(|_| old);
            let test = ea.changed || eb.changed;
            if test {
                s.tests.push((a, b));
            }
            s.jobs.push(Job {
                a,
                b,
                sensor,
                was,
                test,
            });
        }
    }

    /// The touch rule and the pair hook over the jobs, in order, into the
    /// next held list.
    fn judge(&mut self) {
        let s = &mut self.scratch;
        s.next.clear();
        s.next_parts.clear();
        s.fresh.clear();
        let mut test = 0;
        for job in &s.jobs {
            let was = job.was.map(|i| s.held[i]);
            if !job.test {
                // Nothing moved: the last answer stands.
                if let Some(mut held) = was {
                    let start = s.next_parts.len();
                    s.next_parts
                        .extend_from_slice(held.touching.parts.slice(&s.held_parts));
                    held.touching.parts = PartRange::of(&s.next_parts, start);
                    s.next.push(held);
                }
                continue;
            }
            let (contact, range, impact) =
                (s.contacts[test], s.tested_ranges[test], s.impacts[test]);
            test += 1;
            let (Some(ea), Some(eb)) = (self.colliders.get(job.a), self.colliders.get(job.b))
            else {
                continue;
            };
            let margin = self.settings.margin() * ea.reach.min(eb.reach);
            if !(contact.depth >= 0.0 || (was.is_some() && -contact.depth <= margin)) {
                continue;
            }
            if let Some(hook) = &mut self.hook {
                let value = |h: Handle| {
                    self.values[h.index() as usize]
                        .as_ref()
                        .expect("a live collider has a value")
                };
                let candidate = Candidate {
                    a: job.a,
                    b: job.b,
                    value_a: value(job.a),
                    value_b: value(job.b),
                    contact: &contact,
                    sensor: job.sensor,
                };
                if !hook(&candidate) {
                    continue;
                }
            }
            let mut parts = PartRange::default();
            if !job.sensor {
                s.fresh.push((s.next.len(), margin));
                let start = s.next_parts.len();
                s.next_parts.extend_from_slice(range.slice(&s.tested_parts));
                parts = PartRange::of(&s.next_parts, start);
            }
            s.next.push(Held {
                touching: Touching {
                    a: job.a,
                    b: job.b,
                    contact,
                    // Built after the judging, for the pairs held.
                    manifold: Manifold::empty(contact.normal),
                    impact,
                    parts,
                },
                sensor: job.sensor,
            });
        }
    }
}

/// A contact that is no contact: no part pair within the margin.
fn far<V: Space>() -> Contact<V> {
    Contact {
        normal: V::from_axes(|k| if k == 0 { 1.0 } else { 0.0 }),
        depth: f32::NEG_INFINITY,
        point_a: V::from_axes(|_| 0.0),
        point_b: V::from_axes(|_| 0.0),
    }
}

impl<V: Space, T> World<V, T> {
    /// The contact of the live colliders `a` and `b` (`a` the lower) as
    /// they stand, found as a step finds it (part by part for a compound
    /// or a mesh, reusing the step's scratch lists).
    pub(super) fn contact_now(&mut self, a: Handle, b: Handle) -> Contact<V> {
        let (Some(ea), Some(eb)) = (self.colliders.get(a), self.colliders.get(b)) else {
            return far();
        };
        match (&ea.shape, &eb.shape) {
            (ColliderShape::Convex(sa), ColliderShape::Convex(sb)) => {
                V::contact(sa, &ea.pose, sb, &eb.pose)
            }
            _ => {
                let s = &mut self.scratch;
                s.tested_parts.clear();
                let share = self.settings.margin();
                parts_contact(ea, eb, share, &mut s.tested_parts, &mut s.edges)
            }
        }
    }
}

/// The part contacts of each tested pair with a compound or a mesh, on
/// this thread, into `s.tested_parts`; their deepest into `s.contacts`.
fn test_parts<V: Space>(colliders: &Slots<Entry<V>>, margin_share: f32, s: &mut Scratch<V>) {
    s.tested_parts.clear();
    s.tested_ranges.clear();
    for (k, &(a, b)) in s.tests.iter().enumerate() {
        let (ea, eb) = (
            colliders.get(a).expect("a tested pair is live"),
            colliders.get(b).expect("a tested pair is live"),
        );
        let start = s.tested_parts.len();
        if !(ea.shape.is_convex() && eb.shape.is_convex()) {
            s.contacts[k] = parts_contact(ea, eb, margin_share, &mut s.tested_parts, &mut s.edges);
        }
        s.tested_ranges.push(PartRange::of(&s.tested_parts, start));
    }
}

/// The deepest contact of two colliders, one at least with parts, found
/// part by part within their margin (`margin_share` of the smaller's
/// size); the part contacts go to `out`.
fn parts_contact<V: Space>(
    ea: &Entry<V>,
    eb: &Entry<V>,
    margin_share: f32,
    out: &mut Vec<PartContact<V>>,
    edges: &mut EdgeScratch<V>,
) -> Contact<V> {
    let margin = margin_share * ea.reach.min(eb.reach);
    part_contacts(&ea.shape, &ea.pose, &eb.shape, &eb.pose, margin, out, edges).unwrap_or_else(far)
}

/// Continuous collision: each tested pair with a swept collider that the
/// discrete test found apart is swept from the last step's poses (see
/// [`sweep`]); where they met, its contact becomes the one at impact, its
/// parts that one part pair, and its impact the share of the move done.
fn sweep_pairs<V: Space>(colliders: &Slots<Entry<V>>, s: &mut Scratch<V>) {
    s.impacts.clear();
    s.impacts.resize(s.tests.len(), None);
    for (k, &(a, b)) in s.tests.iter().enumerate() {
        if s.contacts[k].depth >= 0.0 {
            continue;
        }
        let (ea, eb) = (
            colliders.get(a).expect("a tested pair is live"),
            colliders.get(b).expect("a tested pair is live"),
        );
        let hit = if ea.continuous {
            sweep(ea, eb)
        } else if eb.continuous {
            sweep(eb, ea).map(|(t, c, mine, theirs)| (t, c.flipped(), theirs, mine))
        } else {
            continue;
        };
        let Some((t, contact, part_a, part_b)) = hit else {
            continue;
        };
        let contact = Contact {
            depth: contact.depth.max(0.0),
            ..contact
        };
        s.contacts[k] = contact;
        s.impacts[k] = Some(t);
        if s.tested_ranges[k].len > 0 || !(ea.shape.is_convex() && eb.shape.is_convex()) {
            let start = s.tested_parts.len();
            s.tested_parts.push(PartContact {
                part_a,
                part_b,
                contact,
                manifold: Manifold::empty(contact.normal),
            });
            s.tested_ranges[k] = PartRange::of(&s.tested_parts, start);
        }
    }
}

/// `mover` (swept: convex or a compound) moving from its last step's pose
/// by its move since, less `other`'s move (straight, turned as it was),
/// against `other` at its last step's pose: the first touch, its contact
/// (normal from the mover), the mover's part and the other's, if they
/// met. Each part of a compound is cast in turn; ties go to the lower
/// parts.
fn sweep<V: Space>(mover: &Entry<V>, other: &Entry<V>) -> Option<(f32, Contact<V>, u32, u32)> {
    if mover.shape.is_mesh() {
        return None;
    }
    let moved = |e: &Entry<V>| {
        let (now, then) = (V::position_of(&e.pose), V::position_of(&e.last_pose));
        V::from_axes(|k| now.axis(k) - then.axis(k))
    };
    let (mm, mo) = (moved(mover), moved(other));
    let motion = V::from_axes(|k| mm.axis(k) - mo.axis(k));
    if (0..V::DIM).all(|k| motion.axis(k) == 0.0) {
        return None;
    }
    let mut best: Option<(f32, Contact<V>, u32, u32)> = None;
    for i in 0..mover.shape.part_count() as u32 {
        let Some((shape, pose)) = mover.shape.part_at(i, &mover.last_pose) else {
            continue;
        };
        let start = V::aabb(&shape, &pose);
        let Ok(swept) = Aabb::new(
            V::from_axes(|k| start.min().axis(k) + motion.axis(k).min(0.0)),
            V::from_axes(|k| start.max().axis(k) + motion.axis(k).max(0.0)),
        ) else {
            continue;
        };
        let _ = other
            .shape
            .visit_near(&other.last_pose, &swept, |part, s, p| {
                if let Some(hit) = V::cast_shape(&shape, &pose, motion, s, p) {
                    if best.is_none_or(|(t, ..)| hit.t < t) {
                        best = Some((hit.t, hit.contact, i, part));
                    }
                }
                std::ops::ControlFlow::Continue(())
            });
    }
    best
}

/// The contact of each pair in `s.tests`, into `s.contacts` in the same
/// order: split across rayon's pool when there are many.
fn test_pairs<V: Space>(colliders: &Slots<Entry<V>>, s: &mut Scratch<V>) {
    let contact = |&(a, b): &(Handle, Handle)| {
        let (ea, eb) = (
            colliders.get(a).expect("a tested pair is live"),
            colliders.get(b).expect("a tested pair is live"),
        );
        match (&ea.shape, &eb.shape) {
            (ColliderShape::Convex(sa), ColliderShape::Convex(sb)) => {
                V::contact(sa, &ea.pose, sb, &eb.pose)
            }
            // Found part by part after.
            _ => far(),
        }
    };
    s.contacts.clear();
    #[cfg(feature = "parallel")]
    if s.tests.len() >= PARALLEL_TESTS && rayon::current_num_threads() > 1 {
        use rayon::prelude::*;
        s.tests
            .par_iter()
            .map(contact)
            .collect_into_vec(&mut s.contacts);
        return;
    }
    s.contacts.extend(s.tests.iter().map(contact));
}

/// The manifold of each solid pair tested this step and held, within its
/// margin: on rayon's pool when there are many (a manifold costs about
/// what a contact does), into the held list.
fn build_manifolds<V: Space>(colliders: &Slots<Entry<V>>, s: &mut Scratch<V>) {
    let next = &s.next;
    let manifold = |&(i, margin): &(usize, f32)| {
        let t = &next[i].touching;
        let (ea, eb) = (
            colliders.get(t.a).expect("a held pair is live"),
            colliders.get(t.b).expect("a held pair is live"),
        );
        match (&ea.shape, &eb.shape) {
            // The moment of impact: its one point.
            _ if t.impact.is_some() => Manifold::single(&t.contact),
            (ColliderShape::Convex(sa), ColliderShape::Convex(sb)) => {
                V::manifold(sa, &ea.pose, sb, &eb.pose, &t.contact, margin)
            }
            // Part by part after.
            _ => Manifold::empty(t.contact.normal),
        }
    };
    s.manifolds.clear();
    #[cfg(feature = "parallel")]
    if s.fresh.len() >= PARALLEL_TESTS && rayon::current_num_threads() > 1 {
        use rayon::prelude::*;
        s.fresh
            .par_iter()
            .map(manifold)
            .collect_into_vec(&mut s.manifolds);
    }
    // On the calling thread: few pairs, or no pool.
    if s.manifolds.is_empty() {
        s.manifolds.extend(s.fresh.iter().map(manifold));
    }
    for (&(i, margin), m) in s.fresh.iter().zip(&s.manifolds) {
        let t = &mut s.next[i].touching;
        t.manifold = *m;
        let parts =
            &mut s.next_parts[t.parts.start as usize..(t.parts.start + t.parts.len) as usize];
        if parts.is_empty() {
            continue;
        }
        if t.impact.is_some() {
            for p in parts.iter_mut() {
                p.manifold = Manifold::single(&p.contact).in_parts(p.part_a, p.part_b);
            }
            continue;
        }
        let (ea, eb) = (
            colliders.get(t.a).expect("a held pair is live"),
            colliders.get(t.b).expect("a held pair is live"),
        );
        let mut deepest = f32::NEG_INFINITY;
        for p in parts.iter_mut() {
            let (Some((sa, pa)), Some((sb, pb))) = (
                ea.shape.part_at(p.part_a, &ea.pose),
                eb.shape.part_at(p.part_b, &eb.pose),
            ) else {
                continue;
            };
            p.manifold =
                V::manifold(&sa, &pa, &sb, &pb, &p.contact, margin).in_parts(p.part_a, p.part_b);
            if p.contact.depth > deepest {
                deepest = p.contact.depth;
                t.manifold = p.manifold;
            }
        }
    }
}

/// The held pairs in `now` and not `before` (started) and the other way
/// (stopped), into the events' lists by kind, each sorted. A pair that
/// turned from solid to sensor stops in one list and starts in the other.
fn diff<V: Space>(before: &[Held<V>], now: &[Held<V>], events: &mut WorldEvents<V>) {
    events.started.clear();
    events.stopped.clear();
    events.sensor_started.clear();
    events.sensor_stopped.clear();
    let stop = |h: &Held<V>, e: &mut WorldEvents<V>| {
        let list = if h.sensor {
            &mut e.sensor_stopped
        } else {
            &mut e.stopped
        };
        list.push(h.key());
    };
    let start = |h: &Held<V>, e: &mut WorldEvents<V>| {
        let list = if h.sensor {
            &mut e.sensor_started
        } else {
            &mut e.started
        };
        list.push(h.key());
    };
    let (mut i, mut j) = (0, 0);
    while i < before.len() || j < now.len() {
        match (before.get(i), now.get(j)) {
            (Some(x), Some(y)) if x.key() == y.key() => {
                if x.sensor != y.sensor {
                    stop(x, events);
                    start(y, events);
                }
                (i, j) = (i + 1, j + 1);
            }
            (Some(x), Some(y)) if x.key() < y.key() => {
                stop(x, events);
                i += 1;
            }
            (Some(x), None) => {
                stop(x, events);
                i += 1;
            }
            (_, Some(y)) => {
                start(y, events);
                j += 1;
            }
            (None, None) => unreachable!("the loop runs while either has pairs"),
        }
    }
}
