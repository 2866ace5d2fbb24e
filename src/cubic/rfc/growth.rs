//! Growth in congestion avoidance: the full and the steady ACK paths, the
//! Reno-friendly estimate `W_est` (RFC 9438 §4.2 to §4.5).

use super::*;

impl RfcCubic {
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

    /// [`on_ack`](Self::on_ack)'s result and state changes for the steady ACK (epoch
    /// running unpaused, target and Reno-friendly test known from the memo, `W_est`
    /// growth remembered, cwnd in `1..2^32`); `None`, changing nothing, otherwise.
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
        // Epoch running, unpaused, now >= t_epoch: the carry (see steady_clock).
        let (t_us, steady) = now.as_micros().overflowing_add(self.steady_clock);
        if !steady {
            return None;
        }
        // RFC 9438 §4.2: target = clamp(W_cubic(t + RTT), cwnd, 1.5*cwnd); an overflowing
        // sum (hostile times) goes to the full path, which saturates.
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
        // α < 1 only from the remembered growth: no product needs the wide path.
        let numerator = if self.w_est_bytes >= self.cwnd_prior_bytes {
            acked_bytes.saturating_mul(u64::from(mss.get()))
        } else {
            self.memo.step(acked_bytes)?
        };
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

    /// The end of a steady ACK whose cached target expired: `W_cubic(t + RTT)` computed,
    /// cached and grown towards, as the full path does (out of line).
    #[cfg(target_pointer_width = "64")]
    #[inline(never)]
    pub(super) fn grow_to_new_target(
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
    pub(super) fn in_reno_region(&mut self, p: At<'_>, t_us: u64) -> bool {
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

    /// The curve's parameters changed mid-epoch: forget the points and the `W_est`
    /// growth computed with the old ones.
    pub fn forget_curve_points(&mut self) {
        self.memo.forget();
        self.forget_step();
    }

    pub(super) fn forget_step(&mut self) {
        #[cfg(target_pointer_width = "64")]
        self.memo.forget_step();
    }

    /// Adds `α · acked / cwnd` segments (in bytes: `α · MSS · acked / cwnd`) to `W_est`.
    pub(super) fn grow_w_est(&mut self, p: At<'_>, cwnd: u64, acked_bytes: u64) {
        // cwnd >= 2·MSS here: the check never fires, but leaves no panic path.
        let Some(cwnd) = NonZeroU64::new(cwnd) else {
            return;
        };
        (self.w_est_bytes, self.w_est_remainder) = self.w_est_grown(p, cwnd, acked_bytes);
    }

    /// `W_est` and its remainder after an ACK of `acked_bytes` at window `cwnd`, without
    /// storing them (only the growth per ACK size is remembered, see `memo`).
    #[inline]
    pub(super) fn w_est_grown(
        &mut self,
        p: At<'_>,
        cwnd: NonZeroU64,
        acked_bytes: u64,
    ) -> (u64, u64) {
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
    pub(super) fn w_est_plus(&self, numerator: u64, cwnd: NonZeroU64) -> (u64, u64) {
        // RFC 9438 §4.3: W_est = W_est + alpha_cubic * segments_acked / cwnd
        let remainder = self.w_est_remainder.saturating_add(numerator);
        let (whole, rest) = div_rem_floor(remainder, cwnd);
        (self.w_est_bytes.saturating_add(whole), rest)
    }

    /// [`w_est_plus`](Self::w_est_plus), or `None` where a sum would saturate (the
    /// steady path then leaves the ACK to the full one).
    #[cfg(target_pointer_width = "64")]
    #[inline]
    pub(super) fn w_est_plus_unsaturated(
        &self,
        numerator: u64,
        cwnd: NonZeroU64,
    ) -> Option<(u64, u64)> {
        // RFC 9438 §4.3: W_est = W_est + alpha_cubic * segments_acked / cwnd
        let remainder = self.w_est_remainder.checked_add(numerator)?;
        let (whole, rest) = div_rem_floor(remainder, cwnd);
        Some((self.w_est_bytes.checked_add(whole)?, rest))
    }

    /// `⌊acked · α·MSS / (1 + β)⌋` for α = 3(1 − β)/(1 + β), remembered per ACK size on
    /// 64-bit targets.
    #[inline]
    pub(super) fn alpha_numerator(&mut self, p: At<'_>, acked_bytes: u64) -> u64 {
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
}

/// cwnd after one ACK of `acked_bytes` towards `W_cubic(t + RTT) = w_next`.
#[inline]
pub(super) fn grow_towards(w_next: u64, cwnd: u64, acked_bytes: u64) -> u64 {
    // RFC 9438 §4.2: target = clamp(W_cubic(t + RTT), cwnd, 1.5*cwnd), as the room
    // target − cwnd = min(W_cubic − cwnd, cwnd/2) (0 below cwnd; cannot overflow).
    let room = w_next.saturating_sub(cwnd).min(cwnd / 2);
    // RFC 9438 §4.4/§4.5: cwnd += (target - cwnd)/cwnd per segment, i.e. per acked byte;
    // cwnd + room cannot wrap: room ≤ w_next − cwnd.
    cwnd + mul_div_floor(room, acked_bytes, cwnd).min(room)
}

/// The window of a steady ACK in 32 bits, if it fits (not zero, below 2^32): else the
/// steady path leaves the ACK to the full one (windows of 4 GiB and more).
#[cfg(target_pointer_width = "64")]
#[inline]
pub(super) fn narrow_window(cwnd: u64) -> Option<NonZeroU32> {
    if cwnd >> 32 != 0 {
        return None;
    }
    NonZeroU32::new(cwnd as u32)
}

/// [`grow_towards`] for a window below 2^32, the same value: `⌊room · acked / cwnd⌋
/// .min(room)` equals `⌊room · min(acked, cwnd) / cwnd⌋`, a product below 2^63.
#[cfg(target_pointer_width = "64")]
#[inline]
pub(super) fn grow_towards_narrow(w_next: u64, cwnd32: NonZeroU32, acked_bytes: u64) -> u64 {
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
