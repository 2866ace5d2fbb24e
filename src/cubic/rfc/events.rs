//! Reductions, the slow-start exit, MSS changes, and pausing growth.

use super::*;

impl RfcCubic {
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
    pub(super) fn end_epoch(&mut self) {
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
            // The only case that changes steady_clock: every method that changes the pair
            // (epoch_start, paused_at) sets it, and this runs on each ACK or send.
            self.sync_steady_clock();
        } else {
            // No epoch to shift; a pause without an epoch is simply forgotten
            // (steady_clock stays 0: there is no epoch).
            self.paused_at = Instant::ZERO;
            self.paused = false;
        }
    }
}
