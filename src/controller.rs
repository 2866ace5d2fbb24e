//! The controller API that TCP and QUIC stacks program against.
//!
//! One small trait, [`CongestionController`], with plain event structs shaped after what
//! a stack's loss recovery already knows (RFC 9002 §6–§7, s2n-quic's and quinn's
//! controller traits, Linux's `tcp_congestion_ops`). A TCP stack that counts segments
//! and a QUIC stack that counts bytes use the same trait: each controller states its
//! [`WindowUnit`] once, and every amount passed in or read out is in that unit, except
//! where a name ends in `_bytes`.
//!
//! # Call order
//!
//! For every flow, a stack calls, with a monotonic `now` each time:
//!
//! 1. [`on_sent`](CongestionController::on_sent) after it hands data to the network
//!    ([`SentEvent`]: the amount in flight afterwards and the largest packet number or
//!    sequence sent), or [`on_sent_counted`](CongestionController::on_sent_counted)
//!    with the amount sent, if the controller keeps the count;
//! 2. [`on_ack`](CongestionController::on_ack) for each ACK (TCP) or ACK frame (QUIC)
//!    that newly acknowledges data ([`AckEvent`]), then `on_sent` again if it sends in
//!    response;
//! 3. [`on_loss`](CongestionController::on_loss) for every lost packet or every loss
//!    burst, as the stack's loss detection finds them ([`LossEvent`]: the lost amount
//!    and the newest lost packet). The controller reduces at most once per recovery
//!    period and ignores losses of packets sent before the current one began
//!    (RFC 9002 §7.3.2; Linux's recovery point `high_seq`), so the stack needs no
//!    filter of its own. Persistent congestion (RFC 9002 §7.6) always acts;
//! 4. [`on_ecn`](CongestionController::on_ecn) when an ACK raises the count of
//!    ECN-CE-marked packets ([`EcnEvent`]), judged by the same rule;
//! 5. [`on_retransmission_timeout`](CongestionController::on_retransmission_timeout)
//!    on a TCP RTO, which always acts;
//! 6. [`on_discarded`](CongestionController::on_discarded) when packets leave flight
//!    without being acknowledged or lost (a QUIC packet number space dropped);
//! 7. [`on_spurious_congestion`](CongestionController::on_spurious_congestion) when the
//!    last reduction turns out to be spurious (DSACK, F-RTO, a QUIC ACK of a packet
//!    declared lost);
//! 8. [`on_transmit_start`](CongestionController::on_transmit_start) only if the stack
//!    wants to signal restart after idle explicitly; `on_sent` with nothing previously in
//!    flight already does.
//!
//! A stack that keeps per-packet state uses the per-packet forms of steps 1–3
//! ([`on_packet_sent`](CongestionController::on_packet_sent),
//! [`on_ack_sampled`](CongestionController::on_ack_sampled),
//! [`on_packet_lost`](CongestionController::on_packet_lost)) in the same order, which
//! every controller accepts (see "Per-packet snapshots" below); it reports CE marks
//! that arrive with an ACK on that ACK ([`AckEvent::with_ce`]).
//!
//! Then it reads [`cwnd`](CongestionController::cwnd),
//! [`in_flight`](CongestionController::in_flight),
//! [`pacing_rate`](CongestionController::pacing_rate) and
//! [`send_quantum_bytes`](CongestionController::send_quantum_bytes). No call allocates,
//! blocks, reads a clock or panics.
//!
//! # Per-packet snapshots (delivery-rate sampling)
//!
//! BBR measures the delivery rate as the kernel's `tcp_rate.c` does: each packet
//! carries a [`TxSnapshot`] of the sender's delivery counters taken when it was sent
//! (32 bytes, `Copy`), and the ACK that acknowledges it hands the snapshot back. The
//! library keeps no per-packet table: the stack keeps the snapshot with the packet,
//! beside what it already keeps (its size, its send time), as s2n-quic keeps a
//! controller's `PacketInfo`. The calls, one per event as before:
//!
//! - [`on_packet_sent`](CongestionController::on_packet_sent) (or
//!   [`on_packet_sent_counted`](CongestionController::on_packet_sent_counted)) instead
//!   of `on_sent`: store the returned snapshot with the packet;
//! - [`on_ack_sampled`](CongestionController::on_ack_sampled) instead of `on_ack`, with
//!   the ACK's newest acknowledged packet: its send time and its snapshot
//!   ([`AckedPacket`]);
//! - [`on_packet_lost`](CongestionController::on_packet_lost) instead of `on_loss`, once
//!   per lost packet, with its snapshot.
//!
//! Controllers that sample nothing (CUBIC, NewReno, the 2.6.35 profile, DCTCP, Prague)
//! return an empty snapshot and forward these calls to the plain ones, so a stack can
//! use the per-packet calls with every controller and stay generic.
//! [`uses_packet_snapshots`](CongestionController::uses_packet_snapshots) says whether
//! keeping them matters.
//!
//! A stack that cannot keep anything per packet calls the plain `on_sent`, `on_ack`
//! and `on_loss`: nothing is sampled, so no sample is ever wrong, and the BBR
//! controllers keep their initial pacing rate in STARTUP (`tests/controller_bbr.rs`):
//! safe, and slow. A snapshot handed back twice or never costs at most that packet's
//! sample, never a rate higher than was delivered.
//!
//! # Bytes in flight: who counts
//!
//! A flow keeps its own in-flight count from the events: sends add, ACKs, losses and
//! discards subtract (never below zero). A stack that keeps the count itself (TCP's
//! `packets_out`, quinn's `in_flight`) passes it in every [`SentEvent::new`] to
//! [`on_sent`](CongestionController::on_sent), and the controller takes that value at
//! each send, correcting any drift. A stack that lets the controller count (s2n-quic's
//! model) calls [`on_sent_counted`](CongestionController::on_sent_counted) with the
//! amount of each send and reads [`in_flight`](CongestionController::in_flight) back.
//!
//! ```
//! use congestion::rfc;
//! use congestion::{AckEvent, CongestionController, Instant, LossEvent, Phase, SentEvent};
//!
//! let mut flow = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
//! for pn in 1..=10 {
//!     flow.on_sent_counted(Instant::ZERO, 1200, pn); // the flow counts
//! }
//! assert_eq!(flow.in_flight(), 12_000);
//! // Packets 1, 2 and 3 are declared lost one by one: one reduction (12000 · 0.7).
//! let now = Instant::from_micros(30_000);
//! for pn in 1..=3 {
//!     flow.on_loss(now, &LossEvent::packet(1200, pn));
//! }
//! assert_eq!((flow.cwnd(), flow.in_flight()), (8_400, 8_400));
//! assert_eq!(flow.phase(), Phase::Recovery);
//! // The ACK of packet 11, sent after the reduction, ends the recovery period.
//! flow.on_sent_counted(now, 1200, 11);
//! flow.on_ack(Instant::from_micros(50_000), &AckEvent::new(1200, 11, None));
//! assert_eq!(flow.phase(), Phase::CongestionAvoidance);
//! # Ok::<(), congestion::ConfigError>(())
//! ```

pub use crate::linux::tcp::TxSnapshot;
use crate::pacing::Rate;
use crate::time::{Duration, Instant};

mod events;

pub use events::{
    AckEvent, AckedPacket, EcnEvent, LossEvent, Phase, SentEvent, SentPacket, WindowUnit,
};

/// The trait stacks program against. Statically dispatched; see [`crate::AnyController`]
/// for a run-time choice without allocation, and [`crate::pacing::PacedFlow`] for a
/// controller that also owns its send path. The call order is in [`crate::controller`].
///
/// ```
/// use congestion::linux;
/// use congestion::{AckEvent, CongestionController, Duration, Instant, LossEvent, SentEvent};
///
/// // A stack that is generic over its controller.
/// fn on_ack_frame<C: CongestionController>(cc: &mut C, now: Instant, acked: u64, pn: u64) {
///     cc.on_ack(now, &AckEvent::new(acked, pn, Some(Duration::from_millis(20))));
/// }
///
/// let mut flow = linux::Cubic::new(linux::CubicConfig::new(), Instant::ZERO)?;
/// flow.on_sent(Instant::ZERO, &SentEvent::new(10, 10)); // segments
/// on_ack_frame(&mut flow, Instant::from_micros(20_000), 2, 2);
/// assert_eq!((flow.cwnd(), flow.in_flight()), (12, 8));
/// flow.on_loss(Instant::from_micros(21_000), &LossEvent::packet(1, 3));
/// assert_eq!(flow.ssthresh(), Some(8)); // 12 · 717/1024
/// # Ok::<(), congestion::ConfigError>(())
/// ```
pub trait CongestionController {
    /// The unit of every amount this controller takes and returns (but `_bytes` names).
    fn unit(&self) -> WindowUnit;

    /// Data was sent; see [`SentEvent`]. A send with nothing in flight before it is a
    /// restart after idle: idle time earns no growth.
    fn on_sent(&mut self, now: Instant, sent: &SentEvent);

    /// `sent` was sent (in the controller's unit), the highest packet number or sequence
    /// so far being `largest_sent`; the controller adds it to its own in-flight count
    /// (s2n-quic's model) and proceeds as [`on_sent`](Self::on_sent).
    fn on_sent_counted(&mut self, now: Instant, sent: u64, largest_sent: u64) {
        let after = self.in_flight().saturating_add(sent);
        self.on_sent(now, &SentEvent::new(after, largest_sent));
    }

    /// An ACK arrived; see [`AckEvent`]. Acknowledged amounts above what is in flight
    /// empty the flight (no underflow).
    fn on_ack(&mut self, now: Instant, ack: &AckEvent);

    /// One packet was sent: as [`on_sent`](Self::on_sent), and returns the snapshot the
    /// stack keeps with the packet and hands back with
    /// [`on_ack_sampled`](Self::on_ack_sampled) or
    /// [`on_packet_lost`](Self::on_packet_lost) (see "Per-packet snapshots" in
    /// [`crate::controller`]). Controllers that sample nothing return
    /// `TxSnapshot::default()`; so does a call that sends nothing new.
    fn on_packet_sent(&mut self, now: Instant, sent: &SentEvent) -> TxSnapshot {
        self.on_sent(now, sent);
        TxSnapshot::default()
    }

    /// One packet of `sent` (in the controller's unit) was sent, numbered
    /// `largest_sent`: as [`on_sent_counted`](Self::on_sent_counted), returning the
    /// packet's snapshot as [`on_packet_sent`](Self::on_packet_sent) does.
    fn on_packet_sent_counted(&mut self, now: Instant, sent: u64, largest_sent: u64) -> TxSnapshot {
        let after = self.in_flight().saturating_add(sent);
        self.on_packet_sent(now, &SentEvent::new(after, largest_sent))
    }

    /// An ACK arrived, `newest` being the most recently sent packet it newly
    /// acknowledges, with what the stack kept for it: as [`on_ack`](Self::on_ack), and
    /// the delivery-rate sampler takes its sample from `newest`. Controllers that sample
    /// nothing ignore `newest`. Call [`on_ack`](Self::on_ack) for an ACK that
    /// acknowledges nothing new.
    fn on_ack_sampled(&mut self, now: Instant, ack: &AckEvent, newest: &AckedPacket) {
        let _ = newest;
        self.on_ack(now, ack);
    }

    /// One packet was declared lost, `lost` being what its send returned: as
    /// [`on_loss`](Self::on_loss) with `loss` describing that packet. BBRv3 reads the
    /// snapshot (the flight and losses when it was sent) to judge whether the loss rate
    /// is too high; controllers that do not ignore it.
    fn on_packet_lost(&mut self, now: Instant, loss: &LossEvent, lost: &TxSnapshot) {
        let _ = lost;
        self.on_loss(now, loss);
    }

    /// Whether this controller samples the delivery rate from per-packet snapshots
    /// (BBR): then a stack that can should use the per-packet calls. `false` by default.
    fn uses_packet_snapshots(&self) -> bool {
        false
    }

    /// Packets were declared lost; see [`LossEvent`]. At most one reduction per
    /// recovery period; the lost amount always leaves the in-flight count.
    fn on_loss(&mut self, now: Instant, loss: &LossEvent);

    /// The ECN-CE count rose; see [`EcnEvent`]. Judged like a loss, without removing
    /// anything from flight.
    fn on_ecn(&mut self, now: Instant, ecn: &EcnEvent);

    /// A TCP retransmission timeout: everything in flight is deemed lost and the
    /// window restarts from one segment (or one MSS). Always acts.
    fn on_retransmission_timeout(&mut self, now: Instant);

    /// `amount` left flight without being acknowledged or lost (RFC 9002 §6.4: keys
    /// discarded). Not a congestion signal.
    fn on_discarded(&mut self, now: Instant, amount: u64);

    /// The last reduction was spurious: restore what it took away.
    /// Ignored when there is nothing to undo.
    fn on_spurious_congestion(&mut self, now: Instant);

    /// The sender starts transmitting again after having nothing in flight. Idle time
    /// is not counted as window-growth time.
    fn on_transmit_start(&mut self, now: Instant);

    /// The congestion window, in [`unit`](CongestionController::unit)s.
    fn cwnd(&self) -> u64;

    /// The slow-start threshold, in [`unit`](CongestionController::unit)s; `None` until
    /// a congestion event or a slow-start exit sets one.
    fn ssthresh(&self) -> Option<u64>;

    /// The current phase; the same meaning in every mode (see [`Phase`]).
    fn phase(&self) -> Phase;

    /// The amount in flight as the controller counts it (see "Bytes in flight: who
    /// counts" in [`crate::controller`]).
    fn in_flight(&self) -> u64;

    /// The rate to pace at, bytes per second behind [`Rate`]: Linux's
    /// `sk_pacing_rate` rule in Linux mode and in RFC mode built from
    /// [`ClassicConfig::new`](crate::rfc::ClassicConfig::new), RFC 9002 §7.7's
    /// `1.25 · cwnd / smoothed_rtt` in RFC mode built for QUIC
    /// ([`ClassicConfig::quic`](crate::rfc::ClassicConfig::quic)).
    /// [`Rate::UNLIMITED`] before any RTT sample.
    fn pacing_rate(&self) -> Rate;

    /// The segment size (TCP MSS, QUIC max datagram size) the controller works with,
    /// bytes.
    fn mss_bytes(&self) -> u64;

    /// The largest burst, bytes, to hand to TSO/GSO at once: Linux's
    /// `tcp_tso_autosize` on the controller's own pacing rate and minimum RTT (two
    /// segments at least), except in the 2.6.35 profile, which predates autosizing.
    fn send_quantum_bytes(&self) -> u64;

    /// The algorithm's own floor for TSO/GSO autosizing, segments (the kernel's
    /// `min_tso_segs` hook: BBR asks for 1 below 1.2 Mbit/s), or `None` for the host's
    /// `tcp_min_tso_segs` (2). [`PacedFlow`](crate::pacing::PacedFlow) sizes its bursts
    /// with it, as `tcp_tso_segs()` does.
    fn min_tso_segs(&self) -> Option<u32> {
        None
    }
}
