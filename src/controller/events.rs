//! The event structs a stack fills in (what was sent, acknowledged, lost or CE-marked)
//! and the two enums a controller reports ([`WindowUnit`], [`Phase`]).

use super::*;

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
