//! The transcendental functions every library crate of collide uses, the
//! same bits on every platform and build: the `libm` crate's portable
//! implementations (written in Rust from musl's, no platform library, no
//! fused multiply-add unless asked for), where `f32::sin` and its kin call
//! the platform's C library or a compiler intrinsic, whose last bit may
//! differ between machines. Lockstep and rollback games need the same
//! results everywhere, so nothing that reaches state may call those: the
//! workspace's clippy configuration refuses them in the library crates.
//!
//! The four basic operations and `sqrt` are correctly rounded by IEEE 754
//! on every platform and stay as they are. Each function here takes `f32`
//! or `f64` ([`Real`]); `powi` is exponentiation by squaring, so its
//! rounding is this module's and not the compiler's.
//!
//! ```
//! use collide::math;
//! assert_eq!(math::sin(0.0f32), 0.0);
//! assert_eq!(math::atan2(1.0f64, 1.0), std::f64::consts::FRAC_PI_4);
//! assert_eq!(math::powi(3.0f32, 4), 81.0);
//! ```

/// `f32` or `f64`: the types the functions here take.
pub trait Real: Copy + sealed::Sealed {
    #[doc(hidden)]
    fn sin_(self) -> Self;
    #[doc(hidden)]
    fn cos_(self) -> Self;
    #[doc(hidden)]
    fn tan_(self) -> Self;
    #[doc(hidden)]
    fn asin_(self) -> Self;
    #[doc(hidden)]
    fn acos_(self) -> Self;
    #[doc(hidden)]
    fn atan_(self) -> Self;
    #[doc(hidden)]
    fn atan2_(self, x: Self) -> Self;
    #[doc(hidden)]
    fn exp_(self) -> Self;
    #[doc(hidden)]
    fn ln_(self) -> Self;
    #[doc(hidden)]
    fn exp_m1_(self) -> Self;
    #[doc(hidden)]
    fn ln_1p_(self) -> Self;
    #[doc(hidden)]
    fn log2_(self) -> Self;
    #[doc(hidden)]
    fn powf_(self, n: Self) -> Self;
    #[doc(hidden)]
    fn one() -> Self;
    #[doc(hidden)]
    fn times(self, other: Self) -> Self;
    #[doc(hidden)]
    fn over(self, other: Self) -> Self;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// Each method of [`Real`] for one type, from `libm`'s functions of that
/// precision.
macro_rules! real {
    ($t:ty, $sin:ident, $cos:ident, $tan:ident, $asin:ident, $acos:ident, $atan:ident, $atan2:ident,
     $exp:ident, $ln:ident, $expm1:ident, $log1p:ident, $log2:ident, $pow:ident) => {
        impl Real for $t {
            fn sin_(self) -> Self {
                libm::$sin(self)
            }
            fn cos_(self) -> Self {
                libm::$cos(self)
            }
            fn tan_(self) -> Self {
                libm::$tan(self)
            }
            fn asin_(self) -> Self {
                libm::$asin(self)
            }
            fn acos_(self) -> Self {
                libm::$acos(self)
            }
            fn atan_(self) -> Self {
                libm::$atan(self)
            }
            fn atan2_(self, x: Self) -> Self {
                libm::$atan2(self, x)
            }
            fn exp_(self) -> Self {
                libm::$exp(self)
            }
            fn ln_(self) -> Self {
                libm::$ln(self)
            }
            fn exp_m1_(self) -> Self {
                libm::$expm1(self)
            }
            fn ln_1p_(self) -> Self {
                libm::$log1p(self)
            }
            fn log2_(self) -> Self {
                libm::$log2(self)
            }
            fn powf_(self, n: Self) -> Self {
                libm::$pow(self, n)
            }
            fn one() -> Self {
                1.0
            }
            fn times(self, other: Self) -> Self {
                self * other
            }
            fn over(self, other: Self) -> Self {
                self / other
            }
        }
    };
}

real!(
    f32, sinf, cosf, tanf, asinf, acosf, atanf, atan2f, expf, logf, expm1f, log1pf, log2f, powf
);
real!(
    f64, sin, cos, tan, asin, acos, atan, atan2, exp, log, expm1, log1p, log2, pow
);

/// The sine of `x` radians.
pub fn sin<T: Real>(x: T) -> T {
    x.sin_()
}

/// The cosine of `x` radians.
pub fn cos<T: Real>(x: T) -> T {
    x.cos_()
}

/// The tangent of `x` radians.
pub fn tan<T: Real>(x: T) -> T {
    x.tan_()
}

/// The arcsine of `x`, radians in `[-π/2, π/2]` (NaN outside `[-1, 1]`).
pub fn asin<T: Real>(x: T) -> T {
    x.asin_()
}

/// The arccosine of `x`, radians in `[0, π]` (NaN outside `[-1, 1]`).
pub fn acos<T: Real>(x: T) -> T {
    x.acos_()
}

/// The arctangent of `x`, radians in `(-π/2, π/2)`.
pub fn atan<T: Real>(x: T) -> T {
    x.atan_()
}

/// The angle of the point `(x, y)` from the x axis, radians in `[-π, π]`.
pub fn atan2<T: Real>(y: T, x: T) -> T {
    y.atan2_(x)
}

/// `e^x`.
pub fn exp<T: Real>(x: T) -> T {
    x.exp_()
}

/// The natural logarithm of `x` (NaN below 0, minus infinity at 0).
pub fn ln<T: Real>(x: T) -> T {
    x.ln_()
}

/// `e^x - 1`, exact near 0.
pub fn exp_m1<T: Real>(x: T) -> T {
    x.exp_m1_()
}

/// `ln(1 + x)`, exact near 0.
pub fn ln_1p<T: Real>(x: T) -> T {
    x.ln_1p_()
}

/// The base-2 logarithm of `x`.
pub fn log2<T: Real>(x: T) -> T {
    x.log2_()
}

/// `x` to the power `n`.
pub fn powf<T: Real>(x: T, n: T) -> T {
    x.powf_(n)
}

/// `x` to the whole power `n`, by squaring (`1 / x^-n` for a negative
/// `n`).
pub fn powi<T: Real>(x: T, n: i32) -> T {
    let (mut base, mut left, mut out) = (x, n.unsigned_abs(), T::one());
    while left > 0 {
        if left & 1 == 1 {
            out = out.times(base);
        }
        base = base.times(base);
        left >>= 1;
    }
    if n < 0 { T::one().over(out) } else { out }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powi_multiplies_and_divides() {
        assert_eq!(powi(2.0f32, 10), 1024.0);
        assert_eq!(powi(2.0f64, -3), 0.125);
        assert_eq!(powi(7.5f32, 0), 1.0);
        assert_eq!(powi(-3.0f64, 3), -27.0);
        assert!(powi(10.0f32, 39).is_infinite());
    }
}
