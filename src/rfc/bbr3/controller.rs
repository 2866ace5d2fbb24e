//! [`Bbr3Controller`]: an RFC-mode BBRv3 flow ([`Bbr3`]) behind the crate's one trait,
//! [`CongestionController`], holding its parameters and the caller's random source.

use core::borrow::Borrow;

use super::flow::{Bbr3, Bbr3Ack};
use super::params::{Bbr3Config, Bbr3Params};
use super::state::State;
use crate::controller::{
    AckEvent, AckedPacket, CongestionController, EcnEvent, LossEvent, Phase, SentEvent, SentPacket,
    TxSnapshot, WindowUnit,
};
use crate::error::ConfigError;
use crate::linux::tcp::RandomSource;
use crate::pacing::Rate;
use crate::time::Instant;

/// An RFC-mode BBRv3 flow ([`Bbr3`], draft-ietf-ccwg-bbr) driven through
/// [`CongestionController`], in bytes.
///
/// [`Bbr3`]'s own API takes one call per packet and one per ACK frame with the
/// frame's cumulative ECN-CE count; this wrapper keeps what those calls need beyond the
/// trait's events (the parameters, the caller's [`RandomSource`], the largest packet
/// number sent, the cumulative CE count, a smoothed RTT and whether the sender filled
/// cwnd this round) and makes exactly the calls a QUIC stack would make:
///
/// - [`on_packet_sent`](CongestionController::on_packet_sent): one
///   [`Bbr3::on_packet_sent`] for the bytes the event adds to the flight
///   (`in_flight_after` minus the flight before), numbered `largest_sent`; returns its
///   snapshot. A send that fills cwnd marks the flow cwnd-limited until its round ends.
/// - [`on_ack_sampled`](CongestionController::on_ack_sampled): `app_limited` first runs
///   [`Bbr3::on_app_limited`]; then one [`Bbr3::on_packet_acked`] for all `acked`
///   bytes with the newest packet's snapshot and send time, numbered `largest_acked`
///   (the largest packet sent if absent); then [`Bbr3::on_ack`] with the RTT sample,
///   the smoothed RTT (RFC 6298 weights, the first sample as is), the CE count summed
///   from every [`AckEvent::ce_delta`] and [`on_ecn`](CongestionController::on_ecn),
///   and the cwnd-limited mark.
/// - [`on_ack`](CongestionController::on_ack) (no snapshot): the bytes leave the
///   flight ([`Bbr3::on_packet_discarded`]) without a delivery-rate sample, then
///   [`Bbr3::on_ack`] as above.
/// - [`on_packet_lost`](CongestionController::on_packet_lost) /
///   [`on_loss`](CongestionController::on_loss): one [`Bbr3::on_packet_lost`] of
///   `lost` bytes numbered by [`LossEvent::newest_lost`] (the largest packet sent if it
///   carries no number), with the lost packet's snapshot (none for `on_loss`, which
///   therefore never finds the flight too high); persistent congestion then runs
///   [`Bbr3::on_persistent_congestion`].
/// - [`on_ecn`](CongestionController::on_ecn): the CE increase is counted; the next
///   ACK reports it to the flow (the draft reads CE marks once per ACK).
/// - [`on_retransmission_timeout`](CongestionController::on_retransmission_timeout):
///   [`Bbr3::on_persistent_congestion`] (the draft's `OnEnterRTO()`).
/// - [`on_spurious_congestion`](CongestionController::on_spurious_congestion):
///   [`Bbr3::on_spurious_loss`]; [`on_discarded`](CongestionController::on_discarded):
///   [`Bbr3::on_packet_discarded`]; [`on_transmit_start`](CongestionController::on_transmit_start):
///   nothing (the next send handles the restart from idle, §5.4).
///
/// Amounts above `u32::MAX` bytes are clamped to it.
///
/// ```
/// use congestion::linux::tcp::ReplayedRandom;
/// use congestion::rfc::{Bbr3Config, Bbr3Controller};
/// use congestion::{AckEvent, AckedPacket, CongestionController, Duration, Instant, SentEvent};
///
/// let t0 = Instant::ZERO;
/// let mut flow = Bbr3Controller::new(Bbr3Config::quic(1200), t0, ReplayedRandom::<4>::new())?;
/// let tx = flow.on_packet_sent(t0, &SentEvent::new(1200, 0));
/// let now = Instant::from_micros(20_000);
/// let ack = AckEvent::new(1200, 0, Some(Duration::from_millis(20)));
/// flow.on_ack_sampled(now, &ack, &AckedPacket::new(t0, tx));
/// // Startup: cwnd grows by the bytes acknowledged (§5.6.4.6).
/// assert_eq!((flow.in_flight(), flow.cwnd()), (0, 13_200));
/// # Ok::<(), congestion::ConfigError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Bbr3Controller<R, P = Bbr3Params> {
    flow: Bbr3,
    rand: R,
    params: P,
    /// The largest packet number sent so far.
    largest_sent: u64,
    /// The ECN-CE count summed from the events (the ACK frame's cumulative count).
    ce_count: u64,
    /// RFC 6298 smoothed RTT, µs (0: no sample yet).
    srtt_us: u64,
    /// The sender filled cwnd in the current round (`C.is_cwnd_limited`, §2.2).
    cwnd_limited: bool,
}

// The flow (at most 416 bytes), owned parameters, a random fn and 32 bytes of events.
const _: () = assert!(core::mem::size_of::<Bbr3Controller<crate::linux::RandomFn>>() <= 480);

impl<R: RandomSource> Bbr3Controller<R> {
    /// A flow starting at `now` with `config` (validated here), drawing from `rand`.
    pub fn new(config: Bbr3Config, now: Instant, rand: R) -> Result<Self, ConfigError> {
        Ok(Self::with_params(config.validate()?, now, rand))
    }
}

/// `amount` bytes as the flow's `u32`, clamped.
fn bytes(amount: u64) -> u32 {
    amount.min(u64::from(u32::MAX)) as u32
}

impl<R: RandomSource, P: Borrow<Bbr3Params>> Bbr3Controller<R, P> {
    /// A flow starting at `now` that reaches its parameters through `params`.
    pub fn with_params(params: P, now: Instant, rand: R) -> Self {
        let flow = Bbr3::new(params.borrow(), now);
        Bbr3Controller {
            flow,
            rand,
            params,
            largest_sent: 0,
            ce_count: 0,
            srtt_us: 0,
            cwnd_limited: false,
        }
    }

    /// The flow, for its model's readings (`state()`, `bw()`, `min_rtt_us()`, ...).
    pub const fn flow(&self) -> &Bbr3 {
        &self.flow
    }

    /// The random source.
    pub const fn random_source(&self) -> &R {
        &self.rand
    }

    /// The parameters.
    pub fn params(&self) -> &Bbr3Params {
        self.params.borrow()
    }

    /// The ECN-CE count handed to the flow with the next ACK (summed from the events).
    pub const fn ce_count(&self) -> u64 {
        self.ce_count
    }

    /// The smoothed RTT handed to the flow, µs (0: no sample yet).
    pub const fn srtt_us(&self) -> u64 {
        self.srtt_us
    }

    /// The send of the bytes `sent` adds to the flight.
    fn send(&mut self, now: Instant, sent: &SentEvent) -> TxSnapshot {
        let added = sent
            .in_flight_after
            .saturating_sub(u64::from(self.flow.bytes_in_flight()));
        self.largest_sent = self.largest_sent.max(sent.largest_sent);
        let tx = self
            .flow
            .on_packet_sent(now, sent.largest_sent, bytes(added), &mut self.rand);
        if self.flow.bytes_in_flight() >= self.flow.cwnd() {
            self.cwnd_limited = true;
        }
        tx
    }

    /// The ACK: the acknowledged bytes with `newest`'s snapshot if given, then
    /// `UpdateOnACK()`.
    fn ack(&mut self, now: Instant, ack: &AckEvent, newest: Option<&AckedPacket>) {
        if ack.app_limited {
            self.flow.on_app_limited();
        }
        let acked = bytes(ack.acked);
        match newest {
            Some(packet) => {
                let mut tx = packet.snapshot;
                let number = ack.largest_acked.unwrap_or(self.largest_sent);
                self.flow
                    .on_packet_acked(&mut tx, packet.time_sent, number, acked);
            }
            None => self.flow.on_packet_discarded(acked),
        }
        self.ce_count = self.ce_count.saturating_add(ack.ce_delta);
        let rtt_us = ack.rtt.map(|rtt| rtt.as_micros());
        if let Some(rtt) = rtt_us {
            self.srtt_us = if self.srtt_us == 0 {
                rtt
            } else {
                // RFC 6298 §2.3: SRTT <- 7/8 SRTT + 1/8 R'
                (self.srtt_us.saturating_mul(7).saturating_add(rtt)) / 8
            };
        }
        let event = Bbr3Ack {
            rtt_us,
            srtt_us: self.srtt_us,
            ecn_ce_count: self.ce_count,
            is_cwnd_limited: self.cwnd_limited,
        };
        let round = self.flow.round_count();
        self.flow
            .on_ack(self.params.borrow(), now, &event, &mut self.rand);
        if self.flow.round_count() != round {
            self.cwnd_limited = false;
        }
    }

    /// The loss of `loss.lost` bytes whose newest packet had snapshot `lost`.
    fn loss(&mut self, now: Instant, loss: &LossEvent, lost: &TxSnapshot) {
        let number = match loss.newest_lost {
            SentPacket::Number(n) => n,
            SentPacket::SentAt(_) | SentPacket::Unknown => self.largest_sent,
        };
        let p = self.params.borrow();
        self.flow
            .on_packet_lost(p, now, lost, number, bytes(loss.lost), &mut self.rand);
        if loss.persistent_congestion {
            self.flow.on_persistent_congestion(p);
        }
    }
}

impl<R: RandomSource, P: Borrow<Bbr3Params>> CongestionController for Bbr3Controller<R, P> {
    fn unit(&self) -> WindowUnit {
        WindowUnit::Bytes
    }

    /// As [`on_packet_sent`](CongestionController::on_packet_sent), the snapshot
    /// dropped: the packet's ACK samples nothing.
    fn on_sent(&mut self, now: Instant, sent: &SentEvent) {
        self.send(now, sent);
    }

    fn on_packet_sent(&mut self, now: Instant, sent: &SentEvent) -> TxSnapshot {
        self.send(now, sent)
    }

    /// No delivery-rate sample (no snapshot); everything else as
    /// [`on_ack_sampled`](CongestionController::on_ack_sampled).
    fn on_ack(&mut self, now: Instant, ack: &AckEvent) {
        self.ack(now, ack, None);
    }

    fn on_ack_sampled(&mut self, now: Instant, ack: &AckEvent, newest: &AckedPacket) {
        self.ack(now, ack, Some(newest));
    }

    /// Without the lost packet's snapshot: the loss cannot show the flight too high.
    fn on_loss(&mut self, now: Instant, loss: &LossEvent) {
        self.loss(now, loss, &TxSnapshot::default());
    }

    fn on_packet_lost(&mut self, now: Instant, loss: &LossEvent, lost: &TxSnapshot) {
        self.loss(now, loss, lost);
    }

    fn uses_packet_snapshots(&self) -> bool {
        true
    }

    /// Counted; reported to the flow with the next ACK.
    fn on_ecn(&mut self, _now: Instant, ecn: &EcnEvent) {
        self.ce_count = self.ce_count.saturating_add(ecn.ce_increase);
    }

    fn on_retransmission_timeout(&mut self, _now: Instant) {
        self.flow.on_persistent_congestion(self.params.borrow());
    }

    fn on_discarded(&mut self, _now: Instant, amount: u64) {
        self.flow.on_packet_discarded(bytes(amount));
    }

    fn on_spurious_congestion(&mut self, _now: Instant) {
        self.flow.on_spurious_loss();
    }

    /// Nothing: the next send restarts from idle (§5.4).
    fn on_transmit_start(&mut self, _now: Instant) {}

    fn cwnd(&self) -> u64 {
        u64::from(self.flow.cwnd())
    }

    /// `None`: BBR keeps no slow-start threshold.
    fn ssthresh(&self) -> Option<u64> {
        None
    }

    /// An RFC 9002 recovery period as [`Phase::Recovery`]; otherwise Startup is slow
    /// start and every other state congestion avoidance.
    fn phase(&self) -> Phase {
        if self.flow.in_recovery {
            Phase::Recovery
        } else if self.flow.state() == State::Startup {
            Phase::SlowStart
        } else {
            Phase::CongestionAvoidance
        }
    }

    /// `C.inflight`, bytes.
    fn in_flight(&self) -> u64 {
        u64::from(self.flow.bytes_in_flight())
    }

    /// `C.pacing_rate`.
    fn pacing_rate(&self) -> Rate {
        Rate::from_bytes_per_second(self.flow.pacing_rate())
    }

    fn mss_bytes(&self) -> u64 {
        u64::from(self.params.borrow().smss())
    }

    /// `C.send_quantum` (§5.6.3).
    fn send_quantum_bytes(&self) -> u64 {
        u64::from(self.flow.send_quantum())
    }
}
