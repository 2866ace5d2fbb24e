//! RFC mode through the C ABI, called as a C caller would: blob size, null and
//! wrong-mode checks, refused settings, and congestion events with hand-computed windows.

use congestion_ffi::*;
use std::mem::MaybeUninit;
use std::ptr;

fn config() -> CongestionRfcConfig {
    let mut c = MaybeUninit::<CongestionRfcConfig>::uninit();
    assert_eq!(
        unsafe { congestion_rfc_config_default(c.as_mut_ptr()) },
        CONGESTION_OK
    );
    unsafe { c.assume_init() }
}

fn state(cfg: &CongestionRfcConfig) -> Box<CongestionRfcState> {
    let mut s = Box::new(MaybeUninit::<CongestionRfcState>::zeroed());
    assert_eq!(
        unsafe { congestion_rfc_init(s.as_mut_ptr(), cfg, 0) },
        CONGESTION_OK
    );
    unsafe { Box::from_raw(Box::into_raw(s).cast()) }
}

fn cwnd(s: &CongestionRfcState) -> u64 {
    let mut v = 0;
    assert_eq!(unsafe { congestion_rfc_cwnd(s, &mut v) }, CONGESTION_OK);
    v
}

fn phase(s: &CongestionRfcState) -> u32 {
    let mut v = 0;
    assert_eq!(unsafe { congestion_rfc_phase(s, &mut v) }, CONGESTION_OK);
    v
}

/// A default flow (MSS 1200) with its whole initial window in flight.
fn flow_with_window_sent() -> Box<CongestionRfcState> {
    let mut s = state(&config());
    // RFC 9002 §7.2: min(10 * 1200, max(14720, 2 * 1200)) = 12000 bytes.
    assert_eq!(cwnd(&s), 12_000);
    assert_eq!(
        unsafe { congestion_rfc_on_sent(&mut *s, 1_000, 12_000, 10) },
        CONGESTION_OK
    );
    s
}

#[test]
fn the_blob_is_the_size_and_alignment_the_header_states() {
    assert_eq!(size_of::<CongestionRfcState>(), CONGESTION_RFC_STATE_SIZE);
    assert_eq!(align_of::<CongestionRfcState>(), CONGESTION_RFC_STATE_ALIGN);
}

#[test]
fn null_pointers_and_a_state_of_the_other_mode_are_refused() {
    let cfg = config();
    let null = ptr::null_mut::<CongestionRfcState>();
    let mut v = 0u64;
    unsafe {
        assert_eq!(
            congestion_rfc_config_default(ptr::null_mut()),
            CONGESTION_ERR_NULL
        );
        assert_eq!(congestion_rfc_init(null, &cfg, 0), CONGESTION_ERR_NULL);
        assert_eq!(congestion_rfc_on_sent(null, 0, 1, 1), CONGESTION_ERR_NULL);
        assert_eq!(
            congestion_rfc_on_ack(null, 0, 1, 10, 1, 0),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_rfc_on_congestion(null, 0, 0),
            CONGESTION_ERR_NULL
        );
        assert_eq!(congestion_rfc_on_spurious(null, 0), CONGESTION_ERR_NULL);
        assert_eq!(
            congestion_rfc_on_transmit_start(null, 0),
            CONGESTION_ERR_NULL
        );
        assert_eq!(congestion_rfc_set_mss(null, 1000), CONGESTION_ERR_NULL);
        assert_eq!(congestion_rfc_cwnd(null, &mut v), CONGESTION_ERR_NULL);
        assert_eq!(
            congestion_rfc_snapshot(null, ptr::null_mut()),
            CONGESTION_ERR_NULL
        );
    }
    let mut s = state(&cfg);
    unsafe {
        assert_eq!(
            congestion_rfc_init(&mut *s, ptr::null(), 0),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_rfc_cwnd(&*s, ptr::null_mut()),
            CONGESTION_ERR_NULL
        );
    }
    // A zeroed blob, and a Linux-mode state reinterpreted as an RFC-mode one.
    let mut zeroed = Box::new(MaybeUninit::<CongestionRfcState>::zeroed());
    let mut linux_cfg = MaybeUninit::<CongestionConfig>::uninit();
    let mut linux = Box::new(MaybeUninit::<[u64; 64]>::zeroed());
    unsafe {
        assert_eq!(
            congestion_rfc_cwnd(zeroed.as_mut_ptr(), &mut v),
            CONGESTION_ERR_UNINITIALIZED
        );
        congestion_config_default(linux_cfg.as_mut_ptr());
        let linux_state = linux.as_mut_ptr().cast::<CongestionState>();
        assert_eq!(
            congestion_init(linux_state, linux_cfg.as_ptr(), 0),
            CONGESTION_OK
        );
        assert_eq!(
            congestion_rfc_cwnd(linux_state.cast::<CongestionRfcState>(), &mut v),
            CONGESTION_ERR_UNINITIALIZED
        );
    }
}

#[test]
fn bad_settings_and_arguments_return_their_codes() {
    let mut s = Box::new(MaybeUninit::<CongestionRfcState>::zeroed());
    let init = |s: *mut CongestionRfcState, c: CongestionRfcConfig| unsafe {
        congestion_rfc_init(s, &c, 0)
    };
    let mut c = config();
    c.slow_start = 3;
    assert_eq!(init(s.as_mut_ptr(), c), CONGESTION_ERR_SLOW_START);
    let mut c = config();
    c.mss_bytes = 0;
    assert_eq!(init(s.as_mut_ptr(), c), CONGESTION_ERR_MSS);
    c.mss_bytes = 65_536;
    assert_eq!(init(s.as_mut_ptr(), c), CONGESTION_ERR_MSS_RANGE);
    let mut c = config();
    c.c_permille = 0;
    assert_eq!(init(s.as_mut_ptr(), c), CONGESTION_ERR_CUBIC_C);
    let mut c = config();
    c.beta_permille = 1000;
    assert_eq!(init(s.as_mut_ptr(), c), CONGESTION_ERR_BETA);
    // Nothing was written by the refused inits.
    let mut v = 0;
    assert_eq!(
        unsafe { congestion_rfc_cwnd(s.as_mut_ptr(), &mut v) },
        CONGESTION_ERR_UNINITIALIZED
    );
    let mut s = flow_with_window_sent();
    unsafe {
        assert_eq!(
            congestion_rfc_on_congestion(&mut *s, 2_000, 4),
            CONGESTION_ERR_ARGUMENT
        );
        assert_eq!(congestion_rfc_set_mss(&mut *s, 0), CONGESTION_ERR_MSS);
        assert_eq!(
            congestion_rfc_set_mss(&mut *s, 70_000),
            CONGESTION_ERR_MSS_RANGE
        );
    }
    assert_eq!(cwnd(&s), 12_000);
}

#[test]
fn a_loss_multiplies_the_window_by_beta_and_an_undo_restores_it() {
    let mut s = flow_with_window_sent();
    assert_eq!(phase(&s), CONGESTION_PHASE_SLOW_START);
    unsafe { congestion_rfc_on_congestion(&mut *s, 2_000, CONGESTION_EVENT_LOSS) };
    // RFC 9438 §4.6: cwnd = cwnd * β_cubic = 12000 * 0.7 = 8400 bytes.
    assert_eq!(cwnd(&s), 8_400);
    assert_eq!(phase(&s), CONGESTION_PHASE_RECOVERY);
    let mut snap = CongestionRfcSnapshot::default();
    assert_eq!(
        unsafe { congestion_rfc_snapshot(&*s, &mut snap) },
        CONGESTION_OK
    );
    assert_eq!(snap.ssthresh_bytes, 8_400);
    assert_eq!(snap.w_max_bytes, 12_000);
    assert_eq!(snap.mss_bytes, 1_200);
    unsafe { congestion_rfc_on_spurious(&mut *s, 3_000) };
    assert_eq!(cwnd(&s), 12_000);
}

#[test]
fn ecn_uses_its_own_beta_and_persistent_congestion_the_minimum_window() {
    let mut c = config();
    c.ecn_beta_permille = 850;
    let mut s = state(&c);
    unsafe {
        congestion_rfc_on_sent(&mut *s, 1_000, 12_000, 10);
        congestion_rfc_on_congestion(&mut *s, 2_000, CONGESTION_EVENT_ECN);
    }
    // 12000 * 0.85 = 10200 bytes.
    assert_eq!(cwnd(&s), 10_200);
    unsafe { congestion_rfc_on_congestion(&mut *s, 3_000, CONGESTION_EVENT_PERSISTENT) };
    // RFC 9002 §7.2: the minimum window is 2 * max_datagram_size = 2400 bytes.
    assert_eq!(cwnd(&s), 2_400);
}

#[test]
fn acks_in_slow_start_grow_the_window_by_the_acked_bytes() {
    let mut c = config();
    c.slow_start = CONGESTION_RFC_SLOW_START_STANDARD;
    let mut s = state(&c);
    unsafe {
        congestion_rfc_on_sent(&mut *s, 0, 12_000, 10);
        // One ACK for 2400 bytes with a 20 ms sample, the window still full before it.
        congestion_rfc_on_ack(&mut *s, 20_000, 2_400, 20_000, 2, 0);
    }
    assert_eq!(cwnd(&s), 14_400);
    let mut snap = CongestionRfcSnapshot::default();
    unsafe { congestion_rfc_snapshot(&*s, &mut snap) };
    assert_eq!(snap.in_flight_bytes, 9_600);
    assert_eq!(snap.min_rtt_us, 20_000);
    assert_eq!(snap.srtt_us, 20_000);
}

#[test]
fn reconfiguring_a_running_flow_changes_beta_and_refuses_bad_settings_whole() {
    let mut s = flow_with_window_sent();
    let mut c = config();
    c.beta_permille = 500;
    c.c_permille = 0;
    assert_eq!(
        unsafe { congestion_rfc_reconfigure(&mut *s, &c) },
        CONGESTION_ERR_CUBIC_C
    );
    assert_eq!(
        unsafe { congestion_rfc_reconfigure(&mut *s, ptr::null()) },
        CONGESTION_ERR_NULL
    );
    c.c_permille = 400;
    assert_eq!(
        unsafe { congestion_rfc_reconfigure(&mut *s, &c) },
        CONGESTION_OK
    );
    unsafe { congestion_rfc_on_congestion(&mut *s, 2_000, CONGESTION_EVENT_LOSS) };
    // β = 0.5 now: 12000 * 0.5 = 6000 bytes.
    assert_eq!(cwnd(&s), 6_000);
}
