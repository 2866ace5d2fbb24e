//! Fuzz body for `congestion::linux::Bbr3`: a TCP-like stack with its own scoreboard
//! (up to 512 segments outstanding) drives the flow through any sequence of sends,
//! retransmissions, ACKs (cumulative, SACK, loss marks, ECE, undo, delayed, app-limited
//! bubbles, RTT samples from 0 to 49 days), timeouts and time gaps (across the u32 µs
//! and jiffies wraps), with random draws from the input, under any configuration the
//! first bytes describe. After every event the flow's invariants must hold, among them
//! those issue 37 lists: cwnd never below the kernel's floor (1 always;
//! `min(bbr_cwnd_min_target, clamp)` after an ACK that delivered in Open), the pacing
//! rate at least what `bbr_bw()` and the gain give (so positive once a sample does),
//! each `bw_hi` slot 0 or a sample the flow took (never above the largest), and
//! in-flight bookkeeping consistent (scoreboard against counters, the flow's
//! `tp->delivered` and `tp->lost` against what the stack reported).

use super::bytes::Bytes;
use congestion::Instant;
use congestion::hystart::PacingStatus;
use congestion::linux::bbr::{DeliveredSegment, Flight, Sent};
use congestion::linux::bbr3::{Bbr3Ack, Bbr3Rto, CyclePhase, FastPath, Mode};
use congestion::linux::tcp::{ReplayedRandom, TxSnapshot};
use congestion::linux::{Bbr3, Bbr3Config, Bbr3Params, CaState};
use std::collections::{BTreeMap, HashSet};

/// Most segments the stack keeps outstanding.
const WINDOW: u32 = 512;

const ACKED: u8 = 0x01;
const RETRANS: u8 = 0x02;
const LOST: u8 = 0x04;
const EVER_RETRANS: u8 = 0x80;

/// One outstanding segment, as the stack keeps it.
#[derive(Clone, Copy)]
struct Seg {
    sent: Sent,
    bits: u8,
}

/// The stack around the flow.
struct Stack {
    params: Bbr3Params,
    flow: Bbr3,
    segs: BTreeMap<u32, Seg>,
    snd_una: u32,
    snd_nxt: u32,
    flight: Flight,
    srtt8: u32,
    timeouts: u32,
    is_cwnd_limited: bool,
    max_packets_out: u32,
    cwnd_usage_seq: u32,
    rand: ReplayedRandom<64>,
    /// What the stack reported delivered and lost, to check the flow's counters.
    delivered: u32,
    lost: u32,
    /// Every `bbr_calculate_bw_sample()` value the flow could have taken.
    samples: HashSet<u32>,
}

/// Builds a configuration from the first bytes; `None` when it is (rightly) refused.
fn params_from(b: &mut Bytes<'_>) -> Option<Bbr3Params> {
    let mut c = Bbr3Config::new();
    let flags = b.u8();
    c.mss = match flags & 3 {
        0 => 1448,
        1 => u32::from(b.u16()), // includes the refused 0
        2 => 1,
        _ => 9000,
    };
    c.init_cwnd = u32::from(b.u8()); // 0 is refused; above 127 BBR keeps 127
    c.cwnd_clamp = match b.u8() % 4 {
        0 => u32::MAX,
        1 => u32::from(b.u8()),
        _ => u32::from(b.u16()),
    };
    c.initial_rtt_us = match b.u8() % 4 {
        0 => 0,
        1 => b.u32(),
        _ => u32::from(b.u16()),
    };
    c.max_pacing_rate = match b.u8() % 4 {
        0 => u64::from(b.u32()),
        _ => u64::MAX,
    };
    c.pacing_status =
        [PacingStatus::None, PacingStatus::Needed, PacingStatus::Fq][usize::from((flags >> 2) % 3)];
    c.pacing_shift = b.u8() % 72; // 64 and above are refused
    c.max_tcp_header = u32::from(b.u16()); // 65535 and above are refused
    c.min_tso_segs = u32::from(b.u8() % 8);
    c.ecn = flags & 0x40 != 0;
    c.ecn_low = flags & 0x80 != 0;
    c.validate().ok()
}

impl Stack {
    fn refill(&mut self, b: &mut Bytes<'_>) {
        while self.rand.pending() < 8 {
            if !self.rand.push(b.u32()) {
                break;
            }
        }
    }

    fn transmit(&mut self, now: Instant) -> Sent {
        let (p, flight) = (self.params, self.flight);
        self.flow.on_send(&p, now, flight, &mut self.rand)
    }

    fn send(&mut self, now: Instant, b: &mut Bytes<'_>) {
        let n = u32::from(b.u8() % 24);
        if b.u8() % 4 == 0 {
            let (p, flight) = (self.params, self.flight);
            self.flow.on_app_limited(&p, now, flight, true);
        }
        for _ in 0..n {
            if self.snd_nxt - self.snd_una >= WINDOW {
                break;
            }
            let sent = self.transmit(now);
            self.segs.insert(self.snd_nxt, Seg { sent, bits: 0 });
            self.snd_nxt += 1;
            self.flight.packets_out += 1;
        }
        // tcp_cwnd_validate()
        let lim = self.flight.in_flight() >= self.flow.cwnd();
        if (n > 0 || lim)
            && (self.snd_una >= self.cwnd_usage_seq
                || lim
                || (!self.is_cwnd_limited && self.flight.packets_out > self.max_packets_out))
        {
            self.is_cwnd_limited = lim;
            self.max_packets_out = self.flight.packets_out;
            self.cwnd_usage_seq = self.snd_nxt;
        }
    }

    /// Retransmits up to `n` lost segments that are not retransmitted yet.
    fn rtx(&mut self, now: Instant, n: u8) {
        let lost: Vec<u32> = self
            .segs
            .iter()
            .filter(|(_, s)| s.bits & LOST != 0 && s.bits & (RETRANS | ACKED) == 0)
            .map(|(&seq, _)| seq)
            .take(usize::from(n))
            .collect();
        for seq in lost {
            let sent = self.transmit(now);
            if let Some(seg) = self.segs.get_mut(&seq) {
                seg.sent = sent;
                seg.bits |= RETRANS | EVER_RETRANS;
                self.flight.retrans_out += 1;
            }
        }
    }

    /// tcp_mark_skb_lost(): the snapshot if `tp->lost` grows.
    fn mark_lost(&mut self, seq: u32) -> Option<TxSnapshot> {
        let seg = self.segs.get_mut(&seq)?;
        if seg.bits & ACKED != 0 {
            return None;
        }
        if seg.bits & LOST != 0 {
            if seg.bits & RETRANS == 0 {
                return None;
            }
            seg.bits &= !RETRANS;
            self.flight.retrans_out -= 1;
        } else {
            seg.bits |= LOST;
            self.flight.lost_out += 1;
        }
        Some(seg.sent.snapshot)
    }

    fn ack(&mut self, now: Instant, b: &mut Bytes<'_>) {
        let outstanding = self.snd_nxt - self.snd_una;
        let cum = self.snd_una + u32::from(b.u16()) % (outstanding + 1);
        let (sack_from, sack_len) = (u32::from(b.u8()), u32::from(b.u8() % 32));
        let (lost_from, lost_len) = (u32::from(b.u8()), u32::from(b.u8() % 16));
        let rtt_us = b.rtt_us().map(|r| r.min(u64::from(u32::MAX)) as u32);
        let flags = b.u8();
        let prior_flight = self.flight;
        let mut delivered = Vec::new();
        let mut sacked_seqs = Vec::new();
        // Spent snapshots of segments SACKed earlier, met again by the cumulative ACK.
        let mut spent = Vec::new();
        if prior_flight.packets_out > 0 {
            let start = cum + sack_from;
            for seq in start..(start + sack_len).min(self.snd_nxt) {
                let Some(seg) = self.segs.get_mut(&seq) else {
                    continue;
                };
                if seg.bits & ACKED != 0 {
                    continue;
                }
                if seg.bits & RETRANS != 0 {
                    if seg.bits & LOST != 0 {
                        seg.bits &= !(LOST | RETRANS);
                        self.flight.lost_out -= 1;
                        self.flight.retrans_out -= 1;
                    }
                } else if seg.bits & LOST != 0 {
                    seg.bits &= !LOST;
                    self.flight.lost_out -= 1;
                }
                seg.bits |= ACKED;
                self.flight.sacked_out += 1;
                delivered.push(DeliveredSegment {
                    sent: seg.sent,
                    end_seq: seq + 1,
                    retransmitted: seg.bits & (RETRANS | EVER_RETRANS) != 0,
                    sacked: true,
                });
                sacked_seqs.push(seq);
            }
            if cum > self.snd_una {
                self.timeouts = 0;
            }
            for seq in self.snd_una..cum {
                let Some(seg) = self.segs.remove(&seq) else {
                    continue;
                };
                if seg.bits & RETRANS != 0 {
                    self.flight.retrans_out -= 1;
                }
                if seg.bits & ACKED != 0 {
                    self.flight.sacked_out -= 1;
                    spent.push(seg.sent);
                } else {
                    delivered.push(DeliveredSegment {
                        sent: seg.sent,
                        end_seq: seq + 1,
                        retransmitted: seg.bits & (RETRANS | EVER_RETRANS) != 0,
                        sacked: false,
                    });
                }
                if seg.bits & LOST != 0 {
                    self.flight.lost_out -= 1;
                }
                self.flight.packets_out -= 1;
            }
            self.snd_una = cum;
            if let Some(m) = rtt_us {
                self.srtt8 = if self.srtt8 == 0 {
                    m.wrapping_shl(3)
                } else {
                    self.srtt8.wrapping_add(m.wrapping_sub(self.srtt8 >> 3))
                }
                .max(1);
            }
        }
        let undo = flags & 1 != 0 && self.flow.recovery().1 && prior_flight.packets_out > 0;
        if undo && self.flow.ca_state() == CaState::Loss {
            for seg in self.segs.values_mut() {
                seg.bits &= !LOST;
            }
            self.flight.lost_out = 0;
        }
        let mut newly_lost = Vec::new();
        if prior_flight.packets_out > 0 {
            let start = self.snd_una + lost_from;
            for seq in start..(start + lost_len).min(self.snd_nxt) {
                newly_lost.extend(self.mark_lost(seq));
            }
        }
        // Now and then the stack claims more delivered than it ever sent.
        let count = match b.u8() % 16 {
            0 => (delivered.len() as u32).saturating_add(u32::from(b.u16())),
            _ => delivered.len() as u32,
        };
        // A hostile stack: snapshots never handed back (only the count), one handed back
        // twice (a fresh copy), or a spent one handed back again.
        let never = flags & 0x10 != 0;
        let mut handed = delivered.clone();
        if flags & 0x20 != 0 {
            if let Some(&first) = delivered.first() {
                handed.push(first);
            }
        }
        if flags & 0x40 != 0 {
            if let (Some(&sent), Some(&first)) = (spent.first(), delivered.first()) {
                handed.push(DeliveredSegment { sent, ..first });
            }
        }
        let mut none: [DeliveredSegment; 0] = [];
        let (slice, reported): (&mut [DeliveredSegment], u32) = if never {
            (&mut none, count)
        } else {
            // `delivered_count` is at least the list's length: the flow counts the longer
            let n = count.max(handed.len() as u32);
            (&mut handed, n)
        };
        let mut ack = Bbr3Ack {
            snd_una: self.snd_una,
            snd_nxt: self.snd_nxt,
            delivered: slice,
            delivered_count: count,
            newly_lost: &newly_lost,
            rtt_us: rtt_us.filter(|_| prior_flight.packets_out > 0),
            srtt_us: self.srtt8 >> 3,
            ack_maybe_delayed: flags & 2 != 0,
            ece: flags & 4 != 0,
            nothing_queued: flags & 8 != 0,
            is_cwnd_limited: self.is_cwnd_limited,
            prior_flight,
            flight: self.flight,
            undo,
        };
        let p = self.params;
        let (rs, fast) = self.flow.on_ack(&p, now, &mut ack, &mut self.rand);
        if prior_flight.packets_out > 0 {
            self.delivered = self.delivered.wrapping_add(reported);
            self.lost = self.lost.wrapping_add(newly_lost.len() as u32);
            if rs.interval_us > 0 && rs.delivered >= 0 {
                // Linux net/ipv4/tcp_bbr.c (v3) bbr_calculate_bw_sample(): rounded up,
                // kept in a u32
                let bw = (rs.delivered as u64 * (1 << 24)).div_ceil(rs.interval_us as u64);
                self.samples.insert(bw as u32);
            }
            if fast != FastPath::Skipped {
                self.check_after_main(rs.acked_sacked);
            }
        }
        if !never {
            delivered = handed;
        }
        for (seg, seq) in delivered.iter().zip(&sacked_seqs) {
            if let Some(s) = self.segs.get_mut(seq) {
                s.sent = seg.sent;
            }
        }
    }

    fn rto(&mut self, now: Instant, nothing_queued: bool) {
        let prior_flight = self.flight;
        let seqs: Vec<u32> = self.segs.keys().copied().collect();
        let newly_lost: Vec<TxSnapshot> =
            seqs.into_iter().filter_map(|s| self.mark_lost(s)).collect();
        let rto = Bbr3Rto {
            prior_flight,
            flight: self.flight,
            newly_lost: &newly_lost,
            snd_una: self.snd_una,
            snd_nxt: self.snd_nxt,
            timeouts: self.timeouts,
            nothing_queued,
        };
        let p = self.params;
        self.lost = self.lost.wrapping_add(newly_lost.len() as u32);
        self.flow.on_rto(&p, now, &rto, &mut self.rand);
        self.timeouts += 1;
    }

    /// After an ACK that ran `bbr_main()` past the fast path's skip: the cwnd floor and
    /// the pacing rate.
    fn check_after_main(&self, acked_sacked: u32) {
        let f = &self.flow;
        let c = self.params.config();
        // Linux net/ipv4/tcp_bbr.c (v3) bbr_set_cwnd(): bbr_cwnd_min_target, under the clamp
        if acked_sacked > 0 && f.ca_state() == CaState::Open {
            let floor = 4.min(c.cwnd_clamp);
            assert!(f.cwnd() >= floor, "cwnd {} below {floor} in Open", f.cwnd());
        }
        // Linux net/ipv4/tcp_bbr.c (v3) bbr_set_pacing_rate(): the rate only grows before
        // the pipe is full and is bbr_bw()'s after, so never below bbr_bw()'s
        let bw = u64::from(f.bbr().bw());
        // Linux net/ipv4/tcp_bbr.c bbr_rate_bytes_per_sec(): bw * mss * gain >> 8, * 1e6 / 100 * 99 >> 24
        let rate = bw
            .wrapping_mul(u64::from(c.mss))
            .wrapping_mul(u64::from(f.bbr().pacing_gain))
            >> 8;
        let rate = (rate.wrapping_mul(1_000_000 / 100 * 99) >> 24).min(c.max_pacing_rate);
        assert!(
            f.pacing_rate() >= rate,
            "pacing rate {} below bbr_bw()'s {rate}",
            f.pacing_rate()
        );
    }

    /// The scoreboard and the counters the stack hands the flow agree.
    fn check_scoreboard(&self) {
        let f = self.flight;
        let count = |bit: u8| self.segs.values().filter(|s| s.bits & bit != 0).count() as u32;
        assert_eq!(f.packets_out, self.segs.len() as u32, "packets_out");
        assert_eq!(
            f.packets_out,
            self.snd_nxt - self.snd_una,
            "packets_out vs sequence"
        );
        assert_eq!(f.sacked_out, count(ACKED), "sacked_out");
        assert_eq!(f.lost_out, count(LOST), "lost_out");
        assert_eq!(f.retrans_out, count(RETRANS), "retrans_out");
        assert!(
            f.sacked_out + f.lost_out <= f.packets_out,
            "left_out above packets_out"
        );
    }

    /// The invariants that hold after every event, whatever the input.
    fn check(&self) {
        self.check_scoreboard();
        let (delivered, _, lost, _) = self.flow.delivery_counters();
        assert_eq!(
            delivered, self.delivered,
            "tp->delivered against the stack's"
        );
        assert_eq!(lost, self.lost, "tp->lost against the stack's");
        for v in self.flow.bbr().bw_hi {
            assert!(
                v == 0 || self.samples.contains(&v),
                "bw_hi slot {v} is no sample taken"
            );
        }
        let f = &self.flow;
        let b = f.bbr();
        let c = self.params.config();
        assert!(f.cwnd() >= 1, "cwnd {}", f.cwnd());
        assert!(f.pacing_rate() <= c.max_pacing_rate);
        assert!(b.ecn_alpha <= 256, "ecn_alpha {}", b.ecn_alpha);
        assert!(b.bw_probe_up_rounds <= 31);
        assert!(b.full_bw_cnt <= 3 && b.startup_ecn_rounds <= 3);
        assert!(b.loss_events_in_round <= 15);
        assert!(b.ack_epoch_acked <= 0xF_FFFF);
        assert!(b.extra_acked_win_rtts <= 31 && b.extra_acked_win_idx <= 1);
        assert!(b.init_cwnd <= 127);
        assert!(b.pacing_gain < 1024 && b.cwnd_gain < 1024);
        assert!(b.bw() <= b.max_bw());
        assert!(
            b.min_rtt_us <= b.probe_rtt_min_us,
            "{} > {}",
            b.min_rtt_us,
            b.probe_rtt_min_us
        );
        assert!(f.tso_segs_goal(&self.params) >= c.min_tso_segs);
        // ECN is a signal only on a negotiated, shallow-threshold path.
        assert!(!b.ecn_eligible() || (c.ecn && c.ecn_low));
        // CWR comes only from ECE, which needs ECN negotiated.
        assert!(f.ca_state() != CaState::Cwr || c.ecn);
        assert!(f.ca_state() != CaState::Disorder);
        // DRAIN and PROBE_BW come only after STARTUP judged the pipe full.
        if b.mode == Mode::Drain || b.mode == Mode::ProbeBw {
            assert!(b.full_bw_reached(), "mode {:?} without full bw", b.mode);
        }
        // Not growing inflight_hi outside PROBE_UP: a new cycle resets the count.
        if b.mode == Mode::ProbeBw && b.cycle_idx == CyclePhase::Down {
            assert_eq!(b.bw_probe_up_cnt, u32::MAX);
        }
    }
}

/// Runs one fuzz input. Panics if an invariant breaks.
pub fn run(data: &[u8]) {
    let mut b = Bytes::new(data);
    // Half the time start 2 s before the u32 µs clock (and jiffies' low bits) wrap.
    let mut now_us: u64 = if b.u8() & 1 == 1 {
        (1 << 32) - 2_000_000
    } else {
        1_000_000
    };
    let Some(params) = params_from(&mut b) else {
        return;
    };
    let mut rand = ReplayedRandom::new();
    let flow = Bbr3::new(&params, Instant::from_micros(now_us), &mut rand);
    let mut stack = Stack {
        params,
        flow,
        segs: BTreeMap::new(),
        snd_una: 0,
        snd_nxt: 0,
        flight: Flight::default(),
        srtt8: params.config().initial_rtt_us.wrapping_shl(3),
        timeouts: 0,
        is_cwnd_limited: false,
        max_packets_out: 0,
        cwnd_usage_seq: 0,
        rand,
        delivered: 0,
        lost: 0,
        samples: HashSet::new(),
    };
    stack.check();
    while !b.is_empty() {
        // Gaps may be huge; now and then time goes backwards (the kernel's clocks do
        // not, but a caller's clock might: issue 37 item 6 asks for no panic).
        now_us = match b.u8() % 16 {
            0 => now_us.saturating_add(u64::from(b.u32()) * 1000),
            1 => now_us,
            2 => now_us.saturating_sub(u64::from(b.u32())),
            _ => now_us.saturating_add(u64::from(b.u16())),
        };
        let now = Instant::from_micros(now_us);
        stack.refill(&mut b);
        match b.u8() % 8 {
            0..=2 => stack.send(now, &mut b),
            3..=5 => stack.ack(now, &mut b),
            6 => {
                let n = b.u8() % 32;
                stack.rtx(now, n);
            }
            _ => {
                if stack.flight.packets_out > 0 {
                    let nothing_queued = b.u8() & 1 != 0;
                    stack.rto(now, nothing_queued);
                }
            }
        }
        stack.check();
    }
}
