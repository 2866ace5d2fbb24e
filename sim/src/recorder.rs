//! The probe the command line uses: interval lines on stdout, a CSV trace, the plot
//! series, and a progress bar on a terminal once a run has taken more than a second.

use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::time::{Duration, Instant};

use congestion::Phase;
use indicatif::{ProgressBar, ProgressStyle};

use crate::probe::{IntervalReport, Probe, TraceRow};
use crate::report::interval_line;
use crate::series::Series;

/// What to record.
pub struct Recorder {
    /// Print interval lines.
    pub print_intervals: bool,
    csv: Option<BufWriter<File>>,
    csv_error: Option<std::io::Error>,
    /// Plot series, if asked for.
    pub series: Option<Series>,
    progress: Progress,
}

struct Progress {
    started: Instant,
    enabled: bool,
    total: u64,
    by_time: bool,
    bar: Option<ProgressBar>,
}

/// CSV column names, in order.
pub const CSV_HEADER: &str = "time_s,cwnd_segments,ssthresh_segments,phase,in_flight_segments,rtt_us,pacing_rate_bps,queue_bytes,rwnd_segments";

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::SlowStart => "slow_start",
        Phase::ConservativeSlowStart => "conservative_slow_start",
        Phase::CongestionAvoidance => "congestion_avoidance",
        Phase::Recovery => "recovery",
    }
}

impl Recorder {
    /// A recorder; `progress_total` is the run's byte count or time limit (ns) for the
    /// bar, which only appears on a terminal.
    pub fn new(
        print_intervals: bool,
        csv: Option<File>,
        series: Option<Series>,
        progress_total: u64,
        by_time: bool,
    ) -> Self {
        let mut csv = csv.map(BufWriter::new);
        let mut csv_error = None;
        if let Some(w) = csv.as_mut() {
            if let Err(e) = writeln!(w, "{CSV_HEADER}") {
                csv_error = Some(e);
            }
        }
        Recorder {
            print_intervals,
            csv,
            csv_error,
            series,
            progress: Progress {
                started: Instant::now(),
                enabled: std::io::stderr().is_terminal(),
                total: progress_total,
                by_time,
                bar: None,
            },
        }
    }

    /// Flush the CSV and clear the bar; the first write error, if any.
    pub fn finish(&mut self) -> std::io::Result<()> {
        if let Some(bar) = self.progress.bar.take() {
            bar.finish_and_clear();
        }
        if let Some(e) = self.csv_error.take() {
            return Err(e);
        }
        if let Some(w) = self.csv.as_mut() {
            w.flush()?;
        }
        Ok(())
    }
}

impl Probe for Recorder {
    // Only the CSV has the queue and pacing-rate columns; the plots do not draw them.
    fn reads_queue_and_pacing(&self) -> bool {
        self.csv.is_some()
    }

    fn ack(&mut self, row: &TraceRow) {
        if let Some(s) = self.series.as_mut() {
            s.push(row);
        }
        if let (Some(w), None) = (self.csv.as_mut(), self.csv_error.as_ref()) {
            let r = writeln!(
                w,
                "{:.9},{},{},{},{},{},{},{},{}",
                row.time_ns as f64 / 1e9,
                row.cwnd,
                row.ssthresh,
                phase_name(row.phase),
                row.in_flight,
                row.rtt_ns / 1000,
                row.pacing_rate.saturating_mul(8),
                row.queue_bytes,
                row.rwnd
            );
            if let Err(e) = r {
                self.csv_error = Some(e);
            }
        }
    }

    fn interval(&mut self, r: &IntervalReport) {
        if self.print_intervals {
            let line = interval_line(r);
            match self.progress.bar.as_ref() {
                Some(bar) => bar.println(line),
                None => crate::say!("{line}"),
            }
        }
    }

    fn progress(&mut self, now_ns: u64, delivered_bytes: u64) {
        let p = &mut self.progress;
        if !p.enabled {
            return;
        }
        if p.bar.is_none() && p.started.elapsed() > Duration::from_secs(1) {
            let bar = ProgressBar::new(p.total);
            let style = if p.by_time {
                "{bar:40} simulated {msg}"
            } else {
                "{bar:40} {bytes}/{total_bytes} {msg}"
            };
            if let Ok(s) = ProgressStyle::with_template(style) {
                bar.set_style(s);
            }
            p.bar = Some(bar);
        }
        if let Some(bar) = p.bar.as_ref() {
            bar.set_position(if p.by_time { now_ns } else { delivered_bytes });
            bar.set_message(format!("{:.2} s", now_ns as f64 / 1e9));
        }
    }
}
