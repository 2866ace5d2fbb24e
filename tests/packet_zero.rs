//! QUIC numbers its first packet 0 (RFC 9000 §12.3), so 0 is a packet number like any
//! other: "not known" is `None` (`AckEvent::largest_acked`) or `SentPacket::Unknown`,
//! never 0. These flows number their packets from 0 and check that packet 0 is judged
//! as sent before a reduction, and that an ECN report can name its packet by send time.

use congestion::rfc;
use congestion::{
    AckEvent, CongestionController, Duration, EcnEvent, Instant, LossEvent, Phase, SentEvent,
};

const MSS: u64 = 1_200;

fn t(ms: u64) -> Instant {
    Instant::from_micros(ms * 1_000)
}

/// A QUIC flow that sent packets 0..=9 at time 0 (12000 bytes, the initial window).
fn flow_from_packet_zero() -> rfc::Cubic {
    let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(MSS), t(0)).unwrap();
    for pn in 0..=9 {
        f.on_sent(t(0), &SentEvent::new((pn + 1) * MSS, pn));
    }
    assert_eq!(f.in_flight(), 12_000);
    assert_eq!(f.largest_acked(), None, "no ACK yet");
    f
}

#[test]
fn an_ack_of_packet_zero_is_an_ack_of_a_numbered_packet() {
    let mut f = flow_from_packet_zero();
    f.on_ack(
        t(20),
        &AckEvent::new(MSS, 0, Some(Duration::from_millis(20))),
    );
    assert_eq!(f.largest_acked(), Some(0));
    // An ACK that names no packet leaves the largest acknowledged where it was.
    f.on_ack(
        t(21),
        &AckEvent {
            acked: MSS,
            ..AckEvent::default()
        },
    );
    assert_eq!(f.largest_acked(), Some(0));
}

#[test]
fn acking_packet_zero_does_not_end_a_recovery_that_began_after_it_was_sent() {
    let mut f = flow_from_packet_zero();
    // Packets 1..=9 lost in one burst: one reduction; packet 0 alone is in flight, so the
    // bytes in flight at the reduction are its 1200.
    f.on_loss(t(30), &LossEvent::packet(9 * MSS, 9));
    assert_eq!(f.phase(), Phase::Recovery);
    let cwnd = f.cwnd();
    assert_eq!(f.in_flight(), MSS);
    // Packet 0 was sent before the reduction (RFC 9002 §7.3.2): its ACK keeps the flow
    // in recovery, though it acknowledges every byte that was in flight at the reduction
    // (the fallback for stacks that give no packet numbers must not apply to packet 0).
    f.on_ack(
        t(40),
        &AckEvent::new(MSS, 0, Some(Duration::from_millis(40))),
    );
    assert_eq!(f.phase(), Phase::Recovery);
    assert_eq!(f.cwnd(), cwnd, "no growth in recovery");
    // Packet 10, sent after the reduction, ends it when acknowledged.
    f.on_sent(t(40), &SentEvent::new(MSS, 10));
    f.on_ack(
        t(60),
        &AckEvent::new(MSS, 10, Some(Duration::from_millis(20))),
    );
    assert_ne!(f.phase(), Phase::Recovery);
}

#[test]
fn a_loss_or_ce_mark_on_packet_zero_after_a_reduction_does_not_reduce_again() {
    let mut f = flow_from_packet_zero();
    f.on_loss(t(30), &LossEvent::packet(MSS, 3));
    let reduced = f.cwnd();
    assert_eq!(reduced, 8_400, "β = 0.7 of 12000");
    // Packet 0 was sent before the reduction: neither its loss nor a CE mark in the ACK
    // of it starts another congestion event.
    f.on_loss(t(31), &LossEvent::packet(MSS, 0));
    f.on_ecn(t(32), &EcnEvent::new(1, 0));
    assert_eq!(f.cwnd(), reduced);
    assert_eq!(f.phase(), Phase::Recovery);
}

#[test]
fn a_ce_mark_named_by_send_time_is_judged_as_process_ecn_does() {
    let mut f = flow_from_packet_zero();
    // RFC 9002 Appendix B.7 ProcessECN: a congestion event for the send time of the
    // largest acknowledged packet, unless sent before the current recovery began.
    f.on_ecn(t(30), &EcnEvent::sent_at(1, t(0)));
    assert_eq!(f.cwnd(), 8_400);
    f.on_ecn(t(31), &EcnEvent::sent_at(1, t(0)));
    assert_eq!(f.cwnd(), 8_400, "sent before the recovery began at 30 ms");
    // A packet sent after the recovery began (at 35 ms), CE-marked: a new event.
    f.on_sent(t(35), &SentEvent::new(f.in_flight() + MSS, 10));
    f.on_ecn(t(60), &EcnEvent::sent_at(1, t(35)));
    assert_eq!(f.cwnd(), 5_880, "0.7 · 8400");
}
