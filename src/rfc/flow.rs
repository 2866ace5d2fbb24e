//! [`Classic`] (and its parameter-free [`ClassicState`]): cwnd, ssthresh, phase,
//! recovery periods, window use and pacing in bytes, driving one [`WindowAdjustment`] (CUBIC: [`Cubic`]; NewReno:
//! [`NewReno`]) and a slow-start strategy. The rules a stack must know are on
//! [`Cubic`].

use crate::controller::{
    AckEvent, CongestionController, EcnEvent, LossEvent, Phase, SentEvent, SentPacket, WindowUnit,
};
use crate::cubic::{RfcCubic, RfcCubicConfig, RfcCubicParams, validate_mss};
use crate::error::ConfigError;
use crate::hystart::{HystartPlusPlus, LinuxHystart};
use crate::observe::{ExitDetector, NoObserver, Observer, ReductionCause};
use crate::pacing::{
    BytesPacingInput, PacingRateParams, Rate, default_send_quantum_bytes, pacing_rate_bytes,
};
use crate::rfc::NewRenoWindow;
use crate::rfc::adjustment::{RoundAck, WindowAdjustment};
use crate::rfc::bound::BoundClassic;
use crate::rfc::config::{CubicConfig, RfcParams, SlowStartKind};
use crate::rfc::undo::{KeepUndo, NoUndo, UndoStorage};
use crate::time::{Duration, Instant};
use core::borrow::{Borrow, BorrowMut};
use core::num::{NonZeroU32, NonZeroU64};

mod ack;
mod controller;
mod detector;
mod events;
mod handle;
mod observe;
mod slow_start;
mod state;

use detector::Detector;

/// A validated MSS (at most 65535) in the flow's 32-bit field.
fn mss32(mss: NonZeroU64) -> Result<NonZeroU32, ConfigError> {
    match u32::try_from(mss.get()).ok().and_then(NonZeroU32::new) {
        Some(m) => Ok(m),
        None => Err(ConfigError::MssOutOfRange),
    }
}

/// One RFC-mode flow, in bytes: RFC 9438 CUBIC with standard slow start, Linux HyStart
/// or RFC 9406 HyStart++, for QUIC stacks (RFC 9002) and RFC-following TCP stacks.
/// Plain `Copy` data (`cargo run --example sizes` prints its size). [`NewReno`] is
/// the same driver with NewReno's growth and reduction.
///
/// The [crate's front page](crate) opens with a QUIC quick start on this type.
///
/// # Call order
///
/// As for every controller ([`crate::controller`]): [`on_sent`](CongestionController::on_sent)
/// after each send with the bytes in flight afterwards (or the bytes sent, for the flow
/// to count) and the largest packet number sent;
/// [`on_ack`](CongestionController::on_ack) per ACK frame with the newly acknowledged
/// bytes, the largest packet number it acknowledges and its RTT sample
/// ([`AckEvent::new`] takes all three, so none is forgotten);
/// [`on_loss`](CongestionController::on_loss) per lost packet or loss burst.
///
/// # Window use
///
/// CUBIC grows only while the sender uses its window (RFC 9438 §4.6, §5.8; RFC 9002
/// §7.8), judged per round in bytes as Linux's `tcp_is_cwnd_limited()` does: a send
/// after which `in_flight + MSS >= cwnd` marks its round window-limited, and the round
/// ends when `largest_acked` reaches that send's `largest_sent`. An ACK not flagged
/// `app_limited` may grow the window if its round was window-limited or if the flight
/// just before it, plus one MSS, reaches the window. Other ACKs pause the CUBIC clock;
/// a send from idle (or [`on_transmit_start`](CongestionController::on_transmit_start))
/// shifts the epoch by the idle time.
///
/// # Recovery
///
/// A loss or ECN-CE event reduces at once (RFC 9438 §4.6: floors of 2·MSS, 1·MSS for
/// cwnd on ECN-CE) and starts a recovery period, [`Phase::Recovery`], where nothing
/// grows and losses or marks of packets sent before it do not reduce again (RFC 9002
/// §7.3.2); [`SentPacket::Unknown`](crate::SentPacket::Unknown) always reduces. The
/// period ends with the ACK of a packet sent after it or, while no ACK has named a
/// packet number, once the flight at the reduction is acknowledged. A timeout or
/// persistent congestion always collapses the window (RFC 5681 §3.1, RFC 9002 §7.6.2)
/// and starts a period too. Lost and discarded bytes leave the flight at once.
///
/// # Pacing
///
/// [`pacing_rate`](CongestionController::pacing_rate) is RFC 9002 §7.7's
/// `1.25 · cwnd / smoothed_rtt` for a flow built from
/// [`ClassicConfig::quic`](crate::rfc::ClassicConfig::quic), Linux's
/// `tcp_update_pacing_rate` in bytes for [`ClassicConfig::new`](crate::rfc::ClassicConfig::new)
/// (the `pacing` field); [`PacedFlow`](crate::pacing::PacedFlow) adds the EDT pacer and TSQ.
///
/// `docs/rfc-mode.md` (in the repository) has these rules in full and the cost of
/// reusing curve points within a millisecond; [`SlowStartKind::LinuxHystart`] says how
/// Linux HyStart runs in bytes.
pub type Cubic = Classic<RfcCubic>;

/// One NewReno flow in bytes (RFC 9002 §7 and Appendix B): slow start (standard,
/// HyStart++ or Linux HyStart), congestion avoidance of one MSS per window of
/// acknowledged bytes, β = 0.5 on loss and on ECN-CE, a minimum window of 2 MSS, the
/// recovery period, persistent congestion, and no growth while application-limited.
/// Everything but the growth and the reduction is [`Cubic`]'s, documented there; the
/// configuration is the same [`CubicConfig`], whose CUBIC-only settings (β, C, fast
/// convergence, Reno-friendliness) NewReno does not read.
///
/// ```
/// use congestion::rfc::{NewReno, CubicConfig};
/// use congestion::{AckEvent, CongestionController, Instant, LossEvent, SentEvent};
///
/// let mut flow = NewReno::new(CubicConfig::quic(1200), Instant::ZERO)?;
/// flow.on_sent(Instant::ZERO, &SentEvent::new(12_000, 10));
/// flow.on_loss(Instant::from_micros(30_000), &LossEvent::packet(1_200, 1));
/// assert_eq!((flow.cwnd(), flow.ssthresh()), (6_000, Some(6_000)));
/// # Ok::<(), congestion::ConfigError>(())
/// ```
pub type NewReno = Classic<NewRenoWindow>;

/// The 0.2 name of [`Cubic`].
#[deprecated(since = "0.3.0", note = "renamed to `rfc::Cubic`")]
pub type RfcFlow = Cubic;

/// The 0.2 name of [`NewReno`].
#[deprecated(since = "0.3.0", note = "renamed to `rfc::NewReno`")]
pub type NewRenoFlow = NewReno;

/// The state of one classic-driver flow without any parameters: cwnd, ssthresh, the
/// phase, slow start and its exit, recovery periods, window use, bytes in flight, the
/// RTT estimates, the flow's own MSS and undo; `W` grows and reduces the window. Every
/// event takes the [`RfcParams`] the flow runs with (for a caller that keeps one
/// parameter block for many flows, as the C ABI does); [`Classic`] pairs the state with
/// a handle on its parameters and is what most users want.
///
/// The fields an ACK in congestion avoidance and the send after it touch come first
/// (`repr(C)` keeps that order): the window, the flight, the packet numbers, the last
/// activity, the RTT estimates, the MSS and the flags, then the algorithm's leading
/// fields; the window-use mark, ssthresh, recovery records, the slow-start detector
/// and the undo snapshot follow. The state is aligned to 64 bytes, so that those hot
/// fields fill whole cache lines from its start: on 64-bit targets two lines for CUBIC
/// (128 bytes), one for NewReno (64), asserted at compile time.
///
/// `U` is where the flow keeps what an undo restores ([`UndoStorage`]): in the state
/// ([`KeepUndo`], the default; CUBIC 384 bytes, NewReno 256) or nowhere ([`NoUndo`],
/// built with [`ClassicState::without_undo`]; 256 and 192 bytes, the same hot part),
/// for stacks that never report a spurious congestion event.
///
/// Pass the same parameters to every call: the flow remembers values computed from
/// them (CUBIC's per-ACK-size `W_est` growth and curve points), which
/// [`set_cubic_config`](Self::set_cubic_config) clears when they change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C, align(64))]
pub struct ClassicState<W: WindowAdjustment, U: UndoStorage<W> = KeepUndo<W>> {
    cwnd: u64,
    in_flight: u64,
    largest_sent: u64,
    /// The largest packet number (or sequence) acknowledged, plus one: 0 while no ACK
    /// has named one. (Packet numbers start at 0, so 0 itself cannot mean "none"; the
    /// next number, as TCP's `snd_una` is, needs no flag of its own in the hot part.)
    acked_below: u64,
    last_activity: Instant,
    /// Smoothed RTT, µs (0: no sample yet), clamped at `u32::MAX` (71.6 minutes).
    srtt_us: u32,
    /// Minimum RTT, µs (`u32::MAX`: no sample yet, or samples all clamped there).
    min_rtt_us: u32,
    /// The flow's MSS in bytes, `1..=65535` (QUIC: its max datagram size); the shared
    /// parameters' MSS is only where new flows start.
    mss: NonZeroU32,
    phase: Phase,
    /// Whether a send in the current round filled the window (Linux `is_cwnd_limited`).
    round_cwnd_limited: bool,
    last_ack_cwnd_limited: bool,
    /// Whether the window-use round's mark is `largest_sent` itself (as every send that
    /// fills the window or starts a new round leaves it): then `usage_mark` is stale and
    /// the common send stores nothing outside the hot part.
    mark_is_largest_sent: bool,
    growth: W,
    /// `largest_sent` when the current window-use round was recorded, unless
    /// `mark_is_largest_sent`: the round ends when `largest_acked` reaches it.
    usage_mark: u64,
    /// Read by slow start, reductions and the pacing rate, not by a congestion-avoidance
    /// ACK or a send: outside the hot part.
    ssthresh: u64,
    /// `largest_sent` at the last reduction: packets numbered up to it were sent before
    /// the current recovery period, and an ACK above it ends the period.
    recovery_end: u64,
    /// Bytes in flight after the reduction not yet matched by acknowledged bytes:
    /// recovery also ends when this reaches zero (for stacks that give no packet numbers).
    recovery_flight_left: u64,
    /// When the current recovery period began, if `recovery_started` (else 0).
    recovery_start: Instant,
    /// HyStart / HyStart++ run only in the initial slow start (RFC 9406 §4.3). The two
    /// flags come after the 64-bit fields, not between them: there, the padding after
    /// them made the compiler build the fields that follow in a scratch copy and move
    /// them with `memcpy` and `memclr` when a flow is built on a 32-bit core (about
    /// 950 bytes of firmware flash for those two routines).
    detector_active: bool,
    /// Whether a recovery period has begun (`recovery_start` is its start): false before
    /// the first reduction. A flag beside the other one rather than an
    /// `Option<Instant>`, whose tag would take 8 bytes of its own.
    recovery_started: bool,
    /// Which delay detector ended the initial slow start, if one did (for observers;
    /// in the padding after the two flags).
    slow_start_detector: Option<ExitDetector>,
    /// The slow-start detector of the flow's kind: one at a time, in one place.
    detector: Detector,
    /// What an undo restores, where `U` keeps it.
    undo: U,
}

/// One classic-driver flow: its [`ClassicState`] and a handle `P` on the parameters it
/// runs with, anything that [`Borrow`]s an [`RfcParams`]:
///
/// - [`RfcParams`] itself (the default): one object per flow, its own copy, as
///   [`Classic::new`] builds it from an [`CubicConfig`];
/// - `&'static RfcParams`: firmware keeps one validated block in a `static`
///   ([`RfcParams::new`] is a `const fn`) and every flow points at it;
/// - `Arc<RfcParams>` (a QUIC stack's endpoint shares its settings with its
///   connections; `Arc` borrows as its content);
/// - a zero-sized type of the user's whose `Borrow` returns their `static`: the flow is
///   then its state alone.
///
/// The parameters are read, never copied into the flow; what depends on the MSS is
/// computed from them and the flow's own MSS. Use it through [`Cubic`] and
/// [`NewReno`] (with the default `P`) or name `P`:
///
/// ```
/// use congestion::rfc::{Classic, CubicConfig, RfcParams};
/// use congestion::cubic::RfcCubic;
/// use congestion::{CongestionController, Instant};
///
/// static PARAMS: RfcParams = match RfcParams::new(&CubicConfig::quic(1200)) {
///     Ok(p) => p,
///     Err(_) => panic!("invalid settings"),
/// };
/// let a: Classic<RfcCubic, &'static RfcParams> = Classic::with_params(&PARAMS, Instant::ZERO);
/// let b = Classic::<RfcCubic, _>::with_params(&PARAMS, Instant::ZERO);
/// assert_eq!((a.cwnd(), b.cwnd()), (12_000, 12_000));
/// ```
///
/// `repr(C)`: the state first, so that its hot part starts the flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct Classic<W: WindowAdjustment, P = RfcParams> {
    state: ClassicState<W>,
    params: P,
}

/// How the out-of-line parts of an ACK reach the state and the parameters: from a
/// [`Classic`] (one pointer; its own parameters sit at a fixed offset from its state) or
/// from a state and the parameters given with the call ([`WithParams`]).
trait Parts<W: WindowAdjustment, U: UndoStorage<W>> {
    /// The state and the parameters, at once.
    fn parts(&mut self) -> (&mut ClassicState<W, U>, &RfcParams);
}

impl<W: WindowAdjustment, P: Borrow<RfcParams>> Parts<W, KeepUndo<W>> for Classic<W, P> {
    #[inline(always)]
    fn parts(&mut self) -> (&mut ClassicState<W, KeepUndo<W>>, &RfcParams) {
        (&mut self.state, self.params.borrow())
    }
}

/// A state and the parameters given with one call.
struct WithParams<'a, W: WindowAdjustment, U: UndoStorage<W>> {
    state: &'a mut ClassicState<W, U>,
    params: &'a RfcParams,
}

impl<W: WindowAdjustment, U: UndoStorage<W>> Parts<W, U> for WithParams<'_, W, U> {
    #[inline(always)]
    fn parts(&mut self) -> (&mut ClassicState<W, U>, &RfcParams) {
        (self.state, self.params)
    }
}

/// A fresh flow's HyStart++ state.
const FRESH_HYSTART_PP: HystartPlusPlus = HystartPlusPlus::new();

// The parameters are never copied into a flow: with a zero-sized handle, a flow is its
// state and nothing more.
const _: () = assert!(
    core::mem::size_of::<Classic<RfcCubic, ZeroSized>>()
        == core::mem::size_of::<ClassicState<RfcCubic>>()
);
const _: () = assert!(
    core::mem::size_of::<Classic<NewRenoWindow, ZeroSized>>()
        == core::mem::size_of::<ClassicState<NewRenoWindow>>()
);

// Issue 27's sizes on 64-bit targets. The hot part starts the state (the window at
// offset 0, the state aligned to a line) and fills two 64-byte lines for CUBIC, one
// for NewReno. Without an undo snapshot (NoUndo) each whole state is at most 256
// bytes; CUBIC's with one is 384 (six lines): its snapshot restores the state bit for
// bit and is more than the 128 bytes left. Asserted so that none grows unnoticed.
const _: () = assert!(core::mem::offset_of!(ClassicState<RfcCubic>, cwnd) == 0);
const _: () = assert!(core::mem::align_of::<ClassicState<RfcCubic>>() == 64);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(
    ClassicState::<RfcCubic>::HOT_BYTES == 128 && ClassicState::<NewRenoWindow>::HOT_BYTES <= 64
);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(
    core::mem::size_of::<ClassicState<RfcCubic>>() <= 384
        && core::mem::size_of::<ClassicState<NewRenoWindow>>() <= 256
        && core::mem::size_of::<ClassicState<RfcCubic, NoUndo>>() <= 256
        && core::mem::size_of::<ClassicState<NewRenoWindow, NoUndo>>() <= 192
);
// The hot part does not move without a snapshot.
#[cfg(target_pointer_width = "64")]
const _: () =
    assert!(ClassicState::<RfcCubic, NoUndo>::HOT_BYTES == ClassicState::<RfcCubic>::HOT_BYTES);

/// A zero-sized stand-in for a user's handle, for the size asserts above.
#[allow(dead_code)]
struct ZeroSized;

#[cfg(test)]
mod tests;
