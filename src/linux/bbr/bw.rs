//! Rounds, the bandwidth max filter and STARTUP's full-pipe detector.

use super::lt_bw::bbr_lt_bw_sampling;
use super::sock_view::BbrSock;
use super::{BBR_SCALE, BW_UNIT, BbrParams, BbrState};
use crate::linux::tcp::seq::before;
use crate::linux::tcp::{RandomSource, RateSample};

/// `bbr_bw_rtts`: the max filter's window, rounds (`CYCLE_LEN + 2`).
pub const BW_RTTS: u32 = 10;
/// `bbr_full_bw_thresh`: a round must raise the bandwidth by 25 % (/256) to count as growth.
pub const FULL_BW_THRESH: u64 = 320;
/// `bbr_full_bw_cnt`: rounds without growth before the pipe counts as full.
pub const FULL_BW_CNT: u8 = 3;
/// `full_bw_cnt` is a 2-bit field.
const FULL_BW_CNT_MASK: u8 = 0x3;

/// `bbr_max_bw()`: the windowed max bandwidth, packets/µs << 24.
pub const fn bbr_max_bw(bbr: &BbrState) -> u32 {
    bbr.bw.get()
}

/// `bbr_bw()`: the bandwidth estimate: the policed `lt_bw` while it is in use, else
/// the max filter.
pub const fn bbr_bw(bbr: &BbrState) -> u32 {
    if bbr.lt_use_bw() {
        bbr.lt_bw
    } else {
        bbr_max_bw(bbr)
    }
}

/// `bbr_update_bw()`: advances the round count and feeds a valid sample to the
/// long-term sampler and the max filter (app-limited samples only if they do not
/// lower it).
pub fn bbr_update_bw<S: BbrSock, R: RandomSource>(
    bbr: &mut BbrState,
    sk: &mut S,
    p: &BbrParams,
    rs: &RateSample,
    rand: &mut R,
) {
    update_bw(bbr, sk, p, rs, rand);
}

/// [`bbr_update_bw`]; `false` on an invalid sample.
pub(super) fn update_bw<S: BbrSock, R: RandomSource>(
    bbr: &mut BbrState,
    sk: &mut S,
    p: &BbrParams,
    rs: &RateSample,
    rand: &mut R,
) -> bool {
    bbr.set_round_start(false);
    if rs.delivered < 0 || rs.interval_us <= 0 {
        return false;
    }
    // Linux net/ipv4/tcp_bbr.c bbr_update_bw(): a round ends when its last packet is delivered
    if !before(rs.prior_delivered, bbr.next_rtt_delivered) {
        bbr.next_rtt_delivered = sk.delivered();
        bbr.rtt_cnt = bbr.rtt_cnt.wrapping_add(1);
        bbr.set_round_start(true);
        bbr.set_packet_conservation(false);
    }
    bbr_lt_bw_sampling(bbr, sk, p, rs, rand);

    // Linux net/ipv4/tcp_bbr.c bbr_update_bw(): bw = delivered * BW_UNIT / interval_us
    // (delivered >= 0 and interval_us > 0 here, so the signed division is unsigned).
    let bw = (rs.delivered as u64 * BW_UNIT) / rs.interval_us as u64;
    if !rs.is_app_limited || bw >= u64::from(bbr_max_bw(bbr)) {
        // The filter holds u32 samples; the kernel truncates as it passes the u64.
        bbr.bw.running_max(BW_RTTS, bbr.rtt_cnt, bw as u32);
    }
    true
}

/// `bbr_check_full_bw_reached()`: at each non-app-limited round start, the pipe is
/// full after 3 rounds in a row without a 25 % bandwidth gain.
pub fn bbr_check_full_bw_reached(bbr: &mut BbrState, rs: &RateSample) {
    if bbr.full_bw_reached() || !bbr.round_start() || rs.is_app_limited {
        return;
    }
    // Linux net/ipv4/tcp_bbr.c bbr_check_full_bw_reached(): thresh = full_bw * 5/4
    let bw_thresh = ((u64::from(bbr.full_bw) * FULL_BW_THRESH) >> BBR_SCALE) as u32;
    if bbr_max_bw(bbr) >= bw_thresh {
        bbr.full_bw = bbr_max_bw(bbr);
        bbr.full_bw_cnt = 0;
        return;
    }
    bbr.full_bw_cnt = bbr.full_bw_cnt.wrapping_add(1) & FULL_BW_CNT_MASK;
    bbr.set_full_bw_reached(bbr.full_bw_cnt >= FULL_BW_CNT);
}
