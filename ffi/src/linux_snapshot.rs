//! Every field of a Linux-mode flow at once, as the kernel's reference traces print
//! them (raw kernel values: `snd_ssthresh` 0x7fffffff is "none" here, as in the
//! kernel; `congestion_linux_cubic_ssthresh` gives `CONGESTION_SSTHRESH_NONE`).

use crate::flow::read;
use crate::state::{CongestionLinuxCubicState, Inner};
use congestion::hystart::HystartExit;

/// Every field of a Linux-mode flow, as the reference traces print them.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CongestionLinuxCubicSnapshot {
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
/// `state` is NULL or an initialised Linux-mode state; `out` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn congestion_linux_cubic_snapshot(
    state: *const CongestionLinuxCubicState,
    out: *mut CongestionLinuxCubicSnapshot,
) -> i32 {
    // SAFETY: forwarded contract.
    unsafe { read(state, out, snapshot) }
}

fn snapshot(s: &Inner) -> CongestionLinuxCubicSnapshot {
    let f = &s.flow;
    let st = f.state();
    let c = &st.cubic;
    let h = &st.hystart;
    let v = f.socket_view();
    CongestionLinuxCubicSnapshot {
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
        pacing_rate: f.sk_pacing_rate(&s.params().linux),
    }
}
