use super::*;
use crate::linux::Bbr3Config;
use crate::linux::tcp::TcpSock;

/// `bbr_quantization_budget` as the kernel writes it, the TSO goal always computed.
fn budget_as_the_kernel(bbr: &Bbr, sk: &TcpSock, p: &Bbr3Params, cwnd: u32) -> u32 {
    let tso = bbr_tso_segs_goal(bbr, sk, p).wrapping_mul(3);
    let cwnd = cwnd.max(tso).max(CWND_MIN_TARGET);
    if bbr.mode == Mode::ProbeBw && bbr.cycle_idx == CyclePhase::Up {
        cwnd.wrapping_add(2)
    } else {
        cwnd
    }
}

#[test]
fn the_budget_that_skips_the_tso_goal_equals_the_kernels() {
    let mut checked = 0u32;
    for mss in [1, 2, 100, 536, 1200, 1448, 9000, 65_535, u32::MAX] {
        for max_tcp_header in [0, 320, 65_533] {
            for min_tso_segs in [0, 1, 2, 100, u32::MAX / 3, u32::MAX / 3 + 1, u32::MAX] {
                let mut config = Bbr3Config::new();
                (config.mss, config.max_tcp_header, config.min_tso_segs) =
                    (mss, max_tcp_header, min_tso_segs);
                let p = config.validate().expect("a valid config");
                for (rate, shift) in [(0, 10), (1_000_000, 10), (u64::MAX, 0), (1 << 40, 63)] {
                    for min_rtt_us in [0, 100, 5_000, u32::MAX] {
                        for mode in [Mode::ProbeBw, Mode::Drain] {
                            for phase in [CyclePhase::Up, CyclePhase::Cruise] {
                                let bbr = Bbr {
                                    min_rtt_us,
                                    mode,
                                    cycle_idx: phase,
                                    ..Bbr::default()
                                };
                                let sk = TcpSock {
                                    sk_pacing_rate: rate,
                                    sk_pacing_shift: shift,
                                    mss_cache: mss,
                                    ..TcpSock::default()
                                };
                                for cwnd in [0, 3, 4, 5, 162, 163, 1000, 1 << 20, u32::MAX] {
                                    assert_eq!(
                                        bbr_quantization_budget(&bbr, &sk, &p, cwnd),
                                        budget_as_the_kernel(&bbr, &sk, &p, cwnd),
                                        "mss {mss} header {max_tcp_header} min_tso {min_tso_segs} \
                                         rate {rate} min_rtt {min_rtt_us} cwnd {cwnd}"
                                    );
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 10_000);
}

#[test]
fn a_socket_mss_other_than_the_configs_still_gets_the_kernels_budget() {
    // The hook table may run on a socket whose mss_cache is not the config's.
    let p = Bbr3Config::new().validate().expect("the defaults");
    let bbr = Bbr::default();
    for mss in [0, 1, 7, 1448, 100_000] {
        let sk = TcpSock {
            sk_pacing_rate: u64::MAX,
            sk_pacing_shift: 0,
            mss_cache: mss,
            ..TcpSock::default()
        };
        for cwnd in [0, 4, 100, 135, 136, 65_535, u32::MAX] {
            assert_eq!(
                bbr_quantization_budget(&bbr, &sk, &p, cwnd),
                budget_as_the_kernel(&bbr, &sk, &p, cwnd)
            );
        }
    }
}

#[test]
fn the_gains_table_holds_the_kernels_switch() {
    for mode in [Mode::Startup, Mode::Drain, Mode::ProbeBw, Mode::ProbeRtt] {
        for phase in [
            CyclePhase::Up,
            CyclePhase::Down,
            CyclePhase::Cruise,
            CyclePhase::Refill,
        ] {
            let mut bbr = Bbr {
                mode,
                cycle_idx: phase,
                ..Bbr::default()
            };
            bbr_update_gains(&mut bbr);
            let (pacing, cwnd) = gains(mode, phase);
            assert_eq!(
                (u32::from(bbr.pacing_gain), u32::from(bbr.cwnd_gain)),
                (pacing, cwnd)
            );
        }
    }
    // Spot values: PROBE_UP paces at 1.25 with cwnd gain 2.25, STARTUP at 2.77 / 2.
    assert_eq!(gains(Mode::ProbeBw, CyclePhase::Up), (320, 576));
    assert_eq!(gains(Mode::Startup, CyclePhase::Cruise), (710, 512));
}
