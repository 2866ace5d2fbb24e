//! [`BbrController`]: a Linux-mode BBR v1 flow ([`Bbr`]) behind the crate's one trait,
//! [`CongestionController`], for a stack that reports events rather than its scoreboard.

use core::borrow::Borrow;

use super::controller_shared::{bbr_controller_common_methods, bbr_controller_inherent};
use super::trait_board::{TraitBoard, rtt_us, segments};
use super::{Bbr, BbrAck, BbrConfig, BbrMode, BbrParams, DeliveredSegment, Flight, Sent};
use super::{TCP_INFINITE_SSTHRESH, bbr_min_tso_segs};
use crate::controller::{
    AckEvent, AckedPacket, CongestionController, EcnEvent, LossEvent, Phase, SentEvent, TxSnapshot,
    WindowUnit,
};
use crate::error::ConfigError;
use crate::linux::CaState;
use crate::linux::tcp::{RandomSource, TcpSock};
use crate::pacing::Rate;
use crate::time::Instant;

/// The most segments one `on_sent` call stamps one by one (the kernel's largest TSO
/// burst is 127 segments; [`super::bbr_tso_segs_goal`] caps at it).
pub const MAX_SEGMENTS_PER_SEND: u32 = 128;

/// A Linux-mode BBR v1 flow driven through [`CongestionController`], in segments.
///
/// The flow's own API takes a TCP stack's scoreboard (`Flight`, `snd_una`, the
/// delivered segments); this wrapper rebuilds what the flow needs from the trait's
/// events (see `trait_board.rs`), keeps the parameters and the caller's
/// [`RandomSource`], and hands every event to the same inherent calls a TCP stack
/// makes, so the two paths give the same state for the same events.
///
/// # Mapping of the trait's calls (segments)
///
/// - [`on_packet_sent`](CongestionController::on_packet_sent): one [`Bbr::on_send`] per
///   new segment (at most [`MAX_SEGMENTS_PER_SEND`] per call; more are counted in
///   flight without their pacing step), returning the last one's snapshot. `now` is
///   the segment's send time; a stack that sends no earlier than
///   [`next_departure_ns`](Bbr::next_departure_ns) (a pacer) sends at its departure
///   time, as the kernel stamps it.
/// - [`on_ack_sampled`](CongestionController::on_ack_sampled): [`Bbr::on_ack`] with the
///   newest acknowledged segment (its `time_sent` as departure, `largest_acked + 1` as
///   its end sequence) and `acked` as the delivered count. `app_limited` first runs
///   [`Bbr::on_app_limited`] (the application had nothing more to send).
/// - [`on_loss`](CongestionController::on_loss) /
///   [`on_packet_lost`](CongestionController::on_packet_lost): an ACK that delivers
///   nothing and marks the lost segments (`tcp_mark_skb_lost()`, then BBR's
///   `cong_control` as on any ACK); from Open it starts Recovery, whose recovery point
///   is `snd_nxt`, so later losses in the same episode only count. The lost segments
///   then leave the flight. Persistent congestion acts as a retransmission timeout.
/// - [`on_retransmission_timeout`](CongestionController::on_retransmission_timeout):
///   every outstanding segment marked lost, then [`Bbr::on_rto`]; nothing is left in
///   flight, and the stack reports its retransmission with `on_packet_sent`.
/// - [`on_spurious_congestion`](CongestionController::on_spurious_congestion): an ACK
///   that delivers nothing with the stack's undo ([`BbrAck::undo`](super::BbrAck));
///   ignored with nothing in flight (the kernel's `no_queue` path).
/// - [`on_ecn`](CongestionController::on_ecn) and [`AckEvent::ce_delta`]: ignored; BBR
///   v1 does not respond to ECN.
/// - [`on_transmit_start`](CongestionController::on_transmit_start): nothing; a send
///   into an empty flight already raises `CA_EVENT_TX_START`.
///
/// Without snapshots (plain `on_sent`, `on_ack`, `on_loss`) BBR gets no delivery-rate
/// sample: see "Per-packet snapshots" in [`crate::controller`].
///
/// The segments are numbered by the stack: [`SentEvent::largest_sent`] (TCP sequence in
/// segments, or QUIC packet numbers) gives `snd_nxt`, [`AckEvent::largest_acked`]
/// `snd_una`, so that a recovery ends with the first ACK of a segment sent after it
/// began (the kernel's `high_seq`). An ACK without `largest_acked` advances `snd_una`
/// by its count; a stack that numbers nothing ends each recovery at its next ACK.
///
/// # Randomness
///
/// BBR draws a random number (the first PROBE_BW gain phase). The controller holds the
/// caller's [`RandomSource`] `R`, given at construction: a generator of the caller's,
/// [`ReplayedRandom`](crate::linux::tcp::ReplayedRandom) in a test, or
/// [`RandomFn`](crate::linux::RandomFn) pointing at the host's generator (the type
/// [`AnyController`](crate::AnyController) uses). The library never makes one up.
///
/// `P` is how the flow reaches its [`BbrParams`]
/// (owned by default, or `&'static BbrParams`, an `Arc`, ...).
///
/// ```
/// use congestion::linux::tcp::ReplayedRandom;
/// use congestion::linux::{BbrConfig, BbrController};
/// use congestion::{AckEvent, AckedPacket, CongestionController, Duration, Instant, SentEvent};
///
/// let mut config = BbrConfig::new();
/// config.initial_rtt_us = 10_000;
/// let t0 = Instant::from_micros(1_000_000);
/// let mut flow = BbrController::new(config, t0, ReplayedRandom::<4>::new())?;
/// // The stack keeps each packet's snapshot (and its send time) with the packet.
/// let mut kept = Vec::new();
/// for seq in 0..10u64 {
///     kept.push(flow.on_packet_sent(t0, &SentEvent::new(seq + 1, seq)));
/// }
/// // 10 ms later segments 0 and 1 are acknowledged: one call with the newest of them.
/// let now = Instant::from_micros(1_010_000);
/// let ack = AckEvent::new(2, 1, Some(Duration::from_millis(10)));
/// flow.on_ack_sampled(now, &ack, &AckedPacket::new(t0, kept[1]));
/// // 2 segments in 10 ms: bw 2 · 2^24 / 10,000 = 3355; cwnd 10 + 2 (see linux::Bbr).
/// assert_eq!((flow.flow().bw(), flow.cwnd(), flow.in_flight()), (3355, 12, 8));
/// # Ok::<(), congestion::ConfigError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct BbrController<R, P = BbrParams> {
    flow: Bbr,
    board: TraitBoard,
    rand: R,
    params: P,
}

// The flow, a 24-byte scoreboard, a random fn and owned parameters.
const _: () = assert!(core::mem::size_of::<BbrController<crate::linux::RandomFn>>() <= 256);

bbr_controller_inherent!(BbrController, Bbr, BbrConfig, BbrParams);

impl<R: RandomSource, P: Borrow<BbrParams>> BbrController<R, P> {
    /// The stack's smoothed RTT as rebuilt from the RTT samples, µs (0: none yet).
    pub const fn srtt_us(&self) -> u32 {
        self.board.srtt_us()
    }

    /// The ACK, sampling from `newest` if given.
    fn ack(&mut self, now: Instant, ack: &AckEvent, newest: Option<&AckedPacket>) {
        let p = self.params.borrow();
        if ack.app_limited {
            self.flow.on_app_limited(p, now, self.board.flight(), true);
        }
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
        let mut bbr_ack = BbrAck {
            snd_una: self.board.snd_una,
            snd_nxt: self.board.snd_nxt,
            delivered,
            delivered_count: acked,
            newly_lost: 0,
            rtt_us: rtt_us(ack),
            srtt_us: self.board.srtt_us(),
            ack_maybe_delayed: false,
            prior_flight,
            flight: self.board.flight(),
            undo: false,
        };
        self.flow.on_ack(p, now, &mut bbr_ack, &mut self.rand);
    }

    /// An ACK that delivers nothing: `lost` segments newly marked lost, or the undo.
    fn empty_ack(&mut self, now: Instant, lost: u64, undo: bool) {
        let (lost, prior_flight, flight) = self.board.mark_lost(lost);
        let p = self.params.borrow();
        let mut bbr_ack = BbrAck {
            snd_una: self.board.snd_una,
            snd_nxt: self.board.snd_nxt,
            delivered: &mut [],
            delivered_count: 0,
            newly_lost: lost,
            rtt_us: None,
            srtt_us: self.board.srtt_us(),
            ack_maybe_delayed: false,
            prior_flight,
            flight,
            undo,
        };
        self.flow.on_ack(p, now, &mut bbr_ack, &mut self.rand);
        self.board.packets_out -= lost;
    }

    /// The loss of `loss.lost` segments.
    fn loss(&mut self, now: Instant, loss: &LossEvent) {
        if loss.persistent_congestion {
            self.timeout(now);
        } else {
            self.empty_ack(now, loss.lost, false);
        }
    }

    /// Every outstanding segment lost, then `tcp_enter_loss()`.
    fn timeout(&mut self, now: Instant) {
        let (lost, _prior, flight, earlier) = self.board.timeout();
        let (una, nxt) = (self.board.snd_una, self.board.snd_nxt);
        let p = self.params.borrow();
        self.flow
            .on_rto(p, now, flight, lost, una, nxt, earlier, &mut self.rand);
        self.board.packets_out = 0;
    }
}

impl<R: RandomSource, P: Borrow<BbrParams>> CongestionController for BbrController<R, P> {
    bbr_controller_common_methods!(BbrMode::Startup);

    fn on_loss(&mut self, now: Instant, loss: &LossEvent) {
        self.loss(now, loss);
    }

    /// BBR v1 reads nothing of a lost segment's snapshot: as `on_loss`.
    fn on_packet_lost(&mut self, now: Instant, loss: &LossEvent, _lost: &TxSnapshot) {
        self.loss(now, loss);
    }

    /// Ignored: BBR v1 does not respond to ECN.
    fn on_ecn(&mut self, _now: Instant, _ecn: &EcnEvent) {}

    fn on_spurious_congestion(&mut self, now: Instant) {
        self.empty_ack(now, 0, true);
    }

    /// `bbr_min_tso_segs()`: 1 below 1.2 Mbit/s, else 2.
    fn min_tso_segs(&self) -> Option<u32> {
        let sk = TcpSock {
            sk_pacing_rate: self.flow.pacing_rate(),
            ..TcpSock::default()
        };
        Some(bbr_min_tso_segs(&sk))
    }
}
