//! The 2.6.35 sender's write queue as the skbs `tcp_sendmsg` built, for a bulk writer.
//!
//! Linux sends one skb at a time, whole or split at the window, so the size an skb was
//! given when the application wrote it decides the TSO bursts and the deferral tests
//! later. `tcp_sendmsg` fills skbs up to `size_goal` (`tcp_xmit_size_goal`): the GSO
//! maximum, bounded to half of the largest window the receiver has advertised
//! (`tcp_bound_to_half_wnd`), in whole MSS, read again each time the writer wakes. A
//! 2.6.35 receiver's SYN-ACK offers 2 segments at MSS 8948, so everything written
//! before the first ACK goes into one-segment skbs, and a window held small (the
//! autotuned receiver starts at 6 segments) keeps skbs small until it grows.
//!
//! When the writer may write is the socket buffer's business: it fills `sk_sndbuf`,
//! sleeps on a full buffer (`sk_stream_wait_memory`), and is woken by an ACK only once
//! a third of it is free (`sk_stream_write_space`: free at least half of what is
//! queued). An `SO_SNDBUF` buffer (`-w`) is fixed; an autotuned one starts at three
//! segments (`tcp_fixup_sndbuf`) and grows on ACKs to twice `max(cwnd, 4)` segments
//! (`tcp_new_space`) while the writer sleeps and fewer than cwnd segments are out
//! (`tcp_should_expand_sndbuf`), up to `tcp_wmem[2]`. Buffer space is counted per
//! segment at the model's truesize (`window::send_buffer_segments`), and `tcp_new_space`'s
//! `sndmem` is taken as one such segment.

use std::collections::VecDeque;

/// `tcp_new_space`: `demanded = max(snd_cwnd, reordering + 1)`, reordering being 3.
const MIN_DEMANDED_SEGS: u32 = 4;

/// The skbs written and not yet wholly sent, and the writer that fills them.
#[derive(Clone, Debug)]
pub struct WriteQueue {
    /// End (exclusive, segments) of each skb not yet wholly sent, oldest first; the
    /// first starts at `snd_nxt`.
    ends: VecDeque<u32>,
    /// Segments the application has copied into the socket.
    written: u32,
    /// Segments the application writes in all.
    total: u32,
    /// `tcp_xmit_size_goal` before the window bound: whole MSS in a GSO skb.
    gso_segs: u32,
    /// Whether the goal is bounded to half the largest window advertised
    /// (`--size-goal half-window`); otherwise every skb is a whole GSO skb.
    half_window: bool,
    /// `tp->max_window`: the largest window the receiver has advertised, whole segments.
    max_window_segs: u32,
    /// `sk_sndbuf`, segments of truesize.
    sndbuf_segs: u32,
    /// Autotuned buffer: `tcp_wmem[2]` in segments; `None`: locked by `SO_SNDBUF`.
    autotune_max_segs: Option<u32>,
    /// The writer sleeps on a full buffer (`SOCK_NOSPACE`).
    asleep: bool,
}

impl WriteQueue {
    /// A writer of `total` segments into GSO skbs of at most `gso_segs` segments (bounded
    /// to half the largest window advertised if `half_window`), with a send buffer of
    /// `sndbuf_segs` (fixed) or, when `autotune_max_segs` is given, starting there and
    /// growing up to that maximum.
    pub fn new(
        total: u32,
        gso_segs: u32,
        half_window: bool,
        sndbuf_segs: u32,
        autotune_max_segs: Option<u32>,
    ) -> Self {
        WriteQueue {
            ends: VecDeque::with_capacity(1024),
            written: 0,
            total,
            gso_segs: gso_segs.max(1),
            half_window,
            max_window_segs: 0,
            sndbuf_segs: sndbuf_segs.max(1),
            autotune_max_segs,
            asleep: false,
        }
    }

    /// Segments the application has written so far.
    pub fn written(&self) -> u32 {
        self.written
    }

    /// The receiver advertised a window of `segs` whole segments (the SYN-ACK's included).
    // Linux 2.6.35 net/ipv4/tcp_input.c tcp_ack_update_window(): max_window = max(...)
    pub fn on_window(&mut self, segs: u32) {
        self.max_window_segs = self.max_window_segs.max(segs);
    }

    /// `size_goal` now, segments: the GSO maximum, at most half the largest window
    /// advertised, at least one.
    // Linux 2.6.35 net/ipv4/tcp.c tcp_xmit_size_goal(), tcp_bound_to_half_wnd()
    // (floor(bytes / 2 / mss) = floor(floor(bytes / mss) / 2), so whole segments suffice)
    pub fn size_goal(&self) -> u32 {
        if !self.half_window {
            return self.gso_segs;
        }
        (self.max_window_segs / 2).clamp(1, self.gso_segs)
    }

    /// The skb at the send head from `snd_nxt`: its length in segments and whether it
    /// is the queue's tail (the writer may still add to it). `None`: nothing unsent.
    pub fn head(&self, snd_nxt: u32) -> Option<(u32, bool)> {
        let end = *self.ends.front()?;
        Some((end.saturating_sub(snd_nxt), self.ends.len() == 1))
    }

    /// New data up to `snd_nxt` has been sent: skbs wholly sent leave the queue (a
    /// split skb keeps its end, its remainder now starting at `snd_nxt`).
    pub fn on_sent(&mut self, snd_nxt: u32) {
        while self.ends.front().is_some_and(|&e| e <= snd_nxt) {
            self.ends.pop_front();
        }
    }

    /// An ACK freed buffer space with `packets_out` segments sent and not yet
    /// cumulatively acknowledged: an autotuned buffer grows while the writer sleeps and
    /// fewer than cwnd are out.
    // Linux 2.6.35 net/ipv4/tcp_input.c tcp_should_expand_sndbuf(), tcp_new_space()
    pub fn on_ack(&mut self, cwnd: u32, packets_out: u32) {
        if let Some(max) = self.autotune_max_segs {
            if self.asleep && packets_out < cwnd {
                let want = cwnd.max(MIN_DEMANDED_SEGS).saturating_mul(2).min(max);
                self.sndbuf_segs = self.sndbuf_segs.max(want);
            }
        }
    }

    /// The writer runs if it is awake or the buffer has room enough to wake it, and
    /// fills the buffer (acknowledged data below `snd_una` no longer counts) in skbs of
    /// the current `size_goal`, topping up the unsent tail skb first. `snd_nxt` is
    /// where the unsent data starts. Returns whether it wrote anything.
    // Linux 2.6.35 net/ipv4/tcp.c tcp_sendmsg() (copy = size_goal - skb->len into the
    // tail while it is unsent), net/core/stream.c sk_stream_write_space()
    pub fn write(&mut self, snd_una: u32, snd_nxt: u32) -> bool {
        if self.written >= self.total {
            return false;
        }
        let queued = self.written.saturating_sub(snd_una);
        let free = self.sndbuf_segs.saturating_sub(queued);
        if self.asleep && free < queued / 2 {
            return false;
        }
        let target = snd_una
            .saturating_add(self.sndbuf_segs)
            .min(self.total)
            .max(self.written);
        let goal = self.size_goal();
        if let Some(&tail_end) = self.ends.back() {
            let tail_start = match self.ends.len() {
                1 => snd_nxt,
                n => self.ends[n - 2],
            };
            let grown = tail_start.saturating_add(goal).min(target).max(tail_end);
            if let Some(last) = self.ends.back_mut() {
                *last = grown;
            }
            self.written = self.written.max(grown);
        }
        while self.written < target {
            self.written = self.written.saturating_add(goal).min(target);
            self.ends.push_back(self.written);
        }
        self.asleep = self.written < self.total;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn before_any_window_is_known_skbs_are_one_segment() {
        let mut q = WriteQueue::new(1000, 7, true, 10, None);
        q.on_window(2); // the 2.6.35 SYN-ACK at MSS 8948: 2 segments
        assert_eq!(q.size_goal(), 1);
        assert!(q.write(0, 0));
        assert_eq!(q.written(), 10);
        assert_eq!(q.head(0), Some((1, false)));
        q.on_sent(3);
        assert_eq!(q.head(3), Some((1, false)));
    }

    #[test]
    fn without_the_bound_every_skb_is_a_whole_gso_skb() {
        let mut q = WriteQueue::new(1000, 7, false, 10, None);
        q.on_window(2);
        assert_eq!(q.size_goal(), 7);
        q.write(0, 0);
        assert_eq!(q.head(0), Some((7, false)));
        q.on_sent(7);
        assert_eq!(q.head(7), Some((3, true)));
    }

    #[test]
    fn the_goal_is_half_the_largest_window_up_to_the_gso_maximum() {
        let mut q = WriteQueue::new(1000, 7, true, 10, None);
        q.on_window(6);
        assert_eq!(q.size_goal(), 3);
        q.on_window(4); // max_window never shrinks
        assert_eq!(q.size_goal(), 3);
        q.on_window(15);
        assert_eq!(q.size_goal(), 7);
    }

    #[test]
    fn a_sleeping_writer_wakes_when_a_third_of_the_buffer_is_free() {
        let mut q = WriteQueue::new(1000, 7, true, 30, None);
        q.on_window(100);
        assert!(q.write(0, 0));
        assert_eq!(q.written(), 30);
        // 9 acknowledged: 21 queued, 9 free < 10.5: still asleep.
        assert!(!q.write(9, 0));
        // 10 acknowledged: 20 queued, 10 free: wakes and fills to 40.
        assert!(q.write(10, 0));
        assert_eq!(q.written(), 40);
        // Skbs: 7,7,7,7,2 (the fill stops at the buffer), then the 2-segment tail
        // grows to 7 and one skb of 5 follows.
        assert_eq!(
            q.ends.iter().copied().collect::<Vec<_>>(),
            vec![7, 14, 21, 28, 35, 40]
        );
    }

    #[test]
    fn a_split_skb_keeps_its_end() {
        let mut q = WriteQueue::new(1000, 7, true, 14, None);
        q.on_window(100);
        q.write(0, 0);
        q.on_sent(3);
        assert_eq!(q.head(3), Some((4, false)));
        q.on_sent(14);
        assert_eq!(q.head(14), None);
    }

    #[test]
    fn an_autotuned_buffer_grows_only_while_the_writer_sleeps_below_cwnd() {
        let mut q = WriteQueue::new(1000, 7, true, 3, Some(100));
        q.on_window(100);
        q.write(0, 0);
        assert_eq!(q.written(), 3);
        q.on_ack(10, 10); // flight at cwnd: no growth
        assert!(!q.write(0, 3));
        q.on_ack(10, 2);
        assert!(q.write(1, 3));
        assert_eq!(q.written(), 21); // 1 + 2 * 10
        q.on_ack(80, 0);
        q.write(21, 21); // 0 queued: awake; buffer 100 (the maximum)
        assert_eq!(q.written(), 121);
    }

    #[test]
    fn the_writer_stops_at_the_total() {
        let mut q = WriteQueue::new(5, 7, true, 30, None);
        q.on_window(100);
        assert!(q.write(0, 0));
        assert_eq!(q.written(), 5);
        assert!(!q.write(5, 5));
    }
}
