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
//! and `on_loss`. Nothing is sampled then, so no sample is ever wrong: the BBR
//! controllers see no delivery-rate sample and measure no bandwidth, so they keep
//! their initial pacing rate (`init_cwnd · mss / RTT` at STARTUP's gain) and stay in
//! STARTUP (apart from PROBE_RTT's visits when the min-RTT filter expires); cwnd grows
//! by what each ACK delivers until 10 segments have been delivered, then stops growing
//! (tested in `tests/controller_bbr.rs`). Safe, and slow: BBR needs the snapshots. A
//! snapshot handed back twice, or one never handed back, costs at most that packet's
//! sample (a stale snapshot gives a sample over a longer interval, never a higher
//! rate than was delivered over it).
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

/// The unit a controller counts its window in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum WindowUnit {
    /// Whole segments, as the Linux kernel counts `snd_cwnd`.
    Segments,
    /// Bytes, as QUIC (RFC 9002) and RFC 9438 count.
    Bytes,
}

/// Where the flow is in its congestion-control life. Every controller gives the same
/// meaning to each variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Phase {
    /// Below ssthresh (or with none yet) and not in a recovery period: the window grows
    /// by what is acknowledged. Also the state after a retransmission timeout or
    /// persistent congestion, which restart slow start from a small window.
    SlowStart,
    /// RFC 9406 Conservative Slow Start: growth slowed by `CSS_GROWTH_DIVISOR` after an
    /// RTT increase, for up to `CSS_ROUNDS` rounds.
    ConservativeSlowStart,
    /// At or above ssthresh, not in a recovery period: growth by the algorithm's curve
    /// (CUBIC, Reno-friendly, or NewReno's one MSS per window).
    CongestionAvoidance,
    /// The recovery period of a loss or ECN-CE reduction: from the reduction until the
    /// first ACK of a packet sent after it (RFC 9002 §7.3.2; Linux: until `snd_una`
    /// passes `high_seq`). Losses and CE marks of packets sent before it began do not
    /// reduce again. RFC-mode windows do not grow in it; Linux mode's window has
    /// already landed on ssthresh (the stack's PRR runs the real recovery) and follows
    /// the kernel's hooks, which may grow it.
    Recovery,
}

/// Which packet an event is about, as the stack knows it: its packet number (QUIC) or
/// sequence (TCP, in the controller's unit), or the time it was sent.
///
/// The controller compares it with the start of its current recovery period: a packet
/// numbered at or below the largest sent when the period began, or sent at or before
/// the moment it began, was sent before it (RFC 9002 §7.3.2 `InCongestionRecovery`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum SentPacket {
    /// The packet number (QUIC) or sequence (TCP, in the controller's unit; Linux mode
    /// compares its low 32 bits with wrap-around, as `before()` does).
    Number(u64),
    /// The time the packet was sent, on the same clock as `now`.
    SentAt(Instant),
    /// Not known: the event is judged a new congestion event every time, so the stack
    /// decides what one event is (the 0.1 behaviour).
    #[default]
    Unknown,
}

/// What the network told the sender in one ACK (TCP) or ACK frame (QUIC).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct AckEvent {
    /// Newly acknowledged amount, in the controller's [`WindowUnit`]; it leaves the
    /// in-flight count. Zero is allowed (a duplicate ACK carrying only an RTT sample).
    pub acked: u64,
    /// The RTT sample this ACK produced, if any.
    pub rtt: Option<Duration>,
    /// The highest sequence (TCP, in the controller's unit) or packet number (QUIC) this
    /// ACK covers, `None` when the stack does not say (0 is a packet number: QUIC numbers
    /// its first packet 0). Round-trip rounds end when it passes the mark taken at round
    /// start, and the recovery period ends when it passes the largest sent at the
    /// reduction. While no ACK has named one, RFC mode ends recovery once the bytes in
    /// flight at the reduction have been acknowledged, and judges window use by the last
    /// send (see [`rfc::Cubic`](crate::rfc::Cubic)).
    ///
    /// Linux mode reads it as TCP's cumulative ACK in segments: the first segment not
    /// yet acknowledged (`snd_una` after this ACK, one past the last segment the ACK
    /// covers in order), in the sequence space of [`SentEvent::largest_sent`]. It sets
    /// the flow's `snd_una` (never back), so the recovery period ends when the
    /// cumulative ACK reaches `high_seq` whether or not SACKed segments were counted in
    /// `acked`; `None` keeps `snd_una` moving by `acked`.
    pub largest_acked: Option<u64>,
    /// True when the sender had less in flight than its window allowed because the
    /// application had nothing to send. Linux-mode CUBIC derives this itself from
    /// `on_sent` and ignores the field; the Linux-mode BBR controllers take it as the
    /// kernel's `tcp_rate_check_app_limited()` before the ACK is processed.
    pub app_limited: bool,
    /// How many of the packets (segments, or bytes in a bytes-mode controller) this ACK
    /// newly reports ECN-CE-marked: AccECN's CE delta (TCP), the rise of the ECN-CE
    /// count of an ACK frame (QUIC, RFC 9000 §13.4.2). 0 when none or unknown.
    ///
    /// Read by the controllers whose response is per mark and must see the marks with
    /// the ACK that carries them, before the ACK is counted, as the kernel does
    /// (`tcp_accecn_process()` before `in_ack_event`): Linux-mode DCTCP and Prague, and
    /// BBRv3 (as an ECN-Echo); RFC-mode [`rfc::Dctcp`](crate::rfc::Dctcp) and
    /// [`rfc::Prague`](crate::rfc::Prague) read it as packets (QUIC's ECN counts count
    /// packets), each one MSS of marked bytes, as an `on_ecn` for the ACK's largest
    /// packet. The classic controllers (CUBIC, NewReno, the 2.6.35 profile) and BBR v1
    /// ignore it: a stack reports CE to them with
    /// [`on_ecn`](CongestionController::on_ecn), which stays the classic path.
    pub ce_delta: u64,
}

impl AckEvent {
    /// An ACK with the fields every mode can use: `acked` newly acknowledged (in the
    /// controller's unit), the `largest_acked` packet number or sequence it covers, and
    /// its RTT sample; not application-limited. RFC mode ends recovery and HyStart++
    /// rounds by `largest_acked`, so building events with this constructor (rather than
    /// `..AckEvent::default()`) keeps the packet number from being forgotten.
    pub const fn new(acked: u64, largest_acked: u64, rtt: Option<Duration>) -> Self {
        AckEvent {
            acked,
            rtt,
            largest_acked: Some(largest_acked),
            app_limited: false,
            ce_delta: 0,
        }
    }

    /// The same ACK, reporting `ce_delta` newly CE-marked packets (see
    /// [`AckEvent::ce_delta`]).
    ///
    /// ```
    /// use congestion::AckEvent;
    /// let ack = AckEvent::new(4, 20, None).with_ce(1); // 4 acknowledged, 1 of them CE
    /// assert_eq!((ack.acked, ack.ce_delta), (4, 1));
    /// ```
    pub const fn with_ce(mut self, ce_delta: u64) -> Self {
        self.ce_delta = ce_delta;
        self
    }

    /// The same ACK, flagged application-limited (`true`) or not.
    pub const fn with_app_limited(mut self, app_limited: bool) -> Self {
        self.app_limited = app_limited;
        self
    }
}

/// The newest packet an ACK acknowledges, as the stack kept it: for
/// [`on_ack_sampled`](CongestionController::on_ack_sampled).
///
/// "Newest" is the most recently sent among the packets this ACK newly acknowledges
/// (in QUIC, the largest acknowledged packet number; in TCP, the segment that ends at
/// the new cumulative ACK, or the latest SACKed one): the kernel's sampler takes its
/// sample from that packet alone, so the others' snapshots need not be handed back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct AckedPacket {
    /// When the packet was sent: the `now` of the
    /// [`on_packet_sent`](CongestionController::on_packet_sent) that returned
    /// `snapshot` (the kernel's `skb_mstamp`, with a pacer its departure time).
    pub time_sent: Instant,
    /// What [`on_packet_sent`](CongestionController::on_packet_sent) returned for it.
    pub snapshot: TxSnapshot,
}

impl AckedPacket {
    /// The packet sent at `time_sent` whose send returned `snapshot`.
    pub const fn new(time_sent: Instant, snapshot: TxSnapshot) -> Self {
        AckedPacket {
            time_sent,
            snapshot,
        }
    }
}

/// What the sender just handed to the network, as a stack that counts its bytes in
/// flight reports it. A stack that lets the controller count calls
/// [`on_sent_counted`](CongestionController::on_sent_counted) instead.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SentEvent {
    /// The amount in flight after this send, in the controller's unit, as the stack
    /// counts it: the controller takes this value (see "Bytes in flight: who counts" in
    /// [`crate::controller`]). Linux mode treats any increase over what it knew as new
    /// data sent (the kernel's transmit step); an amount equal to or below only
    /// re-evaluates window use.
    pub in_flight_after: u64,
    /// The highest packet number sent so far (QUIC); RFC mode compares the largest
    /// acknowledged packet number with it.
    ///
    /// Linux mode reads it as TCP's `snd_nxt` in segments: the sequence after the last
    /// segment sent (one past it, so `n` after segments `0..n` from an initial sequence
    /// of 0), its low 32 bits with the kernel's wrap-around. When it is ahead of
    /// `snd_una + in_flight_after` (SACKed or lost segments left the stack's flight),
    /// it moves the flow's `snd_nxt` up, never back: the recovery point `high_seq` of
    /// the next reduction is then the stack's real `snd_nxt`, as the kernel's
    /// `tcp_init_cwnd_reduction` takes it. The flow compares it on the first send after
    /// anything that may have taken segments out of the stack's flight (an ACK that
    /// acknowledges nothing new, a cumulative ACK not where `acked` put `snd_una`, a
    /// loss, a discard, an RTO) and while it is ahead, so a stack reports its SACK-only
    /// ACKs too ([`AckEvent`] with `acked` 0, or the SACKed amount and the cumulative
    /// ACK). A stack that does not track it passes `snd_una + in_flight_after`, which
    /// leaves `snd_nxt` derived from the flight (0 does too, until the flow has sent
    /// 2^31 segments and 0 is ahead again).
    pub largest_sent: u64,
}

impl SentEvent {
    /// A send after which `in_flight_after` is in flight by the stack's own count,
    /// `largest_sent` being the highest packet number or sequence sent so far.
    pub const fn new(in_flight_after: u64, largest_sent: u64) -> Self {
        SentEvent {
            in_flight_after,
            largest_sent,
        }
    }
}

/// Packets declared lost: one packet, or one burst of contiguous losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct LossEvent {
    /// The amount lost, in the controller's unit; it leaves the in-flight count at once.
    pub lost: u64,
    /// The newest packet among those lost (the highest packet number or sequence, or
    /// the latest send time): it decides whether this loss starts a new recovery period.
    pub newest_lost: SentPacket,
    /// RFC 9002 §7.6 persistent congestion was established: the window collapses to the
    /// minimum whatever the recovery period.
    pub persistent_congestion: bool,
}

impl LossEvent {
    /// `lost` declared lost, the newest of them numbered `newest_lost` (packet number
    /// or sequence).
    pub const fn packet(lost: u64, newest_lost: u64) -> Self {
        LossEvent {
            lost,
            newest_lost: SentPacket::Number(newest_lost),
            persistent_congestion: false,
        }
    }

    /// `lost` declared lost, the newest of them sent at `sent_at`.
    pub const fn sent_at(lost: u64, sent_at: Instant) -> Self {
        LossEvent {
            lost,
            newest_lost: SentPacket::SentAt(sent_at),
            persistent_congestion: false,
        }
    }

    /// `lost` declared lost without naming the packet: the report is judged a new
    /// congestion event on its own (the stack's loss detection decided it is one).
    pub const fn episode(lost: u64) -> Self {
        LossEvent {
            lost,
            newest_lost: SentPacket::Unknown,
            persistent_congestion: false,
        }
    }

    /// The same loss, with persistent congestion established (`true`) or not.
    pub const fn with_persistent_congestion(mut self, persistent: bool) -> Self {
        self.persistent_congestion = persistent;
        self
    }
}

/// An ACK raised the count of ECN-CE-marked packets (RFC 9002 §7.1, Appendix B.7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct EcnEvent {
    /// By how much the CE count rose; 0 is ignored.
    pub ce_increase: u64,
    /// The largest packet that ACK acknowledged: a CE mark on a packet sent before the
    /// current recovery period began does not reduce again.
    pub newest_acked: SentPacket,
}

impl EcnEvent {
    /// The CE count rose by `ce_increase` without naming the packet: judged a new
    /// congestion event on its own.
    pub const fn episode(ce_increase: u64) -> Self {
        EcnEvent {
            ce_increase,
            newest_acked: SentPacket::Unknown,
        }
    }

    /// The CE count rose by `ce_increase` in the ACK of packet number (or sequence)
    /// `largest_acked`.
    pub const fn new(ce_increase: u64, largest_acked: u64) -> Self {
        EcnEvent {
            ce_increase,
            newest_acked: SentPacket::Number(largest_acked),
        }
    }

    /// The CE count rose by `ce_increase` in an ACK whose largest acknowledged packet
    /// was sent at `sent_at` (on the clock of `now`), as RFC 9002's `ProcessECN` judges
    /// it (Appendix B.7: a congestion event unless that packet was sent before the
    /// current recovery period began).
    ///
    /// ```
    /// use congestion::rfc;
    /// use congestion::{CongestionController, EcnEvent, Instant, SentEvent};
    ///
    /// let mut flow = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// flow.on_sent(Instant::ZERO, &SentEvent::new(12_000, 10));
    /// // CE on a packet sent at 0: one reduction, the recovery period begins at 30 ms.
    /// let t = Instant::from_micros(30_000);
    /// flow.on_ecn(t, &EcnEvent::sent_at(1, Instant::ZERO));
    /// assert_eq!(flow.cwnd(), 8_400); // β = 0.7
    /// // More CE on packets sent before it (at 0 again): no second reduction.
    /// flow.on_ecn(Instant::from_micros(31_000), &EcnEvent::sent_at(2, Instant::ZERO));
    /// assert_eq!(flow.cwnd(), 8_400);
    /// # Ok::<(), congestion::ConfigError>(())
    /// ```
    pub const fn sent_at(ce_increase: u64, sent_at: Instant) -> Self {
        EcnEvent {
            ce_increase,
            newest_acked: SentPacket::SentAt(sent_at),
        }
    }
}

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
    ///
    /// ```
    /// # use congestion::rfc;
    /// # use congestion::*;
    /// let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// assert_eq!(f.unit(), WindowUnit::Bytes);
    /// # Ok::<(), ConfigError>(())
    /// ```
    fn unit(&self) -> WindowUnit;

    /// Data was sent; see [`SentEvent`]. A send with nothing in flight before it is a
    /// restart after idle: idle time earns no growth.
    ///
    /// ```
    /// # use congestion::rfc;
    /// # use congestion::*;
    /// let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// f.on_sent(Instant::ZERO, &SentEvent::new(1200, 1)); // packet 1: 1200 bytes in flight
    /// assert_eq!(f.in_flight(), 1200);
    /// # Ok::<(), ConfigError>(())
    /// ```
    fn on_sent(&mut self, now: Instant, sent: &SentEvent);

    /// `sent` was sent (in the controller's unit), the highest packet number or sequence
    /// so far being `largest_sent`; the controller adds it to its own in-flight count
    /// (s2n-quic's model) and proceeds as [`on_sent`](Self::on_sent).
    ///
    /// ```
    /// # use congestion::rfc;
    /// # use congestion::*;
    /// let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// f.on_sent_counted(Instant::ZERO, 1200, 1);
    /// f.on_sent_counted(Instant::ZERO, 1200, 2);
    /// assert_eq!(f.in_flight(), 2400);
    /// # Ok::<(), ConfigError>(())
    /// ```
    fn on_sent_counted(&mut self, now: Instant, sent: u64, largest_sent: u64) {
        let after = self.in_flight().saturating_add(sent);
        self.on_sent(now, &SentEvent::new(after, largest_sent));
    }

    /// An ACK arrived; see [`AckEvent`]. Acknowledged amounts above what is in flight
    /// empty the flight (no underflow).
    ///
    /// ```
    /// # use congestion::rfc;
    /// # use congestion::*;
    /// let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// f.on_sent(Instant::ZERO, &SentEvent::new(12_000, 10));
    /// let rtt = Some(Duration::from_millis(30));
    /// f.on_ack(Instant::from_micros(30_000), &AckEvent::new(1200, 1, rtt));
    /// assert_eq!((f.cwnd(), f.in_flight()), (13_200, 10_800)); // slow start
    /// # Ok::<(), ConfigError>(())
    /// ```
    fn on_ack(&mut self, now: Instant, ack: &AckEvent);

    /// One packet was sent: as [`on_sent`](Self::on_sent), and returns the snapshot the
    /// stack keeps with the packet and hands back with
    /// [`on_ack_sampled`](Self::on_ack_sampled) or
    /// [`on_packet_lost`](Self::on_packet_lost) (see "Per-packet snapshots" in
    /// [`crate::controller`]). Controllers that sample nothing return
    /// `TxSnapshot::default()`; so does a call that sends nothing new.
    ///
    /// ```
    /// # use congestion::rfc;
    /// # use congestion::*;
    /// let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// let kept = f.on_packet_sent(Instant::ZERO, &SentEvent::new(1200, 0));
    /// assert_eq!((f.in_flight(), kept), (1200, TxSnapshot::default())); // CUBIC samples nothing
    /// # Ok::<(), ConfigError>(())
    /// ```
    fn on_packet_sent(&mut self, now: Instant, sent: &SentEvent) -> TxSnapshot {
        self.on_sent(now, sent);
        TxSnapshot::default()
    }

    /// One packet of `sent` (in the controller's unit) was sent, numbered
    /// `largest_sent`: as [`on_sent_counted`](Self::on_sent_counted), returning the
    /// packet's snapshot as [`on_packet_sent`](Self::on_packet_sent) does.
    ///
    /// ```
    /// # use congestion::rfc;
    /// # use congestion::*;
    /// let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// let _kept = f.on_packet_sent_counted(Instant::ZERO, 1200, 0);
    /// assert_eq!(f.in_flight(), 1200);
    /// # Ok::<(), ConfigError>(())
    /// ```
    fn on_packet_sent_counted(&mut self, now: Instant, sent: u64, largest_sent: u64) -> TxSnapshot {
        let after = self.in_flight().saturating_add(sent);
        self.on_packet_sent(now, &SentEvent::new(after, largest_sent))
    }

    /// An ACK arrived, `newest` being the most recently sent packet it newly
    /// acknowledges, with what the stack kept for it: as [`on_ack`](Self::on_ack), and
    /// the delivery-rate sampler takes its sample from `newest`. Controllers that sample
    /// nothing ignore `newest`. Call [`on_ack`](Self::on_ack) for an ACK that
    /// acknowledges nothing new.
    ///
    /// ```
    /// # use congestion::rfc;
    /// # use congestion::*;
    /// let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// let kept: Vec<TxSnapshot> =
    ///     (0..10).map(|pn| f.on_packet_sent_counted(Instant::ZERO, 1200, pn)).collect();
    /// let rtt = Some(Duration::from_millis(30));
    /// let newest = AckedPacket::new(Instant::ZERO, kept[0]); // packet 0, sent at 0
    /// f.on_ack_sampled(Instant::from_micros(30_000), &AckEvent::new(1200, 0, rtt), &newest);
    /// assert_eq!((f.cwnd(), f.in_flight()), (13_200, 10_800)); // the same as on_ack
    /// # Ok::<(), ConfigError>(())
    /// ```
    fn on_ack_sampled(&mut self, now: Instant, ack: &AckEvent, newest: &AckedPacket) {
        let _ = newest;
        self.on_ack(now, ack);
    }

    /// One packet was declared lost, `lost` being what its send returned: as
    /// [`on_loss`](Self::on_loss) with `loss` describing that packet. BBRv3 reads the
    /// snapshot (the flight and losses when it was sent) to judge whether the loss rate
    /// is too high; controllers that do not ignore it.
    ///
    /// ```
    /// # use congestion::rfc;
    /// # use congestion::*;
    /// let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// let kept = f.on_packet_sent_counted(Instant::ZERO, 1200, 0);
    /// f.on_packet_lost(Instant::from_micros(50_000), &LossEvent::packet(1200, 0), &kept);
    /// assert_eq!((f.cwnd(), f.in_flight()), (8_400, 0));
    /// # Ok::<(), ConfigError>(())
    /// ```
    fn on_packet_lost(&mut self, now: Instant, loss: &LossEvent, lost: &TxSnapshot) {
        let _ = lost;
        self.on_loss(now, loss);
    }

    /// Whether this controller samples the delivery rate from per-packet snapshots
    /// (BBR): then a stack that can should use the per-packet calls. `false` by default.
    ///
    /// ```
    /// # use congestion::rfc;
    /// # use congestion::*;
    /// let f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// assert!(!f.uses_packet_snapshots());
    /// # Ok::<(), ConfigError>(())
    /// ```
    fn uses_packet_snapshots(&self) -> bool {
        false
    }

    /// Packets were declared lost; see [`LossEvent`]. At most one reduction per
    /// recovery period; the lost amount always leaves the in-flight count.
    ///
    /// ```
    /// # use congestion::rfc;
    /// # use congestion::*;
    /// let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// f.on_sent(Instant::ZERO, &SentEvent::new(12_000, 10));
    /// let now = Instant::from_micros(50_000);
    /// f.on_loss(now, &LossEvent::packet(1200, 4)); // reduces: 12000 · 0.7
    /// f.on_loss(now, &LossEvent::packet(1200, 5)); // same episode: only leaves flight
    /// assert_eq!((f.cwnd(), f.in_flight()), (8_400, 9_600));
    /// # Ok::<(), ConfigError>(())
    /// ```
    fn on_loss(&mut self, now: Instant, loss: &LossEvent);

    /// The ECN-CE count rose; see [`EcnEvent`]. Judged like a loss, without removing
    /// anything from flight.
    ///
    /// ```
    /// # use congestion::rfc;
    /// # use congestion::*;
    /// let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// f.on_sent(Instant::ZERO, &SentEvent::new(12_000, 10));
    /// f.on_ecn(Instant::from_micros(30_000), &EcnEvent::new(1, 2)); // CE on the ACK of 2
    /// assert_eq!(f.cwnd(), 8_400);
    /// # Ok::<(), ConfigError>(())
    /// ```
    fn on_ecn(&mut self, now: Instant, ecn: &EcnEvent);

    /// A TCP retransmission timeout: everything in flight is deemed lost and the
    /// window restarts from one segment (or one MSS). Always acts.
    ///
    /// ```
    /// # use congestion::rfc;
    /// # use congestion::*;
    /// let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// f.on_sent(Instant::ZERO, &SentEvent::new(12_000, 10));
    /// f.on_retransmission_timeout(Instant::from_micros(1_000_000));
    /// assert_eq!((f.cwnd(), f.phase()), (1_200, Phase::SlowStart));
    /// # Ok::<(), ConfigError>(())
    /// ```
    fn on_retransmission_timeout(&mut self, now: Instant);

    /// `amount` left flight without being acknowledged or lost (RFC 9002 §6.4: keys
    /// discarded). Not a congestion signal.
    ///
    /// ```
    /// # use congestion::rfc;
    /// # use congestion::*;
    /// let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// f.on_sent_counted(Instant::ZERO, 2400, 2);
    /// f.on_discarded(Instant::ZERO, 1200); // the Initial packet number space is dropped
    /// assert_eq!((f.in_flight(), f.cwnd()), (1200, 12_000));
    /// # Ok::<(), ConfigError>(())
    /// ```
    fn on_discarded(&mut self, now: Instant, amount: u64);

    /// The last reduction was spurious: restore what it took away.
    /// Ignored when there is nothing to undo.
    ///
    /// ```
    /// # use congestion::rfc;
    /// # use congestion::*;
    /// let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// f.on_sent(Instant::ZERO, &SentEvent::new(12_000, 10));
    /// f.on_loss(Instant::from_micros(50_000), &LossEvent::packet(1200, 1));
    /// f.on_spurious_congestion(Instant::from_micros(60_000)); // packet 1 was acked after all
    /// assert_eq!(f.cwnd(), 12_000);
    /// # Ok::<(), ConfigError>(())
    /// ```
    fn on_spurious_congestion(&mut self, now: Instant);

    /// The sender starts transmitting again after having nothing in flight. Idle time
    /// is not counted as window-growth time.
    ///
    /// ```
    /// # use congestion::rfc;
    /// # use congestion::*;
    /// let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// f.on_transmit_start(Instant::from_micros(5_000_000)); // after 5 s with nothing to send
    /// assert_eq!(f.cwnd(), 12_000);
    /// # Ok::<(), ConfigError>(())
    /// ```
    fn on_transmit_start(&mut self, now: Instant);

    /// The congestion window, in [`unit`](CongestionController::unit)s.
    ///
    /// ```
    /// # use congestion::rfc;
    /// # use congestion::*;
    /// let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// assert_eq!(f.cwnd(), 12_000); // RFC 9002's initial window at 1200 bytes
    /// # Ok::<(), ConfigError>(())
    /// ```
    fn cwnd(&self) -> u64;

    /// The slow-start threshold, in [`unit`](CongestionController::unit)s; `None` until
    /// a congestion event or a slow-start exit sets one.
    ///
    /// ```
    /// # use congestion::rfc;
    /// # use congestion::*;
    /// let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// assert_eq!(f.ssthresh(), None);
    /// f.on_loss(Instant::ZERO, &LossEvent::episode(0));
    /// assert_eq!(f.ssthresh(), Some(8_400));
    /// # Ok::<(), ConfigError>(())
    /// ```
    fn ssthresh(&self) -> Option<u64>;

    /// The current phase; the same meaning in every mode (see [`Phase`]).
    ///
    /// ```
    /// # use congestion::rfc;
    /// # use congestion::*;
    /// let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// assert_eq!(f.phase(), Phase::SlowStart);
    /// # Ok::<(), ConfigError>(())
    /// ```
    fn phase(&self) -> Phase;

    /// The amount in flight as the controller counts it (see "Bytes in flight: who
    /// counts" in [`crate::controller`]).
    ///
    /// ```
    /// # use congestion::rfc;
    /// # use congestion::*;
    /// let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// f.on_sent_counted(Instant::ZERO, 3600, 3);
    /// f.on_loss(Instant::ZERO, &LossEvent::packet(1200, 1));
    /// assert_eq!(f.in_flight(), 2400);
    /// # Ok::<(), ConfigError>(())
    /// ```
    fn in_flight(&self) -> u64;

    /// The rate to pace at, bytes per second behind [`Rate`]: Linux's
    /// `sk_pacing_rate` rule in Linux mode and in RFC mode built from
    /// [`ClassicConfig::new`](crate::rfc::ClassicConfig::new), RFC 9002 §7.7's
    /// `1.25 · cwnd / smoothed_rtt` in RFC mode built for QUIC
    /// ([`ClassicConfig::quic`](crate::rfc::ClassicConfig::quic)).
    /// [`Rate::UNLIMITED`] before any RTT sample.
    ///
    /// ```
    /// # use congestion::rfc;
    /// # use congestion::*;
    /// let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// use congestion::pacing::Rate;
    /// assert_eq!(f.pacing_rate(), Rate::UNLIMITED); // no RTT sample yet
    /// f.on_sent(Instant::ZERO, &SentEvent::new(12_000, 10));
    /// f.on_ack(Instant::from_micros(20_000), &AckEvent::new(1200, 1, Some(Duration::from_millis(20))));
    /// // RFC 9002 §7.7: 1.25 · 13200 bytes per 20 ms.
    /// assert_eq!(f.pacing_rate().as_bytes_per_second(), 825_000);
    /// # Ok::<(), ConfigError>(())
    /// ```
    fn pacing_rate(&self) -> Rate;

    /// The segment size (TCP MSS, QUIC max datagram size) the controller works with,
    /// bytes.
    ///
    /// ```
    /// # use congestion::rfc;
    /// # use congestion::*;
    /// let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// assert_eq!(f.mss_bytes(), 1200);
    /// # Ok::<(), ConfigError>(())
    /// ```
    fn mss_bytes(&self) -> u64;

    /// The largest burst, bytes, to hand to TSO/GSO at once: Linux's
    /// `tcp_tso_autosize` on the controller's own pacing rate and minimum RTT (two
    /// segments at least), except in the 2.6.35 profile, which predates autosizing.
    ///
    /// ```
    /// # use congestion::rfc;
    /// # use congestion::*;
    /// let mut f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// assert_eq!(f.send_quantum_bytes() % 1200, 0); // whole datagrams
    /// assert!(f.send_quantum_bytes() >= 2 * 1200);
    /// # Ok::<(), ConfigError>(())
    /// ```
    fn send_quantum_bytes(&self) -> u64;

    /// The algorithm's own floor for TSO/GSO autosizing, segments (the kernel's
    /// `min_tso_segs` hook: BBR asks for 1 below 1.2 Mbit/s), or `None` for the host's
    /// `tcp_min_tso_segs` (2). [`PacedFlow`](crate::pacing::PacedFlow) sizes its bursts
    /// with it, as `tcp_tso_segs()` does.
    ///
    /// ```
    /// # use congestion::rfc;
    /// # use congestion::*;
    /// let f = rfc::Cubic::new(rfc::CubicConfig::quic(1200), Instant::ZERO)?;
    /// assert_eq!(f.min_tso_segs(), None);
    /// # Ok::<(), ConfigError>(())
    /// ```
    fn min_tso_segs(&self) -> Option<u32> {
        None
    }
}
