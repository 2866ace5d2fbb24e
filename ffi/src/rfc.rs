//! RFC mode through the C ABI (`congestion_rfc_*`): RFC 9438 CUBIC with RFC 9406
//! HyStart++ (or Linux HyStart, or standard slow start), every amount in bytes, driven
//! the way a QUIC stack drives it: sent, acked, congestion events.

use crate::events::with;
use crate::getters::read;
use crate::rfc_config::CongestionRfcConfig;
use crate::state::{self, CongestionRfcState, RfcInner};
use crate::*;
use congestion::rfc::RfcFlow;
use congestion::{AckEvent, CongestionController, CongestionEvent, Duration, Instant, SentEvent};

/// Congestion event: a loss (packet or time threshold, duplicate ACKs, RACK).
pub const CONGESTION_EVENT_LOSS: u32 = 0;
/// Congestion event: an ECN-CE mark echoed by the receiver.
pub const CONGESTION_EVENT_ECN: u32 = 1;
/// Congestion event: a TCP retransmission timeout (the window collapses to one MSS).
pub const CONGESTION_EVENT_RTO: u32 = 2;
/// Congestion event: QUIC persistent congestion (RFC 9002 §7.6; the minimum window).
pub const CONGESTION_EVENT_PERSISTENT: u32 = 3;

/// Initialises `*state` from `*config` at `now_us`; nothing is in flight. On error
/// `*state` is left untouched.
///
/// Returns `CONGESTION_OK`, `CONGESTION_ERR_NULL`, or a `CONGESTION_ERR_*` configuration
/// code naming the refused setting.
///
/// # Safety
/// `state` is NULL or valid for writes of `CONGESTION_RFC_STATE_SIZE` bytes aligned to
/// `CONGESTION_RFC_STATE_ALIGN`; `config` is NULL or points to a readable
/// `CongestionRfcConfig`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_init(
    state: *mut CongestionRfcState,
    config: *const CongestionRfcConfig,
    now_us: u64,
) -> i32 {
    if state.is_null() || config.is_null() {
        return CONGESTION_ERR_NULL;
    }
    // SAFETY: non-null and readable per the contract; the config is plain integers.
    let config = unsafe { config.read() };
    let flow = match config
        .to_rust()
        .and_then(|c| RfcFlow::new(c, Instant::from_micros(now_us)).map_err(crate::config::code))
    {
        Ok(f) => f,
        Err(code) => return code,
    };
    // SAFETY: non-null, and valid and aligned per the contract.
    unsafe { state::write(state, RfcInner::new(flow)) };
    CONGESTION_OK
}

/// New settings for a running flow (`*config` as for [`congestion_rfc_init`]): CUBIC's
/// β, ECN β, C, fast convergence, Reno-friendliness and the MSS (as
/// [`congestion_rfc_set_mss`]) apply from the next event; the flow's state is kept. The
/// slow-start kind, pacing, initial window and ssthresh only matter to a later init.
/// All settings are checked first: on error nothing changes.
///
/// # Safety
/// `state` is NULL or an initialised RFC-mode state not used concurrently; `config` is
/// NULL or points to a readable `CongestionRfcConfig`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_reconfigure(
    state: *mut CongestionRfcState,
    config: *const CongestionRfcConfig,
) -> i32 {
    if config.is_null() {
        return CONGESTION_ERR_NULL;
    }
    // SAFETY: non-null and readable per the contract; the config is plain integers.
    let config = match unsafe { config.read() }.to_rust() {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut result = Ok(());
    // SAFETY: forwarded contract.
    let rc = unsafe { with(state, |s| result = s.flow.set_cubic_config(config.cubic)) };
    match result {
        Ok(()) => rc,
        Err(e) => crate::config::code(e),
    }
}

/// The sender handed data to the network: `in_flight_after_bytes` are now in flight and
/// `largest_sent` is the highest packet number (or byte sequence) sent so far.
///
/// # Safety
/// `state` is NULL or an initialised RFC-mode state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_on_sent(
    state: *mut CongestionRfcState,
    now_us: u64,
    in_flight_after_bytes: u64,
    largest_sent: u64,
) -> i32 {
    let sent = SentEvent {
        in_flight_after: in_flight_after_bytes,
        largest_sent,
    };
    // SAFETY: forwarded contract.
    unsafe {
        with(state, |s| {
            s.flow.on_sent(Instant::from_micros(now_us), &sent)
        })
    }
}

/// An ACK newly acknowledging `acked_bytes` (0 for one carrying only an RTT sample);
/// `rtt_us` is its RTT sample, or negative for none; `largest_acked` the highest packet
/// number (or byte sequence) it covers; `app_limited` nonzero when the application, not
/// the window, limited what was in flight.
///
/// # Safety
/// `state` is NULL or an initialised RFC-mode state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_on_ack(
    state: *mut CongestionRfcState,
    now_us: u64,
    acked_bytes: u64,
    rtt_us: i64,
    largest_acked: u64,
    app_limited: u8,
) -> i32 {
    let ack = AckEvent {
        acked: acked_bytes,
        rtt: u64::try_from(rtt_us).ok().map(Duration::from_micros),
        largest_acked,
        app_limited: app_limited != 0,
    };
    // SAFETY: forwarded contract.
    unsafe { with(state, |s| s.flow.on_ack(Instant::from_micros(now_us), &ack)) }
}

/// A congestion event: `event` is a `CONGESTION_EVENT_*` value. One call per event, not
/// per lost packet. Returns `CONGESTION_ERR_ARGUMENT` for an unknown `event`.
///
/// # Safety
/// `state` is NULL or an initialised RFC-mode state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_on_congestion(
    state: *mut CongestionRfcState,
    now_us: u64,
    event: u32,
) -> i32 {
    let event = match event {
        CONGESTION_EVENT_LOSS => CongestionEvent::Loss,
        CONGESTION_EVENT_ECN => CongestionEvent::Ecn,
        CONGESTION_EVENT_RTO => CongestionEvent::RetransmissionTimeout,
        CONGESTION_EVENT_PERSISTENT => CongestionEvent::PersistentCongestion,
        _ => return CONGESTION_ERR_ARGUMENT,
    };
    // SAFETY: forwarded contract.
    unsafe {
        with(state, |s| {
            s.flow
                .on_congestion_event(Instant::from_micros(now_us), event)
        })
    }
}

/// The last congestion event was spurious: restore the state before it (RFC 9438
/// §4.9). Ignored when there is nothing to undo.
///
/// # Safety
/// `state` is NULL or an initialised RFC-mode state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_on_spurious(
    state: *mut CongestionRfcState,
    now_us: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        with(state, |s| {
            s.flow.on_spurious_congestion(Instant::from_micros(now_us))
        })
    }
}

/// Sending starts again after an idle period: the idle time does not count as CUBIC
/// growth time.
///
/// # Safety
/// `state` is NULL or an initialised RFC-mode state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_on_transmit_start(
    state: *mut CongestionRfcState,
    now_us: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        with(state, |s| {
            s.flow.on_transmit_start(Instant::from_micros(now_us))
        })
    }
}

/// The path MTU changed: the flow counts in `mss_bytes` from now on. Returns
/// `CONGESTION_ERR_MSS` (0) or `CONGESTION_ERR_MSS_RANGE` (above 65535) and leaves the
/// flow as it was for a refused size.
///
/// # Safety
/// `state` is NULL or an initialised RFC-mode state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_set_mss(
    state: *mut CongestionRfcState,
    mss_bytes: u64,
) -> i32 {
    let mut result = Ok(());
    // SAFETY: forwarded contract.
    let rc = unsafe { with(state, |s| result = s.flow.set_mss(mss_bytes)) };
    match result {
        Ok(()) => rc,
        Err(e) => crate::config::code(e),
    }
}

/// `*cwnd_bytes` = the congestion window, bytes.
///
/// # Safety
/// `state` is NULL or an initialised RFC-mode state; `cwnd_bytes` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_cwnd(
    state: *const CongestionRfcState,
    cwnd_bytes: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read(state, cwnd_bytes, |s| s.flow.cwnd()) }
}

/// Every field of an RFC-mode flow, as the RFC-mode replay CSV prints them.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CongestionRfcSnapshot {
    /// Congestion window, bytes.
    pub cwnd_bytes: u64,
    /// Slow-start threshold, bytes (UINT64_MAX: none).
    pub ssthresh_bytes: u64,
    /// CUBIC `W_max`, bytes.
    pub w_max_bytes: u64,
    /// CUBIC `K`, µs.
    pub k_us: u64,
    /// The Reno-friendly estimate `W_est`, bytes.
    pub w_est_bytes: u64,
    /// `cwnd_prior`, bytes.
    pub cwnd_prior_bytes: u64,
    /// Start of the current epoch, µs; -1 when no epoch runs.
    pub epoch_start_us: i64,
    /// `cwnd_epoch`, bytes.
    pub cwnd_epoch_bytes: u64,
    /// Bytes in flight.
    pub in_flight_bytes: u64,
    /// Smoothed RTT, µs.
    pub srtt_us: u64,
    /// Minimum RTT, µs; UINT64_MAX before the first sample.
    pub min_rtt_us: u64,
    /// The MSS in force, bytes.
    pub mss_bytes: u64,
    /// A `CONGESTION_PHASE_*` value.
    pub phase: u32,
    /// Whether the last ACK counted as cwnd-limited (1) or not (0).
    pub cwnd_limited: u32,
    /// HyStart++ conservative-slow-start rounds so far.
    pub css_rounds: u32,
    /// Reserved, 0.
    pub reserved: u32,
}

/// `*out` = every field of the flow.
///
/// # Safety
/// `state` is NULL or an initialised RFC-mode state; `out` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_snapshot(
    state: *const CongestionRfcState,
    out: *mut CongestionRfcSnapshot,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read(state, out, |s| snapshot(&s.flow)) }
}

fn snapshot(f: &RfcFlow) -> CongestionRfcSnapshot {
    let c = f.cubic();
    CongestionRfcSnapshot {
        cwnd_bytes: f.cwnd(),
        ssthresh_bytes: f.ssthresh(),
        w_max_bytes: c.w_max_bytes,
        k_us: c.k_us,
        w_est_bytes: c.w_est_bytes,
        cwnd_prior_bytes: c.cwnd_prior_bytes,
        epoch_start_us: c
            .epoch_start
            .map_or(-1, |e| i64::try_from(e.as_micros()).unwrap_or(i64::MAX)),
        cwnd_epoch_bytes: c.cwnd_epoch_bytes,
        in_flight_bytes: f.in_flight(),
        srtt_us: f.srtt_us(),
        min_rtt_us: f.min_rtt_us(),
        mss_bytes: f.params().mss(),
        phase: crate::getters::phase_code(f.phase()),
        cwnd_limited: u32::from(f.last_ack_cwnd_limited()),
        css_rounds: f.hystart_pp().css_rounds,
        reserved: 0,
    }
}

/// `*ssthresh_bytes` = the slow-start threshold, bytes (UINT64_MAX: none yet).
///
/// # Safety
/// `state` is NULL or an initialised RFC-mode state; `ssthresh_bytes` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_ssthresh(
    state: *const CongestionRfcState,
    ssthresh_bytes: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read(state, ssthresh_bytes, |s| s.flow.ssthresh()) }
}

/// `*phase` = a `CONGESTION_PHASE_*` value.
///
/// # Safety
/// `state` is NULL or an initialised RFC-mode state; `phase` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_phase(
    state: *const CongestionRfcState,
    phase: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read(state, phase, |s| crate::getters::phase_code(s.flow.phase())) }
}
