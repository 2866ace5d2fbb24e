//! RFC 9438 CUBIC window growth, counting bytes (RFC mode).
//!
//! [`RfcCubic`] holds the CUBIC variables of RFC 9438 §4.1.2 (`W_max`, `K`, `t_epoch`,
//! `cwnd_epoch`, `cwnd_prior`, `W_est`) and computes the congestion-avoidance window on
//! each ACK and the reductions on congestion events. The driver that owns `cwnd`,
//! `ssthresh`, the phase and recovery is [`crate::rfc::Cubic`].
//!
//! Differences from Linux mode (`LinuxCubic`), all on purpose:
//! - bytes, not segments; time in µs, not jiffies; `K` from `W_max − cwnd_epoch`
//!   (RFC 9438), not from `W_max − cwnd`;
//! - the target is clamped to `[cwnd, 1.5·cwnd]` and grows cwnd by
//!   `(target − cwnd)/cwnd` per acked byte, instead of Linux's `cnt` counter;
//! - the Reno-friendly estimate switches α to 1 once `W_est ≥ cwnd_prior`.
//!
//! Scales: windows in bytes, time in µs, β and C in thousandths (see
//! [`RfcCubicConfig`](super::RfcCubicConfig)); every product goes through
//! [`mul_div_floor`] or saturating arithmetic, see [`super::rfc_curve`] for the bounds.

use super::rfc_config::{RFC_SCALE, RfcCubicConfig, RfcCubicParams};
#[cfg(target_pointer_width = "64")]
use super::rfc_curve::cubic_k_and_offset;
use super::rfc_curve::w_cubic_bytes;
#[cfg(target_pointer_width = "64")]
use super::rfc_memo::MemoPoints;
use super::rfc_memo::{CurveMemo, RenoVerdict};
use super::wide_math::{div_rem_floor, mul_div_floor};
use crate::time::Instant;
#[cfg(target_pointer_width = "64")]
use core::num::NonZeroU32;
use core::num::NonZeroU64;

/// The shared CUBIC parameters with the MSS of the flow that uses them: what depends on
/// the MSS (`C · MSS`, α·MSS, the minimum window) is computed from the two when asked.
#[derive(Clone, Copy)]
struct At<'a> {
    p: &'a RfcCubicParams,
    mss: NonZeroU64,
}

impl<'a> At<'a> {
    /// The parameters at their own MSS (a standalone [`RfcCubic`]).
    #[inline]
    const fn own(p: &'a RfcCubicParams) -> Self {
        At {
            p,
            mss: p.mss_non_zero(),
        }
    }

    #[inline]
    const fn config(&self) -> &RfcCubicConfig {
        self.p.config()
    }

    #[inline]
    const fn mss(&self) -> u64 {
        self.mss.get()
    }

    #[inline]
    const fn c_mss(&self) -> u64 {
        self.p.c_mss_at(self.mss)
    }

    #[inline]
    const fn alpha_mss(&self) -> (u64, u64) {
        self.p.alpha_mss_at(self.mss)
    }

    /// The minimum window, 2 · MSS bytes.
    // RFC 9438 §4.6: cwnd = max(ssthresh, 2) segments
    #[inline]
    const fn min_window(&self) -> u64 {
        2 * self.mss.get()
    }
}

/// RFC 9438 CUBIC state, in bytes and microseconds. Plain `Copy` data.
///
/// `repr(C)`, in the order a steady congestion-avoidance ACK reads the fields: the
/// steady clock, `W_est` with its remainder, `cwnd_prior`, the remembered growth per ACK
/// size and the curve memo come first (they follow the driver's own hot fields in a
/// flow); `W_max`, `K`, `cwnd_epoch` and the epoch's times, read when the curve is
/// computed or an event happens, come after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct RfcCubic {
    /// `2^64 − t_epoch` (µs, wrapping) while an epoch runs and growth is not paused,
    /// else 0: `now + steady_clock` carries exactly when the steady ACK may run from
    /// the epoch (started, not paused, `now ≥ t_epoch`), and its sum is then `t`. So the
    /// steady ACK tests all three and finds `t` in one addition, instead of testing two
    /// `Option`s and subtracting. An epoch that starts at exactly 0 µs has no negation
    /// (0 means "not steady"): its ACKs take the full path, with the same results.
    /// Derived from `epoch_start` and `paused_at` by `sync_steady_clock` wherever they
    /// change (not saved with an undo: recomputed on restore). 64-bit targets only.
    #[cfg(target_pointer_width = "64")]
    steady_clock: u64,
    /// `W_est`: the Reno-friendly estimate, bytes.
    pub w_est_bytes: u64,
    /// Fraction of `W_est` growth not yet added, in bytes·bytes (below the cwnd it was
    /// computed with), so that small ACKs on large windows are not lost to rounding.
    pub w_est_remainder: u64,
    /// `cwnd_prior`: the window when ssthresh was last set, bytes.
    pub cwnd_prior_bytes: u64,
    /// Points of this epoch's curve already computed (see `rfc_memo`), and, on 64-bit
    /// targets, `W_est`'s growth numerator `⌊acked · α·MSS / (1 + β)⌋` (α < 1) for the
    /// last ACK size (up to 65535 bytes, numerators below 2^32): a stack's ACKs mostly
    /// carry the same number of bytes, so the product and its division run once per ACK
    /// size. Parameter changes reset it; narrower targets, where flash counts more than
    /// instructions, do not remember it.
    memo: CurveMemo,
    /// `W_max`: the window before the last reduction (less with fast convergence), bytes.
    pub w_max_bytes: u64,
    /// `K`: time from the epoch start until `W_cubic` reaches `W_max`, µs.
    pub k_us: u64,
    /// `cwnd_epoch`: the window at `t_epoch`, bytes.
    pub cwnd_epoch_bytes: u64,
    /// `t_epoch` if `epoch_started`, else 0 (see [`epoch_start`](Self::epoch_start)):
    /// a time and a flag beside the others rather than an `Option<Instant>`, whose tag
    /// would take 8 bytes of its own.
    epoch_start: Instant,
    /// When growth paused, if `paused`, else 0 (see [`paused_at`](Self::paused_at)).
    paused_at: Instant,
    /// True when `W_max` is undefined (no congestion event yet, or after a timeout): the
    /// next epoch takes `W_max = cwnd_epoch`, so `K = 0` (RFC 9438 §4.8, §4.10).
    pub w_max_from_epoch: bool,
    /// Whether a congestion-avoidance stage has started (`epoch_start` is its start).
    epoch_started: bool,
    /// Whether growth is paused (`paused_at` is when it paused).
    paused: bool,
}

/// What an undo brings back of [`RfcCubic`] (RFC 9438 §4.9.2: `W_max`, `K`, `t_epoch`,
/// `W_est`, `cwnd_prior`, with the epoch's other state and its curve points): everything
/// but the remembered `W_est` growth per ACK size, which depends only on the ACK size
/// and the parameters and so stays valid. On narrower targets, which do not remember
/// that growth and where the field-by-field copies cost flash, the whole [`RfcCubic`].
///
/// `repr(packed)`, 97 bytes: twelve 64-bit words and one byte of flags, with no padding
/// of its own, so that the undo snapshot's own flags fill the last word it ends in
/// (the snapshot is read and written only by a congestion event and its undo, never
/// by an ACK). Fields are copied out, never borrowed.
#[cfg(target_pointer_width = "64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, packed)]
pub struct CubicUndo {
    w_max_bytes: u64,
    cwnd_prior_bytes: u64,
    k_us: u64,
    /// As in [`RfcCubic`]: 0 unless the flag says it is set.
    epoch_start: Instant,
    cwnd_epoch_bytes: u64,
    w_est_bytes: u64,
    w_est_remainder: u64,
    /// As in [`RfcCubic`]: 0 unless the flag says it is set.
    paused_at: Instant,
    /// The curve points (see `rfc_memo`).
    points: MemoPoints,
    /// `UNDO_W_MAX_FROM_EPOCH`, `UNDO_EPOCH_STARTED`, `UNDO_PAUSED`, and the memo's
    /// `UNDO_LOW_IS_POINT`, `UNDO_HAS_TARGET`.
    flags: u8,
}

/// [`CubicUndo::flags`]: `w_max_from_epoch`.
#[cfg(target_pointer_width = "64")]
const UNDO_W_MAX_FROM_EPOCH: u8 = 1;
/// [`CubicUndo::flags`]: `epoch_started`.
#[cfg(target_pointer_width = "64")]
const UNDO_EPOCH_STARTED: u8 = 2;
/// [`CubicUndo::flags`]: `paused`.
#[cfg(target_pointer_width = "64")]
const UNDO_PAUSED: u8 = 4;
/// [`CubicUndo::flags`]: the memo's lower bound is a computed point.
#[cfg(target_pointer_width = "64")]
const UNDO_LOW_IS_POINT: u8 = 8;
/// [`CubicUndo::flags`]: the memo caches a target.
#[cfg(target_pointer_width = "64")]
const UNDO_HAS_TARGET: u8 = 16;

/// The flag bit `bit` if `set`, else 0.
#[cfg(target_pointer_width = "64")]
const fn flag(set: bool, bit: u8) -> u8 {
    if set { bit } else { 0 }
}

/// Written by hand: the derive would borrow the packed fields.
#[cfg(all(feature = "defmt", target_pointer_width = "64"))]
impl defmt::Format for CubicUndo {
    fn format(&self, f: defmt::Formatter<'_>) {
        let (w_max, k, epoch_start, flags) =
            (self.w_max_bytes, self.k_us, self.epoch_start, self.flags);
        defmt::write!(
            f,
            "CubicUndo {{ w_max_bytes: {=u64}, k_us: {=u64}, epoch_start: {}, flags: {=u8} }}",
            w_max,
            k,
            epoch_start,
            flags
        )
    }
}

/// What an undo brings back of [`RfcCubic`]: all of it, on targets narrower than 64 bits.
#[cfg(not(target_pointer_width = "64"))]
pub type CubicUndo = RfcCubic;

#[cfg(target_pointer_width = "64")]
impl CubicUndo {
    /// As [`RfcCubic::on_mss_change`] on the saved state: a restored epoch starts afresh.
    pub(crate) fn on_mss_change(&mut self) {
        self.epoch_start = Instant::ZERO;
        self.paused_at = Instant::ZERO;
        self.flags &= !(UNDO_EPOCH_STARTED | UNDO_PAUSED);
        self.w_est_remainder = 0;
    }

    /// As [`RfcCubic::forget_curve_points`] on the saved state.
    pub(crate) fn forget_curve_points(&mut self) {
        let mut points = self.points;
        points.forget();
        self.points = points;
        self.flags &= !(UNDO_LOW_IS_POINT | UNDO_HAS_TARGET);
    }
}

impl Default for RfcCubic {
    fn default() -> Self {
        Self::new()
    }
}

impl RfcCubic {
    /// Before any congestion: no epoch, `W_max` undefined.
    pub const fn new() -> Self {
        RfcCubic {
            w_max_bytes: 0,
            cwnd_prior_bytes: 0,
            k_us: 0,
            epoch_start: Instant::ZERO,
            cwnd_epoch_bytes: 0,
            w_est_bytes: 0,
            w_est_remainder: 0,
            w_max_from_epoch: true,
            paused_at: Instant::ZERO,
            epoch_started: false,
            paused: false,
            memo: CurveMemo::new(),
            #[cfg(target_pointer_width = "64")]
            steady_clock: 0,
        }
    }

    /// The state an undo brings back (see [`CubicUndo`]).
    #[cfg(target_pointer_width = "64")]
    pub(crate) const fn undo_point(&self) -> CubicUndo {
        let (points, low_is_point, has_target) = self.memo.points();
        CubicUndo {
            w_max_bytes: self.w_max_bytes,
            cwnd_prior_bytes: self.cwnd_prior_bytes,
            k_us: self.k_us,
            epoch_start: self.epoch_start,
            cwnd_epoch_bytes: self.cwnd_epoch_bytes,
            w_est_bytes: self.w_est_bytes,
            w_est_remainder: self.w_est_remainder,
            paused_at: self.paused_at,
            points,
            flags: flag(self.w_max_from_epoch, UNDO_W_MAX_FROM_EPOCH)
                | flag(self.epoch_started, UNDO_EPOCH_STARTED)
                | flag(self.paused, UNDO_PAUSED)
                | flag(low_is_point, UNDO_LOW_IS_POINT)
                | flag(has_target, UNDO_HAS_TARGET),
        }
    }

    /// The state an undo brings back: all of it on this target.
    #[cfg(not(target_pointer_width = "64"))]
    pub(crate) const fn undo_point(&self) -> CubicUndo {
        *self
    }

    /// Brings back a state saved by [`undo_point`](Self::undo_point).
    #[cfg(target_pointer_width = "64")]
    const fn undo_to(&mut self, u: CubicUndo) {
        self.w_max_bytes = u.w_max_bytes;
        self.cwnd_prior_bytes = u.cwnd_prior_bytes;
        self.k_us = u.k_us;
        self.epoch_start = u.epoch_start;
        self.cwnd_epoch_bytes = u.cwnd_epoch_bytes;
        self.w_est_bytes = u.w_est_bytes;
        self.w_est_remainder = u.w_est_remainder;
        self.paused_at = u.paused_at;
        self.w_max_from_epoch = u.flags & UNDO_W_MAX_FROM_EPOCH != 0;
        self.epoch_started = u.flags & UNDO_EPOCH_STARTED != 0;
        self.paused = u.flags & UNDO_PAUSED != 0;
        // The points come back; the growth per ACK size stays (see CubicUndo).
        self.memo.set_points(
            u.points,
            u.flags & UNDO_LOW_IS_POINT != 0,
            u.flags & UNDO_HAS_TARGET != 0,
        );
        self.sync_steady_clock();
    }

    /// Sets `steady_clock` from `epoch_start` and `paused_at` (see the field).
    #[inline]
    const fn sync_steady_clock(&mut self) {
        #[cfg(target_pointer_width = "64")]
        {
            self.steady_clock = if self.epoch_started && !self.paused {
                self.epoch_start.as_micros().wrapping_neg()
            } else {
                0
            };
        }
    }

    /// Writes what an undo brings back into `saved`, in place: on 64-bit targets the
    /// [`CubicUndo`] without the per-ACK-size cache (copied inline), on narrower ones
    /// the whole state field by field (no `memcpy` linked).
    pub(crate) fn save_undo_into(&self, saved: &mut CubicUndo) {
        #[cfg(target_pointer_width = "64")]
        {
            *saved = self.undo_point();
        }
        #[cfg(not(target_pointer_width = "64"))]
        saved.copy_from(self);
    }

    /// Brings back the state [`save_undo_into`](Self::save_undo_into) wrote.
    pub(crate) fn restore_undo_from(&mut self, saved: &CubicUndo) {
        #[cfg(target_pointer_width = "64")]
        self.undo_to(*saved);
        #[cfg(not(target_pointer_width = "64"))]
        self.copy_from(saved);
    }

    /// Starts a congestion-avoidance stage at `now` with window `cwnd`; returns
    /// `W_cubic(0)` on 64-bit targets (0, not known, on narrower ones).
    fn start_epoch(&mut self, p: At<'_>, now: Instant, cwnd: u64) -> u64 {
        self.epoch_start = now;
        self.epoch_started = true;
        self.paused_at = Instant::ZERO;
        self.paused = false;
        #[cfg(target_pointer_width = "64")]
        {
            self.steady_clock = now.as_micros().wrapping_neg();
        }
        self.cwnd_epoch_bytes = cwnd;
        if self.w_max_from_epoch {
            // RFC 9438 §4.8/§4.10: W_max = cwnd at the start of this CA stage, K = 0
            self.w_max_bytes = cwnd;
            self.w_max_from_epoch = false;
        }
        // RFC 9438 §4.2: K = cubic_root((W_max - cwnd_epoch)/C); 0 when cwnd_epoch >= W_max
        let diff = self.w_max_bytes.saturating_sub(cwnd);
        // W_cubic(0) = origin - C·K³, the origin as in w_cubic(): W_max, or cwnd_epoch
        // when W_max is not above it (then K = 0 and the offset is 0). Found with K on
        // 64-bit targets, which then skip computing the curve at t = 0; narrower ones
        // keep the smaller code and compute it if asked (0: not known).
        #[cfg(target_pointer_width = "64")]
        let (k_us, w_at_zero) = {
            let (k_us, offset) = cubic_k_and_offset(p.c_mss(), diff);
            (k_us, self.w_max_bytes.max(cwnd).saturating_sub(offset))
        };
        #[cfg(not(target_pointer_width = "64"))]
        let (k_us, w_at_zero) = (super::rfc_curve::cubic_k_us(p.c_mss(), diff), 0);
        self.k_us = k_us;
        // RFC 9438 §4.3: W_est = cwnd_epoch at the start of the CA stage
        self.w_est_bytes = cwnd;
        self.w_est_remainder = 0;
        self.memo.restart_epoch(cwnd, w_at_zero);
        w_at_zero
    }

    /// The rest of [`on_ack`](Self::on_ack) for the ACK that just started the epoch
    /// (`t = 0`, not paused), with `W_cubic(0) = w_at_zero` from `K`: the same steps and
    /// state changes as the general path, with what the fresh memo would answer written
    /// out (it knows only the lower bound `cwnd_epoch` at `t = 0`, and `W_cubic(0)`).
    #[cfg(target_pointer_width = "64")]
    fn first_ack_of_epoch(
        &mut self,
        p: At<'_>,
        cwnd: u64,
        acked_bytes: u64,
        srtt_us: u64,
        w_at_zero: u64,
    ) -> u64 {
        if p.config().reno_friendly {
            self.grow_w_est(p, cwnd, acked_bytes);
            // RFC 9438 §4.3: if W_cubic(t) < W_est, cwnd = W_est (Reno-friendly region).
            // W_est ≤ cwnd_epoch ≤ W_cubic(0) is decided by the bound alone (no point
            // remembered, as the memo's verdict); else W_cubic(0) decides and is kept.
            if self.w_est_bytes > cwnd {
                self.memo.remember_low(0, w_at_zero);
                if w_at_zero < self.w_est_bytes {
                    // Never shrink on an ACK (W_est > cwnd here anyway).
                    return cwnd.max(self.w_est_bytes);
                }
            }
        }
        // RFC 9438 §4.2: target = clamp(W_cubic(t + RTT), cwnd, 1.5*cwnd), t = 0; the
        // curve's origin as in w_cubic() (W_max, or cwnd_epoch when not below it),
        // computed inline: the out-of-line w_cubic() costs a call and its prologue.
        let origin = self.w_max_bytes.max(cwnd);
        let w_next = w_cubic_bytes(p.c_mss(), origin, self.k_us, srtt_us);
        self.memo.remember_target(srtt_us, w_next);
        grow_towards(w_next, cwnd, acked_bytes)
    }

    /// `t` for the epoch at `now`, µs (zero before the epoch or if time ran backwards).
    pub fn elapsed_us(&self, now: Instant) -> u64 {
        if self.epoch_started {
            now.saturating_duration_since(self.epoch_start).as_micros()
        } else {
            0
        }
    }

    /// `t_epoch`: the start of the current congestion-avoidance stage (shifted forward by
    /// application-limited and idle time), if one has started.
    pub const fn epoch_start(&self) -> Option<Instant> {
        if self.epoch_started {
            Some(self.epoch_start)
        } else {
            None
        }
    }

    /// When growth stopped counting time because the flow became application-limited or
    /// idle (RFC 9438 §5.8), if it is paused; the epoch moves forward by the pause when
    /// growth resumes.
    pub const fn paused_at(&self) -> Option<Instant> {
        if self.paused {
            Some(self.paused_at)
        } else {
            None
        }
    }

    /// `W_cubic(t)` in bytes for `t` µs into the epoch.
    ///
    /// When `W_max` lies below `cwnd_epoch` (fast convergence or the 2·MSS floor can
    /// leave it there) the RFC's `K` would be negative; as Linux does (`bictcp_update`
    /// takes `origin_point = cwnd` when `last_max_cwnd <= cwnd`), `K` is 0 and the curve
    /// starts from `cwnd_epoch`, so `W_cubic(0) = cwnd_epoch` and growth never stalls
    /// below the window the stage started with. `W_max` itself is kept for fast
    /// convergence at the next event.
    pub fn w_cubic(&self, p: &RfcCubicParams, t_us: u64) -> u64 {
        self.w_cubic_at(At::own(p), t_us)
    }

    /// [`w_cubic`](Self::w_cubic) at the flow's MSS.
    fn w_cubic_at(&self, p: At<'_>, t_us: u64) -> u64 {
        // RFC 9438 §4.2: W_cubic(0) = cwnd_epoch; Linux bictcp_update(): origin = cwnd if Wmax <= cwnd
        let origin = if self.w_max_bytes > self.cwnd_epoch_bytes {
            self.w_max_bytes
        } else {
            self.cwnd_epoch_bytes
        };
        w_cubic_bytes(p.c_mss(), origin, self.k_us, t_us)
    }

    /// One ACK of `acked_bytes` in congestion avoidance while cwnd-limited; returns the
    /// new cwnd. `srtt_us` is the smoothed RTT (0 if unknown).
    ///
    /// Never lowers cwnd, never raises it by more than `min(acked, cwnd/2)`.
    pub fn on_ack(
        &mut self,
        p: &RfcCubicParams,
        now: Instant,
        cwnd: u64,
        acked_bytes: u64,
        srtt_us: u64,
    ) -> u64 {
        self.on_ack_at(p, p.mss_non_zero(), now, cwnd, acked_bytes, srtt_us)
    }

    /// [`on_ack`](Self::on_ack) for a flow whose MSS is `mss` (the flow's own, with
    /// the shared parameters `p`).
    pub(crate) fn on_ack_at(
        &mut self,
        p: &RfcCubicParams,
        mss: NonZeroU64,
        now: Instant,
        cwnd: u64,
        acked_bytes: u64,
        srtt_us: u64,
    ) -> u64 {
        let p = At { p, mss };
        let cwnd = if cwnd == 0 { p.min_window() } else { cwnd };
        if !self.epoch_started {
            let w_at_zero = self.start_epoch(p, now, cwnd);
            #[cfg(target_pointer_width = "64")]
            return self.first_ack_of_epoch(p, cwnd, acked_bytes, srtt_us, w_at_zero);
            #[cfg(not(target_pointer_width = "64"))]
            let _ = w_at_zero;
        }
        self.resume(now);
        let t_us = self.elapsed_us(now);
        if p.config().reno_friendly {
            self.grow_w_est(p, cwnd, acked_bytes);
            // RFC 9438 §4.3: if W_cubic(t) < W_est, cwnd = W_est (Reno-friendly region)
            if self.in_reno_region(p, t_us) {
                // Never shrink on an ACK: W_est can trail a cwnd that the curve raised.
                return cwnd.max(self.w_est_bytes);
            }
        }
        // RFC 9438 §4.2: target = clamp(W_cubic(t + RTT), cwnd, 1.5*cwnd)
        let tau_us = t_us.saturating_add(srtt_us);
        let w_next = match self.memo.target(tau_us) {
            Some(w) => w,
            None => {
                let w = self.w_cubic_at(p, tau_us);
                self.memo.remember_target(tau_us, w);
                w
            }
        };
        grow_towards(w_next, cwnd, acked_bytes)
    }

    /// [`on_ack`](Self::on_ack) for the steady ACK, when everything it needs is known
    /// without computing the curve: an epoch running and not paused, the target
    /// `W_cubic(t + RTT)` cached for this millisecond and, with Reno-friendliness, the
    /// test `W_cubic(t) < W_est` decided by the memo (a target whose millisecond ran
    /// out is computed here too, out of line). Returns the window `on_ack` would
    /// return, with the same state changes; `None` otherwise, having changed nothing
    /// (the caller then calls `on_ack`): also when `W_est`'s growth for this ACK size is
    /// not remembered yet, or cwnd is zero or 4 GiB or more (then it needs 64-bit
    /// divisions, see `narrow_window`).
    #[inline]
    #[cfg(target_pointer_width = "64")]
    pub(crate) fn on_steady_ack(
        &mut self,
        p: &RfcCubicParams,
        mss: &NonZeroU32,
        now: Instant,
        cwnd: u64,
        acked_bytes: u64,
        srtt_us: u64,
    ) -> Option<u64> {
        // The MSS is read where it is used (a reference, not a value loaded up front):
        // the steady ACK then keeps one register fewer live.
        // Epoch running, not paused, now >= t_epoch: the carry (see steady_clock); now
        // before t_epoch (time ran backwards) goes to the full path, which takes t = 0.
        let (t_us, steady) = now.as_micros().overflowing_add(self.steady_clock);
        if !steady {
            return None;
        }
        // RFC 9438 §4.2: target = clamp(W_cubic(t + RTT), cwnd, 1.5*cwnd). A sum past
        // u64::MAX (hostile times only) is left to the full path, which saturates it:
        // a branch on the carry is one instruction less than the saturating form.
        let tau_us = t_us.checked_add(srtt_us)?;
        if !p.config().reno_friendly {
            let Some(w_next) = self.memo.target(tau_us) else {
                return Some(self.grow_to_new_target(p, mss, tau_us, cwnd, acked_bytes));
            };
            return Some(grow_towards_narrow(
                w_next,
                narrow_window(cwnd)?,
                acked_bytes,
            ));
        }
        // RFC 9438 §4.3: alpha_cubic = 3*(1-beta)/(1+beta), 1 once W_est >= cwnd_prior;
        // α < 1 only from the growth remembered for this ACK size (else the full path
        // computes and remembers it): no product here that could need the wide path.
        let numerator = if self.w_est_bytes >= self.cwnd_prior_bytes {
            acked_bytes.saturating_mul(u64::from(mss.get()))
        } else {
            self.memo.step(acked_bytes)?
        };
        // Tested here, next to its first use, and not with the epoch's carry above: the
        // compiler would merge the two tests into flag arithmetic (four more instructions).
        let cwnd_nz = NonZeroU64::new(cwnd)?;
        let (w_est, remainder) = self.w_est_plus_unsaturated(numerator, cwnd_nz)?;
        // RFC 9438 §4.3: if W_cubic(t) < W_est, cwnd = W_est (Reno-friendly region)
        match self.memo.reno_verdict(t_us, w_est) {
            RenoVerdict::Unknown => return None,
            RenoVerdict::Reno => {
                (self.w_est_bytes, self.w_est_remainder) = (w_est, remainder);
                // Never shrink on an ACK: W_est can trail a cwnd that the curve raised.
                return Some(cwnd.max(w_est));
            }
            RenoVerdict::Cubic => {}
        }
        let Some(w_next) = self.memo.target(tau_us) else {
            (self.w_est_bytes, self.w_est_remainder) = (w_est, remainder);
            return Some(self.grow_to_new_target(p, mss, tau_us, cwnd, acked_bytes));
        };
        let cwnd32 = narrow_window(cwnd)?;
        (self.w_est_bytes, self.w_est_remainder) = (w_est, remainder);
        Some(grow_towards_narrow(w_next, cwnd32, acked_bytes))
    }

    /// The end of a steady ACK whose cached target's millisecond ran out (one ACK in
    /// 25 on a 40 µs ACK clock): `W_cubic(t + RTT)` computed and cached, and the growth
    /// towards it, as the full path does them. Out of line, and called last, so that
    /// the steady path keeps its values in scratch registers.
    #[cfg(target_pointer_width = "64")]
    #[inline(never)]
    fn grow_to_new_target(
        &mut self,
        p: &RfcCubicParams,
        mss: &NonZeroU32,
        tau_us: u64,
        cwnd: u64,
        acked_bytes: u64,
    ) -> u64 {
        let p = At {
            p,
            mss: NonZeroU64::from(*mss),
        };
        // RFC 9438 §4.2: target = clamp(W_cubic(t + RTT), cwnd, 1.5*cwnd)
        let w_next = self.w_cubic_at(p, tau_us);
        self.memo.remember_target(tau_us, w_next);
        grow_towards(w_next, cwnd, acked_bytes)
    }

    /// `W_cubic(t) < W_est`, from the memo's known points when they decide it, else by
    /// computing the curve (which then becomes the new known lower point).
    fn in_reno_region(&mut self, p: At<'_>, t_us: u64) -> bool {
        match self.memo.reno_verdict(t_us, self.w_est_bytes) {
            RenoVerdict::Cubic => false,
            RenoVerdict::Reno => true,
            RenoVerdict::Unknown => {
                // 64-bit targets know W_cubic(0) from the epoch start (see start_epoch).
                let w = match self.memo.at_zero(t_us) {
                    Some(w) => w,
                    None => self.w_cubic_at(p, t_us),
                };
                self.memo.remember_low(t_us, w);
                w < self.w_est_bytes
            }
        }
    }

    /// The curve's parameters (C, β, ...) changed while the epoch goes on: forget the
    /// points computed with the old ones.
    /// `W_est`'s remembered growth per ACK size (it depends on β and the MSS) is
    /// forgotten too.
    pub fn forget_curve_points(&mut self) {
        self.memo.forget();
        self.forget_step();
    }

    /// Forgets the remembered `W_est` growth (new β or MSS).
    fn forget_step(&mut self) {
        #[cfg(target_pointer_width = "64")]
        self.memo.forget_step();
    }

    /// Adds `α · acked / cwnd` segments (in bytes: `α · MSS · acked / cwnd`) to `W_est`.
    fn grow_w_est(&mut self, p: At<'_>, cwnd: u64, acked_bytes: u64) {
        // cwnd is at least 2·MSS here (on_ack replaces 0 by the minimum window); this
        // check never fires, it only makes the divisions below visibly safe, so that no
        // panic path is left in a firmware build (scripts/firmware.sh).
        let Some(cwnd) = NonZeroU64::new(cwnd) else {
            return;
        };
        (self.w_est_bytes, self.w_est_remainder) = self.w_est_grown(p, cwnd, acked_bytes);
    }

    /// `W_est` and its remainder after an ACK of `acked_bytes` at window `cwnd`, without
    /// storing them (only the growth per ACK size is remembered, see `memo`).
    #[inline]
    fn w_est_grown(&mut self, p: At<'_>, cwnd: NonZeroU64, acked_bytes: u64) -> (u64, u64) {
        // RFC 9438 §4.3: alpha_cubic = 3*(1-beta)/(1+beta), 1 once W_est >= cwnd_prior
        let numerator = if self.w_est_bytes >= self.cwnd_prior_bytes {
            // α = 1: α·MSS·acked = MSS·acked (saturating, as the general product)
            acked_bytes.saturating_mul(p.mss())
        } else {
            self.alpha_numerator(p, acked_bytes)
        };
        self.w_est_plus(numerator, cwnd)
    }

    /// `W_est` and its remainder after adding `numerator / cwnd` bytes (the growth
    /// numerator `α·MSS·acked` of [`w_est_grown`](Self::w_est_grown)).
    #[inline]
    fn w_est_plus(&self, numerator: u64, cwnd: NonZeroU64) -> (u64, u64) {
        // RFC 9438 §4.3: W_est = W_est + alpha_cubic * segments_acked / cwnd
        let remainder = self.w_est_remainder.saturating_add(numerator);
        let (whole, rest) = div_rem_floor(remainder, cwnd);
        (self.w_est_bytes.saturating_add(whole), rest)
    }

    /// [`w_est_plus`](Self::w_est_plus) when neither sum passes `u64::MAX` (the same
    /// values), `None` when one would saturate: the steady path then leaves the ACK to
    /// the full one. A branch on each carry is one instruction less than a saturating
    /// add (which materialises `u64::MAX` for its conditional move).
    #[cfg(target_pointer_width = "64")]
    #[inline]
    fn w_est_plus_unsaturated(&self, numerator: u64, cwnd: NonZeroU64) -> Option<(u64, u64)> {
        // RFC 9438 §4.3: W_est = W_est + alpha_cubic * segments_acked / cwnd
        let remainder = self.w_est_remainder.checked_add(numerator)?;
        let (whole, rest) = div_rem_floor(remainder, cwnd);
        Some((self.w_est_bytes.checked_add(whole)?, rest))
    }

    /// `⌊acked · α·MSS / (1 + β)⌋` for α = 3(1 − β)/(1 + β), remembered per ACK size on
    /// 64-bit targets.
    #[inline]
    fn alpha_numerator(&mut self, p: At<'_>, acked_bytes: u64) -> u64 {
        #[cfg(target_pointer_width = "64")]
        if let Some(n) = self.memo.step(acked_bytes) {
            return n;
        }
        let (alpha_mss_num, alpha_den) = p.alpha_mss();
        // α·MSS ≤ 3000 · 65535 < 2^28; a product with acked beyond 64 bits goes wide.
        let numerator = mul_div_floor(acked_bytes, alpha_mss_num, alpha_den);
        #[cfg(target_pointer_width = "64")]
        self.memo.remember_step(acked_bytes, numerator);
        numerator
    }

    /// A loss or ECN-CE congestion event with window `cwnd` and decrease factor
    /// `beta_permille`; returns `β · cwnd` in bytes (floor), before any minimum: the
    /// caller applies RFC 9438 §4.6's floors (2·MSS on loss, 1·MSS on ECE for cwnd,
    /// 2·MSS for ssthresh).
    pub fn on_congestion(&mut self, p: &RfcCubicParams, cwnd: u64, beta_permille: u32) -> u64 {
        let cfg = p.config();
        // RFC 9438 §4.7: fast convergence, W_max = cwnd*(1+beta)/2 if cwnd < W_max
        self.w_max_bytes = if cfg.fast_convergence && cwnd < self.w_max_bytes {
            mul_div_floor(cwnd, RFC_SCALE + cfg.beta_permille as u64, 2 * RFC_SCALE)
        } else {
            cwnd
        };
        self.w_max_from_epoch = false;
        // RFC 9438 §4.6: cwnd_prior = cwnd
        self.cwnd_prior_bytes = cwnd;
        self.end_epoch();
        // RFC 9438 §4.6: ssthresh = cwnd * beta_cubic (cwnd instead of flight_size)
        mul_div_floor(cwnd, beta_permille as u64, RFC_SCALE)
    }

    /// A retransmission timeout or persistent congestion with window `cwnd`; returns
    /// `β · cwnd` in bytes (the caller floors ssthresh at 2·MSS). The next CA stage
    /// restarts the curve from its own start.
    pub fn on_timeout(&mut self, p: &RfcCubicParams, cwnd: u64) -> u64 {
        self.cwnd_prior_bytes = cwnd;
        // RFC 9438 §4.8: after a timeout K = 0 and W_max = cwnd at the start of CA
        self.w_max_from_epoch = true;
        self.end_epoch();
        // RFC 9438 §4.8: ssthresh set with beta_cubic as in §4.6
        mul_div_floor(cwnd, p.config().beta_permille as u64, RFC_SCALE)
    }

    /// Slow start ended by a delay detector (HyStart, HyStart++) at window `cwnd`.
    pub fn on_slow_start_exit(&mut self, cwnd: u64) {
        // RFC 9438 §4.10: without loss W_max is undefined: cwnd_prior = cwnd, K = 0
        self.cwnd_prior_bytes = cwnd;
        self.w_max_from_epoch = true;
        self.end_epoch();
    }

    /// The MSS changed: the next ACK starts a fresh epoch at the current window, so the
    /// curve stays continuous while its time scale (C·MSS) changes.
    pub fn on_mss_change(&mut self) {
        self.end_epoch();
        self.forget_step();
    }

    /// Ends the epoch: the next congestion-avoidance ACK starts a new one.
    fn end_epoch(&mut self) {
        // The memo needs no reset here: the next epoch's start replaces it.
        self.epoch_start = Instant::ZERO;
        self.epoch_started = false;
        self.paused_at = Instant::ZERO;
        self.paused = false;
        self.w_est_remainder = 0;
        #[cfg(target_pointer_width = "64")]
        {
            self.steady_clock = 0;
        }
    }

    /// The flow stopped being cwnd-limited at `now` (application-limited, or idle):
    /// time from here until [`resume`](Self::resume) does not count as growth time.
    // RFC 9438 §5.8: t must not include application-limited periods
    pub fn pause(&mut self, now: Instant) {
        if self.epoch_started && !self.paused {
            self.paused_at = now;
            self.paused = true;
            #[cfg(target_pointer_width = "64")]
            {
                self.steady_clock = 0;
            }
        }
    }

    /// Growth resumes at `now`: the epoch start moves forward by the paused time.
    pub fn resume(&mut self, now: Instant) {
        if self.epoch_started && self.paused {
            // RFC 9438 §5.8: shift t_epoch by the application-limited time
            let pause = now.saturating_duration_since(self.paused_at);
            self.epoch_start = self.epoch_start.saturating_add(pause);
            self.paused_at = Instant::ZERO;
            self.paused = false;
            // The only case that changes steady_clock: every other one leaves the pair
            // (epoch_start, paused_at) as steady_clock already describes it (every
            // method that changes the pair sets it), and the full ACK path and the
            // restart after idle call this on each ACK or send.
            self.sync_steady_clock();
        } else {
            // No epoch to shift; a pause without an epoch is simply forgotten
            // (steady_clock stays 0: there is no epoch).
            self.paused_at = Instant::ZERO;
            self.paused = false;
        }
    }

    /// Makes `self` equal to `other`, one field at a time. On a 32-bit core a copy of
    /// the whole 128-byte struct compiles to a `memcpy` call, and that routine alone is
    /// about 900 bytes of firmware flash; this is a few loads and stores. The pattern
    /// names every field, so a field added later fails the firmware build
    /// (scripts/firmware.sh) instead of being left out.
    #[cfg(not(target_pointer_width = "64"))]
    fn copy_from(&mut self, other: &Self) {
        let RfcCubic {
            w_max_bytes,
            cwnd_prior_bytes,
            k_us,
            epoch_start,
            cwnd_epoch_bytes,
            w_est_bytes,
            w_est_remainder,
            w_max_from_epoch,
            paused_at,
            epoch_started,
            paused,
            memo,
        } = other;
        self.w_max_bytes = *w_max_bytes;
        self.cwnd_prior_bytes = *cwnd_prior_bytes;
        self.k_us = *k_us;
        self.epoch_start = *epoch_start;
        self.cwnd_epoch_bytes = *cwnd_epoch_bytes;
        self.w_est_bytes = *w_est_bytes;
        self.w_est_remainder = *w_est_remainder;
        self.w_max_from_epoch = *w_max_from_epoch;
        self.paused_at = *paused_at;
        self.epoch_started = *epoch_started;
        self.paused = *paused;
        self.memo = *memo;
    }
}

/// cwnd after one ACK of `acked_bytes` towards `W_cubic(t + RTT) = w_next`.
#[inline]
fn grow_towards(w_next: u64, cwnd: u64, acked_bytes: u64) -> u64 {
    // RFC 9438 §4.2: target = clamp(W_cubic(t + RTT), cwnd, 1.5*cwnd); kept as the room
    // target − cwnd = min(W_cubic − cwnd, cwnd/2), 0 below cwnd. The same value as the
    // clamp also where cwnd + cwnd/2 would pass u64::MAX: there W_cubic − cwnd is at
    // most u64::MAX − cwnd < cwnd/2 either way.
    let room = w_next.saturating_sub(cwnd).min(cwnd / 2);
    // RFC 9438 §4.4/§4.5: cwnd += (target - cwnd)/cwnd per segment, i.e. per acked byte;
    // cwnd + room cannot wrap: room ≤ w_next − cwnd.
    cwnd + mul_div_floor(room, acked_bytes, cwnd).min(room)
}

/// The window of a steady ACK in 32 bits, if it fits (not zero, below 2^32): else the
/// steady path leaves the ACK to the full one (windows of 4 GiB and more).
#[cfg(target_pointer_width = "64")]
#[inline]
fn narrow_window(cwnd: u64) -> Option<NonZeroU32> {
    if cwnd >> 32 != 0 {
        return None;
    }
    NonZeroU32::new(cwnd as u32)
}

/// [`grow_towards`] for a window below 2^32 (`cwnd32`), the same value, with no
/// product that could overflow and, nearly always, a 32-bit division.
///
/// `⌊room · acked / cwnd⌋.min(room)` is `⌊room · min(acked, cwnd) / cwnd⌋`: with
/// `acked ≤ cwnd` the quotient is at most `room` already; with `acked > cwnd` both are
/// `room` (`⌊room · acked / cwnd⌋ ≥ ⌊room · cwnd / cwnd⌋ = room`). Then the product is
/// below `2^31 · 2^32` (room ≤ cwnd/2), so it cannot overflow and needs no test for
/// it (nor the register moves of a widening multiply), and one test of its size
/// picks the 32-bit division.
#[cfg(target_pointer_width = "64")]
#[inline]
fn grow_towards_narrow(w_next: u64, cwnd32: NonZeroU32, acked_bytes: u64) -> u64 {
    let cwnd = cwnd32.get() as u64;
    // RFC 9438 §4.2/§4.4: as grow_towards(), room = min(W_cubic − cwnd, cwnd/2); none
    // when the target is not above cwnd.
    if w_next <= cwnd {
        return cwnd;
    }
    let room = (w_next - cwnd).min(cwnd / 2);
    // room < 2^31 and min(acked, cwnd) < 2^32: the product is below 2^63.
    let product = room * acked_bytes.min(cwnd);
    let growth = match u32::try_from(product) {
        Ok(p32) => (p32 / cwnd32) as u64,
        Err(_) => product / cwnd,
    };
    // growth ≤ room < 2^31 and cwnd < 2^32: no overflow.
    cwnd + growth
}

#[cfg(test)]
mod tests;
