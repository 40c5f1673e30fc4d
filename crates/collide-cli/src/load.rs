//! Whether the machine was busy while we timed. Other work takes cores
//! from the timed thread and stretches some frames, so a mean can land
//! above its own p99; figures taken then mislead. This reads the load
//! average where the system gives one (`/proc/loadavg` on Linux) before
//! and after each run, and flags runs whose frames show stalls.

use crate::measure::RunReport;

/// Load beyond our own threads that counts as a busy machine: half a core,
/// or a quarter of the cores on a large machine.
fn spare_load(cores: usize) -> f64 {
    (cores as f64 * 0.25).max(0.5)
}

/// The one-minute load average, where the system reports it.
fn load_average() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// The highest load average seen across the timed runs.
#[derive(Clone, Debug)]
pub struct LoadWatch {
    cores: usize,
    threads: usize,
    worst: Option<f64>,
}

impl LoadWatch {
    /// Starts watching for a measurement that keeps `threads` threads busy.
    pub fn start(threads: usize) -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut watch = LoadWatch {
            cores,
            threads,
            worst: None,
        };
        watch.sample();
        watch
    }

    /// Takes a reading (after each run).
    pub fn sample(&mut self) {
        if let Some(load) = load_average() {
            self.worst = Some(self.worst.map_or(load, |w: f64| w.max(load)));
        }
    }

    /// A warning when the load went beyond our own threads, else `None`.
    pub fn warning(&self) -> Option<String> {
        busy_warning(self.worst?, self.cores, self.threads)
    }
}

/// The warning for a load average of `load` on `cores` cores while we keep
/// `threads` busy, when other work took a share of them.
fn busy_warning(load: f64, cores: usize, threads: usize) -> Option<String> {
    let ours = threads.min(cores) as f64;
    (load > ours + spare_load(cores)).then(|| {
        format!(
            "warning: the machine was busy while timing (load average up to {load:.1} on {cores} \
             core{}, {threads} thread{} of ours): other work took turns on the cores, so the \
             times, p99 most, run high; rerun on an idle machine before comparing",
            if cores == 1 { "" } else { "s" },
            if threads == 1 { "" } else { "s" },
        )
    })
}

/// A warning for each run whose mean frame time lies above its p99: a few
/// frames took far longer than the rest, as when the process waits for a
/// core.
pub fn stall_warnings(reports: &[RunReport]) -> Vec<String> {
    reports
        .iter()
        .filter_map(|r| {
            let (mean, p99) = r.steady_frame_micros();
            (mean > p99 && p99 > 0.0).then(|| {
                format!(
                    "warning: {}: mean {mean:.0} us above its p99 {p99:.0} us: a few frames \
                     stalled (the process waited for a core, or the structure rebuilt)",
                    r.structure
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_own_threads_do_not_make_the_machine_busy() {
        assert_eq!(busy_warning(1.1, 2, 1), None);
        assert_eq!(busy_warning(8.3, 16, 8), None);
    }

    #[test]
    fn other_work_beyond_our_threads_warns_with_the_figures() {
        let warning = busy_warning(3.2, 2, 1).expect("busy");
        assert!(warning.contains("load average up to 3.2 on 2 cores, 1 thread of ours"));
        assert!(busy_warning(13.0, 16, 8).is_some());
    }
}
