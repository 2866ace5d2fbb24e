//! The examples of `CongestionController`'s methods, one test per method (kept out of
//! the rustdoc, which the published crate carries, to keep it short).

use congestion::pacing::Rate;
use congestion::rfc;
use congestion::*;

#[test]
fn unit() -> Result<(), ConfigError> {
    let f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    assert_eq!(f.unit(), WindowUnit::Bytes);
    Ok(())
}

#[test]
fn on_sent() -> Result<(), ConfigError> {
    let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    f.on_sent(Instant::ZERO, &SentEvent::new(1200, 1)); // packet 1: 1200 bytes in flight
    assert_eq!(f.in_flight(), 1200);
    Ok(())
}

#[test]
fn on_sent_counted() -> Result<(), ConfigError> {
    let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    f.on_sent_counted(Instant::ZERO, 1200, 1);
    f.on_sent_counted(Instant::ZERO, 1200, 2);
    assert_eq!(f.in_flight(), 2400);
    Ok(())
}

#[test]
fn on_ack() -> Result<(), ConfigError> {
    let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    f.on_sent(Instant::ZERO, &SentEvent::new(12_000, 10));
    let rtt = Some(Duration::from_millis(30));
    f.on_ack(Instant::from_micros(30_000), &AckEvent::new(1200, 1, rtt));
    assert_eq!((f.cwnd(), f.in_flight()), (13_200, 10_800)); // slow start
    Ok(())
}

#[test]
fn on_packet_sent() -> Result<(), ConfigError> {
    let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    let kept = f.on_packet_sent(Instant::ZERO, &SentEvent::new(1200, 0));
    assert_eq!((f.in_flight(), kept), (1200, TxSnapshot::default())); // CUBIC samples nothing
    Ok(())
}

#[test]
fn on_packet_sent_counted() -> Result<(), ConfigError> {
    let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    let _kept = f.on_packet_sent_counted(Instant::ZERO, 1200, 0);
    assert_eq!(f.in_flight(), 1200);
    Ok(())
}

#[test]
fn on_ack_sampled() -> Result<(), ConfigError> {
    let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    let kept: Vec<TxSnapshot> = (0..10)
        .map(|pn| f.on_packet_sent_counted(Instant::ZERO, 1200, pn))
        .collect();
    let rtt = Some(Duration::from_millis(30));
    let newest = AckedPacket::new(Instant::ZERO, kept[0]); // packet 0, sent at 0
    f.on_ack_sampled(
        Instant::from_micros(30_000),
        &AckEvent::new(1200, 0, rtt),
        &newest,
    );
    assert_eq!((f.cwnd(), f.in_flight()), (13_200, 10_800)); // the same as on_ack
    Ok(())
}

#[test]
fn on_packet_lost() -> Result<(), ConfigError> {
    let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    let kept = f.on_packet_sent_counted(Instant::ZERO, 1200, 0);
    f.on_packet_lost(
        Instant::from_micros(50_000),
        &LossEvent::packet(1200, 0),
        &kept,
    );
    assert_eq!((f.cwnd(), f.in_flight()), (8_400, 0));
    Ok(())
}

#[test]
fn uses_packet_snapshots() -> Result<(), ConfigError> {
    let f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    assert!(!f.uses_packet_snapshots());
    Ok(())
}

#[test]
fn on_loss() -> Result<(), ConfigError> {
    let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    f.on_sent(Instant::ZERO, &SentEvent::new(12_000, 10));
    let now = Instant::from_micros(50_000);
    f.on_loss(now, &LossEvent::packet(1200, 4)); // reduces: 12000 · 0.7
    f.on_loss(now, &LossEvent::packet(1200, 5)); // same episode: only leaves flight
    assert_eq!((f.cwnd(), f.in_flight()), (8_400, 9_600));
    Ok(())
}

#[test]
fn on_ecn() -> Result<(), ConfigError> {
    let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    f.on_sent(Instant::ZERO, &SentEvent::new(12_000, 10));
    f.on_ecn(Instant::from_micros(30_000), &EcnEvent::new(1, 2)); // CE on the ACK of 2
    assert_eq!(f.cwnd(), 8_400);
    Ok(())
}

#[test]
fn on_retransmission_timeout() -> Result<(), ConfigError> {
    let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    f.on_sent(Instant::ZERO, &SentEvent::new(12_000, 10));
    f.on_retransmission_timeout(Instant::from_micros(1_000_000));
    assert_eq!((f.cwnd(), f.phase()), (1_200, Phase::SlowStart));
    Ok(())
}

#[test]
fn on_discarded() -> Result<(), ConfigError> {
    let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    f.on_sent_counted(Instant::ZERO, 2400, 2);
    f.on_discarded(Instant::ZERO, 1200); // the Initial packet number space is dropped
    assert_eq!((f.in_flight(), f.cwnd()), (1200, 12_000));
    Ok(())
}

#[test]
fn on_spurious_congestion() -> Result<(), ConfigError> {
    let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    f.on_sent(Instant::ZERO, &SentEvent::new(12_000, 10));
    f.on_loss(Instant::from_micros(50_000), &LossEvent::packet(1200, 1));
    f.on_spurious_congestion(Instant::from_micros(60_000)); // packet 1 was acked after all
    assert_eq!(f.cwnd(), 12_000);
    Ok(())
}

#[test]
fn on_transmit_start() -> Result<(), ConfigError> {
    let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    f.on_transmit_start(Instant::from_micros(5_000_000)); // after 5 s with nothing to send
    assert_eq!(f.cwnd(), 12_000);
    Ok(())
}

#[test]
fn cwnd() -> Result<(), ConfigError> {
    let f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    assert_eq!(f.cwnd(), 12_000); // RFC 9002's initial window at 1200 bytes
    Ok(())
}

#[test]
fn ssthresh() -> Result<(), ConfigError> {
    let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    assert_eq!(f.ssthresh(), None);
    f.on_loss(Instant::ZERO, &LossEvent::episode(0));
    assert_eq!(f.ssthresh(), Some(8_400));
    Ok(())
}

#[test]
fn phase() -> Result<(), ConfigError> {
    let f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    assert_eq!(f.phase(), Phase::SlowStart);
    Ok(())
}

#[test]
fn in_flight() -> Result<(), ConfigError> {
    let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    f.on_sent_counted(Instant::ZERO, 3600, 3);
    f.on_loss(Instant::ZERO, &LossEvent::packet(1200, 1));
    assert_eq!(f.in_flight(), 2400);
    Ok(())
}

#[test]
fn pacing_rate() -> Result<(), ConfigError> {
    let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    assert_eq!(f.pacing_rate(), Rate::UNLIMITED); // no RTT sample yet
    f.on_sent(Instant::ZERO, &SentEvent::new(12_000, 10));
    f.on_ack(
        Instant::from_micros(20_000),
        &AckEvent::new(1200, 1, Some(Duration::from_millis(20))),
    );
    // RFC 9002 §7.7: 1.25 · 13200 bytes per 20 ms.
    assert_eq!(f.pacing_rate().as_bytes_per_second(), 825_000);
    Ok(())
}

#[test]
fn mss_bytes() -> Result<(), ConfigError> {
    let f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    assert_eq!(f.mss_bytes(), 1200);
    Ok(())
}

#[test]
fn send_quantum_bytes() -> Result<(), ConfigError> {
    let f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    assert_eq!(f.send_quantum_bytes() % 1200, 0); // whole datagrams
    assert!(f.send_quantum_bytes() >= 2 * 1200);
    Ok(())
}

#[test]
fn min_tso_segs() -> Result<(), ConfigError> {
    let f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    assert_eq!(f.min_tso_segs(), None);
    Ok(())
}
