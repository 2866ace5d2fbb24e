//! The controller API that TCP and QUIC stacks program against.
//!
//! One small trait, [`CongestionController`], with plain event structs. A TCP stack that
//! counts segments and a QUIC stack that counts bytes use the same trait: each controller
//! states its [`WindowUnit`] once, and every amount passed in or read out is in that unit.
//!
//! # Call order
//!
//! For every flow, a stack calls, with a monotonic `now` each time:
//!
//! 1. [`on_sent`](CongestionController::on_sent) after it hands data to the network,
//!    with the amount in flight afterwards (this is how the controller learns whether the
//!    flow is limited by its window or by the application);
//! 2. [`on_ack`](CongestionController::on_ack) for each ACK (TCP) or ACK frame (QUIC)
//!    that newly acknowledges data, then `on_sent` again if it sends in response;
//! 3. [`on_congestion_event`](CongestionController::on_congestion_event) once per
//!    congestion event (one per round trip for losses, as RFC 9438 §4.6 and Linux do:
//!    the stack's loss detection decides what is one event);
//! 4. [`on_spurious_congestion`](CongestionController::on_spurious_congestion) when the
//!    last congestion event turns out to be spurious (DSACK, F-RTO, a QUIC ACK of a packet
//!    declared lost);
//! 5. [`on_transmit_start`](CongestionController::on_transmit_start) only if the stack
//!    wants to signal restart after idle explicitly; `on_sent` with nothing previously in
//!    flight already does.
//!
//! Then it reads [`cwnd`](CongestionController::cwnd),
//! [`ssthresh`](CongestionController::ssthresh) and [`phase`](CongestionController::phase).
//! No call allocates, blocks, reads a clock or panics.

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

/// Where the flow is in its congestion-control life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Phase {
    /// Exponential growth: cwnd below ssthresh, no congestion seen in this phase.
    SlowStart,
    /// RFC 9406 Conservative Slow Start: growth slowed by `CSS_GROWTH_DIVISOR` after an
    /// RTT increase, for up to `CSS_ROUNDS` rounds.
    ConservativeSlowStart,
    /// Window growth by the CUBIC (or Reno-friendly) curve.
    CongestionAvoidance,
    /// Reacting to a congestion event: fast recovery, CWR, or recovery after a
    /// retransmission timeout, until the stack's recovery ends.
    Recovery,
}

/// What the network told the sender in one ACK (TCP) or ACK frame (QUIC).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct AckEvent {
    /// Newly acknowledged amount, in the controller's [`WindowUnit`]. Zero is allowed
    /// (a duplicate ACK carrying only an RTT sample).
    pub acked: u64,
    /// The RTT sample this ACK produced, if any.
    pub rtt: Option<Duration>,
    /// The highest sequence (TCP, in the controller's unit) or packet number (QUIC) this
    /// ACK covers: round-trip rounds end when it passes the mark taken at round start,
    /// and RFC mode's recovery ends when it passes the largest sent at the event. Left at
    /// 0, RFC mode still ends recovery once the bytes in flight at the event have been
    /// acknowledged, and judges window use by the last send (see
    /// [`RfcFlow`](crate::rfc::RfcFlow)). Linux mode keeps its own `snd_una` and ignores
    /// this field.
    pub largest_acked: u64,
    /// True when the sender had less in flight than its window allowed because the
    /// application had nothing to send. Linux mode derives this itself from `on_sent`
    /// and ignores the field.
    pub app_limited: bool,
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
            largest_acked,
            app_limited: false,
        }
    }

    /// The same ACK, flagged application-limited (`true`) or not.
    pub const fn with_app_limited(mut self, app_limited: bool) -> Self {
        self.app_limited = app_limited;
        self
    }
}

/// What the sender just handed to the network.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SentEvent {
    /// Total amount in flight after this send, in the controller's unit. Linux mode
    /// treats any increase over what it knew as new data sent (the kernel's transmit
    /// step); an amount equal to or below only re-evaluates window use.
    pub in_flight_after: u64,
    /// The highest sequence (TCP) or packet number (QUIC) sent so far.
    pub largest_sent: u64,
}

impl SentEvent {
    /// A send after which `in_flight_after` is in flight, `largest_sent` being the
    /// highest packet number or sequence sent so far.
    pub const fn new(in_flight_after: u64, largest_sent: u64) -> Self {
        SentEvent {
            in_flight_after,
            largest_sent,
        }
    }
}

/// A congestion signal, one per event (not one per lost packet).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum CongestionEvent {
    /// Loss found by duplicate ACKs, SACK, RACK or QUIC's packet/time threshold.
    Loss,
    /// An ECN-CE mark echoed by the receiver.
    Ecn,
    /// A retransmission timeout (TCP RTO): the window collapses to one segment.
    RetransmissionTimeout,
    /// QUIC persistent congestion (RFC 9002 §7.6): the window collapses to the minimum.
    PersistentCongestion,
}

/// The trait stacks program against. Statically dispatched; see [`crate::AnyController`]
/// for a run-time choice without allocation.
pub trait CongestionController {
    /// The unit of every amount this controller takes and returns.
    fn unit(&self) -> WindowUnit;

    /// Data was sent; see [`SentEvent`].
    fn on_sent(&mut self, now: Instant, sent: &SentEvent);

    /// An ACK arrived; see [`AckEvent`].
    fn on_ack(&mut self, now: Instant, ack: &AckEvent);

    /// One congestion event.
    fn on_congestion_event(&mut self, now: Instant, event: CongestionEvent);

    /// The last congestion event was spurious: restore what it took away.
    /// Ignored when there is nothing to undo.
    fn on_spurious_congestion(&mut self, now: Instant);

    /// The sender starts transmitting again after having nothing in flight. Idle time
    /// is not counted as window-growth time.
    fn on_transmit_start(&mut self, now: Instant);

    /// The congestion window, in [`unit`](CongestionController::unit)s.
    fn cwnd(&self) -> u64;

    /// The slow-start threshold, in [`unit`](CongestionController::unit)s
    /// (`u32::MAX >> 1` segments or `u64::MAX` bytes mean "none yet").
    fn ssthresh(&self) -> u64;

    /// The current phase.
    fn phase(&self) -> Phase;
}
