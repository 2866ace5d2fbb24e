//! Prague's window: the per-ACK update, the alpha EWMA and MTU choice, and the
//! reductions on ECN and loss.

use super::div::mul_shr as mul_u64_u64_shr;
use super::div::{div_u64, div_u64_round_closest, div64_u64_round_closest, div64_u64_round_up};
use super::pacing::{
    SegmentRate, prague_ai_ack_increase, prague_frac_cwnd_to_pacing_rate,
    prague_frac_cwnd_to_rate_from, prague_frac_cwnd_to_snd_cwnd, prague_is_rtt_indep,
    prague_pacing_rate_to_frac_cwnd, prague_pacing_rate_to_max_mtu, prague_rate_based,
    prague_target_rtt, prague_valid_mtu, prague_virtual_rtt, tcp_stamp_us_delta,
};
use super::{
    CWND_UNIT, HSRTT_SHIFT, MINIMUM_RATE, MTU_SYS, PRAGUE_ALPHA_BITS, PRAGUE_MAX_ALPHA,
    PRAGUE_SHIFT_G, PragueCa, PragueParams, RTT2SEC_SHIFT,
};
use crate::linux::tcp::{RateSample, TcpSock, tcp_slow_start};

/// Rounds count only after slow start (a wrap to 0 restarts at `prague_rtt_transition`).
// Linux net/ipv4/tcp_prague.c prague_new_round()
pub(crate) fn prague_new_round(ca: &mut PragueCa, sk: &TcpSock, p: &PragueParams) {
    ca.next_seq = sk.snd_nxt;
    ca.old_delivered_ce = sk.delivered_ce;
    ca.old_delivered = sk.delivered;
    if !sk.in_slow_start() {
        ca.round = ca.round.wrapping_add(1);
        if ca.round == 0 {
            ca.round = p.config.prague_rtt_transition;
        }
    }
    prague_ai_ack_increase(ca, sk, p);
}

// Linux net/ipv4/tcp_prague.c prague_cwnd_changed()
fn prague_cwnd_changed(ca: &mut PragueCa, sk: &mut TcpSock, p: &PragueParams) {
    sk.snd_cwnd_stamp = sk.tcp_jiffies32;
    prague_ai_ack_increase(ca, sk, p);
}

/// `prague_update_alpha()`: once CE has been seen, `alpha ← alpha·(1 - g) + g·F`
/// kept upscaled by `1/g` (capped at 1.0), and once RTT-independent outside a loss, the
/// MTU shrinks (or grows back) so that two packets fit in a virtual RTT, rescaling the
/// window, cwnd and ssthresh. Then the slow RTT average and a new round.
// Linux net/ipv4/tcp_prague.c prague_update_alpha()
#[cold]
#[inline(never)]
pub(crate) fn prague_update_alpha(ca: &mut PragueCa, sk: &mut TcpSock, p: &PragueParams) {
    if ca.saw_ce {
        let mut ecn_segs = u64::from(sk.delivered_ce.wrapping_sub(ca.old_delivered_ce));
        if ecn_segs != 0 {
            let acked_segs = sk.delivered.wrapping_sub(ca.old_delivered);
            // Linux prague_update_alpha(): F = (ecn << 24) / max(1, acked)
            ecn_segs = div_u64(ecn_segs << PRAGUE_ALPHA_BITS, u64::from(acked_segs.max(1)));
        }
        let alpha = ca.upscaled_alpha;
        // Linux prague_update_alpha(): alpha - alpha/16 + F, capped at 1.0 upscaled
        let alpha = alpha
            .wrapping_sub(alpha >> PRAGUE_SHIFT_G)
            .wrapping_add(ecn_segs);
        ca.alpha_stamp = sk.tcp_mstamp;
        ca.upscaled_alpha = alpha.min(PRAGUE_MAX_ALPHA << PRAGUE_SHIFT_G);
        if prague_is_rtt_indep(ca, sk, p) && !ca.in_loss {
            prague_resize_mtu(ca, sk, p);
        }
    }
    // Linux prague_update_alpha(): hsrtt += srtt - hsrtt/128
    ca.hsrtt_us = ca
        .hsrtt_us
        .wrapping_add(u64::from(sk.srtt_us))
        .wrapping_sub(ca.hsrtt_us >> HSRTT_SHIFT);
    prague_new_round(ca, sk, p);
}

// Linux net/ipv4/tcp_prague.c prague_update_alpha()
fn prague_resize_mtu(ca: &mut PragueCa, sk: &mut TcpSock, p: &PragueParams) {
    let mtu_used = u64::from(sk.mss_to_mtu(sk.mss_cache));
    // Truncation on purpose: prague_valid_mtu() takes a u32.
    let max_mtu = prague_pacing_rate_to_max_mtu(ca, sk, p) as u32;
    let mtu = u64::from(prague_valid_mtu(ca, sk, max_mtu));
    if mtu_used == mtu {
        return;
    }
    ca.frac_cwnd = div_u64(ca.frac_cwnd.wrapping_mul(mtu_used), mtu);
    sk.mss_cache_set_by_cca = true;
    // mtu is a u32 here (prague_valid_mtu's result).
    sk.sync_mss(mtu as u32);
    let new_cwnd = prague_frac_cwnd_to_snd_cwnd(ca, sk);
    if sk.snd_cwnd != new_cwnd {
        sk.snd_cwnd = new_cwnd;
        // Truncation on purpose: the u64 quotient is stored in the u32 ssthresh.
        sk.snd_ssthresh = div_u64(u64::from(sk.snd_ssthresh).wrapping_mul(mtu_used), mtu) as u32;
        prague_cwnd_changed(ca, sk, p);
    }
}

/// `prague_update_cwnd()`: CE-marked segments give no increase (the first CE mark
/// also halves the window, with `prague_alpha_mode` 0). Unless in a loss or not
/// cwnd-limited, slow start, then additive increase (of the rate in rate mode, of
/// the fractional window otherwise). Finally cwnd steps by one segment towards the
/// fractional window; a step down also lowers ssthresh to cwnd.
///
/// In slow start every ACK with unmarked data rewrites `frac_cwnd = cwnd << 20`,
/// wiping the first-CE halving and any CWR reduction: slow start ends only when an
/// ACK whose segments were all CE-marked (or one in a loss, or not cwnd-limited) steps
/// cwnd down to a lower fractional window. Under sparse random marking that rarely
/// happens, so 0.7 stays in slow start, which its draft does not intend; this is
/// reproduced as the kernel does it (the `ce_random` reference trace).
// Linux net/ipv4/tcp_prague.c prague_update_cwnd()
pub(crate) fn prague_update_cwnd(
    ca: &mut PragueCa,
    sk: &mut TcpSock,
    p: &PragueParams,
    rs: &RateSample,
    segment_rate: &mut SegmentRate,
) {
    let mut acked = i64::from(rs.acked_sacked);
    if rs.ece_delta != 0 {
        if !ca.saw_ce && !ca.alpha_mode {
            ca.frac_cwnd = ca.frac_cwnd.wrapping_add(1) >> 1;
        }
        ca.saw_ce = true;
        acked -= i64::from(rs.ece_delta);
    }
    if acked > 0 && !ca.in_loss && sk.tcp_is_cwnd_limited() {
        if sk.in_slow_start() {
            // acked is in 1..=u32::MAX here.
            acked = i64::from(tcp_slow_start(sk, acked as u32));
            ca.frac_cwnd = u64::from(sk.snd_cwnd) << CWND_UNIT;
            if acked == 0 {
                prague_cwnd_changed(ca, sk, p);
                return;
            }
        }
        // acked is positive: the kernel's s64 to u64 conversion keeps it.
        let acked = acked as u64;
        if prague_rate_based(ca, sk, p) {
            prague_rate_increase(ca, sk, p, acked);
        } else {
            prague_window_increase(ca, sk, acked, segment_rate);
        }
    }
    // Linux prague_update_cwnd() adjust: one segment per ACK towards the window
    let new_cwnd = prague_frac_cwnd_to_snd_cwnd(ca, sk);
    if sk.snd_cwnd > new_cwnd {
        sk.snd_cwnd -= 1;
        sk.snd_ssthresh = sk.snd_cwnd;
        prague_cwnd_changed(ca, sk, p);
    } else if sk.snd_cwnd < new_cwnd {
        sk.snd_cwnd += 1;
        prague_cwnd_changed(ca, sk, p);
    }
}

/// Rate-mode additive increase: the rate grows by one `MTU_SYS` per virtual RTT,
/// spread over the window's ACKs; the window follows the rate.
// Linux net/ipv4/tcp_prague.c prague_update_cwnd()
fn prague_rate_increase(ca: &mut PragueCa, sk: &TcpSock, p: &PragueParams, acked: u64) {
    let mtu_used = u64::from(sk.mss_to_mtu(sk.mss_cache));
    let vrtt = prague_virtual_rtt(sk, p);
    // Linux prague_update_cwnd(): ((acked * MTU_SYS) << 23) / vrtt
    let increase = div_u64(acked.wrapping_mul(MTU_SYS) << RTT2SEC_SHIFT, vrtt);
    let divisor = mtu_used << RTT2SEC_SHIFT;
    let new_cwnd = div64_u64_round_up(ca.rate_bytes.wrapping_mul(vrtt), divisor);
    if new_cwnd != 0 {
        // DIV_U64_ROUND_CLOSEST truncates new_cwnd to u32 (kernel semantics).
        ca.rate_bytes = ca
            .rate_bytes
            .wrapping_add(div_u64_round_closest(increase, new_cwnd));
    }
    // The kernel adds `acked` segments, unscaled, to the 2^20-scaled window here.
    ca.frac_cwnd = ca
        .frac_cwnd
        .wrapping_add(acked)
        .max(prague_pacing_rate_to_frac_cwnd(ca, sk));
}

/// Window-mode additive increase: `ai_ack_increase` per ACKed segment over the
/// window (scaled to `MTU_SYS`-sized packets), at least `acked` units; the rate follows.
// Linux net/ipv4/tcp_prague.c prague_update_cwnd()
fn prague_window_increase(
    ca: &mut PragueCa,
    sk: &TcpSock,
    acked: u64,
    segment_rate: &mut SegmentRate,
) {
    let mut increase = acked.wrapping_mul(ca.ai_ack_increase);
    let new_cwnd = ca.frac_cwnd;
    if new_cwnd != 0 {
        increase = div64_u64_round_closest(increase << CWND_UNIT, new_cwnd);
    }
    let mtu = u64::from(sk.mss_to_mtu(sk.mss_cache));
    increase = div_u64(increase.wrapping_mul(MTU_SYS), mtu);
    ca.frac_cwnd = ca.frac_cwnd.wrapping_add(acked.max(increase));
    // In window mode (`cwnd_mode` clear, which nothing changes before the pacing
    // update) the rate set here is read by no one and overwritten by
    // `prague_update_pacing_rate()`'s window branch in the same ACK, so it is skipped.
    if ca.cwnd_mode {
        let rate = prague_frac_cwnd_to_rate_from(ca, segment_rate.get(sk));
        ca.rate_bytes = ca.rate_bytes.wrapping_add(acked).max(rate);
    }
}

/// `prague_enter_loss()`: remember cwnd and rate for undo, halve the window (or the
/// rate in rate mode), and hold growth until the state is Open again.
// Linux net/ipv4/tcp_prague.c prague_enter_loss()
pub(crate) fn prague_enter_loss(ca: &mut PragueCa, sk: &TcpSock, p: &PragueParams) {
    ca.loss_cwnd = sk.snd_cwnd;
    ca.loss_rate_bytes = ca.rate_bytes;
    if prague_rate_based(ca, sk, p) {
        ca.rate_bytes -= ca.rate_bytes >> 1;
        ca.frac_cwnd = prague_pacing_rate_to_frac_cwnd(ca, sk);
    } else {
        ca.frac_cwnd -= ca.frac_cwnd >> 1;
        ca.rate_bytes = prague_frac_cwnd_to_pacing_rate(ca, sk);
    }
    ca.in_loss = true;
}

/// `prague_enter_cwr()`: reduce by `alpha/2` (rounded to nearest), at most once per
/// target RTT once RTT-independent.
// Linux net/ipv4/tcp_prague.c prague_enter_cwr()
pub(crate) fn prague_enter_cwr(ca: &mut PragueCa, sk: &TcpSock, p: &PragueParams) {
    if prague_is_rtt_indep(ca, sk, p)
        && (prague_target_rtt(p) >> 3) > tcp_stamp_us_delta(sk.tcp_mstamp, ca.cwr_stamp)
    {
        return;
    }
    ca.cwr_stamp = sk.tcp_mstamp;
    let alpha = ca.upscaled_alpha >> PRAGUE_SHIFT_G;
    if prague_rate_based(ca, sk, p) {
        let reduction = mul_u64_u64_shr(ca.rate_bytes, alpha, PRAGUE_ALPHA_BITS + 1);
        ca.rate_bytes = ca.rate_bytes.wrapping_sub(reduction).max(MINIMUM_RATE);
        ca.frac_cwnd = prague_pacing_rate_to_frac_cwnd(ca, sk);
    } else {
        // Linux prague_enter_cwr(): (alpha * frac + 1/2) >> 25
        let reduction = alpha
            .wrapping_mul(ca.frac_cwnd)
            .wrapping_add(PRAGUE_MAX_ALPHA)
            >> (PRAGUE_ALPHA_BITS + 1);
        ca.frac_cwnd = ca.frac_cwnd.wrapping_sub(reduction);
        ca.rate_bytes = prague_frac_cwnd_to_pacing_rate(ca, sk);
    }
}

/// `prague_cwnd_undo()`: the loss was spurious; growth resumes, the rate comes back
/// (or keeps what it gained since), the window follows the rate, and cwnd returns to
/// the larger of now and before the loss.
// Linux net/ipv4/tcp_prague.c prague_cwnd_undo()
pub(crate) fn prague_cwnd_undo(ca: &mut PragueCa, sk: &TcpSock) -> u32 {
    ca.in_loss = false;
    ca.rate_bytes = ca.rate_bytes.max(ca.loss_rate_bytes);
    ca.frac_cwnd = prague_pacing_rate_to_frac_cwnd(ca, sk);
    ca.loss_cwnd.max(sk.snd_cwnd)
}
