//! Linux mode's own calls: init, reconfigure, and the two kernel-style steps a kernel
//! trace needs that the shared event set does not name (an RTO retransmitting more
//! than the head, the stack's own `lsndtime`).

use crate::flow::{at, with};
use crate::linux_config::CongestionLinuxCubicConfig;
use crate::state::{
    self, CongestionLinuxCubicParams, CongestionLinuxCubicState, Inner, ParamsInner,
};
use crate::*;
use congestion::linux::{CubicConfig, LinuxFlowState, LinuxParams};
use congestion::pacing::SendPathState;

/// The settings of `*config` as a parameter block, or the error code of the first one
/// refused.
fn params_from(config: &CongestionLinuxCubicConfig) -> Result<ParamsInner, i32> {
    let (cubic, socket, send) = config.to_rust()?;
    let flow_config = CubicConfig::from_parts(*cubic.config(), socket);
    let linux = LinuxParams::new(flow_config).map_err(crate::linux_config::code)?;
    Ok(ParamsInner::new(linux, send))
}

/// Validates `*config` into the parameter block at `params` (a buffer of `params_size`
/// bytes, at least `CONGESTION_LINUX_PARAMS_SIZE`, 8-byte aligned): CUBIC's module
/// parameters, the socket settings and the send-path settings, shared by every flow
/// later initialised with it. One block serves any number of flows. On error nothing is
/// written.
///
/// Returns `CONGESTION_OK`, `CONGESTION_ERR_NULL`, `CONGESTION_ERR_ALIGNMENT`,
/// `CONGESTION_ERR_SIZE`, or a `CONGESTION_ERR_*` configuration code naming the
/// refused setting.
///
/// # Safety
/// `params` is NULL or valid for writes of `params_size` bytes, and no flow initialised
/// with it is in a call; `config` is NULL or points to a readable
/// `CongestionLinuxCubicConfig`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_params_init(
    params: *mut CongestionLinuxCubicParams,
    params_size: usize,
    config: *const CongestionLinuxCubicConfig,
) -> i32 {
    if config.is_null() {
        return CONGESTION_ERR_NULL;
    }
    if let Err(code) = state::check_buffer(params, params_size) {
        return code;
    }
    // SAFETY: non-null and readable per the contract; the config is plain integers.
    let config = unsafe { config.read() };
    match params_from(&config) {
        Ok(inner) => {
            // SAFETY: checked above (non-null, aligned, large enough), writable per the
            // contract.
            unsafe { state::write(params, inner) };
            CONGESTION_OK
        }
        Err(code) => code,
    }
}

/// Initialises the flow at `state` (a buffer of `state_size` bytes, at least
/// `CONGESTION_LINUX_STATE_SIZE`, aligned to `CONGESTION_LINUX_STATE_ALIGN`, 64) on the
/// parameter block `params` at `now_us` (Linux `tcp_init_congestion_control`); nothing
/// is in flight. The state keeps the block's address: every later call reads the
/// settings there. On error nothing is written.
///
/// Returns `CONGESTION_OK`, `CONGESTION_ERR_NULL`, `CONGESTION_ERR_ALIGNMENT`,
/// `CONGESTION_ERR_SIZE`, or `CONGESTION_ERR_UNINITIALIZED` when `params` was not
/// initialised by `congestion_linux_cubic_params_init`.
///
/// # Safety
/// `state` is NULL or valid for writes of `state_size` bytes; `params` is NULL or an
/// initialised parameter block that outlives the state (and every copy of it) and is
/// not written while a call on any of its flows runs.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_init(
    state: *mut CongestionLinuxCubicState,
    state_size: usize,
    params: *const CongestionLinuxCubicParams,
    now_us: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    let block = match unsafe { state::get_ref(params) } {
        Ok(block) => block,
        Err(code) => return code,
    };
    if let Err(code) = state::check_buffer(state, state_size) {
        return code;
    }
    let flow = LinuxFlowState::new(&block.linux, at(now_us));
    // The caller's own pointer is kept, not one derived from `block`: a later
    // `congestion_linux_cubic_reconfigure` borrows the block mutably through that pointer, which
    // a reference taken here would not outlive.
    let inner = Inner::new(flow, SendPathState::new(), params.cast());
    // SAFETY: checked above (non-null, aligned, large enough), writable per the contract.
    unsafe { state::write(state, inner) };
    CONGESTION_OK
}

/// New settings in the parameter block at `params` (`*config` as for
/// [`congestion_linux_cubic_params_init`]), for every flow initialised with it: CUBIC and
/// HyStart parameters, socket settings and send-path settings apply from each flow's
/// next event; the flows' state is kept (the initial window and ssthresh only matter to
/// a later init). All settings are checked first: on error nothing changes.
///
/// # Safety
/// `params` is NULL or an initialised parameter block, and no call on any of its flows
/// runs meanwhile; `config` is NULL or points to a readable `CongestionLinuxCubicConfig`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_reconfigure(
    params: *mut CongestionLinuxCubicParams,
    config: *const CongestionLinuxCubicConfig,
) -> i32 {
    if config.is_null() {
        return CONGESTION_ERR_NULL;
    }
    // SAFETY: non-null and readable per the contract; the config is plain integers.
    let config = unsafe { config.read() };
    let new = match params_from(&config) {
        Ok(new) => new,
        Err(code) => return code,
    };
    // SAFETY: forwarded contract.
    unsafe { with(params, |block| *block = new) }
}

/// A retransmission timeout after which `retransmitted` segments are in flight (the
/// kernel's `tcp_enter_loss` and its retransmissions, as a kernel trace records them);
/// [`congestion_linux_cubic_on_rto`] is this with 1.
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_on_rto_retransmitted(
    state: *mut CongestionLinuxCubicState,
    now_us: u64,
    retransmitted: u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        with(state, |s| {
            s.flow.rto(&s.params().linux, at(now_us), retransmitted)
        })
    }
}

/// Overrides the time of the last send (`lsndtime`), in jiffies (ms), for stacks whose
/// own bookkeeping owns it.
///
/// # Safety
/// `state` is NULL or an initialised Linux-mode state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_set_last_send_jiffies(
    state: *mut CongestionLinuxCubicState,
    jiffies: u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { with(state, |s| s.flow.set_last_send_jiffies(jiffies)) }
}
