use super::*;

#[test]
fn the_tenth_segment_is_the_first_paced_and_credit_takes_at_most_half() {
    let mut sk = TcpSock {
        sk_pacing_status: 1,
        sk_pacing_rate: 1_448_000, // 1448 B at 1,448,000 B/s: 1 ms
        data_segs_out: 9,
        tcp_wstamp_ns: 5_000,
        ..TcpSock::default()
    };
    tcp_update_skb_after_send(&mut sk, 1448, 5_000);
    assert_eq!(sk.tcp_wstamp_ns, 5_000);
    sk.data_segs_out = 10;
    // No credit (the transmit did not move tcp_wstamp_ns): +1,000,000 ns.
    tcp_update_skb_after_send(&mut sk, 1448, 5_000);
    assert_eq!(sk.tcp_wstamp_ns, 1_005_000);
    // Credit 2 ms (the sender was late): only half of len_ns is forgiven.
    sk.tcp_wstamp_ns = 3_005_000;
    tcp_update_skb_after_send(&mut sk, 1448, 1_005_000);
    assert_eq!(sk.tcp_wstamp_ns, 3_505_000);
}
