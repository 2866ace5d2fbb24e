//! The receiver: in-order delivery, SACK for out-of-order data, delayed ACKs (every
//! `ack_ratio` segments or a timeout), and the receive window it advertises.
//!
//! Out-of-order data, a hole being filled and duplicates are ACKed at once, as Linux's
//! quick-ACK does. At the start of the connection the first `quickacks` in-order
//! segments are each ACKed at once too (Linux `tcp_incr_quickack` on the first data
//! segment, see `config::quickacks_for`); idle restarts do not re-arm it here.
//!
//! A 2.6.35 receiver (`SimConfig::rcv_ssthresh_growth`) also opens its window
//! gradually: `rcv_ssthresh` starts at the initial window and `tcp_grow_window` adds 2
//! segments per in-order data segment until it reaches the window clamp, setting
//! `icsk_ack.quick |= 1` each time, so `__tcp_ack_snd_check` ACKs every such segment at
//! once. While the window grows the receiver therefore ACKs every segment; once it
//! reaches the clamp (the socket buffer's window, or autotuning's current one) it falls
//! back to delayed ACKs, and resumes when autotuning raises the clamp. The ACK ratio
//! applies only then: there are no GRO aggregates in the model to ACK instead.
//!
//! The SACK block an ACK carries is the newly arrived segment's own:
//! ACKs are never lost on the reverse path, so the sender learns every SACKed segment.

use std::collections::VecDeque;

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
    /// `rcv_ssthresh` in segments, when the receiver grows it (2.6.35); `None`: the
    /// window is the buffer's from the start.
    rcv_ssthresh: Option<u32>,
    /// When the delayed-ACK timer fires, if armed.
    pub delack_deadline: Option<u64>,
    window: ReceiveWindow,
    /// Segments delivered in order, in total.
    pub delivered: u64,
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
            rcv_ssthresh: rcv_ssthresh_growth,
            delack_deadline: None,
            window,
            delivered: 0,
        }
    }

    fn ack(&mut self, lo: u32, hi: u32) -> AckInfo {
        self.unacked = 0;
        self.delack_deadline = None;
        AckInfo {
            cum: self.rcv_nxt,
            sack_lo: lo,
            sack_hi: hi,
            rwnd: self.advertised_window(),
        }
    }

    /// The window offered: the buffer's, at most `rcv_ssthresh` where that is modelled.
    // Linux 2.6.35 net/ipv4/tcp_output.c __tcp_select_window()
    fn advertised_window(&self) -> u32 {
        let clamp = self.window.segments();
        self.rcv_ssthresh.map_or(clamp, |t| t.min(clamp))
    }

    /// `tcp_grow_window` for one in-order data segment: true if `rcv_ssthresh` grew,
    /// which puts the receiver in quick-ACK mode for this segment.
    // Linux 2.6.35 net/ipv4/tcp_input.c tcp_grow_window(): +2 * advmss while
    // rcv_ssthresh < window_clamp (the skb's truesize passes check #2 for the era's
    // 10 GbE drivers, which set truesize to the frame's length plus the sk_buff).
    fn grow_window(&mut self) -> bool {
        let clamp = self.window.segments();
        match self.rcv_ssthresh {
            Some(t) if t < clamp => {
                self.rcv_ssthresh = Some(t.saturating_add(2).min(clamp));
                true
            }
            _ => false,
        }
    }

    /// Segment `seq` arrives at `now_ns`; `rtt_ns` is the receiver's RTT estimate for
    /// autotuning (0: none yet). Returns the ACK to send now, if any; a delayed ACK
    /// arms [`delack_deadline`](Self::delack_deadline) instead.
    pub fn on_segment(&mut self, now_ns: u64, seq: u32, rtt_ns: u64) -> Option<AckInfo> {
        if seq < self.rcv_nxt {
            // A duplicate (spurious retransmission): ACK at once (DSACK in Linux).
            return Some(self.ack(seq, seq));
        }
        let idx = (seq - self.rcv_nxt) as usize;
        if idx > 0 {
            if self.ooo.len() < idx + 1 {
                self.ooo.resize(idx + 1, false);
            }
            self.ooo[idx] = true;
            return Some(self.ack(seq, seq + 1));
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
        self.window.on_delivered(now_ns, advanced, rtt_ns);
        let growing = self.grow_window();
        if hole_filled {
            return Some(self.ack(seq, seq + 1));
        }
        self.unacked += 1;
        if self.quickacks_left > 0 {
            self.quickacks_left -= 1;
            return Some(self.ack(seq, seq));
        }
        if growing {
            return Some(self.ack(seq, seq));
        }
        if self.unacked >= self.ack_ratio {
            return Some(self.ack(seq, seq));
        }
        if self.delack_deadline.is_none() {
            self.delack_deadline = Some(now_ns + self.delack_ns);
        }
        None
    }

    /// The delayed-ACK timer fires at `now_ns`: the ACK to send, if one is still due.
    pub fn on_delack_timer(&mut self, now_ns: u64) -> Option<AckInfo> {
        match self.delack_deadline {
            Some(t) if t <= now_ns && self.unacked > 0 => {
                Some(self.ack(self.rcv_nxt, self.rcv_nxt))
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
        assert_eq!(r.on_segment(0, 0, 0), None);
        assert_eq!(r.delack_deadline, Some(40_000_000));
        let a = r.on_segment(10, 1, 0).unwrap();
        assert_eq!((a.cum, a.sack_lo, a.sack_hi), (2, 1, 1));
        assert_eq!(r.on_segment(20, 2, 0), None);
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
                r.on_segment(seq.into(), seq, 0).map(|a| a.cum),
                Some(seq + 1)
            );
        }
        assert_eq!(
            r.on_segment(3, 3, 0),
            None,
            "the fourth waits for a second one"
        );
        assert_eq!(r.on_segment(4, 4, 0).map(|a| a.cum), Some(5));
    }

    #[test]
    fn a_2635_receiver_acks_every_segment_while_its_window_grows_then_delays() {
        // -w 1m at MSS 1448: a clamp of 1086 segments; rcv_ssthresh starts at 2 and
        // grows by 2 per segment, so segments 0..542 each raise it (the 542nd to 1086).
        let mut cfg = SimConfig::new();
        cfg.window = WindowMode::Fixed(1 << 20);
        let mut r = Receiver::new(2, 40_000_000, 1, Some(2), ReceiveWindow::new(&cfg));
        for seq in 0..542 {
            let a = r.on_segment(seq.into(), seq, 0).expect("ACKed at once");
            assert_eq!(a.cum, seq + 1);
            // The advertised window is rcv_ssthresh: 2 + 2 per segment so far.
            assert_eq!(a.rwnd, (2 + 2 * (seq + 1)).min(1086));
        }
        assert_eq!(
            r.on_segment(542, 542, 0),
            None,
            "clamp reached: delayed ACKs"
        );
        let a = r.on_segment(543, 543, 0).unwrap();
        assert_eq!((a.cum, a.rwnd), (544, 1086));
    }

    #[test]
    fn without_window_growth_the_full_window_is_offered_from_the_start() {
        let mut cfg = SimConfig::new();
        cfg.window = WindowMode::Fixed(1 << 20);
        let mut r = Receiver::new(2, 40_000_000, 1, None, ReceiveWindow::new(&cfg));
        assert_eq!(r.on_segment(0, 0, 0).map(|a| a.rwnd), Some(1086));
        assert_eq!(r.on_segment(1, 1, 0), None);
    }

    #[test]
    fn out_of_order_data_is_sacked_at_once_and_the_hole_fill_acks_all() {
        let mut r = receiver(2);
        let a = r.on_segment(0, 1, 0).unwrap();
        assert_eq!((a.cum, a.sack_lo, a.sack_hi), (0, 1, 2));
        let a = r.on_segment(1, 2, 0).unwrap();
        assert_eq!((a.cum, a.sack_lo, a.sack_hi), (0, 2, 3));
        let a = r.on_segment(2, 0, 0).unwrap();
        assert_eq!(a.cum, 3);
        assert_eq!(r.delivered, 3);
        // -w 1m: Linux doubles to 2 MiB, 3/4 of it is window: 1572864 / 1448 = 1086.
        assert_eq!(a.rwnd, 1086);
    }
}
