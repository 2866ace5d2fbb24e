//! The data-rate model (sections: see the table in `mod.rs`).

use super::Bbr3;
use super::params::BW_UNIT;
use crate::linux::bbr3::shared::{advance_max_filter, bw_sample_scaled, take_max_sample};
use crate::linux::tcp::before;

impl Bbr3 {
    /// `RS.delivery_rate` (§4.1.2.3): `RS.delivered / RS.interval` in bytes/µs << 16,
    /// rounded up (the kernel's `bbr_calculate_bw_sample`); 0 without a valid sample.
    /// The kernel keeps the low 32 bits of the quotient; here it saturates.
    pub(super) fn delivery_rate(&self) -> u32 {
        // Linux net/ipv4/tcp_bbr.c bbr_calculate_bw_sample(), at BW_UNIT = 2^16 bytes
        let bw = bw_sample_scaled(self.rs.delivered, self.rs.interval_us, BW_UNIT);
        bw.min(u64::from(u32::MAX)) as u32
    }

    /// Whether this ACK delivered data with a snapshot (`RS.prior_time != 0`).
    pub(super) fn ack_has_data(&self) -> bool {
        self.rs.delivered >= 0 && self.rs.prior_mstamp != 0
    }

    /// `UpdateRound()` (§5.5.1): a round ends when an ACK covers a packet sent after
    /// the previous round's end was delivered. The kernel also asks for a valid rate
    /// sample (`rs->interval_us > 0`); the draft only for delivered data.
    pub(super) fn update_round(&mut self) {
        self.m.round_start = false;
        // draft-ietf-ccwg-bbr §5.5.1 UpdateRound(): P.delivered >= BBR.next_round_delivered
        if self.ack_has_data() && !before(self.rs.prior_delivered, self.m.next_round_delivered) {
            self.start_round();
            // draft-ietf-ccwg-bbr §5.5.1 UpdateRound(): round_count++, rounds_since_probe_up++
            self.m.round_count = self.m.round_count.saturating_add(1);
            self.m.rounds_since_probe_up = self.m.rounds_since_probe_up.saturating_add(1);
            self.m.round_start = true;
        }
    }

    /// `StartRound()` (§5.5.1).
    pub(super) fn start_round(&mut self) {
        self.m.next_round_delivered = self.s.delivered;
    }

    /// `UpdateMaxBw()` (§5.5.5): an app-limited sample counts only if it is no lower
    /// than `BBR.max_bw` (§5.5.4).
    pub(super) fn update_max_bw(&mut self, rate: u32) {
        self.update_round();
        if rate > 0 && (rate >= self.max_bw() || !self.rs.is_app_limited) {
            // Linux net/ipv4/tcp_bbr.c bbr_take_max_bw_sample(): the current cycle's slot
            take_max_sample(&mut self.m.max_bw_filter, rate);
        }
    }

    /// `AdvanceMaxBwFilter()` (§5.5.6): `BBR.cycle_count++`, as the kernel's two slots
    /// (an empty current slot keeps the old one: the kernel's, not in the draft).
    pub(super) fn advance_max_bw_filter(&mut self) {
        // Linux net/ipv4/tcp_bbr.c bbr_advance_max_bw_filter()
        advance_max_filter(&mut self.m.max_bw_filter);
    }

    /// `UpdateLatestDeliverySignals()` (§5.5.10.3), near the start of the ACK.
    pub(super) fn update_latest_delivery_signals(&mut self, rate: u32) {
        self.m.loss_round_start = false;
        if !self.ack_has_data() {
            return;
        }
        // draft-ietf-ccwg-bbr §5.5.10.3 UpdateLatestDeliverySignals(): 1-round maxima of rate and volume
        self.m.bw_latest = self.m.bw_latest.max(rate);
        self.m.inflight_latest = self.m.inflight_latest.max(self.rs.delivered as u32);
        // draft-ietf-ccwg-bbr §5.5.10.3: RS.prior_delivered >= BBR.loss_round_delivered
        if !before(self.rs.prior_delivered, self.m.loss_round_delivered) {
            self.m.loss_round_delivered = self.s.delivered;
            self.m.loss_round_start = true;
        }
    }

    /// `AdvanceLatestDeliverySignals()` (§5.5.10.3), near the end of the ACK.
    pub(super) fn advance_latest_delivery_signals(&mut self, rate: u32) {
        if self.m.loss_round_start {
            // draft-ietf-ccwg-bbr §5.5.10.3 AdvanceLatestDeliverySignals(): restart from this sample
            self.m.bw_latest = rate;
            self.m.inflight_latest = self.rs.delivered.max(0) as u32;
        }
    }

    /// `BoundBWForModel()` (§5.5.10.3): `BBR.bw = min(BBR.max_bw, BBR.bw_shortterm)`.
    pub(super) fn bound_bw_for_model(&mut self) {
        // draft-ietf-ccwg-bbr §5.5.10.3 BoundBWForModel(): BBR.bw = min(BBR.max_bw, BBR.bw_shortterm)
        self.m.bw = self.max_bw().min(self.m.bw_shortterm);
    }
}
