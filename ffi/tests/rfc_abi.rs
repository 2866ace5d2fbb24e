//! RFC mode through the C ABI, called as a C caller would: blob size, null and
//! wrong-mode checks, refused settings, and congestion events with hand-computed windows,
//! for CUBIC and NewReno.

#[path = "common/flows.rs"]
mod flows;

use congestion_ffi::*;
use flows::{get, phase_of, rfc_config as config, rfc_params, rfc_state as state, rfc_state_on};
use std::mem::MaybeUninit;
use std::ptr;

fn cwnd(s: &CongestionRfcCubicState) -> u64 {
    get(s, congestion_rfc_cubic_cwnd)
}

/// A default flow (MSS 1200) with its whole initial window in flight.
fn flow_with_window_sent(cfg: &CongestionRfcCubicConfig) -> Box<CongestionRfcCubicState> {
    let mut s = state(cfg);
    // RFC 9002 §7.2: min(10 * 1200, max(14720, 2 * 1200)) = 12000 bytes.
    assert_eq!(cwnd(&s), 12_000);
    assert_eq!(
        unsafe { congestion_rfc_cubic_on_sent(&mut *s, 1_000, 12_000, 10) },
        CONGESTION_OK
    );
    s
}

#[test]
fn the_blob_and_the_config_are_the_sizes_the_header_states() {
    assert_eq!(
        size_of::<CongestionRfcCubicState>(),
        CONGESTION_RFC_STATE_SIZE
    );
    assert_eq!(
        align_of::<CongestionRfcCubicState>(),
        CONGESTION_RFC_STATE_ALIGN
    );
    assert_eq!(size_of::<CongestionRfcCubicConfig>(), 96);
}

#[test]
fn null_pointers_and_a_state_of_the_other_mode_are_refused() {
    let cfg = config();
    let null = ptr::null_mut::<CongestionRfcCubicState>();
    let size = CONGESTION_RFC_STATE_SIZE;
    let unknown = CONGESTION_PACKET_UNKNOWN;
    let (mut v, mut phase) = (0u64, 0u32);
    unsafe {
        assert_eq!(
            congestion_rfc_cubic_config_default(ptr::null_mut()),
            CONGESTION_ERR_NULL
        );
        let params = rfc_params(&cfg);
        assert_eq!(
            congestion_rfc_cubic_init(null, size, params, 0),
            CONGESTION_ERR_NULL
        );
        let params_size = CONGESTION_RFC_PARAMS_SIZE;
        assert_eq!(
            congestion_rfc_cubic_params_init(ptr::null_mut(), params_size, &cfg),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_rfc_cubic_params_init(params, params_size, ptr::null()),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_rfc_cubic_reconfigure(ptr::null_mut(), null, &cfg),
            CONGESTION_ERR_NULL
        );
        let mut on_params = rfc_state_on(params);
        assert_eq!(
            congestion_rfc_cubic_reconfigure(params, null, &cfg),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_rfc_cubic_reconfigure(ptr::null_mut(), &mut *on_params, &cfg),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_rfc_cubic_on_sent(null, 0, 1, 1),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_rfc_cubic_on_sent_counted(null, 0, 1, 1),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_rfc_cubic_on_ack(null, 0, 1, 1, 10, 0),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_rfc_cubic_on_loss(null, 0, 1, unknown),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_rfc_cubic_on_loss_sent_at(null, 0, 1, 0),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_rfc_cubic_on_persistent_congestion(null, 0, 1),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_rfc_cubic_on_ecn(null, 0, 1, unknown),
            CONGESTION_ERR_NULL
        );
        assert_eq!(congestion_rfc_cubic_on_rto(null, 0), CONGESTION_ERR_NULL);
        assert_eq!(
            congestion_rfc_cubic_on_discarded(null, 0, 1),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_rfc_cubic_on_spurious(null, 0),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_rfc_cubic_on_transmit_start(null, 0),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_rfc_cubic_set_mss(null, 1000),
            CONGESTION_ERR_NULL
        );
        for getter in [
            congestion_rfc_cubic_cwnd,
            congestion_rfc_cubic_ssthresh,
            congestion_rfc_cubic_in_flight,
            congestion_rfc_cubic_pacing_rate,
            congestion_rfc_cubic_send_quantum,
            congestion_rfc_cubic_mss,
        ] {
            assert_eq!(getter(null, &mut v), CONGESTION_ERR_NULL);
        }
        assert_eq!(
            congestion_rfc_cubic_phase(null, &mut phase),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_rfc_cubic_snapshot(null, ptr::null_mut()),
            CONGESTION_ERR_NULL
        );
    }
    let mut s = state(&cfg);
    unsafe {
        assert_eq!(
            congestion_rfc_cubic_init(&mut *s, size, ptr::null(), 0),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_rfc_cubic_cwnd(&*s, ptr::null_mut()),
            CONGESTION_ERR_NULL
        );
    }
    // A zeroed blob, and a Linux-mode state reinterpreted as an RFC-mode one.
    let mut zeroed = Box::new(MaybeUninit::<CongestionRfcCubicState>::zeroed());
    let linux_cfg = flows::linux_config();
    // Room for either blob (an RFC-mode function reads the magic word where an RFC-mode
    // state keeps it), at the alignment both need (64).
    #[repr(C, align(64))]
    struct Either([u64; CONGESTION_RFC_STATE_WORDS]);
    let mut linux = Box::new(MaybeUninit::<Either>::zeroed());
    unsafe {
        assert_eq!(
            congestion_rfc_cubic_cwnd(zeroed.as_mut_ptr(), &mut v),
            CONGESTION_ERR_UNINITIALIZED
        );
        let linux_state = linux.as_mut_ptr().cast::<CongestionLinuxCubicState>();
        assert_eq!(
            congestion_linux_cubic_init(
                linux_state,
                CONGESTION_LINUX_STATE_SIZE,
                flows::linux_params(&linux_cfg),
                0
            ),
            CONGESTION_OK
        );
        assert_eq!(
            congestion_rfc_cubic_cwnd(linux_state.cast::<CongestionRfcCubicState>(), &mut v),
            CONGESTION_ERR_UNINITIALIZED
        );
    }
}

#[test]
fn bad_settings_return_their_codes() {
    let mut s = Box::new(MaybeUninit::<CongestionRfcCubicState>::zeroed());
    // Refused by the parameter block's init; the flow's init then refuses the block,
    // which was never written.
    let mut p = Box::new(MaybeUninit::<CongestionRfcCubicParams>::zeroed());
    let mut init = |s: *mut CongestionRfcCubicState, c: CongestionRfcCubicConfig| unsafe {
        let rc = congestion_rfc_cubic_params_init(p.as_mut_ptr(), CONGESTION_RFC_PARAMS_SIZE, &c);
        assert_eq!(
            congestion_rfc_cubic_init(s, CONGESTION_RFC_STATE_SIZE, p.as_ptr(), 0),
            CONGESTION_ERR_UNINITIALIZED
        );
        rc
    };
    type Breaker = fn(&mut CongestionRfcCubicConfig);
    let cases: [(Breaker, i32); 9] = [
        (|c| c.slow_start = 3, CONGESTION_ERR_SLOW_START),
        (|c| c.mss_bytes = 0, CONGESTION_ERR_MSS),
        (|c| c.mss_bytes = 65_536, CONGESTION_ERR_MSS_RANGE),
        (|c| c.c_permille = 0, CONGESTION_ERR_CUBIC_C),
        (|c| c.beta_permille = 1000, CONGESTION_ERR_BETA),
        (|c| c.algorithm = 2, CONGESTION_ERR_ALGORITHM),
        (|c| c.pacing_formula = 2, CONGESTION_ERR_PACING_FORMULA),
        (
            |c| {
                c.pacing_formula = CONGESTION_PACING_FORMULA_RFC9002;
                c.pacing_n_percent = 0;
            },
            CONGESTION_ERR_PACING_RATIO,
        ),
        // Below 2 MSS.
        (
            |c| c.initial_ssthresh_bytes = 2_399,
            CONGESTION_ERR_INITIAL_WINDOW,
        ),
    ];
    for (break_it, want) in cases {
        let mut c = config();
        break_it(&mut c);
        assert_eq!(init(s.as_mut_ptr(), c), want);
    }
    // Nothing was written by the refused inits.
    let mut v = 0;
    assert_eq!(
        unsafe { congestion_rfc_cubic_cwnd(s.as_mut_ptr(), &mut v) },
        CONGESTION_ERR_UNINITIALIZED
    );
    let mut s = flow_with_window_sent(&config());
    unsafe {
        assert_eq!(congestion_rfc_cubic_set_mss(&mut *s, 0), CONGESTION_ERR_MSS);
        assert_eq!(
            congestion_rfc_cubic_set_mss(&mut *s, 70_000),
            CONGESTION_ERR_MSS_RANGE
        );
    }
    assert_eq!(cwnd(&s), 12_000);
}

#[test]
fn a_loss_multiplies_the_window_by_beta_and_an_undo_restores_it() {
    let mut s = flow_with_window_sent(&config());
    assert_eq!(
        phase_of(&*s, congestion_rfc_cubic_phase),
        CONGESTION_PHASE_SLOW_START
    );
    assert_eq!(
        get(&*s, congestion_rfc_cubic_ssthresh),
        CONGESTION_SSTHRESH_NONE
    );
    unsafe { congestion_rfc_cubic_on_loss(&mut *s, 2_000, 1_200, 1) };
    // RFC 9438 §4.6: cwnd = cwnd * β_cubic = 12000 * 0.7 = 8400 bytes.
    assert_eq!(cwnd(&s), 8_400);
    assert_eq!(
        phase_of(&*s, congestion_rfc_cubic_phase),
        CONGESTION_PHASE_RECOVERY
    );
    let mut snap = CongestionRfcCubicSnapshot::default();
    assert_eq!(
        unsafe { congestion_rfc_cubic_snapshot(&*s, &mut snap) },
        CONGESTION_OK
    );
    assert_eq!(snap.ssthresh_bytes, 8_400);
    assert_eq!(snap.w_max_bytes, 12_000);
    assert_eq!(snap.mss_bytes, 1_200);
    assert_eq!(snap.in_flight_bytes, 12_000 - 1_200);
    assert_eq!(snap.algorithm, u32::from(CONGESTION_RFC_ALGORITHM_CUBIC));
    unsafe { congestion_rfc_cubic_on_spurious(&mut *s, 3_000) };
    assert_eq!(cwnd(&s), 12_000);
}

#[test]
fn ecn_uses_its_own_beta_and_persistent_congestion_the_minimum_window() {
    let mut c = config();
    c.ecn_beta_permille = 850;
    let mut s = flow_with_window_sent(&c);
    unsafe { congestion_rfc_cubic_on_ecn(&mut *s, 2_000, 1, CONGESTION_PACKET_UNKNOWN) };
    // 12000 * 0.85 = 10200 bytes; nothing left flight.
    assert_eq!(cwnd(&s), 10_200);
    assert_eq!(get(&*s, congestion_rfc_cubic_in_flight), 12_000);
    unsafe { congestion_rfc_cubic_on_persistent_congestion(&mut *s, 3_000, 12_000) };
    // RFC 9002 §7.2: the minimum window is 2 * max_datagram_size = 2400 bytes.
    assert_eq!(cwnd(&s), 2_400);
    assert_eq!(get(&*s, congestion_rfc_cubic_in_flight), 0);
    assert_eq!(
        phase_of(&*s, congestion_rfc_cubic_phase),
        CONGESTION_PHASE_SLOW_START
    );
    // An RTO: one MSS.
    unsafe { congestion_rfc_cubic_on_rto(&mut *s, 4_000) };
    assert_eq!(cwnd(&s), 1_200);
}

#[test]
fn acks_in_slow_start_grow_the_window_by_the_acked_bytes() {
    let mut c = config();
    c.slow_start = CONGESTION_RFC_SLOW_START_STANDARD;
    let mut s = state(&c);
    unsafe {
        congestion_rfc_cubic_on_sent(&mut *s, 0, 12_000, 10);
        // One ACK for 2400 bytes with a 20 ms sample, the window still full before it.
        congestion_rfc_cubic_on_ack(&mut *s, 20_000, 2_400, 2, 20_000, 0);
    }
    assert_eq!(cwnd(&s), 14_400);
    let mut snap = CongestionRfcCubicSnapshot::default();
    unsafe { congestion_rfc_cubic_snapshot(&*s, &mut snap) };
    assert_eq!(snap.in_flight_bytes, 9_600);
    assert_eq!(snap.min_rtt_us, 20_000);
    assert_eq!(snap.srtt_us, 20_000);
}

#[test]
fn reconfiguring_a_running_flow_changes_beta_and_refuses_bad_settings_whole() {
    let params_ptr = rfc_params(&config());
    let mut s = rfc_state_on(params_ptr);
    unsafe { congestion_rfc_cubic_on_sent(&mut *s, 1_000, 12_000, 10) };
    let mut c = config();
    c.beta_permille = 500;
    c.c_permille = 0;
    assert_eq!(
        unsafe { congestion_rfc_cubic_reconfigure(params_ptr, &mut *s, &c) },
        CONGESTION_ERR_CUBIC_C
    );
    assert_eq!(
        unsafe { congestion_rfc_cubic_reconfigure(params_ptr, &mut *s, ptr::null()) },
        CONGESTION_ERR_NULL
    );
    c.c_permille = 400;
    assert_eq!(
        unsafe { congestion_rfc_cubic_reconfigure(params_ptr, &mut *s, &c) },
        CONGESTION_OK
    );
    unsafe { congestion_rfc_cubic_on_loss(&mut *s, 2_000, 0, CONGESTION_PACKET_UNKNOWN) };
    // β = 0.5 now: 12000 * 0.5 = 6000 bytes.
    assert_eq!(cwnd(&s), 6_000);
}

#[test]
fn newreno_is_chosen_in_the_config_and_halves_the_window() {
    let mut c = config();
    c.algorithm = CONGESTION_RFC_ALGORITHM_NEWRENO;
    let mut s = flow_with_window_sent(&c);
    unsafe { congestion_rfc_cubic_on_loss(&mut *s, 30_000, 1_200, 1) };
    // RFC 9002 §7.3.2 / B.6: 12000 / 2 = 6000, ssthresh the same.
    assert_eq!(
        (cwnd(&s), get(&*s, congestion_rfc_cubic_ssthresh)),
        (6_000, 6_000)
    );
    let mut snap = CongestionRfcCubicSnapshot::default();
    unsafe { congestion_rfc_cubic_snapshot(&*s, &mut snap) };
    assert_eq!(snap.algorithm, u32::from(CONGESTION_RFC_ALGORITHM_NEWRENO));
    assert_eq!(snap.cwnd_prior_bytes, 12_000);
    assert_eq!((snap.w_max_bytes, snap.epoch_start_us), (0, -1));
    // Undo restores the window before the reduction.
    unsafe { congestion_rfc_cubic_on_spurious(&mut *s, 31_000) };
    assert_eq!(cwnd(&s), 12_000);
}

/// The 0.2 names stay one release: the old ACK call (RTT before the packet number)
/// forwards to the new one (packet number before the RTT, as `AckEvent::new`), so both
/// orders give the same flow; the old init, send and getters are the new ones.
#[test]
fn the_0_2_names_forward_to_the_0_3_ones_with_the_ack_arguments_reordered() {
    let c = config();
    let mut new = state(&c);
    let mut old = state(&c);
    unsafe {
        congestion_rfc_cubic_on_sent(&mut *new, 0, 12_000, 10);
        congestion_rfc_on_sent(&mut *old, 0, 12_000, 10);
        congestion_rfc_cubic_on_ack(&mut *new, 20_000, 2_400, 2, 20_000, 0);
        congestion_rfc_on_ack(&mut *old, 20_000, 2_400, 20_000, 2, 0);
        congestion_rfc_cubic_on_loss(&mut *new, 30_000, 1_200, 3);
        congestion_rfc_on_loss(&mut *old, 30_000, 1_200, 3);
    }
    let mut a = CongestionRfcCubicSnapshot::default();
    let mut b: CongestionRfcSnapshot = CongestionRfcSnapshot::default();
    unsafe {
        congestion_rfc_cubic_snapshot(&*new, &mut a);
        congestion_rfc_snapshot(&*old, &mut b);
    }
    assert_eq!(format!("{a:?}"), format!("{b:?}"));
    assert_eq!(a.srtt_us, 20_000, "the RTT reached the flow as an RTT");
    assert_eq!(get(&*old, congestion_rfc_cwnd), cwnd(&new));
}

/// 0 is a packet number (QUIC's first), `CONGESTION_PACKET_UNKNOWN` names none: the ACK
/// of packet 0, sent before a reduction, does not end the recovery, though it acks every
/// byte in flight at the reduction; the same ACK naming no packet falls back on bytes.
/// ECN named by send time (`_on_ecn_sent_at`) is judged like `ProcessECN`.
#[test]
fn packet_zero_is_a_packet_and_unknown_is_unknown() {
    let c = config();
    let (mut numbered, mut unnamed) = (state(&c), state(&c));
    unsafe {
        for s in [&mut numbered, &mut unnamed] {
            for pn in 0..=9u64 {
                congestion_rfc_cubic_on_sent(&mut **s, 0, (pn + 1) * 1_200, pn);
            }
            // Packets 1..=9 lost in one burst: packet 0 alone stays in flight.
            congestion_rfc_cubic_on_loss(&mut **s, 30_000, 9 * 1_200, 9);
        }
        congestion_rfc_cubic_on_ack(&mut *numbered, 40_000, 1_200, 0, 40_000, 0);
        congestion_rfc_cubic_on_ack(
            &mut *unnamed,
            40_000,
            1_200,
            CONGESTION_PACKET_UNKNOWN,
            40_000,
            0,
        );
    }
    assert_eq!(
        phase_of(&*numbered, congestion_rfc_cubic_phase),
        CONGESTION_PHASE_RECOVERY
    );
    assert_ne!(
        phase_of(&*unnamed, congestion_rfc_cubic_phase),
        CONGESTION_PHASE_RECOVERY
    );

    let mut s = state(&c);
    unsafe {
        congestion_rfc_cubic_on_sent(&mut *s, 0, 12_000, 9);
        congestion_rfc_cubic_on_ecn_sent_at(&mut *s, 30_000, 1, 0);
    }
    assert_eq!(cwnd(&s), 8_400);
    // Sent at 0, before the recovery began at 30 ms: no second reduction.
    unsafe { congestion_rfc_cubic_on_ecn_sent_at(&mut *s, 31_000, 1, 0) };
    assert_eq!(cwnd(&s), 8_400);
}
