//! What a classic-driver flow decided, for an [`Observer`]: the snapshot the reducing
//! calls report from, the observed ACK (which wraps the plain one), and
//! [`ObservableController`] for [`Classic`] and [`BoundClassic`].

use super::{Classic, ClassicState};
use crate::controller::{AckEvent, CongestionController, EcnEvent, LossEvent};
use crate::observe::{ExitDetector, ObservableController, Observer, PhaseSnapshot};
use crate::rfc::adjustment::WindowAdjustment;
use crate::rfc::bound::BoundClassic;
use crate::rfc::config::RfcParams;
use crate::rfc::undo::UndoStorage;
use crate::time::Instant;
use core::borrow::Borrow;

impl<W: WindowAdjustment, U: UndoStorage<W>> ClassicState<W, U> {
    /// Phase, cwnd and ssthresh (`u64::MAX`: none yet) now.
    #[inline(always)]
    pub(super) const fn snapshot(&self) -> PhaseSnapshot {
        PhaseSnapshot {
            phase: self.phase,
            cwnd: self.cwnd,
            ssthresh: self.ssthresh,
        }
    }

    /// Which delay detector ended the initial slow start: HyStart++ (RFC 9406) or one
    /// of Linux HyStart's two tests; `None` while none has, and for a flow whose slow
    /// start ended otherwise (ssthresh reached, a loss, a CE mark).
    pub const fn slow_start_detector(&self) -> Option<ExitDetector> {
        self.slow_start_detector
    }

    /// [`on_ack`](Self::on_ack), reporting to `o` what it decided, read from the state
    /// before and after the plain ACK.
    #[inline(always)]
    pub fn on_ack_observed<O: Observer>(
        &mut self,
        p: &RfcParams,
        now: Instant,
        ack: &AckEvent,
        o: &mut O,
    ) {
        // DCTCP and Prague: the ACK's CE count reduces first, reported to `o`; the rest
        // of the ACK then runs without it.
        let plain;
        let ack = if W::READS_ACK_CE && ack.ce_delta > 0 {
            self.on_ack_ce(p, now, ack, o);
            plain = AckEvent {
                ce_delta: 0,
                ..*ack
            };
            &plain
        } else {
            ack
        };
        let before = self.snapshot();
        let detector_before = self.slow_start_detector;
        self.on_ack(p, now, ack);
        self.report_ack(&before, detector_before, now, o);
    }

    /// After an ACK that found the flow as `before` (with `detector_before`), report
    /// what it decided. Every decision an ACK makes changes the phase: the common ACK
    /// only compares.
    #[inline(always)]
    fn report_ack<O: Observer>(
        &self,
        before: &PhaseSnapshot,
        detector_before: Option<ExitDetector>,
        now: Instant,
        o: &mut O,
    ) {
        if self.phase != before.phase {
            self.report_phase_change(before, detector_before, now, o);
        }
    }

    /// [`report_ack`](Self::report_ack) once the phase changed.
    #[cold]
    #[inline(never)]
    fn report_phase_change<O: Observer>(
        &self,
        before: &PhaseSnapshot,
        detector_before: Option<ExitDetector>,
        now: Instant,
        o: &mut O,
    ) {
        // A detector exits once in a flow's life: one there now and not before fired now.
        let detector = match detector_before {
            None => self.slow_start_detector,
            Some(_) => None,
        };
        before.report_ack(&self.snapshot(), detector, now, o);
    }
}

impl<W: WindowAdjustment, P: Borrow<RfcParams>> ObservableController for Classic<W, P> {
    // Always inlined: a stack's ACK loop keeps the flow in registers, as with `on_ack`.
    #[inline(always)]
    fn on_ack_observed<O: Observer>(&mut self, now: Instant, ack: &AckEvent, observer: &mut O) {
        // DCTCP and Prague: the ACK's CE count reduces first, reported to the observer;
        // the rest of the ACK then runs without it.
        let plain;
        let ack = if W::READS_ACK_CE && ack.ce_delta > 0 {
            self.state
                .on_ack_ce(self.params.borrow(), now, ack, observer);
            plain = AckEvent {
                ce_delta: 0,
                ..*ack
            };
            &plain
        } else {
            ack
        };
        let before = self.state.snapshot();
        let detector_before = self.state.slow_start_detector;
        // The plain ACK, as the trait's `on_ack` runs it.
        CongestionController::on_ack(self, now, ack);
        self.state
            .report_ack(&before, detector_before, now, observer);
    }

    fn on_loss_observed<O: Observer>(&mut self, now: Instant, loss: &LossEvent, observer: &mut O) {
        self.state
            .on_loss_observed(self.params.borrow(), now, loss, observer)
    }

    fn on_ecn_observed<O: Observer>(&mut self, now: Instant, ecn: &EcnEvent, observer: &mut O) {
        self.state
            .on_ecn_observed(self.params.borrow(), now, ecn, observer)
    }

    fn on_retransmission_timeout_observed<O: Observer>(&mut self, now: Instant, observer: &mut O) {
        self.state
            .on_retransmission_timeout_observed(self.params.borrow(), now, observer)
    }

    fn on_spurious_congestion_observed<O: Observer>(&mut self, now: Instant, observer: &mut O) {
        self.state.on_spurious_congestion_observed(now, observer)
    }
}

impl<W: WindowAdjustment, P> Classic<W, P> {
    /// Which delay detector ended the initial slow start
    /// ([`ClassicState::slow_start_detector`]).
    pub const fn slow_start_detector(&self) -> Option<ExitDetector> {
        self.state.slow_start_detector
    }
}

impl<W: WindowAdjustment, U: UndoStorage<W>> ObservableController for BoundClassic<'_, W, U> {
    #[inline]
    fn on_ack_observed<O: Observer>(&mut self, now: Instant, ack: &AckEvent, observer: &mut O) {
        let (state, params) = self.parts_mut();
        state.on_ack_observed(params, now, ack, observer)
    }

    fn on_loss_observed<O: Observer>(&mut self, now: Instant, loss: &LossEvent, observer: &mut O) {
        let (state, params) = self.parts_mut();
        state.on_loss_observed(params, now, loss, observer)
    }

    fn on_ecn_observed<O: Observer>(&mut self, now: Instant, ecn: &EcnEvent, observer: &mut O) {
        let (state, params) = self.parts_mut();
        state.on_ecn_observed(params, now, ecn, observer)
    }

    fn on_retransmission_timeout_observed<O: Observer>(&mut self, now: Instant, observer: &mut O) {
        let (state, params) = self.parts_mut();
        state.on_retransmission_timeout_observed(params, now, observer)
    }

    fn on_spurious_congestion_observed<O: Observer>(&mut self, now: Instant, observer: &mut O) {
        let (state, _) = self.parts_mut();
        state.on_spurious_congestion_observed(now, observer)
    }
}
