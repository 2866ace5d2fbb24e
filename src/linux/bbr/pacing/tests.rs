use super::*;
use crate::linux::tcp::TcpSock;

fn sock(pacing_rate: u64, mss: u32) -> TcpSock {
    TcpSock {
        sk_pacing_rate: pacing_rate,
        sk_pacing_shift: 10,
        mss_cache: mss,
        sk_max_pacing_rate: u64::MAX,
        ..TcpSock::default()
    }
}

#[test]
fn the_initial_rate_of_startup_10mbps_40ms_is_1_004_375() {
    // The conformance README's hand-checked row: cwnd 10 over srtt 41,200 µs gives
    // bw = 10·2^24/41200 = 4072; 4072·1448·739 = 4,357,333,184, >> 8 = 17,020,832;
    // ·990,000 = 16,850,623,680,000, >> 24 = 1,004,375.
    let mut sk = sock(0, 1448);
    sk.snd_cwnd = 10;
    sk.srtt_us = 41_200 << 3;
    let mut bbr = BbrState::default();
    bbr_init_pacing_rate_from_rtt(&mut bbr, &mut sk);
    assert_eq!(sk.sk_pacing_rate, 1_004_375);
    assert!(bbr.has_seen_rtt());
    // Without srtt: the nominal 1 ms, and has_seen_rtt stays clear.
    let mut sk = sock(0, 1448);
    sk.snd_cwnd = 10;
    let mut bbr = BbrState::default();
    bbr_init_pacing_rate_from_rtt(&mut bbr, &mut sk);
    assert!(!bbr.has_seen_rtt());
    // bw = 10·2^24/1000 = 167,772; ·1448·739 = 179,528,119,584, >> 8 =
    // 701,281,717; ·990,000 >> 24 = 41,381,651.
    assert_eq!(sk.sk_pacing_rate, 41_381_651);
}

#[test]
fn the_first_rtt_seeds_the_rate_and_startup_only_raises_it() {
    // bbr_set_pacing_rate(): rate = bw_to_pacing_rate(1000, 739) first:
    // 1000·1448·739 >> 8 = 4,179,968; ·990,000 = 4,138,168,320,000, >> 24 = 246,654.
    // Then, with srtt known and no RTT seen yet, the rate is seeded from it (cwnd
    // 10 over 10 ms: 4,138,115) and has_seen_rtt is set. Before the pipe is full
    // only a higher rate replaces it, so 4,138,115 stays; once full, 246,654 is
    // taken.
    let mut sk = sock(0, 1448);
    sk.snd_cwnd = 10;
    sk.srtt_us = 10_000 << 3;
    let mut bbr = BbrState::default();
    bbr_set_pacing_rate(&mut bbr, &mut sk, 1000, 739);
    assert!(bbr.has_seen_rtt());
    assert_eq!(sk.sk_pacing_rate, 4_138_115);
    bbr.set_full_bw_reached(true);
    bbr_set_pacing_rate(&mut bbr, &mut sk, 1000, 739);
    assert_eq!(sk.sk_pacing_rate, 246_654);
}

#[test]
fn the_pacing_cap_applies() {
    let mut sk = sock(0, 1448);
    sk.sk_max_pacing_rate = 1_000_000;
    assert_eq!(bbr_bw_to_pacing_rate(&sk, 1 << 24, 256), 1_000_000);
}

#[test]
fn tso_bursts_are_one_segment_below_1_2_mbit_s() {
    // bbr_min_tso_segs(): 150,000 B/s is the threshold.
    assert_eq!(bbr_min_tso_segs(&sock(149_999, 1448)), 1);
    assert_eq!(bbr_min_tso_segs(&sock(150_000, 1448)), 2);
    let p = BbrParams::new();
    // 149,314 B/s >> 10 = 145 bytes: 0 segments, so the minimum 1.
    assert_eq!(bbr_tso_segs_goal(&sock(149_314, 1448), &p), 1);
}

#[test]
fn the_tso_goal_caps_bytes_at_gso_size_less_the_header() {
    // 10 Gbit/s >> 10 is far above 65,535 - 320 = 65,215 bytes: 65215/1452 = 44.
    let p = BbrParams::new();
    assert_eq!(bbr_tso_segs_goal(&sock(1_250_000_000, 1452), &p), 44);
    assert_eq!(bbr_tso_segs_goal(&sock(1_250_000_000, 1448), &p), 45);
    // mss 100: 652 segments, capped at 127.
    assert_eq!(bbr_tso_segs_goal(&sock(1_250_000_000, 100), &p), 127);
}
