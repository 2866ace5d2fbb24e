//! Points of the current epoch's `W_cubic` curve that RFC-mode CUBIC has already
//! computed, so that an ACK rarely computes the curve at all.
//!
//! `W_cubic` does not decrease with `t`, so known points bound it and often decide the
//! Reno-friendly test `W_cubic(t) < W_est`; a point (and the target `W_cubic(t + RTT)`)
//! is reused within 1 ms, as Linux's `bictcp_update()` reuses its target within a
//! jiffy. A reused value is below the exact one by at most `3·C·MSS·(|τ − K| + 1 ms)²·1
//! ms` bytes (docs/rfc-mode.md, "Cost"; `tests/rfc_math.rs` checks it).

/// How long a computed point stands for the curve: 1 ms, µs.
pub const MEMO_SPAN_US: u64 = 1_000;

/// Known points of the current epoch's curve. All zero (`Default`) knows nothing: a lower
/// bound of 0 at `t = 0` is always true, and no target is cached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct CurveMemo {
    /// `W_cubic(low_t_us) = low_w_bytes`: a lower bound of `W_cubic(t)` for `t ≥ low_t_us`.
    low_t_us: u64,
    low_w_bytes: u64,
    /// `W_cubic(target_tau_us) = target_w_bytes`, if `has_target`; before that,
    /// `target_w_bytes` holds `W_cubic(0)` from the epoch start, or 0 if not known.
    target_tau_us: u64,
    target_w_bytes: u64,
    /// `W_est`'s growth numerator for an ACK of `step_acked_bytes` (see
    /// [`step`](Self::step)), in what would be padding; it survives
    /// [`forget`](Self::forget) (it depends only on the ACK size, β and the MSS).
    /// 64-bit targets only.
    #[cfg(target_pointer_width = "64")]
    step_numerator: u32,
    #[cfg(target_pointer_width = "64")]
    step_acked_bytes: u16,
    /// True when the lower point is a computed value of the curve (not only a bound).
    low_is_point: bool,
    has_target: bool,
}

/// A memo's curve points without their two flags and the remembered `W_est` growth:
/// what an undo snapshot keeps of it (the flags go into the snapshot's flag byte). 64-bit
/// targets, where the snapshot is not the whole state.
#[cfg(target_pointer_width = "64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct MemoPoints {
    low_t_us: u64,
    low_w_bytes: u64,
    target_tau_us: u64,
    target_w_bytes: u64,
}

#[cfg(target_pointer_width = "64")]
impl MemoPoints {
    /// As [`CurveMemo::forget`] on the values (the caller clears the two flags).
    pub const fn forget(&mut self) {
        self.low_w_bytes = 0;
        self.target_w_bytes = 0;
    }
}

/// What the memo knows about `W_cubic(t) < W_est`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenoVerdict {
    /// `W_cubic(t) ≥ W_est`: the CUBIC region.
    Cubic,
    /// `W_cubic(t) < W_est`: the Reno-friendly region.
    Reno,
    /// Not known: compute the curve.
    Unknown,
}

impl CurveMemo {
    /// Nothing known (a new epoch, or the curve's parameters changed).
    pub const fn new() -> Self {
        CurveMemo {
            low_t_us: 0,
            low_w_bytes: 0,
            low_is_point: false,
            target_tau_us: 0,
            target_w_bytes: 0,
            has_target: false,
            #[cfg(target_pointer_width = "64")]
            step_numerator: 0,
            #[cfg(target_pointer_width = "64")]
            step_acked_bytes: 0,
        }
    }

    /// A new epoch that starts at `cwnd_epoch_bytes`: `W_cubic(0) ≥ cwnd_epoch`
    /// (`rfc_curve` keeps `C·K³ ≤ W_max − cwnd_epoch`), a lower bound for all `t ≥ 0`.
    /// `w_at_zero_bytes` is `W_cubic(0)` itself, handed out by [`Self::at_zero`] (it does
    /// not change what the bounds decide: a point is remembered only when computed).
    /// Keeps the remembered `W_est` growth.
    pub const fn restart_epoch(&mut self, cwnd_epoch_bytes: u64, w_at_zero_bytes: u64) {
        self.low_t_us = 0;
        self.low_w_bytes = cwnd_epoch_bytes;
        self.low_is_point = false;
        self.target_tau_us = 0;
        self.target_w_bytes = w_at_zero_bytes;
        self.has_target = false;
    }

    /// The curve points, `low_is_point` and `has_target`: what an undo snapshot keeps
    /// (see [`MemoPoints`]).
    #[cfg(target_pointer_width = "64")]
    pub const fn points(&self) -> (MemoPoints, bool, bool) {
        let points = MemoPoints {
            low_t_us: self.low_t_us,
            low_w_bytes: self.low_w_bytes,
            target_tau_us: self.target_tau_us,
            target_w_bytes: self.target_w_bytes,
        };
        (points, self.low_is_point, self.has_target)
    }

    /// Brings back what [`points`](Self::points) gave, keeping this memo's remembered
    /// `W_est` growth (an undo brings back the points; the growth per ACK size stays
    /// valid and stays).
    #[cfg(target_pointer_width = "64")]
    pub const fn set_points(&mut self, points: MemoPoints, low_is_point: bool, has_target: bool) {
        self.low_t_us = points.low_t_us;
        self.low_w_bytes = points.low_w_bytes;
        self.low_is_point = low_is_point;
        self.target_tau_us = points.target_tau_us;
        self.target_w_bytes = points.target_w_bytes;
        self.has_target = has_target;
    }

    /// The remembered `W_est` growth numerator for an ACK of `acked_bytes`, if it is
    /// the one remembered. `(0, 0)` is a true entry (zero bytes grow by zero).
    #[cfg(target_pointer_width = "64")]
    #[inline]
    pub const fn step(&self, acked_bytes: u64) -> Option<u64> {
        if acked_bytes == self.step_acked_bytes as u64 {
            Some(self.step_numerator as u64)
        } else {
            None
        }
    }

    /// Remembers `numerator` as the growth for an ACK of `acked_bytes`, if both fit
    /// the 16- and 32-bit fields (else the last entry stays: it is still true, and the
    /// size asked for is computed each time).
    #[cfg(target_pointer_width = "64")]
    pub const fn remember_step(&mut self, acked_bytes: u64, numerator: u64) {
        if acked_bytes <= u16::MAX as u64 && numerator <= u32::MAX as u64 {
            self.step_acked_bytes = acked_bytes as u16;
            self.step_numerator = numerator as u32;
        }
    }

    /// Forgets the remembered growth (new β or MSS): back to the true `(0, 0)`.
    #[cfg(target_pointer_width = "64")]
    pub const fn forget_step(&mut self) {
        self.step_acked_bytes = 0;
        self.step_numerator = 0;
    }

    /// Tests only: a memo after [`restart_epoch`](Self::restart_epoch).
    #[cfg(test)]
    pub const fn at_epoch_start(cwnd_epoch_bytes: u64, w_at_zero_bytes: u64) -> Self {
        let mut m = CurveMemo::new();
        m.restart_epoch(cwnd_epoch_bytes, w_at_zero_bytes);
        m
    }

    /// `W_cubic(t_us)` if it is known without computing the curve: at `t = 0`, the value
    /// found with `K` at the epoch start.
    pub const fn at_zero(&self, t_us: u64) -> Option<u64> {
        if t_us == 0 && !self.has_target && self.target_w_bytes != 0 {
            Some(self.target_w_bytes)
        } else {
            None
        }
    }

    /// Forgets every point (the curve changed): a lower bound of 0 is always true. The
    /// remembered `W_est` growth is not a point and stays (see `forget_step`).
    pub const fn forget(&mut self) {
        self.low_w_bytes = 0;
        self.low_is_point = false;
        self.has_target = false;
        self.target_w_bytes = 0;
    }

    /// Compares `W_cubic(t_us)` with `w_est_bytes` from the known points, if it can.
    pub const fn reno_verdict(&self, t_us: u64, w_est_bytes: u64) -> RenoVerdict {
        if t_us >= self.low_t_us {
            if w_est_bytes <= self.low_w_bytes {
                // W_est <= W_cubic(t0) <= W_cubic(t): exact.
                return RenoVerdict::Cubic;
            }
            if self.low_is_point && t_us - self.low_t_us < MEMO_SPAN_US {
                // W_cubic(t) taken as W_cubic(t0) < W_est, within the bound above.
                return RenoVerdict::Reno;
            }
        }
        if self.has_target && self.target_tau_us >= t_us && self.target_w_bytes < w_est_bytes {
            // W_cubic(t) <= W_cubic(t1) < W_est: exact.
            RenoVerdict::Reno
        } else {
            RenoVerdict::Unknown
        }
    }

    /// Records `W_cubic(t_us) = w_bytes` as the lower bound for later `t`.
    pub const fn remember_low(&mut self, t_us: u64, w_bytes: u64) {
        self.low_t_us = t_us;
        self.low_w_bytes = w_bytes;
        self.low_is_point = true;
    }

    /// The target cached less than 1 ms before `tau_us`, if any.
    pub const fn target(&self, tau_us: u64) -> Option<u64> {
        // target_tau_us <= tau_us < target_tau_us + 1 ms, as one wrapping comparison.
        if self.has_target && tau_us.wrapping_sub(self.target_tau_us) < MEMO_SPAN_US {
            Some(self.target_w_bytes)
        } else {
            None
        }
    }

    /// Records `W_cubic(tau_us) = w_bytes` as the cached target.
    pub const fn remember_target(&mut self, tau_us: u64, w_bytes: u64) {
        self.target_tau_us = tau_us;
        self.target_w_bytes = w_bytes;
        self.has_target = true;
    }
}

#[cfg(test)]
mod tests;
