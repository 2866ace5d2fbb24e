//! PROBE_BW's cycle: DOWN (drain) → CRUISE → REFILL → UP (probe) → DOWN, timed by a
//! random 2–3 s wall-clock wait or a Reno-coexistence count of rounds, whichever
//! comes first; and DRAIN, which leads into it.

use super::cwnd::{bbr_bdp, bbr_inflight, bbr_target_inflight};
use super::lower_bounds::{bbr_reset_congestion_signals, bbr_reset_lower_bounds};
use super::pacing::{bbr_packets_in_net_at_edt, bbr_tso_segs_goal};
use super::params::{
    BBR_SCALE, BBR_UNIT, BW_PROBE_BASE_US, BW_PROBE_MAX_ROUNDS, BW_PROBE_RAND_ROUNDS,
    BW_PROBE_RAND_US, CWND_MIN_TARGET, ECN_REPROBE_GAIN,
};
use super::startup::bbr_reset_full_bw;
use super::state::AckPhase;
use super::upper_bounds::{
    bbr_adapt_upper_bounds, bbr_inflight_with_headroom, bbr_raise_inflight_hi_slope,
};
use super::{Bbr, Bbr3Params, CyclePhase, Mode, Sample};
use crate::linux::CaState;
use crate::linux::bbr::BbrSock;
use crate::linux::tcp::RandomSource;

/// `bbr_set_cycle_idx`: a new phase, whose gains and cwnd need the slow path.
fn bbr_set_cycle_idx(bbr: &mut Bbr, phase: CyclePhase) {
    bbr.cycle_idx = phase;
    bbr.set_try_fast_path(false);
}

/// `bbr_pick_probe_wait`: two draws, in this order: the random part of the round
/// count (`rounds_since_probe` starts at 0 or 1) and of the wall-clock wait (2–3 s).
fn bbr_pick_probe_wait<R: RandomSource>(bbr: &mut Bbr, rand: &mut R) {
    (bbr.rounds_since_probe, bbr.probe_wait_us) = pick_probe_wait(rand);
}

/// The draws of `bbr_pick_probe_wait`, shared with `rfc::Bbr3`: the starting round
/// count (0 or 1) and the wall-clock wait (2 s plus 0–1 s, µs), in that order.
pub(crate) fn pick_probe_wait<R: RandomSource>(rand: &mut R) -> (u8, u32) {
    // A source that returns more than asked is reduced modulo the bound.
    let rounds = (rand.below(BW_PROBE_RAND_ROUNDS) % BW_PROBE_RAND_ROUNDS) as u8;
    // Linux net/ipv4/tcp_bbr.c bbr_pick_probe_wait(): bw_probe_base_us + random below bw_probe_rand_us
    let wait_us = BW_PROBE_BASE_US + rand.below(BW_PROBE_RAND_US) % BW_PROBE_RAND_US;
    (rounds, wait_us)
}

/// `bbr_start_bw_probe_refill`: send at the estimate for a round to refill the pipe;
/// the round ends once `tp->delivered` (`delivered`, the one socket field it reads)
/// is delivered. Once per cycle: out of line, so that the common ACK's frame stays
/// small, and given the count rather than the socket, so that the ACK's socket view
/// never leaves its frame.
#[inline(never)]
#[cold]
pub(super) fn bbr_start_bw_probe_refill(bbr: &mut Bbr, delivered: u32, bw_probe_up_rounds: u32) {
    bbr_reset_lower_bounds(bbr);
    // `bw_probe_up_rounds:5` keeps the low 5 bits (an ilog2 of 0, -1, becomes 31).
    bbr.bw_probe_up_rounds = (bw_probe_up_rounds & 31) as u8;
    bbr.bw_probe_up_acks = 0;
    bbr.set_stopped_risky_probe(false);
    bbr.ack_phase = AckPhase::Refilling;
    bbr.next_rtt_delivered = delivered;
    bbr_set_cycle_idx(bbr, CyclePhase::Refill);
}

/// `bbr_start_bw_probe_up`: probe above the estimate; the plateau detector restarts
/// from this sample.
fn bbr_start_bw_probe_up<S: BbrSock>(bbr: &mut Bbr, sk: &S, sample_bw: u32) {
    bbr.ack_phase = AckPhase::ProbeStarting;
    bbr.next_rtt_delivered = sk.delivered();
    bbr.cycle_mstamp = sk.mstamp();
    bbr_reset_full_bw(bbr);
    bbr.full_bw = sample_bw;
    bbr_set_cycle_idx(bbr, CyclePhase::Up);
    bbr_raise_inflight_hi_slope(bbr, sk);
}

/// `bbr_start_bw_probe_down`: start a cycle: drain, with a fresh random wait until
/// the next probe.
pub(super) fn bbr_start_bw_probe_down<S: BbrSock, R: RandomSource>(
    bbr: &mut Bbr,
    sk: &S,
    rand: &mut R,
) {
    bbr_reset_congestion_signals(bbr);
    bbr.bw_probe_up_cnt = u32::MAX;
    bbr_pick_probe_wait(bbr, rand);
    bbr.cycle_mstamp = sk.mstamp();
    bbr.ack_phase = AckPhase::ProbeStopping;
    bbr.next_rtt_delivered = sk.delivered();
    bbr_set_cycle_idx(bbr, CyclePhase::Down);
}

/// `bbr_start_bw_probe_cruise`: hold the flight, `inflight_lo` no higher than
/// `inflight_hi`.
pub(super) fn bbr_start_bw_probe_cruise(bbr: &mut Bbr) {
    if bbr.inflight_lo != u32::MAX {
        bbr.inflight_lo = bbr.inflight_lo.min(bbr.inflight_hi);
    }
    bbr_set_cycle_idx(bbr, CyclePhase::Cruise);
}

/// `bbr_has_elapsed_in_phase`: strictly more than `interval_us` since the phase began
/// (the kernel's u32 `tcp_stamp_us_delta`, so a gap of 2^32 µs or more reads modulo).
fn bbr_has_elapsed_in_phase<S: BbrSock>(bbr: &Bbr, sk: &S, interval_us: u32) -> bool {
    let end = bbr.cycle_mstamp.wrapping_add(u64::from(interval_us));
    super::cwnd::tcp_stamp_us_delta(sk.mstamp(), end) > 0
}

/// `bbr_is_reno_coexistence_probe_time`: as many rounds since the last probe as a
/// Reno flow with our BDP would wait (at most 63).
///
/// The kernel tests `rounds >= min(63, min(bbr_inflight(bw, 1.0), cwnd))`, and
/// `bbr_inflight()` is `max(bdp, 3 * tso_segs_goal, 4)` (plus 2 in PROBE_UP). Outside
/// PROBE_UP the same test is `rounds >= 63 || rounds >= cwnd || (rounds >= 4 &&
/// rounds >= bdp && rounds >= 3 * tso_segs_goal)`, evaluated in that order: the TSO
/// goal (a division) is computed only when the cheaper terms leave the answer open.
#[inline(always)]
fn bbr_is_reno_coexistence_probe_time<S: BbrSock>(bbr: &Bbr, sk: &S, p: &Bbr3Params) -> bool {
    let rounds = u32::from(bbr.rounds_since_probe);
    if bbr.mode == Mode::ProbeBw && bbr.cycle_idx == CyclePhase::Up {
        // `bbr_quantization_budget()` adds 2 (wrapping): the whole target, as the kernel.
        return rounds >= BW_PROBE_MAX_ROUNDS.min(bbr_target_inflight(bbr, sk, p));
    }
    rounds >= BW_PROBE_MAX_ROUNDS
        || rounds >= sk.snd_cwnd()
        || (rounds >= CWND_MIN_TARGET
            && rounds >= bbr_bdp(bbr, bbr.bw(), BBR_UNIT)
            && rounds >= bbr_tso_segs_goal(bbr, sk, p).wrapping_mul(3))
}

/// `bbr_check_time_to_probe_bw`: re-probe at once when CE marks (without loss) in
/// this cycle have ceased in Open, else when the wall-clock wait or the round count
/// has run out. Returns true when it started REFILL. Inlined: the socket view is not
/// passed to any call, so it stays in registers.
#[inline(always)]
fn bbr_check_time_to_probe_bw<S: BbrSock>(bbr: &mut Bbr, sk: &S, p: &Bbr3Params) -> bool {
    if ECN_REPROBE_GAIN != 0
        && bbr.ecn_eligible()
        && bbr.ecn_in_cycle()
        && !bbr.loss_in_cycle()
        && sk.icsk_ca_state() == CaState::Open
    {
        bbr_ecn_reprobe(bbr, sk.delivered());
        return true;
    }
    if bbr_has_elapsed_in_phase(bbr, sk, bbr.probe_wait_us)
        || bbr_is_reno_coexistence_probe_time(bbr, sk, p)
    {
        bbr_start_bw_probe_refill(bbr, sk.delivered(), 0);
        return true;
    }
    false
}

/// The CE re-probe of `bbr_check_time_to_probe_bw`: REFILL with
/// `bw_probe_up_rounds` from the size of `inflight_hi`. Rare: out of line.
#[inline(never)]
#[cold]
fn bbr_ecn_reprobe(bbr: &mut Bbr, delivered: u32) {
    // Linux net/ipv4/tcp_bbr.c bbr_check_time_to_probe_bw(): n = ilog2(inflight_hi * reprobe_gain >> 8)
    let volume = (u64::from(bbr.inflight_hi) * u64::from(ECN_REPROBE_GAIN)) >> BBR_SCALE;
    // ilog2(0) is -1 in the kernel: all ones, of which the 5-bit field keeps 31.
    let n = volume.checked_ilog2().unwrap_or(u32::MAX);
    bbr_start_bw_probe_refill(bbr, delivered, n);
}

/// `bbr_check_time_to_cruise`: DOWN ends once the flight leaves headroom below
/// `inflight_hi` and is no more than the BDP.
fn bbr_check_time_to_cruise<S: BbrSock>(
    bbr: &Bbr,
    sk: &S,
    p: &Bbr3Params,
    inflight: u32,
    bw: u32,
) -> bool {
    if inflight > bbr_inflight_with_headroom(bbr) {
        return false;
    }
    inflight <= bbr_inflight(bbr, sk, p, bw, BBR_UNIT)
}

/// `bbr_update_cycle_phase`: once the pipe was full, adapt `inflight_hi` and move
/// through PROBE_BW's phases.
pub(super) fn bbr_update_cycle_phase<S: BbrSock, R: RandomSource>(
    bbr: &mut Bbr,
    sk: &S,
    p: &Bbr3Params,
    rs: &Sample,
    sample_bw: u32,
    rand: &mut R,
) {
    if !bbr.full_bw_reached() {
        return;
    }
    if bbr_adapt_upper_bounds(bbr, sk, p, rs, rand) {
        return;
    }
    if bbr.mode != Mode::ProbeBw {
        return;
    }
    // The kernel computes the flight at EDT and `bbr_max_bw()` here for every phase;
    // only UP and DOWN read them, so they are computed there (same values: nothing
    // in between changes their inputs).
    match bbr.cycle_idx {
        CyclePhase::Cruise => {
            bbr_check_time_to_probe_bw(bbr, sk, p);
        }
        CyclePhase::Refill => {
            if bbr.round_start() {
                bbr.set_bw_probe_samples(true);
                bbr_start_bw_probe_up(bbr, sk, sample_bw);
            }
        }
        CyclePhase::Up => {
            let inflight = bbr_packets_in_net_at_edt(bbr, sk, p, rs.prior_in_flight);
            let mut is_bw_probe_done = false;
            if bbr.prev_probe_too_high() && inflight >= bbr.inflight_hi {
                bbr.set_stopped_risky_probe(true);
                is_bw_probe_done = true;
            } else if sk.is_cwnd_limited() && sk.snd_cwnd() >= bbr.inflight_hi {
                // inflight_hi limits the growth: the plateau test restarts.
                bbr_reset_full_bw(bbr);
                bbr.full_bw = sample_bw;
            } else if bbr.full_bw_now() {
                is_bw_probe_done = true;
            }
            if is_bw_probe_done {
                bbr.set_prev_probe_too_high(false);
                bbr_start_bw_probe_down(bbr, sk, rand);
            }
        }
        CyclePhase::Down => {
            let inflight = bbr_packets_in_net_at_edt(bbr, sk, p, rs.prior_in_flight);
            let bw = bbr.max_bw();
            if bbr_check_time_to_probe_bw(bbr, sk, p) {
                return;
            }
            if bbr_check_time_to_cruise(bbr, sk, p, inflight, bw) {
                bbr_start_bw_probe_cruise(bbr);
            }
        }
    }
}

/// `bbr_check_drain`: STARTUP ends once the pipe is full (ssthresh then shows the
/// BDP, for monitoring only); DRAIN ends, into PROBE_BW, once what is in the network
/// at the next departure is no more than the BDP.
pub(super) fn bbr_check_drain<S: BbrSock, R: RandomSource>(
    bbr: &mut Bbr,
    sk: &mut S,
    p: &Bbr3Params,
    rand: &mut R,
) {
    if bbr.mode == Mode::Startup && bbr.full_bw_reached() {
        bbr.mode = Mode::Drain;
        sk.set_snd_ssthresh(bbr_inflight(bbr, sk, p, bbr.max_bw(), BBR_UNIT));
        bbr_reset_congestion_signals(bbr);
    }
    if bbr.mode == Mode::Drain
        && bbr_packets_in_net_at_edt(bbr, sk, p, sk.packets_in_flight())
            <= bbr_inflight(bbr, sk, p, bbr.max_bw(), BBR_UNIT)
    {
        bbr.mode = Mode::ProbeBw;
        bbr_start_bw_probe_down(bbr, sk, rand);
    }
}

#[cfg(test)]
mod tests;
