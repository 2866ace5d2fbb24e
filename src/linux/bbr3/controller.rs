//! [`Bbr3Controller`]: a Linux-mode BBRv3 flow ([`Bbr3`]) behind the crate's one trait,
//! [`CongestionController`], for a stack that reports events rather than its scoreboard.

use core::borrow::Borrow;

use super::{Bbr3, Bbr3Ack, Bbr3Config, Bbr3Params, Bbr3Rto, Mode};
use crate::controller::{
    AckEvent, AckedPacket, CongestionController, EcnEvent, LossEvent, Phase, SentEvent, TxSnapshot,
    WindowUnit,
};
use crate::error::ConfigError;
use crate::linux::bbr::controller_shared::{
    bbr_controller_common_methods, bbr_controller_inherent,
};
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

bbr_controller_inherent!(Bbr3Controller, Bbr3, Bbr3Config, Bbr3Params);

impl<R: RandomSource, P: Borrow<Bbr3Params>> Bbr3Controller<R, P> {
    /// Whether the last send round was limited by cwnd (`tp->is_cwnd_limited`).
    pub const fn is_cwnd_limited(&self) -> bool {
        self.board.cwnd_limited
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
    bbr_controller_common_methods!(Mode::Startup);

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

    fn on_spurious_congestion(&mut self, now: Instant) {
        self.empty_ack(now, 0, None, false, true);
    }

    /// `None`: BBRv3 has no `min_tso_segs` hook; the host's `tcp_min_tso_segs` applies.
    fn min_tso_segs(&self) -> Option<u32> {
        None
    }
}
