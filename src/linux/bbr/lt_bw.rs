//! The long-term ("LT") bandwidth estimator: detects a token-bucket policer from two
//! consecutive lossy intervals with about the same delivery rate, and then paces at
//! their average for up to 48 rounds.

use super::pacing::bbr_rate_bytes_per_sec;
use super::probe_bw::bbr_reset_probe_bw_mode;
use super::sock_view::BbrSock;
use super::{BBR_SCALE, BBR_UNIT, BW_UNIT, BbrMode, BbrParams, BbrState};
use crate::linux::tcp::{RandomSource, RateSample};

/// `bbr_lt_intvl_min_rtts`: an interval lasts at least 4 rounds.
pub const LT_INTVL_MIN_RTTS: u8 = 4;
/// `bbr_lt_loss_thresh`: an interval is lossy above 50/256 (about 20 %) lost/delivered.
pub const LT_LOSS_THRESH: u32 = 50;
/// `bbr_lt_bw_ratio`: two rates within 1/8 of each other are consistent.
pub const LT_BW_RATIO: u32 = BBR_UNIT / 8;
/// `bbr_lt_bw_diff`: or within 4 kbit/s (500 bytes/s).
pub const LT_BW_DIFF: u64 = 4000 / 8;
/// `bbr_lt_bw_max_rtts`: use `lt_bw` for at most 48 rounds.
pub const LT_BW_MAX_RTTS: u8 = 48;
/// `lt_rtt_cnt` is a 7-bit field.
const LT_RTT_CNT_MASK: u8 = 0x7f;
/// µs per ms.
const USEC_PER_MSEC: u64 = 1000;

/// `bbr_reset_lt_bw_sampling_interval()`: a new interval starts now.
pub fn bbr_reset_lt_bw_sampling_interval<S: BbrSock>(bbr: &mut BbrState, sk: &S) {
    // Linux net/ipv4/tcp_bbr.c bbr_reset_lt_bw_sampling_interval(): ms stamp, wrapping as u32
    bbr.lt_last_stamp = (sk.delivered_mstamp() / USEC_PER_MSEC) as u32;
    bbr.lt_last_delivered = sk.delivered();
    bbr.lt_last_lost = sk.lost();
    bbr.lt_rtt_cnt = 0;
}

/// `bbr_reset_lt_bw_sampling()`: forget the long-term estimate and stop sampling.
pub fn bbr_reset_lt_bw_sampling<S: BbrSock>(bbr: &mut BbrState, sk: &S) {
    bbr.lt_bw = 0;
    bbr.set_lt_use_bw(false);
    bbr.set_lt_is_sampling(false);
    bbr_reset_lt_bw_sampling_interval(bbr, sk);
}

/// `bbr_lt_bw_interval_done()`: an interval measured `bw`; if it matches the previous
/// one, a policer is assumed and their average is used.
// Always inlined (one caller): a copy left out of line keeps its generic name, which the
// kernel's BTF check refuses when bpf/ loads rbbr ("Invalid name").
#[inline(always)]
pub fn bbr_lt_bw_interval_done<S: BbrSock>(bbr: &mut BbrState, sk: &S, bw: u32) {
    if bbr.lt_bw != 0 {
        // Linux net/ipv4/tcp_bbr.c bbr_lt_bw_interval_done(): abs() of the u32 difference read as int
        let diff = (bw.wrapping_sub(bbr.lt_bw) as i32).unsigned_abs();
        // Linux net/ipv4/tcp_bbr.c bbr_lt_bw_interval_done(): diff*256 <= lt_bw/8*256 (u32, wrapping)
        if diff.wrapping_mul(BBR_UNIT) <= LT_BW_RATIO.wrapping_mul(bbr.lt_bw)
            || bbr_rate_bytes_per_sec(sk, u64::from(diff), BBR_UNIT) <= LT_BW_DIFF
        {
            // Linux net/ipv4/tcp_bbr.c bbr_lt_bw_interval_done(): average the two intervals
            bbr.lt_bw = bw.wrapping_add(bbr.lt_bw) >> 1;
            bbr.set_lt_use_bw(true);
            bbr.pacing_gain = BBR_UNIT as u16;
            bbr.lt_rtt_cnt = 0;
            return;
        }
    }
    bbr.lt_bw = bw;
    bbr_reset_lt_bw_sampling_interval(bbr, sk);
}

/// `bbr_lt_bw_sampling()`: runs on every valid sample (and on an RTO): starts sampling
/// at the first loss, ends an interval of 4..=16 rounds at a loss once the loss rate
/// is at least 20 %, and stops using `lt_bw` after 48 rounds in PROBE_BW.
///
/// An app-limited sample resets sampling; an interval of under 1 ms waits; one too
/// long to scale resets.
pub fn bbr_lt_bw_sampling<S: BbrSock, R: RandomSource>(
    bbr: &mut BbrState,
    sk: &mut S,
    p: &BbrParams,
    rs: &RateSample,
    rand: &mut R,
) {
    if bbr.lt_use_bw() {
        if bbr.mode == BbrMode::ProbeBw && bbr.round_start() {
            bbr.lt_rtt_cnt = bbr.lt_rtt_cnt.wrapping_add(1) & LT_RTT_CNT_MASK;
            if bbr.lt_rtt_cnt >= LT_BW_MAX_RTTS {
                bbr_reset_lt_bw_sampling(bbr, sk);
                bbr_reset_probe_bw_mode(bbr, sk, p, rand);
            }
        }
        return;
    }
    if !bbr.lt_is_sampling() {
        if rs.losses == 0 {
            return;
        }
        bbr_reset_lt_bw_sampling_interval(bbr, sk);
        bbr.set_lt_is_sampling(true);
    }
    if rs.is_app_limited {
        bbr_reset_lt_bw_sampling(bbr, sk);
        return;
    }
    if bbr.round_start() {
        bbr.lt_rtt_cnt = bbr.lt_rtt_cnt.wrapping_add(1) & LT_RTT_CNT_MASK;
    }
    if bbr.lt_rtt_cnt < LT_INTVL_MIN_RTTS {
        return;
    }
    if bbr.lt_rtt_cnt > 4 * LT_INTVL_MIN_RTTS {
        bbr_reset_lt_bw_sampling(bbr, sk);
        return;
    }
    if rs.losses == 0 {
        return;
    }
    let lost = sk.lost().wrapping_sub(bbr.lt_last_lost);
    let delivered = sk.delivered().wrapping_sub(bbr.lt_last_delivered);
    // Linux net/ipv4/tcp_bbr.c bbr_lt_bw_sampling(): lossy if lost/delivered >= 50/256 (u32, wrapping)
    if delivered == 0 || (lost << BBR_SCALE) < LT_LOSS_THRESH.wrapping_mul(delivered) {
        return;
    }
    // Linux net/ipv4/tcp_bbr.c bbr_lt_bw_sampling(): interval length in ms, wrapping as u32
    let t = ((sk.delivered_mstamp() / USEC_PER_MSEC) as u32).wrapping_sub(bbr.lt_last_stamp);
    if (t as i32) < 1 {
        return;
    }
    if t >= u32::MAX / USEC_PER_MSEC as u32 {
        bbr_reset_lt_bw_sampling(bbr, sk);
        return;
    }
    let t_us = t * USEC_PER_MSEC as u32;
    // Linux net/ipv4/tcp_bbr.c bbr_lt_bw_sampling(): bw = delivered * BW_UNIT / t
    let bw = u64::from(delivered) * BW_UNIT / u64::from(t_us);
    // bbr_lt_bw_interval_done() takes a u32: the kernel truncates.
    bbr_lt_bw_interval_done(bbr, sk, bw as u32);
}
