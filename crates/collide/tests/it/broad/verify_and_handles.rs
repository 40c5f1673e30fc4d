//! The verifying wrapper catches a wrong structure, and every structure
//! refuses bad handles and bad boxes without panicking.

use collide::Query;
use collide::{
    Aabb, Aabb2, BroadPhase, Brute, Error, FrameEvents, Handle, HandleError, Pair, StepStats,
    Structure, Verified,
    broad::{EventList, Mistake},
};
use glam::{Vec2, Vec3};
use std::ops::ControlFlow;
use std::sync::Arc;

/// A deliberately wrong structure: brute force that drops every pair whose
/// boxes only just overlap (less than `slack` on x), the kind of tie bug
/// a sweep makes when it orders equal endpoints wrongly.
struct DropsThinOverlaps {
    inner: Brute<Vec2, u32>,
    slack: f32,
    events: Arc<FrameEvents>,
    pairs: Vec<Pair>,
}

impl Query<Vec2> for DropsThinOverlaps {
    fn name(&self) -> &str {
        "drops-thin"
    }
    fn len(&self) -> usize {
        self.inner.len()
    }
    fn aabb(&self, handle: Handle) -> Option<Aabb<Vec2>> {
        self.inner.aabb(handle)
    }
    fn query_aabb(
        &self,
        aabb: &Aabb<Vec2>,
        visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.inner.query_aabb(aabb, visit)
    }
}
impl BroadPhase<Vec2, u32> for DropsThinOverlaps {
    fn insert(&mut self, aabb: Aabb<Vec2>, value: u32) -> Result<Handle, Error> {
        self.inner.insert(aabb, value)
    }
    fn update(&mut self, handle: Handle, aabb: Aabb<Vec2>) -> Result<(), Error> {
        self.inner.update(handle, aabb)
    }
    fn remove(&mut self, handle: Handle) -> Result<u32, Error> {
        self.inner.remove(handle)
    }
    fn step(&mut self) -> Arc<FrameEvents> {
        self.inner.step();
        let thick = |p: &Pair| {
            let (a, b) = (self.inner.aabb(p.a()), self.inner.aabb(p.b()));
            match (a, b) {
                (Some(a), Some(b)) => {
                    a.max().x.min(b.max().x) - a.min().x.max(b.min().x) >= self.slack
                }
                _ => true,
            }
        };
        let pairs: Vec<Pair> = self.inner.pairs().iter().copied().filter(thick).collect();
        let mut events = FrameEvents::default();
        events.set_difference(&self.pairs, &pairs);
        self.pairs = pairs;
        self.events = Arc::new(events);
        Arc::clone(&self.events)
    }
    fn events(&self) -> &FrameEvents {
        &self.events
    }
    fn pairs(&self) -> &[Pair] {
        &self.pairs
    }
    fn stats(&self) -> StepStats {
        self.inner.stats()
    }
    fn value(&self, handle: Handle) -> Option<&u32> {
        self.inner.value(handle)
    }
    fn value_mut(&mut self, handle: Handle) -> Option<&mut u32> {
        self.inner.value_mut(handle)
    }
    fn for_each_object(
        &self,
        visit: &mut dyn FnMut(Handle, Aabb<Vec2>, &u32) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.inner.for_each_object(visit)
    }
}

fn b(x0: f32, x1: f32) -> Aabb2 {
    Aabb2::new(Vec2::new(x0, 0.0), Vec2::new(x1, 1.0)).unwrap()
}

#[test]
fn verified_reports_the_first_missed_pair_with_its_frame() {
    let mut world = Verified::new(DropsThinOverlaps {
        inner: Brute::new(),
        slack: 0.5,
        events: Arc::default(),
        pairs: Vec::new(),
    })
    .unwrap();
    let a = world.insert(b(0.0, 2.0), 1).unwrap();
    let c = world.insert(b(5.0, 6.0), 2).unwrap();
    assert!(world.step_checked().is_ok(), "frame 0 has no pair");
    world.update(c, b(1.9, 3.0)).unwrap(); // overlaps by 0.1: dropped
    let divergence = world.step_checked().unwrap_err();
    assert_eq!(divergence.frame, 1);
    assert_eq!(divergence.list, EventList::Started);
    assert_eq!(divergence.mistake, Mistake::Missed);
    assert_eq!(divergence.pair, Pair::new(a, c));
    assert_eq!(
        divergence.to_string(),
        format!(
            "frame 1: drops-thin missed the started event {} that brute force reports",
            Pair::new(a, c)
        )
    );
    // Now thick: the broken structure starts the pair a frame late, which
    // brute force does not report. That step fails too, but the first
    // divergence is kept.
    world.update(c, b(1.0, 3.0)).unwrap();
    let late = world.step_checked().unwrap_err();
    assert_eq!(
        (late.frame, late.list, late.mistake),
        (2, EventList::Started, Mistake::Invented)
    );
    assert_eq!(world.divergence(), Some(&divergence));
    assert_eq!(world.last_divergence(), Some(&late));
    // A step on which both agree is fine again.
    assert!(world.step_checked().is_ok());
    assert_eq!(world.last_divergence(), None);
}

#[test]
fn verified_refuses_a_structure_that_is_not_empty() {
    let mut inner = Brute::<Vec2, u32>::new();
    inner.insert(b(0.0, 1.0), 1).unwrap();
    let err = Verified::new(inner).unwrap_err();
    assert_eq!(err.objects, 1);
    assert!(err.to_string().contains("must start empty"));
}

#[test]
fn verified_reports_an_invented_pair() {
    /// Claims a pair that does not exist.
    struct Inventor(Brute<Vec2, ()>, FrameEvents, Vec<Pair>);
    impl Query<Vec2> for Inventor {
        fn name(&self) -> &str {
            "inventor"
        }
        fn len(&self) -> usize {
            self.0.len()
        }
        fn aabb(&self, h: Handle) -> Option<Aabb<Vec2>> {
            self.0.aabb(h)
        }
        fn query_aabb(
            &self,
            aabb: &Aabb<Vec2>,
            visit: &mut dyn FnMut(Handle) -> ControlFlow<()>,
        ) -> ControlFlow<()> {
            self.0.query_aabb(aabb, visit)
        }
    }
    impl BroadPhase<Vec2, ()> for Inventor {
        fn insert(&mut self, aabb: Aabb<Vec2>, v: ()) -> Result<Handle, Error> {
            self.0.insert(aabb, v)
        }
        fn update(&mut self, h: Handle, aabb: Aabb<Vec2>) -> Result<(), Error> {
            self.0.update(h, aabb)
        }
        fn remove(&mut self, h: Handle) -> Result<(), Error> {
            self.0.remove(h)
        }
        fn step(&mut self) -> Arc<FrameEvents> {
            self.0.step();
            let all: Vec<Handle> = self.0.query_aabb_all(&b(-1e9, 1e9));
            let previous = std::mem::take(&mut self.2);
            self.2 = all.windows(2).map(|w| Pair::new(w[0], w[1])).collect();
            self.1.set_difference(&previous, &self.2);
            Arc::new(self.1.clone())
        }
        fn events(&self) -> &FrameEvents {
            &self.1
        }
        fn pairs(&self) -> &[Pair] {
            &self.2
        }
        fn stats(&self) -> StepStats {
            self.0.stats()
        }
        fn value(&self, h: Handle) -> Option<&()> {
            self.0.value(h)
        }
        fn value_mut(&mut self, h: Handle) -> Option<&mut ()> {
            self.0.value_mut(h)
        }
        fn for_each_object(
            &self,
            visit: &mut dyn FnMut(Handle, Aabb<Vec2>, &()) -> ControlFlow<()>,
        ) -> ControlFlow<()> {
            self.0.for_each_object(visit)
        }
    }
    let mut world =
        Verified::new(Inventor(Brute::new(), FrameEvents::default(), Vec::new())).unwrap();
    let x = world.insert(b(0.0, 1.0), ()).unwrap();
    let y = world.insert(b(1.0, 2.0), ()).unwrap(); // touching: no pair
    let d = world.step_checked().unwrap_err();
    assert_eq!(
        (d.frame, d.mistake, d.pair),
        (0, Mistake::Invented, Pair::new(x, y))
    );
}

fn every_structure_2d() -> Vec<Box<dyn BroadPhase<Vec2, u32>>> {
    let mut all: Vec<Box<dyn BroadPhase<Vec2, u32>>> = Structure::ALL
        .into_iter()
        .map(|s| -> Box<dyn BroadPhase<Vec2, u32>> { s.build() })
        .collect();
    all.push(Box::new(Verified::new(Brute::<Vec2, u32>::new()).unwrap()));
    all
}

#[test]
fn stale_foreign_and_double_removed_handles_are_errors_on_every_structure() {
    for mut world in every_structure_2d() {
        let name = world.name().to_string();
        let h = world.insert(b(0.0, 1.0), 1).unwrap();
        let other = world.insert(b(0.5, 1.5), 2).unwrap();
        world.step();
        assert_eq!(world.remove(h), Ok(1));
        assert_eq!(
            world.remove(h),
            Err(Error::Handle(HandleError::Stale(h))),
            "{name}"
        );
        assert!(world.update(h, b(0.0, 1.0)).is_err(), "{name}");
        let reused = world.insert(b(3.0, 4.0), 3).unwrap();
        assert_eq!(reused.index(), h.index(), "{name}: LIFO slot reuse");
        assert_eq!(
            world.aabb(h),
            None,
            "{name}: stale handle must not see the new object"
        );
        assert_eq!(world.value(h), None, "{name}");

        let mut foreign_world = Brute::<Vec2, u32>::new();
        let foreign = foreign_world.insert(b(0.0, 1.0), 9).unwrap();
        assert!(
            matches!(
                world.update(foreign, b(0.0, 1.0)),
                Err(Error::Handle(HandleError::Foreign { .. }))
            ),
            "{name}"
        );
        assert!(world.remove(foreign).is_err(), "{name}");
        assert_eq!(world.value(foreign), None, "{name}");
        // Still consistent afterwards.
        let events = world.step().clone();
        assert_eq!(events.stopped.len(), 1, "{name}");
        assert!(events.stopped[0].contains(h) && events.stopped[0].contains(other));
        assert_eq!(world.len(), 2);
    }
}

#[test]
fn invalid_boxes_never_reach_a_structure() {
    assert!(Aabb2::new(Vec2::new(f32::NAN, 0.0), Vec2::ONE).is_err());
    assert!(Aabb2::new(Vec2::ZERO, Vec2::new(f32::INFINITY, 1.0)).is_err());
    assert!(Aabb2::new(Vec2::new(f32::NEG_INFINITY, 0.0), Vec2::ONE).is_err());
    assert!(Aabb2::new(Vec2::new(2.0, 0.0), Vec2::ONE).is_err());
    let world = Brute::<Vec3>::new();
    assert!(
        world
            .query_point_all(Vec3::new(0.0, f32::NAN, 0.0))
            .is_err()
    );
}

#[test]
fn point_and_box_queries_follow_the_overlap_rule() {
    for mut world in every_structure_2d() {
        let a = world.insert(b(0.0, 2.0), 1).unwrap();
        let c = world.insert(b(2.0, 4.0), 2).unwrap();
        let _zero = world.insert(b(1.0, 1.0), 3).unwrap();
        assert_eq!(world.query_point_all(Vec2::new(1.0, 0.5)).unwrap(), vec![a]);
        assert_eq!(world.query_point_all(Vec2::new(2.0, 0.5)).unwrap(), vec![]);
        assert_eq!(world.query_aabb_all(&b(1.5, 2.5)), vec![a, c]);
        assert!(world.query_aabb_any(&b(3.0, 3.5)));
        assert!(
            !world.query_aabb_any(&b(4.0, 5.0)),
            "touching is not overlapping"
        );
        // Early exit: the visitor stops after the first hit.
        let mut seen = 0;
        let flow = world.query_aabb(&b(-10.0, 10.0), &mut |_| {
            seen += 1;
            ControlFlow::Break(())
        });
        assert!(flow.is_break());
        assert_eq!(seen, 1);
    }
}

/// Every structure lists exactly its live objects (handle, current box,
/// value) in handle order, stops when told, and lets a value change in
/// place; a removed object's value is out of reach.
#[test]
fn every_structure_lists_its_live_objects_and_lets_values_change() {
    for structure in Structure::ALL {
        let mut world = structure.build::<Vec2, u32>();
        let mut live: Vec<(Handle, Aabb<Vec2>, u32)> = Vec::new();
        for i in 0..300u32 {
            let x = (i % 20) as f32 * 3.0;
            let y = (i / 20) as f32 * 2.5;
            let size = Vec2::new(2.0 + (i % 3) as f32, 1.0);
            let aabb = Aabb2::new(Vec2::new(x, y), Vec2::new(x, y) + size).unwrap();
            live.push((world.insert(aabb, i).unwrap(), aabb, i));
            if i == 150 {
                world.step(); // half of them before a step, half after
            }
        }
        let mut removed = Vec::new();
        for k in (0..live.len()).rev().filter(|k| k % 7 == 3) {
            let (h, _, _) = live.remove(k);
            world.remove(h).unwrap();
            removed.push(h);
        }
        for entry in live.iter_mut().step_by(5) {
            let shift = Vec2::new(40.0, 0.5);
            entry.1 = Aabb2::new(entry.1.min() + shift, entry.1.max() + shift).unwrap();
            world.update(entry.0, entry.1).unwrap();
        }
        for entry in live.iter_mut().step_by(11) {
            *world.value_mut(entry.0).unwrap() += 1000;
            entry.2 += 1000;
        }
        let mut listed = Vec::new();
        let flow = world.for_each_object(&mut |h, aabb, &v| {
            listed.push((h, aabb, v));
            ControlFlow::Continue(())
        });
        assert!(flow.is_continue());
        live.sort_by_key(|e| e.0);
        assert!(listed == live, "{structure}: listed objects differ");
        let mut seen = 0;
        let flow = world.for_each_object(&mut |_, _, _| {
            seen += 1;
            if seen == 3 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert!(flow.is_break() && seen == 3, "{structure}: stops when told");
        for h in removed {
            assert!(world.value_mut(h).is_none(), "{structure}: removed {h:?}");
        }
        world.step();
        let mut count = 0;
        let _ = world.for_each_object(&mut |_, _, _| {
            count += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(count, live.len(), "{structure}: after the step");
    }
}

/// The events a step returns are the caller's: kept past the next step they
/// stay as they were, the next step's are its own, and the world can be
/// changed while they are held.
#[test]
fn events_kept_past_the_next_step_stay_as_they_were() -> Result<(), Error> {
    for name in Structure::ALL {
        let mut world = name.build::<Vec2, u32>();
        let a = world.insert(b(0.0, 1.0), 0)?;
        let c = world.insert(b(0.5, 2.0), 1)?;
        let first = world.step();
        world.update(c, b(5.0, 6.0))?;
        let second = world.step();
        assert_eq!(first.started, vec![Pair::new(a, c)], "{name}");
        assert!(first.stopped.is_empty(), "{name}");
        assert_eq!(second.stopped, vec![Pair::new(a, c)], "{name}");
        assert!(second.started.is_empty(), "{name}");
        assert_eq!(world.events(), &*second, "{name}");
        for pair in &second.stopped {
            *world.value_mut(pair.b()).expect("live") += 10;
            world.update(pair.b(), b(0.25, 0.75))?;
        }
        drop((first, second));
        assert_eq!(world.step().started, vec![Pair::new(a, c)], "{name}");
        assert_eq!(world.value(c), Some(&11), "{name}");
    }
    Ok(())
}
