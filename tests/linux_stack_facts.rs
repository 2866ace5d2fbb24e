//! `linux::Cubic` driven exactly as a TCP stack drives it, with the stack's own facts:
//! `largest_sent` is its `snd_nxt` (the sequence after the last segment sent) and
//! `largest_acked` its cumulative ACK (`snd_una` after the ACK), both in segments; its
//! flight is the kernel's `tcp_packets_in_flight` (`packets_out - sacked_out - lost_out +
//! retrans_out`), so SACKed and lost segments leave it while `snd_nxt` does not move; it
//! sends new data before it retransmits, names lost segments by sequence, and reports a
//! CE mark in the ACK that covers the marked segment.
//!
//! The kernel's behaviour the tests hold the flow to (Linux net/ipv4/tcp_input.c):
//! - `tcp_init_cwnd_reduction()` takes `high_seq = snd_nxt`: the stack's real one;
//! - `tcp_fastretrans_alert()` ends Recovery only once `snd_una` is not before
//!   `high_seq`, and a loss or an ECE inside it does not reduce again (in state Recovery
//!   `tcp_try_to_open()`, the one caller of `tcp_enter_cwr()` on an ACK, is not reached);
//! - `tcp_ack()` takes `snd_una` from the ACK, never back.
//!
//! Every scenario runs twice: once with `acked` the cumulative ACK's advance (SACKed
//! segments not counted when SACKed, counted when the cumulative ACK passes them), once
//! with `acked` what the ACK newly delivered (SACKed segments counted when SACKed, as the
//! kernel's `acked_sacked`), so `snd_una + acked` overshoots the cumulative ACK and only
//! `largest_acked` puts `snd_una` right.
//!
//! The flows start with a cached ssthresh equal to the initial window (10, as
//! `tcp_init_metrics` may set from the route) and the application keeps at most 8
//! segments in flight, so the window is never in use (`tcp_is_cwnd_limited` false) and
//! CUBIC never grows it: every cwnd below is the result of a reduction, worked out by
//! hand from `cubictcp_recalc_ssthresh` (tcp_cubic.c: `max(cwnd · 717 >> 10, 2)`) and
//! `tcp_end_cwnd_reduction` (cwnd lands on ssthresh).

use congestion::linux::{Cubic, CubicConfig};
use congestion::{AckEvent, CongestionController, EcnEvent, Instant, LossEvent, Phase, SentEvent};

/// What a stack passes as `acked`.
#[derive(Clone, Copy, Debug)]
enum Counting {
    /// The cumulative ACK's advance; a SACK-only ACK acknowledges 0.
    CumulativeAdvance,
    /// What the ACK newly delivered: SACKed segments when SACKed, the cumulative
    /// advance less what was SACKed before.
    Delivered,
}

const BOTH: [Counting; 2] = [Counting::CumulativeAdvance, Counting::Delivered];

/// A TCP sender's scoreboard in segments, as `tcp_sock` keeps it, with the flow it
/// drives. Segments are named by their offset from the initial sequence `iss`; the
/// sequences handed to the flow wrap in 32 bits as TCP's do.
struct Stack {
    flow: Cubic,
    counting: Counting,
    iss: u32,
    now: Instant,
    /// Offsets: first unacknowledged, next to send.
    snd_una: u32,
    snd_nxt: u32,
    /// Offsets at or above `snd_una` SACKed, marked lost, retransmitted (lost ones).
    sacked: Vec<u32>,
    lost: Vec<u32>,
    retrans: Vec<u32>,
}

impl Stack {
    fn new(counting: Counting, iss: u32) -> Self {
        let mut config = CubicConfig::new();
        config.socket.iss = iss;
        config.socket.init_ssthresh = 10;
        let flow = Cubic::new(config, Instant::ZERO).unwrap();
        Stack {
            flow,
            counting,
            iss,
            now: Instant::ZERO,
            snd_una: 0,
            snd_nxt: 0,
            sacked: Vec::new(),
            lost: Vec::new(),
            retrans: Vec::new(),
        }
    }

    fn at(&mut self, ms: u64) {
        self.now = Instant::from_micros(ms * 1000);
    }

    /// The wire sequence of the segment at `offset`.
    fn seq(&self, offset: u32) -> u64 {
        u64::from(self.iss.wrapping_add(offset))
    }

    /// `tcp_packets_in_flight`: packets_out - (sacked_out + lost_out) + retrans_out.
    fn in_flight(&self) -> u64 {
        let packets_out = self.snd_nxt - self.snd_una;
        let left_out = (self.sacked.len() + self.lost.len()) as u32;
        u64::from(packets_out - left_out + self.retrans.len() as u32)
    }

    fn report_send(&mut self) {
        let sent = SentEvent::new(self.in_flight(), self.seq(self.snd_nxt));
        self.flow.on_sent(self.now, &sent);
    }

    /// New data: `n` segments from `snd_nxt`.
    fn send_new(&mut self, n: u32) {
        self.snd_nxt += n;
        self.report_send();
    }

    /// A lost segment goes out again (`snd_nxt` does not move).
    fn retransmit(&mut self, offset: u32) {
        assert!(self.lost.contains(&offset));
        self.retrans.push(offset);
        self.report_send();
    }

    /// An ACK whose cumulative ACK stays at `snd_una` and which SACKs `offset`.
    fn sack(&mut self, offset: u32) {
        self.sacked.push(offset);
        let acked = match self.counting {
            Counting::CumulativeAdvance => 0,
            Counting::Delivered => 1,
        };
        self.flow.on_ack(
            self.now,
            &AckEvent::new(acked, self.seq(self.snd_una), None),
        );
    }

    /// An ACK whose cumulative ACK moves to `to` (everything below it received).
    fn cumulative_ack(&mut self, to: u32) {
        let advance = to - self.snd_una;
        let sacked_before = self.sacked.iter().filter(|&&s| s < to).count() as u32;
        self.sacked.retain(|&s| s >= to);
        self.lost.retain(|&s| s >= to);
        self.retrans.retain(|&s| s >= to);
        self.snd_una = to;
        let acked = match self.counting {
            Counting::CumulativeAdvance => advance,
            Counting::Delivered => advance - sacked_before,
        };
        let ack = AckEvent::new(u64::from(acked), self.seq(to), None);
        self.flow.on_ack(self.now, &ack);
    }

    /// The stack's loss detection marks `offset` lost and names it by sequence.
    fn lose(&mut self, offset: u32) {
        self.lost.push(offset);
        self.flow
            .on_loss(self.now, &LossEvent::packet(1, self.seq(offset)));
    }

    /// The ACK just processed raised the CE count by one, the mark on `offset`.
    fn ce_on(&mut self, offset: u32) {
        self.flow
            .on_ecn(self.now, &EcnEvent::new(1, self.seq(offset)));
    }

    fn window(&self) -> (u64, Option<u64>) {
        (self.flow.cwnd(), self.flow.ssthresh())
    }

    /// The flow's `snd_una` and `snd_nxt` are the stack's.
    fn assert_sequences(&self) {
        let view = self.flow.socket_view();
        assert_eq!(view.snd_una, self.iss.wrapping_add(self.snd_una), "snd_una");
        assert_eq!(view.snd_nxt, self.iss.wrapping_add(self.snd_nxt), "snd_nxt");
    }
}

/// Segments 0..=7 out, then SACKs for 4 and 5 each let one new segment out (8, 9);
/// the SACK of 6 puts three SACKed segments above 0..=3 (RFC 6675's DupThresh), which
/// the stack marks lost one by one: one reduction, 10 · 717 >> 10 = 7, with
/// `high_seq` = the stack's `snd_nxt`, 10. The flow's own `snd_una + flight` is 8
/// there (7, 8, 9 in flight, 0 acknowledged): the recovery point it used to take.
fn first_episode(counting: Counting, iss: u32) -> Stack {
    let mut s = Stack::new(counting, iss);
    s.send_new(8);
    s.at(20);
    s.sack(4);
    s.send_new(1);
    s.sack(5);
    s.send_new(1);
    s.sack(6);
    assert_eq!(s.window(), (10, Some(10)));
    for offset in 0..=3 {
        s.lose(offset);
    }
    assert_eq!(s.window(), (7, Some(7)));
    assert_eq!(s.flow.phase(), Phase::Recovery);
    assert_eq!(s.in_flight(), 3);
    s.assert_sequences();
    s
}

#[test]
fn a_ce_mark_on_a_segment_sent_before_the_reduction_does_not_cut_again() {
    for iss in [0, u32::MAX - 5] {
        for counting in BOTH {
            let mut s = first_episode(counting, iss);
            s.sack(7);
            for offset in 0..=3 {
                s.retransmit(offset);
            }
            assert_eq!(s.in_flight(), 6); // 8, 9 and the four retransmissions
            s.at(40);
            s.cumulative_ack(1);
            s.cumulative_ack(2);
            s.cumulative_ack(3);
            // The retransmission of 3 fills the last hole: the cumulative ACK jumps over
            // the SACKed 4..=7 to 8, still before high_seq 10 (8 and 9 were sent before
            // the reduction): Recovery goes on.
            s.cumulative_ack(8);
            s.assert_sequences();
            assert_eq!(s.flow.phase(), Phase::Recovery, "{counting:?} iss {iss}");
            // Segment 8 carried a CE mark; its ACK raises the CE count. snd_una 9 is
            // before high_seq 10: the kernel is still in Recovery and does not reduce.
            s.cumulative_ack(9);
            s.ce_on(8);
            assert_eq!(s.window(), (7, Some(7)), "{counting:?} iss {iss}");
            assert_eq!(s.flow.phase(), Phase::Recovery);
            // The ACK of 9 reaches high_seq: Recovery ends (tcp_fastretrans_alert,
            // !before(snd_una, high_seq)).
            s.cumulative_ack(10);
            assert_eq!(s.flow.phase(), Phase::CongestionAvoidance);
            // A CE mark on 10, sent after the reduction, is a new congestion event:
            // tcp_enter_cwr, ssthresh max(7 · 717 >> 10, 2) = 4 (5019 >> 10), and the
            // CWR's end lands cwnd on it.
            s.send_new(2);
            s.at(60);
            s.cumulative_ack(11);
            s.ce_on(10);
            assert_eq!(s.window(), (4, Some(4)), "{counting:?} iss {iss}");
            assert_eq!(s.flow.phase(), Phase::Recovery);
            s.assert_sequences();
        }
    }
}

#[test]
fn new_data_sent_before_the_retransmissions_keeps_one_reduction_per_episode() {
    for iss in [0, u32::MAX - 5] {
        for counting in BOTH {
            let mut s = first_episode(counting, iss);
            // New data goes out before the retransmissions: 10 and 11, then 0.
            s.send_new(2);
            s.retransmit(0);
            assert_eq!(s.in_flight(), 6);
            s.assert_sequences();
            // The rest of the holes, each retransmitted as a SACK frees room.
            s.sack(7);
            s.retransmit(1);
            s.sack(8);
            s.retransmit(2);
            s.sack(9);
            s.retransmit(3);
            assert_eq!(s.window(), (7, Some(7)));
            s.at(40);
            s.cumulative_ack(1);
            s.cumulative_ack(2);
            s.cumulative_ack(3);
            assert_eq!(s.flow.phase(), Phase::Recovery, "{counting:?} iss {iss}");
            // The retransmission of 3 arrives: everything below 10 is in, the ACK
            // reaches high_seq 10 and Recovery ends.
            s.cumulative_ack(10);
            assert_eq!(s.flow.phase(), Phase::CongestionAvoidance);
            assert_eq!(s.window(), (7, Some(7)));
            s.assert_sequences();

            // Second episode. 12..=15 go out; SACKs of 11 and 12 each let one more out
            // (16, 17); the SACK of 13 puts three SACKed above 10, lost: 10 was sent after
            // the first reduction and Recovery is over, so this is a new one (cubic's
            // ssthresh max(7 · 717 >> 10, 2) = 4), with high_seq the stack's snd_nxt, 18.
            // The flow's snd_una + flight there is 16 (10 acknowledged, 6 in flight).
            s.at(50);
            s.send_new(4);
            s.at(60);
            s.sack(11);
            s.send_new(1);
            s.sack(12);
            s.send_new(1);
            s.sack(13);
            s.lose(10);
            assert_eq!(s.window(), (4, Some(4)), "{counting:?} iss {iss}");
            assert_eq!(s.flow.phase(), Phase::Recovery);
            s.assert_sequences();
            s.sack(14);
            s.sack(15);
            // 17 is SACKed and 16, sent before it, is marked lost (RACK): 16 was sent
            // before this reduction (16 < high_seq 18), so no third one.
            s.sack(17);
            s.lose(16);
            assert_eq!(s.window(), (4, Some(4)), "{counting:?} iss {iss}");
            s.retransmit(10);
            s.retransmit(16);
            assert_eq!(s.in_flight(), 2);
            s.at(80);
            // The retransmission of 10 fills the first hole: the cumulative ACK jumps to
            // 16, before high_seq 18: Recovery goes on.
            s.cumulative_ack(16);
            assert_eq!(s.flow.phase(), Phase::Recovery, "{counting:?} iss {iss}");
            // The retransmission of 16: the ACK jumps over the SACKed 17 to 18.
            s.cumulative_ack(18);
            assert_eq!(s.flow.phase(), Phase::CongestionAvoidance);
            assert_eq!(s.window(), (4, Some(4)));
            assert_eq!(s.in_flight(), 0);
            s.assert_sequences();
        }
    }
}

#[test]
fn classic_ecn_echoes_up_to_high_seq_cut_once() {
    for counting in BOTH {
        let mut s = Stack::new(counting, 0);
        s.send_new(8);
        s.at(20);
        // Segment 0 was CE-marked: the ACK of it raises the CE count. tcp_enter_cwr:
        // ssthresh max(10 · 717 >> 10, 2) = 7, cwnd lands on it; high_seq = snd_nxt 8.
        s.cumulative_ack(1);
        s.ce_on(0);
        assert_eq!(s.window(), (7, Some(7)), "{counting:?}");
        // An RFC 3168 receiver sets ECE on every ACK until a segment with CWR arrives,
        // and the sender sets CWR on its first new segment after the reduction (8, sent
        // below only once 0..=7 are in). Each of those ACKs is one more CE report, of a
        // segment sent before the reduction. Up to snd_una 7 the recovery period
        // covers them; the ACK of 7 brings snd_una to high_seq exactly, where the kernel
        // holds CWR ("until something above high_seq is acknowledged"): no second cut.
        for to in 2..=8 {
            s.cumulative_ack(to);
            s.ce_on(to - 1);
            assert_eq!(
                s.window(),
                (7, Some(7)),
                "{counting:?}, ECE at snd_una {to}"
            );
        }
        // 8 carries CWR, 9 follows; the receiver echoes no more. A CE mark on 9, sent
        // after the reduction, is a new event once the cumulative ACK is past high_seq:
        // max(7 · 717 >> 10, 2) = 4.
        s.send_new(2);
        s.at(40);
        s.cumulative_ack(9);
        s.cumulative_ack(10);
        s.ce_on(9);
        assert_eq!(s.window(), (4, Some(4)), "{counting:?}");
        s.assert_sequences();
    }
}

#[test]
fn a_stale_or_overshooting_cumulative_ack_is_clamped() {
    let mut s = Stack::new(Counting::CumulativeAdvance, 100);
    s.send_new(8);
    s.at(20);
    s.cumulative_ack(4);
    s.assert_sequences();
    // A reordered older ACK (cumulative 102 < snd_una 104): snd_una does not go back,
    // as the kernel's tcp_ack() ignores an old ACK's sequence.
    s.flow.on_ack(s.now, &AckEvent::new(0, 102, None));
    assert_eq!(s.flow.socket_view().snd_una, 104);
    // A cumulative ACK beyond snd_nxt (108) takes snd_nxt with it.
    s.flow.on_ack(s.now, &AckEvent::new(0, 110, None));
    let view = s.flow.socket_view();
    assert_eq!((view.snd_una, view.snd_nxt), (110, 110));
    // A `largest_sent` behind snd_nxt never moves it back.
    s.flow.on_sent(s.now, &SentEvent::new(0, 105));
    assert_eq!(s.flow.socket_view().snd_nxt, 110);
}

/// xorshift64*, for the random stack below (no dependency, the same runs every time).
fn next(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

#[test]
fn a_random_sack_stack_keeps_the_flows_sequences_equal_to_its_own() {
    // Sends, deliveries (a SACK above a hole, or a cumulative ACK up to the next hole),
    // losses and retransmissions in random order: after every event the flow's snd_una
    // and snd_nxt are the stack's, whichever way it counts `acked`.
    for (run, iss) in [(1u64, 0u32), (2, u32::MAX - 40), (3, 1 << 31), (4, 7)] {
        for counting in BOTH {
            let mut rng = 0x9E37_79B9_7F4A_7C15 ^ run;
            let mut s = Stack::new(counting, iss);
            let mut received: Vec<u32> = Vec::new();
            let mut ms = 0;
            for _ in 0..3_000 {
                ms += 1;
                s.at(ms);
                let outstanding: Vec<u32> = (s.snd_una..s.snd_nxt)
                    .filter(|o| !received.contains(o))
                    .collect();
                let pick = |r: u64, v: &[u32]| v[(r % v.len() as u64) as usize];
                match next(&mut rng) % 8 {
                    0 | 1 if outstanding.len() < 40 => s.send_new(1 + (next(&mut rng) % 4) as u32),
                    2..=4 => {
                        // A segment arrives: an original not marked lost, or a retransmission.
                        let arriving: Vec<u32> = outstanding
                            .iter()
                            .copied()
                            .filter(|o| !s.lost.contains(o) || s.retrans.contains(o))
                            .collect();
                        if arriving.is_empty() {
                            continue;
                        }
                        let o = pick(next(&mut rng), &arriving);
                        s.lost.retain(|&l| l != o);
                        s.retrans.retain(|&l| l != o);
                        received.push(o);
                        if o == s.snd_una {
                            let mut to = o + 1;
                            while received.contains(&to) {
                                to += 1;
                            }
                            s.cumulative_ack(to);
                            received.retain(|&r| r >= to);
                        } else {
                            s.sack(o);
                        }
                    }
                    5 => {
                        let candidates: Vec<u32> = outstanding
                            .iter()
                            .copied()
                            .filter(|o| !s.lost.contains(o))
                            .collect();
                        if candidates.is_empty() {
                            continue;
                        }
                        let o = pick(next(&mut rng), &candidates);
                        s.lose(o);
                    }
                    6 => {
                        let candidates: Vec<u32> = s
                            .lost
                            .iter()
                            .copied()
                            .filter(|o| !s.retrans.contains(o))
                            .collect();
                        if candidates.is_empty() {
                            continue;
                        }
                        let o = pick(next(&mut rng), &candidates);
                        s.retransmit(o);
                    }
                    _ => continue,
                }
                s.assert_sequences();
                assert!(s.flow.cwnd() >= 1);
            }
        }
    }
}
