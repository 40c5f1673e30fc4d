//! Seeded random numbers for the library's unit tests: fastrand's
//! generator, with the few helpers the tests use.

/// A seeded generator; equal seeds give equal streams.
pub(crate) struct TestRng(fastrand::Rng);

impl TestRng {
    pub(crate) fn new(seed: u64) -> Self {
        Self(fastrand::Rng::with_seed(seed))
    }

    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0.u64(..)
    }

    /// Uniform in `[0, 1)`.
    pub(crate) fn unit(&mut self) -> f32 {
        self.0.f32()
    }

    /// Uniform in `[lo, hi]` (`hi` only by rounding).
    pub(crate) fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    /// A random point of the square [-1, 1)^2.
    pub(crate) fn in_square(&mut self) -> glam::Vec2 {
        glam::Vec2::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0))
    }

    /// Uniform integer in `[0, n)`; `n > 0`.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0.usize(..n)
    }

    /// A standard normal sample (Box-Muller).
    pub(crate) fn normal(&mut self) -> f32 {
        let u1 = 1.0 - self.unit(); // in (0, 1], so ln is finite
        let u2 = self.unit();
        (-2.0 * crate::math::ln(u1)).sqrt() * crate::math::cos(std::f32::consts::TAU * u2)
    }
}
