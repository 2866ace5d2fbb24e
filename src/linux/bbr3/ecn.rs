//! ECN: whether the flow may use it, the EWMA `ecn_alpha` of the CE fraction per
//! round, and STARTUP's exit on rounds with a high CE fraction.

use super::params::{
    BBR_SCALE, BBR_UNIT, ECN_ALPHA_GAIN, ECN_FACTOR, ECN_MAX_RTT_US, ECN_THRESH, FULL_ECN_CNT,
};
use super::startup::bbr_handle_queue_too_high_in_startup;
use super::{Bbr, Bbr3Params};
use crate::linux::bbr::BbrSock;
use crate::linux::tcp::ecn_flags;

/// `bbr_can_use_ecn`: ECN was negotiated and the route is marked as a shallow-threshold
/// (L4S-like) ECN path.
pub(super) fn bbr_can_use_ecn<S: BbrSock>(sk: &S) -> bool {
    sk.ecn_flags() & ecn_flags::TCP_ECN_OK != 0 && sk.ecn_flags() & ecn_flags::TCP_ECN_LOW != 0
}

/// `bbr_update_ecn_alpha` (at a round start): becomes ECN-eligible once min_rtt is at
/// most 5 ms, then folds the round's CE fraction into `ecn_alpha`. Returns the CE
/// ratio (/256), or -1 when not eligible, nothing was delivered, or the counters went
/// backwards (the kernel WARNs there; here the update is skipped the same way).
pub(super) fn bbr_update_ecn_alpha<S: BbrSock>(bbr: &mut Bbr, sk: &S, p: &Bbr3Params) -> i32 {
    if !bbr.ecn_eligible()
        && bbr_can_use_ecn(sk)
        && ECN_FACTOR != 0
        && bbr.min_rtt_us <= ECN_MAX_RTT_US
    {
        bbr.set_ecn_eligible(true);
    }
    // PLB (tcp_plb_enabled) is off, so only an ECN-eligible flow keeps alpha.
    if !bbr.ecn_eligible() {
        return -1;
    }
    let delivered = sk.delivered().wrapping_sub(bbr.alpha_last_delivered) as i32;
    let delivered_ce = sk.delivered_ce().wrapping_sub(bbr.alpha_last_delivered_ce) as i32;
    let Some((alpha, ce_ratio)) = ecn_alpha_next(bbr.ecn_alpha, delivered, delivered_ce) else {
        return -1;
    };
    bbr.ecn_alpha = alpha;
    bbr.alpha_last_delivered = sk.delivered();
    bbr.alpha_last_delivered_ce = sk.delivered_ce();
    // The kernel passes the u64 ratio to a u32 parameter and returns it as an int.
    bbr_check_ecn_too_high_in_startup(bbr, sk, p, ce_ratio as u32);
    ce_ratio as i32
}

/// The EWMA of `bbr_update_ecn_alpha`, shared with `rfc::Bbr3` (any unit): the next
/// `ecn_alpha` (/256, at most 1.0) after a round that delivered `delivered` of which
/// `delivered_ce` were CE-marked, and that round's CE ratio (/256). `None` when
/// nothing was delivered or the counters went backwards.
pub(crate) fn ecn_alpha_next(alpha: u16, delivered: i32, delivered_ce: i32) -> Option<(u16, u64)> {
    if delivered <= 0 || delivered_ce < 0 {
        return None;
    }
    // Linux net/ipv4/tcp_bbr.c bbr_update_ecn_alpha(): ce_ratio = (delivered_ce << 8) / delivered
    let ce_ratio = ((delivered_ce as u64) << BBR_SCALE) / delivered as u64;
    // Linux net/ipv4/tcp_bbr.c bbr_update_ecn_alpha(): alpha = ((256 - g) * alpha >> 8) + (g * ce_ratio >> 8)
    let next = (u64::from((BBR_UNIT - ECN_ALPHA_GAIN) * u32::from(alpha)) >> BBR_SCALE)
        + ((u64::from(ECN_ALPHA_GAIN) * ce_ratio) >> BBR_SCALE);
    Some((next.min(u64::from(BBR_UNIT)) as u16, ce_ratio))
}

/// `bbr_check_ecn_too_high_in_startup`: STARTUP ends after `FULL_ECN_CNT` consecutive
/// rounds whose CE ratio reached `ECN_THRESH`.
pub(super) fn bbr_check_ecn_too_high_in_startup<S: BbrSock>(
    bbr: &mut Bbr,
    sk: &S,
    p: &Bbr3Params,
    ce_ratio: u32,
) {
    if bbr.full_bw_reached() || !bbr.ecn_eligible() {
        return;
    }
    if ce_ratio >= ECN_THRESH {
        // `startup_ecn_rounds:2` wraps at 4 (it never gets there: 2 rounds end STARTUP).
        bbr.startup_ecn_rounds = (bbr.startup_ecn_rounds + 1) & 3;
    } else {
        bbr.startup_ecn_rounds = 0;
    }
    if bbr.startup_ecn_rounds >= FULL_ECN_CNT {
        bbr_handle_queue_too_high_in_startup(bbr, sk, p);
    }
}

/// `bbr_ecn_cut`: the factor (/256) ECN cuts `inflight_lo` by, `1 - alpha/3`.
pub(super) fn bbr_ecn_cut(bbr: &Bbr) -> u32 {
    ecn_cut(bbr.ecn_alpha)
}

/// The arithmetic of `bbr_ecn_cut`, shared with `rfc::Bbr3`: `1 - alpha/3`, /256.
pub(crate) fn ecn_cut(alpha: u16) -> u32 {
    // Linux net/ipv4/tcp_bbr.c bbr_ecn_cut(): BBR_UNIT - (ecn_alpha * ecn_factor >> 8)
    BBR_UNIT - ((u32::from(alpha).min(BBR_UNIT) * ECN_FACTOR) >> BBR_SCALE)
}
