//! Run-time choice of controller without allocation or `dyn`.

use crate::controller::{
    AckEvent, AckedPacket, CongestionController, EcnEvent, LossEvent, Phase, SentEvent, TxSnapshot,
    WindowUnit,
};
use crate::linux::{self, RandomFn};
use crate::observe::{ObservableController, Observer};
use crate::pacing::Rate;
use crate::rfc;
use crate::time::Instant;
use crate::v2_6_35;

/// Any controller this crate offers, chosen at run time; forwards every call.
///
/// The Linux-mode BBR, BBRv3, DCTCP and Prague variants and RFC-mode BBRv3 own their parameters and draw
/// random numbers through a [`RandomFn`], the caller's generator as a function (the
/// enum has one type, so it cannot hold a generator type of the caller's). Each
/// variant is stored inline (no allocation): the enum is as large as its largest
/// variant, see `examples/sizes.rs`. Every variant reports its decisions to an
/// [`Observer`] through [`ObservableController`] (BBR's mode changes too).
///
/// ```
/// use congestion::rfc;
/// use congestion::{AnyController, CongestionController, Instant};
///
/// let config = rfc::ClassicConfig::quic(1200); // configures either RFC-mode flow
/// let use_newreno = true; // from the stack's configuration
/// let flow = if use_newreno {
///     AnyController::RfcNewReno(rfc::NewReno::new(config, Instant::ZERO)?)
/// } else {
///     AnyController::RfcCubic(rfc::Cubic::new(config, Instant::ZERO)?)
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
    LinuxCubic(linux::Cubic),
    /// RFC-mode CUBIC (RFC 9438) with a chosen slow start, in bytes.
    RfcCubic(rfc::Cubic),
    /// RFC 9002 NewReno with a chosen slow start, in bytes.
    RfcNewReno(rfc::NewReno),
    /// RFC 8257 DCTCP in bytes for QUIC (ECN-CE counts), on the classic driver.
    RfcDctcp(rfc::Dctcp),
    /// Prague (RFC 9331 §4.3) in bytes for QUIC, on the classic driver.
    RfcPrague(rfc::Prague),
    /// The Linux 2.6.35 profile (CUBIC v2.3 with jiffies HyStart), in segments.
    V2_6_35Cubic(v2_6_35::Cubic),
    /// Linux-mode BBR v1 (`tcp_bbr.c` with `tcp_rate.c`), in segments.
    LinuxBbr(linux::BbrController<RandomFn>),
    /// Linux-mode BBRv3 (Google's v3 `tcp_bbr.c`), in segments.
    LinuxBbr3(linux::Bbr3Controller<RandomFn>),
    /// Linux-mode DCTCP (`tcp_dctcp.c`), in segments.
    LinuxDctcp(linux::DctcpController<RandomFn>),
    /// Linux-mode TCP Prague 0.7 (`tcp_prague.c`), in segments.
    LinuxPrague(linux::PragueController<RandomFn>),
    /// RFC-mode BBRv3 (draft-ietf-ccwg-bbr) in bytes for QUIC.
    RfcBbr3(rfc::Bbr3Controller<RandomFn>),
}

/// The 0.2 variant names, as constructors for one release (a variant cannot be aliased:
/// code that matches on the old names must use the new ones).
#[allow(non_snake_case)]
impl AnyController {
    /// The 0.2 name of [`AnyController::LinuxCubic`].
    #[deprecated(since = "0.3.0", note = "renamed to `AnyController::LinuxCubic`")]
    pub const fn Linux(flow: linux::Cubic) -> Self {
        AnyController::LinuxCubic(flow)
    }
    /// The 0.2 name of [`AnyController::RfcCubic`].
    #[deprecated(since = "0.3.0", note = "renamed to `AnyController::RfcCubic`")]
    pub const fn Rfc(flow: rfc::Cubic) -> Self {
        AnyController::RfcCubic(flow)
    }
    /// The 0.2 name of [`AnyController::RfcNewReno`].
    #[deprecated(since = "0.3.0", note = "renamed to `AnyController::RfcNewReno`")]
    pub const fn NewReno(flow: rfc::NewReno) -> Self {
        AnyController::RfcNewReno(flow)
    }
    /// The 0.2 name of [`AnyController::V2_6_35Cubic`].
    #[deprecated(since = "0.3.0", note = "renamed to `AnyController::V2_6_35Cubic`")]
    pub const fn Linux2635(flow: v2_6_35::Cubic) -> Self {
        AnyController::V2_6_35Cubic(flow)
    }
}

/// Forwards one call to whichever controller the enum holds.
macro_rules! forward {
    ($self:ident, $c:ident => $call:expr) => {
        match $self {
            AnyController::LinuxCubic($c) => $call,
            AnyController::RfcCubic($c) => $call,
            AnyController::RfcNewReno($c) => $call,
            AnyController::RfcDctcp($c) => $call,
            AnyController::RfcPrague($c) => $call,
            AnyController::V2_6_35Cubic($c) => $call,
            AnyController::LinuxBbr($c) => $call,
            AnyController::LinuxBbr3($c) => $call,
            AnyController::LinuxDctcp($c) => $call,
            AnyController::LinuxPrague($c) => $call,
            AnyController::RfcBbr3($c) => $call,
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
    fn on_packet_sent(&mut self, now: Instant, sent: &SentEvent) -> TxSnapshot {
        forward!(self, c => c.on_packet_sent(now, sent))
    }
    fn on_packet_sent_counted(&mut self, now: Instant, sent: u64, largest_sent: u64) -> TxSnapshot {
        forward!(self, c => c.on_packet_sent_counted(now, sent, largest_sent))
    }
    fn on_ack_sampled(&mut self, now: Instant, ack: &AckEvent, newest: &AckedPacket) {
        forward!(self, c => c.on_ack_sampled(now, ack, newest))
    }
    fn on_packet_lost(&mut self, now: Instant, loss: &LossEvent, lost: &TxSnapshot) {
        forward!(self, c => c.on_packet_lost(now, loss, lost))
    }
    fn uses_packet_snapshots(&self) -> bool {
        forward!(self, c => c.uses_packet_snapshots())
    }
    fn min_tso_segs(&self) -> Option<u32> {
        forward!(self, c => c.min_tso_segs())
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
    fn on_sent_observed<O: Observer>(&mut self, now: Instant, sent: &SentEvent, observer: &mut O) {
        forward!(self, c => c.on_sent_observed(now, sent, observer))
    }
    fn on_packet_sent_observed<O: Observer>(
        &mut self,
        now: Instant,
        sent: &SentEvent,
        observer: &mut O,
    ) -> TxSnapshot {
        forward!(self, c => c.on_packet_sent_observed(now, sent, observer))
    }
    fn on_ack_sampled_observed<O: Observer>(
        &mut self,
        now: Instant,
        ack: &AckEvent,
        newest: &AckedPacket,
        observer: &mut O,
    ) {
        forward!(self, c => c.on_ack_sampled_observed(now, ack, newest, observer))
    }
    fn on_packet_lost_observed<O: Observer>(
        &mut self,
        now: Instant,
        loss: &LossEvent,
        lost: &TxSnapshot,
        observer: &mut O,
    ) {
        forward!(self, c => c.on_packet_lost_observed(now, loss, lost, observer))
    }
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
