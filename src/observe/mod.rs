//! What the controller decided, told to a sink the stack supplies.
//!
//! Reductions and their cause, slow-start exits, recovery ends, undos and BBR mode
//! changes each reach an [`Observer`] as one [`Decision`] with the event's time; an
//! observer sees, never steers. Every event call that can decide something has an
//! `_observed` twin in [`ObservableController`]; the plain calls cost nothing extra.
//!
//! ```
//! use congestion::observe::{Counters, ObservableController};
//! use congestion::rfc::{Cubic, CubicConfig};
//! use congestion::{CongestionController, Instant, LossEvent, SentEvent};
//!
//! let mut flow = Cubic::new(CubicConfig::quic(1200), Instant::ZERO)?;
//! let mut counters = Counters::new();
//! flow.on_sent(Instant::ZERO, &SentEvent::new(12_000, 10));
//! let now = Instant::from_micros(30_000);
//! flow.on_loss_observed(now, &LossEvent::packet(1200, 3), &mut counters);
//! flow.on_loss_observed(now, &LossEvent::packet(1200, 4), &mut counters); // same period
//! assert_eq!((counters.reductions(), counters.slow_start_exits), (1, 1));
//! # Ok::<(), congestion::ConfigError>(())
//! ```
//!
//! Generic code over [`CongestionController`](crate::CongestionController) wraps the flow
//! and its sink in [`Observed`], whose plain calls report. [`NoObserver`] is zero-sized;
//! `&mut O` and pairs `(A, B)` are observers too; with the `defmt` feature,
//! `DefmtObserver` logs every decision. `docs/observe.md` gives the design and the
//! mapping onto qlog's recovery events.

mod counters;
#[cfg(feature = "defmt")]
mod defmt_observer;
pub(crate) mod model;
mod observed;

pub use counters::Counters;
#[cfg(feature = "defmt")]
pub use defmt_observer::DefmtObserver;
pub use observed::{ObservableController, Observed};
pub(crate) use observed::{PhaseSnapshot, report_ack};

use crate::controller::Phase;
use crate::time::Instant;

/// A sink for the controller's decisions. Implement
/// [`on_decision`](Observer::on_decision); its default does nothing.
///
/// It is called during the event call, with the event's `now`, after the flow's state
/// holds the decision's outcome. It must not panic, and it cannot reach the flow.
///
/// ```
/// use congestion::observe::{Decision, ObservableController, Observer};
/// use congestion::rfc::{Cubic, CubicConfig};
/// use congestion::{CongestionController, Instant, LossEvent, SentEvent};
///
/// struct Tally(u32); // counts every decision
/// impl Observer for Tally {
///     fn on_decision(&mut self, _: Instant, _: &Decision) { self.0 += 1; }
/// }
/// let mut flow = Cubic::new(CubicConfig::quic(1200), Instant::ZERO)?;
/// let mut tally = Tally(0);
/// flow.on_sent(Instant::ZERO, &SentEvent::new(12_000, 10));
/// let now = Instant::from_micros(30_000);
/// flow.on_loss_observed(now, &LossEvent::packet(1200, 3), &mut tally);
/// assert_eq!(tally.0, 2); // a reduction and the slow-start exit it makes
/// # Ok::<(), congestion::ConfigError>(())
/// ```
pub trait Observer {
    /// One decision the controller made at `now`.
    #[inline(always)]
    fn on_decision(&mut self, now: Instant, decision: &Decision) {
        let _ = (now, decision);
    }
}

/// The observer of a flow nobody observes: zero-sized and empty; the plain calls use it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct NoObserver;

impl Observer for NoObserver {}

impl<O: Observer + ?Sized> Observer for &mut O {
    #[inline(always)]
    fn on_decision(&mut self, now: Instant, decision: &Decision) {
        (**self).on_decision(now, decision);
    }
}

/// Both observers, the first one first.
impl<A: Observer, B: Observer> Observer for (A, B) {
    #[inline(always)]
    fn on_decision(&mut self, now: Instant, decision: &Decision) {
        self.0.on_decision(now, decision);
        self.1.on_decision(now, decision);
    }
}

/// One decision of a controller. Amounts are in the controller's
/// [`WindowUnit`](crate::WindowUnit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum Decision {
    /// The window was reduced (loss, ECN-CE, timeout or persistent congestion); signals
    /// ignored within a recovery period are not reported.
    Reduction {
        /// Why.
        cause: ReductionCause,
        /// cwnd before the reduction.
        cwnd_before: u64,
        /// cwnd after it.
        cwnd_after: u64,
        /// ssthresh after it.
        ssthresh: u64,
    },
    /// The flow left slow start (or HyStart++'s Conservative Slow Start). Reported
    /// before the [`Reduction`](Decision::Reduction) when a loss or ECN-CE ends it.
    SlowStartExit {
        /// What ended it.
        detector: ExitDetector,
        /// cwnd after the event.
        cwnd: u64,
        /// ssthresh after the event.
        ssthresh: u64,
    },
    /// HyStart++ (RFC 9406 §4.2) saw the RTT rise and entered Conservative Slow Start
    /// (`entered`), or found the rise spurious and resumed slow start (`!entered`).
    ConservativeSlowStart {
        /// Entered (true) or left for slow start (false).
        entered: bool,
        /// cwnd after the event.
        cwnd: u64,
    },
    /// A recovery period ([`Phase::Recovery`]) ended with an ACK of a later packet. (A
    /// Linux-mode RTO's state Loss has no end event; an undo or a new reduction ending a
    /// period is reported as itself.)
    RecoveryEnd {
        /// The phase after it.
        phase: Phase,
        /// cwnd after the event.
        cwnd: u64,
    },
    /// The last reduction was undone as spurious; reported only when something was
    /// restored (Linux `tcp_undo_cwnd_reduction`; RFC 9438 §4.9.2).
    Undo {
        /// cwnd before the undo.
        cwnd_before: u64,
        /// cwnd after it.
        cwnd_after: u64,
        /// ssthresh after it (`u64::MAX`: none).
        ssthresh: u64,
        /// The phase after it (the one the undone event interrupted, or where the
        /// restored window puts the flow).
        phase: Phase,
    },
    /// A model-based controller (BBR) changed its mode. None of today's controllers
    /// reports it; the encoding ([`BbrMode`]) is fixed for those to come.
    ModeChange {
        /// The mode left.
        from: BbrMode,
        /// The mode entered.
        to: BbrMode,
    },
}

/// Why a window was reduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum ReductionCause {
    /// Packet loss (fast retransmit; RFC 9002 §7.3.2).
    Loss,
    /// An increase of the ECN-CE count (RFC 9002 §7.3.2; Linux `tcp_enter_cwr`).
    Ecn,
    /// A retransmission timeout (Linux `tcp_enter_loss`; RFC 5681 §3.1).
    RetransmissionTimeout,
    /// Persistent congestion (RFC 9002 §7.6.2): the window collapses to its minimum.
    PersistentCongestion,
}

/// What ended slow start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum ExitDetector {
    /// Linux HyStart's ACK-train test (`HYSTART_ACK_TRAIN`).
    HystartAckTrain,
    /// Linux HyStart's delay-increase test (`HYSTART_DELAY`).
    HystartDelay,
    /// RFC 9406 HyStart++: Conservative Slow Start lasted `CSS_ROUNDS` rounds.
    HystartPlusPlus,
    /// The window grew to ssthresh (after a timeout, or a configured initial ssthresh).
    Ssthresh,
    /// A loss reduced the window during slow start.
    Loss,
    /// An ECN-CE mark reduced the window during slow start.
    Ecn,
}

/// A BBR mode, for [`Decision::ModeChange`], with a stable `u8` code: 0–3 are the
/// kernel's `enum bbr_mode` (Linux net/ipv4/tcp_bbr.c), and 4–7 are ProbeBW's phases in
/// BBRv3, 4 plus v3's `enum bbr_pacing_gain_phase` (Google's v3 tcp_bbr.c: UP 0, DOWN 1,
/// CRUISE 2, REFILL 3). A BBR v1 never reports 4–7; a BBRv3 reports them in place of 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
pub enum BbrMode {
    /// `BBR_STARTUP`: ramping up to fill the pipe.
    Startup = 0,
    /// `BBR_DRAIN`: draining the queue Startup built.
    Drain = 1,
    /// `BBR_PROBE_BW`: cycling the pacing gain (BBR v1).
    ProbeBw = 2,
    /// `BBR_PROBE_RTT`: cutting inflight to measure the minimum RTT.
    ProbeRtt = 3,
    /// BBRv3 ProbeBW_UP (`BBR_BW_PROBE_UP`).
    ProbeBwUp = 4,
    /// BBRv3 ProbeBW_DOWN (`BBR_BW_PROBE_DOWN`).
    ProbeBwDown = 5,
    /// BBRv3 ProbeBW_CRUISE (`BBR_BW_PROBE_CRUISE`).
    ProbeBwCruise = 6,
    /// BBRv3 ProbeBW_REFILL (`BBR_BW_PROBE_REFILL`).
    ProbeBwRefill = 7,
}

impl BbrMode {
    /// The stable code.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The mode of a code; `None` above 7.
    pub const fn from_code(code: u8) -> Option<BbrMode> {
        match code {
            0 => Some(BbrMode::Startup),
            1 => Some(BbrMode::Drain),
            2 => Some(BbrMode::ProbeBw),
            3 => Some(BbrMode::ProbeRtt),
            4 => Some(BbrMode::ProbeBwUp),
            5 => Some(BbrMode::ProbeBwDown),
            6 => Some(BbrMode::ProbeBwCruise),
            7 => Some(BbrMode::ProbeBwRefill),
            _ => None,
        }
    }
}

const _: () = assert!(core::mem::size_of::<Decision>() <= 32);

#[cfg(test)]
mod tests;
