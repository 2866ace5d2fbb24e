//! ACK aggregation: how much more than `bw · elapsed` arrives in bursts of ACKs, kept
//! as a max over 5–10 rounds, and added to the cwnd target so the sender keeps going
//! through the silences between bursts.

use super::bw::bbr_bw;
use super::sock_view::BbrSock;
use super::{BBR_SCALE, BW_UNIT, BbrState};
use crate::linux::tcp::RateSample;
use crate::linux::tcp::rate::tcp_stamp_us_delta;

/// `bbr_extra_acked_gain`: the aggregation allowance's gain (/256).
pub const EXTRA_ACKED_GAIN: u32 = 256;
/// `bbr_extra_acked_win_rtts`: each `extra_acked` slot covers 5 rounds.
pub const EXTRA_ACKED_WIN_RTTS: u8 = 5;
/// `bbr_ack_epoch_acked_reset_thresh`: an epoch restarts after 2^20 segments.
pub const ACK_EPOCH_ACKED_RESET_THRESH: u32 = 1 << 20;
/// `bbr_extra_acked_max_us`: the allowance never exceeds 100 ms at `bbr_bw`.
pub const EXTRA_ACKED_MAX_US: u64 = 100_000;
/// `ack_epoch_acked` is a 20-bit field.
const ACK_EPOCH_ACKED_MAX: u32 = 0xFFFFF;
/// `extra_acked_win_rtts` is a 5-bit field.
const EXTRA_ACKED_WIN_RTTS_MAX: u8 = 0x1F;

/// `bbr_extra_acked()`: the larger of the two window halves.
pub fn bbr_extra_acked(bbr: &BbrState) -> u16 {
    bbr.extra_acked[0].max(bbr.extra_acked[1])
}

/// `bbr_ack_aggregation_cwnd()`: the cwnd allowance for aggregation, once the pipe
/// was full: `extra_acked`, at most what `bbr_bw` delivers in 100 ms.
pub fn bbr_ack_aggregation_cwnd(bbr: &BbrState) -> u32 {
    ack_aggregation_cwnd(bbr, bbr_bw(bbr))
}

/// [`bbr_ack_aggregation_cwnd`] with `bbr_bw()` already read (`bw`).
pub(super) fn ack_aggregation_cwnd(bbr: &BbrState, bw: u32) -> u32 {
    if EXTRA_ACKED_GAIN == 0 || !bbr.full_bw_reached() {
        return 0;
    }
    // Linux net/ipv4/tcp_bbr.c bbr_ack_aggregation_cwnd(): bw * 100 ms / BW_UNIT
    let max_aggr_cwnd = (u64::from(bw) * EXTRA_ACKED_MAX_US / BW_UNIT) as u32;
    // Linux net/ipv4/tcp_bbr.c bbr_ack_aggregation_cwnd(): gain * extra_acked >> BBR_SCALE
    let aggr_cwnd = (EXTRA_ACKED_GAIN * u32::from(bbr_extra_acked(bbr))) >> BBR_SCALE;
    aggr_cwnd.min(max_aggr_cwnd)
}

/// `bbr_update_ack_aggregation()`: on a valid sample that delivered something,
/// measures the segments (S)ACKed in the current epoch beyond `bbr_bw · epoch`,
/// capped at cwnd. The epoch restarts when ACKs fall behind that rate.
pub fn bbr_update_ack_aggregation<S: BbrSock>(bbr: &mut BbrState, sk: &S, rs: &RateSample) {
    if rs.delivered >= 0 && rs.interval_us > 0 {
        update_ack_aggregation(bbr, sk, rs, bbr_bw(bbr));
    }
}

/// [`bbr_update_ack_aggregation`] on a valid sample, `bbr_bw()` already read (`bw`).
pub(super) fn update_ack_aggregation<S: BbrSock>(
    bbr: &mut BbrState,
    sk: &S,
    rs: &RateSample,
    bw: u32,
) {
    if EXTRA_ACKED_GAIN == 0 || rs.acked_sacked == 0 {
        return;
    }
    if bbr.round_start() {
        bbr.extra_acked_win_rtts = bbr
            .extra_acked_win_rtts
            .saturating_add(1)
            .min(EXTRA_ACKED_WIN_RTTS_MAX);
        if bbr.extra_acked_win_rtts >= EXTRA_ACKED_WIN_RTTS {
            bbr.extra_acked_win_rtts = 0;
            let idx = !bbr.extra_acked_win_idx();
            bbr.set_extra_acked_win_idx(idx);
            if let Some(slot) = bbr.extra_acked.get_mut(usize::from(idx)) {
                *slot = 0;
            }
        }
    }
    let epoch_us = tcp_stamp_us_delta(sk.delivered_mstamp(), bbr.ack_epoch_mstamp);
    // Linux net/ipv4/tcp_bbr.c bbr_update_ack_aggregation(): expected = bw * epoch_us / BW_UNIT
    let mut expected_acked = (u64::from(bw) * u64::from(epoch_us) / BW_UNIT) as u32;
    // Linux net/ipv4/tcp_bbr.c bbr_update_ack_aggregation(): reset when ACKs fall behind, or after 2^20
    if bbr.ack_epoch_acked <= expected_acked
        || bbr.ack_epoch_acked.wrapping_add(rs.acked_sacked) >= ACK_EPOCH_ACKED_RESET_THRESH
    {
        bbr.ack_epoch_acked = 0;
        bbr.ack_epoch_mstamp = sk.delivered_mstamp();
        expected_acked = 0;
    }
    bbr.ack_epoch_acked = bbr
        .ack_epoch_acked
        .wrapping_add(rs.acked_sacked)
        .min(ACK_EPOCH_ACKED_MAX);
    // Linux net/ipv4/tcp_bbr.c bbr_update_ack_aggregation(): extra = min(acked - expected, cwnd)
    let extra_acked = bbr
        .ack_epoch_acked
        .wrapping_sub(expected_acked)
        .min(sk.snd_cwnd());
    let idx = usize::from(bbr.extra_acked_win_idx());
    if let Some(slot) = bbr.extra_acked.get_mut(idx) {
        if extra_acked > u32::from(*slot) {
            // The kernel stores the u32 into a u16 slot: it truncates.
            *slot = extra_acked as u16;
        }
    }
}
