//! [`ObservableController`] for the 2.6.35 profile. The era's code is left as it is:
//! every decision is read from the flow before and after the plain call, which decides
//! by the same tests (`sent_before_recovery`, the CA state, the undo marker) read here
//! beforehand.
//!
//! Not reported: the era's `tcp_moderate_cwnd` on an ACK that leaves Loss or Disorder,
//! which may cut cwnd (to the flight plus `reordering`) and with it put the flow back
//! in slow start; it is burst protection, not a congestion decision.

use core::borrow::Borrow;

use super::config::TCP_INFINITE_SSTHRESH_2635;
use super::flow::Cubic;
use super::hystart::HystartExit2635;
use super::params::Linux2635Params;
use crate::controller::{AckEvent, CongestionController, EcnEvent, LossEvent};
use crate::linux::CaState;
use crate::observe::{ExitDetector, ObservableController, Observer, PhaseSnapshot, ReductionCause};
use crate::time::Instant;

impl<P: Borrow<Linux2635Params>> Cubic<P> {
    /// Phase, cwnd and ssthresh (`u64::MAX` for the kernel's "none yet").
    fn snapshot(&self) -> PhaseSnapshot {
        let s = self.state.ssthresh;
        PhaseSnapshot {
            phase: self.phase(),
            cwnd: u64::from(self.state.cwnd),
            ssthresh: if s >= TCP_INFINITE_SSTHRESH_2635 {
                u64::MAX
            } else {
                u64::from(s)
            },
        }
    }

    /// Runs `event`, reporting a reduction for `cause` if there is one.
    fn reduce_observed<O: Observer>(
        &mut self,
        cause: Option<ReductionCause>,
        now: Instant,
        o: &mut O,
        event: impl FnOnce(&mut Self),
    ) {
        let before = self.snapshot();
        event(self);
        if let Some(cause) = cause {
            before.report_reduction(&self.snapshot(), cause, now, o);
        }
    }
}

impl<P: Borrow<Linux2635Params>> ObservableController for Cubic<P> {
    fn on_ack_observed<O: Observer>(&mut self, now: Instant, ack: &AckEvent, observer: &mut O) {
        let before = self.snapshot();
        let exit_before = self.hystart_exit;
        self.on_ack(now, ack);
        // Both tests firing on one sample: the ACK train is the one the era tests first.
        let detector = match (exit_before, self.hystart_exit) {
            (None, Some(HystartExit2635::AckTrain | HystartExit2635::Both)) => {
                Some(ExitDetector::HystartAckTrain)
            }
            (None, Some(HystartExit2635::DelayIncrease)) => Some(ExitDetector::HystartDelay),
            _ => None,
        };
        before.report_ack(&self.snapshot(), detector, now, observer);
    }

    fn on_loss_observed<O: Observer>(&mut self, now: Instant, loss: &LossEvent, observer: &mut O) {
        // The tests of `on_loss`: persistent congestion always acts, then `loss()`
        // reduces every time it is called.
        let cause = if loss.persistent_congestion {
            Some(ReductionCause::PersistentCongestion)
        } else if !self.sent_before_recovery(loss.newest_lost) {
            Some(ReductionCause::Loss)
        } else {
            None
        };
        self.reduce_observed(cause, now, observer, |f| f.on_loss(now, loss));
    }

    fn on_ecn_observed<O: Observer>(&mut self, now: Instant, ecn: &EcnEvent, observer: &mut O) {
        // The tests of `on_ecn`, and `ecn()` reduces only from Open or Disorder.
        let reduces = ecn.ce_increase > 0
            && !self.sent_before_recovery(ecn.newest_acked)
            && matches!(self.ca_state, CaState::Open | CaState::Disorder);
        let cause = reduces.then_some(ReductionCause::Ecn);
        self.reduce_observed(cause, now, observer, |f| f.on_ecn(now, ecn));
    }

    fn on_retransmission_timeout_observed<O: Observer>(&mut self, now: Instant, observer: &mut O) {
        let cause = Some(ReductionCause::RetransmissionTimeout);
        self.reduce_observed(cause, now, observer, |f| f.on_retransmission_timeout(now));
    }

    fn on_spurious_congestion_observed<O: Observer>(&mut self, now: Instant, observer: &mut O) {
        // `undo()` acts only when a loss or RTO armed it.
        let undoes = self.undo_marker;
        let before = self.snapshot();
        self.on_spurious_congestion(now);
        if undoes {
            before.report_undo(&self.snapshot(), now, observer);
        }
    }
}
