//! quinn-proto 0.11 `congestion::Cubic` on the benchmark stream.

use crate::common::{PACKET_BYTES, RTT_US, START_US, StreamController};
use quinn_proto::RttEstimator;
use quinn_proto::congestion::{Controller, Cubic, CubicConfig};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Field-for-field copy of quinn-proto 0.11's `RttEstimator`, whose constructor is
/// crate-private. [`rtt_estimator`] checks the result through the public getters.
#[derive(Clone, Copy)]
#[allow(dead_code, reason = "read by quinn through the transmuted value")]
struct RttEstimatorFields {
    latest: Duration,
    smoothed: Option<Duration>,
    var: Duration,
    min: Duration,
}

/// An estimator that says `smoothed = latest = min = rtt`, as after a stream of equal
/// samples. Aborts if quinn's layout differs from the mirror (the getters would lie).
pub(crate) fn rtt_estimator(rtt: Duration) -> RttEstimator {
    let fields = RttEstimatorFields {
        latest: rtt,
        smoothed: Some(rtt),
        var: rtt / 8,
        min: rtt,
    };
    assert_eq!(
        size_of::<RttEstimatorFields>(),
        size_of::<RttEstimator>(),
        "quinn-proto's RttEstimator changed"
    );
    // SAFETY: same size, same field types in the same order, both plain `Copy` data
    // with no invalid bit patterns besides Option's niche, which the copy preserves;
    // the getters below confirm every field landed where quinn reads it.
    let est: RttEstimator = unsafe { std::mem::transmute(fields) };
    assert_eq!(est.get(), rtt);
    assert_eq!(est.min(), rtt);
    assert_eq!(est.conservative(), rtt);
    est
}

/// quinn's CUBIC with the stack-side state quinn keeps around it.
#[derive(Clone)]
pub struct QuinnCubic {
    cubic: Cubic,
    rtt: RttEstimator,
    epoch: Instant,
    in_flight: u32,
    largest_acked: u64,
    /// The next ACK covers a packet sent after the last event (see the trait).
    next_ack_after_event: bool,
}

impl QuinnCubic {
    /// Default config (10 packets initial window), MTU 1200.
    pub fn new() -> Self {
        let epoch = Instant::now();
        let config = Arc::new(CubicConfig::default());
        let now = epoch + Duration::from_micros(START_US);
        QuinnCubic {
            cubic: Cubic::new(config, now, PACKET_BYTES as u16),
            rtt: rtt_estimator(Duration::from_micros(RTT_US)),
            epoch,
            in_flight: 0,
            largest_acked: 0,
            next_ack_after_event: false,
        }
    }

    #[inline(always)]
    fn at(&self, us: u64) -> Instant {
        self.epoch + Duration::from_micros(us)
    }
}

impl Default for QuinnCubic {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamController for QuinnCubic {
    fn name(&self) -> &'static str {
        "quinn-proto 0.11 Cubic"
    }

    #[inline(always)]
    fn ack(&mut self, now_us: u64, packets: u32, _rtt_us: u64) {
        let now = self.at(now_us);
        // Sent a round earlier, or just after the last congestion event (1 µs ago).
        let sent_us = if self.next_ack_after_event {
            now_us - 1
        } else {
            now_us - RTT_US
        };
        self.next_ack_after_event = false;
        let sent = self.at(sent_us);
        self.in_flight -= packets;
        for _ in 0..packets {
            self.cubic
                .on_ack(now, sent, u64::from(PACKET_BYTES), false, &self.rtt);
        }
        self.largest_acked += u64::from(packets);
        let in_flight = u64::from(self.in_flight) * u64::from(PACKET_BYTES);
        self.cubic
            .on_end_acks(now, in_flight, false, Some(self.largest_acked));
    }

    #[inline(always)]
    fn send(&mut self, now_us: u64, packets: u32) {
        self.in_flight += packets;
        let now = self.at(now_us);
        for _ in 0..packets {
            self.cubic
                .on_sent(now, u64::from(PACKET_BYTES), self.largest_acked);
        }
    }

    fn loss(&mut self, now_us: u64) {
        self.in_flight -= 1;
        let now = self.at(now_us);
        let sent = self.at(now_us - RTT_US);
        self.cubic
            .on_congestion_event(now, sent, false, u64::from(PACKET_BYTES));
    }

    fn rto(&mut self, now_us: u64) {
        let lost = u64::from(self.in_flight) * u64::from(PACKET_BYTES);
        let now = self.at(now_us);
        let sent = self.at(now_us - RTT_US);
        self.cubic.on_congestion_event(now, sent, true, lost);
        self.in_flight = 1;
    }

    #[inline(always)]
    fn cwnd_packets(&self) -> u32 {
        (self.cubic.window() / u64::from(PACKET_BYTES)) as u32
    }

    #[inline(always)]
    fn in_flight_packets(&self) -> u32 {
        self.in_flight
    }

    fn next_ack_covers_data_sent_after_now(&mut self) {
        self.next_ack_after_event = true;
    }
}
