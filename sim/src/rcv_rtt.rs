//! A 2.6.35 receiver's own RTT estimate (`tp->rcv_rtt_est`), the clock autotuning
//! times its epochs with.
//!
//! Everything is in jiffies of the receiver's clock (`tcp_time_stamp`, a wrapping u32).
//! The estimate `rtt8` is eight times the RTT in jiffies and starts at 0, meaning "no
//! sample yet"; while it is 0, `tcp_rcv_space_adjust` never grows the buffer. Two
//! kinds of sample feed it (Linux 2.6.35 net/ipv4/tcp_input.c):
//! - per window (`tcp_rcv_rtt_measure`, with or without timestamps): from the first
//!   data segment, the jiffies until `rcv_nxt` passes the sequence that was
//!   `rcv_nxt + rcv_wnd` when the measurement began; then the next one starts. It is
//!   meant as a minimum filter, but the kernel compares the unscaled sample with the
//!   ×8 estimate (`m < new_sample`), so any sample under 8 estimates replaces it.
//! - per segment with timestamps (`tcp_rcv_rtt_measure_ts`): for each segment of at
//!   least one MSS, `tcp_time_stamp - rcv_tsecr`, the receiver's jiffies now against
//!   its own jiffies echoed from the last ACK the sender had when it sent the segment;
//!   smoothed with gain 1/8.
//!
//! A sample of 0 jiffies counts as 1.

/// The receiver's jiffies clock: ticks of `tick_ns`, on a counter `offset_ns` ahead of
/// the simulation's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JiffyClock {
    tick_ns: u64,
    offset_ns: u64,
}

impl JiffyClock {
    /// A clock of `hz` ticks per second that read `offset_ns` at simulated time 0.
    pub fn new(hz: u32, offset_ns: u64) -> Self {
        JiffyClock {
            tick_ns: 1_000_000_000 / u64::from(hz.max(1)),
            offset_ns,
        }
    }

    /// `tcp_time_stamp` at simulated time `now_ns` (wraps as the kernel's u32 does).
    pub fn jiffies(&self, now_ns: u64) -> u32 {
        self.tick_count(now_ns) as u32
    }

    /// Whole ticks of the counter at simulated time `now_ns`, unwrapped.
    fn tick_count(&self, now_ns: u64) -> u64 {
        now_ns.saturating_add(self.offset_ns) / self.tick_ns
    }

    /// The simulated time at which the counter reaches tick `n` (0 if before time 0).
    fn tick_start_ns(&self, n: u64) -> u64 {
        n.saturating_mul(self.tick_ns)
            .saturating_sub(self.offset_ns)
    }

    /// [`jiffies`](Self::jiffies) through `tick`, the tick last read: a receiver reads
    /// its clock for every segment and ACK, thousands of times per tick, and a 64-bit
    /// division costs tens of cycles.
    pub fn jiffies_cached(&self, now_ns: u64, tick: &mut Tick) -> u32 {
        if !(tick.from_ns..tick.until_ns).contains(&now_ns) {
            let n = self.tick_count(now_ns);
            *tick = Tick {
                from_ns: self.tick_start_ns(n),
                until_ns: self.tick_start_ns(n.saturating_add(1)),
                jiffies: n as u32,
            };
        }
        tick.jiffies
    }

    /// When a jiffies timer armed at `now_ns` for `ticks` fires: on the tick where the
    /// counter reaches `jiffies(now_ns) + ticks` (never before `now_ns`).
    pub fn fires_at(&self, now_ns: u64, ticks: u32) -> u64 {
        let n = self.tick_count(now_ns).saturating_add(u64::from(ticks));
        self.tick_start_ns(n).max(now_ns)
    }

    /// Ticks per second.
    pub fn hz(&self) -> u32 {
        (1_000_000_000 / self.tick_ns.max(1)).min(u64::from(u32::MAX)) as u32
    }

    /// `tcp_time_stamp` at `before_ns` ns before simulated time 0 (the handshake).
    pub fn jiffies_before_start(&self, before_ns: u64) -> u32 {
        (self.offset_ns.saturating_sub(before_ns) / self.tick_ns) as u32
    }
}

/// One tick of a [`JiffyClock`]: the simulated times `[from_ns, until_ns)` read as
/// `jiffies` (empty at first).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tick {
    from_ns: u64,
    until_ns: u64,
    jiffies: u32,
}

/// `tp->rcv_rtt_est` of a 2.6.35 receiver, sequence numbers in segments.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RcvRttEstimate {
    /// The estimate ×8, jiffies; 0: none yet.
    rtt8: u32,
    /// Jiffies the per-window measurement began; `None`: not begun.
    time: Option<u32>,
    /// The segment `rcv_nxt` must reach to end it.
    seq: u32,
}

impl RcvRttEstimate {
    /// The estimate ×8, jiffies (`rcv_rtt_est.rtt`); 0 before the first sample.
    pub fn rtt8(&self) -> u32 {
        self.rtt8
    }

    // Linux 2.6.35 net/ipv4/tcp_input.c tcp_rcv_rtt_update()
    fn update(&mut self, sample: u32, win_dep: bool) {
        let m = sample.max(1);
        self.rtt8 = if self.rtt8 == 0 {
            m << 3
        } else if !win_dep {
            // rtt8 += m - rtt8 / 8, in the kernel's wrapping u32/long arithmetic.
            self.rtt8.wrapping_add(m.wrapping_sub(self.rtt8 >> 3))
        } else if m < self.rtt8 {
            // The kernel's comparison of an unscaled sample with the ×8 estimate.
            m << 3
        } else {
            self.rtt8
        };
    }

    /// `tcp_rcv_rtt_measure`: in-order data has moved `rcv_nxt` to `rcv_nxt` at
    /// jiffies `now`, with `rcv_wnd` the window last advertised (segments).
    // Linux 2.6.35 net/ipv4/tcp_input.c tcp_rcv_rtt_measure(), from tcp_event_data_recv()
    pub fn on_data(&mut self, now: u32, rcv_nxt: u32, rcv_wnd: u32) {
        if let Some(start) = self.time {
            // before(rcv_nxt, seq): the window is not yet through.
            if (rcv_nxt.wrapping_sub(self.seq) as i32) < 0 {
                return;
            }
            self.update(now.wrapping_sub(start), true);
        }
        self.seq = rcv_nxt.wrapping_add(rcv_wnd);
        self.time = Some(now);
    }

    /// `tcp_rcv_rtt_measure_ts`: a segment of at least one MSS arrived at jiffies `now`
    /// echoing `tsecr` (0: no echo, ignored as the kernel does).
    // Linux 2.6.35 net/ipv4/tcp_input.c tcp_rcv_rtt_measure_ts()
    pub fn on_timestamp(&mut self, now: u32, tsecr: u32) {
        if tsecr != 0 {
            self.update(now.wrapping_sub(tsecr), false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cached_tick_reads_what_the_clock_reads() {
        // Offsets on and off a tick, times stepping forward by uneven amounts across
        // many tick boundaries, and one step back (a cache must not answer from the
        // tick it last saw).
        for (hz, offset) in [(250, 1_000_000), (1000, 0), (100, 999_999_999_999)] {
            let c = JiffyClock::new(hz, offset);
            let mut tick = Tick::default();
            let mut now = 0u64;
            for step in 0..20_000u64 {
                now += (step * 7_919) % 1_300_000;
                assert_eq!(c.jiffies_cached(now, &mut tick), c.jiffies(now), "{now}");
            }
            let back = now - 5_000_000;
            assert_eq!(c.jiffies_cached(back, &mut tick), c.jiffies(back));
        }
    }

    #[test]
    fn the_clock_counts_whole_ticks_from_its_offset() {
        let c = JiffyClock::new(250, 1_000_000);
        assert_eq!(c.jiffies(0), 0);
        assert_eq!(c.jiffies(2_999_999), 0);
        assert_eq!(c.jiffies(3_000_000), 1);
        assert_eq!(c.jiffies_before_start(1_000_001), 0);
    }

    #[test]
    fn the_first_window_sample_sets_the_estimate_and_later_ones_replace_it() {
        let mut e = RcvRttEstimate::default();
        // First data at jiffies 100, rcv_nxt 1, window 2: the measurement ends at 3.
        e.on_data(100, 1, 2);
        e.on_data(104, 2, 2);
        assert_eq!(e.rtt8(), 0, "window not yet through");
        e.on_data(105, 3, 10);
        assert_eq!(e.rtt8(), 40, "5 jiffies, x8");
        // Next measurement: from 105 until rcv_nxt reaches 13. 9 jiffies is not a
        // minimum, yet 9 < 40 (the scaled estimate) so it replaces 5.
        e.on_data(114, 13, 10);
        assert_eq!(e.rtt8(), 72);
        // 80 jiffies is not below 72: kept.
        e.on_data(194, 23, 10);
        assert_eq!(e.rtt8(), 72);
    }

    #[test]
    fn timestamp_samples_are_smoothed_with_gain_one_eighth() {
        let mut e = RcvRttEstimate::default();
        e.on_timestamp(1000, 995);
        assert_eq!(e.rtt8(), 40);
        // 40 + (13 - 5) = 48.
        e.on_timestamp(1013, 1000);
        assert_eq!(e.rtt8(), 48);
        // A same-tick echo counts as 1 jiffy: 48 + (1 - 6) = 43.
        e.on_timestamp(1013, 1013);
        assert_eq!(e.rtt8(), 43);
        e.on_timestamp(2000, 0);
        assert_eq!(e.rtt8(), 43, "no echo: ignored");
    }
}
