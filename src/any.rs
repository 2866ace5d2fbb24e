//! Run-time choice of controller without allocation or `dyn`.

use crate::controller::{
    AckEvent, CongestionController, CongestionEvent, Phase, SentEvent, WindowUnit,
};
use crate::linux::LinuxFlow;
use crate::rfc::RfcFlow;
use crate::time::Instant;
use crate::v2_6_35::Linux2635Flow;

/// Any controller this crate offers, chosen at run time; forwards every call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
#[expect(
    clippy::large_enum_variant,
    reason = "no allocation: the enum is as large as its largest flow (RfcFlow), by design"
)]
pub enum AnyController {
    /// Linux-mode CUBIC + HyStart, in segments.
    Linux(LinuxFlow),
    /// RFC-mode CUBIC (RFC 9438) with a chosen slow start, in bytes.
    Rfc(RfcFlow),
    /// The Linux 2.6.35 profile (CUBIC v2.3 with jiffies HyStart), in segments.
    Linux2635(Linux2635Flow),
}

/// Forwards one call to whichever controller the enum holds.
macro_rules! forward {
    ($self:ident, $c:ident => $call:expr) => {
        match $self {
            AnyController::Linux($c) => $call,
            AnyController::Rfc($c) => $call,
            AnyController::Linux2635($c) => $call,
        }
    };
}

impl CongestionController for AnyController {
    fn unit(&self) -> WindowUnit {
        forward!(self, c => c.unit())
    }
    fn on_sent(&mut self, now: Instant, sent: &SentEvent) {
        forward!(self, c => c.on_sent(now, sent))
    }
    fn on_ack(&mut self, now: Instant, ack: &AckEvent) {
        forward!(self, c => c.on_ack(now, ack))
    }
    fn on_congestion_event(&mut self, now: Instant, event: CongestionEvent) {
        forward!(self, c => c.on_congestion_event(now, event))
    }
    fn on_spurious_congestion(&mut self, now: Instant) {
        forward!(self, c => c.on_spurious_congestion(now))
    }
    fn on_transmit_start(&mut self, now: Instant) {
        forward!(self, c => c.on_transmit_start(now))
    }
    fn cwnd(&self) -> u64 {
        forward!(self, c => c.cwnd())
    }
    fn ssthresh(&self) -> u64 {
        forward!(self, c => c.ssthresh())
    }
    fn phase(&self) -> Phase {
        forward!(self, c => c.phase())
    }
}
