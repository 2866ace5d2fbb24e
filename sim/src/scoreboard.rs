//! The sender's scoreboard: one entry per segment from `snd_una` to `snd_nxt`, in a
//! ring, with Linux's counters (`sacked_out`, `lost_out`, `retrans_out`).
//!
//! Loss marking is FACK-like (Linux's default until 4.x, and RFC 6675's DupThresh): a
//! segment not SACKed is lost once a segment `DUPTHRESH` or more above it is SACKed.
//! Marking only moves forward, so each segment is looked at once: O(1) amortised.
//! A lost retransmission is found by the RTO only (no RACK).
//!
//! For a BBR flow ([`keeping_tx`](Scoreboard::keeping_tx)) a parallel ring keeps what
//! the flow returned when each segment last left (its departure time and
//! delivery-rate snapshot, `congestion::linux::bbr::Sent`); an ACK hands those back for
//! the segments it delivered or marked lost ([`AckDetail`]), as a kernel hands
//! `tcp_skb_cb.tx` to the sampler. Other controllers keep no such ring, so their
//! entries stay 16 bytes.

use std::collections::VecDeque;

use congestion::linux::bbr::{DeliveredSegment, Flight, Sent};
use congestion::linux::tcp::TxSnapshot;

/// RFC 6675 DupThresh, Linux `tcp_reordering` default.
pub const DUPTHRESH: u32 = 3;

const SACKED: u8 = 1;
const LOST: u8 = 2;
const RETRANS: u8 = 4;
const EVER_RETRANS: u8 = 8;

#[derive(Clone, Copy, Debug)]
struct Seg {
    sent_ns: u64,
    flags: u8,
}

/// The segments one ACK (or RTO) delivered or marked lost, for a controller that
/// samples per segment (BBR): SACKed ones first, then the cumulatively acknowledged,
/// each group in ascending order, as Linux's `tcp_sacktag_write_queue()` and
/// `tcp_clean_rtx_queue()` visit them.
#[derive(Clone, Debug, Default)]
pub struct AckDetail {
    /// Newly delivered segments with their snapshots.
    pub delivered: Vec<DeliveredSegment>,
    /// Snapshots of the segments newly marked lost.
    pub lost: Vec<TxSnapshot>,
    cum: Vec<DeliveredSegment>,
}

impl AckDetail {
    /// Empty, ready for the next ACK.
    pub fn clear(&mut self) {
        self.delivered.clear();
        self.lost.clear();
        self.cum.clear();
    }
}

/// What one ACK did to the scoreboard.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AckOutcome {
    /// Segments newly delivered, cumulatively or by SACK.
    pub delivered: u32,
    /// Whether `snd_una` moved.
    pub cum_advanced: bool,
    /// Send time of the newest newly delivered segment never retransmitted (Karn).
    pub rtt_sent_ns: Option<u64>,
    /// Segments newly marked lost.
    pub newly_lost: u32,
}

/// Segments in flight and their state.
#[derive(Clone, Debug)]
pub struct Scoreboard {
    segs: VecDeque<Seg>,
    /// What the BBR flow returned for each segment's latest transmission, in step with
    /// `segs` when `keep_tx`; empty otherwise.
    txs: VecDeque<Sent>,
    keep_tx: bool,
    snd_una: u32,
    sacked_out: u32,
    lost_out: u32,
    retrans_out: u32,
    /// One past the highest SACKed segment (`snd_una` when none).
    fack: u32,
    lost_scan: u32,
    retx_next: u32,
}

impl Scoreboard {
    /// An empty scoreboard with room for `capacity` segments before it grows.
    pub fn with_capacity(capacity: usize) -> Self {
        Scoreboard {
            segs: VecDeque::with_capacity(capacity),
            txs: VecDeque::new(),
            keep_tx: false,
            snd_una: 0,
            sacked_out: 0,
            lost_out: 0,
            retrans_out: 0,
            fack: 0,
            lost_scan: 0,
            retx_next: 0,
        }
    }

    /// The same scoreboard keeping each segment's `Sent` (a BBR flow's).
    pub fn keeping_tx(mut self) -> Self {
        self.keep_tx = true;
        self.txs = VecDeque::with_capacity(self.segs.capacity());
        self
    }

    fn tx(&self, seq: u32) -> Sent {
        let i = (seq - self.snd_una) as usize;
        self.txs.get(i).copied().unwrap_or_default()
    }

    /// First unacknowledged segment.
    pub fn snd_una(&self) -> u32 {
        self.snd_una
    }

    /// Next new segment.
    pub fn snd_nxt(&self) -> u32 {
        self.snd_una + self.segs.len() as u32
    }

    /// Linux `packets_out`.
    pub fn packets_out(&self) -> u32 {
        self.segs.len() as u32
    }

    /// Linux `tcp_packets_in_flight`: out - (sacked + lost) + retransmitted.
    pub fn in_flight(&self) -> u32 {
        self.packets_out() - self.sacked_out - self.lost_out + self.retrans_out
    }

    fn seg(&mut self, seq: u32) -> &mut Seg {
        let i = (seq - self.snd_una) as usize;
        &mut self.segs[i]
    }

    /// The counters a BBR flow reads (`packets_out`, `sacked_out`, `lost_out`,
    /// `retrans_out`).
    pub fn flight(&self) -> Flight {
        Flight {
            packets_out: self.packets_out(),
            sacked_out: self.sacked_out,
            lost_out: self.lost_out,
            retrans_out: self.retrans_out,
        }
    }

    /// `n` new segments leave at `now_ns`.
    pub fn on_send_new(&mut self, now_ns: u64, n: u32) {
        for _ in 0..n {
            self.on_send_one(now_ns, Sent::default());
        }
    }

    /// One new segment leaves at `now_ns`, with what the controller returned for it.
    pub fn on_send_one(&mut self, now_ns: u64, tx: Sent) {
        self.segs.push_back(Seg {
            sent_ns: now_ns,
            flags: 0,
        });
        if self.keep_tx {
            self.txs.push_back(tx);
        }
    }

    /// The controller's record of segment `seq`'s latest transmission.
    pub fn set_tx(&mut self, seq: u32, tx: Sent) {
        let i = (seq - self.snd_una) as usize;
        if let Some(t) = self.txs.get_mut(i) {
            *t = tx;
        }
    }

    /// The lowest lost segment not yet retransmitted, if any.
    pub fn next_retransmit(&mut self) -> Option<u32> {
        self.retx_next = self.retx_next.max(self.snd_una);
        while self.retx_next < self.lost_scan {
            let f = self.seg(self.retx_next).flags;
            if f & LOST != 0 && f & (RETRANS | SACKED) == 0 {
                return Some(self.retx_next);
            }
            self.retx_next += 1;
        }
        None
    }

    /// Segment `seq` (from [`next_retransmit`](Self::next_retransmit)) is resent.
    pub fn on_retransmit(&mut self, now_ns: u64, seq: u32) {
        let s = self.seg(seq);
        s.flags |= RETRANS | EVER_RETRANS;
        s.sent_ns = now_ns;
        self.retrans_out += 1;
        self.retx_next = seq + 1;
    }

    fn deliver(&mut self, seq_flags: u8, sent_ns: u64, out: &mut AckOutcome) {
        if seq_flags & LOST != 0 {
            self.lost_out -= 1;
        }
        if seq_flags & RETRANS != 0 {
            self.retrans_out -= 1;
        }
        out.delivered += 1;
        if seq_flags & EVER_RETRANS == 0 {
            out.rtt_sent_ns = Some(out.rtt_sent_ns.map_or(sent_ns, |t| t.max(sent_ns)));
        }
    }

    /// An ACK: cumulative `cum` and the SACK block `[sack_lo, sack_hi)`. With
    /// `detail`, the delivered segments and the snapshots of those newly marked lost
    /// are appended to it.
    pub fn on_ack(
        &mut self,
        cum: u32,
        sack_lo: u32,
        sack_hi: u32,
        mut detail: Option<&mut AckDetail>,
    ) -> AckOutcome {
        let mut out = AckOutcome::default();
        let cum = cum.min(self.snd_nxt());
        while self.snd_una < cum {
            let Some(s) = self.segs.pop_front() else {
                break;
            };
            let tx = self.txs.pop_front().unwrap_or_default();
            let seq = self.snd_una;
            self.snd_una += 1;
            out.cum_advanced = true;
            if s.flags & SACKED != 0 {
                self.sacked_out -= 1;
            } else {
                self.deliver(s.flags, s.sent_ns, &mut out);
                if let Some(d) = detail.as_deref_mut() {
                    d.cum.push(delivered_segment(seq, s.flags, tx, false));
                }
            }
        }
        let hi = sack_hi.min(self.snd_nxt());
        for seq in sack_lo.max(self.snd_una)..hi {
            let s = *self.seg(seq);
            if s.flags & SACKED == 0 {
                self.seg(seq).flags = (s.flags | SACKED) & !(LOST | RETRANS);
                self.sacked_out += 1;
                self.deliver(s.flags, s.sent_ns, &mut out);
                if let Some(d) = detail.as_deref_mut() {
                    d.delivered
                        .push(delivered_segment(seq, s.flags, self.tx(seq), true));
                }
            }
        }
        if let Some(d) = detail.as_deref_mut() {
            d.delivered.append(&mut d.cum);
        }
        self.fack = self.fack.max(hi).max(self.snd_una);
        self.lost_scan = self.lost_scan.max(self.snd_una);
        // RFC 6675 IsLost() with DupThresh, FACK-style: DUPTHRESH segments above.
        while self.lost_scan + DUPTHRESH < self.fack {
            let seq = self.lost_scan;
            let s = self.seg(seq);
            if s.flags & (SACKED | LOST) == 0 {
                s.flags |= LOST;
                self.lost_out += 1;
                out.newly_lost += 1;
                if let Some(d) = detail.as_deref_mut() {
                    d.lost.push(self.tx(seq).snapshot);
                }
            }
            self.lost_scan += 1;
        }
        out
    }

    /// A retransmission timeout: every segment not SACKed is lost and must be resent.
    /// Returns how many were newly marked lost (not lost before, or a retransmission
    /// lost again, as `tcp_mark_skb_lost()` counts them); with `detail`, their
    /// snapshots are appended to it.
    // Linux net/ipv4/tcp_input.c tcp_enter_loss(): mark all not-SACKed lost
    pub fn on_rto(&mut self, mut detail: Option<&mut AckDetail>) -> u32 {
        let mut newly = 0;
        for (i, s) in self.segs.iter_mut().enumerate() {
            if s.flags & SACKED == 0 {
                if s.flags & LOST == 0 || s.flags & RETRANS != 0 {
                    newly += 1;
                    if let Some(d) = detail.as_deref_mut() {
                        let tx = self.txs.get(i).copied().unwrap_or_default();
                        d.lost.push(tx.snapshot);
                    }
                }
                s.flags = (s.flags | LOST) & !RETRANS;
            }
        }
        self.lost_out = self.packets_out() - self.sacked_out;
        self.retrans_out = 0;
        self.lost_scan = self.snd_nxt();
        self.retx_next = self.snd_una;
        newly
    }
}

fn delivered_segment(seq: u32, flags: u8, tx: Sent, sacked: bool) -> DeliveredSegment {
    DeliveredSegment {
        sent: tx,
        end_seq: seq.wrapping_add(1),
        retransmitted: flags & EVER_RETRANS != 0,
        sacked,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_sacks_above_a_hole_mark_it_lost_and_it_is_resent_once() {
        let mut sb = Scoreboard::with_capacity(16);
        sb.on_send_new(0, 10);
        assert_eq!(sb.in_flight(), 10);
        // Segment 0 lost; 1, 2, 3 SACKed one by one.
        assert_eq!(sb.on_ack(0, 1, 2, None).newly_lost, 0);
        assert_eq!(sb.on_ack(0, 2, 3, None).newly_lost, 0);
        let o = sb.on_ack(0, 3, 4, None);
        assert_eq!((o.delivered, o.newly_lost), (1, 1));
        // 10 out - 3 sacked - 1 lost = 6 in flight.
        assert_eq!(sb.in_flight(), 6);
        assert_eq!(sb.next_retransmit(), Some(0));
        sb.on_retransmit(5, 0);
        assert_eq!(sb.next_retransmit(), None);
        assert_eq!(sb.in_flight(), 7);
        // The retransmission fills the hole: cum jumps to 4; 1 newly delivered, no RTT
        // sample from it (Karn).
        let o = sb.on_ack(4, 0, 1, None);
        assert_eq!((o.delivered, o.rtt_sent_ns), (1, None));
        assert_eq!((sb.snd_una(), sb.in_flight()), (4, 6));
    }

    #[test]
    fn an_rto_marks_everything_not_sacked_lost() {
        let mut sb = Scoreboard::with_capacity(16);
        sb.on_send_new(0, 5);
        sb.on_ack(0, 2, 3, None);
        sb.on_rto(None);
        // 5 out - 1 sacked - 4 lost.
        assert_eq!(sb.in_flight(), 0);
        assert_eq!(sb.next_retransmit(), Some(0));
    }
}
