//! Linux mode's own calls: init, reconfigure, and the two kernel-style steps a kernel
//! trace needs that the shared event set does not name (an RTO retransmitting more
//! than the head, the stack's own `lsndtime`).

use crate::flow::{at, with};
use crate::linux_config::CongestionLinuxConfig;
use crate::state::{self, CongestionLinuxState, Inner};
use crate::*;
use congestion::linux::{LinuxFlow, LinuxFlowConfig};
use congestion::pacing::SendPath;

/// Initialises the state at `state` (a buffer of `state_size` bytes, at least
/// `CONGESTION_LINUX_STATE_SIZE`, aligned to `CONGESTION_LINUX_STATE_ALIGN`) from `*config` at `now_us` (Linux
/// `tcp_init_congestion_control`); nothing is in flight. On error nothing is written.
///
/// Returns `CONGESTION_OK`, `CONGESTION_ERR_NULL`, `CONGESTION_ERR_ALIGNMENT`,
/// `CONGESTION_ERR_SIZE`, or a `CONGESTION_ERR_*` configuration code naming the
/// refused setting.
///
/// # Safety
/// `state` is NULL or valid for writes of `state_size` bytes; `config` is NULL or
/// points to a readable `CongestionLinuxConfig`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_init(
    state: *mut CongestionLinuxState,
    state_size: usize,
    config: *const CongestionLinuxConfig,
    now_us: u64,
) -> i32 {
    if config.is_null() {
        return CONGESTION_ERR_NULL;
    }
    if let Err(code) = state::check_buffer(state, state_size) {
        return code;
    }
    // SAFETY: non-null and readable per the contract; the config is plain integers.
    let config = unsafe { config.read() };
    let (params, socket, send) = match config.to_rust() {
        Ok(v) => v,
        Err(code) => return code,
    };
    let flow_config = LinuxFlowConfig::from_parts(*params.config(), socket);
    let flow = match LinuxFlow::new(flow_config, at(now_us)) {
        Ok(f) => f,
        Err(e) => return crate::linux_config::code(e),
    };
    // SAFETY: checked above (non-null, aligned, large enough), writable per the contract.
    unsafe { state::write(state, Inner::new(flow, SendPath::new(send))) };
    CONGESTION_OK
}

/// New settings for a running flow (`*config` as for [`congestion_linux_init`]): CUBIC
/// and HyStart parameters, socket settings and send-path settings apply from the next
/// event; the flow's state is kept (the initial window and ssthresh only matter to a
/// later init). All settings are checked first: on error nothing changes.
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state not used concurrently; `config`
/// is NULL or points to a readable `CongestionLinuxConfig`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_reconfigure(
    state: *mut CongestionLinuxState,
    config: *const CongestionLinuxConfig,
) -> i32 {
    if config.is_null() {
        return CONGESTION_ERR_NULL;
    }
    // SAFETY: non-null and readable per the contract; the config is plain integers.
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
        Err(e) => crate::linux_config::code(e),
    }
}

/// A retransmission timeout after which `retransmitted` segments are in flight (the
/// kernel's `tcp_enter_loss` and its retransmissions, as a kernel trace records them);
/// [`congestion_linux_on_rto`] is this with 1.
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_on_rto_retransmitted(
    state: *mut CongestionLinuxState,
    now_us: u64,
    retransmitted: u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { with(state, |s| s.flow.rto(at(now_us), retransmitted)) }
}

/// Overrides the time of the last send (`lsndtime`), in jiffies (ms), for stacks whose
/// own bookkeeping owns it.
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_set_last_send_jiffies(
    state: *mut CongestionLinuxState,
    jiffies: u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { with(state, |s| s.flow.set_last_send_jiffies(jiffies)) }
}
