//! Where the rope sticks: candidate points on the faces of the boxes
//! around buildings, scored by the wished direction, the rope's length and
//! its angle, the best confirmed by one ray.

use crate::Surroundings;
use crate::dim::{Dim, dot, length};
use crate::error::{GameError, finite_vector, non_negative, positive};
use crate::level::{exact_box, first_hit};
use collide::geometry::Vector;
use collide::math;
use collide::{Aabb, Handle};

/// The rules of the anchor choice, validated once.
///
/// ```
/// use collide_game::swing::AnchorSettings;
/// let settings = AnchorSettings::new(4.0, 30.0)?.with_spacing(1.5)?;
/// assert_eq!(settings.spacing(), 1.5);
/// assert!(AnchorSettings::new(10.0, 5.0).is_err()); // longest below shortest
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnchorSettings {
    min_length: f32,
    max_length: f32,
    preferred_length: f32,
    preferred_elevation: f32,
    min_elevation: f32,
    spacing: f32,
    roof_lift: f32,
}

impl AnchorSettings {
    /// Ropes from `min_length` to `max_length` metres (above zero, in that
    /// order), with the defaults: a preferred length halfway, a preferred
    /// angle of 50 degrees above the horizontal and none below 20,
    /// candidates every 2 m on a face, and pivots on a roof line lifted
    /// 2 m above it.
    pub fn new(min_length: f32, max_length: f32) -> Result<Self, GameError> {
        let min_length = positive("shortest anchor rope (m)", f64::from(min_length))? as f32;
        let max_length = positive("longest anchor rope (m)", f64::from(max_length))? as f32;
        if max_length < min_length {
            return Err(GameError::Negative {
                what: "longest minus shortest anchor rope (m)",
                value: f64::from(max_length - min_length),
            });
        }
        if max_length > MAX_ROPE {
            return Err(GameError::TooLarge {
                what: "longest anchor rope (m)",
                value: f64::from(max_length),
                limit: f64::from(MAX_ROPE),
            });
        }
        let spacing = (max_length / MAX_STEPS).max(2.0);
        Ok(Self {
            min_length,
            max_length,
            preferred_length: 0.5 * (min_length + max_length),
            preferred_elevation: 50f32.to_radians(),
            min_elevation: 20f32.to_radians(),
            spacing,
            roof_lift: 2.0,
        })
    }

    /// Metres between candidate points on a face: above zero, and at
    /// least the longest rope over 200 (a face gets at most 400 by 400
    /// candidates).
    pub fn with_spacing(mut self, metres: f32) -> Result<Self, GameError> {
        let metres = positive("anchor spacing (m)", f64::from(metres))? as f32;
        let least = self.max_length / MAX_STEPS;
        if metres < least {
            return Err(GameError::NotPositive {
                what: "anchor spacing minus the longest rope over 200 (m)",
                value: f64::from(metres - least),
            });
        }
        self.spacing = metres;
        Ok(self)
    }

    /// How far above a roof line (metres, 0 or more) the simulated pivot
    /// of a point on it may sit.
    pub fn with_roof_lift(mut self, metres: f32) -> Result<Self, GameError> {
        self.roof_lift = non_negative("roof lift (m)", f64::from(metres))? as f32;
        Ok(self)
    }

    /// The rope's preferred angle above the horizontal and the least it
    /// may have, in degrees (0 to 90, the least not above the preferred).
    pub fn with_elevation_degrees(mut self, preferred: f32, least: f32) -> Result<Self, GameError> {
        let preferred = non_negative("preferred rope angle (degrees)", f64::from(preferred))?;
        let least = non_negative("least rope angle (degrees)", f64::from(least))?;
        if preferred > 90.0 || least > preferred {
            return Err(GameError::Negative {
                what: "preferred rope angle minus the least, within 90 degrees",
                value: (preferred - least).min(90.0 - preferred),
            });
        }
        self.preferred_elevation = (preferred as f32).to_radians();
        self.min_elevation = (least as f32).to_radians();
        Ok(self)
    }

    /// Metres between candidates on a face.
    pub fn spacing(&self) -> f32 {
        self.spacing
    }

    /// The rope lengths allowed, metres.
    pub fn lengths(&self) -> (f32, f32) {
        (self.min_length, self.max_length)
    }

    /// The lift of pivots on a roof line, metres.
    pub fn roof_lift(&self) -> f32 {
        self.roof_lift
    }
}

/// The longest rope an anchor search takes, metres.
const MAX_ROPE: f32 = 10_000.0;

/// The most spacings in a rope's length: candidates per face stay under
/// about (2 x 200) squared.
const MAX_STEPS: f32 = 200.0;

/// A chosen anchor.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Anchor<D: Dim> {
    point: D::V,
    pivot: D::V,
    length: f32,
    building: Handle,
    score: f32,
}

impl<D: Dim> Anchor<D> {
    /// Where the rope is drawn stuck: where the confirming ray met the
    /// building.
    pub fn point(&self) -> D::V {
        self.point
    }

    /// The pivot to simulate: the point, or above it for a roof line.
    pub fn pivot(&self) -> D::V {
        self.pivot
    }

    /// The rope's length from the body to the pivot, metres.
    pub fn length(&self) -> f32 {
        self.length
    }

    /// The building it sticks to.
    pub fn building(&self) -> Handle {
        self.building
    }

    /// Its score (higher is better): twice the cosine between the wished
    /// direction and the way to it, plus how near its length and angle
    /// are to the preferred ones (each 1 at best).
    pub fn score(&self) -> f32 {
        self.score
    }
}

/// One candidate: the point on a face, the face's outward normal, whether
/// it is on the roof line, its building and its score.
#[derive(Clone, Copy)]
struct Candidate<V> {
    point: V,
    normal: V,
    roof: bool,
    building: Handle,
    score: f32,
}

/// The best anchor for a body at `position` wishing to go along `wish`
/// (zero for no wish): candidates on the faces, facing the body, of every
/// object's box within the longest rope (`around.objects`' boxes are the
/// boxes around buildings), scored, and the best confirmed by one ray
/// against the exact shapes. `None` when no candidate qualifies or the
/// ray to the best meets something else first.
pub fn choose_anchor<D: Dim>(
    position: D::V,
    wish: D::V,
    settings: &AnchorSettings,
    around: &Surroundings<'_, D>,
) -> Result<Option<Anchor<D>>, GameError> {
    finite_vector("anchor search position", position)?;
    finite_vector("anchor search wish", wish)?;
    let reach = D::V::from_axes(|_| settings.max_length);
    let Ok(area) = Aabb::new(position - reach, position + reach) else {
        return Ok(None);
    };
    let flat_wish = wish - D::UP * dot(wish, D::UP);
    let wish_dir = (length(flat_wish) > 1e-6).then(|| flat_wish * (1.0 / length(flat_wish)));
    let mut best: Option<Candidate<D::V>> = None;
    // Visited as the broad phase finds them (no list kept); ties go to the
    // lower handle, so the order does not matter.
    let _ = around.level.query_aabb(&area, &mut |building| {
        let Some(aabb) = exact_box::<D>(around.level, building, &area) else {
            return std::ops::ControlFlow::Continue(());
        };
        each_candidate::<D>(&aabb, position, settings, &mut |point, normal, roof| {
            let pivot = if roof {
                point + D::UP * settings.roof_lift
            } else {
                point
            };
            let Some(score) = score::<D>(position, pivot, wish_dir, settings) else {
                return;
            };
            let better =
                best.is_none_or(|b| score > b.score || (score == b.score && building < b.building));
            if better {
                best = Some(Candidate {
                    point,
                    normal,
                    roof,
                    building,
                    score,
                });
            }
        });
        std::ops::ControlFlow::Continue(())
    });
    let Some(best) = best else {
        return Ok(None);
    };
    // The ray aims just inside the face (and under the roof line), so it
    // meets the building rather than grazing its edge.
    let inset = 0.05 * settings.spacing.min(1.0);
    let mut aim = best.point - best.normal * inset;
    if best.roof {
        aim = aim - D::UP * inset;
    }
    let to = aim - position;
    let distance = length(to);
    if distance <= 1e-6 {
        return Ok(None);
    }
    let hit = first_hit::<D>(
        around.level,
        &|_| false,
        position,
        to * (1.0 / distance),
        distance + settings.spacing,
    );
    let Some((handle, t, _)) = hit else {
        return Ok(None);
    };
    let point = position + to * (t / distance);
    if handle != best.building || length(point - best.point) > settings.spacing {
        return Ok(None);
    }
    let pivot = if best.roof {
        point + D::UP * settings.roof_lift
    } else {
        point
    };
    Ok(Some(Anchor {
        point,
        pivot,
        length: length(pivot - position),
        building: best.building,
        score: best.score,
    }))
}

/// The candidate's score, or `None` when its rope is too short, too long
/// or too flat.
fn score<D: Dim>(
    position: D::V,
    pivot: D::V,
    wish: Option<D::V>,
    settings: &AnchorSettings,
) -> Option<f32> {
    let rope = pivot - position;
    let l = length(rope);
    if l < settings.min_length || l > settings.max_length {
        return None;
    }
    let elevation = math::asin((dot(rope, D::UP) / l).clamp(-1.0, 1.0));
    if elevation < settings.min_elevation {
        return None;
    }
    let flat = rope - D::UP * dot(rope, D::UP);
    let direction = match wish {
        Some(w) if length(flat) > 1e-6 => dot(flat, w) / length(flat),
        _ => 0.0,
    };
    let near_length = 1.0 - (l - settings.preferred_length).abs() / settings.max_length;
    let near_angle =
        1.0 - (elevation - settings.preferred_elevation).abs() / std::f32::consts::FRAC_PI_2;
    Some(2.0 * direction + near_length + near_angle)
}

/// Calls `visit(point, outward normal, on the roof line)` for the points
/// every `spacing` on the box's side faces (normals across the up axis)
/// that face `position`, within the longest rope of it.
fn each_candidate<D: Dim>(
    aabb: &Aabb<D::V>,
    position: D::V,
    settings: &AnchorSettings,
    visit: &mut dyn FnMut(D::V, D::V, bool),
) {
    const UP_AXIS: usize = 1;
    let (lo, hi) = (aabb.min(), aabb.max());
    let dim = <D::V as Vector>::DIM;
    let reach = settings.max_length;
    for axis in (0..dim).filter(|&a| a != UP_AXIS) {
        for (plane, sign) in [(lo.axis(axis), -1.0f32), (hi.axis(axis), 1.0)] {
            // Only faces whose outside holds the body.
            if (position.axis(axis) - plane) * sign <= 0.0 {
                continue;
            }
            let normal = D::V::from_axes(|k| if k == axis { sign } else { 0.0 });
            // The other side axis (3D) and the up axis, each as the steps
            // within reach of the body, from the top down for up.
            let other = (0..dim).find(|&k| k != axis && k != UP_AXIS);
            let span = |k: usize| {
                let from = lo.axis(k).max(position.axis(k) - reach);
                let to = hi.axis(k).min(position.axis(k) + reach);
                (from, to)
            };
            let (up_from, up_to) = span(UP_AXIS);
            if up_from > up_to {
                continue;
            }
            let rows = ((up_to - up_from) / settings.spacing).floor() as usize;
            // Columns evenly from one end to the other (one, in 2D).
            let (from, to, n) = match other {
                Some(k) => {
                    let (from, to) = span(k);
                    if from > to {
                        continue;
                    }
                    (
                        from,
                        to,
                        ((to - from) / settings.spacing).ceil().max(1.0) as usize,
                    )
                }
                None => (0.0, 0.0, 0),
            };
            for row in 0..=rows {
                let y = up_to - row as f32 * settings.spacing;
                let roof = row == 0 && up_to == hi.axis(UP_AXIS);
                for i in 0..=n {
                    let c = if n == 0 {
                        from
                    } else {
                        from + (to - from) * i as f32 / n as f32
                    };
                    let point = D::V::from_axes(|k| {
                        if k == axis {
                            plane
                        } else if k == UP_AXIS {
                            y
                        } else {
                            c
                        }
                    });
                    visit(point, normal, roof);
                }
            }
        }
    }
}
