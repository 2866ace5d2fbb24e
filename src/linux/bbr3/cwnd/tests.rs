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

/// `bbr_bound_cwnd_for_inflight_model` as the kernel writes it.
fn bound_as_the_kernel(bbr: &Bbr, cwnd: u32) -> u32 {
    if !bbr.initialized() {
        return cwnd;
    }
    let mut cap = u32::MAX;
    if bbr.mode == Mode::ProbeBw && bbr.cycle_idx != CyclePhase::Cruise {
        cap = bbr.inflight_hi;
    } else if bbr.mode == Mode::ProbeRtt
        || (bbr.mode == Mode::ProbeBw && bbr.cycle_idx == CyclePhase::Cruise)
    {
        cap = super::super::upper_bounds::bbr_inflight_with_headroom(bbr);
    }
    cap.min(bbr.inflight_lo).max(CWND_MIN_TARGET).min(cwnd)
}

#[test]
fn the_inflight_model_cap_equals_the_kernels() {
    let bounds = [0, 3, 4, 5, 100, 1000, u32::MAX - 1, u32::MAX];
    for mode in [Mode::Startup, Mode::Drain, Mode::ProbeBw, Mode::ProbeRtt] {
        for phase in [
            CyclePhase::Up,
            CyclePhase::Down,
            CyclePhase::Cruise,
            CyclePhase::Refill,
        ] {
            for (hi, lo) in bounds
                .iter()
                .flat_map(|&h| bounds.iter().map(move |&l| (h, l)))
            {
                for initialized in [false, true] {
                    let mut bbr = Bbr {
                        mode,
                        cycle_idx: phase,
                        inflight_hi: hi,
                        inflight_lo: lo,
                        ..Bbr::default()
                    };
                    bbr.set_initialized(initialized);
                    for cwnd in [0, 1, 4, 10, 500, 2000, u32::MAX] {
                        let mut sk = TcpSock {
                            snd_cwnd: cwnd,
                            ..TcpSock::default()
                        };
                        super::super::lower_bounds::bbr_bound_cwnd_for_inflight_model(
                            &bbr, &mut sk,
                        );
                        assert_eq!(sk.snd_cwnd, bound_as_the_kernel(&bbr, cwnd));
                    }
                }
            }
        }
    }
}

/// `bbr_update_ack_aggregation` as the kernel writes it.
fn aggregation_as_the_kernel(bbr: &mut Bbr, sk: &TcpSock, rs: &Sample) {
    if rs.acked_sacked == 0 || rs.delivered < 0 || rs.interval_us <= 0 {
        return;
    }
    if bbr.round_start() {
        bbr.extra_acked_win_rtts = (bbr.extra_acked_win_rtts + 1).min(0x1f);
        let thresh = if bbr.full_bw_reached() {
            EXTRA_ACKED_WIN_RTTS
        } else {
            1
        };
        if u32::from(bbr.extra_acked_win_rtts) >= thresh {
            bbr.extra_acked_win_rtts = 0;
            bbr.extra_acked_win_idx ^= 1;
            bbr.set_extra_acked_current(0);
        }
    }
    let epoch_us = tcp_stamp_us_delta(sk.delivered_mstamp, bbr.ack_epoch_mstamp);
    let mut expected = (u64::from(bbr.bw()) * u64::from(epoch_us) / BW_UNIT) as u32;
    if bbr.ack_epoch_acked <= expected
        || bbr.ack_epoch_acked.wrapping_add(rs.acked_sacked) >= ACK_EPOCH_ACKED_RESET_THRESH
    {
        bbr.ack_epoch_acked = 0;
        bbr.ack_epoch_mstamp = sk.delivered_mstamp;
        expected = 0;
    }
    bbr.ack_epoch_acked = bbr
        .ack_epoch_acked
        .wrapping_add(rs.acked_sacked)
        .min(0xfffff);
    let extra = bbr.ack_epoch_acked.wrapping_sub(expected).min(sk.snd_cwnd);
    if extra > u32::from(bbr.extra_acked_current()) {
        bbr.set_extra_acked_current(extra as u16);
    }
}

#[test]
fn the_ack_aggregation_equals_the_kernels() {
    let mut rng = crate::linux::tcp::tests::Rng(0x5eed_a66e);
    let counts = [
        0,
        1,
        2,
        1000,
        0xf_fffe,
        0xf_ffff,
        0x10_0000,
        u32::MAX - 1,
        u32::MAX,
    ];
    for _ in 0..200_000 {
        let mut pick = |values: &[u32]| values[rng.upto(values.len() as u64) as usize];
        let mut bbr = Bbr {
            bw_hi: [
                pick(&[0, 1 << 20, 1 << 24, u32::MAX]),
                pick(&[0, 1 << 22, 7]),
            ],
            bw_lo: pick(&[u32::MAX, 1 << 21, 0]),
            ack_epoch_acked: pick(&counts) & 0xf_ffff,
            ack_epoch_mstamp: u64::from(pick(&[0, 1000, 40_000, u32::MAX])),
            extra_acked: [pick(&[0, 5, 0xffff]) as u16, pick(&[0, 9]) as u16],
            extra_acked_win_rtts: pick(&[0, 1, 4, 31]) as u8,
            extra_acked_win_idx: pick(&[0, 1]) as u8,
            ..Bbr::default()
        };
        bbr.set_round_start(pick(&[0, 1]) == 1);
        bbr.set_full_bw_reached(pick(&[0, 1]) == 1);
        let sk = TcpSock {
            delivered_mstamp: u64::from(pick(&[0, 500, 60_000, u32::MAX])) << pick(&[0, 8]),
            snd_cwnd: pick(&[4, 2000, u32::MAX]),
            ..TcpSock::default()
        };
        let rs = Sample {
            acked_sacked: pick(&counts[1..]),
            delivered: pick(&[0, 2, u32::MAX]) as i32,
            interval_us: 20_000,
            ..Sample::default()
        };
        let mut kernel = bbr;
        aggregation_as_the_kernel(&mut kernel, &sk, &rs);
        bbr_update_ack_aggregation(&mut bbr, &sk, &rs);
        assert_eq!(bbr, kernel, "{rs:?}");
    }
}
