//! [`Bbr3Controller`]: a Linux-mode BBRv3 flow ([`Bbr3`]) behind the crate's one trait,
//! [`CongestionController`], for a stack that reports events rather than its scoreboard.

use core::borrow::Borrow;

use super::{Bbr3, Bbr3Ack, Bbr3Config, Bbr3Params, Bbr3Rto, Mode};
use crate::controller::{
    AckEvent, AckedPacket, CongestionController, EcnEvent, LossEvent, Phase, SentEvent, TxSnapshot,
    WindowUnit,
};
use crate::error::ConfigError;
use crate::linux::bbr::trait_board::{TraitBoard, rtt_us, segments};
use crate::linux::bbr::{DeliveredSegment, Flight, MAX_SEGMENTS_PER_SEND, Sent};
use crate::linux::tcp::RandomSource;
use crate::linux::{CaState, TCP_INFINITE_SSTHRESH};
use crate::pacing::Rate;
use crate::time::Instant;

/// The most lost segments without snapshots (plain `on_loss`, a timeout) one call
/// passes to BBR's `skb_marked_lost` hook and counts in `tp->lost`.
pub const MAX_UNNAMED_LOSSES: usize = 16;

/// A Linux-mode BBRv3 flow driven through [`CongestionController`], in segments.
///
/// It maps the trait's calls as [`BbrController`](crate::linux::BbrController) does for
/// BBR v1 (see its docs; the same scoreboard is rebuilt from the events), with
/// what v3 adds:
///
/// - every ACK runs v3's app-limited check, with "nothing queued" taken from
///   [`AckEvent::app_limited`]; the cwnd-limited flag of the last send round
///   (`tcp_cwnd_validate()`, read by PROBE_UP) is kept from the sends;
/// - [`on_packet_lost`](CongestionController::on_packet_lost) hands the lost packet's
///   snapshot to BBR's `skb_marked_lost` hook, which may cut `inflight_hi` when the loss
///   rate since that packet was sent is too high. Through plain
///   [`on_loss`](CongestionController::on_loss) each lost segment reaches the hook with
///   an empty snapshot, which never cuts (at most [`MAX_UNNAMED_LOSSES`] per call count
///   in `tp->lost`; the rest only leave the flight); so do the segments of a
///   retransmission timeout;
/// - ECN (when [`Bbr3Config::ecn`](super::Bbr3Config) negotiated it): an ACK with
///   [`AckEvent::ce_delta`] above 0 carries ECN-Echo, counted with that ACK's
///   deliveries; [`on_ecn`](CongestionController::on_ecn) is an ECN-Echo ACK that
///   delivers nothing (CWR from Open, and BBR's ECN model).
///
/// Randomness (two draws at each PROBE_DOWN start) comes from the caller's
/// [`RandomSource`] `R`, held by the controller, as for BBR v1.
///
///
/// `R` is the caller's random source; `P` how the flow reaches its [`Bbr3Params`].
///
/// ```
/// use congestion::linux::tcp::ReplayedRandom;
/// use congestion::linux::{Bbr3Config, Bbr3Controller};
/// use congestion::{AckEvent, AckedPacket, CongestionController, Duration, Instant, SentEvent};
///
/// let mut config = Bbr3Config::new();
/// config.initial_rtt_us = 10_000;
/// let t0 = Instant::from_micros(1_000_000);
/// let mut flow = Bbr3Controller::new(config, t0, ReplayedRandom::<4>::new())?;
/// let kept: Vec<_> = (0..10u64)
///     .map(|seq| flow.on_packet_sent(t0, &SentEvent::new(seq + 1, seq)))
///     .collect();
/// let ack = AckEvent::new(2, 1, Some(Duration::from_millis(10)));
/// flow.on_ack_sampled(Instant::from_micros(1_010_000), &ack, &AckedPacket::new(t0, kept[1]));
/// assert_eq!((flow.cwnd(), flow.in_flight()), (12, 8)); // slow start: +2
/// # Ok::<(), congestion::ConfigError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Bbr3Controller<R, P = Bbr3Params> {
    flow: Bbr3,
    board: TraitBoard,
    rand: R,
    params: P,
}

// The flow, a 24-byte scoreboard, a random fn and owned parameters.
const _: () = assert!(core::mem::size_of::<Bbr3Controller<crate::linux::RandomFn>>() <= 320);

impl<R: RandomSource> Bbr3Controller<R> {
    /// A flow established at `now` with `config` (validated here), drawing from `rand`.
    pub fn new(config: Bbr3Config, now: Instant, rand: R) -> Result<Self, ConfigError> {
        Ok(Self::with_params(config.validate()?, now, rand))
    }
}

impl<R: RandomSource, P: Borrow<Bbr3Params>> Bbr3Controller<R, P> {
    /// A flow established at `now` that reaches its parameters through `params`.
    pub fn with_params(params: P, now: Instant, mut rand: R) -> Self {
        let p = params.borrow();
        let flow = Bbr3::new(p, now, &mut rand);
        let board = TraitBoard::new(p.config().initial_rtt_us);
        Bbr3Controller {
            flow,
            board,
            rand,
            params,
        }
    }

    /// The flow, for its kernel-level readings (`bw()`, `mode()`, `bbr()`, ...).
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

    /// `snd_una` and `snd_nxt` as rebuilt from the events, segments.
    pub const fn sequence(&self) -> (u32, u32) {
        (self.board.snd_una, self.board.snd_nxt)
    }

    /// Whether the last send round was limited by cwnd (`tp->is_cwnd_limited`).
    pub const fn is_cwnd_limited(&self) -> bool {
        self.board.cwnd_limited
    }

    /// The send: each new segment through [`Bbr3::on_send`]; the last snapshot.
    fn send(&mut self, now: Instant, sent: &SentEvent) -> TxSnapshot {
        let before = self.board.packets_out;
        let added = self.board.on_sent(sent);
        let p = self.params.borrow();
        let mut snapshot = TxSnapshot::default();
        for i in 0..added.min(MAX_SEGMENTS_PER_SEND) {
            let flight = Flight {
                packets_out: before.saturating_add(i),
                ..Flight::default()
            };
            snapshot = self.flow.on_send(p, now, flight, &mut self.rand).snapshot;
        }
        self.board.validate_cwnd(self.flow.cwnd());
        snapshot
    }

    /// The ACK, sampling from `newest` if given.
    fn ack(&mut self, now: Instant, ack: &AckEvent, newest: Option<&AckedPacket>) {
        let (prior_flight, acked, end_seq) = self.board.on_ack(ack);
        let packet = newest.copied().unwrap_or_default();
        let mut segment = [DeliveredSegment {
            sent: Sent {
                departure_ns: packet.time_sent.as_nanos(),
                snapshot: packet.snapshot,
            },
            end_seq,
            retransmitted: false,
            sacked: false,
        }];
        let delivered: &mut [DeliveredSegment] = if newest.is_some() && acked > 0 {
            &mut segment
        } else {
            &mut []
        };
        let mut bbr_ack = Bbr3Ack {
            snd_una: self.board.snd_una,
            snd_nxt: self.board.snd_nxt,
            delivered,
            delivered_count: acked,
            newly_lost: &[],
            rtt_us: rtt_us(ack),
            srtt_us: self.board.srtt_us(),
            ack_maybe_delayed: false,
            ece: ack.ce_delta > 0,
            nothing_queued: ack.app_limited,
            is_cwnd_limited: self.board.cwnd_limited,
            prior_flight,
            flight: self.board.flight(),
            undo: false,
        };
        let p = self.params.borrow();
        self.flow.on_ack(p, now, &mut bbr_ack, &mut self.rand);
    }

    /// An ACK that delivers nothing: `lost` segments newly marked lost (the first with
    /// `named`'s snapshot), an ECN-Echo, or the undo.
    fn empty_ack(
        &mut self,
        now: Instant,
        lost: u64,
        named: Option<&TxSnapshot>,
        ece: bool,
        undo: bool,
    ) {
        let (lost, prior_flight, flight) = self.board.mark_lost(lost);
        let mut snapshots = [TxSnapshot::default(); MAX_UNNAMED_LOSSES];
        if let (Some(tx), Some(first)) = (named, snapshots.first_mut()) {
            *first = *tx;
        }
        let count = (lost as usize).min(MAX_UNNAMED_LOSSES);
        let newly_lost = snapshots.get(..count).unwrap_or(&[]);
        let mut bbr_ack = Bbr3Ack {
            snd_una: self.board.snd_una,
            snd_nxt: self.board.snd_nxt,
            delivered: &mut [],
            delivered_count: 0,
            newly_lost,
            rtt_us: None,
            srtt_us: self.board.srtt_us(),
            ack_maybe_delayed: false,
            ece,
            nothing_queued: false,
            is_cwnd_limited: self.board.cwnd_limited,
            prior_flight,
            flight,
            undo,
        };
        let p = self.params.borrow();
        self.flow.on_ack(p, now, &mut bbr_ack, &mut self.rand);
        self.board.packets_out -= lost;
    }

    /// The loss of `loss.lost` segments, the first of them `named` if given.
    fn loss(&mut self, now: Instant, loss: &LossEvent, named: Option<&TxSnapshot>) {
        if loss.persistent_congestion {
            self.timeout(now);
        } else {
            self.empty_ack(now, loss.lost, named, false, false);
        }
    }

    /// Every outstanding segment lost, then `tcp_enter_loss()`.
    fn timeout(&mut self, now: Instant) {
        let (lost, prior_flight, flight, earlier) = self.board.timeout();
        let snapshots = [TxSnapshot::default(); MAX_UNNAMED_LOSSES];
        let count = (lost as usize).min(MAX_UNNAMED_LOSSES);
        let rto = Bbr3Rto {
            prior_flight,
            flight,
            newly_lost: snapshots.get(..count).unwrap_or(&[]),
            snd_una: self.board.snd_una,
            snd_nxt: self.board.snd_nxt,
            timeouts: earlier,
            nothing_queued: false,
        };
        let p = self.params.borrow();
        self.flow.on_rto(p, now, &rto, &mut self.rand);
        self.board.packets_out = 0;
    }
}

impl<R: RandomSource, P: Borrow<Bbr3Params>> CongestionController for Bbr3Controller<R, P> {
    fn unit(&self) -> WindowUnit {
        WindowUnit::Segments
    }

    /// As [`on_packet_sent`](CongestionController::on_packet_sent), the snapshot
    /// dropped: the segment's ACK samples nothing.
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

    fn on_loss(&mut self, now: Instant, loss: &LossEvent) {
        self.loss(now, loss, None);
    }

    fn on_packet_lost(&mut self, now: Instant, loss: &LossEvent, lost: &TxSnapshot) {
        self.loss(now, loss, Some(lost));
    }

    /// An ECN-Echo ACK delivering nothing (ignored unless the config negotiated ECN).
    fn on_ecn(&mut self, now: Instant, ecn: &EcnEvent) {
        if ecn.ce_increase > 0 {
            self.empty_ack(now, 0, None, true, false);
        }
    }

    fn on_retransmission_timeout(&mut self, now: Instant) {
        self.timeout(now);
    }

    /// The amount leaves the flight; not a congestion signal.
    fn on_discarded(&mut self, _now: Instant, amount: u64) {
        let gone = segments(amount).min(self.board.packets_out);
        self.board.packets_out -= gone;
    }

    fn on_spurious_congestion(&mut self, now: Instant) {
        self.empty_ack(now, 0, None, false, true);
    }

    /// Nothing: the next send into an empty flight is the kernel's `CA_EVENT_TX_START`.
    fn on_transmit_start(&mut self, _now: Instant) {}

    fn cwnd(&self) -> u64 {
        u64::from(self.flow.cwnd())
    }

    /// `None` while `snd_ssthresh` is infinite.
    fn ssthresh(&self) -> Option<u64> {
        let s = self.flow.ssthresh();
        (s < TCP_INFINITE_SSTHRESH).then_some(u64::from(s))
    }

    /// Recovery and CWR as [`Phase::Recovery`], the Loss state after a timeout as
    /// [`Phase::SlowStart`]; otherwise STARTUP is slow start and every other mode
    /// congestion avoidance.
    fn phase(&self) -> Phase {
        match self.flow.ca_state() {
            CaState::Recovery | CaState::Cwr => Phase::Recovery,
            CaState::Loss => Phase::SlowStart,
            _ if self.flow.mode() == Mode::Startup => Phase::SlowStart,
            _ => Phase::CongestionAvoidance,
        }
    }

    /// Segments outstanding and not declared lost.
    fn in_flight(&self) -> u64 {
        u64::from(self.board.packets_out)
    }

    /// `sk_pacing_rate`.
    fn pacing_rate(&self) -> Rate {
        Rate::from_bytes_per_second(self.flow.pacing_rate())
    }

    fn mss_bytes(&self) -> u64 {
        u64::from(self.params.borrow().config().mss)
    }

    /// `bbr_tso_segs_goal()` segments: the burst BBRv3 sizes its cwnd for.
    fn send_quantum_bytes(&self) -> u64 {
        let p = self.params.borrow();
        u64::from(self.flow.tso_segs_goal(p)) * u64::from(p.config().mss)
    }

    /// `None`: BBRv3 has no `min_tso_segs` hook; the host's `tcp_min_tso_segs` applies.
    fn min_tso_segs(&self) -> Option<u32> {
        None
    }

    fn uses_packet_snapshots(&self) -> bool {
        true
    }
}
