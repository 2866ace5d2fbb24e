use super::*;
use crate::linux::tcp::Minmax;

fn sock() -> TcpSock {
    TcpSock {
        snd_cwnd: 10,
        rtt_min: Minmax::new(0, 1000),
        ..TcpSock::default()
    }
}

#[test]
fn the_snapshot_fits_in_32_bytes_and_keeps_20_bits_of_ce() {
    let mut tx = TxSnapshot::default();
    tx.set_flags(true, (1 << 20) + 5);
    assert!(tx.is_app_limited());
    assert_eq!(tx.delivered_ce(), 5);
    tx.set_in_flight(u32::MAX);
    assert_eq!(tx.in_flight(), IN_FLIGHT_MAX);
    assert_eq!(core::mem::size_of::<TxSnapshot>(), 32);
}

#[test]
fn app_limited_needs_in_flight_strictly_below_cwnd() {
    // in_flight 10 == cwnd 10: cwnd-limited, not app-limited.
    let mut sk = sock();
    sk.packets_out = 10;
    sk.delivered = 7;
    tcp_rate_check_app_limited(&mut sk, true);
    assert_eq!(sk.app_limited, 0);
    // in_flight 9 < 10: app_limited = delivered + in_flight = 16.
    sk.packets_out = 9;
    tcp_rate_check_app_limited(&mut sk, true);
    assert_eq!(sk.app_limited, 16);
    // delivered + in_flight == 0 marks 1.
    let mut empty = sock();
    tcp_rate_check_app_limited(&mut empty, true);
    assert_eq!(empty.app_limited, 1);
    // Queued data or a busy qdisc: not app-limited.
    let mut queued = sock();
    queued.write_seq = 1;
    tcp_rate_check_app_limited(&mut queued, true);
    assert_eq!(queued.app_limited, 0);
    let mut busy_qdisc = sock();
    tcp_rate_check_app_limited(&mut busy_qdisc, false);
    assert_eq!(busy_qdisc.app_limited, 0);
}

#[test]
fn a_zero_prior_delivered_lets_an_earlier_sent_segment_take_the_sample() {
    // Two segments sent with tp->delivered 0: B (end 2) at 2000 µs, A (end 1) at
    // 1000 µs. B is delivered first; A, sent earlier, still takes over because
    // rs.prior_delivered is 0 ("!rs->prior_delivered").
    let mut sk = sock();
    sk.tcp_mstamp = 1000;
    let mut a = tcp_rate_skb_sent(&mut sk, 1000);
    sk.packets_out = 1;
    let mut b = tcp_rate_skb_sent(&mut sk, 2000);
    sk.packets_out = 2;
    let mut rs = RateSample::default();
    tcp_rate_skb_delivered(&mut sk, &mut b, 2000, 2, 0, &mut rs);
    assert_eq!(rs.last_end_seq, 2);
    tcp_rate_skb_delivered(&mut sk, &mut a, 1000, 1, 0, &mut rs);
    assert_eq!((rs.last_end_seq, sk.first_tx_mstamp), (1, 1000));
    // With prior_delivered 5 the earlier segment does not take over.
    let mut rs = RateSample::default();
    let mut b5 = TxSnapshot {
        delivered: 5,
        delivered_mstamp: 1000,
        ..b
    };
    let mut a5 = TxSnapshot { delivered: 5, ..a };
    sk.first_tx_mstamp = 0;
    tcp_rate_skb_delivered(&mut sk, &mut b5, 2000, 2, 0, &mut rs);
    tcp_rate_skb_delivered(&mut sk, &mut a5, 1000, 1, 0, &mut rs);
    assert_eq!((rs.last_end_seq, sk.first_tx_mstamp), (2, 2000));
}

#[test]
fn a_sacked_segment_samples_once_and_gen_takes_the_longer_phase() {
    let mut sk = sock();
    sk.tcp_mstamp = 100;
    let mut tx = tcp_rate_skb_sent(&mut sk, 100);
    sk.packets_out = 1;
    assert_eq!(tx.delivered_mstamp, 100);
    // SACKed at 5100: send phase 0, ACK phase 5000 µs, 1 delivered.
    sk.tcp_mstamp = 5100;
    sk.delivered = 1;
    let mut rs = RateSample::default();
    tcp_rate_skb_delivered(&mut sk, &mut tx, 100, 1, skb::SACKED_ACKED, &mut rs);
    assert_eq!(tx.delivered_mstamp, 0);
    tcp_rate_gen(&mut sk, 1, 0, false, &mut rs);
    assert_eq!(
        (rs.delivered, rs.interval_us, rs.acked_sacked),
        (1, 5000, 1)
    );
    assert_eq!((sk.rate_delivered, sk.rate_interval_us), (1, 5000));
    // Its cumulative ACK later is a no-op: no timing, an invalid sample.
    let mut rs2 = RateSample::default();
    tcp_rate_skb_delivered(&mut sk, &mut tx, 100, 1, skb::SACKED_ACKED, &mut rs2);
    tcp_rate_gen(&mut sk, 0, 0, false, &mut rs2);
    assert_eq!((rs2.delivered, rs2.interval_us), (-1, -1));
}

#[test]
fn an_interval_shorter_than_min_rtt_is_invalid() {
    let mut sk = sock(); // min_rtt 1000 µs
    let mut tx = tcp_rate_skb_sent(&mut sk, 100);
    sk.packets_out = 1;
    sk.tcp_mstamp = 1099; // 999 µs < 1000
    sk.delivered = 1;
    let mut rs = RateSample::default();
    tcp_rate_skb_delivered(&mut sk, &mut tx, 100, 1, 0, &mut rs);
    tcp_rate_gen(&mut sk, 1, 0, false, &mut rs);
    assert_eq!((rs.delivered, rs.interval_us), (1, -1));
}

#[test]
fn negative_stamp_deltas_clamp_to_zero() {
    assert_eq!(tcp_stamp_us_delta(5, 9), 0);
    assert_eq!(tcp_stamp_us_delta(9, 5), 4);
}
