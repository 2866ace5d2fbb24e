//! What an undo brings back of [`RfcCubic`] ([`CubicUndo`]), and saving and restoring it.

use super::*;

/// What an undo brings back of [`RfcCubic`] (RFC 9438 §4.9.2): all of it but the
/// remembered `W_est` growth, which stays valid (narrower targets keep the whole
/// [`RfcCubic`]). `repr(packed)`, 97 bytes, so the snapshot's own flags fill its last
/// word; fields are copied out, never borrowed.
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
pub(super) const UNDO_W_MAX_FROM_EPOCH: u8 = 1;
/// [`CubicUndo::flags`]: `epoch_started`.
#[cfg(target_pointer_width = "64")]
pub(super) const UNDO_EPOCH_STARTED: u8 = 2;
/// [`CubicUndo::flags`]: `paused`.
#[cfg(target_pointer_width = "64")]
pub(super) const UNDO_PAUSED: u8 = 4;
/// [`CubicUndo::flags`]: the memo's lower bound is a computed point.
#[cfg(target_pointer_width = "64")]
pub(super) const UNDO_LOW_IS_POINT: u8 = 8;
/// [`CubicUndo::flags`]: the memo caches a target.
#[cfg(target_pointer_width = "64")]
pub(super) const UNDO_HAS_TARGET: u8 = 16;

/// The flag bit `bit` if `set`, else 0.
#[cfg(target_pointer_width = "64")]
pub(super) const fn flag(set: bool, bit: u8) -> u8 {
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

impl RfcCubic {
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
    pub(super) const fn undo_to(&mut self, u: CubicUndo) {
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
    pub(super) const fn sync_steady_clock(&mut self) {
        #[cfg(target_pointer_width = "64")]
        {
            self.steady_clock = if self.epoch_started && !self.paused {
                self.epoch_start.as_micros().wrapping_neg()
            } else {
                0
            };
        }
    }

    /// Writes what an undo brings back into `saved`, in place (see [`CubicUndo`]).
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

    /// Makes `self` equal to `other`, one field at a time (a whole copy links `memcpy`
    /// into 32-bit firmware); the pattern names every field, so none is forgotten. Out
    /// of line: the save and the restore share one copy (scripts/firmware.sh).
    #[cfg(not(target_pointer_width = "64"))]
    #[inline(never)]
    pub(super) fn copy_from(&mut self, other: &Self) {
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
