//! `tcp_update_pacing_rate` computed lazily: what an event remembers, and the rate
//! when asked for.

use super::*;

impl LinuxFlowState {
    /// `tcp_update_pacing_rate`, at the end of every event. The rate is a pure function
    /// of cwnd, ssthresh, srtt, `packets_out` and the socket settings, all fixed until
    /// the next event except `packets_out`: so that one is remembered (in the cold line,
    /// and only when it is above cwnd, the one case where it counts) and the rate is
    /// computed when asked for ([`sk_pacing_rate`](LinuxFlowState::sk_pacing_rate)).
    /// Eagerly only when the next ACK's HyStart will read it, since that ACK changes
    /// srtt first. Not modelled: the rate keeps its last value.
    // Linux net/ipv4/tcp_input.c tcp_update_pacing_rate()
    #[inline(always)]
    pub(super) fn pacing_inputs_changed(&mut self, p: &LinuxParams) {
        if self.hystart_reads_the_next_sample(p) {
            self.freeze_pacing_rate_for_hystart(p);
        } else if self.hot.packets_out > self.hot.cwnd {
            self.remember_flight_above_cwnd();
        } else {
            self.hot.flags &= !(FLIGHT_ABOVE_CWND | PACING_FRESH);
        }
    }

    /// The last event left more in flight than cwnd: the rate takes that flight, kept in
    /// the cold line (unless the rate is not modelled, and the slot keeps it).
    #[cold]
    #[inline(never)]
    pub(super) fn remember_flight_above_cwnd(&mut self) {
        if !self.has(PACING_NOT_MODELLED) {
            self.cold.pacing = u64::from(self.hot.packets_out);
            self.hot.flags = (self.hot.flags | FLIGHT_ABOVE_CWND) & !PACING_FRESH;
        }
    }

    /// The eager half of [`pacing_inputs_changed`](Self::pacing_inputs_changed); out
    /// of line, it runs only in slow start.
    #[inline(never)]
    pub(super) fn freeze_pacing_rate_for_hystart(&mut self, p: &LinuxParams) {
        self.freeze_pacing_rate_at(p, self.hot.packets_out);
    }

    /// Store the rate for `packets_out` now (unless pacing is not modelled, where it
    /// keeps its last value), so that later changes to its inputs do not move it.
    pub(super) fn freeze_pacing_rate_at(&mut self, p: &LinuxParams, packets_out: u32) {
        if !self.has(PACING_NOT_MODELLED) {
            self.cold.pacing = self.pacing_rate_for(p, packets_out);
        }
        self.set(PACING_FRESH, true);
        self.set(FLIGHT_ABOVE_CWND, false);
    }

    /// Whether the flow models `sk_pacing_rate` from now on (the socket setting
    /// `model_pacing`, read at init and on reconfiguration). Turned off, the rate keeps
    /// the value the last event left.
    pub(crate) fn set_pacing_modelled(&mut self, p: &LinuxParams, modelled: bool) {
        self.freeze_pacing_rate(p);
        self.set(PACING_NOT_MODELLED, !modelled);
    }

    /// `packets_out` as the last event left it, for the pacing rate: cwnd stands in for
    /// any flight at or below it, since the rate takes the larger of the two.
    pub(super) const fn pacing_packets_out(&self) -> u32 {
        if self.has(FLIGHT_ABOVE_CWND) {
            self.cold.pacing as u32
        } else {
            self.hot.cwnd
        }
    }

    /// Before a setter changes an input of the pacing rate or whether HyStart reads it:
    /// the kernel's `sk_pacing_rate` stays as the last event left it.
    pub(crate) fn freeze_pacing_rate(&mut self, p: &LinuxParams) {
        if !self.has(PACING_FRESH) {
            self.freeze_pacing_rate_at(p, self.pacing_packets_out());
        }
    }

    /// `tcp_update_pacing_rate` on the current state with `packets_out`.
    // Linux net/ipv4/tcp_input.c tcp_update_pacing_rate()
    pub(super) const fn pacing_rate_for(&self, p: &LinuxParams, packets_out: u32) -> u64 {
        let s = p.socket();
        linux_pacing_rate(&LinuxPacingInput {
            mss: s.mss,
            cwnd: self.hot.cwnd,
            ssthresh: self.hot.ssthresh,
            packets_out,
            srtt_us_x8: self.hot.srtt_us_x8,
            ss_ratio_percent: s.pacing_ss_ratio,
            ca_ratio_percent: s.pacing_ca_ratio,
            max_rate: s.max_pacing_rate,
        })
    }

    /// `sk_pacing_rate`, bytes per second, as the last event left it (computed here
    /// unless an event or a setter already fixed it; the transmit step does not move it).
    #[inline]
    pub fn sk_pacing_rate(&self, p: &LinuxParams) -> u64 {
        if self.hot.flags & (PACING_FRESH | PACING_NOT_MODELLED | FLIGHT_ABOVE_CWND) == 0 {
            // The common case, from the hot line alone: the flight is at most cwnd.
            self.pacing_rate_for(p, self.hot.cwnd)
        } else {
            self.sk_pacing_rate_from_the_cold_line(p)
        }
    }

    /// [`sk_pacing_rate`](Self::sk_pacing_rate) when the cold line holds the rate or the
    /// flight; out of line, so that the common case never loads it, not even
    /// speculatively.
    #[inline(never)]
    pub(super) fn sk_pacing_rate_from_the_cold_line(&self, p: &LinuxParams) -> u64 {
        if self.has(PACING_FRESH) || self.has(PACING_NOT_MODELLED) {
            self.cold.pacing
        } else {
            self.pacing_rate_for(p, self.pacing_packets_out())
        }
    }
}
