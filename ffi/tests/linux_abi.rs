//! Linux mode through the C ABI, called from Rust as a C caller would: null checks,
//! uninitialised state, configuration errors, and the kernel's arithmetic through the
//! shared event set, with hand-computed results.

#[path = "common/flows.rs"]
mod flows;

use congestion_ffi::*;
use flows::{
    get, linux_config as config, linux_params, linux_state as state, linux_state_on, phase_of,
};
use std::mem::MaybeUninit;
use std::ptr;

fn cwnd(s: &CongestionLinuxCubicState) -> u64 {
    get(s, congestion_linux_cubic_cwnd)
}

#[test]
fn the_blob_and_the_config_are_the_sizes_the_header_states() {
    assert_eq!(
        size_of::<CongestionLinuxCubicState>(),
        CONGESTION_LINUX_STATE_SIZE
    );
    assert_eq!(
        align_of::<CongestionLinuxCubicState>(),
        CONGESTION_LINUX_STATE_ALIGN
    );
    assert_eq!(size_of::<CongestionLinuxCubicConfig>(), 96);
    assert_eq!(
        size_of::<CongestionLinuxCubicParams>(),
        CONGESTION_LINUX_PARAMS_SIZE
    );
}

#[test]
fn flows_on_one_parameter_block_share_it_and_run_apart() {
    let cfg = config();
    let params = linux_params(&cfg);
    let mut a = linux_state_on(params, 0);
    let mut b = linux_state_on(params, 0);
    unsafe {
        congestion_linux_cubic_on_sent(&mut *a, 0, 10, 10);
        congestion_linux_cubic_on_ack(&mut *a, 20_000, 4, 4, 20_000, 0);
    }
    // Slow start: 10 + 4 for the flow that was acked, the initial 10 for the other.
    assert_eq!((cwnd(&a), cwnd(&b)), (14, 10));
    // Reconfigured once, both flows see the new MSS.
    let mut bigger = cfg;
    bigger.mss = 9000;
    assert_eq!(
        unsafe { congestion_linux_cubic_reconfigure(params, &bigger) },
        CONGESTION_OK
    );
    assert_eq!(get(&*a, congestion_linux_cubic_mss), 9000);
    assert_eq!(get(&*b, congestion_linux_cubic_mss), 9000);
    unsafe { congestion_linux_cubic_on_sent(&mut *b, 0, 1, 1) };
    assert_eq!(get(&*b, congestion_linux_cubic_in_flight), 1);
}

#[test]
fn every_entry_point_refuses_null_pointers() {
    let cfg = config();
    let mut s = state(&cfg, 0);
    let st: *mut CongestionLinuxCubicState = &mut *s;
    let size = CONGESTION_LINUX_STATE_SIZE;
    let (mut u32v, mut u64v, mut u8v) = (0u32, 0u64, 0u8);
    let null = ptr::null_mut::<CongestionLinuxCubicState>();
    let unknown = CONGESTION_PACKET_UNKNOWN;
    unsafe {
        assert_eq!(
            congestion_linux_cubic_config_default(ptr::null_mut()),
            CONGESTION_ERR_NULL
        );
        let params = linux_params(&cfg);
        assert_eq!(
            congestion_linux_cubic_init(null, size, params, 0),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_init(st, size, ptr::null(), 0),
            CONGESTION_ERR_NULL
        );
        let params_size = CONGESTION_LINUX_PARAMS_SIZE;
        assert_eq!(
            congestion_linux_cubic_params_init(ptr::null_mut(), params_size, &cfg),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_params_init(params, params_size, ptr::null()),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_reconfigure(ptr::null_mut(), &cfg),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_on_sent(null, 0, 1, 1),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_on_sent_counted(null, 0, 1, 1),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_on_ack(null, 0, 1, 1, 10, 0),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_on_loss(null, 0, 1, unknown),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_on_loss_sent_at(null, 0, 1, 0),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_on_persistent_congestion(null, 0, 1),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_on_ecn(null, 0, 1, unknown),
            CONGESTION_ERR_NULL
        );
        assert_eq!(congestion_linux_cubic_on_rto(null, 0), CONGESTION_ERR_NULL);
        assert_eq!(
            congestion_linux_cubic_on_rto_retransmitted(null, 0, 1),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_on_discarded(null, 0, 1),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_on_spurious(null, 0),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_on_transmit_start(null, 0),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_set_last_send_jiffies(null, 0),
            CONGESTION_ERR_NULL
        );
        for getter in [
            congestion_linux_cubic_cwnd,
            congestion_linux_cubic_ssthresh,
            congestion_linux_cubic_in_flight,
            congestion_linux_cubic_pacing_rate,
            congestion_linux_cubic_send_quantum,
            congestion_linux_cubic_mss,
            congestion_linux_cubic_send_next_departure_ns,
        ] {
            assert_eq!(getter(null, &mut u64v), CONGESTION_ERR_NULL);
            assert_eq!(getter(st, ptr::null_mut()), CONGESTION_ERR_NULL);
        }
        assert_eq!(
            congestion_linux_cubic_phase(null, &mut u32v),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_phase(st, ptr::null_mut()),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_send_enqueue(null, 0, 1448, 1, 0, 0, &mut u64v),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_send_enqueue(st, 0, 1448, 1, 0, 0, ptr::null_mut()),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_send_tx_completion(null, 1448, &mut u8v),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_send_tx_completion(st, 1448, ptr::null_mut()),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_send_poll(null, 0, 0, 0, &mut u32v, &mut u32v, &mut u64v),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_send_poll(st, 0, 0, 0, ptr::null_mut(), &mut u32v, &mut u64v),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_send_tso_segs(null, &mut u32v),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_send_tsq(null, 1448, &mut u64v, &mut u64v, &mut u8v),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_linux_cubic_snapshot(null, ptr::null_mut()),
            CONGESTION_ERR_NULL
        );
    }
    // Nothing above touched the state: still IW10.
    assert_eq!(cwnd(&s), 10);
}

#[test]
fn a_zeroed_blob_is_reported_uninitialised() {
    let mut s = MaybeUninit::<CongestionLinuxCubicState>::zeroed();
    let mut v = 0u64;
    unsafe {
        assert_eq!(
            congestion_linux_cubic_on_loss(s.as_mut_ptr(), 0, 1, 0),
            CONGESTION_ERR_UNINITIALIZED
        );
        assert_eq!(
            congestion_linux_cubic_cwnd(s.as_ptr(), &mut v),
            CONGESTION_ERR_UNINITIALIZED
        );
    }
}

/// Breaks one setting of a configuration.
type Breaker = fn(&mut CongestionLinuxCubicConfig);

#[test]
fn bad_configuration_names_the_setting_and_leaves_the_block_alone() {
    let mut p = MaybeUninit::<CongestionLinuxCubicParams>::zeroed();
    let mut s = MaybeUninit::<CongestionLinuxCubicState>::zeroed();
    let cases: [(Breaker, i32); 6] = [
        (|c| c.beta = 1024, CONGESTION_ERR_BETA),
        (|c| c.mss = 0, CONGESTION_ERR_MSS),
        (|c| c.pacing_status = 3, CONGESTION_ERR_PACING_STATUS),
        (|c| c.hystart_detect = 4, CONGESTION_ERR_HYSTART_DETECT),
        (|c| c.init_cwnd = 0, CONGESTION_ERR_INITIAL_WINDOW),
        (|c| c.init_ssthresh = 1 << 32, CONGESTION_ERR_INITIAL_WINDOW),
    ];
    for (break_it, want) in cases {
        let mut cfg = config();
        break_it(&mut cfg);
        let size = CONGESTION_LINUX_PARAMS_SIZE;
        assert_eq!(
            unsafe { congestion_linux_cubic_params_init(p.as_mut_ptr(), size, &cfg) },
            want
        );
        // A block never initialised is refused by init, which writes nothing.
        let size = CONGESTION_LINUX_STATE_SIZE;
        assert_eq!(
            unsafe { congestion_linux_cubic_init(s.as_mut_ptr(), size, p.as_ptr(), 0) },
            CONGESTION_ERR_UNINITIALIZED
        );
        let mut v = 0u64;
        assert_eq!(
            unsafe { congestion_linux_cubic_cwnd(s.as_ptr(), &mut v) },
            CONGESTION_ERR_UNINITIALIZED
        );
    }
}

#[test]
fn no_ssthresh_is_uint64_max_in_the_config_and_the_getter() {
    let cfg = config();
    assert_eq!(cfg.init_ssthresh, CONGESTION_SSTHRESH_NONE);
    let s = state(&cfg, 0);
    assert_eq!(
        get(&*s, congestion_linux_cubic_ssthresh),
        CONGESTION_SSTHRESH_NONE
    );
    // The snapshot keeps the kernel's own value, TCP_INFINITE_SSTHRESH.
    let mut snap = CongestionLinuxCubicSnapshot::default();
    assert_eq!(
        unsafe { congestion_linux_cubic_snapshot(&*s, &mut snap) },
        CONGESTION_OK
    );
    assert_eq!(snap.ssthresh, 0x7fff_ffff);
    let mut cfg = config();
    cfg.init_ssthresh = 20;
    assert_eq!(get(&*state(&cfg, 0), congestion_linux_cubic_ssthresh), 20);
}

#[test]
fn slow_start_then_a_loss_through_the_abi() {
    let cfg = config();
    let mut s = state(&cfg, 0);
    let st: *mut CongestionLinuxCubicState = &mut *s;
    unsafe {
        assert_eq!(congestion_linux_cubic_on_sent(st, 0, 10, 10), CONGESTION_OK);
        // 10 acked in slow start at 20 ms: cwnd 10 + 10 = 20 (tcp_slow_start).
        assert_eq!(
            congestion_linux_cubic_on_ack(st, 20_000, 10, 10, 20_000, 0),
            CONGESTION_OK
        );
    }
    assert_eq!(cwnd(&s), 20);
    assert_eq!(get(&*s, congestion_linux_cubic_in_flight), 0);
    assert_eq!(
        phase_of(&*s, congestion_linux_cubic_phase),
        CONGESTION_PHASE_SLOW_START
    );
    // Linux tcp_update_pacing_rate: srtt = 20,000 µs (first sample, x8 = 160,000);
    // slow-start ratio 200 %: 1448 * 20 * 200/100 * 10^6 * 8 / 160,000 = 2,896,000 B/s.
    assert_eq!(get(&*s, congestion_linux_cubic_pacing_rate), 2_896_000);
    // tcp_tso_autosize: 2,896,000 >> 10 = 2,828 bytes, 1 segment; the 20 ms minimum RTT
    // adds nothing (20,000 >> 9 = 39 >= 32); at least tcp_min_tso_segs = 2: 2,896 bytes.
    assert_eq!(get(&*s, congestion_linux_cubic_send_quantum), 2 * 1448);
    assert_eq!(get(&*s, congestion_linux_cubic_mss), 1448);
    unsafe {
        assert_eq!(
            congestion_linux_cubic_on_loss(st, 21_000, 0, CONGESTION_PACKET_UNKNOWN),
            CONGESTION_OK
        )
    };
    // CUBIC ssthresh: 20 * 717 / 1024 = 14 (integer), and cwnd lands on it.
    assert_eq!(
        (cwnd(&s), get(&*s, congestion_linux_cubic_ssthresh)),
        (14, 14)
    );
    unsafe {
        assert_eq!(
            congestion_linux_cubic_on_spurious(st, 22_000),
            CONGESTION_OK
        )
    };
    // Undo restores the window (tcp_reno_undo_cwnd: max(cwnd, prior_cwnd) = 20).
    assert_eq!(cwnd(&s), 20);
}

#[test]
fn an_rto_restarts_from_one_segment_or_from_what_was_retransmitted() {
    let cfg = config();
    let mut s = state(&cfg, 0);
    unsafe {
        congestion_linux_cubic_on_sent(&mut *s, 0, 10, 10);
        congestion_linux_cubic_on_rto(&mut *s, 300_000);
    }
    // tcp_enter_loss: ssthresh = 10 * 717 / 1024 = 7, cwnd 1, the head resent.
    assert_eq!(
        (cwnd(&s), get(&*s, congestion_linux_cubic_ssthresh)),
        (1, 7)
    );
    assert_eq!(get(&*s, congestion_linux_cubic_in_flight), 1);
    assert_eq!(
        phase_of(&*s, congestion_linux_cubic_phase),
        CONGESTION_PHASE_SLOW_START
    );
    let mut t = state(&cfg, 0);
    unsafe {
        congestion_linux_cubic_on_sent(&mut *t, 0, 10, 10);
        congestion_linux_cubic_on_rto_retransmitted(&mut *t, 300_000, 3);
    }
    assert_eq!(get(&*t, congestion_linux_cubic_in_flight), 3);
}

#[test]
fn tsq_throttles_and_a_completion_reopens() {
    let mut cfg = config();
    cfg.pacing_status = 2; // fq paces: the TSQ limit follows the pacing rate
    let mut s = state(&cfg, 0);
    let st: *mut CongestionLinuxCubicState = &mut *s;
    unsafe {
        congestion_linux_cubic_on_sent(st, 0, 10, 10);
        // As above: pacing rate 2,896,000 B/s after one 20 ms sample and cwnd 20.
        congestion_linux_cubic_on_ack(st, 20_000, 10, 10, 20_000, 0);
    }
    // TSQ limit = max(2 * 65,536, 2,896,000 >> 10 = 2,828) = 131,072 bytes; a packet
    // may go while the bytes already queued are at most that: 0, 65,536 and 131,072
    // pass, the fourth (196,608 queued) is throttled.
    let mut at = 0u64;
    let mut codes = Vec::new();
    for _ in 0..4 {
        codes.push(unsafe {
            congestion_linux_cubic_send_enqueue(st, 20_000, 65_536, 45, 0, 0, &mut at)
        });
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
        unsafe {
            congestion_linux_cubic_send_tsq(&*s, 65_536, &mut queued, &mut limit, &mut throttled)
        },
        CONGESTION_OK
    );
    assert_eq!((queued, limit, throttled), (196_608, 131_072, 1));
    // One completion brings the queue back to 131,072 <= the limit: reopened.
    let mut reopened = 0u8;
    assert_eq!(
        unsafe { congestion_linux_cubic_send_tx_completion(st, 65_536, &mut reopened) },
        CONGESTION_OK
    );
    assert_eq!(reopened, 1);
    let departure = get(&*s, congestion_linux_cubic_send_next_departure_ns);
    assert!(
        departure >= 20_000_000,
        "departures are stamped at or after now: {departure}"
    );
    let mut segs = 0;
    assert_eq!(
        unsafe { congestion_linux_cubic_send_tso_segs(&*s, &mut segs) },
        CONGESTION_OK
    );
    // The send quantum is the same burst, in bytes.
    assert_eq!(
        u64::from(segs) * 1448,
        get(&*s, congestion_linux_cubic_send_quantum)
    );
}

#[test]
fn reconfigure_applies_to_the_running_flows_or_changes_nothing() {
    let cfg = config();
    let params_ptr = linux_params(&cfg);
    let mut s = linux_state_on(params_ptr, 0);
    let st: *mut CongestionLinuxCubicState = &mut *s;
    unsafe {
        congestion_linux_cubic_on_sent(st, 0, 10, 10);
        congestion_linux_cubic_on_ack(st, 20_000, 10, 10, 20_000, 0);
    }
    let limit = |s: &CongestionLinuxCubicState| {
        let (mut q, mut l, mut t) = (0u64, 0u64, 0u8);
        assert_eq!(
            unsafe { congestion_linux_cubic_send_tsq(s, 65_536, &mut q, &mut l, &mut t) },
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
        unsafe { congestion_linux_cubic_reconfigure(params_ptr, &bad) },
        CONGESTION_ERR_BETA
    );
    assert_eq!(
        limit(&s),
        131_072,
        "a refused configuration changes nothing"
    );
    assert_eq!(
        unsafe { congestion_linux_cubic_reconfigure(params_ptr, ptr::null()) },
        CONGESTION_ERR_NULL
    );
    let mut good = cfg;
    good.tsq_limit_bytes = 100_000;
    assert_eq!(
        unsafe { congestion_linux_cubic_reconfigure(params_ptr, &good) },
        CONGESTION_OK
    );
    // tcp_limit_output_bytes caps an unpaced flow's budget.
    assert_eq!(limit(&s), 100_000);
    assert_eq!(cwnd(&s), cwnd_before, "the flow's state is kept");
}
