//! Helpers shared by the simulator's integration tests.
#![allow(dead_code)]

use congestion_sim::config::{Amount, WindowMode};
use congestion_sim::{IntervalReport, Probe, SimConfig, TraceRow};

/// A small path: `rate` bit/s bottleneck behind a NIC 10 times faster, 20 ms.
pub fn small_path(rate_bps: u64, bytes: u64) -> SimConfig {
    let mut c = SimConfig::new();
    c.rate_bps = rate_bps;
    c.nic_rate_bps = rate_bps * 10;
    c.rtt_ns = 20_000_000;
    c.buffer_bytes = c.bdp_bytes();
    c.amount = Amount::Bytes(bytes);
    c.window = WindowMode::Fixed(4 << 20);
    c
}

/// Records every trace row and interval.
#[derive(Default)]
pub struct Everything {
    pub rows: Vec<TraceRow>,
    pub intervals: Vec<IntervalReport>,
}

impl Probe for Everything {
    fn ack(&mut self, row: &TraceRow) {
        self.rows.push(*row);
    }
    fn interval(&mut self, r: &IntervalReport) {
        self.intervals.push(*r);
    }
}
