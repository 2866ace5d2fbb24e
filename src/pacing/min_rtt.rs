//! A windowed minimum of RTT samples in constant space, as Linux's `minmax` filter
//! keeps `tcp_min_rtt` over `tcp_min_rtt_wlen` (300 s).
//!
//! Three candidates are kept: the minimum of the window and the best samples of its
//! later quarters and halves, so that when the minimum ages out a good replacement is
//! already there. Each update is a handful of comparisons, with no loop.
//!
//! Time is kept like the kernel's jiffies: milliseconds in a wrapping `u32`. A flow with
//! no sample for more than 49.7 days may keep a stale minimum, as in Linux.

use crate::time::Instant;

/// Default window of the minimum RTT: 300 s, in ms.
// Linux net/ipv4/tcp_ipv4.c sysctl_tcp_min_rtt_wlen = 300 (seconds)
pub const MIN_RTT_WINDOW_MS: u32 = 300_000;

/// One candidate: a sample and when it was taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
struct Sample {
    at_ms: u32,
    rtt_us: u32,
}

/// The windowed minimum RTT: 24 bytes, `Copy`. Reads `u32::MAX` µs before any sample
/// (the kernel's `~0U`, which makes TSO autosizing add nothing for the RTT).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct MinRttFilter {
    /// Best, second-best and third-best candidates, oldest first in time.
    best: Sample,
    second: Sample,
    third: Sample,
}

impl Default for MinRttFilter {
    fn default() -> Self {
        Self::new()
    }
}

impl MinRttFilter {
    /// No sample yet.
    pub const fn new() -> Self {
        let none = Sample {
            at_ms: 0,
            rtt_us: u32::MAX,
        };
        MinRttFilter {
            best: none,
            second: none,
            third: none,
        }
    }

    /// The minimum RTT in the window, µs (`u32::MAX` before any sample).
    pub const fn get_us(&self) -> u32 {
        self.best.rtt_us
    }

    /// Adds an RTT sample taken at `now`, for a window of `window_ms`, and returns the
    /// new minimum. A sample of 0 µs counts as 1 µs (a clock too coarse to see the RTT;
    /// Linux substitutes one jiffy instead).
    // Linux lib/minmax.c minmax_running_min(); net/ipv4/tcp_input.c tcp_update_rtt_min()
    pub fn update(&mut self, now: Instant, rtt_us: u32, window_ms: u32) -> u32 {
        let s = Sample {
            at_ms: now.jiffies32(),
            rtt_us: rtt_us.max(1),
        };
        // A new overall minimum, or nothing left in the window: start afresh.
        if s.rtt_us <= self.best.rtt_us || s.at_ms.wrapping_sub(self.third.at_ms) > window_ms {
            self.best = s;
            self.second = s;
            self.third = s;
            return s.rtt_us;
        }
        if s.rtt_us <= self.second.rtt_us {
            self.second = s;
            self.third = s;
        } else if s.rtt_us <= self.third.rtt_us {
            self.third = s;
        }
        self.age(s, window_ms)
    }

    /// Expire the best candidate once it is older than the window, and refresh the
    /// later candidates once they are a quarter or half a window old.
    // Linux lib/minmax.c minmax_subwin_update()
    fn age(&mut self, s: Sample, window_ms: u32) -> u32 {
        let age_ms = s.at_ms.wrapping_sub(self.best.at_ms);
        if age_ms > window_ms {
            // The minimum left the window: promote, and once more if still too old.
            self.best = self.second;
            self.second = self.third;
            self.third = s;
            if s.at_ms.wrapping_sub(self.best.at_ms) > window_ms {
                self.best = self.second;
                self.second = self.third;
                self.third = s;
            }
        } else if self.second.at_ms == self.best.at_ms && age_ms > window_ms / 4 {
            // A quarter of the window passed with one candidate: take a second.
            self.second = s;
            self.third = s;
        } else if self.third.at_ms == self.second.at_ms && age_ms > window_ms / 2 {
            // Half the window passed with two candidates: take a third.
            self.third = s;
        }
        self.best.rtt_us
    }
}

#[cfg(test)]
mod tests;
