//! Pacing: BBR's bandwidth model turned into `sk_pacing_rate` (bytes/s, 1 % under the
//! estimate), and the TSO burst size that rate allows.

use super::sock_view::BbrSock;
use super::{BBR_SCALE, BW_SCALE, BW_UNIT, BbrParams, BbrState, HIGH_GAIN};

/// `bbr_pacing_margin_percent`: pace 1 % below the estimated bandwidth.
pub const PACING_MARGIN_PERCENT: u64 = 1;
/// `bbr_min_tso_rate`: below this (bits/s) BBR sends single-segment bursts.
pub const MIN_TSO_RATE: u64 = 1_200_000;
/// `GSO_LEGACY_MAX_SIZE`: the largest GSO packet the TSO goal allows, bytes.
pub use crate::linux::tcp::GSO_LEGACY_MAX_SIZE;
/// The TSO goal never exceeds 127 segments.
const TSO_SEGS_MAX: u32 = 0x7f;
/// µs per second.
const USEC_PER_SEC: u64 = 1_000_000;
/// µs per ms: the nominal RTT before any sample.
const USEC_PER_MSEC: u32 = 1000;

/// `bbr_rate_bytes_per_sec()`: `rate` (packets/µs << 24) times `gain` (/256) in bytes
/// per second, less the pacing margin. Wraps as the kernel's `u64` (no overflow below
/// about 2.9 Tbit/s at gain 2.89).
pub fn bbr_rate_bytes_per_sec<S: BbrSock>(sk: &S, rate: u64, gain: u32) -> u64 {
    // Linux net/ipv4/tcp_bbr.c bbr_rate_bytes_per_sec(): ((rate * mss * gain) >> 8) * 990000 >> 24
    let rate = rate
        .wrapping_mul(u64::from(sk.mss_cache()))
        .wrapping_mul(u64::from(gain))
        >> BBR_SCALE;
    rate.wrapping_mul(USEC_PER_SEC / 100 * (100 - PACING_MARGIN_PERCENT)) >> BW_SCALE
}

/// `bbr_bw_to_pacing_rate()`: the pacing rate for `bw` at `gain`, capped by
/// `sk_max_pacing_rate`.
pub fn bbr_bw_to_pacing_rate<S: BbrSock>(sk: &S, bw: u32, gain: u32) -> u64 {
    bbr_rate_bytes_per_sec(sk, u64::from(bw), gain).min(sk.sk_max_pacing_rate())
}

/// `bbr_init_pacing_rate_from_rtt()`: `high_gain · cwnd / RTT`, from `srtt` if there is
/// one (then `has_seen_rtt` is set), else from a nominal 1 ms.
pub fn bbr_init_pacing_rate_from_rtt<S: BbrSock>(bbr: &mut BbrState, sk: &mut S) {
    let rtt_us = if sk.srtt_us() != 0 {
        bbr.set_has_seen_rtt(true);
        (sk.srtt_us() >> 3).max(1)
    } else {
        USEC_PER_MSEC
    };
    // Linux net/ipv4/tcp_bbr.c bbr_init_pacing_rate_from_rtt(): bw = cwnd * BW_UNIT / rtt_us
    let bw = u64::from(sk.snd_cwnd()) * BW_UNIT / u64::from(rtt_us);
    // The kernel passes the u64 quotient to a u32 parameter: it truncates.
    sk.set_sk_pacing_rate(bbr_bw_to_pacing_rate(sk, bw as u32, HIGH_GAIN));
}

/// `bbr_set_pacing_rate()`: paces at `bw · gain`, but in STARTUP only ever upwards.
/// The first RTT sample re-initialises the rate from `srtt` (after `rate` is computed).
pub fn bbr_set_pacing_rate<S: BbrSock>(bbr: &mut BbrState, sk: &mut S, bw: u32, gain: u32) {
    let rate = bbr_bw_to_pacing_rate(sk, bw, gain);
    if !bbr.has_seen_rtt() && sk.srtt_us() != 0 {
        bbr_init_pacing_rate_from_rtt(bbr, sk);
    }
    // Linux net/ipv4/tcp_bbr.c bbr_set_pacing_rate(): only raise it until the pipe is full
    if bbr.full_bw_reached() || rate > sk.sk_pacing_rate() {
        sk.set_sk_pacing_rate(rate);
    }
}

/// `bbr_min_tso_segs()`: 1 below 1.2 Mbit/s (150,000 bytes/s), else 2.
pub fn bbr_min_tso_segs<S: BbrSock>(sk: &S) -> u32 {
    // Linux net/ipv4/tcp_bbr.c bbr_min_tso_segs(): sk_pacing_rate < bbr_min_tso_rate >> 3
    if sk.sk_pacing_rate() < MIN_TSO_RATE >> 3 {
        1
    } else {
        2
    }
}

/// A `bbr_tso_segs_goal()` with the pacing rate it was computed at (its only input that
/// changes between events of a flow with one config); 0 (a real goal is at least 1) is
/// none.
pub(super) type TsoGoal = (u64, u32);

/// `bbr_tso_segs_goal()`, reusing `known` if it was computed at the current pacing
/// rate.
pub(super) fn tso_segs_goal_at<S: BbrSock>(sk: &S, p: &BbrParams, known: TsoGoal) -> u32 {
    let (rate, goal) = known;
    if goal != 0 && rate == sk.sk_pacing_rate() {
        return goal;
    }
    bbr_tso_segs_goal(sk, p)
}

/// `bbr_tso_segs_goal()`: segments per TSO burst: 1/2^`sk_pacing_shift` s at the
/// pacing rate, at most one 64 KiB GSO packet less headers, at least
/// [`bbr_min_tso_segs`], at most 127. An MSS of 0 counts as no full segment.
pub fn bbr_tso_segs_goal<S: BbrSock>(sk: &S, p: &BbrParams) -> u32 {
    // Linux net/ipv4/tcp_bbr.c bbr_tso_segs_goal(): min(rate >> shift, GSO_LEGACY_MAX_SIZE - 1 - MAX_TCP_HEADER)
    let cap = u64::from(GSO_LEGACY_MAX_SIZE - 1 - p.max_tcp_header());
    let shift = u32::from(sk.sk_pacing_shift());
    let budget = sk.sk_pacing_rate().checked_shr(shift).unwrap_or(0);
    // At most the cap, so it fits in u32 as the kernel's `bytes`.
    let bytes = budget.min(cap) as u32;
    let segs = bytes
        .checked_div(sk.mss_cache())
        .unwrap_or(0)
        .max(bbr_min_tso_segs(sk));
    segs.min(TSO_SEGS_MAX)
}

#[cfg(test)]
mod tests;
