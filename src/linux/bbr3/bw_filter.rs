//! Bandwidth: the delivery-rate sample of one ACK, packet-timed rounds, and the
//! two-slot max filter `bw_hi` that PROBE_BW advances once per cycle.

use super::params::{BBR_SCALE, BW_UNIT};
use super::{Bbr, Sample};
use crate::linux::bbr::BbrSock;

/// The kernel's wrapping sequence comparisons, the glue's one copy.
pub(super) use crate::linux::tcp::{after, before};

impl Bbr {
    /// `bbr_max_bw`: the windowed max bandwidth, the larger `bw_hi` slot.
    pub const fn max_bw(&self) -> u32 {
        let [a, b] = self.bw_hi;
        if a > b { a } else { b }
    }

    /// `bbr_bw`: the bandwidth BBR paces at, `bbr_max_bw` bounded by `bw_lo`.
    pub const fn bw(&self) -> u32 {
        let max = self.max_bw();
        if max < self.bw_lo { max } else { self.bw_lo }
    }

    /// `bbr_extra_acked`: the larger of the two ACK-aggregation windows.
    pub const fn extra_acked_max(&self) -> u16 {
        let [a, b] = self.extra_acked;
        if a > b { a } else { b }
    }

    /// The current ACK-aggregation slot, `extra_acked[extra_acked_win_idx]`.
    pub(super) const fn extra_acked_current(&self) -> u16 {
        let [a, b] = self.extra_acked;
        if self.extra_acked_win_idx & 1 == 0 {
            a
        } else {
            b
        }
    }

    /// Sets the current ACK-aggregation slot.
    pub(super) fn set_extra_acked_current(&mut self, value: u16) {
        let [a, b] = &mut self.extra_acked;
        if self.extra_acked_win_idx & 1 == 0 {
            *a = value;
        } else {
            *b = value;
        }
    }
}

/// `bbr_update_round_start`: a round ends when an ACK's sample was sent after the
/// previous round's end was delivered. Returns the packets delivered in the round.
pub(super) fn bbr_update_round_start<S: BbrSock>(bbr: &mut Bbr, sk: &S, rs: &Sample) -> u32 {
    // The kernel clears `round_start` first and sets it on a new round: one write.
    let round_start = rs.interval_us > 0 && !before(rs.prior_delivered, bbr.next_rtt_delivered);
    bbr.set_round_start(round_start);
    if round_start {
        let round_delivered = sk.delivered().wrapping_sub(bbr.next_rtt_delivered);
        bbr.next_rtt_delivered = sk.delivered();
        return round_delivered;
    }
    0
}

/// `bbr_calculate_bw_sample`: `delivered / interval`, rounded up, in packets/µs << 24;
/// 0 for an invalid sample. The kernel's `bbr_context.sample_bw` is a `u32`, so only the
/// low 32 bits of the quotient survive. A negative `delivered` with a valid interval
/// (a kernel WARN) also gives 0.
pub(super) fn bbr_calculate_bw_sample(rs: &Sample) -> u32 {
    bw_sample_scaled(rs.delivered, rs.interval_us, BW_UNIT) as u32
}

/// The arithmetic of `bbr_calculate_bw_sample`, shared with `rfc::Bbr3` (which counts
/// bytes at its own `unit`): `ceil(delivered * unit / interval)`, 0 for an invalid
/// sample (interval not positive, or delivered negative). The product wraps as the
/// kernel's u64 does.
pub(crate) fn bw_sample_scaled(delivered: i32, interval_us: i64, unit: u64) -> u64 {
    if interval_us <= 0 || delivered < 0 {
        return 0;
    }
    // Linux net/ipv4/tcp_bbr.c bbr_calculate_bw_sample(): DIV_ROUND_UP_ULL(delivered * BW_UNIT, interval_us)
    (delivered as u64)
        .wrapping_mul(unit)
        .div_ceil(interval_us as u64)
}

/// `bbr_take_max_bw_sample`: a sample enters the current `bw_hi` slot.
pub(super) fn bbr_take_max_bw_sample(bbr: &mut Bbr, bw: u32) {
    take_max_sample(&mut bbr.bw_hi, bw);
}

/// The two-slot max filter of `bbr_take_max_bw_sample`, shared with `rfc::Bbr3`: a
/// sample enters the current (second) slot.
pub(crate) fn take_max_sample(slots: &mut [u32; 2], bw: u32) {
    let [_, current] = slots;
    *current = (*current).max(bw);
}

/// `bbr_advance_max_bw_filter`: the current slot becomes the old one, unless it holds
/// no sample (then the old window is kept).
pub(super) fn bbr_advance_max_bw_filter(bbr: &mut Bbr) {
    advance_max_filter(&mut bbr.bw_hi);
}

/// The advance of `bbr_advance_max_bw_filter`, shared with `rfc::Bbr3`: the current
/// slot becomes the old one, unless it holds no sample (then the old one stays).
pub(crate) fn advance_max_filter(slots: &mut [u32; 2]) {
    let [old, current] = slots;
    if *current == 0 {
        return;
    }
    *old = *current;
    *current = 0;
}

/// `bbr_update_latest_delivery_signals`: the latest round's max rate and volume, and
/// whether this ACK starts a new loss round. Returns whether the sample is valid.
pub(super) fn bbr_update_latest_delivery_signals<S: BbrSock>(
    bbr: &mut Bbr,
    sk: &S,
    rs: &Sample,
    sample_bw: u32,
) -> bool {
    // The kernel clears `loss_round_start` first and sets it on a new loss round:
    // one write.
    let valid = rs.interval_us > 0 && rs.acked_sacked != 0;
    let loss_round_start = valid && !before(rs.prior_delivered, bbr.loss_round_delivered);
    bbr.set_loss_round_start(loss_round_start);
    if !valid {
        return false;
    }
    bbr.bw_latest = bbr.bw_latest.max(sample_bw);
    // `max_t(u32, ...)`: a delivered count is compared as u32.
    bbr.inflight_latest = bbr.inflight_latest.max(rs.delivered as u32);
    if loss_round_start {
        bbr.loss_round_delivered = sk.delivered();
    }
    true
}

/// `bbr_advance_latest_delivery_signals`: at a loss-round start the latest round's
/// filters restart from this sample. (The kernel keeps them on an ACK of a TLP
/// retransmission; this model has no TLP.)
pub(super) fn bbr_advance_latest_delivery_signals(bbr: &mut Bbr, rs: &Sample, sample_bw: u32) {
    if bbr.loss_round_start() {
        bbr.bw_latest = sample_bw;
        bbr.inflight_latest = rs.delivered as u32;
    }
}

/// Scales `value` by `fraction`/256, in u64 as the kernel does, keeping the low 32 bits.
pub(crate) const fn scale(value: u32, fraction: u32) -> u32 {
    ((value as u64 * fraction as u64) >> BBR_SCALE) as u32
}
