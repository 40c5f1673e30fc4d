//! Sweep-and-prune settings and statistics.

use crate::error::Error;

/// How objects that span the world (floors, walls) are told apart. An
/// object far longer than the others along the sweep axis would meet
/// everything in every sweep or scan; such objects live in a
/// separate list instead, tested against everyone through an index sorted
/// on the axis where each is thinnest. (Along the other axes a long object
/// costs a sweep nothing, so a floor is a spanner only when the sweep runs
/// along it.)
///
/// ```
/// use collide::{BandSap, SapConfig, Spanners};
/// use glam::Vec2;
/// let config = SapConfig { spanners: Spanners::Extent(500.0), ..SapConfig::default() };
/// let sap: BandSap<Vec2> = BandSap::with_config(config)?;
/// assert_eq!(sap.config().spanners, Spanners::Extent(500.0));
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Spanners {
    /// An object spans the world when its extent along the sweep axis
    /// exceeds `factor` times the median extent along it (measured with the
    /// axis variances).
    Relative {
        /// Multiple of the median extent, `> 1`.
        factor: f32,
    },
    /// An object spans the world when its extent along the sweep axis
    /// exceeds this many world units (`> 0`).
    Extent(f32),
    /// No separate list: every object sits in the sorted axes.
    Off,
}

/// Settings of a sweep-and-prune ([`Sap`](crate::Sap) and
/// [`BandSap`](crate::BandSap)). See [`SapConfig::default`].
///
/// ```
/// use collide::{BandSap, SapConfig};
/// use glam::Vec2;
/// // Force the sweep axis to y (for example to show what a bad axis costs).
/// let config = SapConfig { sweep_axis: Some(1), ..SapConfig::default() };
/// let sap: BandSap<Vec2> = BandSap::with_config(config)?;
/// assert_eq!(sap.sweep_axis(), 1);
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SapConfig {
    /// The axis scanned for candidates (`sap1`) and swept in full sweeps
    /// (`sap`): `None` picks the axis with the largest variance of
    /// centres, unless the objects spanning the world across it (see
    /// [`spanners`](Self::spanners)) are more than twice those across
    /// another axis: then that one, along which they are listed apart
    /// (floors across the sweep axis would sit in every band of `sap1`).
    /// Measured again every [`remeasure_every`](Self::remeasure_every)
    /// steps. `Some` fixes it (`< D`).
    pub sweep_axis: Option<usize>,
    /// Steps between two measurements of the axis variances and of the
    /// typical object size, `>= 1`. Switching `sap1`'s axis costs one sort.
    pub remeasure_every: u32,
    /// Which objects live in the separate world-spanning list.
    pub spanners: Spanners,
}

impl Default for SapConfig {
    /// Variance-chosen axis, measured every 60 steps (once a second at 60
    /// Hz); spanners beyond 16 times the median size.
    fn default() -> Self {
        Self {
            sweep_axis: None,
            remeasure_every: 60,
            spanners: Spanners::Relative { factor: 16.0 },
        }
    }
}

impl SapConfig {
    /// Checks every setting for dimension `dim`.
    pub(crate) fn validate(&self, dim: usize) -> Result<(), Error> {
        if let Some(axis) = self.sweep_axis {
            if axis >= dim {
                return Err(Error::Setting {
                    name: "sweep_axis",
                    value: axis as f64,
                    expected: "an axis index below the dimension (0 = x, 1 = y, 2 = z)",
                });
            }
        }
        if self.remeasure_every == 0 {
            return Err(Error::Setting {
                name: "remeasure_every",
                value: 0.0,
                expected: "at least 1 step",
            });
        }
        match self.spanners {
            Spanners::Relative { factor } if !(factor.is_finite() && factor > 1.0) => {
                Err(Error::Setting {
                    name: "spanners.factor",
                    value: f64::from(factor),
                    expected: "a finite multiple of the median size above 1",
                })
            }
            Spanners::Extent(extent) if !(extent.is_finite() && extent > 0.0) => {
                Err(Error::Setting {
                    name: "spanners.extent",
                    value: f64::from(extent),
                    expected: "a finite number of world units above 0",
                })
            }
            _ => Ok(()),
        }
    }
}

/// What a sweep-and-prune did in its last step, beyond [`StepStats`]
/// (`sap.sap_stats()`). `sap` is [`Sap`](crate::Sap), `sap1`
/// [`BandSap`](crate::BandSap).
///
/// [`StepStats`]: crate::StepStats
///
/// ```
/// use collide::{Aabb2, BroadPhase, Sap};
/// use glam::Vec2;
/// let mut sap: Sap<Vec2> = Sap::new();
/// let a = sap.insert(Aabb2::new(Vec2::ZERO, Vec2::ONE)?, ())?;
/// sap.insert(Aabb2::new(Vec2::splat(3.0), Vec2::splat(4.0))?, ())?;
/// sap.step(); // the first step sorts from scratch
/// assert_eq!(sap.sap_stats().resorts, 1);
/// sap.update(a, Aabb2::new(Vec2::splat(2.5), Vec2::splat(3.5))?)?;
/// sap.step(); // on each axis b's start passes a's end: they overlap
/// let stats = sap.sap_stats();
/// assert_eq!(stats.resorts, 0);
/// assert_eq!(stats.swaps, [1, 1, 0]); // one swap per axis
/// assert_eq!(stats.axis_overlaps_started, 2);
/// # Ok::<(), collide::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SapStats {
    /// Endpoint swaps made by the insertion sort, per axis (x, y, z; unused
    /// axes 0). `sap1` keeps only the mins, one key per object and band.
    pub swaps: [u64; 3],
    /// `sap`: swaps where a start passed an end, so two intervals began to
    /// overlap on that axis (each is followed by a full box test). 0 for
    /// `sap1`, which keeps no ends.
    pub axis_overlaps_started: u64,
    /// `sap`: swaps where an end passed a start, so two intervals stopped
    /// overlapping. 0 for `sap1`.
    pub axis_overlaps_ended: u64,
    /// Full re-sorts from scratch this step (the first step, a change of
    /// axis, mass inserts, or motion so incoherent that the swaps would
    /// cost more than a sort).
    pub resorts: u32,
    /// Candidate pairs given a box test by a sweep or a scan of every band
    /// (`sap1`: every step that is not coherent; `sap`: only during full
    /// sweeps and for new objects).
    pub sweep_candidates: u64,
    /// The axis used for sweeps.
    pub sweep_axis: usize,
    /// Bands `sap1` cuts the world into across the sweep axis, each scanned
    /// on its own (1 for `sap`, and for `sap1` in a world too narrow to
    /// cut).
    pub bands: u32,
    /// Variance of the object centres per axis at the last measurement
    /// (world units squared; unused axes 0).
    pub variance: [f64; 3],
    /// Objects in the world-spanning list.
    pub spanners: usize,
    /// Objects re-inserted because they jumped far (teleports).
    pub jumps: u64,
    /// `sap1`: objects whose box changed since the last step, or that
    /// entered the bands (spanners not counted).
    pub moved: u64,
    /// `sap1`: true when this step kept the pairs of the objects that did
    /// not move and found only the movers' pairs, by a short scan around
    /// their keys (false: a scan of every band).
    pub coherent: bool,
    /// `sap1`: true when this step found the spanners' pair changes from
    /// the moves alone (no spanner changed and no object entered or left
    /// since the last step, which changed few pairs), not every spanner
    /// pair again.
    pub spanners_from_moves: bool,
}
