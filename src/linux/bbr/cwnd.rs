//! BBR's congestion window.

use super::aggregation::ack_aggregation_cwnd;
use super::bw::bbr_bw;
use super::pacing::{TsoGoal, bbr_tso_segs_goal, tso_segs_goal_at};
use super::probe_rtt::CWND_MIN_TARGET;
use super::sock_view::BbrSock;
use super::{BBR_SCALE, BBR_UNIT, BW_SCALE, BW_UNIT, BbrMode, BbrParams, BbrState};
use crate::linux::CaState;
use crate::linux::tcp::RateSample;

/// `TCP_INIT_CWND`: the cwnd cap before any RTT sample, and the delivered count below
/// which STARTUP keeps growing cwnd.
pub const TCP_INIT_CWND: u32 = 10;
/// `bbr_bdp()`: `ceil(bw · min_rtt · gain)` in segments; [`TCP_INIT_CWND`] while
/// `min_rtt_us` is still `u32::MAX` (no valid RTT sample). Wraps as the kernel's `u64`
/// and truncates to `u32`.
pub fn bbr_bdp(bbr: &BbrState, bw: u32, gain: u32) -> u32 {
    if bbr.min_rtt_us == u32::MAX {
        return TCP_INIT_CWND;
    }
    let w = u64::from(bw) * u64::from(bbr.min_rtt_us);
    // Linux net/ipv4/tcp_bbr.c bbr_bdp(): (((w * gain) >> BBR_SCALE) + BW_UNIT - 1) / BW_UNIT
    let scaled = w.wrapping_mul(u64::from(gain)) >> BBR_SCALE;
    (scaled.wrapping_add(BW_UNIT - 1) / BW_UNIT) as u32
}

/// `bbr_quantization_budget()`: room for three TSO bursts, rounded up to even, and 2
/// more in PROBE_BW's probing phase.
pub fn bbr_quantization_budget<S: BbrSock>(
    bbr: &BbrState,
    sk: &S,
    p: &BbrParams,
    cwnd: u32,
) -> u32 {
    quantization_budget(bbr, cwnd, bbr_tso_segs_goal(sk, p))
}

/// [`bbr_quantization_budget`] with `bbr_tso_segs_goal()` already computed
/// (`tso_segs_goal`).
pub(super) fn quantization_budget(bbr: &BbrState, cwnd: u32, tso_segs_goal: u32) -> u32 {
    // Linux net/ipv4/tcp_bbr.c bbr_quantization_budget(): cwnd + 3 * tso_segs_goal, rounded up to even
    let cwnd = cwnd.wrapping_add(3 * tso_segs_goal);
    let cwnd = cwnd.wrapping_add(1) & !1;
    if bbr.mode == BbrMode::ProbeBw && bbr.cycle_idx == 0 {
        cwnd.wrapping_add(2)
    } else {
        cwnd
    }
}

/// `bbr_inflight()`: the BDP at `gain` plus the quantization budget.
pub fn bbr_inflight<S: BbrSock>(bbr: &BbrState, sk: &S, p: &BbrParams, bw: u32, gain: u32) -> u32 {
    let inflight = bbr_bdp(bbr, bw, gain);
    bbr_quantization_budget(bbr, sk, p, inflight)
}

/// `bbr_packets_in_net_at_edt()`: the flight expected when the next segment departs:
/// `inflight_now` (plus that burst when probing) less what `bbr_bw` delivers until
/// then. An EDT already past counts as now.
pub fn bbr_packets_in_net_at_edt<S: BbrSock>(
    bbr: &BbrState,
    sk: &S,
    p: &BbrParams,
    inflight_now: u32,
) -> u32 {
    let probe_segs = if u32::from(bbr.pacing_gain) > BBR_UNIT {
        bbr_tso_segs_goal(sk, p)
    } else {
        0
    };
    packets_in_net_at_edt(bbr_bw(bbr), sk, inflight_now, probe_segs)
}

/// [`bbr_packets_in_net_at_edt`] with `bbr_bw()` already read (`bw`) and the probing
/// burst already computed (`probe_segs`: `bbr_tso_segs_goal()` when `pacing_gain` is
/// above 1, else 0).
pub(super) fn packets_in_net_at_edt<S: BbrSock>(
    bw: u32,
    sk: &S,
    inflight_now: u32,
    probe_segs: u32,
) -> u32 {
    let interval_us = sk.edt_ahead_us();
    // Linux net/ipv4/tcp_bbr.c bbr_packets_in_net_at_edt(): bw * interval_us >> BW_SCALE, as u32
    let interval_delivered = (u64::from(bw).wrapping_mul(interval_us) >> BW_SCALE) as u32;
    // Linux net/ipv4/tcp_bbr.c bbr_packets_in_net_at_edt(): + tso_segs_goal when pacing_gain > 1
    let inflight_at_edt = inflight_now.wrapping_add(probe_segs);
    if interval_delivered >= inflight_at_edt {
        return 0;
    }
    inflight_at_edt - interval_delivered
}

/// `bbr_set_cwnd_to_recover_or_restore()`: deducts this ACK's losses; the first
/// round of Recovery conserves packets (cwnd = flight + delivered); leaving recovery
/// restores the saved cwnd. Returns the new cwnd and whether packet conservation
/// decides it.
pub fn bbr_set_cwnd_to_recover_or_restore<S: BbrSock>(
    bbr: &mut BbrState,
    sk: &S,
    rs: &RateSample,
    acked: u32,
) -> (u32, bool) {
    let mut cwnd = sk.snd_cwnd();
    // Nearly every ACK: no loss, no CA-state change, no packet conservation; nothing
    // below would change cwnd or the state.
    if rs.losses <= 0 && bbr.prev_ca_state == sk.icsk_ca_state() && !bbr.packet_conservation() {
        return (cwnd, false);
    }
    let prev_state = bbr.prev_ca_state as u8;
    let state = sk.icsk_ca_state() as u8;
    let recovery = CaState::Recovery as u8;
    if rs.losses > 0 {
        // Linux net/ipv4/tcp_bbr.c bbr_set_cwnd_to_recover_or_restore(): max_t(s32, cwnd - losses, 1)
        cwnd = (cwnd.wrapping_sub(rs.losses as u32) as i32).max(1) as u32;
    }
    // Both transitions need a state change; with none, prev_ca_state stays as it is.
    if state != prev_state {
        if state == recovery {
            bbr.set_packet_conservation(true);
            bbr.next_rtt_delivered = sk.delivered();
            // Linux net/ipv4/tcp_bbr.c bbr_set_cwnd_to_recover_or_restore(): cut unused cwnd
            cwnd = sk.packets_in_flight().wrapping_add(acked);
        } else if prev_state >= recovery && state < recovery {
            cwnd = cwnd.max(bbr.prior_cwnd);
            bbr.set_packet_conservation(false);
        }
        bbr.prev_ca_state = sk.icsk_ca_state();
    }
    if bbr.packet_conservation() {
        // Linux net/ipv4/tcp_bbr.c bbr_set_cwnd_to_recover_or_restore(): max(cwnd, in_flight + acked)
        return (cwnd.max(sk.packets_in_flight().wrapping_add(acked)), true);
    }
    (cwnd, false)
}

/// `bbr_set_cwnd()`: with segments delivered, grows cwnd by them toward the target
/// (`bdp · cwnd_gain` + aggregation + quantization), or cuts it to the target once the
/// pipe was full; never below 4. Always applies the clamp, and PROBE_RTT's cap of 4.
/// With nothing delivered (`acked == 0`) only the caps apply, and `prev_ca_state` is
/// not updated.
pub fn bbr_set_cwnd<S: BbrSock>(
    bbr: &mut BbrState,
    sk: &mut S,
    p: &BbrParams,
    rs: &RateSample,
    acked: u32,
    bw: u32,
    gain: u32,
) {
    let cur_bw = bbr_bw(bbr);
    set_cwnd(bbr, sk, p, rs, (acked, bw, gain), cur_bw, (0, 0));
}

/// [`bbr_set_cwnd`] (`acked`, `bw`, `gain` in a tuple) with `bbr_bw()` read (`cur_bw`),
/// reusing `tso_goal` at the same pacing rate. Returns the `bbr_tso_segs_goal()` it
/// used (0: none, nothing delivered or packet conservation).
pub(super) fn set_cwnd<S: BbrSock>(
    bbr: &mut BbrState,
    sk: &mut S,
    p: &BbrParams,
    rs: &RateSample,
    (acked, bw, gain): (u32, u32, u32),
    cur_bw: u32,
    tso_goal: TsoGoal,
) -> u32 {
    let mut goal = 0;
    let mut cwnd = sk.snd_cwnd();
    if acked != 0 {
        let (recovered, conserving) = bbr_set_cwnd_to_recover_or_restore(bbr, sk, rs, acked);
        cwnd = recovered;
        if !conserving {
            let target = bbr_bdp(bbr, bw, gain);
            let target = target.wrapping_add(ack_aggregation_cwnd(bbr, cur_bw));
            goal = tso_segs_goal_at(sk, p, tso_goal);
            let target = quantization_budget(bbr, target, goal);
            // Linux net/ipv4/tcp_bbr.c bbr_set_cwnd(): slow start toward the target, or snap down once full
            if bbr.full_bw_reached() {
                cwnd = cwnd.wrapping_add(acked).min(target);
            } else if cwnd < target || sk.delivered() < TCP_INIT_CWND {
                cwnd = cwnd.wrapping_add(acked);
            }
            cwnd = cwnd.max(CWND_MIN_TARGET);
        }
    }
    sk.set_snd_cwnd(cwnd.min(sk.snd_cwnd_clamp()));
    if bbr.mode == BbrMode::ProbeRtt {
        sk.set_snd_cwnd(sk.snd_cwnd().min(CWND_MIN_TARGET));
    }
    goal
}

#[cfg(test)]
mod tests;
