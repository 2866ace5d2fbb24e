//! The short-term lower bounds `bw_lo` and `inflight_lo`: cut once per round by loss
//! (to 70 %) or CE marks (by `ecn_alpha / 3`) while not probing, never below what the
//! latest round delivered; and the cwnd cap the whole inflight model implies.

use super::bw_filter::scale;
use super::ecn::bbr_ecn_cut;
use super::pacing::bbr_is_probing_bandwidth;
use super::params::{BBR_UNIT, BETA, CWND_MIN_TARGET, ECN_FACTOR};
use super::upper_bounds::bbr_inflight_with_headroom;
use super::{Bbr, CyclePhase, Mode};
use crate::linux::bbr::BbrSock;

/// `bbr_init_lower_bounds`: unset bounds start from the max bandwidth and the cwnd
/// (`snd_cwnd`, the only socket field it reads).
fn bbr_init_lower_bounds(bbr: &mut Bbr, snd_cwnd: u32, init_bw: bool) {
    if init_bw && bbr.bw_lo == u32::MAX {
        bbr.bw_lo = bbr.max_bw();
    }
    if bbr.inflight_lo == u32::MAX {
        bbr.inflight_lo = snd_cwnd;
    }
}

/// `bbr_adapt_lower_bounds` (once per loss round): cut the bounds for the round's
/// loss or CE marks, unless BBR is probing for bandwidth. `snd_cwnd` is the socket's.
pub(super) fn bbr_adapt_lower_bounds(bbr: &mut Bbr, snd_cwnd: u32) {
    if bbr_is_probing_bandwidth(bbr) {
        return;
    }
    let mut ecn_inflight_lo = u32::MAX;
    if bbr.ecn_in_round() && ECN_FACTOR != 0 {
        bbr_init_lower_bounds(bbr, snd_cwnd, false);
        // Linux net/ipv4/tcp_bbr.c bbr_ecn_lower_bounds(): inflight_lo * ecn_cut >> 8
        ecn_inflight_lo = scale(bbr.inflight_lo, bbr_ecn_cut(bbr));
    }
    if bbr.loss_in_round() {
        bbr_init_lower_bounds(bbr, snd_cwnd, true);
        bbr.bw_lo = loss_lower_bound(bbr.bw_latest, bbr.bw_lo);
        bbr.inflight_lo = loss_lower_bound(bbr.inflight_latest, bbr.inflight_lo);
    }
    bbr.inflight_lo = bbr.inflight_lo.min(ecn_inflight_lo);
    bbr.bw_lo = bbr.bw_lo.max(1);
}

/// The cut of `bbr_loss_lower_bounds`, shared with `rfc::Bbr3` (rates and volumes
/// alike): `lo` × (1 − `BETA`), no lower than what the latest round delivered.
pub(crate) fn loss_lower_bound(latest: u32, lo: u32) -> u32 {
    // Linux net/ipv4/tcp_bbr.c bbr_loss_lower_bounds(): max(latest, lo * (1 - beta))
    latest.max(scale(lo, BBR_UNIT - BETA))
}

/// `bbr_reset_lower_bounds`: forget both bounds, so the flight can grow again.
pub(super) fn bbr_reset_lower_bounds(bbr: &mut Bbr) {
    bbr.bw_lo = u32::MAX;
    bbr.inflight_lo = u32::MAX;
}

/// `bbr_reset_congestion_signals`: before a phase that adapts the lower bounds,
/// forget the probe's loss and CE signals and the latest round's filters.
pub(super) fn bbr_reset_congestion_signals(bbr: &mut Bbr) {
    bbr.set_loss_in_round(false);
    bbr.set_ecn_in_round(false);
    bbr.set_loss_in_cycle(false);
    bbr.set_ecn_in_cycle(false);
    bbr.bw_latest = 0;
    bbr.inflight_latest = 0;
}

/// `bbr_bound_cwnd_for_inflight_model`: cap cwnd at `inflight_hi` while probing (UP,
/// DOWN, REFILL), at `inflight_hi` less headroom in CRUISE and PROBE_RTT, and always at
/// `inflight_lo`; never below 4 packets.
pub(super) fn bbr_bound_cwnd_for_inflight_model<S: BbrSock>(bbr: &Bbr, sk: &mut S) {
    // Both bounds unset (no loss or CE yet): every cap below is u32::MAX (headroom
    // keeps an unset `inflight_hi` unset), so cwnd stays as it is. Tested first.
    if bbr.inflight_hi & bbr.inflight_lo == u32::MAX || !bbr.initialized() {
        return;
    }
    let mut cap = bbr.inflight_lo;
    if bbr.inflight_hi != u32::MAX {
        if bbr.mode == Mode::ProbeBw && bbr.cycle_idx != CyclePhase::Cruise {
            cap = cap.min(bbr.inflight_hi);
        } else if matches!(bbr.mode, Mode::ProbeRtt | Mode::ProbeBw) {
            cap = cap.min(bbr_inflight_with_headroom(bbr));
        }
    }
    sk.set_snd_cwnd(cap.max(CWND_MIN_TARGET).min(sk.snd_cwnd()));
}
