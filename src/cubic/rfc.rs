//! RFC 9438 CUBIC window growth, counting bytes (RFC mode).

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

mod events;
mod growth;
mod undo;

#[cfg(target_pointer_width = "64")]
use growth::grow_towards;
pub use undo::CubicUndo;

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
/// [`RfcCubic`] holds the CUBIC variables of RFC 9438 §4.1.2 (`W_max`, `K`, `t_epoch`,
/// `cwnd_epoch`, `cwnd_prior`, `W_est`) and computes the congestion-avoidance window on
/// each ACK and the reductions on congestion events. The driver that owns `cwnd`,
/// `ssthresh`, the phase and recovery is [`crate::rfc::Cubic`].
///
/// Differences from Linux mode (`LinuxCubic`), all on purpose:
/// - bytes, not segments; time in µs, not jiffies; `K` from `W_max − cwnd_epoch`
///   (RFC 9438), not from `W_max − cwnd`;
/// - the target is clamped to `[cwnd, 1.5·cwnd]` and grows cwnd by
///   `(target − cwnd)/cwnd` per acked byte, instead of Linux's `cnt` counter;
/// - the Reno-friendly estimate switches α to 1 once `W_est ≥ cwnd_prior`.
///
/// Scales: windows in bytes, time in µs, β and C in thousandths (see
/// [`RfcCubicConfig`](super::RfcCubicConfig)); every product goes through
/// [`mul_div_floor`] or saturating arithmetic, see [`super::rfc_curve`] for the bounds.
///
/// `repr(C)`: what a steady congestion-avoidance ACK reads comes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct RfcCubic {
    /// `2^64 − t_epoch` (µs, wrapping) while an epoch runs unpaused, else 0: `now +
    /// steady_clock` carries exactly when the steady ACK may run (`now ≥ t_epoch`), the
    /// sum then being `t`. An epoch starting at 0 µs takes the full path (same results).
    /// Kept by `sync_steady_clock`; 64-bit targets only.
    #[cfg(target_pointer_width = "64")]
    steady_clock: u64,
    /// `W_est`: the Reno-friendly estimate, bytes.
    pub w_est_bytes: u64,
    /// `W_est` growth not yet added, bytes·bytes (below cwnd), so no ACK is lost to rounding.
    pub w_est_remainder: u64,
    /// `cwnd_prior`: the window when ssthresh was last set, bytes.
    pub cwnd_prior_bytes: u64,
    /// This epoch's curve points computed so far (see `rfc_memo`) and, on 64-bit
    /// targets, `W_est`'s growth numerator for the last ACK size (reset by parameter
    /// changes).
    memo: CurveMemo,
    /// `W_max`: the window before the last reduction (less with fast convergence), bytes.
    pub w_max_bytes: u64,
    /// `K`: time from the epoch start until `W_cubic` reaches `W_max`, µs.
    pub k_us: u64,
    /// `cwnd_epoch`: the window at `t_epoch`, bytes.
    pub cwnd_epoch_bytes: u64,
    /// `t_epoch` if `epoch_started`, else 0 (a flag is smaller than an `Option` tag).
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
        // W_cubic(0) = origin - C·K³ (origin as in w_cubic()); 64-bit targets only.
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

    /// [`on_ack`](Self::on_ack) for the ACK that started the epoch (`t = 0`), given
    /// `W_cubic(0) = w_at_zero`: the general path with the fresh memo's answers inlined.
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
            if self.w_est_bytes > cwnd {
                self.memo.remember_low(0, w_at_zero);
                if w_at_zero < self.w_est_bytes {
                    // Never shrink on an ACK (W_est > cwnd here anyway).
                    return cwnd.max(self.w_est_bytes);
                }
            }
        }
        // RFC 9438 §4.2: target = clamp(W_cubic(t + RTT), cwnd, 1.5*cwnd), t = 0; the
        // origin as in w_cubic(), inlined.
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
    /// When `W_max < cwnd_epoch` the RFC's `K` would be negative; as Linux's
    /// `bictcp_update` does, `K` is 0 and the curve starts from `cwnd_epoch` (`W_max` is
    /// kept for fast convergence).
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
}

#[cfg(test)]
mod tests;
