//! An RFC-mode flow's send path through the C ABI (`congestion_rfc_cubic_send_*`): the flow
//! paces itself with hand-computed departures, TSQ throttles and reopens, the send path
//! takes its settings from the parameter block, and the C flow agrees event for event
//! with the Rust `PacedFlow` over `Cubic` fed the same stream.

#[path = "common/flows.rs"]
mod flows;

use congestion::hystart::PacingStatus;
use congestion::pacing::{NextPacket, PacedFlow, SendPathConfig, SendVerdict};
use congestion::rfc::{Cubic, CubicConfig};
use congestion::{AckEvent, CongestionController, Duration, Instant, LossEvent};
use congestion_ffi::*;
use flows::{get, linux_config, linux_params, rfc_config, rfc_params, rfc_state, rfc_state_on};
use std::ptr;

const MS: u64 = 1_000;

/// `congestion_rfc_cubic_send_poll` as (verdict, segments, departure_ns).
fn poll(s: &mut CongestionRfcCubicState, now_us: u64) -> (u32, u32, u64) {
    let (mut verdict, mut segments, mut departure) = (99, 99, 99);
    let rc = unsafe {
        congestion_rfc_cubic_send_poll(s, now_us, 0, 0, &mut verdict, &mut segments, &mut departure)
    };
    assert_eq!(rc, CONGESTION_OK);
    (verdict, segments, departure)
}

/// `congestion_rfc_cubic_send_enqueue` of a new-data packet: (code, departure_ns).
fn enqueue(s: &mut CongestionRfcCubicState, now_us: u64, len: u32, segments: u32) -> (i32, u64) {
    let mut departure = 99;
    let rc = unsafe {
        congestion_rfc_cubic_send_enqueue(s, now_us, len, segments, 0, 0, &mut departure)
    };
    (rc, departure)
}

/// A flow on `cfg` with ten 1200-byte packets sent at 0 (the flow counts them) and the
/// first two acknowledged at 20 ms with a 20 ms RTT: slow start, cwnd 14400, 9600 in
/// flight, Linux's pacing rate 200 % · 14400 / 0.020 s = 1,440,000 B/s.
fn flow_after_first_ack(cfg: &CongestionRfcCubicConfig) -> Box<CongestionRfcCubicState> {
    let mut s = rfc_state(cfg);
    for pn in 1..=10 {
        assert_eq!(
            unsafe { congestion_rfc_cubic_on_sent_counted(&mut *s, 0, 1_200, pn) },
            CONGESTION_OK
        );
    }
    assert_eq!(
        unsafe { congestion_rfc_cubic_on_ack(&mut *s, 20 * MS, 2_400, 2, 20_000, 0) },
        CONGESTION_OK
    );
    assert_eq!(get(&*s, congestion_rfc_cubic_cwnd), 14_400);
    assert_eq!(get(&*s, congestion_rfc_cubic_in_flight), 9_600);
    assert_eq!(get(&*s, congestion_rfc_cubic_pacing_rate), 1_440_000);
    s
}

#[test]
fn an_rfc_flow_that_paces_itself_waits_for_each_departure() {
    let mut cfg = rfc_config();
    cfg.pacing_status = 1; // the flow paces itself
    let mut s = rfc_state(&cfg);
    // Before any RTT sample nothing is paced: the initial window (12000 bytes, 10
    // packets) leaves at once in bursts of at most half the window, 5 segments.
    let mut pn = 0;
    while let (CONGESTION_SEND_NOW, segments, 0) = poll(&mut s, 0) {
        assert_eq!(segments, 5);
        let bytes = segments * 1_200;
        assert_eq!(enqueue(&mut s, 0, bytes, segments), (CONGESTION_OK, 0));
        pn += u64::from(segments);
        unsafe { congestion_rfc_cubic_on_sent_counted(&mut *s, 0, u64::from(bytes), pn) };
    }
    assert_eq!((pn, get(&*s, congestion_rfc_cubic_in_flight)), (10, 12_000));
    assert_eq!(poll(&mut s, 0), (CONGESTION_SEND_WAIT_FOR_ACK, 0, 0));
    // The NIC sends them: TSQ's queue is empty again.
    for _ in 0..2 {
        let mut reopened = 9u8;
        assert_eq!(
            unsafe { congestion_rfc_cubic_send_tx_completion(&mut *s, 6_000, &mut reopened) },
            CONGESTION_OK
        );
        assert_eq!(reopened, 0, "the flow was never throttled");
    }
    // The first ACK: 2 packets, RTT 20 ms, given once (to the flow and its send path).
    unsafe { congestion_rfc_cubic_on_ack(&mut *s, 20 * MS, 2_400, 2, 20_000, 0) };
    assert_eq!(get(&*s, congestion_rfc_cubic_cwnd), 14_400);
    // Linux's rule at 200 %: 14400 · 2 / 0.020 s = 1,440,000 B/s.
    assert_eq!(get(&*s, congestion_rfc_cubic_pacing_rate), 1_440_000);
    // tcp_tso_autosize: 1,440,000 >> 10 = 1406 bytes, one segment, at least 2; the
    // window has room for 4800 / 1200 = 4 segments (half the window is 6): 2.
    assert_eq!(poll(&mut s, 20 * MS), (CONGESTION_SEND_NOW, 2, 0));
    // The 11th and 12th segments are paced: 2400 B / 1,440,000 B/s = 1,666,666 ns, of
    // which the 20 ms the sender came late forgive at most half (Linux
    // tcp_update_skb_after_send): the next departure is 20,833,333 ns.
    assert_eq!(
        enqueue(&mut s, 20 * MS, 2_400, 2),
        (CONGESTION_OK, 20_000_000)
    );
    unsafe { congestion_rfc_cubic_on_sent_counted(&mut *s, 20 * MS, 2_400, 12) };
    assert_eq!(
        get(&*s, congestion_rfc_cubic_send_next_departure_ns),
        20_833_333
    );
    assert_eq!(
        poll(&mut s, 20 * MS + 1),
        (CONGESTION_SEND_WAIT_UNTIL, 0, 20_833_333)
    );
    // At 20,834 µs the next burst may go (the window's last 2400 bytes): 667 ns late,
    // so 1,666,666 - 667 ns later comes the one after.
    assert_eq!(poll(&mut s, 20_834), (CONGESTION_SEND_NOW, 2, 0));
    assert_eq!(
        enqueue(&mut s, 20_834, 2_400, 2),
        (CONGESTION_OK, 20_834_000)
    );
    unsafe { congestion_rfc_cubic_on_sent_counted(&mut *s, 20_834, 2_400, 14) };
    assert_eq!(
        get(&*s, congestion_rfc_cubic_send_next_departure_ns),
        22_499_999
    );
    // The window is full now.
    assert_eq!(poll(&mut s, 23 * MS), (CONGESTION_SEND_WAIT_FOR_ACK, 0, 0));
}

#[test]
fn the_send_quantum_is_the_send_paths_burst() {
    let mut s = flow_after_first_ack(&rfc_config());
    let mut segs = 0;
    assert_eq!(
        unsafe { congestion_rfc_cubic_send_tso_segs(&*s, &mut segs) },
        CONGESTION_OK
    );
    // As above: 2 segments of 1200 bytes.
    assert_eq!(
        (segs, get(&*s, congestion_rfc_cubic_send_quantum)),
        (2, 2_400)
    );
    assert_eq!(poll(&mut s, 20 * MS), (CONGESTION_SEND_NOW, 2, 0));
}

#[test]
fn tsq_throttles_an_rfc_flow_and_a_completion_reopens_it() {
    let mut cfg = rfc_config();
    cfg.pacing_status = 2; // fq paces: the TSQ limit follows the pacing rate
    let mut s = flow_after_first_ack(&cfg);
    // TSQ limit = max(2 · 65,536, 1,440,000 >> 10 = 1406) = 131,072 bytes: 0, 65,536
    // and 131,072 queued pass, the fourth packet (196,608 queued) is throttled.
    let codes: Vec<i32> = (0..4)
        .map(|_| enqueue(&mut s, 20 * MS, 65_536, 55).0)
        .collect();
    assert_eq!(
        codes,
        [
            CONGESTION_OK,
            CONGESTION_OK,
            CONGESTION_OK,
            CONGESTION_THROTTLED
        ]
    );
    let (mut queued, mut limit, mut throttled) = (0u64, 0u64, 0u8);
    assert_eq!(
        unsafe {
            congestion_rfc_cubic_send_tsq(&*s, 65_536, &mut queued, &mut limit, &mut throttled)
        },
        CONGESTION_OK
    );
    assert_eq!((queued, limit, throttled), (196_608, 131_072, 1));
    // One completion brings the queue back to 131,072 <= the limit: reopened, and
    // another 64 KiB packet passes.
    let mut reopened = 9u8;
    assert_eq!(
        unsafe { congestion_rfc_cubic_send_tx_completion(&mut *s, 65_536, &mut reopened) },
        CONGESTION_OK
    );
    assert_eq!(reopened, 1);
    assert_eq!(enqueue(&mut s, 20 * MS, 65_536, 55).0, CONGESTION_OK);
    // The poll judges the burst it would send (2 segments: limit max(2 · 2400, 1406)
    // = 4800 bytes) against the 196,608 queued: wait for completions.
    assert_eq!(
        poll(&mut s, 20 * MS),
        (CONGESTION_SEND_WAIT_FOR_TX_COMPLETION, 0, 0)
    );
}

#[test]
fn the_send_path_takes_its_settings_from_the_block_and_refuses_bad_ones() {
    let mut cfg = rfc_config();
    cfg.min_tso_segs = 4;
    let params = rfc_params(&cfg);
    let mut s = rfc_state_on(params);
    for pn in 1..=10 {
        unsafe { congestion_rfc_cubic_on_sent_counted(&mut *s, 0, 1_200, pn) };
    }
    unsafe { congestion_rfc_cubic_on_ack(&mut *s, 20 * MS, 2_400, 2, 20_000, 0) };
    // As above, but at least 4 segments per burst.
    assert_eq!(get(&*s, congestion_rfc_cubic_send_quantum), 4_800);
    // Reconfigured: from the next event on, 3.
    cfg.min_tso_segs = 3;
    assert_eq!(
        unsafe { congestion_rfc_cubic_reconfigure(params, &mut *s, &cfg) },
        CONGESTION_OK
    );
    assert_eq!(get(&*s, congestion_rfc_cubic_send_quantum), 3_600);
    // A bad send-path setting is refused with its own code, and changes nothing.
    let mut bad = cfg;
    bad.pacing_status = 3;
    assert_eq!(
        unsafe { congestion_rfc_cubic_reconfigure(params, &mut *s, &bad) },
        CONGESTION_ERR_PACING_STATUS
    );
    let mut bad = cfg;
    bad.pacing_shift = 32;
    assert_eq!(
        unsafe { congestion_rfc_cubic_reconfigure(params, &mut *s, &bad) },
        CONGESTION_ERR_SHIFT
    );
    let mut bad = cfg;
    bad.min_tso_segs = 0;
    let mut block = std::mem::MaybeUninit::<CongestionRfcCubicParams>::zeroed();
    let size = size_of::<CongestionRfcCubicParams>();
    assert_eq!(
        unsafe { congestion_rfc_cubic_params_init(block.as_mut_ptr(), size, &bad) },
        CONGESTION_ERR_ZERO_LIMIT
    );
    assert_eq!(get(&*s, congestion_rfc_cubic_send_quantum), 3_600);
}

#[test]
fn every_send_call_refuses_null_pointers_and_a_linux_state() {
    let mut s = rfc_state(&rfc_config());
    let st: *mut CongestionRfcCubicState = &mut *s;
    let null = ptr::null_mut::<CongestionRfcCubicState>();
    // A Linux-mode state in storage that could hold either (an RFC-mode call reads its
    // magic word where an RFC-mode state keeps it, past a Linux state's end).
    let mut either = Box::new(std::mem::MaybeUninit::<CongestionRfcCubicState>::zeroed());
    let other: *mut CongestionRfcCubicState = either.as_mut_ptr();
    let linux_size = CONGESTION_LINUX_STATE_SIZE;
    let linux_params = linux_params(&linux_config());
    assert_eq!(
        unsafe { congestion_linux_cubic_init(other.cast(), linux_size, linux_params, 0) },
        CONGESTION_OK
    );
    let (mut a, mut b, mut c, mut d) = (0u32, 0u32, 0u64, 0u64);
    let mut e = 0u8;
    for (state, code) in [
        (null, CONGESTION_ERR_NULL),
        (other, CONGESTION_ERR_UNINITIALIZED),
    ] {
        unsafe {
            assert_eq!(
                congestion_rfc_cubic_send_poll(state, 0, 0, 0, &mut a, &mut b, &mut c),
                code
            );
            assert_eq!(
                congestion_rfc_cubic_send_enqueue(state, 0, 1_200, 1, 0, 0, &mut c),
                code
            );
            assert_eq!(
                congestion_rfc_cubic_send_tx_completion(state, 1_200, &mut e),
                code
            );
            assert_eq!(
                congestion_rfc_cubic_send_next_departure_ns(state, &mut c),
                code
            );
            assert_eq!(congestion_rfc_cubic_send_tso_segs(state, &mut a), code);
            assert_eq!(
                congestion_rfc_cubic_send_tsq(state, 1_200, &mut c, &mut d, &mut e),
                code
            );
        }
    }
    unsafe {
        let nu32 = ptr::null_mut::<u32>();
        let nu64 = ptr::null_mut::<u64>();
        let nu8 = ptr::null_mut::<u8>();
        for rc in [
            congestion_rfc_cubic_send_poll(st, 0, 0, 0, nu32, &mut b, &mut c),
            congestion_rfc_cubic_send_poll(st, 0, 0, 0, &mut a, nu32, &mut c),
            congestion_rfc_cubic_send_poll(st, 0, 0, 0, &mut a, &mut b, nu64),
            congestion_rfc_cubic_send_enqueue(st, 0, 1_200, 1, 0, 0, nu64),
            congestion_rfc_cubic_send_tx_completion(st, 1_200, nu8),
            congestion_rfc_cubic_send_next_departure_ns(st, nu64),
            congestion_rfc_cubic_send_tso_segs(st, nu32),
            congestion_rfc_cubic_send_tsq(st, 1_200, nu64, &mut d, &mut e),
            congestion_rfc_cubic_send_tsq(st, 1_200, &mut c, nu64, &mut e),
            congestion_rfc_cubic_send_tsq(st, 1_200, &mut c, &mut d, nu8),
        ] {
            assert_eq!(rc, CONGESTION_ERR_NULL);
        }
    }
    // Nothing was queued by the refused calls.
    let (mut queued, mut limit, mut throttled) = (9u64, 0u64, 9u8);
    unsafe { congestion_rfc_cubic_send_tsq(st, 1_200, &mut queued, &mut limit, &mut throttled) };
    assert_eq!((queued, throttled), (0, 0));
}

/// A small deterministic generator (64-bit LCG, Knuth's MMIX constants).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % below
    }
}

#[test]
fn the_c_flow_agrees_with_paced_flow_event_for_event() {
    for (pacing_status, c_status) in [(PacingStatus::Needed, 1), (PacingStatus::Fq, 2)] {
        let mut cfg = rfc_config();
        cfg.pacing_status = c_status;
        let mut c = rfc_state(&cfg);
        let mut flow_config = CubicConfig::new();
        flow_config.paced = true; // what a nonzero pacing_status implies in C
        let cc = Cubic::new(flow_config, Instant::ZERO).expect("valid");
        let mut path = SendPathConfig::new();
        path.pacing_status = pacing_status;
        let mut rust = PacedFlow::new(cc, path.validate().expect("valid"));

        let mut rng = Lcg(u64::from(c_status));
        let (mut now, mut pn, mut acked, mut queued) = (0u64, 0u64, 0u64, 0u64);
        for step in 0..4_000 {
            now += rng.next(3 * MS);
            let (verdict, segments, departure) = poll(&mut c, now);
            let expected = match rust.poll(Instant::from_micros(now), &NextPacket::default()) {
                SendVerdict::Send { segments } => (CONGESTION_SEND_NOW, segments, 0),
                SendVerdict::WaitForAck => (CONGESTION_SEND_WAIT_FOR_ACK, 0, 0),
                SendVerdict::WaitUntil { departure_ns } => {
                    (CONGESTION_SEND_WAIT_UNTIL, 0, departure_ns)
                }
                SendVerdict::WaitForTxCompletion => (CONGESTION_SEND_WAIT_FOR_TX_COMPLETION, 0, 0),
            };
            assert_eq!(
                (verdict, segments, departure),
                expected,
                "poll, step {step}"
            );
            if verdict == CONGESTION_SEND_NOW {
                let bytes = u64::from(segments) * 1_200;
                let (rc, at) = enqueue(&mut c, now, bytes as u32, segments);
                assert_eq!(rc, CONGESTION_OK, "step {step}");
                pn += u64::from(segments);
                unsafe { congestion_rfc_cubic_on_sent_counted(&mut *c, now, bytes, pn) };
                rust.on_sent_counted(Instant::from_micros(now), bytes, pn);
                assert_eq!(at, rust.last_departure_ns(), "departure, step {step}");
                queued += bytes;
            }
            match rng.next(10) {
                // An ACK of up to 4 packets, RTT 20-40 ms, given once.
                0..=5 if acked < pn => {
                    let n = (1 + rng.next(4)).min(pn - acked);
                    acked += n;
                    let rtt = 20 * MS + rng.next(20 * MS);
                    unsafe {
                        congestion_rfc_cubic_on_ack(&mut *c, now, n * 1_200, acked, rtt as i64, 0)
                    };
                    let ack = AckEvent::new(n * 1_200, acked, Some(Duration::from_micros(rtt)));
                    rust.on_ack(Instant::from_micros(now), &ack);
                }
                // The newest outstanding packet is lost.
                6 if acked < pn => {
                    acked += 1;
                    unsafe { congestion_rfc_cubic_on_loss(&mut *c, now, 1_200, pn) };
                    rust.on_loss(Instant::from_micros(now), &LossEvent::packet(1_200, pn));
                }
                // The NIC reports a packet's worth of the queue sent.
                7 | 8 if queued > 0 => {
                    let len = queued.min(1_200 * (1 + rng.next(8)));
                    queued -= len;
                    let mut reopened = 0u8;
                    unsafe {
                        congestion_rfc_cubic_send_tx_completion(&mut *c, len as u32, &mut reopened)
                    };
                    assert_eq!(
                        reopened != 0,
                        rust.on_tx_completion(len as u32),
                        "step {step}"
                    );
                }
                _ => {}
            }
            assert_eq!(
                (
                    get(&*c, congestion_rfc_cubic_cwnd),
                    get(&*c, congestion_rfc_cubic_in_flight),
                    get(&*c, congestion_rfc_cubic_pacing_rate),
                    get(&*c, congestion_rfc_cubic_send_quantum),
                    get(&*c, congestion_rfc_cubic_send_next_departure_ns),
                ),
                (
                    rust.cwnd(),
                    rust.in_flight(),
                    rust.pacing_rate().as_bytes_per_second(),
                    rust.send_quantum_bytes(),
                    rust.send_path().pacer().next_departure_ns(),
                ),
                "step {step}"
            );
        }
        assert!(
            pn > 300 && acked > 300,
            "the stream sent {pn}, acked {acked}"
        );
    }
}
