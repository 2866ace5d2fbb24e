//! The send path of an RFC-mode flow (`congestion_rfc_cubic_send_*`), held in the same
//! state: the one-call verdict, the qdisc hand-off with TCP Small Queues and the EDT
//! stamp, TX completions, the next departure time, the TSO burst and the TSQ budget.
//! The ACK's RTT sample reaches it through `congestion_rfc_cubic_on_ack`; the pacing rate
//! is `congestion_rfc_cubic_pacing_rate`.
//!
//! Per burst: `congestion_rfc_cubic_send_poll` (may it go, how many segments), then
//! `congestion_rfc_cubic_send_enqueue` (TSQ's verdict and its departure time), then
//! `congestion_rfc_cubic_on_sent` (the flow's bookkeeping).
//!
//! A stack whose own pacer only needs a rate and a burst size reads
//! `congestion_rfc_cubic_pacing_rate` and `congestion_rfc_cubic_send_quantum` and never calls these.

use crate::send;
use crate::state::CongestionRfcCubicState;

/// The send path's decision before a transmission (window, pacer, TSQ, TSO in the order
/// of Linux `tcp_write_xmit`), for the flow's window and its own in-flight count (bursts of whole segments of the MSS);
/// `retransmit` nonzero when the next packet is a retransmission (TSQ's budget doubles),
/// `rtx_queue_at_most_one` nonzero when at most one packet is sent and unacknowledged.
/// `*verdict` gets a `CONGESTION_SEND_*` value; `*segments` the burst size when it is
/// `CONGESTION_SEND_NOW`; `*departure_ns` the time to ask again when it is
/// `CONGESTION_SEND_WAIT_UNTIL` (both 0 otherwise).
///
/// # Safety
/// `state` is NULL or an initialised RFC-mode state not used concurrently; the
/// out-pointers are NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_cubic_send_poll(
    state: *mut CongestionRfcCubicState,
    now_us: u64,
    retransmit: u8,
    rtx_queue_at_most_one: u8,
    verdict: *mut u32,
    segments: *mut u32,
    departure_ns: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        send::poll(
            state,
            now_us,
            retransmit,
            rtx_queue_at_most_one,
            verdict,
            segments,
            departure_ns,
        )
    }
}

/// A packet of `len_bytes` carrying `segments` segments is handed to the qdisc/NIC
/// (Linux `tcp_small_queue_check` then the departure stamp). Returns `CONGESTION_OK` and
/// its earliest departure time in `*departure_ns`, or `CONGESTION_THROTTLED` (nothing
/// queued, `*departure_ns` = 0) when TSQ holds the flow back until a TX completion.
///
/// # Safety
/// `state` is NULL or an initialised RFC-mode state not used concurrently;
/// `departure_ns` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_cubic_send_enqueue(
    state: *mut CongestionRfcCubicState,
    now_us: u64,
    len_bytes: u32,
    segments: u32,
    retransmit: u8,
    rtx_queue_at_most_one: u8,
    departure_ns: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        send::enqueue(
            state,
            now_us,
            len_bytes,
            segments,
            retransmit,
            rtx_queue_at_most_one,
            departure_ns,
        )
    }
}

/// The NIC finished sending a packet of `len_bytes` queued earlier (Linux `tcp_wfree`).
/// `*reopened` is 1 when this reopened a throttled flow's TSQ budget (poll again), else 0.
///
/// # Safety
/// `state` is NULL or an initialised RFC-mode state not used concurrently; `reopened`
/// is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_cubic_send_tx_completion(
    state: *mut CongestionRfcCubicState,
    len_bytes: u32,
    reopened: *mut u8,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { send::tx_completion(state, len_bytes, reopened) }
}

/// `*departure_ns` = the earliest departure time of the next packet, ns on the
/// caller's clock (0 before anything was sent).
///
/// # Safety
/// `state` is NULL or an initialised RFC-mode state; `departure_ns` is NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_cubic_send_next_departure_ns(
    state: *const CongestionRfcCubicState,
    departure_ns: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { send::next_departure_ns(state, departure_ns) }
}

/// `*segments` = how many segments one TSO/GSO burst may carry now (Linux
/// `tcp_tso_segs`, from the pacing rate and the windowed minimum RTT).
///
/// # Safety
/// `state` is NULL or an initialised RFC-mode state; `segments` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_cubic_send_tso_segs(
    state: *const CongestionRfcCubicState,
    segments: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { send::tso_segs(state, segments) }
}

/// The TCP Small Queues budget: `*queued_bytes` = the truesize bytes now in the
/// qdisc/NIC queues; `*limit_bytes` = what they may hold before a packet of `len_bytes`
/// is throttled (Linux `tcp_small_queue_check`'s limit, at the current pacing rate);
/// `*throttled` = 1 while the flow waits for a TX completion, else 0.
///
/// # Safety
/// `state` is NULL or an initialised RFC-mode state; the out-pointers are NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_cubic_send_tsq(
    state: *const CongestionRfcCubicState,
    len_bytes: u32,
    queued_bytes: *mut u64,
    limit_bytes: *mut u64,
    throttled: *mut u8,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { send::tsq(state, len_bytes, queued_bytes, limit_bytes, throttled) }
}
