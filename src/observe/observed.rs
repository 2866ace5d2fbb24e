//! The `_observed` event calls ([`ObservableController`]) and [`Observed`], a flow
//! paired with its sink.

use super::Observer;
use crate::controller::{
    AckEvent, AckedPacket, CongestionController, EcnEvent, LossEvent, Phase, SentEvent, TxSnapshot,
    WindowUnit,
};
use crate::pacing::Rate;
use crate::time::Instant;

/// A controller whose decisions can be observed ([module example](crate::observe)):
/// each twin does exactly what the plain call does to the flow and tells `observer`.
/// Only a BBR decides on a send (the send twins default to the plain calls); discards
/// and [`on_transmit_start`](CongestionController::on_transmit_start) have no twin.
pub trait ObservableController: CongestionController {
    /// [`on_ack`](CongestionController::on_ack), reporting a slow-start exit, a change
    /// into or out of Conservative Slow Start, or the end of a recovery period.
    fn on_ack_observed<O: Observer>(&mut self, now: Instant, ack: &AckEvent, observer: &mut O);

    /// [`on_ack_sampled`](CongestionController::on_ack_sampled), reporting as
    /// [`on_ack_observed`](Self::on_ack_observed) (and, for a BBR, its mode changes).
    /// Defaults to `on_ack_observed`.
    fn on_ack_sampled_observed<O: Observer>(
        &mut self,
        now: Instant,
        ack: &AckEvent,
        newest: &AckedPacket,
        observer: &mut O,
    ) {
        let _ = newest;
        self.on_ack_observed(now, ack, observer);
    }

    /// [`on_sent`](CongestionController::on_sent), reporting what a send can decide (a
    /// BBR's restart from idle may end ProbeRTT); defaults to the plain call.
    fn on_sent_observed<O: Observer>(&mut self, now: Instant, sent: &SentEvent, observer: &mut O) {
        let _ = observer;
        self.on_sent(now, sent);
    }

    /// [`on_packet_sent`](CongestionController::on_packet_sent), reporting as
    /// [`on_sent_observed`](Self::on_sent_observed); the default is the plain call.
    fn on_packet_sent_observed<O: Observer>(
        &mut self,
        now: Instant,
        sent: &SentEvent,
        observer: &mut O,
    ) -> TxSnapshot {
        let _ = observer;
        self.on_packet_sent(now, sent)
    }

    /// [`on_loss`](CongestionController::on_loss), reporting a reduction (and the
    /// slow-start exit it makes), or a persistent-congestion collapse.
    fn on_loss_observed<O: Observer>(&mut self, now: Instant, loss: &LossEvent, observer: &mut O);

    /// [`on_packet_lost`](CongestionController::on_packet_lost), reporting as
    /// [`on_loss_observed`](Self::on_loss_observed), its default.
    fn on_packet_lost_observed<O: Observer>(
        &mut self,
        now: Instant,
        loss: &LossEvent,
        lost: &TxSnapshot,
        observer: &mut O,
    ) {
        let _ = lost;
        self.on_loss_observed(now, loss, observer);
    }

    /// [`on_ecn`](CongestionController::on_ecn), reporting a reduction (and the
    /// slow-start exit it makes).
    fn on_ecn_observed<O: Observer>(&mut self, now: Instant, ecn: &EcnEvent, observer: &mut O);

    /// [`on_retransmission_timeout`](CongestionController::on_retransmission_timeout),
    /// reporting the reduction.
    fn on_retransmission_timeout_observed<O: Observer>(&mut self, now: Instant, observer: &mut O);

    /// [`on_spurious_congestion`](CongestionController::on_spurious_congestion),
    /// reporting the undo if one took place.
    fn on_spurious_congestion_observed<O: Observer>(&mut self, now: Instant, observer: &mut O);
}

/// A controller and its observer, as one [`CongestionController`] whose plain calls
/// report: for stacks (and adapters) that program against the trait alone.
///
/// ```
/// use congestion::observe::{Counters, Observed};
/// use congestion::linux::{Cubic, CubicConfig};
/// use congestion::{CongestionController, Instant, LossEvent, SentEvent};
///
/// let flow = Cubic::new(CubicConfig::new(), Instant::ZERO)?;
/// let mut observed = Observed::new(flow, Counters::new());
/// observed.on_sent(Instant::ZERO, &SentEvent::new(10, 10));
/// observed.on_loss(Instant::from_micros(5_000), &LossEvent::episode(1));
/// assert_eq!(observed.observer().loss_reductions, 1);
/// assert_eq!(observed.cwnd(), 7);
/// # Ok::<(), congestion::ConfigError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Observed<C, O> {
    controller: C,
    observer: O,
}

impl<C: ObservableController, O: Observer> Observed<C, O> {
    /// `controller`, reporting to `observer`.
    pub const fn new(controller: C, observer: O) -> Self {
        Observed {
            controller,
            observer,
        }
    }

    /// The controller.
    pub const fn controller(&self) -> &C {
        &self.controller
    }

    /// The controller, mutably: calls made on it directly are not observed.
    pub fn controller_mut(&mut self) -> &mut C {
        &mut self.controller
    }

    /// The observer (read [`Counters`](super::Counters) here).
    pub const fn observer(&self) -> &O {
        &self.observer
    }

    /// The observer, mutably (to reset counters, say).
    pub fn observer_mut(&mut self) -> &mut O {
        &mut self.observer
    }

    /// The controller and the observer, apart again.
    pub fn into_parts(self) -> (C, O) {
        (self.controller, self.observer)
    }
}

impl<C: ObservableController, O: Observer> CongestionController for Observed<C, O> {
    fn unit(&self) -> WindowUnit {
        self.controller.unit()
    }
    #[inline]
    fn on_sent(&mut self, now: Instant, sent: &SentEvent) {
        self.controller
            .on_sent_observed(now, sent, &mut self.observer)
    }
    #[inline]
    fn on_ack(&mut self, now: Instant, ack: &AckEvent) {
        self.controller
            .on_ack_observed(now, ack, &mut self.observer)
    }
    fn on_loss(&mut self, now: Instant, loss: &LossEvent) {
        self.controller
            .on_loss_observed(now, loss, &mut self.observer)
    }
    fn on_packet_sent(&mut self, now: Instant, sent: &SentEvent) -> TxSnapshot {
        self.controller
            .on_packet_sent_observed(now, sent, &mut self.observer)
    }
    fn on_ack_sampled(&mut self, now: Instant, ack: &AckEvent, newest: &AckedPacket) {
        self.controller
            .on_ack_sampled_observed(now, ack, newest, &mut self.observer)
    }
    fn on_packet_lost(&mut self, now: Instant, loss: &LossEvent, lost: &TxSnapshot) {
        self.controller
            .on_packet_lost_observed(now, loss, lost, &mut self.observer)
    }
    fn uses_packet_snapshots(&self) -> bool {
        self.controller.uses_packet_snapshots()
    }
    fn min_tso_segs(&self) -> Option<u32> {
        self.controller.min_tso_segs()
    }
    fn on_ecn(&mut self, now: Instant, ecn: &EcnEvent) {
        self.controller
            .on_ecn_observed(now, ecn, &mut self.observer)
    }
    fn on_retransmission_timeout(&mut self, now: Instant) {
        self.controller
            .on_retransmission_timeout_observed(now, &mut self.observer)
    }
    fn on_discarded(&mut self, now: Instant, amount: u64) {
        self.controller.on_discarded(now, amount)
    }
    fn on_spurious_congestion(&mut self, now: Instant) {
        self.controller
            .on_spurious_congestion_observed(now, &mut self.observer)
    }
    fn on_transmit_start(&mut self, now: Instant) {
        self.controller.on_transmit_start(now)
    }
    fn cwnd(&self) -> u64 {
        self.controller.cwnd()
    }
    fn ssthresh(&self) -> Option<u64> {
        self.controller.ssthresh()
    }
    fn phase(&self) -> Phase {
        self.controller.phase()
    }
    fn in_flight(&self) -> u64 {
        self.controller.in_flight()
    }
    fn pacing_rate(&self) -> Rate {
        self.controller.pacing_rate()
    }
    fn mss_bytes(&self) -> u64 {
        self.controller.mss_bytes()
    }
    fn send_quantum_bytes(&self) -> u64 {
        self.controller.send_quantum_bytes()
    }
}

/// What an ACK can decide, read from the flow's state before and after it: the
/// `_observed` ACK calls take a [`PhaseSnapshot`] before the plain ACK and report
/// what changed, so the plain ACK's code stays as it was.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PhaseSnapshot {
    /// The phase.
    pub phase: Phase,
    /// cwnd.
    pub cwnd: u64,
    /// ssthresh (`u64::MAX`: none).
    pub ssthresh: u64,
}

impl PhaseSnapshot {
    /// A reduction for `cause` took the flow from `self` to `after`; a loss or CE mark
    /// in slow start ends it first (RFC 9002 §7.3.1: exit slow start on a loss or CE).
    pub(crate) fn report_reduction<O: Observer>(
        &self,
        after: &PhaseSnapshot,
        cause: super::ReductionCause,
        now: Instant,
        observer: &mut O,
    ) {
        use super::{Decision, ExitDetector, ReductionCause};
        let in_slow_start = matches!(self.phase, Phase::SlowStart | Phase::ConservativeSlowStart);
        let detector = match cause {
            ReductionCause::Loss => Some(ExitDetector::Loss),
            ReductionCause::Ecn => Some(ExitDetector::Ecn),
            _ => None,
        };
        if let (true, Some(detector)) = (in_slow_start, detector) {
            observer.on_decision(
                now,
                &Decision::SlowStartExit {
                    detector,
                    cwnd: after.cwnd,
                    ssthresh: after.ssthresh,
                },
            );
        }
        observer.on_decision(
            now,
            &Decision::Reduction {
                cause,
                cwnd_before: self.cwnd,
                cwnd_after: after.cwnd,
                ssthresh: after.ssthresh,
            },
        );
    }

    /// An undo took the flow from `self` to `after`.
    pub(crate) fn report_undo<O: Observer>(
        &self,
        after: &PhaseSnapshot,
        now: Instant,
        observer: &mut O,
    ) {
        observer.on_decision(
            now,
            &super::Decision::Undo {
                cwnd_before: self.cwnd,
                cwnd_after: after.cwnd,
                ssthresh: after.ssthresh,
                phase: after.phase,
            },
        );
    }

    /// The decisions an ACK made between `self` (before) and `after`, reported to
    /// `observer`; `detector` says what ended slow start if it ended there without
    /// reaching ssthresh (a delay detector), `None` if it can only have reached it.
    pub(crate) fn report_ack<O: Observer>(
        &self,
        after: &PhaseSnapshot,
        detector: Option<super::ExitDetector>,
        now: Instant,
        observer: &mut O,
    ) {
        let below_ssthresh = self.cwnd < self.ssthresh;
        report_ack(self.phase, below_ssthresh, after, detector, now, observer);
    }
}

/// The decisions an ACK made, from the phase before it (`before`, with cwnd below
/// ssthresh or not) to `after`; `detector` as for [`PhaseSnapshot::report_ack`].
pub(crate) fn report_ack<O: Observer>(
    before: Phase,
    below_ssthresh: bool,
    after: &PhaseSnapshot,
    detector: Option<super::ExitDetector>,
    now: Instant,
    observer: &mut O,
) {
    {
        use super::{Decision, ExitDetector};
        let in_slow_start = |p: Phase| matches!(p, Phase::SlowStart | Phase::ConservativeSlowStart);
        let mut before = before;
        if before == Phase::Recovery && after.phase != Phase::Recovery {
            // RFC 9002 §7.3.2: recovery ends when a packet sent after its start is acked
            observer.on_decision(
                now,
                &Decision::RecoveryEnd {
                    phase: after.phase,
                    cwnd: after.cwnd,
                },
            );
            // The same ACK goes on in slow start below ssthresh and may end it there.
            before = if below_ssthresh {
                Phase::SlowStart
            } else {
                Phase::CongestionAvoidance
            };
        }
        match (in_slow_start(before), after.phase) {
            (true, Phase::CongestionAvoidance) => observer.on_decision(
                now,
                &Decision::SlowStartExit {
                    detector: detector.unwrap_or(ExitDetector::Ssthresh),
                    cwnd: after.cwnd,
                    ssthresh: after.ssthresh,
                },
            ),
            (true, Phase::ConservativeSlowStart) if before == Phase::SlowStart => observer
                .on_decision(
                    now,
                    &Decision::ConservativeSlowStart {
                        entered: true,
                        cwnd: after.cwnd,
                    },
                ),
            (true, Phase::SlowStart) if before == Phase::ConservativeSlowStart => observer
                .on_decision(
                    now,
                    &Decision::ConservativeSlowStart {
                        entered: false,
                        cwnd: after.cwnd,
                    },
                ),
            _ => {}
        }
    }
}
