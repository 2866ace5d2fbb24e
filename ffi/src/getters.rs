//! Getters: each writes one value through its out-pointer and returns a code.

use crate::state::{self, Blob, CongestionState, Inner};
use crate::*;
use congestion::hystart::HystartExit;
use congestion::{CongestionController, Phase};

/// Reads one value from the state into `*out`.
///
/// # Safety
/// `state` as [`state::get_ref`]; `out` NULL or writable.
pub(crate) unsafe fn read<B: Blob, T>(
    state: *const B,
    out: *mut T,
    f: impl FnOnce(&B::Inner) -> T,
) -> i32 {
    if out.is_null() {
        return CONGESTION_ERR_NULL;
    }
    // SAFETY: forwarded contract.
    match unsafe { state::get_ref(state) } {
        Ok(inner) => {
            // SAFETY: non-null and writable per the contract.
            unsafe { out.write(f(inner)) };
            CONGESTION_OK
        }
        Err(code) => code,
    }
}

/// `*cwnd` = the congestion window, segments.
///
/// # Safety
/// `state` is NULL or an initialised state; `cwnd` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_cwnd(state: *const CongestionState, cwnd: *mut u32) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read(state, cwnd, |s| s.flow.state().cwnd) }
}

/// `*ssthresh` = the slow-start threshold, segments (0x7fffffff: none yet).
///
/// # Safety
/// `state` is NULL or an initialised state; `ssthresh` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_ssthresh(
    state: *const CongestionState,
    ssthresh: *mut u32,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read(state, ssthresh, |s| s.flow.state().ssthresh) }
}

/// `*phase` = a `CONGESTION_PHASE_*` value.
///
/// # Safety
/// `state` is NULL or an initialised state; `phase` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_phase(state: *const CongestionState, phase: *mut u32) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read(state, phase, |s| phase_code(s.flow.phase())) }
}

/// The `CONGESTION_PHASE_*` value of a phase.
pub(crate) fn phase_code(phase: Phase) -> u32 {
    match phase {
        Phase::SlowStart => CONGESTION_PHASE_SLOW_START,
        Phase::ConservativeSlowStart => CONGESTION_PHASE_CONSERVATIVE_SLOW_START,
        Phase::CongestionAvoidance => CONGESTION_PHASE_CONGESTION_AVOIDANCE,
        Phase::Recovery => CONGESTION_PHASE_RECOVERY,
    }
}

/// Every field of a Linux-mode flow, as the reference traces print them.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CongestionLinuxSnapshot {
    /// `snd_cwnd`, segments.
    pub cwnd: u32,
    /// `snd_ssthresh`, segments.
    pub ssthresh: u32,
    /// `snd_cwnd_cnt`.
    pub cwnd_cnt: u32,
    /// `icsk_ca_state`: 0 Open, 1 Disorder, 2 CWR, 3 Recovery, 4 Loss.
    pub ca_state: u32,
    /// `bictcp.cnt`.
    pub cnt: u32,
    /// `bictcp.last_max_cwnd`.
    pub last_max_cwnd: u32,
    /// `bictcp.last_cwnd`.
    pub last_cwnd: u32,
    /// `bictcp.last_time`, jiffies.
    pub last_time: u32,
    /// `bictcp.bic_origin_point`.
    pub origin_point: u32,
    /// `bictcp.bic_K`, 1/1024 s.
    pub bic_k: u32,
    /// `bictcp.delay_min`, µs.
    pub delay_min: u32,
    /// `bictcp.epoch_start`, jiffies.
    pub epoch_start: u32,
    /// `bictcp.ack_cnt`.
    pub ack_cnt: u32,
    /// `bictcp.tcp_cwnd`.
    pub tcp_cwnd: u32,
    /// `bictcp.found`.
    pub found: u32,
    /// `bictcp.sample_cnt`.
    pub sample_cnt: u32,
    /// `bictcp.round_start`, µs.
    pub round_start: u32,
    /// `bictcp.end_seq`.
    pub end_seq: u32,
    /// `bictcp.last_ack`, µs.
    pub last_ack: u32,
    /// `bictcp.curr_rtt`, µs.
    pub curr_rtt: u32,
    /// `snd_una`.
    pub snd_una: u32,
    /// `snd_nxt`.
    pub snd_nxt: u32,
    /// `packets_out`.
    pub packets_out: u32,
    /// `is_cwnd_limited`.
    pub is_cwnd_limited: u32,
    /// `max_packets_out`.
    pub max_packets_out: u32,
    /// `srtt_us` (×8).
    pub srtt_us_x8: u32,
    /// `prior_cwnd`.
    pub prior_cwnd: u32,
    /// `prior_ssthresh`.
    pub prior_ssthresh: u32,
    /// Which HyStart detector ended slow start: 0 none, 1 ACK train, 2 delay.
    pub hystart_exit: u32,
    /// `lsndtime`, jiffies.
    pub last_send_jiffies: u32,
    /// `sk_pacing_rate`, bytes/s.
    pub pacing_rate: u64,
}

/// `*out` = every field of the flow (for tracing, and for replaying the kernel's traces).
///
/// # Safety
/// `state` is NULL or an initialised state; `out` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_snapshot(
    state: *const CongestionState,
    out: *mut CongestionLinuxSnapshot,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read(state, out, snapshot) }
}

fn snapshot(s: &Inner) -> CongestionLinuxSnapshot {
    let f = &s.flow;
    let st = f.state();
    let c = &st.cubic;
    let h = &st.hystart;
    let v = f.socket_view();
    CongestionLinuxSnapshot {
        cwnd: st.cwnd,
        ssthresh: st.ssthresh,
        cwnd_cnt: st.cwnd_cnt,
        ca_state: f.ca_state() as u32,
        cnt: c.cnt,
        last_max_cwnd: c.last_max_cwnd,
        last_cwnd: c.last_cwnd,
        last_time: c.last_time,
        origin_point: c.origin_point,
        bic_k: c.bic_k,
        delay_min: c.delay_min,
        epoch_start: c.epoch_start,
        ack_cnt: c.ack_cnt,
        tcp_cwnd: c.tcp_cwnd,
        found: u32::from(h.found),
        sample_cnt: u32::from(h.sample_cnt),
        round_start: h.round_start,
        end_seq: h.end_seq,
        last_ack: h.last_ack,
        curr_rtt: h.curr_rtt,
        snd_una: v.snd_una,
        snd_nxt: v.snd_nxt,
        packets_out: v.packets_out,
        is_cwnd_limited: u32::from(v.is_cwnd_limited),
        max_packets_out: v.max_packets_out,
        srtt_us_x8: v.srtt_us_x8,
        prior_cwnd: v.prior_cwnd,
        prior_ssthresh: v.prior_ssthresh,
        hystart_exit: match f.hystart_exit() {
            None => 0,
            Some(HystartExit::AckTrain) => 1,
            Some(HystartExit::DelayIncrease) => 2,
        },
        last_send_jiffies: v.last_send_jiffies,
        pacing_rate: f.pacing_rate(),
    }
}
