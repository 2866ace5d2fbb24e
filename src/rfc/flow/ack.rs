//! The classic driver's ACK path, the undo snapshot and the idle restart.

use super::*;

impl<W: WindowAdjustment, U: UndoStorage<W>> ClassicState<W, U> {
    /// Updates the smoothed and minimum RTT from one sample.
    pub(super) fn on_rtt_sample(&mut self, rtt: Duration) {
        // Huge and first samples out of line.
        let Ok(r) = u32::try_from(rtt.as_micros()) else {
            self.clamped_rtt_sample();
            return;
        };
        // Stored only when the minimum moves.
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
        // No overflow: 7·(2^29 - 1) + (2^29 - 1) = 2^32 - 8.
        self.srtt_us = (s / 8) * 7 + r / 8;
    }

    #[cold]
    #[inline(never)]
    pub(super) fn first_rtt_sample(&mut self, r: u32) {
        // RFC 6298 §2.2: SRTT <- R
        self.srtt_us = r;
    }

    /// A sample above `u32::MAX` µs (71.6 minutes).
    #[cold]
    #[inline(never)]
    pub(super) fn clamped_rtt_sample(&mut self) {
        let (s, r) = (self.srtt_us, u32::MAX);
        self.srtt_us = if s == 0 {
            // RFC 6298 §2.2: SRTT <- R
            r
        } else {
            // RFC 6298 §2.3: SRTT = (1 - 1/8) * SRTT + 1/8 * R' (no overflow, as above)
            (s / 8) * 7 + r / 8
        };
    }

    pub(super) fn save_undo(&mut self) {
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
    pub(super) fn recovery_over(&self) -> bool {
        // RFC 9002 §7.3.2: recovery ends when a packet sent after its start is acked
        // (largest acked > recovery_end, i.e. acked_below > recovery_end + 1).
        let by_packet_number = self.acked_below > self.recovery_end.saturating_add(1);
        // Fallback for stacks whose ACKs carry no packet number (none named yet):
        // once as many bytes as were in flight at the event have been acknowledged.
        let by_bytes = self.acked_below == 0 && self.recovery_flight_left == 0;
        by_packet_number || by_bytes
    }

    /// A congestion-avoidance ACK that may grow the window: CUBIC's steady path when it
    /// knows all it needs, else the full one (`f`: see [`Parts`]).
    #[cfg(target_pointer_width = "64")]
    #[inline(never)]
    pub(super) fn steady_ack<F: Parts<W, U>>(f: &mut F, acked: u64) {
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

    /// The full CUBIC path for a window-limited congestion-avoidance ACK.
    #[cfg(target_pointer_width = "64")]
    #[inline(never)]
    pub(super) fn full_ca_ack<F: Parts<W, U>>(f: &mut F, acked: u64) {
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

    #[inline(always)]
    pub(super) fn ack_bookkeeping(&mut self, now: Instant, ack: &AckEvent) {
        // In-flight floors at zero: a wrapping subtraction, the rare underflow fixed up
        // out of line.
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
        // Stored only when it moves. `pn + 1` wraps only for u64::MAX, handled out of
        // line (counted as u64::MAX - 1 acknowledged).
        if let Some(pn) = ack.largest_acked {
            let below = pn.wrapping_add(1);
            if below > self.acked_below {
                self.acked_below = below;
            } else if below == 0 {
                self.acked_the_last_number();
            }
        }
        if let Some(rtt) = ack.rtt {
            self.on_rtt_sample(rtt);
        }
        self.last_activity = now;
    }

    #[cold]
    #[inline(never)]
    fn acked_the_last_number(&mut self) {
        self.acked_below = u64::MAX;
    }

    /// What the algorithm sees of every ACK ([`WindowAdjustment::on_every_ack`]):
    /// nothing for the classic ones, whose empty hook the compiler removes.
    #[inline(always)]
    pub(super) fn every_ack_hook(&mut self, p: &RfcParams, now: Instant, acked: u64) {
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

    #[cfg(target_pointer_width = "64")]
    #[cold]
    #[inline(never)]
    pub(super) fn clear_in_flight(&mut self) {
        self.in_flight = 0;
    }

    /// An ACK whose window use is judged from its own flight too ("Window use" on
    /// [`Cubic`]); out of line on 64-bit targets, where `on_ack` takes the others.
    #[cfg_attr(target_pointer_width = "64", inline(never))]
    pub(super) fn on_ack_judged_now<F: Parts<W, U>>(f: &mut F, now: Instant, ack: AckEvent) {
        let ack = &ack;
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
            Self::ack_phases(f, ack);
        }
    }

    /// An ACK that may grow the window, after the driver's bookkeeping.
    #[inline(always)]
    pub(super) fn window_limited_ack<F: Parts<W, U>>(f: &mut F, ack: &AckEvent) {
        // 64-bit: the steady ACK (RfcCubic::on_steady_ack), as the full path would. The
        // phase alone decides: CongestionAvoidance implies cwnd >= ssthresh where set.
        #[cfg(target_pointer_width = "64")]
        if f.parts().0.phase == Phase::CongestionAvoidance {
            Self::steady_ack(f, ack.acked);
            return;
        }
        Self::ack_phases(f, ack);
    }

    /// The rest of an ACK (out of line): recovery, slow start, full CUBIC path.
    #[inline(always)]
    pub(super) fn ack_phases<F: Parts<W, U>>(f: &mut F, ack: &AckEvent) {
        #[cfg(target_pointer_width = "64")]
        Self::on_ack_phases(f, ack.acked, ack.rtt);
        #[cfg(not(target_pointer_width = "64"))]
        Self::on_ack_phases(f, *ack);
    }

    // 64-bit: the fields in registers, not a copy of the event.
    #[cfg(target_pointer_width = "64")]
    #[cold]
    #[inline(never)]
    pub(super) fn on_ack_phases<F: Parts<W, U>>(f: &mut F, acked: u64, rtt: Option<Duration>) {
        let (s, p) = f.parts();
        let ack = AckEvent::new(acked, 0, rtt);
        s.on_ack_phases_with(p, &ack, |s, p, _, _| s.slow_start_fields(p, acked, rtt));
    }

    // Narrower targets, where every congestion-avoidance ACK comes: the event.
    #[cfg(not(target_pointer_width = "64"))]
    pub(super) fn on_ack_phases<F: Parts<W, U>>(f: &mut F, ack: AckEvent) {
        let (s, p) = f.parts();
        s.on_ack_phases_with(p, &ack, |s, p, now, limited| {
            s.slow_start_ack(p, now, &ack, limited)
        });
    }

    /// `slow_start`: a slow-start ACK, given its time and window use.
    #[inline(always)]
    pub(super) fn on_ack_phases_with<S: FnOnce(&mut Self, &RfcParams, Instant, bool)>(
        &mut self,
        p: &RfcParams,
        ack: &AckEvent,
        slow_start: S,
    ) {
        // The ACK's time and window use, read here on narrower targets (smaller code).
        let early = (self.last_activity, self.last_ack_cwnd_limited);
        let at_use = |s: &Self| match cfg!(target_pointer_width = "64") {
            true => (s.last_activity, s.last_ack_cwnd_limited),
            false => early,
        };
        if self.phase == Phase::Recovery {
            self.recovery_flight_left = self.recovery_flight_left.saturating_sub(ack.acked);
            if !self.recovery_over() {
                return;
            }
            // Out of recovery: slow start below ssthresh, else congestion avoidance.
            if self.cwnd < self.ssthresh {
                self.phase = Phase::SlowStart;
                let (now, cwnd_limited) = at_use(self);
                slow_start(self, p, now, cwnd_limited);
                return;
            }
        } else if self.cwnd < self.ssthresh {
            let (now, cwnd_limited) = at_use(self);
            slow_start(self, p, now, cwnd_limited);
            return;
        }
        self.phase = Phase::CongestionAvoidance;
        let (now, cwnd_limited) = at_use(self);
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

    #[cfg_attr(target_pointer_width = "64", cold, inline(never))]
    pub(super) fn on_sent_from_idle(&mut self, now: Instant, in_flight_after: u64) {
        if in_flight_after > 0 {
            self.restart_after_idle(now);
        }
    }

    /// Idle from the last activity until `now`: no growth credit for it. Out of line on
    /// 32-bit targets (flash: a send from idle and a transmit start share it).
    #[cfg_attr(not(target_pointer_width = "64"), inline(never))]
    pub(super) fn restart_after_idle(&mut self, now: Instant) {
        // RFC 9438 §5.8: idle periods are not part of t
        self.growth.pause(self.last_activity);
        self.growth.resume(now);
    }
}
