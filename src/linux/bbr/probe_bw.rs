//! Mode changes, the PROBE_BW gain cycle and each mode's gains.

use super::bw::{bbr_bw, bbr_max_bw};
use super::cwnd::{
    bbr_bdp, bbr_inflight, bbr_packets_in_net_at_edt, packets_in_net_at_edt, quantization_budget,
};
use super::pacing::{TsoGoal, tso_segs_goal_at};
use super::sock_view::BbrSock;
use super::{BBR_UNIT, BbrMode, BbrParams, BbrState, CWND_GAIN, DRAIN_GAIN, HIGH_GAIN};
use crate::linux::tcp::rate::tcp_stamp_us_delta;
use crate::linux::tcp::{RandomSource, RateSample};

/// `CYCLE_LEN`: phases in the PROBE_BW gain cycle.
pub const CYCLE_LEN: u8 = 8;
/// `bbr_pacing_gain[]`: probe at 5/4, drain at 3/4, cruise at 1 for six phases (/256).
pub const PACING_GAIN: [u16; CYCLE_LEN as usize] = [320, 192, 256, 256, 256, 256, 256, 256];
/// `bbr_cycle_rand`: PROBE_BW starts at a random one of the last 7 phases.
pub const CYCLE_RAND: u32 = 7;

/// `bbr_is_next_cycle_phase()`: a phase lasts one `min_rtt`; the probing phase also
/// waits for the flight to reach `gain · BDP` (unless there were losses), the draining
/// phase ends early once the flight is down to the BDP.
pub fn bbr_is_next_cycle_phase<S: BbrSock>(
    bbr: &BbrState,
    sk: &S,
    p: &BbrParams,
    rs: &RateSample,
) -> bool {
    is_next_cycle_phase(bbr, sk, p, rs, bbr_bw(bbr), &mut (0, 0))
}

/// [`bbr_is_next_cycle_phase`] with `bbr_bw()` already read (`cur_bw`), keeping in
/// `tso_goal` the `bbr_tso_segs_goal()` it computed, with the pacing rate it was
/// computed at (for `bbr_set_cwnd()`).
pub(super) fn is_next_cycle_phase<S: BbrSock>(
    bbr: &BbrState,
    sk: &S,
    p: &BbrParams,
    rs: &RateSample,
    cur_bw: u32,
    tso_goal: &mut TsoGoal,
) -> bool {
    // Linux net/ipv4/tcp_bbr.c bbr_is_next_cycle_phase(): a phase lasts at least min_rtt
    let is_full_length =
        tcp_stamp_us_delta(sk.delivered_mstamp(), bbr.cycle_mstamp) > bbr.min_rtt_us;
    let gain = u32::from(bbr.pacing_gain);
    if gain == BBR_UNIT {
        return is_full_length;
    }
    let bw = bbr_max_bw(bbr);
    if gain > BBR_UNIT {
        // Both bbr_packets_in_net_at_edt() and bbr_inflight() take bbr_tso_segs_goal()
        // at the same pacing rate: computed once.
        let tso_segs_goal = tso_segs_goal_at(sk, p, *tso_goal);
        *tso_goal = (sk.sk_pacing_rate(), tso_segs_goal);
        // The C computes the flight first; it has no side effect, so it is computed
        // only when the answer depends on it.
        if !is_full_length {
            return false;
        }
        if rs.losses != 0 {
            return true;
        }
        let inflight = packets_in_net_at_edt(cur_bw, sk, rs.prior_in_flight, tso_segs_goal);
        return inflight >= quantization_budget(bbr, bbr_bdp(bbr, bw, gain), tso_segs_goal);
    }
    if is_full_length {
        return true;
    }
    let inflight = bbr_packets_in_net_at_edt(bbr, sk, p, rs.prior_in_flight);
    inflight <= bbr_inflight(bbr, sk, p, bw, BBR_UNIT)
}

/// `bbr_advance_cycle_phase()`: the next phase starts now.
pub fn bbr_advance_cycle_phase<S: BbrSock>(bbr: &mut BbrState, sk: &S) {
    // cycle_idx is a 3-bit field: the increment wraps within it.
    bbr.cycle_idx = bbr.cycle_idx.wrapping_add(1) & (CYCLE_LEN - 1);
    bbr.cycle_mstamp = sk.delivered_mstamp();
}

/// `bbr_update_cycle_phase()`: gain cycling in PROBE_BW.
pub fn bbr_update_cycle_phase<S: BbrSock>(
    bbr: &mut BbrState,
    sk: &S,
    p: &BbrParams,
    rs: &RateSample,
) {
    update_cycle_phase(bbr, sk, p, rs, bbr_bw(bbr), &mut (0, 0));
}

/// [`bbr_update_cycle_phase`] with `bbr_bw()` already read (`cur_bw`), keeping the TSO
/// goal it computed in `tso_goal`.
pub(super) fn update_cycle_phase<S: BbrSock>(
    bbr: &mut BbrState,
    sk: &S,
    p: &BbrParams,
    rs: &RateSample,
    cur_bw: u32,
    tso_goal: &mut TsoGoal,
) {
    if bbr.mode == BbrMode::ProbeBw && is_next_cycle_phase(bbr, sk, p, rs, cur_bw, tso_goal) {
        bbr_advance_cycle_phase(bbr, sk);
    }
}

/// `bbr_reset_startup_mode()`.
pub fn bbr_reset_startup_mode(bbr: &mut BbrState) {
    bbr.mode = BbrMode::Startup;
}

/// `bbr_reset_probe_bw_mode()`: PROBE_BW at a random phase other than the probing
/// one (one draw below 7; a larger value from the source is reduced modulo 7).
pub fn bbr_reset_probe_bw_mode<S: BbrSock, R: RandomSource>(
    bbr: &mut BbrState,
    sk: &S,
    _p: &BbrParams,
    rand: &mut R,
) {
    bbr.mode = BbrMode::ProbeBw;
    let draw = (rand.below(CYCLE_RAND) % CYCLE_RAND) as u8;
    // Linux net/ipv4/tcp_bbr.c bbr_reset_probe_bw_mode(): cycle_idx = CYCLE_LEN - 1 - rand(7)
    bbr.cycle_idx = (CYCLE_LEN - 1 - draw) & (CYCLE_LEN - 1);
    bbr_advance_cycle_phase(bbr, sk);
}

/// `bbr_reset_mode()`: back to STARTUP if the pipe was never filled, else PROBE_BW.
pub fn bbr_reset_mode<S: BbrSock, R: RandomSource>(
    bbr: &mut BbrState,
    sk: &S,
    p: &BbrParams,
    rand: &mut R,
) {
    if !bbr.full_bw_reached() {
        bbr_reset_startup_mode(bbr);
    } else {
        bbr_reset_probe_bw_mode(bbr, sk, p, rand);
    }
}

/// `bbr_check_drain()`: a full pipe moves STARTUP to DRAIN (and sets `ssthresh` to the
/// BDP budget); DRAIN ends once the flight at the next departure is down to it.
pub fn bbr_check_drain<S: BbrSock, R: RandomSource>(
    bbr: &mut BbrState,
    sk: &mut S,
    p: &BbrParams,
    rand: &mut R,
) {
    if bbr.mode == BbrMode::Startup && bbr.full_bw_reached() {
        bbr.mode = BbrMode::Drain;
        sk.set_snd_ssthresh(bbr_inflight(bbr, sk, p, bbr_max_bw(bbr), BBR_UNIT));
    }
    if bbr.mode == BbrMode::Drain
        && bbr_packets_in_net_at_edt(bbr, sk, p, sk.packets_in_flight())
            <= bbr_inflight(bbr, sk, p, bbr_max_bw(bbr), BBR_UNIT)
    {
        bbr_reset_probe_bw_mode(bbr, sk, p, rand);
    }
}

/// `bbr_update_gains()`: the pacing and cwnd gains of the current mode (and phase).
pub fn bbr_update_gains(bbr: &mut BbrState) {
    // Every gain is below 1024: the kernel's 10-bit fields hold them.
    // PROBE_BW first, with its own stores: nearly every ACK is in it.
    if bbr.mode == BbrMode::ProbeBw {
        bbr.cwnd_gain = CWND_GAIN as u16;
        bbr.pacing_gain = if bbr.lt_use_bw() {
            BBR_UNIT as u16
        } else {
            // cycle_idx is a 3-bit field: the mask keeps it so for the lookup.
            let idx = usize::from(bbr.cycle_idx & (CYCLE_LEN - 1));
            PACING_GAIN.get(idx).copied().unwrap_or(BBR_UNIT as u16)
        };
        return;
    }
    other_gains(bbr);
}

/// [`bbr_update_gains`] outside PROBE_BW (cold: PROBE_BW's path takes no jump table).
#[cold]
fn other_gains(bbr: &mut BbrState) {
    let (pacing, cwnd) = match bbr.mode {
        BbrMode::Startup => (HIGH_GAIN, HIGH_GAIN),
        BbrMode::Drain => (DRAIN_GAIN, HIGH_GAIN),
        BbrMode::ProbeBw | BbrMode::ProbeRtt => (BBR_UNIT, BBR_UNIT),
    };
    bbr.pacing_gain = pacing as u16;
    bbr.cwnd_gain = cwnd as u16;
}
