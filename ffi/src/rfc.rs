//! RFC mode's own calls (`congestion_rfc_cubic_*`): init, reconfigure, the MSS, and every
//! field at once. RFC 9438 CUBIC or RFC 9002 NewReno in bytes, with RFC 9406 HyStart++
//! (or Linux HyStart, or standard slow start), driven the way a QUIC stack drives it.

use crate::flow::{RfcAlgorithm, at, forward, phase_code, read, ssthresh_code, with};
use crate::rfc_config::CongestionRfcCubicConfig;
use crate::state::{
    self, CongestionRfcCubicParams, CongestionRfcCubicState, RfcInner, RfcParamsInner,
};
use crate::*;
use congestion::rfc::{ClassicState, RfcParams};

/// The settings of `*config` as a parameter block, or the error code of the first one
/// refused.
fn params_from(config: CongestionRfcCubicConfig) -> Result<RfcParamsInner, i32> {
    let newreno = config.newreno()?;
    let flow_config = config.to_rust()?;
    let rfc = RfcParams::new(&flow_config).map_err(crate::linux_config::code)?;
    Ok(RfcParamsInner::new(rfc, config.send()?, newreno))
}

/// Validates `*config` into the parameter block at `params` (a buffer of `params_size`
/// bytes, at least `CONGESTION_RFC_PARAMS_SIZE`, 8-byte aligned): the algorithm, CUBIC's
/// settings, the slow-start kind, the initial window, the pacing rate and the send path,
/// shared by every flow later initialised with it. One block serves any number of flows. On error
/// nothing is written.
///
/// Returns `CONGESTION_OK`, `CONGESTION_ERR_NULL`, `CONGESTION_ERR_ALIGNMENT`,
/// `CONGESTION_ERR_SIZE`, or a `CONGESTION_ERR_*` configuration code naming the
/// refused setting.
///
/// # Safety
/// `params` is NULL or valid for writes of `params_size` bytes, and no flow initialised
/// with it is in a call; `config` is NULL or points to a readable `CongestionRfcCubicConfig`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_cubic_params_init(
    params: *mut CongestionRfcCubicParams,
    params_size: usize,
    config: *const CongestionRfcCubicConfig,
) -> i32 {
    if config.is_null() {
        return CONGESTION_ERR_NULL;
    }
    if let Err(code) = state::check_buffer(params, params_size) {
        return code;
    }
    // SAFETY: non-null and readable per the contract; the config is plain integers.
    match params_from(unsafe { config.read() }) {
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
/// `CONGESTION_RFC_STATE_SIZE`, aligned to `CONGESTION_RFC_STATE_ALIGN`, 64) on the
/// parameter block `params` at `now_us`, running the block's algorithm; nothing is in
/// flight. The state keeps the block's address. On error nothing is written.
///
/// Returns `CONGESTION_OK`, `CONGESTION_ERR_NULL`, `CONGESTION_ERR_ALIGNMENT`,
/// `CONGESTION_ERR_SIZE`, or `CONGESTION_ERR_UNINITIALIZED` when `params` was not
/// initialised by `congestion_rfc_cubic_params_init`.
///
/// # Safety
/// `state` is NULL or valid for writes of `state_size` bytes; `params` is NULL or an
/// initialised parameter block that outlives the state (and every copy of it) and is
/// not written while a call on any of its flows runs.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_cubic_init(
    state: *mut CongestionRfcCubicState,
    state_size: usize,
    params: *const CongestionRfcCubicParams,
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
    let flow = if block.newreno {
        RfcAlgorithm::NewReno(ClassicState::new(&block.rfc, at(now_us)))
    } else {
        RfcAlgorithm::Cubic(ClassicState::new(&block.rfc, at(now_us)))
    };
    // SAFETY: checked above (non-null, aligned, large enough), writable per the contract.
    // The caller's own pointer is kept, not one derived from `block` (as in Linux mode's
    // init: a reconfigure borrows the block mutably through it).
    unsafe { state::write(state, RfcInner::new(flow, params.cast())) };
    CONGESTION_OK
}

/// New settings in the parameter block at `params` (`*config` as for
/// [`congestion_rfc_cubic_params_init`]), for every flow initialised with it: CUBIC's β, ECN β,
/// C, fast convergence, Reno-friendliness, the pacing-rate and the send-path settings
/// apply from each flow's next event. The flow at `state` (one of the block's) also takes the new MSS (as
/// [`congestion_rfc_cubic_set_mss`]) and restarts its CUBIC epoch on the new constants; the
/// block's other flows keep their MSS, and CUBIC's curve points until their next epoch
/// (call this with each of them to move them at once). The algorithm, the slow-start
/// kind, `paced`, the initial window and ssthresh only matter to a later init. All
/// settings are checked first: on error nothing changes.
///
/// # Safety
/// `params` is NULL or an initialised parameter block and `state` NULL or an initialised
/// RFC-mode state on it, and no call on any of the block's flows runs meanwhile; `config`
/// is NULL or points to a readable `CongestionRfcCubicConfig`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_cubic_reconfigure(
    params: *mut CongestionRfcCubicParams,
    state: *mut CongestionRfcCubicState,
    config: *const CongestionRfcCubicConfig,
) -> i32 {
    if config.is_null() {
        return CONGESTION_ERR_NULL;
    }
    // SAFETY: non-null and readable per the contract; the config is plain integers.
    let config = unsafe { config.read() };
    let send = match config.send() {
        Ok(send) => send,
        Err(code) => return code,
    };
    let config = match config.to_rust() {
        Ok(c) => c,
        Err(code) => return code,
    };
    let pacing = match config.pacing.validate() {
        Ok(p) => p,
        Err(e) => return crate::linux_config::code(e),
    };
    if let Err(e) = config.cubic.validate() {
        return crate::linux_config::code(e);
    }
    // SAFETY: forwarded contract.
    let block = match unsafe { state::get(params) } {
        Ok(block) => block,
        Err(code) => return code,
    };
    let mut result = Ok(());
    // SAFETY: forwarded contract; the state's own pointer to the block is not read here
    // (the block is reached through `params`, which the caller says is the same one).
    let rc = unsafe {
        with(state, |s| {
            result = forward!(&mut s.flow, f => f.set_cubic_config(&mut block.rfc, config.cubic));
            if result.is_ok() {
                block.rfc.set_pacing(pacing);
                block.send = send;
            }
        })
    };
    match result {
        Ok(()) => rc,
        Err(e) => crate::linux_config::code(e),
    }
}

/// The path MTU changed: the flow counts in `mss_bytes` from now on. Returns
/// `CONGESTION_ERR_MSS` (0) or `CONGESTION_ERR_MSS_RANGE` (above 65535) and leaves the
/// flow as it was for a refused size.
///
/// # Safety
/// `state` is NULL or an initialised RFC-mode state not used concurrently.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_cubic_set_mss(
    state: *mut CongestionRfcCubicState,
    mss_bytes: u64,
) -> i32 {
    let mut result = Ok(());
    // SAFETY: forwarded contract.
    let rc = unsafe {
        with(state, |s| {
            result = forward!(&mut s.flow, f => f.set_mss(mss_bytes))
        })
    };
    match result {
        Ok(()) => rc,
        Err(e) => crate::linux_config::code(e),
    }
}

/// Every field of an RFC-mode flow, as the RFC-mode replay CSV prints them.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CongestionRfcCubicSnapshot {
    /// Congestion window, bytes.
    pub cwnd_bytes: u64,
    /// Slow-start threshold, bytes (`CONGESTION_SSTHRESH_NONE`: none).
    pub ssthresh_bytes: u64,
    /// CUBIC `W_max`, bytes (0 for NewReno).
    pub w_max_bytes: u64,
    /// CUBIC `K`, µs (0 for NewReno).
    pub k_us: u64,
    /// The Reno-friendly estimate `W_est`, bytes (0 for NewReno).
    pub w_est_bytes: u64,
    /// `cwnd_prior`, bytes: the window when the last reduction began (both algorithms).
    pub cwnd_prior_bytes: u64,
    /// Start of the current CUBIC epoch, µs; -1 when no epoch runs (and for NewReno).
    pub epoch_start_us: i64,
    /// CUBIC `cwnd_epoch`, bytes (0 for NewReno).
    pub cwnd_epoch_bytes: u64,
    /// NewReno: bytes acknowledged in congestion avoidance towards the next one-MSS
    /// increase (0 for CUBIC).
    pub bytes_acked: u64,
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
    /// The `CONGESTION_RFC_ALGORITHM_*` value the flow runs.
    pub algorithm: u32,
}

/// `*out` = every field of the flow.
///
/// # Safety
/// `state` is NULL or an initialised RFC-mode state; `out` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_rfc_cubic_snapshot(
    state: *const CongestionRfcCubicState,
    out: *mut CongestionRfcCubicSnapshot,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read(state, out, |s| snapshot(&s.flow)) }
}

fn snapshot(flow: &RfcAlgorithm) -> CongestionRfcCubicSnapshot {
    let mut v = forward!(flow, f => CongestionRfcCubicSnapshot {
        cwnd_bytes: f.cwnd(),
        ssthresh_bytes: ssthresh_code(f.ssthresh()),
        epoch_start_us: -1,
        in_flight_bytes: f.in_flight(),
        srtt_us: f.srtt_us(),
        min_rtt_us: f.min_rtt_us(),
        mss_bytes: f.mss_bytes(),
        phase: phase_code(f.phase()),
        cwnd_limited: u32::from(f.last_ack_cwnd_limited()),
        css_rounds: f.hystart_pp().css_rounds(),
        ..CongestionRfcCubicSnapshot::default()
    });
    match flow {
        RfcAlgorithm::Cubic(f) => {
            let c = f.cubic();
            v.algorithm = u32::from(crate::CONGESTION_RFC_ALGORITHM_CUBIC);
            v.w_max_bytes = c.w_max_bytes;
            v.k_us = c.k_us;
            v.w_est_bytes = c.w_est_bytes;
            v.cwnd_prior_bytes = c.cwnd_prior_bytes;
            v.epoch_start_us = c
                .epoch_start()
                .map_or(-1, |e| i64::try_from(e.as_micros()).unwrap_or(i64::MAX));
            v.cwnd_epoch_bytes = c.cwnd_epoch_bytes;
        }
        RfcAlgorithm::NewReno(f) => {
            let n = f.growth();
            v.algorithm = u32::from(crate::CONGESTION_RFC_ALGORITHM_NEWRENO);
            v.bytes_acked = n.bytes_acked;
            v.cwnd_prior_bytes = n.cwnd_prior_bytes;
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_snapshot_of_each_algorithm_names_it() {
        let mut c = CongestionRfcCubicConfig::rfc_default();
        for algorithm in [
            CONGESTION_RFC_ALGORITHM_CUBIC,
            CONGESTION_RFC_ALGORITHM_NEWRENO,
        ] {
            c.algorithm = algorithm;
            let mut p = CongestionRfcCubicParams {
                opaque: [0; crate::CONGESTION_RFC_PARAMS_WORDS],
            };
            let size = size_of::<CongestionRfcCubicParams>();
            assert_eq!(
                unsafe { congestion_rfc_cubic_params_init(&mut p, size, &c) },
                CONGESTION_OK
            );
            let mut s = CongestionRfcCubicState {
                opaque: [0; crate::CONGESTION_RFC_STATE_WORDS],
            };
            let size = size_of::<CongestionRfcCubicState>();
            assert_eq!(
                unsafe { congestion_rfc_cubic_init(&mut s, size, &p, 0) },
                CONGESTION_OK
            );
            let mut v = CongestionRfcCubicSnapshot::default();
            assert_eq!(
                unsafe { congestion_rfc_cubic_snapshot(&s, &mut v) },
                CONGESTION_OK
            );
            assert_eq!(v.algorithm, u32::from(algorithm));
        }
    }
}
