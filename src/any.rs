//! Run-time choice of controller without allocation or `dyn`.

use crate::controller::{
    AckEvent, CongestionController, CongestionEvent, Phase, SentEvent, WindowUnit,
};
use crate::linux::LinuxFlow;
use crate::time::Instant;

/// Any controller this crate offers, chosen at run time; forwards every call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum AnyController {
    /// Linux-mode CUBIC + HyStart, in segments.
    Linux(LinuxFlow),
}

impl AnyController {
    /// The controller behind the enum, as the trait.
    fn inner(&self) -> &impl CongestionController {
        match self {
            AnyController::Linux(c) => c,
        }
    }

    fn inner_mut(&mut self) -> &mut impl CongestionController {
        match self {
            AnyController::Linux(c) => c,
        }
    }
}

impl CongestionController for AnyController {
    fn unit(&self) -> WindowUnit {
        self.inner().unit()
    }
    fn on_sent(&mut self, now: Instant, sent: &SentEvent) {
        self.inner_mut().on_sent(now, sent)
    }
    fn on_ack(&mut self, now: Instant, ack: &AckEvent) {
        self.inner_mut().on_ack(now, ack)
    }
    fn on_congestion_event(&mut self, now: Instant, event: CongestionEvent) {
        self.inner_mut().on_congestion_event(now, event)
    }
    fn on_spurious_congestion(&mut self, now: Instant) {
        self.inner_mut().on_spurious_congestion(now)
    }
    fn on_transmit_start(&mut self, now: Instant) {
        self.inner_mut().on_transmit_start(now)
    }
    fn cwnd(&self) -> u64 {
        self.inner().cwnd()
    }
    fn ssthresh(&self) -> u64 {
        self.inner().ssthresh()
    }
    fn phase(&self) -> Phase {
        self.inner().phase()
    }
}
