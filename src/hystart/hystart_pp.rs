//! HyStart++ (RFC 9406 §4): slow-start exit on a round-trip-time increase, with
//! Conservative Slow Start (CSS) to recover from a premature exit.

use crate::time::Duration;

/// Lower bound of the RTT-increase threshold.
// RFC 9406 §4.3: MIN_RTT_THRESH = 4 msec
pub const MIN_RTT_THRESH: Duration = Duration::from_millis(4);
/// Upper bound of the RTT-increase threshold.
// RFC 9406 §4.3: MAX_RTT_THRESH = 16 msec
pub const MAX_RTT_THRESH: Duration = Duration::from_millis(16);
/// The threshold is the last round's minimum RTT divided by this, then clamped.
// RFC 9406 §4.3: MIN_RTT_DIVISOR = 8
pub const MIN_RTT_DIVISOR: u64 = 8;
/// RTT samples a round needs before the exit test runs.
// RFC 9406 §4.3: N_RTT_SAMPLE = 8
pub const N_RTT_SAMPLE: u32 = 8;
/// Growth in CSS is slow start's divided by this.
// RFC 9406 §4.3: CSS_GROWTH_DIVISOR = 4
pub const CSS_GROWTH_DIVISOR: u64 = 4;
/// Rounds of CSS before congestion avoidance.
// RFC 9406 §4.3: CSS_ROUNDS = 5
pub const CSS_ROUNDS: u32 = 5;
/// Per-ACK growth limit in segments when the sender does not pace (`L`); a pacing
/// sender has no limit (`L = infinity`).
// RFC 9406 §4.3: L = infinity if paced, L = 8 if non-paced
pub const L: u64 = 8;

/// "Infinity" for the RTT variables, as stored.
const INFINITE_RTT_US: u32 = u32::MAX;

/// A stored RTT as the accessors report it: infinity as `u64::MAX`.
const fn widen_rtt(us: u32) -> u64 {
    if us == INFINITE_RTT_US {
        u64::MAX
    } else {
        us as u64
    }
}

/// What an ACK made HyStart++ decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum HystartPpVerdict {
    /// Stay where we are (slow start or CSS).
    Continue,
    /// The round's minimum RTT rose by the threshold: leave slow start for CSS.
    EnterCss,
    /// In CSS the round's minimum RTT fell below the baseline: the exit was spurious,
    /// resume slow start.
    ResumeSlowStart,
    /// `CSS_ROUNDS` rounds of CSS completed: set `ssthresh = cwnd`, enter congestion
    /// avoidance.
    ExitToCongestionAvoidance,
}

/// HyStart++ state (RFC 9406 §4.2 names in snake case). Plain `Copy` data, 24 bytes:
/// RTTs in 32 bits (below), counts in 8 bits, read through the accessors.
///
/// Rounds end when the ACK covers the highest sequence (TCP) or packet number (QUIC)
/// that had been sent when the round began (RFC 9406 §4.2 `windowEnd`). RTTs are in
/// microseconds, kept in 32 bits: samples of `u32::MAX` µs (71.6 minutes) or more count
/// as `u32::MAX`, which is "infinity" (the accessors report it as `u64::MAX`). Counts in
/// bytes: the caller passes the newly acknowledged byte count and its MSS.
///
/// Call order per ACK in slow start or CSS (see [`crate::rfc::Cubic`]):
/// [`on_round_check`](HystartPlusPlus::on_round_check), then grow cwnd by
/// [`growth_bytes`](HystartPlusPlus::growth_bytes), then
/// [`on_rtt_sample`](HystartPlusPlus::on_rtt_sample).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct HystartPlusPlus {
    /// `windowEnd`: the round ends when an ACK covers this sequence / packet number;
    /// meaningful once `round_started` (0 before).
    window_end: u64,
    /// `lastRoundMinRTT`, µs (`u32::MAX`: infinity).
    last_round_min_rtt_us: u32,
    /// `currentRoundMinRTT`, µs (`u32::MAX`: infinity).
    current_round_min_rtt_us: u32,
    /// `cssBaselineMinRtt`, µs (`u32::MAX`: infinity, i.e. not in CSS).
    css_baseline_min_rtt_us: u32,
    /// `rttSampleCount` in the current round, counted up to `N_RTT_SAMPLE`: only
    /// whether it reached that matters.
    rtt_sample_count: u8,
    /// CSS rounds completed (the partial round CSS started in counts); at most
    /// `CSS_ROUNDS`, which ends CSS.
    css_rounds: u8,
    /// True while in Conservative Slow Start.
    in_css: bool,
    /// Whether the first round has started (`window_end` is set).
    round_started: bool,
}

impl Default for HystartPlusPlus {
    fn default() -> Self {
        Self::new()
    }
}

impl HystartPlusPlus {
    /// Initial state: both round minima infinite, no round started.
    // RFC 9406 §4.2: lastRoundMinRTT = currentRoundMinRTT = infinity; rttSampleCount = 0
    pub const fn new() -> Self {
        HystartPlusPlus {
            window_end: 0,
            last_round_min_rtt_us: INFINITE_RTT_US,
            current_round_min_rtt_us: INFINITE_RTT_US,
            css_baseline_min_rtt_us: INFINITE_RTT_US,
            rtt_sample_count: 0,
            css_rounds: 0,
            in_css: false,
            round_started: false,
        }
    }

    /// `lastRoundMinRTT`, µs (`u64::MAX`: infinity).
    pub const fn last_round_min_rtt_us(&self) -> u64 {
        widen_rtt(self.last_round_min_rtt_us)
    }

    /// `currentRoundMinRTT`, µs (`u64::MAX`: infinity).
    pub const fn current_round_min_rtt_us(&self) -> u64 {
        widen_rtt(self.current_round_min_rtt_us)
    }

    /// `cssBaselineMinRtt`, µs (`u64::MAX`: infinity, i.e. not in CSS).
    pub const fn css_baseline_min_rtt_us(&self) -> u64 {
        widen_rtt(self.css_baseline_min_rtt_us)
    }

    /// `windowEnd`: the round ends when an ACK covers this sequence / packet number;
    /// `None` before the first round.
    pub const fn window_end(&self) -> Option<u64> {
        if self.round_started {
            Some(self.window_end)
        } else {
            None
        }
    }

    /// `rttSampleCount` in the current round, counted up to [`N_RTT_SAMPLE`] (the
    /// exit tests need no more).
    pub const fn rtt_sample_count(&self) -> u32 {
        self.rtt_sample_count as u32
    }

    /// CSS rounds completed (the partial round CSS started in counts).
    pub const fn css_rounds(&self) -> u32 {
        self.css_rounds as u32
    }

    /// True while in Conservative Slow Start.
    pub const fn in_css(&self) -> bool {
        self.in_css
    }

    pub(crate) const fn set_in_css(&mut self, in_css: bool) {
        self.in_css = in_css;
    }

    /// Starts a new round if the ACK covering `largest_acked` ended the current one;
    /// `largest_sent` becomes the new round's end. Returns
    /// [`HystartPpVerdict::ExitToCongestionAvoidance`] when this completes `CSS_ROUNDS`.
    pub fn on_round_check(&mut self, largest_acked: u64, largest_sent: u64) -> HystartPpVerdict {
        let round_over = !self.round_started || largest_acked >= self.window_end;
        if !round_over {
            return HystartPpVerdict::Continue;
        }
        // RFC 9406 §4.2: at round start lastRoundMinRTT = currentRoundMinRTT,
        // currentRoundMinRTT = infinity, rttSampleCount = 0
        self.last_round_min_rtt_us = self.current_round_min_rtt_us;
        self.current_round_min_rtt_us = INFINITE_RTT_US;
        self.rtt_sample_count = 0;
        let was_first = !self.round_started;
        self.window_end = largest_sent;
        self.round_started = true;
        if self.in_css && !was_first {
            self.css_rounds = self.css_rounds.saturating_add(1);
            // RFC 9406 §4.2: if CSS_ROUNDS rounds are complete, enter CA (ssthresh = cwnd)
            if self.css_rounds as u32 >= CSS_ROUNDS {
                self.in_css = false;
                return HystartPpVerdict::ExitToCongestionAvoidance;
            }
        }
        HystartPpVerdict::Continue
    }

    /// The slow-start increase for an ACK of `acked_bytes`: `min(N, L·SMSS)` (no limit
    /// when `paced`), divided by `CSS_GROWTH_DIVISOR` in CSS (floor).
    pub const fn growth_bytes(&self, acked_bytes: u64, mss_bytes: u64, paced: bool) -> u64 {
        // RFC 9406 §4.2: cwnd = cwnd + min(N, L * SMSS)
        let limited = if paced {
            acked_bytes
        } else {
            let cap = L.saturating_mul(mss_bytes);
            if acked_bytes < cap { acked_bytes } else { cap }
        };
        if self.in_css {
            // RFC 9406 §4.2: in CSS, cwnd = cwnd + (min(N, L * SMSS) / CSS_GROWTH_DIVISOR)
            limited / CSS_GROWTH_DIVISOR
        } else {
            limited
        }
    }

    /// Feeds an RTT sample and runs the slow-start exit test (in slow start) or the
    /// spurious-exit test (in CSS).
    pub fn on_rtt_sample(&mut self, rtt: Duration) -> HystartPpVerdict {
        // RFC 9406 §4.2: currentRoundMinRTT = min(currentRoundMinRTT, currRTT)
        // Compared in 64 bits and stored only when the minimum moves: a sample of
        // u32::MAX µs (71.6 minutes) or more never moves it, as if clamped to u32::MAX
        // (infinity), without the clamp's instructions; a smaller one fits the field.
        let rtt_us = rtt.as_micros();
        if rtt_us < self.current_round_min_rtt_us as u64 {
            self.current_round_min_rtt_us = rtt_us as u32;
        }
        // RFC 9406 §4.2: rttSampleCount += 1 (counted up to N_RTT_SAMPLE, all the test
        // below needs)
        if (self.rtt_sample_count as u32) < N_RTT_SAMPLE {
            self.rtt_sample_count += 1; // below N_RTT_SAMPLE (8): no overflow
            if (self.rtt_sample_count as u32) < N_RTT_SAMPLE {
                return HystartPpVerdict::Continue;
            }
        }
        if self.in_css {
            // RFC 9406 §4.2: if currentRoundMinRTT < cssBaselineMinRtt, resume slow start
            if self.current_round_min_rtt_us < self.css_baseline_min_rtt_us {
                self.css_baseline_min_rtt_us = INFINITE_RTT_US;
                self.in_css = false;
                self.css_rounds = 0;
                return HystartPpVerdict::ResumeSlowStart;
            }
            return HystartPpVerdict::Continue;
        }
        if self.current_round_min_rtt_us == INFINITE_RTT_US
            || self.last_round_min_rtt_us == INFINITE_RTT_US
        {
            return HystartPpVerdict::Continue;
        }
        let last = self.last_round_min_rtt_us as u64;
        let threshold = rtt_thresh_us(last);
        // RFC 9406 §4.2: if currentRoundMinRTT >= lastRoundMinRTT + RttThresh, enter CSS
        // (in 64 bits: last < 2^32 and threshold ≤ 16 ms, no overflow)
        if self.current_round_min_rtt_us as u64 >= last + threshold {
            self.css_baseline_min_rtt_us = self.current_round_min_rtt_us;
            self.in_css = true;
            self.css_rounds = 0;
            return HystartPpVerdict::EnterCss;
        }
        HystartPpVerdict::Continue
    }
}

/// `RttThresh` for a last-round minimum of `last_round_min_rtt_us`, µs.
// RFC 9406 §4.2: RttThresh = max(MIN_RTT_THRESH, min(lastRoundMinRTT / MIN_RTT_DIVISOR, MAX_RTT_THRESH))
pub const fn rtt_thresh_us(last_round_min_rtt_us: u64) -> u64 {
    let eighth = last_round_min_rtt_us / MIN_RTT_DIVISOR;
    let max = MAX_RTT_THRESH.as_micros();
    let min = MIN_RTT_THRESH.as_micros();
    let capped = if eighth < max { eighth } else { max };
    if capped > min { capped } else { min }
}

#[cfg(test)]
mod tests;
