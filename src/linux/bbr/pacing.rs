//! Pacing: BBR's bandwidth model turned into `sk_pacing_rate` (bytes/s, 1 % under the
//! estimate), and the TSO burst size that rate allows.

use super::{BBR_SCALE, BW_SCALE, BW_UNIT, BbrParams, BbrState, HIGH_GAIN};
use crate::linux::tcp::TcpSock;

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
pub fn bbr_rate_bytes_per_sec(sk: &TcpSock, rate: u64, gain: u32) -> u64 {
    // Linux net/ipv4/tcp_bbr.c bbr_rate_bytes_per_sec(): ((rate * mss * gain) >> 8) * 990000 >> 24
    let rate = rate
        .wrapping_mul(u64::from(sk.mss_cache))
        .wrapping_mul(u64::from(gain))
        >> BBR_SCALE;
    rate.wrapping_mul(USEC_PER_SEC / 100 * (100 - PACING_MARGIN_PERCENT)) >> BW_SCALE
}

/// `bbr_bw_to_pacing_rate()`: the pacing rate for `bw` at `gain`, capped by
/// `sk_max_pacing_rate`.
pub fn bbr_bw_to_pacing_rate(sk: &TcpSock, bw: u32, gain: u32) -> u64 {
    bbr_rate_bytes_per_sec(sk, u64::from(bw), gain).min(sk.sk_max_pacing_rate)
}

/// `bbr_init_pacing_rate_from_rtt()`: `high_gain · cwnd / RTT`, from `srtt` if there is
/// one (then `has_seen_rtt` is set), else from a nominal 1 ms.
pub fn bbr_init_pacing_rate_from_rtt(bbr: &mut BbrState, sk: &mut TcpSock) {
    let rtt_us = if sk.srtt_us != 0 {
        bbr.set_has_seen_rtt(true);
        (sk.srtt_us >> 3).max(1)
    } else {
        USEC_PER_MSEC
    };
    // Linux net/ipv4/tcp_bbr.c bbr_init_pacing_rate_from_rtt(): bw = cwnd * BW_UNIT / rtt_us
    let bw = u64::from(sk.snd_cwnd) * BW_UNIT / u64::from(rtt_us);
    // The kernel passes the u64 quotient to a u32 parameter: it truncates.
    sk.sk_pacing_rate = bbr_bw_to_pacing_rate(sk, bw as u32, HIGH_GAIN);
}

/// `bbr_set_pacing_rate()`: paces at `bw · gain`, but in STARTUP only ever upwards.
/// The first RTT sample re-initialises the rate from `srtt` (after `rate` is computed).
pub fn bbr_set_pacing_rate(bbr: &mut BbrState, sk: &mut TcpSock, bw: u32, gain: u32) {
    let rate = bbr_bw_to_pacing_rate(sk, bw, gain);
    if !bbr.has_seen_rtt() && sk.srtt_us != 0 {
        bbr_init_pacing_rate_from_rtt(bbr, sk);
    }
    // Linux net/ipv4/tcp_bbr.c bbr_set_pacing_rate(): only raise it until the pipe is full
    if bbr.full_bw_reached() || rate > sk.sk_pacing_rate {
        sk.sk_pacing_rate = rate;
    }
}

/// `bbr_min_tso_segs()`: 1 below 1.2 Mbit/s (150,000 bytes/s), else 2.
pub fn bbr_min_tso_segs(sk: &TcpSock) -> u32 {
    // Linux net/ipv4/tcp_bbr.c bbr_min_tso_segs(): sk_pacing_rate < bbr_min_tso_rate >> 3
    if sk.sk_pacing_rate < MIN_TSO_RATE >> 3 {
        1
    } else {
        2
    }
}

/// `bbr_tso_segs_goal()`: segments per TSO burst: 1/2^`sk_pacing_shift` s at the
/// pacing rate, at most one 64 KiB GSO packet less headers, at least
/// [`bbr_min_tso_segs`], at most 127. An MSS of 0 counts as no full segment.
pub fn bbr_tso_segs_goal(sk: &TcpSock, p: &BbrParams) -> u32 {
    // Linux net/ipv4/tcp_bbr.c bbr_tso_segs_goal(): min(rate >> shift, GSO_LEGACY_MAX_SIZE - 1 - MAX_TCP_HEADER)
    let cap = u64::from(GSO_LEGACY_MAX_SIZE - 1 - p.max_tcp_header());
    let shift = u32::from(sk.sk_pacing_shift);
    let budget = sk.sk_pacing_rate.checked_shr(shift).unwrap_or(0);
    // At most the cap, so it fits in u32 as the kernel's `bytes`.
    let bytes = budget.min(cap) as u32;
    let segs = bytes
        .checked_div(sk.mss_cache)
        .unwrap_or(0)
        .max(bbr_min_tso_segs(sk));
    segs.min(TSO_SEGS_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sock(pacing_rate: u64, mss: u32) -> TcpSock {
        TcpSock {
            sk_pacing_rate: pacing_rate,
            sk_pacing_shift: 10,
            mss_cache: mss,
            sk_max_pacing_rate: u64::MAX,
            ..TcpSock::default()
        }
    }

    #[test]
    fn the_initial_rate_of_startup_10mbps_40ms_is_1_004_375() {
        // The conformance README's hand-checked row: cwnd 10 over srtt 41,200 µs gives
        // bw = 10·2^24/41200 = 4072; 4072·1448·739 = 4,357,333,184, >> 8 = 17,020,832;
        // ·990,000 = 16,850,623,680,000, >> 24 = 1,004,375.
        let mut sk = sock(0, 1448);
        sk.snd_cwnd = 10;
        sk.srtt_us = 41_200 << 3;
        let mut bbr = BbrState::default();
        bbr_init_pacing_rate_from_rtt(&mut bbr, &mut sk);
        assert_eq!(sk.sk_pacing_rate, 1_004_375);
        assert!(bbr.has_seen_rtt());
        // Without srtt: the nominal 1 ms, and has_seen_rtt stays clear.
        let mut sk = sock(0, 1448);
        sk.snd_cwnd = 10;
        let mut bbr = BbrState::default();
        bbr_init_pacing_rate_from_rtt(&mut bbr, &mut sk);
        assert!(!bbr.has_seen_rtt());
        // bw = 10·2^24/1000 = 167,772; ·1448·739 = 179,528,119,584, >> 8 =
        // 701,281,717; ·990,000 >> 24 = 41,381,651.
        assert_eq!(sk.sk_pacing_rate, 41_381_651);
    }

    #[test]
    fn the_first_rtt_seeds_the_rate_and_startup_only_raises_it() {
        // bbr_set_pacing_rate(): rate = bw_to_pacing_rate(1000, 739) first:
        // 1000·1448·739 >> 8 = 4,179,968; ·990,000 = 4,138,168,320,000, >> 24 = 246,654.
        // Then, with srtt known and no RTT seen yet, the rate is seeded from it (cwnd
        // 10 over 10 ms: 4,138,115) and has_seen_rtt is set. Before the pipe is full
        // only a higher rate replaces it, so 4,138,115 stays; once full, 246,654 is
        // taken.
        let mut sk = sock(0, 1448);
        sk.snd_cwnd = 10;
        sk.srtt_us = 10_000 << 3;
        let mut bbr = BbrState::default();
        bbr_set_pacing_rate(&mut bbr, &mut sk, 1000, 739);
        assert!(bbr.has_seen_rtt());
        assert_eq!(sk.sk_pacing_rate, 4_138_115);
        bbr.set_full_bw_reached(true);
        bbr_set_pacing_rate(&mut bbr, &mut sk, 1000, 739);
        assert_eq!(sk.sk_pacing_rate, 246_654);
    }

    #[test]
    fn the_pacing_cap_applies() {
        let mut sk = sock(0, 1448);
        sk.sk_max_pacing_rate = 1_000_000;
        assert_eq!(bbr_bw_to_pacing_rate(&sk, 1 << 24, 256), 1_000_000);
    }

    #[test]
    fn tso_bursts_are_one_segment_below_1_2_mbit_s() {
        // bbr_min_tso_segs(): 150,000 B/s is the threshold.
        assert_eq!(bbr_min_tso_segs(&sock(149_999, 1448)), 1);
        assert_eq!(bbr_min_tso_segs(&sock(150_000, 1448)), 2);
        let p = BbrParams::new();
        // 149,314 B/s >> 10 = 145 bytes: 0 segments, so the minimum 1.
        assert_eq!(bbr_tso_segs_goal(&sock(149_314, 1448), &p), 1);
    }

    #[test]
    fn the_tso_goal_caps_bytes_at_gso_size_less_the_header() {
        // 10 Gbit/s >> 10 is far above 65,535 - 320 = 65,215 bytes: 65215/1452 = 44.
        let p = BbrParams::new();
        assert_eq!(bbr_tso_segs_goal(&sock(1_250_000_000, 1452), &p), 44);
        assert_eq!(bbr_tso_segs_goal(&sock(1_250_000_000, 1448), &p), 45);
        // mss 100: 652 segments, capped at 127.
        assert_eq!(bbr_tso_segs_goal(&sock(1_250_000_000, 100), &p), 127);
    }
}
