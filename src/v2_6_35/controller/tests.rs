use super::*;
use crate::v2_6_35;

fn at_us(us: u64) -> Instant {
    Instant::from_micros(us)
}

#[test]
fn the_trait_maps_onto_the_kernel_steps() {
    let start = at_us(1_000_000_000);
    let mut f = v2_6_35::Cubic::new(v2_6_35::CubicConfig::new(), start).unwrap();
    assert_eq!(f.unit(), WindowUnit::Segments);
    f.on_sent(start, &SentEvent::new(2, 2));
    assert_eq!(f.socket_view().snd_nxt, 2);
    assert_eq!(f.phase(), Phase::SlowStart);
    // Idle restart does nothing in 2.6.35.
    let before = f;
    f.on_transmit_start(at_us(2_000_000_000));
    assert_eq!(f, before);
    // RTO: cwnd 1, Loss (slow start again), one segment resent.
    f.on_retransmission_timeout(at_us(1_000_300_000));
    assert_eq!(
        (f.cwnd(), f.ssthresh(), f.ca_state()),
        (1, Some(2), CaState::Loss)
    );
    assert_eq!(f.phase(), Phase::SlowStart);
    assert_eq!(f.socket_view().packets_out, 1);
    // Undo after an RTO: Wmax was reset, so cwnd stays 1, but Loss ends.
    f.on_spurious_congestion(at_us(1_000_400_000));
    assert_eq!((f.cwnd(), f.ca_state()), (1, CaState::Open));
    assert_eq!(f.ssthresh(), None);
}

#[test]
fn losses_of_segments_sent_before_the_reduction_reduce_once() {
    let start = at_us(1_000_000_000);
    let mut f = v2_6_35::Cubic::new(v2_6_35::CubicConfig::new(), start).unwrap();
    f.on_sent(start, &SentEvent::new(2, 2));
    // Segments 0..2 out, snd_nxt = 2: a loss of segment 0 reduces (2 * 819/1024 = 1,
    // ssthresh floored at 2), a loss of segment 1 (before high_seq = 2) does not.
    let t = at_us(1_000_100_000);
    f.on_loss(t, &LossEvent::packet(1, 0));
    let after_first = (f.cwnd(), f.ssthresh());
    assert_eq!(f.phase(), Phase::Recovery);
    assert_eq!(f.in_flight(), 1);
    f.on_loss(t, &LossEvent::packet(1, 1));
    assert_eq!((f.cwnd(), f.ssthresh()), after_first);
    assert_eq!(f.in_flight(), 0);
    // A CE mark on segment 1 is also older than the reduction: ignored.
    f.on_ecn(t, &EcnEvent::new(1, 1));
    assert_eq!((f.cwnd(), f.ssthresh()), after_first);
}
