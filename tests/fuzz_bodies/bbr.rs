//! Fuzz body for `congestion::linux::Bbr`: a TCP-like stack with its own scoreboard
//! (segments outstanding, SACKed, lost, retransmitted; the snapshot of each) drives a
//! BBR v1 flow through any sequence of sends, retransmissions, ACKs (cumulative,
//! SACK, loss marks, undo, delayed), application pauses and timeouts, at hostile times
//! (time standing still, jumping by days, or going backwards) and RTTs (0, 1 µs, an
//! hour, none), with hostile settings (tiny mss, clamp 1, a low pacing cap).
//!
//! After every event: no panic (overflow checks are on), and the invariants of
//! `tcp_bbr.c`'s state: field widths, gains of the current mode, PROBE_RTT's cwnd cap,
//! the pacing cap, departures that never move back, a TSO goal within 1..=127, the
//! delivered count the stack reported, and no return to STARTUP once the pipe was full.
//! Also the invariants issue 37 lists: cwnd never below the kernel's floor (1 segment
//! always; `min(bbr_cwnd_min_target, clamp)` after an ACK that delivered in Open), the
//! pacing rate at least what `bbr_bw()` and the gain give (so positive once a sample
//! does), every entry of the bandwidth filter never above the largest sample taken in
//! its round, and in-flight bookkeeping consistent (the stack's scoreboard against its
//! counters, and the flow's `tp->lost` against the losses the stack reported).

use super::bytes::Bytes;
use congestion::Instant;
use congestion::hystart::PacingStatus;
use congestion::linux::bbr::{BbrAck, BbrMode, DeliveredSegment, Flight, Sent};
use congestion::linux::tcp::{RandomSource, RateSample};
use congestion::linux::{Bbr, BbrConfig, BbrParams, CaState};
use std::collections::{HashMap, VecDeque};

/// Most segments the stack keeps outstanding.
const MAX_OUT: usize = 300;

/// A random source from the fuzz input (values beyond `ceil` included, as a broken
/// source might return).
struct FuzzRandom(u32);

impl RandomSource for FuzzRandom {
    fn below(&mut self, ceil: u32) -> u32 {
        self.0 = self.0.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        if self.0 % 5 == 0 {
            self.0
        } else {
            self.0 % ceil.max(1)
        }
    }
}

/// One outstanding segment of the stack's scoreboard.
#[derive(Clone, Copy)]
struct Seg {
    sent: Sent,
    sacked: bool,
    lost: bool,
    /// A retransmission is in flight.
    retrans: bool,
    ever_retrans: bool,
}

/// The stack around the flow.
struct Stack {
    params: BbrParams,
    flow: Bbr,
    now_us: u64,
    /// Outstanding segments from `snd_una` on.
    segs: VecDeque<Seg>,
    snd_una: u32,
    flight: Flight,
    timeouts: u32,
    rand: FuzzRandom,
    /// What the stack has reported delivered, to check the flow's counter.
    delivered: u32,
    /// What the stack has reported lost, to check the flow's `tp->lost`.
    lost: u32,
    /// The largest delivery-rate sample (`bbr_update_bw()`'s `bw`) taken in each round.
    samples: HashMap<u32, u32>,
    last_departure: u64,
}

impl Stack {
    fn snd_nxt(&self) -> u32 {
        self.snd_una.wrapping_add(self.segs.len() as u32)
    }

    fn now(&self) -> Instant {
        Instant::from_micros(self.now_us)
    }

    fn advance(&mut self, b: &mut Bytes<'_>) {
        let step = b.time_step_us();
        self.now_us = self.now_us.saturating_add_signed(step);
    }

    fn send(&mut self, b: &mut Bytes<'_>) {
        let n = usize::from(b.u8() % 40);
        for _ in 0..n {
            if self.segs.len() >= MAX_OUT {
                break;
            }
            let (p, now, flight) = (self.params, self.now(), self.flight);
            let sent = self.flow.on_send(&p, now, flight, &mut self.rand);
            self.segs.push_back(Seg {
                sent,
                sacked: false,
                lost: false,
                retrans: false,
                ever_retrans: false,
            });
            self.flight.packets_out += 1;
        }
    }

    fn retransmit(&mut self, b: &mut Bytes<'_>) {
        let Some(i) = self.pick(b) else { return };
        let seg = self.segs[i];
        if seg.sacked || seg.retrans {
            return;
        }
        let (p, now, flight) = (self.params, self.now(), self.flight);
        let sent = self.flow.on_send(&p, now, flight, &mut self.rand);
        let seg = &mut self.segs[i];
        seg.sent = sent;
        seg.retrans = true;
        seg.ever_retrans = true;
        self.flight.retrans_out += 1;
    }

    fn pick(&self, b: &mut Bytes<'_>) -> Option<usize> {
        if self.segs.is_empty() {
            return None;
        }
        Some(usize::from(b.u16()) % self.segs.len())
    }

    /// `tcp_mark_skb_lost()`: whether `tp->lost` grows.
    fn mark_lost(&mut self, i: usize) -> bool {
        let seg = &mut self.segs[i];
        if seg.sacked {
            return false;
        }
        if seg.lost {
            if seg.retrans {
                seg.retrans = false;
                self.flight.retrans_out -= 1;
                return true;
            }
            return false;
        }
        seg.lost = true;
        self.flight.lost_out += 1;
        true
    }

    fn ack(&mut self, b: &mut Bytes<'_>) {
        let prior_flight = self.flight;
        let mut delivered = Vec::new();
        let mut sacked_idx = Vec::new();
        // SACK one block.
        if b.u8() % 2 == 0 && !self.segs.is_empty() {
            let start = usize::from(b.u16()) % self.segs.len();
            let len = usize::from(b.u8() % 16);
            for i in start..(start + len).min(self.segs.len()) {
                let seg = &mut self.segs[i];
                if seg.sacked {
                    continue;
                }
                if seg.retrans {
                    if seg.lost {
                        seg.lost = false;
                        seg.retrans = false;
                        self.flight.lost_out -= 1;
                        self.flight.retrans_out -= 1;
                    }
                } else if seg.lost {
                    seg.lost = false;
                    self.flight.lost_out -= 1;
                }
                seg.sacked = true;
                self.flight.sacked_out += 1;
                delivered.push(DeliveredSegment {
                    sent: seg.sent,
                    end_seq: self.snd_una.wrapping_add(i as u32 + 1),
                    retransmitted: seg.ever_retrans,
                    sacked: true,
                });
                sacked_idx.push((delivered.len() - 1, i));
            }
        }
        // Cumulative part. The spent snapshots of segments SACKed earlier come back here
        // as `tcp_clean_rtx_queue()` sees them again.
        let mut spent = Vec::new();
        let cum = usize::from(b.u8()) % (self.segs.len() + 1);
        for i in 0..cum {
            let seg = self.segs[i];
            if seg.retrans {
                self.flight.retrans_out -= 1;
            }
            if seg.sacked {
                self.flight.sacked_out -= 1;
                spent.push(seg.sent);
            } else {
                delivered.push(DeliveredSegment {
                    sent: seg.sent,
                    end_seq: self.snd_una.wrapping_add(i as u32 + 1),
                    retransmitted: seg.ever_retrans,
                    sacked: false,
                });
            }
            if seg.lost {
                self.flight.lost_out -= 1;
            }
            self.flight.packets_out -= 1;
        }
        if cum > 0 {
            self.timeouts = 0;
        }
        let rtt_us = b.rtt_us().map(|r| r.min(u64::from(u32::MAX)) as u32);
        let undo = b.u8() % 8 == 0 && self.flow.recovery().1;
        // Loss marks (after the cumulative part is applied below).
        let lost_from = usize::from(b.u16());
        let lost_len = usize::from(b.u8() % 8);
        let delayed = b.u8() % 4 == 0;
        // Without snapshots now and then: only the count.
        let keep_snapshots = b.u8() % 8 != 0;
        // Now and then the stack claims more delivered than it ever sent.
        let count = match b.u8() % 16 {
            0 => (delivered.len() as u32).saturating_add(u32::from(b.u16())),
            _ => delivered.len() as u32,
        };
        // Now and then a snapshot handed back twice on one ACK, as a stack that lost
        // track might: the flow counts the longer of list and count, so does the stack.
        if b.u8() % 8 == 0 {
            if let Some(&first) = delivered.first() {
                delivered.push(first);
            }
        }

        self.segs.drain(..cum);
        self.snd_una = self.snd_una.wrapping_add(cum as u32);
        if undo && self.flow.ca_state() == CaState::Loss {
            for seg in &mut self.segs {
                seg.lost = false;
            }
            self.flight.lost_out = 0;
        }
        let mut newly_lost = 0;
        if !self.segs.is_empty() {
            let start = lost_from % self.segs.len();
            for i in start..(start + lost_len).min(self.segs.len()) {
                newly_lost += u32::from(self.mark_lost(i));
            }
        }
        let mut none: [DeliveredSegment; 0] = [];
        // A snapshot handed back a second time, spent: the sampler must ignore it.
        let spent_again = b.u8() % 4 == 0;
        if spent_again && keep_snapshots {
            if let Some(&sent) = spent.first() {
                let mut seg = delivered.first().copied().unwrap_or(DeliveredSegment {
                    sent,
                    end_seq: self.snd_una,
                    retransmitted: false,
                    sacked: false,
                });
                seg.sent = sent;
                delivered.push(seg);
            }
        }
        // `delivered_count` is at least the list's length: the flow counts the longer
        let reported = if keep_snapshots {
            count.max(delivered.len() as u32)
        } else {
            count
        };
        let slice: &mut [DeliveredSegment] = if keep_snapshots {
            &mut delivered
        } else {
            &mut none
        };
        let mut ack = BbrAck {
            snd_una: self.snd_una,
            snd_nxt: self.snd_nxt(),
            delivered: slice,
            delivered_count: count,
            newly_lost,
            rtt_us,
            srtt_us: rtt_us.unwrap_or(0),
            ack_maybe_delayed: delayed,
            prior_flight,
            flight: self.flight,
            undo,
        };
        let (p, now) = (self.params, self.now());
        let rs = self.flow.on_ack(&p, now, &mut ack, &mut self.rand);
        if prior_flight.packets_out > 0 {
            self.delivered = self.delivered.wrapping_add(reported);
            self.lost = self.lost.wrapping_add(newly_lost);
            check_sample(&rs, reported);
            if rs.delivered >= 0 && rs.interval_us > 0 {
                // Linux net/ipv4/tcp_bbr.c bbr_update_bw(): the u64 quotient, truncated to
                // minmax's u32
                let bw = (rs.delivered as u64 * (1 << 24) / rs.interval_us as u64) as u32;
                let best = self.samples.entry(self.flow.bbr().rtt_cnt).or_insert(0);
                *best = (*best).max(bw);
            }
            self.check_after_ack(&rs);
        }
        if keep_snapshots {
            // The SACKed segments still outstanding keep their spent snapshots.
            for &(k, i) in &sacked_idx {
                if i >= cum {
                    self.segs[i - cum].sent = delivered[k].sent;
                }
            }
        }
    }

    fn rto(&mut self) {
        let mut newly_lost = 0;
        for i in 0..self.segs.len() {
            newly_lost += u32::from(self.mark_lost(i));
        }
        let (p, now, flight, una, nxt) = (
            self.params,
            self.now(),
            self.flight,
            self.snd_una,
            self.snd_nxt(),
        );
        self.lost = self.lost.wrapping_add(newly_lost);
        self.flow.on_rto(
            &p,
            now,
            flight,
            newly_lost,
            una,
            nxt,
            self.timeouts,
            &mut self.rand,
        );
        self.timeouts = self.timeouts.saturating_add(1);
    }

    fn check(&mut self, after_ack: bool) {
        let f = &self.flow;
        let s = f.bbr();
        let c = self.params.config();
        assert!(s.cycle_idx < 8 && s.lt_rtt_cnt < 128 && s.full_bw_cnt <= 3);
        assert!(s.ack_epoch_acked <= 0xF_FFFF && s.extra_acked_win_rtts <= 31);
        assert!(s.pacing_gain < 1024 && s.cwnd_gain < 1024);
        assert!(f.pacing_rate() <= c.max_pacing_rate);
        assert!((1..=127).contains(&f.tso_segs_goal(&self.params)));
        assert!(
            f.next_departure_ns() >= self.last_departure,
            "departures never move back"
        );
        self.last_departure = f.next_departure_ns();
        assert_eq!(f.delivery_counters().0, self.delivered);
        assert_eq!(
            f.delivery_counters().1,
            self.lost,
            "tp->lost against the stack's"
        );
        assert!(f.cwnd() >= 1, "cwnd {} below 1", f.cwnd());
        self.check_scoreboard();
        // Every filter entry is a sample taken in its round (or the reset value 0).
        for e in s.bw.s {
            let best = self.samples.get(&e.t).copied().unwrap_or(0);
            assert!(
                e.v == 0 || e.v <= best,
                "filter entry {} in round {} above that round's largest sample {best}",
                e.v,
                e.t
            );
        }
        assert!(matches!(
            f.ca_state(),
            CaState::Open | CaState::Recovery | CaState::Loss
        ));
        if after_ack {
            let gains = match f.mode() {
                BbrMode::Startup => [739, 739],
                BbrMode::Drain => [88, 739],
                BbrMode::ProbeBw if s.lt_use_bw() => [256, 512],
                BbrMode::ProbeBw => [
                    [320, 192, 256, 256, 256, 256, 256, 256][usize::from(s.cycle_idx)],
                    512,
                ],
                BbrMode::ProbeRtt => [256, 256],
            };
            assert_eq!([s.pacing_gain, s.cwnd_gain], gains);
            if f.mode() == BbrMode::ProbeRtt {
                assert!(f.cwnd() <= 4, "PROBE_RTT caps cwnd at 4");
            }
            if s.full_bw_reached() {
                assert_ne!(
                    f.mode(),
                    BbrMode::Startup,
                    "no STARTUP once the pipe was full"
                );
            }
        }
    }
}

impl Stack {
    /// The scoreboard and the counters the stack hands the flow agree.
    fn check_scoreboard(&self) {
        let f = self.flight;
        let count = |pred: fn(&Seg) -> bool| self.segs.iter().filter(|s| pred(s)).count() as u32;
        assert_eq!(f.packets_out, self.segs.len() as u32, "packets_out");
        assert_eq!(f.sacked_out, count(|s| s.sacked), "sacked_out");
        assert_eq!(f.lost_out, count(|s| s.lost), "lost_out");
        assert_eq!(f.retrans_out, count(|s| s.retrans), "retrans_out");
        assert!(
            f.sacked_out + f.lost_out <= f.packets_out,
            "left_out above packets_out"
        );
    }

    /// After an ACK that ran `bbr_main()`: the cwnd floor and the pacing rate.
    fn check_after_ack(&self, rs: &RateSample) {
        let f = &self.flow;
        let c = self.params.config();
        // Linux net/ipv4/tcp_bbr.c bbr_set_cwnd(): bbr_cwnd_min_target, under the clamp
        if rs.acked_sacked > 0 && f.ca_state() == CaState::Open {
            let floor = 4.min(c.cwnd_clamp);
            assert!(f.cwnd() >= floor, "cwnd {} below {floor} in Open", f.cwnd());
        }
        // Linux net/ipv4/tcp_bbr.c bbr_set_pacing_rate(): the rate only grows before the
        // pipe is full, and is the bw's rate after
        let rate = pacing_rate_of(f.bw(), f.bbr().pacing_gain, c.mss, c.max_pacing_rate);
        if f.bbr().full_bw_reached() {
            assert_eq!(f.pacing_rate(), rate, "pacing rate not bbr_bw()'s");
        } else {
            assert!(
                f.pacing_rate() >= rate,
                "pacing rate {} below bbr_bw()'s {rate}",
                f.pacing_rate()
            );
        }
    }
}

/// `bbr_bw_to_pacing_rate()`, written again here from the kernel, with its u64 wraps.
fn pacing_rate_of(bw: u32, gain: u16, mss: u32, max: u64) -> u64 {
    // Linux net/ipv4/tcp_bbr.c bbr_rate_bytes_per_sec(): bw * mss * gain >> 8, * 1e6 / 100 * 99 >> 24
    let rate = u64::from(bw)
        .wrapping_mul(u64::from(mss))
        .wrapping_mul(u64::from(gain))
        >> 8;
    (rate.wrapping_mul(1_000_000 / 100 * 99) >> 24).min(max)
}

/// A sample is either invalid or counts what the stack delivered over a positive interval.
fn check_sample(rs: &RateSample, count: u32) {
    assert_eq!(rs.acked_sacked, count);
    if rs.delivered >= 0 && rs.interval_us > 0 {
        assert!(rs.interval_us <= i64::from(u32::MAX));
    }
}

/// One fuzz input: settings, then events until the bytes run out.
pub fn run(data: &[u8]) {
    let mut b = Bytes::new(data);
    let mut config = BbrConfig::new();
    config.mss = u32::from(b.u16() % 9000);
    config.init_cwnd = u32::from(b.u8() % 64);
    config.cwnd_clamp = match b.u8() % 4 {
        0 => u32::from(b.u8()),
        _ => u32::MAX,
    };
    config.initial_rtt_us = match b.u8() % 4 {
        0 => 0,
        1 => b.u32(),
        _ => u32::from(b.u16()) * 4,
    };
    config.max_pacing_rate = match b.u8() % 4 {
        0 => u64::from(b.u32()),
        _ => u64::MAX,
    };
    config.pacing_status =
        [PacingStatus::None, PacingStatus::Needed, PacingStatus::Fq][usize::from(b.u8() % 3)];
    config.pacing_shift = b.u8() % 40;
    config.max_tcp_header = u32::from(b.u16());
    let Ok(params) = config.validate() else {
        return;
    };
    let now_us = u64::from(b.u32()) * 1000;
    let mut rand = FuzzRandom(b.u32());
    let flow = Bbr::new(&params, Instant::from_micros(now_us), &mut rand);
    let mut stack = Stack {
        params,
        flow,
        now_us,
        segs: VecDeque::new(),
        snd_una: b.u32(),
        flight: Flight::default(),
        timeouts: 0,
        rand,
        delivered: 0,
        lost: 0,
        samples: HashMap::new(),
        last_departure: 0,
    };
    stack.check(false);
    while !b.is_empty() {
        stack.advance(&mut b);
        let after_ack = match b.u8() % 8 {
            0 | 1 => {
                stack.send(&mut b);
                false
            }
            2 => {
                stack.retransmit(&mut b);
                false
            }
            3 => {
                let (p, now, flight) = (stack.params, stack.now(), stack.flight);
                stack.flow.on_app_limited(&p, now, flight, b.u8() % 2 == 0);
                false
            }
            4 => {
                stack.rto();
                false
            }
            _ => {
                let had = stack.flight.packets_out > 0;
                stack.ack(&mut b);
                had
            }
        };
        stack.check(after_ack);
    }
}
