//! The long-term upper bound `inflight_hi`: cut when loss or CE marks during a
//! bandwidth probe say the flight went too high, raised while PROBE_UP finds it safe.

use super::bw_filter::scale;
use super::cwnd::bbr_target_inflight;
use super::params::{
    BBR_SCALE, BBR_UNIT, BETA, CWND_MIN_TARGET, ECN_THRESH, INFLIGHT_HEADROOM, LOSS_THRESH,
};
use super::probe_bw::{bbr_start_bw_probe_down, bbr_start_bw_probe_refill};
use super::state::AckPhase;
use super::{Bbr, Bbr3Params, CyclePhase, Mode, Sample};
use crate::linux::bbr::BbrSock;
use crate::linux::tcp::RandomSource;

/// `bbr_is_inflight_too_high`: more than 2 % of the flight at the sample's send was
/// lost since, or (ECN-eligible) more than half of what it delivered was CE-marked.
pub(super) fn bbr_is_inflight_too_high(bbr: &Bbr, rs: &Sample) -> bool {
    loss_too_high(rs.lost, rs.tx_in_flight)
        || (bbr.ecn_eligible() && ce_too_high(rs.delivered_ce, rs.delivered))
}

/// The loss half of `bbr_is_inflight_too_high`, shared with `rfc::Bbr3` (any unit):
/// more than `LOSS_THRESH` (2 %, 5/256) of the flight at send was lost since.
pub(crate) fn loss_too_high(lost: i32, tx_in_flight: u32) -> bool {
    if lost <= 0 || tx_in_flight == 0 {
        return false;
    }
    // Linux net/ipv4/tcp_bbr.c bbr_is_inflight_too_high(): loss_thresh = tx_in_flight * 2% (>> 8)
    lost as u32 > scale(tx_in_flight, LOSS_THRESH)
}

/// The ECN half of `bbr_is_inflight_too_high`, shared with `rfc::Bbr3` (any unit):
/// more than `ECN_THRESH` (half) of what the sample delivered was CE-marked.
pub(crate) fn ce_too_high(delivered_ce: i32, delivered: i32) -> bool {
    if delivered_ce <= 0 || delivered <= 0 {
        return false;
    }
    // Linux net/ipv4/tcp_bbr.c bbr_is_inflight_too_high(): ecn_thresh = delivered * 50% (>> 8)
    delivered_ce as u32 > scale(delivered as u32, ECN_THRESH)
}

/// `bbr_inflight_hi_from_lost_skb`: the flight at which the loss rate crossed 2 %,
/// found within the lost skb of `pcount` segments: the `lost_prefix` that solves
/// `(lost_prev + x) / (inflight_prev + x) = 2 %`, rounded up. `u32::MAX` when the
/// sample is inconsistent (the kernel WARNs there).
pub(super) fn bbr_inflight_hi_from_lost_skb(rs: &Sample, pcount: u32) -> u32 {
    inflight_at_loss(rs.tx_in_flight, rs.lost, pcount)
}

/// The arithmetic of `bbr_inflight_hi_from_lost_skb`, shared with `rfc::Bbr3` (whose
/// `size` is the lost packet's or burst's bytes): the flight at which the loss rate
/// crossed `LOSS_THRESH` within the lost `size`. `u32::MAX` when inconsistent.
pub(crate) fn inflight_at_loss(tx_in_flight: u32, lost: i32, size: u32) -> u32 {
    // The kernel stores a u32 difference in an s32.
    let inflight_prev = tx_in_flight.wrapping_sub(size) as i32;
    if inflight_prev < 0 {
        return u32::MAX;
    }
    let lost_prev = lost.wrapping_sub(size as i32);
    if lost_prev < 0 {
        return u32::MAX;
    }
    // Linux net/ipv4/tcp_bbr.c bbr_inflight_hi_from_lost_skb(): loss_budget = ceil(inflight_prev * loss_thresh / 256)
    let loss_budget =
        (inflight_prev as u64 * u64::from(LOSS_THRESH) + u64::from(BBR_UNIT) - 1) >> BBR_SCALE;
    let lost_prefix = if lost_prev as u64 >= loss_budget {
        0
    } else {
        // Linux net/ipv4/tcp_bbr.c bbr_inflight_hi_from_lost_skb(): lost_prefix = ((budget - lost_prev) << 8) / (256 - loss_thresh)
        ((loss_budget - lost_prev as u64) << BBR_SCALE) / u64::from(BBR_UNIT - LOSS_THRESH)
    };
    (inflight_prev as u32).wrapping_add(lost_prefix as u32)
}

/// `bbr_inflight_with_headroom`: `inflight_hi` less 15 % (at least 1 packet), at least
/// 4 packets; `u32::MAX` while `inflight_hi` is unset.
pub(super) fn bbr_inflight_with_headroom(bbr: &Bbr) -> u32 {
    inflight_with_headroom(bbr.inflight_hi, 1, CWND_MIN_TARGET)
}

/// The arithmetic of `bbr_inflight_with_headroom`, shared with `rfc::Bbr3`: `hi` less
/// 15 % (at least `one`: a packet, or SMSS bytes), at least `floor`; `u32::MAX` (unset)
/// stays unset.
pub(crate) fn inflight_with_headroom(hi: u32, one: u32, floor: u32) -> u32 {
    if hi == u32::MAX {
        return u32::MAX;
    }
    let headroom = scale(hi, INFLIGHT_HEADROOM).max(one);
    // `max_t(s32, ...)`: the difference is compared as signed.
    let room = hi.wrapping_sub(headroom) as i32;
    room.max(floor as i32) as u32
}

/// `bbr_handle_inflight_too_high`: once per probe, cut `inflight_hi` to the sample's
/// flight (at least 70 % of the target flight) unless the sample is app-limited, and
/// end PROBE_UP.
pub(super) fn bbr_handle_inflight_too_high<S: BbrSock, R: RandomSource>(
    bbr: &mut Bbr,
    sk: &S,
    p: &Bbr3Params,
    rs: &Sample,
    rand: &mut R,
) {
    bbr.set_prev_probe_too_high(true);
    bbr.set_bw_probe_samples(false);
    if !rs.is_app_limited {
        // Linux net/ipv4/tcp_bbr.c bbr_handle_inflight_too_high(): max(tx_in_flight, target_inflight * (1 - beta))
        bbr.inflight_hi =
            inflight_hi_when_too_high(rs.tx_in_flight, bbr_target_inflight(bbr, sk, p));
    }
    if bbr.mode == Mode::ProbeBw && bbr.cycle_idx == CyclePhase::Up {
        bbr_start_bw_probe_down(bbr, sk, rand);
    }
}

/// The cut of `bbr_handle_inflight_too_high`, shared with `rfc::Bbr3`: the flight
/// when the probe sent too much, no lower than `target` × (1 − `BETA`).
pub(crate) fn inflight_hi_when_too_high(tx_in_flight: u32, target: u32) -> u32 {
    // Linux net/ipv4/tcp_bbr.c bbr_handle_inflight_too_high(): max(tx_in_flight, target_inflight * (1 - beta))
    tx_in_flight.max(scale(target, BBR_UNIT - BETA))
}

/// `bbr_raise_inflight_hi_slope`: each PROBE_UP round doubles how fast `inflight_hi`
/// grows: one packet per `cwnd / 2^rounds` delivered.
pub(super) fn bbr_raise_inflight_hi_slope<S: BbrSock>(bbr: &mut Bbr, sk: &S) {
    // `bw_probe_up_rounds:5` holds at most 31.
    let (cnt, rounds) = inflight_hi_slope(sk.snd_cwnd(), bbr.bw_probe_up_rounds, 1);
    bbr.bw_probe_up_cnt = cnt;
    bbr.bw_probe_up_rounds = rounds;
}

/// The arithmetic of `bbr_raise_inflight_hi_slope`, shared with `rfc::Bbr3`: after
/// `rounds` rounds of PROBE_UP, one increment per `cwnd / 2^rounds` delivered (at
/// least `floor`: a packet, or SMSS bytes); returns that and the next round count
/// (at most 30).
pub(crate) fn inflight_hi_slope(cwnd: u32, rounds: u8, floor: u32) -> (u32, u8) {
    // `bw_probe_up_rounds:5` holds at most 31.
    let growth_this_round = 1u32 << (rounds & 31);
    // Linux net/ipv4/tcp_bbr.c bbr_raise_inflight_hi_slope(): max(cwnd / growth_this_round, 1)
    ((cwnd / growth_this_round).max(floor), (rounds + 1).min(30))
}

/// `bbr_probe_inflight_hi_upward`: while cwnd-limited at `inflight_hi` in PROBE_UP,
/// raise it by one per `bw_probe_up_cnt` packets delivered.
pub(super) fn bbr_probe_inflight_hi_upward<S: BbrSock>(bbr: &mut Bbr, sk: &S, rs: &Sample) {
    if !sk.is_cwnd_limited() || sk.snd_cwnd() < bbr.inflight_hi {
        return;
    }
    bbr.bw_probe_up_acks = bbr.bw_probe_up_acks.wrapping_add(rs.acked_sacked);
    if bbr.bw_probe_up_acks >= bbr.bw_probe_up_cnt {
        let (delta, rest) = inflight_hi_increments(bbr.bw_probe_up_acks, bbr.bw_probe_up_cnt);
        bbr.bw_probe_up_acks = rest;
        bbr.inflight_hi = bbr.inflight_hi.wrapping_add(delta);
        bbr.set_try_fast_path(false);
    }
    if bbr.round_start() {
        bbr_raise_inflight_hi_slope(bbr, sk);
    }
}

/// The step of `bbr_probe_inflight_hi_upward`, shared with `rfc::Bbr3`: how many
/// increments `acked` pays for at `per_inc` each, and what is left over.
pub(crate) fn inflight_hi_increments(acked: u32, per_inc: u32) -> (u32, u32) {
    // Linux net/ipv4/tcp_bbr.c bbr_probe_inflight_hi_upward(): delta = acks / cnt; acks -= delta * cnt
    let delta = acked.checked_div(per_inc).unwrap_or(0);
    (delta, acked.wrapping_sub(delta.wrapping_mul(per_inc)))
}

/// `bbr_adapt_upper_bounds`: tracks when probe feedback starts and stops, cuts
/// `inflight_hi` when a probing sample is too high, and otherwise raises it to any
/// flight found safe. Returns true when it already decided a phase change.
pub(super) fn bbr_adapt_upper_bounds<S: BbrSock, R: RandomSource>(
    bbr: &mut Bbr,
    sk: &S,
    p: &Bbr3Params,
    rs: &Sample,
    rand: &mut R,
) -> bool {
    // Both ACK-phase steps happen only at a round start: tested first, once.
    if bbr.round_start() {
        if bbr.ack_phase == AckPhase::ProbeStarting {
            bbr.ack_phase = AckPhase::ProbeFeedback;
        }
        if bbr.ack_phase == AckPhase::ProbeStopping {
            bbr.set_bw_probe_samples(false);
            bbr.ack_phase = AckPhase::Init;
            if bbr.mode == Mode::ProbeBw && !rs.is_app_limited {
                super::bw_filter::bbr_advance_max_bw_filter(bbr);
            }
            if bbr.mode == Mode::ProbeBw && bbr.stopped_risky_probe() && !bbr.prev_probe_too_high()
            {
                bbr_start_bw_probe_refill(bbr, sk.delivered(), 0);
                return true;
            }
        }
    }
    // No probe samples, no bound: nothing below acts.
    if bbr.inflight_hi == u32::MAX && !bbr.bw_probe_samples() {
        return false;
    }
    if bbr_is_inflight_too_high(bbr, rs) {
        if bbr.bw_probe_samples() {
            bbr_handle_inflight_too_high(bbr, sk, p, rs, rand);
        }
    } else {
        if bbr.inflight_hi == u32::MAX {
            return false;
        }
        if rs.tx_in_flight > bbr.inflight_hi {
            bbr.inflight_hi = rs.tx_in_flight;
        }
        if bbr.mode == Mode::ProbeBw && bbr.cycle_idx == CyclePhase::Up {
            bbr_probe_inflight_hi_upward(bbr, sk, rs);
        }
    }
    false
}
