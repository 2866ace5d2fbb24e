//! Linux-mode BBRv3 behind the trait's per-packet calls
//! (`congestion_linux_bbr3_controller_*`, the Rust `linux::Bbr3Controller`), for a stack that
//! reports packets rather than a TCP scoreboard (QUIC).
//!
//! Amounts are **segments**, as the controller counts them (`WindowUnit::Segments`):
//! a QUIC stack reports one packet as one segment (`acked`, `lost`, the flight in
//! packets) and converts the window with `_mss` (cwnd × mss bytes). The controller is
//! not usable in bytes: its kernel model counts `snd_cwnd`, `packets_out` and the
//! sampler's `delivered` in whole segments. The parameter block is the scoreboard
//! calls' (`congestion_linux_bbr3_params_init`). The machinery is in `packet.rs`.

use crate::packet::{self, Get, Plain, StoredRandom};
use crate::tcp_blob::CongestionRandom;
use crate::*;
use congestion::linux::Bbr3Controller;

/// Initialises the flow at `state` (a buffer of `state_size` bytes, aligned to 64) on
/// the parameter block `params` (from `congestion_linux_bbr3_params_init`), established at
/// `now_us`, drawing from `*rand` (Rust's `Bbr3Controller::with_params(params, now,
/// rand)`). The state keeps copies of both: `rand`'s `ctx` must stay valid as long as
/// the state is used. On error nothing is written.
///
/// Returns `CONGESTION_OK`, `CONGESTION_ERR_NULL`, `CONGESTION_ERR_ALIGNMENT`,
/// `CONGESTION_ERR_SIZE`, or `CONGESTION_ERR_UNINITIALIZED` (a block never initialised,
/// or another algorithm's).
///
/// # Safety
/// `state` is NULL or valid for writes of `state_size` bytes; `params` NULL or an
/// initialised block; `rand` NULL or readable, its `below` callable with its `ctx`
/// during every call on the state.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_controller_init(
    state: *mut CongestionLinuxBbr3ControllerState,
    state_size: usize,
    params: *const CongestionLinuxBbr3Params,
    now_us: u64,
    rand: *const CongestionRandom,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        packet::init(state, state_size, params, rand, |p, r: StoredRandom| {
            Bbr3Controller::with_params(p, crate::flow::at(now_us), r)
        })
    }
}

/// One packet was sent at `now_us`: `in_flight_after` segments are in flight now by the
/// stack's own count, `largest_sent` is its packet number (Rust's `on_packet_sent(now,
/// &SentEvent::new(in_flight_after, largest_sent))`). `*snapshot` gets the packet's
/// [`CongestionTxSnapshot`]: store it with the packet and hand it back on its ACK or
/// loss. Returns `CONGESTION_ERR_NULL` (nothing changed) if `snapshot` is NULL.
///
/// # Safety
/// `state` as for every event; `snapshot` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_controller_on_packet_sent(
    state: *mut CongestionLinuxBbr3ControllerState,
    now_us: u64,
    in_flight_after: u64,
    largest_sent: u64,
    snapshot: *mut CongestionTxSnapshot,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::on_packet_sent(state, now_us, in_flight_after, largest_sent, snapshot) }
}

/// One packet of `sent` segments was sent at `now_us`, numbered `largest_sent`, the flow
/// adding it to its own in-flight count (Rust's `on_packet_sent_counted`); `*snapshot`
/// as for `congestion_linux_bbr3_controller_on_packet_sent`.
///
/// # Safety
/// `state` as for every event; `snapshot` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_controller_on_packet_sent_counted(
    state: *mut CongestionLinuxBbr3ControllerState,
    now_us: u64,
    sent: u64,
    largest_sent: u64,
    snapshot: *mut CongestionTxSnapshot,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::on_packet_sent_counted(state, now_us, sent, largest_sent, snapshot) }
}

/// An ACK at `now_us` newly acknowledging `acked` segments, the largest packet it covers
/// `largest_acked` (`CONGESTION_PACKET_UNKNOWN`: none named), its RTT sample `rtt_us`
/// (negative: none), `app_limited` nonzero when the application limited the flight,
/// `ce_delta` packets newly CE-marked; the newest packet it acknowledges was sent at
/// `time_sent_us` and its send gave `*snapshot` (Rust's `on_ack_sampled(now,
/// &AckEvent, &AckedPacket::new(time_sent, snapshot))`).
///
/// Returns `CONGESTION_ERR_SNAPSHOT` (nothing changed) for a snapshot no send of this
/// flow wrote, `CONGESTION_ERR_NULL` for a NULL `snapshot`.
///
/// # Safety
/// `state` as for every event; `snapshot` NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_controller_on_ack_sampled(
    state: *mut CongestionLinuxBbr3ControllerState,
    now_us: u64,
    acked: u64,
    largest_acked: u64,
    rtt_us: i64,
    app_limited: u8,
    ce_delta: u64,
    time_sent_us: u64,
    snapshot: *const CongestionTxSnapshot,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        packet::on_ack_sampled(
            state,
            now_us,
            acked,
            largest_acked,
            rtt_us,
            app_limited,
            ce_delta,
            time_sent_us,
            snapshot,
        )
    }
}

/// An ACK without a delivery-rate sample (one that acknowledges nothing new, or whose
/// packets' snapshots were not kept): the arguments of `congestion_linux_bbr3_controller_on_ack_sampled`
/// without the newest packet (Rust's `on_ack`).
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm not used
/// concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_controller_on_ack(
    state: *mut CongestionLinuxBbr3ControllerState,
    now_us: u64,
    acked: u64,
    largest_acked: u64,
    rtt_us: i64,
    app_limited: u8,
    ce_delta: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        packet::on_ack(
            state,
            now_us,
            acked,
            largest_acked,
            rtt_us,
            app_limited,
            ce_delta,
        )
    }
}

/// `lost` segments were declared lost at `now_us`, the newest of them numbered
/// `newest_lost` (`CONGESTION_PACKET_UNKNOWN`: not named), with persistent congestion
/// when `persistent_congestion` is nonzero; `*snapshot` is what the lost packet's send
/// gave (Rust's `on_packet_lost(now, &LossEvent, snapshot)`). Call it once per lost
/// packet. Errors as `congestion_linux_bbr3_controller_on_ack_sampled`.
///
/// # Safety
/// `state` as for every event; `snapshot` NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_controller_on_packet_lost(
    state: *mut CongestionLinuxBbr3ControllerState,
    now_us: u64,
    lost: u64,
    newest_lost: u64,
    persistent_congestion: u8,
    snapshot: *const CongestionTxSnapshot,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        packet::on_packet_lost(
            state,
            now_us,
            lost,
            newest_lost,
            persistent_congestion,
            snapshot,
        )
    }
}

/// The ECN-CE count rose by `ce_increase` in the ACK of `largest_acked` (Rust's
/// `on_ecn`).
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm not used
/// concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_controller_on_ecn(
    state: *mut CongestionLinuxBbr3ControllerState,
    now_us: u64,
    ce_increase: u64,
    largest_acked: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::plain(state, now_us, Plain::Ecn(ce_increase, largest_acked)) }
}

/// A retransmission timeout fired (Rust's `on_retransmission_timeout`).
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm not used
/// concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_controller_on_rto(
    state: *mut CongestionLinuxBbr3ControllerState,
    now_us: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::plain(state, now_us, Plain::Rto) }
}

/// `amount` segments left flight without a congestion signal (keys discarded; Rust's
/// `on_discarded`).
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm not used
/// concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_controller_on_discarded(
    state: *mut CongestionLinuxBbr3ControllerState,
    now_us: u64,
    amount: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::plain(state, now_us, Plain::Discarded(amount)) }
}

/// The last reduction was spurious (Rust's `on_spurious_congestion`).
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm not used
/// concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_controller_on_spurious(
    state: *mut CongestionLinuxBbr3ControllerState,
    now_us: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::plain(state, now_us, Plain::Spurious) }
}

/// `*cwnd` = the congestion window, segments.
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm; the out-pointer NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_controller_cwnd(
    state: *const CongestionLinuxBbr3ControllerState,
    cwnd: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::get(state, cwnd, Get::Cwnd) }
}

/// `*ssthresh` = the slow-start threshold, segments; `CONGESTION_SSTHRESH_NONE` for none.
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm; the out-pointer NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_controller_ssthresh(
    state: *const CongestionLinuxBbr3ControllerState,
    ssthresh: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::get(state, ssthresh, Get::Ssthresh) }
}

/// `*in_flight` = what the flow counts in flight, segments.
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm; the out-pointer NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_controller_in_flight(
    state: *const CongestionLinuxBbr3ControllerState,
    in_flight: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::get(state, in_flight, Get::InFlight) }
}

/// `*bytes_per_second` = the pacing rate, bytes per second.
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm; the out-pointer NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_controller_pacing_rate(
    state: *const CongestionLinuxBbr3ControllerState,
    bytes_per_second: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::get(state, bytes_per_second, Get::PacingRate) }
}

/// `*bytes` = the largest burst to send at once, bytes.
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm; the out-pointer NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_controller_send_quantum(
    state: *const CongestionLinuxBbr3ControllerState,
    bytes: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::get(state, bytes, Get::SendQuantum) }
}

/// `*bytes` = the packet size (MSS, QUIC max datagram size) the flow works with, bytes.
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm; the out-pointer NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_controller_mss(
    state: *const CongestionLinuxBbr3ControllerState,
    bytes: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::get(state, bytes, Get::Mss) }
}

/// `*phase` = the `CONGESTION_PHASE_*` of the flow (Startup is slow start).
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm; the out-pointer NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_controller_phase(
    state: *const CongestionLinuxBbr3ControllerState,
    phase: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::get_u32(state, phase, false) }
}

/// `*mode` = BBR's mode, a `CONGESTION_BBR_MODE_*` value.
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm; the out-pointer NULL or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_bbr3_controller_mode(
    state: *const CongestionLinuxBbr3ControllerState,
    mode: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { packet::get_u32(state, mode, true) }
}
