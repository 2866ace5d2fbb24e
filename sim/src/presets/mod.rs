//! Scenario presets that replay the seed experiments and print the seed's figures
//! beside the simulated ones. The seed figures are data in [`seeds`]; the model is
//! never tuned to them: where they disagree, the output says so.

pub mod bbr2011;
pub mod fink2011;
pub mod l4s;
pub mod seeds;
pub mod tso2005;
pub mod tsq2012;

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::cli::PresetArgs;
use crate::config::{SimConfig, WindowMode};
use crate::plot::{PlotRun, write_svg};
use crate::probe::{Probe, TraceRow};
use crate::report;
use crate::series::Series;
use crate::sim::{Summary, run};

/// One simulated case of a preset.
pub struct Case {
    /// Short label for tables and plot legends.
    pub label: String,
    /// Its configuration.
    pub cfg: SimConfig,
}

/// A finished case.
pub struct Outcome {
    /// The case's label.
    pub label: String,
    /// The run's summary.
    pub summary: Summary,
    /// Its plot series.
    pub series: Series,
    /// Wall time the run took.
    pub wall: Duration,
}

struct SeriesProbe(Series);
impl Probe for SeriesProbe {
    fn ack(&mut self, row: &TraceRow) {
        self.0.push(row);
    }
    // The plots draw cwnd, goodput and RTT, not the queue or the pacing rate.
    fn reads_queue_and_pacing(&self) -> bool {
        false
    }
}

/// Run every case on as many threads as the machine has cores (runs are independent,
/// so the result is the same as one at a time), each thread taking the next case as it
/// finishes one; outcomes come back in the given order. Every case's configuration,
/// and whether `args` reach any case, is checked before any runs.
pub fn run_all(args: &PresetArgs, cases: Vec<Case>) -> Result<Vec<Outcome>, String> {
    // A flag that no run can take (e.g. a --rmem-default outside a run's range) fails
    // now, not after the runs that could take it.
    for case in &cases {
        case.cfg.validate()?;
    }
    let autotunes = |c: &Case| matches!(c.cfg.window, WindowMode::Auto { .. });
    if args.rmem_default.is_some() && !cases.iter().any(autotunes) {
        return Err("--rmem-default: no run of this preset autotunes (each sets -w)".into());
    }
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, cases.len().max(1));
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<Result<Outcome, String>>>> =
        (0..cases.len()).map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(case) = cases.get(i) else { break };
                    let started = Instant::now();
                    let mut probe = SeriesProbe(Series::new(case.cfg.mss()));
                    let outcome = run(&case.cfg, &mut probe).map(|summary| Outcome {
                        label: case.label.clone(),
                        summary,
                        series: probe.0,
                        wall: started.elapsed(),
                    });
                    if let Ok(mut slot) = slots[i].lock() {
                        *slot = Some(outcome);
                    }
                }
            });
        }
    });
    slots
        .into_iter()
        .map(|m| {
            m.into_inner()
                .ok()
                .flatten()
                .unwrap_or_else(|| Err("a run did not finish".into()))
        })
        .collect()
}

/// Write one SVG of the given outcomes into `dir`, each in its own colour, with
/// `measured` seed figures `(label, points, index of the outcome they belong to)` in
/// the throughput panel.
pub fn plot(
    dir: &Path,
    file: &str,
    title: &str,
    outcomes: &[&Outcome],
    measured: &[(String, crate::series::Points, usize)],
) -> Result<(), String> {
    let runs: Vec<PlotRun> = outcomes
        .iter()
        .enumerate()
        .map(|(i, o)| PlotRun::nth(i, o.label.clone(), &o.series))
        .collect();
    plot_runs(dir, file, title, &runs, measured)
}

/// Write one SVG of `runs` into `dir`, drawn as each says, with `measured` seed
/// figures `(label, points, colour index)` in the throughput panel.
pub fn plot_runs(
    dir: &Path,
    file: &str,
    title: &str,
    runs: &[PlotRun],
    measured: &[(String, crate::series::Points, usize)],
) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("--out {}: {e}", dir.display()))?;
    let path = dir.join(file);
    write_svg(&path, title, runs, measured)?;
    crate::say!("wrote {}", path.display());
    Ok(())
}

/// The `--stats` lines of a preset.
pub fn print_stats(outcomes: &[Outcome]) {
    for o in outcomes {
        eprintln!("{}: {}", o.label, report::stats_line(&o.summary, o.wall));
    }
}
