//! `rfc::Bbr3` (draft-ietf-ccwg-bbr-06) against hand-worked scenarios, with the
//! arithmetic in the comments, and invariants under arbitrary event sequences.
//!
//! Units: SMSS is 1,000 bytes so that volumes read as packets × 1,000; bandwidth is
//! bytes per µs × 2^16 (65,536 = 1 byte/µs = 8 Mbit/s); gains are /256.
//!
//! The lock-step path used by most scenarios: each round, the test sends a flight at
//! time t and the whole flight is acknowledged by one ACK at t + 10 ms with an RTT
//! sample of 10 ms. With nothing in flight at each send, the sampler starts each
//! flight's interval at its send time (§4.1.2.2), so a flight of n packets gives the
//! sample n × 1,000 bytes / 10,000 µs, i.e. `n * 1000 * 65536 / 10000` rounded up.

use congestion::Instant;
use congestion::linux::tcp::{RandomSource, TxSnapshot};
use congestion::rfc::bbr3::State;
use congestion::rfc::{Bbr3, Bbr3Ack, Bbr3Config, Bbr3Params};

const SMSS: u32 = 1000;
const RTT_US: u64 = 10_000;

/// Draws from a script, then 0.
struct Script(Vec<u32>);

impl RandomSource for Script {
    fn below(&mut self, ceil: u32) -> u32 {
        if self.0.is_empty() {
            0
        } else {
            self.0.remove(0) % ceil.max(1)
        }
    }
}

struct Sent {
    pn: u64,
    tx: TxSnapshot,
    at: Instant,
    bytes: u32,
}

struct Harness {
    p: Bbr3Params,
    f: Bbr3,
    now_us: u64,
    next_pn: u64,
    out: Vec<Sent>,
    rand: Script,
    ce: u64,
}

impl Harness {
    fn new(config: Bbr3Config) -> Self {
        let p = config.validate().expect("valid config");
        let f = Bbr3::new(&p, Instant::ZERO);
        f.invariants(&p).expect("fresh flow");
        Harness {
            p,
            f,
            now_us: 0,
            next_pn: 0,
            out: Vec::new(),
            rand: Script(Vec::new()),
            ce: 0,
        }
    }

    fn quic() -> Self {
        // Initial window 10 packets.
        Self::new(Bbr3Config::quic(SMSS))
    }

    fn now(&self) -> Instant {
        Instant::from_micros(self.now_us)
    }

    /// Sends `n` packets now; returns their packet numbers.
    fn send(&mut self, n: u64) -> core::ops::Range<u64> {
        let first = self.next_pn;
        for _ in 0..n {
            let pn = self.next_pn;
            self.next_pn += 1;
            let tx = self.f.on_packet_sent(self.now(), pn, SMSS, &mut self.rand);
            self.out.push(Sent {
                pn,
                tx,
                at: self.now(),
                bytes: SMSS,
            });
        }
        first..self.next_pn
    }

    fn take(&mut self, pn: u64) -> Sent {
        let i = self
            .out
            .iter()
            .position(|s| s.pn == pn)
            .expect("outstanding");
        self.out.remove(i)
    }

    /// One ACK frame now: `acked` newly acknowledged, `lost` declared lost, `ce_new`
    /// more CE marks, RTT sample 10 ms.
    fn ack(&mut self, acked: &[u64], lost: &[u64], ce_new: u64, cwnd_limited: bool) {
        for &pn in acked {
            let mut s = self.take(pn);
            self.f.on_packet_acked(&mut s.tx, s.at, s.pn, s.bytes);
        }
        for &pn in lost {
            let s = self.take(pn);
            let now = self.now();
            self.f
                .on_packet_lost(&self.p, now, &s.tx, s.pn, s.bytes, &mut self.rand);
        }
        self.ce += ce_new;
        let mut ack = Bbr3Ack::with_rtt_us(RTT_US);
        ack.ecn_ce_count = self.ce;
        ack.is_cwnd_limited = cwnd_limited;
        let now = self.now();
        self.f.on_ack(&self.p, now, &ack, &mut self.rand);
        self.f.invariants(&self.p).expect("invariants");
        assert!(self.f.cwnd() >= self.p.min_pipe_cwnd());
    }

    /// One lock-step round: `n` packets now, all acknowledged 10 ms later.
    fn round(&mut self, n: u64) {
        let pns: Vec<u64> = self.send(n).collect();
        self.now_us += RTT_US;
        self.ack(&pns, &[], 0, false);
    }
}

/// 10 packets per 10 ms: 10,000 × 65,536 / 10,000 = 65,536 (1 byte/µs).
const BW_10: u32 = 65_536;

#[test]
fn startup_exits_on_a_bandwidth_plateau_through_drain_into_probe_bw_down() {
    let mut h = Harness::quic();
    assert_eq!(h.f.state(), State::Startup);
    assert_eq!(h.f.gains(), (710, 512)); // 2.77 (277/100 × 256 + 1) and 2.0
    // Round 1: rate 65,536 ≥ 1.25 × full_bw (0): a new baseline, full_bw = 65,536.
    h.round(10);
    assert_eq!(h.f.max_bw(), BW_10);
    assert_eq!(h.f.round_count(), 1);
    // Rounds 2 and 3: 65,536 < 1.25 × 65,536 = 81,920: full_bw_count 1, then 2.
    h.round(10);
    h.round(10);
    assert_eq!(h.f.state(), State::Startup);
    // Round 4 with 30 packets more still in flight when its ACK arrives: the count
    // reaches 3, the pipe is full: Drain (pacing gain 0.5 = 128). The BDP is
    // ceil(65,536 × 10,000 / 65,536) = 10,000 bytes and 30,000 are in flight, so
    // Drain holds.
    let flight: Vec<u64> = h.send(10).collect();
    h.now_us += RTT_US / 2;
    let queue: Vec<u64> = h.send(30).collect();
    h.now_us += RTT_US / 2;
    h.ack(&flight, &[], 0, false);
    assert!(h.f.full_bw_reached());
    assert_eq!(h.f.state(), State::Drain);
    assert_eq!(h.f.gains(), (128, 512));
    assert_eq!(h.f.bytes_in_flight(), 30_000);
    // The queue's ACK leaves 0 ≤ 10,000 in flight: CheckDrainDone enters ProbeBW_DOWN,
    // and UpdateProbeBWCyclePhase, later in the same ACK (§5.2.3), finds 0 in flight
    // within InflightWithHeadroom (Infinity) and Inflight(max_bw, 1.0) = 10,000:
    // CRUISE at once (pacing 1.0).
    h.now_us += RTT_US;
    h.ack(&queue, &[], 0, false);
    assert_eq!(h.f.state(), State::ProbeBwCruise);
    assert_eq!(h.f.gains(), (256, 512));
}

#[test]
fn drain_ends_after_three_rounds_with_a_standing_queue_and_down_holds_until_it_drains() {
    let mut h = Harness::quic();
    for _ in 0..3 {
        h.round(10);
    }
    // As the plateau test: round 4 ends Startup (t = 40 ms, round 4) with 30 packets
    // queued behind the flight: Drain, drain_start_round = 4.
    let flight: Vec<u64> = h.send(10).collect();
    h.now_us += RTT_US / 2;
    h.send(30);
    h.now_us += RTT_US / 2;
    h.ack(&flight, &[], 0, false);
    assert_eq!((h.f.state(), h.f.round_count()), (State::Drain, 4));
    // A standing queue: every 10 ms the oldest 10 of 40 outstanding packets are
    // acknowledged and 10 new ones sent, so each ACK leaves 30,000 > BDP 10,000. A round ends only
    // when a packet sent after the previous round's end is acknowledged: the packets
    // sent at 40 ms (P.delivered 40,000) are acknowledged at 80 ms (round 5), those
    // sent at 80 ms at 120 ms (round 6), then 160 ms (7) and 200 ms (8 > 4 + 3):
    // Drain gives up and enters ProbeBW_DOWN; 30,000 > 10,000 keeps it there.
    h.send(10);
    while h.f.state() == State::Drain {
        h.now_us += RTT_US;
        let oldest: Vec<u64> = h.out.iter().take(10).map(|s| s.pn).collect();
        h.ack(&oldest, &[], 0, false);
        if h.f.state() == State::Drain {
            h.send(10);
        }
    }
    assert_eq!((h.now_us, h.f.round_count()), (200_000, 8));
    assert_eq!(h.f.state(), State::ProbeBwDown);
    assert_eq!(h.f.gains(), (230, 512)); // 0.90
    assert_eq!(h.f.bytes_in_flight(), 30_000);
    // Nothing more is sent: the next ACK leaves 20,000 > 10,000 (DOWN), the one after
    // 10,000 ≤ 10,000: CRUISE.
    for expected in [State::ProbeBwDown, State::ProbeBwCruise] {
        h.now_us += RTT_US;
        let oldest: Vec<u64> = h.out.iter().take(10).map(|s| s.pn).collect();
        h.ack(&oldest, &[], 0, false);
        assert_eq!(h.f.state(), expected);
    }
}

/// The flow of the plateau test without the queue, at t = 40 ms after round 4, with
/// `rand` scripted for the probe wait (0 rounds, 2 s).
fn in_probe_bw_cruise() -> Harness {
    let mut h = Harness::quic();
    h.rand = Script(vec![0, 0]);
    for _ in 0..4 {
        h.round(10);
    }
    // Round 4's ACK: plateau count 3, Drain; nothing in flight (0 ≤ BDP 10,000):
    // ProbeBW_DOWN (PickProbeWait draws 0 and 0) and, in the same ACK, CRUISE.
    assert_eq!(h.f.state(), State::ProbeBwCruise);
    h
}

#[test]
fn probe_bw_cycles_down_cruise_refill_up_and_back_down() {
    let mut h = in_probe_bw_cruise();
    assert_eq!(h.f.gains(), (256, 512));
    // PickProbeWait drew rounds_since_probe_up = 0 and a wait of 2 s + 0.
    // Reno-coexistence bound: min(TargetInflight / SMSS, 63) = min(min(BDP 10,000,
    // cwnd) / 1,000, 63) = 10 rounds. Rounds 1..=9: CRUISE; round 10: 10 ≥ 10: REFILL.
    for _ in 1..=9 {
        h.round(10);
        assert_eq!(h.f.state(), State::ProbeBwCruise);
    }
    h.round(10);
    assert_eq!(h.f.state(), State::ProbeBwRefill);
    assert_eq!(h.f.gains(), (256, 512));
    // One round of REFILL, then UP: pacing 1.25 (320), cwnd gain 2.25 (576).
    h.round(10);
    assert_eq!(h.f.state(), State::ProbeBwUp);
    assert_eq!(h.f.gains(), (320, 576));
    // UP's plateau detector restarts from this sample (full_bw = 65,536): three rounds
    // below 1.25× set full_bw_now, and UP ends: DOWN (0.90) again.
    h.round(10);
    h.round(10);
    assert_eq!(h.f.state(), State::ProbeBwUp);
    h.round(10);
    assert_eq!(h.f.state(), State::ProbeBwDown);
    assert_eq!(h.f.gains(), (230, 512));
    // DOWN's next ACK: 0 in flight ≤ 10,000: CRUISE.
    h.round(10);
    assert_eq!(h.f.state(), State::ProbeBwCruise);
}

#[test]
fn probe_rtt_is_entered_after_five_seconds_and_left_after_200_ms_and_a_round() {
    let mut h = in_probe_bw_cruise();
    // Every RTT sample is 10 ms, never below probe_rtt_min_delay (10 ms, stamped at
    // t = 10 ms): the 5 s filter expires once now > 10 ms + 5 s = 5.010 s.
    while h.now_us < 5_010_000 {
        h.round(10);
        assert_ne!(h.f.state(), State::ProbeRtt, "at {} µs", h.now_us);
    }
    // The ACK at 5.020 s: expired: ProbeRTT (pacing 1.0, cwnd gain 0.5).
    h.round(10);
    assert_eq!(h.now_us, 5_020_000);
    assert_eq!(h.f.state(), State::ProbeRtt);
    assert_eq!(h.f.gains(), (256, 128));
    // cwnd ≤ ProbeRTTCwnd = max(BDP × 0.5 = 5,000, MinPipeCwnd 4,000) = 5,000. In
    // flight 0 ≤ 5,000 at once: done stamp 5.020 + 0.2 = 5.220 s.
    assert!(h.f.cwnd() <= 5_000);
    // Rounds of 5 packets (within the cwnd): at 5.220 s, now > 5.220 s is still false.
    while h.now_us < 5_220_000 {
        h.round(5);
        assert_eq!(h.f.state(), State::ProbeRtt, "at {} µs", h.now_us);
    }
    // 5.230 s: a round done and the 200 ms past: exit; the pipe was full:
    // ProbeBW_DOWN, then at once CRUISE (0 in flight).
    h.round(5);
    assert_eq!(h.now_us, 5_230_000);
    assert_eq!(h.f.state(), State::ProbeBwCruise);
    // The cwnd saved at entry is restored (RestoreCwnd), then bounded by the model.
    assert!(h.f.cwnd() > 5_000);
}

/// In ProbeBW_UP with bandwidth-probe samples, after the cycle test's first 11 rounds.
fn in_probe_bw_up() -> Harness {
    let mut h = in_probe_bw_cruise();
    for _ in 0..11 {
        h.round(10);
    }
    assert_eq!(h.f.state(), State::ProbeBwUp);
    h
}

#[test]
fn a_loss_in_probe_bw_up_cuts_inflight_longterm_where_the_loss_rate_crossed_two_percent() {
    let mut h = in_probe_bw_up();
    assert_eq!(h.f.inflight_longterm(), None);
    // 10 packets leave with nothing in flight: the last one's P.tx_in_flight is
    // 10,000 bytes. It alone is lost: RS.lost = 1,000 > 10,000 × 5/256 = 195
    // (LossThresh 2 % is 5/256): too high.
    let pns: Vec<u64> = h.send(10).collect();
    h.now_us += RTT_US;
    let (acked, lost) = pns.split_at(9);
    h.ack(acked, lost, 0, false);
    // InflightAtLoss: inflight_prev = 10,000 − 1,000 = 9,000, lost_prev = 0;
    // loss_budget = ceil(9,000 × 5 / 256) = 176; lost_prefix = (176 << 8) / (256 − 5)
    // = 45,056 / 251 = 179; inflight_at_loss = 9,179. The floor TargetInflight × Beta
    // = min(BDP 10,000, cwnd) × 180/256 = 7,031 is lower: inflight_longterm = 9,179.
    assert_eq!(h.f.inflight_longterm(), Some(9_179));
    // HandleInflightTooHigh ended the probe (DOWN, on the loss); the ACK's cycle step
    // then finds 0 in flight below InflightWithHeadroom = 9,179 − max(9,179 × 38/256
    // = 1,362, SMSS) = 7,817 and the BDP: CRUISE, whose cwnd that headroom caps.
    assert_eq!(h.f.state(), State::ProbeBwCruise);
    assert!(h.f.cwnd() <= 7_817);
}

#[test]
fn startup_exits_on_loss_after_a_lossy_recovery_round() {
    let mut h = Harness::quic();
    // Round 1: 20 packets; 6 discontiguous ones (1, 3, 5, 7, 9, 11) are lost.
    // NoteLoss sets the loss round's end at C.delivered = 14,000 (the 14 acknowledged
    // ones are counted before the losses), so this ACK does not end the loss round.
    let pns: Vec<u64> = h.send(20).collect();
    h.now_us += RTT_US;
    let lost: Vec<u64> = pns
        .iter()
        .copied()
        .filter(|p| p % 2 == 1 && *p < 12)
        .collect();
    let acked: Vec<u64> = pns.iter().copied().filter(|p| !lost.contains(p)).collect();
    h.ack(&acked, &lost, 0, false);
    assert_eq!(h.f.state(), State::Startup);
    // Round 2: 20 more, again 6 discontiguous lost (21..=31 odd). The newest acked
    // packet (39) was sent with C.delivered = 14,000 ≥ 14,000: the loss round ends.
    // In recovery since round 1 (a full round); 12 ranges ≥ 6; RS.lost = C.lost
    // 12,000 − P.lost 6,000 = 6,000 > P.tx_in_flight 20,000 × 5/256 = 390: exit.
    let pns: Vec<u64> = h.send(20).collect();
    h.now_us += RTT_US;
    let lost: Vec<u64> = pns
        .iter()
        .copied()
        .filter(|p| p % 2 == 1 && *p < 32)
        .collect();
    let acked: Vec<u64> = pns.iter().copied().filter(|p| !lost.contains(p)).collect();
    h.ack(&acked, &lost, 0, false);
    assert!(h.f.full_bw_reached());
    // Both rounds delivered 14,000 bytes in 10 ms: max_bw = ceil(14,000 × 65,536 /
    // 10,000) = 91,751. inflight_longterm = max(BBR.bdp, inflight_latest) =
    // max(ceil(91,751 × 10,000 / 65,536) = 14,001, 14,000) = 14,001.
    assert_eq!(h.f.max_bw(), 91_751);
    assert_eq!(h.f.inflight_longterm(), Some(14_001));
    // Drain, and with nothing in flight, ProbeBW_DOWN and CRUISE in the same ACK.
    assert_eq!(h.f.state(), State::ProbeBwCruise);
}

#[test]
fn without_selective_acks_any_loss_in_recovery_ends_startup() {
    let mut config = Bbr3Config::quic(SMSS);
    config.has_selective_acks = false;
    let mut h = Harness::new(config);
    // Round 1: packet 9 of 10 lost: recovery starts; the loss round ends at C.delivered
    // = 9,000. Round 2: its ACK ends the loss round, still in recovery (the exit waits
    // for the end of this ACK): one loss suffices.
    let pns: Vec<u64> = h.send(10).collect();
    h.now_us += RTT_US;
    h.ack(&pns[..9], &pns[9..], 0, false);
    assert_eq!(h.f.state(), State::Startup);
    let pns: Vec<u64> = h.send(10).collect();
    h.now_us += RTT_US;
    h.ack(&pns[..9], &pns[9..], 0, false);
    assert!(h.f.full_bw_reached());
}

#[test]
fn two_startup_rounds_with_most_packets_ce_marked_end_startup() {
    let mut h = Harness::quic();
    // Each round's 10 packets all carry CE. At each round start the CE ratio is
    // (10 << 8) / 10 = 256 ≥ 128 (ECN_THRESH): a high-CE round; alpha stays
    // (240 × 256 >> 8) + (16 × 256 >> 8) = 256.
    for round in 1..=2 {
        let pns: Vec<u64> = h.send(10).collect();
        h.now_us += RTT_US;
        h.ack(&pns, &[], 10, false);
        assert_eq!(h.f.full_bw_reached(), round == 2);
    }
    assert_eq!(h.f.ecn_alpha(), 256);
    // The second round ends Startup: inflight_longterm = max(BDP = 10,000,
    // inflight_latest = 10,000) = 10,000; nothing in flight: through Drain and
    // ProbeBW_DOWN to CRUISE in the same ACK (0 ≤ InflightWithHeadroom = 10,000 −
    // max(10,000 × 38/256 = 1,484, SMSS) = 8,516).
    assert_eq!(h.f.inflight_longterm(), Some(10_000));
    assert_eq!(h.f.state(), State::ProbeBwCruise);
}

#[test]
fn ce_marks_in_cruise_cut_inflight_shortterm_by_alpha_over_three() {
    let mut h = in_probe_bw_cruise();
    assert_eq!(h.f.inflight_shortterm(), None);
    let alpha = u32::from(h.f.ecn_alpha());
    let cwnd = h.f.cwnd();
    // A round with 5 of 10 packets CE-marked. At its round start alpha takes the
    // round's ratio (5 << 8) / 10 = 128: alpha' = (240 × alpha >> 8) + (16 × 128 >> 8)
    // = (240 × alpha >> 8) + 8. At the loss-round end, outside probing,
    // inflight_shortterm starts at cwnd and is cut by 1 − alpha'/3:
    // cwnd × (256 − (alpha' × 85 >> 8)) >> 8.
    let pns: Vec<u64> = h.send(10).collect();
    h.now_us += RTT_US;
    h.ack(&pns, &[], 5, false);
    let alpha2 = ((240 * alpha) >> 8) + 8;
    assert_eq!(u32::from(h.f.ecn_alpha()), alpha2);
    let expected = ((u64::from(cwnd) * u64::from(256 - ((alpha2 * 85) >> 8))) >> 8) as u32;
    assert_eq!(h.f.inflight_shortterm(), Some(expected));
    assert!(expected < cwnd);
    assert!(h.f.cwnd() <= expected.max(h.p.min_pipe_cwnd()));
}

#[test]
fn a_spurious_recovery_restores_the_model_and_returns_to_startup() {
    let mut h = Harness::quic();
    // The loss scenario's two rounds end Startup with inflight_longterm 14,001.
    for round in 0..2u64 {
        let pns: Vec<u64> = h.send(20).collect();
        h.now_us += RTT_US;
        let lost: Vec<u64> = pns
            .iter()
            .copied()
            .filter(|p| p % 2 == 1 && *p < 12 + 20 * round)
            .collect();
        let acked: Vec<u64> = pns.iter().copied().filter(|p| !lost.contains(p)).collect();
        h.ack(&acked, &lost, 0, false);
    }
    assert!(h.f.full_bw_reached());
    // The losses were spurious: undo_state Startup: back to Startup, and
    // inflight_longterm back to at least its saved value (Infinity).
    h.f.on_spurious_loss();
    assert_eq!(h.f.state(), State::Startup);
    assert!(!h.f.full_bw_reached());
    assert_eq!(h.f.inflight_longterm(), None);
}

#[test]
fn persistent_congestion_leaves_room_for_one_packet() {
    let mut h = in_probe_bw_cruise();
    h.send(3);
    // OnEnterRTO: cwnd = C.inflight + 1 SMSS = 3,000 + 1,000.
    h.f.on_persistent_congestion(&h.p);
    assert_eq!(h.f.cwnd(), 4_000);
    h.f.invariants(&h.p).expect("invariants");
}

#[test]
fn bad_configurations_are_refused_by_name() {
    use congestion::ConfigError;
    assert_eq!(
        Bbr3Config::quic(0).validate(),
        Err(ConfigError::MssOutOfRange)
    );
    assert_eq!(
        Bbr3Config::quic(70_000).validate(),
        Err(ConfigError::MssOutOfRange)
    );
    let mut c = Bbr3Config::quic(1200);
    c.initial_cwnd = 100;
    assert_eq!(c.validate(), Err(ConfigError::InitialWindowOutOfRange));
    let mut c = Bbr3Config::quic(1200);
    c.pacing_offload_bytes = 1 << 30;
    assert!(matches!(
        c.validate(),
        Err(ConfigError::ParamOutOfRange {
            field: "pacing_offload_bytes",
            ..
        })
    ));
}

/// A deterministic generator for the invariant test (xorshift64*).
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

impl RandomSource for Gen {
    fn below(&mut self, ceil: u32) -> u32 {
        Gen::below(self, u64::from(ceil)) as u32
    }
}

#[test]
fn cwnd_never_falls_below_the_minimum_and_pacing_stays_positive_under_any_events() {
    for seed in 1..=40u64 {
        let mut g = Gen(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let smss = 1200 + g.below(300) as u32;
        let p = Bbr3Config::quic(smss).validate().expect("valid");
        let mut f = Bbr3::new(&p, Instant::ZERO);
        let mut now = 0u64;
        let mut pn = 0u64;
        let mut out: Vec<(u64, TxSnapshot, Instant, u32)> = Vec::new();
        let mut lost_list: Vec<(u64, TxSnapshot, Instant, u32)> = Vec::new();
        let mut ce = 0u64;
        let mut rand = Gen(seed);
        for _ in 0..3000 {
            now += g.below(20_000);
            let t = Instant::from_micros(now);
            match g.below(10) {
                0..=3 => {
                    for _ in 0..=g.below(8) {
                        let bytes = 1 + g.below(u64::from(smss)) as u32;
                        let tx = f.on_packet_sent(t, pn, bytes, &mut rand);
                        out.push((pn, tx, t, bytes));
                        pn += 1;
                    }
                }
                4..=7 => {
                    let n = g.below(out.len() as u64 + 1) as usize;
                    let mut acked = 0;
                    for _ in 0..n {
                        if out.is_empty() {
                            break;
                        }
                        let i = g.below(out.len() as u64) as usize;
                        let (q, mut tx, at, bytes) = out.remove(i);
                        if g.below(8) == 0 {
                            f.on_packet_lost(&p, t, &tx, q, bytes, &mut rand);
                            lost_list.push((q, tx, at, bytes));
                        } else if g.below(16) == 0 && !lost_list.is_empty() {
                            let (lq, mut ltx, lat, lbytes) = lost_list.remove(0);
                            f.on_lost_packet_acked(&mut ltx, lat, lq, lbytes);
                            out.push((q, tx, at, bytes));
                        } else {
                            f.on_packet_acked(&mut tx, at, q, bytes);
                            acked += 1;
                        }
                    }
                    if g.below(4) == 0 {
                        ce += g.below(acked + 1);
                    }
                    let mut ack = Bbr3Ack::with_rtt_us(1 + g.below(200_000));
                    if acked == 0 {
                        ack.rtt_us = None;
                    }
                    ack.srtt_us = 50_000;
                    ack.ecn_ce_count = ce;
                    ack.is_cwnd_limited = g.below(2) == 0;
                    f.on_ack(&p, t, &ack, &mut rand);
                    assert!(f.cwnd() >= p.min_pipe_cwnd(), "seed {seed}");
                }
                8 => f.on_app_limited(),
                _ => match g.below(3) {
                    0 => f.on_persistent_congestion(&p),
                    1 => f.on_spurious_loss(),
                    _ => {
                        if let Some((_, _, _, bytes)) = out.pop() {
                            f.on_packet_discarded(bytes);
                        }
                    }
                },
            }
            f.invariants(&p)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert!(f.pacing_rate() > 0);
        }
    }
}

#[test]
fn restarting_from_idle_in_probe_bw_paces_at_exactly_bw() {
    let mut h = in_probe_bw_cruise();
    // As the cycle test: 10 rounds to REFILL, 1 to UP, 3 more to DOWN.
    for _ in 0..14 {
        h.round(10);
    }
    assert_eq!(h.f.state(), State::ProbeBwDown);
    // DOWN paces at 0.90: 65,536 × 230 >> 8 = 58,880, × 990,000 >> 16 = 889,453 B/s
    // (the kernel's bbr_rate_bytes_per_sec with the 1 % margin, in bytes).
    assert_eq!(h.f.pacing_rate(), 889_453);
    // SetSendQuantum: 889,453 B/s × 1 ms = 889 bytes, raised to 2 SMSS = 2,000.
    assert_eq!(h.f.send_quantum(), 2_000);
    // The application runs dry (nothing in flight < cwnd: app-limited); the next send
    // restarts from idle: SetPacingRateWithGain(1): 65,536 × 990,000 >> 16 = 990,000.
    h.f.on_app_limited();
    h.now_us += 1_000;
    h.send(1);
    assert_eq!(h.f.pacing_rate(), 990_000);
    assert_eq!(h.f.state(), State::ProbeBwDown);
}

#[test]
fn application_limited_rounds_never_end_startup() {
    // Draft appendix A.7: rate samples of an app-limited flow are not full-pipe
    // evidence (CheckFullBWReached returns on RS.is_app_limited).
    let mut h = Harness::quic();
    for _ in 0..20 {
        h.f.on_app_limited();
        h.round(5);
    }
    assert_eq!(h.f.state(), State::Startup);
    assert!(!h.f.full_bw_reached());
    // App-limited samples still enter max_bw when they are not lower than it (§5.5.4):
    // 5 packets per 10 ms = 5,000 × 65,536 / 10,000 = 32,768.
    assert_eq!(h.f.max_bw(), 32_768);
}

#[test]
fn a_lost_offload_burst_cuts_inflight_longterm_no_lower_than_beta_times_the_target() {
    let mut h = in_probe_bw_up();
    // Two 5,000-byte offload bursts leave with nothing in flight: P.tx_in_flight is
    // 5,000 for the first and 10,000 for the second. The second is lost as one unit:
    // RS.lost = 5,000 > 10,000 × 5/256 = 195: too high.
    let t = h.now();
    let mut first = h.f.on_packet_sent(t, 1000, 5_000, &mut h.rand);
    let second = h.f.on_packet_sent(t, 1001, 5_000, &mut h.rand);
    h.now_us += RTT_US;
    let now = h.now();
    h.f.on_packet_acked(&mut first, t, 1000, 5_000);
    h.f.on_packet_lost(&h.p, now, &second, 1001, 5_000, &mut h.rand);
    // InflightAtLoss: inflight_prev = 5,000, lost_prev = 0; loss_budget =
    // ceil(5,000 × 5 / 256) = 98; lost_prefix = (98 << 8) / 251 = 99: 5,099. The floor
    // TargetInflight × Beta = 10,000 × 180/256 = 7,031 is higher: 7,031.
    assert_eq!(h.f.inflight_longterm(), Some(7_031));
    assert_eq!(h.f.state(), State::ProbeBwDown);
    h.f.on_ack(&h.p, now, &Bbr3Ack::with_rtt_us(RTT_US), &mut h.rand);
    h.f.invariants(&h.p).expect("invariants");
}

#[test]
fn a_ce_fraction_above_half_while_probing_ends_probe_bw_up() {
    let mut h = in_probe_bw_up();
    // A probing round with 6 of 10 packets CE-marked: 6 > 10 × 128/256 = 5 (the
    // kernel's bbr_is_inflight_too_high ECN test): HandleInflightTooHigh with the
    // sample's P.tx_in_flight 10,000: inflight_longterm = max(10,000, 7,031) = 10,000,
    // and the probe ends (DOWN). The round start came first, so the short-term model
    // was left alone (UP was probing then).
    let pns: Vec<u64> = h.send(10).collect();
    h.now_us += RTT_US;
    h.ack(&pns, &[], 6, false);
    assert_eq!(h.f.inflight_longterm(), Some(10_000));
    assert_eq!(h.f.state(), State::ProbeBwDown);
    assert_eq!(h.f.inflight_shortterm(), None);
}

#[test]
fn a_late_ack_of_a_lost_packet_counts_as_delivered_but_not_twice_out_of_flight() {
    let mut h = Harness::quic();
    let pns: Vec<u64> = h.send(3).collect();
    h.now_us += RTT_US;
    // Packet 0 is declared lost: 3,000 − 1,000 = 2,000 in flight.
    let lost = h.take(pns[0]);
    let now = h.now();
    h.f.on_packet_lost(&h.p, now, &lost.tx, lost.pn, lost.bytes, &mut h.rand);
    assert_eq!(h.f.bytes_in_flight(), 2_000);
    // Its ACK arrives after all, with packet 1's: only packet 1 leaves the flight.
    let mut late = lost;
    h.f.on_lost_packet_acked(&mut late.tx, late.at, late.pn, late.bytes);
    assert_eq!(h.f.bytes_in_flight(), 2_000);
    h.ack(&[pns[1]], &[], 0, false);
    assert_eq!(h.f.bytes_in_flight(), 1_000);
    // Both count as delivered: 2,000 bytes in 10 ms = ceil(2,000 × 65,536 / 10,000).
    assert_eq!(h.f.max_bw(), 13_108);
}
