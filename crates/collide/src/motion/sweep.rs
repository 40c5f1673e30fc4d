//! The continuous pipeline for one fast mover (a projectile along the time
//! axis): a swept bound into the broad phase, a time of impact
//! per candidate on the same snapshot, the earliest contact first (ties by
//! handle), a response, and the rest of the tick checked again, with a cap
//! on iterations and a minimum advance so no contact is processed forever.

use crate::broad::{Query, QueryBudget, QueryStats};
use crate::geometry::Region;
use crate::geometry::{Aabb, SweptAabb, Vector};
use crate::handle::Handle;
use crate::motion::VisitPiece;
use crate::narrow::general::{bounds, cast_shape, contact};
use crate::narrow::placement::Placement;
use crate::narrow::{Contact, Support};

/// What a mover does when it touches something.
///
/// ```
/// use collide::motion::Response;
/// assert_eq!(Response::default(), Response::Stop);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Response {
    /// Stop at the first contact (a bullet that embeds, a thrown rock).
    #[default]
    Stop,
    /// Lose the motion into the surface and go on along it (a character).
    Slide,
    /// Reflect the motion, keeping `restitution` (0 to 1) of its part into
    /// the surface (a grenade).
    Bounce {
        /// Share of the speed into the surface kept after the bounce, 0 to 1.
        restitution: f32,
    },
    /// Record the contact and go through (a piercing shot, a trigger):
    /// each object is reported once per sweep.
    Pass,
}

/// Limits of one sweep.
///
/// ```
/// use collide::motion::SweepLimits;
/// let limits = SweepLimits::default();
/// assert_eq!((limits.max_contacts, limits.min_advance), (8, 1e-4));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepLimits {
    /// Contacts handled in one sweep before it gives up (then
    /// [`Sweep::truncated`] says so), at least 1.
    pub max_contacts: u32,
    /// Share of the tick (0 to 1): touching an object again less than this
    /// after it was last handled ends the sweep there (motion zero)
    /// instead of handling it again (a wedge between two faces would slide
    /// the mover back and forth forever).
    pub min_advance: f32,
    /// Budget of each broad-phase query (a truncated query truncates the
    /// sweep).
    pub budget: QueryBudget,
}

impl Default for SweepLimits {
    fn default() -> Self {
        Self {
            max_contacts: 8,
            min_advance: 1e-4,
            budget: QueryBudget::default(),
        }
    }
}

/// One contact of a sweep.
///
/// ```
/// use collide::{BroadPhase, Bvh, Handle};
/// use collide::motion::{Response, SweepLimits, d2::sweep};
/// use collide::narrow::{Support, d2::{Circle, Cuboid, Pose}};
/// use glam::Vec2;
/// let wall = Cuboid::new(Vec2::new(0.5, 5.0))?;
/// let wall_at = Pose::at(Vec2::new(5.0, 0.0))?;
/// let mut world: Bvh<Vec2> = Bvh::new();
/// let id = world.insert(wall.aabb(&wall_at), ()).unwrap();
/// world.step();
/// let shape_of = |h: Handle| (h == id).then_some((&wall as &dyn Support<Vec2>, wall_at));
/// let ball = Circle::new(0.5)?;
/// let done = sweep(&world.snapshot(), shape_of, &ball, Pose::IDENTITY, Vec2::new(10.0, 0.0),
///     Response::Bounce { restitution: 0.5 }, SweepLimits::default());
/// let hit = done.hits[0];
/// assert_eq!(hit.handle, id);
/// assert!((hit.t - 0.4).abs() < 1e-4); // 4 of 10 units, at the wall's face
/// assert!((done.motion - Vec2::new(-5.0, 0.0)).length() < 1e-4); // back at half speed
/// assert!(!done.truncated);
/// # Ok::<(), collide::narrow::ShapeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepHit<V: Vector> {
    /// The object touched.
    pub handle: Handle,
    /// Its part touched: 0 for a convex object, else the compound's part
    /// or the mesh's element.
    pub part: u32,
    /// When, as a share of the tick (0 to 1).
    pub t: f32,
    /// The contact then: normal from the mover toward the object.
    pub contact: Contact<V>,
}

/// What a sweep did: the contacts in time order, where the mover ended and
/// with which motion, and whether a limit cut it short.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep<V: Vector, P> {
    /// The contacts handled, earliest first.
    pub hits: Vec<SweepHit<V>>,
    /// The mover's pose at the end of the tick (or where it stopped).
    pub end: P,
    /// The motion per tick after the responses (zero after a stop).
    pub motion: V,
    /// How far the mover moved: its end less its start, summed in f64 and
    /// rounded once. Far from the origin the end pose rounds to its
    /// coordinates' ulp (a millimetre 1e4 out); a caller that keeps its
    /// position in f64 adds this instead, and loses nothing tick by tick.
    pub moved: V,
    /// True when a limit ended the sweep early (too many contacts, a
    /// truncated broad-phase query, or a motion that would leave the f32
    /// range): the end pose is safe (no contact was passed through) but the
    /// tick is not finished.
    pub truncated: bool,
    /// The broad-phase queries' statistics, summed.
    pub stats: QueryStats,
}

impl<V: Vector, P> Sweep<V, P> {
    /// A sweep that has not moved from `at` (where a sweeper starts).
    ///
    /// ```
    /// use collide::motion::Sweep;
    /// use collide::narrow::d2::Pose;
    /// use glam::Vec2;
    /// let idle: Sweep<Vec2, Pose> = Sweep::at_rest(Pose::IDENTITY);
    /// assert!(idle.hits.is_empty() && idle.motion == Vec2::ZERO);
    /// ```
    pub fn at_rest(at: P) -> Self {
        Sweep {
            hits: Vec::new(),
            end: at,
            motion: V::from_axes(|_| 0.0),
            moved: V::from_axes(|_| 0.0),
            truncated: false,
            stats: QueryStats::default(),
        }
    }
}

/// The memory a sweep reuses from call to call (its candidate and
/// passed-object lists), so that a warm sweep allocates nothing; the
/// sweepers keep one each.
#[derive(Clone, Debug, Default)]
pub struct SweepScratch {
    candidates: Vec<Handle>,
    passed: Vec<Handle>,
}

/// The pipeline, once for 2D and 3D, on fresh memory.
pub(crate) fn sweep<'a, L: Placement>(
    world: &(impl Query<L::V> + ?Sized),
    shape_of: impl Fn(Handle) -> Option<(&'a dyn Support<L::V>, L)>,
    mover: &dyn Support<L::V>,
    start: L,
    motion: L::V,
    response: Response,
    limits: SweepLimits,
) -> Sweep<L::V, L> {
    let mut out = Sweep::at_rest(start);
    let moving = Moving {
        mover,
        start,
        motion,
        response,
        limits,
    };
    sweep_into(
        world,
        pieces_of(shape_of),
        moving,
        &mut SweepScratch::default(),
        &mut out,
    );
    out
}

/// What [`sweep_into`] reads of the objects: `pieces(h, near, visit)`
/// gives each convex piece of object `h` whose box may meet `near`.
pub(crate) trait Pieces<L: Placement>:
    Fn(Handle, &Aabb<L::V>, &mut VisitPiece<'_, L::V, L>)
{
}

impl<L: Placement, F: Fn(Handle, &Aabb<L::V>, &mut VisitPiece<'_, L::V, L>)> Pieces<L> for F {}

/// The pieces of each object (see [`sweep_into`]) when each is the one
/// shape `shape_of` gives.
pub(crate) fn pieces_of<'a, L: Placement>(
    shape_of: impl Fn(Handle) -> Option<(&'a dyn Support<L::V>, L)>,
) -> impl Pieces<L> {
    move |h, _, visit| {
        if let Some((shape, pose)) = shape_of(h) {
            visit(0, shape, pose);
        }
    }
}

/// One sweep's mover and what it does, gathered for [`sweep_into`].
#[derive(Clone, Copy)]
pub(crate) struct Moving<'m, L: Placement> {
    pub(crate) mover: &'m dyn Support<L::V>,
    pub(crate) start: L,
    pub(crate) motion: L::V,
    pub(crate) response: Response,
    pub(crate) limits: SweepLimits,
}

/// The pipeline, writing into `out` (its hit list reused) with `scratch`'s
/// lists. `pieces(h, near, visit)` gives each convex piece of object `h`
/// whose box may meet `near`, with its number and pose.
pub(crate) fn sweep_into<L: Placement>(
    world: &(impl Query<L::V> + ?Sized),
    pieces: impl Pieces<L>,
    moving: Moving<'_, L>,
    scratch: &mut SweepScratch,
    out: &mut Sweep<L::V, L>,
) {
    let Moving {
        mover,
        start,
        motion,
        response,
        limits,
    } = moving;
    let dim = L::V::DIM;
    let dot = |a: L::V, b: L::V| (0..dim).map(|k| a.axis(k) * b.axis(k)).sum::<f32>();
    let scaled = |a: L::V, s: f32| L::V::from_axes(|k| a.axis(k) * s);
    let zero = L::V::from_axes(|_| 0.0);
    // `v` less its part into a contact of normal `n`.
    let slide = |v: L::V, n: L::V| {
        let into = dot(v, n).max(0.0);
        L::V::from_axes(|k| v.axis(k) - n.axis(k) * into)
    };
    out.hits.clear();
    out.end = start;
    out.motion = motion;
    out.moved = zero;
    // The displacement so far, in f64 (see `Sweep::moved`).
    let mut travel = [0.0f64; 3];
    let mut add = |out: &mut Sweep<L::V, L>, by: L::V| {
        for (k, m) in travel.iter_mut().enumerate().take(dim) {
            *m += f64::from(by.axis(k));
        }
        out.moved = L::V::from_axes(|k| travel[k] as f32);
    };
    out.truncated = false;
    out.stats = QueryStats::default();
    let mut velocity = motion;
    let mut time = 0.0f32;
    let SweepScratch { candidates, passed } = scratch;
    passed.clear();
    for _ in 0..limits.max_contacts.max(1) {
        let left = 1.0 - time;
        let step = scaled(velocity, left);
        if left <= 0.0 || (0..dim).all(|k| step.axis(k) == 0.0) {
            return;
        }
        // The mover's bounds at `end`, widened beyond the casts' tolerance
        // for a step of length `length` (saturated at the ends of the f32
        // range), and its size.
        let widen = |end: &L, length: f32| {
            let b = bounds(mover, end);
            let size = (0..dim)
                .map(|k| b.max().axis(k) - b.min().axis(k))
                .fold(0.0f32, f32::max);
            let margin = 1e-3 * (size + length) + f32::MIN_POSITIVE;
            let widened = Aabb::new(
                L::V::from_axes(|k| (b.min().axis(k) - margin).max(f32::MIN)),
                L::V::from_axes(|k| (b.max().axis(k) + margin).min(f32::MAX)),
            )
            .unwrap_or(b);
            (widened, size)
        };
        // The objects whose boxes `region` meets, by handle (the order of
        // `query_region_all`), into `candidates`; false when the budget cut
        // the query short.
        let gather =
            |region: &dyn Region<L::V>, candidates: &mut Vec<Handle>, out: &mut Sweep<L::V, L>| {
                candidates.clear();
                let stats = world.query_region(region, limits.budget, &mut |h| {
                    candidates.push(h);
                    std::ops::ControlFlow::Continue(())
                });
                candidates.sort_unstable();
                out.stats.visited += stats.visited;
                out.stats.tested += stats.tested;
                out.stats.hits += stats.hits;
                if stats.truncated {
                    out.stats.truncated = true;
                    out.truncated = true;
                }
                !stats.truncated
            };
        if response == Response::Slide && time == 0.0 {
            // A slider in contact moves along the contact, and rounding
            // (of its position, more the farther from the origin, and of
            // the slide's direction) leaves it a little deeper each tick,
            // which no cast sees. At the tick's start (later legs start
            // where a cast stopped, short of the contact): out of anything
            // it is deeper in than the casts' tolerance, along the
            // contact's normal, and no longer moving into it. The step's
            // candidates are gathered after, along the new direction.
            let length = dot(step, step).sqrt();
            let (widened, size) = widen(&out.end, length);
            if !gather(&widened, candidates, out) {
                return;
            }
            let allowed = 0.5e-5 * size.max(length);
            for &h in candidates.iter() {
                pieces(h, &widened, &mut |_, shape, pose| {
                    let touch = contact(mover, &out.end, shape, &pose);
                    if touch.depth > allowed && touch.depth.is_finite() {
                        let n = touch.normal;
                        if let Some(end) = moved(&out.end, scaled(n, -touch.depth)) {
                            out.end = end;
                            add(out, scaled(n, -touch.depth));
                        }
                        velocity = slide(velocity, n);
                        out.motion = velocity;
                    }
                });
            }
        }
        let step = scaled(velocity, left);
        if (0..dim).all(|k| step.axis(k) == 0.0) {
            return;
        }
        // Candidates: the objects the mover's bounds touch along the step.
        let (widened, _) = widen(&out.end, dot(step, step).sqrt());
        let Ok(swept) = SweptAabb::new(widened, step) else {
            // A motion beyond the f32 range (a bounce that overflowed): the
            // tick cannot be checked, and the sweep says so.
            out.truncated = true;
            return;
        };
        if !gather(&swept, candidates, out) {
            return;
        }
        // The earliest contact; ties by handle, then part.
        let mut earliest: Option<(f32, Handle, u32, Contact<L::V>)> = None;
        // Where the pieces may lie: the step's box (all of space past the
        // f32 range, where it has none).
        let path = swept.bounds().unwrap_or_else(|| {
            Aabb::new(L::V::from_axes(|_| f32::MIN), L::V::from_axes(|_| f32::MAX))
                .expect("the f32 range is a box")
        });
        for &h in candidates.iter() {
            if passed.contains(&h) {
                continue;
            }
            pieces(h, &path, &mut |part, shape, pose| {
                if let Some(hit) = cast_shape(mover, &out.end, step, shape, &pose, zero) {
                    if earliest.is_none_or(|(t, e, p, _)| (hit.t, h, part) < (t, e, p)) {
                        earliest = Some((hit.t, h, part, hit.contact));
                    }
                }
            });
        }
        let Some((s, handle, part, contact)) = earliest else {
            match moved(&out.end, step) {
                Some(end) => {
                    out.end = end;
                    add(out, step);
                }
                // The end lies beyond the f32 range: say so, stay put.
                None => out.truncated = true,
            }
            return;
        };
        let advance = s * left;
        // Touched again with (almost) no time since it was last handled,
        // with or without others in between (a wedge between two faces).
        let repeat = advance < limits.min_advance
            && out
                .hits
                .iter()
                .rev()
                .take_while(|hit| time + advance - hit.t < limits.min_advance)
                .any(|hit| (hit.handle, hit.part) == (handle, part));
        let Some(end) = moved(&out.end, scaled(step, s)) else {
            out.truncated = true;
            return;
        };
        out.end = end;
        add(out, scaled(step, s));
        time += advance;
        out.hits.push(SweepHit {
            handle,
            part,
            t: time,
            contact,
        });
        if repeat {
            // The same contact again without progress: stop here.
            out.motion = zero;
            return;
        }
        let n = contact.normal;
        let into = dot(velocity, n);
        velocity = match response {
            Response::Stop => zero,
            Response::Slide => slide(velocity, n),
            Response::Bounce { restitution } => {
                let keep = 1.0 + restitution.clamp(0.0, 1.0);
                L::V::from_axes(|k| velocity.axis(k) - n.axis(k) * keep * into.max(0.0))
            }
            Response::Pass => {
                passed.push(handle);
                velocity
            }
        };
        out.motion = velocity;
        if response == Response::Stop {
            return;
        }
    }
    // The cap ended it, unless nothing was left to move.
    out.truncated = time < 1.0 && (0..dim).any(|k| velocity.axis(k) != 0.0);
}

/// `pose` moved by `by`, or `None` when that leaves the f32 range.
fn moved<L: Placement>(pose: &L, by: L::V) -> Option<L> {
    let p = pose.position();
    let to = L::V::from_axes(|k| p.axis(k) + by.axis(k));
    (0..L::V::DIM)
        .all(|k| to.axis(k).is_finite())
        .then(|| pose.with_position(to))
}
