use super::*;
use crate::linux::tcp::TcpSock;

#[test]
fn drain_ssthresh_of_startup_10mbps_40ms_is_42() {
    // The conformance README's hand-checked DRAIN entry: max_bw 13,981 and min_rtt
    // 41,200 µs: bdp = ceil(13981·41200 / 2^24) = ceil(34.33) = 35; plus 3·2 (TSO
    // goal 2) = 41, rounded up to even: 42.
    let bbr = BbrState {
        min_rtt_us: 41_200,
        mode: BbrMode::Drain,
        ..BbrState::default()
    };
    let sk = TcpSock {
        sk_pacing_rate: 1_000_000,
        sk_pacing_shift: 10,
        mss_cache: 1448,
        ..TcpSock::default()
    };
    assert_eq!(bbr_bdp(&bbr, 13_981, 256), 35);
    assert_eq!(bbr_inflight(&bbr, &sk, &BbrParams::new(), 13_981, 256), 42);
    // PROBE_BW's probing phase (cycle_idx 0) adds 2 more.
    let probing = BbrState {
        mode: BbrMode::ProbeBw,
        cycle_idx: 0,
        ..bbr
    };
    assert_eq!(
        bbr_inflight(&probing, &sk, &BbrParams::new(), 13_981, 256),
        44
    );
}

#[test]
fn the_edt_interval_is_zero_when_the_departure_time_is_past() {
    // tcp_wstamp_ns < now: edt = max(wstamp, now) = now, nothing delivered meanwhile.
    let mut bbr = BbrState::default();
    bbr.bw.reset(0, 1 << 24);
    let sk = TcpSock {
        tcp_clock_cache: 5_000_000,
        tcp_wstamp_ns: 1_000,
        ..TcpSock::default()
    };
    assert_eq!(
        bbr_packets_in_net_at_edt(&bbr, &sk, &BbrParams::new(), 7),
        7
    );
    // 3 µs ahead at 1 packet/µs: 3 delivered by then.
    let ahead = TcpSock {
        tcp_wstamp_ns: 5_003_000,
        ..sk
    };
    assert_eq!(
        bbr_packets_in_net_at_edt(&bbr, &ahead, &BbrParams::new(), 7),
        4
    );
}
