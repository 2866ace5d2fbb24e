//! Our two flows driven as `OursLinux` and `OursRfc` (benches/common) drive them, event
//! for event, but through the `_observed` calls with a [`Counters`] sink: what
//! observing costs a stack that counts every decision (`count linux-counted`,
//! `count rfc-counted`).

use crate::common::{PACKET_BYTES, START_US, StreamController};
use congestion::observe::{Counters, ObservableController};
use congestion::{AckEvent, CongestionController, Duration, Instant, LossEvent, SentEvent};

/// Linux-mode CUBIC with a [`Counters`] sink (as `OursLinux` otherwise).
#[derive(Clone)]
pub struct OursLinuxCounted {
    flow: congestion::linux::Cubic,
    in_flight: u32,
    counters: Counters,
}

impl OursLinuxCounted {
    /// Kernel defaults, MSS 1200 bytes, as `OursLinux::new`.
    pub fn new() -> Self {
        let mut config = congestion::linux::CubicConfig::new();
        config.socket.mss = PACKET_BYTES;
        let now = Instant::from_micros(START_US);
        let flow = congestion::linux::Cubic::new(config, now).expect("kernel defaults are valid");
        OursLinuxCounted {
            flow,
            in_flight: 0,
            counters: Counters::new(),
        }
    }
}

impl Default for OursLinuxCounted {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamController for OursLinuxCounted {
    fn name(&self) -> &'static str {
        "congestion Linux mode, counted"
    }

    #[inline(always)]
    fn ack(&mut self, now_us: u64, packets: u32, rtt_us: u64) {
        self.in_flight -= packets;
        let ack = AckEvent {
            acked: u64::from(packets),
            rtt: Some(Duration::from_micros(rtt_us)),
            ..AckEvent::default()
        };
        self.flow
            .on_ack_observed(Instant::from_micros(now_us), &ack, &mut self.counters);
    }

    #[inline(always)]
    fn send(&mut self, now_us: u64, packets: u32) {
        self.in_flight += packets;
        let sent = SentEvent::new(u64::from(self.in_flight), 0);
        self.flow.on_sent(Instant::from_micros(now_us), &sent);
    }

    fn loss(&mut self, now_us: u64) {
        self.in_flight -= 1;
        let loss = LossEvent::episode(0);
        self.flow
            .on_loss_observed(Instant::from_micros(now_us), &loss, &mut self.counters);
    }

    fn rto(&mut self, now_us: u64) {
        self.in_flight = 1;
        self.flow
            .on_retransmission_timeout_observed(Instant::from_micros(now_us), &mut self.counters);
    }

    #[inline(always)]
    fn cwnd_packets(&self) -> u32 {
        self.flow.state().cwnd
    }

    #[inline(always)]
    fn in_flight_packets(&self) -> u32 {
        self.in_flight
    }
}

/// RFC-mode CUBIC with a [`Counters`] sink (as `OursRfc` otherwise).
#[derive(Clone)]
pub struct OursRfcCounted {
    flow: congestion::rfc::Cubic,
    in_flight: u32,
    largest_sent: u64,
    largest_acked: u64,
    counters: Counters,
}

impl OursRfcCounted {
    /// RFC defaults, MSS 1200 bytes, as `OursRfc::new`.
    pub fn new() -> Self {
        let mut config = congestion::rfc::CubicConfig::new();
        config.cubic.mss_bytes = u64::from(PACKET_BYTES);
        let now = Instant::from_micros(START_US);
        let flow = congestion::rfc::Cubic::new(config, now).expect("RFC defaults are valid");
        OursRfcCounted {
            flow,
            in_flight: 0,
            largest_sent: 0,
            largest_acked: 0,
            counters: Counters::new(),
        }
    }

    #[inline(always)]
    fn sent_event(&self) -> SentEvent {
        SentEvent::new(
            u64::from(self.in_flight) * u64::from(PACKET_BYTES),
            self.largest_sent,
        )
    }
}

impl Default for OursRfcCounted {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamController for OursRfcCounted {
    fn name(&self) -> &'static str {
        "congestion RFC mode, counted"
    }

    #[inline(always)]
    fn ack(&mut self, now_us: u64, packets: u32, rtt_us: u64) {
        self.in_flight -= packets;
        self.largest_acked += u64::from(packets);
        let ack = AckEvent {
            acked: u64::from(packets * PACKET_BYTES),
            rtt: Some(Duration::from_micros(rtt_us)),
            largest_acked: Some(self.largest_acked),
            app_limited: false,
        };
        self.flow
            .on_ack_observed(Instant::from_micros(now_us), &ack, &mut self.counters);
    }

    #[inline(always)]
    fn send(&mut self, now_us: u64, packets: u32) {
        self.in_flight += packets;
        self.largest_sent += u64::from(packets);
        let sent = self.sent_event();
        self.flow.on_sent(Instant::from_micros(now_us), &sent);
    }

    fn loss(&mut self, now_us: u64) {
        self.in_flight -= 1;
        let loss = LossEvent::episode(0);
        self.flow
            .on_loss_observed(Instant::from_micros(now_us), &loss, &mut self.counters);
    }

    fn rto(&mut self, now_us: u64) {
        let now = Instant::from_micros(now_us);
        let loss = LossEvent::episode(0).with_persistent_congestion(true);
        self.flow.on_loss_observed(now, &loss, &mut self.counters);
        self.in_flight = 1;
        self.largest_sent += 1;
        let sent = self.sent_event();
        self.flow.on_sent(now, &sent);
    }

    #[inline(always)]
    fn cwnd_packets(&self) -> u32 {
        (self.flow.cwnd() / u64::from(PACKET_BYTES)) as u32
    }

    fn next_ack_covers_data_sent_after_now(&mut self) {
        self.largest_acked = self.largest_sent;
    }

    #[inline(always)]
    fn in_flight_packets(&self) -> u32 {
        self.in_flight
    }
}
