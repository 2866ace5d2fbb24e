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

mod controller;
mod events;
mod observe;
mod slow_start;

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
/// # Quick start (QUIC)
///
/// ```
/// use congestion::rfc::{Cubic, CubicConfig};
/// use congestion::{AckEvent, CongestionController, Duration, Instant, LossEvent, Phase, SentEvent};
///
/// // 1200-byte datagrams; RFC 9002's initial window: 10 · 1200 = 12000 bytes.
/// let mut flow = Cubic::new(CubicConfig::quic(1200), Instant::ZERO)?;
/// // Packets 1..=10 sent: 12000 bytes in flight, the window is full.
/// flow.on_sent(Instant::ZERO, &SentEvent::new(12_000, 10));
///
/// // An ACK frame for packets 1 and 2, 20 ms later: slow start adds the 2400 bytes.
/// let now = Instant::from_micros(20_000);
/// let rtt = Duration::from_millis(20);
/// flow.on_ack(now, &AckEvent::new(2_400, 2, Some(rtt)));
/// assert_eq!(flow.cwnd(), 14_400);
///
/// // Packets 3 and 4 declared lost, one report each: one reduction, cwnd = β · cwnd.
/// flow.on_loss(now, &LossEvent::packet(1_200, 3));
/// flow.on_loss(now, &LossEvent::packet(1_200, 4));
/// assert_eq!((flow.cwnd(), flow.in_flight()), (10_080, 7_200));
/// assert_eq!(flow.phase(), Phase::Recovery);
/// // Pace as RFC 9002 §7.7 says: 1.25 · cwnd / smoothed RTT = 1.25 · 10080 / 20 ms.
/// assert_eq!(flow.pacing_rate().as_bytes_per_second(), 630_000);
/// # Ok::<(), congestion::ConfigError>(())
/// ```
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
/// # Window use (when the window may grow)
///
/// CUBIC must not grow while the sender is not using its window (RFC 9438 §4.6, §5.8;
/// RFC 9002 §7.8). Window use is judged per round, as Linux does (`tcp_cwnd_validate()`,
/// `tcp_is_cwnd_limited()`), in bytes: a send after which `in_flight + MSS >= cwnd`
/// marks the current round window-limited; the round ends when `largest_acked` reaches
/// the `largest_sent` of that send, and the next send starts a new record. An ACK may
/// grow the window when the stack did not flag it `app_limited` and either its round was
/// window-limited or the bytes in flight just before it, plus one MSS, reach the window.
/// So a stack that sends a window, then processes all of its ACKs before sending again,
/// still doubles per round in slow start; a flow whose sends never fill the window never
/// grows. While no ACK has carried a packet number (every `largest_acked` `None`), each send
/// starts a new round: the last send decides.
///
/// ACKs that may not grow the window also pause the CUBIC clock until the next one that
/// may, so application-limited time earns no growth credit (RFC 9438 §5.8). A send with
/// nothing in flight, or [`on_transmit_start`](CongestionController::on_transmit_start),
/// shifts the epoch by the idle time since the last ACK or send.
///
/// # Recovery
///
/// A loss or ECN-CE event reduces at once (ssthresh = β·cwnd, at least 2·MSS; cwnd =
/// β·cwnd, at least 2·MSS on loss and 1·MSS on ECN-CE, RFC 9438 §4.6) and starts a
/// recovery period, [`Phase::Recovery`], where nothing grows. Losses and CE marks of
/// packets sent before the period began do not reduce again (RFC 9002 §7.3.2): a packet
/// numbered at or below the largest sent at the reduction, or sent at or before it
/// ([`SentPacket`](crate::SentPacket)); a loss report of
/// [`SentPacket::Unknown`](crate::SentPacket::Unknown) always reduces, so a stack that
/// does not say which packet was lost decides itself what one event is. The period
/// ends with the first ACK whose `largest_acked` is above the `largest_sent` at the
/// reduction (a packet sent after it, RFC 9002 §7.3.2); that ACK already counts for
/// growth. If no ACK has carried a packet number yet (every `largest_acked` `None`), it also
/// ends once as many bytes as were in flight after the reduction have been acknowledged,
/// so a stack that leaves the field at its default never freezes the flow.
///
/// A retransmission timeout or persistent congestion (a [`LossEvent`] with
/// `persistent_congestion`) always acts: slow start from 1 MSS or 2 MSS (RFC 5681 §3.1,
/// RFC 9002 §7.6.2). Unlike RFC 9002's pseudocode, which forgets the recovery start
/// there, it starts a recovery period too, so that the other packets of the lost flight,
/// reported one by one afterwards, do not reduce again from the minimum window.
///
/// Lost and discarded bytes leave the in-flight count at once.
///
/// # Pacing
///
/// [`pacing_rate`](CongestionController::pacing_rate) follows the configured
/// [`PacingFormula`](crate::pacing::PacingFormula): RFC 9002 §7.7's
/// `1.25 · cwnd / smoothed_rtt` for a flow built from [`ClassicConfig::quic`](crate::rfc::ClassicConfig::quic) (QUIC),
/// Linux's `tcp_update_pacing_rate` in bytes for one built from [`ClassicConfig::new`](crate::rfc::ClassicConfig::new)
/// (no RFC gives TCP a formula); either is one field,
/// `config.pacing = PacingRateConfig::rfc9002()` or `PacingRateConfig::new()`.
/// `send_quantum_bytes` is Linux's TSO autosizing
/// on that rate and the minimum RTT. A stack that wants the EDT pacer, TSQ and the
/// windowed minimum RTT as well wraps the flow in a [`PacedFlow`](crate::pacing::PacedFlow).
///
/// # Linux HyStart in bytes
///
/// [`SlowStartKind::LinuxHystart`] runs the kernel's detector ([`LinuxHystart`]) with:
/// cwnd converted to whole segments (`cwnd / MSS`) for its 16-segment low-window test;
/// `largest_acked` / `largest_sent` truncated to 32 bits as `snd_una` / `snd_nxt`; the
/// connection's minimum RTT as `delay_min`; no pacing rate (so no GSO ACK-delay cushion);
/// pacing status `Fq` when `paced`, else `None` (halving the train threshold as unpaced
/// Linux does); and no 1-second sample blackout after a CUBIC epoch starts.
///
/// # Cost
///
/// The target `W_cubic(t + RTT)` is computed at most once per millisecond of
/// `t + RTT` (as Linux computes it once per jiffy) and reused within it: the reused value
/// differs from the exact one by at most the curve's slope over 1 ms,
/// `3·C·MSS·(|t + RTT − K| + 1 ms)²·1 ms` bytes (9 bytes 2.5 s from `K` with C = 0.4,
/// MSS = 1200). The Reno-friendly test `W_cubic(t) < W_est` reuses curve points already
/// computed in the epoch whenever they decide it.
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

/// The slow-start detector a flow runs (its [`SlowStartKind`], chosen when it is built):
/// only one kind is ever active in a flow, so the kinds share their storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
enum Detector {
    /// RFC 9406 HyStart++.
    PlusPlus(HystartPlusPlus),
    /// Linux HyStart in bytes.
    Linux(LinuxHystart),
    /// Standard slow start: nothing to detect.
    Standard,
}

impl Detector {
    /// A fresh detector of `kind`.
    fn new(kind: SlowStartKind) -> Detector {
        match kind {
            // Built in place, not copied from the constant: on a 32-bit core the copy
            // went through a scratch value and `memcpy` (scripts/firmware.sh).
            SlowStartKind::HystartPlusPlus => Detector::PlusPlus(HystartPlusPlus::new()),
            SlowStartKind::LinuxHystart => Detector::Linux(LinuxHystart::default()),
            SlowStartKind::Standard => Detector::Standard,
        }
    }

    /// Which kind this is.
    pub(super) const fn kind(&self) -> SlowStartKind {
        match self {
            Detector::PlusPlus(_) => SlowStartKind::HystartPlusPlus,
            Detector::Linux(_) => SlowStartKind::LinuxHystart,
            Detector::Standard => SlowStartKind::Standard,
        }
    }

    /// The HyStart++ state, if this is HyStart++.
    pub(super) const fn plus_plus_mut(&mut self) -> Option<&mut HystartPlusPlus> {
        match self {
            Detector::PlusPlus(h) => Some(h),
            _ => None,
        }
    }

    /// Whether HyStart++ is in Conservative Slow Start (never, for the other kinds).
    const fn in_css(&self) -> bool {
        match self {
            Detector::PlusPlus(h) => h.in_css(),
            _ => false,
        }
    }

    /// Sets HyStart++'s CSS flag (what an event and its undo change); nothing for the
    /// other kinds, which have none.
    const fn set_in_css(&mut self, in_css: bool) {
        if let Detector::PlusPlus(h) = self {
            h.set_in_css(in_css);
        }
    }
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

impl<W: WindowAdjustment> Classic<W, RfcParams> {
    /// A new flow at `now` with its own copy of the parameters `config` gives, in slow
    /// start with the configured initial window ([`RfcParams::new`] says what is
    /// refused).
    pub fn new(config: CubicConfig, now: Instant) -> Result<Self, ConfigError> {
        let params = RfcParams::new(&config)?;
        Ok(Classic::with_params(params, now))
    }
}

impl<W: WindowAdjustment, P: Borrow<RfcParams>> Classic<W, P> {
    /// A new flow at `now` that runs with the parameters behind `params` (validated
    /// already, so nothing can be refused): slow start with their initial window, at
    /// their MSS.
    pub fn with_params(params: P, now: Instant) -> Self {
        let state = ClassicState::new(params.borrow(), now);
        Classic { state, params }
    }

    /// A flow from its state and the parameters it ran with (see [`into_parts`](Self::into_parts)).
    pub const fn from_parts(state: ClassicState<W>, params: P) -> Self {
        Classic { state, params }
    }

    /// The state and the parameter handle, apart.
    pub fn into_parts(self) -> (ClassicState<W>, P) {
        (self.state, self.params)
    }

    /// The flow's state, without its parameters.
    pub const fn state(&self) -> &ClassicState<W> {
        &self.state
    }

    /// The handle on the parameters (`P` itself).
    pub const fn params_handle(&self) -> &P {
        &self.params
    }

    /// The parameters the flow runs with, shared with whoever else uses them.
    #[inline]
    pub fn rfc_params(&self) -> &RfcParams {
        self.params.borrow()
    }

    /// The CUBIC parameters as this flow applies them: the shared settings at the
    /// flow's own MSS (NewReno reads only the MSS).
    pub fn params(&self) -> RfcCubicParams {
        self.state.params(self.params.borrow())
    }

    /// The algorithm's state (CUBIC's `W_max`, `K`, epoch, `W_est`, ...; NewReno's
    /// byte count).
    pub const fn growth(&self) -> &W {
        self.state.growth()
    }

    /// The validated pacing-rate settings.
    pub fn pacing_params(&self) -> &PacingRateParams {
        self.params.borrow().pacing()
    }

    /// The HyStart++ state (meaningful with [`SlowStartKind::HystartPlusPlus`]).
    pub const fn hystart_pp(&self) -> &HystartPlusPlus {
        self.state.hystart_pp()
    }

    /// Smoothed RTT (RFC 6298 weights), µs; 0 before the first sample; samples above
    /// `u32::MAX` µs (71.6 minutes) count as `u32::MAX` ([`ClassicState::srtt_us`]).
    pub const fn srtt_us(&self) -> u64 {
        self.state.srtt_us()
    }

    /// Minimum RTT seen, µs; `u64::MAX` before the first sample (and for a minimum of
    /// 71.6 minutes or more, [`ClassicState::min_rtt_us`]).
    pub const fn min_rtt_us(&self) -> u64 {
        self.state.min_rtt_us()
    }

    /// While in [`Phase::Recovery`]: the largest packet number or sequence sent when the
    /// recovery began; an ACK of anything above it ends the recovery. `None` otherwise.
    pub const fn recovery_end(&self) -> Option<u64> {
        self.state.recovery_end()
    }

    /// The largest packet number or sequence acknowledged so far; `None` while no ACK
    /// has named one.
    pub const fn largest_acked(&self) -> Option<u64> {
        self.state.largest_acked()
    }

    /// Whether the last ACK counted as cwnd-limited (see "Window use" on [`Cubic`]).
    pub const fn last_ack_cwnd_limited(&self) -> bool {
        self.state.last_ack_cwnd_limited()
    }

    /// The MSS changed (QUIC: a new max datagram size) for this flow alone: see
    /// [`ClassicState::set_mss`]. Works whatever `P` is: the MSS is the flow's own.
    pub fn set_mss(&mut self, mss_bytes: u64) -> Result<(), ConfigError> {
        self.state.set_mss(mss_bytes)
    }
}

impl<W: WindowAdjustment, P: BorrowMut<RfcParams>> Classic<W, P> {
    /// Replaces the pacing-rate settings; they apply from the next read. Needs a handle
    /// that can change the parameters (the flow's own copy): shared parameters change
    /// for every flow at once, where they are kept.
    pub fn set_pacing_params(&mut self, pacing: PacingRateParams) {
        self.params.borrow_mut().set_pacing(pacing);
    }

    /// New CUBIC settings for a running flow: see [`ClassicState::set_cubic_config`].
    /// Needs a handle that can change the parameters, as
    /// [`set_pacing_params`](Self::set_pacing_params).
    pub fn set_cubic_config(&mut self, cubic: RfcCubicConfig) -> Result<(), ConfigError> {
        self.state.set_cubic_config(self.params.borrow_mut(), cubic)
    }
}

impl<W: WindowAdjustment> ClassicState<W> {
    /// A new flow at `now` that runs with `p`: slow start with their initial window, at
    /// their MSS. It keeps an undo snapshot ([`KeepUndo`]).
    pub fn new(p: &RfcParams, now: Instant) -> Self {
        Self::with_undo_storage(p, now)
    }
}

impl<W: WindowAdjustment> ClassicState<W, NoUndo> {
    /// A new flow at `now` that runs with `p`, as [`ClassicState::new`], but keeps no
    /// undo snapshot ([`NoUndo`]): smaller by the snapshot, and
    /// [`on_spurious_congestion`](Self::on_spurious_congestion) changes nothing. For
    /// stacks that never report a spurious congestion event (RFC 9002 has none).
    pub fn without_undo(p: &RfcParams, now: Instant) -> Self {
        Self::with_undo_storage(p, now)
    }
}

impl<W: WindowAdjustment, U: UndoStorage<W>> ClassicState<W, U> {
    /// Bytes from the start of the state to the end of what a steady ACK in congestion
    /// avoidance and the send after it read or write: the driver's fields, then the
    /// algorithm's leading ones ([`WindowAdjustment::HOT_BYTES`]). 128 (two lines) for
    /// CUBIC and 64 for NewReno on 64-bit targets, asserted at compile time.
    pub const HOT_BYTES: usize = core::mem::offset_of!(Self, growth) + W::HOT_BYTES;

    /// A new flow at `now` that runs with `p` (slow start with their initial window, at
    /// their MSS), keeping its undo snapshot where `U` says: for the default
    /// [`KeepUndo`] this is [`ClassicState::new`], for [`NoUndo`]
    /// [`ClassicState::without_undo`].
    pub fn with_undo_storage(p: &RfcParams, now: Instant) -> Self {
        let initial = p.initial_window_bytes();
        // "None yet" is u64::MAX inside the flow; the trait reports it as None.
        let initial_ssthresh = p.initial_ssthresh_raw();
        let mut flow = ClassicState {
            cwnd: initial,
            in_flight: 0,
            largest_sent: 0,
            acked_below: 0,
            srtt_us: 0,
            min_rtt_us: u32::MAX,
            last_activity: now,
            mss: p.initial_mss(),
            phase: if initial < initial_ssthresh {
                Phase::SlowStart
            } else {
                Phase::CongestionAvoidance
            },
            round_cwnd_limited: false,
            last_ack_cwnd_limited: false,
            mark_is_largest_sent: false,
            growth: W::ZEROED,
            usage_mark: 0,
            ssthresh: initial_ssthresh,
            detector_active: !matches!(p.slow_start(), SlowStartKind::Standard),
            recovery_end: 0,
            recovery_flight_left: 0,
            recovery_started: false,
            recovery_start: Instant::ZERO,
            slow_start_detector: None,
            detector: Detector::new(p.slow_start()),
            undo: U::EMPTY,
        };
        // What the zeroed constant cleared: now equal to the fresh state
        // (tests/rfc_flow.rs checks).
        flow.growth.finish_fresh();
        flow.growth.start(p);
        flow
    }

    /// The flow's MSS in bytes (`1..=65535`), non-zero in its type.
    #[inline(always)]
    fn mss64(&self) -> NonZeroU64 {
        NonZeroU64::from(self.mss)
    }

    /// The minimum window, 2 · MSS bytes.
    // RFC 9438 §4.6: cwnd = max(ssthresh, 2) segments
    #[inline(always)]
    fn min_window(&self) -> u64 {
        2 * u64::from(self.mss.get())
    }

    /// The CUBIC parameters `p` gives, at this flow's MSS.
    pub fn params(&self, p: &RfcParams) -> RfcCubicParams {
        p.cubic().at_mss(self.mss64())
    }

    /// The algorithm's state (CUBIC's `W_max`, `K`, epoch, `W_est`, ...; NewReno's
    /// byte count).
    pub const fn growth(&self) -> &W {
        &self.growth
    }

    /// The HyStart++ state (meaningful with [`SlowStartKind::HystartPlusPlus`]).
    pub const fn hystart_pp(&self) -> &HystartPlusPlus {
        match &self.detector {
            Detector::PlusPlus(h) => h,
            // Other kinds never touch HyStart++: its state stays fresh.
            _ => &FRESH_HYSTART_PP,
        }
    }

    /// Smoothed RTT (RFC 6298 weights), µs; 0 before the first sample. Kept in 32 bits:
    /// samples above `u32::MAX` µs (71.6 minutes) count as `u32::MAX`, so the estimate
    /// never exceeds it.
    pub const fn srtt_us(&self) -> u64 {
        self.srtt_us as u64
    }

    /// Minimum RTT seen, µs; `u64::MAX` before the first sample. Kept in 32 bits as
    /// [`srtt_us`](Self::srtt_us): a minimum of `u32::MAX` µs (71.6 minutes, where
    /// samples are clamped) or more also reads `u64::MAX`.
    pub const fn min_rtt_us(&self) -> u64 {
        if self.min_rtt_us == u32::MAX {
            u64::MAX
        } else {
            self.min_rtt_us as u64
        }
    }

    /// While in [`Phase::Recovery`]: the largest packet number or sequence sent when the
    /// recovery began; an ACK of anything above it ends the recovery. `None` otherwise.
    pub const fn recovery_end(&self) -> Option<u64> {
        match self.phase {
            Phase::Recovery => Some(self.recovery_end),
            _ => None,
        }
    }

    /// The largest packet number or sequence acknowledged so far; `None` while no ACK
    /// has named one.
    pub const fn largest_acked(&self) -> Option<u64> {
        self.acked_below.checked_sub(1)
    }

    /// Whether the last ACK counted as cwnd-limited (see "Window use" on [`Cubic`]).
    pub const fn last_ack_cwnd_limited(&self) -> bool {
        self.last_ack_cwnd_limited
    }

    /// The MSS changed (QUIC: a new max datagram size). cwnd and ssthresh keep their
    /// bytes but are raised to the new minimum window; the CUBIC epoch restarts at the
    /// next ACK so the curve stays continuous. An invalid MSS is refused and changes
    /// nothing.
    pub fn set_mss(&mut self, mss_bytes: u64) -> Result<(), ConfigError> {
        self.mss = mss32(validate_mss(mss_bytes)?)?;
        let min = self.min_window();
        self.cwnd = self.cwnd.max(min);
        self.ssthresh = self.ssthresh.max(min);
        self.growth.on_mss_change();
        // A saved epoch's K was computed with the old C·MSS: an undo must not bring it
        // back, so the restored state starts a fresh epoch too (found by fuzzing).
        if let Some(u) = self.undo.saved() {
            W::undo_on_mss_change(&mut u.growth);
        }
        Ok(())
    }

    /// New CUBIC settings (β, C, fast convergence, Reno-friendliness, MSS) written into
    /// `p`, the parameters this flow runs with. They apply from the next event; the
    /// state is kept (a new MSS behaves as [`set_mss`](Self::set_mss), for this flow,
    /// and becomes the MSS of flows built from `p` later). Invalid settings are refused
    /// and change nothing. Other flows that share `p` keep values computed with the old
    /// settings (CUBIC's curve points): give them these settings through their own call.
    pub fn set_cubic_config(
        &mut self,
        p: &mut RfcParams,
        cubic: RfcCubicConfig,
    ) -> Result<(), ConfigError> {
        let params = cubic.validate()?;
        let mss_changed = params.mss() != self.mss64().get();
        p.set_cubic(params);
        self.growth.on_params_change();
        if let Some(u) = self.undo.saved() {
            W::undo_on_params_change(&mut u.growth);
        }
        if mss_changed {
            self.set_mss(cubic.mss_bytes)?;
        }
        Ok(())
    }

    /// Updates the smoothed and minimum RTT from one sample.
    fn on_rtt_sample(&mut self, rtt: Duration) {
        // Samples of 71.6 minutes or more, and the first sample, out of line: the
        // common sample tests its width and one field.
        let Ok(r) = u32::try_from(rtt.as_micros()) else {
            self.clamped_rtt_sample();
            return;
        };
        // Compared in memory and stored only when the minimum moves: `min` loads it,
        // selects and stores on every sample.
        if r < self.min_rtt_us {
            self.min_rtt_us = r;
        }
        let s = self.srtt_us;
        if s == 0 {
            // RFC 6298 §2.2: SRTT <- R
            self.first_rtt_sample(r);
            return;
        }
        // RFC 6298 §2.3: SRTT = (1 - 1/8) * SRTT + 1/8 * R'
        // No overflow: s/8 and r/8 are at most 2^29 - 1, and 7·(2^29 - 1) + (2^29 - 1)
        // = 2^32 - 8 < 2^32, so plain operations give what saturating ones would.
        self.srtt_us = (s / 8) * 7 + r / 8;
    }

    /// The first RTT sample (`srtt_us` still 0), `r` µs, becomes the smoothed RTT.
    #[cold]
    #[inline(never)]
    fn first_rtt_sample(&mut self, r: u32) {
        // RFC 6298 §2.2: SRTT <- R
        self.srtt_us = r;
    }

    /// A sample above `u32::MAX` µs (71.6 minutes): it counts as `u32::MAX` µs, the
    /// most the 32-bit estimates hold (the clamp `srtt_us()` states). The minimum is
    /// `u32::MAX` or less already, and stays.
    #[cold]
    #[inline(never)]
    fn clamped_rtt_sample(&mut self) {
        let (s, r) = (self.srtt_us, u32::MAX);
        self.srtt_us = if s == 0 {
            // RFC 6298 §2.2: SRTT <- R
            r
        } else {
            // RFC 6298 §2.3: SRTT = (1 - 1/8) * SRTT + 1/8 * R' (no overflow, as above)
            (s / 8) * 7 + r / 8
        };
    }

    /// Saves what an undo restores, in place.
    fn save_undo(&mut self) {
        let Some(u) = self.undo.slot() else {
            return;
        };
        u.saved = true;
        u.ssthresh = self.ssthresh;
        u.phase = self.phase;
        self.growth.save_undo_into(&mut u.growth);
        u.in_css = self.detector.in_css();
        u.detector_active = self.detector_active;
        u.recovery_end = self.recovery_end;
        u.recovery_flight_left = self.recovery_flight_left;
        u.recovery_started = self.recovery_started;
        u.recovery_start = self.recovery_start;
    }

    /// Whether the current recovery has ended (see "Recovery" on [`Cubic`]).
    fn recovery_over(&self) -> bool {
        // RFC 9002 §7.3.2: recovery ends when a packet sent after its start is acked
        // (largest acked > recovery_end, i.e. acked_below > recovery_end + 1).
        let by_packet_number = self.acked_below > self.recovery_end.saturating_add(1);
        // Fallback for stacks whose ACKs carry no packet number (none named yet):
        // once as many bytes as were in flight at the event have been acknowledged.
        let by_bytes = self.acked_below == 0 && self.recovery_flight_left == 0;
        by_packet_number || by_bytes
    }

    /// A congestion-avoidance ACK that may grow the window, after the driver's
    /// bookkeeping: the steady path when CUBIC knows all it needs, else the full one.
    /// Its own function, so that `on_ack` saves no registers and its other ACKs (slow
    /// start, recovery, the epoch start) pay one prologue, not two.
    ///
    /// Reaches the state and the parameters through `f`: for a [`Classic`] holding its
    /// parameters both are at fixed offsets from one pointer, so the parameters take no
    /// register of their own here.
    #[cfg(target_pointer_width = "64")]
    #[inline(never)]
    fn steady_ack<F: Parts<W, U>>(f: &mut F, acked: u64) {
        let (s, p) = f.parts();
        match s.growth.on_steady_ack(
            p.cubic(),
            &s.mss,
            s.last_activity,
            s.cwnd,
            acked,
            u64::from(s.srtt_us),
        ) {
            Some(cwnd) => s.cwnd = cwnd,
            None => Self::full_ca_ack(f, acked),
        }
    }

    /// The full CUBIC path for a window-limited ACK of `acked` bytes in congestion
    /// avoidance: what [`on_ack_phases`](Self::on_ack_phases) does there (the phase is
    /// CongestionAvoidance, so cwnd >= ssthresh, see `window_limited_ack`: neither its
    /// recovery nor its slow-start branch can run).
    #[cfg(target_pointer_width = "64")]
    #[inline(never)]
    fn full_ca_ack<F: Parts<W, U>>(f: &mut F, acked: u64) {
        let (s, p) = f.parts();
        s.cwnd = s.growth.on_ack(
            p.cubic(),
            s.mss64(),
            s.last_activity,
            s.cwnd,
            acked,
            u64::from(s.srtt_us),
        );
    }

    /// What every ACK records: bytes in flight, `largest_acked`, the RTT sample, the time.
    #[inline(always)]
    fn ack_bookkeeping(&mut self, now: Instant, ack: &AckEvent) {
        // In-flight floors at zero. Written as a wrapping subtraction and a rare fix-up
        // (more acked than in flight) out of line, rather than `saturating_sub`: the
        // common ACK then subtracts in place and branches, without keeping the old
        // value and the new one side by side for a conditional move.
        #[cfg(target_pointer_width = "64")]
        {
            let (left, underflow) = self.in_flight.overflowing_sub(ack.acked);
            self.in_flight = left;
            if underflow {
                self.clear_in_flight();
            }
        }
        #[cfg(not(target_pointer_width = "64"))]
        {
            self.in_flight = self.in_flight.saturating_sub(ack.acked);
        }
        // Compared in memory and stored only when it moves: `max` loads both, selects
        // and stores on every ACK.
        if let Some(pn) = ack.largest_acked {
            // Saturating: a sequence of u64::MAX counts as u64::MAX - 1 acknowledged.
            let below = pn.saturating_add(1);
            if below > self.acked_below {
                self.acked_below = below;
            }
        }
        if let Some(rtt) = ack.rtt {
            self.on_rtt_sample(rtt);
        }
        self.last_activity = now;
    }

    /// What the algorithm sees of every ACK ([`WindowAdjustment::on_every_ack`]):
    /// nothing for the classic ones, whose empty hook the compiler removes.
    #[inline(always)]
    fn every_ack_hook(&mut self, p: &RfcParams, now: Instant, acked: u64) {
        let round = RoundAck {
            acked,
            acked_below: self.acked_below,
            largest_sent: self.largest_sent,
            cwnd: self.cwnd,
            srtt_us: u64::from(self.srtt_us),
            mss: self.mss64().get(),
        };
        self.growth.on_every_ack(p, now, &round);
    }

    /// More was acknowledged than was in flight: nothing is in flight.
    #[cfg(target_pointer_width = "64")]
    #[cold]
    #[inline(never)]
    fn clear_in_flight(&mut self) {
        self.in_flight = 0;
    }

    /// An ACK whose window use is judged from its own flight too (see "Window use" on
    /// [`Cubic`]): any ACK, but on 64-bit targets `on_ack` takes those of a
    /// window-limited round itself, so this one is out of line there.
    #[cfg_attr(target_pointer_width = "64", inline(never))]
    fn on_ack_judged_now<F: Parts<W, U>>(f: &mut F, now: Instant, ack: &AckEvent) {
        let (s, p) = f.parts();
        let flight_before = s.in_flight;
        s.ack_bookkeeping(now, ack);
        s.every_ack_hook(p, now, ack.acked);
        let cwnd_limited = !ack.app_limited
            && (s.round_cwnd_limited || flight_before.saturating_add(s.mss64().get()) >= s.cwnd);
        s.last_ack_cwnd_limited = cwnd_limited;
        if cwnd_limited {
            Self::window_limited_ack(f, ack);
        } else {
            Self::on_ack_phases(f, ack);
        }
    }

    /// An ACK that may grow the window, after the driver's bookkeeping.
    #[inline(always)]
    fn window_limited_ack<F: Parts<W, U>>(f: &mut F, ack: &AckEvent) {
        // The steady ACK: growth in congestion avoidance with everything CUBIC needs
        // already known (RfcCubic::on_steady_ack); the same result as the full path. On
        // 64-bit targets only: narrower ones, where flash counts more than the
        // instructions saved, keep the one full path. The phase alone decides: it is
        // CongestionAvoidance only with cwnd >= ssthresh (every place that sets it checks
        // that, or sets ssthresh = cwnd; an undo restores a pair that held it, and the
        // MSS floor raises both alike), so the full path would not take slow start.
        #[cfg(target_pointer_width = "64")]
        if f.parts().0.phase == Phase::CongestionAvoidance {
            Self::steady_ack(f, ack.acked);
            return;
        }
        Self::on_ack_phases(f, ack);
    }

    /// The rest of an ACK after the driver's bookkeeping (which recorded its time in
    /// `last_activity` and its window use in `last_ack_cwnd_limited`): recovery, slow
    /// start, and congestion avoidance through the full CUBIC path. Out of line and fed
    /// from the state, so that the steady ACK keeps no registers for it.
    #[cfg_attr(target_pointer_width = "64", inline(never))]
    fn on_ack_phases<F: Parts<W, U>>(f: &mut F, ack: &AckEvent) {
        let (s, p) = f.parts();
        s.on_ack_phases_with(p, ack);
    }

    /// [`on_ack_phases`](Self::on_ack_phases) on the state and the parameters.
    #[inline(always)]
    fn on_ack_phases_with(&mut self, p: &RfcParams, ack: &AckEvent) {
        let now = self.last_activity;
        let cwnd_limited = self.last_ack_cwnd_limited;
        if self.phase == Phase::Recovery {
            self.recovery_flight_left = self.recovery_flight_left.saturating_sub(ack.acked);
            if !self.recovery_over() {
                return;
            }
            // Out of recovery: slow start below ssthresh, else congestion avoidance (set
            // below, once for both ways there: one comparison of cwnd with ssthresh).
            if self.cwnd < self.ssthresh {
                self.phase = Phase::SlowStart;
                self.slow_start_ack(p, now, ack, cwnd_limited);
                return;
            }
        } else if self.cwnd < self.ssthresh {
            self.slow_start_ack(p, now, ack, cwnd_limited);
            return;
        }
        self.phase = Phase::CongestionAvoidance;
        if cwnd_limited {
            self.cwnd = self.growth.on_ack(
                p.cubic(),
                self.mss64(),
                now,
                self.cwnd,
                ack.acked,
                u64::from(self.srtt_us),
            );
        } else {
            // RFC 9438 §5.8: no growth, and no growth credit, while application-limited
            self.growth.pause(now);
        }
    }

    /// A send with nothing in flight before it: a restart after idle if it puts
    /// something in flight. Out of line on 64-bit targets (on narrower ones it costs
    /// more flash than it saves).
    #[cfg_attr(target_pointer_width = "64", cold, inline(never))]
    fn on_sent_from_idle(&mut self, now: Instant, in_flight_after: u64) {
        if in_flight_after > 0 {
            self.restart_after_idle(now);
        }
    }

    /// Idle from the last activity until `now`: no growth credit for it.
    fn restart_after_idle(&mut self, now: Instant) {
        // RFC 9438 §5.8: idle periods are not part of t
        self.growth.pause(self.last_activity);
        self.growth.resume(now);
    }
}

impl<U: UndoStorage<RfcCubic>> ClassicState<RfcCubic, U> {
    /// The CUBIC state (`W_max`, `K`, epoch, `W_est`, ...).
    pub const fn cubic(&self) -> &RfcCubic {
        &self.growth
    }
}

impl<P> Classic<RfcCubic, P> {
    /// The CUBIC state (`W_max`, `K`, epoch, `W_est`, ...).
    pub const fn cubic(&self) -> &RfcCubic {
        &self.state.growth
    }
}

/// A parameter handle of no size: its flows are their state alone.
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shared;

#[cfg(test)]
static SHARED_PARAMS: RfcParams = match RfcParams::new(&CubicConfig::quic(1200)) {
    Ok(p) => p,
    Err(_) => panic!("the QUIC defaults are valid"),
};

#[cfg(test)]
impl Borrow<RfcParams> for Shared {
    fn borrow(&self) -> &RfcParams {
        &SHARED_PARAMS
    }
}

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

/// [`ClassicState::HOT_BYTES`] for CUBIC, where the tests name it.
#[cfg(all(test, target_pointer_width = "64"))]
pub(crate) const CUBIC_HOT_BYTES: usize = ClassicState::<RfcCubic>::HOT_BYTES;
/// The same for NewReno.
#[cfg(all(test, target_pointer_width = "64"))]
pub(crate) const NEWRENO_HOT_BYTES: usize = ClassicState::<NewRenoWindow>::HOT_BYTES;

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
