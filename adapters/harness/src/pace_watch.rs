//! [`PaceWatch`]: whether the host, not the network, held a BBR sender back (the quinn and
//! noq adapters share it).
//!
//! BBR measures the delivery rate of what it sent and paces at that rate (times a gain),
//! so a sender that falls behind its own pacing rate feeds its shortfall back: the lower
//! rate is measured, the bandwidth estimate falls, the pacing rate falls with it. The
//! kernel's pacer runs on hrtimers; a QUIC stack here runs on tokio tasks with
//! millisecond timers, and on a loaded host those tasks wake tens of milliseconds late.
//! The delivery-rate sampler already knows a sender that did not send as fast as it
//! could for reasons of its own: the application-limited mark
//! (`tcp_rate_check_app_limited()`), whose samples may raise the bandwidth estimate but
//! never lower it. The adapter sets it for the host too: it keeps the schedule the
//! pacing rate allows (a virtual departure time per packet, as the kernel's
//! `tcp_wstamp_ns`), and when a packet leaves more than [`HOST_LATENESS_US`] after the time
//! the sender was due (the previous send left the window open and the application with
//! data), the next ACK frame is reported application-limited.

/// How far behind the schedule its pacing rate allows a sender may fall before the
/// adapter calls the delay the host's: five of tokio's 1 ms timer ticks, µs. A working
/// timer adds about one.
pub const HOST_LATENESS_US: u64 = 5_000;

/// How late a packet may leave without moving the schedule (it is kept from the time
/// the packet was due), µs: one timer tick.
const SLACK_US: u64 = 1_000;

/// The schedule a sender's pacing rate allows, and whether it fell behind.
#[derive(Clone, Copy, Debug, Default)]
pub struct PaceWatch {
    /// When the next packet is due at the pacing rate, µs.
    next_due_us: u64,
    /// When the next packet could leave after the last send (its due time, or the send
    /// itself if the sender was behind), if nothing but pacing held it (window open,
    /// data to send).
    waiting_for: Option<u64>,
    /// A packet left late since the last ACK frame.
    late: bool,
}

impl PaceWatch {
    /// A packet of `bytes` left at `now_us`, the pacing rate being `rate` bytes/s (`None`:
    /// not paced yet). `open`: after it the window had room for another packet and the
    /// application had data. Returns whether this packet left late.
    pub fn on_sent(&mut self, now_us: u64, bytes: u64, rate: Option<u64>, open: bool) -> bool {
        let late = self
            .waiting_for
            .take()
            .is_some_and(|due| now_us > due.saturating_add(SLACK_US + HOST_LATENESS_US));
        self.late |= late;
        match rate.filter(|&r| r > 0) {
            Some(rate) => {
                let start = self.next_due_us.max(now_us.saturating_sub(SLACK_US));
                let spacing = bytes.saturating_mul(1_000_000) / rate;
                self.next_due_us = start.saturating_add(spacing);
                // The next packet may leave at its due time, or at once if that has passed.
                self.waiting_for = open.then_some(self.next_due_us.max(now_us));
            }
            None => self.next_due_us = now_us,
        }
        late
    }

    /// Whether a packet left late since the last call.
    pub fn take_late(&mut self) -> bool {
        std::mem::take(&mut self.late)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sender_behind_its_pacing_rate_is_late_and_one_waiting_for_acks_is_not() {
        let mut w = PaceWatch::default();
        // 1.2 MB/s: one 1200-byte packet per ms. On time, then 1, 1 and 5 ms late: not late.
        assert!(!w.on_sent(0, 1200, Some(1_200_000), true));
        assert!(!w.on_sent(1_000, 1200, Some(1_200_000), true));
        assert!(!w.on_sent(3_000, 1200, Some(1_200_000), true));
        assert!(!w.on_sent(8_000, 1200, Some(1_200_000), true));
        assert!(!w.take_late());
        // Free to leave at 8 ms (the sender was behind), sent at 20 ms: the host held it.
        assert!(w.on_sent(20_000, 1200, Some(1_200_000), true));
        assert!(w.take_late() && !w.take_late());
        // The window was full (or the application had nothing): a long gap is not lateness.
        assert!(!w.on_sent(21_000, 1200, Some(1_200_000), false));
        assert!(!w.on_sent(60_000, 1200, Some(1_200_000), true));
        // A burst ahead of the schedule is never late.
        for _ in 0..10 {
            assert!(!w.on_sent(60_000, 1200, Some(1_200_000), true));
        }
        // No pacing rate yet: nothing is due.
        let mut w = PaceWatch::default();
        assert!(!w.on_sent(0, 1200, None, true));
        assert!(!w.on_sent(100_000, 1200, None, true));
    }
}
