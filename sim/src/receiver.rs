//! The receiver: in-order delivery, SACK for out-of-order data, delayed ACKs (every
//! `ack_ratio` segments or a timeout), and the receive window it advertises.
//!
//! Out-of-order data, a hole being filled and duplicates are ACKed at once, as Linux's
//! quick-ACK does. At the start of the connection the first `quickacks` in-order
//! segments are each ACKed at once too (Linux `tcp_incr_quickack` on the first data
//! segment, see `config::quickacks_for`); idle restarts do not re-arm it here. The SACK block an ACK carries is the newly arrived segment's own:
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
    /// When the delayed-ACK timer fires, if armed.
    pub delack_deadline: Option<u64>,
    window: ReceiveWindow,
    /// Segments delivered in order, in total.
    pub delivered: u64,
}

impl Receiver {
    /// A receiver that ACKs each of the first `quickacks` segments at once, then every
    /// `ack_ratio` segments or after `delack_ns`.
    pub fn new(ack_ratio: u32, delack_ns: u64, quickacks: u32, window: ReceiveWindow) -> Self {
        Receiver {
            rcv_nxt: 0,
            ooo: VecDeque::with_capacity(1024),
            unacked: 0,
            ack_ratio,
            delack_ns,
            quickacks_left: quickacks,
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
            rwnd: self.window.segments(),
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
        if hole_filled {
            return Some(self.ack(seq, seq + 1));
        }
        self.unacked += 1;
        if self.quickacks_left > 0 {
            self.quickacks_left -= 1;
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
        Receiver::new(ack_ratio, 40_000_000, 0, ReceiveWindow::new(&cfg))
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
        let mut r = Receiver::new(2, 40_000_000, 3, ReceiveWindow::new(&cfg));
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
