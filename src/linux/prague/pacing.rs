//! Prague's window/rate/MTU conversions, round timing, AI step and pacing rate.

use super::div::mul_shr as mul_u64_u64_shr;
use super::div::{div_u64, div_u64_round_up, div64_u64, div64_u64_round_closest};
use super::{
    CWND_UNIT, HSRTT_SHIFT, MAX_SCALED_RTT_US, MIN_CWND_RTT, MIN_CWND_VIRT, MIN_MSS, MINIMUM_RATE,
    OFFSET_UNIT, ONE_CWND, PragueCa, PragueParams, RATE_OFFSET, RTT2SEC_SHIFT, USEC_PER_SEC,
};
use crate::linux::tcp::{TcpSock, before};

pub(crate) use crate::linux::tcp::rate::tcp_stamp_us_delta;

/// In srtt units (×8), wrapping as `u32`.
// Linux net/ipv4/tcp_prague.c prague_target_rtt()
pub(crate) const fn prague_target_rtt(p: &PragueParams) -> u32 {
    p.config.prague_rtt_target << 3
}

// Linux net/ipv4/tcp_prague.c prague_is_rtt_indep()
pub(crate) const fn prague_is_rtt_indep(ca: &PragueCa, sk: &TcpSock, p: &PragueParams) -> bool {
    !sk.in_slow_start() && ca.round >= p.config.prague_rtt_transition
}

/// The kernel's `prague_is_rtt_indep(sk) && ca->cwnd_mode` (rate-based growth), with
/// the flag tested first: both sides are pure, and in window mode the flag alone
/// decides.
// Linux net/ipv4/tcp_prague.c prague_update_pacing_rate(), prague_update_cwnd()
#[inline(always)]
pub(crate) const fn prague_rate_based(ca: &PragueCa, sk: &TcpSock, p: &PragueParams) -> bool {
    ca.cwnd_mode && prague_is_rtt_indep(ca, sk, p)
}

// Linux net/ipv4/tcp_prague.c prague_e2e_rtt_elapsed()
pub(crate) const fn prague_e2e_rtt_elapsed(ca: &PragueCa, sk: &TcpSock) -> bool {
    !before(sk.snd_una, ca.next_seq)
}

// Linux net/ipv4/tcp_prague.c prague_elapsed_since_alpha_update()
pub(crate) const fn prague_elapsed_since_alpha_update(ca: &PragueCa, sk: &TcpSock) -> u32 {
    tcp_stamp_us_delta(sk.tcp_mstamp, ca.alpha_stamp)
}

// Linux net/ipv4/tcp_prague.c prague_should_update_ewma(), prague_target_rtt_elapsed()
pub(crate) const fn prague_should_update_ewma(
    ca: &PragueCa,
    sk: &TcpSock,
    p: &PragueParams,
) -> bool {
    prague_e2e_rtt_elapsed(ca, sk)
        && (!prague_is_rtt_indep(ca, sk, p)
            || (prague_target_rtt(p) >> 3) <= prague_elapsed_since_alpha_update(ca, sk))
}

// Linux net/ipv4/tcp_prague.c prague_virtual_rtt()
pub(crate) const fn prague_virtual_rtt(sk: &TcpSock, p: &PragueParams) -> u64 {
    let target = prague_target_rtt(p);
    (if target > sk.srtt_us {
        target
    } else {
        sk.srtt_us
    }) as u64
}

/// `prague_frac_cwnd_to_snd_cwnd()`: the fractional window rounded up, at least 2,
/// at most the clamp (`max_t(u32, ..)` truncates the rounded value).
// Linux net/ipv4/tcp_prague.c prague_frac_cwnd_to_snd_cwnd()
pub(crate) fn prague_frac_cwnd_to_snd_cwnd(ca: &PragueCa, sk: &TcpSock) -> u32 {
    // Truncation on purpose: max_t(u32, ...).
    let rounded = (ca.frac_cwnd.wrapping_add(ONE_CWND - 1) >> CWND_UNIT) as u32;
    rounded.max(MIN_CWND_RTT).min(sk.snd_cwnd_clamp)
}

/// `prague_pacing_rate_to_max_mtu()`: the largest MTU that keeps two packets per
/// virtual RTT at the current rate (or window, scaled up to the target RTT).
// Linux net/ipv4/tcp_prague.c prague_pacing_rate_to_max_mtu()
pub(crate) fn prague_pacing_rate_to_max_mtu(ca: &PragueCa, sk: &TcpSock, p: &PragueParams) -> u64 {
    let cwnd_bytes = if prague_rate_based(ca, sk, p) {
        mul_u64_u64_shr(ca.rate_bytes, prague_virtual_rtt(sk, p), RTT2SEC_SHIFT)
    } else {
        let target = u64::from(prague_target_rtt(p));
        let rtt = u64::from(sk.srtt_us);
        let mut scaled_cwnd = ca.frac_cwnd;
        if rtt < target {
            // Linux prague_pacing_rate_to_max_mtu(): frac * target / srtt
            scaled_cwnd = div64_u64(scaled_cwnd.wrapping_mul(target), rtt);
        }
        let mtu = u64::from(sk.mss_to_mtu(sk.mss_cache));
        mul_u64_u64_shr(scaled_cwnd, mtu, CWND_UNIT)
    };
    div_u64_round_up(cwnd_bytes, u64::from(MIN_CWND_VIRT))
}

// Linux net/ipv4/tcp_prague.c prague_half_virtual_rtt_elapsed()
pub(crate) const fn prague_half_virtual_rtt_elapsed(
    ca: &PragueCa,
    sk: &TcpSock,
    p: &PragueParams,
) -> bool {
    (prague_virtual_rtt(sk, p) >> (3 + 1)) <= prague_elapsed_since_alpha_update(ca, sk) as u64
}

// Linux net/ipv4/tcp_prague.c prague_pacing_rate_to_frac_cwnd()
pub(crate) fn prague_pacing_rate_to_frac_cwnd(ca: &PragueCa, sk: &TcpSock) -> u64 {
    let mtu = u64::from(sk.mss_to_mtu(sk.mss_cache));
    let hsrtt = ca.hsrtt_us >> HSRTT_SHIFT;
    let rtt = if hsrtt != 0 {
        hsrtt
    } else {
        u64::from(sk.srtt_us)
    };
    div_u64_round_up(
        mul_u64_u64_shr(ca.rate_bytes, rtt, RTT2SEC_SHIFT - CWND_UNIT),
        mtu,
    )
}

/// One segment per srtt in bytes per second, `8·10^6 · mtu / srtt` (srtt in µs ×8;
/// `8·10^6 · mtu` without an RTT sample): the base both
/// `prague_frac_cwnd_to_pacing_rate()` and the window branch of
/// `prague_update_pacing_rate()` scale.
// Linux net/ipv4/tcp_prague.c prague_frac_cwnd_to_pacing_rate(), prague_update_pacing_rate()
fn prague_segment_rate(sk: &TcpSock) -> u64 {
    let rate = (USEC_PER_SEC << 3).wrapping_mul(u64::from(sk.mss_to_mtu(sk.mss_cache)));
    if sk.srtt_us != 0 {
        div64_u64(rate, u64::from(sk.srtt_us))
    } else {
        rate
    }
}

/// [`prague_segment_rate`] computed at most once per ACK: the kernel divides by srtt
/// up to three times per ACK with the same srtt and MTU. Only the MTU resize of
/// `prague_update_alpha()` changes either, after which the value is forgotten.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SegmentRate(Option<u64>);

impl SegmentRate {
    #[inline(always)]
    pub(crate) fn get(&mut self, sk: &TcpSock) -> u64 {
        match self.0 {
            Some(rate) => rate,
            None => {
                let rate = prague_segment_rate(sk);
                self.0 = Some(rate);
                rate
            }
        }
    }

    pub(crate) fn forget(&mut self) {
        self.0 = None;
    }
}

// Linux net/ipv4/tcp_prague.c prague_frac_cwnd_to_pacing_rate()
pub(crate) fn prague_frac_cwnd_to_pacing_rate(ca: &PragueCa, sk: &TcpSock) -> u64 {
    prague_frac_cwnd_to_rate_from(ca, prague_segment_rate(sk))
}

// Linux net/ipv4/tcp_prague.c prague_frac_cwnd_to_pacing_rate()
#[inline(always)]
pub(crate) fn prague_frac_cwnd_to_rate_from(ca: &PragueCa, segment_rate: u64) -> u64 {
    mul_u64_u64_shr(segment_rate, ca.frac_cwnd, CWND_UNIT).max(MINIMUM_RATE)
}

// Linux net/ipv4/tcp_prague.c prague_valid_mtu()
pub(crate) fn prague_valid_mtu(ca: &PragueCa, sk: &TcpSock, mtu: u32) -> u32 {
    ca.mtu_cache.min(mtu).max(sk.mss_to_mtu(MIN_MSS))
}

/// `prague_rate_scaled_ai_ack_increase()`: below the target RTT, the increase per
/// ACKed segment is scaled by `(rtt/target)²`, rounded to nearest.
// Linux net/ipv4/tcp_prague.c prague_rate_scaled_ai_ack_increase()
fn prague_rate_scaled_ai_ack_increase(p: &PragueParams, rtt: u32) -> u64 {
    let target = u64::from(prague_target_rtt(p));
    let rtt = u64::from(rtt);
    if rtt >= target {
        return ONE_CWND;
    }
    // Linux prague_rate_scaled_ai_ack_increase(): (rtt << 20) * rtt / target²
    let increase = (rtt << CWND_UNIT).wrapping_mul(rtt);
    div64_u64_round_closest(increase, target.wrapping_mul(target))
}

/// `prague_ai_ack_increase()`: the additive increase per ACKed segment, unscaled
/// before RTT independence, without an RTT, or above `MAX_SCALED_RTT`.
// Linux net/ipv4/tcp_prague.c prague_ai_ack_increase()
pub(crate) fn prague_ai_ack_increase(ca: &mut PragueCa, sk: &TcpSock, p: &PragueParams) {
    let rtt = sk.srtt_us;
    ca.ai_ack_increase = if ca.round < p.config.prague_rtt_transition
        || rtt == 0
        || u64::from(rtt) > (MAX_SCALED_RTT_US << 3)
    {
        ONE_CWND
    } else {
        prague_rate_scaled_ai_ack_increase(p, rtt)
    };
}

/// `prague_update_pacing_rate()`: in rate mode the internal rate ±3 % (faster in the
/// first half of each virtual RTT); otherwise one window per srtt, which also becomes
/// the internal rate. Doubled in early slow start, capped at `sk_max_pacing_rate`;
/// sets the TSO burst for `1/2^prague_burst_shift` s.
// Linux net/ipv4/tcp_prague.c prague_update_pacing_rate()
pub(crate) fn prague_update_pacing_rate(ca: &mut PragueCa, sk: &mut TcpSock, p: &PragueParams) {
    prague_update_pacing_rate_with(ca, sk, p, &mut SegmentRate::default());
}

/// `prague_update_pacing_rate()` with this ACK's [`SegmentRate`].
// Linux net/ipv4/tcp_prague.c prague_update_pacing_rate()
#[inline(always)]
pub(crate) fn prague_update_pacing_rate_with(
    ca: &mut PragueCa,
    sk: &mut TcpSock,
    p: &PragueParams,
    segment_rate: &mut SegmentRate,
) {
    let mut rate = if prague_rate_based(ca, sk, p) {
        let offset = mul_u64_u64_shr(RATE_OFFSET, ca.rate_bytes, OFFSET_UNIT);
        if prague_half_virtual_rtt_elapsed(ca, sk, p) {
            ca.rate_bytes.wrapping_sub(offset)
        } else {
            ca.rate_bytes.wrapping_add(offset)
        }
    } else {
        // Truncation on purpose: max_t(u32, frac >> 20, in flight).
        let max_inflight = ((ca.frac_cwnd >> CWND_UNIT) as u32).max(sk.packets_in_flight());
        let rate = segment_rate
            .get(sk)
            .wrapping_mul(u64::from(max_inflight))
            .max(MINIMUM_RATE);
        ca.rate_bytes = rate;
        rate
    };
    if sk.snd_cwnd < sk.snd_ssthresh / 2 {
        rate <<= 1;
    }
    rate = rate.min(sk.sk_max_pacing_rate);
    let burst = div_u64(rate, u64::from(sk.mss_to_mtu(sk.mss_cache)));
    // Truncation on purpose: max_t(u32, 1, burst >> shift).
    ca.max_tso_burst = ((burst >> p.config.prague_burst_shift) as u32).max(1);
    sk.sk_pacing_rate = rate;
}
