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
