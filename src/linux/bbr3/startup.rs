//! STARTUP's exits: a bandwidth plateau (`bbr_check_full_bw_reached`), too much loss
//! in a recovery round, or too many CE marks (in `ecn.rs`).

use super::cwnd::bbr_inflight;
use super::params::{BBR_UNIT, FULL_BW_CNT, FULL_BW_THRESH, FULL_LOSS_CNT};
use super::upper_bounds::bbr_is_inflight_too_high;
use super::{Bbr, Bbr3Params, Sample, bw_filter::scale};
use crate::linux::CaState;
use crate::linux::bbr::BbrSock;

/// `bbr_reset_full_bw`: restart the bandwidth-plateau detector.
pub(super) fn bbr_reset_full_bw(bbr: &mut Bbr) {
    bbr.full_bw = 0;
    bbr.full_bw_cnt = 0;
    bbr.set_full_bw_now(false);
}

/// `bbr_handle_queue_too_high_in_startup`: the pipe is full, and `inflight_hi` starts
/// at the BDP (or at the latest round's delivered volume if larger).
pub(super) fn bbr_handle_queue_too_high_in_startup<S: BbrSock>(
    bbr: &mut Bbr,
    sk: &S,
    p: &Bbr3Params,
) {
    bbr.set_full_bw_reached(true);
    let bdp = bbr_inflight(bbr, sk, p, bbr.max_bw(), BBR_UNIT);
    bbr.inflight_hi = bdp.max(bbr.inflight_latest);
}

/// `bbr_check_loss_too_high_in_startup`: counts loss-marking ACKs in the round (4
/// bits, saturating at 15); at a loss-round start in Recovery with at least 6 of them
/// and a loss rate above 2 %, STARTUP ends.
pub(super) fn bbr_check_loss_too_high_in_startup<S: BbrSock>(
    bbr: &mut Bbr,
    sk: &S,
    p: &Bbr3Params,
    rs: &Sample,
) {
    if bbr.full_bw_reached() {
        return;
    }
    if rs.losses != 0 && bbr.loss_events_in_round < 0xf {
        bbr.loss_events_in_round += 1;
    }
    if bbr.loss_round_start()
        && sk.icsk_ca_state() == CaState::Recovery
        && bbr.loss_events_in_round >= FULL_LOSS_CNT
        && bbr_is_inflight_too_high(bbr, rs)
    {
        bbr_handle_queue_too_high_in_startup(bbr, sk, p);
        return;
    }
    if bbr.loss_round_start() {
        bbr.loss_events_in_round = 0;
    }
}

/// `bbr_check_full_bw_reached`: a non-app-limited sample 25 % above `full_bw` restarts
/// the count; three rounds without one mean the pipe is full (`full_bw_now`).
pub(super) fn bbr_check_full_bw_reached(bbr: &mut Bbr, rs: &Sample, sample_bw: u32) {
    if bbr.full_bw_now() || rs.is_app_limited {
        return;
    }
    // Linux net/ipv4/tcp_bbr.c bbr_check_full_bw_reached(): bw_thresh = full_bw * 1.25
    let bw_thresh = scale(bbr.full_bw, FULL_BW_THRESH);
    if sample_bw >= bw_thresh {
        bbr_reset_full_bw(bbr);
        bbr.full_bw = sample_bw;
        return;
    }
    if !bbr.round_start() {
        return;
    }
    // `full_bw_cnt:2`: it reaches 3 at most, since `full_bw_now` then stops the count.
    bbr.full_bw_cnt = (bbr.full_bw_cnt + 1) & 3;
    bbr.set_full_bw_now(u32::from(bbr.full_bw_cnt) >= FULL_BW_CNT);
    bbr.set_full_bw_reached(bbr.full_bw_reached() | (bbr.full_bw_now()));
}
