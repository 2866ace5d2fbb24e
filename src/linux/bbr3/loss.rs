//! Loss and recovery: a lost skb during a probe (`bbr_skb_marked_lost`), the loss
//! round's signals, and the CA-state hooks (`bbr_ssthresh`, `bbr_undo_cwnd`,
//! `bbr_set_state`).

use super::cwnd::bbr_save_cwnd;
use super::lower_bounds::bbr_adapt_lower_bounds;
use super::pacing::bbr_is_probing_bandwidth;
use super::startup::bbr_reset_full_bw;
use super::upper_bounds::{
    bbr_handle_inflight_too_high, bbr_inflight_hi_from_lost_skb, bbr_is_inflight_too_high,
};
use super::{Bbr, Bbr3Params, Sample};
use crate::linux::CaState;
use crate::linux::bbr::BbrSock;
use crate::linux::tcp::RandomSource;

/// What BBRv3 reads of a lost skb's send snapshot (`TCP_SKB_CB(skb)->tx`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct LostSkb {
    /// `tx.delivered_mstamp` (u32 µs); 0 once the skb was SACKed: then it is ignored.
    pub delivered_mstamp: u32,
    /// `tx.in_flight`: packets in flight just after it was sent (20 bits).
    pub in_flight: u32,
    /// `tx.lost`: `tp->lost` when it was sent.
    pub lost: u32,
    /// `tx.is_app_limited`.
    pub is_app_limited: bool,
    /// `tcp_skb_pcount()`: segments in the skb.
    pub pcount: u32,
}

/// `bbr_note_loss`: this round is a loss round; its end is what is delivered now.
fn bbr_note_loss<S: BbrSock>(bbr: &mut Bbr, sk: &S) {
    if !bbr.loss_in_round() {
        bbr.loss_round_delivered = sk.delivered();
    }
    bbr.set_loss_in_round(true);
    bbr.set_loss_in_cycle(true);
}

/// `bbr_skb_marked_lost`: called for each skb the stack marks lost, after it counted
/// it in `tp->lost`. While BBR is probing, a loss rate above 2 % of the skb's flight
/// cuts `inflight_hi` to where the rate crossed it and ends PROBE_UP (drawing the
/// next probe wait from `rand`).
pub fn bbr_skb_marked_lost<S: BbrSock, R: RandomSource>(
    bbr: &mut Bbr,
    sk: &S,
    p: &Bbr3Params,
    skb: &LostSkb,
    rand: &mut R,
) {
    bbr_note_loss(bbr, sk);
    if !bbr.bw_probe_samples() || skb.delivered_mstamp == 0 {
        return;
    }
    let mut rs = Sample {
        tx_in_flight: skb.in_flight,
        lost: sk.lost().wrapping_sub(skb.lost) as i32,
        is_app_limited: skb.is_app_limited,
        ..Sample::default()
    };
    if bbr_is_inflight_too_high(bbr, &rs) {
        rs.tx_in_flight = bbr_inflight_hi_from_lost_skb(&rs, skb.pcount);
        bbr_handle_inflight_too_high(bbr, sk, p, &rs, rand);
    }
}

/// `bbr_update_congestion_signals`: a valid sample (the caller tests it) feeds the
/// `bw_hi` filter (an app-limited one only if it is no lower than the max) and the
/// round's loss flag; at a loss-round start the lower bounds adapt and the round's
/// flags reset.
pub(super) fn bbr_update_congestion_signals<S: BbrSock>(
    bbr: &mut Bbr,
    sk: &S,
    rs: &Sample,
    sample_bw: u32,
) {
    if !rs.is_app_limited || sample_bw >= bbr.max_bw() {
        super::bw_filter::bbr_take_max_bw_sample(bbr, sample_bw);
    }
    if rs.losses > 0 {
        bbr.set_loss_in_round(true);
    }
    if !bbr.loss_round_start() {
        return;
    }
    bbr_end_loss_round(bbr, sk.snd_cwnd());
}

/// The end of a loss round in `bbr_update_congestion_signals` (about once per RTT):
/// adapt the lower bounds, then reset the round's flags. Out of line, so that the
/// common ACK's frame stays small; it takes the cwnd rather than the socket, so that
/// the ACK's socket view never leaves its frame.
#[inline(never)]
#[cold]
fn bbr_end_loss_round(bbr: &mut Bbr, snd_cwnd: u32) {
    bbr_adapt_lower_bounds(bbr, snd_cwnd);
    bbr.set_loss_in_round(false);
    bbr.set_ecn_in_round(false);
}

/// `bbr_ssthresh`: entering recovery or CWR: save cwnd and the bounds for an undo;
/// ssthresh itself stays as it is (BBR does not use it).
pub fn bbr_ssthresh<S: BbrSock>(bbr: &mut Bbr, sk: &S) -> u32 {
    bbr_save_cwnd(bbr, sk);
    bbr.undo_bw_lo = bbr.bw_lo;
    bbr.undo_inflight_lo = bbr.inflight_lo;
    bbr.undo_inflight_hi = bbr.inflight_hi;
    sk.snd_ssthresh()
}

/// `bbr_undo_cwnd`: the reduction was spurious: restart the plateau detector, restore
/// the bounds saved at its start (`max`, so an unset bound stays unset) and return the
/// saved cwnd.
pub fn bbr_undo_cwnd(bbr: &mut Bbr) -> u32 {
    bbr_reset_full_bw(bbr);
    bbr.set_loss_in_round(false);
    bbr.bw_lo = bbr.bw_lo.max(bbr.undo_bw_lo);
    bbr.inflight_lo = bbr.inflight_lo.max(bbr.undo_inflight_lo);
    bbr.inflight_hi = bbr.inflight_hi.max(bbr.undo_inflight_hi);
    bbr.set_try_fast_path(false);
    bbr.prior_cwnd
}

/// `bbr_set_state`, before `icsk_ca_state` changes: an RTO (Loss) restarts the plateau
/// detector and, when not probing, seeds `inflight_lo` from the cwnd before the RTO;
/// leaving Loss restores cwnd to at least `prior_cwnd`.
pub fn bbr_set_state<S: BbrSock>(bbr: &mut Bbr, sk: &mut S, new_state: CaState) {
    if new_state == CaState::Loss {
        bbr.prev_ca_state = CaState::Loss;
        bbr_reset_full_bw(bbr);
        if !bbr_is_probing_bandwidth(bbr) && bbr.inflight_lo == u32::MAX {
            bbr.inflight_lo = sk.snd_cwnd().max(bbr.prior_cwnd);
        }
    } else if bbr.prev_ca_state == CaState::Loss {
        // bbr_exit_loss_recovery()
        sk.set_snd_cwnd(sk.snd_cwnd().max(bbr.prior_cwnd));
        bbr.set_try_fast_path(false);
    }
}
