//! Run-time choice of controller without allocation or `dyn`.

use crate::controller::{
    AckEvent, CongestionController, EcnEvent, LossEvent, Phase, SentEvent, WindowUnit,
};
use crate::linux::LinuxFlow;
use crate::observe::{ObservableController, Observer};
use crate::pacing::Rate;
use crate::rfc::{NewRenoFlow, RfcFlow};
use crate::time::Instant;
use crate::v2_6_35::Linux2635Flow;

/// Any controller this crate offers, chosen at run time; forwards every call.
///
/// ```
/// use congestion::rfc::{NewRenoFlow, RfcFlow, RfcFlowConfig};
/// use congestion::{AnyController, CongestionController, Instant};
///
/// let config = RfcFlowConfig::quic(1200);
/// let use_newreno = true; // from the stack's configuration
/// let flow = if use_newreno {
///     AnyController::NewReno(NewRenoFlow::new(config, Instant::ZERO)?)
/// } else {
///     AnyController::Rfc(RfcFlow::new(config, Instant::ZERO)?)
/// };
/// assert_eq!(flow.cwnd(), 12_000);
/// # Ok::<(), congestion::ConfigError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
// Without an allocator a variant cannot be boxed: the enum is as large as its largest
// controller by design (clippy flags that on 32-bit targets, where the sizes differ more).
#[allow(clippy::large_enum_variant)]
pub enum AnyController {
    /// Linux-mode CUBIC + HyStart, in segments.
    Linux(LinuxFlow),
    /// RFC-mode CUBIC (RFC 9438) with a chosen slow start, in bytes.
    Rfc(RfcFlow),
    /// RFC 9002 NewReno with a chosen slow start, in bytes.
    NewReno(NewRenoFlow),
    /// The Linux 2.6.35 profile (CUBIC v2.3 with jiffies HyStart), in segments.
    Linux2635(Linux2635Flow),
}

/// Forwards one call to whichever controller the enum holds.
macro_rules! forward {
    ($self:ident, $c:ident => $call:expr) => {
        match $self {
            AnyController::Linux($c) => $call,
            AnyController::Rfc($c) => $call,
            AnyController::NewReno($c) => $call,
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
    fn on_loss(&mut self, now: Instant, loss: &LossEvent) {
        forward!(self, c => c.on_loss(now, loss))
    }
    fn on_ecn(&mut self, now: Instant, ecn: &EcnEvent) {
        forward!(self, c => c.on_ecn(now, ecn))
    }
    fn on_retransmission_timeout(&mut self, now: Instant) {
        forward!(self, c => c.on_retransmission_timeout(now))
    }
    fn on_discarded(&mut self, now: Instant, amount: u64) {
        forward!(self, c => c.on_discarded(now, amount))
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
    fn ssthresh(&self) -> Option<u64> {
        forward!(self, c => c.ssthresh())
    }
    fn phase(&self) -> Phase {
        forward!(self, c => c.phase())
    }
    fn in_flight(&self) -> u64 {
        forward!(self, c => c.in_flight())
    }
    fn pacing_rate(&self) -> Rate {
        forward!(self, c => c.pacing_rate())
    }
    fn mss_bytes(&self) -> u64 {
        forward!(self, c => c.mss_bytes())
    }
    fn send_quantum_bytes(&self) -> u64 {
        forward!(self, c => c.send_quantum_bytes())
    }
}

impl ObservableController for AnyController {
    fn on_ack_observed<O: Observer>(&mut self, now: Instant, ack: &AckEvent, observer: &mut O) {
        forward!(self, c => c.on_ack_observed(now, ack, observer))
    }
    fn on_loss_observed<O: Observer>(&mut self, now: Instant, loss: &LossEvent, observer: &mut O) {
        forward!(self, c => c.on_loss_observed(now, loss, observer))
    }
    fn on_ecn_observed<O: Observer>(&mut self, now: Instant, ecn: &EcnEvent, observer: &mut O) {
        forward!(self, c => c.on_ecn_observed(now, ecn, observer))
    }
    fn on_retransmission_timeout_observed<O: Observer>(&mut self, now: Instant, observer: &mut O) {
        forward!(self, c => c.on_retransmission_timeout_observed(now, observer))
    }
    fn on_spurious_congestion_observed<O: Observer>(&mut self, now: Instant, observer: &mut O) {
        forward!(self, c => c.on_spurious_congestion_observed(now, observer))
    }
}
