//! Linux-mode events and getters (`congestion_linux_cubic_*`), the same set with the same
//! arguments as RFC mode's (`congestion_rfc_cubic_*`): amounts in segments. Each is the
//! library's `CongestionController` call on `Cubic` (bit-exact with the kernel's
//! `tcp_cubic.c` and its socket glue); the ACK's RTT sample also feeds the send path.

use crate::flow::*;
use crate::state::CongestionLinuxCubicState;
use congestion::{CongestionController, EcnEvent, LossEvent, SentEvent};

/// Data was sent: `in_flight_after` segments are in flight now by the stack's own count (the
/// flow takes that value, correcting any drift of its own count), and `largest_sent` is
/// the stack's `snd_nxt`: the sequence after the last segment sent (one past it), in
/// segments. A send with nothing in flight before it is a restart after idle: the idle
/// time earns no growth.
///
/// `largest_sent` moves the flow's `snd_nxt` up (never back, 32 bits with wrap-around)
/// when it is ahead of `snd_una + in_flight_after`, as it is once SACKed or lost segments
/// left the stack's flight: the next reduction's recovery point `high_seq` is then the
/// stack's real `snd_nxt` (Linux `tcp_event_data_sent` + `tcp_cwnd_validate`,
/// `tcp_init_cwnd_reduction`). It is compared on the first send after an ACK that
/// acknowledges nothing new or whose cumulative ACK is not where `acked` put `snd_una`, a
/// loss, a discard or an RTO, and while it is ahead: report SACK-only ACKs too.
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_on_sent(
    state: *mut CongestionLinuxCubicState,
    now_us: u64,
    in_flight_after: u64,
    largest_sent: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        with(state, |s| {
            s.on_sent(at(now_us), &SentEvent::new(in_flight_after, largest_sent))
        })
    }
}

/// Data was sent: `sent` segments more are in flight, the flow adding them to its own count
/// (for a stack that lets the flow count, and reads `in_flight` back); otherwise as
/// `on_sent`, `largest_sent` being the stack's `snd_nxt`.
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_on_sent_counted(
    state: *mut CongestionLinuxCubicState,
    now_us: u64,
    sent: u64,
    largest_sent: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { with(state, |s| s.on_sent_counted(at(now_us), sent, largest_sent)) }
}

/// An ACK newly acknowledging `acked` segments (0: one carrying only an RTT sample), which
/// leave flight; `largest_acked` its cumulative ACK, or `CONGESTION_PACKET_UNKNOWN`;
/// `rtt_us` its RTT sample, negative for none; `app_limited` nonzero when the
/// application, not the window, limited what was in flight. The order of Rust's
/// `AckEvent::new(acked, largest_acked, rtt)` (0.2 took `rtt_us` first).
///
/// Linux mode reads `largest_acked` as TCP's cumulative ACK in segments (`snd_una`
/// after this ACK: the first segment not yet acknowledged) and sets the flow's `snd_una`
/// to it (never back), whether or not `acked` counts SACKed segments; unknown, `snd_una`
/// moves by `acked`. It judges window use itself and ignores `app_limited`; the RTT
/// sample (clamped to 2^31 - 1 µs, the kernel's `s32`) also feeds the send path's
/// windowed minimum RTT.
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_on_ack(
    state: *mut CongestionLinuxCubicState,
    now_us: u64,
    acked: u64,
    largest_acked: u64,
    rtt_us: i64,
    app_limited: u8,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        with(state, |s| {
            s.on_ack(
                at(now_us),
                &ack_event(acked, largest_acked, rtt_us, app_limited),
            )
        })
    }
}

/// `lost` segments were declared lost (one packet, or one burst); `newest_lost` is the
/// highest packet number (or sequence) among them, or `CONGESTION_PACKET_UNKNOWN`. The
/// lost amount leaves flight at once. The window is reduced if the packet was sent after
/// the current recovery period began (or none began yet, or the packet is unknown): report
/// every lost packet, or every burst, and one episode gives one reduction.
///
/// `newest_lost` is a segment sequence, compared in 32 bits with wrap-around as the
/// kernel's `before()` does. The reduction is the kernel's fast-retransmit step
/// (`tcp_enter_recovery`; PRR is the stack's).
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_on_loss(
    state: *mut CongestionLinuxCubicState,
    now_us: u64,
    lost: u64,
    newest_lost: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        with(state, |s| {
            s.on_loss(at(now_us), &loss_event(lost, newest_lost))
        })
    }
}

/// As `on_loss`, the newest lost packet named by the time it was sent (µs, on the
/// clock of `now_us`): it was sent before the current recovery period if sent at or
/// before the reduction.
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_on_loss_sent_at(
    state: *mut CongestionLinuxCubicState,
    now_us: u64,
    lost: u64,
    newest_sent_at_us: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        with(state, |s| {
            s.on_loss(at(now_us), &LossEvent::sent_at(lost, at(newest_sent_at_us)))
        })
    }
}

/// RFC 9002 §7.6 persistent congestion was established, `lost` segments being declared
/// lost with it: the window collapses to the minimum whatever the recovery period, and a
/// new period begins (the rest of the lost flight reported afterwards does not reduce
/// again).
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_on_persistent_congestion(
    state: *mut CongestionLinuxCubicState,
    now_us: u64,
    lost: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        with(state, |s| {
            s.on_loss(
                at(now_us),
                &LossEvent::episode(lost).with_persistent_congestion(true),
            )
        })
    }
}

/// An ACK raised the ECN-CE count by `ce_increase` (0 is ignored); `largest_acked` is the
/// highest segment it acknowledged in order (its cumulative ACK minus one), or
/// `CONGESTION_PACKET_UNKNOWN`.
/// Judged like a loss (one reduction per recovery period), without removing anything
/// from flight.
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_on_ecn(
    state: *mut CongestionLinuxCubicState,
    now_us: u64,
    ce_increase: u64,
    largest_acked: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        with(state, |s| {
            s.on_ecn(at(now_us), &ecn_event(ce_increase, largest_acked))
        })
    }
}

/// As `on_ecn`, the largest acknowledged packet named by the time it was sent (µs, on
/// the clock of `now_us`), as RFC 9002's `ProcessECN` judges it: a new congestion event
/// unless it was sent at or before the start of the current recovery period.
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_on_ecn_sent_at(
    state: *mut CongestionLinuxCubicState,
    now_us: u64,
    ce_increase: u64,
    largest_acked_sent_at_us: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        with(state, |s| {
            s.on_ecn(
                at(now_us),
                &EcnEvent::sent_at(ce_increase, at(largest_acked_sent_at_us)),
            )
        })
    }
}

/// A retransmission timeout: what was in flight is deemed lost and the window restarts
/// from one segment (one MSS). Always acts.
///
/// The head segment is retransmitted at once (`tcp_enter_loss`): one segment in
/// flight afterwards; `congestion_linux_cubic_on_rto_retransmitted` names another count.
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_on_rto(
    state: *mut CongestionLinuxCubicState,
    now_us: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { with(state, |s| s.on_retransmission_timeout(at(now_us))) }
}

/// `amount` segments left flight without being acknowledged or lost (RFC 9002 §6.4: keys
/// discarded). Not a congestion signal.
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_on_discarded(
    state: *mut CongestionLinuxCubicState,
    now_us: u64,
    amount: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { with(state, |s| s.on_discarded(at(now_us), amount)) }
}

/// The last reduction was spurious: restore what it took away. Ignored when there is
/// nothing to undo.
///
/// (DSACK, F-RTO: `tcp_undo_cwnd_reduction`.)
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_on_spurious(
    state: *mut CongestionLinuxCubicState,
    now_us: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { with(state, |s| s.on_spurious_congestion(at(now_us))) }
}

/// Sending starts again after having nothing in flight: the idle time is not counted as
/// window-growth time. `on_sent` into an empty flight already does this.
///
/// (`CA_EVENT_TX_START`: the CUBIC epoch moves by the idle time since the last
/// send.)
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_on_transmit_start(
    state: *mut CongestionLinuxCubicState,
    now_us: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { with(state, |s| s.on_transmit_start(at(now_us))) }
}

/// `*cwnd` = the congestion window, segments.
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state; `cwnd` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_cwnd(
    state: *const CongestionLinuxCubicState,
    cwnd: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read(state, cwnd, |s| s.cwnd()) }
}

/// `*ssthresh` = the slow-start threshold, segments; `CONGESTION_SSTHRESH_NONE` (UINT64_MAX)
/// until a congestion event or a slow-start exit sets one.
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state; `ssthresh` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_ssthresh(
    state: *const CongestionLinuxCubicState,
    ssthresh: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read(state, ssthresh, |s| ssthresh_code(s.ssthresh())) }
}

/// `*phase` = a `CONGESTION_PHASE_*` value (the same meaning in both modes).
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state; `phase` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_phase(
    state: *const CongestionLinuxCubicState,
    phase: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read(state, phase, |s| phase_code(s.phase())) }
}

/// `*in_flight` = the amount in flight as the flow counts it, segments.
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state; `in_flight` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_in_flight(
    state: *const CongestionLinuxCubicState,
    in_flight: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read(state, in_flight, |s| s.in_flight()) }
}

/// `*bytes_per_second` = the pacing rate, bytes per second; `CONGESTION_RATE_UNLIMITED`
/// (UINT64_MAX) before the first RTT sample.
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state; `bytes_per_second` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_pacing_rate(
    state: *const CongestionLinuxCubicState,
    bytes_per_second: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        read(state, bytes_per_second, |s| {
            s.pacing_rate().as_bytes_per_second()
        })
    }
}

/// `*bytes` = the largest burst to hand to TSO/GSO at once, bytes (Linux
/// `tcp_tso_autosize` on the pacing rate and the minimum RTT, two segments at least).
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state; `bytes` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_send_quantum(
    state: *const CongestionLinuxCubicState,
    bytes: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read(state, bytes, |s| s.send_quantum_bytes()) }
}

/// `*bytes` = the segment size (MSS, QUIC max datagram size) the flow works with, bytes.
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state; `bytes` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_mss(
    state: *const CongestionLinuxCubicState,
    bytes: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read(state, bytes, |s| s.mss_bytes()) }
}
