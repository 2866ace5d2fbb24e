//! The 0.2 names of the C ABI (`congestion_linux_*`, `congestion_rfc_*` and their
//! types), kept for one release: each forwards to its 0.3 name
//! (`congestion_linux_cubic_*`, `congestion_rfc_cubic_*`). Only the ACK call's arguments
//! differ: 0.2 took `rtt_us` before `largest_acked`, 0.3 takes them in the order of
//! Rust's `AckEvent::new(acked, largest_acked, rtt)`.
#![allow(deprecated)]

use crate::*;

/// Deprecated since 0.3.0: renamed to `CongestionLinuxCubicParams`.
pub type CongestionLinuxParams = CongestionLinuxCubicParams;

/// Deprecated since 0.3.0: renamed to `CongestionRfcCubicParams`.
pub type CongestionRfcParams = CongestionRfcCubicParams;

/// Deprecated since 0.3.0: renamed to `CongestionLinuxCubicConfig`.
pub type CongestionLinuxConfig = CongestionLinuxCubicConfig;

/// Deprecated since 0.3.0: renamed to `CongestionRfcCubicConfig`.
pub type CongestionRfcConfig = CongestionRfcCubicConfig;

/// Deprecated since 0.3.0: renamed to `CongestionLinuxCubicState`.
pub type CongestionLinuxState = CongestionLinuxCubicState;

/// Deprecated since 0.3.0: renamed to `CongestionRfcCubicState`.
pub type CongestionRfcState = CongestionRfcCubicState;

/// Deprecated since 0.3.0: renamed to `CongestionLinuxCubicSnapshot`.
pub type CongestionLinuxSnapshot = CongestionLinuxCubicSnapshot;

/// Deprecated since 0.3.0: renamed to `CongestionRfcCubicSnapshot`.
pub type CongestionRfcSnapshot = CongestionRfcCubicSnapshot;

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_params_init`.
///
/// # Safety
/// As `congestion_linux_cubic_params_init`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_params_init(
    params: *mut CongestionLinuxParams,
    params_size: usize,
    config: *const CongestionLinuxConfig,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_params_init(params, params_size, config) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_init`.
///
/// # Safety
/// As `congestion_linux_cubic_init`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_init(
    state: *mut CongestionLinuxState,
    state_size: usize,
    params: *const CongestionLinuxParams,
    now_us: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_init(state, state_size, params, now_us) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_reconfigure`.
///
/// # Safety
/// As `congestion_linux_cubic_reconfigure`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_reconfigure(
    params: *mut CongestionLinuxParams,
    config: *const CongestionLinuxConfig,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_reconfigure(params, config) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_on_rto_retransmitted`.
///
/// # Safety
/// As `congestion_linux_cubic_on_rto_retransmitted`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_on_rto_retransmitted(
    state: *mut CongestionLinuxState,
    now_us: u64,
    retransmitted: u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_on_rto_retransmitted(state, now_us, retransmitted) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_set_last_send_jiffies`.
///
/// # Safety
/// As `congestion_linux_cubic_set_last_send_jiffies`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_set_last_send_jiffies(
    state: *mut CongestionLinuxState,
    jiffies: u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_set_last_send_jiffies(state, jiffies) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_config_default`.
///
/// # Safety
/// As `congestion_linux_cubic_config_default`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_config_default(
    config: *mut CongestionLinuxConfig,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_config_default(config) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_on_sent`.
///
/// # Safety
/// As `congestion_linux_cubic_on_sent`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_on_sent(
    state: *mut CongestionLinuxState,
    now_us: u64,
    in_flight_after: u64,
    largest_sent: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_on_sent(state, now_us, in_flight_after, largest_sent) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_on_sent_counted`.
///
/// # Safety
/// As `congestion_linux_cubic_on_sent_counted`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_on_sent_counted(
    state: *mut CongestionLinuxState,
    now_us: u64,
    sent: u64,
    largest_sent: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_on_sent_counted(state, now_us, sent, largest_sent) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_on_ack` (arguments reordered: 0.3 takes `largest_acked` before `rtt_us`). A `largest_acked`
/// of 0 means "none" here, as it did in 0.2 (0.3 reads 0 as packet 0 and
/// `CONGESTION_PACKET_UNKNOWN` as none).
///
/// # Safety
/// As `congestion_linux_cubic_on_ack`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_on_ack(
    state: *mut CongestionLinuxState,
    now_us: u64,
    acked: u64,
    rtt_us: i64,
    largest_acked: u64,
    app_limited: u8,
) -> i32 {
    let largest_acked = match largest_acked {
        0 => CONGESTION_PACKET_UNKNOWN,
        n => n,
    };
    // SAFETY: forwarded contract.
    unsafe {
        congestion_linux_cubic_on_ack(state, now_us, acked, largest_acked, rtt_us, app_limited)
    }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_on_loss`.
///
/// # Safety
/// As `congestion_linux_cubic_on_loss`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_on_loss(
    state: *mut CongestionLinuxState,
    now_us: u64,
    lost: u64,
    newest_lost: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_on_loss(state, now_us, lost, newest_lost) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_on_loss_sent_at`.
///
/// # Safety
/// As `congestion_linux_cubic_on_loss_sent_at`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_on_loss_sent_at(
    state: *mut CongestionLinuxState,
    now_us: u64,
    lost: u64,
    newest_sent_at_us: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_on_loss_sent_at(state, now_us, lost, newest_sent_at_us) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_on_persistent_congestion`.
///
/// # Safety
/// As `congestion_linux_cubic_on_persistent_congestion`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_on_persistent_congestion(
    state: *mut CongestionLinuxState,
    now_us: u64,
    lost: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_on_persistent_congestion(state, now_us, lost) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_on_ecn`.
///
/// # Safety
/// As `congestion_linux_cubic_on_ecn`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_on_ecn(
    state: *mut CongestionLinuxState,
    now_us: u64,
    ce_increase: u64,
    largest_acked: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_on_ecn(state, now_us, ce_increase, largest_acked) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_on_rto`.
///
/// # Safety
/// As `congestion_linux_cubic_on_rto`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_on_rto(
    state: *mut CongestionLinuxState,
    now_us: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_on_rto(state, now_us) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_on_discarded`.
///
/// # Safety
/// As `congestion_linux_cubic_on_discarded`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_on_discarded(
    state: *mut CongestionLinuxState,
    now_us: u64,
    amount: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_on_discarded(state, now_us, amount) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_on_spurious`.
///
/// # Safety
/// As `congestion_linux_cubic_on_spurious`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_on_spurious(
    state: *mut CongestionLinuxState,
    now_us: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_on_spurious(state, now_us) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_on_transmit_start`.
///
/// # Safety
/// As `congestion_linux_cubic_on_transmit_start`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_on_transmit_start(
    state: *mut CongestionLinuxState,
    now_us: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_on_transmit_start(state, now_us) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_cwnd`.
///
/// # Safety
/// As `congestion_linux_cubic_cwnd`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cwnd(
    state: *const CongestionLinuxState,
    cwnd: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_cwnd(state, cwnd) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_ssthresh`.
///
/// # Safety
/// As `congestion_linux_cubic_ssthresh`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_ssthresh(
    state: *const CongestionLinuxState,
    ssthresh: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_ssthresh(state, ssthresh) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_phase`.
///
/// # Safety
/// As `congestion_linux_cubic_phase`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_phase(
    state: *const CongestionLinuxState,
    phase: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_phase(state, phase) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_in_flight`.
///
/// # Safety
/// As `congestion_linux_cubic_in_flight`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_in_flight(
    state: *const CongestionLinuxState,
    in_flight: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_in_flight(state, in_flight) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_pacing_rate`.
///
/// # Safety
/// As `congestion_linux_cubic_pacing_rate`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_pacing_rate(
    state: *const CongestionLinuxState,
    bytes_per_second: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_pacing_rate(state, bytes_per_second) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_send_quantum`.
///
/// # Safety
/// As `congestion_linux_cubic_send_quantum`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_send_quantum(
    state: *const CongestionLinuxState,
    bytes: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_send_quantum(state, bytes) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_mss`.
///
/// # Safety
/// As `congestion_linux_cubic_mss`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_mss(
    state: *const CongestionLinuxState,
    bytes: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_mss(state, bytes) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_send_poll`.
///
/// # Safety
/// As `congestion_linux_cubic_send_poll`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_send_poll(
    state: *mut CongestionLinuxState,
    now_us: u64,
    retransmit: u8,
    rtx_queue_at_most_one: u8,
    verdict: *mut u32,
    segments: *mut u32,
    departure_ns: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        congestion_linux_cubic_send_poll(
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

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_send_enqueue`.
///
/// # Safety
/// As `congestion_linux_cubic_send_enqueue`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_send_enqueue(
    state: *mut CongestionLinuxState,
    now_us: u64,
    len_bytes: u32,
    segments: u32,
    retransmit: u8,
    rtx_queue_at_most_one: u8,
    departure_ns: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        congestion_linux_cubic_send_enqueue(
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

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_send_tx_completion`.
///
/// # Safety
/// As `congestion_linux_cubic_send_tx_completion`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_send_tx_completion(
    state: *mut CongestionLinuxState,
    len_bytes: u32,
    reopened: *mut u8,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_send_tx_completion(state, len_bytes, reopened) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_send_next_departure_ns`.
///
/// # Safety
/// As `congestion_linux_cubic_send_next_departure_ns`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_send_next_departure_ns(
    state: *const CongestionLinuxState,
    departure_ns: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_send_next_departure_ns(state, departure_ns) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_send_tso_segs`.
///
/// # Safety
/// As `congestion_linux_cubic_send_tso_segs`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_send_tso_segs(
    state: *const CongestionLinuxState,
    segments: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_send_tso_segs(state, segments) }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_send_tsq`.
///
/// # Safety
/// As `congestion_linux_cubic_send_tsq`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_send_tsq(
    state: *const CongestionLinuxState,
    len_bytes: u32,
    queued_bytes: *mut u64,
    limit_bytes: *mut u64,
    throttled: *mut u8,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        congestion_linux_cubic_send_tsq(state, len_bytes, queued_bytes, limit_bytes, throttled)
    }
}

/// Deprecated since 0.3.0: renamed to `congestion_linux_cubic_snapshot`.
///
/// # Safety
/// As `congestion_linux_cubic_snapshot`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_snapshot(
    state: *const CongestionLinuxState,
    out: *mut CongestionLinuxSnapshot,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_linux_cubic_snapshot(state, out) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_params_init`.
///
/// # Safety
/// As `congestion_rfc_cubic_params_init`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_params_init(
    params: *mut CongestionRfcParams,
    params_size: usize,
    config: *const CongestionRfcConfig,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_params_init(params, params_size, config) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_init`.
///
/// # Safety
/// As `congestion_rfc_cubic_init`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_init(
    state: *mut CongestionRfcState,
    state_size: usize,
    params: *const CongestionRfcParams,
    now_us: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_init(state, state_size, params, now_us) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_reconfigure`.
///
/// # Safety
/// As `congestion_rfc_cubic_reconfigure`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_reconfigure(
    params: *mut CongestionRfcParams,
    state: *mut CongestionRfcState,
    config: *const CongestionRfcConfig,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_reconfigure(params, state, config) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_set_mss`.
///
/// # Safety
/// As `congestion_rfc_cubic_set_mss`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_set_mss(
    state: *mut CongestionRfcState,
    mss_bytes: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_set_mss(state, mss_bytes) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_snapshot`.
///
/// # Safety
/// As `congestion_rfc_cubic_snapshot`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_snapshot(
    state: *const CongestionRfcState,
    out: *mut CongestionRfcSnapshot,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_snapshot(state, out) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_config_default`.
///
/// # Safety
/// As `congestion_rfc_cubic_config_default`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_config_default(config: *mut CongestionRfcConfig) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_config_default(config) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_on_sent`.
///
/// # Safety
/// As `congestion_rfc_cubic_on_sent`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_on_sent(
    state: *mut CongestionRfcState,
    now_us: u64,
    in_flight_after: u64,
    largest_sent: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_on_sent(state, now_us, in_flight_after, largest_sent) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_on_sent_counted`.
///
/// # Safety
/// As `congestion_rfc_cubic_on_sent_counted`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_on_sent_counted(
    state: *mut CongestionRfcState,
    now_us: u64,
    sent: u64,
    largest_sent: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_on_sent_counted(state, now_us, sent, largest_sent) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_on_ack` (arguments reordered: 0.3 takes `largest_acked` before `rtt_us`). A `largest_acked`
/// of 0 means "none" here, as it did in 0.2 (0.3 reads 0 as packet 0 and
/// `CONGESTION_PACKET_UNKNOWN` as none).
///
/// # Safety
/// As `congestion_rfc_cubic_on_ack`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_on_ack(
    state: *mut CongestionRfcState,
    now_us: u64,
    acked: u64,
    rtt_us: i64,
    largest_acked: u64,
    app_limited: u8,
) -> i32 {
    let largest_acked = match largest_acked {
        0 => CONGESTION_PACKET_UNKNOWN,
        n => n,
    };
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_on_ack(state, now_us, acked, largest_acked, rtt_us, app_limited) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_on_loss`.
///
/// # Safety
/// As `congestion_rfc_cubic_on_loss`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_on_loss(
    state: *mut CongestionRfcState,
    now_us: u64,
    lost: u64,
    newest_lost: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_on_loss(state, now_us, lost, newest_lost) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_on_loss_sent_at`.
///
/// # Safety
/// As `congestion_rfc_cubic_on_loss_sent_at`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_on_loss_sent_at(
    state: *mut CongestionRfcState,
    now_us: u64,
    lost: u64,
    newest_sent_at_us: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_on_loss_sent_at(state, now_us, lost, newest_sent_at_us) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_on_persistent_congestion`.
///
/// # Safety
/// As `congestion_rfc_cubic_on_persistent_congestion`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_on_persistent_congestion(
    state: *mut CongestionRfcState,
    now_us: u64,
    lost: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_on_persistent_congestion(state, now_us, lost) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_on_ecn`.
///
/// # Safety
/// As `congestion_rfc_cubic_on_ecn`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_on_ecn(
    state: *mut CongestionRfcState,
    now_us: u64,
    ce_increase: u64,
    largest_acked: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_on_ecn(state, now_us, ce_increase, largest_acked) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_on_rto`.
///
/// # Safety
/// As `congestion_rfc_cubic_on_rto`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_on_rto(state: *mut CongestionRfcState, now_us: u64) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_on_rto(state, now_us) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_on_discarded`.
///
/// # Safety
/// As `congestion_rfc_cubic_on_discarded`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_on_discarded(
    state: *mut CongestionRfcState,
    now_us: u64,
    amount: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_on_discarded(state, now_us, amount) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_on_spurious`.
///
/// # Safety
/// As `congestion_rfc_cubic_on_spurious`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_on_spurious(
    state: *mut CongestionRfcState,
    now_us: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_on_spurious(state, now_us) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_on_transmit_start`.
///
/// # Safety
/// As `congestion_rfc_cubic_on_transmit_start`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_on_transmit_start(
    state: *mut CongestionRfcState,
    now_us: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_on_transmit_start(state, now_us) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_cwnd`.
///
/// # Safety
/// As `congestion_rfc_cubic_cwnd`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_cwnd(
    state: *const CongestionRfcState,
    cwnd: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_cwnd(state, cwnd) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_ssthresh`.
///
/// # Safety
/// As `congestion_rfc_cubic_ssthresh`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_ssthresh(
    state: *const CongestionRfcState,
    ssthresh: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_ssthresh(state, ssthresh) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_phase`.
///
/// # Safety
/// As `congestion_rfc_cubic_phase`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_phase(
    state: *const CongestionRfcState,
    phase: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_phase(state, phase) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_in_flight`.
///
/// # Safety
/// As `congestion_rfc_cubic_in_flight`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_in_flight(
    state: *const CongestionRfcState,
    in_flight: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_in_flight(state, in_flight) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_pacing_rate`.
///
/// # Safety
/// As `congestion_rfc_cubic_pacing_rate`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_pacing_rate(
    state: *const CongestionRfcState,
    bytes_per_second: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_pacing_rate(state, bytes_per_second) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_send_quantum`.
///
/// # Safety
/// As `congestion_rfc_cubic_send_quantum`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_send_quantum(
    state: *const CongestionRfcState,
    bytes: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_send_quantum(state, bytes) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_mss`.
///
/// # Safety
/// As `congestion_rfc_cubic_mss`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_mss(
    state: *const CongestionRfcState,
    bytes: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_mss(state, bytes) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_send_poll`.
///
/// # Safety
/// As `congestion_rfc_cubic_send_poll`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_send_poll(
    state: *mut CongestionRfcState,
    now_us: u64,
    retransmit: u8,
    rtx_queue_at_most_one: u8,
    verdict: *mut u32,
    segments: *mut u32,
    departure_ns: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        congestion_rfc_cubic_send_poll(
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

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_send_enqueue`.
///
/// # Safety
/// As `congestion_rfc_cubic_send_enqueue`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_send_enqueue(
    state: *mut CongestionRfcState,
    now_us: u64,
    len_bytes: u32,
    segments: u32,
    retransmit: u8,
    rtx_queue_at_most_one: u8,
    departure_ns: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        congestion_rfc_cubic_send_enqueue(
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

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_send_tx_completion`.
///
/// # Safety
/// As `congestion_rfc_cubic_send_tx_completion`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_send_tx_completion(
    state: *mut CongestionRfcState,
    len_bytes: u32,
    reopened: *mut u8,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_send_tx_completion(state, len_bytes, reopened) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_send_next_departure_ns`.
///
/// # Safety
/// As `congestion_rfc_cubic_send_next_departure_ns`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_send_next_departure_ns(
    state: *const CongestionRfcState,
    departure_ns: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_send_next_departure_ns(state, departure_ns) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_send_tso_segs`.
///
/// # Safety
/// As `congestion_rfc_cubic_send_tso_segs`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_send_tso_segs(
    state: *const CongestionRfcState,
    segments: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_send_tso_segs(state, segments) }
}

/// Deprecated since 0.3.0: renamed to `congestion_rfc_cubic_send_tsq`.
///
/// # Safety
/// As `congestion_rfc_cubic_send_tsq`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_send_tsq(
    state: *const CongestionRfcState,
    len_bytes: u32,
    queued_bytes: *mut u64,
    limit_bytes: *mut u64,
    throttled: *mut u8,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { congestion_rfc_cubic_send_tsq(state, len_bytes, queued_bytes, limit_bytes, throttled) }
}
