//! The receiver: in-order delivery, SACK for out-of-order data, delayed ACKs (every
//! `ack_ratio` segments or a timeout), and the receive window it advertises.
//!
//! Out-of-order data, a hole being filled and duplicates are ACKed at once, as Linux's
//! quick-ACK does. At the start of the connection the first `quickacks` in-order
//! segments are each ACKed at once too (Linux `tcp_incr_quickack` on the first data
//! segment, see `config::quickacks_for`); idle restarts do not re-arm it here.
//!
//! A 2.6.35 receiver (`SimConfig::rcv_ssthresh_growth`) also opens its window
//! gradually: `rcv_ssthresh` (bytes) starts at the initial window and `tcp_grow_window`
//! adds 2 segments per in-order data segment until it reaches the window clamp, setting
//! `icsk_ack.quick |= 1` each time, so `__tcp_ack_snd_check` ACKs every such segment at
//! once. While the window grows the receiver therefore ACKs every segment; once it
//! reaches the clamp (the socket buffer's window, or autotuning's current one) it falls
//! back to delayed ACKs, and resumes when autotuning raises the clamp. The ACK ratio
//! applies only then: there are no GRO aggregates in the model to ACK instead.
//!
//! A 2.6.35 receiver ([`Receiver::with_jiffy_clock`]) also keeps its own RTT estimate
//! in jiffies of its clock ([`crate::rcv_rtt`]) and times autotuning with it; its ACKs
//! carry its jiffies as TSval, which the sender echoes in later segments. Its delayed
//! ACK is a jiffies timer that fires on a tick, after the kernel's adaptive `ato`
//! ([`crate::delack`]) rather than a fixed `delack_ns`.
//!
//! The SACK block an ACK carries is the newly arrived segment's own:
//! ACKs are never lost on the reverse path, so the sender learns every SACKed segment.

use std::collections::VecDeque;

use crate::delack::DelayedAckTimeout;
use crate::rcv_rtt::{JiffyClock, RcvRttEstimate, Tick};
use crate::window::ReceiveWindow;

/// What the receiver sends back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AckInfo {
    /// Every segment below this one has arrived.
    pub cum: u32,
    /// SACK block `[lo, hi)`; empty when equal.
    pub sack_lo: u32,
    /// End of the SACK block.
    pub sack_hi: u32,
    /// Advertised window, segments beyond `cum`.
    pub rwnd: u32,
    /// TSval: the receiver's jiffies when it sent the ACK (0 without a jiffies clock).
    pub tsval: u32,
}

/// Receiver state.
#[derive(Clone, Debug)]
pub struct Receiver {
    rcv_nxt: u32,
    /// `ooo[i]`: segment `rcv_nxt + i` has arrived.
    ooo: VecDeque<bool>,
    unacked: u32,
    ack_ratio: u32,
    delack_ns: u64,
    quickacks_left: u32,
    /// `rcv_ssthresh` in bytes, when the receiver grows it (2.6.35); `None`: the
    /// window is the buffer's from the start. Bytes, as the kernel keeps it: the clamp
    /// it grows to need not be whole segments (at first it is the buffer's window less
    /// one MSS), and the last step up to it is a step like the others.
    rcv_ssthresh: Option<u64>,
    /// When the delayed-ACK timer fires, if armed.
    pub delack_deadline: Option<u64>,
    window: ReceiveWindow,
    /// Segments delivered in order, in total.
    pub delivered: u64,
    /// A 2.6.35 receiver's clock; `None`: autotuning in ns with the RTT it is given.
    clock: Option<JiffyClock>,
    /// The clock's tick last read.
    tick: Tick,
    /// Whether segments carry timestamps the estimate can use (`tcp_timestamps`).
    timestamps: bool,
    /// A 2.6.35 receiver's delayed-ACK timeout; `None`: `delack_ns` after the segment.
    ato: Option<DelayedAckTimeout>,
    rtt_est: RcvRttEstimate,
    /// The window last advertised, whole segments the sender may send.
    rcv_wnd: u32,
    /// The window last advertised, bytes (`tp->rcv_wnd`): for a 2.6.35 receiver,
    /// rounded up to the window scale's unit.
    rcv_wnd_bytes: u64,
    /// Whole segments `rcv_nxt` must advance to pass `rcv_wnd_bytes` (its ceiling in
    /// segments), kept with it: the per-window RTT sample reads it every segment.
    rcv_wnd_span: u32,
}

impl Receiver {
    /// A receiver that ACKs each of the first `quickacks` segments at once, then every
    /// `ack_ratio` segments or after `delack_ns`. `rcv_ssthresh_growth`: the initial
    /// `rcv_ssthresh` in segments of a receiver that grows it and ACKs every segment
    /// while it does (see the module doc), or `None`.
    pub fn new(
        ack_ratio: u32,
        delack_ns: u64,
        quickacks: u32,
        rcv_ssthresh_growth: Option<u32>,
        window: ReceiveWindow,
    ) -> Self {
        Receiver {
            rcv_nxt: 0,
            ooo: VecDeque::with_capacity(1024),
            unacked: 0,
            ack_ratio,
            delack_ns,
            quickacks_left: quickacks,
            rcv_ssthresh: rcv_ssthresh_growth.map(|n| u64::from(n) * window.mss()),
            delack_deadline: None,
            window,
            delivered: 0,
            clock: None,
            tick: Tick::default(),
            timestamps: false,
            ato: None,
            rtt_est: RcvRttEstimate::default(),
            rcv_wnd: 0,
            rcv_wnd_bytes: 0,
            rcv_wnd_span: 0,
        }
        .advertising_initial_window()
    }

    fn advertising_initial_window(mut self) -> Self {
        // Linux tcp_select_initial_window(): the SYN-ACK's window is whole segments,
        // not rounded to the window scale.
        self.select_whole_segments();
        self
    }

    /// Advertise the window in whole segments: the SYN-ACK's, and every ACK's of
    /// today's receiver (a 2.6.35 one rounds later ACKs' to its window scale).
    fn select_whole_segments(&mut self) {
        self.rcv_wnd = self.advertised_window();
        self.rcv_wnd_bytes = u64::from(self.rcv_wnd) * self.window.mss();
        self.rcv_wnd_span = self.rcv_wnd;
    }

    /// The receiver of 2.6.35: its RTT estimate, autotuning and delayed-ACK timer
    /// count jiffies of `clock`, with per-segment timestamp samples when `timestamps`
    /// is on. `handshake_rtt`: the jiffies from its SYN-ACK to the ACK completing the
    /// handshake, the one RTT sample the data receiver's own `srtt` gets (used only
    /// with timestamps; see [`crate::delack`]).
    pub fn with_jiffy_clock(
        mut self,
        clock: JiffyClock,
        timestamps: bool,
        handshake_rtt: u32,
    ) -> Self {
        self.clock = Some(clock);
        self.timestamps = timestamps;
        self.ato = Some(DelayedAckTimeout::new(
            clock.hz(),
            timestamps.then_some(handshake_rtt),
        ));
        self
    }

    /// A 2.6.35 receiver with timestamps samples `tsecr` of a segment arriving at
    /// jiffies `now` (every simulated segment is a full MSS).
    // Linux 2.6.35 net/ipv4/tcp_input.c tcp_rcv_established(): tcp_rcv_rtt_measure_ts()
    fn sample_timestamp(&mut self, now: Option<u32>, tsecr: u32) {
        if let (Some(now), true) = (now, self.timestamps) {
            self.rtt_est.on_timestamp(now, tsecr);
        }
    }

    /// A 2.6.35 receiver's jiffies at `now_ns` (`None` without a jiffies clock).
    fn jiffies(&mut self, now_ns: u64) -> Option<u32> {
        let clock = self.clock?;
        Some(clock.jiffies_cached(now_ns, &mut self.tick))
    }

    /// The window last advertised (the SYN-ACK's before any data), whole segments.
    pub fn window_segments(&self) -> u32 {
        self.rcv_wnd
    }

    /// The receiver's RTT estimate, ×8 jiffies (0: none, or no jiffies clock).
    pub fn rtt8_jiffies(&self) -> u32 {
        self.rtt_est.rtt8()
    }

    fn ack(&mut self, now_ns: u64, lo: u32, hi: u32) -> AckInfo {
        self.unacked = 0;
        self.delack_deadline = None;
        if self.clock.is_some() {
            self.select_window_2635();
        } else {
            self.select_whole_segments();
        }
        AckInfo {
            cum: self.rcv_nxt,
            sack_lo: lo,
            sack_hi: hi,
            rwnd: self.rcv_wnd,
            tsval: self.jiffies(now_ns).unwrap_or(0),
        }
    }

    /// The window offered: the buffer's, at most `rcv_ssthresh` where that is modelled.
    // Linux 2.6.35 net/ipv4/tcp_output.c __tcp_select_window()
    fn advertised_window(&self) -> u32 {
        let clamp = self.window.segments();
        self.rcv_ssthresh.map_or(clamp, |t| {
            let whole = (t / self.window.mss()).clamp(1, u64::from(u32::MAX)) as u32;
            whole.min(clamp)
        })
    }

    /// The window a 2.6.35 receiver advertises in an ACK, in bytes: the free space
    /// (the buffer's window, a reader that keeps up leaving it free) at most
    /// `rcv_ssthresh`, rounded up to the window scale's unit so that scaling does not
    /// cut it; `tcp_select_window` keeps it as `rcv_wnd` (it never shrinks here: both
    /// bounds only grow). The sender may use the whole segments in it.
    // Linux 2.6.35 net/ipv4/tcp_output.c __tcp_select_window() (round up to
    // 1 << rcv_wscale), tcp_select_window() (tp->rcv_wnd = new_win)
    fn select_window_2635(&mut self) {
        let mss = self.window.mss();
        let free = self.window.bytes();
        let bytes = self.rcv_ssthresh.map_or(free, |t| free.min(t));
        let unit = 1u64 << self.window.wscale();
        let rounded = bytes.div_ceil(unit) * unit;
        if rounded == self.rcv_wnd_bytes {
            // Unchanged (the usual case, ACK after ACK): skip the divisions below.
            return;
        }
        self.rcv_wnd_bytes = rounded;
        self.rcv_wnd = (self.rcv_wnd_bytes / mss).clamp(1, u64::from(u32::MAX)) as u32;
        self.rcv_wnd_span = self.rcv_wnd_bytes.div_ceil(mss).min(u64::from(u32::MAX)) as u32;
    }

    /// `tcp_grow_window` for one in-order data segment: true if `rcv_ssthresh` grew,
    /// which puts the receiver in quick-ACK mode for this segment.
    // Linux 2.6.35 net/ipv4/tcp_input.c tcp_grow_window(): +2 * advmss while
    // rcv_ssthresh < window_clamp (the skb's truesize passes check #2 for the era's
    // 10 GbE drivers, which set truesize to the frame's length plus the sk_buff).
    fn grow_window(&mut self) -> bool {
        let clamp = self.window.bytes();
        match self.rcv_ssthresh {
            Some(t) if t < clamp => {
                let step = 2 * self.window.mss();
                self.rcv_ssthresh = Some(t.saturating_add(step).min(clamp));
                true
            }
            _ => false,
        }
    }

    /// Segment `seq` arrives at `now_ns`, echoing `tsecr` (a TSval of this receiver's,
    /// used by a 2.6.35 receiver with timestamps); `rtt_ns` is the RTT today's
    /// receiver times autotuning with (0: none yet). Returns the ACK to send now, if
    /// any; a delayed ACK arms [`delack_deadline`](Self::delack_deadline) instead.
    pub fn on_segment(
        &mut self,
        now_ns: u64,
        seq: u32,
        rtt_ns: u64,
        tsecr: u32,
    ) -> Option<AckInfo> {
        if seq < self.rcv_nxt {
            // A duplicate (spurious retransmission): ACK at once (DSACK in Linux).
            return Some(self.ack(now_ns, seq, seq));
        }
        let now_jiffies = self.jiffies(now_ns);
        let idx = (seq - self.rcv_nxt) as usize;
        if idx > 0 {
            self.sample_timestamp(now_jiffies, tsecr);
            if self.ooo.len() < idx + 1 {
                self.ooo.resize(idx + 1, false);
            }
            self.ooo[idx] = true;
            return Some(self.ack(now_ns, seq, seq + 1));
        }
        let hole_filled = !self.ooo.is_empty();
        self.ooo.pop_front();
        let mut advanced = 1;
        while self.ooo.front() == Some(&true) {
            self.ooo.pop_front();
            advanced += 1;
        }
        self.rcv_nxt += advanced;
        self.delivered += u64::from(advanced);
        match now_jiffies {
            // The 2.6.35 fast path with the reader waiting (nuttcp blocked in read):
            // tcp_copy_to_iovec() copies and runs tcp_rcv_space_adjust(), then
            // tcp_rcv_rtt_measure_ts(), then tcp_event_data_recv() runs
            // tcp_rcv_rtt_measure() on the advanced rcv_nxt.
            Some(now) => {
                self.window
                    .on_delivered_jiffies(now, advanced, self.rtt_est.rtt8());
                if let Some(ato) = self.ato.as_mut() {
                    ato.on_data(now);
                }
                self.sample_timestamp(now_jiffies, tsecr);
                // rcv_rtt_est.seq = rcv_nxt + rcv_wnd in bytes: with whole-MSS
                // segments, rcv_nxt must advance ceil(rcv_wnd / mss) segments.
                self.rtt_est.on_data(now, self.rcv_nxt, self.rcv_wnd_span);
            }
            None => self.window.on_delivered(now_ns, advanced, rtt_ns),
        }
        let growing = self.grow_window();
        if hole_filled {
            return Some(self.ack(now_ns, seq, seq + 1));
        }
        self.unacked += 1;
        if self.quickacks_left > 0 {
            self.quickacks_left -= 1;
            return Some(self.ack(now_ns, seq, seq));
        }
        if growing {
            return Some(self.ack(now_ns, seq, seq));
        }
        if self.unacked >= self.ack_ratio {
            return Some(self.ack(now_ns, seq, seq));
        }
        if self.delack_deadline.is_none() {
            // Linux 2.6.35 net/ipv4/tcp_output.c tcp_send_delayed_ack(): a jiffies
            // timer at jiffies + ato
            self.delack_deadline = Some(match (self.clock, self.ato) {
                (Some(clock), Some(ato)) => clock.fires_at(now_ns, ato.wait()),
                _ => now_ns + self.delack_ns,
            });
        }
        None
    }

    /// The delayed-ACK timer fires at `now_ns`: the ACK to send, if one is still due.
    pub fn on_delack_timer(&mut self, now_ns: u64) -> Option<AckInfo> {
        match self.delack_deadline {
            Some(t) if t <= now_ns && self.unacked > 0 => {
                if let Some(ato) = self.ato.as_mut() {
                    ato.on_timer_ack();
                }
                Some(self.ack(now_ns, self.rcv_nxt, self.rcv_nxt))
            }
            _ => None,
        }
    }

    /// Next segment expected.
    pub fn rcv_nxt(&self) -> u32 {
        self.rcv_nxt
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{SimConfig, WindowMode};

    fn receiver(ack_ratio: u32) -> Receiver {
        let mut cfg = SimConfig::new();
        cfg.window = WindowMode::Fixed(1 << 20);
        Receiver::new(ack_ratio, 40_000_000, 0, None, ReceiveWindow::new(&cfg))
    }

    #[test]
    fn every_second_segment_is_acked_and_a_lone_one_waits_for_the_timer() {
        let mut r = receiver(2);
        assert_eq!(r.on_segment(0, 0, 0, 0), None);
        assert_eq!(r.delack_deadline, Some(40_000_000));
        let a = r.on_segment(10, 1, 0, 0).unwrap();
        assert_eq!((a.cum, a.sack_lo, a.sack_hi), (2, 1, 1));
        assert_eq!(r.on_segment(20, 2, 0, 0), None);
        assert_eq!(r.on_delack_timer(39_999_999), None, "not yet");
        assert_eq!(r.on_delack_timer(40_000_020).map(|a| a.cum), Some(3));
    }

    #[test]
    fn quick_acks_at_start_ack_each_segment_then_delayed_acks_resume() {
        let mut cfg = SimConfig::new();
        cfg.window = WindowMode::Fixed(1 << 20);
        let mut r = Receiver::new(2, 40_000_000, 3, None, ReceiveWindow::new(&cfg));
        for seq in 0..3 {
            assert_eq!(
                r.on_segment(seq.into(), seq, 0, 0).map(|a| a.cum),
                Some(seq + 1)
            );
        }
        assert_eq!(
            r.on_segment(3, 3, 0, 0),
            None,
            "the fourth waits for a second one"
        );
        assert_eq!(r.on_segment(4, 4, 0, 0).map(|a| a.cum), Some(5));
    }

    #[test]
    fn a_2635_receiver_acks_every_segment_while_its_window_grows_then_delays() {
        // -w 1m at MSS 1448: a clamp of 1572864 B, 1086.2 segments; rcv_ssthresh
        // starts at 2 segments and grows by 2 per segment, in bytes as the kernel keeps
        // it, so segments 0..=542 each raise it: the 542nd step leaves it at 1086
        // segments, 336 B short of the clamp, and segment 542 takes it to the clamp.
        let mut cfg = SimConfig::new();
        cfg.window = WindowMode::Fixed(1 << 20);
        let mut r = Receiver::new(2, 40_000_000, 1, Some(2), ReceiveWindow::new(&cfg));
        for seq in 0..=542 {
            let a = r.on_segment(seq.into(), seq, 0, 0).expect("ACKed at once");
            assert_eq!(a.cum, seq + 1);
            // The advertised window is rcv_ssthresh: 2 + 2 per segment so far, in
            // whole segments.
            assert_eq!(a.rwnd, (2 + 2 * (seq + 1)).min(1086));
        }
        assert_eq!(
            r.on_segment(543, 543, 0, 0),
            None,
            "clamp reached: delayed ACKs"
        );
        let a = r.on_segment(544, 544, 0, 0).unwrap();
        assert_eq!((a.cum, a.rwnd), (545, 1086));
    }

    #[test]
    fn a_2635_receiver_grows_its_window_to_a_clamp_that_is_not_whole_segments() {
        use crate::rcv_rtt::JiffyClock;
        // Seed 000's autotuned receiver: MSS 8948, tcp_rmem[1] = 87380 B, so a clamp
        // of 65535 - 8948 = 56587 B (6.3 segments) and window scale 11 (2048-B units).
        // rcv_ssthresh 17896 B grows to 35792, 53688 and then the clamp: three
        // segments raise it and are ACKed at once; the fourth waits. (In whole
        // segments it would stop at 6 = 53688 B and ACK only two.)
        let mut cfg = SimConfig::new();
        cfg.mtu = 9000;
        cfg.window = WindowMode::Auto {
            max_bytes: 97_768_499,
        };
        cfg.receiver_hz = Some(250);
        let w = ReceiveWindow::new(&cfg);
        assert_eq!((w.bytes(), w.wscale()), (56_587, 11));
        let clock = JiffyClock::new(250, 1_000_000_000);
        let mut r = Receiver::new(2, 40_000_000, 1, Some(2), w).with_jiffy_clock(clock, false, 0);
        let windows: Vec<Option<u32>> = (0..4)
            .map(|seq| {
                r.on_segment(u64::from(seq) * 10_000, seq, 0, 0)
                    .map(|a| a.rwnd)
            })
            .collect();
        // 35792 B -> 36864 (4 segments), 53688 -> 55296 (6), 56587 -> 57344 (6).
        assert_eq!(windows, [Some(4), Some(6), Some(6), None]);
    }

    #[test]
    fn without_window_growth_the_full_window_is_offered_from_the_start() {
        let mut cfg = SimConfig::new();
        cfg.window = WindowMode::Fixed(1 << 20);
        let mut r = Receiver::new(2, 40_000_000, 1, None, ReceiveWindow::new(&cfg));
        assert_eq!(r.on_segment(0, 0, 0, 0).map(|a| a.rwnd), Some(1086));
        assert_eq!(r.on_segment(1, 1, 0, 0), None);
    }

    #[test]
    fn out_of_order_data_is_sacked_at_once_and_the_hole_fill_acks_all() {
        let mut r = receiver(2);
        let a = r.on_segment(0, 1, 0, 0).unwrap();
        assert_eq!((a.cum, a.sack_lo, a.sack_hi), (0, 1, 2));
        let a = r.on_segment(1, 2, 0, 0).unwrap();
        assert_eq!((a.cum, a.sack_lo, a.sack_hi), (0, 2, 3));
        let a = r.on_segment(2, 0, 0, 0).unwrap();
        assert_eq!(a.cum, 3);
        assert_eq!(r.delivered, 3);
        // -w 1m: Linux doubles to 2 MiB, 3/4 of it is window: 1572864 / 1448 = 1086.
        assert_eq!(a.rwnd, 1086);
    }

    #[test]
    fn a_2635_window_sample_runs_to_the_byte_window_rounded_to_the_scale() {
        use crate::rcv_rtt::JiffyClock;
        // MSS 8948, -w 1m: window scale 5 (1 MiB >> 5 = 32768), so every advertised
        // window after the SYN-ACK is rounded up to a multiple of 32 bytes. No
        // timestamps: only the per-window samples feed the estimate.
        let mut cfg = SimConfig::new();
        cfg.mtu = 9000;
        cfg.window = WindowMode::Fixed(1 << 20);
        let w = ReceiveWindow::new(&cfg);
        assert_eq!(w.wscale(), 5);
        // HZ=250, a tick at time 0 (jiffies 250).
        let clock = JiffyClock::new(250, 1_000_000_000);
        let mut r = Receiver::new(2, 40_000_000, 1, Some(2), w).with_jiffy_clock(clock, false, 0);
        // Segment 0 (jiffies 250): the first measurement starts with the SYN-ACK's
        // window, exactly 2 segments: it ends when rcv_nxt reaches 1 + 2 = 3.
        r.on_segment(0, 0, 0, 0).expect("quick ACK");
        // Segment 1: rcv_ssthresh 6 segments = 53688 B, advertised as 53696 (32 x 1678).
        let a = r
            .on_segment(1_000_000, 1, 0, 0)
            .expect("window growing: ACKed");
        assert_eq!(a.rwnd, 6, "53696 B holds 6 whole segments");
        // Segment 2 at 20 ms (jiffies 255): rcv_nxt 3, a 5-jiffy sample; the next
        // measurement runs to 3 x 8948 + 53696 = 80540 B, which rcv_nxt passes only at
        // 10 segments (9 x 8948 = 80532 is 8 bytes short).
        r.on_segment(20_000_000, 2, 0, 0);
        assert_eq!(r.rtt8_jiffies(), 40);
        // Segments 3..=8 at 36 ms (jiffies 259): rcv_nxt 9, not yet through. (With
        // the window counted in whole segments it would end here: 4 jiffies, 32.)
        for seq in 3..=8 {
            r.on_segment(36_000_000, seq, 0, 0);
        }
        assert_eq!(r.rtt8_jiffies(), 40, "80532 B < 80540 B: not through");
        // Segment 9 at 52 ms (jiffies 263): through; 8 jiffies < 40 replaces it.
        r.on_segment(52_000_000, 9, 0, 0);
        assert_eq!(r.rtt8_jiffies(), 64);
    }

    #[test]
    fn a_2635_receivers_delayed_ack_fires_on_a_tick_and_waits_longer_after_firing() {
        use crate::rcv_rtt::JiffyClock;
        // HZ=250 with timestamps, handshake 20 jiffies (the 80 ms path): ATO_MIN is 10
        // jiffies and srtt bounds the wait at 20. -w 1m, window fully open from the
        // start (no growth), one quick ACK.
        let mut cfg = SimConfig::new();
        cfg.window = WindowMode::Fixed(1 << 20);
        let clock = JiffyClock::new(250, 1_000_000_000);
        let mut r = Receiver::new(2, 40_000_000, 1, None, ReceiveWindow::new(&cfg))
            .with_jiffy_clock(clock, true, 20);
        r.on_segment(0, 0, 0, 0).expect("the quick ACK");
        // A lone segment 1.5 ms into jiffy 252: due at jiffy 262, 38.5 ms on, not 40.
        assert_eq!(r.on_segment(9_500_000, 1, 0, 0), None);
        assert_eq!(r.delack_deadline, Some(48_000_000));
        assert_eq!(r.on_delack_timer(48_000_000).map(|a| a.cum), Some(2));
        // The timer had to fire, so ato doubled to 20 jiffies: the next lone segment,
        // arriving 80 ms later (a gap of 20, not below ato: ato stays), waits 80 ms.
        assert_eq!(r.on_segment(89_500_000, 2, 0, 0), None);
        assert_eq!(r.delack_deadline, Some(168_000_000));
    }

    #[test]
    fn a_2635_receiver_stamps_its_acks_and_samples_the_echo() {
        use crate::rcv_rtt::JiffyClock;
        let mut cfg = SimConfig::new();
        cfg.window = WindowMode::Fixed(1 << 20);
        // HZ=250, a tick at time 0 (offset 1 s = jiffies 250).
        let clock = JiffyClock::new(250, 1_000_000_000);
        let mut r = Receiver::new(2, 40_000_000, 1, Some(2), ReceiveWindow::new(&cfg))
            .with_jiffy_clock(clock, true, 5);
        // Arrives at 20 ms (jiffies 255) echoing jiffies 250: a 5-jiffy sample.
        let a = r.on_segment(20_000_000, 0, 0, 250).unwrap();
        assert_eq!(a.tsval, 255);
        assert_eq!(r.rtt8_jiffies(), 40);
        // Timestamps off: the echo is ignored, only whole windows are measured.
        let mut r = Receiver::new(2, 40_000_000, 1, Some(2), ReceiveWindow::new(&cfg))
            .with_jiffy_clock(clock, false, 0);
        r.on_segment(20_000_000, 0, 0, 250);
        assert_eq!(r.rtt8_jiffies(), 0);
        // The window measurement began at the first segment (rcv_nxt 1 + rcv_wnd 2):
        // it ends when rcv_nxt reaches 3, 7 jiffies later.
        r.on_segment(40_000_000, 1, 0, 0);
        assert_eq!(r.rtt8_jiffies(), 0);
        r.on_segment(48_000_000, 2, 0, 0);
        assert_eq!(r.rtt8_jiffies(), 56);
    }
}
