use super::*;

fn sock(cwnd: u32, ssthresh: u32) -> TcpSock {
    TcpSock {
        snd_cwnd: cwnd,
        snd_ssthresh: ssthresh,
        snd_cwnd_clamp: u32::MAX,
        is_cwnd_limited: true,
        ..TcpSock::default()
    }
}

#[test]
fn slow_start_leftover_goes_to_additive_increase() {
    // 18 + 4 acked, ssthresh 20: 2 used by slow start, 2 left as AI credit at w = 20.
    let mut sk = sock(18, 20);
    tcp_reno_cong_avoid(&mut sk, 0, 4);
    assert_eq!((sk.snd_cwnd, sk.snd_cwnd_cnt), (20, 2));
}

#[test]
fn old_credit_at_a_larger_window_turns_into_one_segment_first() {
    // cnt 12 >= w 10: cnt 0 and cwnd 11, then 3 acked of credit.
    let mut sk = sock(10, 5);
    sk.snd_cwnd_cnt = 12;
    tcp_cong_avoid_ai(&mut sk, 10, 3);
    assert_eq!((sk.snd_cwnd, sk.snd_cwnd_cnt), (11, 3));
}

#[test]
fn the_clamp_binds_in_slow_start_and_in_additive_increase() {
    let mut sk = sock(10, 100);
    sk.snd_cwnd_clamp = 12;
    assert_eq!(tcp_slow_start(&mut sk, 5), 0);
    assert_eq!(sk.snd_cwnd, 12);
    let mut sk = sock(12, 5);
    sk.snd_cwnd_clamp = 12;
    tcp_cong_avoid_ai(&mut sk, 12, 24);
    assert_eq!(sk.snd_cwnd, 12);
}

#[test]
fn not_cwnd_limited_means_no_growth_except_below_twice_the_flight_in_slow_start() {
    let mut sk = sock(10, 100);
    sk.is_cwnd_limited = false;
    sk.max_packets_out = 5;
    tcp_reno_cong_avoid(&mut sk, 0, 2);
    assert_eq!(sk.snd_cwnd, 10);
    sk.max_packets_out = 6; // 10 < 12: still growing
    tcp_reno_cong_avoid(&mut sk, 0, 2);
    assert_eq!(sk.snd_cwnd, 12);
}
