//! The observed calls of the state-machine controllers (BBR v1/v3, the kernel-glue
//! flows, RFC-mode BBRv3): a [`ModelSnapshot`] before and after the plain call, which
//! stays exactly as it was.

use super::{BbrMode, Decision, ExitDetector, Observer, PhaseSnapshot, ReductionCause};
use crate::controller::{CongestionController, Phase};
use crate::linux::CaState;
use crate::time::Instant;

/// What a state-machine controller's decisions are read from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ModelSnapshot {
    /// The BBR mode (`None`: not a BBR).
    pub mode: Option<BbrMode>,
    /// The window reduction under way, by its cause (`None`: none, the kernel's Open
    /// and Disorder states).
    pub reducing: Option<ReductionCause>,
    /// Which reduction it is: the kernel's `high_seq` (set on each entry into CWR,
    /// Recovery or Loss), or an RFC 9002 recovery's first packet number.
    pub epoch: u64,
    /// The phase, cwnd and ssthresh.
    pub window: PhaseSnapshot,
}

/// The reduction a Linux congestion-avoidance state stands for: CWR is an ECN
/// response (`tcp_enter_cwr`), Recovery a fast retransmit, Loss a timeout.
pub(crate) const fn reduction_of(state: CaState) -> Option<ReductionCause> {
    match state {
        CaState::Cwr => Some(ReductionCause::Ecn),
        CaState::Recovery => Some(ReductionCause::Loss),
        CaState::Loss => Some(ReductionCause::RetransmissionTimeout),
        _ => None,
    }
}

/// The phase, cwnd and ssthresh (`u64::MAX`: none) of `controller`.
pub(crate) fn window_of<C: CongestionController>(controller: &C) -> PhaseSnapshot {
    PhaseSnapshot {
        phase: controller.phase(),
        cwnd: controller.cwnd(),
        ssthresh: controller.ssthresh().unwrap_or(u64::MAX),
    }
}

/// The event an observed call handled, as far as reporting goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ModelEvent {
    /// An ACK, an ECN report or a loss: reductions and recovery ends are read from the
    /// state.
    Signal,
    /// A timeout or persistent congestion: always a reduction of this cause.
    Collapse(ReductionCause),
    /// An undo request: an undo if the window or the reduction state changed.
    Undo,
}

/// A controller the observed calls of this file can read.
pub(crate) trait ModelView: CongestionController {
    /// The state the decisions are read from.
    fn model(&self) -> ModelSnapshot;
}

impl ModelSnapshot {
    /// Reports to `observer` what the call (`event`) decided between `self` (before)
    /// and `after`.
    pub(crate) fn report<O: Observer>(
        &self,
        after: &ModelSnapshot,
        event: ModelEvent,
        now: Instant,
        observer: &mut O,
    ) {
        if let (Some(from), Some(to)) = (self.mode, after.mode) {
            if from != to {
                observer.on_decision(now, &Decision::ModeChange { from, to });
            }
        }
        match event {
            ModelEvent::Collapse(cause) => self.reduction(after, cause, now, observer),
            ModelEvent::Undo => {
                let changed = self.reducing != after.reducing
                    || self.window.cwnd != after.window.cwnd
                    || self.window.ssthresh != after.window.ssthresh;
                if changed {
                    self.window.report_undo(&after.window, now, observer);
                }
            }
            ModelEvent::Signal => {
                let new_epoch = self.reducing.is_none() || self.epoch != after.epoch;
                match (self.reducing, after.reducing) {
                    (_, Some(cause)) if new_epoch => {
                        self.reduction(after, cause, now, observer);
                    }
                    (Some(_), None) => observer.on_decision(
                        now,
                        &Decision::RecoveryEnd {
                            phase: after.window.phase,
                            cwnd: after.window.cwnd,
                        },
                    ),
                    _ => {}
                }
            }
        }
    }

    /// A reduction for `cause`; from slow start it also ends slow start, except for
    /// a BBR (whose STARTUP ends by its own test, reported as a mode change).
    fn reduction<O: Observer>(
        &self,
        after: &ModelSnapshot,
        cause: ReductionCause,
        now: Instant,
        observer: &mut O,
    ) {
        if self.mode.is_none() {
            self.window
                .report_reduction(&after.window, cause, now, observer);
            return;
        }
        observer.on_decision(
            now,
            &Decision::Reduction {
                cause,
                cwnd_before: self.window.cwnd,
                cwnd_after: after.window.cwnd,
                ssthresh: after.window.ssthresh,
            },
        );
    }

    /// For a flow with a slow-start threshold (not a BBR): the ACK's slow-start exit
    /// on reaching ssthresh, when no reduction was under way before or after it.
    pub(crate) fn report_ack_growth<O: Observer>(
        &self,
        after: &ModelSnapshot,
        now: Instant,
        observer: &mut O,
    ) {
        let quiet = self.reducing.is_none() && after.reducing.is_none();
        let reached = self.window.phase == Phase::SlowStart
            && after.window.phase == Phase::CongestionAvoidance;
        if quiet && self.mode.is_none() && reached {
            observer.on_decision(
                now,
                &Decision::SlowStartExit {
                    detector: ExitDetector::Ssthresh,
                    cwnd: after.window.cwnd,
                    ssthresh: after.window.ssthresh,
                },
            );
        }
    }
}

/// Implements [`ObservableController`](super::ObservableController) for a
/// [`ModelView`]: every observed call is the plain call between two snapshots.
macro_rules! observable_by_model {
    (impl [$($generics:tt)*] for $ty:ty) => {
        impl<$($generics)*> $crate::observe::ObservableController for $ty {
            fn on_sent_observed<Ob: $crate::observe::Observer>(
                &mut self,
                now: $crate::time::Instant,
                sent: &$crate::controller::SentEvent,
                observer: &mut Ob,
            ) {
                use $crate::observe::model::{ModelEvent, ModelView};
                let before = self.model();
                $crate::controller::CongestionController::on_sent(self, now, sent);
                before.report(&self.model(), ModelEvent::Signal, now, observer);
            }
            fn on_packet_sent_observed<Ob: $crate::observe::Observer>(
                &mut self,
                now: $crate::time::Instant,
                sent: &$crate::controller::SentEvent,
                observer: &mut Ob,
            ) -> $crate::controller::TxSnapshot {
                use $crate::observe::model::{ModelEvent, ModelView};
                let before = self.model();
                let tx = $crate::controller::CongestionController::on_packet_sent(self, now, sent);
                before.report(&self.model(), ModelEvent::Signal, now, observer);
                tx
            }
            fn on_ack_observed<Ob: $crate::observe::Observer>(
                &mut self,
                now: $crate::time::Instant,
                ack: &$crate::controller::AckEvent,
                observer: &mut Ob,
            ) {
                use $crate::observe::model::{ModelEvent, ModelView};
                let before = self.model();
                $crate::controller::CongestionController::on_ack(self, now, ack);
                let after = self.model();
                before.report(&after, ModelEvent::Signal, now, observer);
                before.report_ack_growth(&after, now, observer);
            }
            fn on_ack_sampled_observed<Ob: $crate::observe::Observer>(
                &mut self,
                now: $crate::time::Instant,
                ack: &$crate::controller::AckEvent,
                newest: &$crate::controller::AckedPacket,
                observer: &mut Ob,
            ) {
                use $crate::observe::model::{ModelEvent, ModelView};
                let before = self.model();
                $crate::controller::CongestionController::on_ack_sampled(self, now, ack, newest);
                let after = self.model();
                before.report(&after, ModelEvent::Signal, now, observer);
                before.report_ack_growth(&after, now, observer);
            }
            fn on_loss_observed<Ob: $crate::observe::Observer>(
                &mut self,
                now: $crate::time::Instant,
                loss: &$crate::controller::LossEvent,
                observer: &mut Ob,
            ) {
                use $crate::observe::model::ModelView;
                let before = self.model();
                $crate::controller::CongestionController::on_loss(self, now, loss);
                let event = $crate::observe::model::loss_event(loss);
                before.report(&self.model(), event, now, observer);
            }
            fn on_packet_lost_observed<Ob: $crate::observe::Observer>(
                &mut self,
                now: $crate::time::Instant,
                loss: &$crate::controller::LossEvent,
                lost: &$crate::controller::TxSnapshot,
                observer: &mut Ob,
            ) {
                use $crate::observe::model::ModelView;
                let before = self.model();
                $crate::controller::CongestionController::on_packet_lost(self, now, loss, lost);
                let event = $crate::observe::model::loss_event(loss);
                before.report(&self.model(), event, now, observer);
            }
            fn on_ecn_observed<Ob: $crate::observe::Observer>(
                &mut self,
                now: $crate::time::Instant,
                ecn: &$crate::controller::EcnEvent,
                observer: &mut Ob,
            ) {
                use $crate::observe::model::{ModelEvent, ModelView};
                let before = self.model();
                $crate::controller::CongestionController::on_ecn(self, now, ecn);
                before.report(&self.model(), ModelEvent::Signal, now, observer);
            }
            fn on_retransmission_timeout_observed<Ob: $crate::observe::Observer>(
                &mut self,
                now: $crate::time::Instant,
                observer: &mut Ob,
            ) {
                use $crate::observe::model::{ModelEvent, ModelView};
                let before = self.model();
                $crate::controller::CongestionController::on_retransmission_timeout(self, now);
                let cause = $crate::observe::ReductionCause::RetransmissionTimeout;
                before.report(&self.model(), ModelEvent::Collapse(cause), now, observer);
            }
            fn on_spurious_congestion_observed<Ob: $crate::observe::Observer>(
                &mut self,
                now: $crate::time::Instant,
                observer: &mut Ob,
            ) {
                use $crate::observe::model::{ModelEvent, ModelView};
                let before = self.model();
                $crate::controller::CongestionController::on_spurious_congestion(self, now);
                before.report(&self.model(), ModelEvent::Undo, now, observer);
            }
        }
    };
}
pub(crate) use observable_by_model;

/// A loss event as reporting sees it: persistent congestion collapses the window.
pub(crate) const fn loss_event(loss: &crate::controller::LossEvent) -> ModelEvent {
    if loss.persistent_congestion {
        ModelEvent::Collapse(ReductionCause::PersistentCongestion)
    } else {
        ModelEvent::Signal
    }
}

/// A BBR v1 mode as its stable code (the kernel's `enum bbr_mode`).
const fn bbr_v1_mode(mode: crate::linux::bbr::BbrMode) -> BbrMode {
    use crate::linux::bbr::BbrMode as Kernel;
    match mode {
        Kernel::Startup => BbrMode::Startup,
        Kernel::Drain => BbrMode::Drain,
        Kernel::ProbeBw => BbrMode::ProbeBw,
        Kernel::ProbeRtt => BbrMode::ProbeRtt,
    }
}

/// A BBRv3 mode, and in PROBE_BW its phase (4 + `enum bbr_pacing_gain_phase`).
const fn bbr_v3_mode(
    mode: crate::linux::bbr3::Mode,
    phase: crate::linux::bbr3::CyclePhase,
) -> BbrMode {
    use crate::linux::bbr3::{CyclePhase, Mode};
    match (mode, phase) {
        (Mode::Startup, _) => BbrMode::Startup,
        (Mode::Drain, _) => BbrMode::Drain,
        (Mode::ProbeRtt, _) => BbrMode::ProbeRtt,
        (Mode::ProbeBw, CyclePhase::Up) => BbrMode::ProbeBwUp,
        (Mode::ProbeBw, CyclePhase::Down) => BbrMode::ProbeBwDown,
        (Mode::ProbeBw, CyclePhase::Cruise) => BbrMode::ProbeBwCruise,
        (Mode::ProbeBw, CyclePhase::Refill) => BbrMode::ProbeBwRefill,
    }
}

/// An RFC-mode BBRv3 state as a mode: the draft's ProbeBW states are v3's phases.
const fn rfc_bbr3_mode(state: crate::rfc::bbr3::State) -> BbrMode {
    use crate::rfc::bbr3::State;
    match state {
        State::Startup => BbrMode::Startup,
        State::Drain => BbrMode::Drain,
        State::ProbeRtt => BbrMode::ProbeRtt,
        State::ProbeBwUp => BbrMode::ProbeBwUp,
        State::ProbeBwDown => BbrMode::ProbeBwDown,
        State::ProbeBwCruise => BbrMode::ProbeBwCruise,
        State::ProbeBwRefill => BbrMode::ProbeBwRefill,
    }
}

mod views {
    use super::{
        ModelSnapshot, ModelView, bbr_v1_mode, bbr_v3_mode, reduction_of, rfc_bbr3_mode, window_of,
    };
    use crate::linux::bbr::BbrParams;
    use crate::linux::bbr3::Bbr3Params;
    use crate::linux::tcp::{RandomSource, TcpCongestionOps};
    use crate::linux::{Bbr3Controller, BbrController, TcpController};
    use crate::observe::ReductionCause;
    use core::borrow::Borrow;

    impl<R: RandomSource, P: Borrow<BbrParams>> ModelView for BbrController<R, P> {
        fn model(&self) -> ModelSnapshot {
            let flow = self.flow();
            ModelSnapshot {
                mode: Some(bbr_v1_mode(flow.mode())),
                reducing: reduction_of(flow.ca_state()),
                epoch: u64::from(flow.recovery().0),
                window: window_of(self),
            }
        }
    }
    super::observable_by_model!(impl [R: RandomSource, P: Borrow<BbrParams>] for BbrController<R, P>);

    impl<R: RandomSource, P: Borrow<Bbr3Params>> ModelView for Bbr3Controller<R, P> {
        fn model(&self) -> ModelSnapshot {
            let flow = self.flow();
            ModelSnapshot {
                mode: Some(bbr_v3_mode(flow.mode(), flow.bbr().cycle_idx)),
                reducing: reduction_of(flow.ca_state()),
                epoch: u64::from(flow.recovery().0),
                window: window_of(self),
            }
        }
    }
    super::observable_by_model!(impl [R: RandomSource, P: Borrow<Bbr3Params>] for Bbr3Controller<R, P>);

    impl<O: TcpCongestionOps, R: RandomSource, P: Borrow<O::Params>> ModelView
        for TcpController<O, R, P>
    {
        fn model(&self) -> ModelSnapshot {
            let sk = self.flow().socket();
            ModelSnapshot {
                mode: None,
                reducing: reduction_of(sk.icsk_ca_state),
                epoch: u64::from(sk.high_seq),
                window: window_of(self),
            }
        }
    }
    super::observable_by_model!(impl [O: TcpCongestionOps, R: RandomSource, P: Borrow<O::Params>] for TcpController<O, R, P>);

    impl<R: RandomSource, P: Borrow<crate::rfc::Bbr3Params>> ModelView
        for crate::rfc::Bbr3Controller<R, P>
    {
        fn model(&self) -> ModelSnapshot {
            let flow = self.flow();
            let recovery = flow.recovery_point();
            ModelSnapshot {
                mode: Some(rfc_bbr3_mode(flow.state())),
                reducing: recovery.map(|_| ReductionCause::Loss),
                epoch: recovery.unwrap_or(0),
                window: window_of(self),
            }
        }
    }
    super::observable_by_model!(impl [R: RandomSource, P: Borrow<crate::rfc::Bbr3Params>] for crate::rfc::Bbr3Controller<R, P>);
}
