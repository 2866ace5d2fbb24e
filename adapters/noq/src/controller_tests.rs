//! Tests of the mapping from noq's calls to the crate's events: with a recording flow
//! (which event, which fields) and with the real RFC-mode flows (what the window does).
//! noq's `RttEstimator` has no public constructor, so per-packet ACKs go through
//! `packet_acked`, the body of `on_ack`, which does not read the estimator.

use super::NoqController;
use crate::flow::NoqFlow;
use congestion::pacing::Rate;
use congestion::rfc::{Cubic, CubicConfig, NewReno, SlowStartKind};
use congestion::{
    AckEvent, ConfigError, CongestionController, Duration, EcnEvent, Instant, LossEvent, Phase,
    SentEvent, WindowUnit,
};
use noq_proto::congestion::Controller;
use std::time::{Duration as StdDuration, Instant as StdInstant};

const MTU: u16 = 1200;
const MSS: u64 = MTU as u64;

/// What the flow was told (times in µs since the adapter's epoch).
#[derive(Clone, Debug, PartialEq)]
enum Seen {
    Sent(u64, SentEvent),
    Ack(u64, AckEvent),
    Loss(u64, LossEvent),
    Ecn(u64, EcnEvent),
    Spurious(u64),
    Mtu(u16),
}

/// A flow with a fixed window, rate and quantum that records every call.
#[derive(Clone, Debug)]
struct Recorder {
    rate: Rate,
    quantum: u64,
    seen: Vec<Seen>,
}

impl CongestionController for Recorder {
    fn unit(&self) -> WindowUnit {
        WindowUnit::Bytes
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
    fn on_spurious_congestion(&mut self, now: Instant) {
        self.seen.push(Seen::Spurious(now.as_micros()));
    }
    fn on_transmit_start(&mut self, _: Instant) {}
    fn cwnd(&self) -> u64 {
        12_000
    }
    fn ssthresh(&self) -> Option<u64> {
        Some(30_000)
    }
    fn phase(&self) -> Phase {
        Phase::SlowStart
    }
    fn in_flight(&self) -> u64 {
        0
    }
    fn pacing_rate(&self) -> Rate {
        self.rate
    }
    fn mss_bytes(&self) -> u64 {
        MSS
    }
    fn send_quantum_bytes(&self) -> u64 {
        self.quantum
    }
}

impl NoqFlow for Recorder {
    type Config = ();
    fn build(_: &(), _: u16, _: Instant) -> Result<Self, ConfigError> {
        Ok(Recorder {
            rate: Rate::from_bytes_per_second(1_250_000),
            quantum: 3 * MSS,
            seen: Vec::new(),
        })
    }
    fn set_mtu(&mut self, mtu: u16) {
        self.seen.push(Seen::Mtu(mtu));
    }
}

fn at(epoch: StdInstant, ms: u64) -> StdInstant {
    epoch + StdDuration::from_millis(ms)
}

fn recorder() -> (NoqController<Recorder>, StdInstant) {
    let epoch = StdInstant::now();
    let flow = Recorder::build(&(), MTU, Instant::ZERO).unwrap();
    (NoqController::new(flow, epoch), epoch)
}

/// Sends packets `pns` of one MTU each at `ms`.
fn send<F: NoqFlow>(
    c: &mut NoqController<F>,
    epoch: StdInstant,
    ms: u64,
    pns: impl IntoIterator<Item = u64>,
) {
    let mut last = 0;
    for pn in pns {
        c.on_packet_sent(at(epoch, ms), MTU, pn);
        last = pn;
    }
    c.on_sent(at(epoch, ms), 0, last);
}

/// One ACK frame at `ms` for packets `pns`, each sent at `sent_ms`; noq's in-flight
/// after it is the adapter's own estimate.
fn ack<F: NoqFlow>(
    c: &mut NoqController<F>,
    epoch: StdInstant,
    ms: u64,
    sent_ms: u64,
    pns: impl IntoIterator<Item = u64>,
) {
    let mut largest = 0;
    for pn in pns {
        c.packet_acked(at(epoch, ms), at(epoch, sent_ms), MSS, pn, false);
        largest = largest.max(pn);
    }
    let in_flight = c.in_flight_bytes();
    c.on_end_acks(at(epoch, ms), in_flight, false, Some(largest));
}

/// noq declares packets `pns` lost in one loss-detection pass at `ms`.
fn lose<F: NoqFlow>(c: &mut NoqController<F>, epoch: StdInstant, ms: u64, pns: &[u64]) {
    for &pn in pns {
        c.on_packet_lost(MTU, pn, at(epoch, ms));
    }
    let largest = *pns.iter().max().unwrap();
    let bytes = MSS * pns.len() as u64;
    c.on_congestion_event(at(epoch, ms), at(epoch, 0), false, false, bytes, largest);
}

#[test]
fn each_packet_is_one_send_with_the_bytes_in_flight_after_it() {
    let (mut c, epoch) = recorder();
    send(&mut c, epoch, 1, 1..=3);
    // on_sent (the whole transmit) adds nothing: its packets were reported one by one.
    assert_eq!(
        c.flow().seen,
        vec![
            Seen::Sent(1000, SentEvent::new(1200, 1)),
            Seen::Sent(1000, SentEvent::new(2400, 2)),
            Seen::Sent(1000, SentEvent::new(3600, 3)),
        ]
    );
    assert_eq!(c.in_flight_bytes(), 3600);
}

#[test]
fn one_ack_frame_is_one_ack_event_with_its_rtt_sample() {
    let (mut c, epoch) = recorder();
    send(&mut c, epoch, 0, 1..=2);
    send(&mut c, epoch, 5, 3..=4);
    // One frame at 45 ms acknowledges 1..=3; the highest (3) was sent at 5 ms: 40 ms.
    c.packet_acked(at(epoch, 45), at(epoch, 0), MSS, 1, false);
    c.packet_acked(at(epoch, 45), at(epoch, 5), MSS, 3, false);
    c.packet_acked(at(epoch, 45), at(epoch, 0), MSS, 2, true);
    // noq's exact count after the frame (say it also forgot 100 bytes of padding).
    c.on_end_acks(at(epoch, 45), 1100, false, Some(3));
    let rtt = Some(Duration::from_micros(40_000));
    assert_eq!(
        c.flow().seen.last(),
        Some(&Seen::Ack(
            45_000,
            AckEvent::new(3600, 3, rtt).with_app_limited(true)
        ))
    );
    assert_eq!(c.in_flight_bytes(), 1100, "reset to noq's count");
    // A frame that does not raise the largest acknowledged gives no RTT sample.
    c.packet_acked(at(epoch, 50), at(epoch, 5), MSS, 4, false);
    c.on_end_acks(at(epoch, 50), 0, false, Some(3));
    assert_eq!(
        c.flow().seen.last(),
        Some(&Seen::Ack(50_000, AckEvent::new(1200, 3, None)))
    );
    // A frame that acknowledged nothing noq passes on is not an event.
    let events = c.flow().seen.len();
    c.on_end_acks(at(epoch, 55), 0, false, Some(3));
    assert_eq!(c.flow().seen.len(), events);
    assert_eq!(
        (c.stats().ack_frames, c.stats().app_limited_ack_frames),
        (2, 1)
    );
}

#[test]
fn losses_ecn_and_persistent_congestion_become_their_events() {
    let (mut c, epoch) = recorder();
    send(&mut c, epoch, 0, 1..=10);
    lose(&mut c, epoch, 30, &[2, 4]);
    assert_eq!(c.in_flight_bytes(), 8 * MSS);
    assert_eq!(
        c.flow().seen.last(),
        Some(&Seen::Loss(30_000, LossEvent::packet(2400, 4)))
    );
    c.on_congestion_event(at(epoch, 31), at(epoch, 0), true, false, 1200, 9);
    assert_eq!(
        c.flow().seen.last(),
        Some(&Seen::Loss(
            31_000,
            LossEvent::packet(1200, 9).with_persistent_congestion(true)
        ))
    );
    // ECN-CE: noq passes no lost bytes and the ACK's largest packet number.
    c.on_congestion_event(at(epoch, 32), at(epoch, 0), false, true, 0, 7);
    assert_eq!(
        c.flow().seen.last(),
        Some(&Seen::Ecn(32_000, EcnEvent::new(1, 7)))
    );
    let s = c.stats();
    assert_eq!(
        (
            s.loss_events,
            s.persistent_congestion,
            s.ecn_events,
            s.packets_lost
        ),
        (2, 1, 1, 2)
    );
}

#[test]
fn a_spurious_loss_is_passed_on_at_the_latest_time_noq_gave() {
    let (mut c, epoch) = recorder();
    send(&mut c, epoch, 0, 1..=4);
    lose(&mut c, epoch, 30, &[1]);
    c.packet_acked(at(epoch, 42), at(epoch, 0), MSS, 2, false);
    c.on_spurious_congestion_event();
    assert_eq!(c.flow().seen.last(), Some(&Seen::Spurious(42_000)));
    c.on_mtu_update(1452);
    assert_eq!(c.flow().seen.last(), Some(&Seen::Mtu(1452)));
}

#[test]
fn the_flows_rate_and_quantum_are_what_noq_reads_from_metrics() {
    let (mut c, _) = recorder();
    let m = c.metrics();
    assert_eq!(m.congestion_window, 12_000);
    assert_eq!(m.ssthresh, Some(30_000));
    assert_eq!(m.pacing_rate, Some(1_250_000), "bytes per second");
    assert_eq!(m.send_quantum, Some(3600));
    assert_eq!(c.window(), 12_000);
    assert_eq!(c.initial_window(), 12_000);
    // Before an RTT sample the flow's rate is unlimited: noq then paces by the window.
    let mut unpaced = c.flow().clone();
    unpaced.rate = Rate::UNLIMITED;
    c = NoqController::new(unpaced, StdInstant::now());
    assert_eq!(c.metrics().pacing_rate, None);
}

fn cubic() -> (NoqController<Cubic>, StdInstant) {
    let epoch = StdInstant::now();
    let mut config = CubicConfig::new();
    config.slow_start = SlowStartKind::HystartPlusPlus;
    config.paced = true;
    let flow = Cubic::build(&config, MTU, Instant::ZERO).unwrap();
    (NoqController::new(flow, epoch), epoch)
}

/// A flow past its first round trip: packets 1..=10 sent at 0 ms, acknowledged at
/// 40 ms (slow start: 12,000 -> 24,000 bytes), then packets 11..=30 sent.
fn cubic_with_flight() -> (NoqController<Cubic>, StdInstant) {
    let (mut c, epoch) = cubic();
    send(&mut c, epoch, 0, 1..=10);
    ack(&mut c, epoch, 40, 0, 1..=10);
    assert_eq!(c.window(), 24_000);
    send(&mut c, epoch, 40, 11..=30);
    (c, epoch)
}

#[test]
fn several_losses_of_one_episode_reduce_once() {
    let (mut c, epoch) = cubic_with_flight();
    // Three loss-detection passes, each declaring packets sent before the reduction.
    lose(&mut c, epoch, 70, &[11]);
    lose(&mut c, epoch, 71, &[12, 13]);
    lose(&mut c, epoch, 72, &[15]);
    // 24,000 · 0.7 = 16,800, once.
    assert_eq!(c.window(), 16_800);
    assert_eq!(c.flow().phase(), Phase::Recovery);
    let s = c.stats();
    assert_eq!(
        (s.loss_events, s.reductions, s.events_in_recovery),
        (3, 1, 2)
    );
    assert_eq!(c.in_flight_bytes(), 16 * MSS);
}

#[test]
fn a_loss_of_a_packet_sent_after_recovery_began_reduces_again() {
    let (mut c, epoch) = cubic_with_flight();
    lose(&mut c, epoch, 70, &[11]);
    assert_eq!(c.window(), 16_800);
    // Packet 31 is sent after the reduction; its loss is a new congestion event.
    send(&mut c, epoch, 75, 31..=31);
    lose(&mut c, epoch, 120, &[31]);
    // 16,800 · 0.7 = 11,760.
    assert_eq!(c.window(), 11_760);
    assert_eq!(c.stats().reductions, 2);
}

#[test]
fn a_spurious_loss_undoes_the_reduction() {
    let (mut c, epoch) = cubic_with_flight();
    lose(&mut c, epoch, 70, &[11]);
    assert_eq!(c.window(), 16_800);
    // The ACK that shows packet 11 arrived after all.
    c.on_spurious_congestion_event();
    assert_eq!(c.window(), 24_000);
    assert_eq!(c.metrics().ssthresh, None);
    assert_eq!(c.stats().spurious, 1);
}

#[test]
fn persistent_congestion_collapses_the_window_even_in_recovery() {
    let (mut c, epoch) = cubic_with_flight();
    lose(&mut c, epoch, 70, &[11]);
    c.on_congestion_event(at(epoch, 400), at(epoch, 40), true, false, 5 * MSS, 20);
    // RFC 9002 §7.6.2: the minimum window, 2 · max_datagram_size.
    assert_eq!(c.window(), 2 * MSS);
    assert_eq!(c.stats().reductions, 2);
}

#[test]
fn ecn_ce_reduces_like_a_loss_and_leaves_the_flight_alone() {
    let (mut c, epoch) = cubic_with_flight();
    let flight = c.in_flight_bytes();
    c.on_congestion_event(at(epoch, 70), at(epoch, 40), false, true, 0, 12);
    assert_eq!(c.window(), 16_800);
    assert_eq!(c.in_flight_bytes(), flight);
    // A second CE increase for a packet sent before the reduction: no new reduction.
    c.on_congestion_event(at(epoch, 71), at(epoch, 40), false, true, 0, 14);
    assert_eq!(c.window(), 16_800);
}

#[test]
fn the_rfc_flows_pacing_rate_and_quantum_reach_noq_in_bytes() {
    let (mut c, epoch) = cubic();
    assert_eq!(c.metrics().pacing_rate, None, "no RTT sample yet");
    send(&mut c, epoch, 0, 1..=10);
    ack(&mut c, epoch, 40, 0, 1..=10);
    let m = c.metrics();
    let flow = c.flow();
    let rate = flow.pacing_rate().as_bytes_per_second();
    // Slow start: 200 % of cwnd / srtt = 2 · 24,000 B / 40 ms = 1.2 MB/s.
    assert_eq!(rate, 1_200_000);
    assert_eq!(m.pacing_rate, Some(rate));
    assert_eq!(m.send_quantum, Some(flow.send_quantum_bytes()));
    assert!(flow.send_quantum_bytes() >= 2 * MSS);
    assert_eq!(m.congestion_window, 24_000);
}

#[test]
fn newreno_halves_once_per_episode() {
    let epoch = StdInstant::now();
    let mut config = CubicConfig::new();
    config.paced = true;
    let flow = NewReno::build(&config, MTU, Instant::ZERO).unwrap();
    let mut c = NoqController::new(flow, epoch);
    send(&mut c, epoch, 0, 1..=10);
    ack(&mut c, epoch, 40, 0, 1..=10);
    send(&mut c, epoch, 40, 11..=30);
    lose(&mut c, epoch, 70, &[11]);
    lose(&mut c, epoch, 71, &[12]);
    // RFC 9002 §7.3.2: kLossReductionFactor 0.5: 24,000 -> 12,000, once.
    assert_eq!(c.window(), 12_000);
    assert_eq!(c.stats().reductions, 1);
}

#[test]
fn the_mtu_reaches_the_flow() {
    let (mut c, _) = cubic();
    c.on_mtu_update(1452);
    assert_eq!(c.flow().mss_bytes(), 1452);
}
