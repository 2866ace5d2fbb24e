//! Pacing rate and TSO burst size: `bbr_rate_bytes_per_sec` to `bbr_tso_segs_goal`,
//! and the estimate of what is really in the network at the next departure time.

use super::params::{
    BBR_SCALE, BBR_UNIT, BW_SCALE, BW_UNIT, Bbr3Params, GSO_LEGACY_MAX_SIZE, PACING_MARGIN_PERCENT,
    STARTUP_PACING_GAIN, TSO_RTT_SHIFT,
};
use super::{Bbr, Mode};
use crate::linux::bbr::BbrSock;

/// µs per second.
const USEC_PER_SEC: u64 = 1_000_000;

/// `bbr_rate_bytes_per_sec`: a bandwidth (packets/µs << 24) times `gain`/256, less
/// `margin` percent, in bytes per second, at least 1. The kernel orders the steps so
/// that rates up to 2.9 Tbit/s at gain 2.89 fit a `u64`; beyond that it wraps, and so
/// does this.
pub(super) fn bbr_rate_bytes_per_sec<S: BbrSock>(sk: &S, rate: u64, gain: u32, margin: u32) -> u64 {
    rate_bytes_per_sec_scaled(rate, sk.mss_cache(), gain, margin, BW_SCALE)
}

/// The arithmetic of `bbr_rate_bytes_per_sec`, shared with `rfc::Bbr3`: a bandwidth in
/// units per µs << `bw_scale` times `unit_bytes` (the kernel's mss; 1 for a bandwidth
/// already in bytes) times `gain`/256, less `margin` percent, bytes/s, at least 1.
pub(crate) fn rate_bytes_per_sec_scaled(
    rate: u64,
    unit_bytes: u32,
    gain: u32,
    margin: u32,
    bw_scale: u32,
) -> u64 {
    // Linux net/ipv4/tcp_bbr.c bbr_rate_bytes_per_sec(): rate*mss*gain>>8 *(10^6/100*(100-margin))>>24
    let rate = rate.wrapping_mul(u64::from(unit_bytes));
    let rate = rate.wrapping_mul(u64::from(gain)) >> BBR_SCALE;
    let margin_factor = USEC_PER_SEC / 100 * u64::from(100u32.saturating_sub(margin));
    let rate = rate
        .wrapping_mul(margin_factor)
        .checked_shr(bw_scale)
        .unwrap_or(0);
    rate.max(1)
}

/// `bbr_bw_to_pacing_rate`: the pacing rate for `bw` at `gain`, 1 % below it and
/// capped at `sk_max_pacing_rate`.
pub(super) fn bbr_bw_to_pacing_rate<S: BbrSock>(sk: &S, bw: u32, gain: u32) -> u64 {
    let rate = bbr_rate_bytes_per_sec(sk, u64::from(bw), gain, PACING_MARGIN_PERCENT);
    rate.min(sk.sk_max_pacing_rate())
}

/// `bbr_init_pacing_rate_from_rtt`: STARTUP's gain times the cwnd per smoothed RTT
/// (1 ms before any RTT sample).
pub(super) fn bbr_init_pacing_rate_from_rtt<S: BbrSock>(bbr: &mut Bbr, sk: &mut S) {
    let rtt_us = if sk.srtt_us() != 0 {
        bbr.set_has_seen_rtt(true);
        (sk.srtt_us() >> 3).max(1)
    } else {
        1000
    };
    // Linux net/ipv4/tcp_bbr.c bbr_init_pacing_rate_from_rtt(): bw = cwnd * BW_UNIT / rtt_us
    let bw = u64::from(sk.snd_cwnd()) * BW_UNIT / u64::from(rtt_us);
    // The kernel passes that u64 to a u32 parameter: it keeps the low 32 bits.
    sk.set_sk_pacing_rate(bbr_bw_to_pacing_rate(sk, bw as u32, STARTUP_PACING_GAIN));
}

/// The `bw` and `gain` the socket's `sk_pacing_rate` is `bbr_bw_to_pacing_rate()` of,
/// kept by a flow beside its socket fields so that an ACK at the same inputs need not
/// compute the rate again (6 bytes, 2-aligned, so that it fits the flow's padding).
/// `gain` 0 (no caller's gain) keeps nothing.
///
/// Whoever keeps one clears it ([`PacedAt::NONE`]) whenever the socket's pacing rate
/// may change other than through [`bbr_set_pacing_rate`] with it or `bbr_init` runs,
/// and passes it only
/// with a socket whose `mss_cache` and `sk_max_pacing_rate` never change (the rate's
/// other inputs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub(crate) struct PacedAt {
    /// `bw`, low half first.
    bw: [u16; 2],
    gain: u16,
}

impl PacedAt {
    /// Nothing kept.
    pub(super) const NONE: Self = PacedAt {
        bw: [0; 2],
        gain: 0,
    };

    /// `bw` at `gain` kept (nothing for a gain above 16 bits, which no caller has).
    fn new(bw: u32, gain: u32) -> Self {
        match u16::try_from(gain) {
            Ok(gain) => PacedAt {
                bw: [bw as u16, (bw >> 16) as u16],
                gain,
            },
            Err(_) => Self::NONE,
        }
    }

    /// Whether the kept rate is the one of `bw` at `gain` (above 0, as every caller's:
    /// then [`Self::NONE`] matches nothing).
    fn is(&self, bw: u32, gain: u32) -> bool {
        let [lo, hi] = self.bw;
        u32::from(self.gain) == gain && (u32::from(hi) << 16 | u32::from(lo)) == bw
    }
}

/// `bbr_set_pacing_rate`: pace at `bw` times `gain`; before the pipe is full only ever
/// raise the rate. The first RTT sample re-seeds the rate from it, once.
///
/// With `paced` saying the socket already paces at `bw` and `gain`, the kernel's steps
/// change nothing (the rate they compute is the one set; neither "set" nor "raise"
/// moves it; no re-seeding, see below). `paced` is then kept up to date.
#[inline(always)]
pub(super) fn bbr_set_pacing_rate<S: BbrSock>(
    bbr: &mut Bbr,
    sk: &mut S,
    bw: u32,
    gain: u32,
    paced: &mut PacedAt,
) {
    // A rate is kept only with `has_seen_rtt` set (only `bbr_init` clears it, and
    // `paced` with it): then the re-seeding test is false.
    if paced.is(bw, gain) {
        return;
    }
    // The rate depends on bw, gain, mss and the cap only: the re-seeding does not
    // change it, so it is computed after that test (the kernel computes it before).
    if !bbr.has_seen_rtt() && sk.srtt_us() != 0 {
        bbr_init_pacing_rate_from_rtt(bbr, sk);
    }
    let rate = bbr_bw_to_pacing_rate(sk, bw, gain);
    if bbr.full_bw_reached() || rate > sk.sk_pacing_rate() {
        sk.set_sk_pacing_rate(rate);
    }
    *paced = if bbr.has_seen_rtt() && sk.sk_pacing_rate() == rate {
        PacedAt::new(bw, gain)
    } else {
        PacedAt::NONE
    };
}

/// `bbr_tso_segs_generic`: segments per TSO/GSO burst: 1/2^`sk_pacing_shift` s of the
/// pacing rate plus 64 KB halved per 512 µs of min_rtt, capped at `gso_max_size` less
/// the headers, at least `tcp_min_tso_segs`. An `mss_now` of 0 gives the minimum.
pub(super) fn bbr_tso_segs_generic<S: BbrSock>(
    bbr: &Bbr,
    sk: &S,
    p: &Bbr3Params,
    mss_now: u32,
    gso_max_size: u32,
) -> u32 {
    // Linux net/ipv4/tcp_bbr.c bbr_tso_segs_generic(): bytes = pacing_rate >> pacing_shift
    let mut bytes = sk
        .sk_pacing_rate()
        .checked_shr(u32::from(sk.sk_pacing_shift()))
        .unwrap_or(0);
    let r = bbr.min_rtt_us >> TSO_RTT_SHIFT;
    if r < u32::BITS {
        // Linux net/ipv4/tcp_bbr.c bbr_tso_segs_generic(): bytes += GSO_LEGACY_MAX_SIZE >> (min_rtt >> 9)
        bytes = bytes.wrapping_add(u64::from(GSO_LEGACY_MAX_SIZE >> r));
    }
    let cap = gso_max_size
        .saturating_sub(1)
        .saturating_sub(p.max_tcp_header());
    // `min_t(u32, ...)`: the kernel compares the low 32 bits of `bytes`.
    let bytes = (bytes as u32).min(cap);
    bytes
        .checked_div(mss_now)
        .unwrap_or(0)
        .max(p.min_tso_segs())
}

/// `bbr_tso_segs_goal`: the burst size for `mss_cache` and the legacy 64 KB GSO limit.
pub(super) fn bbr_tso_segs_goal<S: BbrSock>(bbr: &Bbr, sk: &S, p: &Bbr3Params) -> u32 {
    bbr_tso_segs_generic(bbr, sk, p, sk.mss_cache(), GSO_LEGACY_MAX_SIZE)
}

/// `bbr_packets_in_net_at_edt`: of `inflight_now`, what will still be in the network
/// when the next skb departs at the earliest departure time (`tcp_wstamp_ns`),
/// counting that skb's burst when the pacing gain is above 1.
pub(super) fn bbr_packets_in_net_at_edt<S: BbrSock>(
    bbr: &Bbr,
    sk: &S,
    p: &Bbr3Params,
    inflight_now: u32,
) -> u32 {
    let now_ns = sk.tcp_clock_cache();
    let edt_ns = sk.tcp_wstamp_ns().max(now_ns);
    let interval_us = (edt_ns - now_ns) / 1000;
    // Linux net/ipv4/tcp_bbr.c bbr_packets_in_net_at_edt(): bw * interval_us >> BW_SCALE, kept as u32
    let interval_delivered = (u64::from(bbr.bw()).wrapping_mul(interval_us) >> BW_SCALE) as u32;
    let mut inflight_at_edt = inflight_now;
    if u32::from(bbr.pacing_gain) > BBR_UNIT {
        inflight_at_edt = inflight_at_edt.wrapping_add(bbr_tso_segs_goal(bbr, sk, p));
    }
    inflight_at_edt.saturating_sub(interval_delivered)
}

/// Whether BBR counts the flow as probing for bandwidth (`bbr_is_probing_bandwidth`):
/// STARTUP, or PROBE_BW's REFILL and UP phases.
pub(super) fn bbr_is_probing_bandwidth(bbr: &Bbr) -> bool {
    use super::CyclePhase;
    bbr.mode == Mode::Startup
        || (bbr.mode == Mode::ProbeBw
            && matches!(bbr.cycle_idx, CyclePhase::Refill | CyclePhase::Up))
}

#[cfg(test)]
mod tests;
