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

use crate::packet::{self, Get, Plain, Sampled, Sent, StoredRandom};
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

/// As `congestion_rfc_bbr3_on_packet_sent`, amounts in segments (one packet each).
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
    unsafe {
        packet::sent(
            state,
            now_us,
            Sent::Event(in_flight_after, largest_sent),
            snapshot,
        )
    }
}

/// As `congestion_rfc_bbr3_on_packet_sent_counted`, amounts in segments (one packet each).
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
    unsafe { packet::sent(state, now_us, Sent::Counted(sent, largest_sent), snapshot) }
}

/// As `congestion_rfc_bbr3_on_ack_sampled`, amounts in segments (one packet each).
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
    let ack = packet::ack(acked, largest_acked, rtt_us, app_limited, ce_delta);
    // SAFETY: forwarded contract.
    unsafe { packet::sampled(state, now_us, Sampled::Ack(ack, time_sent_us), snapshot) }
}

/// As `congestion_rfc_bbr3_on_ack`, amounts in segments (one packet each).
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
    let ack = packet::ack(acked, largest_acked, rtt_us, app_limited, ce_delta);
    // SAFETY: forwarded contract.
    unsafe { packet::plain(state, now_us, Plain::Ack(ack)) }
}

/// As `congestion_rfc_bbr3_on_packet_lost`, amounts in segments (one packet each).
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
    let loss = packet::loss(lost, newest_lost, persistent_congestion);
    // SAFETY: forwarded contract.
    unsafe { packet::sampled(state, now_us, Sampled::Lost(loss), snapshot) }
}

/// As `congestion_rfc_bbr3_on_ecn`, amounts in segments (one packet each).
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

/// As `congestion_rfc_bbr3_on_rto`, amounts in segments (one packet each).
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

/// As `congestion_rfc_bbr3_on_discarded`, amounts in segments (one packet each).
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

/// As `congestion_rfc_bbr3_on_spurious`, amounts in segments (one packet each).
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
