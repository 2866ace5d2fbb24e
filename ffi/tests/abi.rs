//! The C ABI called from Rust as a C caller would: null checks, uninitialised state,
//! configuration errors, and one event of each kind with hand-computed results.

use congestion_ffi::*;
use std::mem::MaybeUninit;
use std::ptr;

fn config() -> CongestionConfig {
    let mut c = MaybeUninit::<CongestionConfig>::uninit();
    assert_eq!(
        unsafe { congestion_config_default(c.as_mut_ptr()) },
        CONGESTION_OK
    );
    unsafe { c.assume_init() }
}

fn state(cfg: &CongestionConfig, now_us: u64) -> Box<CongestionState> {
    let mut s = Box::new(MaybeUninit::<CongestionState>::zeroed());
    assert_eq!(
        unsafe { congestion_init(s.as_mut_ptr(), cfg, now_us) },
        CONGESTION_OK
    );
    unsafe { Box::from_raw(Box::into_raw(s).cast()) }
}

fn cwnd(s: &CongestionState) -> u32 {
    let mut v = 0;
    assert_eq!(unsafe { congestion_cwnd(s, &mut v) }, CONGESTION_OK);
    v
}

#[test]
fn the_blob_is_the_size_and_alignment_the_header_states() {
    assert_eq!(
        std::mem::size_of::<CongestionState>(),
        CONGESTION_STATE_SIZE
    );
    assert_eq!(
        std::mem::align_of::<CongestionState>(),
        CONGESTION_STATE_ALIGN
    );
}

#[test]
fn every_entry_point_refuses_null_pointers() {
    let cfg = config();
    let mut s = state(&cfg, 0);
    let st: *mut CongestionState = &mut *s;
    let mut u32v = 0u32;
    let mut u64v = 0u64;
    let mut u8v = 0u8;
    let null = ptr::null_mut::<CongestionState>();
    unsafe {
        assert_eq!(
            congestion_config_default(ptr::null_mut()),
            CONGESTION_ERR_NULL
        );
        assert_eq!(congestion_init(null, &cfg, 0), CONGESTION_ERR_NULL);
        assert_eq!(congestion_init(st, ptr::null(), 0), CONGESTION_ERR_NULL);
        assert_eq!(congestion_on_transmit(null, 0, 1), CONGESTION_ERR_NULL);
        assert_eq!(congestion_on_ack(null, 0, 1, 10), CONGESTION_ERR_NULL);
        assert_eq!(congestion_on_loss(null, 0), CONGESTION_ERR_NULL);
        assert_eq!(congestion_on_ecn(null, 0), CONGESTION_ERR_NULL);
        assert_eq!(congestion_on_rto(null, 0, 1), CONGESTION_ERR_NULL);
        assert_eq!(congestion_on_undo(null, 0), CONGESTION_ERR_NULL);
        assert_eq!(congestion_on_transmit_start(null, 0), CONGESTION_ERR_NULL);
        assert_eq!(
            congestion_set_last_send_jiffies(null, 0),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_send_enqueue(null, 0, 1448, 1, 0, 0, &mut u64v),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_send_enqueue(st, 0, 1448, 1, 0, 0, ptr::null_mut()),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_send_tx_completion(null, 1448, &mut u8v),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_send_tx_completion(st, 1448, ptr::null_mut()),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_send_poll(null, 0, 0, 0, 0, &mut u32v, &mut u32v, &mut u64v),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_send_poll(st, 0, 0, 0, 0, ptr::null_mut(), &mut u32v, &mut u64v),
            CONGESTION_ERR_NULL
        );
        assert_eq!(congestion_cwnd(null, &mut u32v), CONGESTION_ERR_NULL);
        assert_eq!(congestion_cwnd(st, ptr::null_mut()), CONGESTION_ERR_NULL);
        assert_eq!(congestion_ssthresh(null, &mut u32v), CONGESTION_ERR_NULL);
        assert_eq!(congestion_phase(null, &mut u32v), CONGESTION_ERR_NULL);
        assert_eq!(
            congestion_send_pacing_rate(null, &mut u64v),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_send_next_departure_ns(null, &mut u64v),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_send_tso_segs(null, &mut u32v),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_snapshot(null, ptr::null_mut()),
            CONGESTION_ERR_NULL
        );
    }
    // Nothing above touched the state: still IW10.
    assert_eq!(cwnd(&s), 10);
}

#[test]
fn a_zeroed_blob_is_reported_uninitialised() {
    let mut s = MaybeUninit::<CongestionState>::zeroed();
    let mut v = 0u32;
    unsafe {
        assert_eq!(
            congestion_on_loss(s.as_mut_ptr(), 0),
            CONGESTION_ERR_UNINITIALIZED
        );
        assert_eq!(
            congestion_cwnd(s.as_ptr(), &mut v),
            CONGESTION_ERR_UNINITIALIZED
        );
    }
}

/// Breaks one setting of a configuration.
type Breaker = fn(&mut CongestionConfig);

#[test]
fn bad_configuration_names_the_setting_and_leaves_the_state_alone() {
    let mut s = MaybeUninit::<CongestionState>::zeroed();
    let cases: [(Breaker, i32); 5] = [
        (|c| c.beta = 1024, CONGESTION_ERR_BETA),
        (|c| c.mss = 0, CONGESTION_ERR_MSS),
        (|c| c.pacing_status = 3, CONGESTION_ERR_PACING_STATUS),
        (|c| c.hystart_detect = 4, CONGESTION_ERR_HYSTART_DETECT),
        (|c| c.init_cwnd = 0, CONGESTION_ERR_INITIAL_WINDOW),
    ];
    for (break_it, want) in cases {
        let mut cfg = config();
        break_it(&mut cfg);
        assert_eq!(unsafe { congestion_init(s.as_mut_ptr(), &cfg, 0) }, want);
        let mut v = 0u32;
        assert_eq!(
            unsafe { congestion_cwnd(s.as_ptr(), &mut v) },
            CONGESTION_ERR_UNINITIALIZED
        );
    }
}

#[test]
fn slow_start_then_a_loss_through_the_abi() {
    let cfg = config();
    let mut s = state(&cfg, 0);
    let st: *mut CongestionState = &mut *s;
    unsafe {
        assert_eq!(congestion_on_transmit(st, 0, 10), CONGESTION_OK);
        // 10 acked in slow start at 20 ms: cwnd 10 + 10 = 20 (tcp_slow_start).
        assert_eq!(congestion_on_ack(st, 20_000, 10, 20_000), CONGESTION_OK);
    }
    assert_eq!(cwnd(&s), 20);
    let mut phase = 99;
    assert_eq!(unsafe { congestion_phase(&*s, &mut phase) }, CONGESTION_OK);
    assert_eq!(phase, CONGESTION_PHASE_SLOW_START);
    // Linux tcp_update_pacing_rate: srtt = 20,000 µs (first sample, x8 = 160,000);
    // slow-start ratio 200 %: 1448 * 20 * 200/100 * 10^6 * 8 / 160,000 = 2,896,000 B/s.
    let mut rate = 0;
    assert_eq!(
        unsafe { congestion_send_pacing_rate(&*s, &mut rate) },
        CONGESTION_OK
    );
    assert_eq!(rate, 2_896_000);
    unsafe { assert_eq!(congestion_on_loss(st, 21_000), CONGESTION_OK) };
    // CUBIC ssthresh: 20 * 717 / 1024 = 14 (integer), and cwnd lands on it.
    let mut ss = 0;
    assert_eq!(unsafe { congestion_ssthresh(&*s, &mut ss) }, CONGESTION_OK);
    assert_eq!((cwnd(&s), ss), (14, 14));
    unsafe { assert_eq!(congestion_on_undo(st, 22_000), CONGESTION_OK) };
    // Undo restores the window (tcp_reno_undo_cwnd: max(cwnd, prior_cwnd) = 20).
    assert_eq!(cwnd(&s), 20);
}

#[test]
fn tsq_throttles_and_a_completion_reopens() {
    let mut cfg = config();
    cfg.pacing_status = 2; // fq paces: the TSQ limit follows the pacing rate
    let mut s = state(&cfg, 0);
    let st: *mut CongestionState = &mut *s;
    unsafe {
        congestion_on_transmit(st, 0, 10);
        // As above: pacing rate 2,896,000 B/s after one 20 ms sample and cwnd 20.
        congestion_on_ack(st, 20_000, 10, 20_000);
    }
    // TSQ limit = max(2 * 65,536, 2,896,000 >> 10 = 2,828) = 131,072 bytes; a packet
    // may go while the bytes already queued are at most that: 0, 65,536 and 131,072
    // pass, the fourth (196,608 queued) is throttled.
    let mut at = 0u64;
    let mut codes = Vec::new();
    for _ in 0..4 {
        codes.push(unsafe { congestion_send_enqueue(st, 20_000, 65_536, 45, 0, 0, &mut at) });
    }
    assert_eq!(
        codes,
        [
            CONGESTION_OK,
            CONGESTION_OK,
            CONGESTION_OK,
            CONGESTION_THROTTLED
        ]
    );
    assert_eq!(at, 0, "a throttled packet has no departure time");
    let (mut queued, mut limit, mut throttled) = (0u64, 0u64, 0u8);
    assert_eq!(
        unsafe { congestion_send_tsq(&*s, 65_536, &mut queued, &mut limit, &mut throttled) },
        CONGESTION_OK
    );
    assert_eq!((queued, limit, throttled), (196_608, 131_072, 1));
    // One completion brings the queue back to 131,072 <= the limit: reopened.
    let mut reopened = 0u8;
    assert_eq!(
        unsafe { congestion_send_tx_completion(st, 65_536, &mut reopened) },
        CONGESTION_OK
    );
    assert_eq!(reopened, 1);
    let mut departure = 0;
    assert_eq!(
        unsafe { congestion_send_next_departure_ns(&*s, &mut departure) },
        CONGESTION_OK
    );
    assert!(
        departure >= 20_000_000,
        "departures are stamped at or after now: {departure}"
    );
    let mut segs = 0;
    assert_eq!(
        unsafe { congestion_send_tso_segs(&*s, &mut segs) },
        CONGESTION_OK
    );
    assert!(segs >= 2, "at least tcp_min_tso_segs: {segs}");
}

#[test]
fn reconfigure_applies_to_the_running_flow_or_changes_nothing() {
    let cfg = config();
    let mut s = state(&cfg, 0);
    let st: *mut CongestionState = &mut *s;
    unsafe {
        congestion_on_transmit(st, 0, 10);
        congestion_on_ack(st, 20_000, 10, 20_000);
    }
    let limit = |s: &CongestionState| {
        let (mut q, mut l, mut t) = (0u64, 0u64, 0u8);
        assert_eq!(
            unsafe { congestion_send_tsq(s, 65_536, &mut q, &mut l, &mut t) },
            CONGESTION_OK
        );
        l
    };
    // Unpaced: max(2 * 65,536, rate >> 10) = 131,072, under the 4 MiB cap.
    assert_eq!(limit(&s), 131_072);
    let cwnd_before = cwnd(&s);
    let mut bad = cfg;
    bad.tsq_limit_bytes = 100_000;
    bad.beta = 0;
    assert_eq!(
        unsafe { congestion_reconfigure(st, &bad) },
        CONGESTION_ERR_BETA
    );
    assert_eq!(
        limit(&s),
        131_072,
        "a refused configuration changes nothing"
    );
    assert_eq!(
        unsafe { congestion_reconfigure(st, ptr::null()) },
        CONGESTION_ERR_NULL
    );
    let mut good = cfg;
    good.tsq_limit_bytes = 100_000;
    assert_eq!(unsafe { congestion_reconfigure(st, &good) }, CONGESTION_OK);
    // tcp_limit_output_bytes caps an unpaced flow's budget.
    assert_eq!(limit(&s), 100_000);
    assert_eq!(cwnd(&s), cwnd_before, "the flow's state is kept");
}
