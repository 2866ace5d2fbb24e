//! What a run reports while it goes: per-ACK trace rows, interval lines, progress.
//! The run loop is generic over a [`Probe`], so a probe that ignores everything costs
//! nothing.

use congestion::Phase;

/// The sender's state after one ACK (one CSV row).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TraceRow {
    /// Simulated time, ns.
    pub time_ns: u64,
    /// Congestion window, segments.
    pub cwnd: u32,
    /// Slow-start threshold, segments.
    pub ssthresh: u32,
    /// Controller phase.
    pub phase: Phase,
    /// Segments in flight.
    pub in_flight: u32,
    /// The ACK's RTT sample, ns (0: none).
    pub rtt_ns: u64,
    /// Pacing rate, bytes/s.
    pub pacing_rate: u64,
    /// Bytes queued in host (qdisc + NIC) and at the bottleneck.
    pub queue_bytes: u64,
    /// Bytes cumulatively acknowledged to the sender so far (its view of goodput,
    /// clocked by the ACKs like every other column).
    pub acked_bytes: u64,
    /// The receive window this ACK advertised, whole segments: where it is below
    /// cwnd, the receiver (or its autotuning) holds the flight, not the controller.
    pub rwnd: u32,
}

/// One report interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IntervalReport {
    /// Bytes delivered in the interval.
    pub bytes: u64,
    /// Interval length, ns.
    pub duration_ns: u64,
    /// Segments retransmitted in the interval.
    pub retrans: u64,
}

/// Observer of a run.
pub trait Probe {
    /// After each ACK.
    fn ack(&mut self, _row: &TraceRow) {}
    /// Whether [`TraceRow::queue_bytes`] and [`TraceRow::pacing_rate`] are read: when
    /// not, the run leaves them 0 and skips computing them after every ACK.
    fn reads_queue_and_pacing(&self) -> bool {
        true
    }
    /// At the end of each `-i` interval.
    fn interval(&mut self, _r: &IntervalReport) {}
    /// Now and then (every few tens of thousands of events): simulated time and bytes
    /// delivered so far.
    fn progress(&mut self, _now_ns: u64, _delivered_bytes: u64) {}
}

/// A probe that ignores everything.
pub struct NoProbe;
impl Probe for NoProbe {
    fn reads_queue_and_pacing(&self) -> bool {
        false
    }
}
