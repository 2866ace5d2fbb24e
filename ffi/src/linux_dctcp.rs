//! Linux-mode DCTCP through the C ABI (`congestion_linux_dctcp_*`, the Rust
//! `linux::Dctcp`, a `TcpFlow<DctcpOps>`): the kernel-style calls of `TcpFlow`, one C
//! function each, with the arguments in the same order (the parameter block, which holds
//! the module parameters, the socket's starting values and the host's sysctls, is the
//! one the state was initialised with). DCTCP draws no random numbers: these calls take
//! no random source.

use crate::linux_tcp_config::*;
use crate::tcp_blob::*;
use crate::tcp_flow_calls as calls;
use crate::*;
use congestion::linux::Dctcp;
use congestion::linux::dctcp::DctcpOps;

/// Validates `*config` into the parameter block at `params` (a buffer of `params_size` bytes, 8-byte aligned) for DCTCP flows. On error nothing is written.
///
/// Returns `CONGESTION_OK`, `CONGESTION_ERR_NULL`, `CONGESTION_ERR_ALIGNMENT`,
/// `CONGESTION_ERR_SIZE`, or the code naming the refused field:
/// `CONGESTION_ERR_INITIAL_WINDOW` (`init_cwnd` 0 or above the clamp, or an
/// `init_ssthresh` above UINT32_MAX), `CONGESTION_ERR_MSS`,
/// `CONGESTION_ERR_PACING_STATUS`, `CONGESTION_ERR_PACING_RATIO`,
/// `CONGESTION_ERR_DCTCP_SHIFT_G` (DCTCP), `CONGESTION_ERR_PRAGUE_BURST_SHIFT`
/// (Prague).
///
/// # Safety
/// `params` is NULL or valid for writes of `params_size` bytes, and no flow
/// initialised with it is in a call; `config` is NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_dctcp_params_init(
    params: *mut CongestionLinuxDctcpParams,
    params_size: usize,
    config: *const CongestionLinuxDctcpConfig,
) -> i32 {
    // SAFETY: NULL or readable per the contract; plain integers.
    let Some(config) = (unsafe { config.as_ref() }) else {
        return CONGESTION_ERR_NULL;
    };
    match dctcp_params(config) {
        // SAFETY: forwarded contract.
        Ok(p) => unsafe { init_params(params, params_size, p) },
        Err(code) => code,
    }
}

/// Initialises the DCTCP flow at `state` (a buffer of `state_size` bytes, aligned to 64) on the parameter block `params`, the connection being established at `now_us` with the block's socket values: the algorithm's `init` runs, nothing is in flight. The state keeps the block's address. On error nothing is written.
///
/// Returns `CONGESTION_OK`, `CONGESTION_ERR_NULL`, `CONGESTION_ERR_ALIGNMENT`,
/// `CONGESTION_ERR_SIZE`, or `CONGESTION_ERR_UNINITIALIZED`.
///
/// # Safety
/// `state` is NULL or valid for writes of `state_size` bytes; `params` is NULL
/// or an initialised block that outlives the state.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_dctcp_init(
    state: *mut CongestionLinuxDctcpState,
    state_size: usize,
    params: *const CongestionLinuxDctcpParams,
    now_us: u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe {
        init_flow(state, state_size, params, |p| {
            Dctcp::new(&p.ops, &p.socket, now_us, &mut NoDraws)
                .map_err(crate::bbr_types::config_code)
        })
    }
}

/// The application queues `segments` new segments while nothing in flight is
/// being acknowledged: the restart after idle (DCTCP), then the transmit
/// (`TcpFlow::send`; the flight saturates at UINT32_MAX).
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm not used
/// concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_dctcp_on_send(
    state: *mut CongestionLinuxDctcpState,
    now_us: u64,
    segments: u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { calls::on_send::<DctcpOps, _>(state, now_us, segments) }
}

/// The sender transmitted until `in_flight` segments are outstanding
/// (`tcp_write_xmit`; fewer than before means nothing was sent). Call it after
/// each ACK once the stack has sent in response.
///
/// # Safety
/// As `_on_send`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_dctcp_on_transmit(
    state: *mut CongestionLinuxDctcpState,
    now_us: u64,
    in_flight: u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { calls::on_transmit::<DctcpOps, _>(state, now_us, in_flight) }
}

/// An ACK (`tcp_ack`) newly acknowledging `acked` segments cumulatively, with
/// its RTT sample `rtt_us` (negative: none; above UINT32_MAX counts as
/// UINT32_MAX), `ce_delta` segments newly reported CE-marked (AccECN's CE count
/// rise; may exceed `acked`) and `ece` nonzero when it carries ECN-Echo without
/// a CE count. `*outcome` (may be NULL) gets a `CONGESTION_ACK_*` value.
///
/// # Safety
/// As `_on_send`; `outcome` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_dctcp_on_ack(
    state: *mut CongestionLinuxDctcpState,
    now_us: u64,
    acked: u32,
    rtt_us: i64,
    ce_delta: u32,
    ece: u8,
    outcome: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { calls::on_ack::<DctcpOps, _>(state, now_us, acked, rtt_us, ce_delta, ece, outcome) }
}

/// Fast retransmit: a loss detected by duplicate ACKs or RACK
/// (`tcp_enter_recovery`). Ignored in Recovery and Loss: `*entered` (may be
/// NULL) is 1 when Recovery began, else 0.
///
/// # Safety
/// As `_on_send`; `entered` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_dctcp_on_loss(
    state: *mut CongestionLinuxDctcpState,
    now_us: u64,
    entered: *mut u8,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { calls::on_loss::<DctcpOps, _>(state, now_us, entered) }
}

/// A retransmission timeout (`tcp_enter_loss`), after which `retransmitted`
/// segments (usually 1, the head) are sent again at once.
///
/// # Safety
/// As `_on_send`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_dctcp_on_rto(
    state: *mut CongestionLinuxDctcpState,
    now_us: u64,
    retransmitted: u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { calls::on_rto::<DctcpOps, _>(state, now_us, retransmitted) }
}

/// The last reduction proved spurious (`tcp_try_undo`): `*undone` (may be NULL)
/// is 1 when it was undone, 0 when there was none to undo.
///
/// # Safety
/// As `_on_send`; `undone` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_dctcp_on_undo(
    state: *mut CongestionLinuxDctcpState,
    now_us: u64,
    undone: *mut u8,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { calls::on_undo::<DctcpOps, _>(state, now_us, undone) }
}

/// `*cwnd` = `snd_cwnd`, segments.
///
/// # Safety
/// `state` is NULL or an initialised state of this algorithm; the out-pointer
/// NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_dctcp_cwnd(
    state: *const CongestionLinuxDctcpState,
    cwnd: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { calls::cwnd::<DctcpOps, _>(state, cwnd) }
}

/// `*ssthresh` = `snd_ssthresh`, segments; `CONGESTION_SSTHRESH_NONE` while it
/// is the kernel's "infinite".
///
/// # Safety
/// As the other getters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_dctcp_ssthresh(
    state: *const CongestionLinuxDctcpState,
    ssthresh: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { calls::ssthresh::<DctcpOps, _>(state, ssthresh) }
}

/// `*bytes_per_second` = `sk_pacing_rate`, bytes per second (set on ACKs).
///
/// # Safety
/// As the other getters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_dctcp_pacing_rate(
    state: *const CongestionLinuxDctcpState,
    bytes_per_second: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { calls::pacing_rate::<DctcpOps, _>(state, bytes_per_second) }
}

/// `*ca_state` = `icsk_ca_state`: 0 Open, 1 Disorder, 2 CWR, 3 Recovery, 4 Loss.
///
/// # Safety
/// As the other getters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_dctcp_ca_state(
    state: *const CongestionLinuxDctcpState,
    ca_state: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { calls::ca_state::<DctcpOps, _>(state, ca_state) }
}

/// `*in_flight` = `packets_out`, segments.
///
/// # Safety
/// As the other getters.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_dctcp_in_flight(
    state: *const CongestionLinuxDctcpState,
    in_flight: *mut u64,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { calls::in_flight::<DctcpOps, _>(state, in_flight) }
}

/// `*alpha` = `dctcp_alpha`: the EWMA of the CE-marked fraction, of 1024.
///
/// # Safety
/// `state` is NULL or an initialised DCTCP state; `alpha` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_dctcp_alpha(
    state: *const CongestionLinuxDctcpState,
    alpha: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read_flow(state, alpha, |f: &Dctcp, _| f.ca().dctcp_alpha) }
}
