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
/// The [crate's front page](crate) opens with a QUIC quick start on this type; the
/// call order is [`crate::controller`]'s ([`AckEvent::new`] takes the acknowledged
/// bytes, the largest acknowledged packet number and the RTT sample at once).
///
/// - **Window use** (RFC 9438 §4.6, §5.8; RFC 9002 §7.8): growth only while the
///   window is used, judged per round as Linux's `tcp_is_cwnd_limited()` does (a send
///   leaving `in_flight + MSS >= cwnd` marks its round). Other ACKs, and those flagged
///   `app_limited`, pause the CUBIC clock; a send from idle shifts the epoch by the
///   idle time.
/// - **Recovery** (RFC 9002 §7.3.2): a loss or ECN-CE reduces at once (RFC 9438 §4.6;
///   floors 2·MSS, 1·MSS on ECN-CE) and starts [`Phase::Recovery`], where nothing grows
///   and signals about packets sent before it are ignored
///   ([`SentPacket::Unknown`](crate::SentPacket::Unknown) always reduces). It ends with
///   the ACK of a later packet or, with no packet numbers, once the reduced flight is
///   acknowledged. A timeout or persistent congestion always collapses the window
///   (RFC 5681 §3.1, RFC 9002 §7.6.2). Lost and discarded bytes leave flight at once.
/// - **Pacing**: RFC 9002 §7.7's `1.25 · cwnd / smoothed_rtt` for
///   [`ClassicConfig::quic`](crate::rfc::ClassicConfig::quic), Linux's
///   `tcp_update_pacing_rate` in bytes for
///   [`ClassicConfig::new`](crate::rfc::ClassicConfig::new);
///   [`PacedFlow`](crate::pacing::PacedFlow) adds the EDT pacer and TSQ.
///
/// `docs/rfc-mode.md` has the rules in full; [`SlowStartKind::LinuxHystart`] says how
/// Linux HyStart runs in bytes.
pub type Cubic = Classic<RfcCubic>;

/// One NewReno flow in bytes (RFC 9002 §7, Appendix B): one MSS per window of
/// acknowledged bytes in congestion avoidance, β = 0.5 on loss and ECN-CE, a 2·MSS
/// floor; everything else is [`Cubic`]'s. It takes the same [`CubicConfig`] and ignores
/// its CUBIC-only settings (β, C, fast convergence, Reno-friendliness).
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

/// One classic-driver flow's state without its parameters; `W` grows and reduces the
/// window. Every event takes the [`RfcParams`] (one block for many flows, as the C ABI
/// keeps); [`Classic`] pairs the state with a handle on them and is what most users want.
///
/// `repr(C, align(64))`: the fields a congestion-avoidance ACK and the next send touch
/// come first and fill whole cache lines (on 64-bit targets two for CUBIC, one for
/// NewReno; see [`HOT_BYTES`](Self::HOT_BYTES)).
///
/// `U` keeps what an undo restores ([`UndoStorage`]): [`KeepUndo`] (default; CUBIC
/// 384 bytes, NewReno 256) or [`NoUndo`] ([`ClassicState::without_undo`]; 256 and
/// 192) for stacks that never report spurious congestion.
///
/// Pass the same parameters to every call: the flow caches values computed from them,
/// which [`set_cubic_config`](Self::set_cubic_config) clears when they change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C, align(64))]
pub struct ClassicState<W: WindowAdjustment, U: UndoStorage<W> = KeepUndo<W>> {
    cwnd: u64,
    in_flight: u64,
    largest_sent: u64,
    /// The largest packet number acknowledged, plus one (as `snd_una`); 0: none yet.
    acked_below: u64,
    last_activity: Instant,
    /// Smoothed RTT, µs (0: no sample yet), clamped at `u32::MAX` (71.6 minutes).
    srtt_us: u32,
    /// Minimum RTT, µs (`u32::MAX`: no sample yet, or samples all clamped there).
    min_rtt_us: u32,
    /// The flow's MSS, `1..=65535` bytes; the parameters' MSS only starts new flows.
    mss: NonZeroU32,
    phase: Phase,
    /// Whether a send in the current round filled the window (Linux `is_cwnd_limited`).
    round_cwnd_limited: bool,
    last_ack_cwnd_limited: bool,
    /// Whether the window-use round's mark is `largest_sent` (`usage_mark` is stale),
    /// so the common send stores nothing outside the hot part.
    mark_is_largest_sent: bool,
    growth: W,
    /// Where the window-use round ends, unless `mark_is_largest_sent`.
    usage_mark: u64,
    ssthresh: u64,
    /// `largest_sent` at the last reduction; an ACK above it ends recovery.
    recovery_end: u64,
    /// Reduced flight not yet acknowledged; recovery also ends at zero.
    recovery_flight_left: u64,
    /// When the current recovery period began, if `recovery_started` (else 0).
    recovery_start: Instant,
    /// HyStart(++) runs only in the initial slow start (RFC 9406 §4.3). The flags sit
    /// after the 64-bit fields: padding between them cost ~950 bytes of 32-bit flash.
    detector_active: bool,
    /// Whether `recovery_start` is set (a flag: an `Option` tag would take 8 bytes).
    recovery_started: bool,
    /// Which delay detector ended the initial slow start, if one did.
    slow_start_detector: Option<ExitDetector>,
    /// The slow-start detector of the flow's kind.
    detector: Detector,
    /// What an undo restores, where `U` keeps it.
    undo: U,
}

/// One classic-driver flow: its [`ClassicState`] and a handle `P` that [`Borrow`]s an
/// [`RfcParams`], never copied into the flow: [`RfcParams`] itself (the default, built
/// by [`Classic::new`]), `&'static RfcParams` ([`RfcParams::new`] is a `const fn`),
/// `Arc<RfcParams>`, or a zero-sized type whose `Borrow` returns a `static` (the flow
/// is then its state alone). Use [`Cubic`] and [`NewReno`], or name `P`:
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
/// `repr(C)`: the state, and its hot part, first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct Classic<W: WindowAdjustment, P = RfcParams> {
    state: ClassicState<W>,
    params: P,
}

/// The state and the parameters, from a [`Classic`] (one pointer) or [`WithParams`].
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

#[cfg(test)]
mod tests;
