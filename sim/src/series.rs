//! Time series for the plots: the per-ACK trace folded into 1 ms buckets, so memory
//! stays small whatever the run length.

use crate::probe::TraceRow;

const BUCKET_NS: u64 = 1_000_000;

/// One bucket: the state at its last ACK.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Bucket {
    cwnd: u32,
    rtt_sum_ns: u64,
    rtt_samples: u32,
    acked_bytes: u64,
}

/// cwnd, delivered bytes and RTT per millisecond.
#[derive(Clone, Debug, Default)]
pub struct Series {
    buckets: Vec<Bucket>,
    mss: u32,
}

/// A plottable point list.
pub type Points = Vec<(f64, f64)>;

impl Series {
    /// An empty series for segments of `mss` bytes.
    pub fn new(mss: u32) -> Self {
        Series {
            buckets: Vec::with_capacity(16_384),
            mss,
        }
    }

    /// Fold one ACK in.
    pub fn push(&mut self, row: &TraceRow) {
        let i = (row.time_ns / BUCKET_NS) as usize;
        if self.buckets.len() <= i {
            let last = self.buckets.last().copied().unwrap_or_default();
            self.buckets.resize(
                i + 1,
                Bucket {
                    rtt_sum_ns: 0,
                    rtt_samples: 0,
                    ..last
                },
            );
        }
        let b = &mut self.buckets[i];
        b.cwnd = row.cwnd;
        b.acked_bytes = row.acked_bytes;
        if row.rtt_ns > 0 {
            b.rtt_sum_ns += row.rtt_ns;
            b.rtt_samples += 1;
        }
    }

    fn step(&self) -> usize {
        (self.buckets.len() / 1000).max(1)
    }

    /// (seconds, cwnd in MB) points, at most about 1000.
    pub fn cwnd_mb(&self) -> Points {
        let k = self.mss as f64 / (1u64 << 20) as f64;
        self.buckets
            .iter()
            .enumerate()
            .step_by(self.step())
            .map(|(i, b)| (i as f64 * 1e-3, b.cwnd as f64 * k))
            .collect()
    }

    /// (seconds, Mbit/s) points: acknowledged goodput over each plotted step, at least
    /// 100 ms (shorter steps show every window-limited RTT's burst and gap).
    pub fn throughput_mbps(&self) -> Points {
        let step = self.step().max(100).min(self.buckets.len().max(1));
        let mut out = Vec::new();
        let mut prev = 0u64;
        for i in (step - 1..self.buckets.len()).step_by(step) {
            let d = self.buckets[i].acked_bytes;
            let secs = step as f64 * 1e-3;
            out.push((i as f64 * 1e-3, (d - prev) as f64 * 8.0 / secs / 1e6));
            prev = d;
        }
        out
    }

    /// (seconds, ms) points: mean RTT sample over each plotted step.
    pub fn rtt_ms(&self) -> Points {
        let step = self.step();
        self.buckets
            .chunks(step)
            .enumerate()
            .filter_map(|(j, c)| {
                let n: u64 = c.iter().map(|b| u64::from(b.rtt_samples)).sum();
                let s: u64 = c.iter().map(|b| b.rtt_sum_ns).sum();
                (n > 0).then(|| ((j * step) as f64 * 1e-3, s as f64 / n as f64 / 1e6))
            })
            .collect()
    }
}
