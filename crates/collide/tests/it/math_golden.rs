//! The bits of `collide::math` on fixed arguments, against a file that
//! recorded them: every build, CPU and optimisation level must give the
//! same bits (no platform library, no fused multiply-add behind them).
//!
//! The file is `tests/data/math_golden.txt`: a line per function and
//! precision, then the result's bits for each argument, in hex. Write it
//! afresh (after a deliberate change of the math) with
//! `COLLIDE_WRITE_GOLDEN=1 cargo test -p collide --test it math_golden`.

use collide::math;

/// Arguments per function and precision.
const COUNT: usize = 128;

/// SplitMix64: the arguments, the same on every machine.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// In `[lo, hi)`, through f64 so both precisions share it.
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next() >> 11) as f64 / (1u64 << 53) as f64)
    }
}

/// Each function with the range its arguments are drawn from; `powf`'s
/// exponent comes from [-3, 3).
fn functions() -> Vec<(&'static str, f64, f64)> {
    vec![
        ("sin", -1e4, 1e4),
        ("cos", -1e4, 1e4),
        ("tan", -1.5, 1.5),
        ("asin", -1.0, 1.0),
        ("acos", -1.0, 1.0),
        ("atan", -1e3, 1e3),
        ("atan2", -1e3, 1e3),
        ("exp_m1", -20.0, 20.0),
        ("ln_1p", -0.99, 1e3),
        ("log2", 1e-6, 1e9),
        ("powf", 1e-3, 1e3),
        ("powi", -10.0, 10.0),
        ("exp", -80.0, 80.0),
        ("ln", 1e-6, 1e9),
    ]
}

/// The lines of the record: for each function, its f32 and its f64
/// results' bits.
fn record() -> Vec<String> {
    let mut lines = Vec::new();
    for (name, lo, hi) in functions() {
        let mut mix = Mix(name.len() as u64 * 7919 + lo.to_bits());
        let mut single = Vec::new();
        let mut double = Vec::new();
        for k in 0..COUNT {
            let (x, y) = (mix.range(lo, hi), mix.range(lo, hi));
            let n = mix.range(-3.0, 3.0);
            let whole = (k as i32 % 13) - 6;
            let (xs, ys, ns) = (x as f32, y as f32, n as f32);
            let (a, b): (f32, f64) = match name {
                "sin" => (math::sin(xs), math::sin(x)),
                "cos" => (math::cos(xs), math::cos(x)),
                "tan" => (math::tan(xs), math::tan(x)),
                "asin" => (math::asin(xs), math::asin(x)),
                "acos" => (math::acos(xs), math::acos(x)),
                "atan" => (math::atan(xs), math::atan(x)),
                "atan2" => (math::atan2(ys, xs), math::atan2(y, x)),
                "exp_m1" => (math::exp_m1(xs), math::exp_m1(x)),
                "ln_1p" => (math::ln_1p(xs), math::ln_1p(x)),
                "log2" => (math::log2(xs), math::log2(x)),
                "powf" => (math::powf(xs, ns), math::powf(x, n)),
                "powi" => (math::powi(xs, whole), math::powi(x, whole)),
                "exp" => (math::exp(xs), math::exp(x)),
                "ln" => (math::ln(xs), math::ln(x)),
                _ => unreachable!("every name is listed"),
            };
            single.push(format!("{:08x}", a.to_bits()));
            double.push(format!("{:016x}", b.to_bits()));
        }
        lines.push(format!("{name} f32 {}", single.join(" ")));
        lines.push(format!("{name} f64 {}", double.join(" ")));
    }
    lines
}

#[test]
fn the_math_gives_the_recorded_bits() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/math_golden.txt");
    let now = record();
    if std::env::var_os("COLLIDE_WRITE_GOLDEN").is_some() {
        std::fs::write(path, now.join("\n") + "\n").unwrap();
        return;
    }
    let recorded = std::fs::read_to_string(path).expect("the recorded bits");
    let recorded: Vec<&str> = recorded.lines().collect();
    assert_eq!(recorded.len(), now.len(), "lines in {path}");
    for (line, (want, got)) in recorded.iter().zip(&now).enumerate() {
        if *want != got.as_str() {
            let name: Vec<&str> = got.split(' ').take(2).collect();
            let at = want
                .split(' ')
                .zip(got.split(' '))
                .position(|(w, g)| w != g)
                .unwrap_or(0);
            panic!(
                "{} differs from the record (line {}, value {}): this build's math is not the recorded one",
                name.join(" "),
                line + 1,
                at.saturating_sub(2)
            );
        }
    }
}

#[test]
fn the_functions_agree_with_the_platforms_to_an_ulp_or_two() {
    for k in 0..1000 {
        let x = (k as f64 - 500.0) * 0.0123;
        let close = |a: f64, b: f64| (a - b).abs() <= 4.0 * f64::EPSILON * a.abs().max(1.0);
        assert!(
            close(math::sin(x), x.sin()) && close(math::cos(x), x.cos()),
            "{x}"
        );
        assert!(close(math::atan2(x, 0.7), x.atan2(0.7)), "{x}");
        assert!(
            close(math::exp(x * 0.1), (x * 0.1).exp())
                && close(math::ln(x.abs() + 0.5), (x.abs() + 0.5).ln())
        );
        let small = x * 1e-3;
        assert!(
            close(math::exp_m1(small), small.exp_m1()) && close(math::ln_1p(small), small.ln_1p())
        );
    }
}
