//! Tests of the mapping from quinn's calls to the crate's events, with a recording flow.
//! (quinn's `RttEstimator` has no public constructor, so per-packet ACKs go through
//! `pending_ack`, the body of `on_ack`, which does not read the estimator.)

use super::QuinnController;
use crate::flow::QuinnFlow;
use congestion::pacing::Rate;
use congestion::{
    AckEvent, ConfigError, CongestionController, Duration, EcnEvent, Instant, LossEvent, Phase,
    SentEvent, SentPacket, WindowUnit,
};
use quinn_proto::congestion::Controller;
use std::time::{Duration as StdDuration, Instant as StdInstant};

/// What the flow was told.
#[derive(Clone, Debug, PartialEq)]
enum Seen {
    Sent(u64, SentEvent),
    Ack(u64, AckEvent),
    Loss(u64, LossEvent),
    Ecn(u64, EcnEvent),
    Mtu(u16),
}

/// A flow with a fixed window that records every call (times in µs since the epoch).
#[derive(Clone, Debug)]
struct Recorder {
    unit: WindowUnit,
    cwnd: u64,
    ssthresh: Option<u64>,
    seen: Vec<Seen>,
}

impl CongestionController for Recorder {
    fn unit(&self) -> WindowUnit {
        self.unit
    }
    fn on_sent(&mut self, now: Instant, sent: &SentEvent) {
        self.seen.push(Seen::Sent(now.as_micros(), *sent));
    }
    fn on_ack(&mut self, now: Instant, ack: &AckEvent) {
        self.seen.push(Seen::Ack(now.as_micros(), *ack));
    }
    fn on_loss(&mut self, now: Instant, loss: &LossEvent) {
        self.seen.push(Seen::Loss(now.as_micros(), *loss));
    }
    fn on_ecn(&mut self, now: Instant, ecn: &EcnEvent) {
        self.seen.push(Seen::Ecn(now.as_micros(), *ecn));
    }
    fn on_retransmission_timeout(&mut self, _: Instant) {}
    fn on_discarded(&mut self, _: Instant, _: u64) {}
    fn on_spurious_congestion(&mut self, _: Instant) {}
    fn on_transmit_start(&mut self, _: Instant) {}
    fn cwnd(&self) -> u64 {
        self.cwnd
    }
    fn ssthresh(&self) -> Option<u64> {
        self.ssthresh
    }
    fn phase(&self) -> Phase {
        Phase::SlowStart
    }
    fn in_flight(&self) -> u64 {
        0
    }
    fn pacing_rate(&self) -> Rate {
        Rate::from_bytes_per_second(1_000_000)
    }
    fn mss_bytes(&self) -> u64 {
        1200
    }
    fn send_quantum_bytes(&self) -> u64 {
        2400
    }
}

impl QuinnFlow for Recorder {
    type Config = WindowUnit;
    fn build(unit: &WindowUnit, _: u16, _: Instant) -> Result<Self, ConfigError> {
        let cwnd = if *unit == WindowUnit::Bytes {
            12_000
        } else {
            10
        };
        Ok(Recorder {
            unit: *unit,
            cwnd,
            ssthresh: None,
            seen: Vec::new(),
        })
    }
    fn set_mtu(&mut self, mtu: u16) {
        self.seen.push(Seen::Mtu(mtu));
    }
}

fn controller(unit: WindowUnit) -> (QuinnController<Recorder>, StdInstant) {
    let t0 = StdInstant::now();
    let flow = Recorder::build(&unit, 1200, Instant::ZERO).expect("build");
    (QuinnController::new(flow, t0, 1200), t0)
}

fn ms(t0: StdInstant, ms: u64) -> StdInstant {
    t0 + StdDuration::from_millis(ms)
}

#[test]
fn per_packet_acks_become_one_ack_event_per_frame() {
    let (mut c, t0) = controller(WindowUnit::Bytes);
    for pn in 0..3u64 {
        c.on_sent(ms(t0, pn), 1200, pn);
    }
    c.flow.seen.clear();
    // Two packets acked by one frame at 40 ms; the newest was sent at 1 ms.
    c.pending_ack(ms(t0, 0), 1200, false);
    c.pending_ack(ms(t0, 1), 1200, false);
    assert!(
        c.flow().seen.is_empty(),
        "nothing delivered before the frame ends"
    );
    c.on_end_acks(ms(t0, 40), 1200, false, Some(1));
    let acks: Vec<_> = c
        .flow()
        .seen
        .iter()
        .filter(|s| matches!(s, Seen::Ack(..)))
        .collect();
    assert_eq!(
        acks,
        [&Seen::Ack(
            40_000,
            AckEvent {
                acked: 2400,
                // RTT sample: 40 ms - 1 ms (the newest packet of the frame).
                rtt: Some(Duration::from_micros(39_000)),
                largest_acked: Some(1),
                app_limited: false,
                ce_delta: 0,
            }
        )]
    );
    // The frame's in-flight report before the ACK: quinn's 1200 + 2400 acked, raised to
    // the 12,000-byte window because quinn did not call the sender app-limited.
    assert!(
        c.flow()
            .seen
            .contains(&Seen::Sent(40_000, SentEvent::new(12_000, 2)))
    );
    assert_eq!(c.in_flight_bytes(), 1200);
}

#[test]
fn a_frame_that_does_not_raise_the_largest_acked_gives_no_rtt_sample() {
    let (mut c, t0) = controller(WindowUnit::Bytes);
    c.pending_ack(ms(t0, 5), 1200, false);
    c.on_end_acks(ms(t0, 50), 0, true, Some(9));
    // A late frame filling a hole below packet 9: acked bytes but no RTT sample.
    c.pending_ack(ms(t0, 2), 1200, false);
    c.on_end_acks(ms(t0, 60), 0, true, Some(9));
    let acks: Vec<AckEvent> = c
        .flow()
        .seen
        .iter()
        .filter_map(|s| match s {
            Seen::Ack(_, a) => Some(*a),
            _ => None,
        })
        .collect();
    assert_eq!(acks.len(), 2);
    assert_eq!(acks[0].rtt, Some(Duration::from_micros(45_000)));
    assert_eq!(acks[1].rtt, None);
    assert!(acks[0].app_limited && acks[1].app_limited);
    // App-limited frames report the exact flight (0 + 1200), not the window.
    assert!(
        c.flow()
            .seen
            .contains(&Seen::Sent(60_000, SentEvent::new(1200, 0)))
    );
}

#[test]
fn congestion_events_pass_on_with_the_send_time_and_the_flow_filters_them() {
    let (mut c, t0) = controller(WindowUnit::Bytes);
    c.on_congestion_event(ms(t0, 100), ms(t0, 10), false, 1200);
    // ECN-CE (quinn passes no lost bytes): judged by the same send time.
    c.on_congestion_event(ms(t0, 200), ms(t0, 150), false, 0);
    c.on_congestion_event(ms(t0, 210), ms(t0, 160), true, 9600);
    let events: Vec<_> = c
        .flow()
        .seen
        .iter()
        .filter(|s| matches!(s, Seen::Loss(..) | Seen::Ecn(..)))
        .cloned()
        .collect();
    let at = |ms: u64| SentPacket::SentAt(Instant::from_micros(ms * 1000));
    assert_eq!(
        events,
        [
            Seen::Loss(
                100_000,
                LossEvent::sent_at(1200, Instant::from_micros(10_000))
            ),
            Seen::Ecn(
                200_000,
                EcnEvent {
                    ce_increase: 1,
                    newest_acked: at(150)
                }
            ),
            Seen::Loss(
                210_000,
                LossEvent::sent_at(9600, Instant::from_micros(160_000))
                    .with_persistent_congestion(true)
            ),
        ]
    );
}

#[test]
fn one_reduction_per_recovery_period_comes_from_the_flow_not_the_adapter() {
    use congestion::rfc::{Cubic, CubicConfig};
    let t0 = StdInstant::now();
    let flow = Cubic::build(&CubicConfig::new(), 1200, Instant::ZERO).expect("valid");
    let mut c = QuinnController::new(flow, t0, 1200);
    for pn in 0..10u64 {
        c.on_sent(ms(t0, pn), 1200, pn);
    }
    // Loss of a packet sent at 5 ms, detected at 100 ms: 12,000 -> 8,400.
    c.on_congestion_event(ms(t0, 100), ms(t0, 5), false, 1200);
    // More losses of packets sent before 100 ms: the same recovery period.
    c.on_congestion_event(ms(t0, 110), ms(t0, 9), false, 2400);
    c.on_congestion_event(ms(t0, 120), ms(t0, 100), false, 1200);
    assert_eq!(c.window(), 8_400);
    // A packet sent at 130 ms, after the period began, lost: 8,400 -> 5,880.
    c.on_sent(ms(t0, 130), 1200, 10);
    c.on_congestion_event(ms(t0, 200), ms(t0, 130), false, 1200);
    assert_eq!(c.window(), 5_880);
    // Persistent congestion applies even inside the new period: 2 MSS.
    c.on_congestion_event(ms(t0, 210), ms(t0, 131), true, 1200);
    assert_eq!(c.window(), 2_400);
    let s = c.stats();
    assert_eq!(
        (s.congestion_events, s.congestion_events_in_recovery),
        (3, 2)
    );
}

#[test]
fn gso_buffers_count_each_packet_once() {
    let (mut c, t0) = controller(WindowUnit::Bytes);
    // quinn reports the growing transmit buffer: 1200, 2400, 3600 for three packets.
    c.on_sent(ms(t0, 1), 1200, 0);
    c.on_sent(ms(t0, 1), 2400, 1);
    c.on_sent(ms(t0, 1), 3600, 2);
    assert_eq!(c.in_flight_bytes(), 3600);
    // A new buffer at a later time starts from its own length.
    c.on_sent(ms(t0, 2), 1200, 3);
    assert_eq!(c.in_flight_bytes(), 4800);
    assert!(
        c.flow()
            .seen
            .contains(&Seen::Sent(2000, SentEvent::new(4800, 3)))
    );
}

#[test]
fn segments_mode_converts_with_the_mtu_and_follows_mtu_updates() {
    let (mut c, t0) = controller(WindowUnit::Segments);
    assert_eq!(c.window(), 12_000, "10 segments of 1200 bytes");
    assert_eq!(c.initial_window(), 12_000);
    c.on_mtu_update(1452);
    assert!(c.flow().seen.contains(&Seen::Mtu(1452)));
    assert_eq!(c.window(), 14_520, "10 segments of 1452 bytes");
    // 3000 acked bytes = 2 whole segments of 1452, 96 bytes carried to the next frame.
    c.pending_ack(ms(t0, 1), 3000, true);
    c.on_end_acks(ms(t0, 30), 0, true, Some(2));
    let acked: Vec<u64> = c
        .flow()
        .seen
        .iter()
        .filter_map(|s| match s {
            Seen::Ack(_, a) => Some(a.acked),
            _ => None,
        })
        .collect();
    assert_eq!(acked, [2]);
}

#[test]
fn metrics_report_window_threshold_and_pacing_rate_in_bits() {
    let (mut c, _) = controller(WindowUnit::Bytes);
    let m = c.metrics();
    assert_eq!(m.congestion_window, 12_000);
    assert_eq!(m.ssthresh, None, "no threshold yet");
    assert_eq!(m.pacing_rate, Some(8_000_000), "1 MB/s is 8 Mbit/s");
    c.flow.ssthresh = Some(8400);
    assert_eq!(c.metrics().ssthresh, Some(8400));
}

#[test]
fn the_rfc_flow_grows_by_acked_bytes_in_slow_start_and_keeps_70_percent_on_loss() {
    use congestion::rfc::{Cubic, CubicConfig};
    let t0 = StdInstant::now();
    let mut config = CubicConfig::new();
    config.paced = true;
    let flow = Cubic::build(&config, 1200, Instant::ZERO).expect("valid");
    let mut c = QuinnController::new(flow, t0, 1200);
    // RFC 9002 §7.2: min(10 * 1200, max(14720, 2 * 1200)) = 12,000 bytes.
    assert_eq!(c.initial_window(), 12_000);
    for pn in 0..10u64 {
        c.on_sent(ms(t0, pn), 1200, pn);
    }
    for pn in 0..10u64 {
        c.pending_ack(ms(t0, pn), 1200, false);
    }
    c.on_end_acks(ms(t0, 50), 0, false, Some(9));
    // RFC 9002 §7.3.1 slow start: + 12,000 acked bytes (paced: HyStart++ has no L cap).
    assert_eq!(c.window(), 24_000);
    c.on_sent(ms(t0, 51), 1200, 10);
    c.on_congestion_event(ms(t0, 90), ms(t0, 51), false, 1200);
    // RFC 9438 §4.6: cwnd = ssthresh = 0.7 * 24,000 = 16,800.
    assert_eq!(c.window(), 16_800);
    assert_eq!(c.metrics().ssthresh, Some(16_800));
    // Pacing rate: the one RTT sample is 50 ms - 9 ms (newest packet acked) = 41 ms;
    // 120 % (cwnd >= ssthresh / 2) of 16,800 B per 41 ms = 491,707.3 -> 491,707 B/s.
    assert_eq!(c.metrics().pacing_rate, Some(491_707 * 8));
}
