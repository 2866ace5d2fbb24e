//! v0.2's loss, ECN and in-flight semantics, in every mode: a stack may report every
//! lost packet (or every loss burst) and the controller reduces once per recovery
//! period (RFC 9002 §7.3.2; Linux's `high_seq`); a loss of a packet sent after the
//! period began reduces again; lost and discarded amounts leave flight at once; CE-count
//! increases are judged the same way; RTO and persistent congestion always act.

use congestion::linux;
use congestion::pacing::{PacingRateConfig, Rate};
use congestion::rfc;
use congestion::v2_6_35;
use congestion::{
    AckEvent, AnyController, CongestionController, Duration, EcnEvent, Instant, LossEvent, Phase,
    SentEvent,
};

fn t(ms: u64) -> Instant {
    Instant::from_micros(ms * 1000)
}

/// An RFC-mode flow (MSS 1200, IW 12000) with packets 1..=10 sent, the flow counting.
fn rfc_with_ten_sent() -> rfc::Cubic {
    let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), t(0)).unwrap();
    for pn in 1..=10 {
        f.on_sent_counted(t(0), 1200, pn);
    }
    assert_eq!(f.in_flight(), 12_000);
    f
}

#[test]
fn rfc_every_lost_packet_of_one_episode_reported_alone_gives_one_reduction() {
    let mut f = rfc_with_ten_sent();
    for pn in 1..=4 {
        f.on_loss(t(30), &LossEvent::packet(1200, pn));
    }
    // One reduction: 12000 · 0.7 = 8400; the four lost packets left flight at once.
    assert_eq!((f.cwnd(), f.ssthresh()), (8_400, Some(8_400)));
    assert_eq!(f.in_flight(), 12_000 - 4 * 1200);
    assert_eq!(f.phase(), Phase::Recovery);
}

#[test]
fn rfc_a_loss_burst_and_its_stragglers_are_one_episode_too() {
    let mut f = rfc_with_ten_sent();
    // A burst of three (packets 1..=3, newest 3), then 5 alone: one reduction.
    f.on_loss(t(30), &LossEvent::packet(3 * 1200, 3));
    f.on_loss(t(31), &LossEvent::packet(1200, 5));
    assert_eq!(f.cwnd(), 8_400);
    assert_eq!(f.in_flight(), 12_000 - 4 * 1200);
}

#[test]
fn rfc_a_loss_of_a_packet_sent_after_recovery_began_reduces_again() {
    let mut f = rfc_with_ten_sent();
    f.on_loss(t(30), &LossEvent::packet(1200, 1));
    assert_eq!(f.cwnd(), 8_400);
    // Packet 11 is sent in the recovery period; its loss is a new congestion event:
    // 8400 · 0.7 = 5880 (fast convergence only moves W_max).
    f.on_sent_counted(t(31), 1200, 11);
    f.on_loss(t(60), &LossEvent::packet(1200, 11));
    assert_eq!((f.cwnd(), f.ssthresh()), (5_880, Some(5_880)));
    // Packet 2, sent before either reduction, still only leaves flight.
    let before = f.in_flight();
    f.on_loss(t(61), &LossEvent::packet(1200, 2));
    assert_eq!(f.cwnd(), 5_880);
    assert_eq!(f.in_flight(), before - 1200);
}

#[test]
fn rfc_losses_named_by_send_time_follow_the_same_rule() {
    let mut f = rfc_with_ten_sent();
    // Packets sent at 0 ms; the reduction happens at 30 ms.
    f.on_loss(t(30), &LossEvent::sent_at(1200, t(0)));
    f.on_loss(t(31), &LossEvent::sent_at(1200, t(0)));
    assert_eq!(f.cwnd(), 8_400);
    // A packet sent at 35 ms, after the period began: 8400 · 0.7 = 5880.
    f.on_sent_counted(t(35), 1200, 11);
    f.on_loss(t(70), &LossEvent::sent_at(1200, t(35)));
    assert_eq!(f.cwnd(), 5_880);
}

#[test]
fn rfc_unnamed_losses_are_each_a_congestion_event_as_in_0_1() {
    let mut f = rfc_with_ten_sent();
    f.on_loss(t(30), &LossEvent::episode(1200));
    f.on_loss(t(30), &LossEvent::episode(1200));
    // 12000 · 0.7 = 8400, then 8400 · 0.7 = 5880.
    assert_eq!(f.cwnd(), 5_880);
}

#[test]
fn rfc_ce_increases_react_once_per_recovery_period() {
    let mut f = rfc_with_ten_sent();
    // CE on the ACK of packet 2, the first congestion signal: ECN β 0.7 on the 14400
    // bytes slow start reached.
    f.on_ack(
        t(20),
        &AckEvent::new(2400, 2, Some(Duration::from_millis(20))),
    );
    let cwnd = f.cwnd();
    f.on_ecn(t(20), &EcnEvent::new(1, 2));
    let reduced = cwnd * 7 / 10;
    assert_eq!(f.cwnd(), reduced);
    // More CE marks on packets up to 10 (sent before the reduction): no new reduction.
    f.on_ack(t(21), &AckEvent::new(1200, 3, None));
    f.on_ecn(t(21), &EcnEvent::new(2, 3));
    f.on_ecn(t(21), &EcnEvent::new(1, 10));
    assert_eq!(f.cwnd(), reduced);
    // A rise of 0 never reduces.
    f.on_sent_counted(t(22), 1200, 11);
    f.on_ecn(t(40), &EcnEvent::new(0, 11));
    assert_eq!(f.cwnd(), reduced);
    // CE on packet 11, sent after the reduction: a second one.
    f.on_ecn(t(40), &EcnEvent::new(1, 11));
    assert_eq!(f.cwnd(), reduced * 7 / 10);
}

#[test]
fn rfc_timeouts_and_persistent_congestion_always_act() {
    let mut f = rfc_with_ten_sent();
    f.on_loss(t(30), &LossEvent::packet(1200, 1));
    // Persistent congestion inside the recovery period still collapses the window to
    // 2 MSS (RFC 9002 §7.6.2) and restarts slow start.
    f.on_loss(
        t(31),
        &LossEvent::packet(1200, 2).with_persistent_congestion(true),
    );
    assert_eq!((f.cwnd(), f.phase()), (2_400, Phase::SlowStart));
    f.on_retransmission_timeout(t(40));
    assert_eq!((f.cwnd(), f.phase()), (1_200, Phase::SlowStart));
    // The rest of the lost flight, reported afterwards, does not reduce again.
    let ssthresh = f.ssthresh();
    f.on_loss(t(41), &LossEvent::packet(1200, 9));
    assert_eq!((f.cwnd(), f.ssthresh()), (1_200, ssthresh));
}

#[test]
fn rfc_lost_and_discarded_bytes_leave_flight_and_never_underflow() {
    let mut f = rfc_with_ten_sent();
    f.on_discarded(t(5), 2400);
    assert_eq!(f.in_flight(), 9_600);
    assert_eq!(f.cwnd(), 12_000, "a discard is not a congestion signal");
    f.on_loss(t(30), &LossEvent::packet(u64::MAX, 10));
    assert_eq!(f.in_flight(), 0);
    f.on_discarded(t(31), 1);
    assert_eq!(f.in_flight(), 0);
}

#[test]
fn rfc_a_stack_that_counts_in_flight_itself_overrides_the_flows_count() {
    let mut f = rfc_with_ten_sent();
    // The flow counted 12000; the stack says 6000 are in flight after its next send.
    f.on_sent(t(1), &SentEvent::new(6_000, 11));
    assert_eq!(f.in_flight(), 6_000);
}

#[test]
fn rfc_recovery_ends_with_the_ack_of_a_packet_sent_after_it() {
    let mut f = rfc_with_ten_sent();
    f.on_loss(t(30), &LossEvent::packet(1200, 1));
    f.on_ack(
        t(40),
        &AckEvent::new(1200, 10, Some(Duration::from_millis(20))),
    );
    assert_eq!(
        f.phase(),
        Phase::Recovery,
        "10 was sent before the reduction"
    );
    f.on_sent_counted(t(40), 1200, 11);
    f.on_ack(
        t(60),
        &AckEvent::new(1200, 11, Some(Duration::from_millis(20))),
    );
    assert_eq!(f.phase(), Phase::CongestionAvoidance);
}

#[test]
fn rfc_mode_gives_a_pacing_rate_and_a_send_quantum() {
    let mut f = rfc_with_ten_sent();
    f.on_ack(
        t(20),
        &AckEvent::new(2400, 2, Some(Duration::from_millis(20))),
    );
    // Slow start: cwnd 14400, srtt 20 ms. `quic`'s default, RFC 9002 §7.7:
    // 1.25 · 14400 / 0.020 s = 900,000 B/s.
    assert_eq!(f.pacing_rate(), Rate::from_bytes_per_second(900_000));
    // tcp_tso_autosize: 900000 >> 10 = 878 B, under 1 segment; the 20 ms min RTT adds
    // nothing (20000 >> 9 = 39 >= 32); at least 2 segments: 2400 bytes.
    assert_eq!(f.send_quantum_bytes(), 2_400);
    assert_eq!(f.mss_bytes(), 1_200);

    // Linux's rule, chosen by one field, 200 % in slow start:
    // 14400 · 2 / 0.020 s = 1,440,000 B/s.
    let mut cfg = rfc::CubicConfig::quic(1200);
    cfg.pacing = PacingRateConfig::new();
    let mut g = rfc::Cubic::new(cfg, t(0)).unwrap();
    g.on_sent(t(0), &SentEvent::new(12_000, 10));
    g.on_ack(
        t(20),
        &AckEvent::new(2400, 2, Some(Duration::from_millis(20))),
    );
    assert_eq!(g.pacing_rate(), Rate::from_bytes_per_second(1_440_000));
    // Before any RTT sample: not paced.
    let h = rfc::Cubic::new(rfc::CubicConfig::quic(1200), t(0)).unwrap();
    assert_eq!(h.pacing_rate(), Rate::UNLIMITED);
}

#[test]
fn rfc_a_bad_pacing_ratio_is_refused_when_the_flow_is_built() {
    let mut cfg = rfc::CubicConfig::quic(1200);
    cfg.pacing = PacingRateConfig::rfc9002();
    cfg.pacing.formula = congestion::pacing::PacingFormula::Rfc9002 { n_percent: 0 };
    assert_eq!(
        rfc::Cubic::new(cfg, t(0)),
        Err(congestion::ConfigError::PacingRatioOutOfRange)
    );
}

#[test]
fn newreno_halves_once_per_episode_and_again_after_it() {
    let mut f = rfc::NewReno::new(rfc::CubicConfig::quic(1200), t(0)).unwrap();
    for pn in 1..=10 {
        f.on_sent_counted(t(0), 1200, pn);
    }
    f.on_loss(t(30), &LossEvent::packet(1200, 1));
    f.on_loss(t(30), &LossEvent::packet(1200, 2));
    // RFC 9002 B.6: 12000 / 2 = 6000, once.
    assert_eq!((f.cwnd(), f.ssthresh()), (6_000, Some(6_000)));
    f.on_sent_counted(t(31), 1200, 11);
    f.on_loss(t(60), &LossEvent::packet(1200, 11));
    // 6000 / 2 = 3000, above kMinimumWindow (2400).
    assert_eq!(f.cwnd(), 3_000);
    f.on_sent_counted(t(61), 1200, 12);
    f.on_loss(t(90), &LossEvent::packet(1200, 12));
    // 3000 / 2 = 1500, floored at kMinimumWindow = 2400.
    assert_eq!((f.cwnd(), f.ssthresh()), (2_400, Some(2_400)));
}

/// Linux mode: 10 segments sent (snd_nxt 10), the kernel's defaults (β 717/1024).
fn linux_with_ten_sent() -> linux::Cubic {
    let mut f = linux::Cubic::new(linux::CubicConfig::new(), t(0)).unwrap();
    f.on_sent(t(0), &SentEvent::new(10, 10));
    f
}

#[test]
fn linux_every_lost_segment_before_high_seq_gives_one_reduction() {
    let mut f = linux_with_ten_sent();
    for seq in 0..4 {
        f.on_loss(t(30), &LossEvent::packet(1, seq));
    }
    // 10 · 717 >> 10 = 7, once; the four segments left packets_out.
    assert_eq!((f.cwnd(), f.ssthresh()), (7, Some(7)));
    assert_eq!(f.in_flight(), 6);
    assert_eq!(f.phase(), Phase::Recovery);
}

#[test]
fn linux_a_loss_at_or_after_high_seq_reduces_again() {
    let mut f = linux_with_ten_sent();
    f.on_loss(t(30), &LossEvent::packet(1, 0));
    assert_eq!(f.cwnd(), 7);
    // Segment 10 (high_seq = 10) was sent after the reduction: 7 · 717 >> 10 = 4.
    f.on_loss(t(60), &LossEvent::packet(1, 10));
    assert_eq!((f.cwnd(), f.ssthresh()), (4, Some(4)));
}

#[test]
fn linux_ce_marks_before_high_seq_do_not_reduce_again() {
    let mut f = linux_with_ten_sent();
    f.on_ecn(t(30), &EcnEvent::new(1, 1));
    assert_eq!(f.cwnd(), 7);
    f.on_ecn(t(31), &EcnEvent::new(3, 9));
    assert_eq!(f.cwnd(), 7);
    f.on_ecn(t(60), &EcnEvent::new(1, 10));
    assert_eq!(f.cwnd(), 4);
}

#[test]
fn linux_recovery_ends_when_snd_una_reaches_high_seq() {
    let mut f = linux_with_ten_sent();
    f.on_loss(t(30), &LossEvent::packet(1, 0));
    f.on_ack(t(40), &AckEvent::new(5, 5, Some(Duration::from_millis(20))));
    assert_eq!(f.phase(), Phase::Recovery);
    f.on_ack(
        t(50),
        &AckEvent::new(5, 10, Some(Duration::from_millis(20))),
    );
    assert_ne!(f.phase(), Phase::Recovery);
}

#[test]
fn linux_the_trait_reports_the_kernels_pacing_rate_as_a_rate() {
    let f = linux_with_ten_sent();
    assert_eq!(
        f.pacing_rate(),
        Rate::from_bytes_per_second(f.sk_pacing_rate())
    );
    assert!(f.send_quantum_bytes() >= 2 * f.mss_bytes());
}

#[test]
fn the_2_6_35_profile_and_any_controller_follow_the_same_rules() {
    let mut old = v2_6_35::Cubic::new(v2_6_35::CubicConfig::new(), t(1_000_000)).unwrap();
    old.on_sent(t(1_000_000), &SentEvent::new(10, 10));
    old.on_loss(t(1_000_030), &LossEvent::packet(1, 0));
    let reduced = (old.cwnd(), old.ssthresh());
    old.on_loss(t(1_000_031), &LossEvent::packet(1, 5));
    assert_eq!((old.cwnd(), old.ssthresh()), reduced);
    assert_eq!(old.in_flight(), 8);

    let mut any = AnyController::RfcCubic(rfc_with_ten_sent());
    any.on_loss(t(30), &LossEvent::packet(1200, 1));
    any.on_loss(t(30), &LossEvent::packet(1200, 2));
    assert_eq!((any.cwnd(), any.in_flight()), (8_400, 9_600));
}
