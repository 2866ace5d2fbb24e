//! One function per event. Each returns `CONGESTION_OK` or a negative code; none
//! allocates, blocks or panics.

use crate::state::{self, CongestionState, Inner};
use crate::*;
use congestion::linux::{LinuxFlow, LinuxFlowConfig};
use congestion::pacing::{Enqueue, Rate, SendContext, SendPath, SendVerdict};
use congestion::{Duration, Instant};

/// Runs `f` on the state behind `state`, or returns the error code.
///
/// # Safety
/// As [`state::get`].
unsafe fn with(state: *mut CongestionState, f: impl FnOnce(&mut Inner)) -> i32 {
    // SAFETY: forwarded contract.
    match unsafe { state::get(state) } {
        Ok(inner) => {
            f(inner);
            CONGESTION_OK
        }
        Err(code) => code,
    }
}

/// The flow's pacing rate as a [`Rate`].
pub(crate) fn pacing_rate(inner: &Inner) -> Rate {
    Rate::from_bytes_per_second(inner.flow.pacing_rate())
}

/// Initialises `*state` from `*config` at `now_us` (Linux `tcp_init_congestion_control`);
/// nothing is in flight. On error `*state` is left untouched.
///
/// Returns `CONGESTION_OK`, `CONGESTION_ERR_NULL`, or a `CONGESTION_ERR_*` configuration
/// code naming the refused setting.
///
/// # Safety
/// `state` is NULL or valid for writes of `CONGESTION_STATE_SIZE` bytes aligned to
/// `CONGESTION_STATE_ALIGN`; `config` is NULL or points to a readable `CongestionConfig`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_init(
    state: *mut CongestionState,
    config: *const CongestionConfig,
    now_us: u64,
) -> i32 {
    if state.is_null() || config.is_null() {
        return CONGESTION_ERR_NULL;
    }
    // SAFETY: non-null and readable per the contract; CongestionConfig is plain integers.
    let config = unsafe { config.read() };
    let (params, socket, send) = match config.to_rust() {
        Ok(v) => v,
        Err(code) => return code,
    };
    let flow_config = LinuxFlowConfig::from_parts(*params.config(), socket);
    let flow = match LinuxFlow::new(flow_config, Instant::from_micros(now_us)) {
        Ok(f) => f,
        Err(e) => return crate::config::code(e),
    };
    // SAFETY: non-null, and valid and aligned per the contract.
    unsafe { state::write(state, Inner::new(flow, SendPath::new(send))) };
    CONGESTION_OK
}

/// The transmit step: after sending, `in_flight` segments are outstanding (Linux
/// `tcp_event_data_sent` + `tcp_cwnd_validate`). Call after every send, and after the
/// sends an ACK allowed.
///
/// # Safety
/// `state` is NULL or an initialised state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_on_transmit(
    state: *mut CongestionState,
    now_us: u64,
    in_flight: u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        with(state, |s| {
            s.flow.transmit(Instant::from_micros(now_us), in_flight)
        })
    }
}

/// An ACK for `acked` segments; `rtt_us` is its RTT sample, or negative for none.
/// Samples above 2^31 - 1 µs are clamped to it.
///
/// # Safety
/// `state` is NULL or an initialised state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_on_ack(
    state: *mut CongestionState,
    now_us: u64,
    acked: u32,
    rtt_us: i64,
) -> i32 {
    let now = Instant::from_micros(now_us);
    let rtt = u32::try_from(rtt_us.min(i64::from(i32::MAX))).ok();
    // SAFETY: forwarded contract.
    unsafe {
        with(state, |s| {
            s.flow.ack(now, acked, rtt);
            if let Some(r) = rtt {
                s.send
                    .on_rtt_sample(now, Duration::from_micros(u64::from(r)));
            }
        })
    }
}

/// A fast-retransmit loss event (recovery entered and left at once; PRR is the stack's).
///
/// # Safety
/// `state` is NULL or an initialised state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_on_loss(state: *mut CongestionState, now_us: u64) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { with(state, |s| s.flow.loss(Instant::from_micros(now_us))) }
}

/// An ECN-CE echo: the loss reduction through CWR, without undo.
///
/// # Safety
/// `state` is NULL or an initialised state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_on_ecn(state: *mut CongestionState, now_us: u64) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { with(state, |s| s.flow.ecn(Instant::from_micros(now_us))) }
}

/// A retransmission timeout; `retransmitted` segments (usually 1) go out again.
///
/// # Safety
/// `state` is NULL or an initialised state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_on_rto(
    state: *mut CongestionState,
    now_us: u64,
    retransmitted: u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        with(state, |s| {
            s.flow.rto(Instant::from_micros(now_us), retransmitted)
        })
    }
}

/// The last reduction was spurious (DSACK, F-RTO): undo it. Ignored if nothing to undo.
///
/// # Safety
/// `state` is NULL or an initialised state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_on_undo(state: *mut CongestionState, now_us: u64) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { with(state, |s| s.flow.undo(Instant::from_micros(now_us))) }
}

/// An explicit transmit start after idle (`CA_EVENT_TX_START`): the CUBIC epoch moves
/// by the idle time since the last send. [`congestion_on_transmit`] already does this
/// when sending into an empty pipe.
///
/// # Safety
/// `state` is NULL or an initialised state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_on_transmit_start(
    state: *mut CongestionState,
    now_us: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        with(state, |s| {
            s.flow.transmit_start(Instant::from_micros(now_us))
        })
    }
}

/// Overrides the time of the last send (`lsndtime`), in jiffies (ms), for stacks whose
/// own bookkeeping owns it.
///
/// # Safety
/// `state` is NULL or an initialised state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_set_last_send_jiffies(
    state: *mut CongestionState,
    jiffies: u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { with(state, |s| s.flow.set_last_send_jiffies(jiffies)) }
}

/// The send path's decision before a transmission (window, pacer, TSQ, TSO in the order
/// of Linux `tcp_write_xmit`). `*verdict` gets a `CONGESTION_SEND_*` value; `*segments`
/// the burst size when it is `CONGESTION_SEND_NOW`; `*departure_ns` the time to ask
/// again when it is `CONGESTION_SEND_WAIT_UNTIL` (both 0 otherwise).
///
/// # Safety
/// `state` is NULL or an initialised state not used concurrently; the out-pointers are
/// NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_send_poll(
    state: *mut CongestionState,
    now_us: u64,
    in_flight: u32,
    retransmit: u8,
    rtx_queue_at_most_one: u8,
    verdict: *mut u32,
    segments: *mut u32,
    departure_ns: *mut u64,
) -> i32 {
    if verdict.is_null() || segments.is_null() || departure_ns.is_null() {
        return CONGESTION_ERR_NULL;
    }
    let mut out = (CONGESTION_SEND_WAIT_FOR_ACK, 0, 0);
    // SAFETY: forwarded contract.
    let rc = unsafe {
        with(state, |s| {
            let ctx = SendContext {
                now: Instant::from_micros(now_us),
                in_flight: u64::from(in_flight),
                mss: s.flow.socket_config().mss,
                pacing_rate: pacing_rate(s),
                retransmit: retransmit != 0,
                rtx_queue_at_most_one: rtx_queue_at_most_one != 0,
            };
            out = match s.send.poll(&s.flow, &ctx) {
                SendVerdict::Send { segments } => (CONGESTION_SEND_NOW, segments, 0),
                SendVerdict::WaitForAck => (CONGESTION_SEND_WAIT_FOR_ACK, 0, 0),
                SendVerdict::WaitUntil { departure_ns } => {
                    (CONGESTION_SEND_WAIT_UNTIL, 0, departure_ns)
                }
                SendVerdict::WaitForTxCompletion => (CONGESTION_SEND_WAIT_FOR_TX_COMPLETION, 0, 0),
            };
        })
    };
    if rc == CONGESTION_OK {
        // SAFETY: non-null and writable per the contract.
        unsafe {
            verdict.write(out.0);
            segments.write(out.1);
            departure_ns.write(out.2);
        }
    }
    rc
}

/// A packet of `len_bytes` carrying `segments` segments is handed to the qdisc/NIC
/// (Linux `tcp_small_queue_check` then the departure stamp). Returns `CONGESTION_OK` and
/// its earliest departure time in `*departure_ns`, or `CONGESTION_THROTTLED` (nothing
/// queued, `*departure_ns` = 0) when TSQ holds the flow back until a TX completion.
///
/// # Safety
/// `state` is NULL or an initialised state not used concurrently; `departure_ns` is NULL
/// or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_on_qdisc_enqueue(
    state: *mut CongestionState,
    now_us: u64,
    len_bytes: u32,
    segments: u32,
    retransmit: u8,
    rtx_queue_at_most_one: u8,
    departure_ns: *mut u64,
) -> i32 {
    if departure_ns.is_null() {
        return CONGESTION_ERR_NULL;
    }
    let mut out = Enqueue::Throttled;
    // SAFETY: forwarded contract.
    let rc = unsafe {
        with(state, |s| {
            let rate = pacing_rate(s);
            out = s.send.try_enqueue(
                Instant::from_micros(now_us),
                len_bytes,
                segments,
                rate,
                retransmit != 0,
                rtx_queue_at_most_one != 0,
            );
        })
    };
    if rc != CONGESTION_OK {
        return rc;
    }
    let (rc, at) = match out {
        Enqueue::Departs { departure_ns } => (CONGESTION_OK, departure_ns),
        _ => (CONGESTION_THROTTLED, 0),
    };
    // SAFETY: non-null and writable per the contract.
    unsafe { departure_ns.write(at) };
    rc
}

/// The NIC finished sending a packet of `len_bytes` queued earlier (Linux `tcp_wfree`).
/// `*reopened` is 1 when this reopened a throttled flow's TSQ budget (poll again), else 0.
///
/// # Safety
/// `state` is NULL or an initialised state not used concurrently; `reopened` is NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_on_tx_completion(
    state: *mut CongestionState,
    len_bytes: u32,
    reopened: *mut u8,
) -> i32 {
    if reopened.is_null() {
        return CONGESTION_ERR_NULL;
    }
    let mut again = false;
    // SAFETY: forwarded contract.
    let rc = unsafe { with(state, |s| again = s.send.on_tx_completion(len_bytes)) };
    if rc == CONGESTION_OK {
        // SAFETY: non-null and writable per the contract.
        unsafe { reopened.write(u8::from(again)) };
    }
    rc
}
