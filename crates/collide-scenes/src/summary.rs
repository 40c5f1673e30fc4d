//! Summaries of measured samples (frame times and the like), shared by the
//! command and the benchmark so that both report the same figures.

/// The arithmetic mean, 0 for no values.
///
/// ```
/// assert_eq!(collide_scenes::mean(&[1.0, 2.0, 6.0]), 3.0);
/// assert_eq!(collide_scenes::mean(&[]), 0.0);
/// ```
pub fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

/// The `q` quantile (nearest rank, `q` in [0, 1]) of `values`, 0 for no
/// values.
///
/// ```
/// let times = [5.0, 1.0, 4.0, 2.0, 3.0];
/// assert_eq!(collide_scenes::percentile(&times, 0.5), 3.0);
/// assert_eq!(collide_scenes::percentile(&times, 0.99), 5.0);
/// assert_eq!(collide_scenes::percentile(&times, 0.0), 1.0);
/// ```
pub fn percentile(values: &[f64], q: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut sorted = values.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}
