//! The v0.2 event model through the C ABI, in both modes with the same calls: every lost
//! packet of one episode reported alone gives one reduction, a loss of a packet sent
//! after recovery began gives a second, lost amounts leave flight at once, CE-count
//! increases react once per recovery, RFC mode gives a pacing rate and a send quantum,
//! and a misaligned or too-small state is refused. Hand-computed values in comments.

#[path = "common/flows.rs"]
mod flows;

use congestion_ffi::*;
use flows::{
    get, linux_config, linux_params, linux_state, phase_of, rfc_config, rfc_params, rfc_state,
    rfc_state_on,
};
use std::ptr;

const UNKNOWN: u64 = CONGESTION_PACKET_UNKNOWN;

/// Linux mode, the kernel's defaults (IW10, β 717/1024): segments 0..=9 sent, so
/// `snd_nxt` (the `high_seq` of the first reduction) is 10.
fn linux_with_ten_sent() -> Box<CongestionLinuxCubicState> {
    let mut s = linux_state(&linux_config(), 0);
    assert_eq!(
        unsafe { congestion_linux_cubic_on_sent(&mut *s, 0, 10, 10) },
        CONGESTION_OK
    );
    s
}

/// RFC mode (MSS 1200, IW 12000) with packets 1..=10 sent, the flow counting.
fn rfc_with_ten_sent(cfg: &CongestionRfcCubicConfig) -> Box<CongestionRfcCubicState> {
    let mut s = rfc_state(cfg);
    for pn in 1..=10 {
        assert_eq!(
            unsafe { congestion_rfc_cubic_on_sent_counted(&mut *s, 0, 1_200, pn) },
            CONGESTION_OK
        );
    }
    assert_eq!(get(&*s, congestion_rfc_cubic_in_flight), 12_000);
    s
}

fn newreno() -> CongestionRfcCubicConfig {
    let mut c = rfc_config();
    c.algorithm = CONGESTION_RFC_ALGORITHM_NEWRENO;
    c
}

fn linux(s: &CongestionLinuxCubicState) -> (u64, u64, u64) {
    (
        get(s, congestion_linux_cubic_cwnd),
        get(s, congestion_linux_cubic_ssthresh),
        get(s, congestion_linux_cubic_in_flight),
    )
}

fn rfc(s: &CongestionRfcCubicState) -> (u64, u64, u64) {
    (
        get(s, congestion_rfc_cubic_cwnd),
        get(s, congestion_rfc_cubic_ssthresh),
        get(s, congestion_rfc_cubic_in_flight),
    )
}

const MS: u64 = 1_000;

#[test]
fn every_lost_packet_of_one_episode_reported_alone_gives_one_reduction() {
    let mut l = linux_with_ten_sent();
    for seq in 0..4 {
        unsafe { congestion_linux_cubic_on_loss(&mut *l, 30 * MS, 1, seq) };
    }
    // 10 · 717 >> 10 = 7, once; the four segments left flight: 10 - 4 = 6.
    assert_eq!(linux(&l), (7, 7, 6));
    assert_eq!(
        phase_of(&*l, congestion_linux_cubic_phase),
        CONGESTION_PHASE_RECOVERY
    );

    let mut r = rfc_with_ten_sent(&rfc_config());
    for pn in 1..=4 {
        unsafe { congestion_rfc_cubic_on_loss(&mut *r, 30 * MS, 1_200, pn) };
    }
    // CUBIC: 12000 · 0.7 = 8400, once; 12000 - 4 · 1200 = 7200 left in flight.
    assert_eq!(rfc(&r), (8_400, 8_400, 7_200));
    assert_eq!(
        phase_of(&*r, congestion_rfc_cubic_phase),
        CONGESTION_PHASE_RECOVERY
    );

    let mut n = rfc_with_ten_sent(&newreno());
    for pn in 1..=4 {
        unsafe { congestion_rfc_cubic_on_loss(&mut *n, 30 * MS, 1_200, pn) };
    }
    // NewReno: 12000 / 2 = 6000, once.
    assert_eq!(rfc(&n), (6_000, 6_000, 7_200));
}

#[test]
fn a_loss_burst_and_its_stragglers_are_one_episode_too() {
    let mut l = linux_with_ten_sent();
    unsafe {
        congestion_linux_cubic_on_loss(&mut *l, 30 * MS, 3, 2); // segments 0..=2, newest 2
        congestion_linux_cubic_on_loss(&mut *l, 31 * MS, 1, 4);
    }
    assert_eq!(linux(&l), (7, 7, 6));
    let mut r = rfc_with_ten_sent(&rfc_config());
    unsafe {
        congestion_rfc_cubic_on_loss(&mut *r, 30 * MS, 3 * 1_200, 3); // packets 1..=3
        congestion_rfc_cubic_on_loss(&mut *r, 31 * MS, 1_200, 5);
    }
    assert_eq!(rfc(&r), (8_400, 8_400, 7_200));
}

#[test]
fn a_loss_of_a_packet_sent_after_recovery_began_gives_a_second_reduction() {
    let mut l = linux_with_ten_sent();
    unsafe {
        congestion_linux_cubic_on_loss(&mut *l, 30 * MS, 1, 0);
        // Segment 10 goes out in the recovery period (9 + 1 in flight) ...
        congestion_linux_cubic_on_sent(&mut *l, 31 * MS, 10, 11);
    }
    assert_eq!(linux(&l), (7, 7, 10));
    // ... and is lost: sequence 10 is not before high_seq 10, so 7 · 717 >> 10 = 4.
    unsafe { congestion_linux_cubic_on_loss(&mut *l, 60 * MS, 1, 10) };
    assert_eq!(linux(&l), (4, 4, 9));
    // Segment 1, sent before both reductions, only leaves flight.
    unsafe { congestion_linux_cubic_on_loss(&mut *l, 61 * MS, 1, 1) };
    assert_eq!(linux(&l), (4, 4, 8));

    for (cfg, first, second) in [(rfc_config(), 8_400, 5_880), (newreno(), 6_000, 3_000)] {
        let mut r = rfc_with_ten_sent(&cfg);
        unsafe {
            congestion_rfc_cubic_on_loss(&mut *r, 30 * MS, 1_200, 1);
            congestion_rfc_cubic_on_sent_counted(&mut *r, 31 * MS, 1_200, 11);
        }
        assert_eq!(get(&*r, congestion_rfc_cubic_cwnd), first);
        // Packet 11 was sent after the reduction: CUBIC 8400 · 0.7 = 5880 (fast
        // convergence only moves W_max), NewReno 6000 / 2 = 3000.
        unsafe { congestion_rfc_cubic_on_loss(&mut *r, 60 * MS, 1_200, 11) };
        assert_eq!(get(&*r, congestion_rfc_cubic_cwnd), second);
        unsafe { congestion_rfc_cubic_on_loss(&mut *r, 61 * MS, 1_200, 2) };
        assert_eq!(get(&*r, congestion_rfc_cubic_cwnd), second);
        // 12000 + 1200 sent, 3 · 1200 lost.
        assert_eq!(get(&*r, congestion_rfc_cubic_in_flight), 9_600);
    }
}

#[test]
fn losses_named_by_send_time_follow_the_same_rule() {
    let mut l = linux_with_ten_sent();
    unsafe {
        // Sent at 0 ms, the reduction at 30 ms: one reduction for both.
        congestion_linux_cubic_on_loss_sent_at(&mut *l, 30 * MS, 1, 0);
        congestion_linux_cubic_on_loss_sent_at(&mut *l, 31 * MS, 1, 0);
        assert_eq!(linux(&l), (7, 7, 8));
        // A segment sent at 35 ms, after the period began: 7 · 717 >> 10 = 4.
        congestion_linux_cubic_on_sent_counted(&mut *l, 35 * MS, 1, 11);
        congestion_linux_cubic_on_loss_sent_at(&mut *l, 70 * MS, 1, 35 * MS);
    }
    assert_eq!(linux(&l), (4, 4, 8));
    let mut r = rfc_with_ten_sent(&rfc_config());
    unsafe {
        congestion_rfc_cubic_on_loss_sent_at(&mut *r, 30 * MS, 1_200, 0);
        congestion_rfc_cubic_on_loss_sent_at(&mut *r, 31 * MS, 1_200, 0);
        assert_eq!(get(&*r, congestion_rfc_cubic_cwnd), 8_400);
        congestion_rfc_cubic_on_sent_counted(&mut *r, 35 * MS, 1_200, 11);
        congestion_rfc_cubic_on_loss_sent_at(&mut *r, 70 * MS, 1_200, 35 * MS);
    }
    assert_eq!(get(&*r, congestion_rfc_cubic_cwnd), 5_880);
}

#[test]
fn unknown_packets_are_each_a_congestion_event_as_in_0_1() {
    let mut l = linux_with_ten_sent();
    unsafe {
        congestion_linux_cubic_on_loss(&mut *l, 30 * MS, 0, UNKNOWN);
        congestion_linux_cubic_on_loss(&mut *l, 30 * MS, 0, UNKNOWN);
    }
    // 10 · 717 >> 10 = 7, then 7 · 717 >> 10 = 4.
    assert_eq!(get(&*l, congestion_linux_cubic_cwnd), 4);
    let mut r = rfc_with_ten_sent(&rfc_config());
    unsafe {
        congestion_rfc_cubic_on_loss(&mut *r, 30 * MS, 1_200, UNKNOWN);
        congestion_rfc_cubic_on_loss(&mut *r, 30 * MS, 1_200, UNKNOWN);
    }
    // 12000 · 0.7 = 8400, then 8400 · 0.7 = 5880.
    assert_eq!(get(&*r, congestion_rfc_cubic_cwnd), 5_880);
}

#[test]
fn lost_and_discarded_amounts_leave_flight_at_once() {
    let mut l = linux_with_ten_sent();
    unsafe { congestion_linux_cubic_on_loss(&mut *l, 30 * MS, 3, 2) };
    assert_eq!(get(&*l, congestion_linux_cubic_in_flight), 7);
    unsafe { congestion_linux_cubic_on_discarded(&mut *l, 31 * MS, 2) };
    assert_eq!(get(&*l, congestion_linux_cubic_in_flight), 5);
    unsafe { congestion_linux_cubic_on_discarded(&mut *l, 32 * MS, 100) };
    assert_eq!(
        get(&*l, congestion_linux_cubic_in_flight),
        0,
        "never below zero"
    );

    let mut r = rfc_with_ten_sent(&rfc_config());
    unsafe { congestion_rfc_cubic_on_discarded(&mut *r, 5 * MS, 2_400) };
    // A discard is not a congestion signal.
    assert_eq!(rfc(&r), (12_000, CONGESTION_SSTHRESH_NONE, 9_600));
    unsafe { congestion_rfc_cubic_on_loss(&mut *r, 30 * MS, 2_400, 3) };
    assert_eq!(rfc(&r), (8_400, 8_400, 7_200));
    unsafe { congestion_rfc_cubic_on_loss(&mut *r, 31 * MS, u64::MAX, 10) };
    assert_eq!(get(&*r, congestion_rfc_cubic_in_flight), 0);
}

#[test]
fn ce_count_increases_react_once_per_recovery() {
    let mut l = linux_with_ten_sent();
    unsafe { congestion_linux_cubic_on_ecn(&mut *l, 30 * MS, 1, 1) };
    // tcp_enter_cwr: 10 · 717 >> 10 = 7; nothing leaves flight.
    assert_eq!(linux(&l), (7, 7, 10));
    unsafe {
        congestion_linux_cubic_on_ecn(&mut *l, 31 * MS, 3, 9); // acked up to 9 < high_seq 10
        congestion_linux_cubic_on_ecn(&mut *l, 31 * MS, 0, 10); // a rise of 0
    }
    assert_eq!(linux(&l), (7, 7, 10));
    unsafe { congestion_linux_cubic_on_ecn(&mut *l, 60 * MS, 1, 10) };
    assert_eq!(get(&*l, congestion_linux_cubic_cwnd), 4);

    let mut r = rfc_with_ten_sent(&rfc_config());
    unsafe {
        // Slow start: 12000 + 2400 acked = 14400; CE on the ACK of packet 2.
        congestion_rfc_cubic_on_ack(&mut *r, 20 * MS, 2_400, 2, 20_000, 0);
        congestion_rfc_cubic_on_ecn(&mut *r, 20 * MS, 1, 2);
    }
    // ECN β 0.7: 14400 · 0.7 = 10080.
    assert_eq!(get(&*r, congestion_rfc_cubic_cwnd), 10_080);
    unsafe {
        congestion_rfc_cubic_on_ecn(&mut *r, 21 * MS, 2, 3);
        congestion_rfc_cubic_on_ecn(&mut *r, 21 * MS, 1, 10);
        congestion_rfc_cubic_on_sent_counted(&mut *r, 22 * MS, 1_200, 11);
        congestion_rfc_cubic_on_ecn(&mut *r, 40 * MS, 0, 11);
    }
    assert_eq!(get(&*r, congestion_rfc_cubic_cwnd), 10_080);
    assert_eq!(
        get(&*r, congestion_rfc_cubic_in_flight),
        12_000 - 2_400 + 1_200
    );
    // CE on packet 11, sent after the reduction: 10080 · 0.7 = 7056.
    unsafe { congestion_rfc_cubic_on_ecn(&mut *r, 40 * MS, 1, 11) };
    assert_eq!(get(&*r, congestion_rfc_cubic_cwnd), 7_056);
}

#[test]
fn rto_and_persistent_congestion_always_act() {
    let mut l = linux_with_ten_sent();
    unsafe {
        congestion_linux_cubic_on_loss(&mut *l, 30 * MS, 1, 0);
        // Persistent congestion is an RTO with the head retransmitted: cwnd 1.
        congestion_linux_cubic_on_persistent_congestion(&mut *l, 31 * MS, 5);
    }
    assert_eq!(get(&*l, congestion_linux_cubic_cwnd), 1);
    assert_eq!(
        phase_of(&*l, congestion_linux_cubic_phase),
        CONGESTION_PHASE_SLOW_START
    );

    let mut r = rfc_with_ten_sent(&rfc_config());
    unsafe {
        congestion_rfc_cubic_on_loss(&mut *r, 30 * MS, 1_200, 1);
        congestion_rfc_cubic_on_persistent_congestion(&mut *r, 31 * MS, 1_200);
    }
    // RFC 9002 §7.6.2: kMinimumWindow = 2 · 1200.
    assert_eq!(get(&*r, congestion_rfc_cubic_cwnd), 2_400);
    unsafe { congestion_rfc_cubic_on_rto(&mut *r, 40 * MS) };
    assert_eq!(get(&*r, congestion_rfc_cubic_cwnd), 1_200);
    // The rest of the lost flight does not reduce again.
    unsafe { congestion_rfc_cubic_on_loss(&mut *r, 41 * MS, 1_200, 9) };
    assert_eq!(get(&*r, congestion_rfc_cubic_cwnd), 1_200);
}

#[test]
fn recovery_ends_with_the_ack_of_a_packet_sent_after_it_in_both_modes() {
    let mut l = linux_with_ten_sent();
    unsafe {
        congestion_linux_cubic_on_loss(&mut *l, 30 * MS, 0, UNKNOWN);
        congestion_linux_cubic_on_ack(&mut *l, 40 * MS, 5, 5, 20_000, 0);
    }
    assert_eq!(
        phase_of(&*l, congestion_linux_cubic_phase),
        CONGESTION_PHASE_RECOVERY
    );
    unsafe { congestion_linux_cubic_on_ack(&mut *l, 50 * MS, 5, 10, 20_000, 0) };
    // snd_una 10 reached high_seq 10: congestion avoidance at cwnd = ssthresh = 7.
    assert_eq!(
        phase_of(&*l, congestion_linux_cubic_phase),
        CONGESTION_PHASE_CONGESTION_AVOIDANCE
    );

    let mut r = rfc_with_ten_sent(&rfc_config());
    unsafe {
        congestion_rfc_cubic_on_loss(&mut *r, 30 * MS, 1_200, 1);
        congestion_rfc_cubic_on_ack(&mut *r, 40 * MS, 1_200, 10, 20_000, 0);
    }
    assert_eq!(
        phase_of(&*r, congestion_rfc_cubic_phase),
        CONGESTION_PHASE_RECOVERY
    );
    unsafe {
        congestion_rfc_cubic_on_sent_counted(&mut *r, 40 * MS, 1_200, 11);
        congestion_rfc_cubic_on_ack(&mut *r, 60 * MS, 1_200, 11, 20_000, 0);
    }
    assert_eq!(
        phase_of(&*r, congestion_rfc_cubic_phase),
        CONGESTION_PHASE_CONGESTION_AVOIDANCE
    );
}

#[test]
fn an_rfc_mode_flow_gives_a_pacing_rate_and_a_send_quantum() {
    for cfg in [rfc_config(), newreno()] {
        let mut r = rfc_with_ten_sent(&cfg);
        // Before any RTT sample: not paced.
        assert_eq!(
            get(&*r, congestion_rfc_cubic_pacing_rate),
            CONGESTION_RATE_UNLIMITED
        );
        unsafe { congestion_rfc_cubic_on_ack(&mut *r, 20 * MS, 2_400, 2, 20_000, 0) };
        // Slow start: cwnd 14400, srtt 20 ms; Linux's rule at 200 %:
        // 14400 · 2 / 0.020 s = 1,440,000 B/s.
        assert_eq!(get(&*r, congestion_rfc_cubic_cwnd), 14_400);
        assert_eq!(get(&*r, congestion_rfc_cubic_pacing_rate), 1_440_000);
        // tcp_tso_autosize: 1440000 >> 10 = 1406 bytes, 1 segment; the 20 ms minimum RTT
        // adds nothing (20000 >> 9 = 39 >= 32); at least 2 segments: 2400 bytes.
        assert_eq!(get(&*r, congestion_rfc_cubic_send_quantum), 2_400);
        assert_eq!(get(&*r, congestion_rfc_cubic_mss), 1_200);
    }
    // RFC 9002 §7.7: 1.25 · 14400 / 0.020 s = 900,000 B/s.
    let mut c = rfc_config();
    c.pacing_formula = CONGESTION_PACING_FORMULA_RFC9002;
    let params = rfc_params(&c);
    let mut r = rfc_state_on(params);
    for pn in 1..=10 {
        unsafe { congestion_rfc_cubic_on_sent_counted(&mut *r, 0, 1_200, pn) };
    }
    unsafe { congestion_rfc_cubic_on_ack(&mut *r, 20 * MS, 2_400, 2, 20_000, 0) };
    assert_eq!(get(&*r, congestion_rfc_cubic_pacing_rate), 900_000);
    // A cap applies (sk_max_pacing_rate's role): 500,000 B/s.
    c.max_pacing_rate = 500_000;
    assert_eq!(
        unsafe { congestion_rfc_cubic_reconfigure(params, &mut *r, &c) },
        CONGESTION_OK
    );
    assert_eq!(get(&*r, congestion_rfc_cubic_pacing_rate), 500_000);
}

/// A pointer 4 bytes into an 8-byte aligned buffer: misaligned for either state.
fn misaligned<S>(buffer: &mut [u64]) -> *mut S {
    buffer.as_mut_ptr().cast::<u8>().wrapping_add(4).cast::<S>()
}

#[test]
fn a_misaligned_state_is_refused_before_anything_is_read_through_it() {
    let mut buffer = vec![0u64; CONGESTION_RFC_STATE_WORDS + 1];
    let (lc, rc) = (linux_config(), rfc_config());
    let (mut v, mut p) = (0u64, 0u32);
    let l = misaligned::<CongestionLinuxCubicState>(&mut buffer);
    let size = CONGESTION_LINUX_STATE_SIZE + 8;
    unsafe {
        assert_eq!(
            congestion_linux_cubic_init(l, size, linux_params(&lc), 0),
            CONGESTION_ERR_ALIGNMENT
        );
        let lp = misaligned::<CongestionLinuxCubicParams>(&mut buffer);
        assert_eq!(
            congestion_linux_cubic_params_init(lp, CONGESTION_LINUX_PARAMS_SIZE + 8, &lc),
            CONGESTION_ERR_ALIGNMENT
        );
        assert_eq!(
            congestion_linux_cubic_reconfigure(lp, &lc),
            CONGESTION_ERR_ALIGNMENT
        );
        assert_eq!(
            congestion_linux_cubic_on_sent(l, 0, 1, 1),
            CONGESTION_ERR_ALIGNMENT
        );
        assert_eq!(
            congestion_linux_cubic_on_ack(l, 0, 1, 1, 1, 0),
            CONGESTION_ERR_ALIGNMENT
        );
        assert_eq!(
            congestion_linux_cubic_on_loss(l, 0, 1, 1),
            CONGESTION_ERR_ALIGNMENT
        );
        assert_eq!(
            congestion_linux_cubic_on_ecn(l, 0, 1, 1),
            CONGESTION_ERR_ALIGNMENT
        );
        assert_eq!(
            congestion_linux_cubic_on_rto(l, 0),
            CONGESTION_ERR_ALIGNMENT
        );
        assert_eq!(
            congestion_linux_cubic_on_spurious(l, 0),
            CONGESTION_ERR_ALIGNMENT
        );
        assert_eq!(
            congestion_linux_cubic_cwnd(l, &mut v),
            CONGESTION_ERR_ALIGNMENT
        );
        assert_eq!(
            congestion_linux_cubic_phase(l, &mut p),
            CONGESTION_ERR_ALIGNMENT
        );
        assert_eq!(
            congestion_linux_cubic_pacing_rate(l, &mut v),
            CONGESTION_ERR_ALIGNMENT
        );
        assert_eq!(
            congestion_linux_cubic_send_poll(l, 0, 0, 0, &mut p, &mut p, &mut v),
            CONGESTION_ERR_ALIGNMENT
        );
        assert_eq!(
            congestion_linux_cubic_snapshot(l, &mut CongestionLinuxCubicSnapshot::default()),
            CONGESTION_ERR_ALIGNMENT
        );
    }
    let r = misaligned::<CongestionRfcCubicState>(&mut buffer);
    let size = CONGESTION_RFC_STATE_SIZE + 4;
    unsafe {
        assert_eq!(
            congestion_rfc_cubic_init(r, size, rfc_params(&rc), 0),
            CONGESTION_ERR_ALIGNMENT
        );
        assert_eq!(
            congestion_rfc_cubic_on_sent_counted(r, 0, 1, 1),
            CONGESTION_ERR_ALIGNMENT
        );
        assert_eq!(
            congestion_rfc_cubic_on_loss(r, 0, 1, 1),
            CONGESTION_ERR_ALIGNMENT
        );
        assert_eq!(
            congestion_rfc_cubic_on_persistent_congestion(r, 0, 1),
            CONGESTION_ERR_ALIGNMENT
        );
        assert_eq!(
            congestion_rfc_cubic_set_mss(r, 1_000),
            CONGESTION_ERR_ALIGNMENT
        );
        assert_eq!(
            congestion_rfc_cubic_ssthresh(r, &mut v),
            CONGESTION_ERR_ALIGNMENT
        );
        assert_eq!(
            congestion_rfc_cubic_send_quantum(r, &mut v),
            CONGESTION_ERR_ALIGNMENT
        );
    }
    assert!(buffer.iter().all(|&w| w == 0), "nothing was written");
}

#[test]
fn a_state_aligned_to_8_but_not_to_its_64_byte_line_is_refused() {
    // Both modes' states start a cache line (the flow's hot fields), so they need
    // 64-byte alignment: 8 bytes into a 64-byte aligned buffer is refused by both.
    #[repr(C, align(64))]
    struct Lines([u64; CONGESTION_RFC_STATE_WORDS + 8]);
    let mut buffer = Box::new(Lines([0; CONGESTION_RFC_STATE_WORDS + 8]));
    let at8 = buffer.0.as_mut_ptr().wrapping_add(1);
    let (lc, rc) = (linux_config(), rfc_config());
    let mut v = 0u64;
    unsafe {
        assert_eq!(
            congestion_linux_cubic_init(
                at8.cast(),
                CONGESTION_LINUX_STATE_SIZE,
                linux_params(&lc),
                0
            ),
            CONGESTION_ERR_ALIGNMENT
        );
        assert_eq!(
            congestion_linux_cubic_cwnd(at8.cast(), &mut v),
            CONGESTION_ERR_ALIGNMENT
        );
    }
    assert!(buffer.0.iter().all(|&w| w == 0), "nothing was written");
    unsafe {
        // An RFC-mode state needs its 64-byte line too.
        assert_eq!(
            congestion_rfc_cubic_init(at8.cast(), CONGESTION_RFC_STATE_SIZE, rfc_params(&rc), 0),
            CONGESTION_ERR_ALIGNMENT
        );
        // At its own 64-byte line the Linux state is taken.
        let line = buffer.0.as_mut_ptr().cast::<CongestionLinuxCubicState>();
        assert_eq!(
            congestion_linux_cubic_init(line, CONGESTION_LINUX_STATE_SIZE, linux_params(&lc), 0),
            CONGESTION_OK
        );
        assert_eq!(congestion_linux_cubic_cwnd(line, &mut v), CONGESTION_OK);
        assert_eq!(v, 10);
    }
}

#[test]
fn a_state_buffer_smaller_than_the_state_is_refused_at_init() {
    let mut l = Box::new(std::mem::MaybeUninit::<CongestionLinuxCubicState>::zeroed());
    let mut r = Box::new(std::mem::MaybeUninit::<CongestionRfcCubicState>::zeroed());
    let (lc, rc) = (linux_config(), rfc_config());
    let mut v = 0u64;
    unsafe {
        for size in [0, CONGESTION_LINUX_STATE_SIZE - 1] {
            assert_eq!(
                congestion_linux_cubic_init(l.as_mut_ptr(), size, linux_params(&lc), 0),
                CONGESTION_ERR_SIZE
            );
        }
        for size in [0, 352, CONGESTION_RFC_STATE_SIZE - 1] {
            assert_eq!(
                congestion_rfc_cubic_init(r.as_mut_ptr(), size, rfc_params(&rc), 0),
                CONGESTION_ERR_SIZE
            );
        }
        // Nothing written: still uninitialised.
        assert_eq!(
            congestion_linux_cubic_cwnd(l.as_ptr(), &mut v),
            CONGESTION_ERR_UNINITIALIZED
        );
        assert_eq!(
            congestion_rfc_cubic_cwnd(r.as_ptr(), &mut v),
            CONGESTION_ERR_UNINITIALIZED
        );
        // NULL is still NULL, and a larger buffer is fine.
        let size = CONGESTION_RFC_STATE_SIZE;
        assert_eq!(
            congestion_rfc_cubic_init(ptr::null_mut(), size, rfc_params(&rc), 0),
            CONGESTION_ERR_NULL
        );
        assert_eq!(
            congestion_rfc_cubic_init(r.as_mut_ptr(), size + 64, rfc_params(&rc), 0),
            CONGESTION_OK
        );
    }
}

/// Linux mode after lost segments left flight: the stack's flight (6 + 5 new segments)
/// puts `snd_una + packets_out` at 11, behind the stack's own `snd_nxt`, 15, which
/// `largest_sent` gives (the sequence after the last segment sent). The second reduction
/// takes 15 as its `high_seq`, so segment 12, sent before it, does not cut a third time.
#[test]
fn linux_a_loss_from_before_the_second_reduction_does_not_cut_a_third_time() {
    let mut l = linux_with_ten_sent();
    unsafe {
        for seq in 0..4 {
            congestion_linux_cubic_on_loss(&mut *l, 30 * MS, 1, seq); // one cut: 7, 6 in flight
        }
        // The stack sends segments 10..=14: 11 in flight by its count.
        congestion_linux_cubic_on_sent(&mut *l, 31 * MS, 11, 15);
        congestion_linux_cubic_on_loss(&mut *l, 60 * MS, 1, 10); // sent after: 7 · 717 >> 10 = 4
        assert_eq!(get(&*l, congestion_linux_cubic_cwnd), 4);
        // Segment 12 went out before this second reduction: no third one.
        congestion_linux_cubic_on_loss(&mut *l, 61 * MS, 1, 12);
    }
    assert_eq!(get(&*l, congestion_linux_cubic_cwnd), 4);
}
