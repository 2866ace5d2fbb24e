//! Loss and undo (sections: see the table in `mod.rs`).

use super::{Bbr3, Bbr3Params, State};
use crate::linux::bbr3::shared::loss_lower_bound;
use crate::linux::bbr3::shared::{inflight_at_loss, inflight_hi_when_too_high, loss_too_high};
use crate::linux::tcp::RandomSource;
use crate::linux::tcp::rate::TxSnapshot;
use crate::time::Instant;

impl Bbr3 {
    /// `NoteLoss()` (§5.5.10.2): the first loss of a round saves the state for undo.
    fn note_loss(&mut self) {
        if !self.m.is_loss_in_round {
            self.m.loss_round_delivered = self.s.delivered;
            self.save_state_upon_loss();
        }
        self.m.is_loss_in_round = true;
    }

    /// `HandleLostPacket(P)` (§5.5.10.2), after `C.lost` counted the `size` bytes.
    pub(super) fn handle_lost_packet<R: RandomSource>(
        &mut self,
        p: &Bbr3Params,
        now: Instant,
        tx: &TxSnapshot,
        size: u32,
        rand: &mut R,
    ) {
        self.note_loss();
        if !self.m.is_bw_probe_sample {
            return;
        }
        let tx_in_flight = tx.in_flight();
        // draft-ietf-ccwg-bbr §5.5.10.2: RS.lost = C.lost - P.lost
        let lost = self.s.lost.wrapping_sub(tx.lost) as i32;
        if self.inflight_too_high_for(p, lost, tx_in_flight) {
            // draft-ietf-ccwg-bbr §5.5.10.2 InflightAtLoss(): the kernel's bbr_inflight_hi_from_lost_skb()
            let at_loss = inflight_at_loss(tx_in_flight, lost, size);
            self.handle_inflight_too_high(p, now, tx.is_app_limited(), at_loss, rand);
        }
    }

    /// `IsInflightTooHigh()` (§5.5.10.2) for this ACK's sample.
    pub(super) fn is_inflight_too_high(&self, p: &Bbr3Params) -> bool {
        self.inflight_too_high_for(p, self.rs.lost, self.rs.tx_in_flight)
    }

    /// `IsInflightTooHigh()` for `lost` bytes out of `tx_in_flight`: more than 2 %
    /// (the kernel's arithmetic), or any loss without selective ACKs.
    fn inflight_too_high_for(&self, p: &Bbr3Params, lost: i32, tx_in_flight: u32) -> bool {
        // draft-ietf-ccwg-bbr §5.5.10.2 IsInflightTooHigh(): RS.lost > RS.tx_in_flight * LossThresh
        loss_too_high(lost, tx_in_flight) || (lost > 0 && !p.config().has_selective_acks)
    }

    /// `HandleInflightTooHigh()` (§5.5.10.2): once per probe, cut
    /// `BBR.inflight_longterm` to the flight at the loss (at least `TargetInflight()` ×
    /// `BBR.Beta`) unless app-limited, and end ProbeBW_UP.
    pub(super) fn handle_inflight_too_high<R: RandomSource>(
        &mut self,
        p: &Bbr3Params,
        now: Instant,
        is_app_limited: bool,
        tx_in_flight: u32,
        rand: &mut R,
    ) {
        self.m.prev_probe_too_high = true;
        self.m.is_bw_probe_sample = false;
        if !is_app_limited {
            // Linux net/ipv4/tcp_bbr.c bbr_handle_inflight_too_high(): max(tx_in_flight, target * (1 - beta))
            let cut = inflight_hi_when_too_high(tx_in_flight, self.target_inflight(p));
            self.m.inflight_longterm = cut.min(u32::MAX - 1);
        }
        if self.m.state == State::ProbeBwUp {
            self.m.undo_state = Some(State::ProbeBwUp);
            self.start_probe_bw_down(now, rand);
        }
    }

    /// `UpdateCongestionSignals()` (§5.5.10.3): the max filter, then once per loss
    /// round the short-term model.
    pub(super) fn update_congestion_signals(&mut self, p: &Bbr3Params, rate: u32) {
        self.update_max_bw(rate);
        if self.m.round_start {
            self.update_ecn_alpha(p);
        }
        if !self.m.loss_round_start {
            return;
        }
        self.adapt_lower_bounds_from_congestion();
        self.m.is_loss_in_round = false;
        self.m.ecn_in_round = false;
    }

    /// `AdaptLowerBoundsFromCongestion()` (§5.5.10.3), plus the kernel's ECN cut of
    /// `inflight_shortterm` (`bbr_adapt_lower_bounds`; see `ecn.rs`).
    fn adapt_lower_bounds_from_congestion(&mut self) {
        if self.m.state.is_probing_bw() {
            return;
        }
        let ecn_cap = self.ecn_lower_bound();
        if self.m.is_loss_in_round {
            self.init_lower_bounds();
            // draft-ietf-ccwg-bbr §5.5.10.3 LossLowerBounds(): max(latest, Beta * shortterm)
            self.m.bw_shortterm = loss_lower_bound(self.m.bw_latest, self.m.bw_shortterm);
            self.m.inflight_shortterm =
                loss_lower_bound(self.m.inflight_latest, self.m.inflight_shortterm);
        }
        // Linux net/ipv4/tcp_bbr.c bbr_adapt_lower_bounds(): inflight_lo = min(inflight_lo, ecn_inflight_lo)
        self.m.inflight_shortterm = self.m.inflight_shortterm.min(ecn_cap);
    }

    /// `InitLowerBounds()` (§5.5.10.3).
    pub(super) fn init_lower_bounds(&mut self) {
        if self.m.bw_shortterm == u32::MAX {
            // draft-ietf-ccwg-bbr §5.5.10.3 InitLowerBounds(): bw_shortterm = max_bw, inflight_shortterm = cwnd
            self.m.bw_shortterm = self.max_bw();
        }
        if self.m.inflight_shortterm == u32::MAX {
            self.m.inflight_shortterm = self.cwnd;
        }
    }

    /// `ResetShortTermModel()` (§5.5.10.3).
    pub(super) fn reset_short_term_model(&mut self) {
        self.m.bw_shortterm = u32::MAX;
        self.m.inflight_shortterm = u32::MAX;
    }

    /// `ResetCongestionSignals()` (§5.5.10.3).
    pub(super) fn reset_congestion_signals(&mut self) {
        self.m.is_loss_in_round = false;
        self.m.ecn_in_round = false;
        self.m.bw_latest = 0;
        self.m.inflight_latest = 0;
    }

    /// `SaveStateUponLoss()` (§5.5.11.1).
    pub(super) fn save_state_upon_loss(&mut self) {
        self.save_cwnd();
        self.m.undo_state = None;
        self.m.undo_bw_shortterm = self.m.bw_shortterm;
        self.m.undo_inflight_shortterm = self.m.inflight_shortterm;
        self.m.undo_inflight_longterm = self.m.inflight_longterm;
    }

    /// `HandleSpuriousLossDetection()` (§5.5.11.2).
    pub(super) fn handle_spurious_loss_detection(&mut self) {
        self.restore_cwnd();
        self.m.is_loss_in_round = false;
        self.reset_full_bw();
        // draft-ietf-ccwg-bbr §5.5.11.2 HandleSpuriousLossDetection(): the model at least as saved
        self.m.bw_shortterm = self.m.bw_shortterm.max(self.m.undo_bw_shortterm);
        self.m.inflight_shortterm = self
            .m
            .inflight_shortterm
            .max(self.m.undo_inflight_shortterm);
        self.m.inflight_longterm = self.m.inflight_longterm.max(self.m.undo_inflight_longterm);
        match self.m.undo_state {
            Some(State::Startup) if self.m.state != State::Startup => {
                self.m.full_bw_reached = false;
                if self.m.state != State::ProbeRtt {
                    self.enter_startup();
                }
            }
            Some(State::ProbeBwUp)
                if self.m.state != State::ProbeBwUp && self.m.state != State::ProbeRtt =>
            {
                self.start_probe_bw_refill();
            }
            _ => {}
        }
        self.m.undo_state = None;
    }

    /// `SaveCwnd()` (§5.6.4.4): the last cwnd unmodulated by recovery or ProbeRTT.
    pub(super) fn save_cwnd(&mut self) {
        if !self.in_recovery && self.m.state != State::ProbeRtt {
            self.m.prior_cwnd = self.cwnd;
        } else {
            // draft-ietf-ccwg-bbr §5.6.4.4 SaveCwnd(): in recovery or ProbeRTT keep the larger
            self.m.prior_cwnd = self.m.prior_cwnd.max(self.cwnd);
        }
    }

    /// `RestoreCwnd()` (§5.6.4.4).
    pub(super) fn restore_cwnd(&mut self) {
        // draft-ietf-ccwg-bbr §5.6.4.4 RestoreCwnd(): C.cwnd = max(C.cwnd, BBR.prior_cwnd)
        self.cwnd = self.cwnd.max(self.m.prior_cwnd);
    }
}
