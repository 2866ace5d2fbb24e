//! One function per event. Each returns `CONGESTION_OK` or a negative code; none
//! allocates, blocks or panics.

use crate::state::{self, Blob, CongestionState, Inner};
use crate::*;
use congestion::linux::{LinuxFlow, LinuxFlowConfig};
use congestion::pacing::{Rate, SendPath};
use congestion::{Duration, Instant};

/// Runs `f` on the state behind `state`, or returns the error code.
///
/// # Safety
/// As [`state::get`].
pub(crate) unsafe fn with<B: Blob>(state: *mut B, f: impl FnOnce(&mut B::Inner)) -> i32 {
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

/// New settings for a running flow (`*config` as for [`congestion_init`]): CUBIC and
/// HyStart parameters, socket settings and send-path settings apply from the next
/// event; the flow's state is kept (the initial window and ssthresh only matter to a
/// later `congestion_init`). All settings are checked first: on error nothing changes.
///
/// Returns `CONGESTION_OK`, `CONGESTION_ERR_NULL`, `CONGESTION_ERR_UNINITIALIZED`, or a
/// `CONGESTION_ERR_*` configuration code naming the refused setting.
///
/// # Safety
/// `state` is NULL or an initialised state not used concurrently; `config` is NULL or
/// points to a readable `CongestionConfig`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_reconfigure(
    state: *mut CongestionState,
    config: *const CongestionConfig,
) -> i32 {
    if config.is_null() {
        return CONGESTION_ERR_NULL;
    }
    // SAFETY: non-null and readable per the contract; CongestionConfig is plain integers.
    let config = unsafe { config.read() };
    let (params, socket, send) = match config.to_rust() {
        Ok(v) => v,
        Err(code) => return code,
    };
    let mut result = Ok(());
    // SAFETY: forwarded contract.
    let rc = unsafe {
        with(state, |s| {
            // The socket settings were validated by `to_rust`, so this does not fail;
            // if it ever did, nothing is changed.
            result = s.flow.set_socket_config(socket);
            if result.is_ok() {
                s.flow.set_params(params);
                s.send.set_params(send);
            }
        })
    };
    match result {
        Ok(()) => rc,
        Err(e) => crate::config::code(e),
    }
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
