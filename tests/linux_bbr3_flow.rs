//! `congestion::linux::Bbr3`, the BBRv3 flow a TCP stack drives, against the kernel's
//! traces: a stack-side scoreboard here (what a stack keeps per segment: the departure
//! time and snapshot `Bbr3::on_send` returns, and its SACK/LOST/RETRANS bits, plus its
//! own `tcp_cwnd_validate()` round) feeds the flow each trace's events, and every
//! row's cwnd, pacing rate, CA state, BBR model and sampler columns must match.

mod replay;

use congestion::Instant;
use congestion::hystart::PacingStatus;
use congestion::linux::bbr::{DeliveredSegment, Flight, Sent};
use congestion::linux::bbr3::{Bbr3Ack, Bbr3Rto, FastPath};
use congestion::linux::tcp::{RateSample, ReplayedRandom, TxSnapshot};
use congestion::linux::{Bbr3, Bbr3Config, Bbr3Params, CaState};
use congestion_replay::{Event, parse};
use std::collections::BTreeMap;

const FOLDER: &str = "linux-bbr3";

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

/// A stack: its scoreboard, counters, RTT estimator and cwnd-use round around a `Bbr3`.
struct Stack {
    config: Bbr3Config,
    params: Bbr3Params,
    flow: Option<Bbr3>,
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
    /// The last ACK's sample and fast-path decision (zero for other events).
    rs: RateSample,
    fast_path: FastPath,
}

fn range(word: &str) -> (u32, u32) {
    match word.split_once('-') {
        Some((a, b)) => (a.parse().unwrap(), b.parse().unwrap()),
        None => {
            let a: u32 = word.parse().unwrap();
            (a, a + 1)
        }
    }
}

impl Stack {
    fn new() -> Self {
        Stack {
            config: Bbr3Config::new(),
            params: Bbr3Params::DEFAULT,
            flow: None,
            segs: BTreeMap::new(),
            snd_una: 0,
            snd_nxt: 0,
            flight: Flight::default(),
            srtt8: 0,
            timeouts: 0,
            is_cwnd_limited: false,
            max_packets_out: 0,
            cwnd_usage_seq: 0,
            rand: ReplayedRandom::new(),
            rs: RateSample::default(),
            fast_path: FastPath::NotTaken,
        }
    }

    fn flow(&mut self) -> &mut Bbr3 {
        self.flow.as_mut().expect("init first")
    }

    fn set(&mut self, ev: &Event<'_>) {
        let value: u64 = ev.int(1).unwrap();
        let c = &mut self.config;
        match ev.arg(0).unwrap() {
            "mss" => c.mss = value as u32,
            "syn_rtt_us" => c.initial_rtt_us = value as u32,
            "pacing_status" => {
                c.pacing_status =
                    [PacingStatus::None, PacingStatus::Needed, PacingStatus::Fq][value as usize]
            }
            "ecn" => {
                c.ecn = value & 1 != 0;
                c.ecn_low = value & 2 != 0;
            }
            other => panic!("the flow test has no stack setting for `{other}`"),
        }
    }

    fn transmit(&mut self, now: Instant) -> Sent {
        let (p, flight) = (self.params, self.flight);
        let mut rand = self.rand;
        let sent = self.flow().on_send(&p, now, flight, &mut rand);
        self.rand = rand;
        sent
    }

    fn send(&mut self, now: Instant, ev: &Event<'_>) {
        let n: u32 = ev.int(1).unwrap();
        if ev.arg(2) == Some("al") {
            let (p, flight) = (self.params, self.flight);
            self.flow().on_app_limited(&p, now, flight, true);
        }
        for _ in 0..n {
            let sent = self.transmit(now);
            self.segs.insert(self.snd_nxt, Seg { sent, bits: 0 });
            self.snd_nxt += 1;
            self.flight.packets_out += 1;
        }
        // tcp_cwnd_validate()
        let lim = self.flight.in_flight() >= self.flow().cwnd();
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

    fn rtx(&mut self, now: Instant, ev: &Event<'_>) {
        for word in ev.words().skip(1) {
            let (a, b) = range(word);
            for seq in a..b {
                let sent = self.transmit(now);
                let seg = self.segs.get_mut(&seq).expect("outstanding");
                seg.sent = sent;
                seg.bits |= RETRANS | EVER_RETRANS;
                self.flight.retrans_out += 1;
            }
        }
    }

    /// tcp_mark_skb_lost(): the snapshot if `tp->lost` grows.
    fn mark_lost(&mut self, seq: u32) -> Option<TxSnapshot> {
        let seg = self.segs.get_mut(&seq).expect("outstanding");
        if seg.bits & ACKED != 0 {
            return None;
        }
        if seg.bits & LOST != 0 {
            if seg.bits & RETRANS != 0 {
                seg.bits &= !RETRANS;
                self.flight.retrans_out -= 1;
                return Some(seg.sent.snapshot);
            }
            return None;
        }
        seg.bits |= LOST;
        self.flight.lost_out += 1;
        Some(seg.sent.snapshot)
    }

    fn ack(&mut self, now: Instant, ev: &Event<'_>) {
        let cum: u32 = ev.int(1).unwrap();
        let rtt: i64 = ev.int(2).unwrap();
        let words: Vec<&str> = ev.words().skip(3).collect();
        let prior_flight = self.flight;
        let mut delivered = Vec::new();
        let mut sacked_seqs = Vec::new();
        if prior_flight.packets_out > 0 {
            for block in words.iter().filter_map(|w| w.strip_prefix("sack=")) {
                let (a, b) = range(block);
                for seq in a.max(cum)..b.min(self.snd_nxt) {
                    let seg = self.segs.get_mut(&seq).expect("outstanding");
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
            }
            if cum > self.snd_una {
                self.timeouts = 0;
            }
            for seq in self.snd_una..cum {
                let seg = self.segs.remove(&seq).expect("outstanding");
                if seg.bits & RETRANS != 0 {
                    self.flight.retrans_out -= 1;
                }
                if seg.bits & ACKED != 0 {
                    self.flight.sacked_out -= 1;
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
        }
        // The model's srtt rule (the README's ack step 4).
        let rtt_us = u32::try_from(rtt)
            .ok()
            .filter(|_| prior_flight.packets_out > 0);
        if let Some(m) = rtt_us {
            self.srtt8 = if self.srtt8 == 0 {
                m << 3
            } else {
                self.srtt8.wrapping_add(m.wrapping_sub(self.srtt8 >> 3))
            }
            .max(1);
        }
        let flow = self.flow.as_ref().expect("init first");
        let undo = words.contains(&"undo") && flow.recovery().1 && prior_flight.packets_out > 0;
        if undo && flow.ca_state() == CaState::Loss {
            for seg in self.segs.values_mut() {
                seg.bits &= !LOST;
            }
            self.flight.lost_out = 0;
        }
        let mut newly_lost = Vec::new();
        if prior_flight.packets_out > 0 {
            for block in words.iter().filter_map(|w| w.strip_prefix("lost=")) {
                let (a, b) = range(block);
                for seq in a.max(self.snd_una)..b.min(self.snd_nxt) {
                    newly_lost.extend(self.mark_lost(seq));
                }
            }
        }
        let count = delivered.len() as u32;
        let mut ack = Bbr3Ack {
            snd_una: self.snd_una,
            snd_nxt: self.snd_nxt,
            delivered: &mut delivered,
            delivered_count: count,
            newly_lost: &newly_lost,
            rtt_us,
            srtt_us: self.srtt8 >> 3,
            ack_maybe_delayed: words.contains(&"delayed"),
            ece: words.contains(&"ece"),
            nothing_queued: words.contains(&"al"),
            is_cwnd_limited: self.is_cwnd_limited,
            prior_flight,
            flight: self.flight,
            undo,
        };
        let (p, mut rand) = (self.params, self.rand);
        (self.rs, self.fast_path) = self.flow().on_ack(&p, now, &mut ack, &mut rand);
        self.rand = rand;
        // The flow spent the SACKed segments' snapshots: keep them so.
        for (seg, seq) in delivered.iter().zip(&sacked_seqs) {
            self.segs.get_mut(seq).expect("outstanding").sent = seg.sent;
        }
    }

    fn rto(&mut self, now: Instant, ev: &Event<'_>) {
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
            nothing_queued: ev.arg(1) == Some("al"),
        };
        let (p, mut rand) = (self.params, self.rand);
        self.flow().on_rto(&p, now, &rto, &mut rand);
        self.rand = rand;
        self.timeouts += 1;
    }

    fn event(&mut self, ev: &Event<'_>) {
        self.rs = RateSample::default();
        self.fast_path = FastPath::NotTaken;
        match ev.keyword {
            "set" => return self.set(ev),
            "rand" => {
                for v in ev.words() {
                    assert!(self.rand.push(v.parse().unwrap()));
                }
                return;
            }
            _ => {}
        }
        let now = Instant::from_micros(ev.time().unwrap());
        match ev.keyword {
            "init" => {
                let rand = self.rand;
                let config = self.config;
                *self = Stack::new();
                (self.config, self.rand) = (config, rand);
                self.params = config.validate().expect("config");
                self.srtt8 = config.initial_rtt_us << 3;
                let mut rand = self.rand;
                self.flow = Some(Bbr3::new(&self.params, now, &mut rand));
                self.rand = rand;
            }
            "send" => self.send(now, ev),
            "rtx" => self.rtx(now, ev),
            "ack" => self.ack(now, ev),
            "rto" => self.rto(now, ev),
            other => panic!("unknown event {other}"),
        }
    }

    /// The columns the flow exposes, by the traces' names.
    fn cells(&self) -> Vec<(&'static str, String)> {
        let f = self.flow.as_ref().expect("init first");
        let b = f.bbr();
        let (delivered, delivered_ce, lost, app_limited) = f.delivery_counters();
        let (first_tx, delivered_mstamp) = f.sampler_stamps();
        let (high_seq, undo_marker, prior_ssthresh) = f.recovery();
        let rs = &self.rs;
        let v = |x: u64| x.to_string();
        vec![
            ("cwnd", v(f.cwnd().into())),
            ("ssthresh", v(f.ssthresh().into())),
            ("pacing_rate", v(f.pacing_rate())),
            ("ca_state", v(f.ca_state() as u64)),
            ("mode", v(f.mode() as u64)),
            ("cycle_idx", v(b.cycle_idx as u64)),
            ("bw", v(f.bw().into())),
            ("bw_hi_0", v(b.bw_hi[0].into())),
            ("bw_hi_1", v(b.bw_hi[1].into())),
            ("bw_lo", v(b.bw_lo.into())),
            ("bw_latest", v(b.bw_latest.into())),
            ("inflight_hi", v(b.inflight_hi.into())),
            ("inflight_lo", v(b.inflight_lo.into())),
            ("inflight_latest", v(b.inflight_latest.into())),
            ("min_rtt_us", v(b.min_rtt_us.into())),
            ("probe_rtt_min_us", v(b.probe_rtt_min_us.into())),
            ("full_bw_reached", v(b.full_bw_reached().into())),
            ("full_bw", v(b.full_bw.into())),
            ("rounds_since_probe", v(b.rounds_since_probe.into())),
            ("probe_wait_us", v(b.probe_wait_us.into())),
            ("cycle_mstamp", v(b.cycle_mstamp)),
            ("bw_probe_up_cnt", v(b.bw_probe_up_cnt.into())),
            ("ack_phase", v(b.ack_phase as u64)),
            ("loss_events_in_round", v(b.loss_events_in_round.into())),
            ("ecn_eligible", v(b.ecn_eligible().into())),
            ("ecn_alpha", v(b.ecn_alpha.into())),
            ("prior_cwnd", v(b.prior_cwnd.into())),
            ("prev_ca_state", v(b.prev_ca_state as u64)),
            ("try_fast_path", v(b.try_fast_path().into())),
            ("extra_acked_0", v(b.extra_acked[0].into())),
            ("extra_acked_1", v(b.extra_acked[1].into())),
            ("tso_segs_goal", v(f.tso_segs_goal(&self.params).into())),
            ("rs_delivered", rs.delivered.to_string()),
            ("rs_interval_us", rs.interval_us.to_string()),
            ("rs_acked_sacked", v(rs.acked_sacked.into())),
            ("rs_losses", rs.losses.to_string()),
            ("rs_lost", rs.lost.to_string()),
            ("rs_tx_in_flight", v(rs.tx_in_flight.into())),
            ("rs_delivered_ce", rs.delivered_ce.to_string()),
            ("rs_is_ece", v(rs.is_ece.into())),
            ("rs_is_app_limited", v(rs.is_app_limited.into())),
            ("rs_prior_in_flight", v(rs.prior_in_flight.into())),
            ("rs_prior_delivered", v(rs.prior_delivered.into())),
            ("rs_is_retrans", v(rs.is_retrans.into())),
            ("packets_out", v(self.flight.packets_out.into())),
            ("in_flight", v(self.flight.in_flight().into())),
            ("delivered", v(delivered.into())),
            ("delivered_ce", v(delivered_ce.into())),
            ("lost", v(lost.into())),
            ("app_limited", v(app_limited.into())),
            ("first_tx_mstamp", v(first_tx)),
            ("delivered_mstamp", v(delivered_mstamp)),
            ("tcp_min_rtt", v(f.tcp_min_rtt().into())),
            ("wstamp_ns", v(f.next_departure_ns())),
            ("high_seq", v(high_seq.into())),
            ("undo_marker", v(undo_marker.into())),
            ("prior_ssthresh", v(prior_ssthresh.into())),
            ("is_cwnd_limited", v(self.is_cwnd_limited.into())),
            ("fast_path", v(self.fast_path as u64)),
        ]
    }
}

/// Drives `name` through a `Stack` and returns the first mismatch, if any.
fn check(name: &str) -> Option<String> {
    let events = replay::events(FOLDER, name);
    let want = replay::expected_csv(FOLDER, name);
    let mut rows = want.lines();
    let header: Vec<&str> = rows.next().unwrap().split(',').collect();
    let mut stack = Stack::new();
    for ((_, ev), row) in parse(&events).zip(rows) {
        let ev = ev.unwrap();
        stack.event(&ev);
        if stack.flow.is_none() {
            continue;
        }
        let cells: Vec<&str> = row.split(',').collect();
        for (col, got) in stack.cells() {
            let i = header.iter().position(|h| *h == col).unwrap();
            if cells[i] != got {
                return Some(format!(
                    "{name} row {}: {col} got {got}, want {}",
                    cells[0], cells[i]
                ));
            }
        }
    }
    None
}

#[test]
fn the_flow_a_stack_drives_matches_all_24_kernel_traces_row_by_row() {
    let names = replay::trace_names(FOLDER);
    assert_eq!(names.len(), 24);
    let failures: Vec<String> = names.iter().filter_map(|n| check(n)).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn an_ack_with_nothing_outstanding_only_checks_for_an_app_limited_bubble() {
    // tcp_ack(): the per-ACK app-limited check, then no_queue: no congestion control.
    let p = Bbr3Params::DEFAULT;
    let mut rand = ReplayedRandom::<1>::new();
    let mut flow = Bbr3::new(&p, Instant::from_micros(1_000), &mut rand);
    let before = flow;
    let mut ack = Bbr3Ack {
        snd_una: 0,
        snd_nxt: 0,
        delivered: &mut [],
        delivered_count: 0,
        newly_lost: &[],
        rtt_us: Some(10),
        srtt_us: 10,
        ack_maybe_delayed: false,
        ece: false,
        nothing_queued: false,
        is_cwnd_limited: false,
        prior_flight: Flight::default(),
        flight: Flight::default(),
        undo: false,
    };
    let (rs, fast) = flow.on_ack(&p, Instant::from_micros(2_000), &mut ack, &mut rand);
    assert_eq!(flow, before);
    assert_eq!((rs, fast), (RateSample::default(), FastPath::NotTaken));
    // With nothing queued, the check marks the bubble: delivered 0 + in flight 0 = 0,
    // so app_limited becomes 1.
    ack.nothing_queued = true;
    flow.on_ack(&p, Instant::from_micros(3_000), &mut ack, &mut rand);
    assert_eq!(flow.delivery_counters().3, 1);
}

#[test]
fn a_flow_fits_in_256_bytes() {
    assert!(core::mem::size_of::<Bbr3>() <= 256);
}
