//! Conservation: every byte sent is delivered (acknowledged) or retransmitted, and
//! the flow never delivers faster than the bottleneck can carry.

mod common;

use common::{Everything, small_path};
use congestion_sim::run;

#[test]
fn every_byte_arrives_and_every_lost_packet_is_retransmitted() {
    let mut cfg = small_path(100_000_000, 4 << 20);
    cfg.loss = 0.01;
    cfg.seed = 7;
    let mut p = Everything::default();
    let s = run(&cfg, &mut p).unwrap();
    assert_eq!(s.bytes, 4 << 20, "the whole transfer is delivered");
    let drops = s.tail_drops + s.random_drops;
    assert!(drops > 0, "1 % loss over ~2900 packets drops some");
    // Each dropped packet needs at least one retransmission to be delivered.
    assert!(s.retrans >= drops, "{} retrans < {drops} drops", s.retrans);
    // Segments sent = the transfer's segments + retransmissions.
    let segs = (4u64 << 20).div_ceil(u64::from(s.mss));
    assert_eq!(s.segments_sent, segs + s.retrans);
    // Acknowledged bytes never go backwards.
    assert!(
        p.rows
            .windows(2)
            .all(|w| w[0].acked_bytes <= w[1].acked_bytes)
    );
}

#[test]
fn throughput_never_exceeds_what_the_link_can_carry() {
    let mut cfg = small_path(100_000_000, 8 << 20);
    cfg.interval_ns = Some(100_000_000);
    // A buffer deeper than the window: nothing is lost, so in-order delivery (what
    // the intervals count) is arrival at the receiver, with no hole-filling jumps.
    cfg.buffer_bytes = 16 << 20;
    let mut p = Everything::default();
    let s = run(&cfg, &mut p).unwrap();
    assert_eq!(s.tail_drops, 0);
    // Goodput ceiling: rate * MSS / wire bytes = 1e8 * 1448 / 1538 = 94.15 Mbit/s.
    let ceiling = 1e8 * f64::from(cfg.mss()) / f64::from(cfg.wire_bytes());
    assert!(
        s.throughput_bps() <= ceiling,
        "{} > {ceiling}",
        s.throughput_bps()
    );
    assert!(
        s.throughput_bps() > 0.5 * ceiling,
        "the flow does fill the link"
    );
    for r in &p.intervals {
        // One segment of slack: a segment straddling the interval boundary.
        let bits = r.bytes as f64 * 8.0;
        let max_bits = ceiling * r.duration_ns as f64 / 1e9 + f64::from(cfg.mss()) * 8.0;
        assert!(
            bits <= max_bits,
            "interval carried {bits} bits > {max_bits}"
        );
    }
}
