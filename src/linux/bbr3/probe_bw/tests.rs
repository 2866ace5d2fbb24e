use super::*;
use crate::linux::Bbr3Config;
use crate::linux::tcp::TcpSock;

/// `bbr_is_reno_coexistence_probe_time` as the kernel writes it.
fn reno_as_the_kernel(bbr: &Bbr, sk: &TcpSock, p: &Bbr3Params) -> bool {
    let rounds = BW_PROBE_MAX_ROUNDS.min(bbr_target_inflight(bbr, sk, p));
    u32::from(bbr.rounds_since_probe) >= rounds
}

#[test]
fn the_reordered_reno_test_equals_the_kernels() {
    let mut checked = 0u32;
    for min_tso_segs in [0, 2, 40, u32::MAX] {
        let mut config = Bbr3Config::new();
        config.min_tso_segs = min_tso_segs;
        let p = config.validate().expect("a valid config");
        for bw in [0, 1, 1 << 12, 1 << 24, u32::MAX] {
            for min_rtt_us in [0, 20, 20_000, u32::MAX] {
                for (rate, shift) in [(0, 10), (12_000_000, 10), (u64::MAX, 0)] {
                    for phase in [CyclePhase::Up, CyclePhase::Down, CyclePhase::Cruise] {
                        for cwnd in [0, 4, 10, 62, 63, 64, 1000, u32::MAX] {
                            for rounds in [0u8, 3, 4, 5, 9, 10, 11, 62, 63, 64, 255] {
                                let bbr = Bbr {
                                    min_rtt_us,
                                    bw_hi: [bw, 0],
                                    bw_lo: u32::MAX,
                                    mode: Mode::ProbeBw,
                                    cycle_idx: phase,
                                    rounds_since_probe: rounds,
                                    ..Bbr::default()
                                };
                                let sk = TcpSock {
                                    snd_cwnd: cwnd,
                                    sk_pacing_rate: rate,
                                    sk_pacing_shift: shift,
                                    mss_cache: 1448,
                                    ..TcpSock::default()
                                };
                                assert_eq!(
                                    bbr_is_reno_coexistence_probe_time(&bbr, &sk, &p),
                                    reno_as_the_kernel(&bbr, &sk, &p),
                                    "bw {bw} min_rtt {min_rtt_us} cwnd {cwnd} rounds {rounds}"
                                );
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 10_000);
}

/// `bbr_adapt_upper_bounds` as the kernel writes it (the too-high test always run).
fn upper_bounds_as_the_kernel(bbr: &mut Bbr, sk: &TcpSock, p: &Bbr3Params, rs: &Sample) -> bool {
    use super::super::upper_bounds::{bbr_handle_inflight_too_high, bbr_is_inflight_too_high};
    let mut rand = crate::linux::tcp::tests::Rng(1);
    if bbr.ack_phase == AckPhase::ProbeStarting && bbr.round_start() {
        bbr.ack_phase = AckPhase::ProbeFeedback;
    }
    if bbr.ack_phase == AckPhase::ProbeStopping && bbr.round_start() {
        bbr.set_bw_probe_samples(false);
        bbr.ack_phase = AckPhase::Init;
        if bbr.mode == Mode::ProbeBw && !rs.is_app_limited {
            super::super::bw_filter::bbr_advance_max_bw_filter(bbr);
        }
        if bbr.mode == Mode::ProbeBw && bbr.stopped_risky_probe() && !bbr.prev_probe_too_high() {
            bbr_start_bw_probe_refill(bbr, sk.delivered, 0);
            return true;
        }
    }
    if bbr_is_inflight_too_high(bbr, rs) {
        if bbr.bw_probe_samples() {
            bbr_handle_inflight_too_high(bbr, sk, p, rs, &mut rand);
        }
    } else {
        if bbr.inflight_hi == u32::MAX {
            return false;
        }
        if rs.tx_in_flight > bbr.inflight_hi {
            bbr.inflight_hi = rs.tx_in_flight;
        }
        if bbr.mode == Mode::ProbeBw && bbr.cycle_idx == CyclePhase::Up {
            super::super::upper_bounds::bbr_probe_inflight_hi_upward(bbr, sk, rs);
        }
    }
    false
}

#[test]
fn adapting_the_upper_bounds_equals_the_kernels() {
    let p = Bbr3Config::new().validate().expect("the defaults");
    let mut rng = crate::linux::tcp::tests::Rng(0xb0u64 << 32 | 0x4d5);
    for _ in 0..100_000 {
        let flags = rng.next() as u32;
        let mut pick = |values: &[u32]| values[rng.upto(values.len() as u64) as usize];
        let phases = [
            CyclePhase::Up,
            CyclePhase::Down,
            CyclePhase::Cruise,
            CyclePhase::Refill,
        ];
        let mut bbr = Bbr {
            mode: [Mode::Startup, Mode::ProbeBw, Mode::ProbeRtt][pick(&[0, 1, 1, 2]) as usize],
            cycle_idx: phases[pick(&[0, 1, 2, 3]) as usize],
            ack_phase: [
                AckPhase::Init,
                AckPhase::ProbeStarting,
                AckPhase::ProbeStopping,
            ][pick(&[0, 1, 2]) as usize],
            inflight_hi: pick(&[u32::MAX, u32::MAX, 0, 50, 1000]),
            bw_probe_up_cnt: pick(&[u32::MAX, 3]),
            bw_hi: [5, pick(&[0, 9])],
            min_rtt_us: 20_000,
            flags,
            ..Bbr::default()
        };
        bbr.set_initialized(true);
        let sk = TcpSock {
            snd_cwnd: pick(&[10, 1000, 5000]),
            is_cwnd_limited: pick(&[0, 1]) == 1,
            delivered: 77,
            ..TcpSock::default()
        };
        let rs = Sample {
            lost: pick(&[0, 1, 30, u32::MAX]) as i32,
            tx_in_flight: pick(&[0, 40, 1000, 2000]),
            delivered: pick(&[0, 10, 100]) as i32,
            delivered_ce: pick(&[0, 90]) as i32,
            acked_sacked: pick(&[1, 2]),
            is_app_limited: pick(&[0, 1]) == 1,
            ..Sample::default()
        };
        let mut kernel = bbr;
        let want = upper_bounds_as_the_kernel(&mut kernel, &sk, &p, &rs);
        let mut rand = crate::linux::tcp::tests::Rng(1);
        let got = bbr_adapt_upper_bounds(&mut bbr, &sk, &p, &rs, &mut rand);
        assert_eq!((got, bbr), (want, kernel), "{rs:?}");
    }
}
