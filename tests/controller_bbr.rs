//! BBR v1 and BBRv3 driven through [`CongestionController`] as a stack drives them: an
//! ACK-clocked transfer over a 10 ms path with a 100 µs-per-segment bottleneck, a loss,
//! an undo, a retransmission timeout and its recovery. After every event the
//! controller is compared with a [`Bbr`]/[`Bbr3`] driven by the same events through the
//! kernel-style inherent API (the stack keeping each segment's `Sent` itself), and at
//! the turning points cwnd and the pacing rate are checked against values worked out
//! by hand in the comments.

use congestion::linux::bbr::{BbrAck, DeliveredSegment, Flight, Sent};
use congestion::linux::bbr3::{Bbr3Ack, Bbr3Rto};
use congestion::linux::tcp::{ReplayedRandom, TxSnapshot};
use congestion::linux::{
    Bbr, Bbr3, Bbr3Config, Bbr3Controller, Bbr3Params, BbrConfig, BbrController, BbrParams, CaState,
};
use congestion::{
    AckEvent, AckedPacket, CongestionController, Duration, Instant, LossEvent, Phase, SentEvent,
};
use std::collections::VecDeque;

const RTT_US: u64 = 10_000;
const BOTTLENECK_US_PER_SEGMENT: u64 = 100;
const T0_US: u64 = 1_000_000;

type Rand = ReplayedRandom<8>;

fn rand() -> Rand {
    let mut r = Rand::new();
    for v in [3, 1, 4, 1, 5, 9, 2, 6] {
        r.push(v);
    }
    r
}

/// What the stack keeps per segment: its send time, the trait's snapshot, and (for the
/// kernel-style twin) the inherent API's `Sent`.
#[derive(Clone, Copy, Debug)]
struct Kept {
    time_sent: Instant,
    snapshot: TxSnapshot,
    sent: Sent,
}

/// One flow as a stack drives it, twice: through the trait and through the inherent
/// kernel-style API, with the stack's own scoreboard for the latter.
trait Twin {
    fn controller(&self) -> &dyn Ctl;
    fn send(&mut self, now: Instant, seq: u32) -> Kept;
    fn ack(&mut self, now: Instant, seq: u32, kept: &Kept);
    fn lose(&mut self, now: Instant, seq: u32, kept: &Kept);
    fn rto(&mut self, now: Instant);
    fn undo(&mut self, now: Instant);
    fn next_departure_ns(&self) -> u64;
    fn assert_same(&self);
}

/// The trait's read-outs, object-safe.
trait Ctl {
    fn window(&self) -> u64;
    fn flight(&self) -> u64;
}

impl<C: CongestionController> Ctl for C {
    fn window(&self) -> u64 {
        self.cwnd()
    }
    fn flight(&self) -> u64 {
        self.in_flight()
    }
}

/// The kernel-style stack's scoreboard: what the controllers document they rebuild.
#[derive(Default)]
struct Board {
    packets_out: u32,
    snd_una: u32,
    snd_nxt: u32,
    srtt8: u32,
    timeouts: u32,
    cwnd_limited: bool,
    cwnd_usage_seq: u32,
}

impl Board {
    fn flight(&self) -> Flight {
        Flight {
            packets_out: self.packets_out,
            ..Flight::default()
        }
    }
    fn rtt(&mut self, rtt_us: u32) {
        // tcp_rtt_estimator(): srtt8 = 8·rtt at first, then srtt8 + rtt - srtt8/8.
        self.srtt8 = if self.srtt8 == 0 {
            rtt_us << 3
        } else {
            self.srtt8 + rtt_us - (self.srtt8 >> 3)
        };
    }
    fn sent(&mut self, seq: u32, cwnd: u32) {
        self.packets_out += 1;
        self.snd_nxt = self.snd_nxt.max(seq + 1);
        if self.packets_out >= cwnd {
            self.cwnd_limited = true;
            self.cwnd_usage_seq = self.snd_nxt;
        } else if self.snd_una >= self.cwnd_usage_seq {
            self.cwnd_limited = false;
        }
    }
    fn acked(&mut self, seq: u32, rtt_us: u32) -> Flight {
        let prior = self.flight();
        self.packets_out -= 1;
        self.snd_una = self.snd_una.max(seq + 1);
        self.timeouts = 0;
        self.rtt(rtt_us);
        prior
    }
}

struct BbrTwin {
    ctl: BbrController<Rand>,
    flow: Bbr,
    p: BbrParams,
    rand: Rand,
    board: Board,
}

impl BbrTwin {
    fn new(config: BbrConfig, now: Instant) -> Self {
        let p = config.validate().unwrap();
        let mut r = rand();
        BbrTwin {
            ctl: BbrController::new(config, now, rand()).unwrap(),
            flow: Bbr::new(&p, now, &mut r),
            p,
            rand: r,
            board: Board {
                srtt8: config.initial_rtt_us << 3,
                ..Board::default()
            },
        }
    }

    fn empty_ack(&mut self, now: Instant, lost: u32, undo: bool) {
        let prior = self.board.flight();
        let flight = Flight {
            lost_out: lost,
            ..prior
        };
        let mut ack = BbrAck {
            snd_una: self.board.snd_una,
            snd_nxt: self.board.snd_nxt,
            delivered: &mut [],
            delivered_count: 0,
            newly_lost: lost,
            rtt_us: None,
            srtt_us: self.board.srtt8 >> 3,
            ack_maybe_delayed: false,
            prior_flight: prior,
            flight,
            undo,
        };
        self.flow.on_ack(&self.p, now, &mut ack, &mut self.rand);
        self.board.packets_out -= lost;
    }
}

impl Twin for BbrTwin {
    fn controller(&self) -> &dyn Ctl {
        &self.ctl
    }
    fn send(&mut self, now: Instant, seq: u32) -> Kept {
        let in_flight = self.ctl.in_flight();
        let snapshot = self
            .ctl
            .on_packet_sent(now, &SentEvent::new(in_flight + 1, u64::from(seq)));
        let sent = self
            .flow
            .on_send(&self.p, now, self.board.flight(), &mut self.rand);
        self.board.sent(seq, self.flow.cwnd());
        Kept {
            time_sent: now,
            snapshot,
            sent,
        }
    }
    fn ack(&mut self, now: Instant, seq: u32, kept: &Kept) {
        let rtt = now.as_micros() - kept.time_sent.as_micros();
        let ack = AckEvent::new(1, u64::from(seq), Some(Duration::from_micros(rtt)));
        let newest = AckedPacket::new(kept.time_sent, kept.snapshot);
        self.ctl.on_ack_sampled(now, &ack, &newest);

        let prior = self.board.acked(seq, rtt as u32);
        let mut delivered = [DeliveredSegment {
            sent: kept.sent,
            end_seq: seq + 1,
            retransmitted: false,
            sacked: false,
        }];
        let mut ack = BbrAck {
            snd_una: self.board.snd_una,
            snd_nxt: self.board.snd_nxt,
            delivered: &mut delivered,
            delivered_count: 1,
            newly_lost: 0,
            rtt_us: Some(rtt as u32),
            srtt_us: self.board.srtt8 >> 3,
            ack_maybe_delayed: false,
            prior_flight: prior,
            flight: self.board.flight(),
            undo: false,
        };
        self.flow.on_ack(&self.p, now, &mut ack, &mut self.rand);
    }
    fn lose(&mut self, now: Instant, seq: u32, kept: &Kept) {
        self.ctl
            .on_packet_lost(now, &LossEvent::packet(1, u64::from(seq)), &kept.snapshot);
        self.empty_ack(now, 1, false);
    }
    fn rto(&mut self, now: Instant) {
        self.ctl.on_retransmission_timeout(now);
        let out = self.board.packets_out;
        let flight = Flight {
            lost_out: out,
            ..self.board.flight()
        };
        let b = &self.board;
        self.flow.on_rto(
            &self.p,
            now,
            flight,
            out,
            b.snd_una,
            b.snd_nxt,
            b.timeouts,
            &mut self.rand,
        );
        self.board.timeouts += 1;
        self.board.packets_out = 0;
    }
    fn undo(&mut self, now: Instant) {
        self.ctl.on_spurious_congestion(now);
        self.empty_ack(now, 0, true);
    }
    fn next_departure_ns(&self) -> u64 {
        self.ctl.flow().next_departure_ns()
    }
    fn assert_same(&self) {
        assert_eq!(self.ctl.flow(), &self.flow);
        assert_eq!(self.ctl.in_flight(), u64::from(self.board.packets_out));
        assert_eq!(
            self.ctl.sequence(),
            (self.board.snd_una, self.board.snd_nxt)
        );
        assert_eq!(self.ctl.srtt_us(), self.board.srtt8 >> 3);
    }
}

struct Bbr3Twin {
    ctl: Bbr3Controller<Rand>,
    flow: Bbr3,
    p: Bbr3Params,
    rand: Rand,
    board: Board,
}

impl Bbr3Twin {
    fn new(config: Bbr3Config, now: Instant) -> Self {
        let p = config.validate().unwrap();
        let mut r = rand();
        Bbr3Twin {
            ctl: Bbr3Controller::new(config, now, rand()).unwrap(),
            flow: Bbr3::new(&p, now, &mut r),
            p,
            rand: r,
            board: Board {
                srtt8: config.initial_rtt_us << 3,
                ..Board::default()
            },
        }
    }

    fn empty_ack(&mut self, now: Instant, lost: &[TxSnapshot], undo: bool) {
        let prior = self.board.flight();
        let n = lost.len() as u32;
        let flight = Flight {
            lost_out: n,
            ..prior
        };
        let mut ack = Bbr3Ack {
            snd_una: self.board.snd_una,
            snd_nxt: self.board.snd_nxt,
            delivered: &mut [],
            delivered_count: 0,
            newly_lost: lost,
            rtt_us: None,
            srtt_us: self.board.srtt8 >> 3,
            ack_maybe_delayed: false,
            ece: false,
            nothing_queued: false,
            is_cwnd_limited: self.board.cwnd_limited,
            prior_flight: prior,
            flight,
            undo,
        };
        self.flow.on_ack(&self.p, now, &mut ack, &mut self.rand);
        self.board.packets_out -= n;
    }
}

impl Twin for Bbr3Twin {
    fn controller(&self) -> &dyn Ctl {
        &self.ctl
    }
    fn send(&mut self, now: Instant, seq: u32) -> Kept {
        let in_flight = self.ctl.in_flight();
        let snapshot = self
            .ctl
            .on_packet_sent(now, &SentEvent::new(in_flight + 1, u64::from(seq)));
        let sent = self
            .flow
            .on_send(&self.p, now, self.board.flight(), &mut self.rand);
        self.board.sent(seq, self.flow.cwnd());
        Kept {
            time_sent: now,
            snapshot,
            sent,
        }
    }
    fn ack(&mut self, now: Instant, seq: u32, kept: &Kept) {
        let rtt = now.as_micros() - kept.time_sent.as_micros();
        let ack = AckEvent::new(1, u64::from(seq), Some(Duration::from_micros(rtt)));
        let newest = AckedPacket::new(kept.time_sent, kept.snapshot);
        self.ctl.on_ack_sampled(now, &ack, &newest);

        let cwnd_limited = self.board.cwnd_limited;
        let prior = self.board.acked(seq, rtt as u32);
        let mut delivered = [DeliveredSegment {
            sent: kept.sent,
            end_seq: seq + 1,
            retransmitted: false,
            sacked: false,
        }];
        let mut ack = Bbr3Ack {
            snd_una: self.board.snd_una,
            snd_nxt: self.board.snd_nxt,
            delivered: &mut delivered,
            delivered_count: 1,
            newly_lost: &[],
            rtt_us: Some(rtt as u32),
            srtt_us: self.board.srtt8 >> 3,
            ack_maybe_delayed: false,
            ece: false,
            nothing_queued: false,
            is_cwnd_limited: cwnd_limited,
            prior_flight: prior,
            flight: self.board.flight(),
            undo: false,
        };
        self.flow.on_ack(&self.p, now, &mut ack, &mut self.rand);
    }
    fn lose(&mut self, now: Instant, seq: u32, kept: &Kept) {
        self.ctl
            .on_packet_lost(now, &LossEvent::packet(1, u64::from(seq)), &kept.snapshot);
        self.empty_ack(now, &[kept.sent.snapshot], false);
    }
    fn rto(&mut self, now: Instant) {
        self.ctl.on_retransmission_timeout(now);
        let out = self.board.packets_out;
        let unnamed = [TxSnapshot::default(); 16];
        let rto = Bbr3Rto {
            prior_flight: self.board.flight(),
            flight: Flight {
                lost_out: out,
                ..self.board.flight()
            },
            newly_lost: &unnamed[..(out as usize).min(16)],
            snd_una: self.board.snd_una,
            snd_nxt: self.board.snd_nxt,
            timeouts: self.board.timeouts,
            nothing_queued: false,
        };
        self.flow.on_rto(&self.p, now, &rto, &mut self.rand);
        self.board.timeouts += 1;
        self.board.packets_out = 0;
    }
    fn undo(&mut self, now: Instant) {
        self.ctl.on_spurious_congestion(now);
        self.empty_ack(now, &[], true);
    }
    fn next_departure_ns(&self) -> u64 {
        self.ctl.flow().next_departure_ns()
    }
    fn assert_same(&self) {
        assert_eq!(self.ctl.flow(), &self.flow);
        assert_eq!(self.ctl.in_flight(), u64::from(self.board.packets_out));
        assert_eq!(
            self.ctl.sequence(),
            (self.board.snd_una, self.board.snd_nxt)
        );
        assert_eq!(self.ctl.is_cwnd_limited(), self.board.cwnd_limited);
    }
}

/// A one-way path: each segment's ACK arrives one RTT after it left, no earlier than
/// 100 µs after the previous ACK (the bottleneck), in order; a dropped segment's ACK
/// never comes.
struct Path<'a, T: Twin> {
    twin: &'a mut T,
    now: Instant,
    next_seq: u32,
    last_arrival_us: u64,
    /// Outstanding: (arrival µs or None if dropped, seq, what the stack kept).
    pending: VecDeque<(Option<u64>, u32, Kept)>,
    acks: u32,
}

impl<'a, T: Twin> Path<'a, T> {
    fn new(twin: &'a mut T) -> Self {
        Path {
            twin,
            now: Instant::from_micros(T0_US),
            next_seq: 0,
            last_arrival_us: 0,
            pending: VecDeque::new(),
            acks: 0,
        }
    }

    /// Runs the ACK clock until `acks` more ACKs were processed: the stack sends
    /// whenever cwnd allows, no earlier than the flow's next departure time (it paces),
    /// and every segment numbered in `drop` is lost on the way.
    fn run(&mut self, acks: u32, drop: &[u32]) {
        let goal = self.acks + acks;
        while self.acks < goal {
            let ctl = self.twin.controller();
            let can_send = ctl.flight() < ctl.window();
            let departure_us = self.twin.next_departure_ns().div_ceil(1000);
            let send_at = self.now.as_micros().max(departure_us);
            let next_arrival = self.pending.iter().find_map(|(a, _, _)| *a);
            if can_send && next_arrival.is_none_or(|a| send_at <= a) {
                self.now = Instant::from_micros(send_at);
                let seq = self.next_seq;
                self.next_seq += 1;
                let kept = self.twin.send(self.now, seq);
                assert_eq!(kept.sent.departure_ns, self.now.as_nanos(), "a paced send");
                self.twin.assert_same();
                let arrival =
                    (send_at + RTT_US).max(self.last_arrival_us + BOTTLENECK_US_PER_SEGMENT);
                let arrival = if drop.contains(&seq) {
                    None
                } else {
                    self.last_arrival_us = arrival;
                    Some(arrival)
                };
                self.pending.push_back((arrival, seq, kept));
            } else {
                let idx = self
                    .pending
                    .iter()
                    .position(|(a, _, _)| a.is_some())
                    .expect("something outstanding");
                let Some((Some(at), seq, kept)) = self.pending.remove(idx) else {
                    unreachable!()
                };
                self.now = Instant::from_micros(at);
                self.twin.ack(self.now, seq, &kept);
                self.twin.assert_same();
                self.acks += 1;
            }
        }
    }

    /// The stack declares the dropped segment `seq` lost (three later ones were
    /// acknowledged).
    fn declare_lost(&mut self, seq: u32) {
        let idx = self
            .pending
            .iter()
            .position(|(a, s, _)| *s == seq && a.is_none())
            .expect("a dropped segment");
        let (_, _, kept) = self.pending.remove(idx).unwrap();
        self.twin.lose(self.now, seq, &kept);
        self.twin.assert_same();
    }

    /// The path goes dark: every outstanding segment is dropped, and after `after_us`
    /// the retransmission timer fires.
    fn blackout_then_rto(&mut self, after_us: u64) {
        self.pending.clear();
        self.now = Instant::from_micros(self.now.as_micros() + after_us);
        self.last_arrival_us = self.now.as_micros();
        self.twin.rto(self.now);
        self.twin.assert_same();
    }
}

fn bbr_config() -> BbrConfig {
    let mut c = BbrConfig::new();
    c.initial_rtt_us = RTT_US as u32; // the handshake measured 10 ms
    c
}

#[test]
fn bbr_through_the_trait_matches_the_kernel_style_calls_through_loss_undo_and_rto() {
    let mut twin = BbrTwin::new(bbr_config(), Instant::from_micros(T0_US));
    // bbr_init_pacing_rate_from_rtt(): 10 segments · 1448 B per 10 ms at 739/256, less
    // 1 %: bw 10·2^24/10,000 = 16777; 16777·1448·739 >> 8 = 70,127,335;
    // ·990,000 >> 24 = 4,138,115 bytes/s.
    assert_eq!(
        (
            twin.ctl.cwnd(),
            twin.ctl.pacing_rate().as_bytes_per_second()
        ),
        (10, 4_138_115)
    );
    let mut path = Path::new(&mut twin);

    // The first ACK (segment 0, sent at t0 with the initial window, back at t0 + 10 ms):
    // 1 segment over the ACK phase of 10,000 µs: bw = 2^24 / 10,000 = 1677 (taken even
    // though app-limited: the filter is empty). STARTUP grows cwnd by the 1 delivered: 11.
    // The rate from 1677 (1677 · 1448 · 739 >> 8 = 7,009,807; · 990,000 >> 24 = 413,638 B/s)
    // is below the initial one, which STARTUP
    // keeps.
    path.run(1, &[]);
    let ctl = &path.twin.ctl;
    assert_eq!((ctl.flow().bw(), ctl.cwnd()), (1677, 11));
    assert_eq!(ctl.pacing_rate().as_bytes_per_second(), 4_138_115);
    assert_eq!(ctl.phase(), Phase::SlowStart);

    // An ACK clock of 60 more ACKs; segment 40 is dropped on the way.
    path.run(60, &[40]);
    let ctl = &path.twin.ctl;
    let (cwnd_before, in_flight_before) = (ctl.cwnd(), ctl.in_flight());
    assert!(
        ctl.flow().bw() > 1677,
        "the ACK clock measured a higher rate"
    );

    // The loss: an ACK that marks it and delivers nothing. The glue enters Recovery
    // (lost_out > 0 in Open) and bbr_ssthresh() saves cwnd as prior_cwnd; bbr_set_cwnd()
    // returns at once on an ACK that acknowledged nothing ("if (!acked) goto done"), so
    // cwnd is unchanged until the next ACK.
    path.declare_lost(40);
    let ctl = &path.twin.ctl;
    assert_eq!(ctl.phase(), Phase::Recovery);
    assert_eq!(
        (ctl.cwnd(), ctl.in_flight()),
        (cwnd_before, in_flight_before - 1)
    );
    assert_eq!(ctl.flow().bbr().prior_cwnd, cwnd_before as u32);
    // The next ACK (1 segment; the stack sent up to cwnd before it):
    // bbr_set_cwnd_to_recover_or_restore() sees Recovery begin: packet conservation,
    // cwnd = packets in flight after the ACK + 1 acknowledged.
    path.run(1, &[]);
    let ctl = &path.twin.ctl;
    let conserved = ctl.cwnd();
    assert_eq!(conserved, ctl.in_flight() + 1);
    assert!(conserved < cwnd_before);
    assert!(ctl.flow().bbr().packet_conservation());

    // The stack finds the retransmission spurious: undo (Recovery → Open at once; cwnd
    // is left as it is by bbr_undo_cwnd()). At the next ACK, Recovery → Open restores
    // cwnd = max(cwnd, prior_cwnd) = cwnd_before, ends packet conservation, and STARTUP
    // (below its target of 2.89 BDP) adds the 1 acknowledged.
    let now = path.now;
    path.twin.undo(now);
    path.twin.assert_same();
    let ctl = &path.twin.ctl;
    assert_eq!(
        (ctl.flow().ca_state(), ctl.cwnd()),
        (CaState::Open, conserved)
    );
    path.run(1, &[]);
    let ctl = &path.twin.ctl;
    assert_eq!(ctl.cwnd(), cwnd_before + 1);
    assert!(!ctl.flow().bbr().packet_conservation());

    // More ACK clock, then the path goes dark for 1 s: RTO. tcp_enter_loss(): cwnd =
    // in flight (0, all lost) + 1; bbr_save_cwnd() keeps the cwnd before.
    path.run(40, &[]);
    let cwnd_before_rto = path.twin.ctl.cwnd();
    path.blackout_then_rto(1_000_000);
    let ctl = &path.twin.ctl;
    assert_eq!(
        (ctl.cwnd(), ctl.in_flight(), ctl.phase()),
        (1, 0, Phase::SlowStart)
    );
    assert_eq!(ctl.flow().ca_state(), CaState::Loss);
    assert_eq!(ctl.flow().bbr().prior_cwnd, cwnd_before_rto as u32);

    // The retransmission (a new segment number, sent after the timeout) and its ACK:
    // snd_una passes the recovery point, Loss ends, and Loss → Open restores
    // cwnd = max(1, prior_cwnd), plus the 1 acknowledged (STARTUP, below its target).
    path.run(1, &[]);
    let ctl = &path.twin.ctl;
    assert_eq!(ctl.flow().ca_state(), CaState::Open);
    assert_eq!(ctl.cwnd(), cwnd_before_rto + 1);
    path.run(100, &[]);
    assert!(path.twin.ctl.pacing_rate().as_bytes_per_second() > 0);
}

#[test]
fn bbr3_through_the_trait_matches_the_kernel_style_calls_through_loss_undo_and_rto() {
    let mut c = Bbr3Config::new();
    c.initial_rtt_us = RTT_US as u32;
    let mut twin = Bbr3Twin::new(c, Instant::from_micros(T0_US));
    assert_eq!(twin.ctl.cwnd(), 10);
    let mut path = Path::new(&mut twin);
    path.run(1, &[]);
    // As for v1: one segment over 10,000 µs, cwnd 10 + 1.
    assert_eq!(path.twin.ctl.cwnd(), 11);
    path.run(60, &[40, 45]);
    let ctl = &path.twin.ctl;
    let in_flight_before = ctl.in_flight();
    path.declare_lost(40);
    path.declare_lost(45);
    let ctl = &path.twin.ctl;
    assert_eq!(ctl.phase(), Phase::Recovery);
    assert_eq!(ctl.in_flight(), in_flight_before - 2);
    let now = path.now;
    path.twin.undo(now);
    path.twin.assert_same();
    assert_eq!(path.twin.ctl.flow().ca_state(), CaState::Open);
    path.run(40, &[]);
    path.blackout_then_rto(1_000_000);
    let ctl = &path.twin.ctl;
    assert_eq!(
        (ctl.cwnd(), ctl.in_flight(), ctl.phase()),
        (1, 0, Phase::SlowStart)
    );
    path.run(150, &[]);
    assert_eq!(path.twin.ctl.flow().ca_state(), CaState::Open);
}

#[test]
fn without_snapshots_bbr_gets_no_sample_and_keeps_its_initial_rate() {
    // The stated fallback: plain on_sent/on_ack give BBR no delivery-rate sample.
    let t0 = Instant::from_micros(T0_US);
    let mut flow = BbrController::new(bbr_config(), t0, rand()).unwrap();
    for seq in 0..10u64 {
        flow.on_sent(t0, &SentEvent::new(seq + 1, seq));
    }
    for seq in 0..10u64 {
        let now = Instant::from_micros(T0_US + RTT_US + seq * 100);
        let ack = AckEvent::new(1, seq, Some(Duration::from_micros(RTT_US + seq * 100)));
        flow.on_ack(now, &ack);
        flow.on_sent(now, &SentEvent::new(flow.in_flight() + 1, 10 + seq));
    }
    assert_eq!(flow.flow().bw(), 0);
    assert_eq!(flow.pacing_rate().as_bytes_per_second(), 4_138_115);
    // cwnd grew while fewer than 10 were delivered (tp->delivered < TCP_INIT_CWND): 10 + 9
    // = 19; the tenth finds delivered = 10 and cwnd above the target (the quantization
    // budget 3 · 2 = 6 on a zero bandwidth), so it holds.
    assert_eq!(flow.cwnd(), 19);
}

#[test]
fn a_long_bbr_transfer_through_the_trait_leaves_startup_and_paces_near_the_bottleneck() {
    let mut twin = BbrTwin::new(bbr_config(), Instant::from_micros(T0_US));
    let mut path = Path::new(&mut twin);
    path.run(2_000, &[]);
    let ctl = &path.twin.ctl;
    // The bottleneck: 1 segment per 100 µs = 2^24 / 100 = 167,772 in BBR's unit.
    assert_eq!(ctl.flow().bw(), 167_772);
    assert_eq!(ctl.flow().mode(), congestion::linux::bbr::BbrMode::ProbeBw);
    // In PROBE_BW the rate is bw · gain (5/4, 3/4 or 1) · mss less 1 %: at gain 1,
    // 167,772 · 1448 · 256 >> 8 = 242,933,856; · 990,000 >> 24 = 14,335,186 B/s.
    let gain = u64::from(ctl.flow().bbr().pacing_gain);
    let expected = (((167_772u64 * 1448 * gain) >> 8) * 990_000) >> 24;
    assert_eq!(ctl.pacing_rate().as_bytes_per_second(), expected);
    assert_eq!(ctl.phase(), Phase::CongestionAvoidance);
}

#[test]
fn bbr3_takes_the_ce_count_of_an_ack_as_its_ecn_echo() {
    // BBRv3 with ECN negotiated: an ACK whose CE count rose carries ECN-Echo. From Open
    // the glue enters CWR (tcp_enter_cwr), and the ACK's 2 deliveries count as CE
    // (delivered_ce += 2), as the inherent call with `ece: true` does.
    let mut c = Bbr3Config::new();
    c.initial_rtt_us = RTT_US as u32;
    c.ecn = true;
    let t0 = Instant::from_micros(T0_US);
    let p = c.validate().unwrap();
    let mut ctl = Bbr3Controller::with_params(p, t0, rand());
    let mut r = rand();
    let mut flow = Bbr3::new(&p, t0, &mut r);
    let mut kept = Vec::new();
    for seq in 0..10u32 {
        let snapshot = ctl.on_packet_sent(t0, &SentEvent::new(u64::from(seq) + 1, u64::from(seq)));
        let flight = Flight {
            packets_out: seq,
            ..Flight::default()
        };
        kept.push((snapshot, flow.on_send(&p, t0, flight, &mut r)));
    }
    let t1 = Instant::from_micros(T0_US + RTT_US);
    let ack = AckEvent::new(2, 1, Some(Duration::from_micros(RTT_US))).with_ce(1);
    ctl.on_ack_sampled(t1, &ack, &AckedPacket::new(t0, kept[1].0));
    assert_eq!(ctl.flow().ca_state(), CaState::Cwr);
    assert_eq!(ctl.phase(), Phase::Recovery);

    let mut delivered = [DeliveredSegment {
        sent: kept[1].1,
        end_seq: 2,
        retransmitted: false,
        sacked: false,
    }];
    let prior = Flight {
        packets_out: 10,
        ..Flight::default()
    };
    let mut inherent = Bbr3Ack {
        snd_una: 2,
        snd_nxt: 10,
        delivered: &mut delivered,
        delivered_count: 2,
        newly_lost: &[],
        rtt_us: Some(RTT_US as u32),
        srtt_us: RTT_US as u32,
        ack_maybe_delayed: false,
        ece: true,
        nothing_queued: false,
        is_cwnd_limited: true,
        prior_flight: prior,
        flight: Flight {
            packets_out: 8,
            ..Flight::default()
        },
        undo: false,
    };
    flow.on_ack(&p, t1, &mut inherent, &mut r);
    assert_eq!(ctl.flow(), &flow);
    let (delivered, delivered_ce, _, _) = ctl.flow().delivery_counters();
    assert_eq!((delivered, delivered_ce), (2, 2));
}
