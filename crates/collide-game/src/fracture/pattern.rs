//! Patterns of sites for Voronoi fracture: where an object breaks into
//! small pieces and where into large ones. A pattern is made once around
//! the origin and placed (rotated, moved) at each impact.

use crate::error::{GameError, positive};
use collide::glam::DVec2;
use collide::math;

/// A reusable set of sites around the origin.
///
/// ```
/// use collide_game::fracture::Pattern;
/// use collide_game::glam::DVec2;
/// let pattern = Pattern::radial(40, 2.0, 2.0, 7)?;
/// assert_eq!(pattern.sites().len(), 40);
/// // Placed at an impact, turned a quarter.
/// let sites = pattern.placed(DVec2::new(5.0, 1.0), std::f64::consts::FRAC_PI_2);
/// assert!(sites.iter().all(|s| s.distance(DVec2::new(5.0, 1.0)) <= 2.0 + 1e-12));
/// # Ok::<(), collide_game::GameError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Pattern {
    sites: Vec<DVec2>,
}

/// SplitMix64, for patterns that are the same on every machine.
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
}

impl Pattern {
    /// The sites given (finite), for patterns made by hand.
    pub fn new(sites: Vec<DVec2>) -> Result<Self, GameError> {
        for s in &sites {
            crate::error::finite("site coordinate", s.x)?;
            crate::error::finite("site coordinate", s.y)?;
        }
        Ok(Self { sites })
    }

    /// `count` sites spread uniformly over a square of half side `half`.
    pub fn uniform(count: usize, half: f64, seed: u64) -> Result<Self, GameError> {
        positive("pattern half side", half)?;
        let mut rng = Rng(seed);
        let sites = (0..count)
            .map(|_| DVec2::new(rng.unit() * 2.0 - 1.0, rng.unit() * 2.0 - 1.0) * half)
            .collect();
        Ok(Self { sites })
    }

    /// `count` sites within `radius` of the origin, denser near it: a
    /// site's distance is `radius * u^falloff` for `u` uniform in [0, 1]
    /// (1 spreads them evenly along the radius; 2 and more crowd the
    /// centre, where the impact is).
    pub fn radial(count: usize, radius: f64, falloff: f64, seed: u64) -> Result<Self, GameError> {
        positive("pattern radius", radius)?;
        positive("pattern falloff", falloff)?;
        let mut rng = Rng(seed);
        let sites = (0..count)
            .map(|_| {
                let r = radius * math::powf(rng.unit(), falloff);
                let angle = rng.unit() * std::f64::consts::TAU;
                DVec2::new(math::cos(angle), math::sin(angle)) * r
            })
            .collect();
        Ok(Self { sites })
    }

    /// `clusters` clusters of `each` sites: cluster centres uniform within
    /// `radius` of the origin, sites uniform within `spread` of them.
    pub fn clustered(
        clusters: usize,
        each: usize,
        radius: f64,
        spread: f64,
        seed: u64,
    ) -> Result<Self, GameError> {
        positive("pattern radius", radius)?;
        positive("cluster spread", spread)?;
        let mut rng = Rng(seed);
        let disc = |rng: &mut Rng, r: f64| {
            let (d, a) = (r * rng.unit().sqrt(), rng.unit() * std::f64::consts::TAU);
            DVec2::new(math::cos(a), math::sin(a)) * d
        };
        let mut sites = Vec::with_capacity(clusters * each);
        for _ in 0..clusters {
            let centre = disc(&mut rng, radius);
            for _ in 0..each {
                sites.push(centre + disc(&mut rng, spread));
            }
        }
        Ok(Self { sites })
    }

    /// The sites, around the origin.
    pub fn sites(&self) -> &[DVec2] {
        &self.sites
    }

    /// The sites turned by `angle` (radians, counter-clockwise) and moved
    /// to `at`.
    pub fn placed(&self, at: DVec2, angle: f64) -> Vec<DVec2> {
        let turn = DVec2::from_angle(angle);
        self.sites.iter().map(|&s| at + turn.rotate(s)).collect()
    }
}
